/*
** test_policy_warp.c -- warp-scheduler policies on constructed warp states.
** A small driver plays the core's part: each cycle it sets every warp's
** state from a pattern string, calls order(), then issues the first ready
** warp that may_issue() allows and reports it through on_issue().  The
** tests assert the exact issue sequence of each policy.
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

enum { MAXW = 16 };

typedef struct rig {
    const ws_warp_sched_ops *ops;
    void *st;
    ws_warp_view w[MAXW];
    ws_sched_view v;
    uint32_t order[MAXW];
    uint32_t norder;
    uint32_t cand[MAXW];   /* one scheduler unit holding every slot */
} rig;

/* `params` is the "k=v,k=v" text; ages[i] is warp i's age. */
static void rig_open(rig *r, const char *policy, const char *params, uint32_t n,
                     const uint64_t *ages)
{
    memset(r, 0, sizeof *r);
    r->ops = ws_find_warp_sched(policy);
    assert_non_null(r->ops);
    ws_param_values pv;
    char err[256];
    assert_int_equal(ws_params_parse(policy, r->ops->params, params, &pv, err, sizeof err), 0);
    ws_policy_env env = { .nsms = 1, .nwarps = n, .nsched = 1, .max_ctas = 8 };
    r->st = r->ops->init(&pv, &env);
    assert_non_null(r->st);
    for (uint32_t i = 0; i < n; i++) {
        r->cand[i] = i;
        r->w[i].slot = i;
        r->w[i].age = ages[i];
        r->w[i].cta_slot = i / 4;
        r->w[i].warp_in_cta = i % 4;
    }
    r->v.nwarps = n;
    r->v.warps = r->w;
    r->v.nsched = 1;
    r->v.ncand = n;
    r->v.cand = r->cand;
}

static void rig_close(rig *r)
{
    if (r->ops->destroy)
        r->ops->destroy(r->st);
}

/*
** Set the warps from `pattern` (one character per warp):
**   R ready   S scoreboard stall, no load in flight   L scoreboard stall
**   waiting on a load   B at a CTA barrier   U unit busy   - finished/empty
*/
static void rig_set(rig *r, const char *pattern)
{
    assert_int_equal(strlen(pattern), r->v.nwarps);
    for (uint32_t i = 0; i < r->v.nwarps; i++) {
        ws_warp_view *w = &r->w[i];
        w->valid = pattern[i] != '-';
        w->pending_loads = pattern[i] == 'L';
        w->next_class = WS_NEXT_COMPUTE;
        switch (pattern[i]) {
        case 'R': w->stall = WS_STALL_NONE; break;
        case 'S': case 'L': w->stall = WS_STALL_SCOREBOARD; break;
        case 'B': w->stall = WS_STALL_BARRIER; w->next_class = WS_NEXT_BARRIER; break;
        case 'U': w->stall = WS_STALL_UNIT; break;
        case '-': w->stall = WS_STALL_EMPTY; break;
        default: fail_msg("bad pattern character '%c'", pattern[i]);
        }
    }
}

/* One cycle: order, then issue the first ready, allowed warp. Returns its
   index or -1.  Also checks the order itself: indices in range, no warp
   twice, no finished warp. */
static int rig_step(rig *r, const char *pattern)
{
    rig_set(r, pattern);
    r->v.cycle++;
    if (r->ops->tick)
        r->ops->tick(r->st, &r->v);
    r->norder = r->ops->order(r->st, &r->v, r->order);
    assert_true(r->norder <= r->v.nwarps);
    bool seen[MAXW] = { false };
    for (uint32_t i = 0; i < r->norder; i++) {
        uint32_t w = r->order[i];
        assert_true(w < r->v.nwarps);
        assert_false(seen[w]);
        seen[w] = true;
        assert_true(r->w[w].valid);
    }
    for (uint32_t i = 0; i < r->norder; i++) {
        uint32_t w = r->order[i];
        if (r->w[w].stall != WS_STALL_NONE)
            continue;
        if (r->ops->may_issue && !r->ops->may_issue(r->st, &r->v, w))
            continue;
        if (r->ops->on_issue)
            r->ops->on_issue(r->st, &r->v, w);
        r->w[w].issued++;
        r->w[w].last_issue = r->v.cycle;
        return (int)w;
    }
    return -1;
}

/* Run `n` cycles and compare the issued warps with `expect` one by one. */
static void rig_run(rig *r, const char *const *patterns, const int *expect, size_t n)
{
    for (size_t c = 0; c < n; c++) {
        int got = rig_step(r, patterns[c]);
        if (got != expect[c])
            fail_msg("cycle %zu (pattern %s): issued %d, expected %d", c + 1, patterns[c],
                     got, expect[c]);
    }
}

static bool order_has(const rig *r, uint32_t w)
{
    for (uint32_t i = 0; i < r->norder; i++)
        if (r->order[i] == w)
            return true;
    return false;
}

#define N_OF(a) (sizeof (a) / sizeof (a)[0])

/* ------------------------------------------------------------------ */
/* lrr                                                                 */
/* ------------------------------------------------------------------ */

static void test_lrr_rotation(void **state)
{
    (void)state;
    rig r;
    const uint64_t ages[] = { 3, 2, 1, 0 };   /* ages must not matter */
    rig_open(&r, "lrr", "", 4, ages);
    const char *p[] = {
        "RRRR", "RRRR", "RRRR", "RRRR", "RRRR", "RRRR",   /* plain rotation */
        "RSRR",            /* after 1 comes 2 */
        "RRRR",            /* then 3 */
        "RRSR",            /* 0 */
        "SRRR",            /* 1 */
        "RR-R",            /* 2 finished: 3 */
        "RRSS",            /* wraps: 0 */
        "SSRS",            /* loose: the next ready one after 0 is 2 */
        "SSSS",            /* nobody */
        "RRRR",            /* continues after 2 */
    };
    const int e[] = { 0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 3, 0, 2, -1, 3 };
    rig_run(&r, p, e, N_OF(p));
    /* the order itself starts after the last issued warp */
    rig_step(&r, "RRRR");
    assert_int_equal(r.norder, 4);
    assert_int_equal(r.order[0], 0);   /* 3 issued the cycle before */
    assert_int_equal(r.order[3], 3);
    rig_close(&r);
}

/* ------------------------------------------------------------------ */
/* gto                                                                 */
/* ------------------------------------------------------------------ */

static const uint64_t gto_ages[] = { 30, 10, 40, 20 };   /* by age: 1, 3, 0, 2 */
static const char *const gto_script[] = {
    "RRRR",   /* oldest: 1 */
    "RRRR",   /* greedy: 1 */
    "RSRR",   /* 1 stalls: oldest ready is 3 */
    "RRRR",   /* greedy on 3, although 1 is older and ready */
    "RRRS",   /* 3 stalls: back to the oldest, 1 */
    "RSRS",   /* 1 and 3 stall: 0 (age 30) before 2 (age 40) */
    "RRRR",   /* greedy on 0 */
    "SSRR",   /* 0 stalls: 3 */
    "SSSS",   /* nobody */
    "RRRR",   /* greedy warp survives an idle cycle: 3 */
};
static const int gto_expect[] = { 1, 1, 3, 3, 1, 0, 0, 3, -1, 3 };

static void test_gto_greedy_then_oldest(void **state)
{
    (void)state;
    rig r;
    rig_open(&r, "gto", "", 4, gto_ages);
    rig_run(&r, gto_script, gto_expect, N_OF(gto_script));
    /* order = greedy warp, then the others by age */
    rig_step(&r, "RRRR");
    assert_int_equal(r.norder, 4);
    const uint32_t want[] = { 3, 1, 0, 2 };
    for (int i = 0; i < 4; i++)
        assert_int_equal(r.order[i], want[i]);
    rig_close(&r);
}

static void test_gto_slot_reuse(void **state)
{
    (void)state;
    rig r;
    const uint64_t ages[] = { 0, 1, 2 };
    rig_open(&r, "gto", "", 3, ages);
    assert_int_equal(rig_step(&r, "RRR"), 0);
    assert_int_equal(rig_step(&r, "RRR"), 0);
    /* warp 0 finishes; a new, youngest warp takes its slot */
    assert_int_equal(rig_step(&r, "-RR"), 1);
    assert_int_equal(rig_step(&r, "-RR"), 1);
    r.w[1].age = 7;            /* slot 1 reused too, now younger than slot 0's new warp */
    r.w[0].age = 5;
    assert_int_equal(rig_step(&r, "RRR"), 2);   /* not greedy on the new slot-1 warp */
    assert_int_equal(rig_step(&r, "RRS"), 0);   /* oldest: age 5 before 7 */
    rig_close(&r);
}

/* ------------------------------------------------------------------ */
/* oldest                                                              */
/* ------------------------------------------------------------------ */

static void test_oldest(void **state)
{
    (void)state;
    rig r;
    const uint64_t ages[] = { 3, 1, 2, 0 };    /* by age: 3, 1, 2, 0 */
    rig_open(&r, "oldest", "", 4, ages);
    const char *p[] = { "RRRR", "RRRR", "RRRS", "RSRS", "RSSS", "SSSS", "RRRR", "RR-R" };
    const int e[] = { 3, 3, 1, 2, 0, -1, 3, 3 };
    rig_run(&r, p, e, N_OF(p));
    /* a new warp in a reused slot goes to the end by its age */
    r.w[3].age = 9;
    rig_step(&r, "RRRR");
    const uint32_t want[] = { 1, 2, 0, 3 };
    assert_int_equal(r.norder, 4);
    for (int i = 0; i < 4; i++)
        assert_int_equal(r.order[i], want[i]);
    assert_int_equal(rig_step(&r, "RSRR"), 2);
    rig_close(&r);
}

/* ------------------------------------------------------------------ */
/* two-level                                                           */
/* ------------------------------------------------------------------ */

static void test_two_level_swaps(void **state)
{
    (void)state;
    rig r;
    const uint64_t ages[] = { 0, 1, 2, 3, 4, 5 };
    rig_open(&r, "two-level", "active_warps=2", 6, ages);
    /* active [0 1], pending [2 3 4 5] */
    assert_int_equal(rig_step(&r, "RRRRRR"), 0);   /* inner LRR: [1 0] */
    assert_int_equal(r.norder, 2);
    assert_int_equal(rig_step(&r, "RRRRRR"), 1);   /* [0 1] */
    /* 0 waits on a load: demoted, 2 promoted: active [1 2], pending [3 4 5 0] */
    assert_int_equal(rig_step(&r, "LRRRRR"), 1);
    assert_true(order_has(&r, 2));
    assert_false(order_has(&r, 0));
    assert_int_equal(rig_step(&r, "LRRRRR"), 2);   /* [2 1] after issuing 1 */
    /* 1 waits on a load: active [2 3], pending [4 5 0 1] */
    assert_int_equal(rig_step(&r, "RLRRRR"), 2);
    /* 0 and 1 are ready again but pending: not considered */
    assert_int_equal(rig_step(&r, "RRRRRR"), 3);
    assert_int_equal(r.norder, 2);
    assert_false(order_has(&r, 0));
    assert_false(order_has(&r, 1));
    /* a short scoreboard stall (no load in flight) does not demote */
    assert_int_equal(rig_step(&r, "RRSRRR"), 3);
    assert_true(order_has(&r, 2));
    /* 2 waits on a load: active [3 4], pending [5 0 1 2] */
    assert_int_equal(rig_step(&r, "RRLRRR"), 3);
    assert_true(order_has(&r, 4));
    /* 3 finishes: active [4 5], pending [0 1 2 3] */
    assert_int_equal(rig_step(&r, "RRR-RR"), 4);
    assert_true(order_has(&r, 5));
    /* 4 at a barrier: demoted, 0 promoted (FIFO): active [5 0] */
    assert_int_equal(rig_step(&r, "RRR-BR"), 5);
    assert_true(order_has(&r, 0));
    assert_int_equal(rig_step(&r, "RRR-BR"), 0);
    rig_close(&r);
}

static void test_two_level_issue_sequence(void **state)
{
    (void)state;
    rig r;
    const uint64_t ages[] = { 0, 1, 2, 3, 4, 5 };
    rig_open(&r, "two-level", "active_warps=2,inner=0,outer=0", 6, ages);
    const char *p[] = { "RRRRRR", "RRRRRR", "LRRRRR", "LRRRRR", "RLRRRR", "RRRRRR",
                        "RRSRRR", "RRLRRR", "RRR-RR" };
    const int e[] = { 0, 1, 1, 2, 2, 3, 3, 3, 4 };
    rig_run(&r, p, e, N_OF(p));
    rig_close(&r);
}

static void test_two_level_outer_oldest(void **state)
{
    (void)state;
    rig r;
    const uint64_t ages[] = { 0, 1, 9, 3, 2 };
    rig_open(&r, "two-level", "active_warps=2,outer=1", 5, ages);
    /* 0 demoted; the oldest pending warp that is not waiting is 4 (age 2) */
    assert_int_equal(rig_step(&r, "LRRRR"), 1);
    assert_true(order_has(&r, 4));
    assert_int_equal(rig_step(&r, "LRRRR"), 4);
    /* 1 demoted; 0 (age 0) is ready again and the oldest pending: promoted */
    assert_int_equal(rig_step(&r, "RLRRR"), 4);
    assert_true(order_has(&r, 0));
    assert_int_equal(rig_step(&r, "RLRRR"), 0);
    assert_false(order_has(&r, 2));
    assert_false(order_has(&r, 3));
    rig_close(&r);
}

static void test_two_level_inner_gto(void **state)
{
    (void)state;
    rig r;
    const uint64_t ages[] = { 5, 4, 3, 2, 1 };
    rig_open(&r, "two-level", "active_warps=3,inner=1", 5, ages);
    /* active [0 1 2]: oldest active is 2, then greedy on it */
    const char *p[] = { "RRRRR", "RRRRR", "RRLRR", "RRRRR", "RRRSR" };
    /* 2 demoted, 3 promoted and oldest; then 3 stalls briefly: 1 (age 4) */
    const int e[] = { 2, 2, 3, 3, 1 };
    rig_run(&r, p, e, N_OF(p));
    rig_close(&r);
}

/* 2LVL-GTO (CCWS spec 2.0): fixed fetch groups {0..3} {4..7}; only the
   current group issues, GTO inside; when none of it is ready, the group
   of the oldest ready warp takes over in the same cycle. */
static void test_two_level_fetch_groups(void **state)
{
    (void)state;
    rig r;
    const uint64_t ages[] = { 0, 1, 2, 3, 4, 5, 6, 7 };
    rig_open(&r, "two-level", "active_warps=4,inner=1,outer=2", 8, ages);
    assert_int_equal(rig_step(&r, "RRRRRRRR"), 0);
    assert_int_equal(r.norder, 4);
    assert_false(order_has(&r, 4));
    assert_int_equal(rig_step(&r, "RRRRRRRR"), 0);        /* greedy */
    assert_int_equal(rig_step(&r, "SRRRRRRR"), 1);        /* oldest ready of the group */
    assert_int_equal(rig_step(&r, "RSRRRRRR"), 0);
    assert_int_equal(rig_step(&r, "SSSSRRRR"), 4);        /* group 0 stalled: group 1 */
    assert_int_equal(rig_step(&r, "RRRRRRRR"), 4);        /* stays in group 1 */
    assert_false(order_has(&r, 0));
    assert_int_equal(rig_step(&r, "RRRRSRRR"), 5);
    assert_int_equal(rig_step(&r, "RRSRSSSS"), 0);        /* back: oldest ready is 0 */
    assert_int_equal(rig_step(&r, "-SSSRRRR"), 4);        /* 0 finished, 1-3 stalled */
    rig_close(&r);
    /* inner=0: round-robin inside the group from the warp after the issuer */
    rig_open(&r, "two-level", "active_warps=4,inner=0,outer=2", 8, ages);
    const char *p[] = { "RRRRRRRR", "RRRRRRRR", "RRRRRRRR", "RRRRRRRR", "RRRRRRRR",
                        "SSSSRRRR", "RRRRRRRR" };
    const int e[] = { 0, 1, 2, 3, 0, 4, 5 };
    rig_run(&r, p, e, N_OF(p));
    rig_close(&r);
}

/* ------------------------------------------------------------------ */
/* swl                                                                 */
/* ------------------------------------------------------------------ */

static void test_swl_limit(void **state)
{
    (void)state;
    rig r;
    const uint64_t ages[] = { 5, 0, 4, 1, 3, 2 };   /* by age: 1 3 5 4 2 0 */
    rig_open(&r, "swl", "warp_limit=2", 6, ages);
    const char *p[] = {
        "RRRRRR",   /* eligible {1 3}: oldest 1 */
        "RSRRRR",   /* 3 */
        "RSRSRR",   /* both eligible warps stall: nobody, although 4 are ready */
        "RRRRRR",   /* greedy 3 */
        "R-RRRR",   /* 1 finishes: {3 5}; greedy 3 */
        "R-RSRR",   /* 5, the newly admitted one */
        "R-RBRR",   /* 3 at a barrier does not count: {3 5 4}; greedy 5 */
        "R-RBRS",   /* 4 */
        "R-R-S-",   /* 3, 5 finish: {4 2}; 4 stalls: 2 */
    };
    const int e[] = { 1, 3, -1, 3, 3, 5, 5, 4, 2 };
    for (size_t c = 0; c < N_OF(p); c++) {
        int got = rig_step(&r, p[c]);
        if (got != e[c])
            fail_msg("cycle %zu (%s): issued %d, expected %d", c + 1, p[c], got, e[c]);
        uint32_t counted = 0;
        for (uint32_t i = 0; i < r.norder; i++)
            counted += r.w[r.order[i]].stall != WS_STALL_BARRIER;
        assert_true(counted <= 2);
        assert_false(order_has(&r, 0));   /* the youngest is never admitted */
    }
    rig_close(&r);
}

/* With a limit at least the warp count, SWL is exactly GTO. */
static void test_swl_unlimited_is_gto(void **state)
{
    (void)state;
    rig r;
    rig_open(&r, "swl", "warp_limit=4", 4, gto_ages);
    rig_run(&r, gto_script, gto_expect, N_OF(gto_script));
    rig_close(&r);
}

/* ------------------------------------------------------------------ */
/* all policies: well-formed orders under pseudo-random states         */
/* ------------------------------------------------------------------ */

static void test_all_orders_well_formed(void **state)
{
    (void)state;
    uint64_t ages[12];
    for (int i = 0; i < 12; i++)
        ages[i] = (uint64_t)((i * 7) % 12);
    for (size_t p = 0; ws_warp_nth(p); p++) {
        const char *name = ws_warp_nth(p)->name;
        const char *prm = strcmp(name, "two-level") == 0 ? "active_warps=3"
                        : strcmp(name, "swl") == 0 ? "warp_limit=3" : "";
        rig r;
        rig_open(&r, name, prm, 12, ages);
        uint32_t seed = 12345;
        uint64_t issued = 0;
        for (int c = 0; c < 500; c++) {
            char pat[13];
            for (int i = 0; i < 12; i++) {
                seed = seed * 1103515245u + 12345u;
                pat[i] = "RRRRSLBU-"[(seed >> 16) % 9];
            }
            pat[12] = '\0';
            int w = rig_step(&r, pat);   /* checks the order's shape */
            issued += w >= 0;
            if (strcmp(name, "two-level") == 0)
                assert_true(r.norder <= 3);
            if (strcmp(name, "lrr") == 0 || strcmp(name, "gto") == 0 ||
                strcmp(name, "oldest") == 0) {
                uint32_t live = 0;
                for (int i = 0; i < 12; i++)
                    live += pat[i] != '-';
                assert_int_equal(r.norder, live);   /* every live warp is considered */
                if (w < 0)
                    assert_null(strchr(pat, 'R'));
            }
        }
        assert_true(issued > 100);
        rig_close(&r);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_lrr_rotation),
        cmocka_unit_test(test_gto_greedy_then_oldest),
        cmocka_unit_test(test_gto_slot_reuse),
        cmocka_unit_test(test_oldest),
        cmocka_unit_test(test_two_level_swaps),
        cmocka_unit_test(test_two_level_issue_sequence),
        cmocka_unit_test(test_two_level_outer_oldest),
        cmocka_unit_test(test_two_level_inner_gto),
        cmocka_unit_test(test_two_level_fetch_groups),
        cmocka_unit_test(test_swl_limit),
        cmocka_unit_test(test_swl_unlimited_is_gto),
        cmocka_unit_test(test_all_orders_well_formed),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
