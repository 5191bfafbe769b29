/*
** warp_order.h -- bookkeeping shared by the age-based warp schedulers
** (oldest, gto, swl): an age order kept from cycle to cycle, and the
** "greedy" warp that GTO-style policies favour.  Policy files only.
*/
#ifndef WS_POLICY_WARP_ORDER_H
#define WS_POLICY_WARP_ORDER_H

#include <stdlib.h>
#include "policy/policy.h"

/* Warp indices by age, re-sorted every cycle from the previous order. */
typedef struct ws_age_order {
    uint32_t cap;     /* warps of the scheduler, from init */
    uint32_t n;       /* warps `perm` was built for */
    uint32_t *perm;
} ws_age_order;

static inline void ws_age_order_reset(ws_age_order *o, uint32_t n)
{
    o->n = n;
    for (uint32_t i = 0; i < n; i++)
        o->perm[i] = i;
}

/* 0, or -1 when out of memory. */
static inline int ws_age_order_init(ws_age_order *o, uint32_t nwarps)
{
    o->cap = nwarps;
    o->perm = malloc((nwarps ? nwarps : 1) * sizeof *o->perm);
    if (!o->perm)
        return -1;
    ws_age_order_reset(o, nwarps);
    return 0;
}

static inline void ws_age_order_free(ws_age_order *o)
{
    free(o->perm);
    o->perm = NULL;
}

/* Bring `o->perm` up to date for `v`: live warps first, oldest first;
   returns how many are live.  A view of another size (not expected)
   restarts from slot order. */
static inline uint32_t ws_age_order_update(ws_age_order *o, const ws_sched_view *v)
{
    uint32_t n = v->nwarps < o->cap ? v->nwarps : o->cap;
    if (n != o->n)
        ws_age_order_reset(o, n);
    return ws_order_by_age(v->warps, o->perm, n);
}

/* The warp issued last.  It is remembered by index and age, so a new warp
   that takes a finished warp's slot is not mistaken for it; with several
   issues per cycle the last on_issue call wins. */
typedef struct ws_greedy {
    bool     have;
    uint32_t warp;
    uint64_t age;
} ws_greedy;

static inline void ws_greedy_note(ws_greedy *g, const ws_sched_view *v, uint32_t w)
{
    g->have = true;
    g->warp = w;
    g->age = w < v->nwarps ? v->warps[w].age : 0;
}

/* Is the remembered warp still the same live warp? */
static inline bool ws_greedy_live(const ws_greedy *g, const ws_sched_view *v)
{
    return g->have && g->warp < v->nwarps && v->warps[g->warp].valid &&
           v->warps[g->warp].age == g->age;
}

#endif /* WS_POLICY_WARP_ORDER_H */
