/*
** warp_oldest.c -- oldest-first warp scheduler (`oldest`).
** Source: GPGPU-Sim's oldest_scheduler ("old"), the "then oldest" half of
** GTO in Rogers et al., CCWS (MICRO 2012): every cycle the warps are tried
** strictly by age, the warp launched first on the SM first.
** Interpretations:
**  - age is ws_warp_view.age (launch order on the SM); equal ages (not
**    expected) are broken by index;
**  - finished / empty slots (valid = false) are left out of the order.
*/
#include <stdlib.h>

#include "policy/policy.h"

typedef struct oldest_state {
    uint32_t cap;       /* warps of the scheduler, from init */
    uint32_t n;         /* warps perm[] was built for */
    uint32_t perm[];    /* last cycle's age order, re-sorted each cycle */
} oldest_state;

static void *oldest_init(const ws_param_values *p, uint32_t nwarps)
{
    (void)p;
    oldest_state *st = malloc(sizeof *st + (size_t)nwarps * sizeof st->perm[0]);
    if (!st)
        return NULL;
    st->cap = st->n = nwarps;
    for (uint32_t i = 0; i < nwarps; i++)
        st->perm[i] = i;
    return st;
}

static void oldest_destroy(void *st)
{
    free(st);
}

static uint32_t oldest_order(void *vst, const ws_sched_view *v, uint32_t *out)
{
    oldest_state *st = vst;
    uint32_t n = v->nwarps < st->cap ? v->nwarps : st->cap;
    if (n != st->n) {
        /* the view changed size (not expected): restart from slot order */
        st->n = n;
        for (uint32_t i = 0; i < n; i++)
            st->perm[i] = i;
    }
    uint32_t live = ws_order_by_age(v->warps, st->perm, n);
    for (uint32_t i = 0; i < live; i++)
        out[i] = st->perm[i];
    return live;
}

const ws_warp_sched_ops ws_warp_sched_oldest = {
    .name = "oldest",
    .summary = "oldest first: warps tried strictly by launch order on the SM",
    .params = NULL,
    .init = oldest_init,
    .destroy = oldest_destroy,
    .order = oldest_order,
};
