/*
** warp_swl.c -- static warp limiting with a GTO base (`swl`).
** Source: Rogers et al., "Cache-Conscious Wavefront Scheduling" (MICRO
** 2012; CACM 57(12) 2014, Sec. 3 "Static Wavefront Limiting"; Best-SWL is a
** sweep of warp_limit) and GPGPU-Sim's swl_scheduler ("warp_limiting").
** See /work/shared/specs/ccws.md Sec. 2.1 and 7.10.
** Interpretations:
**  - the limit is per scheduler unit (one policy instance), as in
**    GPGPU-Sim's swl_scheduler; the CCWS machine has one scheduler per SM,
**    so there it is the per-SM limit of the paper.  With S schedulers per
**    SM, a per-SM limit L is warp_limit = L / S;
**  - eligible = the warp_limit oldest live warps (valid, not finished) of
**    the scheduler; when one finishes, the next-oldest becomes eligible;
**  - warps waiting at a CTA barrier do not count toward the limit (the
**    list extends past them), so a limit smaller than a CTA cannot
**    deadlock at bar.sync (ccws.md 7.10);
**  - within the eligible set the order is GTO (greedy warp, then oldest),
**    the spec's recommendation; GPGPU-Sim's code does the same;
**  - all instructions are limited, not only loads (unlike CCWS); the limit
**    is applied through order(), so may_issue is not used.
*/
#include <stdlib.h>

#include "policy/policy.h"

static const ws_param_desc swl_params[] = {
    { "warp_limit", 8, 1, 256, "warps",
      "warps of this scheduler allowed to issue: the oldest live ones" },
    { NULL, 0, 0, 0, NULL, NULL }
};

typedef struct swl_state {
    uint32_t limit;
    bool     have_last;
    uint32_t last;      /* index of the greedy warp */
    uint64_t last_age;  /* its age, to notice that the slot was reused */
    uint32_t cap, n;    /* capacity from init; size perm[] was built for */
    uint32_t perm[];    /* last cycle's age order */
} swl_state;

static void *swl_init(const ws_param_values *p, uint32_t nwarps)
{
    swl_state *st = malloc(sizeof *st + (size_t)nwarps * sizeof st->perm[0]);
    if (!st)
        return NULL;
    st->limit = p && p->n >= 1 ? (uint32_t)p->v[0] : (uint32_t)swl_params[0].def;
    st->have_last = false;
    st->last = 0;
    st->last_age = 0;
    st->cap = st->n = nwarps;
    for (uint32_t i = 0; i < nwarps; i++)
        st->perm[i] = i;
    return st;
}

static void swl_destroy(void *st)
{
    free(st);
}

static uint32_t swl_order(void *vst, const ws_sched_view *v, uint32_t *out)
{
    swl_state *st = vst;
    uint32_t n = v->nwarps < st->cap ? v->nwarps : st->cap;
    if (n != st->n) {
        st->n = n;
        for (uint32_t i = 0; i < n; i++)
            st->perm[i] = i;
    }
    uint32_t live = ws_order_by_age(v->warps, st->perm, n);
    uint32_t k = 0, counted = 0;
    for (uint32_t i = 0; i < live && counted < st->limit; i++) {
        uint32_t w = st->perm[i];
        out[k++] = w;
        if (v->warps[w].stall != WS_STALL_BARRIER)
            counted++;
    }
    /* GTO inside the eligible set: the greedy warp, if eligible, goes first */
    if (st->have_last && st->last < n && v->warps[st->last].valid &&
        v->warps[st->last].age == st->last_age) {
        for (uint32_t i = 0; i < k; i++) {
            if (out[i] != st->last)
                continue;
            for (uint32_t j = i; j > 0; j--)
                out[j] = out[j - 1];
            out[0] = st->last;
            break;
        }
    }
    return k;
}

static void swl_on_issue(void *vst, const ws_sched_view *v, uint32_t w)
{
    swl_state *st = vst;
    st->have_last = true;
    st->last = w;
    st->last_age = w < v->nwarps ? v->warps[w].age : 0;
}

const ws_warp_sched_ops ws_warp_sched_swl = {
    .name = "swl",
    .summary = "static warp limiting: GTO over only the warp_limit oldest live warps",
    .params = swl_params,
    .init = swl_init,
    .destroy = swl_destroy,
    .order = swl_order,
    .on_issue = swl_on_issue,
};
