/*
** exec_int.c -- integer arithmetic handlers: mov, add/sub (+carry), mul/mad,
** mul24/mad24, sad, div/rem, abs/neg/min/max, dp4a/dp2a.
**
** Every handler reads whole 32-lane operand arrays, computes all lanes in a
** tight loop chosen by a switch on the type *outside* the loop, and lets
** emu_dst() write only the lanes in `mask`.  Computing inactive lanes is
** harmless: nothing here can trap (division checks its divisor).  When the
** opcode is shared with floats (add, mul, min, ...) and u->type is a float
** type, the handler forwards to emu_float_arith() in exec_float.c.
*/
#include "exec.h"
#include "fpu.h"

#define NL EMU_WARP_SIZE
#define LANES for (int l = 0; l < NL; l++)

/* Read source operand `i` of `u` into `v`. */
static inline void src(const emu_warp *w, const ptx_uop *u, int i, uint64_t v[NL])
{
    emu_src(w, &u->opd[i], v);
}

/* Normalise a whole array per type `t`: sign- or zero-extend its low bits. */
static void norm_all(uint64_t v[NL], ptx_type t)
{
    switch (ptx_type_size[t]) {
    case 1:
        if (ptx_type_is_signed(t)) LANES v[l] = (uint64_t)(int64_t)(int8_t)v[l];
        else LANES v[l] = (uint8_t)v[l];
        break;
    case 2:
        if (ptx_type_is_signed(t)) LANES v[l] = (uint64_t)(int64_t)(int16_t)v[l];
        else LANES v[l] = (uint16_t)v[l];
        break;
    case 4:
        if (ptx_type_is_signed(t)) LANES v[l] = (uint64_t)(int64_t)(int32_t)v[l];
        else LANES v[l] = (uint32_t)v[l];
        break;
    default:
        break;
    }
}

static bool is_float(const ptx_uop *u) { return ptx_type_is_float((ptx_type)u->type); }
static int bits_of(ptx_type t) { return ptx_type_size[t] * 8; }

static int unsupported(emu_warp *w, const ptx_uop *u)
{
    return emu_fault_at(w, u, -1, EMU_FAULT_UNSUPPORTED,
                        "%s.%s is not supported by the emulator",
                        ptx_opcode_names[u->op], ptx_type_names[u->type]);
}

/* Merge per-lane carry bits into the warp's carry flag for `mask`. */
static void set_carry(emu_warp *w, uint32_t mask, uint32_t bits)
{
    w->carry = (w->carry & ~mask) | (bits & mask);
}

static int64_t clamp_s32(int64_t v)
{
    return v > INT32_MAX ? INT32_MAX : v < INT32_MIN ? INT32_MIN : v;
}

/* ------------------------------------------------------------------ */
/* mov                                                                 */
/* ------------------------------------------------------------------ */

/* A register operand naming vector element slot `reg`. */
static ptx_operand elem_opd(int32_t reg)
{
    ptx_operand o = { .kind = reg >= 0 ? PTX_OPD_REG : PTX_OPD_SINK, .reg = reg,
                      .reg2 = -1, .sym = -1 };
    return o;
}

/* Unsigned type of `bits` width, for vector elements. */
static ptx_type utype(int bits)
{
    return bits == 8 ? PTX_T_U8 : bits == 16 ? PTX_T_U16 : bits == 32 ? PTX_T_U32 : PTX_T_U64;
}

/*
** mov: plain copy (register, immediate, special register, symbol
** address), predicate copy, and the vector forms that pack elements into
** one wider register (`mov.b64 %rd, {%r1,%r2}`, element 0 = low bits) or
** unpack one register into elements.
*/
EMU_HANDLER(mov)
{
    const ptx_operand *d = &u->opd[0], *s = &u->opd[1];
    uint64_t v[NL], e[NL];
    if (u->type == PTX_T_PRED || d->kind == PTX_OPD_PRED) {
        emu_dst_pred(w, d, mask, emu_src_pred(w, s));
        return 0;
    }
    if (s->kind == PTX_OPD_VEC && s->nvec) {
        int eb = bits_of((ptx_type)u->type) / s->nvec;
        uint64_t em = eb >= 64 ? ~0ull : (1ull << eb) - 1;
        LANES v[l] = 0;
        for (int i = 0; i < s->nvec; i++) {
            if (s->vreg[i] < 0)
                continue;
            ptx_operand o = elem_opd(s->vreg[i]);
            emu_src(w, &o, e);
            LANES v[l] |= (e[l] & em) << (i * eb);
        }
        emu_dst(w, d, mask, v, (ptx_type)u->type);
        return 0;
    }
    src(w, u, 1, v);
    if (d->kind == PTX_OPD_VEC && d->nvec) {
        int eb = bits_of((ptx_type)u->type) / d->nvec;
        for (int i = 0; i < d->nvec; i++) {
            ptx_operand o = elem_opd(d->vreg[i]);
            LANES e[l] = eb >= 64 ? v[l] : v[l] >> (i * eb);
            emu_dst(w, &o, mask, e, utype(eb));
        }
        return 0;
    }
    emu_dst(w, d, mask, v, (ptx_type)u->type);
    return 0;
}

/* ------------------------------------------------------------------ */
/* add, sub, addc, subc                                                */
/* ------------------------------------------------------------------ */

/*
** Shared body of add/sub/addc/subc.  `sub` selects subtraction, `cin`
** adds (or, for sub, subtracts) the carry flag.  The carry flag holds a
** carry-out after add and a borrow-out after sub, as the PTX ISA defines
** for extended-precision chains (sub.cc / subc.cc / subc).
*/
static int addsub(emu_warp *w, const ptx_uop *u, uint32_t mask, bool sub, bool cin)
{
    uint64_t a[NL], b[NL], d[NL], c[NL];
    ptx_type t = (ptx_type)u->type;
    src(w, u, 1, a);
    src(w, u, 2, b);
    LANES c[l] = cin ? (w->carry >> l) & 1u : 0;
    if ((u->flags & PTX_F_SAT) && t == PTX_T_S32) {
        if (sub) LANES d[l] = (uint64_t)clamp_s32((int64_t)(int32_t)a[l] - (int32_t)b[l]);
        else LANES d[l] = (uint64_t)clamp_s32((int64_t)(int32_t)a[l] + (int32_t)b[l]);
    } else if (sub) {
        LANES d[l] = a[l] - b[l] - c[l];
    } else {
        LANES d[l] = a[l] + b[l] + c[l];
    }
    if (u->flags & PTX_F_CC) {
        uint32_t bits = 0;
        if (bits_of(t) == 64) {
            if (sub) LANES bits |= (uint32_t)(a[l] < b[l] || a[l] - b[l] < c[l]) << l;
            else LANES bits |= (uint32_t)(d[l] < a[l] || (c[l] && d[l] == a[l])) << l;
        } else {
            /* 32-bit: the wide sum's bit 32 is the carry, its sign the borrow */
            if (sub) LANES bits |= (uint32_t)(((uint64_t)(uint32_t)a[l] - (uint32_t)b[l] - c[l]) >> 63) << l;
            else LANES bits |= (uint32_t)(((uint64_t)(uint32_t)a[l] + (uint32_t)b[l] + c[l]) >> 32) << l;
        }
        set_carry(w, mask, bits);
    }
    emu_dst(w, &u->opd[0], mask, d, t);
    return 0;
}

EMU_HANDLER(add)  { return is_float(u) ? emu_float_arith(w, u, mask) : addsub(w, u, mask, false, false); }
EMU_HANDLER(sub)  { return is_float(u) ? emu_float_arith(w, u, mask) : addsub(w, u, mask, true, false); }
EMU_HANDLER(addc) { return addsub(w, u, mask, false, true); }
EMU_HANDLER(subc) { return addsub(w, u, mask, true, true); }

/* ------------------------------------------------------------------ */
/* mul, mad, madc                                                      */
/* ------------------------------------------------------------------ */

/* The destination type of .wide: twice the width, same signedness. */
static ptx_type wide_type(ptx_type t)
{
    switch (t) {
    case PTX_T_U8: return PTX_T_U16;
    case PTX_T_S8: return PTX_T_S16;
    case PTX_T_U16: return PTX_T_U32;
    case PTX_T_S16: return PTX_T_S32;
    case PTX_T_U32: case PTX_T_B32: return PTX_T_U64;
    case PTX_T_S32: return PTX_T_S64;
    default: return t;
    }
}

/*
** p = a * b in the form selected by u->sub (.lo default, .hi, .wide),
** already shifted so the caller only adds.  Inputs are normalised per type
** so sub-64-bit products fit in 64 bits; 64-bit .hi uses 128-bit math.
*/
static void product(const ptx_uop *u, uint64_t a[NL], uint64_t b[NL], uint64_t p[NL])
{
    ptx_type t = (ptx_type)u->type;
    int n = bits_of(t);
    bool s = ptx_type_is_signed(t);
    if (u->sub == PTX_MUL_HI) {
        norm_all(a, t);
        norm_all(b, t);
        if (n == 64) {
            if (s) LANES p[l] = (uint64_t)(((__int128)(int64_t)a[l] * (int64_t)b[l]) >> 64);
            else LANES p[l] = (uint64_t)(((unsigned __int128)a[l] * b[l]) >> 64);
        } else if (s) {
            LANES p[l] = (uint64_t)(((int64_t)a[l] * (int64_t)b[l]) >> n);
        } else {
            LANES p[l] = (a[l] * b[l]) >> n;
        }
    } else if (u->sub == PTX_MUL_WIDE) {
        norm_all(a, t);
        norm_all(b, t);
        LANES p[l] = a[l] * b[l];   /* exact: both fit in n <= 32 bits */
    } else {
        LANES p[l] = a[l] * b[l];   /* low bits are the same signed or not */
    }
}

EMU_HANDLER(mul)
{
    if (is_float(u))
        return emu_float_arith(w, u, mask);
    uint64_t a[NL], b[NL], d[NL];
    if (u->sub == PTX_MUL_WIDE && bits_of((ptx_type)u->type) == 64)
        return unsupported(w, u);
    src(w, u, 1, a);
    src(w, u, 2, b);
    product(u, a, b, d);
    ptx_type t = u->sub == PTX_MUL_WIDE ? wide_type((ptx_type)u->type) : (ptx_type)u->type;
    emu_dst(w, &u->opd[0], mask, d, t);
    return 0;
}

/* mad and madc: d = product + c (+ carry-in), optional .cc and .sat. */
static int mad_body(emu_warp *w, const ptx_uop *u, uint32_t mask, bool cin)
{
    uint64_t a[NL], b[NL], c[NL], d[NL], p[NL], ci[NL];
    if (u->sub == PTX_MUL_WIDE && bits_of((ptx_type)u->type) == 64)
        return unsupported(w, u);
    ptx_type t = u->sub == PTX_MUL_WIDE ? wide_type((ptx_type)u->type) : (ptx_type)u->type;
    src(w, u, 1, a);
    src(w, u, 2, b);
    src(w, u, 3, c);
    product(u, a, b, p);
    LANES ci[l] = cin ? (w->carry >> l) & 1u : 0;
    if ((u->flags & PTX_F_SAT) && u->type == PTX_T_S32)
        LANES d[l] = (uint64_t)clamp_s32((int64_t)(int32_t)p[l] + (int32_t)c[l] + (int64_t)ci[l]);
    else
        LANES d[l] = p[l] + c[l] + ci[l];
    if (u->flags & PTX_F_CC) {
        uint32_t bits = 0;
        if (bits_of(t) == 64)
            LANES bits |= (uint32_t)(d[l] < p[l] || (ci[l] && d[l] == p[l])) << l;
        else
            LANES bits |= (uint32_t)(((uint64_t)(uint32_t)p[l] + (uint32_t)c[l] + ci[l]) >> 32) << l;
        set_carry(w, mask, bits);
    }
    emu_dst(w, &u->opd[0], mask, d, t);
    return 0;
}

EMU_HANDLER(mad)  { return is_float(u) ? emu_float_arith(w, u, mask) : mad_body(w, u, mask, false); }
EMU_HANDLER(madc) { return mad_body(w, u, mask, true); }

/* ------------------------------------------------------------------ */
/* mul24, mad24, sad                                                   */
/* ------------------------------------------------------------------ */

/* 48-bit product of the low 24 bits of a and b; .hi takes bits 47..16. */
static void product24(const ptx_uop *u, const uint64_t a[NL], const uint64_t b[NL], uint64_t p[NL])
{
    int sh = u->sub == PTX_MUL_HI ? 16 : 0;
    if (ptx_type_is_signed((ptx_type)u->type))
        LANES p[l] = (uint64_t)(((int64_t)((int32_t)((uint32_t)a[l] << 8) >> 8) *
                                 (int64_t)((int32_t)((uint32_t)b[l] << 8) >> 8)) >> sh);
    else
        LANES p[l] = ((a[l] & 0xffffff) * (b[l] & 0xffffff)) >> sh;
}

EMU_HANDLER(mul24)
{
    uint64_t a[NL], b[NL], d[NL];
    src(w, u, 1, a);
    src(w, u, 2, b);
    product24(u, a, b, d);
    emu_dst(w, &u->opd[0], mask, d, (ptx_type)u->type);
    return 0;
}

EMU_HANDLER(mad24)
{
    uint64_t a[NL], b[NL], c[NL], d[NL];
    src(w, u, 1, a);
    src(w, u, 2, b);
    src(w, u, 3, c);
    product24(u, a, b, d);
    if ((u->flags & PTX_F_SAT) && u->type == PTX_T_S32)
        LANES d[l] = (uint64_t)clamp_s32((int64_t)(int32_t)d[l] + (int32_t)c[l]);
    else
        LANES d[l] += c[l];
    emu_dst(w, &u->opd[0], mask, d, (ptx_type)u->type);
    return 0;
}

/* sad: d = c + |a - b| */
EMU_HANDLER(sad)
{
    uint64_t a[NL], b[NL], c[NL], d[NL];
    ptx_type t = (ptx_type)u->type;
    src(w, u, 1, a);
    src(w, u, 2, b);
    src(w, u, 3, c);
    norm_all(a, t);
    norm_all(b, t);
    if (ptx_type_is_signed(t))
        LANES d[l] = c[l] + ((int64_t)a[l] > (int64_t)b[l] ? a[l] - b[l] : b[l] - a[l]);
    else
        LANES d[l] = c[l] + (a[l] > b[l] ? a[l] - b[l] : b[l] - a[l]);
    emu_dst(w, &u->opd[0], mask, d, t);
    return 0;
}

/* ------------------------------------------------------------------ */
/* div, rem                                                            */
/* ------------------------------------------------------------------ */

/*
** Integer division never traps the host.  The PTX ISA leaves division by
** zero machine-specific; we return all ones (the quotient of the GPU's
** unsigned reciprocal sequence) and, for rem, the dividend (so that
** a == (a/b)*b + a%b still holds with b = 0).  MIN / -1 wraps to MIN and
** MIN % -1 is 0.  Inputs are normalised to 64 bits first, so only s64 can
** hit the overflowing case.
*/
EMU_HANDLER(div)
{
    if (is_float(u))
        return emu_float_arith(w, u, mask);
    uint64_t a[NL], b[NL], d[NL];
    ptx_type t = (ptx_type)u->type;
    src(w, u, 1, a);
    src(w, u, 2, b);
    norm_all(a, t);
    norm_all(b, t);
    if (ptx_type_is_signed(t)) {
        LANES {
            int64_t x = (int64_t)a[l], y = (int64_t)b[l];
            d[l] = y == 0 ? ~0ull : y == -1 ? 0 - a[l] : (uint64_t)(x / y);
        }
    } else {
        LANES d[l] = b[l] ? a[l] / b[l] : ~0ull;
    }
    emu_dst(w, &u->opd[0], mask, d, t);
    return 0;
}

EMU_HANDLER(rem)
{
    uint64_t a[NL], b[NL], d[NL];
    ptx_type t = (ptx_type)u->type;
    src(w, u, 1, a);
    src(w, u, 2, b);
    norm_all(a, t);
    norm_all(b, t);
    if (ptx_type_is_signed(t)) {
        LANES {
            int64_t x = (int64_t)a[l], y = (int64_t)b[l];
            d[l] = y == 0 ? a[l] : y == -1 ? 0 : (uint64_t)(x % y);
        }
    } else {
        LANES d[l] = b[l] ? a[l] % b[l] : a[l];
    }
    emu_dst(w, &u->opd[0], mask, d, t);
    return 0;
}

/* ------------------------------------------------------------------ */
/* abs, neg, min, max                                                  */
/* ------------------------------------------------------------------ */

/* abs and neg wrap: abs(MIN) == MIN, neg(MIN) == MIN. */
EMU_HANDLER(abs)
{
    if (is_float(u))
        return emu_float_arith(w, u, mask);
    uint64_t a[NL], d[NL];
    src(w, u, 1, a);
    norm_all(a, (ptx_type)u->type);
    LANES d[l] = (int64_t)a[l] < 0 ? 0 - a[l] : a[l];
    emu_dst(w, &u->opd[0], mask, d, (ptx_type)u->type);
    return 0;
}

EMU_HANDLER(neg)
{
    if (is_float(u))
        return emu_float_arith(w, u, mask);
    uint64_t a[NL], d[NL];
    src(w, u, 1, a);
    LANES d[l] = 0 - a[l];
    emu_dst(w, &u->opd[0], mask, d, (ptx_type)u->type);
    return 0;
}

/* min/max on integers; .relu (signed only) clamps the result at 0. */
static int minmax(emu_warp *w, const ptx_uop *u, uint32_t mask, bool is_max)
{
    uint64_t a[NL], b[NL], d[NL];
    ptx_type t = (ptx_type)u->type;
    src(w, u, 1, a);
    src(w, u, 2, b);
    norm_all(a, t);
    norm_all(b, t);
    if (ptx_type_is_signed(t)) {
        if (is_max) LANES d[l] = (int64_t)a[l] > (int64_t)b[l] ? a[l] : b[l];
        else LANES d[l] = (int64_t)a[l] < (int64_t)b[l] ? a[l] : b[l];
        if (u->flags & PTX_F_RELU)
            LANES d[l] = (int64_t)d[l] < 0 ? 0 : d[l];
    } else {
        if (is_max) LANES d[l] = a[l] > b[l] ? a[l] : b[l];
        else LANES d[l] = a[l] < b[l] ? a[l] : b[l];
    }
    emu_dst(w, &u->opd[0], mask, d, t);
    return 0;
}

EMU_HANDLER(min) { return is_float(u) ? emu_float_arith(w, u, mask) : minmax(w, u, mask, false); }
EMU_HANDLER(max) { return is_float(u) ? emu_float_arith(w, u, mask) : minmax(w, u, mask, true); }

/* ------------------------------------------------------------------ */
/* dp4a, dp2a                                                          */
/* ------------------------------------------------------------------ */

/*
** dp4a.atype.btype d, a, b, c: the decoder stores .btype (the last type
** suffix) in u->type and .atype in u->type2; a missing type2 means both
** are u->type.  The accumulation wraps in 32 bits.
*/
static void dot_types(const ptx_uop *u, bool *as, bool *bs)
{
    ptx_type bt = (ptx_type)u->type;
    ptx_type at = u->type2 != PTX_T_NONE ? (ptx_type)u->type2 : bt;
    *as = ptx_type_is_signed(at);
    *bs = ptx_type_is_signed(bt);
}

/* Field `i` of width `bits` of x, sign- or zero-extended. */
static inline int64_t field(uint64_t x, int i, int bits, bool s)
{
    uint64_t v = (x >> (i * bits)) & ((1ull << bits) - 1);
    if (s && (v >> (bits - 1)))
        v |= ~0ull << bits;
    return (int64_t)v;
}

EMU_HANDLER(dp4a)
{
    uint64_t a[NL], b[NL], c[NL], d[NL];
    bool as, bs;
    dot_types(u, &as, &bs);
    src(w, u, 1, a);
    src(w, u, 2, b);
    src(w, u, 3, c);
    LANES {
        int64_t acc = (int32_t)c[l];
        for (int i = 0; i < 4; i++)
            acc += field(a[l], i, 8, as) * field(b[l], i, 8, bs);
        d[l] = (uint64_t)acc;
    }
    emu_dst(w, &u->opd[0], mask, d, as || bs ? PTX_T_S32 : PTX_T_U32);
    return 0;
}

/* dp2a.lo/.hi: the mode (u->sub == PTX_MUL_HI for .hi) picks b's bytes. */
EMU_HANDLER(dp2a)
{
    uint64_t a[NL], b[NL], c[NL], d[NL];
    bool as, bs;
    dot_types(u, &as, &bs);
    int sel = u->sub == PTX_MUL_HI ? 2 : 0;
    src(w, u, 1, a);
    src(w, u, 2, b);
    src(w, u, 3, c);
    LANES {
        int64_t acc = (int32_t)c[l];
        for (int i = 0; i < 2; i++)
            acc += field(a[l], i, 16, as) * field(b[l], sel + i, 8, bs);
        d[l] = (uint64_t)acc;
    }
    emu_dst(w, &u->opd[0], mask, d, as || bs ? PTX_T_S32 : PTX_T_U32);
    return 0;
}
