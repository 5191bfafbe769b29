/*
** test_exec_int.c -- integer arithmetic handlers (exec_int.c): mov forms,
** add/sub with .sat and carry chains, mul/mad variants, mul24/mad24, sad,
** div/rem edge cases, abs/neg/min/max, dp4a/dp2a, and lane masking.
*/
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include "alu_harness.h"

#define R ah_reg

/* Lane l of slot 1 = a[l], slot 2 = b[l], then run and return the warp. */
static emu_warp *two_inputs(const int64_t *a, const int64_t *b, int n)
{
    emu_warp *w = ah_warp();
    for (int l = 0; l < n; l++) {
        ah_set(w, 1, l, (uint64_t)a[l]);
        ah_set(w, 2, l, (uint64_t)b[l]);
    }
    return w;
}

static void test_mov_forms(void **state)
{
    (void)state;
    emu_warp *w = ah_warp();
    for (int l = 0; l < 32; l++)
        ah_set(w, 1, l, 0x1000u + (unsigned)l);
    ptx_uop u = AH_U1(MOV, U32, R(0), R(1));
    assert_int_equal(ah_run(w, &u, EMU_FULL_MASK), 0);
    for (int l = 0; l < 32; l++)
        assert_int_equal(ah_get(w, 0, l), 0x1000u + (unsigned)l);

    u = AH_U1(MOV, S32, R(3), ah_imm(-5));
    ah_run(w, &u, EMU_FULL_MASK);
    assert_int_equal(ah_get(w, 3, 7), (uint64_t)-5);   /* stored sign-extended */

    /* pack: mov.b64 %rd, {%r1, %r2}: element 0 is the low word */
    ah_set_all(w, 4, 0xdeadbeefu);
    ah_set_all(w, 5, 0x12345678u);
    u = AH_U1(MOV, B64, R(6), ah_vec(2, 4, 5, -1, -1));
    ah_run(w, &u, EMU_FULL_MASK);
    assert_int_equal(ah_get(w, 6, 0), 0x12345678deadbeefull);

    /* unpack: mov.b64 {%r7, %r8}, %rd */
    u = AH_U1(MOV, B64, ah_vec(2, 7, 8, -1, -1), R(6));
    ah_run(w, &u, EMU_FULL_MASK);
    assert_int_equal(ah_get(w, 7, 3), 0xdeadbeefu);
    assert_int_equal(ah_get(w, 8, 3), 0x12345678u);

    /* mov.b32 {%h1, %h2}, %r with a sink for the upper half */
    ah_set_all(w, 9, 0xaaaabbbbu);
    u = AH_U1(MOV, B32, ah_vec(2, 10, -1, -1, -1), R(9));
    ah_run(w, &u, EMU_FULL_MASK);
    assert_int_equal(ah_get(w, 10, 0), 0xbbbbu);
    u = AH_U1(MOV, B32, R(11), ah_vec(2, 10, 10, -1, -1));
    ah_run(w, &u, EMU_FULL_MASK);
    assert_int_equal(ah_get(w, 11, 0), 0xbbbbbbbbu);

    /* mov.pred p1, !p0 */
    w->p[0] = 0x0000ffffu;
    u = AH_U1(MOV, PRED, ah_pred(1), ah_npred(0));
    ah_run(w, &u, EMU_FULL_MASK);
    assert_int_equal(w->p[1], 0xffff0000u);
    ah_free(w);
}

static void test_only_masked_lanes_written(void **state)
{
    (void)state;
    emu_warp *w = ah_warp();
    ah_set_all(w, 0, 777);
    for (int l = 0; l < 32; l++) {
        ah_set(w, 1, l, (uint64_t)l);
        ah_set(w, 2, l, 100);
    }
    ptx_uop u = AH_U2(ADD, U32, R(0), R(1), R(2));
    uint32_t mask = 0x0f0f00a5u;
    assert_int_equal(ah_run(w, &u, mask), 0);
    for (int l = 0; l < 32; l++)
        assert_int_equal(ah_get(w, 0, l), (mask >> l) & 1 ? 100u + (unsigned)l : 777u);
    ah_free(w);
}

static void test_add_sub_sat(void **state)
{
    (void)state;
    int64_t a[] = { INT32_MAX, INT32_MIN, 5, -7, 0x7fff };
    int64_t b[] = { 1, -1, 6, -8, 1 };
    emu_warp *w = two_inputs(a, b, 5);
    ptx_uop u = AH_U2(ADD, S32, R(0), R(1), R(2));
    u.flags = PTX_F_SAT;
    ah_run(w, &u, 0x1f);
    assert_int_equal((int64_t)ah_get(w, 0, 0), INT32_MAX);
    assert_int_equal((int64_t)ah_get(w, 0, 1), INT32_MIN);
    assert_int_equal((int64_t)ah_get(w, 0, 2), 11);
    assert_int_equal((int64_t)ah_get(w, 0, 3), -15);
    u.op = PTX_OP_SUB;
    ah_run(w, &u, 0x1f);
    assert_int_equal((int64_t)ah_get(w, 0, 0), INT32_MAX - 1);
    assert_int_equal((int64_t)ah_get(w, 0, 1), INT32_MIN + 1);
    assert_int_equal((int64_t)ah_get(w, 0, 3), 1);
    /* without .sat add wraps */
    u.op = PTX_OP_ADD;
    u.flags = 0;
    ah_run(w, &u, 0x1);
    assert_int_equal((int64_t)ah_get(w, 0, 0), INT32_MIN);
    /* u16 wraps in 16 bits */
    u.type = PTX_T_U16;
    ah_run(w, &u, 0x10);
    assert_int_equal(ah_get(w, 0, 4), 0x8000u);
    ah_free(w);
}

/* 64-bit add and subtract built from 32-bit .cc chains. */
static void test_carry_chains(void **state)
{
    (void)state;
    uint64_t x[] = { 0xffffffffull, 0x00000001ffffffffull, 0x123456789abcdef0ull, 0 };
    uint64_t y[] = { 1, 0xffffffffull, 0x0fedcba987654321ull, 1 };
    emu_warp *w = ah_warp();
    for (int l = 0; l < 4; l++) {
        ah_set(w, 1, l, (uint32_t)x[l]);
        ah_set(w, 2, l, x[l] >> 32);
        ah_set(w, 3, l, (uint32_t)y[l]);
        ah_set(w, 4, l, y[l] >> 32);
    }
    ptx_uop lo = AH_U2(ADD, U32, R(5), R(1), R(3));
    lo.flags = PTX_F_CC;
    ptx_uop hi = AH_U2(ADDC, U32, R(6), R(2), R(4));
    ah_run(w, &lo, 0xf);
    ah_run(w, &hi, 0xf);
    for (int l = 0; l < 4; l++) {
        uint64_t s = x[l] + y[l];
        assert_int_equal(ah_get(w, 5, l), (uint32_t)s);
        assert_int_equal(ah_get(w, 6, l), (uint32_t)(s >> 32));
    }
    lo.op = PTX_OP_SUB;
    hi.op = PTX_OP_SUBC;
    ah_run(w, &lo, 0xf);
    ah_run(w, &hi, 0xf);
    for (int l = 0; l < 4; l++) {
        uint64_t s = x[l] - y[l];
        assert_int_equal(ah_get(w, 5, l), (uint32_t)s);
        assert_int_equal(ah_get(w, 6, l), (uint32_t)(s >> 32));
    }
    /* 64-bit add.cc sets carry on wrap; carry of inactive lanes is kept */
    w->carry = 0x80000000u;
    ah_set(w, 7, 0, ~0ull);
    ah_set(w, 8, 0, 2);
    ptx_uop c64 = AH_U2(ADD, U64, R(9), R(7), R(8));
    c64.flags = PTX_F_CC;
    ah_run(w, &c64, 0x1);
    assert_int_equal(ah_get(w, 9, 0), 1);
    assert_int_equal(w->carry, 0x80000001u);
    ah_free(w);
}

static void test_mul_variants(void **state)
{
    (void)state;
    int64_t a[] = { -3, 0x7fffffff, -2, 0x12345678 };
    int64_t b[] = { 7, 0x7fffffff, 0x40000000, 0x9abcdef0 };
    emu_warp *w = two_inputs(a, b, 4);
    ptx_uop u = AH_U2(MUL, S32, R(0), R(1), R(2));
    u.sub = PTX_MUL_LO;
    ah_run(w, &u, 0xf);
    assert_int_equal((int64_t)ah_get(w, 0, 0), -21);
    assert_int_equal((int64_t)ah_get(w, 0, 1), 1);    /* low word of (2^31-1)^2 */
    u.sub = PTX_MUL_HI;
    ah_run(w, &u, 0xf);
    assert_int_equal((int64_t)ah_get(w, 0, 0), -1);
    assert_int_equal((int64_t)ah_get(w, 0, 1), 0x3fffffff);
    assert_int_equal((int64_t)ah_get(w, 0, 2), -1);   /* -2 * 2^30 = -2^31 */
    u.sub = PTX_MUL_WIDE;
    ah_run(w, &u, 0xf);
    assert_int_equal((int64_t)ah_get(w, 0, 0), -21);
    assert_int_equal((int64_t)ah_get(w, 0, 3),
                     (int64_t)0x12345678 * (int64_t)(int32_t)0x9abcdef0);
    u.type = PTX_T_U32;
    ah_run(w, &u, 0xf);
    assert_int_equal(ah_get(w, 0, 3), 0x12345678ull * 0x9abcdef0ull);
    u.sub = PTX_MUL_HI;
    ah_run(w, &u, 0xf);
    assert_int_equal(ah_get(w, 0, 0), 6);   /* 0xfffffffd * 7 >> 32 */
    /* 64-bit high halves */
    ah_set(w, 1, 0, ~0ull);
    ah_set(w, 2, 0, ~0ull);
    u.type = PTX_T_U64;
    ah_run(w, &u, 0x1);
    assert_int_equal(ah_get(w, 0, 0), ~0ull - 1);
    u.type = PTX_T_S64;
    ah_run(w, &u, 0x1);
    assert_int_equal(ah_get(w, 0, 0), 0);   /* (-1)*(-1) = 1: high word 0 */
    ah_free(w);
}

static void test_mad_variants(void **state)
{
    (void)state;
    emu_warp *w = ah_warp();
    ah_set(w, 1, 0, (uint64_t)-4);
    ah_set(w, 2, 0, 5);
    ah_set(w, 3, 0, 100);
    ptx_uop u = AH_U3(MAD, S32, R(0), R(1), R(2), R(3));
    u.sub = PTX_MUL_LO;
    ah_run(w, &u, 1);
    assert_int_equal((int64_t)ah_get(w, 0, 0), 80);
    u.sub = PTX_MUL_WIDE;
    ah_set(w, 1, 1, 0x40000000);
    ah_set(w, 2, 1, 0x10);
    ah_set(w, 3, 1, 1);
    ah_run(w, &u, 2);
    assert_int_equal(ah_get(w, 0, 1), 0x400000001ull);
    u.sub = PTX_MUL_HI;
    u.flags = PTX_F_SAT;
    ah_set(w, 1, 2, 0x7fffffff);
    ah_set(w, 2, 2, 0x7fffffff);
    ah_set(w, 3, 2, 0x7fffffff);
    ah_run(w, &u, 4);
    assert_int_equal((int64_t)ah_get(w, 0, 2), INT32_MAX);
    /* madc.lo.cc chain: carry out of the add */
    ptx_uop m = AH_U3(MAD, U32, R(4), R(1), R(2), R(3));
    m.sub = PTX_MUL_LO;
    m.flags = PTX_F_CC;
    ah_set(w, 1, 3, 1);
    ah_set(w, 2, 3, 0xffffffffu);
    ah_set(w, 3, 3, 1);
    ah_run(w, &m, 8);
    assert_int_equal(ah_get(w, 4, 3), 0);
    assert_true(w->carry & 8);
    ptx_uop mc = AH_U3(MADC, U32, R(5), R(1), R(1), R(1));
    mc.sub = PTX_MUL_LO;
    ah_run(w, &mc, 8);
    assert_int_equal(ah_get(w, 5, 3), 3);   /* 1*1 + 1 + carry */
    ah_free(w);
}

static void test_mul24_sad(void **state)
{
    (void)state;
    emu_warp *w = ah_warp();
    ah_set(w, 1, 0, 0xff123456);   /* upper 8 bits ignored */
    ah_set(w, 2, 0, 0x00000100);
    ah_set(w, 1, 1, 0x00800000);   /* -2^23 as s24 */
    ah_set(w, 2, 1, 2);
    ptx_uop u = AH_U2(MUL24, U32, R(0), R(1), R(2));
    u.sub = PTX_MUL_LO;
    ah_run(w, &u, 3);
    assert_int_equal(ah_get(w, 0, 0), 0x12345600u);
    u.sub = PTX_MUL_HI;
    ah_run(w, &u, 3);
    assert_int_equal(ah_get(w, 0, 0), 0x00001234u);
    u.type = PTX_T_S32;
    u.sub = PTX_MUL_LO;
    ah_run(w, &u, 2);
    assert_int_equal((int64_t)ah_get(w, 0, 1), -(1 << 24));
    ptx_uop m = AH_U3(MAD24, U32, R(3), R(1), R(2), ah_imm(5));
    m.sub = PTX_MUL_LO;
    ah_run(w, &m, 1);
    assert_int_equal(ah_get(w, 3, 0), 0x12345605u);
    /* sad: |a-b| + c, signed and unsigned */
    ah_set(w, 4, 0, (uint64_t)-3);
    ah_set(w, 5, 0, 4);
    ptx_uop s = AH_U3(SAD, S32, R(6), R(4), R(5), ah_imm(10));
    ah_run(w, &s, 1);
    assert_int_equal(ah_get(w, 6, 0), 17);
    s.type = PTX_T_U32;
    ah_run(w, &s, 1);
    assert_int_equal(ah_get(w, 6, 0), (uint32_t)(0xfffffffdu - 4u + 10u));
    ah_free(w);
}

static void test_div_rem_edges(void **state)
{
    (void)state;
    int64_t a[] = { 7, -7, INT32_MIN, 5, -9, 123 };
    int64_t b[] = { 2, 2, -1, 0, 0, -10 };
    emu_warp *w = two_inputs(a, b, 6);
    ptx_uop u = AH_U2(DIV, S32, R(0), R(1), R(2));
    assert_int_equal(ah_run(w, &u, 0x3f), 0);
    assert_int_equal((int64_t)ah_get(w, 0, 0), 3);
    assert_int_equal((int64_t)ah_get(w, 0, 1), -3);
    assert_int_equal((int64_t)ah_get(w, 0, 2), INT32_MIN);
    assert_int_equal((int64_t)ah_get(w, 0, 3), -1);
    assert_int_equal((int64_t)ah_get(w, 0, 5), -12);
    u.op = PTX_OP_REM;
    ah_run(w, &u, 0x3f);
    assert_int_equal((int64_t)ah_get(w, 0, 0), 1);
    assert_int_equal((int64_t)ah_get(w, 0, 1), -1);
    assert_int_equal((int64_t)ah_get(w, 0, 2), 0);
    assert_int_equal((int64_t)ah_get(w, 0, 3), 5);
    assert_int_equal((int64_t)ah_get(w, 0, 4), -9);
    assert_int_equal((int64_t)ah_get(w, 0, 5), 3);
    u.type = PTX_T_U32;
    u.op = PTX_OP_DIV;
    ah_run(w, &u, 0x3f);
    assert_int_equal(ah_get(w, 0, 1), 0xfffffff9u / 2);
    assert_int_equal(ah_get(w, 0, 3), 0xffffffffu);
    /* s64 MIN / -1 must not trap the host */
    ah_set(w, 1, 0, (uint64_t)INT64_MIN);
    ah_set(w, 2, 0, (uint64_t)-1);
    u.type = PTX_T_S64;
    ah_run(w, &u, 1);
    assert_int_equal(ah_get(w, 0, 0), (uint64_t)INT64_MIN);
    u.op = PTX_OP_REM;
    ah_run(w, &u, 1);
    assert_int_equal(ah_get(w, 0, 0), 0);
    /* garbage in inactive lanes (zero divisors) is harmless */
    u.op = PTX_OP_DIV;
    ah_run(w, &u, 0);
    ah_free(w);
}

static void test_abs_neg_min_max(void **state)
{
    (void)state;
    int64_t a[] = { INT32_MIN, -5, 3, -1 };
    int64_t b[] = { 0, 2, -4, 1 };
    emu_warp *w = two_inputs(a, b, 4);
    ptx_uop u = AH_U1(ABS, S32, R(0), R(1));
    ah_run(w, &u, 0xf);
    assert_int_equal((int64_t)ah_get(w, 0, 0), INT32_MIN);
    assert_int_equal((int64_t)ah_get(w, 0, 1), 5);
    u.op = PTX_OP_NEG;
    ah_run(w, &u, 0xf);
    assert_int_equal((int64_t)ah_get(w, 0, 0), INT32_MIN);
    assert_int_equal((int64_t)ah_get(w, 0, 2), -3);
    ptx_uop m = AH_U2(MIN, S32, R(0), R(1), R(2));
    ah_run(w, &m, 0xf);
    assert_int_equal((int64_t)ah_get(w, 0, 1), -5);
    assert_int_equal((int64_t)ah_get(w, 0, 2), -4);
    m.type = PTX_T_U32;   /* -1 is the largest u32 */
    ah_run(w, &m, 0xf);
    assert_int_equal(ah_get(w, 0, 3), 1);
    m.op = PTX_OP_MAX;
    ah_run(w, &m, 0xf);
    assert_int_equal(ah_get(w, 0, 3), 0xffffffffu);
    m.type = PTX_T_S32;
    m.flags = PTX_F_RELU;
    ah_run(w, &m, 0xf);
    assert_int_equal(ah_get(w, 0, 1), 2);
    assert_int_equal(ah_get(w, 0, 3), 1);
    m.flags = 0;
    m.type = PTX_T_S16;   /* 0xffff is -1 as s16 */
    ah_set(w, 1, 0, 0xffff);
    ah_set(w, 2, 0, 3);
    ah_run(w, &m, 1);
    assert_int_equal(ah_get(w, 0, 0), 3);
    ah_free(w);
}

static void test_dot_products(void **state)
{
    (void)state;
    emu_warp *w = ah_warp();
    ah_set_all(w, 1, 0x01ff0302u);  /* bytes 2, 3, -1/255, 1 */
    ah_set_all(w, 2, 0x04030201u);
    ptx_uop u = AH_U3(DP4A, U32, R(0), R(1), R(2), ah_imm(10));
    u.type2 = PTX_T_U32;
    ah_run(w, &u, 1);
    assert_int_equal(ah_get(w, 0, 0), 10u + 2 * 1 + 3 * 2 + 255 * 3 + 1 * 4);
    u.type2 = PTX_T_S32;   /* a signed, b unsigned */
    ah_run(w, &u, 1);
    assert_int_equal((int64_t)ah_get(w, 0, 0), 10 + 2 + 6 - 3 + 4);
    /* dp2a: a = {-2, 3} as s16, b bytes {1,2,3,4} */
    ah_set_all(w, 3, 0x0003fffeu);
    ptx_uop d2 = AH_U3(DP2A, U32, R(4), R(3), R(2), ah_imm(0));
    d2.type2 = PTX_T_S32;
    d2.sub = PTX_MUL_LO;
    ah_run(w, &d2, 1);
    assert_int_equal((int64_t)ah_get(w, 4, 0), -2 * 1 + 3 * 2);
    d2.sub = PTX_MUL_HI;
    ah_run(w, &d2, 1);
    assert_int_equal((int64_t)ah_get(w, 4, 0), -2 * 3 + 3 * 4);
    ah_free(w);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_mov_forms),
        cmocka_unit_test(test_only_masked_lanes_written),
        cmocka_unit_test(test_add_sub_sat),
        cmocka_unit_test(test_carry_chains),
        cmocka_unit_test(test_mul_variants),
        cmocka_unit_test(test_mad_variants),
        cmocka_unit_test(test_mul24_sad),
        cmocka_unit_test(test_div_rem_edges),
        cmocka_unit_test(test_abs_neg_min_max),
        cmocka_unit_test(test_dot_products),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
