/*
** backend.h -- the simple memory below L1 used until the memory-system
** stage: fixed latency, a bandwidth limit and a bounded queue, behind the
** mem_port interface (mem_port.h).
*/
#ifndef WS_MEM_BACKEND_H
#define WS_MEM_BACKEND_H

#include <stdint.h>
#include "mem_port.h"

typedef struct mem_backend mem_backend;

/* `latency` core cycles request to reply, `bytes_per_cycle` bandwidth
   (> 0), room for `queue` requests in flight (> 0).  NULL: out of memory. */
mem_backend *mem_backend_new(uint32_t latency, uint32_t bytes_per_cycle, uint32_t queue);
void mem_backend_free(mem_backend *b);
/* The port view of `b` (valid while b lives). */
mem_port mem_backend_port(mem_backend *b);

uint32_t mem_backend_in_flight(const mem_backend *b);
int mem_backend_full(const mem_backend *b);
/* Cycle of the earliest pending reply, UINT64_MAX when empty. */
uint64_t mem_backend_next_ready(const mem_backend *b);
/* Requests accepted and payload bytes moved so far. */
uint64_t mem_backend_requests(const mem_backend *b);
uint64_t mem_backend_bytes(const mem_backend *b);

#endif /* WS_MEM_BACKEND_H */
