/*
** warp_lrr.c -- loose round-robin warp scheduler (`lrr`).
** Source: the LRR baseline of Rogers et al., "Cache-Conscious Wavefront
** Scheduling" (MICRO 2012; CACM 57(12) 2014, Sec. 2) and GPGPU-Sim's
** lrr_scheduler: priority starts at the warp after the one issued last and
** wraps around; a warp that cannot issue simply passes its turn on.
** Interpretations:
**  - "last issued" is the last warp passed to on_issue, also when the
**    scheduler issues several warps in one cycle;
**  - before the first issue the rotation starts at position 0 (the unit's
**    lowest slot);
**  - finished / empty slots (valid = false) are left out of the order.
*/
#include <stdlib.h>

#include "policy/warp_order.h"

/* per scheduler unit: position of the warp issued last */
typedef struct lrr_state {
    uint32_t last;
} lrr_state;

static void *lrr_init(const ws_param_values *p, const ws_policy_env *env)
{
    (void)p;
    lrr_state *st = ws_unit_states(env, sizeof *st);
    uint32_t n = ws_unit_warps(env);
    for (uint32_t s = 0; st && s < (env->nsched ? env->nsched : 1); s++)
        st[s].last = n ? n - 1 : 0;  /* so the first turn is position 0 */
    return st;
}

static void lrr_destroy(void *st)
{
    free(st);
}

static uint32_t lrr_order(void *vst, const ws_sched_view *v, uint32_t *out)
{
    const lrr_state *st = (const lrr_state *)vst + v->sched;
    uint32_t n = v->ncand, k = 0;
    if (n == 0)
        return 0;
    uint32_t w = st->last < n ? st->last : n - 1;
    for (uint32_t i = 0; i < n; i++) {
        w = w + 1 == n ? 0 : w + 1;
        if (ws_cand_warp(v, w)->valid)
            out[k++] = v->cand[w];
    }
    return k;
}

static void lrr_on_issue(void *vst, const ws_sched_view *v, uint32_t slot)
{
    ((lrr_state *)vst + v->sched)->last = ws_cand_pos(v, slot);
}

const ws_warp_sched_ops ws_warp_sched_lrr = {
    .name = "lrr",
    .summary = "loose round-robin: priority starts at the warp after the one issued last",
    .params = NULL,
    .init = lrr_init,
    .destroy = lrr_destroy,
    .order = lrr_order,
    .on_issue = lrr_on_issue,
    /* the order is a function of the views and of what on_issue last noted */
    .needs = WS_PURE_ORDER | WS_ORDER_AGE_ONLY,
};
