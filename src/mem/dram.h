/*
** dram.h -- one DRAM channel's memory controller: a bounded request queue,
** banks (optionally in bank groups) with row buffers, an open-page policy,
** command timing in DRAM command-clock cycles, a pluggable request
** scheduler (policy/dram_*.c), an optional memory-side prefetcher (a
** dram_prefetch policy that reads lines of open rows into the L2,
** mem_dram_set_prefetch) and its statistics.  A fixed-latency mode
** (dram_fixed_latency > 0) replaces banks and timing by a constant delay.
**
** Use (all cycles are DRAM command-clock cycles, nondecreasing):
**   if (mem_dram_can_accept(d)) mem_dram_push(d, &req, now);
**   mem_dram_tick(d, now);                 every DRAM cycle, or skip to
**   while (mem_dram_pop(d, now, &rep)) ... mem_dram_next_event(d, now)
** A request pushed at cycle t may have its first command issued by the
** tick of cycle t.  Reads come back as themselves when their last data
** beat has crossed the bus; writes come back as an acknowledgement when
** their data has been written (same struct, same fields).
*/
#ifndef WS_MEM_DRAM_H
#define WS_MEM_DRAM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../common/config.h"
#include "mem_port.h"
#include "warpsim_policy.h"

typedef struct mem_dram mem_dram;

/*
** Counters of one controller.  Every field is additive, so the memory
** system sums channels field by field (mem_dram_stats_add).
**   bandwidth utilisation = bus_busy_cycles / elapsed DRAM cycles
**   (peak = mem_dram_peak_bytes_per_cycle bytes each DRAM cycle)
**   bank-level parallelism = bank_busy_sum / any_bank_busy_cycles
**   row-buffer hit ratio = row_hits / (row_hits + row_misses + row_conflicts)
*/
typedef struct mem_dram_stats {
    uint64_t reads, writes;           /* requests completed (popped or ready),
                                         prefetch reads included */
    uint64_t bytes;                   /* payload bytes of completed requests */
    uint64_t rd_bytes;                /* of them, of reads */
    uint64_t row_hits;                /* served from the open row */
    uint64_t row_misses;              /* bank closed: activate first */
    uint64_t row_conflicts;           /* another row open: precharge + activate */
    uint64_t activates, precharges, col_cmds;   /* commands issued */
    uint64_t bank_busy_sum;           /* sum over DRAM cycles of banks busy */
    uint64_t any_bank_busy_cycles;    /* DRAM cycles with at least one bank busy */
    uint64_t bus_busy_cycles;         /* DRAM cycles the data bus carried data */
    uint64_t queue_lat_sum;           /* arrival -> first command, DRAM cycles */
    uint64_t queue_lat_count;
    uint64_t service_lat_sum;         /* arrival -> data done of demand requests;
                                         count = reads + writes - prefetch_reads */
    uint64_t max_queue;               /* most requests waiting at once (summed: sum of maxima) */
    uint64_t prefetch_reads;          /* reads a dram_prefetch policy issued */
} mem_dram_stats;

/* Check the DRAM fields of `cfg` (geometry, address map, scheduler name and
   parameters); 0, or -1 with a message naming the key and value. */
int mem_dram_check_config(const gpu_config *cfg, char *err, size_t errlen);

/* Controller for channel `channel`.  `ops` = the scheduler (NULL: FR-FCFS
   from the registry), `ops_state` = its instance from ops->init, owned by
   the caller (not freed here).  `info` reads warp progress for FR-FAIR
   and REMINST (info.get may be NULL).  NULL on a bad configuration (see
   mem_dram_check_config for the message) or out of memory. */
mem_dram *mem_dram_new(const gpu_config *cfg, uint32_t channel, const ws_dram_sched_ops *ops,
                       void *ops_state, mem_warp_info info);
void mem_dram_free(mem_dram *d);

/* The L2 side of memory-side prefetching: reserve the L2 MSHR the line at
   `addr` will fill (false: the slice holds it, fetches it already, or has
   no free MSHR) and write into *out the request the fill must carry. */
typedef struct mem_prefetch_sink {
    void *ctx;
    bool (*reserve)(void *ctx, uint64_t addr, mem_req *out);
} mem_prefetch_sink;
/* Give the controller a prefetcher (`ops` NULL = none; its instance `st`
   stays the caller's).  A prefetch reads one L2 line (cfg->l2.line_bytes),
   the unit ws_dram_view.row_lines counts in. */
void mem_dram_set_prefetch(mem_dram *d, const ws_dram_prefetch_ops *ops, void *st,
                           mem_prefetch_sink sink);

/* Room for one more request (always true in unlimited_mem mode). */
bool mem_dram_can_accept(const mem_dram *d);
/* Queue a request of this channel (the controller decodes bank, row and
   column itself from r->addr); the caller checked mem_dram_can_accept. */
void mem_dram_push(mem_dram *d, const mem_req *r, uint64_t dram_cycle);
/* Advance one DRAM cycle: pick requests for idle banks, issue at most one
   command.  Cheap when nothing can happen before mem_dram_next_event. */
void mem_dram_tick(mem_dram *d, uint64_t dram_cycle);
/* Take one completed read or write acknowledgement into *out. */
bool mem_dram_pop(mem_dram *d, uint64_t dram_cycle, mem_req *out);
/* Earliest DRAM cycle >= dram_cycle at which a tick or pop can change
   anything, UINT64_MAX when empty (nothing queued, in flight or done). */
uint64_t mem_dram_next_event(const mem_dram *d, uint64_t dram_cycle);
/* Requests held: queued, in flight and completed but not popped. */
uint32_t mem_dram_pending(const mem_dram *d);
/* Geometry the DRAM policies' environment carries: banks, L2 lines per row. */
uint32_t mem_dram_banks(const mem_dram *d);
uint32_t mem_dram_row_lines(const mem_dram *d);
void mem_dram_stats_get(const mem_dram *d, mem_dram_stats *out);
#define mem_dram_stats(d, out) mem_dram_stats_get((d), (out))
void mem_dram_stats_add(mem_dram_stats *sum, const mem_dram_stats *s);

/* Peak data bytes per DRAM cycle of one channel: bus width x data rate. */
uint32_t mem_dram_peak_bytes_per_cycle(const gpu_config *cfg);

#endif /* WS_MEM_DRAM_H */
