/*
** warp_two_level.c -- two-level active-set warp scheduler (`two-level`).
** Source: Narasiman et al., "Improving GPU Performance via Large Warps and
** Two-Level Warp Scheduling" (MICRO 2011), in the per-warp form of
** GPGPU-Sim's two_level_active scheduler: up to active_warps warps form the
** active set and only they may issue; the others wait in a pending set.
** Every cycle, before ordering, each active warp that is waiting on
** something long is demoted to the back of the pending set, and pending
** warps are promoted (to the back of the active list) until it is full.
** Interpretations (GPGPU-Sim behaviour kept unless said otherwise):
**  - "waiting" = finished / empty slot, at a CTA barrier, at a memory
**    barrier, or held by the scoreboard while it has loads in flight
**    (stall SCOREBOARD and pending_loads > 0).  GPGPU-Sim asks whether a
**    source register of the next instruction is written by a pending
**    global load; the view has no per-register flag, so a scoreboard stall
**    of a warp with loads in flight stands for it;
**  - at init the first active_warps indices are active, the rest pending,
**    in slot order (GPGPU-Sim's add_supervised_warp_id);
**  - outer=0: the pending set is a FIFO, the warp demoted (or queued)
**    longest ago is promoted first: GPGPU-Sim's SRR outer level.
**    outer=1 (not in GPGPU-Sim): the oldest (smallest age) pending warp
**    that is not itself waiting is promoted; if all are waiting, the
**    oldest live one, so a just-demoted old warp does not bounce back;
**    GPGPU-Sim's "two_level_active:N:0:1" is active_warps=N,inner=0,outer=0;
**  - a promoted warp is not re-checked in the cycle it is promoted (as in
**    GPGPU-Sim): if it is itself waiting it goes back next cycle;
**  - inner=0 (LRR): after an issue the active list rotates so that the
**    warp after the issuer comes first and the issuer last (GPGPU-Sim);
**    inner=1 (GTO, which GPGPU-Sim leaves unimplemented): the greedy warp
**    if still active, then the active warps by age;
**  - only active warps appear in the order; finished / empty slots that
**    were just promoted are left out of it;
**  - outer=2 (fetch groups, not in GPGPU-Sim): the CCWS paper's 2LVL-GTO
**    (specs/ccws.md Sec. 2.0 and 7.12) is `two-level` with
**    active_warps=8,inner=1,outer=2: the unit's warps form fixed groups of
**    active_warps consecutive slots; only the current group issues; when
**    none of its warps is ready (valid, no stall) the group holding the
**    oldest ready warp becomes current, in the same cycle; inside the group
**    the order is GTO (inner=1: the greedy warp, then by age) or LRR
**    (inner=0: from the warp after the last issuer); no demotion.
*/
#include <stdlib.h>
#include <string.h>

#include "policy/warp_order.h"

enum { P_ACTIVE = 0, P_INNER, P_OUTER };

static const ws_param_desc two_level_params[] = {
    { "active_warps", 8, 1, 256, "warps", "size of the active set (per scheduler)" },
    { "inner", 0, 0, 1, "", "order inside the active set: 0 = lrr, 1 = gto" },
    { "outer", 0, 0, 2, "",
      "which pending warp is promoted: 0 = round-robin (FIFO), 1 = oldest; "
      "2 = fixed fetch groups of active_warps warps (2LVL-GTO with inner=1)" },
    { NULL, 0, 0, 0, NULL, NULL }
};

typedef struct tl_state {
    uint32_t max_active;
    int      inner, outer;
    uint32_t cap, n;      /* capacity from init; warps the sets hold */
    uint32_t na, np;
    uint32_t *act;        /* active list, in inner-LRR order */
    uint32_t *pend;       /* pending FIFO, pend[0] = front */
    uint32_t *perm;       /* age order (inner GTO) */
    bool     *in_act;
    uint32_t group;       /* outer=2: the current fetch group */
    bool     have_last;   /* inner GTO's greedy warp */
    uint32_t last;
    uint64_t last_age;
} tl_state;

static void tl_reset_sets(tl_state *st, uint32_t n)
{
    st->n = n;
    st->na = st->np = 0;
    for (uint32_t i = 0; i < n; i++) {
        st->in_act[i] = st->na < st->max_active;
        if (st->in_act[i])
            st->act[st->na++] = i;
        else
            st->pend[st->np++] = i;
        st->perm[i] = i;
    }
}

/* one tl_state per scheduler unit */
typedef struct tl_all {
    uint32_t  nsched;
    tl_state *unit[];
} tl_all;

static tl_state *tl_unit_new(const ws_param_values *p, uint32_t nwarps)
{
    size_t words = (size_t)nwarps * 3 * sizeof(uint32_t) + (size_t)nwarps * sizeof(bool);
    tl_state *st = malloc(sizeof *st + words);
    if (!st)
        return NULL;
    st->max_active = (uint32_t)p->v[P_ACTIVE];
    st->inner = (int)p->v[P_INNER];
    st->outer = (int)p->v[P_OUTER];
    st->cap = nwarps;
    st->act = (uint32_t *)(st + 1);
    st->pend = st->act + nwarps;
    st->perm = st->pend + nwarps;
    st->in_act = (bool *)(st->perm + nwarps);
    st->have_last = false;
    st->last = 0;
    st->last_age = 0;
    st->group = 0;
    tl_reset_sets(st, nwarps);
    return st;
}

static void tl_destroy(void *vst)
{
    tl_all *all = vst;
    for (uint32_t s = 0; s < all->nsched; s++)
        free(all->unit[s]);
    free(all);
}

static void *tl_init(const ws_param_values *p, const ws_policy_env *env)
{
    uint32_t n = env->nsched ? env->nsched : 1;
    tl_all *all = calloc(1, sizeof *all + n * sizeof all->unit[0]);
    if (!all)
        return NULL;
    for (all->nsched = 0; all->nsched < n; all->nsched++)
        if (!(all->unit[all->nsched] = tl_unit_new(p, ws_unit_warps(env)))) {
            tl_destroy(all);
            return NULL;
        }
    return all;
}

static bool tl_waiting(const ws_warp_view *w)
{
    return !w->valid || w->stall == WS_STALL_BARRIER || w->stall == WS_STALL_MEMBAR ||
           (w->stall == WS_STALL_SCOREBOARD && w->pending_loads > 0);
}

/* Move waiting active warps to the back of the pending FIFO, keeping the
   order of both lists. */
static void tl_demote(tl_state *st, const ws_sched_view *v)
{
    uint32_t kept = 0;
    for (uint32_t i = 0; i < st->na; i++) {
        uint32_t w = st->act[i];
        if (tl_waiting(ws_cand_warp(v, w))) {
            st->pend[st->np++] = w;
            st->in_act[w] = false;
        } else {
            st->act[kept++] = w;
        }
    }
    st->na = kept;
}

/* Outer "oldest" preference: live and not waiting, then live, then empty. */
static int tl_outer_rank(const ws_warp_view *w)
{
    return !w->valid ? 2 : tl_waiting(w) ? 1 : 0;
}

/* Position in pend[] of the warp the outer level promotes next. */
static uint32_t tl_pick_pending(const tl_state *st, const ws_sched_view *v)
{
    if (st->outer == 0)
        return 0;
    uint32_t best = 0;
    for (uint32_t i = 1; i < st->np; i++) {
        const ws_warp_view *a = ws_cand_warp(v, st->pend[i]);
        const ws_warp_view *b = ws_cand_warp(v, st->pend[best]);
        int ra = tl_outer_rank(a), rb = tl_outer_rank(b);
        bool better = ra != rb          ? ra < rb
                    : a->age != b->age  ? a->age < b->age
                                        : st->pend[i] < st->pend[best];
        if (better)
            best = i;
    }
    return best;
}

static void tl_promote(tl_state *st, const ws_sched_view *v)
{
    while (st->na < st->max_active && st->np > 0) {
        uint32_t i = tl_pick_pending(st, v), w = st->pend[i];
        memmove(&st->pend[i], &st->pend[i + 1], (st->np - i - 1) * sizeof st->pend[0]);
        st->np--;
        st->act[st->na++] = w;
        st->in_act[w] = true;
    }
}

static bool tl_ready(const ws_warp_view *w)
{
    return w->valid && w->stall == WS_STALL_NONE;
}

/* Is the remembered last issuer still the same live warp? */
static bool tl_greedy_live(const tl_state *st, const ws_sched_view *v, uint32_t n)
{
    return st->have_last && st->last < n && ws_cand_warp(v, st->last)->valid &&
           ws_cand_warp(v, st->last)->age == st->last_age;
}

/* outer=2: fixed fetch groups of max_active positions (see the header). */
static uint32_t tl_order_groups(tl_state *st, const ws_sched_view *v, uint32_t n, uint32_t *out)
{
    uint32_t size = st->max_active, k = 0, base = st->group * size;
    uint32_t live = ws_order_by_age(v, st->perm, n);
    bool any = false;
    for (uint32_t i = base; i < n && i < base + size && !any; i++)
        any = tl_ready(ws_cand_warp(v, i));
    for (uint32_t i = 0; i < live && !any; i++)
        if (tl_ready(ws_cand_warp(v, st->perm[i]))) {
            st->group = st->perm[i] / size;
            any = true;
        }
    base = st->group * size;
    bool greedy = tl_greedy_live(st, v, n) && st->last / size == st->group;
    if (st->inner == 0) {
        uint32_t start = greedy ? st->last - base + 1 : 0;
        for (uint32_t j = 0; j < size; j++) {
            uint32_t w = base + (start + j) % size;
            if (w < n && ws_cand_warp(v, w)->valid)
                out[k++] = w;
        }
        return ws_cand_to_slots(v, out, k);
    }
    if (greedy)
        out[k++] = st->last;
    for (uint32_t i = 0; i < live; i++) {
        uint32_t w = st->perm[i];
        if (w / size == st->group && !(greedy && w == st->last))
            out[k++] = w;
    }
    return ws_cand_to_slots(v, out, k);
}

static uint32_t tl_order(void *vst, const ws_sched_view *v, uint32_t *out)
{
    tl_state *st = ((tl_all *)vst)->unit[v->sched];
    uint32_t n = v->ncand < st->cap ? v->ncand : st->cap, k = 0;
    if (n != st->n)
        tl_reset_sets(st, n);   /* the unit changed size: not expected */
    if (st->outer == 2)
        return tl_order_groups(st, v, n, out);
    tl_demote(st, v);
    tl_promote(st, v);

    if (st->inner == 0) {
        for (uint32_t i = 0; i < st->na; i++)
            if (ws_cand_warp(v, st->act[i])->valid)
                out[k++] = st->act[i];
        return ws_cand_to_slots(v, out, k);
    }
    uint32_t live = ws_order_by_age(v, st->perm, n);
    bool greedy = st->have_last && st->last < n && st->in_act[st->last] &&
                  ws_cand_warp(v, st->last)->valid &&
                  ws_cand_warp(v, st->last)->age == st->last_age;
    if (greedy)
        out[k++] = st->last;
    for (uint32_t i = 0; i < live; i++) {
        uint32_t w = st->perm[i];
        if (st->in_act[w] && !(greedy && w == st->last))
            out[k++] = w;
    }
    return ws_cand_to_slots(v, out, k);
}

static void tl_reverse(uint32_t *a, uint32_t lo, uint32_t hi)   /* [lo, hi) */
{
    while (hi > lo + 1) {
        uint32_t t = a[lo];
        a[lo++] = a[--hi];
        a[hi] = t;
    }
}

/* Inner LRR: rotate the active list so the issuer goes last. */
static void tl_on_issue(void *vst, const ws_sched_view *v, uint32_t slot)
{
    tl_state *st = ((tl_all *)vst)->unit[v->sched];
    uint32_t w = ws_cand_pos(v, slot);
    st->have_last = true;
    st->last = w;
    st->last_age = w < v->ncand ? ws_cand_warp(v, w)->age : 0;
    if (st->inner != 0 || st->outer == 2)
        return;
    uint32_t i = 0;
    while (i < st->na && st->act[i] != w)
        i++;
    if (i == st->na)
        return;
    /* [a0 .. ai, ai+1 .. an-1] -> [ai+1 .. an-1, a0 .. ai] by three reversals */
    tl_reverse(st->act, 0, i + 1);
    tl_reverse(st->act, i + 1, st->na);
    tl_reverse(st->act, 0, st->na);
}

const ws_warp_sched_ops ws_warp_sched_two_level = {
    .name = "two-level",
    .summary = "two-level (GPGPU-Sim two_level_active): active set of warps, "
               "waiting ones swapped for pending ones",
    .params = two_level_params,
    .init = tl_init,
    .destroy = tl_destroy,
    .order = tl_order,
    .on_issue = tl_on_issue,
};
