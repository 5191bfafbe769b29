/*
** exec_bit.c -- bit manipulation and logic: popc, clz, bfind, fns, brev,
** bfe, bfi, bmsk, szext, prmt, lop3, shf, shl, shr, and/or/xor/not/cnot
** (the last four also on predicates, as whole lane masks).
**
** Values are computed on 64 bits and emu_dst() truncates to the type, so
** one loop serves b16, b32 and b64 wherever the low bits do not depend on
** the width.  Position/length rules follow the PTX ISA pseudo-code.
*/
#include "exec.h"

#define NL EMU_WARP_SIZE
#define LANES for (int l = 0; l < NL; l++)

static inline void src(const emu_warp *w, const ptx_uop *u, int i, uint64_t v[NL])
{
    emu_src(w, &u->opd[i], v);
}

static inline void dst(emu_warp *w, const ptx_uop *u, uint32_t mask, const uint64_t v[NL], ptx_type t)
{
    emu_dst(w, &u->opd[0], mask, v, t);
}

static int width(const ptx_uop *u) { return ptx_type_size[u->type] * 8; }

/* The low `k` bits set (k in 0..64). */
static inline uint64_t low_mask(int k) { return k >= 64 ? ~0ull : (1ull << k) - 1; }

/* ------------------------------------------------------------------ */
/* counting and searching                                              */
/* ------------------------------------------------------------------ */

EMU_HANDLER(popc)
{
    uint64_t a[NL], d[NL];
    src(w, u, 1, a);
    if (width(u) == 64) LANES d[l] = (uint64_t)__builtin_popcountll(a[l]);
    else LANES d[l] = (uint64_t)__builtin_popcount((uint32_t)a[l]);
    dst(w, u, mask, d, PTX_T_U32);
    return 0;
}

EMU_HANDLER(clz)
{
    uint64_t a[NL], d[NL];
    src(w, u, 1, a);
    if (width(u) == 64) LANES d[l] = a[l] ? (uint64_t)__builtin_clzll(a[l]) : 64;
    else LANES d[l] = (uint32_t)a[l] ? (uint64_t)__builtin_clz((uint32_t)a[l]) : 32;
    dst(w, u, mask, d, PTX_T_U32);
    return 0;
}

/* bfind: position of the most significant non-sign bit, or 0xffffffff. */
EMU_HANDLER(bfind)
{
    uint64_t a[NL], d[NL];
    int n = width(u);
    bool s = ptx_type_is_signed((ptx_type)u->type);
    bool shiftamt = u->flags & PTX_F_SHIFTAMT;
    src(w, u, 1, a);
    LANES {
        uint64_t x = a[l] & low_mask(n);
        if (s && (x >> (n - 1)))
            x = ~x & low_mask(n);
        uint64_t r = 0xffffffffu;
        if (x) {
            r = (uint64_t)(63 - __builtin_clzll(x));
            if (shiftamt)
                r = (uint64_t)(n - 1) - r;
        }
        d[l] = r;
    }
    dst(w, u, mask, d, PTX_T_U32);
    return 0;
}

/* fns d, mask, base, offset: the |offset|-th set bit from base, walking up
   (offset > 0) or down (offset < 0); 0xffffffff if there is none. */
EMU_HANDLER(fns)
{
    uint64_t m[NL], b[NL], o[NL], d[NL];
    src(w, u, 1, m);
    src(w, u, 2, b);
    src(w, u, 3, o);
    LANES {
        uint32_t bits = (uint32_t)m[l];
        int base = (int)((uint32_t)b[l] & 31), off = (int32_t)o[l];
        uint64_t r = 0xffffffffu;
        if (off == 0) {
            if ((bits >> base) & 1)
                r = (uint64_t)base;
        } else {
            int count = off > 0 ? off : -off, inc = off > 0 ? 1 : -1;
            for (int pos = base; pos >= 0 && pos < 32; pos += inc) {
                if (((bits >> pos) & 1) && --count == 0) {
                    r = (uint64_t)pos;
                    break;
                }
            }
        }
        d[l] = r;
    }
    dst(w, u, mask, d, PTX_T_B32);
    return 0;
}

static inline uint64_t reverse64(uint64_t x)
{
    x = ((x >> 1) & 0x5555555555555555ull) | ((x & 0x5555555555555555ull) << 1);
    x = ((x >> 2) & 0x3333333333333333ull) | ((x & 0x3333333333333333ull) << 2);
    x = ((x >> 4) & 0x0f0f0f0f0f0f0f0full) | ((x & 0x0f0f0f0f0f0f0f0full) << 4);
    return __builtin_bswap64(x);
}

EMU_HANDLER(brev)
{
    uint64_t a[NL], d[NL];
    int sh = 64 - width(u);
    src(w, u, 1, a);
    LANES d[l] = reverse64(a[l]) >> sh;
    dst(w, u, mask, d, (ptx_type)u->type);
    return 0;
}

/* ------------------------------------------------------------------ */
/* bit fields                                                          */
/* ------------------------------------------------------------------ */

/*
** bfe d, a, pos, len (pos, len: low 8 bits).  The bits that exist in a
** are copied; the rest of d is the sign bit a[min(pos+len-1, msb)] for
** signed types, 0 for unsigned; len == 0 gives 0.
*/
EMU_HANDLER(bfe)
{
    uint64_t a[NL], b[NL], c[NL], d[NL];
    int n = width(u);
    bool s = ptx_type_is_signed((ptx_type)u->type);
    src(w, u, 1, a);
    src(w, u, 2, b);
    src(w, u, 3, c);
    LANES {
        int pos = (int)(b[l] & 0xff), len = (int)(c[l] & 0xff);
        int k = pos >= n ? 0 : (len < n - pos ? len : n - pos);
        uint64_t f = k ? (a[l] >> pos) & low_mask(k) : 0;
        if (s && len) {
            int sb = pos + len - 1 < n - 1 ? pos + len - 1 : n - 1;
            if ((a[l] >> sb) & 1)
                f |= ~low_mask(k);
        }
        d[l] = f;
    }
    dst(w, u, mask, d, (ptx_type)u->type);
    return 0;
}

/* bfi f, a, b, pos, len: b with bits [pos, pos+len) replaced by a's low bits. */
EMU_HANDLER(bfi)
{
    uint64_t a[NL], b[NL], c[NL], e[NL], d[NL];
    int n = width(u);
    src(w, u, 1, a);
    src(w, u, 2, b);
    src(w, u, 3, c);
    src(w, u, 4, e);
    LANES {
        int pos = (int)(c[l] & 0xff), len = (int)(e[l] & 0xff);
        int k = pos >= n ? 0 : (len < n - pos ? len : n - pos);
        uint64_t m = k ? low_mask(k) << pos : 0;
        d[l] = (b[l] & ~m) | ((a[l] << (pos & 63)) & m);
    }
    dst(w, u, mask, d, (ptx_type)u->type);
    return 0;
}

/* bmsk.{clamp,wrap}.b32 d, a(start), b(width): a run of ones. */
EMU_HANDLER(bmsk)
{
    uint64_t a[NL], b[NL], d[NL];
    bool clamp = u->flags & PTX_F_CLAMP;
    src(w, u, 1, a);
    src(w, u, 2, b);
    LANES {
        uint32_t a0 = (uint32_t)a[l], b0 = (uint32_t)b[l];
        uint32_t a1 = a0 & 31, b1 = b0 & 31, sum = a1 + b1;
        uint32_t mask0 = ~0u << a1;
        uint32_t mask1 = sum >= 32 ? 0 : ~0u << sum;
        if (clamp && a0 >= 32)
            mask0 = 0;
        if (sum >= 32 || (clamp && (a0 >= 32 || b0 >= 32)))
            mask1 = 0;
        else if (b1 == 0)
            mask1 = ~0u;
        d[l] = mask0 & ~mask1;
    }
    dst(w, u, mask, d, PTX_T_B32);
    return 0;
}

/* szext.{clamp,wrap}.{s32,u32} d, a, N: extend the low N bits of a. */
EMU_HANDLER(szext)
{
    uint64_t a[NL], b[NL], d[NL];
    bool clamp = u->flags & PTX_F_CLAMP;
    bool s = u->type == PTX_T_S32;
    src(w, u, 1, a);
    src(w, u, 2, b);
    LANES {
        uint32_t x = (uint32_t)a[l], n = (uint32_t)b[l], n1 = n & 31;
        bool too_large = clamp && n >= 32;
        uint32_t m = too_large ? 0 : ~0u << n1;
        bool sign = s && n1 && !too_large && ((x >> ((n1 - 1) & 31)) & 1);
        d[l] = (x & ~m) | (sign ? m : 0);
    }
    dst(w, u, mask, d, s ? PTX_T_S32 : PTX_T_U32);
    return 0;
}

/* ------------------------------------------------------------------ */
/* prmt, lop3, funnel shift, shifts                                    */
/* ------------------------------------------------------------------ */

/* Source byte (of the 8 in {b, a}) for each result byte 0..3, per mode
   and selector c & 3 (PTX ISA table, listed here from result byte 0). */
static const uint8_t prmt_table[7][4][4] = {
    [PTX_PRMT_F4E]  = { {0,1,2,3}, {1,2,3,4}, {2,3,4,5}, {3,4,5,6} },
    [PTX_PRMT_B4E]  = { {0,7,6,5}, {1,0,7,6}, {2,1,0,7}, {3,2,1,0} },
    [PTX_PRMT_RC8]  = { {0,0,0,0}, {1,1,1,1}, {2,2,2,2}, {3,3,3,3} },
    [PTX_PRMT_ECL]  = { {0,1,2,3}, {1,1,2,3}, {2,2,2,3}, {3,3,3,3} },
    [PTX_PRMT_ECR]  = { {0,0,0,0}, {0,1,1,1}, {0,1,2,2}, {0,1,2,3} },
    [PTX_PRMT_RC16] = { {0,1,0,1}, {2,3,2,3}, {0,1,0,1}, {2,3,2,3} },
};

EMU_HANDLER(prmt)
{
    uint64_t a[NL], b[NL], c[NL], d[NL];
    int mode = u->sub <= PTX_PRMT_RC16 ? u->sub : 0;
    src(w, u, 1, a);
    src(w, u, 2, b);
    src(w, u, 3, c);
    LANES {
        uint64_t t = (b[l] << 32) | (uint32_t)a[l];
        uint32_t r = 0;
        for (int i = 0; i < 4; i++) {
            uint32_t byte;
            if (mode) {
                byte = (uint32_t)(t >> (8 * prmt_table[mode][c[l] & 3][i])) & 0xff;
            } else {
                uint32_t sel = (uint32_t)(c[l] >> (4 * i)) & 0xf;
                byte = (uint32_t)(t >> (8 * (sel & 7))) & 0xff;
                if (sel & 8)
                    byte = (byte & 0x80) ? 0xff : 0;
            }
            r |= byte << (8 * i);
        }
        d[l] = r;
    }
    dst(w, u, mask, d, PTX_T_B32);
    return 0;
}

/*
** lop3 d, a, b, c, lut: bit i of d is lut[a_i*4 + b_i*2 + c_i] (the PTX
** encoding F(0xF0, 0xCC, 0xAA)).  The sum of the minterms in the table is
** built once per instruction; each lane then ORs at most 8 terms.
*/
EMU_HANDLER(lop3)
{
    uint64_t a[NL], b[NL], c[NL], d[NL], lut[NL];
    src(w, u, 1, a);
    src(w, u, 2, b);
    src(w, u, 3, c);
    src(w, u, 4, lut);
    uint32_t k = (uint32_t)lut[0] & 0xff;
    if (u->opd[4].kind == PTX_OPD_IMM) {
        LANES {
            uint64_t x = a[l], y = b[l], z = c[l], r = 0;
            for (int i = 0; i < 8; i++)
                if ((k >> i) & 1)
                    r |= (i & 4 ? x : ~x) & (i & 2 ? y : ~y) & (i & 1 ? z : ~z);
            d[l] = r;
        }
    } else {  /* a register LUT may differ per lane */
        LANES {
            uint64_t x = a[l], y = b[l], z = c[l], r = 0;
            for (int i = 0; i < 8; i++)
                if ((lut[l] >> i) & 1)
                    r |= (i & 4 ? x : ~x) & (i & 2 ? y : ~y) & (i & 1 ? z : ~z);
            d[l] = r;
        }
    }
    dst(w, u, mask, d, PTX_T_B32);
    return 0;
}

/* shf.{l,r}.{wrap,clamp}.b32 d, a, b, c: funnel shift of {b:a} by c. */
EMU_HANDLER(shf)
{
    uint64_t a[NL], b[NL], c[NL], d[NL];
    bool clamp = u->flags & PTX_F_CLAMP;
    src(w, u, 1, a);
    src(w, u, 2, b);
    src(w, u, 3, c);
    LANES {
        uint32_t n = (uint32_t)c[l];
        n = clamp ? (n > 32 ? 32 : n) : n & 31;
        uint64_t v = (b[l] << 32) | (uint32_t)a[l];
        d[l] = u->sub == PTX_SHF_L ? (v << n) >> 32 : (v >> n);
    }
    dst(w, u, mask, d, PTX_T_B32);
    return 0;
}

/* shl: amounts >= the width give 0 (the amount is an unsigned 32-bit value). */
EMU_HANDLER(shl)
{
    uint64_t a[NL], b[NL], d[NL];
    uint32_t n = (uint32_t)width(u);
    src(w, u, 1, a);
    src(w, u, 2, b);
    LANES d[l] = (uint32_t)b[l] >= n ? 0 : a[l] << (uint32_t)b[l];
    dst(w, u, mask, d, (ptx_type)u->type);
    return 0;
}

/* shr: .s types shift in the sign (all sign bits past the width). */
EMU_HANDLER(shr)
{
    uint64_t a[NL], b[NL], d[NL];
    ptx_type t = (ptx_type)u->type;
    uint32_t n = (uint32_t)width(u);
    src(w, u, 1, a);
    src(w, u, 2, b);
    if (ptx_type_is_signed(t)) {
        LANES {
            uint32_t s = (uint32_t)b[l] >= n ? 63 : (uint32_t)b[l];
            d[l] = (uint64_t)((int64_t)emu_norm(a[l], t) >> s);
        }
    } else {
        uint64_t m = low_mask((int)n);
        LANES d[l] = (uint32_t)b[l] >= n ? 0 : (a[l] & m) >> (uint32_t)b[l];
    }
    dst(w, u, mask, d, t);
    return 0;
}

/* ------------------------------------------------------------------ */
/* logic                                                               */
/* ------------------------------------------------------------------ */

enum { LOGIC_AND, LOGIC_OR, LOGIC_XOR };

static int logic(emu_warp *w, const ptx_uop *u, uint32_t mask, int op)
{
    if (u->type == PTX_T_PRED) {
        uint32_t a = emu_src_pred(w, &u->opd[1]), b = emu_src_pred(w, &u->opd[2]);
        uint32_t r = op == LOGIC_AND ? a & b : op == LOGIC_OR ? a | b : a ^ b;
        emu_dst_pred(w, &u->opd[0], mask, r);
        return 0;
    }
    uint64_t a[NL], b[NL], d[NL];
    src(w, u, 1, a);
    src(w, u, 2, b);
    switch (op) {
    case LOGIC_AND: LANES d[l] = a[l] & b[l]; break;
    case LOGIC_OR:  LANES d[l] = a[l] | b[l]; break;
    default:        LANES d[l] = a[l] ^ b[l]; break;
    }
    dst(w, u, mask, d, (ptx_type)u->type);
    return 0;
}

EMU_HANDLER(and) { return logic(w, u, mask, LOGIC_AND); }
EMU_HANDLER(or)  { return logic(w, u, mask, LOGIC_OR); }
EMU_HANDLER(xor) { return logic(w, u, mask, LOGIC_XOR); }

EMU_HANDLER(not)
{
    if (u->type == PTX_T_PRED) {
        emu_dst_pred(w, &u->opd[0], mask, ~emu_src_pred(w, &u->opd[1]));
        return 0;
    }
    uint64_t a[NL], d[NL];
    src(w, u, 1, a);
    LANES d[l] = ~a[l];
    dst(w, u, mask, d, (ptx_type)u->type);
    return 0;
}

/* cnot: d = (a == 0) ? 1 : 0, looking only at the type's bits. */
EMU_HANDLER(cnot)
{
    uint64_t a[NL], d[NL];
    uint64_t m = low_mask(width(u));
    src(w, u, 1, a);
    LANES d[l] = (a[l] & m) == 0;
    dst(w, u, mask, d, (ptx_type)u->type);
    return 0;
}
