/*
** test_owl_stats.c -- the statistics OWL reports (specs/owl.md §6) and the
** perfect-L1 bound (§7.18), on small hand-checkable runs of the timing
** model: MemoryBlockCycles of one warp waiting on one load miss, active
** and no-warp SM-cycles, a perfect L1 that never misses and runs faster,
** exact under idle-cycle skipping.
*/
#include "timing_harness.h"
#include "mem/rowshare.h"

/* c[i] = a[i] + 1: one load, one dependent add, one store per thread */
static const char *inc_ptx =
    ".version 7.0\n.target sm_70\n.address_size 64\n"
    ".visible .entry inc(.param .u64 a, .param .u64 c)\n"
    "{\n"
    "  .reg .b32 %r<4>;\n  .reg .f32 %f<4>;\n  .reg .b64 %rd<8>;\n"
    "  ld.param.u64 %rd1, [a];\n  ld.param.u64 %rd2, [c];\n"
    "  mov.u32 %r1, %tid.x;\n  mul.wide.u32 %rd3, %r1, 4;\n"
    "  add.s64 %rd4, %rd1, %rd3;\n  ld.global.f32 %f1, [%rd4];\n"
    "  add.f32 %f2, %f1, 0f3F800000;\n"
    "  add.s64 %rd5, %rd2, %rd3;\n  st.global.f32 [%rd5], %f2;\n"
    "  ret;\n}\n";

/* thread i sums a[((i + k * 977) * 32) mod n], k = 0..15 (as
   test_memsys_gpu.c's scatter, longer): every load misses */
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
    "  add.s32 %r6, %r6, 1;\n  setp.lt.u32 %p1, %r6, 16;\n  @%p1 bra LOOP;\n"
    "  mul.wide.u32 %rd5, %r5, 4;\n  add.s64 %rd6, %rd2, %rd5;\n  st.global.f32 [%rd6], %f1;\n"
    "  ret;\n}\n";

#define SN (1u << 18)
#define SCTAS 16
#define STHREADS 128

/* th_config with every op in one cycle (interval 1), two SMs */
static void os_config(gpu_config *c)
{
    th_config(c);
    c->cores_per_cluster = 2;
    for (int i = 0; i < GPU_OPC_COUNT; i++) c->op[i] = (gpu_op_timing){ 4, 1 };
}

static void run_inc(const gpu_config *cfg, th_run *r)
{
    float a[32], out[32];
    for (int i = 0; i < 32; i++) a[i] = (float)i;
    th_buf bufs[2] = { { sizeof a, a, NULL, 0 }, { sizeof out, NULL, out, 0 } };
    th_run_kernel(inc_ptx, "inc", cfg, &th_slot_sched, 1, 32, bufs, 2, NULL, 0, r);
    if (r->rc) fail_msg("inc failed: %s", r->err);
    for (int i = 0; i < 32; i++) assert_true(out[i] == (float)i + 1.0f);
}

static void run_scatter(const gpu_config *cfg, th_run *r)
{
    static float a[SN], out[SCTAS * STHREADS];
    for (uint32_t i = 0; i < SN; i++) a[i] = (float)(i % 13);
    th_buf bufs[2] = { { sizeof a, a, NULL, 0 }, { sizeof out, NULL, out, 0 } };
    uint32_t n = SN;
    th_run_kernel(scatter_ptx, "scatter", cfg, &th_slot_sched, SCTAS, STHREADS, bufs, 2,
                  &n, 1, r);
    if (r->rc) fail_msg("scatter failed: %s", r->err);
    for (uint32_t i = 0; i < SCTAS * STHREADS; i++) {
        float want = 0;
        for (uint32_t k = 0; k < 16; k++) want += a[((i + k * 977) * 32) % SN];
        assert_true(out[i] == want);
    }
}

/*
** One warp on SM 0 of two, two serial load misses to a 200-cycle memory
** (the parameters' line in the constant cache, then the data line): the
** warp waits on each for about the memory latency and nothing else
** blocks, so MemoryBlockCycles is twice the latency within the few cycles
** of L1 send and fill; every instruction issues in one cycle (interval 1), so the active
** SM-cycles are the warp instructions; SM 1 never has a warp.
*/
static void test_mem_block_one_miss(void **state)
{
    (void)state;
    gpu_config cfg;
    os_config(&cfg);
    th_run *r = calloc(1, sizeof *r), *s = calloc(1, sizeof *s);
    run_inc(&cfg, r);
    const gpu_kernel_stats *k = &r->st;
    fprintf(stderr, "one miss: %llu cycles, mem_block %llu, active %llu, warp cycles %llu, "
            "insns %llu\n", (unsigned long long)k->cycles,
            (unsigned long long)k->mem_block_cycles, (unsigned long long)k->sm_active_cycles,
            (unsigned long long)k->sm_warp_cycles, (unsigned long long)k->warp_insns);
    assert_int_equal(k->l1c.misses - k->l1c.merges, 1);   /* ld.param: one line */
    assert_int_equal(k->l1d.misses, 2);         /* the load, the store (write-through) */
    assert_true(k->mem_block_cycles >= 2 * cfg.mem_latency - 8);
    assert_true(k->mem_block_cycles <= 2 * cfg.mem_latency);
    assert_int_equal(k->sm_active_cycles, k->warp_insns);
    assert_true(k->sm_warp_cycles <= k->cycles);  /* SM 1 has none: no-warp >= cycles */
    assert_true(k->sm_warp_cycles > k->mem_block_cycles);
    /* the same without idle-cycle skipping */
    gpu_config ns = cfg;
    ns.skip_idle_cycles = false;
    run_inc(&ns, s);
    assert_int_equal(s->st.cycles, k->cycles);
    assert_int_equal(s->st.mem_block_cycles, k->mem_block_cycles);
    assert_int_equal(s->st.sm_active_cycles, k->sm_active_cycles);
    assert_int_equal(s->st.sm_warp_cycles, k->sm_warp_cycles);
    free(r);
    free(s);
}

/* An initiation interval of 4 (SIMT width 8, OWL §3) keeps the pipe, so
   the SM-cycle after each issue of an ALU instruction is active too. */
static void test_active_interval(void **state)
{
    (void)state;
    gpu_config cfg;
    os_config(&cfg);
    th_run *r = calloc(1, sizeof *r), *q = calloc(1, sizeof *q);
    run_inc(&cfg, r);
    for (int i = 0; i < GPU_OPC_COUNT; i++) cfg.op[i] = (gpu_op_timing){ 4, 4 };
    run_inc(&cfg, q);
    assert_true(q->st.sm_active_cycles > r->st.sm_active_cycles);
    assert_true(q->st.sm_active_cycles <= 4 * q->st.warp_insns);
    free(r);
    free(q);
}

/* perfect_l1: every access of a scattered, memory-bound kernel hits, no
   request leaves the SM, nothing blocks on memory, and it runs faster. */
static void test_perfect_l1(void **state)
{
    (void)state;
    gpu_config cfg;
    os_config(&cfg);
    th_run *r = calloc(1, sizeof *r), *p = calloc(1, sizeof *p), *s = calloc(1, sizeof *s);
    run_scatter(&cfg, r);
    gpu_config pc = cfg;
    pc.perfect_l1 = true;
    run_scatter(&pc, p);
    fprintf(stderr, "perfect L1: %llu cycles (normal %llu), L1D %llu/%llu misses, "
            "mem_block %llu (normal %llu)\n", (unsigned long long)p->st.cycles,
            (unsigned long long)r->st.cycles, (unsigned long long)p->st.l1d.misses,
            (unsigned long long)r->st.l1d.misses, (unsigned long long)p->st.mem_block_cycles,
            (unsigned long long)r->st.mem_block_cycles);
    assert_true(r->st.l1d.misses > 0);
    assert_true(r->st.mem_block_cycles > 0);
    assert_int_equal(p->st.l1d.misses, 0);
    assert_true(p->st.l1d.accesses > 0);
    assert_int_equal(p->st.l1d.hits, p->st.l1d.accesses);
    assert_int_equal(p->st.mem_requests, 0);
    assert_int_equal(p->st.mem_block_cycles, 0);
    assert_true(p->st.cycles < r->st.cycles);
    assert_int_equal(p->st.thread_insns, r->st.thread_insns);
    /* skipping stays exact with the new counters on a loaded machine */
    gpu_config ns = cfg;
    ns.skip_idle_cycles = false;
    run_scatter(&ns, s);
    assert_int_equal(s->st.cycles, r->st.cycles);
    assert_int_equal(s->st.mem_block_cycles, r->st.mem_block_cycles);
    assert_int_equal(s->st.sm_active_cycles, r->st.sm_active_cycles);
    assert_int_equal(s->st.sm_warp_cycles, r->st.sm_warp_cycles);
    free(r);
    free(p);
    free(s);
}

/* th_config's SMs over the default full memory system (2 channels) */
static void full_config(gpu_config *c)
{
    gpu_config d;
    gpu_config_defaults(&d);
    os_config(c);
    size_t from = offsetof(gpu_config, memory_model), to = offsetof(gpu_config, watchdog_cycles);
    memcpy((char *)c + from, (const char *)&d + from, to - from);
    snprintf(c->memory_model, sizeof c->memory_model, "full");
    c->n_clusters = 2;
    c->n_mem = 2;
    c->n_sub_per_mem = 2;
    c->perfect_l2 = c->perfect_l1 = c->unlimited_mem = false;
    c->dram_fixed_latency = 0;
}

/* Per-channel row-buffer locality and bank-level parallelism add up to
   the totals, every channel served some of the scattered reads, and a
   channel's BLP lies in [1, banks]. */
static void test_per_channel(void **state)
{
    (void)state;
    gpu_config cfg;
    full_config(&cfg);
    th_run *r = calloc(1, sizeof *r);
    run_scatter(&cfg, r);
    const gpu_mem_stats *m = &r->st.mem;
    assert_int_equal(m->n_channels, 2);
    uint64_t col = 0, hits = 0, busy = 0, any = 0;
    for (int c = 0; c < 2; c++) {
        assert_true(m->ch_col_accesses[c] > 0);
        assert_true(m->ch_any_bank_busy[c] <= m->ch_bank_busy_sum[c]);
        assert_true(m->ch_bank_busy_sum[c] <= m->ch_any_bank_busy[c] * cfg.dram_banks);
        col += m->ch_col_accesses[c];
        hits += m->ch_row_hits[c];
        busy += m->ch_bank_busy_sum[c];
        any += m->ch_any_bank_busy[c];
    }
    assert_int_equal(col, m->dram_row_hits + m->dram_row_misses + m->dram_row_conflicts);
    assert_int_equal(hits, m->dram_row_hits);
    assert_int_equal(busy, m->dram_bank_busy_sum);
    assert_int_equal(any, m->dram_any_bank_busy_cycles);
    for (int c = 2; c < GPU_STATS_CHANNELS; c++) assert_int_equal(m->ch_col_accesses[c], 0);
    free(r);
}

/* Table 4's score by hand: S = {1,2,3,4} -> 1; {7, 9} -> 0; {5} -> 0;
   {10, 11, 20} -> 2/3; repeated reads count a CTA once. */
static void test_rowshare_by_hand(void **state)
{
    (void)state;
    mem_rowshare *t = mem_rowshare_new();
    assert_non_null(t);
    for (uint32_t c = 4; c >= 1; c--) mem_rowshare_add(t, 100, c);
    mem_rowshare_add(t, 100, 2);
    mem_rowshare_add(t, 200, 9);
    mem_rowshare_add(t, 200, 7);
    mem_rowshare_add(t, 300, 5);
    mem_rowshare_add(t, 400, 20);
    mem_rowshare_add(t, 400, 11);
    mem_rowshare_add(t, 400, 10);
    mem_rowshare_sum s;
    mem_rowshare_summary(t, &s);
    assert_int_equal(s.rows, 4);
    assert_int_equal(s.ctas_sum, 4 + 2 + 1 + 3);
    assert_int_equal(s.score_ppm_sum, 1000000 + 0 + 0 + 666666);
    assert_int_equal(s.lost, 0);
    /* many rows: the table grows and keeps every row */
    for (uint32_t i = 0; i < 5000; i++) mem_rowshare_add(t, 1000 + i, i);
    mem_rowshare_summary(t, &s);
    assert_int_equal(s.rows, 5004);
    mem_rowshare_clear(t);
    mem_rowshare_summary(t, &s);
    assert_int_equal(s.rows, 0);
    mem_rowshare_free(t);
}

/* dram_cta_rows records without changing the timing; consecutive CTAs
   of the scattered kernel meet in rows (each warp reads 32 lines spread
   over the array), and the counters stay zero when it is off. */
static void test_rowshare_run(void **state)
{
    (void)state;
    gpu_config cfg;
    full_config(&cfg);
    th_run *r = calloc(1, sizeof *r), *q = calloc(1, sizeof *q);
    run_scatter(&cfg, r);
    gpu_config rc = cfg;
    rc.dram_cta_rows = true;
    run_scatter(&rc, q);
    const gpu_mem_stats *m = &q->st.mem;
    fprintf(stderr, "rows %llu, CTAs/row %.2f, sharing %.3f\n", (unsigned long long)m->cta_rows,
            (double)m->cta_row_ctas_sum / (double)m->cta_rows,
            (double)m->cta_row_score_ppm_sum / (double)m->cta_rows / 1e6);
    assert_int_equal(r->st.cycles, q->st.cycles);
    assert_int_equal(r->st.mem.cta_rows, 0);
    assert_true(m->cta_rows > 0);
    assert_true(m->cta_row_ctas_sum >= m->cta_rows);
    assert_true(m->cta_row_ctas_sum <= m->cta_rows * SCTAS);
    assert_true(m->cta_row_score_ppm_sum > 0);
    assert_int_equal(m->cta_row_lost, 0);
    free(r);
    free(q);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_mem_block_one_miss),
        cmocka_unit_test(test_active_interval),
        cmocka_unit_test(test_perfect_l1),
        cmocka_unit_test(test_per_channel),
        cmocka_unit_test(test_rowshare_by_hand),
        cmocka_unit_test(test_rowshare_run),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
