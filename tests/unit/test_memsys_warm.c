/*
** test_memsys_warm.c -- host copies that leave their data in the L2
** (mem_sys_warm_l2, l2.warm_on_copy, GPGPU-Sim's -gpgpu_perf_sim_memcpy):
** a warmed line answers the first read as an L2 hit, with no access
** counted for the copy itself; every line of a range lands in the slice
** that serves it; warming what is present installs nothing; through the
** host API a copied buffer hits in the L2 only when the key is on; with
** l2.set_index_local a slice's share of a range spreads over all its sets;
** a sectored L2 warms only the sectors a copy touches.
*/
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdbool.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "gpu/config.h"
#include "warpsim.h"
#include "mem/memsys.h"
#include "policy/policy.h"

static const ws_param_values no_params = { 0 };

static void cfg_full(gpu_config *c)
{
    gpu_config_defaults(c);
    snprintf(c->memory_model, sizeof c->memory_model, "full");
    c->core_mhz = c->icnt_mhz = c->l2_mhz = c->dram_mhz = 1000;
    c->n_mem = 2;
    c->n_sub_per_mem = 2;
    c->perfect_l2 = c->unlimited_mem = false;
}

static mem_sys *make(const gpu_config *c)
{
    char err[512];
    mem_sys *ms = mem_sys_new(c, 1, ws_find_dram_sched(c->dram_scheduler), &no_params,
                              NULL, &no_params, (mem_warp_info){ 0 }, err, sizeof err);
    if (!ms) fail_msg("mem_sys_new: %s", err);
    return ms;
}

/* Cycles from sending a 128 B read of `addr` at `*cyc` to its reply. */
static uint64_t read_latency(mem_sys *ms, uint64_t addr, uint64_t *cyc)
{
    mem_port p = mem_sys_port(ms, 0);
    mem_req r = { .addr = addr, .bytes = 128, .kind = MEM_READ, .sm = 0, .id = 1 }, got;
    uint64_t t0 = *cyc;
    assert_true(p.send(p.impl, &r, *cyc));
    for (uint64_t end = *cyc + 100000; *cyc < end;) {
        ++*cyc;
        mem_sys_advance(ms, *cyc);
        if (mem_sys_recv(ms, *cyc, &got)) return *cyc - t0;
    }
    fail_msg("no reply for 0x%llx", (unsigned long long)addr);
    return 0;
}

static void test_warmed_line_hits(void **state)
{
    (void)state;
    gpu_config c;
    cfg_full(&c);
    mem_sys *cold = make(&c), *warm = make(&c);
    uint64_t a = 0x40000, ccyc = 10, wcyc = 10;
    mem_sys_advance(cold, ccyc);
    mem_sys_advance(warm, wcyc);
    assert_int_equal(mem_sys_warm_l2(warm, a, 128), 1);
    gpu_mem_stats s;
    mem_sys_stats(warm, &s);
    assert_int_equal(s.l2.accesses, 0);     /* the copy is not an access */
    uint64_t miss = read_latency(cold, a, &ccyc), hit = read_latency(warm, a, &wcyc);
    mem_sys_stats(warm, &s);
    assert_int_equal(s.l2.accesses, 1);
    assert_int_equal(s.l2.hits, 1);
    assert_int_equal(s.l2.misses, 0);
    mem_sys_stats(cold, &s);
    assert_int_equal(s.l2.misses, 1);
    assert_true(hit < miss);
    mem_sys_free(cold);
    mem_sys_free(warm);
}

/* A sectored L2 warms only the sectors a copy touches (GPGPU-Sim fills
   32 B at a time): after 64 B of a line, a 128 B read finds two of its
   four sectors; after the rest, all four. */
static void test_sectored_warm(void **state)
{
    (void)state;
    gpu_config c;
    cfg_full(&c);
    c.l2_sector_bytes = 32;
    mem_sys *ms = make(&c);
    uint64_t a = 0x40000, cyc = 10;
    mem_sys_advance(ms, cyc);
    assert_int_equal(mem_sys_warm_l2(ms, a, 64), 1);
    gpu_mem_stats s;
    read_latency(ms, a, &cyc);
    mem_sys_stats(ms, &s);
    assert_int_equal(s.l2.accesses, 4);
    assert_int_equal(s.l2.hits, 2);
    assert_int_equal(mem_sys_warm_l2(ms, a + 64, 64), 0);   /* the read filled them */
    assert_int_equal(mem_sys_warm_l2(ms, a + 128 * 64, 128), 1);
    read_latency(ms, a + 128 * 64, &cyc);
    mem_sys_stats(ms, &s);
    assert_int_equal(s.l2.accesses, 8);
    assert_int_equal(s.l2.hits, 6);
    mem_sys_free(ms);
}

/* A range not aligned to lines: every line it touches is installed once,
   in its own slice, so a read of each one hits. */
static void test_range_every_line_once(void **state)
{
    (void)state;
    gpu_config c;
    cfg_full(&c);
    mem_sys *ms = make(&c);
    uint64_t base = 0x100040, bytes = 64 * 128;   /* 65 lines touched */
    assert_int_equal(mem_sys_warm_l2(ms, base, bytes), 65);
    assert_int_equal(mem_sys_warm_l2(ms, base, bytes), 0);   /* already there */
    uint64_t cyc = 5;
    mem_sys_advance(ms, cyc);
    uint32_t slices_seen = 0;
    for (uint64_t a = base & ~127ull; a < base + bytes; a += 128) {
        read_latency(ms, a, &cyc);
        slices_seen |= 1u << mem_sys_slice_of(ms, a);
    }
    gpu_mem_stats s;
    mem_sys_stats(ms, &s);
    assert_int_equal(s.l2.accesses, 65);
    assert_int_equal(s.l2.hits, 65);
    assert_int_equal(slices_seen, (1u << mem_sys_n_slices(ms)) - 1);
    mem_sys_free(ms);
}

/* l2.set_index_local: a range the size of the whole L2 fits in it when
   each slice indexes its sets without the digits that chose the slice
   (warming it again installs nothing); indexed by the whole line number,
   a slice uses only some of its sets and the range does not fit. */
static void test_set_index_local(void **state)
{
    (void)state;
    for (int local = 0; local < 2; local++) {
        gpu_config c;
        cfg_full(&c);
        c.l2_set_index_local = local;
        mem_sys *ms = make(&c);
        uint64_t cap = (uint64_t)c.l2.sets * c.l2.ways * c.l2.line_bytes * mem_sys_n_slices(ms);
        uint64_t lines = cap / c.l2.line_bytes;
        assert_int_equal(mem_sys_warm_l2(ms, 1ull << 32, cap), lines);
        uint64_t again = mem_sys_warm_l2(ms, 1ull << 32, cap);
        if (local) assert_int_equal(again, 0);
        else assert_true(again > lines / 4);
        mem_sys_free(ms);
    }
}

/* copy: out[i] = in[i] + 1 for i < n (one line per 32 threads). */
static const char copy_ptx[] =
    ".version 7.0\n.target sm_75\n.address_size 64\n"
    ".visible .entry copy1(.param .u64 in, .param .u64 out, .param .u32 n)\n{\n"
    "    .reg .b32 %r<8>;\n    .reg .b64 %rd<8>;\n    .reg .pred %p<2>;\n"
    "    .reg .f32 %f<4>;\n"
    "    ld.param.u64 %rd1, [in];\n    ld.param.u64 %rd2, [out];\n"
    "    ld.param.u32 %r1, [n];\n"
    "    mov.u32 %r2, %ctaid.x;\n    mov.u32 %r3, %ntid.x;\n    mov.u32 %r4, %tid.x;\n"
    "    mad.lo.u32 %r5, %r2, %r3, %r4;\n"
    "    setp.ge.u32 %p1, %r5, %r1;\n    @%p1 bra DONE;\n"
    "    mul.wide.u32 %rd3, %r5, 4;\n"
    "    add.s64 %rd4, %rd1, %rd3;\n    add.s64 %rd5, %rd2, %rd3;\n"
    "    ld.global.f32 %f1, [%rd4];\n    add.f32 %f2, %f1, 0f3F800000;\n"
    "    st.global.f32 [%rd5], %f2;\n"
    "DONE:\n    ret;\n}\n";

/* The L2 misses and total cycles of one copy1 launch over 16 KB copied
   from the host just before (whole path: ws_memcpy_htod -> gpu_host_copy
   -> mem_sys_warm_l2). */
static void run_copy(bool warm, double *misses, double *hits)
{
    const char *sets[] = { warm ? "l2.warm_on_copy=true" : "l2.warm_on_copy=false", NULL };
    ws_options opts;
    memset(&opts, 0, sizeof opts);
    opts.timing = 1;
    opts.settings = sets;
    ws_ctx *ctx = NULL;
    char err[1024];
    if (ws_ctx_create2(&opts, &ctx, err, sizeof err) != WS_OK) fail_msg("%s", err);
    ws_module *mod;
    if (ws_module_load_string(ctx, copy_ptx, "warm.ptx", &mod) != WS_OK)
        fail_msg("%s", ws_last_error(ctx));
    ws_kernel *k;
    assert_int_equal(ws_module_get_kernel(mod, "copy1", &k), WS_OK);
    uint32_t n = 4096;
    float *in = calloc(n, 4);
    assert_non_null(in);
    ws_devptr din, dout;
    assert_int_equal(ws_malloc(ctx, (size_t)n * 4, &din), WS_OK);
    assert_int_equal(ws_malloc(ctx, (size_t)n * 4, &dout), WS_OK);
    assert_int_equal(ws_memcpy_htod(ctx, din, in, (size_t)n * 4), WS_OK);
    void *args[] = { &din, &dout, &n };
    ws_dim3 g = { n / 256, 1, 1 }, b = { 256, 1, 1 };
    if (ws_launch(ctx, k, g, b, args, 0) != WS_OK) fail_msg("%s", ws_last_error(ctx));
    char *json = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&json, &len);
    assert_int_equal(ws_report(ctx, f, 1), WS_OK);
    fclose(f);
    const char *p = NULL, *q = json;
    while ((q = strstr(q, "\"L2_total_cache_misses\": "))) p = q++;
    assert_non_null(p);
    *misses = strtod(strchr(p, ':') + 1, NULL);
    p = NULL, q = json;
    while ((q = strstr(q, "\"L2_total_cache_accesses\": "))) p = q++;
    assert_non_null(p);
    *hits = strtod(strchr(p, ':') + 1, NULL) - *misses;
    free(json);
    free(in);
    ws_ctx_destroy(ctx);
}

/* Through the host API: with the key, the 128 lines the host copied are
   L2 hits for the kernel's loads; without it (the default) they miss. */
static void test_api_copy_warms(void **state)
{
    (void)state;
    double m_off, h_off, m_on, h_on;
    run_copy(false, &m_off, &h_off);
    run_copy(true, &m_on, &h_on);
    assert_true(h_on >= h_off + 128);
    assert_true(m_on + 128 <= m_off);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_warmed_line_hits),
        cmocka_unit_test(test_range_every_line_once),
        cmocka_unit_test(test_sectored_warm),
        cmocka_unit_test(test_set_index_local),
        cmocka_unit_test(test_api_copy_warms),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
