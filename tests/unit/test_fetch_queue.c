/*
** test_fetch_queue.c -- the common fetch framework (fetch_queue > 0,
** fetch-dram spec §2.0) on a kernel with a loop of global loads, a
** barrier and a store: each pick fetches one instruction; a warp never
** fetches while its device-memory access is outstanding; every SM-cycle
** with live warps is counted once as a fetch, a full queue or no warp able
** to fetch; the queue's average occupancy stays within its capacity;
** stalls are seen for memory, branches and the barrier; a longer decode
** costs cycles; and the same kernel still runs with per-warp buffers,
** also with branch_resolve.
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

static const char *ptx = TH_TWO_PTX;

#define MAXUID 64

typedef struct check {
    uint64_t picked_at[MAXUID];   /* fetched count when last picked, + 1 (0: never) */
    uint64_t picks, last_cycle;
    bool bad_step, bad_store, two_in_cycle;
} check;

static void *ck_init(const ws_param_values *p, const ws_policy_env *env)
{
    (void)env;
    return (void *)(intptr_t)p->v[0];
}

/* Round robin by uid, checking what the framework promises. */
static int ck_pick(void *st, const ws_fetch_view *v)
{
    check *c = st;
    if (c->picks && v->cycle == c->last_cycle) c->two_in_cycle = true;
    int best = -1;
    for (uint32_t i = 0; i < v->nwarps; i++) {
        const ws_fetch_warp_view *w = &v->warps[i];
        if (!w->can_fetch || w->uid >= MAXUID) continue;
        /* one instruction per pick: the next look finds one more fetched */
        if (c->picked_at[w->uid] && w->fetched != c->picked_at[w->uid])
            c->bad_step = true;
        if (w->pending_stores) c->bad_store = true;
        if (best < 0 || w->fetched < v->warps[best].fetched) best = (int)i;
    }
    if (best >= 0) {
        c->picked_at[v->warps[best].uid] = v->warps[best].fetched + 1;
        c->picks++;
        c->last_cycle = v->cycle;
    }
    return best;
}

static const ws_fetch_ops ck_fetch = { .name = "test-iq", .init = ck_init, .pick = ck_pick };

static void framework_config(gpu_config *cfg, uint32_t decode)
{
    th_config(cfg);
    cfg->n_schedulers = 1;
    cfg->fetch_queue = 8;
    cfg->decode_latency = decode;
    cfg->fetch_stall_mem = true;
    cfg->branch_resolve = 4;
}

static uint64_t run(gpu_config *cfg, check *c, gpu_kernel_stats *out)
{
    th_run *r = calloc(1, sizeof *r);
    r->fetch = &ck_fetch;
    r->fetch_params = (ws_param_values){ .n = 1, .v = { (int64_t)(intptr_t)c } };
    th_buf buf = { 4 * 128, NULL, NULL, 0 };
    th_run_kernel(ptx, "two", cfg, th_sched("fifo"), 2, 128, &buf, 1, NULL, 0, r);
    if (r->rc) fail_msg("%s", r->err);
    *out = r->st;
    uint64_t cycles = r->st.cycles;
    free(r);
    return cycles;
}

static void test_queue_invariants(void **state)
{
    (void)state;
    gpu_config cfg;
    framework_config(&cfg, 5);
    check c = { 0 };
    gpu_kernel_stats st;
    uint64_t cycles = run(&cfg, &c, &st);
    assert_true(cycles > 0);
    assert_true(c.picks > 50);
    assert_false(c.two_in_cycle);
    assert_false(c.bad_step);
    assert_false(c.bad_store);
    /* every SM-cycle with live warps is exactly one of the three */
    assert_int_equal(st.fetch_cycles + st.fetch_queue_full_cycles + st.fetch_none_cycles,
                     st.sm_warp_cycles);
    assert_int_equal(st.fetch_cycles, c.picks);
    assert_true(st.iq_occupancy_sum > 0);
    assert_true(st.iq_occupancy_sum <= (uint64_t)cfg.fetch_queue * cycles);
    assert_true(st.fetch_warp_stalls[GPU_FSTALL_MEM] > 0);
    assert_true(st.fetch_warp_stalls[GPU_FSTALL_BRANCH] > 0);
    assert_true(st.fetch_warp_stalls[GPU_FSTALL_BARRIER] > 0);
    assert_true(st.barrier_arrivals == 8);          /* 2 CTAs x 4 warps */
    assert_true(st.devmem_lat_count > 0);
    /* a 5-cycle decode costs cycles against a 1-cycle one */
    framework_config(&cfg, 1);
    check c1 = { 0 };
    gpu_kernel_stats st1;
    assert_true(run(&cfg, &c1, &st1) < cycles);
    assert_int_equal(st1.warp_insns, st.warp_insns);
}

/* Per-warp buffers (fetch_queue = 0) run the same kernel, counting no
   queue statistics. */
static void test_per_warp_buffers(void **state)
{
    (void)state;
    gpu_config cfg;
    th_config(&cfg);
    check c = { 0 };
    gpu_kernel_stats st;
    assert_true(run(&cfg, &c, &st) > 0);
    assert_int_equal(st.fetch_cycles + st.fetch_queue_full_cycles + st.fetch_none_cycles, 0);
    assert_int_equal(st.iq_occupancy_sum, 0);
    assert_true(st.barrier_arrivals == 8);
}

/* Per-warp buffers with branch_resolve: a warp waiting only for its
   branch to resolve is woken by the time, not by a poke, so the kernel
   ends (it once deadlocked when idle cycles were skipped), in the same
   cycles with and without skipping, later than without the wait. */
static void test_per_warp_branch_resolve(void **state)
{
    (void)state;
    gpu_config cfg;
    th_config(&cfg);
    check c = { 0 };
    gpu_kernel_stats plain, skip, noskip;
    uint64_t base = run(&cfg, &c, &plain);
    cfg.branch_resolve = 8;
    uint64_t with = run(&cfg, &c, &skip);
    cfg.skip_idle_cycles = false;
    assert_int_equal(run(&cfg, &c, &noskip), with);
    assert_true(with > base);
    assert_int_equal(skip.warp_insns, plain.warp_insns);
    assert_int_equal(noskip.warp_insns, plain.warp_insns);
    assert_int_equal(skip.sm_active_cycles, noskip.sm_active_cycles);
    assert_int_equal(skip.slots[GPU_SLOT_IDLE], noskip.slots[GPU_SLOT_IDLE]);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_queue_invariants),
        cmocka_unit_test(test_per_warp_buffers),
        cmocka_unit_test(test_per_warp_branch_resolve),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
