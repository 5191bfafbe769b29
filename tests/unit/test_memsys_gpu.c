/*
** test_memsys_gpu.c -- the full memory system under the timing model
** (gpu_run_kernel, as test_timing_*.c): a memory-bound scattered kernel
** with small queues shows every link of the back-pressure chain in the
** statistics (L2 MSHRs -> L2 input queue -> interconnect -> L1 miss queue
** and MSHRs -> LSU) and runs clearly faster with unlimited_mem; results
** are right in every mode; runs with and without idle-cycle skipping are
** identical (several clock domains, time series on); perfect L2 and
** fixed-latency DRAM bound the real machine; a memory-side prefetcher
** keeps results right and skipping exact.
*/
#include "timing_harness.h"
#include "mem/memsys.h"

/* thread i sums a[((i + k * 977) * 32) mod n], k = 0..3: every load of a
   warp touches 32 different lines */
static const char *scatter_ptx =
    ".version 7.0\n.target sm_70\n.address_size 64\n"
    ".visible .entry scatter(.param .u64 a, .param .u64 c, .param .u32 n)\n"
    "{\n"
    "  .reg .pred %p<2>;\n  .reg .b32 %r<12>;\n  .reg .f32 %f<4>;\n  .reg .b64 %rd<8>;\n"
    "  ld.param.u64 %rd1, [a];\n  ld.param.u64 %rd2, [c];\n  ld.param.u32 %r1, [n];\n"
    "  mov.u32 %r2, %ctaid.x;\n  mov.u32 %r3, %ntid.x;\n  mov.u32 %r4, %tid.x;\n"
    "  mad.lo.s32 %r5, %r2, %r3, %r4;\n"
    "  mov.f32 %f1, 0f00000000;\n  mov.u32 %r6, 0;\n"
    "LOOP:\n"
    "  mad.lo.s32 %r7, %r6, 977, %r5;\n  mul.lo.s32 %r8, %r7, 32;\n  rem.u32 %r9, %r8, %r1;\n"
    "  mul.wide.u32 %rd3, %r9, 4;\n  add.s64 %rd4, %rd1, %rd3;\n"
    "  ld.global.f32 %f2, [%rd4];\n  add.f32 %f1, %f1, %f2;\n"
    "  add.s32 %r6, %r6, 1;\n  setp.lt.u32 %p1, %r6, 4;\n  @%p1 bra LOOP;\n"
    "  mul.wide.u32 %rd5, %r5, 4;\n  add.s64 %rd6, %rd2, %rd5;\n  st.global.f32 [%rd6], %f1;\n"
    "  ret;\n}\n";

#define SN (1u << 20)          /* words of a */
#define SCTAS 32
#define STHREADS 128

/* th_config's machine with the memory system's defaults below the L1s */
static void ms_config(gpu_config *c)
{
    gpu_config d;
    gpu_config_defaults(&d);
    th_config(c);
    size_t from = offsetof(gpu_config, memory_model), to = offsetof(gpu_config, watchdog_cycles);
    memcpy((char *)c + from, (const char *)&d + from, to - from);
    snprintf(c->memory_model, sizeof c->memory_model, "full");
    c->n_clusters = 4;
    c->n_mem = 2;
    c->n_sub_per_mem = 2;
    c->perfect_l2 = c->unlimited_mem = false;
    c->dram_fixed_latency = 0;
}

/* small queues everywhere: the chain saturates */
static void ms_small(gpu_config *c)
{
    c->l2.mshr_entries = 4;
    c->l2_queue = 2;
    c->icnt_in_buffer = 6;
    c->icnt_out_buffer = 6;
    c->dram_queue = 4;
    c->l1d.mshr_entries = 16;
    c->l1d.miss_queue = 4;
}

static void run_scatter(const gpu_config *cfg, th_run *r)
{
    static float a[SN], out[SCTAS * STHREADS];
    for (uint32_t i = 0; i < SN; i++) a[i] = (float)(i % 13);
    th_buf bufs[2] = { { sizeof a, a, NULL, 0 }, { sizeof out, NULL, out, 0 } };
    uint32_t n = SN;
    memset(out, 0, sizeof out);
    th_run_kernel(scatter_ptx, "scatter", cfg, &th_slot_sched, SCTAS, STHREADS, bufs, 2,
                  &n, 1, r);
    if (r->rc) fail_msg("scatter failed: %s", r->err);
    for (uint32_t i = 0; i < SCTAS * STHREADS; i++) {
        float want = 0;
        for (uint32_t k = 0; k < 4; k++) want += a[((i + k * 977) * 32) % SN];
        assert_true(out[i] == want);
    }
}

static void test_saturation_chain(void **state)
{
    (void)state;
    gpu_config cfg;
    ms_config(&cfg);
    ms_small(&cfg);
    th_run *r = calloc(1, sizeof *r), *u = calloc(1, sizeof *u);
    run_scatter(&cfg, r);
    const gpu_kernel_stats *st = &r->st;
    const gpu_mem_stats *m = &st->mem;
    fprintf(stderr, "chain: %llu cycles; L2 res fails %llu, L2 MSHR occupancy %.2f of %u, "
            "L2 input full %llu, icnt eject %llu credit %llu inject %llu, L1D res fails %llu, "
            "LSU stalls %llu, DRAM reads %llu\n",
            (unsigned long long)st->cycles, (unsigned long long)m->l2.reservation_fails,
            (double)m->l2.mshr_occupancy_sum / (double)m->l2_cycles / (double)m->n_slices,
            cfg.l2.mshr_entries, (unsigned long long)m->l2_input_full_cycles,
            (unsigned long long)m->icnt_req_eject_stalls,
            (unsigned long long)m->icnt_req_credit_stalls,
            (unsigned long long)m->icnt_req_inject_stalls,
            (unsigned long long)st->l1d.reservation_fails,
            (unsigned long long)st->lsu_stall_cycles, (unsigned long long)m->dram_reads);
    /* every link of the chain, DRAM up to the LSU */
    assert_true(m->l2_dram_stall_cycles > 0);            /* DRAM queue full */
    assert_true(m->l2.reservation_fails > 0);            /* L2 MSHRs / DRAM queue */
    assert_true(m->l2.mshr_occupancy_sum > m->l2_cycles * m->n_slices * 2);  /* > half full */
    assert_true(m->l2_input_full_cycles > 0);            /* L2 refuses the icnt */
    assert_true(m->icnt_req_eject_stalls > 0);
    assert_true(m->icnt_req_credit_stalls > 0);          /* credits gone */
    assert_true(m->icnt_req_inject_stalls > 0);          /* input full: L1 cannot send */
    assert_true(st->mem_queue_full_cycles > 0);
    assert_true(st->l1d.reservation_fails > 0);          /* L1 MSHRs / miss queue */
    assert_true(st->lsu_stall_cycles > 0);
    assert_true(m->dram_reads >= SCTAS * STHREADS * 4 / 2);
    assert_true(m->rt_count >= m->dram_reads);
    /* the same machine without limits is clearly faster and never refuses */
    gpu_config un = cfg;
    un.unlimited_mem = true;
    run_scatter(&un, u);
    fprintf(stderr, "chain: unlimited %llu cycles (%.2fx)\n", (unsigned long long)u->st.cycles,
            (double)st->cycles / (double)u->st.cycles);
    assert_true(u->st.cycles * 3 < st->cycles * 2);      /* >= 1.5x */
    assert_int_equal(u->st.l1d.reservation_fails, 0);
    assert_int_equal(u->st.l1c.reservation_fails, 0);
    assert_int_equal(u->st.mem.l2.reservation_fails, 0);
    assert_int_equal(u->st.mem.icnt_req_inject_stalls, 0);
    assert_int_equal(u->st.mem.l2_dram_stall_cycles, 0);
    assert_int_equal(u->st.lsu_stall_cycles, 0);
    gpu_stats_release(&r->st);
    gpu_stats_release(&u->st);
    free(r);
    free(u);
}

/* skipping idle cycles changes nothing but the skipped-cycle count:
   several clock domains, back-pressure, time series.  skip_idle_cycles
   also lets each quiet SM skip its own tick (core_sm_tick), including
   SMs whose miss queues the full network refuses (mem_port.refusing):
   a wrong refusal check or a missing refused send fails this. */
static void check_skip_exact(gpu_config *cfg)
{
    th_run *r1 = calloc(1, sizeof *r1), *r2 = calloc(1, sizeof *r2);
    cfg->skip_idle_cycles = true;
    run_scatter(cfg, r1);
    cfg->skip_idle_cycles = false;
    run_scatter(cfg, r2);
    assert_true(r1->st.skipped_cycles > 0);
    assert_int_equal(r2->st.skipped_cycles, 0);
    assert_int_equal(r1->st.nsamples, r2->st.nsamples);
    assert_true(r1->st.nsamples > 0);
    assert_memory_equal(r1->st.samples, r2->st.samples, r1->st.nsamples * sizeof(gpu_sample));
    gpu_stats_release(&r1->st);
    gpu_stats_release(&r2->st);
    r1->st.skipped_cycles = 0;
    assert_memory_equal(&r1->st.mem, &r2->st.mem, sizeof r1->st.mem);
    assert_memory_equal(&r1->st, &r2->st, sizeof r1->st);
    free(r1);
    free(r2);
}

static void test_skip_is_exact(void **state)
{
    (void)state;
    gpu_config cfg;
    ms_config(&cfg);
    cfg.core_mhz = 700;
    cfg.icnt_mhz = 1100;
    cfg.l2_mhz = 450;
    cfg.dram_mhz = 924;
    cfg.timeseries_interval = 700;
    check_skip_exact(&cfg);
    ms_small(&cfg);
    check_skip_exact(&cfg);
    cfg.dram_fixed_latency = 200;
    check_skip_exact(&cfg);
}

static void test_deterministic(void **state)
{
    (void)state;
    gpu_config cfg;
    ms_config(&cfg);
    ms_small(&cfg);
    th_run *r1 = calloc(1, sizeof *r1), *r2 = calloc(1, sizeof *r2);
    run_scatter(&cfg, r1);
    run_scatter(&cfg, r2);
    assert_memory_equal(&r1->st, &r2->st, offsetof(gpu_kernel_stats, samples));
    assert_memory_equal(&r1->st.mem, &r2->st.mem, sizeof r1->st.mem);
    free(r1);
    free(r2);
}

/* perfect L2 is an upper bound; fixed-latency DRAM has no row effects */
static void test_ideal_modes(void **state)
{
    (void)state;
    gpu_config cfg;
    ms_config(&cfg);
    th_run *base = calloc(1, sizeof *base), *p = calloc(1, sizeof *p), *f = calloc(1, sizeof *f);
    run_scatter(&cfg, base);
    gpu_config pc = cfg;
    pc.perfect_l2 = true;
    run_scatter(&pc, p);
    gpu_config fc = cfg;
    fc.dram_fixed_latency = 100;
    run_scatter(&fc, f);
    assert_true(p->st.cycles < base->st.cycles);
    assert_int_equal(p->st.mem.dram_reads, 0);
    assert_int_equal(p->st.mem.l2.misses, 0);
    assert_true(base->st.mem.dram_row_hits + base->st.mem.dram_row_misses
                + base->st.mem.dram_row_conflicts > 0);
    assert_true(f->st.mem.dram_reads > 0);
    free(base);
    free(p);
    free(f);
}

/* the simple backend leaves the memory-system counters at zero */
static void test_simple_model_untouched(void **state)
{
    (void)state;
    gpu_config cfg;
    ms_config(&cfg);
    snprintf(cfg.memory_model, sizeof cfg.memory_model, "simple");
    th_run *r = calloc(1, sizeof *r);
    run_scatter(&cfg, r);
    gpu_mem_stats zero;
    memset(&zero, 0, sizeof zero);
    assert_memory_equal(&r->st.mem, &zero, sizeof zero);
    assert_true(r->st.mem_requests > 0);
    free(r);
}

/* ---- a memory-side prefetcher under the whole model: per bank, the
   lowest lines of the open row not read or written since its activate,
   at most 4 per activation ---- */

typedef struct seqpf { uint64_t sent[64]; uint32_t issued[64]; } seqpf;

static void *sp_init(const ws_param_values *p, const ws_policy_env *env)
{
    (void)p;
    assert_true(env->banks <= 64);
    return calloc(1, sizeof(seqpf));
}
static void sp_destroy(void *st) { free(st); }
static void sp_event(void *st, const ws_dram_view *v, const ws_dram_event *e)
{
    (void)v;
    seqpf *p = st;
    if (e->kind == WS_DRAM_EV_ACTIVATE) p->sent[e->bank] = 0, p->issued[e->bank] = 0;
    if ((e->kind == WS_DRAM_EV_READ || e->kind == WS_DRAM_EV_WRITE) && e->line < 64)
        p->sent[e->bank] |= 1ull << e->line;
}
static int sp_prefetch(void *st, const ws_dram_view *v, uint32_t bank)
{
    seqpf *p = st;
    if (p->issued[bank] >= 4) return -1;
    for (uint32_t l = 0; l < v->row_lines && l < 64; l++)
        if (!(p->sent[bank] >> l & 1)) {
            p->issued[bank]++;
            return (int)l;          /* its READ event marks it sent */
        }
    return -1;
}
static const ws_dram_prefetch_ops seq_prefetch = {
    .name = "test-seq", .init = sp_init, .destroy = sp_destroy, .on_event = sp_event,
    .prefetch = sp_prefetch,
};

/* With a prefetcher the kernel's results stay right, prefetches are
   issued, fill L2 and are used; the run is deterministic and identical
   with and without idle-cycle skipping. */
static void test_prefetch_whole_model(void **state)
{
    (void)state;
    gpu_config cfg;
    ms_config(&cfg);
    th_run *r[3];
    for (int i = 0; i < 3; i++) {
        r[i] = calloc(1, sizeof *r[i]);
        r[i]->dram_prefetch = &seq_prefetch;
        cfg.skip_idle_cycles = i != 2;
        run_scatter(&cfg, r[i]);
    }
    const gpu_mem_stats *m = &r[0]->st.mem;
    fprintf(stderr, "prefetch: %llu cycles, reads %llu, prefetch reads %llu, fills %llu, "
            "merges %llu, useful hits %llu\n", (unsigned long long)r[0]->st.cycles,
            (unsigned long long)m->dram_reads, (unsigned long long)m->dram_prefetch_reads,
            (unsigned long long)m->l2_prefetch_fills, (unsigned long long)m->l2_prefetch_merges,
            (unsigned long long)m->l2_prefetch_hits);
    assert_true(m->dram_prefetch_reads > 0);
    assert_int_equal(m->l2_prefetch_fills, m->dram_prefetch_reads);   /* all arrived */
    assert_true(m->l2_prefetch_hits + m->l2_prefetch_merges > 0);
    assert_true(m->dram_reads >= m->dram_prefetch_reads);
    for (int i = 1; i < 3; i++) {
        gpu_stats_release(&r[i]->st);
        r[i]->st.skipped_cycles = r[0]->st.skipped_cycles;
        assert_memory_equal(&r[0]->st.mem, &r[i]->st.mem, sizeof r[0]->st.mem);
        assert_int_equal(r[0]->st.cycles, r[i]->st.cycles);
    }
    assert_true(r[0]->st.skipped_cycles > 0);
    for (int i = 0; i < 3; i++) {
        if (i == 0) gpu_stats_release(&r[i]->st);
        free(r[i]);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_saturation_chain),
        cmocka_unit_test(test_skip_is_exact),
        cmocka_unit_test(test_deterministic),
        cmocka_unit_test(test_ideal_modes),
        cmocka_unit_test(test_simple_model_untouched),
        cmocka_unit_test(test_prefetch_whole_model),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
