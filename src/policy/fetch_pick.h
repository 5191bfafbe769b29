/*
** fetch_pick.h -- what the six priority fetch policies of the fetch-dram
** study share (icount, lrf, fair, all, bar, mem-bar; specs/fetch-dram.md
** Sec. 2.1): the best eligible warp under a policy's key, the `tie`
** parameter that breaks ties (Sec. 2.0 and 7 item 1) and its state.
** Policy files only.  Each policy file is its key and its ops table.
*/
#ifndef WS_POLICY_FETCH_PICK_H
#define WS_POLICY_FETCH_PICK_H

#include <stdlib.h>
#include "warpsim_policy.h"

/* tie: 0 = lowest slot first, the spec's [R] default, which reproduces
   the ICOUNT starvation the paper reports; 1 = round-robin among the
   tied warps, the alternative the spec asks to be configurable. */
enum { WS_FETCH_TIE_LOWEST = 0, WS_FETCH_TIE_RR = 1 };

static const ws_param_desc ws_fetch_tie_params[] = {
    { "tie", WS_FETCH_TIE_LOWEST, WS_FETCH_TIE_LOWEST, WS_FETCH_TIE_RR, "",
      "tie-break among warps of equal key: 0 = lowest slot first, "
      "1 = round-robin (first at or after the slot after the last pick)" },
    { NULL, 0, 0, 0, NULL, NULL }
};

/* A policy's order on warps: negative when `a` fetches before `b`,
   positive when after, 0 when they tie on the policy's key. */
typedef int (*ws_fetch_cmp_fn)(const ws_fetch_warp_view *a, const ws_fetch_warp_view *b);

typedef struct ws_fetch_pick_state {
    int      tie;       /* WS_FETCH_TIE_* */
    uint32_t last;      /* index of the warp picked last (tie = 1) */
} ws_fetch_pick_state;

static inline void *ws_fetch_pick_init(const ws_param_values *p, const ws_policy_env *env)
{
    ws_fetch_pick_state *st = malloc(sizeof *st);
    if (!st)
        return NULL;
    st->tie = p && p->n > 0 ? (int)p->v[0] : WS_FETCH_TIE_LOWEST;
    /* so that the first round-robin turn starts at slot 0, as fetch_rr */
    st->last = env && env->nwarps ? env->nwarps - 1 : 0;
    return st;
}

static inline void ws_fetch_pick_destroy(void *st)
{
    free(st);
}

/* Three-way comparisons of keys: the smaller first, or the larger first. */
static inline int ws_fetch_min_first(uint64_t a, uint64_t b)
{
    return (a > b) - (a < b);
}

static inline int ws_fetch_max_first(uint64_t a, uint64_t b)
{
    return (a < b) - (a > b);
}

/* An oracle count as a key to maximise: unknown (-1, the profile does not
   cover the warp) ranks lowest, level with a warp that has 0 left, so a
   warp the profile does not know never displaces one it does. */
static inline uint64_t ws_fetch_oracle_key(int64_t x)
{
    return x < 0 ? 0 : (uint64_t)x;
}

/*
** The warp with can_fetch that comes first under `cmp`, or -1 when none
** can fetch.  The warps are scanned circularly from slot 0 (tie = 0) or
** from the slot after the last pick (tie = 1), and only a strictly better
** warp replaces the best so far, so among tied warps the first in scan
** order wins: one loop serves both tie-breaks.  A pick is remembered under
** either tie-break, which costs nothing and keeps the state one meaning.
*/
static inline int ws_fetch_pick(void *vst, const ws_fetch_view *v, ws_fetch_cmp_fn cmp)
{
    ws_fetch_pick_state *st = vst;
    uint32_t n = v->nwarps;
    if (n == 0)
        return -1;
    uint32_t start = 0;
    if (st->tie == WS_FETCH_TIE_RR)
        start = st->last + 1 < n ? st->last + 1 : 0;
    int best = -1;
    for (uint32_t i = 0, w = start; i < n; i++, w = w + 1 == n ? 0 : w + 1) {
        if (!v->warps[w].can_fetch)
            continue;
        if (best < 0 || cmp(&v->warps[w], &v->warps[best]) < 0)
            best = (int)w;
    }
    if (best >= 0)
        st->last = (uint32_t)best;
    return best;
}

#endif /* WS_POLICY_FETCH_PICK_H */
