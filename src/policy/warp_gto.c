/*
** warp_gto.c -- greedy-then-oldest warp scheduler (`gto`).
** Source: Rogers et al., "Cache-Conscious Wavefront Scheduling" (MICRO
** 2012; CACM 57(12) 2014, Sec. 2) and GPGPU-Sim's gto_scheduler: keep
** issuing from the warp issued last while it can; when it cannot, the
** oldest warp that can issue wins and becomes the new greedy warp.
** Interpretations:
**  - order = [last issued warp] ++ all other live warps by age (smallest
**    first, ties by index); the core takes the first ready one;
**  - the greedy warp is remembered by index and age: a new warp that
**    takes a finished warp's slot is not greedy, it is ordered by its age;
**  - with several issues per cycle the last on_issue call is the greedy one;
**  - finished / empty slots (valid = false) are left out of the order.
*/
#include <stdlib.h>

#include "policy/policy.h"

typedef struct gto_state {
    bool     have_last;
    uint32_t last;      /* index of the greedy warp */
    uint64_t last_age;  /* its age, to notice that the slot was reused */
    uint32_t cap, n;    /* capacity from init; size perm[] was built for */
    uint32_t perm[];    /* last cycle's age order */
} gto_state;

static void *gto_init(const ws_param_values *p, uint32_t nwarps)
{
    (void)p;
    gto_state *st = malloc(sizeof *st + (size_t)nwarps * sizeof st->perm[0]);
    if (!st)
        return NULL;
    st->have_last = false;
    st->last = 0;
    st->last_age = 0;
    st->cap = st->n = nwarps;
    for (uint32_t i = 0; i < nwarps; i++)
        st->perm[i] = i;
    return st;
}

static void gto_destroy(void *st)
{
    free(st);
}

static uint32_t gto_order(void *vst, const ws_sched_view *v, uint32_t *out)
{
    gto_state *st = vst;
    uint32_t n = v->nwarps < st->cap ? v->nwarps : st->cap;
    if (n != st->n) {
        st->n = n;
        for (uint32_t i = 0; i < n; i++)
            st->perm[i] = i;
    }
    uint32_t live = ws_order_by_age(v->warps, st->perm, n), k = 0;
    bool greedy = st->have_last && st->last < n && v->warps[st->last].valid &&
                  v->warps[st->last].age == st->last_age;
    if (greedy)
        out[k++] = st->last;
    for (uint32_t i = 0; i < live; i++)
        if (!greedy || st->perm[i] != st->last)
            out[k++] = st->perm[i];
    return k;
}

static void gto_on_issue(void *vst, const ws_sched_view *v, uint32_t w)
{
    gto_state *st = vst;
    st->have_last = true;
    st->last = w;
    st->last_age = w < v->nwarps ? v->warps[w].age : 0;
}

const ws_warp_sched_ops ws_warp_sched_gto = {
    .name = "gto",
    .summary = "greedy-then-oldest: the last-issued warp while it can issue, else the oldest",
    .params = NULL,
    .init = gto_init,
    .destroy = gto_destroy,
    .order = gto_order,
    .on_issue = gto_on_issue,
};
