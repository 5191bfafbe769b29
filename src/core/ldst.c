/*
** ldst.c -- the load/store unit: one memory instruction at a time.
**
** At issue the instruction's lanes are split by state space and turned
** into work: shared memory costs its bank-conflict degree in LSU cycles;
** global and local accesses are coalesced into segments for the L1D,
** constant and parameter reads into lines for the L1C, texture reads for
** the L1T.  From the next cycle on the LSU hands one transaction per cycle
** to its cache; a reservation fail (no MSHR, merge slot or miss-queue
** slot) stalls the LSU, which retries the same transaction next cycle.
** The LSU takes a new instruction once every transaction is handed over.
**
** Latency convention: a load issued at cycle t that hits is readable at
** t + hit_latency (the LSU cycle is part of the hit latency); a miss whose
** request the memory answers after M cycles is readable at
** t + hit_latency + M.  Shared memory: t + shmem_latency + (degree - 1).
**
** Local memory is interleaved across the lanes of a warp (each thread's
** n-byte word i sits at i * 32n + lane * n of its warp's region), as GPUs
** lay it out, so uniform local accesses coalesce.
*/
#include "core.h"

static inline uint64_t umax(uint64_t a, uint64_t b) { return a > b ? a : b; }

/* ------------------------------------------------------------------ */
/* Load records                                                        */
/* ------------------------------------------------------------------ */

bool core_lsu_can_take_load(const core_sm *sm, const core_warp *w)
{
    return w->pending_loads < CORE_SB_CAP && sm->load_free != CORE_NONE;
}

uint32_t core_load_alloc(core_sm *sm, core_warp *w)
{
    uint32_t id = sm->load_free;
    core_load *ld = &sm->loads[id];
    sm->load_free = ld->next_free;
    *ld = (core_load){ .warp = w->slot, .pc = w->ib_n ? w->ib_pc[w->ib_head] : CORE_NO_PC,
                       .next_free = CORE_NONE };
    w->pending_loads++;
    return id;
}

/* Every transaction of load `id` is back: its registers become readable
   at its latest ready time. */
static void load_complete(core_sm *sm, uint32_t id, uint64_t cycle)
{
    core_load *ld = &sm->loads[id];
    core_warp *w = &sm->warps[ld->warp];
    core_sb_release_load(w, id, umax(ld->ready, cycle));
    w->pending_loads--;
    w->recheck = 0;
    sm->last_progress = cycle;
    ld->next_free = sm->load_free;
    sm->load_free = id;
    ws_sched_event e = CORE_EVENT(WS_EV_LOAD_RETURN);
    e.warp = w->slot;
    e.pc = ld->pc;
    core_sm_event(sm, &e, cycle);
    if (w->finished && !w->pending_loads) core_warp_finish(sm, w, cycle);
}

static void load_tx_done(core_sm *sm, uint32_t id, uint64_t ready, uint64_t cycle)
{
    core_load *ld = &sm->loads[id];
    ld->ready = umax(ld->ready, ready);
    if (--ld->outstanding == 0 && ld->all_sent) load_complete(sm, id, cycle);
}

/* ------------------------------------------------------------------ */
/* Accepting an instruction                                            */
/* ------------------------------------------------------------------ */

static int lsu_generic_space(uint64_t a, uint64_t *off)
{
    if (a < EMU_GLOBAL_LIMIT) { *off = a; return PTX_SPACE_GLOBAL; }
    *off = a & (EMU_WINDOW_SIZE - 1);
    switch (a & ~(EMU_WINDOW_SIZE - 1)) {
    case EMU_SHARED_WINDOW: return PTX_SPACE_SHARED;
    case EMU_LOCAL_WINDOW:  return PTX_SPACE_LOCAL;
    case EMU_CONST_WINDOW:  return PTX_SPACE_CONST;
    case EMU_PARAM_WINDOW:  return PTX_SPACE_PARAM;
    default:                return PTX_SPACE_GLOBAL;
    }
}

/* Append coalesced transactions of the lanes in `mask` for `cache`. */
static uint32_t lsu_add_tx(core_lsu *lsu, const uint64_t *addr, uint32_t mask, uint32_t nbytes,
                           uint32_t seg, uint8_t cache, uint8_t kind)
{
    uint64_t segs[CORE_MAX_TX];
    uint32_t room = CORE_MAX_TX - lsu->ntx;
    uint32_t n = core_coalesce(addr, mask, nbytes, seg, segs, room);
    for (uint32_t i = 0; i < n; i++)
        lsu->tx[lsu->ntx++] = (core_tx){ .addr = segs[i], .cache = cache, .kind = kind };
    return n;
}

/* The lanes of `mask` accessing space `space` at space offsets `off`. */
static void lsu_space_part(core_sm *sm, core_warp *w, int space, uint8_t kind,
                           const uint64_t *off, uint32_t mask, uint32_t nbytes)
{
    const gpu_config *cfg = sm->cfg;
    core_lsu *lsu = &sm->lsu;
    uint64_t a[EMU_WARP_SIZE];
    switch (space) {
    case PTX_SPACE_SHARED: {
        uint32_t k = core_smem_cycles(off, mask, nbytes, cfg->shmem_banks, cfg->shmem_bank_bytes);
        lsu->shmem = true;
        lsu->shmem_cycles += k;
        sm->st->shmem_accesses++;
        sm->st->shmem_conflict_cycles += k - 1;
        return;
    }
    case PTX_SPACE_LOCAL: {
        uint32_t n = nbytes ? nbytes : 4;
        uint64_t base = EMU_LOCAL_WINDOW
                      + ((uint64_t)sm->id * sm->nwarps + w->slot) * sm->launch->stack_bytes * 32ull;
        for (uint32_t m = mask; m; m &= m - 1) {
            int l = __builtin_ctz(m);
            a[l] = base + off[l] / n * (32ull * n) + (uint64_t)l * n + off[l] % n;
        }
        sm->st->gmem_transactions += lsu_add_tx(lsu, a, mask, nbytes, cfg->coalesce_bytes,
                                                CORE_C_L1D, kind);
        return;
    }
    case PTX_SPACE_CONST: case PTX_SPACE_PARAM: {
        uint64_t win = space == PTX_SPACE_CONST ? EMU_CONST_WINDOW : EMU_PARAM_WINDOW;
        for (uint32_t m = mask; m; m &= m - 1) {
            int l = __builtin_ctz(m);
            a[l] = win + off[l];
        }
        lsu_add_tx(lsu, a, mask, nbytes, mem_l1_line_bytes(sm->l1[CORE_C_L1C]), CORE_C_L1C,
                   MEM_READ);
        return;
    }
    case PTX_SPACE_TEX:
        lsu_add_tx(lsu, off, mask, nbytes, mem_l1_line_bytes(sm->l1[CORE_C_L1T]), CORE_C_L1T,
                   MEM_READ);
        return;
    default:
        sm->st->gmem_transactions += lsu_add_tx(lsu, off, mask, nbytes, cfg->coalesce_bytes,
                                                CORE_C_L1D, kind);
        return;
    }
}

void core_lsu_accept(core_sm *sm, core_warp *w, const emu_step_info *info,
                     uint32_t load, uint64_t cycle)
{
    core_lsu *lsu = &sm->lsu;
    const ptx_uop *u = info->uop;
    *lsu = (core_lsu){ .warp = w->slot, .load = load, .pc = (uint32_t)(u - w->ew->uops) };
    if (u->op == PTX_OP_ST) w->pending_stores++;   /* until its last transaction is handed over */
    uint8_t kind = u->op == PTX_OP_ST ? MEM_WRITE
                 : (u->op == PTX_OP_ATOM || u->op == PTX_OP_RED) ? MEM_ATOMIC : MEM_READ;
    uint32_t mask = info->nbytes ? info->mask : 0;   /* prefetch etc.: no data moved */
    if (u->op == PTX_OP_PREFETCH || u->op == PTX_OP_PREFETCHU) mask = 0;
    if (u->space != PTX_SPACE_NONE) {
        if (mask) lsu_space_part(sm, w, u->space, kind, info->addr, mask, info->nbytes);
    } else if (mask) {
        /* generic: group lanes by the window their address falls in */
        uint64_t off[EMU_WARP_SIZE];
        uint32_t by_space[PTX_SPACE_COUNT] = { 0 };
        for (uint32_t m = mask; m; m &= m - 1) {
            int l = __builtin_ctz(m);
            by_space[lsu_generic_space(info->addr[l], &off[l])] |= 1u << l;
        }
        for (int s = 0; s < PTX_SPACE_COUNT; s++)
            if (by_space[s]) lsu_space_part(sm, w, s, kind, off, by_space[s], info->nbytes);
    }
    if (load != CORE_NONE && lsu->shmem)
        sm->loads[load].ready = cycle + sm->cfg->shmem_latency + lsu->shmem_cycles - 1;
    if (!lsu->shmem && !lsu->ntx) {
        /* nothing to move: done at once */
        if (u->op == PTX_OP_ST) w->pending_stores--;
        if (load != CORE_NONE) {
            sm->loads[load].all_sent = true;
            sm->loads[load].ready = cycle + 1;
            load_complete(sm, load, cycle);
        }
        return;
    }
    lsu->busy = true;
}

/* ------------------------------------------------------------------ */
/* Working                                                             */
/* ------------------------------------------------------------------ */

/* An event about the LSU's current instruction (or, for evictions, about
   line `addr` owned by `warp`). */
static void lsu_event(core_sm *sm, int kind, uint32_t warp, uint64_t addr, uint64_t cycle)
{
    const core_lsu *lsu = &sm->lsu;
    ws_sched_event e = CORE_EVENT(kind);
    e.warp = warp;
    e.addr = addr;
    if (kind != WS_EV_L1_EVICT && lsu->pc < sm->launch->mod->nuops) {
        e.pc = lsu->pc;
        e.space = sm->ui[lsu->pc].space;
        e.mem = sm->ui[lsu->pc].mem;
    }
    core_sm_event(sm, &e, cycle);
}

static void lsu_finish(core_sm *sm, uint64_t cycle)
{
    core_lsu *lsu = &sm->lsu;
    lsu->busy = false;
    if (lsu->pc < sm->launch->mod->nuops && sm->ui[lsu->pc].mem == WS_MEM_STORE
        && sm->warps[lsu->warp].pending_stores)
        sm->warps[lsu->warp].pending_stores--;
    if (lsu->load == CORE_NONE) return;
    core_load *ld = &sm->loads[lsu->load];
    ld->all_sent = true;
    if (!ld->outstanding) load_complete(sm, lsu->load, cycle);
}

void core_lsu_tick(core_sm *sm, uint64_t cycle)
{
    core_lsu *lsu = &sm->lsu;
    if (!lsu->busy) return;
    if (lsu->shmem_cycles) {
        sm->active = true;
        if (--lsu->shmem_cycles == 0 && lsu->next == lsu->ntx) lsu_finish(sm, cycle);
        return;
    }
    core_tx *tx = &lsu->tx[lsu->next];
    mem_l1 *l1 = sm->l1[tx->cache];
    uint32_t token = lsu->load;
    mem_l1_evict ev;
    int r = mem_l1_access(l1, tx->kind, tx->addr, lsu->warp, token, &ev);
    core_load *ld = token != CORE_NONE ? &sm->loads[token] : NULL;
    /* allocate-on-miss evicts when the miss is sent, as fills do below */
    if (ev.valid && tx->cache == CORE_C_L1D && ev.owner < sm->nwarps)
        lsu_event(sm, WS_EV_L1_EVICT, ev.owner, ev.line, cycle);
    if (r != MEM_L1_FAIL) {
        lsu->blocked = false;
        sm->active = true;
    }
    switch (r) {
    case MEM_L1_FAIL:
        /* not progress: only a reply or a send below can unblock it, so
           the cycle loop may skip ahead (core_sm_account_skip counts on) */
        /* told once per blocked episode, so skipped retries need no events */
        if (!lsu->blocked) lsu_event(sm, WS_EV_LSU_STALL, lsu->warp, tx->addr, cycle);
        lsu->blocked = true;
        sm->st->lsu_stall_cycles++;
        return;
    case MEM_L1_HIT:
        if (ld) ld->ready = umax(ld->ready, cycle + mem_l1_hit_latency(l1) - 1);
        if (tx->cache == CORE_C_L1D) lsu_event(sm, WS_EV_L1_HIT, lsu->warp, tx->addr, cycle);
        break;
    case MEM_L1_MISS: case MEM_L1_MERGED:
        if (ld && tx->kind == MEM_READ) ld->outstanding++;
        if (tx->cache == CORE_C_L1D) lsu_event(sm, WS_EV_L1_MISS, lsu->warp, tx->addr, cycle);
        break;
    default: /* SENT: stores go on alone; atomics return to their load */
        if (ld && tx->kind == MEM_ATOMIC) ld->outstanding++;
        break;
    }
    /* every store the L1D took (CCWS drops the line's victim tag) */
    if (tx->cache == CORE_C_L1D && tx->kind == MEM_WRITE)
        lsu_event(sm, WS_EV_L1_STORE, lsu->warp, tx->addr, cycle);
    if (++lsu->next == lsu->ntx) lsu_finish(sm, cycle);
}

void core_lsu_reply(core_sm *sm, const mem_req *rep, uint64_t cycle)
{
    if (rep->src >= CORE_C_COUNT) return;
    mem_l1 *l1 = sm->l1[rep->src];
    uint32_t *tokens = sm->tokbuf;
    mem_l1_evict ev;
    uint32_t n = mem_l1_fill(l1, rep, tokens, &ev);
    if (n || ev.valid) sm->active = true;
    uint64_t ready = cycle + mem_l1_hit_latency(l1) - 1;
    for (uint32_t i = 0; i < n; i++)
        if (tokens[i] < sm->nloads) load_tx_done(sm, tokens[i], ready, cycle);
    if (ev.valid && rep->src == CORE_C_L1D && ev.owner < sm->nwarps)
        lsu_event(sm, WS_EV_L1_EVICT, ev.owner, ev.line, cycle);
}
