/*
** l2.h -- one L2 slice (the cache of a memory sub-partition), on the L2
** clock: tag array (cache.c), MSHRs with a merge limit (mshr.c), an input
** queue from the interconnect, a queue toward the DRAM controller, a queue
** of fills back from it, and a reply pipeline toward the interconnect.
**
**   icnt -> [input, l2_queue] -> tags/MSHRs -> [to DRAM, l2_queue] -> DRAM
**   DRAM -> [fills, l2_queue] -> tags/MSHRs -> [reply pipe] -> icnt
**
** A request whose MSHR, merge slot or DRAM-queue slot is not available
** stays at the head of the input queue (a reservation fail, counted per
** cycle); the input queue then fills and the slice refuses the
** interconnect (mem_l2_can_accept false): the back-pressure chain.
** Write-back with allocation: a store that misses takes the line dirty
** without reading DRAM (tags only; values live in the emulator), dirty
** victims go to DRAM as writes.  Every reply, hit or fill, leaves the
** slice `l2.hit_latency` L2 cycles after the access that produced it.
*/
#ifndef WS_MEM_L2_H
#define WS_MEM_L2_H

#include <stdbool.h>
#include <stdint.h>
#include "mem_port.h"
#include "../common/config.h"
#include "../common/stats.h"

typedef struct mem_l2 mem_l2;

/* Slice sized from cfg->l2, l2_queue; perfect_l2 and unlimited_mem are
   honoured.  NULL when out of memory. */
mem_l2 *mem_l2_new(const gpu_config *cfg);
void mem_l2_free(mem_l2 *s);

/* Room in the input queue? */
bool mem_l2_can_accept(const mem_l2 *s);
/* A request from the interconnect (caller checked mem_l2_can_accept). */
void mem_l2_push(mem_l2 *s, const mem_req *r);
/* Room in the fill queue? */
bool mem_l2_can_fill(const mem_l2 *s);
/* A read the DRAM completed for this slice (r->id: the slice's MSHR). */
void mem_l2_fill(mem_l2 *s, const mem_req *r);

/* One L2 cycle: at most one fill and one access. */
void mem_l2_tick(mem_l2 *s, uint64_t l2_cycle);

/* Reply ready to enter the interconnect at `l2_cycle`, or NULL. */
const mem_req *mem_l2_reply_head(const mem_l2 *s, uint64_t l2_cycle);
void mem_l2_reply_pop(mem_l2 *s);
/* Request waiting to enter the DRAM controller, or NULL. */
const mem_req *mem_l2_dram_head(const mem_l2 *s);
void mem_l2_dram_pop(mem_l2 *s);

/* Work for mem_l2_tick (a queued request or fill). */
bool mem_l2_needs_tick(const mem_l2 *s);
/* Work of any kind: queued, in an MSHR or on its way out. */
bool mem_l2_busy(const mem_l2 *s);
uint32_t mem_l2_mshr_used(const mem_l2 *s);
uint32_t mem_l2_input_len(const mem_l2 *s);
/* Counters, MSHR occupancy summed up to `l2_cycle`; `input_full` gets
   the L2 cycles the input queue was full. */
void mem_l2_get_stats(const mem_l2 *s, uint64_t l2_cycle, gpu_cache_stats *out,
                      uint64_t *input_full);
/* Memory-side prefetching: reserve an MSHR for the line of `addr` with no
   waiter (false: present, already fetched, or no free MSHR); the DRAM read
   comes back through mem_l2_fill with r->id = *id, installs the line in
   this slice only, and answers the demand misses that merged meanwhile. */
bool mem_l2_prefetch_reserve(mem_l2 *s, uint64_t addr, uint32_t *id);
typedef struct mem_l2_pf_stats {
    uint64_t fills;       /* prefetched lines that arrived */
    uint64_t merges;      /* demand misses that joined an in-flight prefetch */
    uint64_t hits;        /* demand hits on a line a prefetch brought, counted once */
} mem_l2_pf_stats;
void mem_l2_pf_stats_get(const mem_l2 *s, mem_l2_pf_stats *out);
/* A host copy touched [addr, addr + bytes) (within one line): install
   that line valid and clean, most recently used, as GPGPU-Sim's copy
   engine does with -gpgpu_perf_sim_memcpy (tag_array::fill via
   force_l2_tag_update).  No access is counted and a dirty victim is
   dropped without a DRAM write, as there.  Returns true when a line was
   newly installed. */
bool mem_l2_warm(mem_l2 *s, uint64_t addr, uint32_t bytes);
/* Index sets by `key(ctx, line number)` instead of the line number
   (l2.set_index_local; see mem_cache.set_key). */
void mem_l2_set_key(mem_l2 *s, uint64_t (*key)(const void *ctx, uint64_t lineno),
                    const void *ctx);
/* Does the slice hold the line of `addr` (filters for prefetchers)? */
bool mem_l2_holds(const mem_l2 *s, uint64_t addr);

#endif /* WS_MEM_L2_H */
