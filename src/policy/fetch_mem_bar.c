/*
** fetch_mem_bar.c -- Oracle-Mem_Bar fetch policy (`mem-bar`).
** Source: Lakshminarayana & Kim, "Effect of Instruction Fetch and Memory
** Scheduling on GPU Performance", policy 7 (MEM_BAR); specs/fetch-dram.md
** Sec. 2.1 item 7, Sec. 2.0, 7.
** Interpretations:
**  - primary key `oracle_mem_to_barrier`, the warp's device-memory
**    instructions among those left before its next barrier (or the end),
**    from the fetch point; the most first;
**  - secondary key `oracle_to_barrier`, the most first: with equal memory
**    counts the paper says MEM_BAR "behaves identical to BAR";
**  - which instructions count as memory ones is the oracle profile's
**    choice (the spec, Sec. 7 item 4, asks for device-memory loads and
**    stores); the policy has no option of its own for it;
**  - unknown (-1) ranks as 0, the lowest, on each key (fetch_pick.h);
**  - only warps with can_fetch are candidates;
**  - ties on both keys: `tie` (fetch_pick.h), lowest slot first by default.
*/
#include "policy/fetch_pick.h"

static int mem_bar_cmp(const ws_fetch_warp_view *a, const ws_fetch_warp_view *b)
{
    int c = ws_fetch_max_first(ws_fetch_oracle_key(a->oracle_mem_to_barrier),
                               ws_fetch_oracle_key(b->oracle_mem_to_barrier));
    if (c != 0)
        return c;
    return ws_fetch_max_first(ws_fetch_oracle_key(a->oracle_to_barrier),
                              ws_fetch_oracle_key(b->oracle_to_barrier));
}

static int mem_bar_pick(void *st, const ws_fetch_view *v)
{
    return ws_fetch_pick(st, v, mem_bar_cmp);
}

const ws_fetch_ops ws_fetch_mem_bar = {
    .name = "mem-bar",
    .summary = "Oracle-Mem_Bar: the most memory instructions before the next barrier, then BAR",
    .params = ws_fetch_tie_params,
    .needs = WS_NEED_ORACLE,
    .init = ws_fetch_pick_init,
    .destroy = ws_fetch_pick_destroy,
    .pick = mem_bar_pick,
};
