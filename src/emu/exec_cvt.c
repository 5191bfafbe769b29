/*
** exec_cvt.c -- cvt: conversions among u8..u64, s8..s64, f16, bf16, f32,
** f64 (u->type = destination, u->type2 = source), the packing forms
** cvt.f16x2.f32 / cvt.bf16x2.f32 d, a, b (a -> upper half, b -> lower half)
** and cvt.tf32.f32.
**
** Every float source is first widened exactly to double; each conversion
** then rounds once, so results are correctly rounded in all four modes.
** Float-to-integer always saturates and maps NaN to 0 (PTX ISA); a missing
** integer rounding modifier is taken as .rzi, which is what C and nvcc use.
** Built with -frounding-math: directed int/f64 -> f32 uses the host mode.
*/
#include <fenv.h>
#include "exec.h"
#include "fpu.h"

#define NL EMU_WARP_SIZE
#define LANES for (int l = 0; l < NL; l++)

typedef enum { K_INT, K_F16, K_BF16, K_F32, K_F64, K_TF32, K_BAD } cvt_kind;

static cvt_kind kind_of(ptx_type t)
{
    switch (t) {
    case PTX_T_F16: return K_F16;
    case PTX_T_BF16: return K_BF16;
    case PTX_T_F32: return K_F32;
    case PTX_T_F64: return K_F64;
    case PTX_T_TF32: return K_TF32;
    default:
        return (t >= PTX_T_B8 && t <= PTX_T_B64) || (t >= PTX_T_U8 && t <= PTX_T_S64)
                   ? K_INT : K_BAD;
    }
}

static int host_mode(int rnd)
{
    switch (rnd) {
    case PTX_RND_RZ: case PTX_RND_RZI: return FE_TOWARDZERO;
    case PTX_RND_RM: case PTX_RND_RMI: return FE_DOWNWARD;
    case PTX_RND_RP: case PTX_RND_RPI: return FE_UPWARD;
    default: return -1;
    }
}

/* ------------------------------------------------------------------ */
/* integer -> integer                                                  */
/* ------------------------------------------------------------------ */

static uint64_t umax_of(ptx_type t)
{
    int n = ptx_type_size[t] * 8;
    if (ptx_type_is_signed(t))
        n--;
    return n >= 64 ? ~0ull : (1ull << n) - 1;
}

/*
** Source value `v` (already extended per its type) clamped to the range of
** `dt` when .sat is given; emu_dst() then truncates or extends as needed.
*/
static void int_to_int(uint64_t v[NL], ptx_type st, ptx_type dt, bool sat)
{
    if (!sat)
        return;
    uint64_t hi = umax_of(dt);
    if (ptx_type_is_signed(st)) {
        int64_t lo = ptx_type_is_signed(dt) ? -(int64_t)hi - 1 : 0;
        LANES {
            int64_t x = (int64_t)v[l];
            if (x < lo) x = lo;
            else if (x >= 0 && (uint64_t)x > hi) x = (int64_t)hi;
            v[l] = (uint64_t)x;
        }
    } else {
        LANES v[l] = v[l] > hi ? hi : v[l];
    }
}

/* ------------------------------------------------------------------ */
/* float <-> double views                                               */
/* ------------------------------------------------------------------ */

/* Widen a float source of kind `k` to double, exactly. */
static void to_double(const uint64_t a[NL], cvt_kind k, bool ftz, double x[NL])
{
    switch (k) {
    case K_F16: LANES x[l] = fpu_h2d(a[l]); break;
    case K_BF16: LANES x[l] = fpu_bf2d(a[l]); break;
    case K_F64: LANES x[l] = fpu_f64(a[l]); break;
    default:
        if (ftz) LANES x[l] = fpu_ftz32(fpu_f32(a[l]));
        else LANES x[l] = fpu_f32(a[l]);
        break;
    }
}

/* Round to an integral value per an integer (or float) rounding mode. */
static inline double round_integral(double x, int rnd)
{
    switch (rnd) {
    case PTX_RND_RNI: case PTX_RND_RN: return nearbyint(x); /* host mode is nearest */
    case PTX_RND_RMI: case PTX_RND_RM: return floor(x);
    case PTX_RND_RPI: case PTX_RND_RP: return ceil(x);
    default: return trunc(x);
    }
}

/* ------------------------------------------------------------------ */
/* float -> integer                                                    */
/* ------------------------------------------------------------------ */

/* Saturating conversion of integral double `x` (NaN -> 0) to type `dt`. */
static inline uint64_t sat_to_int(double x, uint64_t hi, bool s)
{
    if (x != x)
        return 0;
    if (s) {
        double lo = -(double)hi - 1.0;   /* exact: -2^(n-1) */
        if (x <= lo) return (uint64_t)(-(int64_t)hi - 1);
        if (x >= (double)hi) return hi;  /* (double)hi rounds up to 2^(n-1) for s64 */
        return (uint64_t)(int64_t)x;
    }
    if (x <= 0.0) return 0;
    if (x >= (double)hi) return hi;
    return (uint64_t)x;
}

static void float_to_int(const double x[NL], int rnd, ptx_type dt, uint64_t d[NL])
{
    uint64_t hi = umax_of(dt);
    bool s = ptx_type_is_signed(dt);
    switch (rnd) {
    case PTX_RND_RNI: case PTX_RND_RN:
        LANES d[l] = sat_to_int(nearbyint(x[l]), hi, s);
        break;
    case PTX_RND_RMI: case PTX_RND_RM:
        LANES d[l] = sat_to_int(floor(x[l]), hi, s);
        break;
    case PTX_RND_RPI: case PTX_RND_RP:
        LANES d[l] = sat_to_int(ceil(x[l]), hi, s);
        break;
    default:
        LANES d[l] = sat_to_int(trunc(x[l]), hi, s);
        break;
    }
}

/* ------------------------------------------------------------------ */
/* anything -> float                                                   */
/* ------------------------------------------------------------------ */

/*
** An integer as a double that rounds to any narrower format exactly like
** the integer itself: values beyond 53 bits are "rounded to odd" (low bits
** folded into a sticky bit), the standard trick against double rounding.
*/
static inline double int_to_double_odd(uint64_t v, bool s)
{
    bool neg = s && (int64_t)v < 0;
    uint64_t m = neg ? 0 - v : v;
    double r;
    if (m >> 53) {
        int sh = 64 - __builtin_clzll(m) - 53;
        uint64_t kept = (m >> sh) | ((m & ((1ull << sh) - 1)) != 0);
        r = ldexp((double)kept, sh);
    } else {
        r = (double)m;
    }
    return neg ? -r : r;
}

/* Encode exact-or-odd double `x` into float kind `k` with rounding `rnd`. */
static void from_double(const double x[NL], cvt_kind k, int rnd, uint64_t d[NL])
{
    int fe = host_mode(rnd);
    switch (k) {
    case K_F16:
        LANES d[l] = fpu_d2h(x[l], rnd);
        break;
    case K_BF16:
        LANES d[l] = fpu_d2bf(x[l], rnd);
        break;
    case K_TF32:
        LANES d[l] = (uint64_t)fpu_f64_to_narrow(x[l], rnd == PTX_RND_NONE ? PTX_RND_RNA : rnd,
                                                 8, 10) << 13;
        break;
    case K_F64: LANES d[l] = fpu_bits64(x[l]); break;
    default:
        if (fe >= 0) fesetround(fe);
        LANES { float f = (float)x[l]; d[l] = f != f ? FPU_NAN32 : fpu_bits32(f); }
        if (fe >= 0) fesetround(FE_TONEAREST);
        break;
    }
}

/* 64-bit integers to f32/f64 need the host conversion in the right mode. */
static void int_to_float(const uint64_t v[NL], bool s, cvt_kind k, int rnd, uint64_t d[NL])
{
    int fe = host_mode(rnd);
    if (k == K_F32 || k == K_F64) {
        if (fe >= 0) fesetround(fe);
        if (k == K_F32) {
            if (s) LANES d[l] = fpu_bits32((float)(int64_t)v[l]);
            else LANES d[l] = fpu_bits32((float)v[l]);
        } else {
            if (s) LANES d[l] = fpu_bits64((double)(int64_t)v[l]);
            else LANES d[l] = fpu_bits64((double)v[l]);
        }
        if (fe >= 0) fesetround(FE_TONEAREST);
        return;
    }
    double x[NL];
    LANES x[l] = int_to_double_odd(v[l], s);
    from_double(x, k, rnd, d);
}

/* .ftz / .sat / .relu on a float result of kind `k` (bits in d). */
static void post_float(uint64_t d[NL], cvt_kind k, uint32_t flags)
{
    if (!(flags & (PTX_F_FTZ | PTX_F_SAT | PTX_F_RELU)))
        return;
    LANES {
        double x = k == K_F64 ? fpu_f64(d[l]) : k == K_F16 ? fpu_h2d(d[l])
                 : k == K_BF16 ? fpu_bf2d(d[l]) : fpu_f32(d[l]);
        if ((flags & PTX_F_FTZ) && k == K_F32)
            x = fpu_ftz32((float)x);
        if (flags & PTX_F_SAT)
            x = fpu_sat64(x);
        if ((flags & PTX_F_RELU) && x < 0.0)
            x = 0.0;
        /* x is representable in the format: re-encoding is exact */
        d[l] = k == K_F64 ? fpu_bits64(x) : k == K_F16 ? fpu_d2h(x, PTX_RND_RN)
             : k == K_BF16 ? fpu_d2bf(x, PTX_RND_RN)
             : x != x ? FPU_NAN32 : fpu_bits32((float)x);
    }
}

/* ------------------------------------------------------------------ */
/* the handler                                                         */
/* ------------------------------------------------------------------ */

static int unsupported(emu_warp *w, const ptx_uop *u)
{
    return emu_fault_at(w, u, -1, EMU_FAULT_UNSUPPORTED,
                        "cvt.%s.%s is not supported by the emulator",
                        ptx_type_names[u->type], ptx_type_names[u->type2]);
}

/* cvt.{f16,bf16}x2.f32 d, a, b: d = {convert(a) : convert(b)} */
static int cvt_pack(emu_warp *w, const ptx_uop *u, uint32_t mask)
{
    uint64_t a[NL], b[NL], ha[NL], hb[NL], d[NL];
    double x[NL];
    cvt_kind k = u->type == PTX_T_BF16X2 ? K_BF16 : K_F16;
    int rnd = u->rnd ? u->rnd : PTX_RND_RN;
    emu_src(w, &u->opd[1], a);
    emu_src(w, &u->opd[2], b);
    to_double(a, K_F32, false, x);
    from_double(x, k, rnd, ha);
    post_float(ha, k, u->flags);
    to_double(b, K_F32, false, x);
    from_double(x, k, rnd, hb);
    post_float(hb, k, u->flags);
    LANES d[l] = (ha[l] & 0xffff) << 16 | (hb[l] & 0xffff);
    emu_dst(w, &u->opd[0], mask, d, PTX_T_B32);
    return 0;
}

EMU_HANDLER(cvt)
{
    ptx_type dt = (ptx_type)u->type, st = (ptx_type)u->type2;
    if ((dt == PTX_T_F16X2 || dt == PTX_T_BF16X2) && u->nopd >= 3)
        return cvt_pack(w, u, mask);
    if (st == PTX_T_NONE)
        st = dt;
    cvt_kind dk = kind_of(dt), sk = kind_of(st);
    if (dk == K_BAD || sk == K_BAD || sk == K_TF32)
        return unsupported(w, u);
    uint64_t a[NL], d[NL];
    emu_src(w, &u->opd[1], a);

    if (sk == K_INT) {
        LANES a[l] = emu_norm(a[l], st);
        if (dk == K_INT) {
            int_to_int(a, st, dt, u->flags & PTX_F_SAT);
            emu_dst(w, &u->opd[0], mask, a, dt);
            return 0;
        }
        int_to_float(a, ptx_type_is_signed(st), dk, u->rnd, d);
        post_float(d, dk, u->flags);
        emu_dst(w, &u->opd[0], mask, d, dt);
        return 0;
    }

    double x[NL];
    to_double(a, sk, u->flags & PTX_F_FTZ, x);
    if (dk == K_INT) {
        float_to_int(x, u->rnd, dt, d);
        emu_dst(w, &u->opd[0], mask, d, dt);
        return 0;
    }
    int rnd = u->rnd;
    if (rnd >= PTX_RND_RNI) {           /* round to integral, keep float */
        LANES x[l] = round_integral(x[l], rnd);
        rnd = PTX_RND_RN;
    }
    from_double(x, dk, rnd, d);
    post_float(d, dk, u->flags);
    emu_dst(w, &u->opd[0], mask, d, dt);
    return 0;
}
