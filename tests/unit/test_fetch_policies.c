/*
** test_fetch_policies.c -- the six priority fetch policies of the
** fetch-dram study (icount, lrf, fair, all, bar, mem-bar; specs/fetch-dram.md
** Sec. 2.1) on constructed views: each reads its own key and no other,
** skips warps that cannot fetch, breaks ties by lowest slot (tie=0) or
** round-robin (tie=1), ranks unknown oracle values lowest; ICOUNT starves
** high slots under the fixed tie-break and not under round-robin; the
** `tie` parameter is parsed and bounded by the registry.
*/
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "policy/policy.h"

#define MAXW 8

static const char *const six[] = { "icount", "lrf", "fair", "all", "bar", "mem-bar" };
#define NSIX (sizeof six / sizeof six[0])

typedef struct rig {
    const ws_fetch_ops *ops;
    void *st;
    ws_fetch_warp_view w[MAXW];
    ws_fetch_view v;
} rig;

/* Policy `name` with parameters `params` ("k=v" text, parsed as the
   configuration is) over `n` warps, all able to fetch, keys all zero,
   oracle values unknown. */
static void rig_open(rig *r, const char *name, const char *params, uint32_t n)
{
    memset(r, 0, sizeof *r);
    r->ops = ws_find_fetch(name);
    assert_non_null(r->ops);
    ws_param_values pv;
    char err[256];
    if (ws_params_parse(name, r->ops->params, params, &pv, err, sizeof err) != 0)
        fail_msg("%s", err);
    ws_policy_env env = { .nsms = 1, .nwarps = n, .nsched = 1 };
    r->st = r->ops->init(&pv, &env);
    assert_non_null(r->st);
    for (uint32_t i = 0; i < n; i++) {
        r->w[i].slot = i;
        r->w[i].uid = i;
        r->w[i].age = i;
        r->w[i].can_fetch = true;
        r->w[i].oracle_remaining = -1;
        r->w[i].oracle_to_barrier = -1;
        r->w[i].oracle_mem_to_barrier = -1;
    }
    r->v.nwarps = n;
    r->v.warps = r->w;
}

static void rig_close(rig *r)
{
    r->ops->destroy(r->st);
}

/* Ask for a pick; a returned slot must be a warp that can fetch. */
static int rig_pick(rig *r)
{
    int w = r->ops->pick(r->st, &r->v);
    if (w >= 0) {
        assert_true((uint32_t)w < r->v.nwarps);
        assert_true(r->w[w].can_fetch);
    }
    return w;
}

/* The core's side of a fetch for warp `w` at the current cycle. */
static void rig_fetch(rig *r, int w)
{
    ws_fetch_warp_view *x = &r->w[w];
    x->fetched++;
    x->ibuf_count++;
    x->last_fetch = r->v.cycle;
    if (x->oracle_remaining > 0)
        x->oracle_remaining--;
    if (x->oracle_to_barrier > 0)
        x->oracle_to_barrier--;
}

/* ------------------------------------------------------------------ */
/* Registry and parameters                                             */
/* ------------------------------------------------------------------ */

static void test_registered(void **state)
{
    (void)state;
    char names[512];
    ws_registry_names(NULL, WS_KIND_FETCH, names, sizeof names);
    assert_string_equal(names, "rr, icount, lrf, fair, all, bar, mem-bar");
    for (size_t i = 0; i < NSIX; i++) {
        const ws_fetch_ops *o = ws_find_fetch(six[i]);
        assert_non_null(o);
        assert_string_equal(o->name, six[i]);
        assert_non_null(o->summary);
        assert_non_null(o->pick);
        /* the oracle profile is computed only for policies that ask */
        bool oracle = i >= 3;
        assert_int_equal((o->needs & WS_NEED_ORACLE) != 0, oracle);
    }
}

static void test_tie_param(void **state)
{
    (void)state;
    for (size_t i = 0; i < NSIX; i++) {
        const ws_fetch_ops *o = ws_find_fetch(six[i]);
        ws_param_values pv;
        char err[256];
        assert_int_equal(ws_params_parse(six[i], o->params, "", &pv, err, sizeof err), 0);
        assert_int_equal(pv.n, 1);
        assert_int_equal(pv.v[0], 0);   /* lowest slot first, spec Sec. 2.0 */
        assert_int_equal(ws_params_parse(six[i], o->params, "tie=1", &pv, err, sizeof err), 0);
        assert_int_equal(pv.v[0], 1);
        assert_int_equal(ws_params_parse(six[i], o->params, "tie=2", &pv, err, sizeof err), -1);
        assert_non_null(strstr(err, "tie=2"));
        assert_non_null(strstr(err, six[i]));
        assert_int_equal(ws_params_parse(six[i], o->params, "tie=-1", &pv, err, sizeof err), -1);
        assert_int_equal(ws_params_parse(six[i], o->params, "ties=1", &pv, err, sizeof err), -1);
    }
}

/* ------------------------------------------------------------------ */
/* Every policy: eligibility and both tie-breaks                       */
/* ------------------------------------------------------------------ */

/* Fill every key so that slot 3 would win under each *other* policy's
   key; a policy that read the wrong field would pick 3. */
static void set_decoys(rig *r)
{
    for (uint32_t i = 0; i < r->v.nwarps; i++) {
        bool d = i == 3;
        r->w[i].ibuf_count = d ? 0 : 9;
        r->w[i].last_fetch = d ? 0 : 50;
        r->w[i].fetched = d ? 0 : 50;
        r->w[i].oracle_remaining = d ? 1000 : 1;
        r->w[i].oracle_to_barrier = d ? 1000 : 1;
        r->w[i].oracle_mem_to_barrier = d ? 1000 : 1;
    }
}

/* Give warp `i` "goodness" `g` on policy `name`'s own key (higher g =
   fetched sooner), leaving the other fields as they are. */
static void set_good(rig *r, const char *name, uint32_t i, uint32_t g)
{
    ws_fetch_warp_view *x = &r->w[i];
    if (strcmp(name, "icount") == 0)
        x->ibuf_count = 20 - g;
    else if (strcmp(name, "lrf") == 0)
        x->last_fetch = 100 - g;
    else if (strcmp(name, "fair") == 0)
        x->fetched = 100 - g;
    else if (strcmp(name, "all") == 0)
        x->oracle_remaining = g;
    else if (strcmp(name, "bar") == 0)
        x->oracle_to_barrier = g;
    else
        x->oracle_mem_to_barrier = g;
}

/* Goodness per slot: slot 1 is best but cannot fetch, slots 2 and 4 tie
   next, slot 3 is poor on the policy's own key (best on the decoys). */
static const uint32_t good6[6] = { 2, 9, 5, 1, 5, 0 };

static void rig_open_keys(rig *r, const char *name, const char *params)
{
    rig_open(r, name, params, 6);
    set_decoys(r);
    for (uint32_t i = 0; i < 6; i++)
        set_good(r, name, i, good6[i]);
    r->w[1].can_fetch = false;
}

static void test_key_lowest_slot(void **state)
{
    (void)state;
    for (size_t p = 0; p < NSIX; p++) {
        rig r;
        rig_open_keys(&r, six[p], "");
        for (int k = 0; k < 3; k++)   /* the same view: the same pick */
            if (rig_pick(&r) != 2)
                fail_msg("%s tie=0: expected slot 2", six[p]);
        r.w[2].can_fetch = false;     /* picked this cycle: the other one */
        assert_int_equal(rig_pick(&r), 4);
        r.w[4].can_fetch = false;
        assert_int_equal(rig_pick(&r), 0);   /* then the next key down */
        rig_close(&r);
    }
}

static void test_key_round_robin(void **state)
{
    (void)state;
    for (size_t p = 0; p < NSIX; p++) {
        rig r;
        rig_open_keys(&r, six[p], "tie=1");
        const int expect[] = { 2, 4, 2, 4, 2 };   /* rotates among the tied */
        for (size_t k = 0; k < sizeof expect / sizeof expect[0]; k++) {
            int got = rig_pick(&r);
            if (got != expect[k])
                fail_msg("%s tie=1 call %zu: picked %d, expected %d", six[p], k, got, expect[k]);
        }
        /* a better warp still wins whatever the rotation says */
        set_good(&r, six[p], 0, 7);
        assert_int_equal(rig_pick(&r), 0);
        assert_int_equal(rig_pick(&r), 0);
        rig_close(&r);
    }
}

/* With tie=1 the turn starts after the last pick, circularly: three
   warps tied at slots 0, 2, 5 come round as 0, 2, 5, 0. */
static void test_round_robin_wraps(void **state)
{
    (void)state;
    for (size_t p = 0; p < NSIX; p++) {
        rig r;
        rig_open(&r, six[p], "tie=1", 6);
        set_decoys(&r);
        for (uint32_t i = 0; i < 6; i++)
            set_good(&r, six[p], i, i == 0 || i == 2 || i == 5 ? 4 : 1);
        const int expect[] = { 0, 2, 5, 0, 2 };
        for (size_t k = 0; k < sizeof expect / sizeof expect[0]; k++)
            assert_int_equal(rig_pick(&r), expect[k]);
        rig_close(&r);
    }
}

static void test_none_eligible(void **state)
{
    (void)state;
    for (size_t p = 0; p < NSIX; p++)
        for (int tie = 0; tie <= 1; tie++) {
            rig r;
            rig_open_keys(&r, six[p], tie ? "tie=1" : "");
            for (uint32_t i = 0; i < 6; i++)
                r.w[i].can_fetch = false;
            assert_int_equal(rig_pick(&r), -1);
            r.w[5].can_fetch = true;          /* the poorest, but alone */
            assert_int_equal(rig_pick(&r), 5);
            r.v.nwarps = 0;
            assert_int_equal(rig_pick(&r), -1);
            rig_close(&r);
        }
}

/* ------------------------------------------------------------------ */
/* ICOUNT starvation (the paper's pathology) and its round-robin cure  */
/* ------------------------------------------------------------------ */

/*
** A small fetch/dispatch loop over `n` warps: every call fetches for the
** picked warp (its ibuf_count goes up by one, the instruction joins the
** in-order common issue queue), and every `every` calls the dispatch
** takes the oldest instruction of that queue, whoever's it is.  picks[w]
** counts the picks of warp w over `calls` calls.
*/
static void icount_loop(const char *params, uint32_t n, uint32_t every, uint32_t calls,
                        uint32_t *picks)
{
    rig r;
    rig_open(&r, "icount", params, n);
    uint32_t queue[64], head = 0, tail = 0;   /* slots, in fetch order */
    memset(picks, 0, n * sizeof *picks);
    for (uint32_t c = 1; c <= calls; c++) {
        r.v.cycle = c;
        for (uint32_t i = 0; i < n; i++)
            r.w[i].can_fetch = r.w[i].ibuf_count < 2;   /* a 2-entry buffer */
        int w = rig_pick(&r);
        if (w >= 0) {
            rig_fetch(&r, w);
            picks[w]++;
            assert_true(tail - head < 64);
            queue[tail++ % 64] = (uint32_t)w;
        }
        if (c % every == 0 && head != tail)
            r.w[queue[head++ % 64]].ibuf_count--;
    }
    rig_close(&r);
}

static void test_icount_starvation(void **state)
{
    (void)state;
    enum { N = 4, CALLS = 400 };
    uint32_t picks[N];
    /* dispatch keeps pace with fetch: every warp is back at 0 undispatched
       before the next pick, so all tie and the fixed order always takes
       slot 0; the high slots are never fetched for */
    icount_loop("", N, 1, CALLS, picks);
    assert_int_equal(picks[0], CALLS);
    for (uint32_t i = 1; i < N; i++)
        if (picks[i] != 0)
            fail_msg("tie=0: warp %u fetched %u times, expected starvation", i, picks[i]);
    /* the same loop with round-robin ties: each warp gets its equal share */
    icount_loop("tie=1", N, 1, CALLS, picks);
    for (uint32_t i = 0; i < N; i++)
        assert_int_equal(picks[i], CALLS / N);
}

/* A slower dispatch fills the buffers, so ICOUNT no longer starves
   anyone: the fetch goes where the dispatch freed room.  Under both
   tie-breaks every warp is fetched for. */
static void test_icount_slow_dispatch(void **state)
{
    (void)state;
    enum { N = 4, CALLS = 400 };
    uint32_t picks[N];
    for (int tie = 0; tie <= 1; tie++) {
        icount_loop(tie ? "tie=1" : "", N, 3, CALLS, picks);
        for (uint32_t i = 0; i < N; i++)
            if (picks[i] < CALLS / 3 / N)
                fail_msg("tie=%d: warp %u fetched only %u times", tie, i, picks[i]);
    }
}

/* ------------------------------------------------------------------ */
/* LRF and FAIR                                                        */
/* ------------------------------------------------------------------ */

/* With every warp able to fetch, LRF and FAIR visit the warps in turn:
   the warp just fetched for goes to the back. */
static void test_lrf_fair_rotate(void **state)
{
    (void)state;
    const char *names[] = { "lrf", "fair" };
    for (size_t p = 0; p < 2; p++) {
        rig r;
        rig_open(&r, names[p], "", 4);
        for (uint32_t c = 1; c <= 12; c++) {
            r.v.cycle = c;
            int w = rig_pick(&r);
            assert_int_equal(w, (int)((c - 1) % 4));
            rig_fetch(&r, w);
        }
        rig_close(&r);
    }
}

/* A warp of a CTA launched at cycle 40 has last_fetch = 40 (the core's
   launch-cycle rule): older warps that last fetched before 40 go first,
   and it goes before those that fetched after.  FAIR instead takes the
   newcomer (fetched = 0) first: the literal counts of spec Sec. 7 item 2. */
static void test_late_warp(void **state)
{
    (void)state;
    rig r;
    rig_open(&r, "lrf", "", 3);
    r.w[0].last_fetch = 45; r.w[0].fetched = 30;
    r.w[1].last_fetch = 38; r.w[1].fetched = 28;
    r.w[2].last_fetch = 40; r.w[2].fetched = 0;    /* launched at 40 */
    assert_int_equal(rig_pick(&r), 1);
    r.w[1].last_fetch = 46;
    assert_int_equal(rig_pick(&r), 2);
    rig_close(&r);

    rig_open(&r, "fair", "", 3);
    r.w[0].last_fetch = 45; r.w[0].fetched = 30;
    r.w[1].last_fetch = 38; r.w[1].fetched = 28;
    r.w[2].last_fetch = 40; r.w[2].fetched = 0;
    assert_int_equal(rig_pick(&r), 2);
    r.w[2].can_fetch = false;
    assert_int_equal(rig_pick(&r), 1);
    rig_close(&r);
}

/* ------------------------------------------------------------------ */
/* ALL, BAR, MEM_BAR                                                   */
/* ------------------------------------------------------------------ */

static void test_all_most_remaining(void **state)
{
    (void)state;
    rig r;
    rig_open(&r, "all", "", 5);
    const int64_t rem[] = { 10, 30, 20, 30, 5 };
    for (uint32_t i = 0; i < 5; i++)
        r.w[i].oracle_remaining = rem[i];
    assert_int_equal(rig_pick(&r), 1);      /* 30, lowest slot of the two */
    r.w[1].can_fetch = false;
    assert_int_equal(rig_pick(&r), 3);
    r.w[3].can_fetch = false;
    assert_int_equal(rig_pick(&r), 2);
    rig_close(&r);
}

/* Warps of equal length under the same tie-break: ALL picks as FAIR does
   (spec Sec. 2.1 item 5), here over a loop with changing eligibility. */
static void test_all_equals_fair_when_symmetric(void **state)
{
    (void)state;
    rig a, f;
    rig_open(&a, "all", "", 5);
    rig_open(&f, "fair", "", 5);
    for (uint32_t i = 0; i < 5; i++)
        a.w[i].oracle_remaining = 200;
    for (uint32_t c = 1; c <= 60; c++) {
        for (uint32_t i = 0; i < 5; i++)   /* a fixed, uneven stall pattern */
            a.w[i].can_fetch = f.w[i].can_fetch = (c * 7 + i * 3) % 5 != 0;
        int wa = rig_pick(&a), wf = rig_pick(&f);
        assert_int_equal(wa, wf);
        assert_true(wa >= 0);
        rig_fetch(&a, wa);
        rig_fetch(&f, wf);
    }
    rig_close(&a);
    rig_close(&f);
}

/* Past its last barrier a warp's to_barrier is its remaining count (the
   core's fallback), and BAR then picks exactly as ALL. */
static void test_bar_falls_back_to_all(void **state)
{
    (void)state;
    const int64_t rem[][4] = { { 10, 40, 25, 40 }, { 3, 2, 1, 0 }, { 0, 0, 7, 7 } };
    for (size_t k = 0; k < 3; k++) {
        rig a, b;
        rig_open(&a, "all", "", 4);
        rig_open(&b, "bar", "", 4);
        for (uint32_t i = 0; i < 4; i++) {
            a.w[i].oracle_remaining = b.w[i].oracle_remaining = rem[k][i];
            a.w[i].oracle_to_barrier = b.w[i].oracle_to_barrier = rem[k][i];
        }
        const int expect[] = { 1, 0, 2 };
        assert_int_equal(rig_pick(&a), expect[k]);
        assert_int_equal(rig_pick(&b), expect[k]);
        rig_close(&a);
        rig_close(&b);
    }
}

/* Before a barrier BAR and ALL differ: BAR takes the most work before the
   barrier (the paper's Fig. 2(b)), ALL the most work in total. */
static void test_bar_before_barrier(void **state)
{
    (void)state;
    rig a, b;
    rig_open(&a, "all", "", 3);
    rig_open(&b, "bar", "", 3);
    const int64_t rem[] = { 50, 40, 45 }, bar[] = { 5, 30, 12 };
    for (uint32_t i = 0; i < 3; i++) {
        a.w[i].oracle_remaining = b.w[i].oracle_remaining = rem[i];
        a.w[i].oracle_to_barrier = b.w[i].oracle_to_barrier = bar[i];
    }
    assert_int_equal(rig_pick(&a), 0);
    assert_int_equal(rig_pick(&b), 1);
    rig_close(&a);
    rig_close(&b);
}

static void test_mem_bar_keys(void **state)
{
    (void)state;
    rig r;
    rig_open(&r, "mem-bar", "", 5);
    const int64_t mem[] = { 2, 4, 4, 1, 4 }, bar[] = { 90, 3, 7, 20, 7 };
    for (uint32_t i = 0; i < 5; i++) {
        r.w[i].oracle_mem_to_barrier = mem[i];
        r.w[i].oracle_to_barrier = bar[i];
        r.w[i].oracle_remaining = 100;
    }
    /* primary: 4 memory instructions (1, 2, 4); secondary: the most
       instructions to the barrier (7: 2 and 4); then the lowest slot */
    assert_int_equal(rig_pick(&r), 2);
    r.w[2].can_fetch = false;
    assert_int_equal(rig_pick(&r), 4);
    r.w[4].can_fetch = false;
    assert_int_equal(rig_pick(&r), 1);      /* more memory beats more work */
    r.w[1].can_fetch = false;
    assert_int_equal(rig_pick(&r), 0);
    rig_close(&r);
}

/* With the same memory count everywhere MEM_BAR "behaves identical to
   BAR" (spec Sec. 2.1 item 7). */
static void test_mem_bar_equal_mem_is_bar(void **state)
{
    (void)state;
    rig m, b;
    rig_open(&m, "mem-bar", "", 4);
    rig_open(&b, "bar", "", 4);
    const int64_t bar[] = { 6, 11, 2, 11 };
    for (uint32_t i = 0; i < 4; i++) {
        m.w[i].oracle_mem_to_barrier = b.w[i].oracle_mem_to_barrier = 3;
        m.w[i].oracle_to_barrier = b.w[i].oracle_to_barrier = bar[i];
    }
    for (int k = 0; k < 3; k++) {
        int wm = rig_pick(&m), wb = rig_pick(&b);
        assert_int_equal(wm, wb);
        assert_int_equal(wm, k == 0 ? 1 : k == 1 ? 3 : 0);
        m.w[wm].can_fetch = b.w[wb].can_fetch = false;
    }
    rig_close(&m);
    rig_close(&b);
}

/* Unknown oracle values (-1) rank lowest, level with 0: they never beat a
   known positive count (as an unsigned -1 would), and tie with 0. */
static void test_oracle_unknown(void **state)
{
    (void)state;
    for (size_t p = 3; p < NSIX; p++) {
        rig r;
        rig_open(&r, six[p], "", 4);   /* every oracle value -1 */
        assert_int_equal(rig_pick(&r), 0);
        set_good(&r, six[p], 2, 1);
        assert_int_equal(rig_pick(&r), 2);
        set_good(&r, six[p], 2, 0);    /* 0 ties with unknown: lowest slot */
        assert_int_equal(rig_pick(&r), 0);
        r.w[0].can_fetch = false;
        assert_int_equal(rig_pick(&r), 1);
        rig_close(&r);
    }
    /* MEM_BAR: unknown memory count, known distance: the distance decides */
    rig r;
    rig_open(&r, "mem-bar", "", 3);
    r.w[0].oracle_mem_to_barrier = -1; r.w[0].oracle_to_barrier = 4;
    r.w[1].oracle_mem_to_barrier = 0;  r.w[1].oracle_to_barrier = 9;
    r.w[2].oracle_mem_to_barrier = -1; r.w[2].oracle_to_barrier = -1;
    assert_int_equal(rig_pick(&r), 1);
    r.w[1].oracle_mem_to_barrier = 1;
    r.w[1].oracle_to_barrier = 0;
    r.w[0].oracle_mem_to_barrier = 0;
    assert_int_equal(rig_pick(&r), 1);
    rig_close(&r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_registered),
        cmocka_unit_test(test_tie_param),
        cmocka_unit_test(test_key_lowest_slot),
        cmocka_unit_test(test_key_round_robin),
        cmocka_unit_test(test_round_robin_wraps),
        cmocka_unit_test(test_none_eligible),
        cmocka_unit_test(test_icount_starvation),
        cmocka_unit_test(test_icount_slow_dispatch),
        cmocka_unit_test(test_lrf_fair_rotate),
        cmocka_unit_test(test_late_warp),
        cmocka_unit_test(test_all_most_remaining),
        cmocka_unit_test(test_all_equals_fair_when_symmetric),
        cmocka_unit_test(test_bar_falls_back_to_all),
        cmocka_unit_test(test_bar_before_barrier),
        cmocka_unit_test(test_mem_bar_keys),
        cmocka_unit_test(test_mem_bar_equal_mem_is_bar),
        cmocka_unit_test(test_oracle_unknown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
