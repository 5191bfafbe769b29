/*
** test_exec_cvt.c -- cvt (exec_cvt.c): float->int rounding and saturation,
** round-to-integral, f64->f32 and int->float rounding modes, int->int
** extension/truncation/.sat, f16 and bf16 conversions (overflow,
** subnormals, NaN, ties to even, directed modes), f16x2 packing.
*/
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <math.h>
#include <float.h>
#include <cmocka.h>
#include "alu_harness.h"

/* cvt.<rnd><flags>.<dt>.<st> on one value in lane 0. */
static uint64_t cvt1(int dt, int st, int rnd, uint32_t flags, uint64_t in)
{
    emu_warp *w = ah_warp();
    ah_set(w, 1, 0, in);
    ah_set(w, 0, 1, 0xabcdef);
    ptx_uop u = ah_uop(PTX_OP_CVT, dt, ah_reg(0), ah_reg(1), ah_none(), ah_none(), ah_none());
    u.type2 = (uint8_t)st;
    u.rnd = (uint8_t)rnd;
    u.flags = flags;
    assert_int_equal(ah_run(w, &u, 1), 0);
    assert_int_equal(ah_get(w, 0, 1), 0xabcdef);   /* lane 1 inactive */
    uint64_t r = ah_get(w, 0, 0);
    ah_free(w);
    return r;
}

#define F2I(dt, rnd, x) (int64_t)cvt1(PTX_T_##dt, PTX_T_F32, PTX_RND_##rnd, 0, ah_f32(x))

static void test_float_to_int_rounding(void **state)
{
    (void)state;
    assert_int_equal(F2I(S32, RNI, 2.5f), 2);
    assert_int_equal(F2I(S32, RNI, -2.5f), -2);
    assert_int_equal(F2I(S32, RNI, 1.5f), 2);
    assert_int_equal(F2I(S32, RZI, 2.5f), 2);
    assert_int_equal(F2I(S32, RZI, -2.5f), -2);
    assert_int_equal(F2I(S32, RMI, 2.5f), 2);
    assert_int_equal(F2I(S32, RMI, -2.5f), -3);
    assert_int_equal(F2I(S32, RPI, 2.5f), 3);
    assert_int_equal(F2I(S32, RPI, -2.5f), -2);
    assert_int_equal(F2I(S32, NONE, -2.7f), -2);   /* missing modifier: truncate */
}

static void test_float_to_int_saturation(void **state)
{
    (void)state;
    assert_int_equal(F2I(S32, RZI, 1e10f), INT32_MAX);
    assert_int_equal(F2I(S32, RZI, -1e10f), INT32_MIN);
    assert_int_equal(F2I(S32, RZI, NAN), 0);
    assert_int_equal(F2I(U32, RZI, -5.0f), 0);
    assert_int_equal(F2I(U32, RZI, 5e9f), 0xffffffffu);
    assert_int_equal(F2I(U8, RZI, 300.0f), 255);
    assert_int_equal(F2I(S8, RNI, -300.0f), -128);
    assert_int_equal(F2I(S16, RPI, INFINITY), INT16_MAX);
    assert_int_equal(cvt1(PTX_T_S64, PTX_T_F64, PTX_RND_RZI, 0, ah_f64(1e19)), (uint64_t)INT64_MAX);
    assert_int_equal(cvt1(PTX_T_S64, PTX_T_F64, PTX_RND_RZI, 0, ah_f64(-1e19)), (uint64_t)INT64_MIN);
    assert_int_equal(cvt1(PTX_T_U64, PTX_T_F64, PTX_RND_RZI, 0, ah_f64(1e20)), ~0ull);
    assert_int_equal(cvt1(PTX_T_U64, PTX_T_F64, PTX_RND_RZI, 0, ah_f64(ldexp(1.0, 63))), 1ull << 63);
    assert_int_equal(cvt1(PTX_T_S64, PTX_T_F64, PTX_RND_RNI, 0, ah_f64(-123456789012.5)),
                     (uint64_t)-123456789012ll);
    /* f16 source */
    assert_int_equal(cvt1(PTX_T_S32, PTX_T_F16, PTX_RND_RNI, 0, 0x4100), 2);   /* 2.5h */
}

static void test_round_to_integral(void **state)
{
    (void)state;
    float in[] = { 2.5f, -2.5f, 0.5f, -0.4f };
    float rni[] = { 2.0f, -2.0f, 0.0f, -0.0f }, rmi[] = { 2.0f, -3.0f, 0.0f, -1.0f };
    float rpi[] = { 3.0f, -2.0f, 1.0f, -0.0f }, rzi[] = { 2.0f, -2.0f, 0.0f, -0.0f };
    for (int i = 0; i < 4; i++) {
        assert_int_equal(cvt1(PTX_T_F32, PTX_T_F32, PTX_RND_RNI, 0, ah_f32(in[i])), ah_f32(rni[i]));
        assert_int_equal(cvt1(PTX_T_F32, PTX_T_F32, PTX_RND_RMI, 0, ah_f32(in[i])), ah_f32(rmi[i]));
        assert_int_equal(cvt1(PTX_T_F32, PTX_T_F32, PTX_RND_RPI, 0, ah_f32(in[i])), ah_f32(rpi[i]));
        assert_int_equal(cvt1(PTX_T_F32, PTX_T_F32, PTX_RND_RZI, 0, ah_f32(in[i])), ah_f32(rzi[i]));
    }
    assert_int_equal(cvt1(PTX_T_F64, PTX_T_F64, PTX_RND_RMI, 0, ah_f64(-7.25)), ah_f64(-8.0));
    /* .sat and .ftz on f32 -> f32 */
    assert_int_equal(cvt1(PTX_T_F32, PTX_T_F32, 0, PTX_F_SAT, ah_f32(NAN)), 0);
    assert_int_equal(cvt1(PTX_T_F32, PTX_T_F32, 0, PTX_F_SAT, ah_f32(1.5f)), ah_f32(1.0f));
    assert_int_equal(cvt1(PTX_T_F32, PTX_T_F32, 0, PTX_F_FTZ, ah_f32(ldexpf(1.0f, -130))), 0);
}

static void test_float_narrowing_modes(void **state)
{
    (void)state;
    double x = 1.0 + ldexp(1.0, -30);
    assert_int_equal(cvt1(PTX_T_F32, PTX_T_F64, PTX_RND_RN, 0, ah_f64(x)), ah_f32(1.0f));
    assert_int_equal(cvt1(PTX_T_F32, PTX_T_F64, PTX_RND_RP, 0, ah_f64(x)),
                     ah_f32(nextafterf(1.0f, 2.0f)));
    assert_int_equal(cvt1(PTX_T_F32, PTX_T_F64, PTX_RND_RM, 0, ah_f64(-x)),
                     ah_f32(nextafterf(-1.0f, -2.0f)));
    assert_int_equal(cvt1(PTX_T_F32, PTX_T_F64, PTX_RND_RN, 0, ah_f64(1e39)), ah_f32(INFINITY));
    assert_int_equal(cvt1(PTX_T_F32, PTX_T_F64, PTX_RND_RZ, 0, ah_f64(1e39)), ah_f32(FLT_MAX));
    assert_int_equal(cvt1(PTX_T_F64, PTX_T_F32, 0, 0, ah_f32(0.1f)), ah_f64((double)0.1f));
}

static void test_int_to_float(void **state)
{
    (void)state;
    uint64_t big = 16777217;   /* 2^24 + 1: not representable in f32 */
    assert_int_equal(cvt1(PTX_T_F32, PTX_T_S32, PTX_RND_RN, 0, big), ah_f32(16777216.0f));
    assert_int_equal(cvt1(PTX_T_F32, PTX_T_S32, PTX_RND_RP, 0, big), ah_f32(16777218.0f));
    assert_int_equal(cvt1(PTX_T_F32, PTX_T_S32, PTX_RND_RM, 0, (uint64_t)-16777217ll),
                     ah_f32(-16777218.0f));
    assert_int_equal(cvt1(PTX_T_F32, PTX_T_S32, PTX_RND_RN, 0, 0xffffffffu), ah_f32(-1.0f));
    assert_int_equal(cvt1(PTX_T_F32, PTX_T_U32, PTX_RND_RN, 0, 0xffffffffu), ah_f32(4294967296.0f));
    assert_int_equal(cvt1(PTX_T_F32, PTX_T_U64, PTX_RND_RZ, 0, ~0ull),
                     ah_f32(nextafterf(18446744073709551616.0f, 0.0f)));
    assert_int_equal(cvt1(PTX_T_F64, PTX_T_S64, PTX_RND_RN, 0, (uint64_t)-5), ah_f64(-5.0));
    assert_int_equal(cvt1(PTX_T_F16, PTX_T_S32, PTX_RND_RN, 0, 70000), 0x7c00);
    assert_int_equal(cvt1(PTX_T_F16, PTX_T_S32, PTX_RND_RZ, 0, 70000), 0x7bff);
    assert_int_equal(cvt1(PTX_T_F16, PTX_T_U8, PTX_RND_RN, 0, 200), 0x5a40);
    /* 2^62 + 2^54 + 1 lies just above a bf16 tie: must round up (no
       double rounding through the f64 conversion) */
    uint64_t v = (1ull << 62) + (1ull << 54) + 1;
    assert_int_equal(cvt1(PTX_T_BF16, PTX_T_U64, PTX_RND_RN, 0, v), 0x5e81);
    assert_int_equal(cvt1(PTX_T_BF16, PTX_T_U64, PTX_RND_RN, 0, v - 1), 0x5e80);
}

static void test_int_to_int(void **state)
{
    (void)state;
    assert_int_equal(cvt1(PTX_T_S32, PTX_T_S8, 0, 0, 0xff), (uint64_t)-1);
    assert_int_equal(cvt1(PTX_T_U32, PTX_T_S8, 0, 0, 0x80), 0xffffff80u);
    assert_int_equal(cvt1(PTX_T_U32, PTX_T_U8, 0, 0, 0x1ff), 0xff);
    assert_int_equal(cvt1(PTX_T_S16, PTX_T_U32, 0, 0, 0x1ffff), (uint64_t)-1);
    assert_int_equal(cvt1(PTX_T_U64, PTX_T_U32, 0, 0, 0xffffffffffffffffull), 0xffffffffu);
    assert_int_equal(cvt1(PTX_T_S64, PTX_T_S32, 0, 0, 0x80000000u), (uint64_t)(int64_t)INT32_MIN);
    assert_int_equal(cvt1(PTX_T_U8, PTX_T_S32, 0, PTX_F_SAT, (uint64_t)-5), 0);
    assert_int_equal(cvt1(PTX_T_U8, PTX_T_S32, 0, PTX_F_SAT, 300), 255);
    assert_int_equal(cvt1(PTX_T_S8, PTX_T_U32, 0, PTX_F_SAT, 200), 127);
    assert_int_equal(cvt1(PTX_T_S8, PTX_T_S32, 0, PTX_F_SAT, (uint64_t)-200), (uint64_t)-128);
    assert_int_equal(cvt1(PTX_T_S32, PTX_T_U64, 0, PTX_F_SAT, ~0ull), INT32_MAX);
    assert_int_equal(cvt1(PTX_T_U32, PTX_T_S64, 0, PTX_F_SAT, (uint64_t)-1), 0);
    assert_int_equal(cvt1(PTX_T_U64, PTX_T_S64, 0, PTX_F_SAT, (uint64_t)-1), 0);
}

#define TO_H(x, rnd) cvt1(PTX_T_F16, PTX_T_F32, PTX_RND_##rnd, 0, ah_f32(x))

static void test_f16_conversion(void **state)
{
    (void)state;
    assert_int_equal(TO_H(1.0f, RN), 0x3c00);
    assert_int_equal(TO_H(-2.0f, RN), 0xc000);
    assert_int_equal(TO_H(65504.0f, RN), 0x7bff);
    assert_int_equal(TO_H(65519.0f, RN), 0x7bff);
    assert_int_equal(TO_H(65520.0f, RN), 0x7c00);    /* ties to even: inf */
    assert_int_equal(TO_H(65520.0f, RZ), 0x7bff);
    assert_int_equal(TO_H(-65520.0f, RM), 0xfc00);
    assert_int_equal(TO_H(-65520.0f, RP), 0xfbff);
    assert_int_equal(TO_H(ldexpf(1.0f, -24), RN), 0x0001);   /* smallest subnormal */
    assert_int_equal(TO_H(ldexpf(1.0f, -25), RN), 0x0000);   /* tie to even: 0 */
    assert_int_equal(TO_H(ldexpf(3.0f, -26), RN), 0x0001);
    assert_int_equal(TO_H(ldexpf(1.0f, -25), RP), 0x0001);
    assert_int_equal(TO_H(ldexpf(1.0f, -14), RN), 0x0400);   /* smallest normal */
    assert_int_equal(TO_H(ldexpf(1023.0f, -24), RN), 0x03ff);
    assert_int_equal(TO_H(1.0f + ldexpf(1.0f, -11), RN), 0x3c00);       /* tie, even */
    assert_int_equal(TO_H(1.0f + ldexpf(3.0f, -11), RN), 0x3c02);       /* tie, odd: up */
    assert_int_equal(TO_H(1.0f + ldexpf(1.0f, -11), RP), 0x3c01);
    assert_int_equal(TO_H(NAN, RN), 0x7fff);
    assert_int_equal(TO_H(-INFINITY, RN), 0xfc00);
    assert_int_equal(TO_H(-0.0f, RN), 0x8000);
    /* widening is exact */
    assert_int_equal(cvt1(PTX_T_F32, PTX_T_F16, 0, 0, 0x0001), ah_f32(ldexpf(1.0f, -24)));
    assert_int_equal(cvt1(PTX_T_F32, PTX_T_F16, 0, 0, 0x7bff), ah_f32(65504.0f));
    assert_int_equal(cvt1(PTX_T_F32, PTX_T_F16, 0, 0, 0xfc00), ah_f32(-INFINITY));
    assert_true(isnan(ah_as_f32(cvt1(PTX_T_F32, PTX_T_F16, 0, 0, 0x7e00))));
    assert_int_equal(cvt1(PTX_T_F64, PTX_T_F16, 0, 0, 0x3555), ah_f64(0x155 / 1024.0 * 0.25 + 0.25));
    /* f64 -> f16 rounds once, from the exact value */
    assert_int_equal(cvt1(PTX_T_F16, PTX_T_F64, PTX_RND_RN, 0,
                          ah_f64(1.0 + ldexp(1.0, -11) + ldexp(1.0, -40))), 0x3c01);
    /* .relu */
    assert_int_equal(cvt1(PTX_T_F16, PTX_T_F32, PTX_RND_RN, PTX_F_RELU, ah_f32(-3.0f)), 0);
}

static void test_bf16_and_pack(void **state)
{
    (void)state;
    assert_int_equal(cvt1(PTX_T_BF16, PTX_T_F32, PTX_RND_RN, 0, ah_f32(1.0f)), 0x3f80);
    assert_int_equal(cvt1(PTX_T_BF16, PTX_T_F32, PTX_RND_RN, 0, ah_f32(1.0f + ldexpf(1, -8))), 0x3f80);
    assert_int_equal(cvt1(PTX_T_BF16, PTX_T_F32, PTX_RND_RN, 0, ah_f32(1.0f + ldexpf(3, -8))), 0x3f82);
    assert_int_equal(cvt1(PTX_T_BF16, PTX_T_F32, PTX_RND_RZ, 0, ah_f32(1.0f + ldexpf(3, -8))), 0x3f81);
    assert_int_equal(cvt1(PTX_T_BF16, PTX_T_F32, PTX_RND_RN, 0, ah_f32(FLT_MAX)), 0x7f80);
    assert_int_equal(cvt1(PTX_T_BF16, PTX_T_F32, PTX_RND_RZ, 0, ah_f32(FLT_MAX)), 0x7f7f);
    assert_int_equal(cvt1(PTX_T_BF16, PTX_T_F32, PTX_RND_RN, 0, ah_f32(NAN)), 0x7fff);
    assert_int_equal(cvt1(PTX_T_F32, PTX_T_BF16, 0, 0, 0x4049), ah_f32(3.140625f));
    assert_int_equal(cvt1(PTX_T_F16, PTX_T_BF16, PTX_RND_RN, 0, 0x3f80), 0x3c00);
    /* cvt.rna.tf32.f32: 10 mantissa bits, ties away from zero */
    assert_int_equal(cvt1(PTX_T_TF32, PTX_T_F32, PTX_RND_RNA, 0, ah_f32(1.0f + ldexpf(1, -11))),
                     0x3f802000u);
    assert_int_equal(cvt1(PTX_T_TF32, PTX_T_F32, PTX_RND_RNA, 0, ah_f32(-1.0f - ldexpf(1, -12))),
                     0xbf800000u);
    /* cvt.rn.f16x2.f32 d, a, b: a in the upper half */
    emu_warp *w = ah_warp();
    ah_set(w, 1, 0, ah_f32(1.0f));
    ah_set(w, 2, 0, ah_f32(2.0f));
    ptx_uop u = AH_U2(CVT, F16X2, ah_reg(0), ah_reg(1), ah_reg(2));
    u.type2 = PTX_T_F32;
    u.rnd = PTX_RND_RN;
    ah_run(w, &u, 1);
    assert_int_equal(ah_get(w, 0, 0), 0x3c004000u);
    u.type = PTX_T_BF16X2;
    ah_run(w, &u, 1);
    assert_int_equal(ah_get(w, 0, 0), 0x3f804000u);
    ah_free(w);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_float_to_int_rounding),
        cmocka_unit_test(test_float_to_int_saturation),
        cmocka_unit_test(test_round_to_integral),
        cmocka_unit_test(test_float_narrowing_modes),
        cmocka_unit_test(test_int_to_float),
        cmocka_unit_test(test_int_to_int),
        cmocka_unit_test(test_f16_conversion),
        cmocka_unit_test(test_bf16_and_pack),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
