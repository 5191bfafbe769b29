/*
** test_hang.c -- kernels that never finish and kernels that finish only
** when warps and CTAs run concurrently, each in the functional emulator
** and on the timing model: a busy loop, a spin on a flag nobody sets and
** a warp spinning while the others wait at a barrier stop at the progress
** limit with a dump of where each warp is (WS_ERR_TIMEOUT); a set
** interrupt flag stops a launch the same way (WS_ERR_INTERRUPTED); a
** consumer CTA spinning on a flag a later CTA sets, and a warp spinning on
** a value another warp of its CTA writes, finish with the right result;
** progress (barriers) restarts the count; recursion through a function
** with no frame faults as a stack overflow instead of eating host memory.
*/
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "warpsim.h"

#define HDR ".version 7.0\n.target sm_70\n.address_size 64\n"

static const char busy_ptx[] = HDR
    ".visible .entry busy()\n{\n"
    "LOOP:\n"
    "  bra.uni LOOP;\n"                         /* line 7 */
    "  ret;\n}\n";

/* every thread spins until *flag != 0 (nobody sets it) */
static const char flag_ptx[] = HDR
    ".visible .entry spin(.param .u64 flag)\n{\n"
    "  .reg .b64 %rd<2>;\n  .reg .b32 %r<2>;\n  .reg .pred %p<2>;\n"
    "  ld.param.u64 %rd1, [flag];\n"
    "LOOP:\n"
    "  ld.volatile.global.u32 %r1, [%rd1];\n"    /* line 10 */
    "  setp.eq.u32 %p1, %r1, 0;\n"
    "  @%p1 bra LOOP;\n"
    "  ret;\n}\n";

/* warp 0 spins on the flag, the other warps wait at bar.sync 0 */
static const char barspin_ptx[] = HDR
    ".visible .entry barspin(.param .u64 flag)\n{\n"
    "  .reg .b64 %rd<2>;\n  .reg .b32 %r<3>;\n  .reg .pred %p<3>;\n"
    "  ld.param.u64 %rd1, [flag];\n"
    "  mov.u32 %r1, %tid.x;\n"
    "  setp.ge.u32 %p1, %r1, 32;\n"
    "  @%p1 bra BAR;\n"
    "LOOP:\n"
    "  ld.volatile.global.u32 %r2, [%rd1];\n"
    "  setp.eq.u32 %p2, %r2, 0;\n"
    "  @%p2 bra LOOP;\n"
    "BAR:\n"
    "  bar.sync 0;\n"                            /* line 18 */
    "  ret;\n}\n";

/* CTAs 0..n-2 wait for the last CTA's flag, then write it to out[ctaid] */
static const char ctas_ptx[] = HDR
    ".visible .entry consume(.param .u64 flag, .param .u64 out)\n{\n"
    "  .reg .b64 %rd<5>;\n  .reg .b32 %r<6>;\n  .reg .pred %p<3>;\n"
    "  ld.param.u64 %rd1, [flag];\n  ld.param.u64 %rd2, [out];\n"
    "  mov.u32 %r1, %ctaid.x;\n  mov.u32 %r4, %nctaid.x;\n  sub.u32 %r4, %r4, 1;\n"
    "  setp.eq.u32 %p1, %r1, %r4;\n"
    "  @%p1 bra PRODUCE;\n"
    "WAIT:\n"
    "  ld.volatile.global.u32 %r2, [%rd1];\n"
    "  setp.eq.u32 %p2, %r2, 0;\n"
    "  @%p2 bra WAIT;\n"
    "  mul.wide.u32 %rd3, %r1, 4;\n  add.s64 %rd4, %rd2, %rd3;\n"
    "  st.global.u32 [%rd4], %r2;\n"
    "  ret;\n"
    "PRODUCE:\n"
    "  mov.u32 %r3, 42;\n"
    "  st.volatile.global.u32 [%rd1], %r3;\n"
    "  ret;\n}\n";

/* thread 0 (warp 0) waits for the value thread 32 (warp 1) writes */
static const char warps_ptx[] = HDR
    ".visible .entry pair(.param .u64 flag, .param .u64 out)\n{\n"
    "  .reg .b64 %rd<3>;\n  .reg .b32 %r<4>;\n  .reg .pred %p<4>;\n"
    "  ld.param.u64 %rd1, [flag];\n  ld.param.u64 %rd2, [out];\n"
    "  mov.u32 %r1, %tid.x;\n"
    "  setp.eq.u32 %p1, %r1, 32;\n"
    "  @%p1 bra PRODUCE;\n"
    "  setp.ne.u32 %p3, %r1, 0;\n"
    "  @%p3 bra DONE;\n"
    "WAIT:\n"
    "  ld.volatile.global.u32 %r2, [%rd1];\n"
    "  setp.eq.u32 %p2, %r2, 0;\n"
    "  @%p2 bra WAIT;\n"
    "  st.global.u32 [%rd2], %r2;\n"
    "DONE:\n"
    "  ret;\n"
    "PRODUCE:\n"
    "  mov.u32 %r3, 7;\n"
    "  st.volatile.global.u32 [%rd1], %r3;\n"
    "  ret;\n}\n";

/* `n` iterations, each ending at a barrier: long, but never without progress */
static const char barloop_ptx[] = HDR
    ".visible .entry barloop(.param .u32 n, .param .u64 out)\n{\n"
    "  .reg .b64 %rd<2>;\n  .reg .b32 %r<4>;\n  .reg .pred %p<2>;\n"
    "  ld.param.u32 %r1, [n];\n  ld.param.u64 %rd1, [out];\n"
    "  mov.u32 %r2, 0;\n"
    "LOOP:\n"
    "  add.u32 %r2, %r2, 1;\n"
    "  bar.sync 0;\n"
    "  setp.lt.u32 %p1, %r2, %r1;\n"
    "  @%p1 bra LOOP;\n"
    "  st.global.u32 [%rd1], %r2;\n"
    "  ret;\n}\n";

/* a function without a frame (no locals, parameters or results) calling itself */
static const char rec_ptx[] = HDR
    ".func down()\n{\n"
    "  call down, ();\n"                         /* line 6 */
    "  ret;\n}\n"
    ".visible .entry rec()\n{\n"
    "  call down, ();\n"
    "  ret;\n}\n";

typedef struct hang_run {
    ws_status st;
    char msg[8192];
    uint32_t out[8];
} hang_run;

/*
** Run `kernel` of `ptx` on a fresh context (timing or functional) with
** progress limit `limit` and interrupt flag `intr`; args: a zeroed flag
** word and an 8-word output buffer, as the kernel's parameters ask
** (`nargs`: 0, 1 = flag, 2 = flag and out, 3 = u32 `n` then out).
*/
static void run(const char *ptx, const char *kernel, int timing, uint64_t limit,
                const volatile sig_atomic_t *intr, uint32_t grid, uint32_t block, int nargs,
                uint32_t n, hang_run *r)
{
    ws_options o = { .timing = timing, .progress_limit = limit, .interrupt = intr };
    ws_ctx *ctx = NULL;
    char err[512];
    assert_int_equal(ws_ctx_create2(&o, &ctx, err, sizeof err), WS_OK);
    ws_module *mod;
    ws_kernel *k;
    assert_int_equal(ws_module_load_string(ctx, ptx, "hang.ptx", &mod), WS_OK);
    assert_int_equal(ws_module_get_kernel(mod, kernel, &k), WS_OK);
    ws_devptr flag, out;
    assert_int_equal(ws_malloc(ctx, 4, &flag), WS_OK);
    assert_int_equal(ws_malloc(ctx, sizeof r->out, &out), WS_OK);
    assert_int_equal(ws_memset(ctx, flag, 0, 4), WS_OK);
    assert_int_equal(ws_memset(ctx, out, 0, sizeof r->out), WS_OK);
    void *args[2] = { &flag, &out };
    if (nargs == 3) { args[0] = &n; nargs = 2; }
    r->st = ws_launch(ctx, k, (ws_dim3){ grid, 1, 1 }, (ws_dim3){ block, 1, 1 },
                      nargs ? args : NULL, 0);
    snprintf(r->msg, sizeof r->msg, "%s", ws_last_error(ctx));
    assert_int_equal(ws_memcpy_dtoh(ctx, r->out, out, sizeof r->out), WS_OK);
    ws_ctx_destroy(ctx);
}

static void expect_in(const hang_run *r, const char *what)
{
    if (!strstr(r->msg, what)) fail_msg("'%s' not in: %s", what, r->msg);
}

/* The dump names each warp and its PTX line, in the mode's own format. */
static void expect_warp(const hang_run *r, int timing, unsigned cta, unsigned warp)
{
    char want[64];
    if (timing) snprintf(want, sizeof want, "(CTA %u, warp %u): pc", cta, warp);
    else snprintf(want, sizeof want, "CTA %u (%u,0,0), warp %u: pc", cta, cta, warp);
    expect_in(r, want);
}

static void test_busy_loop(void **state)
{
    (void)state;
    for (int timing = 0; timing < 2; timing++) {
        hang_run r;
        run(busy_ptx, "busy", timing, 20000, NULL, 2, 64, 0, 0, &r);
        assert_int_equal(r.st, WS_ERR_TIMEOUT);
        expect_in(&r, "kernel 'busy'");
        expect_in(&r, "no progress");
        expect_in(&r, "PTX line 7 (bra)");
        for (unsigned c = 0; c < 2; c++)
            for (unsigned w = 0; w < 2; w++) expect_warp(&r, timing, c, w);
    }
}

static void test_flag_spin(void **state)
{
    (void)state;
    for (int timing = 0; timing < 2; timing++) {
        hang_run r;
        run(flag_ptx, "spin", timing, 20000, NULL, 3, 32, 1, 0, &r);
        assert_int_equal(r.st, WS_ERR_TIMEOUT);
        expect_in(&r, "progress");
        expect_in(&r, "PTX line 1");       /* lines 10..12 of the spin loop */
        expect_warp(&r, timing, 2, 0);
    }
}

static void test_barrier_spin(void **state)
{
    (void)state;
    for (int timing = 0; timing < 2; timing++) {
        hang_run r;
        run(barspin_ptx, "barspin", timing, 20000, NULL, 1, 64, 1, 0, &r);
        assert_int_equal(r.st, WS_ERR_TIMEOUT);
        expect_in(&r, "PTX line 18 (bar)");
        expect_in(&r, timing ? "waits at a barrier" : "waits at barrier 0");
        expect_warp(&r, timing, 0, 0);
        expect_warp(&r, timing, 0, 1);
    }
}

static void test_interrupt(void **state)
{
    (void)state;
    static volatile sig_atomic_t stop = 1;   /* as a SIGINT handler leaves it */
    for (int timing = 0; timing < 2; timing++) {
        hang_run r;
        run(busy_ptx, "busy", timing, UINT64_MAX, &stop, 1, 32, 0, 0, &r);
        assert_int_equal(r.st, WS_ERR_INTERRUPTED);
        expect_in(&r, "interrupted (SIGINT)");
        expect_in(&r, "PTX line 7 (bra)");
        expect_warp(&r, timing, 0, 0);
    }
}

static void test_spin_between_ctas(void **state)
{
    (void)state;
    for (int timing = 0; timing < 2; timing++) {
        hang_run r;
        run(ctas_ptx, "consume", timing, 10000000, NULL, 8, 64, 2, 0, &r);
        if (r.st != WS_OK) fail_msg("%s", r.msg);
        for (int i = 0; i < 7; i++) assert_int_equal(r.out[i], 42);
        assert_int_equal(r.out[7], 0);
    }
}

static void test_spin_between_warps(void **state)
{
    (void)state;
    for (int timing = 0; timing < 2; timing++) {
        hang_run r;
        run(warps_ptx, "pair", timing, 10000000, NULL, 1, 64, 2, 0, &r);
        if (r.st != WS_OK) fail_msg("%s", r.msg);
        assert_int_equal(r.out[0], 7);
    }
}

/* 2000 barrier phases of 2 warps x ~4 instructions each: far more than the
   limit in all, but a barrier completes every few instructions */
static void test_progress_restarts(void **state)
{
    (void)state;
    for (int timing = 0; timing < 2; timing++) {
        hang_run r;
        run(barloop_ptx, "barloop", timing, 100, NULL, 1, 64, 3, 2000, &r);
        if (r.st != WS_OK) fail_msg("%s", r.msg);
        assert_int_equal(r.out[0], 2000);
    }
}

static void test_frameless_recursion(void **state)
{
    (void)state;
    for (int timing = 0; timing < 2; timing++) {
        hang_run r;
        run(rec_ptx, "rec", timing, 1000000, NULL, 1, 32, 0, 0, &r);
        assert_int_equal(r.st, WS_ERR_FAULT);
        expect_in(&r, "stack overflow in 'down'");
        expect_in(&r, "kernel 'rec'");
        expect_in(&r, "thread (0,0,0)");
        expect_in(&r, "line 6");
        expect_in(&r, "limit 1024 bytes");
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_busy_loop),
        cmocka_unit_test(test_flag_spin),
        cmocka_unit_test(test_barrier_spin),
        cmocka_unit_test(test_interrupt),
        cmocka_unit_test(test_spin_between_ctas),
        cmocka_unit_test(test_spin_between_warps),
        cmocka_unit_test(test_progress_restarts),
        cmocka_unit_test(test_frameless_recursion),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
