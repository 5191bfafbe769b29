/*
** haws_hints.h -- HAWS's compiler side (Gong, PhD thesis 2020, Ch. 5.2-5.3;
** specs/haws.md §3.1.3, §8 C): per static stall point of one kernel, the
** chain of independent instructions a blocked warp may issue out of order,
** with the renamings they need.  A pure analysis over the policy ABI's
** program view; the interpretations are listed at the top of haws_hints.c.
*/
#ifndef WS_POLICY_HAWS_HINTS_H
#define WS_POLICY_HAWS_HINTS_H

#include <stdbool.h>
#include <stdint.h>
#include "warpsim_policy.h"

/* How the pass chooses (spec §3.1.3 consts, §8 B/C). */
typedef struct haws_hint_params {
    uint32_t max_sel;       /* selected instructions per path (RCU depth), 1..64; 8 */
    uint32_t max_rename;    /* renamings per path (rename table), 0..255; 8 */
    uint32_t max_dist;      /* format-1 offset limit from the stall pc; 511 */
    uint32_t max_br_dist;   /* format-2 offset limit (after a branch); 2047 */
    bool stop_at_next_stall;/* a reader of another LL load ends the chain; true */
    int  branches;          /* 1 = v1: stop at a conditional branch (default);
                               2 = v2: follow both successors */
    bool enforce_dist;      /* apply max_dist / max_br_dist; true */
    int  alias;             /* which skipped stores/atomics block a later load:
                               0 = any blocks every load, 1 = same space or
                               generic (default) */
} haws_hint_params;

#define HAWS_HINT_PARAMS_DEFAULT \
    ((haws_hint_params){ .max_sel = 8, .max_rename = 8, .max_dist = 511, \
                         .max_br_dist = 2047, .stop_at_next_stall = true, \
                         .branches = 1, .enforce_dist = true, .alias = 1 })

/* One selected instruction.  Entries form a tree in preorder: e[0] is the
   first; a path follows succ[0] until -1, except at a conditional branch
   (v2 only), where succ[0] is the first entry of the taken sub-chain and
   succ[1] that of the fall-through (-1 = that side selects nothing).  The
   runtime takes the side the shadow SIMT stack takes. */
typedef struct haws_chain_entry {
    uint32_t pc;
    bool     rename;        /* write `reg` into hidden register `hidden` */
    bool     branch;        /* a bra (format 2): the runtime executes it on
                               the shadow stack, and again in order */
    uint8_t  hidden;        /* 0..max_rename-1, distinct along a path */
    int32_t  reg;           /* renamed destination (a frame slot, with
                               WS_PROG_PRED_BIT for a predicate); -1 if none */
    int32_t  succ[2];
} haws_chain_entry;

/* The chain of one static stall point (spec §8 C1: a side table). */
typedef struct haws_chain {
    uint32_t stall_pc;
    uint32_t ntrig;
    const uint32_t *trig;   /* pcs of the LL loads it waits for, ascending */
    uint32_t n;             /* entries, 0 = nothing to run ahead */
    const haws_chain_entry *e;
} haws_chain;

typedef struct haws_hints {
    uint32_t entry_pc, end_pc;
    uint32_t nchains;       /* one per stall point, by ascending stall_pc */
    const haws_chain *chains;
    uint32_t nentries, nrenames;   /* over all chains */
    /* private: per pc of [entry_pc, end_pc] its chain index or -1, pools */
    int32_t *index_;
    void *mem_[3];
} haws_hints;

/* Run the pass over uops [entry_pc, end_pc] of `pv` (one kernel; end_pc is
   its FUNC_END).  `p` NULL = HAWS_HINT_PARAMS_DEFAULT.  NULL on a range
   outside the view, a parameter out of range, or no memory.  Time
   O(uops x words) for the dataflow plus O(stall points x scan). */
haws_hints *haws_hints_build(const ws_program_view *pv, uint32_t entry_pc, uint32_t end_pc,
                             const haws_hint_params *p);

/* The chain of stall point `stall_pc` (n may be 0), NULL if it is none. O(1). */
const haws_chain *haws_hints_find(const haws_hints *h, uint32_t stall_pc);

void haws_hints_free(haws_hints *h);

#endif /* WS_POLICY_HAWS_HINTS_H */
