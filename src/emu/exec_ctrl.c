/*
** exec_ctrl.c -- branches, calls and returns, exit, trap, CTA barriers.
**
** These handlers own the SIMT stack and the call-frame stack (warp.c has
** the shared helpers).  A call pushes a frame (registers, predicates and a
** 16-byte aligned slice of every thread's local stack) plus a SIMT entry
** that never reconverges by rpc: the callee's FUNC_END pops both.
*/
#include "exec.h"
#include <stdlib.h>
#include <string.h>

static inline uint32_t align16(uint32_t x) { return (x + 15u) & ~15u; }

/* Stack bytes a call costs at least, frame or not: the return address
   and frame link a GPU saves on the thread's stack, rounded to the
   16-byte frame alignment.  Why: without it a function with no frame
   (no locals, parameters or return values) recursed without bound, and
   the warp's register and SIMT stacks grew until host memory ran out. */
#define CALL_MIN_FRAME 16u

static inline emu_simt *simt_top(emu_warp *w) { return &w->simt[w->simt_n - 1]; }

static int simt_push(emu_warp *w, uint32_t pc, uint32_t rpc, uint32_t mask)
{
    if (w->simt_n == w->simt_cap) {
        emu_simt *s = realloc(w->simt, 2 * w->simt_cap * sizeof *s);
        if (!s) return -1;
        w->simt = s;
        w->simt_cap *= 2;
    }
    w->simt[w->simt_n++] = (emu_simt){ .pc = pc, .rpc = rpc, .mask = mask };
    return 0;
}

static int out_of_memory(emu_warp *w, const ptx_uop *u)
{
    return emu_fault_at(w, u, -1, EMU_FAULT_STACK, "host out of memory for the warp's stacks");
}

/* ------------------------------------------------------------------ */
/* Branches                                                            */
/* ------------------------------------------------------------------ */

/*
** Lanes `taken` go to `target`, the other active lanes fall through.  A
** real split parks the current entry at the reconvergence point and
** pushes the fall-through path below the taken one.
*/
static int branch(emu_warp *w, const ptx_uop *u, uint32_t taken, uint32_t target)
{
    emu_simt *top = simt_top(w);
    uint32_t rest = top->mask & ~taken;
    if (!rest) {
        top->pc = target;
        return 0;
    }
    uint32_t fall = top->pc + 1;
    uint32_t rpc = u->rpc != UINT32_MAX ? u->rpc : w->launch->mod->funcs[u->func].uop_end;
    if (top->rpc == rpc) {
        /* same reconvergence point as the enclosing path: reuse its entry */
        top->pc = fall;
        top->mask = rest;
    } else {
        top->pc = rpc;
        if (simt_push(w, fall, rpc, rest)) return out_of_memory(w, u);
    }
    if (simt_push(w, target, rpc, taken)) return out_of_memory(w, u);
    emu_warp_reconverge(w);   /* a path may already sit at rpc */
    return 0;
}

EMU_HANDLER(bra) { return branch(w, u, mask, u->target); }

EMU_HANDLER(ret)
{
    return branch(w, u, mask, w->launch->mod->funcs[u->func].uop_end);
}

EMU_HANDLER(brx)
{
    (void)mask;
    return emu_fault_at(w, u, -1, EMU_FAULT_UNSUPPORTED, "brx.idx is not supported");
}

EMU_HANDLER(exit)
{
    (void)u;
    simt_top(w)->pc++;          /* for the lanes whose guard kept them here */
    emu_warp_exit_lanes(w, mask);
    return 0;
}

EMU_HANDLER(trap)
{
    return emu_fault_at(w, u, __builtin_ctz(mask), EMU_FAULT_TRAP, "%s instruction executed",
                        u->op == PTX_OP_BRKPT ? "brkpt" : "trap");
}

EMU_HANDLER(nop) { (void)w; (void)u; (void)mask; return 0; }

EMU_HANDLER(barwarp) { (void)w; (void)u; (void)mask; return 0; }

/* ------------------------------------------------------------------ */
/* Calls                                                               */
/* ------------------------------------------------------------------ */

static int call_extern(emu_warp *w, const ptx_uop *u, uint32_t mask, const ptx_func *f)
{
    int rc;
    if (!strcmp(f->name, "vprintf"))
        rc = emu_vprintf(w, u, mask);
    else if (!strcmp(f->name, "__assertfail"))
        rc = emu_assertfail(w, u, mask);
    else
        rc = emu_fault_at(w, u, __builtin_ctz(mask), EMU_FAULT_UNSUPPORTED,
                          "call to unsupported extern function '%s'", f->name);
    if (rc == 0) simt_top(w)->pc++;
    return rc;
}

static int depth_of(const emu_warp *w, uint32_t func)
{
    int d = 0;
    for (uint32_t i = 0; i < w->frame_n; i++) d += w->frames[i].func == func;
    return d;
}

/* Make room for `slots` register slots and `preds` predicates; new space
   is zeroed so that reading an unwritten register is deterministic. */
static int grow_regs(emu_warp *w, uint32_t slots, uint32_t preds)
{
    uint32_t need = slots * EMU_WARP_SIZE;
    if (need > w->reg_cap) {
        uint32_t cap = w->reg_cap * 2 > need ? w->reg_cap * 2 : need;
        uint64_t *r = realloc(w->regstack, (size_t)cap * sizeof *r);
        if (!r) return -1;
        memset(r + w->reg_cap, 0, (size_t)(cap - w->reg_cap) * sizeof *r);
        w->regstack = r;
        w->reg_cap = cap;
    }
    if (preds > w->pred_cap) {
        uint32_t cap = w->pred_cap * 2 > preds ? w->pred_cap * 2 : preds;
        uint32_t *p = realloc(w->predstack, (size_t)cap * sizeof *p);
        if (!p) return -1;
        memset(p + w->pred_cap, 0, (size_t)(cap - w->pred_cap) * sizeof *p);
        w->predstack = p;
        w->pred_cap = cap;
    }
    return 0;
}

static int push_frame(emu_warp *w, const emu_frame *f)
{
    if (w->frame_n == w->frame_cap) {
        emu_frame *n = realloc(w->frames, 2 * w->frame_cap * sizeof *n);
        if (!n) return -1;
        w->frames = n;
        w->frame_cap *= 2;
    }
    w->frames[w->frame_n++] = *f;
    return 0;
}

static void frame_regs(emu_warp *w)
{
    const emu_frame *f = &w->frames[w->frame_n - 1];
    w->r = w->regstack + (size_t)f->reg_base * EMU_WARP_SIZE;
    w->p = w->predstack + f->pred_base;
}

/* Copy `n` bytes between two offsets of each thread's stack. */
static void copy_local(emu_warp *w, uint32_t mask, uint32_t dst, uint32_t src, uint32_t n)
{
    uint32_t sb = w->launch->stack_bytes;
    if (!n || dst + n > sb || src + n > sb) return;
    for (uint32_t m = mask; m; m &= m - 1) {
        uint8_t *t = w->local + (size_t)__builtin_ctz(m) * sb;
        memmove(t + dst, t + src, n);
    }
}

EMU_HANDLER(call)
{
    const ptx_module *mod = w->launch->mod;
    if (u->aux >= mod->ncalls)
        return emu_fault_at(w, u, -1, EMU_FAULT_UNSUPPORTED, "call site without a callee");
    const ptx_call *c = &mod->calls[u->aux];
    const ptx_func *f = &mod->funcs[c->callee];
    if (f->is_extern) return call_extern(w, u, mask, f);

    const emu_frame *cur = &w->frames[w->frame_n - 1];
    const ptx_func *cf = &mod->funcs[cur->func];
    uint32_t base = align16(w->local_top);
    uint32_t frame = align16(f->frame_size);
    uint64_t top = (uint64_t)base + (frame > CALL_MIN_FRAME ? frame : CALL_MIN_FRAME);
    if (top > w->launch->stack_bytes)
        return emu_fault_at(w, u, __builtin_ctz(mask), EMU_FAULT_STACK,
                            "stack overflow in '%s', recursion depth %d, limit %u bytes "
                            "per thread (call depth %u)", f->name, depth_of(w, c->callee) + 1,
                            w->launch->stack_bytes, w->frame_n);
    emu_frame nf = {
        .func = c->callee, .call = u->aux,
        .reg_base = cur->reg_base + cf->nregs, .pred_base = cur->pred_base + cf->npreds,
        .local_base = base, .simt_base = w->simt_n,
    };
    if (grow_regs(w, nf.reg_base + f->nregs, nf.pred_base + f->npreds) ||
        (frame && !emu_warp_local(w)) || push_frame(w, &nf)) {
        frame_regs(w);
        return out_of_memory(w, u);
    }
    /* `cur` may be stale after push_frame's realloc */
    uint32_t caller_base = w->frames[w->frame_n - 2].local_base;
    for (uint32_t i = 0; i < c->nargs && i < f->nparams && i < 16; i++) {
        uint32_t n = c->arg_size[i] < f->params[i].size ? c->arg_size[i] : f->params[i].size;
        if (w->local)
            copy_local(w, mask, base + f->params[i].offset, caller_base + c->arg_off[i], n);
    }
    w->local_top = (uint32_t)top;
    simt_top(w)->pc++;
    if (simt_push(w, f->uop_begin, UINT32_MAX, mask)) {
        frame_regs(w);
        return out_of_memory(w, u);
    }
    frame_regs(w);
    return 0;
}

/*
** FUNC_END: in the kernel the lanes that got here finish; in a callee
** every lane of the call has arrived (the base entry never reconverges
** earlier), so copy the return values out and pop the frame.
*/
EMU_HANDLER(func_end)
{
    (void)u; (void)mask;
    emu_simt *top = simt_top(w);
    if (w->frame_n == 1) {
        emu_warp_exit_lanes(w, top->mask);
        return 0;
    }
    const emu_frame *f = &w->frames[w->frame_n - 1];
    if (w->simt_n - 1 > f->simt_base) {
        /* a path that reached the end without reconverging: it waits below */
        w->simt_n--;
        emu_warp_reconverge(w);
        return 0;
    }
    const ptx_module *mod = w->launch->mod;
    const ptx_call *c = &mod->calls[f->call];
    const ptx_func *callee = &mod->funcs[f->func];
    uint32_t caller_base = w->frames[w->frame_n - 2].local_base;
    if (w->local)
        for (uint32_t i = 0; i < c->nrets && i < callee->nrets && i < 4; i++) {
            uint32_t n = c->ret_size[i] < callee->rets[i].size ? c->ret_size[i]
                                                                : callee->rets[i].size;
            copy_local(w, top->mask, caller_base + c->ret_off[i],
                       f->local_base + callee->rets[i].offset, n);
        }
    w->simt_n--;
    w->local_top = f->local_base;
    w->frame_n--;
    frame_regs(w);
    emu_warp_reconverge(w);
    return 0;
}

/* ------------------------------------------------------------------ */
/* CTA barriers                                                        */
/* ------------------------------------------------------------------ */

/*
** bar{.cta}.sync / barrier.sync / bar.arrive: opd = a[, b].
** bar.red.op: opd = d, a[, b], {!}c.
** Every non-exited lane of the warp counts as arriving ("all threads in
** the warp participate").  The waiting warp keeps its pc on the bar; the
** CTA (emu_cta_barrier_poll) moves it on and writes bar.red results.
*/
EMU_HANDLER(bar)
{
    emu_cta *cta = w->cta;
    int sub = u->sub ? u->sub : PTX_BAR_SYNC;
    bool red = sub >= PTX_BAR_RED_POPC;
    int first = red ? 1 : 0;
    int nargs = u->nopd - first - (red ? 1 : 0);
    uint64_t v[EMU_WARP_SIZE];
    int lane = __builtin_ctz(mask);
    emu_src(w, &u->opd[first], v);
    uint64_t id = v[lane];
    if (id >= 16)
        return emu_fault_at(w, u, lane, EMU_FAULT_BARRIER,
                            "barrier id %llu is out of range (0..15)", (unsigned long long)id);
    uint32_t count = 0;
    if (nargs >= 2) {
        emu_src(w, &u->opd[first + 1], v);
        count = (uint32_t)v[lane];
        if (count == 0 || count % EMU_WARP_SIZE)
            return emu_fault_at(w, u, lane, EMU_FAULT_BARRIER,
                                "barrier %u thread count %u is not a positive multiple of %d",
                                (unsigned)id, count, EMU_WARP_SIZE);
        cta->bar_expected[id] = count;
    }
    cta->bar_arrived[id] += (uint32_t)__builtin_popcount(w->lanes & ~w->exited);
    if (red) {
        uint32_t pred = emu_src_pred(w, &u->opd[u->nopd - 1]) & mask;
        if (sub == PTX_BAR_RED_AND)
            cta->bar_red[id] += (uint32_t)__builtin_popcount(mask & ~pred);
        else
            cta->bar_red[id] += (uint32_t)__builtin_popcount(pred);
    }
    if (sub == PTX_BAR_ARRIVE) {
        simt_top(w)->pc++;
        return 0;
    }
    w->state = EMU_W_BARRIER;
    w->bar_id = (uint32_t)id;
    return 0;
}
