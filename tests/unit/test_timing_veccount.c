/*
** test_timing_veccount.c -- gpu_sim_insn's vector-load rule (stats.h
** vec_hit_insns, ldst.c load_count_like_gpgpusim): GPGPU-Sim counts a
** global load once per destination register when the access that
** completes it is an L1D hit, and once otherwise.  One warp loads lines
** 1-3 of a buffer (warming them), then an ld.v4 over lines 0-3: line 0
** misses first, lines 1-3 hit after it.
*/
#include "timing_harness.h"

static const char vec_ptx[] =
    ".version 7.0\n.target sm_70\n.address_size 64\n"
    ".visible .entry vec(.param .u64 buf)\n{\n"
    "  .reg .b32 %r<12>;\n  .reg .b64 %rd<8>;\n"
    "  ld.param.u64 %rd1, [buf];\n"
    "  mov.u32 %r1, %tid.x;\n"
    "  mul.wide.u32 %rd2, %r1, 4;\n"
    "  add.s64 %rd3, %rd1, %rd2;\n"
    /* lines 1, 2, 3 (bytes 128..511): warm them, and wait for the data */
    "  ld.global.u32 %r2, [%rd3+128];\n"
    "  ld.global.u32 %r3, [%rd3+256];\n"
    "  ld.global.u32 %r4, [%rd3+384];\n"
    "  add.u32 %r5, %r2, %r3;\n  add.u32 %r5, %r5, %r4;\n"
    /* 16 bytes a lane: lines 0..3 in one instruction */
    "  mul.wide.u32 %rd4, %r1, 16;\n"
    "  add.s64 %rd5, %rd1, %rd4;\n"
    "  ld.global.v4.u32 {%r6, %r7, %r8, %r9}, [%rd5];\n"
    "  add.u32 %r10, %r6, %r9;\n  add.u32 %r10, %r10, %r5;\n"
    "  st.global.u32 [%rd3+1024], %r10;\n"
    "  ret;\n}\n";

static uint64_t vec_extra(uint32_t mem_latency)
{
    gpu_config cfg;
    th_config(&cfg);
    cfg.mem_latency = mem_latency;
    th_buf buf = { 4096, NULL, NULL, 0 };
    th_run *r = calloc(1, sizeof *r);
    th_run_kernel(vec_ptx, "vec", &cfg, &th_slot_sched, 1, 32, &buf, 1, NULL, 0, r);
    if (r->rc) fail_msg("vec failed: %s", r->err);
    uint64_t x = r->st.vec_hit_insns;
    free(r);
    return x;
}

/* A slow fill completes the ld.v4 after its hits: counted once. */
static void test_fill_completes(void **state)
{
    (void)state;
    assert_int_equal(vec_extra(200), 0);
}

/* A fill back within a cycle: the last hit, two cycles after the miss,
   completes the ld.v4, which GPGPU-Sim counts four times (3 x 32 more),
   although not every access hit. */
static void test_hit_completes(void **state)
{
    (void)state;
    assert_int_equal(vec_extra(1), 3 * 32);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fill_completes),
        cmocka_unit_test(test_hit_completes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
