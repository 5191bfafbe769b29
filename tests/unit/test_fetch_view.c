/*
** test_fetch_view.c -- what a fetch policy sees: the oracle profile's
** remaining instructions, instructions and device-memory instructions to
** the next barrier, all from the warp's fetch point, the at-barrier flag.  A round-robin fetch policy that
** declares WS_NEED_ORACLE checks every view it is shown against the
** profile the harness built, on a kernel with a loop and a barrier.
*/
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "timing_harness.h"

typedef struct seen {
    const emu_profile *prof;
    uint32_t last;
    uint32_t views, at_start, after_barrier, at_barrier;
    bool bad, dev_checked;
} seen;

/* The profile's device-memory counts (checked while it exists): warp w
   loops w + 1 times over two global loads (ld.param is no device memory),
   then one global load and a store. */
static void ov_check_dev(seen *s)
{
    const emu_profile *p = s->prof;
    for (uint32_t w = 0; w < 4; w++) {
        uint32_t i = p->ivl_start[w];
        if (p->ivl_start[w + 1] - i != 2 || p->ivl_dev[i] != 2 * (w + 1) || p->ivl_dev[i + 1] != 2
            || p->ivl_mem[i] <= p->ivl_dev[i])
            s->bad = true;
    }
    s->dev_checked = true;
}

static void *ov_init(const ws_param_values *p, const ws_policy_env *env)
{
    seen *s = (seen *)(intptr_t)p->v[0];
    s->last = env->nwarps - 1;
    return s;
}

/* Check one warp's oracle fields against the profile. */
static void ov_check(seen *s, const ws_fetch_warp_view *w)
{
    const emu_profile *p = s->prof;
    if (w->uid >= p->nwarps) { s->bad = true; return; }
    s->views++;
    uint64_t total = p->total[w->uid];
    /* fetched = instructions fetched so far: remaining is the rest */
    if (w->oracle_remaining != (int64_t)(total - w->fetched)) s->bad = true;
    uint32_t first = p->ivl_start[w->uid];
    if (w->fetched == 0) {
        s->at_start++;
        if (w->oracle_to_barrier != (int64_t)p->ivl_insns[first]
            || w->oracle_mem_to_barrier != (int64_t)p->ivl_dev[first])
            s->bad = true;
    } else if (w->fetched > p->ivl_insns[first] && !w->at_barrier) {
        /* past the barrier: the last interval runs to the end */
        s->after_barrier++;
        if (w->oracle_to_barrier != w->oracle_remaining) s->bad = true;
    }
    if (w->at_barrier) s->at_barrier++;
    if (w->oracle_to_barrier > w->oracle_remaining || w->oracle_mem_to_barrier < 0)
        s->bad = true;
}

static int ov_pick(void *st, const ws_fetch_view *v)
{
    seen *s = st;
    if (!s->dev_checked) ov_check_dev(s);
    for (uint32_t i = 0; i < v->nwarps; i++)
        if (v->warps[i].oracle_remaining >= 0) ov_check(s, &v->warps[i]);
    for (uint32_t k = 1; k <= v->nwarps; k++) {
        uint32_t i = (s->last + k) % v->nwarps;
        if (v->warps[i].can_fetch) {
            s->last = i;
            return (int)i;
        }
    }
    return -1;
}

static const ws_fetch_ops oracle_fetch = {
    .name = "test-oracle", .needs = WS_NEED_ORACLE, .init = ov_init, .pick = ov_pick,
};

static void test_fetch_oracle_view(void **state)
{
    (void)state;
    const char *ptx = TH_TWO_PTX;
    gpu_config cfg;
    th_config(&cfg);
    cfg.n_clusters = 1;
    th_run *r = calloc(1, sizeof *r);
    seen s = { .prof = &r->prof };
    r->fetch = &oracle_fetch;
    r->fetch_params = (ws_param_values){ .n = 1, .v = { (int64_t)(intptr_t)&s } };
    th_buf buf = { 4 * 128, NULL, NULL, 0 };
    th_run_kernel(ptx, "two", &cfg, ws_find_warp_sched("gto"), 2, 128, &buf, 1, NULL, 0, r);
    if (r->rc) fail_msg("%s", r->err);
    assert_false(s.bad);
    assert_int_equal(s.at_start > 0, 1);
    assert_true(s.after_barrier > 0);
    assert_true(s.at_barrier > 0);
    assert_true(s.views > 100);
    assert_true(s.dev_checked);
    free(r);
}

/* Without WS_NEED_ORACLE the oracle fields are -1. */
static int plain_pick(void *st, const ws_fetch_view *v)
{
    bool *bad = st;
    for (uint32_t i = 0; i < v->nwarps; i++)
        if (v->warps[i].oracle_remaining != -1 || v->warps[i].oracle_to_barrier != -1)
            *bad = true;
    for (uint32_t i = 0; i < v->nwarps; i++)
        if (v->warps[i].can_fetch) return (int)i;
    return -1;
}

static void *plain_init(const ws_param_values *p, const ws_policy_env *env)
{
    (void)env;
    return (void *)(intptr_t)p->v[0];
}

static const ws_fetch_ops plain_fetch = { .name = "test-plain", .init = plain_init,
                                          .pick = plain_pick };

static void test_fetch_no_oracle(void **state)
{
    (void)state;
    const char *ptx = TH_TWO_PTX;
    gpu_config cfg;
    th_config(&cfg);
    cfg.n_clusters = 1;
    th_run *r = calloc(1, sizeof *r);
    bool bad = false;
    r->fetch = &plain_fetch;
    r->fetch_params = (ws_param_values){ .n = 1, .v = { (int64_t)(intptr_t)&bad } };
    th_buf buf = { 4 * 128, NULL, NULL, 0 };
    th_run_kernel(ptx, "two", &cfg, ws_find_warp_sched("gto"), 2, 128, &buf, 1, NULL, 0, r);
    if (r->rc) fail_msg("%s", r->err);
    assert_false(bad);
    free(r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fetch_oracle_view),
        cmocka_unit_test(test_fetch_no_oracle),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
