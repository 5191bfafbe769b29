/*
** exec_cmp.c -- comparison and selection: setp, set, selp, slct.
**
** A comparison yields a 32-bit lane mask.  Integers compare signed or
** unsigned per the compare type (lo/ls/hi/hs always unsigned); floats
** compare in double (exact for every source format), ordered operators are
** false and unordered ones true when either operand is NaN.  The compare
** type is u->type2 when set, else u->type.
*/
#include "exec.h"
#include "fpu.h"

#define NL EMU_WARP_SIZE
#define LANES for (int l = 0; l < NL; l++)
#define CMP_LOOP(expr) LANES bits |= (uint32_t)(expr) << l

/* One mask from two double arrays. */
static uint32_t cmp_float(const double *x, const double *y, int cmp)
{
    uint32_t bits = 0;
    switch (cmp) {
    case PTX_CMP_EQ:  CMP_LOOP(x[l] == y[l]); break;
    case PTX_CMP_NE:  CMP_LOOP(x[l] < y[l] || x[l] > y[l]); break;
    case PTX_CMP_LT: case PTX_CMP_LO: CMP_LOOP(x[l] < y[l]); break;
    case PTX_CMP_LE: case PTX_CMP_LS: CMP_LOOP(x[l] <= y[l]); break;
    case PTX_CMP_GT: case PTX_CMP_HI: CMP_LOOP(x[l] > y[l]); break;
    case PTX_CMP_GE: case PTX_CMP_HS: CMP_LOOP(x[l] >= y[l]); break;
    case PTX_CMP_EQU: CMP_LOOP(!(x[l] < y[l] || x[l] > y[l])); break;
    case PTX_CMP_NEU: CMP_LOOP(x[l] != y[l]); break;
    case PTX_CMP_LTU: CMP_LOOP(!(x[l] >= y[l])); break;
    case PTX_CMP_LEU: CMP_LOOP(!(x[l] > y[l])); break;
    case PTX_CMP_GTU: CMP_LOOP(!(x[l] <= y[l])); break;
    case PTX_CMP_GEU: CMP_LOOP(!(x[l] < y[l])); break;
    case PTX_CMP_NUM: CMP_LOOP(x[l] == x[l] && y[l] == y[l]); break;
    case PTX_CMP_NAN: CMP_LOOP(x[l] != x[l] || y[l] != y[l]); break;
    default: break;
    }
    return bits;
}

/* Integers: `a`, `b` already normalised to the compare type. */
static uint32_t cmp_int(const uint64_t *a, const uint64_t *b, int cmp, bool s, uint64_t m)
{
    uint32_t bits = 0;
    const int64_t *x = (const int64_t *)a, *y = (const int64_t *)b;
    if (!s) {   /* unsigned type: ordered operators are the unsigned ones */
        switch (cmp) {
        case PTX_CMP_LT: cmp = PTX_CMP_LO; break;
        case PTX_CMP_LE: cmp = PTX_CMP_LS; break;
        case PTX_CMP_GT: cmp = PTX_CMP_HI; break;
        case PTX_CMP_GE: cmp = PTX_CMP_HS; break;
        default: break;
        }
    }
    switch (cmp) {
    case PTX_CMP_EQ: CMP_LOOP(a[l] == b[l]); break;
    case PTX_CMP_NE: CMP_LOOP(a[l] != b[l]); break;
    case PTX_CMP_LT: CMP_LOOP(x[l] < y[l]); break;
    case PTX_CMP_LE: CMP_LOOP(x[l] <= y[l]); break;
    case PTX_CMP_GT: CMP_LOOP(x[l] > y[l]); break;
    case PTX_CMP_GE: CMP_LOOP(x[l] >= y[l]); break;
    case PTX_CMP_LO: CMP_LOOP((a[l] & m) < (b[l] & m)); break;
    case PTX_CMP_LS: CMP_LOOP((a[l] & m) <= (b[l] & m)); break;
    case PTX_CMP_HI: CMP_LOOP((a[l] & m) > (b[l] & m)); break;
    case PTX_CMP_HS: CMP_LOOP((a[l] & m) >= (b[l] & m)); break;
    default: break;
    }
    return bits;
}

/* Widen float lanes of type `t` (low 16 bits at `shift` for halves). */
static void widen(const uint64_t *a, ptx_type t, bool ftz, int shift, double *x)
{
    switch (t) {
    case PTX_T_F64: LANES x[l] = fpu_f64(a[l]); break;
    case PTX_T_F16: case PTX_T_F16X2:
        if (ftz) LANES x[l] = fpu_h2d(fpu_ftz_narrow((uint32_t)(a[l] >> shift) & 0xffff, 5, 10));
        else LANES x[l] = fpu_h2d(a[l] >> shift);
        break;
    case PTX_T_BF16: case PTX_T_BF16X2: LANES x[l] = fpu_bf2d(a[l] >> shift); break;
    default:
        if (ftz) LANES x[l] = fpu_ftz32(fpu_f32(a[l]));
        else LANES x[l] = fpu_f32(a[l]);
        break;
    }
}

/*
** Compare operands 1 and 2 of `u` with compare type `t`.  For the x2
** types, `hi` selects the upper halves.
*/
static uint32_t compare(const emu_warp *w, const ptx_uop *u, ptx_type t, bool hi)
{
    uint64_t a[NL], b[NL];
    emu_src(w, &u->opd[1], a);
    emu_src(w, &u->opd[2], b);
    if (ptx_type_is_float(t)) {
        double x[NL], y[NL];
        bool ftz = u->flags & PTX_F_FTZ;
        widen(a, t, ftz, hi ? 16 : 0, x);
        widen(b, t, ftz, hi ? 16 : 0, y);
        return cmp_float(x, y, u->cmp);
    }
    LANES { a[l] = emu_norm(a[l], t); b[l] = emu_norm(b[l], t); }
    int n = ptx_type_size[t] * 8;
    return cmp_int(a, b, u->cmp, ptx_type_is_signed(t), n >= 64 ? ~0ull : (1ull << n) - 1);
}

static uint32_t bool_op(int bop, uint32_t t, uint32_t c)
{
    switch (bop) {
    case PTX_BOP_AND: return t & c;
    case PTX_BOP_OR:  return t | c;
    case PTX_BOP_XOR: return t ^ c;
    default:          return t;
    }
}

static ptx_type cmp_type(const ptx_uop *u)
{
    return (ptx_type)(u->type2 != PTX_T_NONE ? u->type2 : u->type);
}

/*
** setp p[|q], a, b[, {!}c]: p = BoolOp(t, c), q = BoolOp(!t, c).  For
** f16x2/bf16x2, t for p compares the lower halves and t for q the upper
** halves (each then combined with c).
*/
EMU_HANDLER(setp)
{
    ptx_type t = cmp_type(u);
    bool x2 = t == PTX_T_F16X2 || t == PTX_T_BF16X2;
    uint32_t tp = compare(w, u, t, false);
    uint32_t tq = x2 ? compare(w, u, t, true) : ~tp;
    uint32_t c = u->bop ? emu_src_pred(w, &u->opd[3]) : 0;
    emu_dst_pred(w, &u->opd[0], mask, bool_op(u->bop, tp, c));
    if (u->opd[0].reg2 >= 0) {
        ptx_operand q = { .kind = PTX_OPD_PRED, .reg = u->opd[0].reg2, .reg2 = -1, .sym = -1 };
        emu_dst_pred(w, &q, mask, bool_op(u->bop, tq, c));
    }
    return 0;
}

/* set: d = BoolOp(t, c) ? (1.0f or all ones) : 0, d typed by u->type. */
EMU_HANDLER(set)
{
    ptx_type t = cmp_type(u);
    uint32_t c = u->bop ? emu_src_pred(w, &u->opd[3]) : 0;
    uint32_t r = bool_op(u->bop, compare(w, u, t, false), c);
    if ((u->flags & PTX_F_PRED_DST) || u->opd[0].kind == PTX_OPD_PRED) {
        emu_dst_pred(w, &u->opd[0], mask, r);
        return 0;
    }
    uint64_t one = u->type == PTX_T_F32 ? 0x3f800000u : 0xffffffffu, d[NL];
    LANES d[l] = (r >> l) & 1 ? one : 0;
    emu_dst(w, &u->opd[0], mask, d, u->type == PTX_T_S32 ? PTX_T_S32 : PTX_T_U32);
    return 0;
}

/* selp d, a, b, c: d = c ? a : b */
EMU_HANDLER(selp)
{
    uint64_t a[NL], b[NL], d[NL];
    emu_src(w, &u->opd[1], a);
    emu_src(w, &u->opd[2], b);
    uint32_t c = emu_src_pred(w, &u->opd[3]);
    LANES d[l] = (c >> l) & 1 ? a[l] : b[l];
    emu_dst(w, &u->opd[0], mask, d, (ptx_type)u->type);
    return 0;
}

/*
** slct d, a, b, c: d = c >= 0 ? a : b.  The selector c is f32 when
** u->type2 says so (with .ftz, a negative subnormal counts as -0 and picks
** a; NaN picks b), else s32.
*/
EMU_HANDLER(slct)
{
    uint64_t a[NL], b[NL], c[NL], d[NL];
    emu_src(w, &u->opd[1], a);
    emu_src(w, &u->opd[2], b);
    emu_src(w, &u->opd[3], c);
    if (u->type2 == PTX_T_F32) {
        bool ftz = u->flags & PTX_F_FTZ;
        LANES {
            float f = ftz ? fpu_ftz32(fpu_f32(c[l])) : fpu_f32(c[l]);
            d[l] = f >= 0.0f ? a[l] : b[l];
        }
    } else {
        LANES d[l] = (int32_t)c[l] >= 0 ? a[l] : b[l];
    }
    emu_dst(w, &u->opd[0], mask, d, (ptx_type)u->type);
    return 0;
}
