/*
** warp.c -- one warp: lanes, register and call-frame stacks, the SIMT
** reconvergence stack, and the step function that executes one uop.
**
** Divergence follows the immediate post-dominator scheme: a branch that
** splits the active lanes parks the current entry at the reconvergence
** point (uop.rpc) and pushes one entry per path; an entry is popped when
** its pc reaches its rpc.  Control-flow handlers (exec_ctrl.c) edit the
** stack themselves; every other handler leaves the pc to emu_warp_step.
*/
#include "emu.h"
#include <stdlib.h>
#include <string.h>

#define WARP_SIMT_CAP0  16
#define WARP_FRAME_CAP0 4

/* Opcodes whose handlers move the pc themselves (and run only when at
   least one lane's guard holds; otherwise the warp just falls through). */
static const bool warp_moves_pc[PTX_OP_COUNT] = {
    [PTX_OP_BRA] = true, [PTX_OP_BRX] = true, [PTX_OP_CALL] = true,
    [PTX_OP_RET] = true, [PTX_OP_EXIT] = true, [PTX_OP_TRAP] = true,
    [PTX_OP_BRKPT] = true, [PTX_OP_BAR] = true, [PTX_OP_BARRIER] = true,
    [PTX_OP_FUNC_END] = true,
};

_Static_assert(PTX_CLS_BAR < 8, "emu_warp.class_insns has 8 entries");

static inline uint32_t align16(uint32_t x) { return (x + 15u) & ~15u; }

/* Point w->r / w->p at the current frame's slots (after any realloc). */
static void warp_frame_regs(emu_warp *w)
{
    const emu_frame *f = &w->frames[w->frame_n - 1];
    w->r = w->regstack + (size_t)f->reg_base * EMU_WARP_SIZE;
    w->p = w->predstack + f->pred_base;
}

int emu_warp_init(emu_warp *w, emu_launch *l, emu_cta *cta, uint32_t wid)
{
    const ptx_func *k = &l->mod->funcs[l->func];
    uint32_t bx = l->block[0], by = l->block[1];
    uint32_t nthreads = bx * by * l->block[2];
    memset(w, 0, sizeof *w);
    w->uops = l->mod->uops;
    w->launch = l;
    w->cta = cta;
    w->wid = wid;
    for (uint32_t lane = 0; lane < EMU_WARP_SIZE; lane++) {
        uint32_t t = wid * EMU_WARP_SIZE + lane;
        if (t >= nthreads) break;
        w->lanes |= 1u << lane;
        w->tid[0][lane] = (uint16_t)(t % bx);
        w->tid[1][lane] = (uint16_t)(t / bx % by);
        w->tid[2][lane] = (uint16_t)(t / (bx * by));
    }
    w->reg_cap = (k->nregs ? k->nregs : 1) * EMU_WARP_SIZE;
    w->pred_cap = k->npreds ? k->npreds : 1;
    w->simt_cap = WARP_SIMT_CAP0;
    w->frame_cap = WARP_FRAME_CAP0;
    w->regstack = calloc(w->reg_cap, sizeof *w->regstack);
    w->predstack = calloc(w->pred_cap, sizeof *w->predstack);
    w->simt = malloc(w->simt_cap * sizeof *w->simt);
    w->frames = malloc(w->frame_cap * sizeof *w->frames);
    if (!w->regstack || !w->predstack || !w->simt || !w->frames) {
        emu_warp_release(w);
        return -1;
    }
    uint32_t base = align16(l->local_static);
    w->frames[0] = (emu_frame){ .func = l->func, .local_base = base };
    w->frame_n = 1;
    w->local_top = base + align16(k->frame_size);
    w->simt[0] = (emu_simt){ .pc = k->uop_begin, .rpc = UINT32_MAX, .mask = w->lanes };
    w->simt_n = w->lanes ? 1 : 0;
    w->state = w->lanes ? EMU_W_READY : EMU_W_DONE;
    warp_frame_regs(w);
    emu_warp_settle(w);
    return 0;
}

void emu_warp_release(emu_warp *w)
{
    free(w->regstack);
    free(w->predstack);
    free(w->simt);
    free(w->frames);
    free(w->local);
    w->regstack = NULL; w->predstack = NULL; w->simt = NULL;
    w->frames = NULL; w->local = NULL;
    w->r = NULL; w->p = NULL;
    w->simt_n = w->frame_n = 0;
    w->state = EMU_W_DONE;
}

uint8_t *emu_warp_local(emu_warp *w)
{
    if (!w->local)
        w->local = calloc(EMU_WARP_SIZE, w->launch->stack_bytes ? w->launch->stack_bytes : 1);
    return w->local;
}

const ptx_uop *emu_warp_next(const emu_warp *w)
{
    if (w->state == EMU_W_DONE || w->simt_n == 0) return NULL;
    return &w->uops[w->simt[w->simt_n - 1].pc];
}

/* Drop the innermost call frame (its SIMT entries are already gone). */
static void warp_pop_frame(emu_warp *w)
{
    w->local_top = w->frames[w->frame_n - 1].local_base;
    w->frame_n--;
    warp_frame_regs(w);
}

void emu_warp_reconverge(emu_warp *w)
{
    while (w->simt_n) {
        const emu_simt *t = &w->simt[w->simt_n - 1];
        if (t->mask && t->pc != t->rpc) break;
        w->simt_n--;
        /* an emptied callee base entry takes its frame with it */
        while (w->frame_n > 1 && w->frames[w->frame_n - 1].simt_base >= w->simt_n)
            warp_pop_frame(w);
    }
    if (!w->simt_n) w->state = EMU_W_DONE;
}

void emu_warp_exit_lanes(emu_warp *w, uint32_t lanes)
{
    w->exited |= lanes;
    for (uint32_t i = 0; i < w->simt_n; i++) w->simt[i].mask &= ~lanes;
    emu_warp_reconverge(w);
    if ((w->lanes & ~w->exited) == 0) {
        w->simt_n = 0;
        w->state = EMU_W_DONE;
    }
}

static int warp_unsupported(emu_warp *w, const ptx_uop *u, uint32_t mask)
{
    const char *name = u->op < PTX_OP_COUNT ? ptx_opcode_names[u->op] : "?";
    return emu_fault_at(w, u, __builtin_ctz(mask), EMU_FAULT_UNSUPPORTED,
                        "instruction '%s' is not supported by the emulator", name);
}

/*
** A FUNC_END is where a function's paths meet, not an instruction: when
** the warp's next pc is one, its effect happens at once (the kernel's
** lanes that reached it finish; a call whose lanes all returned pops its
** frame and the caller goes on after the call), so it is never issued,
** counted or charged an issue slot.  GPGPU-Sim counts the `ret` that
** leads there and nothing more; so does the hardware, which has no such
** instruction.  Called wherever the pc moves outside emu_warp_step's
** handlers: after a step, a barrier release, a skipped uop, and at
** warp start (a body with no instruction finishes there).
*/
void emu_warp_settle(emu_warp *w)
{
    while (w->state == EMU_W_READY && w->simt_n) {
        const emu_simt *top = &w->simt[w->simt_n - 1];
        const ptx_uop *u = &w->uops[top->pc];
        if (u->op != PTX_OP_FUNC_END) return;
        emu_dispatch[PTX_OP_FUNC_END](w, u, top->mask);  /* pops or exits: progress */
    }
}

/*
** Execute the instruction at the top of the SIMT stack.  Counting: every
** issued instruction adds 1 to warp_insns and popcount(active & guard) to
** thread_insns, so an instruction whose guard is false in all lanes counts
** as issued with 0 thread instructions (its lanes did no work), and
** class_insns counts it under its opcode's class.
*/
int emu_warp_step(emu_warp *w, emu_step_info *info)
{
    if (w->state != EMU_W_READY) return 0;
    emu_simt *top = &w->simt[w->simt_n - 1];
    const ptx_uop *u = &w->uops[top->pc];
    uint32_t mask = emu_guard_mask(w, u, top->mask);
    emu_count_step(w, u, mask);
    if (info) {
        info->uop = u;
        info->mask = mask;
        info->nbytes = 0;
        if (mask && ptx_opcode_class[u->op] == PTX_CLS_MEM)
            emu_mem_addrs(w, u, mask, info);
    }
    int rc = 0;
    emu_exec_fn fn = emu_dispatch[u->op];
    if (!mask) {
        top->pc++;
    } else if (!fn) {
        return warp_unsupported(w, u, mask);
    } else if (warp_moves_pc[u->op]) {
        rc = fn(w, u, mask);
    } else {
        rc = fn(w, u, mask);
        top->pc++;   /* non-control handlers never touch the SIMT stack */
    }
    if (w->simt_n) {
        top = &w->simt[w->simt_n - 1];
        if (top->pc == top->rpc) emu_warp_reconverge(w);
    }
    if (rc == 0) emu_warp_settle(w);
    if (w->state == EMU_W_DONE) emu_progress(w->launch);
    return rc;
}
