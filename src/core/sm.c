/*
** sm.c -- one streaming multiprocessor: resources, CTA and warp
** lifecycle, the per-cycle tick, events to policies, and the deadlock
** dump.  The pipeline stages live in fetch.c, issue.c and ldst.c.
**
** Tick order is back to front so nothing moves two stages in one cycle:
** (replies are delivered by gpu.c first) -> LSU -> L1 miss queues to the
** port -> issue (execute at issue; results written back by time stamps in
** the scoreboard) -> fetch/decode.
*/
#include "core_int.h"
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const sm_stall_names[] = {
    "ready", "empty", "instruction buffer", "scoreboard", "unit busy", "barrier", "membar"
};

/* ------------------------------------------------------------------ */
/* Creation                                                            */
/* ------------------------------------------------------------------ */

static int sm_alloc(core_sm *sm, const gpu_config *cfg)
{
    uint32_t nsched = cfg->n_schedulers ? cfg->n_schedulers : 1;
    uint32_t per = (gpu_config_max_warps(cfg) + nsched - 1) / nsched;
    sm->nsched = nsched;
    sm->nwarps = per * nsched;
    sm->nctas = cfg->max_ctas_per_sm ? cfg->max_ctas_per_sm : 1;
    /* with a common issue queue one warp may hold all of it */
    uint32_t ib = cfg->fetch_queue ? cfg->fetch_queue : cfg->ibuffer_size ? cfg->ibuffer_size : 1;
    sm->ibuf_cap = ib;
    /* room beyond it for instructions passed at fetch (altissue.c) */
    sm->ib_ring = ib + WS_ALT_MAX;
    ib = sm->ib_ring;
    sm->fetch_rules = cfg->fetch_stall_mem || cfg->branch_resolve;
    sm->warps = calloc(sm->nwarps, sizeof *sm->warps);
    sm->ctas = calloc(sm->nctas, sizeof *sm->ctas);
    sm->sched = calloc(nsched, sizeof *sm->sched);
    sm->view = calloc(sm->nwarps, sizeof *sm->view);
    sm->recheck = calloc(sm->nwarps, sizeof *sm->recheck);
    sm->alive = calloc(sm->nwarps, sizeof *sm->alive);
    sm->pend = calloc(sm->nwarps, sizeof *sm->pend);
    sm->hum = calloc(sm->nwarps, sizeof *sm->hum);
    sm->humc.cand = calloc((sm->nwarps + 63) / 64, sizeof *sm->humc.cand);
    sm->fview = calloc(sm->nwarps, sizeof *sm->fview);
    sm->fetch_may = calloc((sm->nwarps + 63) / 64, sizeof *sm->fetch_may);
    sm->nloads = sm->nwarps * CORE_SB_CAP;
    sm->loads = calloc(sm->nloads, sizeof *sm->loads);
    uint32_t merge = 1;
    const gpu_cache_config *cc[CORE_C_COUNT] = { &cfg->l1d, &cfg->l1c, &cfg->l1t };
    for (int c = 0; c < CORE_C_COUNT; c++)
        if (cc[c]->mshr_merge > merge) merge = cc[c]->mshr_merge;
    if (cfg->l1i_model && cfg->l1i.mshr_merge > merge) merge = cfg->l1i.mshr_merge;
    sm->tokbuf = calloc(merge + 1, sizeof *sm->tokbuf);
    sm->rq_cap = cfg->lsu_reexec_queue;
    if (sm->rq_cap) {
        sm->rq = calloc(sm->rq_cap, sizeof *sm->rq);
        sm->rq_view = calloc(sm->rq_cap, sizeof *sm->rq_view);
        if (!sm->rq || !sm->rq_view) return -1;
    }
    if (!sm->warps || !sm->ctas || !sm->sched || !sm->view || !sm->recheck || !sm->alive || !sm->pend || !sm->hum || !sm->humc.cand
        || !sm->fview || !sm->fetch_may || !sm->loads || !sm->tokbuf)
        return -1;
    for (uint32_t s = 0; s < nsched; s++) {
        sm->sched[s].cand = calloc(sm->nwarps, sizeof *sm->sched[s].cand);
        sm->sched[s].order = calloc(sm->nwarps, sizeof *sm->sched[s].order);
        if (!sm->sched[s].cand || !sm->sched[s].order) return -1;
    }
    /* until an assign_sched hook says otherwise: slot % nsched */
    for (uint32_t i = 0; i < sm->nwarps; i++) {
        core_warp *w = &sm->warps[i];
        w->slot = i;
        w->sched = i % nsched;
        core_sched *sc = &sm->sched[w->sched];
        sc->cand[sc->ncand++] = i;
        sm->view[i] = (ws_warp_view){ .slot = i, .sched = w->sched, .uid = UINT64_MAX,
                                      .next_pc = WS_NO_PC, .wait_load_pc = WS_NO_PC };
        sm->fview[i].slot = i;       /* WS_FETCH_CAN_ONLY: nothing else is filled */
        w->ib_pc = calloc(ib, sizeof *w->ib_pc);
        w->ib_ready = calloc(ib, sizeof *w->ib_ready);
        w->ib_seq = calloc(ib, sizeof *w->ib_seq);
        if (!w->ib_pc || !w->ib_ready || !w->ib_seq) return -1;
    }
    for (int u = 0; u < GPU_UNIT_COUNT; u++) {
        sm->nunits[u] = cfg->units[u];
        sm->unit_free[u] = calloc(cfg->units[u] ? cfg->units[u] : 1, sizeof **sm->unit_free);
        if (!sm->unit_free[u]) return -1;
    }
    /* the SP pipes are the fallback of every ALU kind: at least one */
    if (!sm->nunits[GPU_UNIT_SP]) sm->nunits[GPU_UNIT_SP] = 1;
    if (core_opc_init(sm)) return -1;
    for (int c = 0; c < CORE_C_COUNT; c++)
        if (!(sm->l1[c] = mem_l1_new(cc[c], (uint16_t)sm->id, (uint8_t)c, cfg->coalesce_bytes)))
            return -1;
    if (cfg->l1d_classify && mem_l1_classify_enable(sm->l1[CORE_C_L1D])) return -1;
    /* the instruction cache keeps its own switch (l1i.model) */
    for (int c = 0; c < CORE_C_COUNT && cfg->perfect_l1; c++) mem_l1_set_perfect(sm->l1[c]);
    if (cfg->l1i_model
        && !(sm->l1i = mem_l1_new(&cfg->l1i, (uint16_t)sm->id, MEM_SRC_L1I, cfg->l1i.line_bytes)))
        return -1;
    if (sm->l1i && cfg->l1i_miss_latency && core_fetch_imiss_init(sm)) return -1;
    return 0;
}

static void sm_settle(core_sm *sm);

core_sm *core_sm_new(uint32_t id, uint32_t nsms, const gpu_config *cfg,
                     const ws_resolved_policies *rp, char *err, size_t errlen)
{
    core_sm *sm = calloc(1, sizeof *sm);
    if (!sm) goto oom;
    sm->id = id;
    sm->cfg = cfg;
    if (sm_alloc(sm, cfg)) goto oom;
    ws_policy_env env = { .sm = id, .nsms = nsms, .nwarps = sm->nwarps, .nsched = sm->nsched,
                          .max_ctas = sm->nctas };
    sm->wp = rp->warp;
    if (sm->wp && sm->wp->init && !(sm->wst = sm->wp->init(&rp->params[WS_KIND_WARP], &env))) {
        snprintf(err, errlen, "warp scheduler '%s' failed to initialise", sm->wp->name);
        core_sm_free(sm);
        return NULL;
    }
    if (core_alt_init(sm)) goto oom;
    /* skipping is exact only if a ticking policy can be told of it */
    sm->tick_no_skip = sm->wp && sm->wp->tick && !sm->wp->on_skip;
    sm->fetch_ops = rp->fetch;
    if (sm->fetch_ops && sm->fetch_ops->init
        && !(sm->fetch_st = sm->fetch_ops->init(&rp->params[WS_KIND_FETCH], &env))) {
        snprintf(err, errlen, "fetch policy '%s' failed to initialise", sm->fetch_ops->name);
        core_sm_free(sm);
        return NULL;
    }
    return sm;
oom:
    snprintf(err, errlen, "out of host memory creating SM %u", id);
    core_sm_free(sm);
    return NULL;
}

void core_sm_free(core_sm *sm)
{
    if (!sm) return;
    core_sm_abort(sm);
    core_alt_free(sm);
    for (uint32_t i = 0; sm->warps && i < sm->nwarps; i++) {
        free(sm->warps[i].ib_pc);
        free(sm->warps[i].ib_ready);
        free(sm->warps[i].ib_seq);
    }
    for (uint32_t s = 0; sm->sched && s < sm->nsched; s++) {
        free(sm->sched[s].cand);
        free(sm->sched[s].order);
    }
    if (sm->wst && sm->wp->destroy) sm->wp->destroy(sm->wst);
    free(sm->view);
    free(sm->recheck);
    free(sm->alive);
    free(sm->pend);
    free(sm->hum);
    free(sm->humc.cand);
    if (sm->fetch_st && sm->fetch_ops->destroy) sm->fetch_ops->destroy(sm->fetch_st);
    for (int u = 0; u < GPU_UNIT_COUNT; u++) free(sm->unit_free[u]);
    core_opc_free(sm);
    for (int c = 0; c < CORE_C_COUNT; c++) mem_l1_free(sm->l1[c]);
    if (sm->l1i) mem_l1_free(sm->l1i);
    free(sm->warps);
    free(sm->ctas);
    free(sm->sched);
    free(sm->fview);
    free(sm->fetch_may);
    free(sm->loads);
    free(sm->tokbuf);
    free(sm->imiss_q);
    free(sm->imiss_due);
    free(sm->rq);
    free(sm->rq_view);
    free(sm);
}

/* The saturation view (ABI 5): occupancy of the data, constant and
   texture L1s (CORE_C_* and WS_L1_* are in the same order). */
static void sm_l1_occupancy(core_sm *sm)
{
    for (int c = 0; c < CORE_C_COUNT && c < WS_NL1; c++) {
        const mem_l1 *l = sm->l1[c];
        sm->l1occ[c] = (ws_l1_occupancy){ .mshr_used = mem_l1_mshr_used(l),
                                          .mshr_size = mem_l1_mshr_size(l),
                                          .missq_used = mem_l1_queue_len(l),
                                          .missq_size = mem_l1_queue_size(l) };
    }
}

void core_sm_begin_kernel(core_sm *sm, emu_launch *l, const core_uinfo *ui,
                          gpu_kernel_stats *st, const ws_launch_info *k, uint64_t cycle)
{
    sm_settle(sm);
    sm->kinfo = k;
    sm->launch = l;
    sm->ui = ui;
    sm->st = st;
    sm->fault = false;
    sm->poked = true;                 /* the first tick is a real one */
    sm->saturated = sm->lsu_stalled = sm->hum_last = false;
    memset(sm->humc.cand, 0, (sm->nwarps + 63) / 64 * sizeof *sm->humc.cand);
    sm->humc.memo = false;
    for (uint32_t u = 0; u < sm->nsched; u++) sm->sched[u].due = 0;
    core_fetch_may_all(sm);
    sm->iq_used = 0;                  /* every warp of the last kernel flushed */
    sm->fetch_due = CORE_NEVER;
    sm->fetch_last = CORE_FETCH_NONE;
    memset(sm->fstall_last, 0, sizeof sm->fstall_last);
    sm_l1_occupancy(sm);
    sm->lsu.busy = false;
    sm->rq_n = 0;
    /* load records: all free */
    for (uint32_t i = 0; i < sm->nloads; i++)
        sm->loads[i].next_free = i + 1 < sm->nloads ? i + 1 : CORE_NONE;
    sm->load_free = 0;
    for (int u = 0; u < GPU_UNIT_COUNT; u++)
        memset(sm->unit_free[u], 0, (sm->nunits[u] ? sm->nunits[u] : 1) * sizeof **sm->unit_free);
    core_opc_reset(sm);
    for (int c = 0; c < CORE_C_COUNT; c++) mem_l1_reset(sm->l1[c]);
    /* the L1I keeps its lines across launches: GPGPU-Sim's cache_flush and
       cache_invalidate reach only the LD/ST unit's caches; its counters
       start again, as the others' do */
    if (sm->l1i) memset(mem_l1_stats_mut(sm->l1i), 0, sizeof *mem_l1_stats_mut(sm->l1i));
    if (sm->wp && sm->wp->kernel_begin) sm->wp->kernel_begin(sm->wst, k);
    if (sm->fetch_ops && sm->fetch_ops->kernel_begin) sm->fetch_ops->kernel_begin(sm->fetch_st, k);
    ws_sched_event e = CORE_EVENT(WS_EV_KERNEL_BEGIN);
    core_sm_event(sm, &e, cycle);
}

_Static_assert((int)CORE_C_L1D == (int)WS_L1D && (int)CORE_C_L1C == (int)WS_L1C
               && (int)CORE_C_L1T == (int)WS_L1T,
               "the view's L1 order is the SM's");
_Static_assert(GPU_POLICY_COUNTERS == WS_MAX_COUNTERS
               && GPU_POLICY_COUNTER_NAME == WS_COUNTER_NAME,
               "common/stats.h holds the policy counters the ABI allows");

uint32_t core_sm_policy_counters(const core_sm *sm, uint64_t *sum,
                                 char (*names)[GPU_POLICY_COUNTER_NAME])
{
    const ws_warp_sched_ops *wp = sm->wp;
    if (!wp || !wp->counters || !wp->counter_names) return 0;
    uint64_t v[WS_MAX_COUNTERS] = { 0 };
    wp->counters(sm->wst, v);
    uint32_t n = 0;
    /* the registry refused plug-ins with too many or too long names */
    while (n < WS_MAX_COUNTERS && wp->counter_names[n]) {
        if (names) snprintf(names[n], WS_COUNTER_NAME, "%s", wp->counter_names[n]);
        sum[n] += v[n];
        n++;
    }
    return n;
}

/* Add the warp scheduler's own counters of this kernel to the statistics. */
static void sm_policy_counters(core_sm *sm)
{
    gpu_kernel_stats *st = sm->st;
    if (!st) return;
    uint32_t n = core_sm_policy_counters(sm, st->policy_counters, st->policy_counter_names);
    if (n) st->npolicy_counters = n;
}

void core_sm_end_kernel(core_sm *sm, uint64_t cycle)
{
    ws_sched_event e = CORE_EVENT(WS_EV_KERNEL_END);
    core_sm_event(sm, &e, cycle);
    sm_policy_counters(sm);
    if (sm->wp && sm->wp->kernel_end) sm->wp->kernel_end(sm->wst, sm->kinfo);
    if (sm->fetch_ops && sm->fetch_ops->kernel_end) sm->fetch_ops->kernel_end(sm->fetch_st, sm->kinfo);
    sm->kinfo = NULL;
}

/* ------------------------------------------------------------------ */
/* Events to policies                                                  */
/* ------------------------------------------------------------------ */


bool core_policy_l1_admit(core_sm *sm, const ws_l1_request *r, uint64_t cycle)
{
    if (!sm->wp || !sm->wp->l1_admit) return true;
    ws_sched_view v = core_sm_view(sm, cycle);
    return sm->wp->l1_admit(sm->wst, &v, r);
}

int core_policy_reexec_pick(core_sm *sm, uint64_t cycle)
{
    if (!sm->rq_n) return -1;
    if (!sm->wp || !sm->wp->reexec_pick) return 0;
    for (uint32_t i = 0; i < sm->rq_n; i++) {
        const core_reexec *e = &sm->rq[i];
        sm->rq_view[i] = (ws_reexec_entry){ .warp = e->warp, .uid = e->uid, .pc = e->pc,
                                            .remaining = core_lsu_remaining(sm, e),
                                            .parked = e->parked, .retries = e->retries };
    }
    ws_reexec_view q = { .n = sm->rq_n, .e = sm->rq_view };
    ws_sched_view v = core_sm_view(sm, cycle);
    int i = sm->wp->reexec_pick(sm->wst, &v, &q);
    return i >= 0 && (uint32_t)i < sm->rq_n ? i : -1;
}

void core_sm_event(core_sm *sm, const ws_sched_event *e, uint64_t cycle)
{
    sm_settle(sm);
    if (!sm->wp || !sm->wp->on_event) return;
    ws_sched_event ev = *e;
    if (ev.warp < sm->nwarps && sm->warps[ev.warp].ew) {
        const core_warp *w = &sm->warps[ev.warp];
        ev.uid = w->uid;
        ev.cta = w->cta_slot;
        ev.cta_id = sm->ctas[w->cta_slot].ecta.linear;
    } else if (ev.kind != WS_EV_CTA_START && ev.kind != WS_EV_CTA_DONE) {
        ev.warp = WS_NO_WARP;     /* e.g. the owner of an evicted line left */
        ev.uid = UINT64_MAX;
    }
    ws_sched_view v = core_sm_view(sm, cycle);
    sm->wp->on_event(sm->wst, &v, &ev);
}

/* ------------------------------------------------------------------ */
/* CTAs and warps                                                      */
/* ------------------------------------------------------------------ */

bool core_sm_fits(const core_sm *sm, uint32_t nwarps, uint32_t regs, uint32_t shmem)
{
    const gpu_config *c = sm->cfg;
    return sm->live_ctas < sm->nctas
        && sm->used_threads + nwarps * EMU_WARP_SIZE <= c->max_threads_per_sm
        && sm->live_warps + nwarps <= gpu_config_max_warps(c)
        && sm->used_regs + regs <= c->regs_per_sm
        && sm->used_shmem + shmem <= c->shmem_per_sm;
}

/* The policy's assign_sched hook moves a starting warp's slot to the
   unit it names (the unit lists stay ascending by slot). */
static void sm_assign_sched(core_sm *sm, core_warp *w, uint64_t cycle)
{
    if (!sm->wp || !sm->wp->assign_sched) return;
    ws_sched_view v = core_sm_view(sm, cycle);
    uint32_t to = sm->wp->assign_sched(sm->wst, &v, w->slot);
    if (to >= sm->nsched || to == w->sched) return;
    core_sched *from = &sm->sched[w->sched], *dst = &sm->sched[to];
    uint32_t i = 0;
    while (i < from->ncand && from->cand[i] != w->slot) i++;
    if (i < from->ncand) {
        memmove(&from->cand[i], &from->cand[i + 1], (from->ncand - i - 1) * sizeof *from->cand);
        from->ncand--;
    }
    uint32_t j = dst->ncand;
    while (j > 0 && dst->cand[j - 1] > w->slot) { dst->cand[j] = dst->cand[j - 1]; j--; }
    dst->cand[j] = w->slot;
    dst->ncand++;
    w->sched = to;
    sm->view[w->slot].sched = to;
}

int core_sm_launch_cta(core_sm *sm, uint32_t linear, uint32_t regs, uint32_t shmem,
                       uint64_t cycle)
{
    sm_settle(sm);
    uint32_t cs = 0;
    while (cs < sm->nctas && sm->ctas[cs].live) cs++;
    if (cs == sm->nctas) return -1;
    core_cta *cta = &sm->ctas[cs];
    if (emu_cta_init(&cta->ecta, sm->launch, linear)) return -1;
    cta->ecta.smid = sm->id;      /* %smid names the SM the placement chose */
    cta->live = true;
    cta->warps_left = cta->ecta.nwarps;
    sm->live_ctas++;
    sm->used_threads += cta->ecta.nwarps * EMU_WARP_SIZE;
    sm->used_regs += regs;
    sm->used_shmem += shmem;
    ws_sched_event ce = CORE_EVENT(WS_EV_CTA_START);
    ce.cta = cs;
    ce.cta_id = linear;
    core_sm_event(sm, &ce, cycle);
    uint32_t slot = 0, maxw = gpu_config_max_warps(sm->cfg);
    for (uint32_t i = 0; i < cta->ecta.nwarps; i++) {
        while (slot < maxw && sm->warps[slot].ew) slot++;
        core_warp *w = &sm->warps[slot];
        uint32_t keep_slot = w->slot, keep_sched = w->sched;
        uint32_t *ib_pc = w->ib_pc;
        uint64_t *ib_ready = w->ib_ready, *ib_seq = w->ib_seq;
        core_alt *alt = w->alt;
        memset(w, 0, sizeof *w);
        w->alt = alt;
        core_alt_reset(w);
        sm->hum[slot].insns_at = 0;
        w->slot = keep_slot;
        w->sched = keep_sched;
        w->ib_pc = ib_pc;
        w->ib_ready = ib_ready;
        w->ib_seq = ib_seq;
        w->last_fetch = cycle;        /* LRF: resident from now (spec §7 item 2) */
        w->ew = &cta->ecta.warps[i];
        w->cta_slot = cs;
        w->age = sm->next_age++;
        w->uid = (uint64_t)linear * cta->ecta.nwarps + i;
        w->fetch_pc = CORE_NO_PC;
        cta->slot[i] = slot;
        sm->live_warps++;
        sm->view[slot] = (ws_warp_view){ .valid = true, .slot = slot, .uid = w->uid,
                                         .sched = w->sched,
                                         .age = w->age, .cta_slot = cs, .cta_id = linear,
                                         .warp_in_cta = i, .next_pc = WS_NO_PC,
                                         .wait_load_pc = WS_NO_PC };
        sm_assign_sched(sm, w, cycle);
        ws_sched_event we = CORE_EVENT(WS_EV_WARP_START);
        we.warp = slot;
        core_sm_event(sm, &we, cycle);
        /* a warp with no thread (cannot happen for whole warps), or a
           body with no instruction, is done before it issues */
        if (w->ew->state == EMU_W_DONE) w->finished = true;
        sm->recheck[slot] = 0;
        sm->alive[slot] = !w->finished;
    }
    /* the new warps (and the candidate lists assign_sched may have moved)
       need a look, and the new warps can fetch */
    for (uint32_t u = 0; u < sm->nsched; u++) sm->sched[u].due = 0;
    core_fetch_may_all(sm);
    uint32_t nw = cta->ecta.nwarps, slots[32];
    memcpy(slots, cta->slot, sizeof slots);   /* the last finish frees the CTA */
    for (uint32_t i = 0; i < nw; i++)
        if (sm->warps[slots[i]].finished) core_warp_finish(sm, &sm->warps[slots[i]], cycle);
    sm->active = true;
    return 0;
}

/* Add a finished CTA's counters to the kernel's and the launch's. */
static void sm_account_cta(core_sm *sm, const emu_cta *c)
{
    for (uint32_t i = 0; i < c->nwarps; i++) {
        const emu_warp *w = &c->warps[i];
        uint64_t n = w->warp_insns;
        sm->st->warp_insns += n;
        sm->warp_insns += n;
        sm->st->thread_insns += w->thread_insns;
        sm->st->mem_insns += w->class_insns[PTX_CLS_MEM];
        sm->st->bar_insns += w->class_insns[PTX_CLS_BAR];
        emu_launch_count_warp(sm->launch, w);
    }
}

static void sm_cta_done(core_sm *sm, uint32_t cs, uint64_t cycle)
{
    core_cta *cta = &sm->ctas[cs];
    sm_account_cta(sm, &cta->ecta);
    uint32_t nw = cta->ecta.nwarps;
    uint32_t linear = cta->ecta.linear;
    emu_cta_release(&cta->ecta);
    cta->live = false;
    sm->live_ctas--;
    uint32_t regs_per_thread = sm->st->regs_per_thread;
    sm->used_threads -= nw * EMU_WARP_SIZE;
    sm->used_regs -= regs_per_thread * nw * EMU_WARP_SIZE;
    sm->used_shmem -= sm->launch->shared_bytes;
    sm->cta_freed = true;
    ws_sched_event e = CORE_EVENT(WS_EV_CTA_DONE);
    e.cta = cs;
    e.cta_id = linear;
    core_sm_event(sm, &e, cycle);
}

/* A warp executed its last instruction; its slot frees when its loads are
   back, and the CTA's resources when its last warp leaves. */
void core_warp_finish(core_sm *sm, core_warp *w, uint64_t cycle)
{
    if (w->pending_loads || w->reexec_n || !w->ew) return;
    uint32_t cs = w->cta_slot;
    ws_sched_event e = CORE_EVENT(WS_EV_WARP_DONE);
    e.warp = w->slot;
    core_sm_event(sm, &e, cycle);     /* told while its slot still names it */
    core_alt_warp_done(sm, w);
    w->ew = NULL;
    w->finished = false;
    sm->alive[w->slot] = 0;
    core_ib_flush(sm, w);
    core_sb_clear(w);
    sm->live_warps--;
    sm->view[w->slot].valid = false;
    if (--sm->ctas[cs].warps_left == 0) sm_cta_done(sm, cs, cycle);
}

void core_sm_abort(core_sm *sm)
{
    sm_settle(sm);
    for (uint32_t c = 0; sm->ctas && c < sm->nctas; c++) {
        if (!sm->ctas[c].live) continue;
        emu_cta_release(&sm->ctas[c].ecta);
        sm->ctas[c].live = false;
    }
    for (uint32_t i = 0; sm->warps && i < sm->nwarps; i++) {
        sm->warps[i].ew = NULL;
        sm->warps[i].finished = false;
        sm->recheck[i] = 0;          /* the next look empties its view */
        sm->alive[i] = 0;
        sm->warps[i].pending_loads = 0;
        core_alt_reset(&sm->warps[i]);
        core_ib_flush(sm, &sm->warps[i]);
        core_sb_clear(&sm->warps[i]);
    }
    sm->live_ctas = sm->live_warps = 0;
    sm->used_threads = sm->used_regs = sm->used_shmem = 0;
    sm->lsu.busy = false;
    sm->rq_n = 0;
}

/* ------------------------------------------------------------------ */
/* The cycle                                                           */
/* ------------------------------------------------------------------ */

/*
** Would this cycle's tick change nothing?  Nothing happened in the last
** one (`active` false), nothing reached the SM since (a reply, a kernel
** start; a new CTA sets `active`), no timed wait ends now (`wake`), no
** policy ticks every cycle or is asked for an order that may change its
** state (only a WS_PURE_ORDER order is not asked again: issue_sched), and
** each waiting miss queue is certain to be refused again by the port.
** Then the tick would repeat the last cycle's counts: what a whole-GPU
** skip of one cycle accounts (core_sm_account_skip), plus the refused
** sends themselves.
*/
static bool sm_quiet(const core_sm *sm, const mem_port *port, uint64_t cycle)
{
    if (sm->active || sm->poked || cycle >= sm->wake || sm->last_tick + 1 != cycle
        || !sm->cfg->skip_idle_cycles || sm->fault || (sm->wp && sm->wp->tick))
        return false;
    if (sm->live_warps && sm->wp && sm->wp->order && !(sm->wp->needs & WS_PURE_ORDER))
        return false;
    bool waiting = false;
    for (int c = 0; c < CORE_C_COUNT; c++) waiting |= mem_l1_queue_len(sm->l1[c]) > 0;
    if (sm->l1i && mem_l1_queue_len(sm->l1i)) {
        if (sm->imiss_cap) return false;      /* its own port: may take it */
        waiting = true;
    }
    return !waiting || (port->refusing && port->refusing(port->impl));
}

/* The quiet tick: the refused sends (their counts and the port's record
   of them, as the tick makes them) and the repeated counts. */
static void sm_quiet_tick(core_sm *sm, const mem_port *port, uint64_t cycle)
{
    for (int c = 0; c < CORE_C_COUNT; c++)
        if (mem_l1_queue_len(sm->l1[c])) mem_l1_tick(sm->l1[c], port, cycle);
    if (sm->l1i && mem_l1_queue_len(sm->l1i)) mem_l1_tick(sm->l1i, port, cycle);
    sm->quiet_n++;             /* counted by sm_settle */
    sm->last_tick = cycle;
}

static void sm_account(core_sm *sm, uint64_t n);

/*
** The counts of the quiet ticks since the last count, as one skip of as
** many cycles from the first of them: nothing sm_account reads changes
** in a quiet run, its counts grow linearly with the cycles, and its pipe
** count starts at the run's first cycle.  Done before anything changes
** the SM or reads its counts (every entry point but the quiet tick and
** the read-only queries, and core_sm_settle before a sample).
*/
static void sm_settle(core_sm *sm)
{
    if (!sm->quiet_n) return;
    uint64_t n = sm->quiet_n, t = sm->last_tick;
    sm->quiet_n = 0;
    sm->last_tick = t - n;
    sm_account(sm, n);
    sm->last_tick = t;
}

void core_sm_settle(core_sm *sm) { sm_settle(sm); }

void core_sm_tick(core_sm *sm, const mem_port *port, uint64_t cycle)
{
    gpu_kernel_stats *st = sm->st;
    if (sm_quiet(sm, port, cycle)) {
        sm_quiet_tick(sm, port, cycle);
        return;
    }
    sm_settle(sm);
    sm->poked = false;
    sm->active = false;
    sm->wake = CORE_NEVER;
    if (sm->wp && sm->wp->tick) {
        ws_sched_view v = core_sm_view(sm, cycle);
        sm->wp->tick(sm->wst, &v);
        sm->active |= sm->tick_no_skip;
    }
    core_lsu_tick(sm, cycle);
    for (int c = 0; c < CORE_C_COUNT; c++)
        if (mem_l1_queue_len(sm->l1[c]) && mem_l1_tick(sm->l1[c], port, cycle)) sm->active = true;
    if (sm->imiss_cap) core_fetch_imiss_tick(sm, cycle);
    if (sm->l1i && mem_l1_queue_len(sm->l1i)
        && mem_l1_tick(sm->l1i, sm->imiss_cap ? &sm->imiss_port : port, cycle))
        sm->active = true;
    bool sat = mem_l1_saturated(sm->l1[CORE_C_L1D], sm->cfg->l1d_sat_mshr_slack,
                                sm->cfg->l1d_sat_missq_slack);
    sm_l1_occupancy(sm);
    if (sat != sm->saturated) {
        sm->saturated = sat;
        ws_sched_event e = CORE_EVENT(WS_EV_MEM_SATURATED);
        e.value = sat;
        core_sm_event(sm, &e, cycle);
    }
    sm->issued_last = sm->mem_blocked_last = false;
    if (sm->live_warps) {
        core_issue_tick(sm, cycle);
        for (uint32_t s = 0; s < sm->nsched; s++)
            sm->issued_last |= sm->sched[s].last_slot == GPU_SLOT_ISSUED;
        sm->mem_blocked_last = !sm->issued_last && core_issue_mem_blocked(sm);
        core_fetch_tick(sm, cycle);
        st->sm_warp_cycles++;
    } else {
        for (uint32_t s = 0; s < sm->nsched; s++) {
            sm->sched[s].last_slot = GPU_SLOT_IDLE;
            sm->sched[s].last_ll = false;
        }
        st->slots[GPU_SLOT_IDLE] += sm->cfg->n_schedulers;
    }
    st->sm_active_cycles += sm->issued_last || cycle < sm->exec_until;
    sm->last_tick = cycle;
    st->mem_block_cycles += sm->mem_blocked_last;
    sm->hum_last = sm->live_warps && core_hum_missed(sm);
    st->missed_hum_cycles += sm->hum_last;
    st->active_warps_sum += sm->live_warps;
    for (int c = 0; c < CORE_C_COUNT; c++)
        mem_l1_stats_mut(sm->l1[c])->mshr_occupancy_sum += mem_l1_mshr_used(sm->l1[c]);
}

void core_sm_reply(core_sm *sm, const mem_req *rep, uint64_t cycle)
{
    sm_settle(sm);
    sm->poked = true;
    if (rep->src == CORE_C_L1I) core_fetch_reply(sm, rep, cycle);
    else core_lsu_reply(sm, rep, cycle);
}

bool core_sm_idle(const core_sm *sm)
{
    if (sm->live_warps || sm->live_ctas || sm->lsu.busy || sm->rq_n) return false;
    for (int c = 0; c < CORE_C_COUNT; c++)
        if (!mem_l1_idle(sm->l1[c])) return false;
    return (!sm->l1i || mem_l1_idle(sm->l1i)) && !sm->imiss_n;
}

void core_sm_account_skip(core_sm *sm, uint64_t n)
{
    sm_settle(sm);
    sm_account(sm, n);
}

static void sm_account(core_sm *sm, uint64_t n)
{
    gpu_kernel_stats *st = sm->st;
    for (uint32_t s = 0; s < sm->nsched; s++) {
        st->slots[sm->sched[s].last_slot] += n;
        st->alt.ll_stall_slots += sm->sched[s].last_ll ? n : 0;
    }
    if (sm->kinfo && sm->wp && sm->wp->on_skip) sm->wp->on_skip(sm->wst, n);
    st->active_warps_sum += (uint64_t)sm->live_warps * n;
    /* nothing issues in a skipped cycle (an issue keeps the SM active), and
       the warps' waits hold, so MemoryBlockCycles repeat the last cycle's */
    if (sm->live_warps) st->sm_warp_cycles += n;
    /* a pipe may still hold an instruction issued before the skip */
    if (sm->exec_until > sm->last_tick + 1) {
        uint64_t busy = sm->exec_until - sm->last_tick - 1;
        st->sm_active_cycles += busy < n ? busy : n;
    }
    if (sm->mem_blocked_last) st->mem_block_cycles += n;
    /* the LSU stays stalled and nothing issues or fills while skipped */
    if (sm->hum_last) st->missed_hum_cycles += n;
    if (sm->lsu.busy && sm->lsu.blocked) {
        /* the LSU would have retried (and failed) every skipped cycle */
        st->lsu_stall_cycles += n;
        mem_l1_repeat_fail(sm->l1[sm->lsu.tx[sm->lsu.next].cache], n);
    }
    core_lsu_account_skip(sm, n);
    core_fetch_account_skip(sm, n);
    for (int c = 0; c < CORE_C_COUNT; c++)
        mem_l1_stats_mut(sm->l1[c])->mshr_occupancy_sum += (uint64_t)mem_l1_mshr_used(sm->l1[c]) * n;
}

/* ------------------------------------------------------------------ */
/* Deadlock dump                                                       */
/* ------------------------------------------------------------------ */

#define DUMP(...) do { size_t u_ = strlen(buf); \
        if (u_ + 1 < len) snprintf(buf + u_, len - u_, __VA_ARGS__); } while (0)

void core_sm_dump(const core_sm *sm, uint64_t cycle, char *buf, size_t len)
{
    (void)cycle;
    if (!sm->live_warps && core_sm_idle(sm)) return;
    DUMP("SM %u: %u warps, %u CTAs resident; LSU %s", sm->id, sm->live_warps, sm->live_ctas,
         sm->lsu.busy ? "busy" : "idle");
    if (sm->lsu.busy)
        DUMP(" (warp %u, transaction %u of %u, %u shared-memory cycles left)", sm->lsu.warp,
             sm->lsu.next, sm->lsu.ntx, sm->lsu.shmem_cycles);
    if (sm->rq_cap) DUMP("; re-execution queue %u/%u", sm->rq_n, sm->rq_cap);
    static const char *const cname[CORE_C_COUNT] = { "L1D", "L1C", "L1T" };
    for (int c = 0; c < CORE_C_COUNT; c++)
        DUMP("; %s %u MSHRs, %u queued", cname[c], mem_l1_mshr_used(sm->l1[c]),
             mem_l1_queue_len(sm->l1[c]));
    static const char *const uname[GPU_UNIT_COUNT] = { "SP", "SFU", "DP", "INT", "LDST" };
    for (int u = 0; u < GPU_UNIT_LDST; u++) {
        uint32_t busy = 0;
        for (uint32_t i = 0; i < sm->cfg->units[u]; i++) busy += sm->unit_free[u][i] > cycle;
        if (sm->cfg->units[u]) DUMP("; %s %u/%u busy", uname[u], busy, sm->cfg->units[u]);
    }
    DUMP("\n");
    for (uint32_t i = 0; i < sm->nwarps; i++) {
        const core_warp *w = &sm->warps[i];
        if (!w->ew) continue;
        const ptx_uop *u = emu_warp_next(w->ew);
        const emu_cta *c = w->ew->cta;
        DUMP("  warp slot %u (CTA %u, warp %u): ", i, c->linear, w->ew->wid);
        if (u)
            DUMP("pc %u, PTX line %u (%s)", (uint32_t)(u - w->ew->uops), u->line,
                 ptx_opcode_names[u->op]);
        else
            DUMP("finished");
        DUMP(", %s, %u pending loads, %u pending registers\n",
             w->ew->state == EMU_W_BARRIER ? "waits at a barrier"
             : w->finished ? "waits for its loads"
             : w->stall < sizeof sm_stall_names / sizeof *sm_stall_names
               ? sm_stall_names[w->stall] : "?",
             w->pending_loads, w->sb_n);
    }
}

/* ------------------------------------------------------------------ */
/* What the top level reads (core.h)                                   */
/* ------------------------------------------------------------------ */

bool core_sm_active(const core_sm *sm) { return sm->active; }
uint64_t core_sm_wake(const core_sm *sm) { return sm->wake; }
uint64_t core_sm_last_progress(const core_sm *sm) { return sm->last_progress; }
void core_sm_set_last_progress(core_sm *sm, uint64_t cycle) { sm->last_progress = cycle; }
bool core_sm_faulted(const core_sm *sm) { return sm->fault; }
void core_sm_set_fault(core_sm *sm) { sm->fault = true; }
uint32_t core_sm_live_warps(const core_sm *sm) { return sm->live_warps; }
uint32_t core_sm_live_ctas(const core_sm *sm) { return sm->live_ctas; }
uint32_t core_sm_slots(const core_sm *sm) { return sm->nwarps; }
uint32_t core_sm_schedulers(const core_sm *sm) { return sm->nsched; }
uint32_t core_sm_cta_slots(const core_sm *sm) { return sm->nctas; }
void core_sm_set_l1d_sink(core_sm *sm, l1_access_sink sink) { sm->l1d_sink = sink; }
void core_sm_set_dup_mshr(core_sm *sm, mem_dup_mshr *d) { sm->dup_mshr = d; }
uint64_t core_sm_warp_insns(const core_sm *sm) { return sm->warp_insns; }
const mem_l1 *core_sm_l1(const core_sm *sm, int c) { return c == CORE_C_L1I ? sm->l1i : sm->l1[c]; }

bool core_sm_cta_freed(const core_sm *sm) { return sm->cta_freed; }

bool core_sm_take_cta_freed(core_sm *sm)
{
    if (!sm->cta_freed) return false;   /* (read only: the line stays the SM thread's) */
    sm->cta_freed = false;
    return true;
}

void core_sm_insns_resident(const core_sm *sm, uint64_t *warp_insns, uint64_t *thread_insns)
{
    for (uint32_t c = 0; sm->ctas && c < sm->nctas; c++) {
        if (!sm->ctas[c].live) continue;
        const emu_cta *e = &sm->ctas[c].ecta;
        for (uint32_t i = 0; i < e->nwarps; i++) {
            *warp_insns += e->warps[i].warp_insns;
            *thread_insns += e->warps[i].thread_insns;
        }
    }
}

const emu_warp *core_sm_warp(const core_sm *sm, uint32_t slot, uint64_t *uid)
{
    const core_warp *w = slot < sm->nwarps ? &sm->warps[slot] : NULL;
    if (!w || !w->ew) return NULL;
    if (uid) *uid = w->uid;
    return w->ew;
}
