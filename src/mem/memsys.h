/*
** memsys.h -- the memory system below the SMs' L1s (memory_model "full"):
** request network -> L2 slices (one per sub-partition) -> DRAM controllers
** (one per channel) -> L2 -> reply network, each unit on its own clock
** (gpu_clocks: interconnect, L2, DRAM), behind the mem_port interface.
**
** It also defines mem_lower, the small interface through which the GPU
** drives whatever is below the L1s (this, or the simple backend).
*/
#ifndef WS_MEM_MEMSYS_H
#define WS_MEM_MEMSYS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "mem_port.h"
#include "../common/config.h"
#include "../common/stats.h"
#include "warpsim_policy.h"

/*
** What the GPU asks of the memory below the L1s.  Cycles are core cycles.
** The GPU, each core cycle c: takes every reply due (recv), ticks the SMs
** (they send through port(sm)), then calls advance(c + 1), which runs the
** memory's own clocks through the end of cycle c.  To skip idle cycles it
** calls run_until(c + 1, limit) instead of stepping: the memory runs cycle
** by cycle as advance would, and stops at the first cycle at which an SM
** could notice a change (a reply to receive, room for a refused send),
** or at `limit`; it returns that cycle.  Runs with and without skipping
** are therefore identical.
*/
typedef struct mem_lower {
    void *impl;
    /* the port SM `sm` sends through (sends fill mem_req.sent and .seq) */
    mem_port (*port)(void *impl, uint32_t sm);
    /* one reply for any SM due at `cycle`, false when none */
    bool (*recv)(void *impl, uint64_t cycle, mem_req *out);
    void (*advance)(void *impl, uint64_t cycle);
    /* Before advance(cycle) of one span: do what the SMs' tick of `cycle`
       reads of it, so that the tick may run beside the advance; false
       when it cannot (then advance first).  NULL: never. */
    bool (*prepare)(void *impl, uint64_t cycle);
    uint64_t (*run_until)(void *impl, uint64_t cycle, uint64_t limit);
    /* requests from the SMs not yet answered */
    uint32_t (*in_flight)(const void *impl);
    /* a send was refused since the last advance (a full queue) */
    bool (*refusing)(const void *impl);
    /* `n` skipped cycles in which `waiting` L1 queues were refused each cycle */
    void (*skipped)(void *impl, uint64_t n, uint32_t waiting);
    /* cumulative counters (the GPU subtracts a snapshot per kernel) */
    void (*stats)(const void *impl, gpu_mem_stats *out);
    /* a kernel starts (begin) or ended: per-kernel maxima restart, the
       memory-side policies' kernel_begin / kernel_end */
    void (*kernel)(void *impl, const ws_launch_info *k, bool begin);
    /* the host copied to or from [addr, addr + bytes) between kernels: a
       copy engine that leaves the data in the L2 installs those lines
       (NULL: nothing below the L1s keeps copied data) */
    void (*host_copy)(void *impl, uint64_t addr, uint64_t bytes);
    /* one-paragraph state description for deadlock dumps */
    void (*dump)(const void *impl, char *buf, size_t len);
    void (*free)(void *impl);
    /* Deferred sends (NULL: not supported; the SMs then tick on one
       thread): while `defer(impl, true)` holds, a port's send decides as
       an injection would, from that SM's own state only, and `commit`
       injects SM `sm`'s sends of the cycle in order (-1: host out of
       memory).  The parallel timing model (gpu/smpar.c) commits the SMs
       in the order the serial model ticks them. */
    void (*defer)(void *impl, bool on);
    int (*commit)(void *impl, uint32_t sm);
    /* Whether SM `sm` has sends for `commit` (read on the SM's thread). */
    bool (*pending)(const void *impl, uint32_t sm);
    /* With `defer`: SM `sm`'s next reply due at `cycle` (taken on the
       SM's own thread), counted as delivered only by `commit_replies`
       (for each SM that took one, in any order), which the join calls
       before it commits any send. */
    bool (*recv_sm)(void *impl, uint32_t sm, uint64_t cycle, mem_req *out);
    void (*commit_replies)(void *impl, uint32_t sm);
} mem_lower;

typedef struct mem_sys mem_sys;

/* The memory system for `nsm` SMs.  `info` is handed to the DRAM
   schedulers (warp progress).  NULL with a message on a bad configuration
   (address map, scheduler name or parameters) or out of memory. */
/* `sched` (with its resolved parameters) orders each channel's requests:
   one instance per channel. */
mem_sys *mem_sys_new(const gpu_config *cfg, uint32_t nsm, const ws_dram_sched_ops *sched,
                     const ws_param_values *sched_params, const ws_dram_prefetch_ops *pf,
                     const ws_param_values *pf_params, mem_warp_info info,
                     char *err, size_t errlen);
void mem_sys_free(mem_sys *ms);
/* Its mem_lower view (valid while ms lives; free through it or directly). */
mem_lower mem_sys_lower(mem_sys *ms);

/* The same operations, directly (unit tests). */
mem_port mem_sys_port(mem_sys *ms, uint32_t sm);
bool mem_sys_recv(mem_sys *ms, uint64_t cycle, mem_req *out);
void mem_sys_advance(mem_sys *ms, uint64_t cycle);
bool mem_sys_prepare(mem_sys *ms, uint64_t cycle);
uint64_t mem_sys_run_until(mem_sys *ms, uint64_t cycle, uint64_t limit);
uint32_t mem_sys_in_flight(const mem_sys *ms);
void mem_sys_stats(const mem_sys *ms, gpu_mem_stats *out);
/* Install the lines of [addr, addr + bytes) in the slices that own them
   (mem_l2_warm: clean, most recently used, no access counted), as
   GPGPU-Sim's copy engine does with -gpgpu_perf_sim_memcpy; returns the
   lines newly installed. */
uint64_t mem_sys_warm_l2(mem_sys *ms, uint64_t addr, uint64_t bytes);
/* Which slice (global sub-partition index) serves `addr`. */
uint32_t mem_sys_slice_of(const mem_sys *ms, uint64_t addr);
uint32_t mem_sys_n_slices(const mem_sys *ms);
/* Does slice `slice` hold the line of `addr` (where a prefetch put it)? */
bool mem_sys_l2_holds(const mem_sys *ms, uint32_t slice, uint64_t addr);
/* Field by field difference a - b of cumulative counters (per kernel);
   maxima and machine constants are taken from `a`. */
void mem_sys_stats_diff(gpu_mem_stats *out, const gpu_mem_stats *a, const gpu_mem_stats *b);

#endif /* WS_MEM_MEMSYS_H */
