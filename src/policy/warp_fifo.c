/*
** warp_fifo.c -- in-order dispatch from a common issue queue (`fifo`).
** Source: the Tesla-class core of Lakshminarayana & Kim, "Effect of
** Instruction Fetch and Memory Scheduling on GPU Performance": "a common
** issue queue ... in-order scheduling" (Table 1); specs/fetch-dram.md §2.0,
** §3 (Execution) and §7 item 9.
** Interpretations:
**  - an instruction's place in the queue is its fetch order
**    (ws_warp_view.next_seq, set by the core's fetch stage); each warp's
**    instructions leave in order, so a warp offers only its oldest one;
**  - strict = 0 (the spec's recommendation): the oldest ready instruction
**    of any warp dispatches, i.e. warps are tried by the age of their
**    next instruction, oldest first; strict = 1 (the spec's option): only
**    the queue's head may dispatch, and nothing does while it waits;
**  - warps that cannot issue this cycle follow the ready ones in slot
**    order (only the issue-slot statistics read them); with per-warp
**    instruction buffers (fetch_queue = 0) the order is still the fetch
**    order of the buffered heads.
*/
#include <stdlib.h>

#include "warpsim_policy.h"

enum { FIFO_P_STRICT = 0 };

static const ws_param_desc fifo_params[] = {
    { "strict", 0, 0, 1, "", "1 = only the oldest instruction in the queue may dispatch "
      "(strict head of queue); 0 = the oldest ready one" },
    { NULL, 0, 0, 0, NULL, NULL }
};

typedef struct fifo_state {
    bool strict;
} fifo_state;

static void *fifo_init(const ws_param_values *p, const ws_policy_env *env)
{
    (void)env;
    fifo_state *st = calloc(1, sizeof *st);
    if (st)
        st->strict = p && p->n > FIFO_P_STRICT && p->v[FIFO_P_STRICT];
    return st;
}

static void fifo_destroy(void *st)
{
    free(st);
}

/* Insertion sort of out[0..n) by (next_seq, slot): n is the warps ready
   this cycle, a handful. */
static void fifo_sort(const ws_warp_view *w, uint32_t *out, uint32_t n)
{
    for (uint32_t i = 1; i < n; i++) {
        uint32_t x = out[i], j = i;
        while (j > 0 && (w[out[j - 1]].next_seq > w[x].next_seq
                         || (w[out[j - 1]].next_seq == w[x].next_seq && out[j - 1] > x))) {
            out[j] = out[j - 1];
            j--;
        }
        out[j] = x;
    }
}

/*
** The ready warps by the age of their next instruction, then the others
** in slot order: only a ready warp can issue, and sorting every warp every
** cycle cost a third of a tesla8 run.  (The others' order decides only
** which stall the cycle's issue slot is counted under.)  strict: the warp
** holding the oldest instruction alone.
*/
static uint32_t fifo_order(void *vst, const ws_sched_view *v, uint32_t *out)
{
    fifo_state *st = vst;
    uint32_t nready = 0, n = 0, head = WS_NO_WARP;
    for (uint32_t i = 0; i < v->ncand; i++) {
        uint32_t s = v->cand[i];
        const ws_warp_view *w = &v->warps[s];
        if (!w->valid) continue;
        if (head == WS_NO_WARP || w->next_seq < v->warps[head].next_seq) head = s;
        if (w->stall == WS_STALL_NONE) out[nready++] = s;
    }
    if (st->strict) {
        if (head == WS_NO_WARP) return 0;
        out[0] = head;
        return 1;
    }
    fifo_sort(v->warps, out, nready);
    n = nready;
    for (uint32_t i = 0; i < v->ncand; i++) {
        uint32_t s = v->cand[i];
        if (v->warps[s].valid && v->warps[s].stall != WS_STALL_NONE) out[n++] = s;
    }
    return n;
}

const ws_warp_sched_ops ws_warp_sched_fifo = {
    .name = "fifo",
    .summary = "in-order dispatch from a common issue queue: oldest fetched instruction first",
    .params = fifo_params,
    .init = fifo_init,
    .destroy = fifo_destroy,
    .order = fifo_order,
};
