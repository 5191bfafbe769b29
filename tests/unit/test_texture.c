/*
** test_texture.c -- texture and surface objects without nvcc: the front
** end's decoding of tex/tld4/txq/suld/sust (and its located errors), the
** sampling arithmetic's edge cases (1.8 fixed-point weights, address
** modes, formats, gathers), and kernels written in PTX run through the
** host API: results, a destroyed handle, a surface .trap fault, refused
** descriptions, and L1T accesses on the timing model.
*/
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "warpsim.h"
#include "ptx/ptx.h"
#include "emu/emu_tex.h"

#define HDR ".version 8.0\n.target sm_86\n.address_size 64\n"

static ptx_module *parse_ok(const char *body)
{
    char text[4096];
    snprintf(text, sizeof text, HDR ".visible .entry k(.param .u64 h)\n{\n"
             ".reg .b64 %%rd<4>;\n.reg .f32 %%f<12>;\n.reg .b32 %%r<12>;\n.reg .b16 %%rs<6>;\n"
             "ld.param.u64 %%rd1, [h];\n%s\nret;\n}\n", body);
    ptx_error err;
    ptx_module *m = ptx_parse(text, strlen(text), "tex.ptx", &err);
    if (!m) fail_msg("%s", err.msg);
    return m;
}

static void parse_bad(const char *body, const char *want)
{
    char text[4096];
    snprintf(text, sizeof text, HDR ".visible .entry k(.param .u64 h)\n{\n"
             ".reg .b64 %%rd<4>;\n.reg .f32 %%f<12>;\n.reg .b32 %%r<12>;\n"
             "ld.param.u64 %%rd1, [h];\n%s\nret;\n}\n", body);
    ptx_error err;
    ptx_module *m = ptx_parse(text, strlen(text), "tex.ptx", &err);
    if (m) { ptx_module_free(m); fail_msg("accepted: %s", body); }
    if (!strstr(err.msg, want)) fail_msg("'%s': message '%s' lacks '%s'", body, err.msg, want);
    assert_non_null(strstr(err.msg, "tex.ptx:10:"));   /* located at the instruction's line */
}

/* the uop of the first instruction after ld.param */
static const ptx_uop *first(const ptx_module *m) { return &m->uops[m->funcs[0].uop_begin + 1]; }

static void test_decode_tex(void **state)
{
    (void)state;
    ptx_module *m = parse_ok("tex.2d.v4.f32.f32 {%f1, %f2, %f3, %f4}, [%rd1, {%f5, %f6}];");
    const ptx_uop *u = first(m);
    assert_int_equal(u->op, PTX_OP_TEX);
    assert_int_equal(u->sub, PTX_GEOM_2D);
    assert_int_equal(u->type, PTX_T_F32);
    assert_int_equal(u->type2, PTX_T_F32);
    assert_int_equal(u->vec, 4);
    assert_int_equal(u->space, PTX_SPACE_TEX);
    assert_int_equal(u->nopd, 3);
    assert_int_equal(u->opd[0].kind, PTX_OPD_VEC);
    assert_int_equal(u->opd[1].kind, PTX_OPD_ADDR);
    assert_int_equal(u->opd[2].kind, PTX_OPD_VEC);
    assert_int_equal(u->opd[2].nvec, 2);
    ptx_module_free(m);

    m = parse_ok("tex.a2d.v4.s32.f32 {%r1, %r2, %r3, %r4}, [%rd1, {%r5, %f1, %f2, %f2}];\n"
                 "tex.level.1d.v4.f32.f32 {%f1, %f2, %f3, %f4}, [%rd1, {%f5}], %f6;\n"
                 "tld4.g.2d.v4.f32.f32 {%f1, %f2, %f3, %f4}, [%rd1, {%f5, %f6}];\n"
                 "txq.width.b32 %r1, [%rd1];");
    u = first(m);
    assert_int_equal(u->sub, PTX_GEOM_A2D);
    assert_int_equal(u->type, PTX_T_S32);
    assert_int_equal(u->opd[2].nvec, 4);
    assert_int_equal(u[1].aux, PTX_TEXL_LEVEL);
    assert_int_equal(u[1].nopd, 4);
    assert_int_equal(u[2].op, PTX_OP_TLD4);
    assert_int_equal(u[2].aux, 1);        /* .g */
    assert_int_equal(u[3].op, PTX_OP_TXQ);
    assert_int_equal(u[3].sub, PTX_TXQ_WIDTH);
    ptx_module_free(m);
}

static void test_decode_surf(void **state)
{
    (void)state;
    ptx_module *m = parse_ok("suld.b.2d.v4.b8.clamp {%rs1, %rs2, %rs3, %rs4}, [%rd1, {%r1, %r2}];\n"
                             "sust.b.3d.b32.zero [%rd1, {%r1, %r2, %r3, %r3}], {%r4};\n"
                             "suld.b.a1d.b32.trap {%r5}, [%rd1, {%r1, %r2}];");
    const ptx_uop *u = first(m);
    assert_int_equal(u->op, PTX_OP_SULD);
    assert_int_equal(u->aux, PTX_SURF_CLAMP);
    assert_int_equal(u->vec, 4);
    assert_int_equal(u->type, PTX_T_B8);
    assert_int_equal(u->space, PTX_SPACE_GLOBAL);
    assert_int_equal(u[1].op, PTX_OP_SUST);
    assert_int_equal(u[1].aux, PTX_SURF_ZERO);
    assert_int_equal(u[1].opd[0].kind, PTX_OPD_ADDR);
    assert_int_equal(u[1].opd[1].nvec, 4);
    assert_int_equal(u[2].sub, PTX_GEOM_A1D);
    assert_int_equal(u[2].aux, PTX_SURF_TRAP);
    ptx_module_free(m);
}

static void test_decode_errors(void **state)
{
    (void)state;
    parse_bad("tex.2d.f32.f32 {%f1, %f2, %f3, %f4}, [%rd1, {%f5, %f6}];", ".v4 is required");
    parse_bad("tex.2d.v4.f64.f32 {%f1, %f2, %f3, %f4}, [%rd1, {%f5, %f6}];", "results must be");
    parse_bad("tex.2d.v4.f32 {%f1, %f2, %f3, %f4}, [%rd1, {%f5, %f6}];", "coordinate type");
    parse_bad("tex.2d.v4.f32.f32 {%f1, %f2, %f3, %f4}, [%rd1, {%f5}];", "has 1 elements; 2 expected");
    parse_bad("tex.2d.v4.f32.f32 {%f1, %f2, %f3, %f4}, [%r1, {%f5, %f6}];", "64-bit register");
    parse_bad("tex.2d.v4.f32.f32 {%f1, %f2, %f3, %f4}, [tr, {%f5, %f6}];", "handle register");
    parse_bad("tex.cube.v4.f32.f32 {%f1, %f2, %f3, %f4}, [%rd1, {%f5, %f6, %f7, %f8}];", "not supported");
    parse_bad("tld4.r.3d.v4.f32.f32 {%f1, %f2, %f3, %f4}, [%rd1, {%f5, %f6, %f7, %f8}];", "tld4");
    parse_bad("sust.p.2d.b32.trap [%rd1, {%r1, %r2}], {%r3};", "formatted");
    parse_bad("suld.2d.b32.trap {%r1}, [%rd1, {%r1, %r2}];", "needs .b");
    parse_bad("txq.b32 %r1, [%rd1];", "query");
    parse_bad("tex.2d.v4.f32.f32 {%f1, %f2, %f3, %f4}, [%rd1, {%f5, %f6}], %f7;", "expected 3, got 4");
}

/* ---- sampling arithmetic ------------------------------------------- */

static float F(uint32_t b) { float f; memcpy(&f, &b, 4); return f; }

static const float tab1[4] = { 10.0f, 20.0f, 40.0f, 80.0f };

static int read_tab(void *ctx, uint64_t addr, void *dst, uint32_t n)
{
    const uint8_t *base = ctx;
    if (addr < 0x1000 || addr + n > 0x1000 + 64) return -1;
    memcpy(dst, base + (addr - 0x1000), n);
    return 0;
}

static emu_tex_obj float_tex(int res, int mode, int filter, bool norm)
{
    emu_tex_obj t;
    memset(&t, 0, sizeof t);
    t.gen = 1; t.res = (uint8_t)res; t.nch = 1; t.chbits = 32; t.kind = EMU_CH_FLOAT;
    t.addr[0] = t.addr[1] = t.addr[2] = (uint8_t)mode;
    t.filter = (uint8_t)filter; t.norm_coords = norm;
    t.base = 0x1000; t.width = 4; t.height = 1; t.depth = 1;
    t.border[0] = -1.0f;
    return t;
}

static float sample1(const emu_tex_obj *t, float x)
{
    emu_tex_fetch f;
    memset(&f, 0, sizeof f);
    f.geom = PTX_GEOM_1D; f.comp = -1; f.c[0] = x;
    assert_int_equal(emu_tex_sample(t, &f, read_tab, (void *)tab1), 0);
    return F(f.out[0]);
}

static void test_weights_and_modes(void **state)
{
    (void)state;
    assert_true(emu_tex_weight(0.0f) == 0.0f);
    assert_true(emu_tex_weight(0.5f) == 0.5f);
    assert_true(emu_tex_weight(1.0f / 512.0f + 1e-6f) == 1.0f / 256.0f);  /* rounds up */
    assert_true(emu_tex_weight(1.0f / 1024.0f) == 0.0f);                  /* rounds down */
    assert_true(emu_tex_weight(0.999f) == 1.0f);                          /* 9 bits hold 1.0 */
    assert_int_equal(emu_tex_address(-1, 4, EMU_ADDR_WRAP), 3);
    assert_int_equal(emu_tex_address(9, 4, EMU_ADDR_WRAP), 1);
    assert_int_equal(emu_tex_address(-1, 4, EMU_ADDR_MIRROR), 0);
    assert_int_equal(emu_tex_address(4, 4, EMU_ADDR_MIRROR), 3);
    assert_int_equal(emu_tex_address(-5, 4, EMU_ADDR_MIRROR), 3);
    assert_int_equal(emu_tex_address(-3, 4, EMU_ADDR_CLAMP), 0);
    assert_int_equal(emu_tex_address(7, 4, EMU_ADDR_CLAMP), 3);
    assert_int_equal(emu_tex_address(4, 4, EMU_ADDR_BORDER), -1);
    assert_true(emu_half_to_float(0x3c00) == 1.0f);
    assert_true(emu_half_to_float(0xc000) == -2.0f);
    assert_true(emu_half_to_float(0x0001) == ldexpf(1.0f, -24));          /* subnormal */
}

static void test_linear_filtering(void **state)
{
    (void)state;
    emu_tex_obj t = float_tex(EMU_TEXRES_ARRAY, EMU_ADDR_CLAMP, EMU_FILTER_LINEAR, false);
    assert_true(sample1(&t, 1.5f) == 20.0f);           /* a texel centre is that texel */
    assert_true(sample1(&t, 1.0f) == 15.0f);           /* half way */
    assert_true(sample1(&t, 0.0f) == 10.0f);           /* clamp: both neighbours texel 0 */
    assert_true(sample1(&t, 100.0f) == 80.0f);
    /* x - 0.5 = 0.3: weight 77/256 (1.8 fixed point), not 0.3 */
    assert_true(sample1(&t, 0.8f) == 10.0f + 10.0f * (77.0f / 256.0f));
    t.addr[0] = EMU_ADDR_BORDER;
    assert_true(sample1(&t, 0.0f) == 0.5f * -1.0f + 0.5f * 10.0f);  /* border mixes in */
    t = float_tex(EMU_TEXRES_ARRAY, EMU_ADDR_WRAP, EMU_FILTER_LINEAR, true);
    assert_true(sample1(&t, 0.0f) == 45.0f);           /* wraps: texels 3 and 0 */
    t.addr[0] = EMU_ADDR_MIRROR;
    assert_true(sample1(&t, 0.0f) == 10.0f);           /* mirrors: texels 0 and 0 */
    t.norm_coords = false;                             /* wrap/mirror need normalised coords */
    t.addr[0] = EMU_ADDR_WRAP;
    assert_true(sample1(&t, 0.0f) == 10.0f);           /* ... else they clamp */
    t = float_tex(EMU_TEXRES_ARRAY, EMU_ADDR_CLAMP, EMU_FILTER_POINT, false);
    assert_true(sample1(&t, 1.99f) == 20.0f);
    assert_true(sample1(&t, -0.01f) == 10.0f);
}

static void test_fetch_and_formats(void **state)
{
    (void)state;
    emu_tex_obj t = float_tex(EMU_TEXRES_LINEAR, EMU_ADDR_CLAMP, EMU_FILTER_POINT, false);
    emu_tex_fetch f;
    memset(&f, 0, sizeof f);
    f.geom = PTX_GEOM_1D; f.comp = -1; f.int_coords = true; f.ic[0] = 4;
    assert_int_equal(emu_tex_sample(&t, &f, read_tab, (void *)tab1), 0);
    assert_true(F(f.out[0]) == 0.0f && F(f.out[3]) == 0.0f);   /* tex1Dfetch outside: 0 */
    assert_int_equal(f.naddr, 0);
    f.ic[0] = 2;
    assert_int_equal(emu_tex_sample(&t, &f, read_tab, (void *)tab1), 0);
    assert_true(F(f.out[0]) == 40.0f && F(f.out[1]) == 0.0f && F(f.out[3]) == 1.0f);
    /* 8-bit signed and unsigned, normalised float reads */
    static const uint8_t bytes[64] = { 0xff, 0x80, 0x7f, 0x00 };
    emu_tex_obj u = float_tex(EMU_TEXRES_ARRAY, EMU_ADDR_CLAMP, EMU_FILTER_POINT, false);
    u.chbits = 8; u.kind = EMU_CH_UNSIGNED; u.read_norm = true;
    memset(&f, 0, sizeof f);
    f.geom = PTX_GEOM_1D; f.comp = -1; f.c[0] = 0.5f;
    assert_int_equal(emu_tex_sample(&u, &f, read_tab, (void *)bytes), 0);
    assert_true(F(f.out[0]) == 1.0f);
    u.kind = EMU_CH_SIGNED;
    f.c[0] = 1.5f;
    assert_int_equal(emu_tex_sample(&u, &f, read_tab, (void *)bytes), 0);
    assert_true(F(f.out[0]) == -1.0f);                 /* -128 clamps to -1 */
    u.read_norm = false;                               /* element type: the integer */
    assert_int_equal(emu_tex_sample(&u, &f, read_tab, (void *)bytes), 0);
    assert_int_equal((int32_t)f.out[0], -128);
    assert_int_equal(f.out[3], 1u);
    /* a freed resource: the read fails with the texel's address */
    t.base = 0x9000;
    f.int_coords = true; f.ic[0] = 1;
    assert_int_equal(emu_tex_sample(&t, &f, read_tab, (void *)tab1), -1);
    assert_true(f.addr[f.naddr - 1] == 0x9004);
}

static void test_gather_order(void **state)
{
    (void)state;
    static const float grid[16] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16 };
    emu_tex_obj t = float_tex(EMU_TEXRES_ARRAY, EMU_ADDR_CLAMP, EMU_FILTER_POINT, false);
    t.height = 4; t.pitch = 16; t.slice = 64;
    emu_tex_fetch f;
    memset(&f, 0, sizeof f);
    f.geom = PTX_GEOM_2D; f.comp = 0; f.c[0] = 2.0f; f.c[1] = 1.0f;   /* i0 = 1, j0 = 0 */
    assert_int_equal(emu_tex_sample(&t, &f, read_tab, (void *)grid), 0);
    /* (i0,j1) (i1,j1) (i1,j0) (i0,j0) */
    assert_true(F(f.out[0]) == 6.0f && F(f.out[1]) == 7.0f && F(f.out[2]) == 3.0f && F(f.out[3]) == 2.0f);
    assert_int_equal(f.naddr, 4);
}

/* ---- through the host API ------------------------------------------- */

static const char *kern_ptx = HDR
    ".visible .entry lin(.param .u64 t, .param .u64 o)\n{\n"
    ".reg .b64 %rd<5>;\n.reg .f32 %f<8>;\n.reg .b32 %r<3>;\n"
    "ld.param.u64 %rd1, [t];\nld.param.u64 %rd2, [o];\n"
    "mov.u32 %r1, %tid.x;\ncvt.rn.f32.u32 %f1, %r1;\nmul.f32 %f1, %f1, 0f3F000000;\n"
    "tex.1d.v4.f32.f32 {%f2, %f3, %f4, %f5}, [%rd1, {%f1}];\n"
    "mul.wide.u32 %rd3, %r1, 4;\nadd.s64 %rd4, %rd2, %rd3;\nst.global.f32 [%rd4], %f2;\nret;\n}\n"
    ".visible .entry surf(.param .u64 s)\n{\n"
    ".reg .b64 %rd<2>;\n.reg .b32 %r<4>;\n"
    "ld.param.u64 %rd1, [s];\nmov.u32 %r1, %tid.x;\nshl.b32 %r2, %r1, 2;\nmov.u32 %r3, 0;\n"
    "sust.b.2d.b32.trap [%rd1, {%r2, %r3}], {%r1};\nret;\n}\n";

static ws_ctx *ctx_with(int timing, ws_module **m)
{
    ws_options o;
    memset(&o, 0, sizeof o);
    o.timing = timing;
    ws_ctx *ctx = ws_ctx_create(&o);
    assert_non_null(ctx);
    assert_int_equal(ws_module_load_string(ctx, kern_ptx, "tex_api.ptx", m), WS_OK);
    return ctx;
}

static void test_api_texture(void **state)
{
    (void)state;
    for (int timing = 0; timing < 2; timing++) {
        ws_module *m;
        ws_ctx *ctx = ctx_with(timing, &m);
        ws_devptr arr, out;
        assert_int_equal(ws_malloc(ctx, sizeof tab1, &arr), WS_OK);
        assert_int_equal(ws_malloc(ctx, 64 * 4, &out), WS_OK);
        assert_int_equal(ws_memcpy_htod(ctx, arr, tab1, sizeof tab1), WS_OK);
        ws_tex_resource r = { .kind = WS_TEXRES_ARRAY, .base = arr, .width = 4, .channels = 1,
                              .channel_bits = 32, .channel_kind = WS_CH_FLOAT };
        ws_tex_sampler s = { .addr_mode = { 1, 1, 1 }, .filter = 1 };
        uint64_t h;
        assert_int_equal(ws_texture_create(ctx, &r, &s, &h), WS_OK);
        assert_true(h != 0);
        ws_kernel *k;
        assert_int_equal(ws_module_get_kernel(m, "lin", &k), WS_OK);
        void *args[] = { &h, &out };
        assert_int_equal(ws_launch(ctx, k, (ws_dim3){1, 1, 1}, (ws_dim3){64, 1, 1}, args, 0), WS_OK);
        float got[64];
        assert_int_equal(ws_memcpy_dtoh(ctx, got, out, sizeof got), WS_OK);
        /* x = tid / 2: x - 0.5 = 0.5 is half way, 1.0 and 2.0 are texels */
        assert_true(got[2] == 15.0f && got[3] == 20.0f && got[5] == 40.0f && got[0] == 10.0f);
        if (timing) {
            ws_stats st;
            ws_stats_last(ctx, &st);
            assert_true(st.cycles > 0);
            char *buf = NULL;
            size_t len = 0;
            FILE *f = open_memstream(&buf, &len);
            assert_int_equal(ws_report(ctx, f, 0), WS_OK);
            fclose(f);
            const char *p = strstr(buf, "L1T_total_cache_accesses = ");
            assert_non_null(p);
            assert_true(atoi(p + strlen("L1T_total_cache_accesses = ")) > 0);
            free(buf);
        }
        /* a destroyed handle faults with its value */
        assert_int_equal(ws_texture_destroy(ctx, h), WS_OK);
        assert_int_equal(ws_texture_destroy(ctx, h), WS_ERR_INVALID);
        assert_int_equal(ws_launch(ctx, k, (ws_dim3){1, 1, 1}, (ws_dim3){64, 1, 1}, args, 0), WS_ERR_FAULT);
        assert_non_null(strstr(ws_last_error(ctx), "is not a live texture object"));
        assert_non_null(strstr(ws_last_error(ctx), "tex_api.ptx line 14"));
        ws_ctx_destroy(ctx);
    }
}

static void test_api_refusals_and_trap(void **state)
{
    (void)state;
    ws_module *m;
    ws_ctx *ctx = ctx_with(0, &m);
    ws_devptr arr;
    assert_int_equal(ws_malloc(ctx, 64, &arr), WS_OK);
    ws_tex_resource r = { .kind = WS_TEXRES_ARRAY, .base = arr, .width = 16, .channels = 1,
                          .channel_bits = 32, .channel_kind = WS_CH_SIGNED };
    ws_tex_sampler s = { .addr_mode = { 1, 1, 1 }, .filter = 1 };
    uint64_t h;
    assert_int_equal(ws_texture_create(ctx, &r, &s, &h), WS_ERR_INVALID);   /* linear on ints */
    assert_non_null(strstr(ws_last_error(ctx), "linear filtering"));
    r.width = 17;                                                            /* past the allocation */
    s.filter = 0;
    assert_int_equal(ws_texture_create(ctx, &r, &s, &h), WS_ERR_INVALID);
    r.width = 16; r.channels = 3;
    assert_int_equal(ws_texture_create(ctx, &r, &s, &h), WS_ERR_INVALID);
    r.channels = 1;
    s.read_normalized = 1;                                                   /* 32-bit ints */
    assert_int_equal(ws_texture_create(ctx, &r, &s, &h), WS_ERR_INVALID);
    /* a surface of 8 x 2: lanes 8.. write past the row: .trap faults */
    r.width = 8; r.height = 2;
    assert_int_equal(ws_surface_create(ctx, &r, &h), WS_OK);
    ws_kernel *k;
    assert_int_equal(ws_module_get_kernel(m, "surf", &k), WS_OK);
    void *args[] = { &h };
    assert_int_equal(ws_launch(ctx, k, (ws_dim3){1, 1, 1}, (ws_dim3){8, 1, 1}, args, 0), WS_OK);
    int32_t back[8];
    assert_int_equal(ws_memcpy_dtoh(ctx, back, arr, sizeof back), WS_OK);
    for (int i = 0; i < 8; i++) assert_int_equal(back[i], i);
    assert_int_equal(ws_launch(ctx, k, (ws_dim3){1, 1, 1}, (ws_dim3){9, 1, 1}, args, 0), WS_ERR_FAULT);
    assert_non_null(strstr(ws_last_error(ctx), "thread (8,0,0)"));
    assert_non_null(strstr(ws_last_error(ctx), "sust.2d.trap out of bounds: byte x 32"));
    ws_ctx_destroy(ctx);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_decode_tex),
        cmocka_unit_test(test_decode_surf),
        cmocka_unit_test(test_decode_errors),
        cmocka_unit_test(test_weights_and_modes),
        cmocka_unit_test(test_linear_filtering),
        cmocka_unit_test(test_fetch_and_formats),
        cmocka_unit_test(test_gather_order),
        cmocka_unit_test(test_api_texture),
        cmocka_unit_test(test_api_refusals_and_trap),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
