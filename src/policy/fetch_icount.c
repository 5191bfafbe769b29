/*
** fetch_icount.c -- ICOUNT fetch policy (`icount`).
** Source: Lakshminarayana & Kim, "Effect of Instruction Fetch and Memory
** Scheduling on GPU Performance", policy 2 (ICOUNT, after Tullsen et al.'s
** SMT fetch policy); specs/fetch-dram.md Sec. 2.1 item 2, Sec. 2.0, 7.
** Interpretations:
**  - the key is `ibuf_count`, instructions fetched and not yet dispatched
**    (the spec's `undispatched`); the fewest fetches first;
**  - only warps with can_fetch are candidates (the core applies the
**    spec's eligibility: barrier, pending loads/stores, branch, I-cache);
**  - ties: `tie` (fetch_pick.h); the default, lowest slot first, is the
**    paper's "particular order" and starves high slots, as the paper
**    reports; tie=1 is the round-robin combination it suggests.
*/
#include "policy/fetch_pick.h"

static int icount_cmp(const ws_fetch_warp_view *a, const ws_fetch_warp_view *b)
{
    return ws_fetch_min_first(a->ibuf_count, b->ibuf_count);
}

static int icount_pick(void *st, const ws_fetch_view *v)
{
    return ws_fetch_pick(st, v, icount_cmp);
}

const ws_fetch_ops ws_fetch_icount = {
    .name = "icount",
    .summary = "ICOUNT: the warp with the fewest fetched, not yet dispatched instructions",
    .params = ws_fetch_tie_params,
    .init = ws_fetch_pick_init,
    .destroy = ws_fetch_pick_destroy,
    .pick = icount_pick,
};
