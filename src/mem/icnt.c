/*
** icnt.c -- crossbar network with input and output buffers and credits.
**
** Packets live in one pool (indices, grown by doubling only when the
** buffers are larger than the pool: never per cycle in a sized network)
** and move between per-port FIFOs linked through the pool.  Each cycle
** the inputs are scanned from a rotating start, so no input always wins
** an output: a simple round-robin switch allocation, one packet per
** input and per output at a time (wormhole: a packet holds its input and
** output for as many cycles as it has flits; an input with speedup s
** may send s packets at once, to different outputs).  An input whose head waits
** for a busy output may send a later packet to another output (virtual
** output queues sharing one buffer: no head-of-line blocking, which
** would cap a crossbar near 60% of its bandwidth); packets to the same
** output keep their order.
*/
#include "icnt.h"
#include "../common/lines.h"
#include <stdlib.h>
#include <string.h>

#define ICNT_NIL UINT32_MAX
#define ICNT_MAX_SPEEDUP 4

typedef struct icnt_pkt {
    mem_req  r;
    uint32_t out, flits;
    uint64_t arrive;      /* cycle it is at its output (when crossing) */
    uint32_t next;        /* next in its FIFO, or the free list */
} icnt_pkt;

typedef struct icnt_fifo {
    uint32_t head, tail, n;
} icnt_fifo;

typedef struct icnt_in {
    _Alignas(64) icnt_fifo q;     /* (a line each: an SM's send reads its own) */
    uint32_t used;        /* flits held, including packets still leaving */
    /* one lane per packet it may send at once (input speedup) */
    uint32_t leaving[ICNT_MAX_SPEEDUP];    /* flits crossing, released at busy_until */
    uint64_t busy_until[ICNT_MAX_SPEEDUP];
    /* outputs its waiting packets go to (bit o; networks of at most 64
       outputs), with a count per output: icnt_pick_fast stops its walk
       when no such output is free */
    uint64_t dests;
    uint16_t *ndest;
} icnt_in;

typedef struct icnt_out {
    icnt_fifo q;          /* crossing or arrived, in arrival order */
    uint32_t used;        /* credits taken */
    uint64_t busy_until;
    uint64_t seen;        /* scan that found it blocked (keeps per-output order) */
} icnt_out;

struct mem_icnt {
    /* set once: what the SMs' sends read, on lines the network's tick
       does not write (they may tick on other threads beside it) */
    uint32_t nin, nout, flit_bytes, latency, in_cap, out_cap, speedup;
    icnt_in *in;
    icnt_out *out;
    _Alignas(64) icnt_pkt *pool;
    uint32_t pool_cap, free_head, npackets, nleaving;
    uint64_t leave_due;   /* earliest busy_until of a leaving lane (no input looked at before) */
    uint32_t rr;          /* first input scanned this cycle */
    uint64_t scan;        /* input scans so far (icnt_out.seen) */
    /* the tick of cycle `pre_cycle` - 1 had its deliveries done ahead
       (mem_icnt_pre_eject), which took `pre_ejects` packets */
    uint64_t pre_cycle;
    uint32_t pre_ejects;
    mem_icnt_stats st;
};

mem_icnt *mem_icnt_new(uint32_t ninputs, uint32_t noutputs, uint32_t flit_bytes,
                       uint32_t latency, uint32_t in_buffer, uint32_t out_buffer,
                       uint32_t speedup)
{
    mem_icnt *n = ws_lines_alloc(sizeof *n);
    if (!n) return NULL;
    n->nin = ninputs ? ninputs : 1;
    n->nout = noutputs ? noutputs : 1;
    n->flit_bytes = flit_bytes ? flit_bytes : 32;
    n->latency = latency ? latency : 1;
    n->in_cap = in_buffer ? in_buffer : 1;
    n->out_cap = out_buffer ? out_buffer : 1;
    n->speedup = speedup < 1 ? 1 : speedup > ICNT_MAX_SPEEDUP ? ICNT_MAX_SPEEDUP : speedup;
    n->in = ws_lines_alloc(n->nin * sizeof *n->in);
    n->out = calloc(n->nout, sizeof *n->out);
    n->free_head = ICNT_NIL;
    if (!n->in || !n->out) { mem_icnt_free(n); return NULL; }
    for (uint32_t i = 0; i < n->nin; i++) {
        n->in[i].q = (icnt_fifo){ ICNT_NIL, ICNT_NIL, 0 };
        if (n->nout <= 64 && !(n->in[i].ndest = calloc(n->nout, sizeof *n->in[i].ndest))) {
            mem_icnt_free(n);
            return NULL;
        }
    }
    for (uint32_t o = 0; o < n->nout; o++) n->out[o].q = (icnt_fifo){ ICNT_NIL, ICNT_NIL, 0 };
    /* every flit of every buffer could be its own packet; cap the first
       pool so that huge ("unlimited") buffers start small and grow */
    uint64_t want = (uint64_t)n->nin * n->in_cap + (uint64_t)n->nout * n->out_cap;
    n->pool_cap = want > 4096 ? 4096 : (uint32_t)want;
    n->pool = malloc((size_t)n->pool_cap * sizeof *n->pool);
    if (!n->pool) { mem_icnt_free(n); return NULL; }
    for (uint32_t k = n->pool_cap; k-- > 0;) { n->pool[k].next = n->free_head; n->free_head = k; }
    return n;
}

void mem_icnt_free(mem_icnt *n)
{
    if (!n) return;
    for (uint32_t i = 0; n->in && i < n->nin; i++) free(n->in[i].ndest);
    free(n->in);
    free(n->out);
    free(n->pool);
    free(n);
}

uint32_t mem_icnt_flits(const mem_icnt *n, uint32_t bytes)
{
    uint32_t f = (bytes + n->flit_bytes - 1) / n->flit_bytes;
    return f ? f : 1;
}

bool mem_icnt_can_inject(const mem_icnt *n, uint32_t input, uint32_t flits)
{
    return n->in[input].used + flits <= n->in_cap;
}

uint32_t mem_icnt_free_flits(const mem_icnt *n, uint32_t input)
{
    return n->in_cap - n->in[input].used;
}

/* A pool slot; grows the pool (rare: only past its first size). */
static uint32_t icnt_alloc(mem_icnt *n)
{
    if (n->free_head == ICNT_NIL) {
        uint32_t cap = n->pool_cap * 2;
        icnt_pkt *p = realloc(n->pool, (size_t)cap * sizeof *p);
        if (!p) return ICNT_NIL;
        n->pool = p;
        for (uint32_t k = cap; k-- > n->pool_cap;) { p[k].next = n->free_head; n->free_head = k; }
        n->pool_cap = cap;
    }
    uint32_t k = n->free_head;
    n->free_head = n->pool[k].next;
    return k;
}

static void fifo_push(mem_icnt *n, icnt_fifo *q, uint32_t k)
{
    n->pool[k].next = ICNT_NIL;
    if (q->tail == ICNT_NIL) q->head = k;
    else n->pool[q->tail].next = k;
    q->tail = k;
    q->n++;
}

static uint32_t fifo_pop(mem_icnt *n, icnt_fifo *q)
{
    uint32_t k = q->head;
    q->head = n->pool[k].next;
    if (q->head == ICNT_NIL) q->tail = ICNT_NIL;
    q->n--;
    return k;
}

bool mem_icnt_inject(mem_icnt *n, uint32_t input, uint32_t output, const mem_req *r,
                     uint32_t flits)
{
    uint32_t k = icnt_alloc(n);
    if (k == ICNT_NIL) return false;     /* out of host memory */
    icnt_pkt *p = &n->pool[k];
    p->r = *r;
    p->out = output < n->nout ? output : n->nout - 1;
    p->flits = flits;
    p->arrive = 0;
    fifo_push(n, &n->in[input].q, k);
    n->in[input].used += flits;
    if (n->in[input].ndest && n->in[input].ndest[p->out]++ == 0)
        n->in[input].dests |= 1ull << p->out;
    n->npackets++;
    n->st.packets++;
    n->st.flits += flits;
    return true;
}

/* Give every output's arrived head to the sink. */
static void icnt_eject(mem_icnt *n, uint64_t cycle, mem_icnt_sink sink, void *ctx)
{
    for (uint32_t o = 0; o < n->nout; o++) {
        icnt_out *out = &n->out[o];
        if (!out->q.n) continue;
        icnt_pkt *p = &n->pool[out->q.head];
        if (p->arrive > cycle) continue;
        if (!sink(ctx, o, &p->r)) { n->st.eject_stalls++; continue; }
        out->used -= p->flits;
        uint32_t k = fifo_pop(n, &out->q);
        n->pool[k].next = n->free_head;
        n->free_head = k;
        n->npackets--;
    }
}

/* Unlink packet k (after `prev`, ICNT_NIL = it is the head) from q. */
static void fifo_unlink(mem_icnt *n, icnt_fifo *q, uint32_t prev, uint32_t k)
{
    uint32_t next = n->pool[k].next;
    if (prev == ICNT_NIL) q->head = next;
    else n->pool[prev].next = next;
    if (q->tail == k) q->tail = prev;
    q->n--;
}

/* Outputs free now with at least one credit (bit o = output o), for a
   network of at most 64 outputs: icnt_pick_fast's first filter. */
static uint64_t icnt_avail(const mem_icnt *n, uint64_t cycle)
{
    uint64_t m = 0;
    for (uint32_t o = 0; o < n->nout; o++)
        if (n->out[o].busy_until <= cycle && n->out[o].used < n->out_cap) m |= 1ull << o;
    return m;
}

/*
** icnt_pick for at most 64 outputs: the same packet, counts and order,
** but the outputs already found blocked are a bit mask in a register and
** the free ones another (`avail`: icnt_match clears an output's bit when a
** packet takes it), so a long queue is walked touching only its packets,
** and the walk stops as soon as no output it has not seen blocked could
** take anything.
*/
static uint32_t icnt_pick_fast(mem_icnt *n, icnt_in *in, uint64_t avail, uint32_t *prev)
{
    uint64_t seen = 0;
    uint32_t pv = ICNT_NIL;
    avail &= in->dests;                             /* only outputs it has packets for */
    for (uint32_t k = in->q.head; k != ICNT_NIL; pv = k, k = n->pool[k].next) {
        const icnt_pkt *p = &n->pool[k];
        uint64_t bit = 1ull << p->out;
        if (seen & bit) continue;                   /* an older packet waits for it */
        bool head = k == in->q.head;
        if ((avail & bit) || head) {                /* the head's credits are counted */
            const icnt_out *out = &n->out[p->out];
            bool credits = out->used + p->flits <= n->out_cap;
            if ((avail & bit) && credits) { *prev = pv; return k; }
            if (!credits && head) n->st.credit_stalls++;
        }
        seen |= bit;
        if (!(avail & ~seen)) break;                /* nothing left could take one */
    }
    return ICNT_NIL;
}

/* First packet of input `in` that can cross now (ICNT_NIL: none); its
   predecessor goes to *prev.  Counts a credit stall when the head waits
   for credits. */
static uint32_t icnt_pick(mem_icnt *n, icnt_in *in, uint64_t cycle, uint32_t *prev)
{
    uint64_t scan = ++n->scan;
    uint32_t pv = ICNT_NIL;
    for (uint32_t k = in->q.head; k != ICNT_NIL; pv = k, k = n->pool[k].next) {
        icnt_pkt *p = &n->pool[k];
        icnt_out *out = &n->out[p->out];
        if (out->seen == scan) continue;            /* an older packet waits for it */
        bool credits = out->used + p->flits <= n->out_cap;
        if (out->busy_until <= cycle && credits) { *prev = pv; return k; }
        if (!credits && k == in->q.head) n->st.credit_stalls++;
        out->seen = scan;
    }
    return ICNT_NIL;
}

/* Match waiting packets to outputs that are free and have credits. */
static void icnt_match(mem_icnt *n, uint64_t cycle)
{
    bool fast = n->nout <= 64;
    uint64_t avail = fast ? icnt_avail(n, cycle) : 0;
    for (uint32_t j = 0; j < n->nin; j++) {
        uint32_t i = n->rr + j < n->nin ? n->rr + j : n->rr + j - n->nin;
        icnt_in *in = &n->in[i];
        for (uint32_t l = 0; l < n->speedup && in->q.n; l++) {
            if (in->busy_until[l] > cycle) continue;
            uint32_t prev, k = fast ? icnt_pick_fast(n, in, avail, &prev)
                                    : icnt_pick(n, in, cycle, &prev);
            if (k == ICNT_NIL) break;
            icnt_pkt *p = &n->pool[k];
            icnt_out *out = &n->out[p->out];
            avail &= ~(1ull << (p->out & 63));      /* busy until its flits have crossed */
            fifo_unlink(n, &in->q, prev, k);
            if (in->ndest && --in->ndest[p->out] == 0) in->dests &= ~(1ull << p->out);
            in->busy_until[l] = out->busy_until = cycle + p->flits;
            in->leaving[l] = p->flits;
            n->nleaving++;
            if (in->busy_until[l] < n->leave_due) n->leave_due = in->busy_until[l];
            out->used += p->flits;
            p->arrive = cycle + n->latency + p->flits - 1;
            fifo_push(n, &out->q, k);
        }
    }
    n->rr = n->rr + 1 < n->nin ? n->rr + 1 : 0;
}

/* Transfers whose flits have all left their input: its credits return.
   Done again in the same cycle, it does nothing. */
void mem_icnt_release(mem_icnt *n, uint64_t cycle)
{
    if (!n->nleaving || n->leave_due > cycle) return;
    uint64_t due = UINT64_MAX;
    for (uint32_t i = 0; i < n->nin; i++)
        for (uint32_t l = 0; l < n->speedup; l++) {
            icnt_in *in = &n->in[i];
            if (!in->leaving[l]) continue;
            if (in->busy_until[l] > cycle) {
                if (in->busy_until[l] < due) due = in->busy_until[l];
                continue;
            }
            in->used -= in->leaving[l];
            in->leaving[l] = 0;
            n->nleaving--;
        }
    n->leave_due = due;
}

void mem_icnt_pre_eject(mem_icnt *n, uint64_t cycle, mem_icnt_sink sink, void *ctx)
{
    uint32_t before = n->npackets;
    icnt_eject(n, cycle, sink, ctx);
    n->pre_cycle = cycle + 1;
    n->pre_ejects = before - n->npackets;
}

void mem_icnt_tick(mem_icnt *n, uint64_t cycle, mem_icnt_sink sink, void *ctx)
{
    bool pre = n->pre_cycle == cycle + 1;
    n->pre_cycle = 0;
    /* an idle network does nothing, not even turn its round robin: idle
       as it was before its deliveries were done ahead.  (A release done
       ahead never changes that: a transfer's packet stays in the network
       until it is delivered, at the earliest in the cycle its flits have
       left: latency >= 1.) */
    if (!(n->npackets + (pre ? n->pre_ejects : 0)) && !n->nleaving) return;
    mem_icnt_release(n, cycle);
    if (!pre) icnt_eject(n, cycle, sink, ctx);
    icnt_match(n, cycle);
}

uint32_t mem_icnt_packets(const mem_icnt *n) { return n->npackets; }
bool mem_icnt_idle(const mem_icnt *n) { return !n->npackets && !n->nleaving; }
const mem_icnt_stats *mem_icnt_get_stats(const mem_icnt *n) { return &n->st; }
