/*
** core_int.h -- the SM pipeline's internals, shared by the files of core/ only (the
** top level drives an SM through core.h and never sees these structs).
**
** One SM = warp slots + CTA slots + fetch (fetch.c) + per-warp instruction
** buffers + scoreboard (scoreboard.c) + warp schedulers (issue.c) +
** execution pipes (issue.c: latency/initiation interval per unit) + the
** LSU (ldst.c, with coalesce.c and smem_banks.c) + its L1 caches (mem/).
** Instructions execute functionally at issue (emu_warp_step); the model
** only decides *when*.  sm.c owns the lifecycle and the tick order:
** replies -> LSU -> L1 send -> issue -> fetch/decode (back to front).
*/
#ifndef WS_CORE_INT_H
#define WS_CORE_INT_H

#include "core.h"
#include <stdbool.h>
#include <stdint.h>
#include "../emu/emu.h"
#include "../common/config.h"
#include "../common/stats.h"
#include "../mem/l1.h"
#include "../mem/mem_port.h"
#include "../common/l1_access.h"
#include "../policy/policy.h"   /* the policy ABI and resolved policies */

#define CORE_SB_CAP     32          /* pending register writes per warp */
#define CORE_MAX_SRC    12
#define CORE_MAX_DST    4
#define CORE_PRED_BIT   0x40000000  /* scoreboard id of a predicate */
#define CORE_HID_BIT    0x20000000  /* scoreboard id of a hidden register (altissue.c):
                                       absolute already, in no frame */
#define CORE_NO_PC      UINT32_MAX
#define CORE_NONE       UINT32_MAX
#define CORE_MAX_TX     128         /* transactions of one memory instruction */

/* what a common-queue fetch look found (core_sm.fetch_last) */
enum { CORE_FETCHED = 0, CORE_FETCH_FULL, CORE_FETCH_NONE };

/* ------------------------------------------------------------------ */
/* Per-instruction timing facts, computed once per launch (decode.c)   */
/* ------------------------------------------------------------------ */

enum { CORE_K_ALU = 0, CORE_K_MEM, CORE_K_CTRL, CORE_K_BAR };
#define CORE_UNIT_NONE 0xff

struct core_uinfo {
    uint8_t  kind;        /* CORE_K_* */
    uint8_t  unit;        /* GPU_UNIT_* or CORE_UNIT_NONE */
    uint8_t  next_class;  /* WS_NEXT_* */
    bool     is_load;     /* reads memory into registers (ld, ldu, atom) */
    uint8_t  space;       /* WS_SPACE_* of a memory instruction */
    uint8_t  mem;         /* WS_MEM_* */
    uint8_t  nsrc, ndst;
    uint16_t latency, interval;
    int32_t  src[CORE_MAX_SRC];   /* frame-relative; CORE_PRED_BIT marks predicates */
    int32_t  dst[CORE_MAX_DST];
};

/* core_decode_module, core_program_view: core.h */

/* ------------------------------------------------------------------ */
/* Warps, CTAs, loads                                                  */
/* ------------------------------------------------------------------ */

typedef struct core_sb_entry {
    int32_t  reg;         /* absolute register id in the warp's stack */
    uint32_t load;        /* load record it waits for, or CORE_NONE */
    uint64_t ready;       /* cycle the value can be read (CORE_NEVER: unknown yet) */
} core_sb_entry;

/* altissue.c: one result-collection (RCU) entry, the rename table's
   entries, and a warp's alternate-issue state */
typedef struct core_alt_rcu {
    uint32_t pc;
    int32_t  reg;         /* renamed destination, -1: in its own register */
    uint8_t  hidden;
    bool     control;     /* a branch: executed again in order */
    uint32_t mask;        /* lanes it wrote (the COPY's) */
} core_alt_rcu;

typedef struct core_alt_rt {
    int32_t reg;
    uint8_t hidden;
    bool    live;
} core_alt_rt;

typedef struct core_alt {
    emu_alt  ea;          /* hidden registers and the shadow SIMT stack */
    bool     on;          /* in an episode */
    bool     used;        /* an episode was tried for the stall instance stall_issued */
    uint64_t stall_issued;/* the warp's issue count at that stall */
    uint32_t stall_pc;
    ws_alt_chain ch;
    int32_t  cur;         /* next chain entry, -1: none */
    uint32_t n_ep;        /* issued in this episode */
    uint64_t next_at;     /* the cycle the next chain instruction is decoded */
    core_alt_rcu rcu[WS_ALT_MAX];
    uint32_t rcu_head, rcu_n;
    uint32_t fetch_n;     /* RCU entries (from the head) the fetch has reached */
    core_alt_rt rt[WS_ALT_HIDDEN];   /* by hidden register */
    core_uinfo copy_ui;   /* the RCU head's COPY micro-op */
} core_alt;

typedef struct core_warp {
    emu_warp *ew;         /* NULL: slot free */
    core_alt *alt;        /* NULL: the policy has no alternate issue stream */
    bool     finished;    /* executed its last instruction */
    /* read for a candidate whose look is due: kept in the first cache line */
    uint8_t  stall;       /* WS_STALL_* found this cycle */
    bool     lsu_wait;    /* its memory instruction waits for the busy LSU:
                             looked at again when the LSU frees (lsu_finish) */
    /* instruction buffer: ring of pcs and the cycle each is decoded */
    uint32_t ib_head, ib_n;
    uint32_t ib_free;     /* of them, passed at fetch: results that ran ahead
                             (altissue.c), taking no buffer room */
    uint32_t fetch_pc;    /* next pc to fetch; CORE_NO_PC: wait for a flush */
    bool     imiss;       /* its fetch waits for an instruction-cache line */
    uint32_t *ib_pc;
    uint64_t *ib_ready;
    uint64_t *ib_seq;     /* the SM's fetch order of each (next_seq) */
    uint32_t slot, sched, cta_slot;
    uint64_t age;
    uint64_t uid;         /* launch-wide warp id (cta_id * warps_per_cta + warp) */
    core_sb_entry sb[CORE_SB_CAP];
    uint32_t sb_n;
    uint32_t pending_loads;
    uint32_t pending_stores;  /* store instructions not yet handed to L1 */
    uint32_t reexec_n;    /* its requests parked in the re-execution queue */
    bool     ll_stalled;  /* waits on a load (WS_EV_LL_STALL sent) */
    uint32_t wait_load;   /* that load's record (CORE_NONE: none), for MemoryBlockCycles */
    uint32_t ivl;         /* barrier intervals completed (oracle counts) */
    uint64_t issued, fetched, last_fetch, last_issue;
    /* the common fetch framework (fetch.c, fetch_queue / fetch_stall_*)
       and the fetch-dram statistics */
    uint32_t ib_mem;      /* device-memory instructions fetched, not issued */
    uint32_t dev_loads;   /* device-memory loads issued, not complete */
    uint32_t dev_stores;  /* store transactions sent below, not acknowledged */
    uint64_t store_at;    /* issue cycle of its store awaiting them (0: none) */
    uint64_t fetch_resume;/* no fetch before this cycle: a branch resolving */
    uint64_t bar_since;   /* cycle it arrived at the barrier it waits at */
    uint64_t fetched_dev; /* device-memory instructions fetched */
    uint64_t ivl_fetched, ivl_fetched_dev;  /* fetched, fetched_dev when its
                                               barrier interval began */
} core_warp;

/* hum.c's memo for one warp slot's next instruction: the distinct L1D
   lines of its global load (valid while insns_at = warp_insns + 1; 0 =
   none), and whether one was present at L1D presence count `epoch`.
   Apart from core_warp: it is large and read only in stalled cycles. */
typedef struct core_hum {
    uint64_t insns_at, epoch;
    bool     any;
    uint32_t n;
    uint64_t line[EMU_WARP_SIZE];
} core_hum;

typedef struct core_cta {
    bool     live;
    emu_cta  ecta;
    uint32_t warps_left;  /* warps not yet finished */
    uint32_t slot[32];    /* warp slot of each of its warps (<= 1024 threads) */
} core_cta;

typedef struct core_load {
    uint32_t warp;        /* slot */
    uint32_t pc;          /* the load instruction */
    uint32_t outstanding; /* transactions not yet back */
    bool     all_sent;    /* the LSU has handed every transaction over */
    uint64_t ready;       /* latest data-ready cycle of its transactions */
    uint32_t next_free;
    /* GPGPU-Sim's count of a load that an L1D hit completes (stats.h,
       vec_hit_insns): its lanes, whether it touched the L1D or shared
       memory, and the latest completion of its L1D hits and of the rest
       (fills, other caches' hits), 0 = none */
    uint32_t lanes;
    bool     l1d_any, shmem;
    uint64_t hit_done, other_done;
    bool     dev;         /* a device-memory instruction (core_uinfo_devmem) */
    uint64_t issued_at;   /* its issue cycle (latency statistics) */
} core_load;

/* one memory transaction after coalescing */
typedef struct core_tx {
    uint64_t addr;
    uint8_t  cache;       /* CORE_C_* */
    uint8_t  kind;        /* MEM_READ / MEM_WRITE / MEM_ATOMIC */
    uint16_t bytes;       /* bytes moved when reduced (coalesce_reduce), 0 = the segment */
    uint32_t lanes;       /* lanes touching it (l1d_classify only, else 0) */
} core_tx;

/* the LSU's current instruction */
typedef struct core_lsu {
    bool     busy;
    uint32_t warp, load;  /* load = CORE_NONE for stores */
    uint32_t pc;
    uint32_t shmem_cycles;/* bank-conflict cycles left before the cache part */
    bool     shmem;       /* has a shared-memory part */
    bool     blocked;     /* last try was a reservation fail */
    bool     parked;      /* a request of this instruction went to the queue */
    bool     full_wait;   /* its request found the queue full: the LSU serves
                             only the queue until an entry frees */
    uint64_t uid;         /* the warp's uid: its slot may be reused before
                             a store's last request is handed over */
    uint32_t ntx, next;
    core_tx  tx[CORE_MAX_TX];
} core_lsu;

/* a request parked in the LSU re-execution queue (Mascar §2.7): the
   transaction with everything needed to finish it later */
typedef struct core_reexec {
    core_tx  tx;
    uint32_t warp, load, pc;  /* load = CORE_NONE for stores */
    uint64_t uid;             /* the warp's uid (see rq_owner in ldst.c) */
    uint64_t parked;
    uint32_t retries;
} core_reexec;

/* one warp scheduler unit: the slots assigned to it (ascending) */
typedef struct core_sched {
    uint32_t ncand;
    uint32_t *cand;       /* room for every slot of the SM */
    uint32_t *order;
    uint8_t  last_slot;   /* GPU_SLOT_* of the last cycle (for skipped cycles) */
    /* issue_refresh: no candidate's stall needs a look before `due` (the
       least recheck at its last pass; core_warp_poke resets it), and
       whether that pass found a live warp */
    uint64_t due;
    bool     live;
    bool     held;        /* this cycle's refresh found nothing due */
    bool     last_ll;     /* the last cycle was a long-latency stall (altissue.c) */
    uint32_t npend;       /* warps marked in sm->pend, not looked at yet (issue_lazy) */
} core_sched;

/* ------------------------------------------------------------------ */
/* SM                                                                  */
/* ------------------------------------------------------------------ */

struct core_sm {
    uint32_t id;
    const gpu_config *cfg;
    const core_uinfo *ui;         /* current launch's decode table */
    emu_launch *launch;
    uint32_t nwarps, nctas;       /* slot counts */
    core_warp *warps;
    core_cta *ctas;
    uint32_t live_warps, live_ctas;
    uint64_t next_age;
    /* resources in use */
    uint32_t used_threads, used_regs, used_shmem;

    /* the warp-scheduler policy: one instance for the SM, shared by its
       scheduler units; its view of every slot */
    const ws_warp_sched_ops *wp;
    void *wst;
    ws_warp_view *view;           /* [nwarps], by slot */
    /* read for every candidate every cycle, so apart from the (large)
       warps: per slot the cycle its stall holds until unless an event
       resets it (CORE_NEVER for an empty slot already looked at), and
       whether it holds a live warp (ew set, not finished) */
    uint64_t *recheck;            /* [nwarps] */
    uint8_t *alive;               /* [nwarps] */
    /* [nwarps]: cycle + 1 while due and not looked at yet in that cycle
       (issue_lazy; a stale cycle needs no clearing) */
    uint64_t *pend;
    core_hum *hum;                /* [nwarps], by slot */
    /* hum.c: the slots whose last look (issue_refresh) found them waiting
       for the LSU with a global load next (bit set), bumped `gen` on each
       change, and the SM's last answer with the gen and L1D presence count
       it was found at */
    struct {
        uint64_t *cand;           /* [(nwarps + 63) / 64] */
        uint64_t gen, memo_gen, memo_epoch;
        bool     memo, memo_any;
    } humc;
    core_sched *sched;
    uint32_t nsched;
    core_alt *alts;               /* [nwarps] when the policy has alt_chain, else NULL */
    bool tick_no_skip;            /* wp ticks and cannot be told of skips */
    const ws_fetch_ops *fetch_ops;
    void *fetch_st;
    ws_fetch_warp_view *fview;
    uint32_t fetch_rr;
    bool     fetch_quiet;         /* the last fetch found no warp that could fetch,
                                     and no warp was poked or started since */
    /* bit per slot: the warp may be able to fetch.  A look that finds it
       cannot clears its bit, a poke (or a start) sets it: what keeps a warp
       from fetching changes only then (core_fetch_tick), so the looks skip
       the warps with a clear bit without touching their records */
    uint64_t *fetch_may;
    /* the common issue queue (fetch_queue > 0): entries taken (decoding or
       queued), the fetch order's next number, the earliest cycle a branch
       wait ends (a quiet fetch looks again then), and what the last look
       found, repeated in cycles it is not made (quiet or skipped) */
    uint32_t ibuf_cap;            /* entries per warp: ibuffer_size, or
                                     fetch_queue with a common queue */
    uint32_t ib_ring;             /* the ring's size: ibuf_cap + the RCU's entries
                                     the fetch may pass (altissue.c) */
    bool     fetch_rules;         /* fetch_stall_mem or branch_resolve is on */
    uint32_t iq_used;
    uint64_t fetch_seq, fetch_due;
    uint8_t  fetch_last;          /* CORE_FETCHED, CORE_FETCH_FULL, CORE_FETCH_NONE */
    uint32_t fstall_last[GPU_FSTALL_COUNT];
    const ws_launch_info *kinfo;  /* the running kernel, for policies */

    uint64_t *unit_free[GPU_UNIT_COUNT];  /* per unit instance: next free cycle */
    uint32_t nunits[GPU_UNIT_COUNT];
    /* operand collector (opcoll.c); opc_banks = 0: off */
    uint32_t opc_banks;
    uint64_t *opc_bank_free;              /* per bank: next cycle it can serve a read */
    uint64_t *opc_unit_free[2];           /* per collector unit (SP pool, SFU pool):
                                             the cycle it dispatched its instruction */
    uint32_t opc_nunits[2];               /* 0 = unlimited */

    core_lsu lsu;
    core_reexec *rq;              /* re-execution queue, oldest first */
    uint32_t rq_n, rq_cap;        /* rq_cap = lsu.reexec_queue (0: none) */
    ws_reexec_entry *rq_view;     /* the policy's view of it */
    core_load *loads;
    uint32_t nloads, load_free;
    mem_l1 *l1[CORE_C_COUNT];
    mem_l1 *l1i;                  /* instruction cache; NULL: every fetch hits */
    /* l1i.miss_latency > 0: the L1I's misses wait here instead of going
       below, filled `due` cycles later (fetch.c), oldest first */
    mem_port imiss_port;
    mem_req *imiss_q;
    uint64_t *imiss_due;
    uint32_t imiss_head, imiss_n, imiss_cap;
    uint32_t *tokbuf;             /* room for the largest MSHR merge list */
    bool saturated;
    bool lsu_stalled;             /* the LSU stalled this cycle (lsu_stall_cycles) */
    bool hum_last;                /* this cycle was a missed hit-under-miss */
    ws_l1_occupancy l1occ[WS_NL1];  /* the view's, updated each tick */
    /* the last cycle's activity (kept for skipped cycles, which repeat it):
       an instruction issued; every live warp waited on an L1 miss */
    bool issued_last, mem_blocked_last;
    uint64_t exec_until;          /* an issued ALU instruction holds its pipe until then
                                     (initiation interval: SIMT width 8 = 4 cycles) */
    uint64_t last_tick;           /* the cycle of the last core_sm_tick */
    uint64_t quiet_n;             /* quiet ticks up to last_tick not yet counted (sm_settle) */

    /* per cycle */
    bool     active;              /* something happened: no skipping */
    bool     poked;               /* a reply or a kernel start since the last tick */
    uint64_t wake;                /* earliest timed change among stalls */
    uint64_t last_progress;       /* last issue or load return */
    bool     fault;
    bool     cta_freed;           /* a CTA finished: the dispatcher may run */

    gpu_kernel_stats *st;         /* counters of the running kernel */
    l1_access_sink l1d_sink;      /* the L1D access stream (Belady, trace); fn NULL: off */
    mem_dup_mshr *dup_mshr;       /* GPU-wide duplicate-MSHR record; NULL: off */
    uint64_t warp_insns;          /* of the CTAs that finished here, since creation */
};

/* sm.c (the lifecycle and tick are in core.h) */
/* An event that names no warp, CTA or instruction yet. */
#define CORE_EVENT(k) ((ws_sched_event){ .kind = (k), .warp = WS_NO_WARP, .uid = UINT64_MAX, \
                                         .cta = CORE_NONE, .cta_id = CORE_NONE, .pc = WS_NO_PC })
/* Deliver `e` to the SM's warp-scheduler policy (once; uid, cta_id are
   filled in from `e->warp` / `e->cta` where they are meaningful). */
void core_sm_event(core_sm *sm, const ws_sched_event *e, uint64_t cycle);
/* The policy's view of the SM for tick and events (sched = WS_NO_SCHED);
   inline: built per scheduler unit every cycle. */
static inline ws_sched_view core_sm_view(const core_sm *sm, uint64_t cycle)
{
    return (ws_sched_view){ .cycle = cycle, .sm = sm->id,
                            .nsms = sm->kinfo ? sm->kinfo->nsms : 0,
                            .sched = WS_NO_SCHED, .nsched = sm->nsched, .nwarps = sm->nwarps,
                            .warps = sm->view, .live_warps = sm->live_warps,
                            .live_ctas = sm->live_ctas, .mem_saturated = sm->saturated,
                            .l1 = { sm->l1occ[0], sm->l1occ[1], sm->l1occ[2] },
                            .reexec_used = sm->rq_n, .reexec_size = sm->rq_cap,
                            .kernel = sm->kinfo };
}

/* The policy's L1D admission of a request about to send a new request
   below (true when the policy has no l1_admit). */
bool core_policy_l1_admit(core_sm *sm, const ws_l1_request *r, uint64_t cycle);
/* Which parked request retries now: an index into sm->rq, or -1 (the
   oldest when the policy has no reexec_pick). */
int core_policy_reexec_pick(core_sm *sm, uint64_t cycle);
void core_warp_finish(core_sm *sm, core_warp *w, uint64_t cycle);

/* scoreboard.c */
void core_sb_clear(core_warp *w);
/* Ready = no source or destination of `ui` pending at `cycle`.  When not
   ready, *wake gets the cycle it frees up (CORE_NEVER: waits on memory). */
bool core_sb_ready(core_warp *w, const core_uinfo *ui, uint64_t cycle, uint64_t *wake);
void core_sb_reserve(core_warp *w, const core_uinfo *ui, uint64_t ready, uint32_t load);
void core_sb_release_load(core_warp *w, uint32_t load, uint64_t ready);
/* The load record a source or destination of `ui` waits for, or CORE_NONE. */
uint32_t core_sb_blocking_load(const core_warp *w, const core_uinfo *ui);

/* fetch.c */
void core_fetch_tick(core_sm *sm, uint64_t cycle);
/* a reply for the instruction cache (l1i.model) */
void core_fetch_reply(core_sm *sm, const mem_req *rep, uint64_t cycle);
/* l1i.miss_latency: set up the local miss path (0 or -1: out of memory),
   and fill the misses whose time has come (each tick) */
int  core_fetch_imiss_init(core_sm *sm);
void core_fetch_imiss_tick(core_sm *sm, uint64_t cycle);
void core_ib_flush(core_sm *sm, core_warp *w);
/* Counters for `n` skipped cycles (core_sm_account_skip). */
void core_fetch_account_skip(core_sm *sm, uint64_t n);
/* The buffered head instruction of `w` has issued: drop it. */
void core_ib_pop(core_sm *sm, core_warp *w);

/* A load, store or atomic of device memory (global, local, generic): what
   fetch_stall_mem waits for and the oracle's device-memory counts count. */
static inline bool core_uinfo_devmem(const core_uinfo *ui)
{
    return ui->kind == CORE_K_MEM && ui->mem != WS_MEM_NONE
        && (ui->space == WS_SPACE_GLOBAL || ui->space == WS_SPACE_LOCAL
            || ui->space == WS_SPACE_GENERIC);
}

/* opcoll.c */
int  core_opc_init(core_sm *sm);
void core_opc_free(core_sm *sm);
void core_opc_reset(core_sm *sm);
/* false when no collector unit of `ui`'s pipe kind is free the cycle after
   `cycle` (*wake: when one is); true for anything but ALU instructions. */
bool core_opc_can_issue(const core_sm *sm, const core_uinfo *ui, uint64_t cycle, uint64_t *wake);
/* Take the collector unit and register-bank reads of `ui` issued by `w`
   at `cycle`; the cycle its result is readable (cycle + latency when off). */
uint64_t core_opc_issue(core_sm *sm, const core_warp *w, const core_uinfo *ui, uint64_t cycle);

/* issue.c */
void core_issue_tick(core_sm *sm, uint64_t cycle);
/* Is an instance of `ui`'s unit (and an operand collector) free? */
bool core_issue_unit_free(core_sm *sm, const core_uinfo *ui, uint64_t cycle, uint64_t *wake);
/* Take them for `ui` issued by `w`; the cycle its result is readable. */
uint64_t core_issue_claim(core_sm *sm, const core_warp *w, const core_uinfo *ui, uint64_t cycle);
/* the energy model's events of an executed instruction (issue.c) */
void core_issue_count_energy(core_sm *sm, const core_uinfo *ui, uint32_t mask);

/* altissue.c: the alternate issue stream (see its header) */
int  core_alt_init(core_sm *sm);
void core_alt_free(core_sm *sm);
void core_alt_reset(core_warp *w);
bool core_alt_ll_pc(const core_sm *sm, uint32_t pc);
bool core_alt_ll_load(const core_sm *sm, uint32_t load);
void core_alt_try_enter(core_sm *sm, core_warp *w, uint32_t load, uint64_t cycle);
uint8_t core_alt_stall(core_sm *sm, core_warp *w, uint64_t cycle, uint64_t *wake);
bool core_alt_issue(core_sm *sm, core_warp *w, uint64_t cycle);
void core_alt_settle(core_sm *sm, core_warp *w);
const core_uinfo *core_alt_head_copy(core_warp *w);
/* true only on a fault */
bool core_alt_copy(core_sm *sm, core_warp *w, uint64_t cycle);
/* The fetch reaches `pc`: true when it is passed (no buffer room, no
   decode: its result ran ahead into its own register). */
bool core_alt_fetch_pass(core_warp *w, uint32_t pc);
void core_alt_in_order(core_sm *sm, core_warp *w, uint32_t pc);
void core_alt_warp_done(core_sm *sm, core_warp *w);
/* The timing facts of the buffered head of `w` (its COPY micro-op when
   the head is a renamed result coming back). */
static inline const core_uinfo *core_head_ui(const core_sm *sm, core_warp *w)
{
    const core_uinfo *c = w->alt ? core_alt_head_copy(w) : NULL;
    return c ? c : &sm->ui[w->ib_pc[w->ib_head]];
}
/* After core_issue_tick: does every live warp wait on a load with an L1
   miss still outstanding (OWL's MemoryBlockCycles)? */
bool core_issue_mem_blocked(const core_sm *sm);

/* ldst.c */
/* Take memory instruction `ui` of warp `w` just executed (`info`).
   Called only when the LSU is free. */
void core_lsu_accept(core_sm *sm, core_warp *w, const emu_step_info *info,
                     uint32_t load, uint64_t cycle);
/* A load record for warp `w` (caller checked core_lsu_can_take_load). */
uint32_t core_load_alloc(core_sm *sm, core_warp *w);
void core_lsu_tick(core_sm *sm, uint64_t cycle);
/* Counters for `n` skipped cycles in which the re-execution queue was
   retried and refused every cycle (core_sm_account_skip). */
void core_lsu_account_skip(core_sm *sm, uint64_t n);
/* Transactions of parked entry `e`'s instruction not yet accepted. */
uint32_t core_lsu_remaining(const core_sm *sm, const core_reexec *e);

/* hum.c: was this cycle a missed hit-under-miss opportunity (after issue)? */
bool core_hum_missed(core_sm *sm);
/* Fetch looks at `w` again (its buffer, pc or state changed). */
static inline void core_fetch_may(core_sm *sm, const core_warp *w)
{
    sm->fetch_quiet = false;
    sm->fetch_may[w->slot / 64] |= 1ull << (w->slot % 64);
}
/* Fetch looks at every warp again (a kernel or CTA starts). */
static inline void core_fetch_may_all(core_sm *sm)
{
    sm->fetch_quiet = false;
    for (uint32_t i = 0; i < sm->nwarps; i += 64)
        sm->fetch_may[i / 64] = sm->nwarps - i >= 64 ? ~0ull : (1ull << (sm->nwarps - i)) - 1;
}
/* Something touched warp `w` (issue, fetch, load return, barrier release,
   the LSU freeing): its stall gets a fresh look next cycle. */
static inline void core_warp_poke(core_sm *sm, core_warp *w)
{
    sm->recheck[w->slot] = 0;
    sm->sched[w->sched].due = 0;
    core_fetch_may(sm, w);
}
/* issue_refresh looked at warp `w` (or found its slot empty). */
void core_hum_note(core_sm *sm, const core_warp *w);
/* The same, inline for the common case: not a candidate before or now. */
static inline void core_hum_look(core_sm *sm, const core_warp *w)
{
    /* a candidate waits for the LSU (lsu_wait): an ALU unit stall is none */
    if ((w->stall == WS_STALL_UNIT && w->lsu_wait)
        || (sm->humc.cand[w->slot / 64] >> (w->slot % 64) & 1))
        core_hum_note(sm, w);
}
void core_lsu_reply(core_sm *sm, const mem_req *rep, uint64_t cycle);
bool core_lsu_can_take_load(const core_sm *sm, const core_warp *w);

#endif /* WS_CORE_INT_H */
