/*
** fetch_all.c -- Oracle-All fetch policy (`all`).
** Source: Lakshminarayana & Kim, "Effect of Instruction Fetch and Memory
** Scheduling on GPU Performance", policy 5 (ALL); specs/fetch-dram.md
** Sec. 2.1 item 5, Sec. 2.0, 7.
** Interpretations:
**  - the key is `oracle_remaining`, the warp's instructions left counted
**    from the fetch point (total - fetched, spec Sec. 7 item 3), from the
**    oracle profile (WS_NEED_ORACLE); the most first, so long warps go
**    ahead and all warps finish together;
**  - unknown (-1: the profile does not cover the warp) ranks as 0, the
**    lowest (fetch_pick.h);
**  - only warps with can_fetch are candidates;
**  - ties: `tie` (fetch_pick.h), lowest slot first by default; with equal
**    warp lengths and the same tie-break ALL then picks as FAIR does.
*/
#include "policy/fetch_pick.h"

static int all_cmp(const ws_fetch_warp_view *a, const ws_fetch_warp_view *b)
{
    return ws_fetch_max_first(ws_fetch_oracle_key(a->oracle_remaining),
                              ws_fetch_oracle_key(b->oracle_remaining));
}

static int all_pick(void *st, const ws_fetch_view *v)
{
    return ws_fetch_pick(st, v, all_cmp);
}

const ws_fetch_ops ws_fetch_all = {
    .name = "all",
    .summary = "Oracle-All: the warp with the most instructions left (oracle profile)",
    .params = ws_fetch_tie_params,
    .needs = WS_NEED_ORACLE,
    .init = ws_fetch_pick_init,
    .destroy = ws_fetch_pick_destroy,
    .pick = all_pick,
};
