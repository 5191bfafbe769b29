/*
** test_haws_timing.c -- HAWS on the timing model (policy/warp_haws.c over
** core/altissue.c): the thesis's Fig. 5.3 toy (specs/haws.md §3.1.8, §9
** item 4) and the rename/COPY path of a loop-carried register.
*/
#include "timing_harness.h"
#include "policy/policy.h"

/* Fig. 5.3: I1 a load into r2; I3 (the stall point) reads it; I4 and I6
   are independent of it, I5 and I7 are not. */
static const char *fig53_ptx =
    ".version 7.0\n.target sm_70\n.address_size 64\n"
    ".visible .entry fig53(.param .u64 p)\n{\n"
    "  .reg .b64 %rd<4>;\n  .reg .b32 %r<10>;\n"
    "  ld.param.u64 %rd1, [p];\n  mov.u32 %r1, %tid.x;\n"
    "  mul.wide.u32 %rd2, %r1, 4;\n  add.s64 %rd3, %rd1, %rd2;\n"
    "  ld.global.u32 %r2, [%rd3];\n"        /* I1 */
    "  add.u32 %r3, %r1, 1;\n"              /* I2 */
    "  add.u32 %r4, %r2, %r3;\n"            /* I3: stall point */
    "  add.u32 %r5, %r1, 2;\n"              /* I4: independent */
    "  add.u32 %r6, %r4, 1;\n"              /* I5: dependent */
    "  add.u32 %r7, %r5, 3;\n"              /* I6: independent (reads I4) */
    "  add.u32 %r8, %r6, %r7;\n"            /* I7: dependent */
    "  st.global.u32 [%rd3], %r8;\n  ret;\n}\n";

/* One SM, one scheduler issuing one instruction a cycle, 1-cycle ALU, a
   fixed memory latency (the simple backend, no L1D). */
static void fig53_config(gpu_config *c, uint32_t mem_latency)
{
    th_config(c);
    c->n_schedulers = 1;
    c->ibuffer_size = 1;
    for (int i = 0; i < GPU_OPC_COUNT; i++) c->op[i] = (gpu_op_timing){ 1, 1 };
    c->units[GPU_UNIT_SP] = 1;
    c->l1d.enabled = false;
    c->mem_latency = mem_latency;
}

typedef struct fig53_result {
    uint64_t cycles, issued, skips, lat_sum, lat_n;
    uint32_t out[128];
} fig53_result;

/* The toy's frame: the same prologue and store, no toy (the time the
   toy's own cycles are measured against). */
static const char *frame_ptx =
    ".version 7.0\n.target sm_70\n.address_size 64\n"
    ".visible .entry fig53(.param .u64 p)\n{\n"
    "  .reg .b64 %rd<4>;\n  .reg .b32 %r<10>;\n"
    "  ld.param.u64 %rd1, [p];\n  mov.u32 %r1, %tid.x;\n"
    "  mul.wide.u32 %rd2, %r1, 4;\n  add.s64 %rd3, %rd1, %rd2;\n"
    "  st.global.u32 [%rd3], %r1;\n  ret;\n}\n";

static void fig53_run(const char *ptx, uint32_t lat, const char *sched, const ws_param_values *p,
                      fig53_result *res)
{
    gpu_config cfg;
    fig53_config(&cfg, lat);
    uint32_t in[128];
    for (uint32_t i = 0; i < 128; i++) in[i] = 1000 + 7 * i;
    th_buf buf = { .bytes = sizeof in, .init = in, .out = res->out };
    th_run *r = calloc(1, sizeof *r);
    r->wsp = p;
    th_run_kernel(ptx, "fig53", &cfg, ws_find_warp_sched(sched), 1, 128, &buf, 1, NULL, 0, r);
    assert_int_equal(r->rc, 0);
    res->cycles = r->st.cycles;
    res->issued = r->st.alt.issued;
    res->skips = r->st.alt.skips;
    res->lat_sum = r->st.devmem_lat_sum;
    res->lat_n = r->st.devmem_lat_count;
    assert_int_equal(r->st.alt.order_errors, 0);
    assert_int_equal(r->st.alt.refused, 0);
    free(r);
}

/* haws with the LRR base (the toy's round robin); other parameters default */
static ws_param_values haws_lrr(void)
{
    ws_param_values p;
    ws_params_defaults(ws_find_warp_sched("haws")->params, &p);
    p.v[0] = 1;
    return p;
}

/*
** The toy's memory latency is a load's issue-to-data time.  The backend's
** mem_latency is one part of it (the L1 miss path adds a fixed few
** cycles), so it is set to the toy's latency less that part, measured
** here as the model's own average load latency at a known setting.
*/
static uint32_t fig53_backend_latency(uint32_t toy)
{
    fig53_result *r = calloc(1, sizeof *r);
    fig53_run(fig53_ptx, 40, "lrr", NULL, r);
    assert_true(r->lat_n > 0);
    uint64_t extra = r->lat_sum / r->lat_n - 40;
    free(r);
    assert_true(extra < toy);
    return toy - (uint32_t)extra;
}

static void test_fig53_savings(void **state)
{
    (void)state;
    ws_param_values p = haws_lrr();
    double saving[2];
    int64_t saved[2];
    const uint32_t toy[2] = { 19, 14 };
    for (int k = 0; k < 2; k++) {
        uint32_t lat = fig53_backend_latency(toy[k]);
        fig53_result *base = calloc(1, sizeof *base), *h = calloc(1, sizeof *h);
        fig53_result *frame = calloc(1, sizeof *frame);
        fig53_run(fig53_ptx, lat, "lrr", NULL, base);
        fig53_run(fig53_ptx, lat, "haws", &p, h);
        fig53_run(frame_ptx, lat, "lrr", NULL, frame);
        assert_int_equal(base->lat_sum / base->lat_n, toy[k]);
        /* the same program results */
        assert_memory_equal(base->out, h->out, sizeof base->out);
        for (uint32_t i = 0; i < 128; i++)
            assert_int_equal(h->out[i], (1000 + 7 * i) + (i + 1) + 1 + (i + 2) + 3);
        /* I4 and I6 of some warps ran ahead, and were passed in order */
        assert_true(h->issued > 0);
        assert_int_equal(h->issued, h->skips);
        assert_true(h->issued <= 2 * 4);
        assert_true(base->cycles > frame->cycles);
        /* the toy's own time: the kernel's less its frame's */
        double toy_base = (double)(base->cycles - frame->cycles);
        saved[k] = (int64_t)base->cycles - (int64_t)h->cycles;
        saving[k] = (double)saved[k] / toy_base;
        print_message("memory latency %u (backend %u): lrr %llu cycles, haws %llu, frame %llu: "
                      "%.1f %% of the toy's %.0f cycles saved, %llu ahead\n", toy[k], lat,
                      (unsigned long long)base->cycles, (unsigned long long)h->cycles,
                      (unsigned long long)frame->cycles, 100.0 * saving[k], toy_base,
                      (unsigned long long)h->issued);
        free(base);
        free(h);
        free(frame);
    }
    /* the thesis: 25 % at 19 cycles, 12.5 % at 14, because at 14 the load
       is back after HAWS issued only I4.  Here I4 and I6 of every warp go
       ahead at 14 too, so the saving in cycles is the same
       (docs/reproductions/haws.md): asserted, a saving at both, no smaller
       in cycles at 19 */
    assert_true(saving[0] > 0.0);
    assert_true(saving[1] > 0.0);
    assert_true(saved[0] >= saved[1]);
}

/* A loop-carried counter read by the stall point: its increment runs
   ahead renamed (WAR with the skipped stall point) and comes back as a
   COPY; the compare reads it through the rename table. */
static const char *loop_ptx =
    ".version 7.0\n.target sm_70\n.address_size 64\n"
    ".visible .entry acc(.param .u64 a, .param .u64 o)\n{\n"
    "  .reg .b64 %rd<8>;\n  .reg .b32 %r<10>;\n  .reg .pred %p<2>;\n"
    "  ld.param.u64 %rd1, [a];\n  ld.param.u64 %rd4, [o];\n  mov.u32 %r1, %tid.x;\n"
    "  mul.wide.u32 %rd2, %r1, 4;\n  add.s64 %rd3, %rd1, %rd2;\n"
    "  mov.u32 %r3, 0;\n  mov.u32 %r4, 0;\n"
    "LOOP:\n"
    "  ld.global.u32 %r2, [%rd3];\n"
    "  mad.lo.s32 %r4, %r2, %r3, %r4;\n"    /* stall point: reads r2 (LL) and r3 */
    "  add.u32 %r3, %r3, 1;\n"              /* independent, WAR on r3: renamed */
    "  add.s64 %rd3, %rd3, 512;\n"          /* independent, no hazard */
    "  setp.lt.u32 %p1, %r3, 6;\n"          /* reads r3 through the rename */
    "  @%p1 bra LOOP;\n"
    "  add.s64 %rd5, %rd4, %rd2;\n  st.global.u32 [%rd5], %r4;\n  ret;\n}\n";

static void loop_run_cfg(const char *sched, const ws_param_values *p, uint32_t *out,
                         gpu_kernel_stats *st, bool skip, uint32_t latency, uint32_t threads)
{
    gpu_config cfg;
    fig53_config(&cfg, latency);
    cfg.skip_idle_cycles = skip;
    static uint32_t in[128 * 6];
    for (uint32_t i = 0; i < 128 * 6; i++) in[i] = 3 + i % 17;
    th_buf bufs[2] = { { .bytes = sizeof in, .init = in },
                       { .bytes = 128 * 4, .out = out } };
    th_run *r = calloc(1, sizeof *r);
    r->wsp = p;
    th_run_kernel(loop_ptx, "acc", &cfg, ws_find_warp_sched(sched), 1, threads, bufs, 2, NULL, 0, r);
    assert_int_equal(r->rc, 0);
    *st = r->st;
    free(r);
}

static void loop_run(const char *sched, const ws_param_values *p, uint32_t *out,
                     gpu_kernel_stats *st)
{
    loop_run_cfg(sched, p, out, st, true, 60, 128);
}

/* Idle-cycle skipping stays exact with episodes in flight: a warp in one
   is looked at every cycle, so nothing it could do is jumped over.  One
   warp alone and a long latency: nothing else keeps the SM awake. */
static void test_skip_exact(void **state)
{
    (void)state;
    ws_param_values p = haws_lrr();
    uint32_t a[128], b[128];
    gpu_kernel_stats *sa = calloc(1, sizeof *sa), *sb = calloc(1, sizeof *sb);
    loop_run_cfg("haws", &p, a, sa, true, 300, 32);
    loop_run_cfg("haws", &p, b, sb, false, 300, 32);
    assert_true(sa->alt.issued > 0);
    assert_int_equal(sa->cycles, sb->cycles);
    assert_int_equal(sa->alt.issued, sb->alt.issued);
    assert_int_equal(sa->alt.copies, sb->alt.copies);
    assert_int_equal(sa->alt.ll_stall_slots, sb->alt.ll_stall_slots);
    assert_memory_equal(sa->slots, sb->slots, sizeof sa->slots);
    assert_memory_equal(a, b, 32 * sizeof *a);
    free(sa);
    free(sb);
}

static void test_rename_copy(void **state)
{
    (void)state;
    ws_param_values p = haws_lrr();
    uint32_t base[128], h[128];
    gpu_kernel_stats *sb = calloc(1, sizeof *sb), *sh = calloc(1, sizeof *sh);
    loop_run("lrr", NULL, base, sb);
    loop_run("haws", &p, h, sh);
    for (uint32_t t = 0; t < 128; t++) {
        uint32_t want = 0;
        for (uint32_t k = 0; k < 6; k++) want += (3 + (t + 128 * k) % 17) * k;
        assert_int_equal(base[t], want);
        assert_int_equal(h[t], want);
    }
    assert_true(sh->alt.copies > 0);            /* the renamed increment came back */
    assert_true(sh->alt.skips > 0);             /* the pointer step and the compare */
    assert_int_equal(sh->alt.copies + sh->alt.skips, sh->alt.issued);
    assert_int_equal(sh->alt.order_errors, 0);
    assert_int_equal(sh->alt.refused, 0);
    assert_true(sh->alt.max_episode <= 8);
    assert_int_equal(sh->warp_insns, sb->warp_insns);
    free(sb);
    free(sh);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fig53_savings),
        cmocka_unit_test(test_rename_copy),
        cmocka_unit_test(test_skip_exact),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
