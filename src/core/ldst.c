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
** With lsu.reexec_queue > 0 (Mascar §2.7) a refused transaction (a
** reservation fail, or a NACK from the policy's l1_admit) is parked in
** the re-execution queue instead and the LSU moves on; see core_lsu_tick.
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
#include "core_int.h"
#include <string.h>

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

/*
** GPGPU-Sim completes a global load when the last of its accesses is
** done, and counts it there: once when that access is a fill or a merge
** returning (ldst_unit::writeback), but once per destination register
** when it is an L1D hit (ldst_unit::L1_latency_queue_cycle calls
** warp_inst_complete inside its register loop; on a tie the hit is
** processed last, after writeback in the same cycle).  So a vector load of
** n registers that an L1D hit completes adds n - 1 more warp and thread
** instructions; gpu_sim_insn reproduces that (stats.h).  Shared-memory
** loads complete in their own pipeline, counted once.
*/
static void load_count_like_gpgpusim(core_sm *sm, const core_load *ld)
{
    if (!ld->l1d_any || ld->shmem || !ld->hit_done || ld->hit_done < ld->other_done
        || ld->pc >= sm->launch->mod->nuops)
        return;
    uint32_t n = sm->ui[ld->pc].ndst;
    if (n > 1) sm->st->vec_hit_insns += (uint64_t)(n - 1) * ld->lanes;
}

/* Every transaction of load `id` is back: its registers become readable
   at its latest ready time. */
static void load_complete(core_sm *sm, uint32_t id, uint64_t cycle)
{
    core_load *ld = &sm->loads[id];
    core_warp *w = &sm->warps[ld->warp];
    load_count_like_gpgpusim(sm, ld);
    core_sb_release_load(w, id, umax(ld->ready, cycle));
    w->pending_loads--;
    if (ld->dev) {
        w->dev_loads--;
        sm->st->devmem_lat_sum += cycle - ld->issued_at;
        sm->st->devmem_lat_count++;
    }
    core_warp_poke(sm, w);
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

static void lsu_store_done(core_sm *sm, core_warp *w, uint64_t cycle);

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

/* coalesce_reduce: the L1D stores and atomics just appended (from index
   `from`) carry only the part of their segment the lanes touch.  Only the
   write-through path sends a store's own bytes below (a write-back L1
   moves lines); atomics always go below with their bytes. */
static void lsu_reduce_tx(core_sm *sm, uint32_t from, const uint64_t *addr, uint32_t mask,
                          uint32_t nbytes)
{
    core_lsu *lsu = &sm->lsu;
    if (!sm->cfg->coalesce_reduce) return;
    for (uint32_t i = from; i < lsu->ntx; i++) {
        core_tx *t = &lsu->tx[i];
        bool own_bytes = t->kind == MEM_ATOMIC
                      || (t->kind == MEM_WRITE && !sm->cfg->l1d.write_back);
        if (!own_bytes) continue;
        t->bytes = (uint16_t)core_coalesce_reduce(addr, mask, nbytes, sm->cfg->coalesce_bytes,
                                                  &t->addr);
    }
}

/* l1d_classify: the lanes behind each L1D transaction appended from
   index `from` (the L1D's intra-/inter-thread split needs them). */
static void lsu_tx_lanes(core_sm *sm, uint32_t from, const uint64_t *addr, uint32_t mask,
                         uint32_t nbytes)
{
    if (!sm->cfg->l1d_classify) return;
    for (uint32_t i = from; i < sm->lsu.ntx; i++)
        sm->lsu.tx[i].lanes = core_coalesce_lanes(addr, mask, nbytes, sm->cfg->coalesce_bytes,
                                                  sm->lsu.tx[i].addr);
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
        uint32_t from = lsu->ntx;
        sm->st->gmem_transactions += lsu_add_tx(lsu, a, mask, nbytes, cfg->coalesce_bytes,
                                                CORE_C_L1D, kind);
        lsu_tx_lanes(sm, from, a, mask, nbytes);
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
    default: {
        uint32_t from = lsu->ntx;
        sm->st->gmem_transactions += lsu_add_tx(lsu, off, mask, nbytes, cfg->coalesce_bytes,
                                                CORE_C_L1D, kind);
        lsu_tx_lanes(sm, from, off, mask, nbytes);
        if (kind != MEM_READ) lsu_reduce_tx(sm, from, off, mask, nbytes);
        return;
    }
    }
}

/* A texture fetch: one L1T read per distinct line of the texels the
   lanes read (linear filtering: 4 or 8 per lane), in first-use order. */
static void lsu_tex_part(core_sm *sm, const emu_step_info *info)
{
    core_lsu *lsu = &sm->lsu;
    uint64_t line = mem_l1_line_bytes(sm->l1[CORE_C_L1T]);
    uint32_t first = lsu->ntx;
    for (uint32_t i = 0; i < info->ntexel && lsu->ntx < CORE_MAX_TX; i++) {
        uint64_t a = info->texel[i] / line * line;
        bool seen = false;
        for (uint32_t k = first; k < lsu->ntx && !seen; k++) seen = lsu->tx[k].addr == a;
        if (!seen) lsu->tx[lsu->ntx++] = (core_tx){ .addr = a, .cache = CORE_C_L1T, .kind = MEM_READ };
    }
}

void core_lsu_accept(core_sm *sm, core_warp *w, const emu_step_info *info,
                     uint32_t load, uint64_t cycle)
{
    core_lsu *lsu = &sm->lsu;
    const ptx_uop *u = info->uop;
    *lsu = (core_lsu){ .warp = w->slot, .uid = w->uid, .load = load,
                       .pc = (uint32_t)(u - w->ew->uops) };
    bool store = u->op == PTX_OP_ST || u->op == PTX_OP_SUST;
    bool dev = core_uinfo_devmem(&sm->ui[lsu->pc]);
    if (store) w->pending_stores++;   /* until its last transaction is handed over */
    if (store && dev) w->store_at = cycle;  /* until handed over and acknowledged */
    if (load != CORE_NONE) {
        sm->loads[load].dev = dev;
        sm->loads[load].issued_at = cycle;
        w->dev_loads += dev;
    }
    uint8_t kind = store ? MEM_WRITE
                 : (u->op == PTX_OP_ATOM || u->op == PTX_OP_RED) ? MEM_ATOMIC : MEM_READ;
    uint32_t mask = info->nbytes ? info->mask : 0;   /* prefetch etc.: no data moved */
    if (u->op == PTX_OP_PREFETCH || u->op == PTX_OP_PREFETCHU) mask = 0;
    if (u->op == PTX_OP_TEX || u->op == PTX_OP_TLD4) {
        if (mask) lsu_tex_part(sm, info);
    } else if (u->space != PTX_SPACE_NONE) {
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
    if (load != CORE_NONE) {
        sm->loads[load].lanes = (uint32_t)__builtin_popcount(mask);
        sm->loads[load].shmem = lsu->shmem;
    }
    if (load != CORE_NONE && lsu->shmem)
        sm->loads[load].ready = cycle + sm->cfg->shmem_latency + lsu->shmem_cycles - 1;
    if (!lsu->shmem && !lsu->ntx) {
        /* nothing to move: done at once */
        if (store) lsu_store_done(sm, w, cycle);
        if (load != CORE_NONE) {
            sm->loads[load].all_sent = true;
            sm->loads[load].ready = cycle + 1;
            load_complete(sm, load, cycle);
        }
        return;
    }
    lsu->busy = true;
    lsu->full_wait = false;
}

/* ------------------------------------------------------------------ */
/* Working                                                             */
/* ------------------------------------------------------------------ */

/* An event about an access of instruction `pc` of `warp` (or, for
   evictions, about line `addr` owned by `warp`: pc = CORE_NO_PC). */
static void lsu_event(core_sm *sm, int kind, uint32_t warp, uint32_t pc, uint64_t addr,
                      uint64_t cycle)
{
    ws_sched_event e = CORE_EVENT(kind);
    e.warp = warp;
    e.addr = addr;
    if (pc < sm->launch->mod->nuops) {
        e.pc = pc;
        e.space = sm->ui[pc].space;
        e.mem = sm->ui[pc].mem;
    }
    core_sm_event(sm, &e, cycle);
}

/* A device-memory store of `w` is complete when it is wholly handed over
   and every transaction sent below is acknowledged (the fetch-dram
   spec §7 item 16: the warp waits for the acknowledgement). */
static void lsu_store_check(core_sm *sm, core_warp *w, uint64_t cycle)
{
    if (!w->store_at || w->pending_stores || w->dev_stores) return;
    sm->st->devmem_lat_sum += cycle - w->store_at;
    sm->st->devmem_lat_count++;
    w->store_at = 0;
    core_warp_poke(sm, w);
}

/* A store instruction of `w` is wholly in the L1's hands. */
static void lsu_store_done(core_sm *sm, core_warp *w, uint64_t cycle)
{
    if (w->pending_stores) w->pending_stores--;
    lsu_store_check(sm, w, cycle);
}

/* A write the L1D sent below (write-through: a store's) is acknowledged. */
static void lsu_store_ack(core_sm *sm, const mem_req *rep, uint64_t cycle)
{
    if (rep->warp >= sm->nwarps) return;
    core_warp *w = &sm->warps[rep->warp];
    if (!w->ew || w->uid != rep->warp_uid || !w->dev_stores) return;
    w->dev_stores--;
    lsu_store_check(sm, w, cycle);
}

static void lsu_finish(core_sm *sm, uint64_t cycle)
{
    core_lsu *lsu = &sm->lsu;
    core_warp *w = &sm->warps[lsu->warp];
    lsu->busy = false;
    for (uint32_t i = 0; i < sm->nwarps; i++)
        if (sm->warps[i].lsu_wait) core_warp_poke(sm, &sm->warps[i]);
    /* a store with parked requests is done when the last of them is */
    if (lsu->pc < sm->launch->mod->nuops && sm->ui[lsu->pc].mem == WS_MEM_STORE && !w->reexec_n)
        lsu_store_done(sm, w, cycle);
    if (lsu->load == CORE_NONE) return;
    core_load *ld = &sm->loads[lsu->load];
    ld->all_sent = true;
    if (!ld->outstanding) load_complete(sm, lsu->load, cycle);
}

/* The L1D took `tx` for `warp`: tell the access-stream sink (Belady
   replay, l1d_trace).  Only called when a sink is set. */
static void lsu_record(core_sm *sm, const core_tx *tx, uint32_t warp, const mem_l1 *l1,
                       uint64_t cycle)
{
    uint64_t lb = mem_l1_line_bytes(l1);
    l1_access a = { .line = tx->addr / lb * lb, .cycle = cycle, .uid = sm->warps[warp].uid,
                    .sm = sm->id,
                    .kind = tx->kind == MEM_WRITE ? L1A_STORE
                          : tx->kind == MEM_ATOMIC ? L1A_ATOMIC : L1A_LOAD };
    sm->l1d_sink.fn(sm->l1d_sink.ctx, &a);
}

/* One access of a request of instruction `pc` of `warp` (load record
   `load` or CORE_NONE).  The policy's admission is asked first for an
   L1D access that would send a new request below.  MEM_L1_FAIL: nothing
   happened (*nack tells a refusal by the policy from a reservation fail);
   otherwise the result is accounted: load records, events. */
static int lsu_access(core_sm *sm, const core_tx *tx, uint32_t warp, uint32_t load,
                      uint32_t pc, bool retry, bool *nack, uint64_t cycle)
{
    mem_l1 *l1 = sm->l1[tx->cache];
    *nack = false;
    if (tx->cache == CORE_C_L1D && sm->wp && sm->wp->l1_admit
        && mem_l1_would_send(l1, tx->kind, tx->addr)) {
        ws_l1_request q = { .warp = warp, .uid = sm->warps[warp].uid, .pc = pc,
                            .mem = tx->kind == MEM_WRITE ? WS_MEM_STORE
                                 : tx->kind == MEM_ATOMIC ? WS_MEM_ATOMIC : WS_MEM_LOAD,
                            .addr = tx->addr, .from_reexec = retry };
        if (!core_policy_l1_admit(sm, &q, cycle)) {
            sm->st->l1_nacks++;
            *nack = true;
            return MEM_L1_FAIL;
        }
    }
    mem_l1_evict ev;
    int r = mem_l1_access_lanes(l1, tx->kind, tx->addr, tx->bytes, warp, load, tx->lanes, &ev);
    /* allocate-on-miss evicts when the miss is sent, as fills do below */
    if (ev.valid && tx->cache == CORE_C_L1D && ev.owner < sm->nwarps)
        lsu_event(sm, WS_EV_L1_EVICT, ev.owner, CORE_NO_PC, ev.line, cycle);
    if (r == MEM_L1_FAIL) return r;
    if (tx->cache == CORE_C_L1D && sm->l1d_sink.fn) lsu_record(sm, tx, warp, l1, cycle);
    core_load *ld = load != CORE_NONE ? &sm->loads[load] : NULL;
    if (ld) {
        ld->l1d_any |= tx->cache == CORE_C_L1D;
        uint64_t *done = tx->cache == CORE_C_L1D ? &ld->hit_done : &ld->other_done;
        if (r == MEM_L1_HIT) *done = umax(*done, cycle + mem_l1_hit_latency(l1) - 1);
    }
    switch (r) {
    case MEM_L1_HIT:
        if (ld) ld->ready = umax(ld->ready, cycle + mem_l1_hit_latency(l1) - 1);
        if (tx->cache == CORE_C_L1D) lsu_event(sm, WS_EV_L1_HIT, warp, pc, tx->addr, cycle);
        break;
    case MEM_L1_MISS: case MEM_L1_MERGED:
        /* a new L1D MSHR: the duplicate-MSHR statistic (HAWS spec 7) */
        if (r == MEM_L1_MISS && tx->cache == CORE_C_L1D && sm->dup_mshr) {
            uint64_t lb = mem_l1_line_bytes(l1);
            mem_dup_mshr_note(sm->dup_mshr, tx->addr / lb * lb, sm->id, cycle);
        }
        if (ld && tx->kind == MEM_READ && !retry) ld->outstanding++;
        if (tx->cache == CORE_C_L1D) lsu_event(sm, WS_EV_L1_MISS, warp, pc, tx->addr, cycle);
        break;
    default: /* SENT: stores go on alone; atomics return to their load */
        if (ld && tx->kind == MEM_ATOMIC && !retry) ld->outstanding++;
        /* a write-through L1D's writes are acknowledged (lsu_store_ack) */
        if (tx->kind == MEM_WRITE && tx->cache == CORE_C_L1D && sm->warps[warp].ew
            && sm->warps[warp].store_at)
            sm->warps[warp].dev_stores++;
        break;
    }
    /* every store the L1D took (CCWS drops the line's victim tag) */
    if (tx->cache == CORE_C_L1D && tx->kind == MEM_WRITE)
        lsu_event(sm, WS_EV_L1_STORE, warp, pc, tx->addr, cycle);
    return r;
}

/* ---- the re-execution queue (lsu.reexec_queue > 0) ---------------- */

/* The warp a parked entry is accounted to, or NULL when that warp has
   left: a warp does not wait for its last store to be handed over (as
   with the blocking LSU), so the rest of that store can be parked after
   its slot was freed or given to a new warp, which it must not hold up. */
static core_warp *rq_owner(core_sm *sm, uint32_t warp, uint64_t uid)
{
    core_warp *w = &sm->warps[warp];
    return w->ew && w->uid == uid ? w : NULL;
}

/* Park the LSU's current request at the queue's tail.  A parked read or
   atomic counts as outstanding for its load until it is accepted.  The
   policy is told once per instruction, when its first request parks. */
static void rq_park(core_sm *sm, uint64_t cycle)
{
    core_lsu *lsu = &sm->lsu;
    const core_tx *tx = &lsu->tx[lsu->next];
    sm->rq[sm->rq_n++] = (core_reexec){ .tx = *tx, .warp = lsu->warp, .load = lsu->load,
                                        .pc = lsu->pc, .uid = lsu->uid, .parked = cycle };
    if (lsu->load != CORE_NONE && tx->kind != MEM_WRITE) sm->loads[lsu->load].outstanding++;
    sm->st->reexec_parked++;
    core_warp *w = rq_owner(sm, lsu->warp, lsu->uid);
    if (!w) return;
    w->reexec_n++;
    if (!lsu->parked) lsu_event(sm, WS_EV_REEXEC_PARK, lsu->warp, lsu->pc, tx->addr, cycle);
    lsu->parked = true;
}

/* Parked entry `e` was accepted: its warp may go on. */
static void rq_accepted(core_sm *sm, const core_reexec *e, int r, uint64_t cycle)
{
    if (r == MEM_L1_HIT && e->load != CORE_NONE)
        load_tx_done(sm, e->load, sm->loads[e->load].ready, cycle);
    core_warp *w = rq_owner(sm, e->warp, e->uid);
    if (!w) return;
    w->reexec_n--;
    /* a store still in the LSU is done by lsu_finish */
    bool in_lsu = sm->lsu.busy && sm->lsu.warp == e->warp && sm->lsu.uid == e->uid;
    if (e->tx.kind == MEM_WRITE && !w->reexec_n && !in_lsu) lsu_store_done(sm, w, cycle);
    core_warp_poke(sm, w);         /* its next memory instruction may issue now */
    if (w->finished && !w->reexec_n) core_warp_finish(sm, w, cycle);
}

/* Can nothing in the queue change until a reply or a send below?  True
   when every entry would be a reservation fail and no policy hook takes
   part (an admission or a pick may depend on the cycle).  Each entry is
   probed without side effects; the rotation of refused retries is
   replayed by core_lsu_account_skip. */
static bool rq_stuck(const core_sm *sm)
{
    if (sm->wp && (sm->wp->l1_admit || sm->wp->reexec_pick)) return false;
    for (uint32_t i = 0; i < sm->rq_n; i++) {
        bool set;
        const core_tx *tx = &sm->rq[i].tx;
        if (!mem_l1_would_fail(sm->l1[tx->cache], tx->kind, tx->addr, &set)) return false;
    }
    return true;
}

/* Retry the parked request the policy picks: accepted, it leaves the
   queue (a hit completes its part of the load now); refused, it goes
   back to the tail.  Sets sm->active unless the queue is stuck. */
static void rq_serve(core_sm *sm, uint64_t cycle)
{
    if (!sm->rq_n) return;
    int i = core_policy_reexec_pick(sm, cycle);
    if (i < 0) {
        sm->active = true;  /* the policy may pick on any cycle */
        return;
    }
    core_reexec e = sm->rq[i];
    memmove(&sm->rq[i], &sm->rq[i + 1], (sm->rq_n - (uint32_t)i - 1) * sizeof *sm->rq);
    sm->rq_n--;
    bool nack;
    int r = lsu_access(sm, &e.tx, e.warp, e.load, e.pc, true, &nack, cycle);
    if (r == MEM_L1_FAIL) {
        e.retries++;
        sm->st->reexec_retries++;
        sm->rq[sm->rq_n++] = e;
        if (nack || !rq_stuck(sm)) sm->active = true;
        return;
    }
    sm->active = true;
    rq_accepted(sm, &e, r, cycle);
}

/* Reverse rq[a..b). */
static void rq_reverse(core_reexec *q, uint32_t a, uint32_t b)
{
    while (a + 1 < b) {
        core_reexec t = q[a];
        q[a++] = q[--b];
        q[b] = t;
    }
}

/*
** The SM skipped `n` cycles with a stuck queue (rq_stuck): each of them
** the oldest entry was retried, refused and moved to the tail, so entry k
** was tried n / rq_n times, once more if k < n % rq_n.  Reservation fails
** are counted per cache in the order their last tries happened (entries
** from n % rq_n on first), which leaves each cache's last fail kind right.
*/
void core_lsu_account_skip(core_sm *sm, uint64_t n)
{
    uint32_t q = sm->rq_n;
    if (!q || (sm->lsu.busy && q < sm->rq_cap)) return;
    if (q == sm->rq_cap) {
        sm->st->reexec_full_cycles += n;
        if (sm->lsu.busy) sm->st->lsu_stall_cycles += n;
    }
    sm->st->reexec_retries += n;
    uint32_t first = (uint32_t)(n % q);
    for (uint32_t j = 0; j < q; j++) {
        uint32_t k = (first + j) % q;
        core_reexec *e = &sm->rq[k];
        uint64_t tries = n / q + (k < first);
        bool set;
        mem_l1_would_fail(sm->l1[e->tx.cache], e->tx.kind, e->tx.addr, &set);
        mem_l1_add_fails(sm->l1[e->tx.cache], tries, set);
        e->retries += (uint32_t)tries;
    }
    /* rotate left by `first`: the entry tried next comes to the head */
    rq_reverse(sm->rq, 0, first);
    rq_reverse(sm->rq, first, q);
    rq_reverse(sm->rq, 0, q);
}

uint32_t core_lsu_remaining(const core_sm *sm, const core_reexec *e)
{
    const core_warp *w = &sm->warps[e->warp];
    bool owned = w->ew && w->uid == e->uid;
    const core_lsu *lsu = &sm->lsu;
    uint32_t in_lsu = lsu->busy && lsu->warp == e->warp && lsu->uid == e->uid
                    ? lsu->ntx - lsu->next : 0;
    return (owned ? w->reexec_n : 1) + in_lsu;
}

/*
** One LSU cycle.  Blocking LSU (no queue): the current request is retried
** until the L1 takes it.  With the queue (Mascar §2.7): a refused request
** is parked and the LSU moves on; parked requests are retried when the
** LSU has no new request, or only they are served while the queue is
** full.  A queue whose every entry is a reservation fail (and no policy
** hook in play) is not activity: only a reply or a send below changes
** it, so the cycle loop may skip and core_lsu_account_skip replays the
** refused retries.
*/
void core_lsu_tick(core_sm *sm, uint64_t cycle)
{
    core_lsu *lsu = &sm->lsu;
    sm->lsu_stalled = false;
    bool full = sm->rq_cap && sm->rq_n == sm->rq_cap;
    if (full && (!lsu->busy || lsu->full_wait || lsu->shmem_cycles)) {
        /* Mascar §2.7 rule 1(ii): the stalled LSU serves only the queue
           (§7: a stall of the LSU's instruction) */
        sm->st->reexec_full_cycles++;
        if (lsu->busy) sm->st->lsu_stall_cycles++;
        sm->lsu_stalled = lsu->busy;
        rq_serve(sm, cycle);
        if (sm->rq_n < sm->rq_cap) lsu->full_wait = false;
        return;
    }
    if (!lsu->busy) {
        rq_serve(sm, cycle);
        return;
    }
    if (lsu->shmem_cycles) {
        sm->active = true;
        if (--lsu->shmem_cycles == 0 && lsu->next == lsu->ntx) lsu_finish(sm, cycle);
        return;
    }
    const core_tx *tx = &lsu->tx[lsu->next];
    bool nack;
    int r = lsu_access(sm, tx, lsu->warp, lsu->load, lsu->pc, false, &nack, cycle);
    if (r == MEM_L1_FAIL && full) {
        /* a full queue takes hits (Fig. 7: W1 hits under W0's parked miss)
           but not a refused request: the LSU stalls from here on */
        lsu->full_wait = true;
        sm->st->reexec_full_cycles++;
        sm->st->lsu_stall_cycles++;
        sm->lsu_stalled = sm->active = true;
        lsu_event(sm, WS_EV_LSU_STALL, lsu->warp, lsu->pc, tx->addr, cycle);
        return;
    }
    if (r == MEM_L1_FAIL && sm->rq_cap) {
        rq_park(sm, cycle);
        r = MEM_L1_SENT;        /* the LSU is free of it */
    }
    if (r != MEM_L1_FAIL) {
        lsu->blocked = false;
        sm->active = true;
        if (++lsu->next == lsu->ntx) lsu_finish(sm, cycle);
        return;
    }
    /* not progress: only a reply or a send below can unblock a reservation
       fail, so the cycle loop may skip ahead (core_sm_account_skip counts
       on); a policy's refusal may lift any cycle */
    if (nack) sm->active = true;
    /* told once per blocked episode, so skipped retries need no events */
    if (!lsu->blocked) lsu_event(sm, WS_EV_LSU_STALL, lsu->warp, lsu->pc, tx->addr, cycle);
    lsu->blocked = !nack;
    sm->st->lsu_stall_cycles++;
    sm->lsu_stalled = true;
}

void core_lsu_reply(core_sm *sm, const mem_req *rep, uint64_t cycle)
{
    if (rep->src >= CORE_C_COUNT) return;
    if (rep->kind == MEM_WRITE) {
        /* no fill; a write-back L1D's own write-backs carry no store */
        if (rep->src == CORE_C_L1D && !(sm->cfg->l1d.write_back && sm->cfg->l1d.enabled))
            lsu_store_ack(sm, rep, cycle);
        return;
    }
    mem_l1 *l1 = sm->l1[rep->src];
    uint32_t *tokens = sm->tokbuf;
    mem_l1_evict ev;
    uint32_t n = mem_l1_fill(l1, rep, tokens, &ev);
    if (n || ev.valid) sm->active = true;
    uint64_t ready = cycle + mem_l1_hit_latency(l1) - 1;
    for (uint32_t i = 0; i < n; i++)
        if (tokens[i] < sm->nloads) {
            core_load *ld = &sm->loads[tokens[i]];
            ld->other_done = umax(ld->other_done, ready);
            load_tx_done(sm, tokens[i], ready, cycle);
        }
    if (ev.valid && rep->src == CORE_C_L1D && ev.owner < sm->nwarps)
        lsu_event(sm, WS_EV_L1_EVICT, ev.owner, CORE_NO_PC, ev.line, cycle);
}
