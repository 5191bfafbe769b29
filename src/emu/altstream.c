/*
** altstream.c -- the alternate issue stream: executing a warp's uops out
** of program order, as hint-assisted scheduling (HAWS, specs/haws.md
** §3.1.3-3.1.6) needs, without disturbing the in-order state.
**
** While a warp waits on a long-latency load, the timing core may execute
** hinted independent uops ahead (emu_alt_exec): under the mask of a shadow
** copy of the SIMT stack, reading renamed sources from hidden registers and
** writing a renamed destination into one.  Branches move only the shadow
** stack.  When the warp returns to program order, a uop already executed
** is skipped (emu_warp_skip), after a copy of its hidden result into the
** architectural register when it was renamed (emu_warp_copy_hidden);
** branches are executed again in order.  The in-order counters count each
** uop once, when the in-order stream passes it, so statistics equal a plain
** in-order run.
**
** Why swapping: handlers read and write registers only through w->r; a
** renamed uop runs with the hidden values swapped into its register slots
** and the architectural values swapped back after, so the hot in-order path
** (emu_warp_step) needs no indirection at all.
*/
#include "emu.h"
#include <stdlib.h>
#include <string.h>

#define ALT_LANE_BYTES (sizeof(uint64_t) * EMU_WARP_SIZE)

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

/* May `u` run ahead of program order?  ALU work and loads: nothing but
   registers (and the carry flag, refused) changes; stores, atomics,
   barriers, calls, returns and exits have effects others see. */
static bool alt_allowed(const ptx_uop *u)
{
    if (u->flags & PTX_F_CC) return false;
    switch (ptx_opcode_class[u->op]) {
    case PTX_CLS_MEM:
        return u->op == PTX_OP_LD || u->op == PTX_OP_LDU;
    case PTX_CLS_BAR:
        return false;
    case PTX_CLS_CTRL:
        return u->op == PTX_OP_BRA;
    default:
        return u->op != PTX_OP_FUNC_END;
    }
}

/* A branch against the shadow stack: the handler runs on the shadow as if
   it were the warp's stack (it may grow it), then the real one is back. */
static int alt_branch(emu_warp *w, emu_alt *a, const ptx_uop *u, uint32_t mask)
{
    emu_simt *real = w->simt;
    uint32_t real_n = w->simt_n, real_cap = w->simt_cap;
    w->simt = a->shadow;
    w->simt_n = a->shadow_n;
    w->simt_cap = a->shadow_cap;
    int rc = emu_dispatch[u->op](w, u, mask);
    a->shadow = w->simt;
    a->shadow_n = w->simt_n;
    a->shadow_cap = w->simt_cap;
    w->simt = real;
    w->simt_n = real_n;
    w->simt_cap = real_cap;
    return rc;
}

/* Swap register slot `slot` of the current frame with hidden `h`. */
static void alt_swap(emu_warp *w, emu_alt *a, int32_t slot, uint32_t h)
{
    uint64_t t[EMU_WARP_SIZE];
    uint64_t *r = w->r + (size_t)slot * EMU_WARP_SIZE;
    memcpy(t, r, ALT_LANE_BYTES);
    memcpy(r, a->hidden[h], ALT_LANE_BYTES);
    memcpy(a->hidden[h], t, ALT_LANE_BYTES);
}

int emu_alt_exec(emu_warp *w, emu_alt *a, uint32_t pc, const emu_alt_remap *rm,
                 emu_step_info *info, uint32_t *next_pc)
{
    if (!a->active || !a->shadow_n || pc >= w->launch->mod->nuops) return EMU_ALT_REFUSED;
    const ptx_uop *u = &w->uops[pc];
    if (!alt_allowed(u)) return EMU_ALT_REFUSED;
    emu_simt *top = &a->shadow[a->shadow_n - 1];
    uint32_t mask = emu_guard_mask(w, u, top->mask);
    uint32_t nsrc = rm ? rm->nsrc : 0;
    for (uint32_t i = 0; i < nsrc; i++)
        if (rm->src_hidden[i] >= EMU_HIDDEN_REGS
            || (rm->dst_slot >= 0 && rm->src_slot[i] == rm->dst_slot))
            return EMU_ALT_REFUSED;   /* one swap per slot: a renamed x = f(x) is refused */
    if (rm && rm->dst_slot >= 0 && rm->dst_hidden >= EMU_HIDDEN_REGS) return EMU_ALT_REFUSED;
    if (info) {
        info->uop = u;
        info->mask = mask;
        info->nbytes = 0;
    }
    if (u->op == PTX_OP_BRA) {
        top->pc = pc;
        int rc = mask ? alt_branch(w, a, u, mask) : 0;
        if (!mask) top->pc = pc + 1;
        top = &a->shadow[a->shadow_n - 1];
        *next_pc = top->pc;
        return rc;
    }
    /* renamed sources read their hidden value; a renamed destination is
       written into its hidden register (lanes off the mask keep its old
       hidden value, as a masked write keeps a register's) */
    for (uint32_t i = 0; i < nsrc; i++) alt_swap(w, a, rm->src_slot[i], rm->src_hidden[i]);
    bool dst = rm && rm->dst_slot >= 0;
    if (dst) alt_swap(w, a, rm->dst_slot, rm->dst_hidden);
    if (info && mask && ptx_opcode_class[u->op] == PTX_CLS_MEM) emu_mem_addrs(w, u, mask, info);
    int rc = mask ? emu_dispatch[u->op](w, u, mask) : 0;
    if (dst) alt_swap(w, a, rm->dst_slot, rm->dst_hidden);
    for (uint32_t i = nsrc; i-- > 0;) alt_swap(w, a, rm->src_slot[i], rm->src_hidden[i]);
    top->pc = pc + 1;
    *next_pc = pc + 1;
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
    return 0;
}

void emu_warp_copy_hidden(emu_warp *w, const emu_alt *a, uint32_t hidden, int32_t slot,
                          uint32_t mask)
{
    uint64_t *r = w->r + (size_t)slot * EMU_WARP_SIZE;
    for (uint32_t m = mask; m; m &= m - 1) {
        int l = __builtin_ctz(m);
        r[l] = a->hidden[hidden][l];
    }
}
