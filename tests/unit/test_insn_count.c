/*
** test_insn_count.c -- thread instructions are counted as GPGPU-Sim counts
** gpu_sim_insn: one per PTX instruction per lane whose guard held, `ret`
** included, and nothing for a function's end (FUNC_END is no instruction:
** it is never issued, counted or charged a slot).  Each kernel runs
** functionally and on the timing model; both must give the exact counts.
** The first two kernels are the README's checks on GPGPU-Sim itself
** (../shared/correlation/README.md: 288 and 296 for 32 threads).
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

static const char count_ptx[] =
    ".version 7.0\n.target sm_75\n.address_size 64\n"
    /* a callee that falls off its end without ret */
    ".func noret(.param .b32 a)\n{\n"
    "    .reg .b32 %r<3>;\n"
    "    ld.param.b32 %r1, [a];\n"
    "    add.u32 %r2, %r1, 1;\n"
    "}\n"
    ".func (.param .b32 r) inc(.param .b32 a)\n{\n"
    "    .reg .b32 %r<3>;\n"
    "    ld.param.b32 %r1, [a];\n"
    "    add.u32 %r2, %r1, 1;\n"
    "    st.param.b32 [r], %r2;\n"
    "    ret;\n"
    "}\n"
    /* 9 instructions including ret: 9 per thread */
    ".visible .entry nine(.param .u64 out)\n{\n"
    "    .reg .b32 %r<5>;\n    .reg .b64 %rd<4>;\n"
    "    ld.param.u64 %rd1, [out];\n"
    "    mov.u32 %r1, %tid.x;\n"
    "    add.u32 %r2, %r1, 1;\n"
    "    add.u32 %r3, %r2, 1;\n"
    "    add.u32 %r4, %r3, 1;\n"
    "    mul.wide.u32 %rd2, %r1, 4;\n"
    "    add.s64 %rd3, %rd1, %rd2;\n"
    "    st.global.u32 [%rd3], %r4;\n"
    "    ret;\n"
    "}\n"
    /* the same plus a setp and an add guarded true on 8 lanes (tid < 8) */
    ".visible .entry pred(.param .u64 out)\n{\n"
    "    .reg .pred %p<2>;\n    .reg .b32 %r<5>;\n    .reg .b64 %rd<4>;\n"
    "    ld.param.u64 %rd1, [out];\n"
    "    mov.u32 %r1, %tid.x;\n"
    "    setp.lt.u32 %p1, %r1, 8;\n"
    "    add.u32 %r2, %r1, 1;\n"
    "    @%p1 add.u32 %r2, %r2, 1;\n"
    "    add.u32 %r3, %r2, 1;\n"
    "    mul.wide.u32 %rd2, %r1, 4;\n"
    "    add.s64 %rd3, %rd1, %rd2;\n"
    "    st.global.u32 [%rd3], %r3;\n"
    "    ret;\n"
    "}\n"
    /* lanes 0..7 return early, the others run one more add first */
    ".visible .entry divret(.param .u64 out)\n{\n"
    "    .reg .pred %p<2>;\n    .reg .b32 %r<3>;\n"
    "    mov.u32 %r1, %tid.x;\n"
    "    setp.lt.u32 %p1, %r1, 8;\n"
    "    @%p1 ret;\n"
    "    add.u32 %r2, %r1, 1;\n"
    "    ret;\n"
    "}\n"
    /* a call with an argument and a result, and one to a callee without ret */
    ".visible .entry calls(.param .u64 out)\n{\n"
    "    .reg .b32 %r<3>;\n"
    "    mov.u32 %r1, %tid.x;\n"
    "    {\n"
    "    .param .b32 pa;\n    .param .b32 pr;\n"
    "    st.param.b32 [pa], %r1;\n"
    "    call.uni (pr), inc, (pa);\n"
    "    ld.param.b32 %r2, [pr];\n"
    "    }\n"
    "    {\n"
    "    .param .b32 pb;\n"
    "    st.param.b32 [pb], %r2;\n"
    "    call.uni noret, (pb);\n"
    "    }\n"
    "    ret;\n"
    "}\n"
    /* a barrier is the last instruction: the release finishes the warps */
    ".visible .entry barend(.param .u64 out)\n{\n"
    "    .reg .b32 %r<2>;\n"
    "    mov.u32 %r1, %tid.x;\n"
    "    bar.sync 0;\n"
    "}\n";

typedef struct count_case {
    const char *kernel;
    uint32_t threads;
    uint64_t warp_insns, thread_insns;
} count_case;

static const count_case cases[] = {
    { "nine", 32, 9, 288 },
    { "pred", 32, 10, 9 * 32 + 8 },
    /* mov, setp, @p ret (8 lanes), add and ret on the other 24 */
    { "divret", 32, 5, 32 + 32 + 8 + 24 + 24 },
    /* mov, st.param, call, [ld.param, add, st.param, ret], ld.param,
       st.param, call, [ld.param, add], ret */
    { "calls", 32, 13, 13 * 32 },
    /* two warps: mov, bar */
    { "barend", 64, 4, 2 * 64 },
};

static void run_cases(int timing)
{
    ws_options opts = { 0 };
    opts.timing = timing;
    opts.config = timing ? "gtx480" : NULL;
    char err[1024];
    ws_ctx *ctx = NULL;
    ws_status st = ws_ctx_create2(&opts, &ctx, err, sizeof err);
    if (st != WS_OK) fail_msg("%s", err);
    ws_module *m;
    assert_int_equal(ws_module_load_string(ctx, count_ptx, "count.ptx", &m), WS_OK);
    ws_devptr out;
    assert_int_equal(ws_malloc(ctx, 64 * 4, &out), WS_OK);
    void *args[] = { &out };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const count_case *c = &cases[i];
        ws_kernel *k = NULL;
        assert_int_equal(ws_module_get_kernel(m, c->kernel, &k), WS_OK);
        st = ws_launch(ctx, k, (ws_dim3){1, 1, 1}, (ws_dim3){c->threads, 1, 1}, args, 0);
        if (st != WS_OK) fail_msg("%s: %s", c->kernel, ws_last_error(ctx));
        ws_stats s;
        ws_stats_last(ctx, &s);
        if (s.warp_insns != c->warp_insns || s.thread_insns != c->thread_insns)
            fail_msg("%s (%s): %llu warp / %llu thread instructions, expected %llu / %llu",
                     c->kernel, timing ? "timing" : "functional",
                     (unsigned long long)s.warp_insns, (unsigned long long)s.thread_insns,
                     (unsigned long long)c->warp_insns, (unsigned long long)c->thread_insns);
        if (timing) assert_true(s.cycles > 0);
    }
    ws_module_unload(m);
    ws_ctx_destroy(ctx);
}

static void test_functional_counts(void **state)
{
    (void)state;
    run_cases(0);
}

static void test_timing_counts(void **state)
{
    (void)state;
    run_cases(1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_functional_counts),
        cmocka_unit_test(test_timing_counts),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
