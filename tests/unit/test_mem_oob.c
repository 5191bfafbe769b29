/*
** test_mem_oob.c -- device-memory semantics at the host API: accesses
** outside an allocation inside a mapped 2 MiB page proceed with one
** warning per site, outside mapped pages fault; memcheck faults, names
** use after free and double free; the device-memory limit and
** ws_mem_info; host exhaustion (page budget) is an error, never a loss.
*/
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>
#include "api_fixture.h"

/* peek: out[tid] = in[tid + off];  poke: p[off] = v (offsets in words) */
static const char mem_ptx[] =
    ".version 7.0\n"
    ".target sm_75\n"
    ".address_size 64\n"
    "\n"
    ".visible .entry peek(.param .u64 in, .param .u64 out, .param .u32 off)\n"
    "{\n"
    "    .reg .b32 %r<5>;\n"
    "    .reg .b64 %rd<7>;\n"
    "    ld.param.u64 %rd1, [in];\n"
    "    ld.param.u64 %rd2, [out];\n"
    "    ld.param.u32 %r1, [off];\n"
    "    mov.u32 %r2, %tid.x;\n"
    "    add.s32 %r3, %r1, %r2;\n"
    "    mul.wide.s32 %rd3, %r3, 4;\n"
    "    add.s64 %rd4, %rd1, %rd3;\n"
    "    ld.global.u32 %r4, [%rd4];\n"                         /* line 16 */
    "    mul.wide.u32 %rd5, %r2, 4;\n"
    "    add.s64 %rd6, %rd2, %rd5;\n"
    "    st.global.u32 [%rd6], %r4;\n"
    "    ret;\n"
    "}\n"
    ".visible .entry poke(.param .u64 p, .param .u32 off, .param .u32 v)\n"
    "{\n"
    "    .reg .b32 %r<3>;\n"
    "    .reg .b64 %rd<4>;\n"
    "    ld.param.u64 %rd1, [p];\n"
    "    ld.param.u32 %r1, [off];\n"
    "    ld.param.u32 %r2, [v];\n"
    "    mul.wide.s32 %rd2, %r1, 4;\n"
    "    add.s64 %rd3, %rd1, %rd2;\n"
    "    st.global.u32 [%rd3], %r2;\n"                         /* line 31 */
    "    ret;\n"
    "}\n";

static ws_status peek(fx *f, ws_devptr in, ws_devptr out, int off, uint32_t threads)
{
    void *args[] = { &in, &out, &off };
    return fx_launch(f, "peek", (ws_dim3){ 1, 1, 1 }, (ws_dim3){ threads, 1, 1 }, args);
}

static ws_status poke(fx *f, ws_devptr p, int off, uint32_t v)
{
    void *args[] = { &p, &off, &v };
    return fx_launch(f, "poke", (ws_dim3){ 1, 1, 1 }, (ws_dim3){ 1, 1, 1 }, args);
}

/* What ws_mem_warnings writes now, in a malloc'd string. */
static char *warnings(const fx *f, unsigned *nsites)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *o = open_memstream(&buf, &len);
    assert_non_null(o);
    *nsites = ws_mem_warnings(f->ctx, o);
    fclose(o);
    return buf;
}

static FILE *g_null;   /* where ws_ctx_destroy writes the warnings */

static int open_null(void **state) { (void)state; g_null = fopen("/dev/null", "w"); return !g_null; }
static int close_null(void **state) { (void)state; fclose(g_null); return 0; }

static void open_with(fx *f, int memcheck, uint64_t limit, uint64_t host_limit)
{
    ws_options o = { .memcheck = memcheck, .device_mem_bytes = limit,
                     .host_mem_limit = host_limit, .warn_out = g_null };
    fx_open_opts(f, mem_ptx, "mem.ptx", o);
}

/* A stencil's halo: in[-1] and in[n] are read and discarded on a GPU. */
static void test_halo_reads_proceed_and_warn_once(void **state)
{
    (void)state;
    fx f;
    open_with(&f, 0, 0, 0);
    int in[16], out[16];
    for (int i = 0; i < 16; i++) in[i] = 100 + i;
    ws_devptr din = fx_alloc(&f, in, sizeof in), dout = fx_alloc(&f, NULL, sizeof out);
    /* the first buffer's element -1 (below the heap) and element n */
    FX_OK(&f, peek(&f, din, dout, -1, 16));
    FX_OK(&f, ws_memcpy_dtoh(f.ctx, out, dout, sizeof out));
    assert_int_equal(out[0], 0);           /* never written: reads zero */
    for (int i = 1; i < 16; i++) assert_int_equal(out[i], 100 + i - 1);
    FX_OK(&f, peek(&f, din, dout, 1, 16));
    FX_OK(&f, ws_memcpy_dtoh(f.ctx, out, dout, sizeof out));
    assert_int_equal(out[15], 0);          /* in[16]: the red zone, zero */
    FX_OK(&f, peek(&f, din, dout, 1, 16)); /* the same site again */
    unsigned n;
    char *w = warnings(&f, &n);
    assert_int_equal(n, 1);                /* one site: peek's load, 3 accesses */
    char addr[64];
    snprintf(addr, sizeof addr, "at address 0x%llx", (unsigned long long)(din - 4));
    if (!strstr(w, "kernel 'peek' CTA (0,0,0) thread (0,0,0) at mem.ptx line 16: "
                   "out-of-bounds global load of 4 bytes") || !strstr(w, addr) ||
        !strstr(w, "; 3 accesses by this instruction") || !strstr(w, "2 MiB"))
        fail_msg("warning: %s", w);
    free(w);
    fx_close(&f);
}

/* A store outside the allocation lands in memory, like on a GPU, and
   leaves the allocation table (what is allocated) alone. */
static void test_oob_store_lands(void **state)
{
    (void)state;
    fx f;
    open_with(&f, 0, 1 << 20, 0);
    ws_devptr a = fx_alloc(&f, NULL, 64), out = fx_alloc(&f, NULL, 64);
    size_t fr0, tot;
    FX_OK(&f, ws_mem_info(f.ctx, &fr0, &tot));
    FX_OK(&f, poke(&f, a, 16, 0xabcd));    /* a[16]: just past the end */
    FX_OK(&f, peek(&f, a, out, 16, 1));
    int v;
    FX_OK(&f, ws_memcpy_dtoh(f.ctx, &v, out, 4));
    assert_int_equal(v, 0xabcd);
    size_t fr1;
    FX_OK(&f, ws_mem_info(f.ctx, &fr1, &tot));
    assert_int_equal(fr1, fr0);
    assert_int_equal(ws_memcpy_htod(f.ctx, a + 64, &v, 4), WS_ERR_INVALID);  /* host: strict */
    unsigned n;
    char *w = warnings(&f, &n);
    assert_int_equal(n, 2);                /* poke's store, peek's load */
    assert_non_null(strstr(w, "out-of-bounds global store of 4 bytes"));
    free(w);
    fx_close(&f);
}

/* Outside every mapped 2 MiB page: a fault, as on a GPU. */
static void test_unmapped_faults(void **state)
{
    (void)state;
    fx f;
    open_with(&f, 0, 0, 0);
    ws_devptr a = fx_alloc(&f, NULL, 64);
    assert_int_equal(poke(&f, a, (4 << 20) / 4, 1), WS_ERR_FAULT);   /* +4 MiB */
    const char *msg = ws_last_error(f.ctx);
    if (!strstr(msg, "kernel 'poke'") || !strstr(msg, "line 31") ||
        !strstr(msg, "an illegal address"))
        fail_msg("message: %s", msg);
    /* the only allocation freed: its page is unmapped again */
    FX_OK(&f, ws_free(f.ctx, a));
    assert_int_equal(poke(&f, a, 0, 1), WS_ERR_FAULT);
    msg = ws_last_error(f.ctx);
    if (!strstr(msg, "use after free: global store") ||
        !strstr(msg, "inside the freed 64-byte allocation") || !strstr(msg, "illegal address"))
        fail_msg("message: %s", msg);
    fx_close(&f);
}

/* memcheck: the halo read faults with the precise message. */
static void test_memcheck_halo_faults(void **state)
{
    (void)state;
    fx f;
    open_with(&f, 1, 0, 0);
    ws_devptr din = fx_alloc(&f, NULL, 64), dout = fx_alloc(&f, NULL, 64);
    assert_int_equal(peek(&f, din, dout, 1, 16), WS_ERR_FAULT);
    const char *msg = ws_last_error(f.ctx);
    if (!strstr(msg, "thread (15,0,0) at mem.ptx line 16: out-of-bounds global load of 4 "
                     "bytes") || !strstr(msg, "0 bytes past the end of the 64-byte allocation"))
        fail_msg("message: %s", msg);
    unsigned n;
    char *w = warnings(&f, &n);
    assert_int_equal(n, 0);
    free(w);
    fx_close(&f);
}

/* memcheck names a use after free and a double free. */
static void test_memcheck_use_after_free(void **state)
{
    (void)state;
    fx f;
    open_with(&f, 1, 0, 0);
    ws_devptr a = fx_alloc(&f, NULL, 1024), keep = fx_alloc(&f, NULL, 64);
    (void)keep;
    FX_OK(&f, ws_free(f.ctx, a));
    assert_int_equal(poke(&f, a, 4, 7), WS_ERR_FAULT);
    char want[160];
    snprintf(want, sizeof want, "use after free: global store of 4 bytes at address 0x%llx: "
             "0x%llx is 16 bytes inside the freed 1024-byte allocation at 0x%llx",
             (unsigned long long)(a + 16), (unsigned long long)(a + 16),
             (unsigned long long)a);
    if (!strstr(ws_last_error(f.ctx), want))
        fail_msg("message: %s\nwant: %s", ws_last_error(f.ctx), want);
    assert_int_equal(ws_free(f.ctx, a), WS_ERR_INVALID);
    assert_non_null(strstr(ws_last_error(f.ctx), "double free"));
    fx_close(&f);
}

/* Default mode: a double free or a free of no allocation is an error,
   never a crash; a use after free in a still-mapped page is warned. */
static void test_default_double_free(void **state)
{
    (void)state;
    fx f;
    open_with(&f, 0, 0, 0);
    ws_devptr a = fx_alloc(&f, NULL, 256), keep = fx_alloc(&f, NULL, 64);
    FX_OK(&f, ws_free(f.ctx, a));
    assert_int_equal(ws_free(f.ctx, a), WS_ERR_INVALID);
    assert_non_null(strstr(ws_last_error(f.ctx), "double free"));
    assert_int_equal(ws_free(f.ctx, a + 8), WS_ERR_INVALID);
    assert_int_equal(ws_free(f.ctx, 0xdead0000ull), WS_ERR_INVALID);
    FX_OK(&f, peek(&f, a, keep, 0, 1));
    unsigned n;
    char *w = warnings(&f, &n);
    assert_int_equal(n, 1);
    assert_non_null(strstr(w, "use after free: global load"));
    free(w);
    fx_close(&f);
}

/* The device-memory limit: allocations beyond it fail, frees give back. */
static void test_device_limit_and_info(void **state)
{
    (void)state;
    fx f;
    open_with(&f, 0, 1 << 20, 0);
    size_t fr, tot;
    FX_OK(&f, ws_mem_info(f.ctx, &fr, &tot));
    assert_int_equal(tot, 1 << 20);
    assert_int_equal(fr, 1 << 20);
    ws_devptr a, b;
    FX_OK(&f, ws_malloc(f.ctx, 768 << 10, &a));
    FX_OK(&f, ws_mem_info(f.ctx, &fr, &tot));
    assert_int_equal(fr, 256 << 10);
    assert_int_equal(ws_malloc(f.ctx, 512 << 10, &b), WS_ERR_NOMEM);
    assert_non_null(strstr(ws_last_error(f.ctx), "786432 of the device's 1048576 bytes"));
    FX_OK(&f, ws_free(f.ctx, a));
    FX_OK(&f, ws_malloc(f.ctx, 512 << 10, &b));
    FX_OK(&f, ws_mem_info(f.ctx, &fr, NULL));
    assert_int_equal(fr, 512 << 10);
    fx_close(&f);
}

/* Host exhaustion (a budget of 4 pages): copies fail, nothing is lost. */
static void test_host_exhaustion_is_an_error(void **state)
{
    (void)state;
    fx f;
    open_with(&f, 0, 0, 4 * 4096);
    ws_devptr a, b;
    FX_OK(&f, ws_malloc(f.ctx, 8 * 4096, &a));
    FX_OK(&f, ws_malloc(f.ctx, 64, &b));
    static uint8_t src[8 * 4096], back[8 * 4096];
    memset(src, 0x5a, sizeof src);
    assert_int_equal(ws_memcpy_htod(f.ctx, a, src, sizeof src), WS_ERR_NOMEM);
    assert_non_null(strstr(ws_last_error(f.ctx), "host out of memory"));
    /* what was written reads back; nothing reads as silently zero */
    FX_OK(&f, ws_memcpy_dtoh(f.ctx, back, a, 4 * 4096));
    assert_memory_equal(back, src, 4 * 4096);
    assert_int_equal(ws_memset(f.ctx, a + 4 * 4096, 1, 4096), WS_ERR_NOMEM);
    assert_int_equal(ws_memcpy_dtod(f.ctx, a + 4 * 4096, a, 4096), WS_ERR_NOMEM);
    /* a kernel store that cannot get a page says so */
    assert_int_equal(poke(&f, b, 0, 1), WS_ERR_FAULT);
    if (!strstr(ws_last_error(f.ctx), "host out of memory") ||
        strstr(ws_last_error(f.ctx), "unaligned"))
        fail_msg("message: %s", ws_last_error(f.ctx));
    fx_close(&f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_halo_reads_proceed_and_warn_once),
        cmocka_unit_test(test_oob_store_lands),
        cmocka_unit_test(test_unmapped_faults),
        cmocka_unit_test(test_memcheck_halo_faults),
        cmocka_unit_test(test_memcheck_use_after_free),
        cmocka_unit_test(test_default_double_free),
        cmocka_unit_test(test_device_limit_and_info),
        cmocka_unit_test(test_host_exhaustion_is_an_error),
    };
    return cmocka_run_group_tests(tests, open_null, close_null);
}
