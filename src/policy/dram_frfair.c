/*
** dram_frfair.c -- FR-FAIR DRAM scheduling: row-buffer hits first; among
** the hits (or all requests when there is none) the request of the warp
** that has retired the fewest instructions.
** Paper: Lakshminarayana & Kim, "Effect of Instruction Fetch and Memory
** Scheduling on GPU Performance"; spec specs/fetch-dram.md 2.2 item 3.
*/
#include "warpsim_policy.h"

/*
** Interpretations:
**  - spec 2.2 pick(): key (warp(r).retired, r.arrival_cycle), minimised
**    over S = the ready row hits if any, else every ready request; the
**    same order is the lexicographic key (hit, retired, arrival, seq).
**  - spec 2.2 "[R] Details": the controller reads the warp's live retired
**    count when it schedules (warp_retired, filled at that moment through
**    mem_warp_info), comparing warps across SMs; the final tie-break is
**    arrival order (arrival cycle, then global order `seq`).
**  - spec 2.2 "[R] A request that absorbed merges takes the most urgent key
**    among its merged warps": requests reach the controller after L2 MSHR
**    merging and carry one warp (the first requester), so its key is used.
**  - A count of -1 (unknown: no warp information) ranks after every known
**    count; with no information at all FR-FAIR is exactly FR-FCFS.
*/
static bool fewer_retired(int64_t a, int64_t b)
{
    if ((a < 0) != (b < 0))
        return a >= 0;
    return a < b;
}

static bool before(const ws_dram_req_view *a, const ws_dram_req_view *b)
{
    if (a->row_hit != b->row_hit)
        return a->row_hit;
    if (a->warp_retired != b->warp_retired)
        return fewer_retired(a->warp_retired, b->warp_retired);
    if (a->arrival != b->arrival)
        return a->arrival < b->arrival;
    return a->seq < b->seq;
}

static int frfair_pick(void *st, const ws_dram_view *v)
{
    (void)st;
    return ws_dram_pick_first(v, before);
}

const ws_dram_sched_ops ws_dram_sched_frfair = {
    .name = "frfair",
    .summary = "row hits first, then the warp with the fewest retired instructions",
    .needs = WS_NEED_WARP_COUNTERS,
    .pick = frfair_pick,
};
