/*
** test_stats.c -- the characterization counters of ws_stats: memory and
** barrier warp-instructions, the shortest/longest warp and the sum of
** squared warp lengths, per launch and over all launches, checked
** exactly on small hand-written kernels.
*/
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "warpsim.h"

/*
** charz: warp 0 of each CTA runs two more instructions (a global load and
** an add) than the others.  Per warp: 11 instructions (ld.param, mov, shr,
** bar, setp, bra, bar, mul, add, st, ret; the function's end is no
** instruction), 13 for warp 0; memory: ld.param + st (+ ld.global in warp 0); two bars.
*/
static const char stats_ptx[] =
    ".version 7.0\n"
    ".target sm_75\n"
    ".address_size 64\n"
    "\n"
    ".visible .entry charz(.param .u64 out)\n"
    "{\n"
    "    .reg .pred %p<2>;\n"
    "    .reg .b32 %r<4>;\n"
    "    .reg .b64 %rd<4>;\n"
    "    ld.param.u64 %rd1, [out];\n"
    "    mov.u32 %r1, %tid.x;\n"
    "    shr.u32 %r2, %r1, 5;\n"
    "    bar.sync 0;\n"
    "    setp.ne.u32 %p1, %r2, 0;\n"
    "    @%p1 bra SKIP;\n"
    "    ld.global.u32 %r3, [%rd1];\n"
    "    add.u32 %r3, %r3, 1;\n"
    "SKIP:\n"
    "    bar.sync 0;\n"
    "    mul.wide.u32 %rd2, %r1, 4;\n"
    "    add.s64 %rd3, %rd1, %rd2;\n"
    "    st.global.u32 [%rd3], %r1;\n"
    "    ret;\n"
    "}\n"
    "\n"
    ".visible .entry empty()\n"
    "{\n"
    "    ret;\n"
    "}\n";

static ws_kernel *kernel(ws_module *m, const char *name)
{
    ws_kernel *k = NULL;
    assert_int_equal(ws_module_get_kernel(m, name, &k), WS_OK);
    return k;
}

static void launch(ws_ctx *ctx, ws_kernel *k, uint32_t grid, uint32_t block, void **args)
{
    ws_status st = ws_launch(ctx, k, (ws_dim3){grid, 1, 1}, (ws_dim3){block, 1, 1}, args, 0);
    if (st != WS_OK) fail_msg("%s", ws_last_error(ctx));
}

static void test_class_and_spread_counts(void **state)
{
    (void)state;
    ws_ctx *ctx = ws_ctx_create(NULL);
    assert_non_null(ctx);
    ws_module *m;
    assert_int_equal(ws_module_load_string(ctx, stats_ptx, "stats.ptx", &m), WS_OK);
    ws_devptr out;
    assert_int_equal(ws_malloc(ctx, 80 * 4, &out), WS_OK);
    void *args[] = { &out };

    /* 2 CTAs x 80 threads = 3 warps each, the last one partial */
    launch(ctx, kernel(m, "charz"), 2, 80, args);
    ws_stats s;
    ws_stats_last(ctx, &s);
    assert_int_equal(s.warps, 6);
    assert_int_equal(s.warp_insns, 2 * (13 + 11 + 11));
    /* warp 0's bra has a false guard in every lane: issued, 0 lanes */
    assert_int_equal(s.thread_insns, 2 * (32 * 12 + 32 * 11 + 16 * 11));
    assert_int_equal(s.mem_insns, 2 * (3 + 1 + 3));
    assert_int_equal(s.bar_insns, 2 * 3 * 2);
    assert_int_equal(s.warp_insns_min, 11);
    assert_int_equal(s.warp_insns_max, 13);
    /* sum of squared warp lengths, exact: 2 x (13^2 + 11^2 + 11^2) */
    assert_true(s.warp_insns_sq == 2.0 * (169 + 121 + 121));

    /* one warp: no spread */
    launch(ctx, kernel(m, "charz"), 1, 32, args);
    ws_stats_last(ctx, &s);
    assert_int_equal(s.warp_insns_min, 13);
    assert_int_equal(s.warp_insns_max, 13);
    assert_true(s.warp_insns_sq == 169.0);
    assert_int_equal(s.mem_insns, 3);

    /* ret only: 1 instruction, no memory, no barrier */
    launch(ctx, kernel(m, "empty"), 3, 1, NULL);
    ws_stats_last(ctx, &s);
    assert_int_equal(s.warp_insns, 3 * 1);
    assert_int_equal(s.thread_insns, 3 * 1);
    assert_int_equal(s.mem_insns, 0);
    assert_int_equal(s.bar_insns, 0);
    assert_int_equal(s.warp_insns_min, 1);
    assert_int_equal(s.warp_insns_max, 1);
    assert_true(s.warp_insns_sq == 3.0);

    /* totals: sums, and min/max over every launch */
    ws_stats t;
    ws_stats_total(ctx, &t);
    assert_int_equal(t.launches, 3);
    assert_int_equal(t.mem_insns, 14 + 3);
    assert_int_equal(t.bar_insns, 12 + 2);
    assert_int_equal(t.warp_insns_min, 1);
    assert_int_equal(t.warp_insns_max, 13);
    assert_true(t.warp_insns_sq == 822.0 + 169.0 + 3.0);
    ws_module_unload(m);
    ws_ctx_destroy(ctx);
}

/* The timing model counts the same warps through the same function. */
static void test_counts_on_timing_model(void **state)
{
    (void)state;
    ws_options o = { .timing = 1 };
    ws_ctx *ctx = NULL;
    char err[512];
    assert_int_equal(ws_ctx_create2(&o, &ctx, err, sizeof err), WS_OK);
    ws_module *m;
    assert_int_equal(ws_module_load_string(ctx, stats_ptx, "stats.ptx", &m), WS_OK);
    ws_devptr out;
    assert_int_equal(ws_malloc(ctx, 80 * 4, &out), WS_OK);
    void *args[] = { &out };
    launch(ctx, kernel(m, "charz"), 2, 80, args);
    ws_stats s;
    ws_stats_last(ctx, &s);
    assert_true(s.cycles > 0);
    assert_int_equal(s.warp_insns, 2 * (13 + 11 + 11));
    assert_int_equal(s.warp_insns_min, 11);
    assert_int_equal(s.warp_insns_max, 13);
    assert_true(s.warp_insns_sq == 2.0 * (169 + 121 + 121));
    ws_module_unload(m);
    ws_ctx_destroy(ctx);
}

/* A faulting launch still reports what its warps did before the fault. */
static void test_counts_after_fault(void **state)
{
    (void)state;
    ws_ctx *ctx = ws_ctx_create(NULL);
    ws_module *m;
    assert_int_equal(ws_module_load_string(ctx, stats_ptx, "stats.ptx", &m), WS_OK);
    ws_devptr bad = 0x10;   /* outside every allocation */
    void *args[] = { &bad };
    assert_int_equal(ws_launch(ctx, kernel(m, "charz"), (ws_dim3){1, 1, 1},
                               (ws_dim3){32, 1, 1}, args, 0), WS_ERR_FAULT);
    ws_stats s;
    ws_stats_last(ctx, &s);
    /* ld.param .. ld.global: the load faults after being counted */
    assert_int_equal(s.warp_insns, 7);
    assert_int_equal(s.mem_insns, 2);
    assert_int_equal(s.bar_insns, 1);
    assert_int_equal(s.warp_insns_min, 7);
    assert_int_equal(s.warp_insns_max, 7);
    assert_true(s.warp_insns_sq == 49.0);
    ws_module_unload(m);
    ws_ctx_destroy(ctx);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_class_and_spread_counts),
        cmocka_unit_test(test_counts_on_timing_model),
        cmocka_unit_test(test_counts_after_fault),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
