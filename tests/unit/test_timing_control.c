/*
** test_timing_control.c -- run control and the pipeline's control paths:
** the deadlock watchdog (a load whose reply never comes in time) stops
** with a dump naming warp, PTX line and pending loads; max_cycles stops a
** kernel spinning on a flag nobody sets; barriers, divergence and calls
** give the functional results under timing; a faulting kernel reports the
** emulator's message; policies receive the events they rely on.
*/
#include "timing_harness.h"

static const char *hdr = ".version 7.0\n.target sm_70\n.address_size 64\n";

static void test_watchdog_dump(void **state)
{
    (void)state;
    char ptx[1024];
    snprintf(ptx, sizeof ptx, "%s.visible .entry wait(.param .u64 p)\n{\n"
             "  .reg .b64 %%rd<4>;\n  ld.param.u64 %%rd1, [p];\n"
             "  ld.global.u64 %%rd2, [%%rd1];\n"
             "  add.s64 %%rd3, %%rd2, 1;\n"
             "  st.global.u64 [%%rd1], %%rd3;\n  ret;\n}\n", hdr);
    gpu_config cfg;
    th_config(&cfg);
    cfg.mem_latency = 1000000000u;   /* the reply will not come in time */
    cfg.watchdog_cycles = 5000;
    th_buf buf = { 64, NULL, NULL, 0 };
    th_run *r = calloc(1, sizeof *r);
    th_run_kernel(ptx, "wait", &cfg, &th_slot_sched, 1, 64, &buf, 1, NULL, 0, r);
    assert_int_equal(r->rc, -1);
    print_message("%s", r->err);
    assert_non_null(strstr(r->err, "deadlock watchdog"));
    /* the kernel parameter's load (constant cache) never returns, so the
       global load that needs its value waits */
    assert_non_null(strstr(r->err, "PTX line 8 (ld)"));
    assert_non_null(strstr(r->err, "scoreboard"));
    assert_non_null(strstr(r->err, "1 pending loads"));
    assert_non_null(strstr(r->err, "L1C 1 MSHRs"));
    assert_non_null(strstr(r->err, "warp slot 1"));
    /* it stopped about watchdog_cycles after the last progress, and skipped there */
    assert_true(r->st.cycles >= cfg.watchdog_cycles && r->st.cycles < 3 * cfg.watchdog_cycles);
    assert_true(r->st.skipped_cycles > cfg.watchdog_cycles / 2);
    free(r);
}

static void test_max_cycles_spin(void **state)
{
    (void)state;
    char ptx[1024];
    snprintf(ptx, sizeof ptx, "%s.visible .entry spin(.param .u64 flag)\n{\n"
             "  .reg .b64 %%rd<3>;\n  .reg .b32 %%r<3>;\n  .reg .pred %%p<2>;\n"
             "  ld.param.u64 %%rd1, [flag];\n"
             "LOOP:\n  ld.volatile.global.u32 %%r1, [%%rd1];\n"
             "  setp.eq.u32 %%p1, %%r1, 0;\n  @%%p1 bra LOOP;\n  ret;\n}\n", hdr);
    gpu_config cfg;
    th_config(&cfg);
    cfg.max_cycles = 20000;
    th_buf buf = { 64, NULL, NULL, 0 };
    th_run *r = calloc(1, sizeof *r);
    th_run_kernel(ptx, "spin", &cfg, &th_slot_sched, 2, 32, &buf, 1, NULL, 0, r);
    assert_int_equal(r->rc, -1);
    assert_non_null(strstr(r->err, "max_cycles (20000)"));
    assert_int_equal(r->st.cycles, 20000);
    assert_true(r->st.warp_insns == 0);    /* no warp finished: nothing accounted */
    assert_true(r->st.slots[GPU_SLOT_ISSUED] > 0);
    free(r);
}

/* Shared-memory reversal across warps with a barrier; divergent branch. */
static void test_barrier_and_divergence(void **state)
{
    (void)state;
    char ptx[2048];
    snprintf(ptx, sizeof ptx, "%s.visible .entry rev(.param .u64 out)\n{\n"
             "  .shared .align 4 .b8 sm[1024];\n"
             "  .reg .b32 %%r<10>;\n  .reg .b64 %%rd<4>;\n  .reg .pred %%p<2>;\n"
             "  mov.u32 %%r1, %%tid.x;\n  shl.b32 %%r2, %%r1, 2;\n  mov.u32 %%r3, sm;\n"
             "  add.u32 %%r4, %%r3, %%r2;\n  st.shared.u32 [%%r4], %%r1;\n"
             "  bar.sync 0;\n"
             "  sub.u32 %%r5, 255, %%r1;\n  shl.b32 %%r5, %%r5, 2;\n  add.u32 %%r5, %%r3, %%r5;\n"
             "  ld.shared.u32 %%r6, [%%r5];\n"
             "  and.b32 %%r7, %%r1, 1;\n  setp.eq.u32 %%p1, %%r7, 0;\n"
             "  @%%p1 bra EVEN;\n  add.u32 %%r6, %%r6, 1000;\n  bra.uni JOIN;\n"
             "EVEN:\n  add.u32 %%r6, %%r6, 2000;\n"
             "JOIN:\n  ld.param.u64 %%rd1, [out];\n  mul.wide.u32 %%rd2, %%r1, 4;\n"
             "  add.s64 %%rd3, %%rd1, %%rd2;\n  st.global.u32 [%%rd3], %%r6;\n  ret;\n}\n", hdr);
    gpu_config cfg;
    th_config(&cfg);
    cfg.n_clusters = 2;
    uint32_t out[256 * 3];
    th_buf buf = { sizeof out, NULL, out, 0 };
    th_run *r = calloc(1, sizeof *r);
    th_run_kernel(ptx, "rev", &cfg, &th_slot_sched, 3, 256, &buf, 1, NULL, 0, r);
    if (r->rc) fail_msg("%s", r->err);
    for (uint32_t t = 0; t < 256; t++)
        assert_int_equal(out[t], (255 - t) + ((t & 1) ? 1000 : 2000));
    assert_int_equal(r->st.bar_insns, 3 * 8);
    assert_true(r->st.slots[GPU_SLOT_BARRIER] > 0);
    free(r);
}

/* A faulting kernel stops the run with the emulator's report. */
static void test_fault_reported(void **state)
{
    (void)state;
    char ptx[1024];
    snprintf(ptx, sizeof ptx, "%s.visible .entry bad(.param .u64 p)\n{\n"
             "  .reg .b64 %%rd<3>;\n  .reg .b32 %%r<2>;\n  ld.param.u64 %%rd1, [p];\n"
             "  add.s64 %%rd2, %%rd1, 1048576;\n  ld.global.u32 %%r1, [%%rd2];\n  ret;\n}\n", hdr);
    gpu_config cfg;
    th_config(&cfg);
    th_buf buf = { 64, NULL, NULL, 0 };
    th_run *r = calloc(1, sizeof *r);
    th_run_kernel(ptx, "bad", &cfg, &th_slot_sched, 1, 32, &buf, 1, NULL, 0, r);
    assert_int_equal(r->rc, -1);
    assert_int_equal(r->l.fault.kind, EMU_FAULT_MEMORY);
    assert_non_null(strstr(r->err, "out-of-bounds"));
    free(r);
}

/* ---- events: a policy that counts what it is told ---- */

typedef struct ev_count { int n[16]; uint32_t issues; } ev_count;

/* every scheduler instance counts into the test's ev_count, whose address
   comes as parameter 0 */
static void *ev_init(const ws_param_values *p, const ws_policy_env *env)
{
    (void)env;
    return (void *)(intptr_t)p->v[0];
}
static void ev_on_event(void *st, const ws_sched_view *v, const ws_sched_event *e)
{
    (void)v;
    ev_count *c = st;
    if (e->kind > 0 && e->kind < 16) c->n[e->kind]++;
}
static void ev_on_issue(void *st, const ws_sched_view *v, uint32_t slot)
{
    (void)v; (void)slot;
    ((ev_count *)st)->issues++;
}
/* veto every memory instruction of odd warps for their first 500 cycles */
static bool ev_may_issue(void *st, const ws_sched_view *v, uint32_t w)
{
    (void)st;
    return !(v->warps[w].next_class == WS_NEXT_MEM && (w & 1) && v->cycle < 500);
}
static const ws_warp_sched_ops ev_sched = {
    .name = "test-events", .init = ev_init,
    .on_event = ev_on_event, .on_issue = ev_on_issue, .may_issue = ev_may_issue,
};

/* The hooks on a streaming kernel, with the L1D allocating at fill (the
   default) or on miss: either way every eviction reaches the policy (on
   miss from the LSU's access, at fill from the reply). */
static void policy_hooks(uint32_t alloc)
{
    /* a streaming kernel over more lines than the L1 holds: misses, evictions */
    char ptx[1024];
    snprintf(ptx, sizeof ptx, "%s.visible .entry stream(.param .u64 p)\n{\n"
             "  .reg .b64 %%rd<5>;\n  .reg .b32 %%r<4>;\n  ld.param.u64 %%rd1, [p];\n"
             "  mov.u32 %%r1, %%ctaid.x;\n  mov.u32 %%r2, %%ntid.x;\n  mov.u32 %%r3, %%tid.x;\n"
             "  mad.lo.u32 %%r1, %%r1, %%r2, %%r3;\n  mul.wide.u32 %%rd2, %%r1, 4;\n"
             "  add.s64 %%rd3, %%rd1, %%rd2;\n  ld.global.u32 %%r2, [%%rd3];\n"
             "  ld.global.u32 %%r3, [%%rd3];\n  add.u32 %%r2, %%r2, %%r3;\n"
             "  st.global.u32 [%%rd3], %%r2;\n  ret;\n}\n", hdr);
    gpu_config cfg;
    th_config(&cfg);
    cfg.n_clusters = 1;
    cfg.l1d.sets = 4;
    cfg.l1d.ways = 2;
    cfg.l1d.mshr_entries = 6;      /* small enough to saturate */
    cfg.l1d.allocate = alloc;
    cfg.l1d.owner = alloc == GPU_L1_ALLOC_MISS ? GPU_L1_OWNER_ALLOC : GPU_L1_OWNER_LAST;
    uint32_t n = 64 * 256, warps = n / 32;
    th_buf buf = { n * 4, NULL, NULL, 0 };
    th_run *r = calloc(1, sizeof *r);
    ev_count counts;
    memset(&counts, 0, sizeof counts);
    ws_param_values pv = { .n = 1, .v = { (int64_t)(intptr_t)&counts } };
    r->wsp = &pv;
    th_run_kernel(ptx, "stream", &cfg, &ev_sched, 64, 256, &buf, 1, NULL, 0, r);
    if (r->rc) fail_msg("%s", r->err);
    assert_true(r->st.l1d.evictions > 0);
    assert_true(r->st.l1d.misses >= n / 32);
    assert_true(r->st.l1d.hits > 0);
    assert_true(r->st.slots[GPU_SLOT_MEM_VETO] > 0);
    assert_int_equal(counts.issues, r->st.warp_insns);
    assert_int_equal(counts.n[WS_EV_WARP_START], warps);
    assert_int_equal(counts.n[WS_EV_WARP_DONE], warps);
    /* one policy instance per SM: every event is delivered once */
    assert_int_equal(counts.n[WS_EV_CTA_START], 64);
    assert_int_equal(counts.n[WS_EV_CTA_DONE], 64);
    assert_int_equal(counts.n[WS_EV_KERNEL_BEGIN], 1);
    assert_int_equal(counts.n[WS_EV_KERNEL_END], 1);
    /* one store per warp reaches L1; loads wait on loads */
    assert_int_equal(counts.n[WS_EV_L1_STORE], warps);
    assert_true(counts.n[WS_EV_LL_STALL] >= (int)warps);
    /* ld.param + two global loads per warp */
    assert_int_equal(counts.n[WS_EV_LOAD_RETURN], 3 * warps);
    /* hit/miss events are for loads; the statistics count stores too */
    assert_true(counts.n[WS_EV_L1_HIT] > 0 && (uint64_t)counts.n[WS_EV_L1_HIT] < r->st.l1d.hits);
    assert_true(counts.n[WS_EV_L1_MISS] >= (int)warps);
    assert_true((uint64_t)counts.n[WS_EV_L1_MISS] <= r->st.l1d.misses);
    assert_int_equal(counts.n[WS_EV_L1_HIT] + counts.n[WS_EV_L1_MISS], 2 * warps);
    assert_int_equal(counts.n[WS_EV_L1_EVICT], r->st.l1d.evictions);
    assert_true(counts.n[WS_EV_MEM_SATURATED] >= 2);
    assert_true(counts.n[WS_EV_LSU_STALL] > 0);
    assert_true(r->st.l1d.reservation_fails_set <= r->st.l1d.reservation_fails);
    if (alloc == GPU_L1_ALLOC_FILL) assert_int_equal(r->st.l1d.reservation_fails_set, 0);
    free(r);
}

/* Idle-cycle skipping is exact for policies too: the same events (and
   issues) reach the policy with and without it. */
static void test_events_skip_exact(void **state)
{
    (void)state;
    char ptx[1024];
    snprintf(ptx, sizeof ptx, "%s.visible .entry chase(.param .u64 p)\n{\n"
             "  .reg .b64 %%rd<5>;\n  .reg .b32 %%r<4>;\n  ld.param.u64 %%rd1, [p];\n"
             "  mov.u32 %%r1, %%ctaid.x;\n  mov.u32 %%r2, %%ntid.x;\n  mov.u32 %%r3, %%tid.x;\n"
             "  mad.lo.u32 %%r1, %%r1, %%r2, %%r3;\n  mul.wide.u32 %%rd2, %%r1, 128;\n"
             "  add.s64 %%rd3, %%rd1, %%rd2;\n  ld.global.u32 %%r2, [%%rd3];\n"
             "  add.u32 %%r2, %%r2, 1;\n  st.global.u32 [%%rd3], %%r2;\n  ret;\n}\n", hdr);
    ev_count counts[2];
    uint64_t cycles[2], skipped[2];
    for (int skip = 0; skip < 2; skip++) {
        gpu_config cfg;
        th_config(&cfg);
        cfg.n_clusters = 2;
        cfg.l1d.mshr_entries = 4;
        cfg.skip_idle_cycles = skip;
        uint32_t n = 32 * 64;
        th_buf buf = { n * 128, NULL, NULL, 0 };
        th_run *r = calloc(1, sizeof *r);
        memset(&counts[skip], 0, sizeof counts[skip]);
        ws_param_values pv = { .n = 1, .v = { (int64_t)(intptr_t)&counts[skip] } };
        r->wsp = &pv;
        th_run_kernel(ptx, "chase", &cfg, &ev_sched, 32, 64, &buf, 1, NULL, 0, r);
        if (r->rc) fail_msg("%s", r->err);
        cycles[skip] = r->st.cycles;
        skipped[skip] = r->st.skipped_cycles;
        free(r);
    }
    assert_true(skipped[1] > 0);        /* it did skip, so the test means something */
    assert_int_equal(skipped[0], 0);
    assert_int_equal(cycles[0], cycles[1]);
    assert_true(counts[1].n[WS_EV_LSU_STALL] > 0);
    for (int k = 0; k < 16; k++) assert_int_equal(counts[0].n[k], counts[1].n[k]);
    assert_int_equal(counts[0].issues, counts[1].issues);
}

static void test_policy_hooks(void **state)
{
    (void)state;
    policy_hooks(GPU_L1_ALLOC_FILL);
}

static void test_policy_hooks_alloc_miss(void **state)
{
    (void)state;
    policy_hooks(GPU_L1_ALLOC_MISS);
}


int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_watchdog_dump),
        cmocka_unit_test(test_max_cycles_spin),
        cmocka_unit_test(test_barrier_and_divergence),
        cmocka_unit_test(test_fault_reported),
        cmocka_unit_test(test_policy_hooks),
        cmocka_unit_test(test_events_skip_exact),
        cmocka_unit_test(test_policy_hooks_alloc_miss),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
