/*
** dram_frfcfs.c -- FR-FCFS DRAM scheduling (Rixner et al.), the baseline:
** row-buffer hits first, then the oldest request.
** Paper: Lakshminarayana & Kim, "Effect of Instruction Fetch and Memory
** Scheduling on GPU Performance"; spec specs/fetch-dram.md 2.2 item 2 and
** the pick() pseudo-code there (S = hits if any, argmin arrival over S).
*/
#include "warpsim_policy.h"

/*
** Interpretations (spec 2.2 "[R] Details"): applied per bank when the bank
** can start a new access (the controller offers that bank's queue);
** "row hit" = the request's row is the bank's open row at that moment;
** "oldest" = smallest arrival cycle, ties by global order `seq` ("The
** final tie-break is arrival order").  Only `ready` requests compete.
** Hits-first-then-oldest is the lexicographic key (hit, arrival, seq).
*/
static bool before(const ws_dram_req_view *a, const ws_dram_req_view *b)
{
    if (a->row_hit != b->row_hit)
        return a->row_hit;
    if (a->arrival != b->arrival)
        return a->arrival < b->arrival;
    return a->seq < b->seq;
}

static int frfcfs_pick(void *st, const ws_dram_view *v)
{
    (void)st;
    return ws_dram_pick_first(v, before);
}

const ws_dram_sched_ops ws_dram_sched_frfcfs = {
    .name = "frfcfs",
    .summary = "first-ready FCFS: row-buffer hits first, then oldest (baseline)",
    .pick = frfcfs_pick,
};
