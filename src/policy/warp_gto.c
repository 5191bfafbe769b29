/*
** warp_gto.c -- greedy-then-oldest warp scheduler (`gto`).
** Source: Rogers et al., "Cache-Conscious Wavefront Scheduling" (MICRO
** 2012; CACM 57(12) 2014, Sec. 2) and GPGPU-Sim's gto_scheduler: keep
** issuing from the warp issued last while it can; when it cannot, the
** oldest warp that can issue wins and becomes the new greedy warp.
** Interpretations:
**  - order = [last issued warp] ++ all other live warps by age (smallest
**    first, ties by slot); the core takes the first ready one;
**  - the greedy warp is remembered by slot and age: a new warp that
**    takes a finished warp's slot is not greedy, it is ordered by its age;
**  - with several issues per cycle the last on_issue call is the greedy one;
**  - finished / empty slots (valid = false) are left out of the order.
*/
#include <stdlib.h>

#include "policy/warp_order.h"

static void *gto_init(const ws_param_values *p, const ws_policy_env *env)
{
    (void)p;
    return ws_age_units_new(env);
}

static uint32_t gto_order(void *vst, const ws_sched_view *v, uint32_t *out)
{
    ws_age_unit *st = ws_age_unit_of(vst, v);
    uint32_t live = ws_age_order_update(&st->age, v), k = 0;
    bool greedy = ws_greedy_live(&st->greedy, v);
    if (greedy)
        out[k++] = st->greedy.warp;
    for (uint32_t i = 0; i < live; i++)
        if (!greedy || st->age.perm[i] != st->greedy.warp)
            out[k++] = st->age.perm[i];
    return ws_cand_to_slots(v, out, k);
}

static void gto_on_issue(void *vst, const ws_sched_view *v, uint32_t slot)
{
    ws_age_unit *st = ws_age_unit_of(vst, v);
    ws_greedy_note(&st->greedy, v, slot);
}

const ws_warp_sched_ops ws_warp_sched_gto = {
    .name = "gto",
    .summary = "greedy-then-oldest: the last-issued warp while it can issue, else the oldest",
    .params = NULL,
    .init = gto_init,
    .destroy = ws_age_units_free,
    .order = gto_order,
    .on_issue = gto_on_issue,
    /* the order is a function of the views and of what on_issue last noted */
    .needs = WS_PURE_ORDER | WS_ORDER_AGE_ONLY,
};
