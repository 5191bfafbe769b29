/*
** fpu.h -- floating-point helpers shared by the ALU handlers (emu/ only).
**
** Bit casts, flush-to-zero and saturation, and exact software conversion
** between double and the narrow formats f16 and bf16 with every PTX rounding
** mode (the host has no native half type; conversion goes through double,
** which holds every f16/bf16 value exactly).  Also declares the float paths
** of the shared arithmetic opcodes, implemented in exec_float.c because that
** file is compiled with -frounding-math.
*/
#ifndef WS_EMU_FPU_H
#define WS_EMU_FPU_H

#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include "emu.h"

/* NaN results the GPU produces (the "canonical NaN" of the PTX ISA). */
#define FPU_NAN32 0x7fffffffu
#define FPU_NAN16 0x7fffu   /* same bits for f16 and bf16 */

/* ---- bit casts ---------------------------------------------------- */

static inline float fpu_f32(uint64_t bits)
{
    uint32_t b = (uint32_t)bits;
    float f;
    memcpy(&f, &b, 4);
    return f;
}

static inline uint64_t fpu_bits32(float f)
{
    uint32_t b;
    memcpy(&b, &f, 4);
    return b;
}

static inline double fpu_f64(uint64_t bits)
{
    double d;
    memcpy(&d, &bits, 8);
    return d;
}

static inline uint64_t fpu_bits64(double d)
{
    uint64_t b;
    memcpy(&b, &d, 8);
    return b;
}

/* ---- flush-to-zero and saturation ----------------------------------- */

/* .ftz: a subnormal f32 becomes a zero of the same sign. */
static inline float fpu_ftz32(float f)
{
    uint32_t b;
    memcpy(&b, &f, 4);
    if ((b & 0x7f800000u) == 0)
        b &= 0x80000000u;
    memcpy(&f, &b, 4);
    return f;
}

/* .sat: clamp to [0.0, 1.0]; NaN becomes 0.0. */
static inline float fpu_sat32(float f)
{
    return f > 0.0f ? (f < 1.0f ? f : 1.0f) : 0.0f;
}

static inline double fpu_sat64(double d)
{
    return d > 0.0 ? (d < 1.0 ? d : 1.0) : 0.0;
}

/* ---- narrow formats (f16: 5/10 bits, bf16: 8/7 bits) ---------------- */

/* Exponent and mantissa widths of a narrow format. */
#define FPU_F16_E 5
#define FPU_F16_M 10
#define FPU_BF16_E 8
#define FPU_BF16_M 7

/* A double from its fields (biased exponent `be` in 1..2046). */
static inline double fpu_make_f64(uint64_t sign, uint64_t be, uint64_t man52)
{
    return fpu_f64(sign << 63 | be << 52 | man52);
}

/* Exact value of a narrow float with `eb` exponent and `mb` mantissa bits. */
static inline double fpu_narrow_to_f64(uint32_t h, int eb, int mb)
{
    uint64_t sign = (h >> (eb + mb)) & 1u;
    uint32_t exp = (h >> mb) & ((1u << eb) - 1);
    uint64_t man = h & ((1u << mb) - 1);
    int bias = (1 << (eb - 1)) - 1;
    if (exp == (1u << eb) - 1)
        return man ? (double)NAN : fpu_make_f64(sign, 2047, 0);
    if (exp == 0) {   /* subnormal: man * 2^(1 - bias - mb), exact */
        double v = (double)man * fpu_make_f64(0, (uint64_t)(1023 + 1 - bias - mb), 0);
        return sign ? -v : v;
    }
    return fpu_make_f64(sign, (uint64_t)((int)exp - bias + 1023), man << (52 - mb));
}

/*
** Round `d` to the narrow format with rounding mode `rnd` (PTX_RND_*;
** NONE means round to nearest even), in integer arithmetic on d's bits:
** the 53-bit significand is shifted so one unit is the target quantum at
** d's exponent (the subnormal quantum below the normal range), the
** dropped bits decide the rounding, and the encoding being contiguous
** makes a mantissa carry bump the exponent and max finite + 1 ulp = inf.
*/
static inline uint32_t fpu_f64_to_narrow(double d, int rnd, int eb, int mb)
{
    uint64_t b = fpu_bits64(d);
    bool neg = b >> 63;
    uint32_t sbit = (uint32_t)neg << (eb + mb);
    uint32_t inf = ((1u << eb) - 1) << mb;
    int be = (int)((b >> 52) & 0x7ff);
    uint64_t m = b & ((1ull << 52) - 1);
    if (be == 0x7ff)
        return m ? inf | ((1u << mb) - 1) : sbit | inf;
    if (be == 0 && m == 0)
        return sbit;
    int E = be ? be - 1023 : -1022;        /* d = m * 2^(E - 52) */
    if (be)
        m |= 1ull << 52;
    int bias = (1 << (eb - 1)) - 1, emin = 1 - bias;
    int Eq = E < emin ? emin : E;           /* binade of the quantum */
    int shift = Eq - mb - (E - 52);         /* >= 52 - mb > 0 */
    uint64_t n, rem, half;
    if (shift >= 64) {
        n = 0; rem = m; half = ~0ull;        /* below half the quantum, nonzero */
    } else {
        n = m >> shift;
        rem = m & ((1ull << shift) - 1);
        half = 1ull << (shift - 1);
    }
    bool up;
    switch (rnd) {
    case PTX_RND_RZ: case PTX_RND_RZI: up = false; break;
    case PTX_RND_RM: case PTX_RND_RMI: up = neg && rem; break;
    case PTX_RND_RP: case PTX_RND_RPI: up = !neg && rem; break;
    case PTX_RND_RNA: up = rem >= half; break;
    default: up = rem > half || (rem == half && (n & 1)); break;
    }
    n += up;
    uint64_t enc = ((uint64_t)(Eq + bias - 1) << mb) + n;
    if (enc >= inf) {
        /* overflow: infinity unless the mode rounds toward zero here */
        bool to_max = rnd == PTX_RND_RZ || rnd == PTX_RND_RZI ||
                      ((rnd == PTX_RND_RM || rnd == PTX_RND_RMI) && !neg) ||
                      ((rnd == PTX_RND_RP || rnd == PTX_RND_RPI) && neg);
        enc = to_max ? inf - 1 : inf;
    }
    return sbit | (uint32_t)enc;
}

static inline double fpu_h2d(uint64_t h) { return fpu_narrow_to_f64((uint32_t)h & 0xffff, FPU_F16_E, FPU_F16_M); }
static inline double fpu_bf2d(uint64_t h) { return fpu_narrow_to_f64((uint32_t)h & 0xffff, FPU_BF16_E, FPU_BF16_M); }
static inline uint32_t fpu_d2h(double d, int rnd) { return fpu_f64_to_narrow(d, rnd, FPU_F16_E, FPU_F16_M); }
static inline uint32_t fpu_d2bf(double d, int rnd) { return fpu_f64_to_narrow(d, rnd, FPU_BF16_E, FPU_BF16_M); }

/* .ftz on a narrow value: subnormal -> signed zero. */
static inline uint32_t fpu_ftz_narrow(uint32_t h, int eb, int mb)
{
    uint32_t emask = ((1u << eb) - 1) << mb;
    return (h & emask) ? h : h & (1u << (eb + mb));
}

/* ---- float variants of the shared arithmetic opcodes ---------------- */

/*
** add/sub/mul/mad/div/abs/neg/min/max/fma on f32, f64, f16, f16x2, bf16
** and bf16x2 (u->op picks the operation).  Called by the handlers in
** exec_int.c when u->type is a float type; lives in exec_float.c.
*/
int emu_float_arith(emu_warp *w, const ptx_uop *u, uint32_t mask);

#endif /* WS_EMU_FPU_H */
