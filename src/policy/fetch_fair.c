/*
** fetch_fair.c -- FAIR fetch policy (`fair`).
** Source: Lakshminarayana & Kim, "Effect of Instruction Fetch and Memory
** Scheduling on GPU Performance", policy 4 (FAIR); specs/fetch-dram.md
** Sec. 2.1 item 4, Sec. 2.0, 7.
** Interpretations:
**  - the key is `fetched`, the warp's instructions fetched so far; the
**    fewest first, which keeps the warps in lock-step;
**  - the literal per-warp count (spec Sec. 7 item 2, the default): a warp
**    of a CTA launched mid-kernel starts at 0 and so comes first until it
**    has caught up; no normalisation option is offered here;
**  - only warps with can_fetch are candidates;
**  - ties: `tie` (fetch_pick.h), lowest slot first by default.
*/
#include "policy/fetch_pick.h"

static int fair_cmp(const ws_fetch_warp_view *a, const ws_fetch_warp_view *b)
{
    return ws_fetch_min_first(a->fetched, b->fetched);
}

static int fair_pick(void *st, const ws_fetch_view *v)
{
    return ws_fetch_pick(st, v, fair_cmp);
}

const ws_fetch_ops ws_fetch_fair = {
    .name = "fair",
    .summary = "FAIR: the warp with the fewest instructions fetched so far",
    .params = ws_fetch_tie_params,
    .init = ws_fetch_pick_init,
    .destroy = ws_fetch_pick_destroy,
    .pick = fair_pick,
};
