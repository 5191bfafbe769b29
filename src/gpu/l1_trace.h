/*
** l1_trace.h -- the L1D access stream of a run (CCWS spec §2.9): recorded
** from every SM's LSU (core/ldst.c through an l1_access_sink), replayed
** at each kernel's end when `l1d_belady` is set (l1_replay.c) and/or
** written to the file `l1d_trace` names; and that file read back and
** replayed (`warpsim belady`).  Both replays run the same code on the same
** per-SM, per-kernel streams, so their numbers are equal.
**
** File format (docs/l1-trace.md), little-endian:
**
**   header, 40 bytes
**     0  char[8] "WSL1TRC\0"      24  u32 SMs
**     8  u32 version (1)           28  u32 set index (0 linear, 1 fermi, 2 xor)
**    12  u32 line bytes            32  u32 flags: 1 write_back, 2 write_evict,
**    16  u32 sets                           4 unbounded
**    20  u32 ways                  36  u32 0
**   records, each opened by varint tag = kind | SM << 3
**     kind 0 load, 1 store, 2 atomic: varint warp uid, zigzag varint line
**          number (address / line bytes) minus the SM's previous one, zigzag
**          varint cycle minus the previous record's
**     kind 5 kernel end (the L1s are flushed): a varint per SM, the warp
**          instructions it retired in the kernel
**     kind 6 end of trace: varint count of kind 0-2 records; nothing follows
**   varint: 7 bits a byte, low first, high bit = more; zigzag: (v << 1) ^ (v >> 63)
**
** The file is written to FILE.tmp as the run goes and renamed to FILE when
** the GPU is freed, so FILE is always a whole trace; a run that dies leaves
** the complete kernels in FILE.tmp (read as truncated: no end record).
*/
#ifndef WS_GPU_L1_TRACE_H
#define WS_GPU_L1_TRACE_H

#include <stddef.h>
#include <stdint.h>
#include "../common/config.h"
#include "../common/stats.h"
#include "../common/l1_access.h"
#include "l1_replay.h"

#define L1_TRACE_MAGIC "WSL1TRC"       /* + NUL: 8 bytes */
#define L1_TRACE_VERSION 1u
enum { L1_TRACE_KERNEL_END = 5, L1_TRACE_END = 6 };
enum { L1_TRACE_F_WRITE_BACK = 1, L1_TRACE_F_WRITE_EVICT = 2, L1_TRACE_F_UNBOUNDED = 4 };

/* ---- recording (gpu.c) ------------------------------------------------ */

typedef struct l1_trace l1_trace;

/* A recorder for `nsm` SMs when `cfg` sets l1d_trace or l1d_belady; NULL
   otherwise (err "") or on failure (err says why: "l1d_trace: cannot
   create 'FILE.tmp': ..."). */
l1_trace *l1_trace_new(const gpu_config *cfg, uint32_t nsm, char *err, size_t errlen);
/* The sink every SM reports its L1D accesses to. */
l1_access_sink l1_trace_sink(l1_trace *t);
/* A kernel ended; `sm_insns[i]`: SM i's warp instructions so far (all
   kernels).  Replays (l1d_belady: adds st->l1d_replay_accesses,
   l1d_lru_*, l1d_belady_*) and writes the kernel.  0, or -1 with err. */
int l1_trace_kernel_end(l1_trace *t, const uint64_t *sm_insns, gpu_kernel_stats *st,
                        char *err, size_t errlen);
/* Finish the file (end record, rename) and free.  0, or -1 with err. */
int l1_trace_close(l1_trace *t, char *err, size_t errlen);

/* ---- reading (warpsim belady) ----------------------------------------- */

typedef struct l1_trace_info {
    uint32_t version, line_bytes, sets, ways, nsms, set_index, flags;
    uint64_t records;      /* load, store and atomic records */
    uint64_t kernels;
} l1_trace_info;

typedef struct l1_trace_sm {
    l1_replay_result r;
    uint64_t warp_insns;
} l1_trace_sm;

/* Replay the trace at `path` per SM and kernel with its own geometry, or
   with `sets`/`ways` where non-zero.  *per_sm (info->nsms entries, caller
   frees) and *total get the counts.  0, or -1 with err naming the file
   and, for bad contents, the byte offset. */
int l1_trace_replay_file(const char *path, uint32_t sets, uint32_t ways, l1_trace_info *info,
                         l1_trace_sm **per_sm, l1_trace_sm *total, char *err, size_t errlen);

#endif /* WS_GPU_L1_TRACE_H */
