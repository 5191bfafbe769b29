/*
** policy.h -- the interfaces every scheduling policy plugs into.
**
** A policy is one file exporting one const ops table (policy/<kind>_<name>.c)
** and listed once in policy/registry.c.  It sees the model only through the
** read-only view structs below and acts only through its return values; it
** never includes a core/, mem/ or emu/ header.  Every hook except `name`
** may be NULL (= no-op / default behaviour).
**
** Lifecycle of a warp-scheduler instance (one per scheduler unit of an SM):
**   init(params, nwarps) -> state
**   every core cycle:  tick(state, cycle)            (optional)
**                      order(state, view, out)       -> priority order
**                      may_issue(state, view, w)     for each candidate
**                      on_issue(state, view, w, ...) for each warp issued
**   as things happen:  on_event(state, view, event)  (L1 eviction, load
**                      return, warp/CTA start and finish, saturation, ...)
**   destroy(state)
** The core walks `order` and issues the first warps that are ready and not
** vetoed, up to the scheduler's issue width.
*/
#ifndef WS_POLICY_H
#define WS_POLICY_H

#include <stdbool.h>
#include <stdint.h>
#include <stddef.h>
#include <stdio.h>

/* ------------------------------------------------------------------ */
/* Parameters a policy declares (name, default, bounds, help)          */
/* ------------------------------------------------------------------ */

typedef struct ws_param_desc {
    const char *name;     /* key, e.g. "active_warps" */
    int64_t def, min, max;
    const char *unit;     /* "warps", "cycles", ... */
    const char *help;
} ws_param_desc;

/* Values of a policy's parameters, in the order of its params[] table. */
typedef struct ws_param_values {
    uint32_t n;
    int64_t v[16];
} ws_param_values;

/* ------------------------------------------------------------------ */
/* What a warp scheduler sees                                          */
/* ------------------------------------------------------------------ */

/* class of a warp's next instruction */
enum { WS_NEXT_NONE = 0, WS_NEXT_COMPUTE, WS_NEXT_MEM, WS_NEXT_BARRIER, WS_NEXT_CTRL };

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
    bool     next_is_load; /* next instruction reads memory (ld/atom) */
    uint32_t slot;         /* warp slot in the SM (0 .. max warps - 1) */
    uint64_t age;          /* launch order on this SM: smaller = older */
    uint32_t cta_slot;     /* CTA slot on the SM */
    uint32_t cta_id;       /* linear CTA id in the grid */
    uint32_t warp_in_cta;
    uint64_t issued;       /* instructions issued so far */
    uint32_t pending_loads;/* loads issued and not yet returned */
    uint64_t last_issue;   /* cycle of the last issue, 0 if none */
    uint32_t next_pc;      /* uop index of the next instruction (hint tables) */
} ws_warp_view;

/* The warps of one scheduler unit, in slot order. */
typedef struct ws_sched_view {
    uint64_t cycle;
    uint32_t sm;           /* SM index */
    uint32_t sched;        /* scheduler index within the SM */
    uint32_t nwarps;
    const ws_warp_view *warps;
    bool     mem_saturated;/* L1 reports MSHR / miss queue nearly full */
} ws_sched_view;

/* Events delivered to on_event. */
enum {
    WS_EV_WARP_START = 1,  /* warp: slot                                   */
    WS_EV_WARP_DONE,       /* warp: slot                                   */
    WS_EV_CTA_START,       /* cta: CTA slot, id                            */
    WS_EV_CTA_DONE,
    WS_EV_L1_HIT,          /* warp, addr (line address)                    */
    WS_EV_L1_MISS,         /* warp, addr                                   */
    WS_EV_L1_EVICT,        /* warp = owner of the evicted line, addr = tag */
    WS_EV_LOAD_RETURN,     /* warp: all data of one load instruction back  */
    WS_EV_MEM_SATURATED,   /* value: 1 = saturated, 0 = not any more       */
    WS_EV_LSU_STALL        /* warp whose memory instruction could not proceed */
};

typedef struct ws_sched_event {
    int      kind;         /* WS_EV_* */
    uint32_t warp;         /* warp slot in the SM, where meaningful */
    uint32_t cta;          /* CTA slot, where meaningful */
    uint64_t addr;
    int64_t  value;
} ws_sched_event;

typedef struct ws_warp_sched_ops {
    const char *name;                  /* registry key, e.g. "gto" */
    const char *summary;               /* one line for --list-policies */
    const ws_param_desc *params;       /* NULL-name-terminated, or NULL */
    void *(*init)(const ws_param_values *p, uint32_t nwarps);
    void (*destroy)(void *st);
    void (*tick)(void *st, const ws_sched_view *v);
    /* Write indices into v->warps (not slots) in priority order into
       `out` (room for v->nwarps); return how many. Warps left out are
       not considered this cycle. NULL = slot order. */
    uint32_t (*order)(void *st, const ws_sched_view *v, uint32_t *out);
    /* May warp index `w` issue its next instruction now?  Called only for
       ready warps; false is a veto (counted as a "memory veto" stall when
       the next instruction is a memory op). NULL = always. */
    bool (*may_issue)(void *st, const ws_sched_view *v, uint32_t w);
    void (*on_issue)(void *st, const ws_sched_view *v, uint32_t w);
    void (*on_event)(void *st, const ws_sched_view *v, const ws_sched_event *e);
} ws_warp_sched_ops;

/* ------------------------------------------------------------------ */
/* Fetch policy: which warp fetches into its instruction buffer        */
/* ------------------------------------------------------------------ */

typedef struct ws_fetch_warp_view {
    bool     can_fetch;    /* live and its instruction buffer has room */
    uint32_t slot;
    uint64_t age;
    uint32_t ibuf_count;   /* instructions fetched and not yet issued */
    uint64_t fetched;      /* instructions fetched so far */
    uint64_t issued;       /* instructions issued so far */
    uint64_t last_fetch;   /* cycle of its last fetch */
    int64_t  oracle_remaining; /* from the oracle profile, -1 if none */
} ws_fetch_warp_view;

typedef struct ws_fetch_view {
    uint64_t cycle;
    uint32_t sm;
    uint32_t nwarps;
    const ws_fetch_warp_view *warps;
} ws_fetch_view;

typedef struct ws_fetch_ops {
    const char *name;
    const char *summary;
    const ws_param_desc *params;
    void *(*init)(const ws_param_values *p, uint32_t nwarps);
    void (*destroy)(void *st);
    /* Return the index of the warp to fetch for, or -1 for none. Called
       up to `fetch width` times per cycle; a warp picked once this cycle
       is marked can_fetch = false before the next call. */
    int (*pick)(void *st, const ws_fetch_view *v);
} ws_fetch_ops;

/* ------------------------------------------------------------------ */
/* CTA -> SM mapping                                                   */
/* ------------------------------------------------------------------ */

typedef struct ws_sm_view {
    uint32_t sm;
    bool     fits;         /* one more CTA of this kernel fits now */
    uint32_t ctas;         /* CTAs resident */
    uint32_t warps;        /* warps resident */
} ws_sm_view;

typedef struct ws_cta_map_view {
    uint64_t cycle;
    uint32_t cta_id;       /* linear id of the CTA to place */
    uint32_t nctas;        /* CTAs in the grid */
    uint32_t nsms;
    const ws_sm_view *sms;
} ws_cta_map_view;

typedef struct ws_cta_map_ops {
    const char *name;
    const char *summary;
    const ws_param_desc *params;
    void *(*init)(const ws_param_values *p, uint32_t nsms);
    void (*destroy)(void *st);
    /* SM index for the CTA, or -1 to wait (no SM chosen this cycle). */
    int (*select_sm)(void *st, const ws_cta_map_view *v);
} ws_cta_map_ops;

/* ------------------------------------------------------------------ */
/* DRAM request scheduling (one instance per memory controller)        */
/* ------------------------------------------------------------------ */

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
} ws_dram_view;

typedef struct ws_dram_sched_ops {
    const char *name;
    const char *summary;
    const ws_param_desc *params;
    void *(*init)(const ws_param_values *p, uint32_t queue_size);
    void (*destroy)(void *st);
    /* Index into v->reqs of the request whose next command to issue now,
       among those with `ready` set, or -1 for none. */
    int (*pick)(void *st, const ws_dram_view *v);
} ws_dram_sched_ops;

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
/* Registry (policy/registry.c)                                        */
/* ------------------------------------------------------------------ */

const ws_warp_sched_ops *ws_find_warp_sched(const char *name);
const ws_fetch_ops *ws_find_fetch(const char *name);
const ws_cta_map_ops *ws_find_cta_map(const char *name);
const ws_dram_sched_ops *ws_find_dram_sched(const char *name);
/* NULL-terminated lists, for help texts and the duplicate-name test */
extern const ws_warp_sched_ops *const ws_warp_scheds[];
extern const ws_fetch_ops *const ws_fetches[];
extern const ws_cta_map_ops *const ws_cta_maps[];
extern const ws_dram_sched_ops *const ws_dram_scheds[];

/* Fill `out` from "name:k=v,k=v" style overrides already split into
   key/value strings, checking bounds; on error write a message naming the
   policy, key and value into err and return -1. */
int ws_params_resolve(const char *policy, const ws_param_desc *params,
                      uint32_t nkv, const char *const *keys, const char *const *vals,
                      ws_param_values *out, char *err, size_t errlen);

/* ---- appended by the policy implementer -------------------------- */

/* Like ws_params_resolve, but from the text form "k=v,k=v" (spaces around
   keys and values ignored; "" or NULL = all defaults). */
int ws_params_parse(const char *policy, const ws_param_desc *params, const char *text,
                    ws_param_values *out, char *err, size_t errlen);
/* Every policy of every kind with its parameters (name, default, bounds,
   unit, help), for `--list-policies`. */
void ws_policies_print(FILE *out);
/* The registered names of one kind, comma-separated, into buf (for
   "unknown policy" messages). */
enum { WS_POLICY_WARP_SCHED = 0, WS_POLICY_FETCH, WS_POLICY_CTA_MAP };
void ws_policy_names(int kind, char *buf, size_t len);
/* appended by the memory-system stage: DRAM schedulers (dram_scheduler) */
enum { WS_POLICY_DRAM_SCHED = WS_POLICY_CTA_MAP + 1 };

/* ------------------------------------------------------------------ */
/* Helper for policy implementations (the policy files only)         */
/* ------------------------------------------------------------------ */

/* Sort `perm` (a permutation of 0..n-1 kept by the caller from cycle to
   cycle) so that live warps come first, oldest (smallest age) first, ties
   by index; return how many are live.  Insertion sort on the previous
   cycle's order: O(n) while ages do not change, which is almost always. */
static inline uint32_t ws_order_by_age(const ws_warp_view *w, uint32_t *perm, uint32_t n)
{
    uint32_t live = 0;
    for (uint32_t i = 1; i < n; i++) {
        uint32_t x = perm[i], j = i;
        while (j > 0) {
            uint32_t y = perm[j - 1];
            bool after = w[y].valid != w[x].valid ? !w[y].valid
                       : w[y].age != w[x].age     ? w[y].age > w[x].age
                                                  : y > x;
            if (!after)
                break;
            perm[j] = y;
            j--;
        }
        perm[j] = x;
    }
    while (live < n && w[perm[live]].valid)
        live++;
    return live;
}

#endif /* WS_POLICY_H */
