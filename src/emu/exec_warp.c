/*
** exec_warp.c -- warp-level collectives: shfl, vote, activemask, match,
** redux.
**
** The emulator executes a warp's lanes together, so the .sync variants'
** membermask needs no waiting: the lanes taking part are the executing
** lanes that are also in the membermask.
*/
#include "exec.h"

/* Membermask operand `i` if present, else all lanes. */
static uint32_t member_mask(emu_warp *w, const ptx_uop *u, int i, uint32_t mask)
{
    if (i >= u->nopd || u->opd[i].kind == PTX_OPD_NONE) return EMU_FULL_MASK;
    uint64_t v[EMU_WARP_SIZE];
    emu_src(w, &u->opd[i], v);
    return (uint32_t)v[__builtin_ctz(mask)];
}

/*
** shfl.sync.mode.b32 d[|p], a, b, c, membermask  (PTX ISA pseudocode):
**   segmask = c[12:8]; maxLane = (lane & segmask) | (c[4:0] & ~segmask);
**   minLane = lane & segmask; j per mode; out-of-range j reads its own lane.
*/
EMU_HANDLER(shfl)
{
    uint64_t a[EMU_WARP_SIZE], b[EMU_WARP_SIZE], c[EMU_WARP_SIZE], d[EMU_WARP_SIZE];
    const ptx_operand *dst = &u->opd[0];
    emu_src(w, &u->opd[1], a);
    emu_src(w, &u->opd[2], b);
    emu_src(w, &u->opd[3], c);
    uint32_t inrange = 0;
    for (uint32_t m = mask; m; m &= m - 1) {
        int lane = __builtin_ctz(m);
        int bval = (int)(b[lane] & 31), cval = (int)(c[lane] & 31);
        int seg = (int)((c[lane] >> 8) & 31);
        int maxl = (lane & seg) | (cval & ~seg), minl = lane & seg;
        int j;
        bool ok;
        switch (u->sub) {
        case PTX_SHFL_UP:   j = lane - bval; ok = j >= maxl; break;
        case PTX_SHFL_DOWN: j = lane + bval; ok = j <= maxl; break;
        case PTX_SHFL_BFLY: j = lane ^ bval; ok = j <= maxl; break;
        default:            j = minl | (bval & ~seg); ok = j <= maxl; break;
        }
        if (!ok || j < 0 || j > 31) j = lane;
        d[lane] = a[j];
        inrange |= (uint32_t)ok << lane;
    }
    emu_dst(w, dst, mask, d, u->type ? u->type : PTX_T_B32);
    if (dst->kind == PTX_OPD_REG && dst->reg2 >= 0) {
        ptx_operand p = { .kind = PTX_OPD_PRED, .reg = dst->reg2, .reg2 = -1, .sym = -1 };
        emu_dst_pred(w, &p, mask, inrange);
    }
    return 0;
}

/* vote{.sync}.mode.pred d, {!}a[, membermask]; ballot writes a b32 mask. */
EMU_HANDLER(vote)
{
    uint32_t part = mask & member_mask(w, u, 2, mask);
    uint32_t a = emu_src_pred(w, &u->opd[1]) & part;
    uint32_t res;
    switch (u->sub) {
    case PTX_VOTE_ALL: res = a == part ? EMU_FULL_MASK : 0; break;
    case PTX_VOTE_ANY: res = a ? EMU_FULL_MASK : 0; break;
    case PTX_VOTE_UNI: res = (a == 0 || a == part) ? EMU_FULL_MASK : 0; break;
    default: {
        uint64_t v[EMU_WARP_SIZE];
        for (int l = 0; l < EMU_WARP_SIZE; l++) v[l] = a;
        emu_dst(w, &u->opd[0], mask, v, PTX_T_B32);
        return 0;
    }
    }
    emu_dst_pred(w, &u->opd[0], mask, res);
    return 0;
}

EMU_HANDLER(activemask)
{
    uint64_t v[EMU_WARP_SIZE];
    for (int l = 0; l < EMU_WARP_SIZE; l++) v[l] = mask;
    emu_dst(w, &u->opd[0], mask, v, PTX_T_B32);
    return 0;
}

/* match.any.sync.b32 d, a, membermask; match.all.sync.b32 d[|p], a, membermask */
EMU_HANDLER(match)
{
    uint64_t a[EMU_WARP_SIZE], d[EMU_WARP_SIZE];
    uint32_t part = mask & member_mask(w, u, 2, mask);
    bool wide = ptx_type_size[u->type] == 8;
    emu_src(w, &u->opd[1], a);
    if (!wide)
        for (int l = 0; l < EMU_WARP_SIZE; l++) a[l] = (uint32_t)a[l];
    uint32_t all = 0;
    for (uint32_t m = part; m; m &= m - 1) {
        int lane = __builtin_ctz(m);
        uint32_t same = 0;
        for (uint32_t k = part; k; k &= k - 1) {
            int o = __builtin_ctz(k);
            same |= (uint32_t)(a[o] == a[lane]) << o;
        }
        d[lane] = same;
        if (lane == __builtin_ctz(part)) all = same == part ? part : 0;
    }
    if (u->sub == PTX_MATCH_ALL)
        for (uint32_t m = part; m; m &= m - 1) d[__builtin_ctz(m)] = all;
    emu_dst(w, &u->opd[0], part, d, PTX_T_B32);
    const ptx_operand *dst = &u->opd[0];
    if (u->sub == PTX_MATCH_ALL && dst->kind == PTX_OPD_REG && dst->reg2 >= 0) {
        ptx_operand p = { .kind = PTX_OPD_PRED, .reg = dst->reg2, .reg2 = -1, .sym = -1 };
        emu_dst_pred(w, &p, part, all ? EMU_FULL_MASK : 0);
    }
    return 0;
}

/* redux.sync.op.type d, a, membermask */
EMU_HANDLER(redux)
{
    uint64_t a[EMU_WARP_SIZE], d[EMU_WARP_SIZE];
    uint32_t part = mask & member_mask(w, u, 2, mask);
    emu_src(w, &u->opd[1], a);
    bool sgn = ptx_type_is_signed(u->type);
    int first = __builtin_ctz(part);
    uint64_t acc = sgn ? (uint64_t)(int64_t)(int32_t)a[first] : (uint32_t)a[first];
    for (uint32_t m = part & (part - 1); m; m &= m - 1) {
        int l = __builtin_ctz(m);
        uint64_t x = sgn ? (uint64_t)(int64_t)(int32_t)a[l] : (uint32_t)a[l];
        switch (u->sub) {
        case PTX_ATOM_ADD: acc += x; break;
        case PTX_ATOM_MIN: acc = sgn ? ((int64_t)x < (int64_t)acc ? x : acc) : (x < acc ? x : acc); break;
        case PTX_ATOM_MAX: acc = sgn ? ((int64_t)x > (int64_t)acc ? x : acc) : (x > acc ? x : acc); break;
        case PTX_ATOM_AND: acc &= x; break;
        case PTX_ATOM_OR:  acc |= x; break;
        case PTX_ATOM_XOR: acc ^= x; break;
        default:
            return emu_fault_at(w, u, first, EMU_FAULT_UNSUPPORTED,
                                "redux operation %u is not supported", u->sub);
        }
    }
    for (int l = 0; l < EMU_WARP_SIZE; l++) d[l] = acc;
    emu_dst(w, &u->opd[0], part, d, u->type ? u->type : PTX_T_B32);
    return 0;
}
