/*
** warp_ccws.c -- Cache-Conscious Wavefront Scheduling (`ccws`).
** Source: Rogers, O'Connor, Aamodt, "Learning Your Limit" (CACM 57(12)
** 2014, Sec. 3-4; MICRO-45 2012 "Cache-Conscious Wavefront Scheduling",
** Sec. 3.3 scoring equation) and the authors' GPGPU-Sim 3.1 fork, as the
** project's specs/ccws.md Sec. 2.2-2.8 restates them.  One instance per SM
** (one VTA set and one scoring system per SM, shared by its scheduler
** units): per-warp victim tag arrays fed by L1D evictions of the lines a
** warp allocated; a load miss that finds its line in the missing warp's own
** VTA ("lost intra-wavefront locality") raises that warp's lost-locality
** score; the scores, stacked largest first against a cumulative cutoff of
** active warps x base score, decide which warps may issue global/local
** loads.  The issue order is a base policy's (GTO, or LRR) untouched.
** Interpretations (numbers are specs/ccws.md Sec. 7 items):
**  1. score update = the code's: lls += X then clamp to max(base, min(lls,
**     cap)) with X = hits/insts * k_throttle * cutoff and cap the same with
**     k_cap (8 = code, 0 = the paper's additive equation); integer
**     arithmetic, truncated, as the code's int conversion;
**  2. constants: base 100, k_throttle 8, k_cap 8, VTA 2 sets x 8 ways = 16
**     entries per warp, FIFO (code), all parameters;
**  3. decay: `decay` points every `decay_period` core cycles (the policy's
**     tick), to every warp above base, and the cap is re-applied;
**  4. a warp starting in a slot starts at the base score (paper);
**  5. clamp order max(base, min(lls, cap));
**  6. every L1D load miss (new MSHR or merge) probes only the missing warp's
**     VTA; a VTA entry survives a hit; victims are inserted on every
**     eviction the L1 reports (allocate = miss: when the miss reserves the
**     way); any store the L1D takes (WS_EV_L1_STORE, global or local)
**     invalidates the line in every warp's VTA of the SM;
**  7. line owner on merge: the allocating warp (`l1d.owner = alloc`, the
**     L1's business, not the policy's);
**  8. ties in the sorted stack: by warp slot, ascending (code);
**  9. active warps = live warps of the SM (valid in the view), barrier-
**     blocked ones included; the cutoff is max(1, active x base), computed
**     at each tick and used by VTA hits until the next;
** 15. atomics, stores, shared/const/param/texture accesses are never gated;
**     loads whose space is generic are gated (`gate_generic`, default on:
**     nvcc emits them for global pointers it cannot prove global);
** 16. a warp's VTA is cleared when a new warp starts in its slot.
** Others: the Can-Issue set is computed at the start of each cycle (tick),
** before issue, from the events of the cycle before (the code's one-cycle
** lag); a VTA hit counts in the hit ratio before the update is computed;
** instructions issued count all but barriers (WS_NEXT_BARRIER); a warp's
** hits and instructions leave the totals when it finishes; VTA tags are
** line numbers addr / line_bytes (set = line number mod sets); evictions of
** a line whose owner left the SM are dropped (the event names no warp),
** while a line whose owner's slot already holds a new warp goes to that
** warp's VTA (the L1 knows slots only, as the code's WID field).
** With vta_sets = 0 (no VTA) no warp is ever throttled, and the policy
** issues exactly as its base policy.
*/
#include <stdlib.h>
#include <string.h>

#include "warpsim_policy.h"

extern const ws_warp_sched_ops ws_warp_sched_gto;
extern const ws_warp_sched_ops ws_warp_sched_lrr;

enum {
    P_BASE = 0, P_VTA_SETS, P_VTA_WAYS, P_BASE_SCORE, P_K_THROTTLE, P_K_CAP, P_DECAY,
    P_DECAY_PERIOD, P_LINE_BYTES, P_GATE_GENERIC
};

static const ws_param_desc ccws_params[] = {
    { "base", 0, 0, 1, "", "base priority order: 0 = gto, 1 = lrr" },
    { "vta_sets", 2, 0, 64, "sets", "sets of each warp's victim tag array (0 = no VTA)" },
    { "vta_ways", 8, 1, 64, "ways", "ways of each VTA set (FIFO)" },
    { "base_score", 100, 0, 1000000, "points", "base lost-locality score of a warp" },
    { "k_throttle", 8, 0, 1000, "", "score gain of a VTA hit (MICRO Sec. 3.3 K)" },
    { "k_cap", 8, 0, 1000, "", "score cap gain (code); 0 = no cap (paper's additive form)" },
    { "decay", 1, 0, 1000000, "points", "score decay per decay period" },
    { "decay_period", 1, 1, 1000000, "cycles", "core cycles between decays" },
    { "line_bytes", 128, 1, 65536, "bytes", "L1D line size: VTA tags are addr / line_bytes" },
    { "gate_generic", 1, 0, 1, "", "also gate generic-space loads (1) or not (0)" },
    { NULL, 0, 0, 0, NULL, NULL }
};

/* Counters reported per kernel into the statistics (summed over SMs). */
enum {
    C_VTA_HITS = 0, C_VTA_INSERTS, C_VTA_INVALIDATIONS, C_LOAD_VETOES, C_CYCLES,
    C_ALLOWED_SUM, C_ACTIVE_SUM, C_THROTTLED_CYCLES, C_COUNT
};
static const char *const ccws_counter_names[] = {
    "vta_hits", "vta_inserts", "vta_invalidations", "load_vetoes", "cycles",
    "allowed_warps_sum", "active_warps_sum", "throttled_cycles", NULL
};

#define NO_TAG UINT64_MAX

typedef struct ccws_state {
    const ws_warp_sched_ops *base;
    void *base_st;
    uint32_t nwarps, sets, ways;
    int64_t  base_score, k_throttle, k_cap, decay, period;
    uint64_t line_bytes;
    bool     gate_generic;
    /* VTA: warp w, set s, way k at [(w * sets + s) * ways + k] */
    uint64_t *tag, *stamp;
    uint64_t next_stamp;
    /* scoring system */
    int64_t  *lls;
    uint64_t *hits, *insts;        /* per slot, of the warp there now */
    uint64_t hits_total, insts_total;
    bool     *live;                /* from the last tick's view */
    bool     *can;                 /* Can-Issue */
    uint32_t *stack;               /* scratch: live slots by score */
    uint32_t nlive, nallowed;
    int64_t  cutoff;
    uint64_t cycle_no;             /* ticks since kernel_begin, for the period */
    uint64_t ctr[C_COUNT];
} ccws_state;

/* ------------------------------------------------------------------ */
/* Victim tag arrays                                                   */
/* ------------------------------------------------------------------ */

static uint64_t *vta_set(ccws_state *st, uint64_t *arr, uint32_t w, uint64_t line)
{
    return arr + ((size_t)w * st->sets + line % st->sets) * st->ways;
}

/* Way of `line` in warp `w`'s VTA, or -1. */
static int vta_find(ccws_state *st, uint32_t w, uint64_t line)
{
    if (!st->sets) return -1;
    const uint64_t *t = vta_set(st, st->tag, w, line);
    for (uint32_t k = 0; k < st->ways; k++)
        if (t[k] == line) return (int)k;
    return -1;
}

/* Insert `line` into VTA[w]: an empty way, else the oldest insertion
   (FIFO); a line already present keeps its place. */
static void vta_insert(ccws_state *st, uint32_t w, uint64_t line)
{
    if (!st->sets || vta_find(st, w, line) >= 0) return;
    uint64_t *t = vta_set(st, st->tag, w, line), *s = vta_set(st, st->stamp, w, line);
    uint32_t victim = 0;
    for (uint32_t k = 0; k < st->ways; k++) {
        if (t[k] == NO_TAG) { victim = k; break; }
        if (s[k] < s[victim]) victim = k;
    }
    t[victim] = line;
    s[victim] = ++st->next_stamp;
    st->ctr[C_VTA_INSERTS]++;
}

static void vta_clear(ccws_state *st, uint32_t w)
{
    size_t n = (size_t)st->sets * st->ways;
    for (size_t i = 0; i < n; i++) st->tag[(size_t)w * n + i] = NO_TAG;
}

/* A store to `line`: drop it from every warp's VTA. */
static void vta_invalidate(ccws_state *st, uint64_t line)
{
    for (uint32_t w = 0; w < st->nwarps; w++) {
        int k = vta_find(st, w, line);
        if (k < 0) continue;
        vta_set(st, st->tag, w, line)[k] = NO_TAG;
        st->ctr[C_VTA_INVALIDATIONS]++;
    }
}

/* ------------------------------------------------------------------ */
/* Lost-locality scores                                                */
/* ------------------------------------------------------------------ */

/* hits_total / insts_total * gain * cutoff, truncated (0 before any
   instruction) */
static int64_t ccws_scaled(const ccws_state *st, int64_t gain)
{
    if (!st->insts_total) return 0;
    return (int64_t)(st->hits_total * (uint64_t)gain * (uint64_t)st->cutoff / st->insts_total);
}

/* max(base, min(lls, cap)); without a cap (k_cap = 0) only the floor. */
static void ccws_clamp(ccws_state *st, uint32_t w)
{
    if (st->lls[w] <= st->base_score) {
        st->lls[w] = st->base_score;
        return;
    }
    if (st->k_cap > 0) {
        int64_t cap = ccws_scaled(st, st->k_cap);
        if (st->lls[w] > cap) st->lls[w] = cap;
        if (st->lls[w] < st->base_score) st->lls[w] = st->base_score;
    }
}

static void ccws_vta_hit(ccws_state *st, uint32_t w)
{
    st->hits[w]++;
    st->hits_total++;
    st->ctr[C_VTA_HITS]++;
    st->lls[w] += ccws_scaled(st, st->k_throttle);
    ccws_clamp(st, w);
}

/* A new warp in slot `w` (or the kernel's start): base score, no history. */
static void ccws_reset_warp(ccws_state *st, uint32_t w)
{
    st->hits_total -= st->hits[w];
    st->insts_total -= st->insts[w];
    st->hits[w] = st->insts[w] = 0;
    st->lls[w] = st->base_score;
    if (st->sets) vta_clear(st, w);
}

/* The cumulative cutoff test (Sec. 2.6): live warps by score, largest
   first (ties by slot); a warp is allowed while the scores above it sum
   to less than the cutoff.  All at the base score: everyone is allowed. */
static void ccws_cutoff(ccws_state *st)
{
    uint32_t n = 0;
    for (uint32_t w = 0; w < st->nwarps; w++) {
        st->can[w] = false;
        if (!st->live[w]) continue;
        uint32_t j = n++;
        /* insertion sort: stable, so equal scores stay in slot order */
        while (j > 0 && st->lls[st->stack[j - 1]] < st->lls[w]) {
            st->stack[j] = st->stack[j - 1];
            j--;
        }
        st->stack[j] = w;
    }
    int64_t prefix = 0;
    st->nallowed = 0;
    for (uint32_t i = 0; i < n; i++) {
        st->can[st->stack[i]] = true;
        st->nallowed++;
        prefix += st->lls[st->stack[i]];
        if (prefix >= st->cutoff) break;
    }
}

/* One core cycle of the scoring system: decay, cutoff, counters. */
static void ccws_cycle(ccws_state *st)
{
    if (st->decay && st->cycle_no % (uint64_t)st->period == 0)
        for (uint32_t w = 0; w < st->nwarps; w++)
            if (st->live[w] && st->lls[w] > st->base_score) {
                st->lls[w] -= st->decay;
                ccws_clamp(st, w);
            }
    st->cycle_no++;
    ccws_cutoff(st);
    st->ctr[C_CYCLES]++;
    st->ctr[C_ALLOWED_SUM] += st->nallowed;
    st->ctr[C_ACTIVE_SUM] += st->nlive;
    st->ctr[C_THROTTLED_CYCLES] += st->nallowed < st->nlive;
}

static bool ccws_any_above_base(const ccws_state *st)
{
    for (uint32_t w = 0; w < st->nwarps; w++)
        if (st->live[w] && st->lls[w] > st->base_score) return true;
    return false;
}

/* ------------------------------------------------------------------ */
/* The hooks                                                           */
/* ------------------------------------------------------------------ */

static void ccws_destroy(void *vst)
{
    ccws_state *st = vst;
    if (!st) return;
    if (st->base_st && st->base->destroy) st->base->destroy(st->base_st);
    free(st->tag);
    free(st->stamp);
    free(st->lls);
    free(st->hits);
    free(st->insts);
    free(st->live);
    free(st->can);
    free(st->stack);
    free(st);
}

static void ccws_set_params(ccws_state *st, const ws_param_values *p)
{
    st->base = p->v[P_BASE] ? &ws_warp_sched_lrr : &ws_warp_sched_gto;
    st->sets = (uint32_t)p->v[P_VTA_SETS];
    st->ways = (uint32_t)p->v[P_VTA_WAYS];
    st->base_score = p->v[P_BASE_SCORE];
    st->k_throttle = p->v[P_K_THROTTLE];
    st->k_cap = p->v[P_K_CAP];
    st->decay = p->v[P_DECAY];
    st->period = p->v[P_DECAY_PERIOD];
    st->line_bytes = (uint64_t)p->v[P_LINE_BYTES];
    st->gate_generic = p->v[P_GATE_GENERIC] != 0;
}

static void *ccws_init(const ws_param_values *p, const ws_policy_env *env)
{
    ccws_state *st = calloc(1, sizeof *st);
    if (!st) return NULL;
    ccws_set_params(st, p);
    uint32_t n = st->nwarps = env->nwarps ? env->nwarps : 1;
    size_t vta = (size_t)n * st->sets * st->ways + 1;
    ws_param_values none = { 0 };
    st->base_st = st->base->init(&none, env);
    st->tag = malloc(vta * sizeof *st->tag);
    st->stamp = calloc(vta, sizeof *st->stamp);
    st->lls = calloc(n, sizeof *st->lls);
    st->hits = calloc(n, sizeof *st->hits);
    st->insts = calloc(n, sizeof *st->insts);
    st->live = calloc(n, sizeof *st->live);
    st->can = calloc(n, sizeof *st->can);
    st->stack = calloc(n, sizeof *st->stack);
    if (!st->base_st || !st->tag || !st->stamp || !st->lls || !st->hits || !st->insts
        || !st->live || !st->can || !st->stack) {
        ccws_destroy(st);
        return NULL;
    }
    for (size_t i = 0; i < vta; i++) st->tag[i] = NO_TAG;
    return st;
}

/* Kernel boundary: scores, VTAs and counters start afresh (Sec. 2.4). */
static void ccws_kernel_begin(void *vst, const ws_launch_info *k)
{
    ccws_state *st = vst;
    for (uint32_t w = 0; w < st->nwarps; w++) {
        ccws_reset_warp(st, w);
        st->live[w] = false;
        st->can[w] = true;
    }
    st->hits_total = st->insts_total = 0;
    st->nlive = st->nallowed = 0;
    st->cutoff = 1;
    st->cycle_no = 0;
    memset(st->ctr, 0, sizeof st->ctr);
    if (st->base->kernel_begin) st->base->kernel_begin(st->base_st, k);
}

static void ccws_tick(void *vst, const ws_sched_view *v)
{
    ccws_state *st = vst;
    st->nlive = 0;
    for (uint32_t w = 0; w < st->nwarps; w++) {
        st->live[w] = w < v->nwarps && v->warps[w].valid;
        st->nlive += st->live[w];
    }
    int64_t c = (int64_t)st->nlive * st->base_score;
    st->cutoff = c > 1 ? c : 1;
    ccws_cycle(st);
}

/* `n` cycles passed without a tick and without any event: run the
   scoring system through them (only decay changes anything; once every
   score is at the base, the rest are alike). */
static void ccws_on_skip(void *vst, uint64_t n)
{
    ccws_state *st = vst;
    while (n && ccws_any_above_base(st)) {
        ccws_cycle(st);
        n--;
    }
    if (!n) return;
    ccws_cutoff(st);
    st->cycle_no += n;
    st->ctr[C_CYCLES] += n;
    st->ctr[C_ALLOWED_SUM] += n * st->nallowed;
    st->ctr[C_ACTIVE_SUM] += n * st->nlive;
    st->ctr[C_THROTTLED_CYCLES] += st->nallowed < st->nlive ? n : 0;
}

static uint32_t ccws_order(void *vst, const ws_sched_view *v, uint32_t *out)
{
    ccws_state *st = vst;
    return st->base->order(st->base_st, v, out);
}

/* The Can-Issue veto: only loads from global, local (and, by default,
   generic) memory of warps outside the allowed set. */
static bool ccws_may_issue(void *vst, const ws_sched_view *v, uint32_t slot)
{
    ccws_state *st = vst;
    const ws_warp_view *w = &v->warps[slot];
    if (w->next_class != WS_NEXT_MEM || w->next_kind != WS_MEM_LOAD) return true;
    bool gated = w->next_space == WS_SPACE_GLOBAL || w->next_space == WS_SPACE_LOCAL
              || (st->gate_generic && w->next_space == WS_SPACE_GENERIC);
    if (!gated || slot >= st->nwarps || st->can[slot]) return true;
    st->ctr[C_LOAD_VETOES]++;
    return false;
}

static void ccws_on_issue(void *vst, const ws_sched_view *v, uint32_t slot)
{
    ccws_state *st = vst;
    if (slot < st->nwarps && v->warps[slot].next_class != WS_NEXT_BARRIER) {
        st->insts[slot]++;
        st->insts_total++;
    }
    if (st->base->on_issue) st->base->on_issue(st->base_st, v, slot);
}

static void ccws_on_event(void *vst, const ws_sched_view *v, const ws_sched_event *e)
{
    ccws_state *st = vst;
    if (st->base->on_event) st->base->on_event(st->base_st, v, e);
    bool warp = e->warp < st->nwarps;
    uint64_t line = e->addr / st->line_bytes;
    switch (e->kind) {
    case WS_EV_WARP_START: if (warp) ccws_reset_warp(st, e->warp); break;
    case WS_EV_WARP_DONE:  if (warp) ccws_reset_warp(st, e->warp); break;
    case WS_EV_L1_EVICT:   if (warp) vta_insert(st, e->warp, line); break;
    case WS_EV_L1_STORE:   if (st->sets) vta_invalidate(st, line); break;
    case WS_EV_L1_MISS:
        if (warp && e->mem == WS_MEM_LOAD && vta_find(st, e->warp, line) >= 0)
            ccws_vta_hit(st, e->warp);
        break;
    default: break;
    }
}

static void ccws_counters(void *vst, uint64_t *out)
{
    const ccws_state *st = vst;
    memcpy(out, st->ctr, sizeof st->ctr);
}

const ws_warp_sched_ops ws_warp_sched_ccws = {
    .name = "ccws",
    .summary = "cache-conscious wavefront scheduling: per-warp victim tags and "
               "lost-locality scores gate global/local loads over a GTO (or LRR) order",
    .params = ccws_params,
    .init = ccws_init,
    .destroy = ccws_destroy,
    .kernel_begin = ccws_kernel_begin,
    .tick = ccws_tick,
    .on_skip = ccws_on_skip,
    .order = ccws_order,
    .may_issue = ccws_may_issue,
    .on_issue = ccws_on_issue,
    .on_event = ccws_on_event,
    .counter_names = ccws_counter_names,
    .counters = ccws_counters,
};
