/*
** icnt.h -- one network of the interconnect: a crossbar from `ninputs`
** ports to `noutputs` ports moving packets of flits, with a buffer at
** every input (its free space is the sender's credit) and one at every
** output (credits the crossbar needs before a packet may cross).  The
** memory system uses two: requests (SMs -> L2 slices) and replies (L2
** slices -> SMs), each ticked on the interconnect clock.
**
** Timing of one packet of k flits at the head of input i for output o,
** matched at icnt cycle t (o not busy, k free credits at o):
**     output o and one of input i's `speedup` lanes are busy during [t, t + k)
**     the flits leave i's buffer at t + k (its credits come back then)
**     the packet is at o, ready to leave, at t + latency + k - 1
** One packet leaves each output per cycle when its sink accepts it;
** a refusing sink keeps it (and its credits): back-pressure.
*/
#ifndef WS_MEM_ICNT_H
#define WS_MEM_ICNT_H

#include <stdbool.h>
#include <stdint.h>
#include "mem_port.h"

typedef struct mem_icnt mem_icnt;

/* Offer packet `r` (arrived at `output`) to whoever is behind that output;
   true = taken. */
typedef bool (*mem_icnt_sink)(void *ctx, uint32_t output, const mem_req *r);

typedef struct mem_icnt_stats {
    uint64_t packets, flits;      /* injected */
    uint64_t credit_stalls;       /* cycles x inputs: head blocked, no credits at output */
    uint64_t eject_stalls;        /* cycles x outputs: arrived packet refused by the sink */
} mem_icnt_stats;

/* Buffers in flits (each at least one packet of the largest size the
   caller sends, or that packet can never enter); latency >= 1; `speedup`
   (1..4): packets an input may send at once, to different outputs.  NULL
   when out of memory. */
mem_icnt *mem_icnt_new(uint32_t ninputs, uint32_t noutputs, uint32_t flit_bytes,
                       uint32_t latency, uint32_t in_buffer, uint32_t out_buffer,
                       uint32_t speedup);
void mem_icnt_free(mem_icnt *n);

/* Flits of a packet carrying `bytes` (header included by the caller). */
uint32_t mem_icnt_flits(const mem_icnt *n, uint32_t bytes);
/* Room at `input` for a packet of `flits` flits? */
bool mem_icnt_can_inject(const mem_icnt *n, uint32_t input, uint32_t flits);
/* Queue a packet (caller checked mem_icnt_can_inject); false only when
   out of host memory. */
bool mem_icnt_inject(mem_icnt *n, uint32_t input, uint32_t output, const mem_req *r,
                     uint32_t flits);
/* Free flits in the buffer of `input`. */
uint32_t mem_icnt_free_flits(const mem_icnt *n, uint32_t input);

/* One interconnect cycle: deliver arrived packets to `sink`, release
   finished transfers, match waiting heads to free outputs. */
void mem_icnt_tick(mem_icnt *n, uint64_t cycle, mem_icnt_sink sink, void *ctx);
/* Parts of the tick of `cycle` done ahead of it: the release of finished
   transfers (the inputs' credits; the tick's own release then finds
   nothing), and the delivery of arrived packets (which the tick then
   skips).  Exact when nothing else touches the network in between except
   injections (an injection cannot arrive in the same cycle).  The memory
   system does them before the SMs' next tick, so that the SMs see their
   replies and their room while the rest of the memory system runs beside
   them (docs/parallel-timing.md). */
void mem_icnt_release(mem_icnt *n, uint64_t cycle);
void mem_icnt_pre_eject(mem_icnt *n, uint64_t cycle, mem_icnt_sink sink, void *ctx);

/* Packets anywhere in the network. */
uint32_t mem_icnt_packets(const mem_icnt *n);
/* Nothing buffered or crossing, every credit home. */
bool mem_icnt_idle(const mem_icnt *n);
const mem_icnt_stats *mem_icnt_get_stats(const mem_icnt *n);

#endif /* WS_MEM_ICNT_H */
