/*
** test_policy_ccws.c -- the `ccws` warp scheduler on constructed events
** and views (specs/ccws.md Sec. 8 items 1-4): victim tag array insertion,
** hits only for the owner, invalidation by stores, FIFO replacement; the
** worked example of Sec. 2.8 (21 warps allowed after one hit, 3 after
** three) and the decay; only global/local loads are gated and at least one
** warp is always allowed; skipped cycles count as ticked ones.
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

enum { NW = 32, LINE = 128 };

typedef struct rig {
    const ws_warp_sched_ops *ops;
    void *st;
    ws_warp_view w[NW];
    uint32_t cand[NW];
    ws_sched_view v;
} rig;

static void rig_open(rig *r, const char *params, uint32_t n)
{
    memset(r, 0, sizeof *r);
    r->ops = ws_find_warp_sched("ccws");
    assert_non_null(r->ops);
    ws_param_values pv;
    char err[256];
    assert_int_equal(ws_params_parse("ccws", r->ops->params, params, &pv, err, sizeof err), 0);
    ws_policy_env env = { .nsms = 1, .nwarps = n, .nsched = 1, .max_ctas = 8 };
    r->st = r->ops->init(&pv, &env);
    assert_non_null(r->st);
    for (uint32_t i = 0; i < n; i++) {
        r->cand[i] = i;
        r->w[i] = (ws_warp_view){ .valid = true, .slot = i, .age = i,
                                  .next_class = WS_NEXT_MEM, .next_kind = WS_MEM_LOAD,
                                  .next_space = WS_SPACE_GLOBAL, .next_is_load = true };
    }
    r->v = (ws_sched_view){ .nwarps = n, .warps = r->w, .nsched = 1, .ncand = n,
                            .cand = r->cand, .live_warps = n };
    ws_launch_info k = { .name = "k" };
    r->ops->kernel_begin(r->st, &k);
    for (uint32_t i = 0; i < n; i++) {
        ws_sched_event e = { .kind = WS_EV_WARP_START, .warp = i, .uid = i };
        r->ops->on_event(r->st, &r->v, &e);
    }
    r->ops->tick(r->st, &r->v);
}

static void rig_close(rig *r)
{
    r->ops->destroy(r->st);
}

static uint64_t ctr(rig *r, const char *name)
{
    uint64_t v[WS_MAX_COUNTERS] = { 0 };
    r->ops->counters(r->st, v);
    for (uint32_t i = 0; r->ops->counter_names[i]; i++)
        if (strcmp(r->ops->counter_names[i], name) == 0) return v[i];
    fail_msg("no counter %s", name);
    return 0;
}

static void ev(rig *r, int kind, uint32_t warp, uint8_t mem, uint64_t line)
{
    ws_sched_event e = { .kind = kind, .warp = warp, .uid = warp, .pc = 0,
                         .space = WS_SPACE_GLOBAL, .mem = mem, .addr = line * LINE };
    r->ops->on_event(r->st, &r->v, &e);
}

/* `n` instructions issued by warp `w` (compute: not gated, counted). */
static void issue(rig *r, uint32_t w, uint32_t n)
{
    uint8_t cls = r->w[w].next_class;
    r->w[w].next_class = WS_NEXT_COMPUTE;
    for (uint32_t i = 0; i < n; i++) r->ops->on_issue(r->st, &r->v, w);
    r->w[w].next_class = cls;
}

/* Evict `line` owned by `w`, then miss on it by `w`: one VTA hit. */
static void vta_hit(rig *r, uint32_t w, uint64_t line)
{
    ev(r, WS_EV_L1_EVICT, w, WS_MEM_NONE, line);
    ev(r, WS_EV_L1_MISS, w, WS_MEM_LOAD, line);
}

/* Warps whose next global load may issue now. */
static uint32_t allowed(rig *r)
{
    uint32_t n = 0;
    for (uint32_t i = 0; i < r->v.nwarps; i++) n += r->ops->may_issue(r->st, &r->v, i);
    return n;
}

/* ---- Sec. 8 item 1: the victim tag arrays ---- */

static void test_vta_owner_hit_and_store_invalidation(void **state)
{
    (void)state;
    rig r;
    rig_open(&r, "", 4);
    issue(&r, 0, 10);
    ev(&r, WS_EV_L1_EVICT, 1, WS_MEM_NONE, 77);        /* line 77 owned by warp 1 */
    assert_int_equal(ctr(&r, "vta_inserts"), 1);
    ev(&r, WS_EV_L1_MISS, 2, WS_MEM_LOAD, 77);         /* another warp: no hit */
    assert_int_equal(ctr(&r, "vta_hits"), 0);
    ev(&r, WS_EV_L1_MISS, 1, WS_MEM_LOAD, 77);         /* the owner: hit */
    assert_int_equal(ctr(&r, "vta_hits"), 1);
    ev(&r, WS_EV_L1_MISS, 1, WS_MEM_LOAD, 77);         /* the entry survives a hit */
    assert_int_equal(ctr(&r, "vta_hits"), 2);
    ev(&r, WS_EV_L1_MISS, 1, WS_MEM_STORE, 77);        /* only loads probe */
    assert_int_equal(ctr(&r, "vta_hits"), 2);
    ev(&r, WS_EV_L1_EVICT, 3, WS_MEM_NONE, 77);        /* warp 3 also holds it */
    ev(&r, WS_EV_L1_STORE, 0, WS_MEM_STORE, 77);       /* a store drops it everywhere */
    assert_int_equal(ctr(&r, "vta_invalidations"), 2);
    ev(&r, WS_EV_L1_MISS, 1, WS_MEM_LOAD, 77);
    ev(&r, WS_EV_L1_MISS, 3, WS_MEM_LOAD, 77);
    assert_int_equal(ctr(&r, "vta_hits"), 2);
    ev(&r, WS_EV_L1_EVICT, WS_NO_WARP, WS_MEM_NONE, 78); /* owner left: dropped */
    assert_int_equal(ctr(&r, "vta_inserts"), 2);
    rig_close(&r);
}

static void test_vta_fifo(void **state)
{
    (void)state;
    rig r;
    rig_open(&r, "", 2);
    issue(&r, 0, 1000);
    /* 2 sets x 8 ways: lines 0, 2, .. 14 fill set 0; 1, 3, .. 15 set 1 */
    for (uint64_t l = 0; l < 16; l++) ev(&r, WS_EV_L1_EVICT, 0, WS_MEM_NONE, l);
    ev(&r, WS_EV_L1_EVICT, 0, WS_MEM_NONE, 0);          /* present: keeps its place */
    assert_int_equal(ctr(&r, "vta_inserts"), 16);
    for (uint64_t l = 0; l < 16; l++) ev(&r, WS_EV_L1_MISS, 0, WS_MEM_LOAD, l);
    assert_int_equal(ctr(&r, "vta_hits"), 16);          /* all 16 held */
    ev(&r, WS_EV_L1_EVICT, 0, WS_MEM_NONE, 16);         /* set 0 full: first in (0) out */
    ev(&r, WS_EV_L1_MISS, 0, WS_MEM_LOAD, 0);
    assert_int_equal(ctr(&r, "vta_hits"), 16);
    for (uint64_t l = 1; l <= 16; l++) ev(&r, WS_EV_L1_MISS, 0, WS_MEM_LOAD, l);
    assert_int_equal(ctr(&r, "vta_hits"), 32);
    ev(&r, WS_EV_L1_EVICT, 0, WS_MEM_NONE, 18);         /* next out of set 0: line 2 */
    ev(&r, WS_EV_L1_MISS, 0, WS_MEM_LOAD, 2);
    ev(&r, WS_EV_L1_MISS, 0, WS_MEM_LOAD, 4);
    assert_int_equal(ctr(&r, "vta_hits"), 33);
    /* a new warp in slot 0 starts with an empty VTA (spec 7.16) */
    ev(&r, WS_EV_WARP_START, 0, WS_MEM_NONE, 0);
    ev(&r, WS_EV_L1_MISS, 0, WS_MEM_LOAD, 4);
    assert_int_equal(ctr(&r, "vta_hits"), 33);
    rig_close(&r);
}

/* ---- Sec. 8 items 2 and 3: scores, the cutoff, the worked example ---- */

static void test_no_hits_no_throttle(void **state)
{
    (void)state;
    rig r;
    rig_open(&r, "", NW);
    for (int t = 0; t < 100; t++) {
        issue(&r, (uint32_t)t % NW, 3);
        r.ops->tick(r.st, &r.v);
        assert_int_equal(allowed(&r), NW);
    }
    assert_int_equal(ctr(&r, "throttled_cycles"), 0);
    assert_int_equal(ctr(&r, "load_vetoes"), 0);
    rig_close(&r);
}

static void test_worked_example(void **state)
{
    (void)state;
    rig r;
    rig_open(&r, "", NW);                 /* cutoff = 32 x 100 = 3200 */
    issue(&r, 5, 20);
    vta_hit(&r, 0, 1000);                 /* 1/20 x 8 x 3200 = 1280 */
    r.ops->tick(r.st, &r.v);              /* 1279 + 19 x 100 < 3200, +100 >= */
    assert_int_equal(allowed(&r), 21);
    for (uint32_t i = 0; i < NW; i++)
        assert_int_equal(r.ops->may_issue(r.st, &r.v, i), i <= 20);
    issue(&r, 5, 20);
    vta_hit(&r, 1, 2000);                 /* 2/40: 1280 */
    issue(&r, 5, 20);
    vta_hit(&r, 2, 3000);                 /* 3/60: 1280 */
    r.ops->tick(r.st, &r.v);              /* decay 1: 1279 each, 3 x 1279 >= 3200 */
    assert_int_equal(allowed(&r), 3);
    assert_int_equal(r.ops->may_issue(r.st, &r.v, 3), false);
    /* one point per cycle: 3 stay allowed while 3 x (1280 - k) >= 3200,
       i.e. for k <= 213 ticks; the 214th lets a fourth in */
    for (int k = 2; k <= 213; k++) r.ops->tick(r.st, &r.v);
    assert_int_equal(allowed(&r), 3);
    r.ops->tick(r.st, &r.v);
    assert_int_equal(allowed(&r), 4);
    /* and back to the base: nobody throttled any more, for good */
    for (int k = 0; k < 1200; k++) r.ops->tick(r.st, &r.v);
    assert_int_equal(allowed(&r), NW);
    uint64_t thr = ctr(&r, "throttled_cycles");
    for (int k = 0; k < 100; k++) r.ops->tick(r.st, &r.v);
    assert_int_equal(ctr(&r, "throttled_cycles"), thr);
    /* at the base again: a hit adds 4/60 x 8 x 3200 = 1706 (truncated) to
       100 and the cap (the same expression) brings it to 1706; a tick
       later 1705 + 15 x 100 >= 3200 > 1705 + 14 x 100: 16 allowed */
    vta_hit(&r, 4, 4000);
    r.ops->tick(r.st, &r.v);
    assert_int_equal(allowed(&r), 16);
    rig_close(&r);
}

/* ---- Sec. 8 item 4: what is gated ---- */

static void test_only_global_local_loads_gated(void **state)
{
    (void)state;
    rig r;
    rig_open(&r, "", NW);
    issue(&r, 0, 1);
    vta_hit(&r, 0, 1);                    /* 1/1 x 8 x 3200: warp 0 alone */
    r.ops->tick(r.st, &r.v);
    assert_int_equal(allowed(&r), 1);
    assert_true(r.ops->may_issue(r.st, &r.v, 0));
    struct { uint8_t cls, kind, space; bool may; } cases[] = {
        { WS_NEXT_MEM, WS_MEM_LOAD, WS_SPACE_GLOBAL, false },
        { WS_NEXT_MEM, WS_MEM_LOAD, WS_SPACE_LOCAL, false },
        { WS_NEXT_MEM, WS_MEM_LOAD, WS_SPACE_GENERIC, false },
        { WS_NEXT_MEM, WS_MEM_STORE, WS_SPACE_GLOBAL, true },
        { WS_NEXT_MEM, WS_MEM_STORE, WS_SPACE_LOCAL, true },
        { WS_NEXT_MEM, WS_MEM_ATOMIC, WS_SPACE_GLOBAL, true },
        { WS_NEXT_MEM, WS_MEM_LOAD, WS_SPACE_SHARED, true },
        { WS_NEXT_MEM, WS_MEM_LOAD, WS_SPACE_CONST, true },
        { WS_NEXT_MEM, WS_MEM_LOAD, WS_SPACE_PARAM, true },
        { WS_NEXT_MEM, WS_MEM_LOAD, WS_SPACE_TEX, true },
        { WS_NEXT_COMPUTE, WS_MEM_NONE, WS_SPACE_NONE, true },
        { WS_NEXT_BARRIER, WS_MEM_NONE, WS_SPACE_NONE, true },
        { WS_NEXT_CTRL, WS_MEM_NONE, WS_SPACE_NONE, true },
    };
    uint64_t vetoes = ctr(&r, "load_vetoes");
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        r.w[7].next_class = cases[i].cls;
        r.w[7].next_kind = cases[i].kind;
        r.w[7].next_space = cases[i].space;
        assert_int_equal(r.ops->may_issue(r.st, &r.v, 7), cases[i].may);
        vetoes += !cases[i].may;
        assert_int_equal(ctr(&r, "load_vetoes"), vetoes);
    }
    rig_close(&r);
}

static void test_one_warp_always_allowed(void **state)
{
    (void)state;
    rig r;
    rig_open(&r, "k_cap=0,k_throttle=1000", NW);   /* additive, huge */
    issue(&r, 0, 1);
    for (uint32_t i = 0; i < NW; i++)
        for (int k = 0; k < 5; k++) vta_hit(&r, i, 100 + i);
    r.ops->tick(r.st, &r.v);
    assert_int_equal(allowed(&r), 1);
    /* only live warps count: with one left, it is allowed */
    for (uint32_t i = 1; i < NW; i++) r.w[i].valid = false;
    r.ops->tick(r.st, &r.v);
    assert_true(r.ops->may_issue(r.st, &r.v, 0));
    rig_close(&r);
}

/* on_skip(n) leaves the state and counters as n ticks would. */
static void test_skip_equals_ticks(void **state)
{
    (void)state;
    rig a, b;
    rig_open(&a, "", NW);
    rig_open(&b, "", NW);
    rig *rs[2] = { &a, &b };
    for (int i = 0; i < 2; i++) {
        issue(rs[i], 3, 40);
        vta_hit(rs[i], 0, 1);
        vta_hit(rs[i], 1, 2);
        rs[i]->ops->tick(rs[i]->st, &rs[i]->v);
    }
    for (int k = 0; k < 1500; k++) a.ops->tick(a.st, &a.v);
    b.ops->on_skip(b.st, 1500);
    uint64_t va[WS_MAX_COUNTERS], vb[WS_MAX_COUNTERS];
    a.ops->counters(a.st, va);
    b.ops->counters(b.st, vb);
    assert_memory_equal(va, vb, sizeof va);
    assert_true(ctr(&a, "throttled_cycles") > 0);
    vta_hit(&a, 2, 3);
    vta_hit(&b, 2, 3);
    a.ops->tick(a.st, &a.v);
    b.ops->tick(b.st, &b.v);
    assert_int_equal(allowed(&a), allowed(&b));
    rig_close(&a);
    rig_close(&b);
}

/* vta_sets = 0: no VTA, no hit, never a veto (the GTO-identity setting). */
static void test_no_vta(void **state)
{
    (void)state;
    rig r;
    rig_open(&r, "vta_sets=0", NW);
    issue(&r, 0, 5);
    vta_hit(&r, 0, 1);
    ev(&r, WS_EV_L1_STORE, 0, WS_MEM_STORE, 1);
    r.ops->tick(r.st, &r.v);
    assert_int_equal(allowed(&r), NW);
    assert_int_equal(ctr(&r, "vta_hits"), 0);
    assert_int_equal(ctr(&r, "vta_inserts"), 0);
    rig_close(&r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_vta_owner_hit_and_store_invalidation),
        cmocka_unit_test(test_vta_fifo),
        cmocka_unit_test(test_no_hits_no_throttle),
        cmocka_unit_test(test_worked_example),
        cmocka_unit_test(test_only_global_local_loads_gated),
        cmocka_unit_test(test_one_warp_always_allowed),
        cmocka_unit_test(test_skip_equals_ticks),
        cmocka_unit_test(test_no_vta),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
