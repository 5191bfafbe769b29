/*
** test_reexec.c -- the LSU re-execution queue and the L1 admission hook
** (Mascar §2.7).  A test policy NACKs warp 0's misses for the first
** NACK_UNTIL cycles; with a queue, warp 0's refused request is parked and
** warp 1's later L1 hit is served meanwhile; with no queue the LSU blocks
** and warp 1 waits.  A third case fills the queue through reservation
** fails (one MSHR).  Every run must compute the right values.
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

#define NACK_UNTIL 3000

/* each warp reads its own line twice (the second address depends on the
   first value, so it hits once the line is in) and writes the sum */
static const char *kernel =
    ".visible .entry twice(.param .u64 in, .param .u64 out)\n{\n"
    "  .reg .b64 %rd<8>;\n  .reg .b32 %r<12>;\n"
    "  ld.param.u64 %rd1, [in];\n  ld.param.u64 %rd2, [out];\n"
    "  mov.u32 %r1, %tid.x;\n  mov.u32 %r2, %ctaid.x;\n  mov.u32 %r3, %ntid.x;\n"
    "  mad.lo.u32 %r1, %r2, %r3, %r1;\n"
    "  mul.wide.u32 %rd3, %r1, 4;\n  add.s64 %rd4, %rd1, %rd3;\n"
    "  ld.global.u32 %r4, [%rd4];\n  and.b32 %r5, %r4, 0;\n"
    "  cvt.u64.u32 %rd5, %r5;\n  add.s64 %rd6, %rd4, %rd5;\n"
    "  ld.global.u32 %r6, [%rd6];\n  add.u32 %r7, %r4, %r6;\n"
    "  add.s64 %rd7, %rd2, %rd3;\n  st.global.u32 [%rd7], %r7;\n  ret;\n}\n";

typedef struct rlog {
    bool nack_warp0;       /* refuse warp 0's misses before NACK_UNTIL */
    uint64_t first_park;   /* cycle warp 0's first request was parked (0: never) */
    uint64_t warp1_hit;    /* cycle of warp 1's first L1 hit */
    uint32_t parks, nacks, picks;
} rlog;

static void *rl_init(const ws_param_values *p, const ws_policy_env *env)
{
    (void)env;
    return (void *)(intptr_t)p->v[0];
}

static bool rl_admit(void *st, const ws_sched_view *v, const ws_l1_request *r)
{
    rlog *l = st;
    if (l->nack_warp0 && r->uid == 0 && v->cycle < NACK_UNTIL) {
        l->nacks++;
        return false;
    }
    return true;
}

static int rl_pick(void *st, const ws_sched_view *v, const ws_reexec_view *q)
{
    rlog *l = st;
    (void)v;
    l->picks++;
    assert_true(q->n > 0 && q->n <= v->reexec_size);
    return 0;
}

static void rl_event(void *st, const ws_sched_view *v, const ws_sched_event *e)
{
    rlog *l = st;
    if (e->kind == WS_EV_REEXEC_PARK) {
        l->parks++;
        if (e->uid == 0 && !l->first_park) l->first_park = v->cycle;
        assert_true(v->warps[e->warp].reexec_entries > 0 || v->reexec_used > 0);
    }
    if (e->kind == WS_EV_L1_HIT && e->uid == 1 && !l->warp1_hit) l->warp1_hit = v->cycle;
}

static const ws_warp_sched_ops rl_sched = {
    .name = "test-reexec", .init = rl_init, .l1_admit = rl_admit, .reexec_pick = rl_pick,
    .on_event = rl_event,
};

static void run(uint32_t queue, uint32_t mshrs, uint32_t ctas, rlog *l, th_run *r)
{
    char ptx[2048];
    snprintf(ptx, sizeof ptx, "%s%s", hdr, kernel);
    gpu_config cfg;
    th_config(&cfg);
    cfg.lsu_reexec_queue = queue;
    cfg.l1d.mshr_entries = mshrs;
    uint32_t n = ctas * 64;
    uint32_t *in = malloc(n * 4), *out = calloc(n, 4);
    for (uint32_t i = 0; i < n; i++) in[i] = 3 * i + 7;
    th_buf buf[2] = { { n * 4, in, NULL, 0 }, { n * 4, NULL, out, 0 } };
    ws_param_values pv = { .n = 1, .v = { (int64_t)(intptr_t)l } };
    r->wsp = &pv;
    th_run_kernel(ptx, "twice", &cfg, &rl_sched, ctas, 64, buf, 2, NULL, 0, r);
    if (r->rc) fail_msg("%s", r->err);
    for (uint32_t i = 0; i < n; i++) assert_int_equal(out[i], 2 * in[i]);
    free(in);
    free(out);
}

static void test_nack_parked_hit_proceeds(void **state)
{
    (void)state;
    rlog l = { .nack_warp0 = true };
    th_run *r = calloc(1, sizeof *r);
    run(8, 64, 1, &l, r);
    assert_true(l.nacks >= 1);
    assert_true(r->st.l1_nacks >= 1);
    assert_true(r->st.reexec_parked >= 1);
    assert_true(r->st.reexec_retries >= 1);     /* retried, refused again, recycled */
    assert_true(l.picks >= 1);
    /* warp 0 was parked first, and warp 1 hit while it was still refused */
    assert_true(l.first_park > 0);
    assert_true(l.warp1_hit > l.first_park);
    assert_true(l.warp1_hit < NACK_UNTIL);
    assert_true(r->st.cycles > NACK_UNTIL);     /* warp 0 finished only after */
    free(r);
}

static void test_nack_blocking_lsu(void **state)
{
    (void)state;
    rlog l = { .nack_warp0 = true };
    th_run *r = calloc(1, sizeof *r);
    run(0, 64, 1, &l, r);
    assert_true(r->st.l1_nacks >= 1);
    assert_int_equal(r->st.reexec_parked, 0);
    assert_true(r->st.lsu_stall_cycles > 0);
    /* the blocked LSU holds warp 1 back until warp 0 is admitted */
    assert_true(l.warp1_hit == 0 || l.warp1_hit >= NACK_UNTIL);
    free(r);
}

static void test_reservation_fails_parked(void **state)
{
    (void)state;
    rlog l = { .nack_warp0 = false };
    th_run *r = calloc(1, sizeof *r);
    run(4, 1, 8, &l, r);                       /* one MSHR, 16 warps */
    assert_true(r->st.reexec_parked > 0);
    assert_true(r->st.l1d.reservation_fails > 0);
    assert_int_equal(r->st.l1_nacks, 0);
    assert_true(r->st.reexec_full_cycles > 0);  /* 4 entries fill up */
    free(r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_nack_parked_hit_proceeds),
        cmocka_unit_test(test_nack_blocking_lsu),
        cmocka_unit_test(test_reservation_fails_parked),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
