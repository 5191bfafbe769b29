/*
** test_assign_sched.c -- the warp-to-scheduler assignment hook: a policy
** that puts every warp of odd CTAs on scheduler unit 1 and the others on
** unit 0 (a "warp pool" per CTA parity, as HALS-style policies need) sees
** each issue come from the unit it chose, with every unit's candidate list
** ascending and holding only warps assigned to it; the kernel computes the
** right values.  Without the hook the default is slot % n_schedulers.
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

static const char *hdr = ".version 7.0\n.target sm_70\n.address_size 64\n";

static const char *kernel =
    ".visible .entry inc(.param .u64 p)\n{\n"
    "  .reg .b64 %rd<4>;\n  .reg .b32 %r<6>;\n  ld.param.u64 %rd1, [p];\n"
    "  mov.u32 %r1, %ctaid.x;\n  mov.u32 %r2, %ntid.x;\n  mov.u32 %r3, %tid.x;\n"
    "  mad.lo.u32 %r1, %r1, %r2, %r3;\n  mul.wide.u32 %rd2, %r1, 4;\n"
    "  add.s64 %rd3, %rd1, %rd2;\n  ld.global.u32 %r4, [%rd3];\n"
    "  add.u32 %r4, %r4, %r1;\n  st.global.u32 [%rd3], %r4;\n  ret;\n}\n";

typedef struct pools {
    bool     hook;          /* use assign_sched */
    uint32_t issues[2];     /* issues per unit */
    bool     bad;
} pools;

static void *pl_init(const ws_param_values *p, const ws_policy_env *env)
{
    assert_int_equal(env->nsched, 2);
    return (void *)(intptr_t)p->v[0];
}

static uint32_t pl_assign(void *st, const ws_sched_view *v, uint32_t slot)
{
    pools *p = st;
    return p->hook ? v->warps[slot].cta_id % 2 : slot % v->nsched;
}

static uint32_t pl_order(void *st, const ws_sched_view *v, uint32_t *out)
{
    pools *p = st;
    for (uint32_t i = 0; i < v->ncand; i++) {
        uint32_t s = v->cand[i];
        if (i && v->cand[i - 1] >= s) p->bad = true;             /* ascending */
        if (v->warps[s].valid && v->warps[s].sched != v->sched) p->bad = true;
        if (!p->hook && s % v->nsched != v->sched) p->bad = true;
        out[i] = s;
    }
    return v->ncand;
}

static void pl_issue(void *st, const ws_sched_view *v, uint32_t slot)
{
    pools *p = st;
    p->issues[v->sched]++;
    if (p->hook && v->warps[slot].cta_id % 2 != v->sched) p->bad = true;
}

static const ws_warp_sched_ops pools_ops = {
    .name = "test-pools", .init = pl_init, .assign_sched = pl_assign, .order = pl_order,
    .on_issue = pl_issue,
};

static void run(pools *p, th_run *r)
{
    char ptx[2048];
    snprintf(ptx, sizeof ptx, "%s%s", hdr, kernel);
    gpu_config cfg;
    th_config(&cfg);
    uint32_t n = 6 * 64, *in = malloc(n * 4), *out = calloc(n, 4);
    for (uint32_t i = 0; i < n; i++) in[i] = 5 * i;
    th_buf buf = { n * 4, in, out, 0 };
    ws_param_values pv = { .n = 1, .v = { (int64_t)(intptr_t)p } };
    r->wsp = &pv;
    th_run_kernel(ptx, "inc", &cfg, &pools_ops, 6, 64, &buf, 1, NULL, 0, r);
    if (r->rc) fail_msg("%s", r->err);
    for (uint32_t i = 0; i < n; i++) assert_int_equal(out[i], 6 * i);
    free(in);
    free(out);
}

static void test_assign_by_cta_parity(void **state)
{
    (void)state;
    pools p = { .hook = true };
    th_run *r = calloc(1, sizeof *r);
    run(&p, r);
    assert_false(p.bad);
    /* 3 even and 3 odd CTAs of equal work: the units issued the same */
    assert_int_equal(p.issues[0], p.issues[1]);
    assert_int_equal(p.issues[0] + p.issues[1], r->st.warp_insns);
    free(r);
}

static void test_default_slot_mod_n(void **state)
{
    (void)state;
    pools p = { .hook = false };
    th_run *r = calloc(1, sizeof *r);
    run(&p, r);
    assert_false(p.bad);
    assert_int_equal(p.issues[0] + p.issues[1], r->st.warp_insns);
    free(r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_assign_by_cta_parity),
        cmocka_unit_test(test_default_slot_mod_n),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
