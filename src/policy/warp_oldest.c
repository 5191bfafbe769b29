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

/* one age order per scheduler unit */
typedef struct oldest_all {
    uint32_t     nsched;
    ws_age_order unit[];
} oldest_all;

static void oldest_destroy(void *vst)
{
    oldest_all *all = vst;
    for (uint32_t s = 0; s < all->nsched; s++)
        ws_age_order_free(&all->unit[s]);
    free(all);
}

static void *oldest_init(const ws_param_values *p, const ws_policy_env *env)
{
    (void)p;
    uint32_t n = env->nsched ? env->nsched : 1;
    oldest_all *all = calloc(1, sizeof *all + n * sizeof all->unit[0]);
    if (!all)
        return NULL;
    for (all->nsched = 0; all->nsched < n; all->nsched++)
        if (ws_age_order_init(&all->unit[all->nsched], ws_unit_warps(env)) != 0) {
            oldest_destroy(all);
            return NULL;
        }
    return all;
}

static uint32_t oldest_order(void *st, const ws_sched_view *v, uint32_t *out)
{
    ws_age_order *o = &((oldest_all *)st)->unit[v->sched];
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
    .destroy = oldest_destroy,
    .order = oldest_order,
};
