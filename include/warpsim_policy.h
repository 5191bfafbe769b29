/*
** warpsim_policy.h -- the policy ABI: everything a scheduling policy sees
** and every hook it may implement, in-tree (src/policy/) or in a plug-in
** built outside the tree (`--plugin FILE.so`, see the end of this file).
**
** A policy is one const ops table of one kind: warp scheduler, fetch, CTA
** map, DRAM scheduler or DRAM prefetcher.  It sees the model only through
** the read-only view structs below and acts only through its return
** values; it never includes a core/, mem/ or emu/ header.  Every hook
** except `name` may be NULL (= no-op / default behaviour).
**
** Instances.  A warp scheduler, fetch policy and L1-side hooks: one
** instance per SM (the SM's scheduler units share it; `order` and
** `may_issue` say which unit asks).  CTA map: one per GPU.  DRAM scheduler
** and DRAM prefetcher: one per memory channel.
**
** Lifecycle (every kind):
**   init(params, env)                         once, when the GPU is built
**   kernel_begin(state, kernel)               before a kernel's first cycle
**   ... the hooks of the kind, as the model runs ...
**   kernel_end(state, kernel)                 after its last cycle
**   destroy(state)
** Warp scheduler, per SM and core cycle (while a kernel runs):
**   tick(state, view)                         every cycle, see "skipping"
**   order(state, view, out)                   per scheduler unit
**   may_issue(state, view, slot)              per ready candidate in order
**   on_issue(state, view, slot)               per instruction issued
**   on_event(state, view, event)              as things happen (once per SM)
**   l1_admit / reexec_pick                    from the LSU, see below
**
** Skipping.  The simulator skips core cycles in which nothing can change.
** A policy with `tick` either also implements `on_skip(state, n)` (told
** that `n` cycles passed without a tick, in which no view changed), or the
** SMs it runs on are never skipped.  Events and counters are identical
** with and without skipping (tested).
**
** Warps are named by `slot` (0 .. env->nwarps-1, the SM's warp slot; a
** slot is reused by later warps) and by `uid` (the launch-wide warp id
** cta_id * warps_per_cta + warp_in_cta, which never goes stale).
*/
#ifndef WARPSIM_POLICY_H
#define WARPSIM_POLICY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Bumped on any change of a struct or ops table below. A plug-in built
   against another version is refused when loaded. */
#define WS_POLICY_ABI_VERSION 7

#define WS_NO_WARP   UINT32_MAX
#define WS_NO_PC     UINT32_MAX
#define WS_NO_SCHED  UINT32_MAX

/* ------------------------------------------------------------------ */
/* Parameters a policy declares (name, default, bounds, unit, help)    */
/* ------------------------------------------------------------------ */

typedef struct ws_param_desc {
    const char *name;     /* key, e.g. "warp_limit" */
    int64_t def, min, max;
    const char *unit;     /* "warps", "cycles", ... */
    const char *help;
} ws_param_desc;

#define WS_MAX_PARAMS 16
/* Values of a policy's parameters, in the order of its params[] table;
   always complete (defaults filled in) when a hook sees them. */
typedef struct ws_param_values {
    uint32_t n;
    int64_t v[WS_MAX_PARAMS];
} ws_param_values;

/* What a policy declares it needs (ops->needs, a bit set). The model
   computes these only for policies that ask. */
enum {
    WS_NEED_ORACLE        = 1u << 0,  /* the oracle profile (functional pre-run) */
    WS_NEED_PROGRAM       = 1u << 1,  /* the program view in ws_launch_info */
    WS_NEED_WARP_COUNTERS = 1u << 2,  /* DRAM: per-request warp retired/remaining */
    /* Not a need but a promise (warp schedulers, ABI 6): `order` depends on
       the views and on what on_issue last recorded, changes no state other
       than a cache of a function of the views, and there is no may_issue.  In
       a cycle where no view changed and the last cycle issued nothing, the
       core then repeats the last cycle's outcome without asking. */
    WS_PURE_ORDER         = 1u << 3,
    /* A promise too (fetch policies): `pick` reads no field of a warp's
       view but can_fetch (and slot, its index), so the core fills no other
       (filling every field of every warp each cycle is a measurable part
       of the fetch stage). */
    WS_FETCH_CAN_ONLY     = 1u << 4,
    /* A promise (warp schedulers, with WS_PURE_ORDER): `order` reads of the
       warp views only `valid` and `age` (and slot/sched/uid), never a
       stall or next-instruction field.  With one issue per cycle and no
       on_event/may_issue, the core then looks at the warps whose stall may
       have changed only in that order, until one issues, instead of at
       all of them first. */
    WS_ORDER_AGE_ONLY     = 1u << 5
};

/* ------------------------------------------------------------------ */
/* Environment, kernel and program                                     */
/* ------------------------------------------------------------------ */

/* Where an instance lives; given to init. */
typedef struct ws_policy_env {
    uint32_t sm;           /* SM index (warp/fetch), else 0 */
    uint32_t nsms;
    uint32_t nwarps;       /* warp slots per SM */
    uint32_t nsched;       /* scheduler units per SM */
    uint32_t max_ctas;     /* CTA slots per SM */
    uint32_t channel;      /* memory channel (DRAM kinds), else 0 */
    uint32_t nchannels;
    uint32_t banks;        /* DRAM banks per channel */
    uint32_t queue_size;   /* DRAM scheduler queue entries */
    uint32_t row_lines;    /* DRAM prefetcher: L2 lines per DRAM row (ws_dram_view.row_lines) */
    uint32_t reexec_size;  /* LSU re-execution queue entries (0 = none) */
} ws_policy_env;

/* class of an instruction for scheduling */
enum { WS_NEXT_NONE = 0, WS_NEXT_COMPUTE, WS_NEXT_MEM, WS_NEXT_BARRIER, WS_NEXT_CTRL };
/* memory space of a memory instruction */
enum {
    WS_SPACE_NONE = 0, WS_SPACE_GLOBAL, WS_SPACE_SHARED, WS_SPACE_LOCAL, WS_SPACE_CONST,
    WS_SPACE_PARAM, WS_SPACE_TEX, WS_SPACE_GENERIC
};
/* what a memory instruction does */
enum { WS_MEM_NONE = 0, WS_MEM_LOAD, WS_MEM_STORE, WS_MEM_ATOMIC };

#define WS_PROG_MAX_SRC 12
#define WS_PROG_MAX_DST 4
#define WS_PROG_PRED_BIT 0x40000000   /* register id of a predicate */

/* One instruction of the program (a uop; a pc is an index). Registers
   are the function's frame slots; WS_PROG_PRED_BIT marks predicates. */
typedef struct ws_prog_uop {
    const char *opname;   /* PTX opcode, e.g. "ld" */
    uint8_t  cls;         /* WS_NEXT_* */
    uint8_t  space;       /* WS_SPACE_* (memory instructions) */
    uint8_t  mem;         /* WS_MEM_* */
    bool     branch;      /* bra / brx: `target` and `rpc` are meaningful */
    bool     guarded;     /* has a guard predicate (a conditional branch) */
    uint8_t  nsrc, ndst;
    int32_t  src[WS_PROG_MAX_SRC];
    int32_t  dst[WS_PROG_MAX_DST];
    uint32_t target;      /* branch target pc, WS_NO_PC if none */
    uint32_t rpc;         /* reconvergence pc (immediate post-dominator) */
    uint32_t func;        /* index of the function it belongs to */
    uint32_t line;        /* PTX source line */
} ws_prog_uop;

typedef struct ws_program_view {
    uint32_t nuops;
    const ws_prog_uop *uops;   /* [nuops], the whole module */
    uint32_t entry_pc;         /* the kernel's first uop */
    uint32_t end_pc;           /* its FUNC_END pseudo-op */
} ws_program_view;

/* The oracle profile: a functional pre-run's exact per-warp counts. Warp
   w = uid. Barrier intervals of warp w: ivl_*[ivl_start[w] .. ivl_start[w+1]). */
typedef struct ws_oracle_view {
    uint32_t nwarps;
    const uint64_t *total;     /* [nwarps] warp instructions */
    const uint64_t *mem;       /* [nwarps] memory instructions */
    const uint32_t *ivl_start; /* [nwarps + 1] */
    const uint64_t *ivl_insns;
    const uint64_t *ivl_mem;
    /* of ivl_mem, loads, stores and atomics of device memory (global,
       local, generic space): the fetch-dram spec's MEM_BAR count */
    const uint64_t *ivl_dev;
} ws_oracle_view;

typedef struct ws_launch_info {
    const char *name;
    uint64_t seq;              /* launches run on this GPU before this one */
    uint32_t grid[3], block[3];
    uint32_t nctas;            /* CTAs in the grid */
    uint32_t warps_per_cta;
    uint32_t ctas_per_sm;      /* occupancy: CTAs that fit on one SM */
    uint32_t nsms;
    uint32_t regs_per_thread;
    uint32_t shared_bytes;     /* per CTA */
    const ws_program_view *prog;   /* when WS_NEED_PROGRAM, else NULL */
    const ws_oracle_view *oracle;  /* when WS_NEED_ORACLE, else NULL */
    /* the launch hint of HALS (specs/haws.md 3.2.2, Table 6.1): 0 = none,
       1 = many lines shared among blocks, 2 = boundary lines, 3 = some
       common data; from hals_hint / WARPSIM_LAUNCH_HINT, 0 when nothing
       names the kernel */
    uint32_t hint;
} ws_launch_info;

/* ------------------------------------------------------------------ */
/* Warp scheduler                                                      */
/* ------------------------------------------------------------------ */

/* why a warp cannot issue this cycle (WS_STALL_NONE = it can) */
enum {
    WS_STALL_NONE = 0,
    WS_STALL_EMPTY,      /* no warp in this slot, or finished */
    WS_STALL_IBUFFER,    /* next instruction not fetched/decoded yet */
    WS_STALL_SCOREBOARD, /* a source or destination register is pending */
    WS_STALL_UNIT,       /* the execution unit it needs is busy */
    WS_STALL_BARRIER,    /* waiting at a CTA barrier */
    WS_STALL_MEMBAR      /* waiting for its memory operations to drain */
};

typedef struct ws_warp_view {
    bool     valid;        /* a live warp occupies this slot */
    uint8_t  next_class;   /* WS_NEXT_* of the next instruction */
    uint8_t  stall;        /* WS_STALL_*: NONE means ready to issue now */
    bool     next_is_load; /* next instruction reads memory into registers
                              (ld, ldu, atom; any space) */
    uint8_t  next_space;   /* WS_SPACE_* of the next instruction */
    uint8_t  next_kind;    /* WS_MEM_* of the next instruction */
    bool     waits_on_load;/* its next instruction waits (scoreboard) for a load */
    uint32_t wait_load_pc; /* pc of that load, WS_NO_PC if none */
    uint32_t slot;         /* warp slot in the SM */
    uint64_t uid;          /* launch-wide warp id: never stale */
    uint32_t sched;        /* scheduler unit the warp belongs to */
    uint64_t age;          /* launch order on this SM: smaller = older */
    uint32_t cta_slot;     /* CTA slot on the SM */
    uint32_t cta_id;       /* linear CTA id in the grid */
    uint32_t warp_in_cta;
    uint64_t issued;       /* instructions issued so far */
    uint32_t pending_loads;/* loads issued and not yet returned */
    uint32_t reexec_entries; /* its requests parked in the LSU re-execution queue */
    uint64_t last_issue;   /* cycle of the last issue, 0 if none */
    uint32_t next_pc;      /* pc of the next instruction, WS_NO_PC if unknown */
    /* the SM's fetch order of that buffered next instruction (smaller =
       fetched earlier; UINT64_MAX when none is buffered): with a common
       issue queue (fetch_queue), its place in the queue (ABI 6) */
    uint64_t next_seq;
} ws_warp_view;

/* One L1's MSHRs and miss queue as a scheduler sees them (ABI 5). */
enum { WS_L1D = 0, WS_L1C, WS_L1T, WS_NL1 };
typedef struct ws_l1_occupancy {
    uint32_t mshr_used, mshr_size;
    uint32_t missq_used, missq_size;
} ws_l1_occupancy;

/* One SM as a warp scheduler sees it. For order/may_issue/on_issue,
   `sched` is the asking unit and `cand` its warps (slots, ascending);
   for tick and on_event, sched = WS_NO_SCHED and cand = NULL. */
typedef struct ws_sched_view {
    uint64_t cycle;
    uint32_t sm, nsms;
    uint32_t sched, nsched;
    uint32_t nwarps;            /* slots */
    const ws_warp_view *warps;  /* [nwarps], indexed by slot */
    uint32_t ncand;
    const uint32_t *cand;
    uint32_t live_warps, live_ctas;
    bool     mem_saturated;     /* L1D MSHRs / miss queue nearly full (l1d_sat_*) */
    /* Occupancy of the SM's L1D, L1C and L1T (WS_L1_*; ABI 5), for a
       policy that applies its own "almost full" test (Mascar). */
    ws_l1_occupancy l1[WS_NL1];
    uint32_t reexec_used, reexec_size;
    const ws_launch_info *kernel;
} ws_sched_view;

/* Events delivered to on_event. Fields not named are 0 / WS_NO_*. */
enum {
    WS_EV_WARP_START = 1,  /* warp, uid, cta, cta_id                         */
    WS_EV_WARP_DONE,       /* warp, uid, cta, cta_id                         */
    WS_EV_CTA_START,       /* cta, cta_id                                    */
    WS_EV_CTA_DONE,        /* cta, cta_id                                    */
    WS_EV_L1_HIT,          /* warp, uid, pc, space, mem, addr = line address */
    WS_EV_L1_MISS,         /* warp, uid, pc, space, mem, addr                */
    WS_EV_L1_EVICT,        /* warp/uid = owner of the evicted line (warp =
                              WS_NO_WARP when it left the SM), addr = line  */
    WS_EV_L1_STORE,        /* warp, uid, pc, space, addr: a store reached L1 */
    WS_EV_LOAD_RETURN,     /* warp, uid, pc: all data of one load is back    */
    WS_EV_MEM_SATURATED,   /* value: 1 = saturated, 0 = not any more        */
    WS_EV_LSU_STALL,       /* warp, uid, pc, addr: its access could not
                              proceed (once per blocked episode)             */
    WS_EV_LL_STALL,        /* warp, uid, pc = the waiting instruction,
                              value = pc of the load it waits for            */
    WS_EV_REEXEC_PARK,     /* warp, uid, pc: parked in the re-execution queue */
    WS_EV_KERNEL_BEGIN,    /* (after kernel_begin)                          */
    WS_EV_KERNEL_END
};

typedef struct ws_sched_event {
    int      kind;         /* WS_EV_* */
    uint32_t warp;         /* slot, WS_NO_WARP where not meaningful */
    uint64_t uid;
    uint32_t cta;          /* CTA slot */
    uint32_t cta_id;
    uint32_t pc;           /* WS_NO_PC where not meaningful */
    uint8_t  space;        /* WS_SPACE_* */
    uint8_t  mem;          /* WS_MEM_* */
    uint64_t addr;
    int64_t  value;
} ws_sched_event;

/* A memory access about to miss in L1D (allocate an MSHR), for l1_admit. */
typedef struct ws_l1_request {
    uint32_t warp;
    uint64_t uid;
    uint32_t pc;
    uint8_t  mem;          /* WS_MEM_* */
    uint64_t addr;         /* line address */
    bool     from_reexec;  /* a retry from the re-execution queue */
} ws_l1_request;

/* The LSU re-execution queue, for reexec_pick. */
typedef struct ws_reexec_entry {
    uint32_t warp;
    uint64_t uid;
    uint32_t pc;
    uint32_t remaining;    /* transactions not yet accepted */
    uint64_t parked;       /* cycle it was parked */
    uint32_t retries;
} ws_reexec_entry;

typedef struct ws_reexec_view {
    uint32_t n;            /* entries, oldest first */
    const ws_reexec_entry *e;
} ws_reexec_view;

/* One instruction of an alternate-issue chain: its pc, the register whose
   result it writes to a hidden register instead (`reg`, WS_PROG_PRED_BIT
   for a predicate; -1 = not renamed) and that hidden register (0 ..
   WS_ALT_HIDDEN - 1), and the entry that follows (next[0]; after a
   conditional branch next[0] where it is taken, next[1] where not; -1 =
   the chain ends).  Sources are read through the renamings made earlier
   in the same episode. */
#define WS_ALT_HIDDEN 8   /* hidden registers (and predicates) per warp */
#define WS_ALT_MAX    8   /* result-collection entries per warp */
typedef struct ws_alt_entry {
    uint32_t pc;
    int32_t  reg;
    uint8_t  hidden;
    int32_t  next[2];
} ws_alt_entry;

/* when an alternate instruction may issue: only in a cycle in which the
   scheduler unit has no warp ready in program order, or in the policy's
   order like any other warp */
enum { WS_ALT_AFTER_INORDER = 0, WS_ALT_EQUAL };

typedef struct ws_alt_chain {
    uint32_t n;
    const ws_alt_entry *e;   /* the chain starts at e[0] */
    uint8_t  priority;       /* WS_ALT_* */
    uint8_t  max_issue;      /* per episode, <= WS_ALT_MAX (0 = WS_ALT_MAX) */
    bool     diverged_ok;    /* may start while the warp's paths are split */
} ws_alt_chain;

typedef struct ws_warp_sched_ops {
    const char *name;                  /* registry key, e.g. "gto" */
    const char *summary;               /* one line for `warpsim policies` */
    const ws_param_desc *params;       /* NULL-name-terminated, or NULL */
    uint32_t needs;                    /* WS_NEED_* */
    void *(*init)(const ws_param_values *p, const ws_policy_env *env);
    void (*destroy)(void *st);
    void (*kernel_begin)(void *st, const ws_launch_info *k);
    void (*kernel_end)(void *st, const ws_launch_info *k);
    /* Scheduler unit of a warp starting in `slot` (NULL: slot % nsched). */
    uint32_t (*assign_sched)(void *st, const ws_sched_view *v, uint32_t slot);
    void (*tick)(void *st, const ws_sched_view *v);
    void (*on_skip)(void *st, uint64_t cycles);
    /* Write slots from v->cand in priority order into `out` (room for
       v->ncand); return how many. Warps left out are not considered this
       cycle. NULL = v->cand's order. */
    uint32_t (*order)(void *st, const ws_sched_view *v, uint32_t *out);
    /* May warp `slot` issue its next instruction now?  Called only for
       ready warps; false is a veto (counted as a "memory veto" stall when
       the next instruction is a memory op). NULL = always. */
    bool (*may_issue)(void *st, const ws_sched_view *v, uint32_t slot);
    void (*on_issue)(void *st, const ws_sched_view *v, uint32_t slot);
    void (*on_event)(void *st, const ws_sched_view *v, const ws_sched_event *e);
    /* L1D admission: may this miss take an MSHR now? false = NACK: the
       LSU parks the instruction in its re-execution queue when it has one,
       else retries it next cycle. NULL = always admit. */
    bool (*l1_admit)(void *st, const ws_sched_view *v, const ws_l1_request *r);
    /* Which parked entry retries this cycle: index into q->e, or -1 for
       none. NULL = the oldest. */
    int (*reexec_pick)(void *st, const ws_sched_view *v, const ws_reexec_view *q);
    /* Counters of the policy's own for the statistics: their names
       (NULL-terminated, at most WS_MAX_COUNTERS, each shorter than
       WS_COUNTER_NAME) and `counters`, which writes the values counted
       since kernel_begin into out[] (one per name).  The model reads them
       at each kernel's end, sums them over SMs and reports them per launch
       and in total (the "policy" object of the JSON report), and also at
       every time-series sample, mid-kernel: `counters` must only read.
       NULL = none. */
    const char *const *counter_names;
    void (*counters)(void *st, uint64_t *out);
    /* The alternate issue stream (ABI 7; HAWS, the core's altissue.c):
       warp `slot`'s next instruction, at `stall_pc`, waits on a
       long-latency load (a device-memory or texture load).  Fill *out
       with the instructions it may issue out of program order meanwhile
       and return true; false = none.  Asked once per stall instance (again
       only after the stalled instruction has issued); `out->e` must stay
       valid until kernel_end.  NULL = never. */
    bool (*alt_chain)(void *st, const ws_sched_view *v, uint32_t slot, uint32_t stall_pc,
                      struct ws_alt_chain *out);
} ws_warp_sched_ops;

#define WS_MAX_COUNTERS 8
#define WS_COUNTER_NAME 32

/* ------------------------------------------------------------------ */
/* Fetch policy: which warp fetches into its instruction buffer        */
/* ------------------------------------------------------------------ */

typedef struct ws_fetch_warp_view {
    bool     can_fetch;    /* it may fetch now; a warp that may not is shown
                              with this field alone current */
    bool     at_barrier;   /* waiting at a CTA barrier */
    uint32_t slot;
    uint64_t uid;
    uint64_t age;
    uint32_t ibuf_count;   /* instructions fetched and not yet issued */
    uint64_t fetched;      /* instructions fetched so far */
    uint64_t issued;       /* instructions issued so far */
    uint64_t last_fetch;   /* cycle of its last fetch */
    uint32_t pending_loads;
    uint32_t pending_stores;   /* store instructions not yet handed to L1 */
    /* from the oracle profile (-1 when the policy did not declare
       WS_NEED_ORACLE or the profile does not cover the warp) */
    int64_t  oracle_remaining;     /* instructions left */
    int64_t  oracle_to_barrier;    /* instructions left before the next barrier
                                      (or the end) */
    int64_t  oracle_mem_to_barrier;/* memory instructions among them */
} ws_fetch_warp_view;

typedef struct ws_fetch_view {
    uint64_t cycle;
    uint32_t sm;
    uint32_t nwarps;
    const ws_fetch_warp_view *warps;
    const ws_launch_info *kernel;
} ws_fetch_view;

typedef struct ws_fetch_ops {
    const char *name;
    const char *summary;
    const ws_param_desc *params;
    uint32_t needs;
    void *(*init)(const ws_param_values *p, const ws_policy_env *env);
    void (*destroy)(void *st);
    void (*kernel_begin)(void *st, const ws_launch_info *k);
    void (*kernel_end)(void *st, const ws_launch_info *k);
    /* Return the slot of the warp to fetch for, or -1 for none. Called
       up to `fetch width` times per cycle; a warp picked once this cycle
       is marked can_fetch = false before the next call. */
    int (*pick)(void *st, const ws_fetch_view *v);
} ws_fetch_ops;

/* ------------------------------------------------------------------ */
/* CTA placement                                                       */
/* ------------------------------------------------------------------ */

typedef struct ws_sm_view {
    uint32_t sm;
    bool     fits;         /* one more CTA of this kernel fits now */
    uint32_t ctas;         /* CTAs resident */
    uint32_t warps;        /* warps resident */
} ws_sm_view;

typedef struct ws_cta_map_view {
    uint64_t cycle;
    uint32_t nctas;        /* CTAs in the grid */
    uint32_t next_cta;     /* the lowest CTA id not yet placed */
    uint32_t placed;       /* CTAs placed so far */
    const bool *assigned;  /* [nctas]: placed already */
    uint32_t nsms;
    const ws_sm_view *sms;
    const ws_launch_info *kernel;
} ws_cta_map_view;

typedef struct ws_cta_choice {
    uint32_t cta;          /* an unassigned CTA id */
    uint32_t sm;           /* an SM with fits = true */
} ws_cta_choice;

typedef struct ws_cta_map_ops {
    const char *name;
    const char *summary;
    const ws_param_desc *params;
    uint32_t needs;
    void *(*init)(const ws_param_values *p, const ws_policy_env *env);
    void (*destroy)(void *st);
    void (*kernel_begin)(void *st, const ws_launch_info *k);
    void (*kernel_end)(void *st, const ws_launch_info *k);
    /* Choose the next CTA and its SM; false = place nothing this cycle.
       Called again in the same cycle until it returns false. */
    bool (*place)(void *st, const ws_cta_map_view *v, ws_cta_choice *out);
    void (*on_cta_done)(void *st, uint32_t cta, uint32_t sm);
} ws_cta_map_ops;

/* ------------------------------------------------------------------ */
/* DRAM: one channel's banks, request order, prefetching               */
/* ------------------------------------------------------------------ */

typedef struct ws_dram_bank_view {
    bool     open;           /* a row is open */
    uint32_t row;            /* the open row */
    uint32_t demand;         /* queued demand requests to this bank */
    uint32_t demand_open_row;/* of them, to the open row */
    uint64_t last_activate;  /* DRAM cycle of the last activate */
} ws_dram_bank_view;

/* One queued request as the DRAM scheduler sees it. */
typedef struct ws_dram_req_view {
    uint64_t arrival;        /* DRAM cycle it entered the queue (smaller = older) */
    uint64_t seq;            /* global arrival order (ties) */
    uint32_t bank, row;
    bool     row_hit;        /* its row is open in its bank */
    bool     ready;          /* the command it needs next can issue this cycle */
    bool     is_write;
    uint32_t sm, warp;       /* requesting SM and warp slot */
    uint64_t warp_uid;       /* launch-wide warp id */
    int64_t  warp_retired;   /* instructions that warp has retired so far, -1 unknown */
    int64_t  warp_remaining; /* oracle profile: instructions it has left, -1 unknown */
} ws_dram_req_view;

typedef struct ws_dram_view {
    uint64_t cycle;          /* DRAM cycle */
    uint32_t channel;
    uint32_t nreqs;
    const ws_dram_req_view *reqs;   /* in arrival order */
    uint32_t nbanks;
    const ws_dram_bank_view *banks;
    uint32_t queue_used, queue_size;
    /* queue_used averaged over DRAM cycles, x64: an exponential moving
       average with weight 1/64 per cycle, avg += (used*64 - avg) >> 6, as
       the shift-register average of the OWL spec Sec. 2.5/7.7 (from 0) */
    uint32_t queue_avg_x64;
    uint32_t row_lines;      /* cache lines per row (columns a prefetch can name) */
} ws_dram_view;

typedef struct ws_dram_sched_ops {
    const char *name;
    const char *summary;
    const ws_param_desc *params;
    uint32_t needs;
    void *(*init)(const ws_param_values *p, const ws_policy_env *env);
    void (*destroy)(void *st);
    void (*kernel_begin)(void *st, const ws_launch_info *k);
    void (*kernel_end)(void *st, const ws_launch_info *k);
    /* Index into v->reqs of the request whose next command to issue now,
       among those with `ready` set, or -1 for none. */
    int (*pick)(void *st, const ws_dram_view *v);
} ws_dram_sched_ops;

/* DRAM command events to the prefetcher */
enum { WS_DRAM_EV_ACTIVATE = 1, WS_DRAM_EV_PRECHARGE, WS_DRAM_EV_READ, WS_DRAM_EV_WRITE };
typedef struct ws_dram_event {
    int      kind;
    uint32_t bank, row;
    uint32_t line;           /* line index within the row (READ/WRITE) */
    bool     prefetch;       /* a read the prefetcher asked for */
} ws_dram_event;

typedef struct ws_dram_prefetch_ops {
    const char *name;
    const char *summary;
    const ws_param_desc *params;
    uint32_t needs;
    void *(*init)(const ws_param_values *p, const ws_policy_env *env);
    void (*destroy)(void *st);
    void (*kernel_begin)(void *st, const ws_launch_info *k);
    void (*kernel_end)(void *st, const ws_launch_info *k);
    void (*on_event)(void *st, const ws_dram_view *v, const ws_dram_event *e);
    /* Bank `bank` has its row open and no demand request to it, and the
       channel has no ready demand command this cycle: the line index
       within the open row to read into L2, or -1 for none. */
    int (*prefetch)(void *st, const ws_dram_view *v, uint32_t bank);
    /* Bank `bank` has its row open and a demand to another row wants to
       precharge it: true keeps the row open (the prefetcher has lines of
       it still to read), false lets the precharge go.  Asked each cycle the
       precharge could issue, and before the bank commits to a request to
       another row; not asked once prefetch() declined this activation. */
    bool (*hold)(void *st, const ws_dram_view *v, uint32_t bank);
} ws_dram_prefetch_ops;

/* For DRAM policies that are a total order on requests: the index of the
   ready request that comes first under `before`, or -1 when none is ready. */
static inline int ws_dram_pick_first(const ws_dram_view *v,
                                     bool (*before)(const ws_dram_req_view *,
                                                    const ws_dram_req_view *))
{
    int best = -1;
    for (uint32_t i = 0; i < v->nreqs; i++)
        if (v->reqs[i].ready && (best < 0 || before(&v->reqs[i], &v->reqs[best])))
            best = (int)i;
    return best;
}

/* ------------------------------------------------------------------ */
/* Plug-ins                                                            */
/* ------------------------------------------------------------------ */

/* A plug-in (`--plugin FILE.so`) exports one function named
   `warpsim_policy_plugin` (WS_PLUGIN_ENTRY) returning its table.  Its
   policies join the built-in ones under their own names (a name that is
   already taken is refused); lists are NULL-terminated or NULL. */
typedef struct ws_plugin {
    uint32_t abi_version;              /* WS_POLICY_ABI_VERSION it was built with */
    const char *name;                  /* for messages */
    const ws_warp_sched_ops *const *warp;
    const ws_fetch_ops *const *fetch;
    const ws_cta_map_ops *const *cta_map;
    const ws_dram_sched_ops *const *dram;
    const ws_dram_prefetch_ops *const *dram_prefetch;
} ws_plugin;

#define WS_PLUGIN_ENTRY "warpsim_policy_plugin"
typedef const ws_plugin *(*ws_plugin_entry_fn)(void);

#endif /* WARPSIM_POLICY_H */
