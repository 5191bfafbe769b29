/*
** warp_hals.c -- HALS's two-level warp scheduler (`hals`).  Source: Gong,
** "Hint-Assisted Scheduling on Modern GPUs" (thesis 2020) Sec. 6.3, Fig.
** 6.9; specs/haws.md 3.2.4 and 8 D.  The launch hint (ws_launch_info.hint)
** picks how warps are grouped (hals_groups.c); the warps of the active
** group are scheduled round-robin, and when all of them are stalled the
** scheduler moves on to the next group, round-robin, in zero cycles.
** One instance per SM.
** Interpretations:
**  - hint 0: exactly `lrr` (this file calls its table; warps stay on the
**    default unit slot % nsched);
**  - keys: hint 1 (z, y, warp_in_block); hint 2 (z, x, floor((g+1)/W)),
**    g = y*W + warp_in_block; hint 3 arrival_index mod NG, the arrival
**    index counting this SM's warps of the kernel, NG = ceil(R / g_size)
**    with R = min(ctas_per_sm * W, warp slots) (param g_size, default 8);
**  - pools: a group lives on one scheduler unit, the least-loaded one
**    (fewest live warps, ties to the lowest unit) when its first member
**    arrives (assign_sched); a group whose warps have all finished is
**    forgotten, and a later warp with its key starts a new group;
**  - "stalled" = not ready: stall != WS_STALL_NONE in the view, whatever
**    the reason (the core issues the first ready warp of the order);
**  - order: the unit's valid warps, the active group's first, then the
**    other groups by table index cyclically after it; inside a group from
**    the slot after the group's last issuer (slot order, wrapping), so a
**    group whose warps are all stalled is passed over in the same cycle;
**  - the group of the first warp a unit issues in a cycle becomes its
**    active group (a second issue in that cycle, issue_width > 1, does
**    not move it); that is the switch, counted in group_switches.
** Counters: groups (groups formed, summed over SMs), group_switches.
*/
#include <stdlib.h>

#include "policy/hals_groups.h"
#include "warpsim_policy.h"

extern const ws_warp_sched_ops ws_warp_sched_lrr;

enum { P_GSIZE = 0 };
#define HALS_NONE UINT32_MAX

static const ws_param_desc hals_params[] = {
    { "g_size", 8, 1, 1024, "warps", "hint 3: warps per group (spec 3.2.4 [I]: 8)" },
    { NULL, 0, 0, 0, NULL, NULL }
};

static const char *const hals_counter_names[] = { "groups", "group_switches", NULL };

typedef struct hals_group {
    uint64_t key;
    uint32_t pool, live;   /* unit; live warps (0 = entry free) */
    uint32_t last;         /* slot of its last issuer */
} hals_group;

typedef struct hals_state {
    void *lrr;             /* the lrr instance hint 0 runs */
    uint32_t g_size, nwarps, nsched;
    uint32_t hint, wpc, ng3, grid[3];
    uint64_t arrivals;
    hals_group *grp;       /* [nwarps]: at most one group per live warp */
    uint32_t *of;          /* [nwarps] group of each slot, HALS_NONE */
    uint32_t *load;        /* [nsched] live warps per unit */
    uint32_t *active;      /* [nsched] the unit's active group */
    uint64_t *issued_at;   /* [nsched] cycle of the unit's last issue + 1 */
    uint64_t *rank;        /* [nwarps] scratch: sort keys of `order` */
    uint64_t ctr[2];
} hals_state;

static void hals_destroy(void *vst)
{
    hals_state *st = vst;
    if (!st) return;
    if (st->lrr) ws_warp_sched_lrr.destroy(st->lrr);
    free(st->grp);
    free(st->of);
    free(st->load);
    free(st->active);
    free(st->issued_at);
    free(st->rank);
    free(st);
}

static void *hals_init(const ws_param_values *p, const ws_policy_env *env)
{
    hals_state *st = calloc(1, sizeof *st);
    if (!st) return NULL;
    st->g_size = (uint32_t)p->v[P_GSIZE];
    st->nwarps = env->nwarps ? env->nwarps : 1;
    st->nsched = env->nsched ? env->nsched : 1;
    ws_param_values none = { 0 };   /* lrr has no parameters */
    st->lrr = ws_warp_sched_lrr.init(&none, env);
    st->grp = calloc(st->nwarps, sizeof *st->grp);
    st->of = malloc(st->nwarps * sizeof *st->of);
    st->load = calloc(st->nsched, sizeof *st->load);
    st->active = calloc(st->nsched, sizeof *st->active);
    st->issued_at = calloc(st->nsched, sizeof *st->issued_at);
    st->rank = calloc(st->nwarps, sizeof *st->rank);
    if (!st->lrr || !st->grp || !st->of || !st->load || !st->active || !st->issued_at
        || !st->rank) {
        hals_destroy(st);
        return NULL;
    }
    for (uint32_t i = 0; i < st->nwarps; i++) st->of[i] = HALS_NONE;
    return st;
}

static void hals_kernel_begin(void *vst, const ws_launch_info *k)
{
    hals_state *st = vst;
    st->hint = k->hint;
    st->wpc = k->warps_per_cta ? k->warps_per_cta : 1;
    for (int d = 0; d < 3; d++) st->grid[d] = k->grid[d];
    uint64_t resident = (uint64_t)k->ctas_per_sm * st->wpc;
    st->ng3 = hals_ngroups(resident < st->nwarps ? (uint32_t)resident : st->nwarps, st->g_size);
    st->arrivals = 0;
    st->ctr[0] = st->ctr[1] = 0;
    for (uint32_t i = 0; i < st->nwarps; i++) {
        st->grp[i] = (hals_group){ 0 };
        st->of[i] = HALS_NONE;
    }
    for (uint32_t u = 0; u < st->nsched; u++) {
        st->load[u] = 0;
        st->active[u] = HALS_NONE;   /* the first issue sets it, no switch */
        st->issued_at[u] = 0;
    }
}

/* The live group with `key`, or a new one on the least-loaded unit;
   HALS_NONE when the table is full (more groups than warp slots: not
   expected, since each live group holds a live warp). */
static uint32_t hals_group_for(hals_state *st, uint64_t key)
{
    uint32_t free_g = HALS_NONE;
    for (uint32_t g = 0; g < st->nwarps; g++) {
        if (st->grp[g].live && st->grp[g].key == key) return g;
        if (!st->grp[g].live && free_g == HALS_NONE) free_g = g;
    }
    if (free_g == HALS_NONE) return HALS_NONE;
    uint32_t pool = 0;
    for (uint32_t u = 1; u < st->nsched; u++)
        if (st->load[u] < st->load[pool]) pool = u;
    st->grp[free_g] = (hals_group){ .key = key, .pool = pool, .live = 0,
                                    .last = st->nwarps - 1 };  /* first turn: lowest slot */
    st->ctr[0]++;
    return free_g;
}

static uint32_t hals_assign_sched(void *vst, const ws_sched_view *v, uint32_t slot)
{
    hals_state *st = vst;
    if (st->hint == 0 || slot >= st->nwarps) return slot % st->nsched;
    const ws_warp_view *w = &v->warps[slot];
    uint64_t key = hals_group_key(st->hint, st->grid, st->wpc, w->cta_id, w->warp_in_cta,
                                  st->arrivals++, st->ng3);
    uint32_t g = hals_group_for(st, key);
    if (g == HALS_NONE) return slot % st->nsched;
    st->of[slot] = g;
    st->grp[g].live++;
    st->load[st->grp[g].pool]++;
    return st->grp[g].pool;
}

static void hals_on_event(void *vst, const ws_sched_view *v, const ws_sched_event *e)
{
    hals_state *st = vst;
    (void)v;
    if (e->kind != WS_EV_WARP_DONE || e->warp >= st->nwarps || st->of[e->warp] == HALS_NONE)
        return;
    hals_group *g = &st->grp[st->of[e->warp]];
    g->live--;
    st->load[g->pool]--;
    st->of[e->warp] = HALS_NONE;
}

static uint32_t hals_order(void *vst, const ws_sched_view *v, uint32_t *out)
{
    hals_state *st = vst;
    if (st->hint == 0) return ws_warp_sched_lrr.order(st->lrr, v, out);
    uint32_t n = st->nwarps, act = st->active[v->sched], k = 0;
    if (act == HALS_NONE) act = 0;
    for (uint32_t i = 0; i < v->ncand; i++) {
        uint32_t slot = v->cand[i];
        if (slot >= n || !v->warps[slot].valid) continue;
        uint32_t g = st->of[slot];
        /* group rank cyclically from the active group (ungrouped last),
           then the slot's turn after the group's last issuer */
        uint64_t grank = g == HALS_NONE ? n : (g + n - act) % n;
        uint64_t turn = g == HALS_NONE ? slot : (slot + 2 * n - st->grp[g].last - 1) % n;
        uint64_t r = grank * n + turn;
        uint32_t j = k++;
        for (; j > 0 && st->rank[j - 1] > r; j--) {   /* insertion sort: few warps */
            st->rank[j] = st->rank[j - 1];
            out[j] = out[j - 1];
        }
        st->rank[j] = r;
        out[j] = slot;
    }
    return k;
}

static void hals_on_issue(void *vst, const ws_sched_view *v, uint32_t slot)
{
    hals_state *st = vst;
    if (st->hint == 0) {
        ws_warp_sched_lrr.on_issue(st->lrr, v, slot);
        return;
    }
    if (slot >= st->nwarps || st->of[slot] == HALS_NONE || v->sched >= st->nsched) return;
    uint32_t g = st->of[slot];
    st->grp[g].last = slot;
    if (st->issued_at[v->sched] == v->cycle + 1) return;   /* not the cycle's first issue */
    st->issued_at[v->sched] = v->cycle + 1;
    if (st->active[v->sched] != g && st->active[v->sched] != HALS_NONE) st->ctr[1]++;
    st->active[v->sched] = g;
}

static void hals_counters(void *vst, uint64_t *out)
{
    const hals_state *st = vst;
    out[0] = st->ctr[0];
    out[1] = st->ctr[1];
}

const ws_warp_sched_ops ws_warp_sched_hals = {
    .name = "hals",
    .summary = "HALS (thesis 6.3): hint 0 = lrr; hints 1-3 group warps by the hint, one pool per "
               "group, round-robin inside the active group, next group when all are stalled",
    .params = hals_params,
    .init = hals_init,
    .destroy = hals_destroy,
    .kernel_begin = hals_kernel_begin,
    .assign_sched = hals_assign_sched,
    .order = hals_order,
    .on_issue = hals_on_issue,
    .on_event = hals_on_event,
    .counter_names = hals_counter_names,
    .counters = hals_counters,
};
