/*
** l1_access.h -- one access of an SM's L1 data cache, as the LSU hands it
** to the L1 (after a reservation fail is resolved, so each access is seen
** once), and the sink the SM reports it to.  The L1D access stream is what
** a Belady replay (gpu/l1_replay.c) and the trace file (gpu/l1_trace.c)
** work on (CCWS spec §2.9).  No sink set: nothing is reported and the LSU
** pays one pointer test.
*/
#ifndef WS_COMMON_L1_ACCESS_H
#define WS_COMMON_L1_ACCESS_H

#include <stdint.h>

/* what the access did to the L1 (atomics bypass it and drop its copy) */
enum { L1A_LOAD = 0, L1A_STORE = 1, L1A_ATOMIC = 2 };

typedef struct l1_access {
    uint64_t line;     /* line address (byte address of the line's start) */
    uint64_t cycle;    /* core cycle the L1 took it */
    uint64_t uid;      /* the warp's launch-wide uid (cta_id * warps_per_cta + warp) */
    uint32_t sm;
    uint8_t  kind;     /* L1A_* */
} l1_access;

typedef struct l1_access_sink {
    void (*fn)(void *ctx, const l1_access *a);   /* NULL: off */
    void *ctx;
} l1_access_sink;

#endif /* WS_COMMON_L1_ACCESS_H */
