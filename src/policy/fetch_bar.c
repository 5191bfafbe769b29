/*
** fetch_bar.c -- Oracle-Bar fetch policy (`bar`).
** Source: Lakshminarayana & Kim, "Effect of Instruction Fetch and Memory
** Scheduling on GPU Performance", policy 6 (BAR); specs/fetch-dram.md
** Sec. 2.1 item 6, Sec. 2.0, 7.
** Interpretations:
**  - the key is `oracle_to_barrier`, the warp's instructions left before
**    its next barrier counted from the fetch point (spec Sec. 7 item 3),
**    from the oracle profile (WS_NEED_ORACLE); the most first;
**  - past its last barrier (or in a kernel without one) the core gives
**    the instructions left to the end, so BAR is then ALL, as the paper
**    says; the policy itself does no fallback;
**  - unknown (-1) ranks as 0, the lowest (fetch_pick.h);
**  - only warps with can_fetch are candidates;
**  - ties: `tie` (fetch_pick.h), lowest slot first by default.
*/
#include "policy/fetch_pick.h"

static int bar_cmp(const ws_fetch_warp_view *a, const ws_fetch_warp_view *b)
{
    return ws_fetch_max_first(ws_fetch_oracle_key(a->oracle_to_barrier),
                              ws_fetch_oracle_key(b->oracle_to_barrier));
}

static int bar_pick(void *st, const ws_fetch_view *v)
{
    return ws_fetch_pick(st, v, bar_cmp);
}

const ws_fetch_ops ws_fetch_bar = {
    .name = "bar",
    .summary = "Oracle-Bar: the warp with the most instructions left before its next barrier",
    .params = ws_fetch_tie_params,
    .needs = WS_NEED_ORACLE,
    .init = ws_fetch_pick_init,
    .destroy = ws_fetch_pick_destroy,
    .pick = bar_pick,
};
