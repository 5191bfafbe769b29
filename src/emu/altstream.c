/*
** altstream.c -- the alternate issue stream: a warp's uops executed out of
** program order for HAWS (specs/haws.md §3.1.3-3.1.6) under a shadow SIMT
** stack and hidden registers, leaving the in-order state untouched, then
** skipped in order.  The contract is in emu.h; the timing core decides.
*/
#include "emu.h"
#include <stdlib.h>
#include <string.h>

#define ALT_LANE_BYTES (sizeof(uint64_t) * EMU_WARP_SIZE)
#define ALT_MAX_REN    (EMU_ALT_MAX_SRC + EMU_ALT_MAX_DST)

/* The architectural values of the slots a remap touches, kept while the
   renamed uop runs. */
typedef struct alt_saved {
    uint32_t n;
    uint64_t r[ALT_MAX_REN][EMU_WARP_SIZE];
    uint32_t p[ALT_MAX_REN];
    const emu_alt_ren *ren[ALT_MAX_REN];
} alt_saved;

int emu_alt_begin(emu_warp *w, emu_alt *a)
{
    if (w->state != EMU_W_READY || !w->simt_n) return EMU_ALT_REFUSED;
    if (a->shadow_cap < w->simt_n) {
        emu_simt *s = realloc(a->shadow, w->simt_n * sizeof *s);
        if (!s) return EMU_ALT_REFUSED;
        a->shadow = s;
        a->shadow_cap = w->simt_n;
    }
    memcpy(a->shadow, w->simt, w->simt_n * sizeof *w->simt);
    a->shadow_n = w->simt_n;
    a->active = true;
    return 0;
}

void emu_alt_end(emu_alt *a) { a->active = false; a->shadow_n = 0; }

void emu_alt_free(emu_alt *a)
{
    free(a->shadow);
    memset(a, 0, sizeof *a);
}

/* A read of %clock / %globaltimer: its value depends on when it runs
   (here: the warp's instruction count), so it cannot run ahead. */
static bool alt_reads_clock(const ptx_uop *u)
{
    for (uint32_t i = 0; i < u->nopd; i++) {
        const ptx_operand *o = &u->opd[i];
        if (o->kind != PTX_OPD_SREG) continue;
        switch (o->reg) {
        case PTX_SREG_CLOCK: case PTX_SREG_CLOCK_HI: case PTX_SREG_CLOCK64:
        case PTX_SREG_GLOBALTIMER: case PTX_SREG_GLOBALTIMER_LO:
        case PTX_SREG_GLOBALTIMER_HI:
            return true;
        default:
            break;
        }
    }
    return false;
}

/* May `u` run ahead of program order?  ALU work and loads: nothing but
   registers changes; stores, atomics, prefetches, barriers, fences,
   calls, returns and exits have effects others see, .cc leaves the carry
   for the next uop, and an unsupported uop would fault. */
static bool alt_allowed(const ptx_uop *u)
{
    if (!emu_dispatch[u->op] || (u->flags & PTX_F_CC) || alt_reads_clock(u)) return false;
    switch (ptx_opcode_class[u->op]) {
    case PTX_CLS_MEM:
        return u->op == PTX_OP_LD || u->op == PTX_OP_LDU;
    case PTX_CLS_BAR:
        return false;
    case PTX_CLS_CTRL:
        return u->op == PTX_OP_BRA;
    default:
        return true;
    }
}

/* Each renaming names a slot of the current frame and a hidden index in
   range, and no slot twice in `ren` (two loads or two results into one
   slot would be ambiguous). */
static bool alt_ren_ok(const emu_warp *w, const emu_alt_ren *ren, uint32_t n, uint32_t cap)
{
    const ptx_func *f = &w->launch->mod->funcs[w->frames[w->frame_n - 1].func];
    if (n > cap) return false;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t nslots = ren[i].pred ? f->npreds : f->nregs;
        if (ren[i].slot < 0 || (uint32_t)ren[i].slot >= nslots
            || ren[i].hidden >= EMU_HIDDEN_REGS)
            return false;
        for (uint32_t j = 0; j < i; j++)
            if (ren[j].slot == ren[i].slot && ren[j].pred == ren[i].pred) return false;
    }
    return true;
}

/* Save the architectural value of the slot `r` names, once per slot. */
static void alt_save(emu_warp *w, alt_saved *sv, const emu_alt_ren *r)
{
    for (uint32_t i = 0; i < sv->n; i++)
        if (sv->ren[i]->slot == r->slot && sv->ren[i]->pred == r->pred) return;
    sv->ren[sv->n] = r;
    if (r->pred) sv->p[sv->n] = w->p[r->slot];
    else memcpy(sv->r[sv->n], emu_reg(w, r->slot), ALT_LANE_BYTES);
    sv->n++;
}

/* Why save/load around the handler: handlers touch registers only through
   w->r and w->p, so loading renamed slots keeps the in-order hot path
   (emu_warp_step) free of any operand indirection.
   Before the handler: renamed sources hold their hidden values.  A
   renamed destination that is not also a renamed source keeps its
   architectural value, so lanes the uop does not write carry the old
   value into the hidden register (a masked write is read-modify-write). */
static void alt_load(emu_warp *w, const emu_alt *a, const emu_alt_remap *rm, alt_saved *sv)
{
    sv->n = 0;
    for (uint32_t i = 0; i < rm->nsrc; i++) alt_save(w, sv, &rm->src[i]);
    for (uint32_t i = 0; i < rm->ndst; i++) alt_save(w, sv, &rm->dst[i]);
    for (uint32_t i = 0; i < rm->nsrc; i++) {
        const emu_alt_ren *r = &rm->src[i];
        if (r->pred) w->p[r->slot] = a->hidden_p[r->hidden];
        else memcpy(emu_reg(w, r->slot), a->hidden[r->hidden], ALT_LANE_BYTES);
    }
}

/* After the handler: renamed results into their hidden registers, then
   every touched slot back to its architectural value. */
static void alt_unload(emu_warp *w, emu_alt *a, const emu_alt_remap *rm, const alt_saved *sv)
{
    for (uint32_t i = 0; i < rm->ndst; i++) {
        const emu_alt_ren *r = &rm->dst[i];
        if (r->pred) a->hidden_p[r->hidden] = w->p[r->slot];
        else memcpy(a->hidden[r->hidden], emu_reg(w, r->slot), ALT_LANE_BYTES);
    }
    for (uint32_t i = 0; i < sv->n; i++) {
        const emu_alt_ren *r = sv->ren[i];
        if (r->pred) w->p[r->slot] = sv->p[i];
        else memcpy(emu_reg(w, r->slot), sv->r[i], ALT_LANE_BYTES);
    }
}

/* Pop shadow entries whose path reached its reconvergence point (the
   real stack's rule, without frames: calls and returns never run ahead). */
static void alt_shadow_reconverge(emu_alt *a)
{
    while (a->shadow_n) {
        const emu_simt *t = &a->shadow[a->shadow_n - 1];
        if (t->mask && t->pc != t->rpc) break;
        a->shadow_n--;
    }
}

/* A branch against the shadow stack: the handler runs on the shadow as if
   it were the warp's stack (it may grow it).  What else the handler could
   reach through a reconvergence (frames, warp state) is put back, so the
   real warp is unchanged whatever the shadow does. */
static int alt_branch(emu_warp *w, emu_alt *a, const ptx_uop *u, uint32_t mask)
{
    emu_warp real = *w;
    w->simt = a->shadow;
    w->simt_n = a->shadow_n;
    w->simt_cap = a->shadow_cap;
    int rc = emu_dispatch[u->op](w, u, mask);
    a->shadow = w->simt;
    a->shadow_n = w->simt_n;
    a->shadow_cap = w->simt_cap;
    w->simt = real.simt;
    w->simt_n = real.simt_n;
    w->simt_cap = real.simt_cap;
    w->state = real.state;
    w->frame_n = real.frame_n;
    w->local_top = real.local_top;
    w->r = real.r;
    w->p = real.p;
    return rc;
}

int emu_alt_exec(emu_warp *w, emu_alt *a, uint32_t pc, const emu_alt_remap *rm,
                 emu_step_info *info, uint32_t *next_pc)
{
    if (!a->active || !a->shadow_n || pc >= w->launch->mod->nuops) return EMU_ALT_REFUSED;
    const ptx_uop *u = &w->uops[pc];
    if (!alt_allowed(u) || u->func != w->frames[w->frame_n - 1].func) return EMU_ALT_REFUSED;
    if (rm && (!alt_ren_ok(w, rm->src, rm->nsrc, EMU_ALT_MAX_SRC)
               || !alt_ren_ok(w, rm->dst, rm->ndst, EMU_ALT_MAX_DST)))
        return EMU_ALT_REFUSED;
    alt_saved sv;
    if (rm) alt_load(w, a, rm, &sv);   /* the guard may be a renamed predicate */
    emu_simt *top = &a->shadow[a->shadow_n - 1];
    uint32_t mask = emu_guard_mask(w, u, top->mask);
    if (info) {
        info->uop = u;
        info->mask = mask;
        info->nbytes = 0;
        if (mask && ptx_opcode_class[u->op] == PTX_CLS_MEM) emu_mem_addrs(w, u, mask, info);
    }
    int rc = 0;
    top->pc = pc;
    if (!mask) top->pc = pc + 1;   /* guard false everywhere: falls through */
    else if (u->op == PTX_OP_BRA) rc = alt_branch(w, a, u, mask);
    else {
        rc = emu_dispatch[u->op](w, u, mask);
        top->pc = pc + 1;
    }
    if (rm) alt_unload(w, a, rm, &sv);
    alt_shadow_reconverge(a);
    a->ahead_insns++;
    a->ahead_thread_insns += (uint32_t)__builtin_popcount(mask);
    *next_pc = a->shadow_n ? a->shadow[a->shadow_n - 1].pc : EMU_ALT_NO_PC;
    return rc;
}

int emu_warp_skip(emu_warp *w, emu_step_info *info)
{
    if (w->state != EMU_W_READY || !w->simt_n) return EMU_ALT_REFUSED;
    emu_simt *top = &w->simt[w->simt_n - 1];
    const ptx_uop *u = &w->uops[top->pc];
    if (!alt_allowed(u) || u->op == PTX_OP_BRA) return EMU_ALT_REFUSED;
    uint32_t mask = emu_guard_mask(w, u, top->mask);
    emu_count_step(w, u, mask);      /* counted as executed, as emu_warp_step would */
    if (info) {
        info->uop = u;
        info->mask = mask;
        info->nbytes = 0;
    }
    top->pc++;
    if (top->pc == top->rpc) emu_warp_reconverge(w);
    emu_warp_settle(w);
    return 0;
}

/* Does `slot` name a register (predicate) of the current frame? */
static bool alt_slot_ok(const emu_warp *w, int32_t slot, bool pred)
{
    const ptx_func *f = &w->launch->mod->funcs[w->frames[w->frame_n - 1].func];
    return slot >= 0 && (uint32_t)slot < (pred ? f->npreds : f->nregs);
}

int emu_warp_copy_hidden(emu_warp *w, const emu_alt *a, uint32_t hidden, int32_t slot,
                         uint32_t mask)
{
    if (hidden >= EMU_HIDDEN_REGS || !alt_slot_ok(w, slot, false)) return EMU_ALT_REFUSED;
    uint64_t *r = emu_reg(w, slot);
    for (uint32_t m = mask; m; m &= m - 1) {
        int l = __builtin_ctz(m);
        r[l] = a->hidden[hidden][l];
    }
    return 0;
}

int emu_warp_copy_hidden_pred(emu_warp *w, const emu_alt *a, uint32_t hidden, int32_t slot,
                              uint32_t mask)
{
    if (hidden >= EMU_HIDDEN_REGS || !alt_slot_ok(w, slot, true)) return EMU_ALT_REFUSED;
    w->p[slot] = (w->p[slot] & ~mask) | (a->hidden_p[hidden] & mask);
    return 0;
}
