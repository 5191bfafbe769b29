/*
** fetch_lrf.c -- least-recently-fetched fetch policy (`lrf`).
** Source: Lakshminarayana & Kim, "Effect of Instruction Fetch and Memory
** Scheduling on GPU Performance", policy 3 (LRF); specs/fetch-dram.md
** Sec. 2.1 item 3, Sec. 2.0, 7.
** Interpretations:
**  - the key is `last_fetch`, the cycle of the warp's last fetch; the
**    smallest (longest unfetched) first;
**  - a warp that has not fetched yet has last_fetch = the cycle it became
**    resident (the core sets it, spec Sec. 7 item 2), so a warp launched
**    mid-kernel does not jump ahead of every warp that ever fetched;
**  - only warps with can_fetch are candidates;
**  - ties (same last_fetch, e.g. warps launched together): `tie`
**    (fetch_pick.h), lowest slot first by default.
*/
#include "policy/fetch_pick.h"

static int lrf_cmp(const ws_fetch_warp_view *a, const ws_fetch_warp_view *b)
{
    return ws_fetch_min_first(a->last_fetch, b->last_fetch);
}

static int lrf_pick(void *st, const ws_fetch_view *v)
{
    return ws_fetch_pick(st, v, lrf_cmp);
}

const ws_fetch_ops ws_fetch_lrf = {
    .name = "lrf",
    .summary = "LRF: the warp whose last fetch is the longest ago",
    .params = ws_fetch_tie_params,
    .init = ws_fetch_pick_init,
    .destroy = ws_fetch_pick_destroy,
    .pick = lrf_pick,
};
