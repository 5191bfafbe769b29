/*
** test_exec_bit.c -- bit manipulation and logic (exec_bit.c): popc, clz,
** bfind, fns, brev, bfe, bfi, bmsk, szext, prmt (all modes), lop3, shf,
** shl/shr past the width, and/or/xor/not/cnot on integers and predicates.
*/
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include "alu_harness.h"

#define R ah_reg
#define I ah_imm

/* One instruction on lane 0 with immediate sources; returns d. */
static uint64_t run1(ptx_uop u)
{
    emu_warp *w = ah_warp();
    ah_set(w, 0, 1, 0x5a5a);
    assert_int_equal(ah_run(w, &u, 1), 0);
    assert_int_equal(ah_get(w, 0, 1), 0x5a5a);   /* lane 1 not in the mask */
    uint64_t r = ah_get(w, 0, 0);
    ah_free(w);
    return r;
}

#define OP1(op, t, a) run1(AH_U1(op, t, R(0), I(a)))
#define OP2(op, t, a, b) run1(AH_U2(op, t, R(0), I(a), I(b)))
#define OP3(op, t, a, b, c) run1(AH_U3(op, t, R(0), I(a), I(b), I(c)))

static void test_count_and_find(void **state)
{
    (void)state;
    assert_int_equal(OP1(POPC, B32, 0xf0f0f0f0), 16);
    assert_int_equal(OP1(POPC, B64, -1), 64);
    assert_int_equal(OP1(CLZ, B32, 0), 32);
    assert_int_equal(OP1(CLZ, B32, 0x00010000), 15);
    assert_int_equal(OP1(CLZ, B64, 1), 63);
    assert_int_equal(OP1(BFIND, U32, 0), 0xffffffffu);
    assert_int_equal(OP1(BFIND, U32, 0x00100100), 20);
    assert_int_equal(OP1(BFIND, S32, -1), 0xffffffffu);
    assert_int_equal(OP1(BFIND, S32, -2), 0);
    assert_int_equal(OP1(BFIND, S32, 0xffff0000), 15);
    assert_int_equal(OP1(BFIND, S64, 1ll << 40), 40);
    ptx_uop u = AH_U1(BFIND, U32, R(0), I(0x00100100));
    u.flags = PTX_F_SHIFTAMT;
    assert_int_equal(run1(u), 11);
    /* fns: the ISA's examples plus misses */
    assert_int_equal(OP3(FNS, B32, 0xaaaaaaaa, 3, 1), 3);
    assert_int_equal(OP3(FNS, B32, 0xaaaaaaaa, 3, -1), 3);
    assert_int_equal(OP3(FNS, B32, 0xaaaaaaaa, 2, 1), 3);
    assert_int_equal(OP3(FNS, B32, 0xaaaaaaaa, 2, -1), 1);
    assert_int_equal(OP3(FNS, B32, 0xaaaaaaaa, 2, 0), 0xffffffffu);
    assert_int_equal(OP3(FNS, B32, 0xaaaaaaaa, 3, 0), 3);
    assert_int_equal(OP3(FNS, B32, 0xaaaaaaaa, 0, 3), 5);
    assert_int_equal(OP3(FNS, B32, 0x00000001, 1, 1), 0xffffffffu);
    assert_int_equal(OP1(BREV, B32, 1), 0x80000000u);
    assert_int_equal(OP1(BREV, B32, 0x12345678), 0x1e6a2c48u);
    assert_int_equal(OP1(BREV, B64, 3), 0xc000000000000000ull);
}

static void test_bit_fields(void **state)
{
    (void)state;
    assert_int_equal(OP3(BFE, U32, 0x12345678, 4, 8), 0x67);
    assert_int_equal(OP3(BFE, S32, 0xf0, 4, 4), (uint64_t)-1);
    assert_int_equal(OP3(BFE, S32, 0x70, 4, 4), 7);
    assert_int_equal(OP3(BFE, S32, 0xf0, 4, 0), 0);
    assert_int_equal(OP3(BFE, U32, 0xffffffff, 32, 8), 0);
    assert_int_equal(OP3(BFE, S32, 0x80000000, 40, 5), (uint64_t)-1);   /* all sign */
    assert_int_equal(OP3(BFE, U32, 0xf0000000, 28, 200), 0xf);         /* clipped */
    assert_int_equal(OP3(BFE, U32, 0x12345678, 0x104, 0x108), 0x67);    /* low 8 bits only */
    assert_int_equal(OP3(BFE, U64, 0x123456789abcdef0ll, 32, 16), 0x5678);
    assert_int_equal(OP3(BFE, S64, 0x8000000000000000ll, 60, 4), (uint64_t)-8);
    assert_int_equal(run1(ah_uop(PTX_OP_BFI, PTX_T_B32, R(0), I(0xff), I(0), I(4), I(4))), 0xf0);
    assert_int_equal(run1(ah_uop(PTX_OP_BFI, PTX_T_B32, R(0), I(0xff), I(0), I(30), I(8))),
                     0xc0000000u);
    assert_int_equal(run1(ah_uop(PTX_OP_BFI, PTX_T_B32, R(0), I(0xff), I(0x1234), I(4), I(0))),
                     0x1234);
    assert_int_equal(run1(ah_uop(PTX_OP_BFI, PTX_T_B32, R(0), I(1), I(0x1234), I(40), I(4))),
                     0x1234);
    assert_int_equal(run1(ah_uop(PTX_OP_BFI, PTX_T_B64, R(0), I(0xab), I(0), I(56), I(8))),
                     0xab00000000000000ull);
    ptx_uop u = AH_U2(BMSK, B32, R(0), I(1), I(2));
    assert_int_equal(run1(u), 0x6);                        /* wrap */
    u = AH_U2(BMSK, B32, R(0), I(28), I(8));
    assert_int_equal(run1(u), 0xf0000000u);                /* sum overflows */
    u = AH_U2(BMSK, B32, R(0), I(33), I(2));
    assert_int_equal(run1(u), 0x6);                        /* wrap: a & 31 */
    u.flags = PTX_F_CLAMP;
    assert_int_equal(run1(u), 0);                          /* clamp: a >= 32 */
    u = AH_U2(BMSK, B32, R(0), I(4), I(40));
    u.flags = PTX_F_CLAMP;
    assert_int_equal(run1(u), 0xfffffff0u);
    u = AH_U2(SZEXT, U32, R(0), I(0xffffffff), I(0));
    assert_int_equal(run1(u), 0);
    u = AH_U2(SZEXT, S32, R(0), I(0x80), I(8));
    assert_int_equal(run1(u), (uint64_t)(int64_t)(int32_t)0xffffff80u);
    u = AH_U2(SZEXT, U32, R(0), I(0x1ff), I(8));
    assert_int_equal(run1(u), 0xff);
    u = AH_U2(SZEXT, S32, R(0), I(0x80000000), I(40));
    u.flags = PTX_F_CLAMP;
    assert_int_equal(run1(u), (uint64_t)(int64_t)INT32_MIN);
    u.flags = 0;   /* wrap: N = 8 */
    assert_int_equal(run1(u), 0);
}

static void test_prmt(void **state)
{
    (void)state;
    int64_t a = 0x33221100, b = 0x77665544;
    ptx_uop u = AH_U3(PRMT, B32, R(0), I(a), I(b), I(0x3210));
    assert_int_equal(run1(u), 0x33221100u);
    u.opd[3] = I(0x7654);
    assert_int_equal(run1(u), 0x77665544u);
    u.opd[3] = I(0x0415);
    assert_int_equal(run1(u), 0x00441155u);
    /* msb of a selector replicates the byte's sign */
    u = AH_U3(PRMT, B32, R(0), I(0x00000080), I(0), I(0x0008));
    assert_int_equal(run1(u), 0x808080ffu);
    struct { int mode, c; uint32_t expect; } m[] = {
        { PTX_PRMT_F4E, 1, 0x44332211u }, { PTX_PRMT_F4E, 3, 0x66554433u },
        { PTX_PRMT_B4E, 0, 0x55667700u }, { PTX_PRMT_B4E, 1, 0x66770011u },
        { PTX_PRMT_B4E, 2, 0x77001122u }, { PTX_PRMT_B4E, 3, 0x00112233u },
        { PTX_PRMT_ECL, 2, 0x33222222u }, { PTX_PRMT_ECR, 1, 0x11111100u },
        { PTX_PRMT_RC8, 2, 0x22222222u }, { PTX_PRMT_ECL, 1, 0x33221111u },
        { PTX_PRMT_ECR, 2, 0x22221100u }, { PTX_PRMT_RC16, 1, 0x33223322u },
        { PTX_PRMT_RC16, 0, 0x11001100u },
    };
    for (size_t i = 0; i < sizeof m / sizeof m[0]; i++) {
        u = AH_U3(PRMT, B32, R(0), I(a), I(b), I(m[i].c | 0x100));   /* only c & 3 counts */
        u.sub = (uint8_t)m[i].mode;
        assert_int_equal(run1(u), m[i].expect);
    }
}

static void test_lop3_shf(void **state)
{
    (void)state;
    int64_t a = 0xf0f0ff00, b = 0xcccc0ff0, c = 0xaaaa3c3c;
    struct { int lut; uint32_t expect; } t[] = {
        { 0x96, (uint32_t)(a ^ b ^ c) },
        { 0xe8, (uint32_t)((a & b) | (a & c) | (b & c)) },
        { 0xf0, (uint32_t)a }, { 0x80, (uint32_t)(a & b & c) },
        { 0x00, 0 }, { 0xff, 0xffffffffu }, { 0x1, (uint32_t)~(a | b | c) },
    };
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
        ptx_uop u = ah_uop(PTX_OP_LOP3, PTX_T_B32, R(0), I(a), I(b), I(c), I(t[i].lut));
        assert_int_equal(run1(u), t[i].expect);
    }
    ptx_uop s = AH_U3(SHF, B32, R(0), I(0x80000001), I(1), I(4));
    s.sub = PTX_SHF_L;
    assert_int_equal(run1(s), 0x18);
    s.sub = PTX_SHF_R;
    assert_int_equal(run1(s), 0x18000000u);
    s.opd[3] = I(36);          /* wrap: 36 & 31 = 4 */
    assert_int_equal(run1(s), 0x18000000u);
    s.flags = PTX_F_CLAMP;     /* clamp: 32 -> b */
    assert_int_equal(run1(s), 1);
    s.sub = PTX_SHF_L;         /* clamp: 32 -> a */
    assert_int_equal(run1(s), 0x80000001u);
}

static void test_shifts(void **state)
{
    (void)state;
    assert_int_equal(OP2(SHL, B32, 1, 31), 0x80000000u);
    assert_int_equal(OP2(SHL, B32, 1, 32), 0);
    assert_int_equal(OP2(SHL, B32, 1, 0x7fffffff), 0);
    assert_int_equal(OP2(SHL, B16, 0xff, 12), 0xf000);
    assert_int_equal(OP2(SHL, B16, 1, 16), 0);
    assert_int_equal(OP2(SHL, B64, 1, 63), 0x8000000000000000ull);
    assert_int_equal(OP2(SHL, B64, 1, 64), 0);
    assert_int_equal(OP2(SHR, S32, -8, 1), (uint64_t)-4);
    assert_int_equal(OP2(SHR, S32, -8, 40), (uint64_t)-1);
    assert_int_equal(OP2(SHR, S32, 8, 40), 0);
    assert_int_equal(OP2(SHR, U32, 0x80000000, 31), 1);
    assert_int_equal(OP2(SHR, U32, 0x80000000, 32), 0);
    assert_int_equal(OP2(SHR, S16, 0x8000, 20), (uint64_t)-1);
    assert_int_equal(OP2(SHR, S64, INT64_MIN, 100), (uint64_t)-1);
    /* a b32 shift ignores bits above 32 left by a sign-extended writer */
    assert_int_equal(OP2(SHR, B32, (int64_t)(int32_t)0x80000000, 4), 0x08000000u);
    assert_int_equal(OP2(SHR, U16, 0xffff8000, 15), 1);
}

static void test_logic(void **state)
{
    (void)state;
    assert_int_equal(OP2(AND, B32, 0xff00ff00, 0x0ff00ff0), 0x0f000f00u);
    assert_int_equal(OP2(OR, B32, 0xff00ff00, 0x0ff00ff0), 0xfff0fff0u);
    assert_int_equal(OP2(XOR, B32, 0xff00ff00, 0x0ff00ff0), 0xf0f0f0f0u);
    assert_int_equal(OP1(NOT, B32, 0), 0xffffffffu);
    assert_int_equal(OP1(NOT, B16, 0x00ff), 0xff00);
    assert_int_equal(OP1(NOT, B64, 0), ~0ull);
    assert_int_equal(OP1(CNOT, B32, 0), 1);
    assert_int_equal(OP1(CNOT, B32, 5), 0);
    assert_int_equal(OP1(CNOT, B16, 0x10000), 1);
    /* predicates: whole lane masks, only masked lanes change */
    emu_warp *w = ah_warp();
    w->p[0] = 0xff00ff00u;
    w->p[1] = 0x0ff00ff0u;
    w->p[2] = 0x12345678u;
    ptx_uop u = AH_U2(AND, PRED, ah_pred(2), ah_pred(0), ah_pred(1));
    ah_run(w, &u, 0xffff0000u);
    assert_int_equal(w->p[2], 0x0f005678u);
    u = AH_U2(OR, PRED, ah_pred(3), ah_pred(0), ah_npred(1));
    ah_run(w, &u, EMU_FULL_MASK);
    assert_int_equal(w->p[3], 0xff00ff00u | ~0x0ff00ff0u);
    u = AH_U2(XOR, PRED, ah_pred(3), ah_pred(0), ah_pred(1));
    ah_run(w, &u, EMU_FULL_MASK);
    assert_int_equal(w->p[3], 0xf0f0f0f0u);
    u = AH_U1(NOT, PRED, ah_pred(4), ah_pred(0));
    ah_run(w, &u, 0x0000ffffu);
    assert_int_equal(w->p[4], 0x000000ffu);
    ah_free(w);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_count_and_find),
        cmocka_unit_test(test_bit_fields),
        cmocka_unit_test(test_prmt),
        cmocka_unit_test(test_lop3_shf),
        cmocka_unit_test(test_shifts),
        cmocka_unit_test(test_logic),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
