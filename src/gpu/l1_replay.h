/*
** l1_replay.h -- replay of one SM's L1D access stream in a trace-driven
** tag array (CCWS spec §2.9): once with LRU and once with Belady-optimal
** replacement (the valid line of the set whose next reference is furthest
** away goes; never referenced again = infinitely far).  Fills are instant
** and nothing is bypassed, so the LRU replay differs from the timing
** model's counts where a miss merged into an outstanding MSHR (a hit
** here) or a way was held by a miss in flight.
**
** Stores follow the timing model's write policy, taken from the geometry:
** write-through without allocation (a store hit refreshes the line, or
** with write_evict drops it; a store miss installs nothing), or
** write-back with write-allocate.  Atomics drop the line and are not
** accesses.  Hits and misses count loads and stores, as l1d.accesses.
**
** A stream is an array of packed accesses, L1_REPLAY_PACK(line number,
** L1A_*), in access order; the caller flushes by replaying each kernel
** (the L1 is cold at every kernel start) as its own stream.  Next uses are
** found in one backward pass with a hash table of line numbers (8 bytes
** per access plus 16 per distinct line).
*/
#ifndef WS_GPU_L1_REPLAY_H
#define WS_GPU_L1_REPLAY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "../common/l1_access.h"

#define L1_REPLAY_PACK(lineno, kind) (((uint64_t)(lineno) << 2) | (uint64_t)(kind))

typedef struct l1_replay_geom {
    uint32_t sets, ways, line_bytes;
    uint32_t set_index;            /* GPU_SET_INDEX_* */
    bool write_back, write_evict;
} l1_replay_geom;

typedef struct l1_replay_counts {
    uint64_t accesses, hits, misses;
    uint64_t load_misses;          /* of which loads */
} l1_replay_counts;

typedef struct l1_replay_result {
    l1_replay_counts lru, belady;
} l1_replay_result;

/* Replay `n` packed accesses of one SM and *add* the counts to *out.
   0, or -1 when out of host memory. */
int l1_replay_stream(const uint64_t *acc, size_t n, const l1_replay_geom *g,
                     l1_replay_result *out);

/* A growable stream (what the recorder and the trace reader fill). */
typedef struct l1_replay_buf {
    uint64_t *a;
    size_t n, cap;
} l1_replay_buf;
/* 0, or -1 when out of host memory. */
int l1_replay_push(l1_replay_buf *b, uint64_t packed);
void l1_replay_buf_free(l1_replay_buf *b);

#endif /* WS_GPU_L1_REPLAY_H */
