/*
** l1.h -- an SM's first-level cache: tag array (cache.c) + MSHRs (mshr.c)
** + a miss queue toward the memory port.  One type serves the data cache
** (L1D: write-through no-allocate, or write-back write-allocate) and the
** read-only constant and texture caches.
**
** A request that needs an MSHR, a merge slot or a miss-queue slot it
** cannot get is a *reservation fail*: nothing changes, the caller retries
** on a later cycle (this back-pressure is what Mascar measures).  With
** `allocate = miss` a read miss also needs a way of its set to reserve;
** when every way is reserved by outstanding misses that is a reservation
** fail too (counted again in reservation_fails_set).
**
** Evictions are reported with the line's owner (`owner = last`: the last
** warp that touched it; `alloc`: the warp whose miss allocated it): by
** mem_l1_fill when lines are allocated at fill, by mem_l1_access when the
** miss reserves a way (`allocate = miss`).
*/
#ifndef WS_MEM_L1_H
#define WS_MEM_L1_H

#include <stdbool.h>
#include <stdint.h>
#include "mem_port.h"
#include "../common/config.h"
#include "../common/stats.h"

typedef struct mem_l1 mem_l1;

/* outcome of one access */
enum {
    MEM_L1_HIT = 0,   /* data after the hit latency */
    MEM_L1_MISS,      /* new MSHR; `token` comes back through mem_l1_fill */
    MEM_L1_MERGED,    /* joined an outstanding MSHR; same as MISS for the caller */
    MEM_L1_SENT,      /* store/atomic queued toward memory (atomics: token returns) */
    MEM_L1_FAIL       /* reservation fail: retry later */
};

/* token value meaning "nobody waits" (write-back write-allocate stores) */
#define MEM_L1_NO_TOKEN UINT32_MAX

/* what an allocation displaced, for policies (CCWS victim tags) */
typedef struct mem_l1_evict {
    bool     valid;
    uint64_t line;        /* line address */
    uint32_t owner;       /* warp slot that owned it (see `owner` above) */
} mem_l1_evict;

/* `seg_bytes`: size of store/atomic requests sent below (the coalescing
   segment).  `src` is this cache's MEM_SRC_*.  NULL: out of memory. */
mem_l1 *mem_l1_new(const gpu_cache_config *c, uint16_t sm, uint8_t src, uint32_t seg_bytes);
void mem_l1_free(mem_l1 *l);
/* Make every access hit (perfect_l1, OWL spec §7.18): reads, stores and
   atomics are counted as hits and nothing is sent below.  Data stays
   right because the emulator executes at issue; only timing is ideal. */
void mem_l1_set_perfect(mem_l1 *l);
/* Cold cache, empty MSHRs and queue, zeroed statistics. */
void mem_l1_reset(mem_l1 *l);

/* One transaction of `kind` (MEM_READ/WRITE/ATOMIC) at `addr` for warp
   slot `warp`; `token` identifies the waiter for MISS/MERGED/atomics.  A
   valid line evicted by this access (allocate = miss) is reported in *ev
   (ev->valid false otherwise). */
int mem_l1_access(mem_l1 *l, int kind, uint64_t addr, uint32_t warp, uint32_t token,
                  mem_l1_evict *ev);
/* The same for a write-through store or an atomic that moves only `bytes`
   from `addr` (a reduced transaction); bytes = 0: the whole segment, as
   mem_l1_access. */
int mem_l1_access_n(mem_l1 *l, int kind, uint64_t addr, uint32_t bytes, uint32_t warp,
                    uint32_t token, mem_l1_evict *ev);

/* The same with the lanes of the requesting warp behind the transaction
   (a bit per lane), which the hit classification uses when enabled. */
int mem_l1_access_lanes(mem_l1 *l, int kind, uint64_t addr, uint32_t bytes, uint32_t warp,
                        uint32_t token, uint32_t lanes, mem_l1_evict *ev);
/* Classify every read access from now on (l1d_classify; statistics
   cls_*): per line, its owner warp's lanes that touched it since its fill;
   per MSHR, the allocating warp's lanes.  0, or -1 when out of memory.
   Off (the default) it costs one test per access. */
int mem_l1_classify_enable(mem_l1 *l);

/* The caller skipped `n` cycles in which its blocked access would have
   failed again: count them as reservation fails of the last one's kind. */
void mem_l1_repeat_fail(mem_l1 *l, uint64_t n);

/* Would mem_l1_access of `kind` at `addr` be a reservation fail now?  No
   side effects; *set: because every way of the set is reserved. */
bool mem_l1_would_fail(const mem_l1 *l, int kind, uint64_t addr, bool *set);
/* Count `n` reservation fails (`set`: full-set ones) that skipped cycles
   would have produced, as mem_l1_access would have. */
void mem_l1_add_fails(mem_l1 *l, uint64_t n, bool set);

/* Send the miss queue's head through `port` if it accepts; true if sent. */
bool mem_l1_tick(mem_l1 *l, const mem_port *port, uint64_t cycle);

/* A reply for this cache arrived: free its MSHR / deliver the atomic.
   Writes waiting tokens into `tokens` (room for mshr_merge, at least 1)
   and returns their count; a displaced valid line (allocate = fill or
   streaming) is reported in *ev. */
uint32_t mem_l1_fill(mem_l1 *l, const mem_req *rep, uint32_t *tokens, mem_l1_evict *ev);

/* Saturation signal: MSHRs or miss queue within the configured slack of
   full. */
bool mem_l1_saturated(const mem_l1 *l, uint32_t mshr_slack, uint32_t missq_slack);

uint32_t mem_l1_mshr_used(const mem_l1 *l);
/* MSHRs and miss-queue entries there are (the saturation view, ABI 5). */
uint32_t mem_l1_mshr_size(const mem_l1 *l);
/* Is the line of `addr` valid in the cache now (no side effect)? */
bool mem_l1_present(const mem_l1 *l, uint64_t addr);
/* A counter that moves whenever mem_l1_present may answer differently. */
uint64_t mem_l1_presence(const mem_l1 *l);
uint32_t mem_l1_queue_size(const mem_l1 *l);
uint32_t mem_l1_queue_len(const mem_l1 *l);
bool mem_l1_idle(const mem_l1 *l);          /* no MSHR, nothing queued */
const gpu_cache_stats *mem_l1_stats(const mem_l1 *l);
gpu_cache_stats *mem_l1_stats_mut(mem_l1 *l);
uint32_t mem_l1_line_bytes(const mem_l1 *l);
uint32_t mem_l1_hit_latency(const mem_l1 *l);
/* Would this access send a new request below (a read miss with no MSHR
   for its line, a write-through store, an atomic)?  No side effects: the
   question an admission policy is asked before the miss takes an MSHR. */
bool mem_l1_would_send(const mem_l1 *l, int kind, uint64_t addr);

#endif /* WS_MEM_L1_H */
