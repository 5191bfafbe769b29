/*
** operand.c -- reading and writing instruction operands for all 32 lanes.
**
** Handlers never decode operands themselves: they call emu_src() to get a
** value per lane and emu_dst() to store results, so the register layout
** (64-bit slots, signed values kept sign-extended; see ptx_ir.h) lives in
** this file and emu.h only.
*/
#include <string.h>
#include "emu.h"

/* Byte offset of the current call frame in every thread's local stack. */
static uint64_t frame_local_base(const emu_warp *w)
{
    return w->frame_n ? w->frames[w->frame_n - 1].local_base : 0;
}

/* Uniform part of an address or symbol value: symbol base, frame base and
   displacement. */
static uint64_t uniform_part(const emu_warp *w, const ptx_operand *o)
{
    uint64_t a = (uint64_t)o->imm;
    if (o->sym >= 0)
        a += w->launch->sym_base[o->sym];
    if (o->flags & PTX_OPD_F_FRAME)
        a += frame_local_base(w);
    return a;
}

static void fill(uint64_t v[EMU_WARP_SIZE], uint64_t x)
{
    for (int l = 0; l < EMU_WARP_SIZE; l++)
        v[l] = x;
}

/* Lane masks relative to each lane's own position: %lanemask_*. */
static uint64_t lanemask(int which, int lane)
{
    uint32_t eq = 1u << lane;
    uint32_t lt = eq - 1;
    switch (which) {
    case PTX_SREG_LANEMASK_EQ: return eq;
    case PTX_SREG_LANEMASK_LT: return lt;
    case PTX_SREG_LANEMASK_LE: return lt | eq;
    case PTX_SREG_LANEMASK_GT: return ~(lt | eq);
    default:                   return ~lt; /* GE */
    }
}

/*
** Special registers.  %clock and %globaltimer count this warp's executed
** instructions: deterministic in the functional emulator; the timing
** model supplies real cycles later.
*/
static void special(const emu_warp *w, const ptx_operand *o, uint64_t v[EMU_WARP_SIZE])
{
    const emu_launch *L = w->launch;
    int c = o->reg2 < 0 ? 0 : o->reg2 > 2 ? 2 : o->reg2;
    switch (o->reg) {
    case PTX_SREG_TID:
        for (int l = 0; l < EMU_WARP_SIZE; l++) v[l] = w->tid[c][l];
        return;
    case PTX_SREG_LANEID:
        for (int l = 0; l < EMU_WARP_SIZE; l++) v[l] = (uint64_t)l;
        return;
    case PTX_SREG_LANEMASK_EQ: case PTX_SREG_LANEMASK_LT: case PTX_SREG_LANEMASK_LE:
    case PTX_SREG_LANEMASK_GT: case PTX_SREG_LANEMASK_GE:
        for (int l = 0; l < EMU_WARP_SIZE; l++) v[l] = (uint32_t)lanemask(o->reg, l);
        return;
    case PTX_SREG_NTID:   fill(v, L->block[c]); return;
    case PTX_SREG_CTAID:  fill(v, w->cta->ctaid[c]); return;
    case PTX_SREG_NCTAID: fill(v, L->grid[c]); return;
    case PTX_SREG_WARPID: fill(v, w->wid); return;
    case PTX_SREG_NWARPID: fill(v, 64); return;
    case PTX_SREG_SMID:
        fill(v, w->cta->smid);
        return;
    case PTX_SREG_NSMID: fill(v, L->smid_count); return;
    case PTX_SREG_GRIDID: fill(v, 1); return;
    case PTX_SREG_CLOCK: case PTX_SREG_CLOCK64:
    case PTX_SREG_GLOBALTIMER: case PTX_SREG_GLOBALTIMER_LO:
        fill(v, w->warp_insns); return;
    case PTX_SREG_CLOCK_HI: case PTX_SREG_GLOBALTIMER_HI:
        fill(v, w->warp_insns >> 32); return;
    case PTX_SREG_DYNAMIC_SMEM_SIZE: fill(v, L->dyn_shared); return;
    case PTX_SREG_TOTAL_SMEM_SIZE: fill(v, L->shared_bytes); return;
    case PTX_SREG_WARPSZ: fill(v, EMU_WARP_SIZE); return;
    default: fill(v, 0); return;
    }
}

void emu_src(const emu_warp *w, const ptx_operand *o, uint64_t v[EMU_WARP_SIZE])
{
    switch (o->kind) {
    case PTX_OPD_REG:
        memcpy(v, w->r + (size_t)o->reg * EMU_WARP_SIZE, sizeof(uint64_t) * EMU_WARP_SIZE);
        return;
    case PTX_OPD_IMM:
        fill(v, (uint64_t)o->imm);
        return;
    case PTX_OPD_PRED: {
        uint32_t bits = emu_src_pred(w, o);
        for (int l = 0; l < EMU_WARP_SIZE; l++) v[l] = (bits >> l) & 1u;
        return;
    }
    case PTX_OPD_SREG:
        special(w, o, v);
        return;
    case PTX_OPD_SYM:
        fill(v, uniform_part(w, o));
        return;
    case PTX_OPD_ADDR:
        emu_addr(w, o, v);
        return;
    default:
        fill(v, 0);
        return;
    }
}

void emu_addr(const emu_warp *w, const ptx_operand *o, uint64_t v[EMU_WARP_SIZE])
{
    uint64_t base = uniform_part(w, o);
    if (o->reg < 0) {
        fill(v, base);
        return;
    }
    const uint64_t *r = w->r + (size_t)o->reg * EMU_WARP_SIZE;
    for (int l = 0; l < EMU_WARP_SIZE; l++)
        v[l] = r[l] + base;
}

uint32_t emu_src_pred(const emu_warp *w, const ptx_operand *o)
{
    uint32_t bits;
    if (o->kind == PTX_OPD_PRED)
        bits = w->p[o->reg];
    else if (o->kind == PTX_OPD_IMM)
        bits = o->imm ? EMU_FULL_MASK : 0;
    else if (o->kind == PTX_OPD_REG) {   /* integer used as a boolean */
        const uint64_t *r = w->r + (size_t)o->reg * EMU_WARP_SIZE;
        bits = 0;
        for (int l = 0; l < EMU_WARP_SIZE; l++)
            bits |= (uint32_t)(r[l] != 0) << l;
    } else
        bits = 0;
    return (o->flags & PTX_OPD_F_NEG) ? ~bits : bits;
}

/* Store `v` into register lanes `r` for `mask`, each normalised by `conv`
   (one loop per width so the type switch stays out of the lane loop). */
#define STORE_LANES(conv)                                           \
    do {                                                            \
        if (mask == EMU_FULL_MASK) {                                \
            for (int l = 0; l < EMU_WARP_SIZE; l++) r[l] = conv(v[l]); \
        } else {                                                    \
            for (uint32_t m = mask; m; m &= m - 1) {                \
                int l = __builtin_ctz(m);                           \
                r[l] = conv(v[l]);                                  \
            }                                                       \
        }                                                           \
    } while (0)
#define AS_S8(x)  ((uint64_t)(int64_t)(int8_t)(x))
#define AS_S16(x) ((uint64_t)(int64_t)(int16_t)(x))
#define AS_S32(x) ((uint64_t)(int64_t)(int32_t)(x))
#define AS_U8(x)  ((uint64_t)(uint8_t)(x))
#define AS_U16(x) ((uint64_t)(uint16_t)(x))
#define AS_U32(x) ((uint64_t)(uint32_t)(x))
#define AS_U64(x) ((uint64_t)(x))

void emu_dst(emu_warp *w, const ptx_operand *o, uint32_t mask,
             const uint64_t v[EMU_WARP_SIZE], ptx_type t)
{
    if (o->kind == PTX_OPD_PRED) {
        uint32_t bits = 0;
        for (int l = 0; l < EMU_WARP_SIZE; l++)
            bits |= (uint32_t)(v[l] != 0) << l;
        emu_dst_pred(w, o, mask, bits);
        return;
    }
    if (o->kind != PTX_OPD_REG)
        return; /* sink */
    uint64_t *r = w->r + (size_t)o->reg * EMU_WARP_SIZE;
    bool sgn = ptx_type_is_signed(t);
    switch (ptx_type_size[t]) {
    case 1: if (sgn) STORE_LANES(AS_S8); else STORE_LANES(AS_U8); break;
    case 2: if (sgn) STORE_LANES(AS_S16); else STORE_LANES(AS_U16); break;
    case 4: if (sgn) STORE_LANES(AS_S32); else STORE_LANES(AS_U32); break;
    default: STORE_LANES(AS_U64); break;
    }
}

void emu_dst_pred(emu_warp *w, const ptx_operand *o, uint32_t mask, uint32_t bits)
{
    if (o->kind != PTX_OPD_PRED)
        return;
    uint32_t *p = &w->p[o->reg];
    *p = (*p & ~mask) | (bits & mask);
}
