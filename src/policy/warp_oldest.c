/*
** warp_oldest.c -- oldest-first warp scheduler (`oldest`).
** Source: GPGPU-Sim's oldest_scheduler ("old"), the "then oldest" half of
** GTO in Rogers et al., CCWS (MICRO 2012): every cycle the warps are tried
** strictly by age, the warp launched first on the SM first.
** Interpretations:
**  - age is ws_warp_view.age (launch order on the SM); equal ages (not
**    expected) are broken by slot;
**  - finished / empty slots (valid = false) are left out of the order.
*/
#include <stdlib.h>

#include "policy/warp_order.h"

static void *oldest_init(const ws_param_values *p, const ws_policy_env *env)
{
    (void)p;
    return ws_age_units_new(env);
}

static uint32_t oldest_order(void *st, const ws_sched_view *v, uint32_t *out)
{
    ws_age_order *o = &ws_age_unit_of(st, v)->age;
    uint32_t live = ws_age_order_update(o, v);
    for (uint32_t i = 0; i < live; i++)
        out[i] = v->cand[o->perm[i]];
    return live;
}

const ws_warp_sched_ops ws_warp_sched_oldest = {
    .name = "oldest",
    .summary = "oldest first: warps tried strictly by launch order on the SM",
    .params = NULL,
    .init = oldest_init,
    .destroy = ws_age_units_free,
    .order = oldest_order,
};
