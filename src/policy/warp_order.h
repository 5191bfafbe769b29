/*
** warp_order.h -- bookkeeping shared by the age-based warp schedulers
** (oldest, gto, swl): an age order kept from cycle to cycle, and the
** "greedy" warp that GTO-style policies favour, and the per-unit state
** array of policies that schedule each scheduler unit on its own.
** Policy files only.
**
** These policies work in *positions*: index i stands for the warp in slot
** v->cand[i] of the asking scheduler unit (cand is ascending by slot), so
** their state is per unit and their output is mapped back to slots.
*/
#ifndef WS_POLICY_WARP_ORDER_H
#define WS_POLICY_WARP_ORDER_H

#include <stdlib.h>
#include "warpsim_policy.h"

/* The view of the warp at position `i` of the asking unit. */
static inline const ws_warp_view *ws_cand_warp(const ws_sched_view *v, uint32_t i)
{
    return &v->warps[v->cand[i]];
}

/* Position of `slot` among v->cand, or v->ncand when it is not there. */
static inline uint32_t ws_cand_pos(const ws_sched_view *v, uint32_t slot)
{
    uint32_t i = 0;
    while (i < v->ncand && v->cand[i] != slot)
        i++;
    return i;
}

/* Map positions in `out[0..n)` to slots in place; returns n. */
static inline uint32_t ws_cand_to_slots(const ws_sched_view *v, uint32_t *out, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++)
        out[i] = v->cand[out[i]];
    return n;
}

/* One state of `size` bytes per scheduler unit, zeroed; NULL when out of
   memory.  The unit's state is ws_unit_state(all, size, v->sched). */
static inline void *ws_unit_states(const ws_policy_env *env, size_t size)
{
    return calloc(env->nsched ? env->nsched : 1, size);
}

static inline void *ws_unit_state(void *all, size_t size, uint32_t sched)
{
    return (char *)all + (size_t)sched * size;
}

/* Warps a unit holds at most (slots assigned to it by slot % nsched). */
static inline uint32_t ws_unit_warps(const ws_policy_env *env)
{
    uint32_t n = env->nsched ? env->nsched : 1;
    return (env->nwarps + n - 1) / n;
}

/* Sort `perm` (a permutation of positions 0..n-1 kept by the caller from
   cycle to cycle) so that live warps come first, oldest (smallest age)
   first, ties by position; return how many are live.  Insertion sort on
   the previous cycle's order: O(n) while ages do not change, which is
   almost always. */
static inline uint32_t ws_order_by_age(const ws_sched_view *v, uint32_t *perm, uint32_t n)
{
    uint32_t live = 0;
    for (uint32_t i = 1; i < n; i++) {
        uint32_t x = perm[i], j = i;
        const ws_warp_view *wx = ws_cand_warp(v, x);
        while (j > 0) {
            uint32_t y = perm[j - 1];
            const ws_warp_view *wy = ws_cand_warp(v, y);
            bool after = wy->valid != wx->valid ? !wy->valid
                       : wy->age != wx->age     ? wy->age > wx->age
                                                : y > x;
            if (!after)
                break;
            perm[j] = y;
            j--;
        }
        perm[j] = x;
    }
    while (live < n && ws_cand_warp(v, perm[live])->valid)
        live++;
    return live;
}

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
    uint32_t n = v->ncand < o->cap ? v->ncand : o->cap;
    if (n != o->n)
        ws_age_order_reset(o, n);
    return ws_order_by_age(v, o->perm, n);
}

/* The warp issued last.  It is remembered by position and age, so a new
   warp that takes a finished warp's slot is not mistaken for it; with
   several issues per cycle the last on_issue call wins. */
typedef struct ws_greedy {
    bool     have;
    uint32_t warp;
    uint64_t age;
} ws_greedy;

static inline void ws_greedy_note(ws_greedy *g, const ws_sched_view *v, uint32_t slot)
{
    g->have = true;
    g->warp = ws_cand_pos(v, slot);
    g->age = g->warp < v->ncand ? ws_cand_warp(v, g->warp)->age : 0;
}

/* Is the remembered warp still the same live warp? */
static inline bool ws_greedy_live(const ws_greedy *g, const ws_sched_view *v)
{
    return g->have && g->warp < v->ncand && ws_cand_warp(v, g->warp)->valid &&
           ws_cand_warp(v, g->warp)->age == g->age;
}

/* The per-unit state of the age-based schedulers (oldest, gto, swl): an
   age order, the greedy warp and a limit (swl), one per scheduler unit. */
typedef struct ws_age_unit {
    ws_age_order age;
    ws_greedy    greedy;
    uint32_t     limit;
} ws_age_unit;

typedef struct ws_age_units {
    uint32_t    n;
    ws_age_unit unit[];
} ws_age_units;

static inline void ws_age_units_free(void *st)
{
    ws_age_units *u = st;
    for (uint32_t s = 0; u && s < u->n; s++)
        ws_age_order_free(&u->unit[s].age);
    free(u);
}

/* One unit per scheduler unit of `env`, zeroed; NULL when out of memory. */
static inline ws_age_units *ws_age_units_new(const ws_policy_env *env)
{
    uint32_t n = env->nsched ? env->nsched : 1;
    ws_age_units *u = calloc(1, sizeof *u + n * sizeof u->unit[0]);
    if (!u)
        return NULL;
    for (u->n = 0; u->n < n; u->n++)
        if (ws_age_order_init(&u->unit[u->n].age, ws_unit_warps(env)) != 0) {
            ws_age_units_free(u);
            return NULL;
        }
    return u;
}

/* The asking unit's state. */
static inline ws_age_unit *ws_age_unit_of(void *st, const ws_sched_view *v)
{
    return &((ws_age_units *)st)->unit[v->sched];
}

#endif /* WS_POLICY_WARP_ORDER_H */
