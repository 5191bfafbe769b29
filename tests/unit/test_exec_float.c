/*
** test_exec_float.c -- float semantics (exec_float.c): rounding modes,
** .ftz/.sat, fused mad/fma, div, min/max NaN and signed-zero rules, abs/neg,
** f16/f16x2/bf16 arithmetic, rcp/sqrt/rsqrt and the .approx functions,
** copysign and testp.
*/
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <math.h>
#include <cmocka.h>
#include "alu_harness.h"

#define R ah_reg

/* Run a 2-source f32 op with rounding `rnd` on (a, b) in lane 0. */
static uint64_t f32_binop(int op, int rnd, uint32_t flags, float a, float b)
{
    emu_warp *w = ah_warp();
    ah_set(w, 1, 0, ah_f32(a));
    ah_set(w, 2, 0, ah_f32(b));
    ptx_uop u = ah_uop(op, PTX_T_F32, R(0), R(1), R(2), ah_none(), ah_none());
    u.rnd = (uint8_t)rnd;
    u.flags = flags;
    assert_int_equal(ah_run(w, &u, 1), 0);
    uint64_t r = ah_get(w, 0, 0);
    ah_free(w);
    return r;
}

static void test_add_rounding_modes(void **state)
{
    (void)state;
    float ulp = ldexpf(1.0f, -23);
    float up = nextafterf(1.0f, 2.0f), down = nextafterf(-1.0f, -2.0f);
    /* 1 + 0.75 ulp: nearest and up give 1+ulp; zero and down give 1 */
    float b = 0.75f * ulp;
    assert_int_equal(f32_binop(PTX_OP_ADD, PTX_RND_RN, 0, 1.0f, b), ah_f32(up));
    assert_int_equal(f32_binop(PTX_OP_ADD, PTX_RND_NONE, 0, 1.0f, b), ah_f32(up));
    assert_int_equal(f32_binop(PTX_OP_ADD, PTX_RND_RZ, 0, 1.0f, b), ah_f32(1.0f));
    assert_int_equal(f32_binop(PTX_OP_ADD, PTX_RND_RM, 0, 1.0f, b), ah_f32(1.0f));
    assert_int_equal(f32_binop(PTX_OP_ADD, PTX_RND_RP, 0, 1.0f, b), ah_f32(up));
    /* -1 - 0.25 ulp: only round-down leaves -1 */
    float c = -0.25f * ulp;
    assert_int_equal(f32_binop(PTX_OP_ADD, PTX_RND_RN, 0, -1.0f, c), ah_f32(-1.0f));
    assert_int_equal(f32_binop(PTX_OP_ADD, PTX_RND_RZ, 0, -1.0f, c), ah_f32(-1.0f));
    assert_int_equal(f32_binop(PTX_OP_ADD, PTX_RND_RM, 0, -1.0f, c), ah_f32(down));
    assert_int_equal(f32_binop(PTX_OP_SUB, PTX_RND_RP, 0, -1.0f, -c), ah_f32(-1.0f));
    /* the host mode is back to nearest afterwards */
    volatile float x = 1.0f, y = b;
    assert_true(x + y == up);
    /* f64 directed: 1/3 rounded up vs down */
    emu_warp *w = ah_warp();
    ah_set(w, 1, 0, ah_f64(1.0));
    ah_set(w, 2, 0, ah_f64(3.0));
    ptx_uop u = AH_U2(DIV, F64, R(0), R(1), R(2));
    u.rnd = PTX_RND_RP;
    ah_run(w, &u, 1);
    uint64_t hi = ah_get(w, 0, 0);
    u.rnd = PTX_RND_RM;
    ah_run(w, &u, 1);
    assert_int_equal(hi, ah_get(w, 0, 0) + 1);
    u.rnd = PTX_RND_RN;
    ah_run(w, &u, 1);
    assert_int_equal(ah_get(w, 0, 0), ah_f64(1.0 / 3.0));
    ah_free(w);
}

static void test_sat_ftz(void **state)
{
    (void)state;
    assert_int_equal(f32_binop(PTX_OP_ADD, 0, PTX_F_SAT, 0.75f, 0.5f), ah_f32(1.0f));
    assert_int_equal(f32_binop(PTX_OP_ADD, 0, PTX_F_SAT, -3.0f, 1.0f), ah_f32(0.0f));
    assert_int_equal(f32_binop(PTX_OP_ADD, 0, PTX_F_SAT, 0.25f, 0.5f), ah_f32(0.75f));
    assert_int_equal(f32_binop(PTX_OP_MUL, 0, PTX_F_SAT, NAN, 1.0f), ah_f32(0.0f));
    /* a subnormal product survives without .ftz and is flushed with it */
    float tiny = 1e-38f;
    assert_int_equal(f32_binop(PTX_OP_MUL, 0, 0, tiny, 0.5f), ah_f32(tiny * 0.5f));
    assert_int_equal(f32_binop(PTX_OP_MUL, 0, PTX_F_FTZ, tiny, 0.5f), ah_f32(0.0f));
    assert_int_equal(f32_binop(PTX_OP_MUL, 0, PTX_F_FTZ, -tiny, 0.5f), 0x80000000u);
    /* subnormal inputs are flushed too */
    float sub = ldexpf(1.0f, -140);
    assert_int_equal(f32_binop(PTX_OP_ADD, 0, PTX_F_FTZ, sub, 0.0f), 0);
    assert_int_equal(f32_binop(PTX_OP_ADD, 0, 0, sub, 0.0f), ah_f32(sub));
}

static void test_fused_mad_fma(void **state)
{
    (void)state;
    float a = 1.0f + ldexpf(1.0f, -12);
    float c = -(1.0f + ldexpf(1.0f, -11));
    emu_warp *w = ah_warp();
    ah_set(w, 1, 0, ah_f32(a));
    ah_set(w, 2, 0, ah_f32(a));
    ah_set(w, 3, 0, ah_f32(c));
    ptx_uop u = AH_U3(FMA, F32, R(0), R(1), R(2), R(3));
    u.rnd = PTX_RND_RN;
    ah_run(w, &u, 1);
    assert_int_equal(ah_get(w, 0, 0), ah_f32(ldexpf(1.0f, -24)));
    u.op = PTX_OP_MAD;        /* mad.f32 is fused as well */
    u.rnd = PTX_RND_NONE;
    ah_run(w, &u, 1);
    assert_int_equal(ah_get(w, 0, 0), ah_f32(ldexpf(1.0f, -24)));
    /* mul then add rounds twice and loses the low bit */
    ptx_uop m = AH_U2(MUL, F32, R(4), R(1), R(2));
    ptx_uop s = AH_U2(ADD, F32, R(5), R(4), R(3));
    ah_run(w, &m, 1);
    ah_run(w, &s, 1);
    assert_int_equal(ah_get(w, 5, 0), ah_f32(0.0f));
    /* fma.relu clamps negatives; f64 fma */
    ah_set(w, 6, 0, ah_f32(-2.0f));
    ptx_uop r = AH_U3(FMA, F32, R(7), R(6), R(6), R(3));   /* 4 - 1.00049 > 0 */
    r.flags = PTX_F_RELU;
    ah_run(w, &r, 1);
    assert_true(ah_as_f32(ah_get(w, 7, 0)) > 2.9f);
    r = AH_U3(FMA, F32, R(7), R(6), R(1), R(3));           /* negative */
    r.flags = PTX_F_RELU;
    ah_run(w, &r, 1);
    assert_int_equal(ah_get(w, 7, 0), 0);
    ah_set(w, 8, 0, ah_f64(1.5));
    ptx_uop d = AH_U3(FMA, F64, R(9), R(8), R(8), R(8));
    d.rnd = PTX_RND_RN;
    ah_run(w, &d, 1);
    assert_true(ah_as_f64(ah_get(w, 9, 0)) == 3.75);
    ah_free(w);
}

static void test_div_rcp_sqrt(void **state)
{
    (void)state;
    assert_int_equal(f32_binop(PTX_OP_DIV, PTX_RND_RN, 0, 1.0f, 3.0f), 0x3eaaaaabu);
    assert_int_equal(f32_binop(PTX_OP_DIV, PTX_RND_RZ, 0, 1.0f, 3.0f), 0x3eaaaaaau);
    assert_int_equal(f32_binop(PTX_OP_DIV, PTX_RND_NONE, PTX_F_APPROX, 6.0f, 3.0f), ah_f32(2.0f));
    assert_int_equal(f32_binop(PTX_OP_DIV, PTX_RND_NONE, PTX_F_FULL, 1.0f, 0.0f), ah_f32(INFINITY));
    emu_warp *w = ah_warp();
    ah_set(w, 1, 0, ah_f32(3.0f));
    ah_set(w, 1, 1, ah_f32(2.0f));
    ah_set(w, 1, 2, ah_f32(4.0f));
    ah_set(w, 1, 3, ah_f32(-1.0f));
    ptx_uop u = AH_U1(RCP, F32, R(0), R(1));
    u.rnd = PTX_RND_RN;
    ah_run(w, &u, 0xf);
    assert_int_equal(ah_get(w, 0, 0), 0x3eaaaaabu);
    assert_int_equal(ah_get(w, 0, 1), ah_f32(0.5f));
    u.rnd = PTX_RND_RZ;
    ah_run(w, &u, 1);
    assert_int_equal(ah_get(w, 0, 0), 0x3eaaaaaau);
    u = AH_U1(SQRT, F32, R(0), R(1));
    u.rnd = PTX_RND_RN;
    ah_run(w, &u, 0xf);
    assert_int_equal(ah_get(w, 0, 1), 0x3fb504f3u);
    assert_int_equal(ah_get(w, 0, 2), ah_f32(2.0f));
    assert_int_equal(ah_get(w, 0, 3), 0x7fffffffu);   /* canonical NaN */
    u.rnd = PTX_RND_RP;
    ah_run(w, &u, 0x2);
    assert_int_equal(ah_get(w, 0, 1), 0x3fb504f4u);
    u = AH_U1(RSQRT, F32, R(0), R(1));
    u.flags = PTX_F_APPROX;
    ah_run(w, &u, 0x4);
    assert_true(fabsf(ah_as_f32(ah_get(w, 0, 2)) - 0.5f) < 1e-6f);
    ah_free(w);
}

/* .approx special functions agree with libm within a loose tolerance. */
static void test_sfu_approx(void **state)
{
    (void)state;
    emu_warp *w = ah_warp();
    float xs[4] = { 0.5f, 1.0f, -2.25f, 3.0f };
    for (int l = 0; l < 4; l++)
        ah_set(w, 1, l, ah_f32(xs[l]));
    struct { int op; double (*ref)(double); } cases[] = {
        { PTX_OP_SIN, sin }, { PTX_OP_COS, cos }, { PTX_OP_EX2, exp2 }, { PTX_OP_TANH, tanh },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        ptx_uop u = ah_uop(cases[i].op, PTX_T_F32, R(0), R(1), ah_none(), ah_none(), ah_none());
        u.flags = PTX_F_APPROX;
        ah_run(w, &u, 0xf);
        for (int l = 0; l < 4; l++)
            assert_true(fabs(ah_as_f32(ah_get(w, 0, l)) - cases[i].ref(xs[l])) < 1e-5);
    }
    ptx_uop lg = AH_U1(LG2, F32, R(0), R(1));
    lg.flags = PTX_F_APPROX;
    ah_run(w, &lg, 0xf);
    assert_true(ah_as_f32(ah_get(w, 0, 0)) == -1.0f);
    assert_true(ah_as_f32(ah_get(w, 0, 1)) == 0.0f);
    assert_int_equal(ah_get(w, 0, 2), 0x7fffffffu);   /* lg2 of a negative */
    /* ex2.approx.f16 */
    ah_set(w, 2, 0, 0x4000);  /* 2.0h */
    ptx_uop e = AH_U1(EX2, F16, R(3), R(2));
    e.flags = PTX_F_APPROX;
    ah_run(w, &e, 1);
    assert_int_equal(ah_get(w, 3, 0), 0x4400);  /* 4.0h */
    ah_free(w);
}

static void test_min_max_nan_zero(void **state)
{
    (void)state;
    assert_int_equal(f32_binop(PTX_OP_MIN, 0, 0, NAN, 2.0f), ah_f32(2.0f));
    assert_int_equal(f32_binop(PTX_OP_MAX, 0, 0, 3.0f, NAN), ah_f32(3.0f));
    assert_int_equal(f32_binop(PTX_OP_MIN, 0, 0, NAN, NAN), 0x7fffffffu);
    assert_int_equal(f32_binop(PTX_OP_MIN, 0, PTX_F_NAN, NAN, 2.0f), 0x7fffffffu);
    assert_int_equal(f32_binop(PTX_OP_MIN, 0, 0, 0.0f, -0.0f), 0x80000000u);
    assert_int_equal(f32_binop(PTX_OP_MAX, 0, 0, -0.0f, 0.0f), 0);
    assert_int_equal(f32_binop(PTX_OP_MIN, 0, 0, -1.0f, 2.0f), ah_f32(-1.0f));
    assert_int_equal(f32_binop(PTX_OP_MAX, 0, 0, -1.0f, 2.0f), ah_f32(2.0f));
    /* .xorsign.abs: magnitude min/max, sign = XOR of the signs */
    assert_int_equal(f32_binop(PTX_OP_MIN, 0, PTX_F_XORSIGN, -3.0f, 2.0f), ah_f32(-2.0f));
    assert_int_equal(f32_binop(PTX_OP_MAX, 0, PTX_F_XORSIGN, -3.0f, -2.0f), ah_f32(3.0f));
    /* f64 */
    emu_warp *w = ah_warp();
    ah_set(w, 1, 0, ah_f64(NAN));
    ah_set(w, 2, 0, ah_f64(-7.5));
    ptx_uop u = AH_U2(MAX, F64, R(0), R(1), R(2));
    ah_run(w, &u, 1);
    assert_true(ah_as_f64(ah_get(w, 0, 0)) == -7.5);
    ah_free(w);
}

static void test_abs_neg_copysign(void **state)
{
    (void)state;
    emu_warp *w = ah_warp();
    ah_set(w, 1, 0, ah_f32(-2.5f));
    ah_set(w, 1, 1, 0x80000000u);
    ah_set(w, 1, 2, ah_f32(ldexpf(-1.0f, -140)));
    ptx_uop u = AH_U1(ABS, F32, R(0), R(1));
    ah_run(w, &u, 7);
    assert_int_equal(ah_get(w, 0, 0), ah_f32(2.5f));
    assert_int_equal(ah_get(w, 0, 1), 0);
    assert_int_equal(ah_get(w, 0, 2), ah_f32(ldexpf(1.0f, -140)));
    u.flags = PTX_F_FTZ;
    ah_run(w, &u, 7);
    assert_int_equal(ah_get(w, 0, 2), 0);
    u = AH_U1(NEG, F32, R(0), R(1));
    ah_run(w, &u, 3);
    assert_int_equal(ah_get(w, 0, 0), ah_f32(2.5f));
    assert_int_equal(ah_get(w, 0, 1), 0);
    u = AH_U1(NEG, F64, R(0), R(1));
    ah_set(w, 1, 3, ah_f64(4.0));
    ah_run(w, &u, 8);
    assert_int_equal(ah_get(w, 0, 3), ah_f64(-4.0));
    /* copysign d, a, b: |b| with a's sign */
    ah_set(w, 2, 0, ah_f32(7.0f));
    ptx_uop c = AH_U2(COPYSIGN, F32, R(3), R(1), R(2));
    ah_run(w, &c, 1);
    assert_int_equal(ah_get(w, 3, 0), ah_f32(-7.0f));
    ah_free(w);
}

static void test_half_arith(void **state)
{
    (void)state;
    emu_warp *w = ah_warp();
    ah_set(w, 1, 0, 0x3c00);          /* 1.0h */
    ah_set(w, 2, 0, 0x3c00);
    ah_set(w, 1, 1, 0x7bff);          /* 65504 */
    ah_set(w, 2, 1, 0x7bff);
    ah_set(w, 1, 2, 0x3c00);          /* 1 + 2^-11: a tie, to even (1.0) */
    ah_set(w, 2, 2, 0x1000);          /* 2^-11 */
    ptx_uop u = AH_U2(ADD, F16, R(0), R(1), R(2));
    ah_run(w, &u, 7);
    assert_int_equal(ah_get(w, 0, 0), 0x4000);
    assert_int_equal(ah_get(w, 0, 1), 0x7c00);   /* overflow to inf */
    assert_int_equal(ah_get(w, 0, 2), 0x3c00);
    u.rnd = PTX_RND_RZ;
    ah_run(w, &u, 2);
    assert_int_equal(ah_get(w, 0, 1), 0x7bff);   /* rz saturates to max finite */
    u.rnd = PTX_RND_RP;
    ah_run(w, &u, 4);
    assert_int_equal(ah_get(w, 0, 2), 0x3c01);
    u.rnd = 0;
    u.flags = PTX_F_SAT;
    ah_run(w, &u, 1);
    assert_int_equal(ah_get(w, 0, 0), 0x3c00);   /* 2.0 clamps to 1.0 */
    /* f16x2: per-half, {1.5, -2} * {2, 0.5} = {3, -1} */
    ah_set(w, 3, 0, 0xc0003e00u);
    ah_set(w, 4, 0, 0x38004000u);
    ptx_uop m = AH_U2(MUL, F16X2, R(5), R(3), R(4));
    ah_run(w, &m, 1);
    assert_int_equal(ah_get(w, 5, 0), 0xbc004200u);
    /* bf16: 1.0 + 1.0 = 2.0; fma.rn.bf16 */
    ah_set(w, 6, 0, 0x3f80);
    ptx_uop b = AH_U2(ADD, BF16, R(7), R(6), R(6));
    ah_run(w, &b, 1);
    assert_int_equal(ah_get(w, 7, 0), 0x4000);
    ptx_uop f = AH_U3(FMA, BF16, R(7), R(6), R(6), R(6));
    f.rnd = PTX_RND_RN;
    ah_run(w, &f, 1);
    assert_int_equal(ah_get(w, 7, 0), 0x4000);
    /* min.f16 with NaN, neg.f16 */
    ah_set(w, 8, 0, 0x7e00);
    ptx_uop mn = AH_U2(MIN, F16, R(9), R(8), R(1));
    ah_run(w, &mn, 1);
    assert_int_equal(ah_get(w, 9, 0), 0x3c00);
    ptx_uop ng = AH_U1(NEG, F16, R(9), R(1));
    ah_run(w, &ng, 1);
    assert_int_equal(ah_get(w, 9, 0), 0xbc00);
    ah_free(w);
}

static void test_testp(void **state)
{
    (void)state;
    emu_warp *w = ah_warp();
    float v[6] = { 1.0f, 0.0f, INFINITY, NAN, ldexpf(1.0f, -130), -3.0f };
    for (int l = 0; l < 6; l++)
        ah_set(w, 1, l, ah_f32(v[l]));
    struct { int which; uint32_t expect; } cases[] = {
        { PTX_TESTP_FINITE, 0x33 },     { PTX_TESTP_INFINITE, 0x04 },
        { PTX_TESTP_NUMBER, 0x37 },     { PTX_TESTP_NOTANUMBER, 0x08 },
        { PTX_TESTP_NORMAL, 0x23 },     { PTX_TESTP_SUBNORMAL, 0x10 },
    };
    for (size_t i = 0; i < 6; i++) {
        ptx_uop u = AH_U1(TESTP, F32, ah_pred(0), R(1));
        u.sub = (uint8_t)cases[i].which;
        w->p[0] = 0xffffffffu;
        ah_run(w, &u, 0x3f);
        assert_int_equal(w->p[0], 0xffffffc0u | cases[i].expect);
    }
    ah_set(w, 2, 0, ah_f64(ldexp(1.0, -1070)));
    ptx_uop d = AH_U1(TESTP, F64, ah_pred(1), R(2));
    d.sub = PTX_TESTP_SUBNORMAL;
    ah_run(w, &d, 1);
    assert_int_equal(w->p[1], 1);
    ah_free(w);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_add_rounding_modes),
        cmocka_unit_test(test_sat_ftz),
        cmocka_unit_test(test_fused_mad_fma),
        cmocka_unit_test(test_div_rcp_sqrt),
        cmocka_unit_test(test_sfu_approx),
        cmocka_unit_test(test_min_max_nan_zero),
        cmocka_unit_test(test_abs_neg_copysign),
        cmocka_unit_test(test_half_arith),
        cmocka_unit_test(test_testp),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
