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
**  - when some warp is ready only the ready ones are returned, the
**    FIFO_SORTED (4) oldest in order (the core never looks past a ready
**    warp it can issue); when none is, the first stalled warp in slot
**    order (what the issue-slot statistics read); with per-warp
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

/* The first FIFO_SORTED of out[0..n) put in order of (next_seq, slot)
   by selection, the rest left as they are: the core issues at most
   issue_width warps and stops at the first it can issue, so only the head
   of the order is read (every preset issues at most 2 a cycle; a wider
   issue sees its later picks in slot order). */
#define FIFO_SORTED 4
static void fifo_select(const ws_warp_view *w, uint32_t *out, uint32_t n)
{
    for (uint32_t i = 0; i < n && i < FIFO_SORTED; i++) {
        uint32_t best = i;
        for (uint32_t j = i + 1; j < n; j++) {
            const ws_warp_view *a = &w[out[j]], *b = &w[out[best]];
            if (a->next_seq < b->next_seq || (a->next_seq == b->next_seq && out[j] < out[best]))
                best = j;
        }
        uint32_t x = out[i];
        out[i] = out[best];
        out[best] = x;
    }
}

/*
** The ready warps, oldest next instruction first.  When none is ready,
** the first warp in slot order with a real stall (not an empty buffer):
** the core counts the cycle's issue slot under the first such stall of
** the order, so that one warp gives the same count as all of them.
** strict: the warp holding the oldest instruction alone.
*/
static uint32_t fifo_order(void *vst, const ws_sched_view *v, uint32_t *out)
{
    fifo_state *st = vst;
    if (st->strict) {
        uint32_t head = WS_NO_WARP;
        for (uint32_t i = 0; i < v->ncand; i++) {
            uint32_t s = v->cand[i];
            if (v->warps[s].valid
                && (head == WS_NO_WARP || v->warps[s].next_seq < v->warps[head].next_seq))
                head = s;
        }
        if (head == WS_NO_WARP) return 0;
        out[0] = head;
        return 1;
    }
    /* valid and stall only (the view's first bytes): this runs every cycle */
    uint32_t nready = 0, stalled = WS_NO_WARP;
    for (uint32_t i = 0; i < v->ncand; i++) {
        uint32_t s = v->cand[i];
        const ws_warp_view *w = &v->warps[s];
        if (!w->valid) continue;
        if (w->stall == WS_STALL_NONE) out[nready++] = s;
        else if (stalled == WS_NO_WARP && w->stall != WS_STALL_IBUFFER) stalled = s;
    }
    if (nready) {
        fifo_select(v->warps, out, nready);
        return nready;
    }
    if (stalled == WS_NO_WARP) return 0;
    out[0] = stalled;
    return 1;
}

const ws_warp_sched_ops ws_warp_sched_fifo = {
    .name = "fifo",
    .summary = "in-order dispatch from a common issue queue: oldest fetched instruction first",
    .params = fifo_params,
    .needs = WS_PURE_ORDER,
    .init = fifo_init,
    .destroy = fifo_destroy,
    .order = fifo_order,
};
