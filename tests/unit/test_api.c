/*
** test_api.c -- the host API (warpsim.h): misuse is reported with a status
** and a message, never a crash; module variables, constant memory,
** kernel info, launch validation and statistics.
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

static const char mod_ptx[] =
    ".version 7.0\n"
    ".target sm_75\n"
    ".address_size 64\n"
    "\n"
    ".global .align 4 .u32 gval = 7;\n"
    ".const .align 4 .u32 ctab[4] = {1, 2, 3, 4};\n"
    "\n"
    ".visible .entry addc(.param .u64 out)\n"
    "{\n"
    "    .reg .b32 %r<6>;\n"
    "    .reg .b64 %rd<6>;\n"
    "    ld.param.u64 %rd1, [out];\n"
    "    mov.u32 %r1, %tid.x;\n"
    "    and.b32 %r2, %r1, 3;\n"
    "    mul.wide.u32 %rd2, %r2, 4;\n"
    "    mov.u64 %rd3, ctab;\n"
    "    add.s64 %rd3, %rd3, %rd2;\n"
    "    ld.const.u32 %r3, [%rd3];\n"
    "    ld.global.u32 %r4, [gval];\n"
    "    add.u32 %r5, %r3, %r4;\n"
    "    mul.wide.u32 %rd4, %r1, 4;\n"
    "    add.s64 %rd5, %rd1, %rd4;\n"
    "    st.global.u32 [%rd5], %r5;\n"
    "    ret;\n"
    "}\n"
    "\n"
    ".visible .entry fixed(.param .u64 out) .reqntid 64, 1, 1\n"
    "{\n"
    "    ret;\n"
    "}\n"
    "\n"
    ".visible .entry dyn(.param .u64 out)\n"
    "{\n"
    "    .shared .align 4 .b8 sbuf[100];\n"
    "    .reg .b32 %r<2>;\n"
    "    mov.u32 %r1, %tid.x;\n"
    "    st.shared.u32 [sbuf+96], %r1;\n"
    "    ret;\n"
    "}\n"
    ".func helper()\n"
    "{\n"
    "    ret;\n"
    "}\n";

static ws_ctx *new_ctx(void)
{
    ws_ctx *ctx = ws_ctx_create(NULL);
    assert_non_null(ctx);
    return ctx;
}

static ws_module *load(ws_ctx *ctx)
{
    ws_module *m = NULL;
    ws_status st = ws_module_load_string(ctx, mod_ptx, "api.ptx", &m);
    if (st != WS_OK) fail_msg("load: %s", ws_last_error(ctx));
    return m;
}

static void test_status_names(void **state)
{
    (void)state;
    assert_string_equal(ws_status_name(WS_OK), "WS_OK");
    assert_string_equal(ws_status_name(WS_ERR_DEADLOCK), "WS_ERR_DEADLOCK");
    assert_string_equal(ws_status_name(WS_ERR_IO), "WS_ERR_IO");
    assert_string_equal(ws_status_name(WS_ERR_ASSERT), "WS_ERR_ASSERT");
    assert_string_equal(ws_status_name((ws_status)999), "WS_ERR_UNKNOWN");
}

static void test_null_arguments(void **state)
{
    (void)state;
    ws_devptr p;
    assert_int_equal(ws_malloc(NULL, 16, &p), WS_ERR_INVALID);
    assert_non_null(ws_last_error(NULL));
    ws_ctx *ctx = new_ctx();
    assert_int_equal(ws_malloc(ctx, 16, NULL), WS_ERR_INVALID);
    assert_non_null(strstr(ws_last_error(ctx), "NULL"));
    assert_int_equal(ws_malloc(ctx, 0, &p), WS_ERR_INVALID);
    assert_non_null(strstr(ws_last_error(ctx), "size 0"));
    assert_int_equal(ws_malloc(ctx, 64, &p), WS_OK);
    assert_int_equal(ws_memcpy_htod(ctx, p, NULL, 4), WS_ERR_INVALID);
    assert_int_equal(ws_memcpy_dtoh(ctx, NULL, p, 4), WS_ERR_INVALID);
    assert_int_equal(ws_module_load_string(ctx, NULL, "x", NULL), WS_ERR_INVALID);
    assert_int_equal(ws_launch(ctx, NULL, (ws_dim3){1, 1, 1}, (ws_dim3){1, 1, 1}, NULL, 0),
                     WS_ERR_INVALID);
    assert_int_equal(ws_free(ctx, 0), WS_OK);
    ws_ctx_destroy(ctx);
    ws_ctx_destroy(NULL);
}

static void test_bad_free(void **state)
{
    (void)state;
    ws_ctx *ctx = new_ctx();
    ws_devptr p;
    assert_int_equal(ws_malloc(ctx, 400, &p), WS_OK);
    assert_int_equal(ws_free(ctx, p + 16), WS_ERR_INVALID);
    char want[64];
    snprintf(want, sizeof want, "0x%llx", (unsigned long long)(p + 16));
    assert_non_null(strstr(ws_last_error(ctx), want));
    assert_non_null(strstr(ws_last_error(ctx), "not the start of a live allocation"));
    assert_int_equal(ws_free(ctx, p), WS_OK);
    assert_int_equal(ws_free(ctx, p), WS_ERR_INVALID);   /* double free */
    assert_int_equal(ws_free(ctx, 0x1234), WS_ERR_INVALID);
    ws_ctx_destroy(ctx);
}

static void test_memcpy_bounds(void **state)
{
    (void)state;
    ws_ctx *ctx = new_ctx();
    ws_devptr p;
    uint8_t buf[512] = { 0 };
    assert_int_equal(ws_malloc(ctx, 400, &p), WS_OK);
    assert_int_equal(ws_memcpy_htod(ctx, p, buf, 400), WS_OK);
    assert_int_equal(ws_memcpy_htod(ctx, p, buf, 404), WS_ERR_INVALID);
    const char *msg = ws_last_error(ctx);
    assert_non_null(strstr(msg, "ws_memcpy_htod"));
    assert_non_null(strstr(msg, "past the end of the 400-byte allocation"));
    assert_int_equal(ws_memcpy_dtoh(ctx, buf, p + 200, 201), WS_ERR_INVALID);
    assert_int_equal(ws_memcpy_dtoh(ctx, buf, 0xdead0000ull, 4), WS_ERR_INVALID);
    assert_non_null(strstr(ws_last_error(ctx), "0xdead0000"));
    assert_int_equal(ws_memset(ctx, p + 1, 0, 400), WS_ERR_INVALID);
    assert_int_equal(ws_memcpy_dtod(ctx, p, p + 8, 400), WS_ERR_INVALID);
    /* copies that fit work, including device to device and memset */
    for (int i = 0; i < 400; i++) buf[i] = (uint8_t)i;
    assert_int_equal(ws_memcpy_htod(ctx, p, buf, 400), WS_OK);
    assert_int_equal(ws_memcpy_dtod(ctx, p, p + 100, 100), WS_OK);
    assert_int_equal(ws_memset(ctx, p + 300, 0xee, 100), WS_OK);
    uint8_t back[400];
    assert_int_equal(ws_memcpy_dtoh(ctx, back, p, 400), WS_OK);
    assert_int_equal(back[0], 100);
    assert_int_equal(back[150], 150);
    assert_int_equal(back[350], 0xee);
    ws_ctx_destroy(ctx);
}

static void test_module_errors(void **state)
{
    (void)state;
    ws_ctx *ctx = new_ctx();
    ws_module *m = NULL;
    assert_int_equal(ws_module_load_file(ctx, "/nonexistent/x.ptx", &m), WS_ERR_IO);
    assert_non_null(strstr(ws_last_error(ctx), "/nonexistent/x.ptx"));
    assert_null(m);
    assert_int_equal(ws_module_load_string(ctx, ".version 7.0\n.target sm_75\nbogus;\n", "bad.ptx", &m),
                     WS_ERR_PARSE);
    assert_non_null(strstr(ws_last_error(ctx), "bad.ptx"));
    m = load(ctx);
    ws_kernel *k = NULL;
    assert_int_equal(ws_module_get_kernel(m, "nope", &k), WS_ERR_NOT_FOUND);
    assert_non_null(strstr(ws_last_error(ctx), "'nope'"));
    assert_int_equal(ws_module_get_kernel(m, "helper", &k), WS_ERR_NOT_FOUND);
    assert_non_null(strstr(ws_last_error(ctx), "not a kernel"));
    ws_devptr g;
    assert_int_equal(ws_module_get_global(m, "missing", &g, NULL), WS_ERR_NOT_FOUND);
    ws_kernel_info info;
    assert_int_equal(ws_module_kernel_info(m, 99, &info), WS_ERR_INVALID);
    ws_ctx_destroy(ctx);   /* unloads the module too */
}

static void test_kernel_info(void **state)
{
    (void)state;
    ws_ctx *ctx = new_ctx();
    ws_module *m = load(ctx);
    assert_int_equal(ws_module_kernel_count(m), 3);
    ws_kernel_info info;
    int found = 0;
    for (int i = 0; i < 3; i++) {
        assert_int_equal(ws_module_kernel_info(m, i, &info), WS_OK);
        if (!strcmp(info.name, "fixed")) {
            found++;
            assert_int_equal(info.reqntid[0], 64);
            assert_int_equal(info.nparams, 1);
            assert_int_equal(info.param_bytes, 8);
        }
        if (!strcmp(info.name, "dyn")) {
            found++;
            assert_true(info.static_shared_bytes >= 100);
        }
    }
    assert_int_equal(found, 2);
    ws_module_unload(m);
    ws_ctx_destroy(ctx);
}

static void test_globals_and_const(void **state)
{
    (void)state;
    ws_ctx *ctx = new_ctx();
    ws_module *m = load(ctx);
    ws_devptr g, c, out;
    size_t gsz, csz;
    assert_int_equal(ws_module_get_global(m, "gval", &g, &gsz), WS_OK);
    assert_int_equal(ws_module_get_global(m, "ctab", &c, &csz), WS_OK);
    assert_int_equal(gsz, 4);
    assert_int_equal(csz, 16);
    uint32_t v;
    assert_int_equal(ws_memcpy_dtoh(ctx, &v, g, 4), WS_OK);
    assert_int_equal(v, 7);
    uint32_t tab[4];
    assert_int_equal(ws_memcpy_dtoh(ctx, tab, c, 16), WS_OK);
    assert_int_equal(tab[3], 4);
    /* module variables belong to the module */
    assert_int_equal(ws_free(ctx, g), WS_ERR_INVALID);
    assert_non_null(strstr(ws_last_error(ctx), "gval"));
    /* writing constant memory through its generic address */
    uint32_t nt[4] = { 10, 20, 30, 40 };
    assert_int_equal(ws_memcpy_htod(ctx, c, nt, 16), WS_OK);
    assert_int_equal(ws_memcpy_htod(ctx, c + 4, nt, 16), WS_ERR_INVALID);
    v = 100;
    assert_int_equal(ws_memcpy_htod(ctx, g, &v, 4), WS_OK);
    assert_int_equal(ws_malloc(ctx, 64 * 4, &out), WS_OK);
    ws_kernel *k;
    assert_int_equal(ws_module_get_kernel(m, "addc", &k), WS_OK);
    void *args[] = { &out };
    ws_status st = ws_launch(ctx, k, (ws_dim3){1, 1, 1}, (ws_dim3){64, 1, 1}, args, 0);
    if (st != WS_OK) fail_msg("%s", ws_last_error(ctx));
    uint32_t res[64];
    assert_int_equal(ws_memcpy_dtoh(ctx, res, out, sizeof res), WS_OK);
    for (int i = 0; i < 64; i++) assert_int_equal(res[i], nt[i & 3] + 100);
    ws_stats s, t;
    ws_stats_last(ctx, &s);
    ws_stats_total(ctx, &t);
    assert_int_equal(s.ctas, 1);
    assert_int_equal(s.warps, 2);
    assert_int_equal(s.warp_insns, 2 * 13);   /* 13 instructions incl. ret */
    assert_int_equal(s.thread_insns, 64 * 13);
    assert_int_equal(t.launches, 1);
    ws_ctx_destroy(ctx);
}

static void test_launch_validation(void **state)
{
    (void)state;
    ws_ctx *ctx = new_ctx();
    ws_module *m = load(ctx);
    ws_kernel *k, *fixed, *dyn;
    assert_int_equal(ws_module_get_kernel(m, "addc", &k), WS_OK);
    assert_int_equal(ws_module_get_kernel(m, "fixed", &fixed), WS_OK);
    assert_int_equal(ws_module_get_kernel(m, "dyn", &dyn), WS_OK);
    ws_devptr out;
    assert_int_equal(ws_malloc(ctx, 4096 * 4, &out), WS_OK);
    void *args[] = { &out };
    ws_dim3 one = { 1, 1, 1 };
    assert_int_equal(ws_launch(ctx, k, one, (ws_dim3){2048, 1, 1}, args, 0), WS_ERR_LAUNCH);
    assert_non_null(strstr(ws_last_error(ctx), "2048 threads"));
    assert_int_equal(ws_launch(ctx, k, one, (ws_dim3){32, 32, 2}, args, 0), WS_ERR_LAUNCH);
    assert_int_equal(ws_launch(ctx, k, (ws_dim3){0, 1, 1}, one, args, 0), WS_ERR_LAUNCH);
    assert_non_null(strstr(ws_last_error(ctx), "zero"));
    assert_int_equal(ws_launch(ctx, k, (ws_dim3){1, 70000, 1}, one, args, 0), WS_ERR_LAUNCH);
    assert_int_equal(ws_launch(ctx, k, one, one, NULL, 0), WS_ERR_INVALID);
    assert_non_null(strstr(ws_last_error(ctx), "args"));
    assert_int_equal(ws_launch(ctx, fixed, one, (ws_dim3){32, 1, 1}, args, 0), WS_ERR_LAUNCH);
    assert_non_null(strstr(ws_last_error(ctx), "reqntid"));
    assert_int_equal(ws_launch(ctx, fixed, one, (ws_dim3){64, 1, 1}, args, 0), WS_OK);
    assert_int_equal(ws_launch(ctx, dyn, one, one, args, 48 * 1024), WS_ERR_LAUNCH);
    assert_non_null(strstr(ws_last_error(ctx), "shared memory"));
    assert_int_equal(ws_launch(ctx, dyn, one, one, args, 1024), WS_OK);
    ws_stats t;
    ws_stats_total(ctx, &t);
    assert_int_equal(t.launches, 2);   /* rejected launches do not count */
    ws_ctx_destroy(ctx);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_status_names),
        cmocka_unit_test(test_null_arguments),
        cmocka_unit_test(test_bad_free),
        cmocka_unit_test(test_memcpy_bounds),
        cmocka_unit_test(test_module_errors),
        cmocka_unit_test(test_kernel_info),
        cmocka_unit_test(test_globals_and_const),
        cmocka_unit_test(test_launch_validation),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
