/*
** issue.c -- the warp schedulers and the execution pipes.
**
** Each scheduler unit owns the slots assigned to it (slot % n_schedulers
** unless the policy's assign_sched hook says otherwise); the SM's one
** policy instance serves every unit.  Every cycle a unit refreshes the
** policy's view of its warps (readiness and stall reason, next
** instruction, load waits), asks the policy for a priority order, and issues
** the first ready, non-vetoed warps in that order, one instruction per
** warp, up to issue_width.  One GPU_SLOT_* is counted per scheduler per
** cycle: ISSUED, or why the best candidate (first in policy order with a
** real stall) could not go.
**
** Pipes: every unit instance accepts one instruction per initiation
** interval; a result is readable `latency` cycles after issue (the
** scoreboard entry carries that time, so writeback needs no event).
** The instruction executes functionally here, at issue.
*/
#include "core_int.h"

static inline uint64_t umin(uint64_t a, uint64_t b) { return a < b ? a : b; }

/* Instance of unit kind `u` free at `cycle`, or -1 (and *wake). */
static int issue_unit(const core_sm *sm, uint8_t u, uint64_t cycle, uint64_t *wake)
{
    uint64_t soonest = CORE_NEVER;
    for (uint32_t i = 0; i < sm->nunits[u]; i++) {
        if (sm->unit_free[u][i] <= cycle) return (int)i;
        soonest = umin(soonest, sm->unit_free[u][i]);
    }
    *wake = umin(*wake, soonest);
    return -1;
}

bool core_issue_unit_free(core_sm *sm, const core_uinfo *ui, uint64_t cycle, uint64_t *wake)
{
    if (ui->unit != CORE_UNIT_NONE && issue_unit(sm, ui->unit, cycle, wake) < 0) return false;
    return core_opc_can_issue(sm, ui, cycle, wake);
}

uint64_t core_issue_claim(core_sm *sm, const core_warp *w, const core_uinfo *ui, uint64_t cycle)
{
    uint64_t dummy = CORE_NEVER;
    int inst = ui->unit != CORE_UNIT_NONE ? issue_unit(sm, ui->unit, cycle, &dummy) : -1;
    if (inst >= 0) {
        sm->unit_free[ui->unit][inst] = cycle + ui->interval;
        if (cycle + ui->interval > sm->exec_until) sm->exec_until = cycle + ui->interval;
    }
    /* the operand collector is taken by every ALU instruction */
    return core_opc_issue(sm, w, ui, cycle);
}

_Static_assert(GPU_STATS_PIPES == GPU_UNIT_COUNT + 1, "stats.h: one pipe count per unit kind");

/*
** Count the energy model's events of one executed instruction `ui` with
** lanes `mask` (stats.h): its lanes on its pipe kind (memory instructions
** on the LD/ST unit, branches and barriers on none) and its register-file
** accesses, one per register operand and lane; predicate operands are not
** counted [I]: they live in a small predicate file, not the register file.
*/
void core_issue_count_energy(core_sm *sm, const core_uinfo *ui, uint32_t mask)
{
    uint64_t lanes = (uint64_t)__builtin_popcount(mask);
    uint64_t nr = 0, nw = 0;
    for (uint32_t i = 0; i < ui->nsrc; i++) nr += !(ui->src[i] & CORE_PRED_BIT);
    for (uint32_t i = 0; i < ui->ndst; i++) nw += !(ui->dst[i] & CORE_PRED_BIT);
    uint32_t pipe = ui->kind == CORE_K_MEM ? GPU_UNIT_LDST
                  : ui->unit != CORE_UNIT_NONE ? ui->unit : GPU_UNIT_COUNT;
    sm->st->pipe_lanes[pipe] += lanes;
    sm->st->rf_reads += nr * lanes;
    sm->st->rf_writes += nw * lanes;
}

/* Why warp `w` cannot issue at `cycle` (WS_STALL_NONE: it can). */
static uint8_t issue_stall(core_sm *sm, core_warp *w, uint64_t cycle, uint64_t *wake)
{
    if (!w->ew || w->finished) return WS_STALL_EMPTY;
    if (w->ew->state == EMU_W_BARRIER) return WS_STALL_BARRIER;
    if (w->alt) {
        if (w->alt->on) return core_alt_stall(sm, w, cycle, wake);
        if (w->alt->rcu_n) core_alt_settle(sm, w);
    }
    if (!w->ib_n) return WS_STALL_IBUFFER;
    if (w->ib_ready[w->ib_head] > cycle) {
        *wake = umin(*wake, w->ib_ready[w->ib_head]);
        return WS_STALL_IBUFFER;
    }
    const core_uinfo *ui = core_head_ui(sm, w);
    uint64_t t = CORE_NEVER;
    if (!core_sb_ready(w, ui, cycle, &t)) {
        *wake = umin(*wake, t);
        return WS_STALL_SCOREBOARD;
    }
    if (ui->kind == CORE_K_MEM) {
        if (sm->lsu.busy) return WS_STALL_UNIT;        /* the LSU ticks: not idle */
        /* one memory instruction per warp in the re-execution queue (Mascar
           §2.7: keeps a store and a later load of the warp in order); the
           LSU-side wait is a unit stall, re-checked every cycle */
        if (w->reexec_n) return WS_STALL_UNIT;
        if (ui->is_load && !core_lsu_can_take_load(sm, w)) return WS_STALL_SCOREBOARD;
    } else if (ui->unit != CORE_UNIT_NONE && issue_unit(sm, ui->unit, cycle, wake) < 0) {
        return WS_STALL_UNIT;
    } else if (!core_opc_can_issue(sm, ui, cycle, wake)) {
        return WS_STALL_UNIT;
    }
    return WS_STALL_NONE;
}

/* After `w` executed: drop buffered instructions that are not next. */
static void issue_check_buffer(core_sm *sm, core_warp *w, const core_uinfo *ui)
{
    core_ib_pop(sm, w);
    const ptx_uop *next = emu_warp_next(w->ew);
    if (ui->kind == CORE_K_CTRL || ui->kind == CORE_K_BAR || !next || w->ew->state != EMU_W_READY
        || (w->ib_n && w->ib_pc[w->ib_head] != (uint32_t)(next - w->ew->uops)))
        core_ib_flush(sm, w);
}

/*
** A barrier that `w` completed released its CTA's warps: they are looked
** at again, and a warp whose bar was its function's last instruction
** before the kernel's end is done already (FUNC_END is never issued).
** `w` itself is left to the caller, so the CTA outlives this loop.
*/
static void issue_released(core_sm *sm, const core_warp *w, uint64_t cycle)
{
    const core_cta *c = &sm->ctas[w->cta_slot];
    for (uint32_t i = 0; i < c->ecta.nwarps; i++) {
        core_warp *o = &sm->warps[c->slot[i]];
        core_warp_poke(sm, o);
        if (o->bar_since) {
            /* its wait at the barrier ends now (spec §6: barrier wait) */
            sm->st->barrier_wait_cycles += cycle + 1 - o->bar_since;
            o->bar_since = 0;
        }
        if (o != w && o->ew && !o->finished && o->ew->state == EMU_W_DONE) {
            o->finished = true;
            sm->alive[o->slot] = 0;
            core_ib_flush(sm, o);
            core_warp_finish(sm, o, cycle);
        }
    }
}

/*
** Issue the buffered head instruction of `w`: claim its pipe, execute it
** functionally, reserve its destinations, hand memory instructions to the
** LSU.  false when the pipe was taken by an earlier issue this cycle or
** the buffer turned out stale (then it is flushed and refetched).
*/
static bool issue_one(core_sm *sm, core_warp *w, uint64_t cycle)
{
    emu_warp *ew = w->ew;
    uint32_t pc = w->ib_pc[w->ib_head];
    const ptx_uop *next = emu_warp_next(ew);
    if (!next || (uint32_t)(next - ew->uops) != pc) {
        core_ib_flush(sm, w);
        core_warp_poke(sm, w);
        return false;
    }
    const core_uinfo *ui = &sm->ui[pc];
    const core_uinfo *copy = w->alt ? core_alt_head_copy(w) : NULL;
    uint64_t dummy = CORE_NEVER;
    uint32_t load = CORE_NONE;
    if (copy) {
        if (!core_issue_unit_free(sm, copy, cycle, &dummy)) { core_warp_poke(sm, w); return false; }
        ui = copy;
        if (core_alt_copy(sm, w, cycle)) return true;    /* a fault */
    } else {
        if (ui->kind == CORE_K_MEM) {
            if (sm->lsu.busy) { core_warp_poke(sm, w); return false; }
            if (ui->is_load) load = core_load_alloc(sm, w);
        } else if (!core_issue_unit_free(sm, ui, cycle, &dummy)) {
            core_warp_poke(sm, w);
            return false;
        }
        /* destinations are named in the current frame: reserve before stepping */
        if (ui->kind == CORE_K_MEM) {
            if (load != CORE_NONE) core_sb_reserve(w, ui, CORE_NEVER, load);
        } else {
            uint64_t ready = core_issue_claim(sm, w, ui, cycle);
            if (ui->ndst) core_sb_reserve(w, ui, ready, CORE_NONE);
        }
        if (w->alt) core_alt_in_order(sm, w, pc);
        sm->st->alt.alu_insns += ui->kind == CORE_K_ALU;
        sm->st->alt.ll_insns += load != CORE_NONE && core_alt_ll_load(sm, load);
    }
    emu_step_info info;
    if (!copy && emu_warp_step(ew, &info)) {
        sm->fault = true;
        return true;
    }
    if (!copy) core_issue_count_energy(sm, ui, info.mask);
    w->issued++;
    w->last_issue = cycle;
    core_warp_poke(sm, w);
    sm->last_progress = cycle;
    sm->active = true;
    if (ui->kind == CORE_K_MEM && !copy) core_lsu_accept(sm, w, &info, load, cycle);
    issue_check_buffer(sm, w, ui);
    if (ui->kind == CORE_K_CTRL && sm->cfg->branch_resolve)
        w->fetch_resume = cycle + sm->cfg->branch_resolve;   /* resolved then */
    if (ew->state == EMU_W_BARRIER) {
        /* a barrier interval of the oracle profile ends with the barrier */
        w->ivl++;
        w->ivl_fetched = w->fetched;
        w->ivl_fetched_dev = w->fetched_dev;
        w->bar_since = cycle + 1;      /* + 1: 0 means not waiting */
        sm->st->barrier_arrivals++;
    }
    if (ew->state == EMU_W_BARRIER || ew->state == EMU_W_DONE) {
        /* the last arrival (or an exit) may complete a barrier */
        if (emu_cta_barrier_poll(ew->cta) > 0) issue_released(sm, w, cycle);
    }
    if (ew->state == EMU_W_DONE) {
        w->finished = true;
        sm->alive[w->slot] = 0;
        core_warp_finish(sm, w, cycle);
    }
    return true;
}

static uint8_t issue_slot_of(uint8_t stall)
{
    switch (stall) {
    case WS_STALL_SCOREBOARD: case WS_STALL_MEMBAR: return GPU_SLOT_SCOREBOARD;
    case WS_STALL_UNIT:    return GPU_SLOT_UNIT_BUSY;
    case WS_STALL_BARRIER: return GPU_SLOT_BARRIER;
    default:               return GPU_SLOT_IDLE;
    }
}

/* The next-instruction fields of `v` for warp `w` (stall just found;
   `on_mem`: the scoreboard wait has no time yet, so it waits for a load). */
static void issue_view_next(core_sm *sm, core_warp *w, ws_warp_view *v, bool on_mem,
                            uint64_t cycle)
{
    /* in an alternate-issue episode the warp is still S, waiting on its load */
    bool alt_on = w->alt && w->alt->on;
    if (w->ib_n || alt_on) {
        const core_uinfo *ui = alt_on ? &sm->ui[w->alt->stall_pc] : core_head_ui(sm, w);
        v->next_class = ui->next_class;
        v->next_is_load = ui->is_load;
        v->next_space = ui->kind == CORE_K_MEM ? ui->space : WS_SPACE_NONE;
        v->next_kind = ui->mem;
        v->next_pc = alt_on ? w->alt->stall_pc : w->ib_pc[w->ib_head];
        v->next_seq = alt_on ? UINT64_MAX : w->ib_seq[w->ib_head];
        uint32_t ld = on_mem ? core_sb_blocking_load(w, ui) : CORE_NONE;
        v->waits_on_load = ld != CORE_NONE;
        v->wait_load_pc = ld != CORE_NONE ? sm->loads[ld].pc : WS_NO_PC;
        w->wait_load = ld;
    } else {
        w->wait_load = CORE_NONE;
        v->next_class = w->ew->state == EMU_W_BARRIER ? WS_NEXT_BARRIER : WS_NEXT_NONE;
        v->next_seq = UINT64_MAX;
        v->next_is_load = false;
        v->next_space = WS_SPACE_NONE;
        v->next_kind = WS_MEM_NONE;
        v->waits_on_load = false;
        v->wait_load_pc = WS_NO_PC;
    }
    if (v->waits_on_load && !w->ll_stalled) {
        ws_sched_event e = CORE_EVENT(WS_EV_LL_STALL);
        e.warp = w->slot;
        e.pc = v->next_pc;
        e.value = v->wait_load_pc;
        core_sm_event(sm, &e, cycle);
    }
    w->ll_stalled = v->waits_on_load;
}

/*
** Look at the live warp in `slot`, whose recheck is due: its stall, its
** view, and when to look again (lowers *due and the SM's wake).
*/
static void issue_look(core_sm *sm, uint32_t slot, uint64_t cycle, uint64_t *due)
{
    core_warp *w = &sm->warps[slot];
    ws_warp_view *v = &sm->view[slot];
    uint64_t *recheck = &sm->recheck[slot];
    uint64_t wake = CORE_NEVER;
    v->valid = true;
    v->stall = w->stall = issue_stall(sm, w, cycle, &wake);
    bool lsu_wait = w->stall == WS_STALL_UNIT && w->ib_n
                    && sm->ui[w->ib_pc[w->ib_head]].kind == CORE_K_MEM;
    /* a wait for the busy LSU ends only when it frees (lsu_finish) or
       the warp's parked request is taken (rq_accepted): both reset
       recheck, so the warp is not looked at every cycle meanwhile */
    w->lsu_wait = lsu_wait;
    *recheck = w->stall == WS_STALL_NONE ? cycle + 1 : lsu_wait ? CORE_NEVER : wake;
    if (*recheck < *due) *due = *recheck;
    core_hum_look(sm, w);
    if (wake < sm->wake) sm->wake = wake;
    issue_view_next(sm, w, v, w->stall == WS_STALL_SCOREBOARD && wake == CORE_NEVER, cycle);
    if (w->alt) {
        if (v->waits_on_load && !w->alt->on) core_alt_try_enter(sm, w, w->wait_load, cycle);
        /* an episode issues when its next instruction can: looked at every cycle */
        if (w->alt->on) {
            *recheck = *due = cycle + 1;
            if (cycle + 1 < sm->wake) sm->wake = cycle + 1;
        }
    }
    v->issued = w->issued;
    v->pending_loads = w->pending_loads;
    v->reexec_entries = w->reexec_n;
    v->last_issue = w->last_issue;
}

/*
** Refresh the view of scheduler `s`; false when it has no live warp.
** A warp's stall is recomputed only when it may have changed: at the
** cycle its timed wait ends (`recheck`), or after an event that touched
** the warp (issue, fetch, load return, barrier release set recheck = 0;
** the LSU freeing does for the warps waiting for it).  Ready warps are
** looked at every cycle.  With `lazy` the due live warps are only marked
** (`sm->pend`, their view valid) for issue_sched to look at in the
** policy's order, as far as it gets.
*/
static bool issue_refresh(core_sm *sm, uint32_t s, uint64_t cycle, bool lazy)
{
    core_sched *sc = &sm->sched[s];
    sc->held = cycle < sc->due;
    if (sc->held) {
        /* nothing is due and nothing was poked: every view holds */
        if (sc->due < sm->wake) sm->wake = sc->due;
        return sc->live;
    }
    bool any = false;
    uint64_t due = CORE_NEVER;
    sc->npend = 0;
    for (uint32_t i = 0; i < sc->ncand; i++) {
        uint32_t slot = sc->cand[i];
        uint64_t *recheck = &sm->recheck[slot];
        if (*recheck > cycle) {     /* nothing to look at: the dense arrays only */
            any |= sm->alive[slot];
            if (*recheck < sm->wake) sm->wake = *recheck;
            if (*recheck < due) due = *recheck;
            continue;
        }
        core_warp *w = &sm->warps[slot];
        ws_warp_view *v = &sm->view[slot];
        if (!w->ew || w->finished) {
            if (v->valid || v->stall != WS_STALL_EMPTY) {   /* once per emptied slot */
                v->valid = false;
                v->stall = WS_STALL_EMPTY;
                core_hum_look(sm, w);
            }
            *recheck = CORE_NEVER;  /* until a warp takes the slot */
            continue;
        }
        any = true;
        if (lazy) {
            v->valid = true;
            sm->pend[slot] = cycle + 1;
            sc->npend++;
        } else {
            issue_look(sm, slot, cycle, &due);
        }
    }
    sc->due = due;
    sc->live = any;
    return any;
}

/*
** An issue this cycle left no instance of ALU unit `u` free next cycle:
** the unit's other ready warps of scheduler `sc` would find it busy when
** looked at next cycle (their head and scoreboard cannot change without a
** poke), so they are marked so now, until it frees.  Only a saving: the
** same stall and recheck time the look would give (without the operand
** collector, which has its own check).
*/
static void issue_unit_taken(core_sm *sm, core_sched *sc, uint8_t u, uint64_t cycle)
{
    uint64_t frees = CORE_NEVER;
    if (sm->opc_banks || issue_unit(sm, u, cycle + 1, &frees) >= 0) return;
    for (uint32_t i = 0; i < sc->ncand; i++) {
        core_warp *w = &sm->warps[sc->cand[i]];
        if (!w->ew || w->finished || sm->recheck[w->slot] != cycle + 1
            || w->stall != WS_STALL_NONE
            || !w->ib_n)
            continue;
        const core_uinfo *ui = &sm->ui[w->ib_pc[w->ib_head]];
        if (ui->kind != CORE_K_ALU || ui->unit != u) continue;
        w->stall = sm->view[sc->cand[i]].stall = WS_STALL_UNIT;
        sm->recheck[w->slot] = frees;
    }
}

/* A cycle in which no warp was ready in program order: the warps in an
   alternate-issue episode (priority WS_ALT_AFTER_INORDER), in the
   policy's order, up to the issue width (spec §3.1.5 [I]). */
static uint32_t issue_alt(core_sm *sm, uint32_t n, const uint32_t *order, uint64_t cycle)
{
    uint32_t issued = 0;
    for (uint32_t k = 0; k < n && issued < sm->cfg->issue_width && !sm->fault; k++) {
        if (order[k] >= sm->nwarps) continue;
        core_warp *w = &sm->warps[order[k]];
        if (w->alt && w->alt->on && w->alt->ch.priority == WS_ALT_AFTER_INORDER
            && core_alt_issue(sm, w, cycle))
            issued++;
    }
    return issued;
}

/* The thesis's Long Latency Stall (specs/haws.md §7): the unit has live
   warps and every one waits on a long-latency load. */
static bool issue_all_wait_ll(const core_sm *sm, const core_sched *sc)
{
    bool any = false;
    for (uint32_t i = 0; i < sc->ncand; i++) {
        const ws_warp_view *v = &sm->view[sc->cand[i]];
        if (!v->valid) continue;
        if (!v->waits_on_load || !core_alt_ll_pc(sm, v->wait_load_pc)) return false;
        any = true;
    }
    return any;
}

/*
** May the due warps be looked at lazily, in the policy's order and only
** until one issues?  Exactly the eager outcome when the order reads only
** the views' validity and age (WS_ORDER_AGE_ONLY, with WS_PURE_ORDER),
** one warp issues per cycle (so every look happens before any issue, and
** a failed issue changes nothing but a poke), no policy hook sees the
** looks' events (on_event, may_issue) and there is no alternate stream.
** The warps left unlooked are due again next cycle; what else reads their
** stall reads it only in cycles in which nothing issued, when all are
** looked at.
*/
static bool issue_lazy(const core_sm *sm)
{
    const ws_warp_sched_ops *wp = sm->wp;
    return wp && (wp->needs & WS_PURE_ORDER) && (wp->needs & WS_ORDER_AGE_ONLY)
        && !wp->may_issue && !wp->on_event && !sm->alts && sm->cfg->issue_width == 1;
}

/* The warps a lazy refresh marked and the issue loop did not reach: due
   again next cycle, so the scheduler and the SM are not held or skipped. */
static void issue_unlooked(core_sm *sm, core_sched *sc, uint64_t cycle)
{
    sc->npend = 0;      /* their marks name this cycle: stale from the next on */
    if (cycle + 1 < sc->due) sc->due = cycle + 1;
    if (cycle + 1 < sm->wake) sm->wake = cycle + 1;
}

static void issue_sched(core_sm *sm, uint32_t s, uint64_t cycle)
{
    core_sched *sc = &sm->sched[s];
    gpu_kernel_stats *st = sm->st;
    if (!issue_refresh(sm, s, cycle, issue_lazy(sm))) {
        sc->last_slot = GPU_SLOT_IDLE;
        sc->last_ll = false;
        st->slots[GPU_SLOT_IDLE]++;
        return;
    }
    const ws_warp_sched_ops *pure = sm->wp;
    if (sc->held && pure && (pure->needs & WS_PURE_ORDER) && !pure->may_issue
        && sc->last_slot != GPU_SLOT_ISSUED) {
        /* the same views as last cycle, which issued nothing: the same outcome */
        st->slots[sc->last_slot]++;
        st->alt.ll_stall_slots += sc->last_ll;
        return;
    }
    ws_sched_view v = core_sm_view(sm, cycle);
    v.sched = s;
    v.ncand = sc->ncand;
    v.cand = sc->cand;
    const ws_warp_sched_ops *wp = sm->wp;
    uint32_t n;
    if (wp && wp->order) {
        n = wp->order(sm->wst, &v, sc->order);
        if (n > sc->ncand) n = sc->ncand;
    } else {
        for (n = 0; n < sc->ncand; n++) sc->order[n] = sc->cand[n];
    }
    uint32_t issued = 0, width = sm->cfg->issue_width;
    uint8_t first = WS_STALL_NONE, took = CORE_UNIT_NONE;
    bool mem_veto = false, ready = false;
    for (uint32_t k = 0; k < n && issued < width && !sm->fault; k++) {
        uint32_t i = sc->order[k];          /* a slot */
        if (i >= sm->nwarps || sm->warps[i].sched != s) continue;
        ws_warp_view *wv = &sm->view[i];
        if (!wv->valid) continue;
        if (sm->pend[i] == cycle + 1) {
            sm->pend[i] = 0;
            sc->npend--;
            issue_look(sm, i, cycle, &sc->due);
        }
        if (wv->stall != WS_STALL_NONE) {
            core_alt *a = sm->warps[i].alt;
            if (a && a->on && a->ch.priority == WS_ALT_EQUAL
                && core_alt_issue(sm, &sm->warps[i], cycle)) {
                issued++;
                continue;
            }
            if (first == WS_STALL_NONE && wv->stall != WS_STALL_IBUFFER) first = wv->stall;
            continue;
        }
        ready = true;
        if (wp && wp->may_issue && !wp->may_issue(sm->wst, &v, i)) {
            mem_veto |= wv->next_class == WS_NEXT_MEM;
            sm->active = true;       /* a veto may lift any cycle: do not skip */
            continue;
        }
        core_warp *w = &sm->warps[i];
        const core_uinfo *hui = core_head_ui(sm, w);
        if (hui->kind == CORE_K_ALU) took = hui->unit;
        if (!issue_one(sm, w, cycle)) {
            if (first == WS_STALL_NONE) first = WS_STALL_UNIT;
            sm->active = true;
            continue;
        }
        issued++;
        wv->stall = WS_STALL_IBUFFER;   /* one instruction per warp per cycle */
        if (wp && wp->on_issue) wp->on_issue(sm->wst, &v, i);
    }
    if (sc->npend) issue_unlooked(sm, sc, cycle);
    if (sm->alts && !issued && !ready && !sm->fault) issued = issue_alt(sm, n, sc->order, cycle);
    uint8_t slot = issued ? GPU_SLOT_ISSUED : mem_veto ? GPU_SLOT_MEM_VETO : issue_slot_of(first);
    sc->last_slot = slot;
    st->slots[slot]++;
    sc->last_ll = !issued && issue_all_wait_ll(sm, sc);
    st->alt.ll_stall_slots += sc->last_ll;
    if (issued && took != CORE_UNIT_NONE) issue_unit_taken(sm, sc, took, cycle);
}

void core_issue_tick(core_sm *sm, uint64_t cycle)
{
    for (uint32_t s = 0; s < sm->nsched && !sm->fault; s++)
        issue_sched(sm, s, cycle);
}

/*
** OWL spec §6: the SM has warps and all of them wait for memory below L1.
** A warp counts when its next instruction waits on a load (the scoreboard
** with no known time) of which at least one transaction missed L1 and is
** not back; a warp at a barrier, waiting for an L1 hit's latency, the LSU
** or an instruction does not.  The stalls read here were refreshed this
** cycle or hold until an event (issue_refresh), so they are current.
** Stops at the first warp that is not blocked: cheap when warps issue.
*/
bool core_issue_mem_blocked(const core_sm *sm)
{
    if (!sm->live_warps) return false;
    for (uint32_t i = 0; i < sm->nwarps; i++) {
        const core_warp *w = &sm->warps[i];
        if (!w->ew || w->finished) continue;
        if (w->stall != WS_STALL_SCOREBOARD || w->wait_load == CORE_NONE
            || !sm->loads[w->wait_load].outstanding)
            return false;
    }
    return true;
}
