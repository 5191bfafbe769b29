/*
** test_timing_opcoll.c -- the operand collector (opcoll.*) and GPGPU-Sim's
** 1-cycle default op class (op.other.latency): a dependent chain of one
** warp costs, per instruction, the latency alone without them; with them
** its reads, dispatch and writeback (opcoll.c's timeline); a single
** collector unit serialises independent warps.
*/
#include "timing_harness.h"

/* `n` dependent `op`s of one register chain, then a store of the result. */
static char *chain_ptx(const char *op, uint32_t n)
{
    size_t cap = 512 + (size_t)n * 48;
    char *s = malloc(cap);
    size_t k = (size_t)snprintf(s, cap,
        ".version 7.0\n.target sm_70\n.address_size 64\n"
        ".visible .entry chain(.param .u64 out)\n{\n"
        "  .reg .b32 %%r<4>;\n  .reg .b64 %%rd<3>;\n"
        "  mov.u32 %%r1, %%tid.x;\n  mov.u32 %%r2, 3;\n");
    for (uint32_t i = 0; i < n; i++)
        k += (size_t)snprintf(s + k, cap - k, "  %s.u32 %%r1, %%r1, %%r2;\n", op);
    snprintf(s + k, cap - k,
             "  ld.param.u64 %%rd1, [out];\n  mul.wide.u32 %%rd2, %%r1, 0;\n"
             "  add.s64 %%rd1, %%rd1, %%rd2;\n  st.global.u32 [%%rd1], %%r1;\n  ret;\n}\n");
    return s;
}

static uint64_t chain_cycles(const gpu_config *cfg, const char *op, uint32_t n, uint32_t warps)
{
    char *ptx = chain_ptx(op, n);
    th_buf out = { 4096, NULL, NULL, 0 };
    th_run *r = calloc(1, sizeof *r);
    th_run_kernel(ptx, "chain", cfg, &th_slot_sched, 1, 32 * warps, &out, 1, NULL, 0, r);
    if (r->rc) fail_msg("chain failed: %s", r->err);
    uint64_t c = r->st.cycles;
    free(r);
    free(ptx);
    return c;
}

/* cycles per extra instruction of the chain */
static uint64_t per_insn(const gpu_config *cfg, const char *op, uint32_t warps)
{
    uint64_t c1 = chain_cycles(cfg, op, 64, warps), c2 = chain_cycles(cfg, op, 128, warps);
    return (c2 - c1) / 64;
}

static void test_off_is_latency(void **state)
{
    (void)state;
    gpu_config cfg;
    th_config(&cfg);
    assert_int_equal(per_insn(&cfg, "add", 1), 4);
    assert_int_equal(per_insn(&cfg, "xor", 1), 4);   /* the add class times logic ops */
}

static void test_other_class(void **state)
{
    (void)state;
    gpu_config cfg;
    th_config(&cfg);
    cfg.op_other_latency = 1;
    assert_int_equal(per_insn(&cfg, "xor", 1), 1);
    assert_int_equal(per_insn(&cfg, "add", 1), 4);   /* add keeps its list value */
}

static void test_collector_timeline(void **state)
{
    (void)state;
    gpu_config cfg;
    th_config(&cfg);
    cfg.opc_reg_banks = 16;
    /* issue t, unit t+1, reads of r1, r2 at t+2, t+3, dispatch t+4, into
       the pipe t+5, written back after 4 + 2: the next issues at t+11 */
    assert_int_equal(per_insn(&cfg, "add", 1), 11);
    cfg.op_other_latency = 1;
    assert_int_equal(per_insn(&cfg, "xor", 1), 8);
}

static void test_collector_units(void **state)
{
    (void)state;
    gpu_config cfg;
    th_config(&cfg);
    cfg.n_schedulers = 1;
    cfg.opc_reg_banks = 16;
    /* 8 warps hide the chain's latency: one instruction a cycle per
       scheduler with free units; one unit held from t+1 to t+4 (two reads)
       lets an instruction issue only every 3 cycles */
    uint64_t free_units = per_insn(&cfg, "add", 8);
    cfg.opc_units_sp = 1;
    uint64_t one_unit = per_insn(&cfg, "add", 8);
    print_message("8 warps x 64 adds: %llu cycles per chain step, %llu with one unit\n",
                  (unsigned long long)free_units, (unsigned long long)one_unit);
    assert_int_equal(free_units, 11);
    assert_int_equal(one_unit, 8 * 3);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_off_is_latency),
        cmocka_unit_test(test_other_class),
        cmocka_unit_test(test_collector_timeline),
        cmocka_unit_test(test_collector_units),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
