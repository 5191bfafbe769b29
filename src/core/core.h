/*
** core.h -- the SM pipeline as the top level (gpu/) sees it: an opaque
** SM with its lifecycle, its tick, and the few facts the cycle loop,
** the CTA dispatcher and the reports read.  The pipeline's structs are in
** core_int.h, which only core/ includes (the layer check enforces it).
*/
#ifndef WS_CORE_H
#define WS_CORE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "../emu/emu.h"
#include "../common/config.h"
#include "../common/stats.h"
#include "../common/l1_access.h"
#include "../mem/l1.h"
#include "../mem/dupmshr.h"
#include "../mem/mem_port.h"
#include "../policy/policy.h"   /* the policy ABI and resolved policies */

#define CORE_NEVER UINT64_MAX   /* "no such cycle" */

/* an SM's first-level caches */
enum { CORE_C_L1D = 0, CORE_C_L1C, CORE_C_L1T, CORE_C_COUNT };
/* the instruction cache's reply source: outside the data caches above, as
   it exists only with l1i.model (core_sm_l1 gives it, NULL without) */
enum { CORE_C_L1I = CORE_C_COUNT };

typedef struct core_sm core_sm;
typedef struct core_uinfo core_uinfo;

/* decode.c: per-uop timing facts for every uop of `m` (caller frees);
   NULL when out of memory. */
core_uinfo *core_decode_module(const ptx_module *m, const gpu_config *cfg);
/* The policies' read-only program view of `m` (caller frees), from the
   decode table `ui`; NULL when out of memory. */
ws_prog_uop *core_program_view(const ptx_module *m, const core_uinfo *ui);

/* sm.c */
/* An SM running the warp-scheduler and fetch policies of `rp` (one
   instance each); `nsms` SMs in the GPU. */
core_sm *core_sm_new(uint32_t id, uint32_t nsms, const gpu_config *cfg,
                     const ws_resolved_policies *rp, char *err, size_t errlen);
void core_sm_free(core_sm *sm);
/* A kernel starts / ended: the policies' kernel_begin/kernel_end hooks
   and KERNEL_BEGIN/END events.  `k` stays valid until core_sm_end_kernel. */
void core_sm_begin_kernel(core_sm *sm, emu_launch *l, const core_uinfo *ui,
                          gpu_kernel_stats *st, const ws_launch_info *k, uint64_t cycle);
void core_sm_end_kernel(core_sm *sm, uint64_t cycle);
/* The warp scheduler's own counters (ops->counters, counted since the
   kernel began) added to sum[], their names written to names[] unless
   NULL; returns how many (0: the policy has none).  Read at the kernel's
   end for the statistics and at each time-series sample, one reading for
   both so the series ends at the kernel's totals. */
uint32_t core_sm_policy_counters(const core_sm *sm, uint64_t *sum,
                                 char (*names)[GPU_POLICY_COUNTER_NAME]);
/* May a CTA needing these resources start now? */
bool core_sm_fits(const core_sm *sm, uint32_t nwarps, uint32_t regs, uint32_t shmem);
/* Start CTA `linear` here. 0, or -1 when out of host memory. */
int core_sm_launch_cta(core_sm *sm, uint32_t linear, uint32_t regs, uint32_t shmem,
                       uint64_t cycle);
/* One core cycle (everything but reply delivery). */
void core_sm_tick(core_sm *sm, const mem_port *port, uint64_t cycle);
/* A reply for one of this SM's caches. */
void core_sm_reply(core_sm *sm, const mem_req *rep, uint64_t cycle);
/* Nothing resident and nothing in flight. */
bool core_sm_idle(const core_sm *sm);
/* Counters for `n` cycles skipped after `cycle` (same state as the last). */
void core_sm_account_skip(core_sm *sm, uint64_t n);
/* Append a description of every live warp and unit to buf. */
void core_sm_dump(const core_sm *sm, uint64_t cycle, char *buf, size_t len);
/* Release every resident CTA (after a fault or a stop). */
void core_sm_abort(core_sm *sm);

/* What the cycle loop reads of an SM after its tick. */
bool core_sm_active(const core_sm *sm);          /* something happened: no skipping */
uint64_t core_sm_wake(const core_sm *sm);         /* earliest timed change, CORE_NEVER */
uint64_t core_sm_last_progress(const core_sm *sm);/* last issue or load return */
void core_sm_set_last_progress(core_sm *sm, uint64_t cycle);
bool core_sm_faulted(const core_sm *sm);
/* A fault found outside the SM's tick (its deferred writes, gpu/smpar.c). */
void core_sm_set_fault(core_sm *sm);
/* A CTA finished since the last call (the dispatcher may place more). */
bool core_sm_take_cta_freed(core_sm *sm);
bool core_sm_cta_freed(const core_sm *sm);      /* the same, without taking it */
/* Count the quiet cycles not yet counted (before reading the SM's or its
   L1s' statistics between its ticks). */
void core_sm_settle(core_sm *sm);
uint32_t core_sm_live_warps(const core_sm *sm);
uint32_t core_sm_live_ctas(const core_sm *sm);
/* Warp slots, scheduler units and CTA slots of the SM. */
uint32_t core_sm_slots(const core_sm *sm);
uint32_t core_sm_schedulers(const core_sm *sm);
uint32_t core_sm_cta_slots(const core_sm *sm);
/* Instructions executed so far by every warp of the SM's resident CTAs,
   added to *warp_insns / *thread_insns: finished warps included, whose
   slots are already free but whose counts reach the kernel's only when
   their CTA completes (the time series needs both to be counted once). */
void core_sm_insns_resident(const core_sm *sm, uint64_t *warp_insns, uint64_t *thread_insns);
/* The warp in `slot` (NULL when free) and its launch-wide id. */
const emu_warp *core_sm_warp(const core_sm *sm, uint32_t slot, uint64_t *uid);
/* Cache `c` (CORE_C_*) of the SM. */
const mem_l1 *core_sm_l1(const core_sm *sm, int c);
/* Report every access the L1D takes (loads, stores, atomics) to `sink`
   (gpu/l1_trace.c); a sink with fn NULL turns it off. */
void core_sm_set_l1d_sink(core_sm *sm, l1_access_sink sink);
/* Note every L1D MSHR allocation (SM, line, cycle) in `d`, the GPU-wide
   duplicate-MSHR record (mem/dupmshr.h); NULL turns it off. */
void core_sm_set_dup_mshr(core_sm *sm, mem_dup_mshr *d);
/* Warp instructions of the CTAs that finished on this SM so far (all
   kernels): per-SM MPKI of the access stream. */
uint64_t core_sm_warp_insns(const core_sm *sm);

/* coalesce.c: distinct `seg`-byte segments touched by the lanes of
   `mask` (each accessing `nbytes` at addr[lane]); written to `out` in
   order of first touch, at most `max`; returns the count. */
uint32_t core_coalesce(const uint64_t *addr, uint32_t mask, uint32_t nbytes, uint32_t seg,
                       uint64_t *out, uint32_t max);
/* The transaction of the segment at *base (from core_coalesce) reduced to
   the aligned 128/64/32-byte part the lanes touch: its size is returned,
   *base moves to its start.  Segments other than 64 or 128 bytes stay
   whole. */
uint32_t core_coalesce_reduce(const uint64_t *addr, uint32_t mask, uint32_t nbytes,
                              uint32_t seg, uint64_t *base);
/* The lanes of `mask` whose access touches the `seg`-byte segment at
   `base` (for the L1D's hit classification). */
uint32_t core_coalesce_lanes(const uint64_t *addr, uint32_t mask, uint32_t nbytes,
                             uint32_t seg, uint64_t base);

/* smem_banks.c: cycles a shared-memory access needs (the conflict
   degree: most distinct words mapped to one bank; same word = broadcast). */
uint32_t core_smem_cycles(const uint64_t *addr, uint32_t mask, uint32_t nbytes,
                          uint32_t banks, uint32_t bank_bytes);

#endif /* WS_CORE_H */
