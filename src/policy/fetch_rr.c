/*
** fetch_rr.c -- round-robin fetch policy (`rr`).
** Source: the RR baseline (policy 1) of the fetch-policy study, specs/fetch-dram.md,
** and GPGPU-Sim's fetch stage, which walks the warps round-robin starting
** after the last warp that fetched.
** Interpretations:
**  - the turn starts at the warp after the last one picked and takes the
**    first warp with can_fetch; with a fetch width above 1 the core marks
**    each pick can_fetch = false, so the next call continues the rotation;
**  - before the first pick the rotation starts at index 0.
*/
#include <stdlib.h>

#include "warpsim_policy.h"

typedef struct fetch_rr_state {
    uint32_t last;      /* index of the warp picked last */
} fetch_rr_state;

static void *fetch_rr_init(const ws_param_values *p, const ws_policy_env *env)
{
    (void)p;
    fetch_rr_state *st = malloc(sizeof *st);
    if (st)
        st->last = env->nwarps ? env->nwarps - 1 : 0;
    return st;
}

static void fetch_rr_destroy(void *st)
{
    free(st);
}

static int fetch_rr_pick(void *vst, const ws_fetch_view *v)
{
    fetch_rr_state *st = vst;
    uint32_t n = v->nwarps;
    if (n == 0)
        return -1;
    uint32_t w = st->last < n ? st->last : n - 1;
    for (uint32_t i = 0; i < n; i++) {
        w = w + 1 == n ? 0 : w + 1;
        if (v->warps[w].can_fetch) {
            st->last = w;
            return (int)w;
        }
    }
    return -1;
}

const ws_fetch_ops ws_fetch_rr = {
    .name = "rr",
    .summary = "round-robin: the next warp after the last one that fetched",
    .params = NULL,
    .init = fetch_rr_init,
    .destroy = fetch_rr_destroy,
    .pick = fetch_rr_pick,
    .needs = WS_FETCH_CAN_ONLY,
};
