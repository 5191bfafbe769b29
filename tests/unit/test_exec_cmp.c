/*
** test_exec_cmp.c -- comparison and selection (exec_cmp.c): every setp
** operator on floats with NaN, signed vs unsigned integer compares, p|q
** with a boolean combine, .ftz, f16/f16x2 compares, set, selp, slct.
*/
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <math.h>
#include <cmocka.h>
#include "alu_harness.h"

#define R ah_reg

/* setp.<cmp>.<t> p0, r1, r2 on the lanes of `mask`; returns p0. */
static uint32_t setp(emu_warp *w, int cmp, int t, uint32_t mask)
{
    ptx_uop u = AH_U2(SETP, B32, ah_pred(0), R(1), R(2));
    u.type = (uint8_t)t;
    u.type2 = (uint8_t)t;
    u.cmp = (uint8_t)cmp;
    w->p[0] = 0;
    assert_int_equal(ah_run(w, &u, mask), 0);
    return w->p[0];
}

static void test_setp_float_all_ops(void **state)
{
    (void)state;
    float a[4] = { 1.0f, 2.0f, NAN, 2.0f }, b[4] = { 2.0f, 2.0f, 1.0f, 1.0f };
    emu_warp *w = ah_warp();
    for (int l = 0; l < 4; l++) {
        ah_set(w, 1, l, ah_f32(a[l]));
        ah_set(w, 2, l, ah_f32(b[l]));
    }
    struct { int cmp; uint32_t expect; } t[] = {
        { PTX_CMP_EQ, 0x2 },  { PTX_CMP_NE, 0x9 },  { PTX_CMP_LT, 0x1 },
        { PTX_CMP_LE, 0x3 },  { PTX_CMP_GT, 0x8 },  { PTX_CMP_GE, 0xa },
        { PTX_CMP_EQU, 0x6 }, { PTX_CMP_NEU, 0xd }, { PTX_CMP_LTU, 0x5 },
        { PTX_CMP_LEU, 0x7 }, { PTX_CMP_GTU, 0xc }, { PTX_CMP_GEU, 0xe },
        { PTX_CMP_NUM, 0xb }, { PTX_CMP_NAN, 0x4 },
    };
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++)
        assert_int_equal(setp(w, t[i].cmp, PTX_T_F32, 0xf), t[i].expect);
    /* same in f64 */
    for (int l = 0; l < 4; l++) {
        ah_set(w, 1, l, ah_f64(a[l]));
        ah_set(w, 2, l, ah_f64(b[l]));
    }
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++)
        assert_int_equal(setp(w, t[i].cmp, PTX_T_F64, 0xf), t[i].expect);
    /* and f16: 1.0h 2.0h NaN 2.0h vs 2.0h 2.0h 1.0h 1.0h */
    uint16_t ha[4] = { 0x3c00, 0x4000, 0x7e00, 0x4000 }, hb[4] = { 0x4000, 0x4000, 0x3c00, 0x3c00 };
    for (int l = 0; l < 4; l++) {
        ah_set(w, 1, l, ha[l]);
        ah_set(w, 2, l, hb[l]);
    }
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++)
        assert_int_equal(setp(w, t[i].cmp, PTX_T_F16, 0xf), t[i].expect);
    ah_free(w);
}

static void test_setp_int_signedness(void **state)
{
    (void)state;
    emu_warp *w = ah_warp();
    ah_set(w, 1, 0, (uint64_t)-1);   /* written by an s32 op: sign-extended */
    ah_set(w, 2, 0, 1);
    ah_set(w, 1, 1, 0xffffffffu);    /* written by a u32 op */
    ah_set(w, 2, 1, 1);
    ah_set(w, 1, 2, 5);
    ah_set(w, 2, 2, 5);
    assert_int_equal(setp(w, PTX_CMP_LT, PTX_T_S32, 7), 0x3);
    assert_int_equal(setp(w, PTX_CMP_LT, PTX_T_U32, 7), 0x0);
    assert_int_equal(setp(w, PTX_CMP_GT, PTX_T_U32, 7), 0x3);
    assert_int_equal(setp(w, PTX_CMP_HI, PTX_T_S32, 7), 0x3);   /* lo/hi are unsigned */
    assert_int_equal(setp(w, PTX_CMP_LO, PTX_T_S32, 7), 0x0);
    assert_int_equal(setp(w, PTX_CMP_EQ, PTX_T_S32, 7), 0x4);
    assert_int_equal(setp(w, PTX_CMP_NE, PTX_T_B32, 7), 0x3);
    assert_int_equal(setp(w, PTX_CMP_LE, PTX_T_S32, 7), 0x7);
    assert_int_equal(setp(w, PTX_CMP_GE, PTX_T_S32, 7), 0x4);
    assert_int_equal(setp(w, PTX_CMP_LS, PTX_T_U32, 7), 0x4);
    assert_int_equal(setp(w, PTX_CMP_HS, PTX_T_U32, 7), 0x7);
    /* s16: 0xffff is -1; s64 */
    ah_set(w, 1, 0, 0xffff);
    ah_set(w, 2, 0, 0);
    assert_int_equal(setp(w, PTX_CMP_LT, PTX_T_S16, 1), 1);
    assert_int_equal(setp(w, PTX_CMP_LT, PTX_T_U16, 1), 0);
    ah_set(w, 1, 0, (uint64_t)INT64_MIN);
    ah_set(w, 2, 0, 0);
    assert_int_equal(setp(w, PTX_CMP_LT, PTX_T_S64, 1), 1);
    assert_int_equal(setp(w, PTX_CMP_LT, PTX_T_U64, 1), 0);
    ah_free(w);
}

static void test_setp_pq_boolop_ftz(void **state)
{
    (void)state;
    emu_warp *w = ah_warp();
    for (int l = 0; l < 4; l++) {
        ah_set(w, 1, l, (uint64_t)l);
        ah_set(w, 2, l, 2);
    }
    w->p[3] = 0x5;   /* c */
    w->p[1] = w->p[2] = 0xf0000000u;
    /* setp.lt.and.s32 p1|p2, r1, r2, !p3: t = {1,1,0,0}, !c = {0,1,0,1} */
    ptx_uop u = AH_U3(SETP, S32, ah_pq(1, 2), R(1), R(2), ah_npred(3));
    u.cmp = PTX_CMP_LT;
    u.bop = PTX_BOP_AND;
    ah_run(w, &u, 0xf);
    assert_int_equal(w->p[1], 0xf0000002u);
    assert_int_equal(w->p[2], 0xf0000008u);
    u.bop = PTX_BOP_XOR;
    ah_run(w, &u, 0xf);
    assert_int_equal(w->p[1], 0xf0000009u);   /* {1,0,0,1} */
    assert_int_equal(w->p[2], 0xf0000006u);   /* {0,1,1,0} */
    u.bop = PTX_BOP_OR;
    ah_run(w, &u, 0x1);                        /* only lane 0 changes */
    assert_int_equal(w->p[1], 0xf0000009u);
    /* .ftz: a subnormal equals zero only when flushed */
    ah_set(w, 4, 0, ah_f32(ldexpf(1.0f, -130)));
    ah_set(w, 5, 0, 0);
    ptx_uop f = AH_U2(SETP, F32, ah_pred(0), R(4), R(5));
    f.cmp = PTX_CMP_EQ;
    ah_run(w, &f, 1);
    assert_int_equal(w->p[0] & 1, 0);
    f.flags = PTX_F_FTZ;
    ah_run(w, &f, 1);
    assert_int_equal(w->p[0] & 1, 1);
    /* f16x2: p from the low halves, q from the high halves */
    ah_set(w, 6, 0, 0x40003c00u);   /* {hi 2.0, lo 1.0} */
    ah_set(w, 7, 0, 0x3c004000u);   /* {hi 1.0, lo 2.0} */
    ptx_uop h = AH_U2(SETP, F16X2, ah_pq(0, 1), R(6), R(7));
    h.cmp = PTX_CMP_LT;
    w->p[0] = w->p[1] = 0;
    ah_run(w, &h, 1);
    assert_int_equal(w->p[0], 1);
    assert_int_equal(w->p[1], 0);
    ah_free(w);
}

static void test_set_selp_slct(void **state)
{
    (void)state;
    emu_warp *w = ah_warp();
    ah_set(w, 1, 0, 1);
    ah_set(w, 2, 0, 2);
    ah_set(w, 1, 1, 3);
    ah_set(w, 2, 1, 2);
    ptx_uop s = AH_U2(SET, U32, R(0), R(1), R(2));
    s.type2 = PTX_T_S32;
    s.cmp = PTX_CMP_LT;
    ah_run(w, &s, 3);
    assert_int_equal(ah_get(w, 0, 0), 0xffffffffu);
    assert_int_equal(ah_get(w, 0, 1), 0);
    s.type = PTX_T_F32;
    ah_run(w, &s, 3);
    assert_int_equal(ah_get(w, 0, 0), ah_f32(1.0f));
    assert_int_equal(ah_get(w, 0, 1), 0);
    s.type = PTX_T_S32;
    ah_run(w, &s, 1);
    assert_int_equal(ah_get(w, 0, 0), (uint64_t)-1);
    /* set.lt.or with c = p2 true in lane 1 */
    w->p[2] = 0x2;
    ptx_uop so = AH_U3(SET, U32, R(3), R(1), R(2), ah_pred(2));
    so.type2 = PTX_T_S32;
    so.cmp = PTX_CMP_LT;
    so.bop = PTX_BOP_OR;
    ah_run(w, &so, 3);
    assert_int_equal(ah_get(w, 3, 0), 0xffffffffu);
    assert_int_equal(ah_get(w, 3, 1), 0xffffffffu);
    /* selp: per-lane predicate */
    for (int l = 0; l < 32; l++) {
        ah_set(w, 4, l, 100 + (uint64_t)l);
        ah_set(w, 5, l, 200 + (uint64_t)l);
    }
    w->p[1] = 0xaaaaaaaau;
    ptx_uop sp = AH_U3(SELP, U32, R(6), R(4), R(5), ah_pred(1));
    ah_run(w, &sp, EMU_FULL_MASK);
    for (int l = 0; l < 32; l++)
        assert_int_equal(ah_get(w, 6, l), (l & 1 ? 100u : 200u) + (unsigned)l);
    /* slct: s32 selector */
    ah_set(w, 7, 0, 0);
    ah_set(w, 7, 1, (uint64_t)-1);
    ah_set(w, 7, 2, 0x7fffffff);
    ptx_uop sl = AH_U3(SLCT, U32, R(8), R(4), R(5), R(7));
    sl.type2 = PTX_T_S32;
    ah_run(w, &sl, 7);
    assert_int_equal(ah_get(w, 8, 0), 100);
    assert_int_equal(ah_get(w, 8, 1), 201);
    assert_int_equal(ah_get(w, 8, 2), 102);
    /* f32 selector: -0.0 picks a, NaN picks b, negative subnormal picks
       a only with .ftz */
    ah_set(w, 7, 0, 0x80000000u);
    ah_set(w, 7, 1, ah_f32(NAN));
    ah_set(w, 7, 2, ah_f32(-ldexpf(1.0f, -130)));
    sl.type2 = PTX_T_F32;
    ah_run(w, &sl, 7);
    assert_int_equal(ah_get(w, 8, 0), 100);
    assert_int_equal(ah_get(w, 8, 1), 201);
    assert_int_equal(ah_get(w, 8, 2), 202);
    sl.flags = PTX_F_FTZ;
    ah_run(w, &sl, 7);
    assert_int_equal(ah_get(w, 8, 2), 102);
    ah_free(w);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_setp_float_all_ops),
        cmocka_unit_test(test_setp_int_signedness),
        cmocka_unit_test(test_setp_pq_boolop_ftz),
        cmocka_unit_test(test_set_selp_slct),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
