/*
** dram_reminst.c -- REMINST DRAM scheduling: row-buffer hits first; among
** the hits (or all requests when there is none) the request of the warp
** with the most instructions remaining to its completion (oracle profile).
** Paper: Lakshminarayana & Kim, "Effect of Instruction Fetch and Memory
** Scheduling on GPU Performance"; spec specs/fetch-dram.md 2.2 item 4.
*/
#include "warpsim_policy.h"

/*
** Interpretations:
**  - spec 2.2 pick(): key (-(total_len - retired), arrival), minimised over
**    S = the ready row hits if any, else every ready request; the same
**    order is the lexicographic key (hit, -remaining, arrival, seq).
**  - spec 2.2 "[R] REMINST's remaining is total_len - retired" and spec 7
**    item 3 (REMINST counts from the retirement point): warp_remaining is
**    filled at scheduling time by the GPU as oracle total - live retired
**    count (spec 2.2 "[R] ... live counter when it schedules").
**  - spec 2.2 "[R] The final tie-break is arrival order": arrival cycle,
**    then global order `seq`.
**  - spec 2.2 "[R] merged requests take the most urgent key": requests
**    arrive after L2 MSHR merging carrying one warp, whose key is used.
**  - A count of -1 (unknown: no oracle profile) ranks after every known
**    count; with no profile at all REMINST is exactly FR-FCFS.
*/
static bool more_remaining(int64_t a, int64_t b)
{
    if ((a < 0) != (b < 0))
        return a >= 0;
    return a > b;
}

static bool before(const ws_dram_req_view *a, const ws_dram_req_view *b)
{
    if (a->row_hit != b->row_hit)
        return a->row_hit;
    if (a->warp_remaining != b->warp_remaining)
        return more_remaining(a->warp_remaining, b->warp_remaining);
    if (a->arrival != b->arrival)
        return a->arrival < b->arrival;
    return a->seq < b->seq;
}

static int reminst_pick(void *st, const ws_dram_view *v)
{
    (void)st;
    return ws_dram_pick_first(v, before);
}

const ws_dram_sched_ops ws_dram_sched_reminst = {
    .name = "reminst",
    .summary = "row hits first, then the warp with the most instructions remaining (oracle)",
    .needs = WS_NEED_ORACLE | WS_NEED_WARP_COUNTERS,
    .pick = reminst_pick,
};
