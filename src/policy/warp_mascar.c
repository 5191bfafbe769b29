/*
** warp_mascar.c -- Mascar's bimodal warp scheduler and L1 admission
** (`mascar`).  Source: Sethia, Jamshidi, Mahlke, "Mascar: Speeding up GPU
** Warps by Reducing Memory Pitstops" (HPCA 2015, Sec. III-A/B), as the
** project's specs/mascar.md Sec. 2.2-2.7 restates it.  One instance per SM:
** the mode (EP / MP), the owner warp (the WRC's register) and the WST bits
** are per SM and shared by the SM's scheduler units (Sec. 2.6).  The
** re-execution queue itself is the platform's (`lsu.reexec_queue`); this
** file decides which misses it gets (`l1_admit`) and who owns memory.
** Interpretations (numbers are specs/mascar.md sections / Sec. 8 items):
**  1. saturation (2.2, 8.1): every cycle in `tick`, from the view's L1
**     occupancy: sat = OR over L1D, L1C, L1T (`sat_caches` bits 1, 2, 4)
**     of used MSHRs >= size - mshr_slack || miss queue >= size - mq_slack;
**     a slack that is not smaller than the structure (GTX480's L1C has 2
**     MSHRs) counts as 0, i.e. that structure saturates when full, since
**     else it would report saturation forever; mode = sat ? MP : EP, no
**     hysteresis unless `min_dwell` > 0 (a mode is kept that many cycles);
**  2. the view is the state at the end of the previous cycle (the L1s tick
**     after the policy's tick): a one-cycle lag, like the WST update;
**  3. memory instruction (2.9, 8.4): the next instruction is a memory op of
**     global, local, const, texture or generic space (loads, stores,
**     atomics); shared and param accesses count as compute;
**  4. order (2.6) per scheduler unit: EP = memory group then compute group,
**     each greedy-then-oldest (the unit's last issued warp first); MP =
**     compute group then memory group, each oldest first (age = launch
**     order on the SM, ties by slot); warps that cannot issue stay in the
**     order (the issue stage passes them), so readiness needs no copy;
**  5. owner claim (2.5 [I] (1)): in MP with no owner, the first warp that
**     issues a memory instruction (the first unit to issue in a cycle wins,
**     not the oldest of simultaneous issuers); (2) when the LSU serves the
**     queue and there is no owner, the head entry's warp; (3) a miss that
**     reaches the L1 while there is no owner makes its warp the owner;
**     (4) a full queue without an entry of the owner passes ownership to
**     its head (whatever the owner waits on: a full queue stalls the LSU,
**     so an owner whose next op is a memory op would wait forever);
**     without a queue, a non-owner miss at the LSU head takes ownership
**     when the owner waits for the LSU (same reason);
**  6. owner release (2.5, 8.3): its next instruction waits on one of its
**     long-latency loads (`waits_on_load`: a scoreboard wait with no known
**     time, so an L1 hit's wait does not count) with none of its requests
**     parked (a parked request has not gone out yet), or it waits at a
**     barrier or membar, or it exited; MP -> EP also drops the owner;
**  7. gating (2.6): in MP with an owner, may_issue vetoes other warps'
**     memory instructions; compute issues from any unit;
**  8. admission (2.7): `reexec_nack` = 1 NACKs, in MP with an owner,
**     every new request below of another warp (misses, write-through
**     stores, atomics); merges and hits are never asked (the platform asks
**     only for `mem_l1_would_send`); requests already past issue when the
**     mode changed reach the L1 and are NACKed there (2.7 rule 6);
**     `reexec_nack` = 0 admits all (the scheduling-only configuration);
**  9. `sched` = 0: LRR's order, no owner, no veto, no NACK; the mode is
**     still tracked for the counters.  With lsu.reexec_queue = 0 this is
**     lrr bit for bit (tests/cli/mascar_invariants.sh);
** 10. the queue serves its head (the platform rotates refused entries to
**     the tail, which is how the owner's entries in the middle progress);
** 11. invariants (Sec. 9 item 14) with `check` = 1 (default on when NDEBUG
**     is not defined): owner-only admission in MP, no NACK in EP, one
**     instruction per warp in the queue, queue within its size; a
**     violation aborts naming SM, cycle and warp.  No deadlock is the
**     watchdog's (a run that finishes).
*/
#include <stdio.h>
#include <stdlib.h>

#include "policy/warp_order.h"

extern const ws_warp_sched_ops ws_warp_sched_lrr;

enum { P_MSHR_SLACK = 0, P_MQ_SLACK, P_SCHED, P_REEXEC_NACK, P_MIN_DWELL, P_CHECK,
       P_SAT_CACHES };

#ifdef NDEBUG
#define MASCAR_CHECK_DEFAULT 0
#else
#define MASCAR_CHECK_DEFAULT 1
#endif

static const ws_param_desc mascar_params[] = {
    { "mshr_slack", 4, 0, 65535, "entries", "saturated when free MSHRs of an L1 <= this" },
    { "mq_slack", 1, 0, 65535, "entries", "saturated when free miss-queue entries <= this" },
    { "sched", 1, 0, 1, "", "bimodal EP/MP scheduling and ownership (0 = LRR order)" },
    { "reexec_nack", 1, 0, 1, "", "NACK non-owner misses in MP mode (l1_admit)" },
    { "min_dwell", 0, 0, 1000000, "cycles", "least cycles in a mode before switching" },
    { "check", MASCAR_CHECK_DEFAULT, 0, 1, "", "check the invariants, abort on a violation" },
    { "sat_caches", 7, 0, 7, "bits", "L1s whose saturation counts: 1 = L1D, 2 = L1C, 4 = L1T" },
    { NULL, 0, 0, 0, NULL, NULL }
};

enum { C_MP, C_EP, C_SWITCHES, C_GRANTS, C_RELEASES, C_NACKS, C_COUNT };
static const char *const mascar_counter_names[] = {
    "mp_cycles", "ep_cycles", "mode_switches", "owner_grants", "owner_releases", "nacks", NULL
};

typedef struct mascar_state {
    int64_t  mshr_slack, mq_slack, min_dwell;
    bool     sched, nack, check;
    uint32_t sat_caches;
    uint32_t sm;
    bool     mp;
    uint64_t in_mode;          /* cycles in the current mode */
    uint32_t owner;            /* slot, WS_NO_WARP = none */
    uint64_t owner_uid;
    ws_age_units *units;       /* per unit: age order, greedy warp */
    void *lrr;                 /* sched = 0 */
    uint32_t *buf;             /* scratch for order */
    uint64_t ctr[C_COUNT];
} mascar_state;

static void *mascar_init(const ws_param_values *p, const ws_policy_env *env)
{
    mascar_state *st = calloc(1, sizeof *st);
    if (!st) return NULL;
    st->mshr_slack = p->v[P_MSHR_SLACK];
    st->mq_slack = p->v[P_MQ_SLACK];
    st->sched = p->v[P_SCHED] != 0;
    st->nack = p->v[P_REEXEC_NACK] != 0;
    st->min_dwell = p->v[P_MIN_DWELL];
    st->check = p->v[P_CHECK] != 0;
    st->sat_caches = (uint32_t)p->v[P_SAT_CACHES];
    st->sm = env->sm;
    st->owner = WS_NO_WARP;
    st->units = ws_age_units_new(env);
    st->lrr = ws_warp_sched_lrr.init(p, env);
    st->buf = malloc((env->nwarps ? env->nwarps : 1) * sizeof *st->buf);
    if (!st->units || !st->lrr || !st->buf) {
        ws_age_units_free(st->units);
        if (st->lrr) ws_warp_sched_lrr.destroy(st->lrr);
        free(st->buf);
        free(st);
        return NULL;
    }
    return st;
}

static void mascar_destroy(void *vst)
{
    mascar_state *st = vst;
    ws_age_units_free(st->units);
    ws_warp_sched_lrr.destroy(st->lrr);
    free(st->buf);
    free(st);
}

static void mascar_kernel_begin(void *vst, const ws_launch_info *k)
{
    (void)k;
    mascar_state *st = vst;
    st->mp = false;
    st->in_mode = 0;
    st->owner = WS_NO_WARP;
    for (int i = 0; i < C_COUNT; i++) st->ctr[i] = 0;
}

/* A violated invariant is a simulator bug: stop with where it happened. */
static void mascar_fail(const mascar_state *st, const ws_sched_view *v, uint32_t warp,
                        const char *what)
{
    fprintf(stderr, "mascar: invariant violated on SM %u at cycle %llu, warp slot %u: %s\n",
            st->sm, (unsigned long long)v->cycle, warp, what);
    abort();
}

/* Interpretation 3: a memory instruction that can miss in an L1. */
static bool is_mem_op(const ws_warp_view *w)
{
    if (w->next_class != WS_NEXT_MEM) return false;
    return w->next_space != WS_SPACE_SHARED && w->next_space != WS_SPACE_PARAM
        && w->next_space != WS_SPACE_NONE;
}

static void grant(mascar_state *st, uint32_t slot, uint64_t uid)
{
    st->owner = slot;
    st->owner_uid = uid;
    st->ctr[C_GRANTS]++;
}

static void release(mascar_state *st)
{
    if (st->owner == WS_NO_WARP) return;
    st->owner = WS_NO_WARP;
    st->ctr[C_RELEASES]++;
}

static bool is_owner(const mascar_state *st, uint32_t slot, uint64_t uid)
{
    return st->owner == slot && st->owner_uid == uid;
}

/* Interpretation 6: must the owner give up ownership now? */
static bool owner_done(const mascar_state *st, const ws_sched_view *v)
{
    if (st->owner >= v->nwarps) return true;
    const ws_warp_view *w = &v->warps[st->owner];
    if (!w->valid || w->uid != st->owner_uid) return true;
    if (w->stall == WS_STALL_BARRIER || w->stall == WS_STALL_MEMBAR) return true;
    return w->waits_on_load && w->reexec_entries == 0;
}

/* "Almost full": used >= size - slack, a slack >= size counting as 0. */
static bool almost_full(uint32_t used, uint32_t size, int64_t slack)
{
    uint64_t s = (uint64_t)slack < size ? (uint64_t)slack : 0;
    return (uint64_t)used + s >= size;
}

/* Interpretation 1: the saturation flag of the SM's L1s. */
static bool saturated(const mascar_state *st, const ws_sched_view *v)
{
    for (int c = 0; c < WS_NL1; c++) {
        const ws_l1_occupancy *o = &v->l1[c];
        if (!(st->sat_caches & (1u << c)) || !o->mshr_size) continue;
        if (almost_full(o->mshr_used, o->mshr_size, st->mshr_slack)
            || almost_full(o->missq_used, o->missq_size, st->mq_slack))
            return true;
    }
    return false;
}

/* The mode from the view (2.3), then the owner. */
static void mascar_tick(void *vst, const ws_sched_view *v)
{
    mascar_state *st = vst;
    bool sat = saturated(st, v);
    if (sat != st->mp && st->in_mode >= (uint64_t)st->min_dwell) {
        st->mp = sat;
        st->in_mode = 0;
        st->ctr[C_SWITCHES]++;
        release(st);        /* EP -> MP: claimed afresh; MP -> EP: no owner */
    }
    st->in_mode++;
    st->ctr[st->mp ? C_MP : C_EP]++;
    if (st->sched && st->mp && st->owner != WS_NO_WARP && owner_done(st, v)) release(st);
}

/* No view changes while cycles are skipped: the mode holds. */
static void mascar_on_skip(void *vst, uint64_t cycles)
{
    mascar_state *st = vst;
    st->in_mode += cycles;
    st->ctr[st->mp ? C_MP : C_EP] += cycles;
}

/* Interpretation 4: a stable partition of the unit's GTO (EP) or oldest
   (MP) order into the group that goes first and the other. */
static uint32_t mascar_order(void *vst, const ws_sched_view *v, uint32_t *out)
{
    mascar_state *st = vst;
    if (!st->sched) return ws_warp_sched_lrr.order(st->lrr, v, out);
    ws_age_unit *u = ws_age_unit_of(st->units, v);
    uint32_t live = ws_age_order_update(&u->age, v), n = 0;
    bool greedy = !st->mp && ws_greedy_live(&u->greedy, v);
    if (greedy) st->buf[n++] = u->greedy.warp;
    for (uint32_t i = 0; i < live; i++)
        if (!greedy || u->age.perm[i] != u->greedy.warp) st->buf[n++] = u->age.perm[i];
    bool mem_first = !st->mp;
    uint32_t k = 0;
    for (int pass = 0; pass < 2; pass++)
        for (uint32_t i = 0; i < n; i++)
            if (is_mem_op(ws_cand_warp(v, st->buf[i])) == (pass == 0 ? mem_first : !mem_first))
                out[k++] = st->buf[i];
    return ws_cand_to_slots(v, out, k);
}

/* Interpretation 7: in MP only the owner sends memory instructions. */
static bool mascar_may_issue(void *vst, const ws_sched_view *v, uint32_t slot)
{
    const mascar_state *st = vst;
    if (!st->sched || !st->mp || st->owner == WS_NO_WARP) return true;
    const ws_warp_view *w = &v->warps[slot];
    return !is_mem_op(w) || is_owner(st, slot, w->uid);
}

static void mascar_on_issue(void *vst, const ws_sched_view *v, uint32_t slot)
{
    mascar_state *st = vst;
    if (!st->sched) {
        ws_warp_sched_lrr.on_issue(st->lrr, v, slot);
        return;
    }
    ws_greedy_note(&ws_age_unit_of(st->units, v)->greedy, v, slot);
    const ws_warp_view *w = &v->warps[slot];
    if (st->mp && st->owner == WS_NO_WARP && is_mem_op(w)) grant(st, slot, w->uid);
}

/* Interpretation 8, with claims (3) and, without a queue, (4'). */
static bool mascar_l1_admit(void *vst, const ws_sched_view *v, const ws_l1_request *r)
{
    mascar_state *st = vst;
    if (!st->sched || !st->nack || !st->mp) return true;
    if (st->owner == WS_NO_WARP
        || (v->reexec_size == 0 && !r->from_reexec && st->owner < v->nwarps
            && v->warps[st->owner].next_class == WS_NEXT_MEM)) {
        if (st->owner != WS_NO_WARP) release(st);
        grant(st, r->warp, r->uid);
        return true;
    }
    if (is_owner(st, r->warp, r->uid)) return true;
    if (st->check && !st->mp) mascar_fail(st, v, r->warp, "NACK in EP mode");
    st->ctr[C_NACKS]++;
    return false;
}

/* Invariant checks of the queue (Sec. 9 item 14). */
static void check_queue(const mascar_state *st, const ws_sched_view *v, const ws_reexec_view *q)
{
    if (q->n > v->reexec_size) mascar_fail(st, v, q->e[0].warp, "queue over its size");
    for (uint32_t i = 0; i < q->n; i++)
        for (uint32_t j = i + 1; j < q->n; j++)
            if (q->e[i].uid == q->e[j].uid && q->e[i].pc != q->e[j].pc)
                mascar_fail(st, v, q->e[i].warp, "two instructions of a warp in the queue");
}

/* Claims (2) and (4) at the moment the LSU serves the queue; its head. */
static int mascar_reexec_pick(void *vst, const ws_sched_view *v, const ws_reexec_view *q)
{
    mascar_state *st = vst;
    if (st->check) check_queue(st, v, q);
    if (!st->sched || !st->nack || !st->mp || !q->n) return 0;
    bool owner_in = false;
    for (uint32_t i = 0; i < q->n && st->owner != WS_NO_WARP; i++)
        owner_in |= is_owner(st, q->e[i].warp, q->e[i].uid);
    if (st->owner == WS_NO_WARP || (q->n == v->reexec_size && !owner_in)) {
        release(st);
        grant(st, q->e[0].warp, q->e[0].uid);
    }
    return 0;
}

static void mascar_counters(void *vst, uint64_t *out)
{
    const mascar_state *st = vst;
    for (int i = 0; i < C_COUNT; i++) out[i] = st->ctr[i];
}

const ws_warp_sched_ops ws_warp_sched_mascar = {
    .name = "mascar",
    .summary = "Mascar: EP/MP modes on L1 saturation, one owner warp sends memory in MP, "
               "non-owner misses NACKed to the re-execution queue",
    .params = mascar_params,
    .init = mascar_init,
    .destroy = mascar_destroy,
    .kernel_begin = mascar_kernel_begin,
    .tick = mascar_tick,
    .on_skip = mascar_on_skip,
    .order = mascar_order,
    .may_issue = mascar_may_issue,
    .on_issue = mascar_on_issue,
    .l1_admit = mascar_l1_admit,
    .reexec_pick = mascar_reexec_pick,
    .counter_names = mascar_counter_names,
    .counters = mascar_counters,
};
