/*
** test_timing_basic.c -- the timing model end to end: a vector add gives
** correct results and consistent statistics, runs are deterministic, the
** occupancy calculation names its limiter, and the time series samples
** (cumulative counts that never fall).
*/
#include "timing_harness.h"

static const char *vecadd_ptx =
    ".version 7.0\n.target sm_70\n.address_size 64\n"
    ".visible .entry vecadd(.param .u64 a, .param .u64 b, .param .u64 c, .param .u32 n)\n"
    "{\n"
    "  .reg .pred %p<2>;\n  .reg .b32 %r<6>;\n  .reg .f32 %f<4>;\n  .reg .b64 %rd<10>;\n"
    "  ld.param.u64 %rd1, [a];\n  ld.param.u64 %rd2, [b];\n  ld.param.u64 %rd3, [c];\n"
    "  ld.param.u32 %r1, [n];\n"
    "  mov.u32 %r2, %ctaid.x;\n  mov.u32 %r3, %ntid.x;\n  mov.u32 %r4, %tid.x;\n"
    "  mad.lo.s32 %r5, %r2, %r3, %r4;\n"
    "  setp.ge.s32 %p1, %r5, %r1;\n  @%p1 bra DONE;\n"
    "  cvta.to.global.u64 %rd4, %rd1;\n  cvta.to.global.u64 %rd5, %rd2;\n"
    "  cvta.to.global.u64 %rd6, %rd3;\n"
    "  mul.wide.s32 %rd7, %r5, 4;\n"
    "  add.s64 %rd8, %rd4, %rd7;\n  ld.global.f32 %f1, [%rd8];\n"
    "  add.s64 %rd9, %rd5, %rd7;\n  ld.global.f32 %f2, [%rd9];\n"
    "  add.f32 %f3, %f1, %f2;\n"
    "  add.s64 %rd8, %rd6, %rd7;\n  st.global.f32 [%rd8], %f3;\n"
    "DONE:\n  ret;\n}\n";

#define VN 5000

static void run_vecadd(const gpu_config *cfg, th_run *r, float *out)
{
    static float a[VN], b[VN];
    for (int i = 0; i < VN; i++) { a[i] = (float)i; b[i] = (float)(2 * i + 1); }
    th_buf bufs[3] = { { sizeof a, a, NULL, 0 }, { sizeof b, b, NULL, 0 },
                       { VN * sizeof(float), NULL, out, 0 } };
    uint32_t n = VN;
    th_run_kernel(vecadd_ptx, "vecadd", cfg, &th_slot_sched, (VN + 127) / 128, 128,
                  bufs, 3, &n, 1, r);
}

static void test_vecadd_end_to_end(void **state)
{
    (void)state;
    gpu_config cfg;
    th_config(&cfg);
    cfg.n_clusters = 2;
    static float out[VN];
    th_run *r = calloc(1, sizeof *r);
    run_vecadd(&cfg, r, out);
    if (r->rc) fail_msg("run failed: %s", r->err);
    for (int i = 0; i < VN; i++) assert_true(out[i] == (float)(3 * i + 1));
    const gpu_kernel_stats *st = &r->st;
    assert_true(st->cycles > cfg.mem_latency);
    assert_int_equal(st->warp_insns, r->l.warp_insns);
    assert_int_equal(st->thread_insns, r->l.thread_insns);
    uint64_t slots = 0;
    for (int i = 0; i < GPU_SLOT_COUNT; i++) slots += st->slots[i];
    /* one slot per scheduler per cycle */
    assert_int_equal(slots, st->cycles * cfg.n_schedulers * gpu_config_n_sm(&cfg));
    assert_true(st->slots[GPU_SLOT_ISSUED] > 0 && st->slots[GPU_SLOT_ISSUED] <= st->warp_insns);
    /* 2 loads + 1 store per full warp: 128-byte segments, 4-byte words */
    uint64_t warps = (VN + 31) / 32;
    assert_int_equal(st->gmem_transactions, 3 * warps);
    assert_true(st->l1d.misses >= 2 * warps);
    assert_true(st->mem_requests >= 3 * warps);
    assert_true(st->active_warps_sum > 0);
    assert_string_equal(st->name, "vecadd");
    gpu_stats_release(&r->st);
    free(r);
}

static void test_deterministic(void **state)
{
    (void)state;
    gpu_config cfg;
    th_config(&cfg);
    cfg.n_clusters = 3;
    cfg.timeseries_interval = 100;
    static float out[VN];
    th_run *r1 = calloc(1, sizeof *r1), *r2 = calloc(1, sizeof *r2);
    run_vecadd(&cfg, r1, out);
    run_vecadd(&cfg, r2, out);
    assert_int_equal(r1->rc, 0);
    assert_int_equal(r2->rc, 0);
    assert_true(r1->st.nsamples > 0);
    assert_int_equal(r1->st.nsamples, r2->st.nsamples);
    assert_memory_equal(r1->st.samples, r2->st.samples, r1->st.nsamples * sizeof(gpu_sample));
    gpu_kernel_stats a = r1->st, b = r2->st;
    a.samples = b.samples = NULL;
    assert_memory_equal(&a, &b, sizeof a);
    gpu_stats_release(&r1->st);
    gpu_stats_release(&r2->st);
    free(r1);
    free(r2);
}

/* The time series' instruction counts are cumulative: they never fall
   (a warp that finished before the rest of its CTA is still counted) and
   end at most at the launch's totals. */
static void test_timeseries_monotonic(void **state)
{
    (void)state;
    gpu_config cfg;
    th_config(&cfg);
    cfg.n_clusters = 2;
    cfg.timeseries_interval = 3;
    static float out[VN];
    th_run *r = calloc(1, sizeof *r);
    run_vecadd(&cfg, r, out);
    if (r->rc) fail_msg("run failed: %s", r->err);
    const gpu_kernel_stats *st = &r->st;
    assert_true(st->nsamples > 10);
    for (uint32_t i = 1; i < st->nsamples; i++) {
        const gpu_sample *a = &st->samples[i - 1], *b = &st->samples[i];
        if (b->warp_insns < a->warp_insns || b->thread_insns < a->thread_insns)
            fail_msg("sample %u (cycle %llu): warp_insns %llu -> %llu, thread_insns %llu -> "
                     "%llu", i, (unsigned long long)b->cycle,
                     (unsigned long long)a->warp_insns, (unsigned long long)b->warp_insns,
                     (unsigned long long)a->thread_insns, (unsigned long long)b->thread_insns);
    }
    assert_true(st->samples[st->nsamples - 1].warp_insns <= st->warp_insns);
    assert_true(st->samples[st->nsamples - 1].thread_insns <= st->thread_insns);
    gpu_stats_release(&r->st);
    free(r);
}

/* CCWS spec Sec. 8 item 14 (allowed warps over time): with a warp
   scheduler that has counters every sample carries them, cumulative and
   summed over SMs: they never fall, and a sample taken after the last
   cycle (interval 1) equals the kernel's totals; its cycles counter is one
   per SM per cycle stepped, so the allowed-warp average is readable per
   interval.  Before the samples carried them, every value was zero. */
static void test_timeseries_policy_counters(void **state)
{
    (void)state;
    gpu_config cfg;
    th_config(&cfg);
    cfg.n_clusters = 2;
    cfg.timeseries_interval = 1;
    static float out[VN];
    th_run *r = calloc(1, sizeof *r);
    th_run_kernel(vecadd_ptx, "vecadd", &cfg, th_sched("ccws"), 8, 128, (th_buf[3]){
                  { 8 * 128 * 4, NULL, NULL, 0 }, { 8 * 128 * 4, NULL, NULL, 0 },
                  { 8 * 128 * 4, NULL, out, 0 } }, 3, (uint32_t[]){ 8 * 128 }, 1, r);
    if (r->rc) fail_msg("run failed: %s", r->err);
    const gpu_kernel_stats *st = &r->st;
    assert_int_equal(st->npolicy_counters, 8);
    assert_string_equal(st->policy_counter_names[4], "cycles");
    assert_string_equal(st->policy_counter_names[5], "allowed_warps_sum");
    assert_true(st->nsamples > 100);
    uint32_t nsm = gpu_config_n_sm(&cfg);
    for (uint32_t i = 0; i < st->nsamples; i++) {
        const gpu_sample *b = &st->samples[i];
        assert_int_equal(b->policy[4], nsm * (b->cycle + 1));
        for (uint32_t c = 0; i > 0 && c < st->npolicy_counters; c++)
            if (b->policy[c] < st->samples[i - 1].policy[c])
                fail_msg("sample %u: %s fell from %llu to %llu", i, st->policy_counter_names[c],
                         (unsigned long long)st->samples[i - 1].policy[c],
                         (unsigned long long)b->policy[c]);
    }
    const gpu_sample *last = &st->samples[st->nsamples - 1];
    assert_int_equal(last->cycle, st->cycles - 1);
    for (uint32_t c = 0; c < st->npolicy_counters; c++)
        if (last->policy[c] != st->policy_counters[c])
            fail_msg("%s: last sample %llu, kernel %llu", st->policy_counter_names[c],
                     (unsigned long long)last->policy[c],
                     (unsigned long long)st->policy_counters[c]);
    assert_true(st->policy_counters[5] > 0);     /* allowed_warps_sum */
    gpu_stats_release(&r->st);
    free(r);
}

/* skipping idle cycles changes nothing but the skipped-cycle count */
static void test_skip_is_exact(void **state)
{
    (void)state;
    gpu_config cfg;
    th_config(&cfg);
    static float out[VN];
    th_run *r1 = calloc(1, sizeof *r1), *r2 = calloc(1, sizeof *r2);
    run_vecadd(&cfg, r1, out);
    cfg.skip_idle_cycles = false;
    run_vecadd(&cfg, r2, out);
    assert_int_equal(r1->rc, 0);
    assert_int_equal(r2->rc, 0);
    assert_true(r1->st.skipped_cycles > 0);
    assert_int_equal(r2->st.skipped_cycles, 0);
    r1->st.skipped_cycles = 0;
    assert_memory_equal(&r1->st, &r2->st, sizeof r1->st);
    free(r1);
    free(r2);
}

/* the same under back-pressure: tiny queues make the LSU stall and skip */
static void test_skip_is_exact_under_backpressure(void **state)
{
    (void)state;
    gpu_config cfg;
    th_config(&cfg);
    cfg.n_clusters = 4;
    cfg.mem_queue = 3;
    cfg.mem_bytes_per_cycle = 8;
    cfg.l1d.miss_queue = 2;
    cfg.l1d.mshr_entries = 4;
    cfg.timeseries_interval = 500;
    static float out[VN];
    th_run *r1 = calloc(1, sizeof *r1), *r2 = calloc(1, sizeof *r2);
    run_vecadd(&cfg, r1, out);
    cfg.skip_idle_cycles = false;
    run_vecadd(&cfg, r2, out);
    assert_int_equal(r1->rc, 0);
    assert_int_equal(r2->rc, 0);
    for (int i = 0; i < VN; i++) assert_true(out[i] == (float)(3 * i + 1));
    assert_true(r1->st.lsu_stall_cycles > 0);
    assert_true(r1->st.l1d.reservation_fails > 0);
    assert_true(r1->st.mem_queue_full_cycles > 0);
    assert_true(r1->st.skipped_cycles > 0);
    assert_int_equal(r1->st.nsamples, r2->st.nsamples);
    assert_memory_equal(r1->st.samples, r2->st.samples, r1->st.nsamples * sizeof(gpu_sample));
    gpu_stats_release(&r1->st);
    gpu_stats_release(&r2->st);
    r1->st.skipped_cycles = 0;
    assert_memory_equal(&r1->st, &r2->st, sizeof r1->st);
    free(r1);
    free(r2);
}

static void test_occupancy_limits(void **state)
{
    (void)state;
    gpu_config cfg;
    th_config(&cfg);
    const char *why = NULL;
    /* 256 threads: 1536/256 = 6 by threads, 8 by CTAs, 32768/(16*256) = 8 by registers */
    assert_int_equal(gpu_ctas_per_sm(&cfg, 256, 16, 0, &why), 6);
    assert_string_equal(why, "threads");
    assert_int_equal(gpu_ctas_per_sm(&cfg, 64, 16, 0, &why), 8);
    assert_string_equal(why, "ctas");
    assert_int_equal(gpu_ctas_per_sm(&cfg, 256, 63, 0, &why), 2);
    assert_string_equal(why, "registers");
    assert_int_equal(gpu_ctas_per_sm(&cfg, 64, 16, 20000, &why), 2);
    assert_string_equal(why, "shared memory");
    assert_int_equal(gpu_ctas_per_sm(&cfg, 64, 16, 60000, &why), 0);
    assert_string_equal(why, "shared memory");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_vecadd_end_to_end),
        cmocka_unit_test(test_timeseries_policy_counters),
        cmocka_unit_test(test_deterministic),
        cmocka_unit_test(test_timeseries_monotonic),
        cmocka_unit_test(test_skip_is_exact),
        cmocka_unit_test(test_skip_is_exact_under_backpressure),
        cmocka_unit_test(test_occupancy_limits),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
