/*
** dram_fcfs.c -- FCFS DRAM scheduling: a bank that can start a new access
** serves its oldest waiting request, whether or not it hits the open row.
** Paper: Lakshminarayana & Kim, "Effect of Instruction Fetch and Memory
** Scheduling on GPU Performance"; spec specs/fetch-dram.md 2.2 item 1
** ("serve requests in arrival order") and the pick() pseudo-code there.
*/
#include "warpsim_policy.h"

/*
** Interpretations (spec 2.2 "[R] Details"): the policy is applied per bank
** (the controller offers one bank's queue at a time, 2.2 first sentence);
** "oldest" = smallest arrival cycle at the controller, ties by the global
** request order `seq` ("The final tie-break is arrival order").  Only
** requests marked `ready` are candidates (policy.h contract).
*/
static bool older(const ws_dram_req_view *a, const ws_dram_req_view *b)
{
    if (a->arrival != b->arrival)
        return a->arrival < b->arrival;
    return a->seq < b->seq;
}

static int fcfs_pick(void *st, const ws_dram_view *v)
{
    (void)st;
    return ws_dram_pick_first(v, older);
}

const ws_dram_sched_ops ws_dram_sched_fcfs = {
    .name = "fcfs",
    .summary = "first come first served: oldest request of the bank, row hit or not",
    .pick = fcfs_pick,
};
