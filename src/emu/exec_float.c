/*
** exec_float.c -- floating-point semantics: the float forms of add, sub,
** mul, mad, div, abs, neg, min, max (via emu_float_arith), fma, copysign,
** the special functions rcp/sqrt/rsqrt/sin/cos/lg2/ex2/tanh, and testp.
**
** f32 and f64 run as host float/double loops.  Directed rounding (.rz .rm
** .rp) switches the host rounding mode around the loop; this file is built
** with -frounding-math so the compiler keeps the switch in place, and the
** common .rn path never touches it.  f16/bf16 (and their x2 packs) are
** computed in double and rounded once to the narrow format (fpu.h); for
** + - * / sqrt a double intermediate rounds correctly, and in a directed
** mode the double step uses the same direction, which composes exactly.
** .approx functions use the C library: results may differ from the GPU's
** special-function unit by a few ulp.  NaN results are the canonical NaN.
*/
#include <fenv.h>
#include "exec.h"
#include "fpu.h"

#define NL EMU_WARP_SIZE
#define LANES for (int l = 0; l < NL; l++)

enum {
    FOP_ADD, FOP_SUB, FOP_MUL, FOP_FMA, FOP_DIV, FOP_ABS, FOP_NEG, FOP_MIN,
    FOP_MAX, FOP_RCP, FOP_SQRT, FOP_RSQRT, FOP_SIN, FOP_COS, FOP_LG2, FOP_EX2,
    FOP_TANH, FOP_COPYSIGN
};

/* Host rounding mode for a PTX rounding modifier; -1 = nearest (no switch). */
static int fe_mode(int rnd)
{
    switch (rnd) {
    case PTX_RND_RZ: return FE_TOWARDZERO;
    case PTX_RND_RM: return FE_DOWNWARD;
    case PTX_RND_RP: return FE_UPWARD;
    default: return -1;
    }
}

static double ftz64(double d)
{
    return fpclassify(d) == FP_SUBNORMAL ? copysign(0.0, d) : d;
}

/*
** PTX min/max: a NaN operand is ignored (both NaN, or .NaN given: the
** canonical NaN); -0.0 orders below +0.0; .xorsign.abs compares
** magnitudes and gives the result the XOR of the operand signs.
*/
#define DEF_MINMAX(NAME, T, FABS, COPYSIGN, QNAN)                              \
    static inline T NAME(T x, T y, uint32_t flags, bool is_max)               \
    {                                                                          \
        bool neg = false;                                                      \
        if (flags & PTX_F_XORSIGN) {                                           \
            neg = (signbit(x) != 0) != (signbit(y) != 0);                      \
            x = FABS(x);                                                       \
            y = FABS(y);                                                       \
        }                                                                      \
        T r;                                                                   \
        if (x != x || y != y) {                                                \
            if ((flags & PTX_F_NAN) || (x != x && y != y))                     \
                return QNAN;                                                   \
            r = x != x ? y : x;                                                \
        } else if (x == y) {                                                   \
            r = (signbit(x) != 0) != is_max ? x : y;                           \
        } else {                                                               \
            r = (x < y) != is_max ? x : y;                                     \
        }                                                                      \
        return (flags & PTX_F_XORSIGN) ? COPYSIGN(r, neg ? -1 : 1) : r;        \
    }
DEF_MINMAX(minmax_f, float, fabsf, copysignf, fpu_f32(FPU_NAN32))
DEF_MINMAX(minmax_, double, fabs, copysign, (double)NAN)

/*
** One loop per operation over arrays x, y, z -> r of type T; SFX is the
** libm suffix ("f" or empty).  Expanded for float and double.
*/
#define FP_LOOPS(SFX, T)                                                        \
    switch (op) {                                                              \
    case FOP_ADD: LANES r[l] = x[l] + y[l]; break;                             \
    case FOP_SUB: LANES r[l] = x[l] - y[l]; break;                             \
    case FOP_MUL: LANES r[l] = x[l] * y[l]; break;                             \
    case FOP_FMA: LANES r[l] = fma##SFX(x[l], y[l], z[l]); break;              \
    case FOP_DIV: LANES r[l] = x[l] / y[l]; break;                             \
    case FOP_ABS: LANES r[l] = fabs##SFX(x[l]); break;                         \
    case FOP_NEG: LANES r[l] = -x[l]; break;                                   \
    case FOP_MIN: LANES r[l] = minmax_##SFX(x[l], y[l], flags, false); break;  \
    case FOP_MAX: LANES r[l] = minmax_##SFX(x[l], y[l], flags, true); break;   \
    case FOP_RCP: LANES r[l] = (T)1 / x[l]; break;                             \
    case FOP_SQRT: LANES r[l] = sqrt##SFX(x[l]); break;                        \
    case FOP_RSQRT: LANES r[l] = (T)1 / sqrt##SFX(x[l]); break;                \
    case FOP_SIN: LANES r[l] = sin##SFX(x[l]); break;                          \
    case FOP_COS: LANES r[l] = cos##SFX(x[l]); break;                          \
    case FOP_LG2: LANES r[l] = log2##SFX(x[l]); break;                         \
    case FOP_EX2: LANES r[l] = exp2##SFX(x[l]); break;                         \
    case FOP_TANH: LANES r[l] = tanh##SFX(x[l]); break;                        \
    case FOP_COPYSIGN: LANES r[l] = copysign##SFX(y[l], x[l]); break;          \
    }

/* Post-processing flags shared by the three paths. */
static bool canonical_nan(int op) { return op != FOP_COPYSIGN && op != FOP_ABS && op != FOP_NEG; }

static void run_f32(int op, const ptx_uop *u, const uint64_t *a, const uint64_t *b,
                    const uint64_t *c, uint64_t *d)
{
    float x[NL], y[NL], z[NL], r[NL];
    uint32_t flags = u->flags;
    bool ftz = flags & PTX_F_FTZ;
    LANES { x[l] = fpu_f32(a[l]); y[l] = fpu_f32(b[l]); z[l] = fpu_f32(c[l]); }
    if (ftz) LANES { x[l] = fpu_ftz32(x[l]); y[l] = fpu_ftz32(y[l]); z[l] = fpu_ftz32(z[l]); }
    int fe = fe_mode(u->rnd);
    if (fe >= 0)
        fesetround(fe);
    FP_LOOPS(f, float)
    if (fe >= 0)
        fesetround(FE_TONEAREST);
    if (ftz) LANES r[l] = fpu_ftz32(r[l]);
    if (flags & PTX_F_SAT) LANES r[l] = fpu_sat32(r[l]);
    if (flags & PTX_F_RELU) LANES r[l] = r[l] < 0.0f ? 0.0f : r[l];
    if (canonical_nan(op))
        LANES d[l] = r[l] != r[l] ? FPU_NAN32 : fpu_bits32(r[l]);
    else
        LANES d[l] = fpu_bits32(r[l]);
}

static void run_f64(int op, const ptx_uop *u, const uint64_t *a, const uint64_t *b,
                    const uint64_t *c, uint64_t *d)
{
    double x[NL], y[NL], z[NL], r[NL];
    uint32_t flags = u->flags;
    bool ftz = flags & PTX_F_FTZ;
    LANES { x[l] = fpu_f64(a[l]); y[l] = fpu_f64(b[l]); z[l] = fpu_f64(c[l]); }
    if (ftz) LANES { x[l] = ftz64(x[l]); y[l] = ftz64(y[l]); z[l] = ftz64(z[l]); }
    int fe = fe_mode(u->rnd);
    if (fe >= 0)
        fesetround(fe);
    FP_LOOPS(, double)
    if (fe >= 0)
        fesetround(FE_TONEAREST);
    if (ftz) LANES r[l] = ftz64(r[l]);
    if (flags & PTX_F_SAT) LANES r[l] = fpu_sat64(r[l]);
    if (flags & PTX_F_RELU) LANES r[l] = r[l] < 0.0 ? 0.0 : r[l];
    LANES d[l] = fpu_bits64(r[l]);
}

/* Scalar form of FP_LOOPS for the narrow formats (computed in double). */
static double op_scalar(int op, double x, double y, double z, uint32_t flags)
{
    switch (op) {
    case FOP_ADD: return x + y;
    case FOP_SUB: return x - y;
    case FOP_MUL: return x * y;
    case FOP_FMA: return fma(x, y, z);
    case FOP_DIV: return x / y;
    case FOP_ABS: return fabs(x);
    case FOP_NEG: return -x;
    case FOP_MIN: return minmax_(x, y, flags, false);
    case FOP_MAX: return minmax_(x, y, flags, true);
    case FOP_RCP: return 1.0 / x;
    case FOP_SQRT: return sqrt(x);
    case FOP_RSQRT: return 1.0 / sqrt(x);
    case FOP_SIN: return sin(x);
    case FOP_COS: return cos(x);
    case FOP_LG2: return log2(x);
    case FOP_EX2: return exp2(x);
    case FOP_TANH: return tanh(x);
    default: return copysign(y, x);
    }
}

/*
** f16, bf16, f16x2, bf16x2: each 16-bit half independently.  abs/neg/
** copysign are bit operations on the narrow value (no rounding needed).
*/
static void run_narrow(int op, const ptx_uop *u, const uint64_t *a, const uint64_t *b,
                       const uint64_t *c, uint64_t *d)
{
    ptx_type t = (ptx_type)u->type;
    bool bf = t == PTX_T_BF16 || t == PTX_T_BF16X2;
    int halves = (t == PTX_T_F16X2 || t == PTX_T_BF16X2) ? 2 : 1;
    int eb = bf ? FPU_BF16_E : FPU_F16_E, mb = bf ? FPU_BF16_M : FPU_F16_M;
    uint32_t flags = u->flags;
    bool ftz = flags & PTX_F_FTZ;
    int fe = fe_mode(u->rnd);
    if (fe >= 0)
        fesetround(fe);
    LANES {
        uint64_t out = 0;
        for (int k = 0; k < halves; k++) {
            uint32_t ha = (uint32_t)(a[l] >> (16 * k)) & 0xffff;
            uint32_t hb = (uint32_t)(b[l] >> (16 * k)) & 0xffff;
            uint32_t hc = (uint32_t)(c[l] >> (16 * k)) & 0xffff;
            uint32_t h;
            if (ftz) {
                ha = fpu_ftz_narrow(ha, eb, mb);
                hb = fpu_ftz_narrow(hb, eb, mb);
                hc = fpu_ftz_narrow(hc, eb, mb);
            }
            if (op == FOP_ABS) {
                h = ha & 0x7fff;
            } else if (op == FOP_NEG) {
                h = ha ^ 0x8000;
            } else if (op == FOP_COPYSIGN) {
                h = (hb & 0x7fff) | (ha & 0x8000);
            } else {
                double x = fpu_narrow_to_f64(ha, eb, mb), y = fpu_narrow_to_f64(hb, eb, mb);
                double z = fpu_narrow_to_f64(hc, eb, mb);
                double r = op_scalar(op, x, y, z, flags);
                if (flags & PTX_F_SAT) r = fpu_sat64(r);
                if (flags & PTX_F_RELU) r = r < 0.0 ? 0.0 : r;
                h = fpu_f64_to_narrow(r, u->rnd, eb, mb);
                if (ftz) h = fpu_ftz_narrow(h, eb, mb);
            }
            out |= (uint64_t)h << (16 * k);
        }
        d[l] = out;
    }
    if (fe >= 0)
        fesetround(FE_TONEAREST);
}

static int unsupported(emu_warp *w, const ptx_uop *u)
{
    return emu_fault_at(w, u, -1, EMU_FAULT_UNSUPPORTED,
                        "%s.%s is not supported by the emulator",
                        ptx_opcode_names[u->op], ptx_type_names[u->type]);
}

/* Read `nsrc` sources (the others stay zero), run `op`, write opd[0]. */
static int float_op(emu_warp *w, const ptx_uop *u, uint32_t mask, int op, int nsrc)
{
    uint64_t a[NL], b[NL], c[NL], d[NL];
    uint64_t *s[3] = { a, b, c };
    for (int i = 0; i < 3; i++) {
        if (i < nsrc)
            emu_src(w, &u->opd[1 + i], s[i]);
        else
            LANES s[i][l] = 0;
    }
    switch (u->type) {
    case PTX_T_F32: run_f32(op, u, a, b, c, d); break;
    case PTX_T_F64: run_f64(op, u, a, b, c, d); break;
    case PTX_T_F16: case PTX_T_BF16: case PTX_T_F16X2: case PTX_T_BF16X2:
        run_narrow(op, u, a, b, c, d);
        break;
    default:
        return unsupported(w, u);
    }
    emu_dst(w, &u->opd[0], mask, d, (ptx_type)u->type);
    return 0;
}

int emu_float_arith(emu_warp *w, const ptx_uop *u, uint32_t mask)
{
    switch (u->op) {
    case PTX_OP_ADD: return float_op(w, u, mask, FOP_ADD, 2);
    case PTX_OP_SUB: return float_op(w, u, mask, FOP_SUB, 2);
    case PTX_OP_MUL: return float_op(w, u, mask, FOP_MUL, 2);
    case PTX_OP_MAD: case PTX_OP_FMA:   /* mad.f32/f64 is fused (sm_20+) */
        return float_op(w, u, mask, FOP_FMA, 3);
    case PTX_OP_DIV: return float_op(w, u, mask, FOP_DIV, 2);
    case PTX_OP_ABS: return float_op(w, u, mask, FOP_ABS, 1);
    case PTX_OP_NEG: return float_op(w, u, mask, FOP_NEG, 1);
    case PTX_OP_MIN: return float_op(w, u, mask, FOP_MIN, 2);
    case PTX_OP_MAX: return float_op(w, u, mask, FOP_MAX, 2);
    default: return unsupported(w, u);
    }
}

EMU_HANDLER(fma) { return float_op(w, u, mask, FOP_FMA, 3); }
/* copysign d, a, b: b's magnitude with a's sign */
EMU_HANDLER(copysign) { return float_op(w, u, mask, FOP_COPYSIGN, 2); }
EMU_HANDLER(rcp) { return float_op(w, u, mask, FOP_RCP, 1); }
EMU_HANDLER(sqrt) { return float_op(w, u, mask, FOP_SQRT, 1); }
EMU_HANDLER(rsqrt) { return float_op(w, u, mask, FOP_RSQRT, 1); }
EMU_HANDLER(sin) { return float_op(w, u, mask, FOP_SIN, 1); }
EMU_HANDLER(cos) { return float_op(w, u, mask, FOP_COS, 1); }
EMU_HANDLER(lg2) { return float_op(w, u, mask, FOP_LG2, 1); }
EMU_HANDLER(ex2) { return float_op(w, u, mask, FOP_EX2, 1); }
EMU_HANDLER(tanh) { return float_op(w, u, mask, FOP_TANH, 1); }

/* ------------------------------------------------------------------ */
/* testp                                                               */
/* ------------------------------------------------------------------ */

/* Whether class `c` (FP_*) has property `which`; zero counts as normal. */
static bool testp_class(int c, int which)
{
    switch (which) {
    case PTX_TESTP_FINITE:     return c != FP_INFINITE && c != FP_NAN;
    case PTX_TESTP_INFINITE:   return c == FP_INFINITE;
    case PTX_TESTP_NUMBER:     return c != FP_NAN;
    case PTX_TESTP_NOTANUMBER: return c == FP_NAN;
    case PTX_TESTP_NORMAL:     return c == FP_NORMAL || c == FP_ZERO;
    case PTX_TESTP_SUBNORMAL:  return c == FP_SUBNORMAL;
    default:                   return false;
    }
}

EMU_HANDLER(testp)
{
    uint64_t a[NL];
    uint32_t bits = 0;
    emu_src(w, &u->opd[1], a);
    if (u->type == PTX_T_F64)
        LANES bits |= (uint32_t)testp_class(fpclassify(fpu_f64(a[l])), u->sub) << l;
    else if (u->type == PTX_T_F32)
        LANES bits |= (uint32_t)testp_class(fpclassify(fpu_f32(a[l])), u->sub) << l;
    else
        return unsupported(w, u);
    emu_dst_pred(w, &u->opd[0], mask, bits);
    return 0;
}
