/*
** backend.c -- fixed-latency, bandwidth-limited memory with a bounded
** request queue: the stand-in for interconnect + L2 + DRAM.
**
** Timing of one request accepted at cycle a with payload b bytes:
**     data_done = ceil((max(busy, a * bpc) + b) / bpc)   (one shared channel)
**     ready     = max(a + latency, data_done)
** so an unloaded request takes exactly `latency` cycles and a stream of
** them is limited to `bpc` bytes per cycle.  Arrivals are in time order, so
** ready times are too, and the queue is a plain ring (FIFO).
*/
#include "backend.h"
#include <stdlib.h>

struct mem_backend {
    uint32_t latency, bpc, cap;
    uint32_t head, n;       /* ring of `cap` requests in flight */
    mem_req *ring;
    uint64_t busy;          /* channel busy until this byte-time (cycle * bpc) */
    uint64_t last_ready;
    uint64_t requests, bytes;
};

mem_backend *mem_backend_new(uint32_t latency, uint32_t bytes_per_cycle, uint32_t queue)
{
    mem_backend *b = calloc(1, sizeof *b);
    if (!b) return NULL;
    b->latency = latency;
    b->bpc = bytes_per_cycle ? bytes_per_cycle : 1;
    b->cap = queue ? queue : 1;
    b->ring = calloc(b->cap, sizeof *b->ring);
    if (!b->ring) { free(b); return NULL; }
    return b;
}

void mem_backend_free(mem_backend *b)
{
    if (!b) return;
    free(b->ring);
    free(b);
}

static bool backend_can_send(void *impl)
{
    const mem_backend *b = impl;
    return b->n < b->cap;
}

static bool backend_send(void *impl, const mem_req *r, uint64_t cycle)
{
    mem_backend *b = impl;
    if (b->n >= b->cap) return false;
    uint64_t start = cycle * b->bpc;
    if (b->busy < start) b->busy = start;
    b->busy += r->bytes;
    uint64_t done = (b->busy + b->bpc - 1) / b->bpc;
    uint64_t ready = cycle + b->latency;
    if (ready < done) ready = done;
    if (ready < b->last_ready) ready = b->last_ready;   /* keep FIFO order */
    b->last_ready = ready;
    mem_req *slot = &b->ring[(b->head + b->n) % b->cap];
    *slot = *r;
    slot->ready = ready;
    b->n++;
    b->requests++;
    b->bytes += r->bytes;
    return true;
}

static bool backend_recv(void *impl, uint64_t cycle, mem_req *out)
{
    mem_backend *b = impl;
    if (!b->n || b->ring[b->head].ready > cycle) return false;
    *out = b->ring[b->head];
    b->head = (b->head + 1) % b->cap;
    b->n--;
    return true;
}

mem_port mem_backend_port(mem_backend *b)
{
    return (mem_port){ .impl = b, .can_send = backend_can_send,
                       .send = backend_send, .recv = backend_recv };
}

uint32_t mem_backend_in_flight(const mem_backend *b) { return b->n; }
int mem_backend_full(const mem_backend *b) { return b->n >= b->cap; }
uint64_t mem_backend_requests(const mem_backend *b) { return b->requests; }
uint64_t mem_backend_bytes(const mem_backend *b) { return b->bytes; }

uint64_t mem_backend_next_ready(const mem_backend *b)
{
    return b->n ? b->ring[b->head].ready : UINT64_MAX;
}
