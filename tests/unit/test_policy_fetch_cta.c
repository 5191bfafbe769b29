/*
** test_policy_fetch_cta.c -- the round-robin fetch policy and the
** round-robin CTA-to-SM mapping on constructed views: exact picks, with
** warps that cannot fetch and SMs that are full.
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

/* ------------------------------------------------------------------ */
/* fetch rr                                                            */
/* ------------------------------------------------------------------ */

typedef struct fetch_rig {
    const ws_fetch_ops *ops;
    void *st;
    ws_fetch_warp_view w[8];
    ws_fetch_view v;
} fetch_rig;

static void fetch_open(fetch_rig *r, uint32_t n)
{
    memset(r, 0, sizeof *r);
    r->ops = ws_find_fetch("rr");
    assert_non_null(r->ops);
    ws_param_values pv = { 0 };
    ws_policy_env env = { .nsms = 1, .nwarps = n, .nsched = 1 };
    r->st = r->ops->init(&pv, &env);
    assert_non_null(r->st);
    for (uint32_t i = 0; i < n; i++) {
        r->w[i].slot = i;
        r->w[i].age = n - i;
        r->w[i].oracle_remaining = -1;
    }
    r->v.nwarps = n;
    r->v.warps = r->w;
}

/* One cycle of fetch width `width`: `can` says which warps may fetch
   ('1'/'0'); picks are written to got[] (-1 when none); returns count. */
static int fetch_cycle(fetch_rig *r, const char *can, int width, int *got)
{
    assert_int_equal(strlen(can), r->v.nwarps);
    for (uint32_t i = 0; i < r->v.nwarps; i++)
        r->w[i].can_fetch = can[i] == '1';
    r->v.cycle++;
    int k = 0;
    for (int i = 0; i < width; i++) {
        int w = r->ops->pick(r->st, &r->v);
        got[i] = w;
        if (w < 0)
            break;
        assert_true((uint32_t)w < r->v.nwarps);
        assert_true(r->w[w].can_fetch);
        r->w[w].can_fetch = false;   /* the core's side of the contract */
        r->w[w].fetched++;
        r->w[w].last_fetch = r->v.cycle;
        k++;
    }
    return k;
}

static void test_fetch_rr_width1(void **state)
{
    (void)state;
    fetch_rig r;
    fetch_open(&r, 5);
    const char *can[] = { "11111", "11111", "11111", "10011", "11111", "01000",
                          "01000", "00000", "11111", "00101" };
    const int expect[] = { 0, 1, 2, 3, 4, 1, 1, -1, 2, 4 };
    for (size_t c = 0; c < sizeof can / sizeof can[0]; c++) {
        int got[1];
        fetch_cycle(&r, can[c], 1, got);
        if (got[0] != expect[c])
            fail_msg("cycle %zu (%s): picked %d, expected %d", c + 1, can[c], got[0], expect[c]);
    }
    r.ops->destroy(r.st);
}

static void test_fetch_rr_width2(void **state)
{
    (void)state;
    fetch_rig r;
    fetch_open(&r, 5);
    int got[2];
    assert_int_equal(fetch_cycle(&r, "11111", 2, got), 2);
    assert_int_equal(got[0], 0);
    assert_int_equal(got[1], 1);
    assert_int_equal(fetch_cycle(&r, "11111", 2, got), 2);
    assert_int_equal(got[0], 2);
    assert_int_equal(got[1], 3);
    assert_int_equal(fetch_cycle(&r, "11011", 2, got), 2);   /* 4, wrap to 0 */
    assert_int_equal(got[0], 4);
    assert_int_equal(got[1], 0);
    assert_int_equal(fetch_cycle(&r, "00100", 2, got), 1);   /* only one can */
    assert_int_equal(got[0], 2);
    assert_int_equal(got[1], -1);
    r.ops->destroy(r.st);
}

/* ------------------------------------------------------------------ */
/* CTA rr                                                              */
/* ------------------------------------------------------------------ */

typedef struct cta_rig {
    const ws_cta_map_ops *ops;
    void *st;
    ws_sm_view sm[4];
    ws_cta_map_view v;
    uint32_t cap[4];    /* CTAs each SM can hold */
} cta_rig;

static void cta_open(cta_rig *r, const uint32_t *cap, uint32_t nctas)
{
    memset(r, 0, sizeof *r);
    r->ops = ws_find_cta_map("rr");
    assert_non_null(r->ops);
    ws_param_values pv = { 0 };
    ws_policy_env env = { .nsms = 4 };
    r->st = r->ops->init(&pv, &env);
    assert_non_null(r->st);
    for (uint32_t s = 0; s < 4; s++) {
        r->sm[s].sm = s;
        r->cap[s] = cap[s];
    }
    r->v.nsms = 4;
    r->v.sms = r->sm;
    r->v.nctas = nctas;
}

/* Offer the next CTA; place it where the policy says (if anywhere). */
static int cta_place(cta_rig *r)
{
    for (uint32_t s = 0; s < 4; s++)
        r->sm[s].fits = r->sm[s].ctas < r->cap[s];
    r->v.cycle++;
    ws_cta_choice c;
    if (!r->ops->place(r->st, &r->v, &c))
        return -1;
    int s = (int)c.sm;
    assert_true(s < 4);
    assert_true(r->sm[s].fits);
    assert_int_equal(c.cta, r->v.next_cta);
    r->sm[s].ctas++;
    r->sm[s].warps += 4;
    r->v.next_cta++;
    r->v.placed++;
    return s;
}

static void test_cta_rr_spread(void **state)
{
    (void)state;
    cta_rig r;
    const uint32_t cap[] = { 2, 2, 2, 2 };
    cta_open(&r, cap, 10);
    const int expect[] = { 0, 1, 2, 3, 0, 1, 2, 3, -1 };
    for (size_t i = 0; i < sizeof expect / sizeof expect[0]; i++)
        assert_int_equal(cta_place(&r), expect[i]);
    /* a CTA on SM 2 finishes: the waiting CTA goes there */
    r.sm[2].ctas--;
    assert_int_equal(cta_place(&r), 2);
    assert_int_equal(r.v.next_cta, 9);
    r.ops->destroy(r.st);
}

static void test_cta_rr_full_sms(void **state)
{
    (void)state;
    cta_rig r;
    const uint32_t cap[] = { 1, 0, 3, 1 };   /* SM 1 never fits */
    cta_open(&r, cap, 8);
    /* 0, (1 full) 2, 3, (0 full now, 1 full) 2, 2, then nothing fits */
    const int expect[] = { 0, 2, 3, 2, 2, -1, -1 };
    for (size_t i = 0; i < sizeof expect / sizeof expect[0]; i++)
        assert_int_equal(cta_place(&r), expect[i]);
    /* waiting did not move the rotation: SM 3 frees, then SM 0 frees */
    r.sm[3].ctas--;
    r.sm[0].ctas--;
    assert_int_equal(cta_place(&r), 3);   /* after 2 comes 3 */
    assert_int_equal(cta_place(&r), 0);
    r.ops->destroy(r.st);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fetch_rr_width1),
        cmocka_unit_test(test_fetch_rr_width2),
        cmocka_unit_test(test_cta_rr_spread),
        cmocka_unit_test(test_cta_rr_full_sms),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
