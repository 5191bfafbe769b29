/*
** test_policy_owl.c -- OWL's CTA-aware warp schedulers (owl-cta,
** owl-locality, owl-blp) on constructed views (specs/owl.md Sec. 8):
** item 1, FORM_GROUPS; item 2, the BLP and Locality group priority
** orders, as pure functions and as the order the schedulers give; item 3's
** degenerate case at the level of the order (one group = lrr's order);
** item 4, the Fig. 4 micro-scenario; and the cohort rotation of Sec. 7.1.
*/
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "policy/owl_groups.h"
#include "policy/policy.h"

enum { NW = 32 };

/* ---- Sec. 8 item 1: FORM_GROUPS ---- */

static void expect_groups(uint32_t N, uint32_t k, uint32_t g_size, uint32_t g_core,
                          const uint32_t *sizes)
{
    owl_groups gr = owl_form_groups(N, k, g_size);
    assert_int_equal(gr.g_core, g_core);
    uint32_t sum = 0;
    for (uint32_t g = 0; g < g_core; g++) {
        assert_int_equal(owl_group_size(&gr, g), sizes[g]);
        sum += sizes[g];
    }
    assert_int_equal(sum, N);
    assert_int_equal(owl_group_size(&gr, g_core), 0);
    /* slots map to groups in order, the remainder into the last group */
    uint32_t s = 0;
    for (uint32_t g = 0; g < g_core; g++)
        for (uint32_t i = 0; i < sizes[g]; i++, s++)
            assert_int_equal(owl_group_of_slot(&gr, s), g);
}

static void test_form_groups(void **state)
{
    (void)state;
    expect_groups(10, 2, 5, 3, (const uint32_t[]){ 3, 3, 4 });     /* paper's example */
    assert_int_equal(owl_form_groups(10, 2, 5).n, 3);
    expect_groups(10, 2, 8, 2, (const uint32_t[]){ 4, 6 });
    assert_int_equal(owl_form_groups(10, 2, 8).n, 4);
    expect_groups(8, 8, 8, 8, (const uint32_t[]){ 1, 1, 1, 1, 1, 1, 1, 1 });
    expect_groups(3, 2, 8, 1, (const uint32_t[]){ 3 });            /* n = 4 > N */
    expect_groups(1, 6, 8, 1, (const uint32_t[]){ 1 });            /* WP-like */
    expect_groups(4, 8, 8, 4, (const uint32_t[]){ 1, 1, 1, 1 });
    expect_groups(5, 3, 8, 1, (const uint32_t[]){ 5 });            /* n = 3, 5/3 = 1 */
    expect_groups(7, 4, 8, 3, (const uint32_t[]){ 2, 2, 3 });
    /* a slot past N (not expected) still has a group: the last */
    assert_int_equal(owl_group_of_slot(&(owl_groups){ .n = 2, .g_core = 3, .nctas = 7 }, 63), 2);
}

/* ---- Sec. 8 item 2: priorities as pure functions ---- */

static void test_priority_functions(void **state)
{
    (void)state;
    const uint32_t want[4][3] = { { 0, 1, 2 }, { 1, 2, 0 }, { 2, 0, 1 }, { 0, 1, 2 } };
    const uint32_t cores[4] = { 0, 1, 2, 27 };
    for (int c = 0; c < 4; c++) {
        uint32_t top = owl_initial_top(OWL_BLP, cores[c], 3);
        for (uint32_t r = 0; r < 3; r++)     /* the group with priority r */
            assert_int_equal(owl_group_priority(want[c][r], top, 3), r);
        assert_int_equal(owl_initial_top(OWL_LOCALITY, cores[c], 3), 0);
        assert_int_equal(owl_initial_top(OWL_CTA, cores[c], 3), 0);
    }
    /* Algorithm 1: g_pri[g][core] = (g - core) mod g_core */
    for (uint32_t core = 0; core < 28; core++)
        for (uint32_t g = 0; g < 3; g++)
            assert_int_equal(owl_group_priority(g, owl_initial_top(OWL_BLP, core, 3), 3),
                             (uint32_t)((((int)g - (int)core) % 3 + 3) % 3));
}

/* ---- a rig: one SM, one scheduler unit, CTAs of k warps in slots ---- */

typedef struct rig {
    const ws_warp_sched_ops *ops;
    void *st;
    ws_warp_view w[NW];
    uint32_t cand[NW];
    ws_sched_view v;
    uint32_t k;
} rig;

/* `nctas` CTAs of `k` warps (ids from `ids`) start in slots 0.. on SM
   `sm`; occupancy N = nctas; every warp ready. */
static void rig_open(rig *r, const char *name, const char *params, uint32_t sm,
                     uint32_t nctas, uint32_t k, const uint32_t *ids)
{
    memset(r, 0, sizeof *r);
    r->ops = ws_find_warp_sched(name);
    assert_non_null(r->ops);
    ws_param_values pv;
    char err[256];
    assert_int_equal(ws_params_parse(name, r->ops->params, params, &pv, err, sizeof err), 0);
    uint32_t n = nctas * k;
    ws_policy_env env = { .sm = sm, .nsms = 28, .nwarps = n, .nsched = 1, .max_ctas = 8 };
    r->st = r->ops->init(&pv, &env);
    assert_non_null(r->st);
    r->k = k;
    r->v = (ws_sched_view){ .sm = sm, .nsms = 28, .nwarps = n, .warps = r->w, .nsched = 1,
                            .ncand = n, .cand = r->cand, .live_warps = n };
    ws_launch_info kl = { .name = "k", .warps_per_cta = k, .ctas_per_sm = nctas, .nsms = 28 };
    if (r->ops->kernel_begin) r->ops->kernel_begin(r->st, &kl);   /* lrr has none */
    for (uint32_t c = 0; c < nctas; c++) {
        ws_sched_event e = { .kind = WS_EV_CTA_START, .warp = WS_NO_WARP, .cta = c,
                             .cta_id = ids ? ids[c] : c };
        if (r->ops->on_event) r->ops->on_event(r->st, &r->v, &e);
        for (uint32_t i = 0; i < k; i++) {
            uint32_t s = c * k + i;
            r->cand[s] = s;
            r->w[s] = (ws_warp_view){ .valid = true, .slot = s, .age = s, .cta_slot = c,
                                      .cta_id = e.cta_id, .warp_in_cta = i,
                                      .next_class = WS_NEXT_COMPUTE };
        }
    }
}

static void rig_close(rig *r)
{
    r->ops->destroy(r->st);
}

/* What the core does: the first ready warp of the order issues. Returns
   its slot, or NW when none is ready. */
static uint32_t step(rig *r)
{
    uint32_t out[NW];
    uint32_t n = r->ops->order(r->st, &r->v, out);
    for (uint32_t i = 0; i < n; i++)
        if (r->w[out[i]].valid && r->w[out[i]].stall == WS_STALL_NONE) {
            r->ops->on_issue(r->st, &r->v, out[i]);
            return out[i];
        }
    return NW;
}

/* The CTA slot whose warp issues next. */
static uint32_t step_cta(rig *r)
{
    uint32_t s = step(r);
    assert_true(s < NW);
    return r->w[s].cta_slot;
}

static void set_cta_stall(rig *r, uint32_t cta, uint8_t stall)
{
    for (uint32_t i = 0; i < r->k; i++) r->w[cta * r->k + i].stall = stall;
}

/* The groups (= CTA slots with n = 1) in the order the scheduler lists
   them, each once. */
static void group_order(rig *r, uint32_t *groups, uint32_t ng)
{
    uint32_t out[NW], seen = 0;
    uint32_t n = r->ops->order(r->st, &r->v, out);
    assert_int_equal(n, r->v.ncand);
    for (uint32_t i = 0; i < n; i++) {
        uint32_t g = r->w[out[i]].cta_slot;
        if (seen == 0 || groups[seen - 1] != g) {
            assert_true(seen < ng);
            groups[seen++] = g;
        }
    }
    assert_int_equal(seen, ng);
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

/* ---- Sec. 8 item 2 through the schedulers: 3 CTAs of 8 warps = 3 groups ---- */

static void test_blp_and_locality_orders(void **state)
{
    (void)state;
    const uint32_t want[4][3] = { { 0, 1, 2 }, { 1, 2, 0 }, { 2, 0, 1 }, { 0, 1, 2 } };
    const uint32_t cores[4] = { 0, 1, 2, 27 };
    for (int c = 0; c < 4; c++) {
        rig r;
        uint32_t got[3];
        rig_open(&r, "owl-blp", "", cores[c], 3, 8, NULL);
        assert_int_equal(ctr(&r, "groups"), 3);
        group_order(&r, got, 3);
        assert_memory_equal(got, want[c], sizeof got);
        rig_close(&r);
        rig_open(&r, "owl-locality", "", cores[c], 3, 8, NULL);
        group_order(&r, got, 3);
        assert_memory_equal(got, want[0], sizeof got);
        rig_close(&r);
    }
}

/* ---- Sec. 8 item 3 at the order level: one group orders like lrr ---- */

static void test_single_group_is_lrr(void **state)
{
    (void)state;
    const char *const names[] = { "owl-cta", "owl-locality", "owl-blp" };
    for (int s = 0; s < 3; s++) {
        rig a, b;
        rig_open(&a, names[s], "g_size=64", 5, 4, 6, NULL);   /* 24 warps < 64: one group */
        rig_open(&b, "lrr", "", 5, 4, 6, NULL);
        assert_int_equal(ctr(&a, "groups"), 1);
        for (int t = 0; t < 200; t++) {
            /* a changing pattern of stalled warps and empty slots */
            for (uint32_t i = 0; i < 24; i++) {
                uint8_t st = (i * 7 + (uint32_t)t * 3) % 5 < 2 ? WS_STALL_SCOREBOARD : WS_STALL_NONE;
                a.w[i].stall = b.w[i].stall = st;
                a.w[i].valid = b.w[i].valid = (i + (uint32_t)t) % 11 != 0;
            }
            uint32_t oa[NW], ob[NW];
            uint32_t na = a.ops->order(a.st, &a.v, oa), nb = b.ops->order(b.st, &b.v, ob);
            assert_int_equal(na, nb);
            assert_memory_equal(oa, ob, na * sizeof oa[0]);
            assert_int_equal(step(&a), step(&b));
        }
        assert_int_equal(ctr(&a, "group_switches"), 0);
        rig_close(&a);
        rig_close(&b);
    }
}

/* ---- Sec. 8 item 4: Fig. 4, one core, CTAs 1, 3, 5, 7, n = 1 ---- */

static void fig4_prefix(rig *r)
{
    /* CTA 1 (slot 0) issues, then waits on memory; CTA 3 likewise; CTA 5 runs */
    assert_int_equal(step_cta(r), 0);
    set_cta_stall(r, 0, WS_STALL_SCOREBOARD);
    assert_int_equal(step_cta(r), 1);
    set_cta_stall(r, 1, WS_STALL_SCOREBOARD);
    assert_int_equal(step_cta(r), 2);
    assert_int_equal(step_cta(r), 2);
    set_cta_stall(r, 0, WS_STALL_NONE);          /* CTA 1's data returns */
}

static void test_fig4(void **state)
{
    (void)state;
    const uint32_t ids[4] = { 1, 3, 5, 7 };
    rig r;
    /* CTA-aware: keeps issuing from CTA 5, then CTA 7, then back to CTA 1 */
    rig_open(&r, "owl-cta", "g_size=2", 0, 4, 2, ids);
    assert_int_equal(ctr(&r, "groups"), 4);
    fig4_prefix(&r);
    assert_int_equal(step_cta(&r), 2);
    assert_int_equal(step_cta(&r), 2);
    set_cta_stall(&r, 2, WS_STALL_SCOREBOARD);
    assert_int_equal(step_cta(&r), 3);
    set_cta_stall(&r, 3, WS_STALL_SCOREBOARD);
    assert_int_equal(step_cta(&r), 0);
    assert_int_equal(ctr(&r, "group_switches"), 4);
    rig_close(&r);
    /* Locality: CTA 1 at the very next slot, and it keeps priority */
    const char *const loc[] = { "owl-locality", "owl-blp" };
    for (int s = 0; s < 2; s++) {
        rig_open(&r, loc[s], "g_size=2", 0, 4, 2, ids);   /* core 0: blp = locality */
        fig4_prefix(&r);
        assert_int_equal(step_cta(&r), 0);
        assert_int_equal(step_cta(&r), 0);
        assert_int_equal(r.w[step(&r)].cta_id, 1);
        rig_close(&r);
    }
    /* inside a group: round-robin over its warps */
    rig_open(&r, "owl-locality", "g_size=2", 0, 4, 2, ids);
    assert_int_equal(step(&r), 0);
    assert_int_equal(step(&r), 1);
    assert_int_equal(step(&r), 0);
    rig_close(&r);
}

/* ---- Sec. 7.1: cohort rotation (and the static ablation) ---- */

static void cta_event(rig *r, int kind, uint32_t cta, uint32_t id)
{
    ws_sched_event e = { .kind = kind, .warp = WS_NO_WARP, .cta = cta, .cta_id = id };
    r->ops->on_event(r->st, &r->v, &e);
}

static void test_cohort_rotation(void **state)
{
    (void)state;
    rig r;
    rig_open(&r, "owl-locality", "g_size=2", 0, 3, 2, NULL);
    assert_int_equal(step_cta(&r), 0);
    /* CTA 0 (top) finishes, CTA 3 refills slot 0: top moves to group 1,
       the newcomer drops to the lowest priority */
    cta_event(&r, WS_EV_CTA_DONE, 0, 0);
    cta_event(&r, WS_EV_CTA_START, 0, 3);
    uint32_t got[3];
    group_order(&r, got, 3);
    assert_memory_equal(got, ((const uint32_t[]){ 1, 2, 0 }), sizeof got);
    assert_int_equal(ctr(&r, "top_rotations"), 1);
    /* a non-top CTA finishing moves nothing */
    cta_event(&r, WS_EV_CTA_DONE, 2, 2);
    cta_event(&r, WS_EV_CTA_START, 2, 4);
    group_order(&r, got, 3);
    assert_memory_equal(got, ((const uint32_t[]){ 1, 2, 0 }), sizeof got);
    /* top's CTA finishes with no refill: the next group holding a CTA */
    cta_event(&r, WS_EV_CTA_DONE, 1, 1);
    r.w[2].valid = r.w[3].valid = false;
    uint32_t out[NW];
    uint32_t n = r.ops->order(r.st, &r.v, out);
    assert_int_equal(n, 4);
    assert_int_equal(r.w[out[0]].cta_slot, 2);
    assert_int_equal(ctr(&r, "top_rotations"), 2);
    rig_close(&r);
    /* static: group 0 stays first */
    rig_open(&r, "owl-locality", "g_size=2,priority_rotation=1", 0, 3, 2, NULL);
    cta_event(&r, WS_EV_CTA_DONE, 0, 0);
    cta_event(&r, WS_EV_CTA_START, 0, 3);
    group_order(&r, got, 3);
    assert_memory_equal(got, ((const uint32_t[]){ 0, 1, 2 }), sizeof got);
    assert_int_equal(ctr(&r, "top_rotations"), 0);
    rig_close(&r);
}

static void test_params(void **state)
{
    (void)state;
    const ws_warp_sched_ops *o = ws_find_warp_sched("owl-blp");
    assert_non_null(o);
    ws_param_values pv;
    char err[256];
    assert_int_equal(ws_params_parse("owl-blp", o->params, "", &pv, err, sizeof err), 0);
    assert_int_equal(pv.v[0], 8);                 /* g_size default 8 (spec 2.7) */
    assert_int_equal(pv.v[1], 0);                 /* cohort rotation */
    assert_int_not_equal(ws_params_parse("owl-blp", o->params, "g_size=0", &pv, err,
                                         sizeof err), 0);
    assert_int_not_equal(ws_params_parse("owl-blp", o->params, "pf_lower=8", &pv, err,
                                         sizeof err), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_form_groups),
        cmocka_unit_test(test_priority_functions),
        cmocka_unit_test(test_blp_and_locality_orders),
        cmocka_unit_test(test_single_group_is_lrr),
        cmocka_unit_test(test_fig4),
        cmocka_unit_test(test_cohort_rotation),
        cmocka_unit_test(test_params),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
