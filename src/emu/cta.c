/*
** cta.c -- CTAs: shared memory, warps, barriers; the functional grid runner.
**
** The runner keeps up to launch->resident_ctas CTAs in flight (started in
** linear CTA order, x fastest) and gives each a turn in slot order; in a
** turn every READY warp runs up to EMU_QUANTUM instructions, then complete
** barriers are released.  When no warp of a CTA can move and some still
** wait, the barrier can never complete and the launch faults.
*/
#include "emu.h"
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

int emu_cta_init(emu_cta *cta, emu_launch *l, uint32_t linear)
{
    memset(cta, 0, sizeof *cta);
    uint32_t gx = l->grid[0], gy = l->grid[1];
    cta->linear = linear;
    cta->smid = l->smid_count ? linear % l->smid_count : 0;
    cta->ctaid[0] = linear % gx;
    cta->ctaid[1] = linear / gx % gy;
    cta->ctaid[2] = (uint32_t)((uint64_t)linear / ((uint64_t)gx * gy));
    uint32_t threads = l->block[0] * l->block[1] * l->block[2];
    cta->nwarps = (threads + EMU_WARP_SIZE - 1) / EMU_WARP_SIZE;
    cta->shared = calloc(l->shared_bytes ? l->shared_bytes : 1, 1);
    cta->warps = calloc(cta->nwarps ? cta->nwarps : 1, sizeof *cta->warps);
    if (!cta->shared || !cta->warps) {
        emu_cta_release(cta);
        return -1;
    }
    for (uint32_t i = 0; i < cta->nwarps; i++)
        if (emu_warp_init(&cta->warps[i], l, cta, i)) {
            cta->nwarps = i;
            emu_cta_release(cta);
            return -1;
        }
    return 0;
}

void emu_cta_release(emu_cta *cta)
{
    for (uint32_t i = 0; cta->warps && i < cta->nwarps; i++)
        emu_warp_release(&cta->warps[i]);
    free(cta->warps);
    free(cta->shared);
    cta->warps = NULL;
    cta->shared = NULL;
    cta->nwarps = 0;
}

/* Threads of the CTA that have not exited. */
static uint32_t cta_live_threads(const emu_cta *cta)
{
    uint32_t n = 0;
    for (uint32_t i = 0; i < cta->nwarps; i++)
        n += (uint32_t)__builtin_popcount(cta->warps[i].lanes & ~cta->warps[i].exited);
    return n;
}

/* Threads barrier `id` waits for: its explicit count, else every thread
   still alive (exited threads no longer take part, as on hardware). */
static uint32_t cta_bar_needed(const emu_cta *cta, uint32_t id)
{
    return cta->bar_expected[id] ? cta->bar_expected[id] : cta_live_threads(cta);
}

/* Move a warp waiting at its bar past it; bar.red writes its result. */
static void cta_wake(emu_cta *cta, emu_warp *w)
{
    emu_simt *top = &w->simt[w->simt_n - 1];
    const ptx_uop *u = &w->uops[top->pc];
    if (u->sub >= PTX_BAR_RED_POPC) {
        uint32_t mask = top->mask;
        if (u->guard >= 0) mask &= u->guard_neg ? ~w->p[u->guard] : w->p[u->guard];
        uint32_t cnt = cta->bar_red[w->bar_id], val;
        if (u->sub == PTX_BAR_RED_POPC) val = cnt;
        else if (u->sub == PTX_BAR_RED_AND) val = cnt == 0;
        else val = cnt != 0;
        if (u->opd[0].kind == PTX_OPD_PRED)
            emu_dst_pred(w, &u->opd[0], mask, val ? EMU_FULL_MASK : 0);
        else {
            uint64_t v[EMU_WARP_SIZE];
            for (int l = 0; l < EMU_WARP_SIZE; l++) v[l] = val;
            emu_dst(w, &u->opd[0], mask, v, u->type ? u->type : PTX_T_U32);
        }
    }
    top->pc++;
    w->state = EMU_W_READY;
    if (top->pc == top->rpc) emu_warp_reconverge(w);
    emu_warp_settle(w);   /* a bar just before the function's end */
}

int emu_cta_barrier_poll(emu_cta *cta)
{
    int released = 0;
    for (uint32_t id = 0; id < 16; id++) {
        uint32_t arrived = cta->bar_arrived[id];
        if (!arrived || arrived < cta_bar_needed(cta, id)) continue;
        for (uint32_t i = 0; i < cta->nwarps; i++) {
            emu_warp *w = &cta->warps[i];
            if (w->state == EMU_W_BARRIER && w->bar_id == id) {
                cta_wake(cta, w);
                released++;
            }
        }
        cta->bar_arrived[id] = 0;
        cta->bar_expected[id] = 0;
        cta->bar_red[id] = 0;
    }
    if (released) emu_progress(cta->warps[0].launch);
    return released;
}

/* No warp can move: name the barrier that never completes. */
static int cta_deadlock(emu_cta *cta)
{
    for (uint32_t i = 0; i < cta->nwarps; i++) {
        emu_warp *w = &cta->warps[i];
        if (w->state != EMU_W_BARRIER) continue;
        uint32_t id = w->bar_id, live = cta_live_threads(cta);
        uint32_t total = 0, waiting_other = 0;
        for (uint32_t j = 0; j < cta->nwarps; j++) {
            const emu_warp *o = &cta->warps[j];
            total += (uint32_t)__builtin_popcount(o->lanes);
            if (o->state == EMU_W_BARRIER && o->bar_id != id)
                waiting_other += (uint32_t)__builtin_popcount(o->lanes & ~o->exited);
        }
        return emu_fault_at(w, emu_warp_next(w), -1, EMU_FAULT_BARRIER,
                            "deadlock: barrier %u can never complete: %u threads arrived, "
                            "%u expected (%u of the CTA's %u threads have exited, %u wait "
                            "at other barriers)", id, cta->bar_arrived[id],
                            cta_bar_needed(cta, id), total - live, total, waiting_other);
    }
    return -1;
}

/* Turn budget of a CTA, in quanta per warp: a CTA whose warps meet at
   barriers keeps running phase after phase (its registers and shared
   memory stay in the host's caches) until it used this many. */
#define CTA_TURN_QUANTA 4

int emu_cta_turn(emu_cta *cta)
{
    uint64_t budget = (uint64_t)CTA_TURN_QUANTA * EMU_QUANTUM * cta->nwarps, used = 0;
    for (;;) {
        bool all_done = true, ready = false;
        for (uint32_t i = 0; i < cta->nwarps; i++) {
            emu_warp *w = &cta->warps[i];
            uint64_t before = w->warp_insns;
            for (uint32_t q = 0; q < EMU_QUANTUM && w->state == EMU_W_READY; q++)
                if (emu_warp_step(w, NULL)) return -1;
            used += w->warp_insns - before;
            all_done &= w->state == EMU_W_DONE;
            ready |= w->state == EMU_W_READY;
        }
        if (all_done) return 1;
        int released = emu_cta_barrier_poll(cta);
        if (!released && !ready) return cta_deadlock(cta);
        if (used >= budget) return 0;
    }
}

int emu_cta_run(emu_cta *cta)
{
    for (;;) {
        int rc = emu_cta_turn(cta);
        if (rc) return rc < 0 ? -1 : 0;
        if (emu_check_progress(cta->warps[0].launch, cta, 1)) return -1;
    }
}

void emu_launch_count_warp(emu_launch *l, const emu_warp *w)
{
    uint64_t n = w->warp_insns;
    l->warp_insns += n;
    l->thread_insns += w->thread_insns;
    l->mem_insns += w->class_insns[PTX_CLS_MEM];
    l->bar_insns += w->class_insns[PTX_CLS_BAR];
    l->warp_insns_sq += (double)n * (double)n;
    l->reg_hash += emu_warp_reg_hash(w);
    if (n == 0) return;   /* never ran (a fault stopped the CTA first) */
    if (l->warp_insns_min == 0 || n < l->warp_insns_min) l->warp_insns_min = n;
    if (n > l->warp_insns_max) l->warp_insns_max = n;
}

void emu_launch_merge_counts(emu_launch *dst, emu_launch *src)
{
    dst->warp_insns += src->warp_insns;
    dst->thread_insns += src->thread_insns;
    dst->mem_insns += src->mem_insns;
    dst->bar_insns += src->bar_insns;
    dst->warp_insns_sq += src->warp_insns_sq;
    dst->reg_hash += src->reg_hash;
    if (src->warp_insns_min && (!dst->warp_insns_min || src->warp_insns_min < dst->warp_insns_min))
        dst->warp_insns_min = src->warp_insns_min;
    if (src->warp_insns_max > dst->warp_insns_max) dst->warp_insns_max = src->warp_insns_max;
    emu_launch_zero_counts(src);
}

void emu_launch_zero_counts(emu_launch *l)
{
    l->warp_insns = l->thread_insns = l->mem_insns = l->bar_insns = 0;
    l->warp_insns_min = l->warp_insns_max = 0;
    l->warp_insns_sq = 0.0;
    l->reg_hash = 0;
}

/* splitmix64's finaliser: every input bit moves every output bit */
static uint64_t mix64(uint64_t x)
{
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

uint64_t emu_warp_reg_hash(const emu_warp *w)
{
    const emu_launch *l = w->launch;
    const ptx_func *f = &l->mod->funcs[l->func];
    const emu_cta *c = w->cta;
    uint64_t h = mix64(((uint64_t)c->ctaid[2] << 48) ^ ((uint64_t)c->ctaid[1] << 32)
                       ^ ((uint64_t)c->ctaid[0] << 8) ^ w->wid);
    uint64_t nr = (uint64_t)f->nregs * EMU_WARP_SIZE;
    for (uint64_t i = 0; i < nr && i < (uint64_t)w->reg_cap; i++)
        h = mix64(h ^ w->regstack[i]);
    for (uint32_t i = 0; i < f->npreds && i < w->pred_cap; i++)
        h = mix64(h ^ w->predstack[i] ^ 0x5bd1e995ull);
    return h;
}

/* Add a finished CTA's warp counters to the launch's. */
static void cta_account(emu_launch *l, const emu_cta *cta)
{
    for (uint32_t i = 0; i < cta->nwarps; i++) emu_launch_count_warp(l, &cta->warps[i]);
}

/* The CTAs in flight: slot s holds a CTA while its warps are non-NULL. */
typedef struct grid_run {
    emu_launch *l;
    emu_cta *slot;
    uint32_t nslots, live;
    uint64_t next, nctas;     /* next CTA to start, CTAs in the grid */
} grid_run;

/* Start the next CTA of the grid in slot `s` (or leave it empty). */
static int grid_start(grid_run *g, uint32_t s)
{
    if (g->next == g->nctas) return 0;
    if (emu_cta_init(&g->slot[s], g->l, (uint32_t)g->next)) {
        if (g->l->fault.kind == EMU_OK) {
            g->l->fault.kind = EMU_FAULT_MEMORY;
            snprintf(g->l->fault.msg, sizeof g->l->fault.msg,
                     "host out of memory setting up CTA %" PRIu64, g->next);
        }
        return -1;
    }
    g->next++;
    g->live++;
    return 0;
}

/* Finish the CTA in slot `s`: count it, free it. */
static void grid_retire(grid_run *g, uint32_t s)
{
    cta_account(g->l, &g->slot[s]);
    emu_cta_release(&g->slot[s]);
    g->live--;
}

/*
** Why interleave: on a GPU every resident CTA runs at once, so a kernel
** may spin on a flag another CTA (or another warp of its CTA) sets; a
** runner that finishes one CTA or warp before the next would spin
** forever.  Slots are visited in order and each CTA takes one turn
** (emu_cta_turn), so the run is deterministic.  An empty slot starts the
** next CTA in linear order when its turn comes, not when the previous one
** finished: a CTA that finishes in one turn (most do) is then set up,
** run and freed while its memory is hot, as when CTAs ran one by one.
** Hangs and interrupts are checked after every turn (at most a few
** quanta per warp apart).
*/
int emu_run_grid(emu_launch *l)
{
    grid_run g = { .l = l, .nctas = (uint64_t)l->grid[0] * l->grid[1] * l->grid[2] };
    g.nslots = l->resident_ctas ? l->resident_ctas : 1;
    if (g.nslots > g.nctas) g.nslots = (uint32_t)g.nctas;
    g.slot = calloc(g.nslots ? g.nslots : 1, sizeof *g.slot);
    if (!g.slot) {
        l->fault.kind = EMU_FAULT_MEMORY;
        snprintf(l->fault.msg, sizeof l->fault.msg, "host out of memory setting up CTAs");
        return -1;
    }
    int rc = 0;
    while (rc == 0 && (g.live || g.next < g.nctas)) {
        for (uint32_t s = 0; s < g.nslots && rc == 0; s++) {
            if (!g.slot[s].warps && (g.next == g.nctas || (rc = grid_start(&g, s))))
                continue;
            int t = emu_cta_turn(&g.slot[s]);
            if (t < 0) rc = -1;
            else if (t > 0) grid_retire(&g, s);
            if (rc == 0) rc = emu_check_progress(l, g.slot, g.nslots);
        }
    }
    for (uint32_t s = 0; s < g.nslots; s++)
        if (g.slot[s].warps) grid_retire(&g, s);
    free(g.slot);
    return rc;
}
