/*
** warp_swl.c -- static warp limiting with a GTO base (`swl`).
** Source: Rogers et al., "Cache-Conscious Wavefront Scheduling" (MICRO
** 2012; CACM 57(12) 2014, Sec. 3 "Static Wavefront Limiting"; Best-SWL is a
** sweep of warp_limit) and GPGPU-Sim's swl_scheduler ("warp_limiting").
** See the project's specs/ccws.md Sec. 2.1 and 7.10.
** Interpretations:
**  - the limit is per scheduler unit (each unit keeps its own state), as in
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

#include "policy/warp_order.h"

static const ws_param_desc swl_params[] = {
    { "warp_limit", 8, 1, 256, "warps",
      "warps of this scheduler allowed to issue: the oldest live ones" },
    { NULL, 0, 0, 0, NULL, NULL }
};

static void *swl_init(const ws_param_values *p, const ws_policy_env *env)
{
    ws_age_units *u = ws_age_units_new(env);
    for (uint32_t s = 0; u && s < u->n; s++)
        u->unit[s].limit = (uint32_t)p->v[0];
    return u;
}

static uint32_t swl_order(void *vst, const ws_sched_view *v, uint32_t *out)
{
    ws_age_unit *st = ws_age_unit_of(vst, v);
    uint32_t live = ws_age_order_update(&st->age, v);
    uint32_t k = 0, counted = 0;
    for (uint32_t i = 0; i < live && counted < st->limit; i++) {
        uint32_t w = st->age.perm[i];
        out[k++] = w;
        if (ws_cand_warp(v, w)->stall != WS_STALL_BARRIER)
            counted++;
    }
    /* GTO inside the eligible set: the greedy warp, if eligible, goes first */
    if (ws_greedy_live(&st->greedy, v)) {
        for (uint32_t i = 0; i < k; i++) {
            if (out[i] != st->greedy.warp)
                continue;
            for (uint32_t j = i; j > 0; j--)
                out[j] = out[j - 1];
            out[0] = st->greedy.warp;
            break;
        }
    }
    return ws_cand_to_slots(v, out, k);
}

static void swl_on_issue(void *vst, const ws_sched_view *v, uint32_t slot)
{
    ws_age_unit *st = ws_age_unit_of(vst, v);
    ws_greedy_note(&st->greedy, v, slot);
}

const ws_warp_sched_ops ws_warp_sched_swl = {
    .name = "swl",
    .summary = "static warp limiting: GTO over only the warp_limit oldest live warps",
    .params = swl_params,
    .init = swl_init,
    .destroy = ws_age_units_free,
    .order = swl_order,
    .on_issue = swl_on_issue,
};
