/*
** test_timing_icache.c -- the instruction cache (l1i.model, GPGPU-Sim's
** -gpgpu_cache:il1): off, fetch always hits; on, each 128-byte line of
** code (16 PTX instructions of 8 bytes) a warp enters for the first time
** costs a trip to memory during which the warp fetches nothing, and warps
** that want a line already on its way wait for the same fill.
*/
#include "timing_harness.h"

/* `n` dependent adds of one register chain, then a store of the result:
   2 + n + 5 instructions. */
static char *straight_ptx(uint32_t n)
{
    size_t cap = 512 + (size_t)n * 48;
    char *s = malloc(cap);
    size_t k = (size_t)snprintf(s, cap,
        ".version 7.0\n.target sm_70\n.address_size 64\n"
        ".visible .entry straight(.param .u64 out)\n{\n"
        "  .reg .b32 %%r<4>;\n  .reg .b64 %%rd<3>;\n"
        "  mov.u32 %%r1, %%tid.x;\n  mov.u32 %%r2, 3;\n");
    for (uint32_t i = 0; i < n; i++)
        k += (size_t)snprintf(s + k, cap - k, "  add.u32 %%r1, %%r1, %%r2;\n");
    snprintf(s + k, cap - k,
             "  ld.param.u64 %%rd1, [out];\n  mul.wide.u32 %%rd2, %%r1, 0;\n"
             "  add.s64 %%rd1, %%rd1, %%rd2;\n  st.global.u32 [%%rd1], %%r1;\n  ret;\n}\n");
    return s;
}

static uint64_t run_cycles(const gpu_config *cfg, uint32_t n, uint32_t warps,
                           gpu_cache_stats *l1i)
{
    char *ptx = straight_ptx(n);
    th_buf out = { 4096, NULL, NULL, 0 };
    th_run *r = calloc(1, sizeof *r);
    th_run_kernel(ptx, "straight", cfg, &th_slot_sched, 1, 32 * warps, &out, 1, NULL, 0, r);
    if (r->rc) fail_msg("straight failed: %s", r->err);
    uint64_t c = r->st.cycles;
    if (l1i) *l1i = r->st.l1i;
    free(r);
    free(ptx);
    return c;
}

/* GPGPU-Sim's GTX480 il1: 4 sets x 4 ways of 128 B, 2 MSHRs x 32 merges */
static void icache_config(gpu_config *c)
{
    th_config(c);
    c->l1i_model = true;
    c->l1i = (gpu_cache_config){ .sets = 4, .ways = 4, .line_bytes = 128, .enabled = true,
                                 .mshr_entries = 2, .mshr_merge = 32, .miss_queue = 4,
                                 .hit_latency = 1 };
}

/* 121 instructions = 968 bytes: 8 lines, each a miss of mem_latency (200)
   the single warp waits through, less the few cycles in which the two
   instructions its buffer already holds issue */
static void test_each_line_misses_once(void **state)
{
    (void)state;
    gpu_config off, on;
    th_config(&off);
    icache_config(&on);
    gpu_cache_stats st;
    uint64_t a = run_cycles(&off, 114, 1, NULL), b = run_cycles(&on, 114, 1, &st);
    /* 8 misses (as GPGPU-Sim counts them, merges included), none merged:
       one warp; every later fetch from a line it holds hits */
    assert_int_equal(st.misses, 8);
    assert_int_equal(st.merges, 0);
    assert_int_equal(st.hits + st.misses, st.accesses);
    assert_true(st.hits >= 8);
    fprintf(stderr, "perfect %llu cycles, modelled %llu\n", (unsigned long long)a,
            (unsigned long long)b);
    assert_true(b >= a + 8 * (200 - 2 * 4));
    assert_true(b <= a + 8 * 200 + 8 * 40);   /* the misses and nothing else */
}

/* A second warp on the same code waits for the first one's fills (merged
   into its MSHRs) instead of paying for every line again. */
static void test_warps_share_fills(void **state)
{
    (void)state;
    gpu_config off, on;
    th_config(&off);
    icache_config(&on);
    gpu_cache_stats st;
    uint64_t one = run_cycles(&on, 114, 1, NULL), two = run_cycles(&on, 114, 2, &st);
    uint64_t off2 = run_cycles(&off, 114, 2, NULL), off1 = run_cycles(&off, 114, 1, NULL);
    assert_true(st.merges > 0);
    /* the second warp adds what it adds without the cache, not 8 misses */
    assert_true(two - one <= (off2 - off1) + 200);
}

/* Off (the default of every preset): the timing is the perfect cache's. */
static void test_off_by_default(void **state)
{
    (void)state;
    gpu_config d;
    char err[256];
    gpu_config_defaults(&d);
    assert_false(d.l1i_model);
    assert_int_equal(gpu_config_set(&d, "l1i.model", "true", err, sizeof err), 0);
    assert_true(d.l1i_model);
    assert_int_equal(gpu_config_check(&d, err, sizeof err), 0);
    /* a bypassing instruction cache would never deliver: refused, named */
    assert_int_equal(gpu_config_set(&d, "l1i.enabled", "false", err, sizeof err), 0);
    assert_int_not_equal(gpu_config_check(&d, err, sizeof err), 0);
    assert_non_null(strstr(err, "l1i.enabled"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_each_line_misses_once),
        cmocka_unit_test(test_warps_share_fills),
        cmocka_unit_test(test_off_by_default),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
