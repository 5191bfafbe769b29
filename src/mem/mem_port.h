/*
** mem_port.h -- the port between an SM's L1 caches and the memory below
** them.  For now the simple backend (backend.c) implements it; the real
** interconnect, L2 and DRAM of the memory-system stage will implement the
** same three calls, so the SM side never changes.
*/
#ifndef WS_MEM_PORT_H
#define WS_MEM_PORT_H

#include <stdbool.h>
#include <stdint.h>

/* what a request asks the memory to do */
enum { MEM_READ = 0, MEM_WRITE, MEM_ATOMIC };

/* which cache of the SM sent it (replies are routed back by sm + src) */
enum { MEM_SRC_L1D = 0, MEM_SRC_L1C, MEM_SRC_L1T, MEM_SRC_L1I, MEM_SRC_COUNT };

/*
** One request travelling below L1 and back as its own reply.  `id` is
** the sender's handle: the MSHR index for reads, the waiting load's token
** for atomics, unused for writes (their reply is only an acknowledgement).
*/
typedef struct mem_req {
    uint64_t addr;        /* line (reads) or segment (writes, atomics) address */
    uint32_t bytes;       /* payload moved: line for reads, segment for writes */
    uint8_t  kind;        /* MEM_READ / MEM_WRITE / MEM_ATOMIC */
    uint8_t  src;         /* MEM_SRC_* */
    uint16_t sm;
    uint32_t id;
    uint32_t warp;        /* requesting warp slot (for policies below L1) */
    uint64_t ready;       /* backend: cycle the reply is available */
    /* for the memory system below L1 (interconnect, L2, DRAM) */
    uint64_t sent;        /* core cycle the L1 handed it to the port (round trip) */
    uint64_t warp_uid;    /* launch-wide warp id: cta_linear * warps_per_cta + warp
                             in CTA (indexes the oracle profile) */
    uint64_t seq;         /* global arrival order, for deterministic ties */
} mem_req;

typedef struct mem_port {
    void *impl;
    /* Can one more request be accepted this cycle? */
    bool (*can_send)(void *impl);
    /* Hand a request over at `cycle`; false (and nothing kept) when full. */
    bool (*send)(void *impl, const mem_req *r, uint64_t cycle);
    /* Take one reply available at `cycle` into *out; false when none. */
    bool (*recv)(void *impl, uint64_t cycle, mem_req *out);
    /* Optional: would every send now be refused, as this port's last one
       was (and with the same counts)?  Lets an SM whose miss queues wait
       on a full network skip its tick (core_sm_tick); NULL: unknown. */
    bool (*refusing)(void *impl);
} mem_port;

/* ---- what DRAM schedulers learn about a request's warp ---- */

/*
** How the memory below L1 reads a requesting warp's progress at DRAM
** scheduling time (FR-FAIR, REMINST: specs/fetch-dram.md 2.2).  The GPU
** fills it; `get` writes the instructions the warp of `r` (r->warp_uid,
** r->sm, r->warp) has retired so far and the instructions it has left
** (oracle profile total - retired), -1 for either when unknown.
** get == NULL: nothing known (both -1).
*/
typedef struct mem_warp_info {
    void *ctx;
    void (*get)(void *ctx, const mem_req *r, int64_t *retired, int64_t *remaining);
} mem_warp_info;

#endif /* WS_MEM_PORT_H */
