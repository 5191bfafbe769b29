/*
** memsys.c -- the full memory system: request network, L2 slices, DRAM
** controllers, reply network, and the clock domains that drive them.
**
** Time: the GPU advances the memory one core cycle at a time (or runs it
** ahead while the SMs sleep, mem_sys_run_until).  A core cycle's span
** contains 0 or more edges of each other domain (gpu_clocks); they are
** processed in time order (ties: interconnect, L2, DRAM), so a span split
** any way gives the same result.  A unit is ticked only when it has work;
** a memory system with nothing in it skips whole spans.
**
** Routing: channel from the DRAM address map (so every slice's misses go
** to the controller that owns their rows), sub-partition within the
** channel from l2_interleave_bytes granules of the address with the
** channel digit taken out.  Packets carry a header of MS_HDR_BYTES: a read
** request is the header, a write or atomic the header + data; replies the
** other way round (a write's reply is an acknowledgement).
*/
#include "memsys.h"
#include "addrmap.h"
#include "dram.h"
#include "icnt.h"
#include "l2.h"
#include "rowshare.h"
#include "../common/clock.h"
#include "../common/lines.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MS_HDR_BYTES 8
#define MS_UNLIMITED_FLITS (1u << 20)
#define MS_DELIVER_CAP 256
/* packets an interconnect input sends at once: GPGPU-Sim's Fermi crossbar
   (config_fermi_islip.icnt, input_speedup = 2) */
#define MS_INPUT_SPEEDUP 2

typedef struct ms_ring {
    mem_req *v;
    uint32_t head, n, cap;
} ms_ring;

/* A send made while sends are deferred (mem_sys defer): accepted, with
   its packet, or refused, with the free flits it found. */
typedef struct ms_pend {
    mem_req q;
    uint32_t flits, slice;
    int64_t refused_free;        /* -1: accepted */
} ms_pend;

/* Replies an SM took while its accounting waits (ml_recv_sm). */
typedef struct ms_tally {
    uint32_t n;                  /* replies */
    uint64_t count, sum, max;    /* of the reads among them: round trips */
    uint64_t hist[GPU_RT_BUCKETS];
} ms_tally;

/* What is kept per SM.  Each on lines of its own: an SM's tick writes
   them on its thread while the memory's span writes other SMs' (the
   parallel timing model), and neighbours sharing a line would pass it
   between the CPUs' caches every cycle. */
typedef struct ms_smport {
    _Alignas(64) mem_sys *ms;
    uint32_t sm;
    ms_tally got;
    ms_pend *pend;               /* deferred sends of this cycle, in order */
    uint32_t npend, cap;
    uint32_t pend_flits;         /* flits of the accepted ones */
    int64_t blocked;             /* free flits when a send was refused, -1 */
    ms_ring deliver;             /* replies out of the reply network */
} ms_smport;

typedef struct ms_chan {
    mem_dram *d;
    void *sched_st;
    void *pf_st;          /* the prefetcher's instance for this channel */
    mem_sys *ms;          /* for the prefetch sink */
    uint64_t next_ev;     /* DRAM cycle of its next tick (UINT64_MAX: idle) */
    bool held;            /* `hold` popped from DRAM, its slice's fill queue full */
    mem_req hold;
    uint32_t rr;          /* slice of this channel offered the controller first */
} ms_chan;

struct mem_sys {
    /* what the SMs' ticks read, set up once (or per kernel): apart from
       the lines the span writes, so that SMs ticking on other threads
       beside it keep their copies */
    gpu_config cfg;
    uint32_t nsm, nch, nsub, nslices;
    mem_icnt *req, *rep;
    mem_l2 **l2;
    ms_chan *ch;
    const ws_dram_sched_ops *sched;
    const ws_dram_prefetch_ops *pf;
    ms_smport *ports;     /* per SM */
    bool defer;           /* sends wait in their port for ml_commit */
    bool warp_info;       /* a DRAM scheduler reads the SMs' warp counters */
    mem_addrmap map;
    _Alignas(64) uint32_t nblocked, ndeliver, outstanding;
    bool refused;
    /* mem_sys_prepare ran for the next span: whether it has work (as it
       had before the parts done early) */
    bool prepped, prep_work;
    gpu_clocks clk;
    uint64_t t[GPU_CLK_COUNT];   /* edges processed: the next edge's cycle number */
    uint64_t seq;
    /* counters not kept by a unit */
    uint64_t inject_stalls, reply_stalls, dram_stalls;
    uint64_t rt_count, rt_sum, rt_max, rt_hist[GPU_RT_BUCKETS];
    uint64_t mlp_sum, mlp_count;      /* in flight at each request, itself included */
    /* dram_cta_rows: the CTAs behind each DRAM row's demand reads (NULL: off) */
    mem_rowshare *rows;
    uint32_t rows_wpc;    /* warps per CTA of the running kernel */
};

/* ------------------------------------------------------------------ */
/* Rings                                                               */
/* ------------------------------------------------------------------ */

static inline void ring_push(ms_ring *q, const mem_req *r)
{
    uint32_t t = q->head + q->n;
    q->v[t < q->cap ? t : t - q->cap] = *r;
    q->n++;
}

static inline void ring_pop(ms_ring *q, mem_req *out)
{
    *out = q->v[q->head];
    q->head = q->head + 1 < q->cap ? q->head + 1 : 0;
    q->n--;
}

/* ------------------------------------------------------------------ */
/* Routing and packet sizes                                            */
/* ------------------------------------------------------------------ */

/* The slice serving `addr` (*slice), and the address inside that slice:
   `addr` without the channel and sub-partition digits (GPGPU-Sim's
   partition address), which l2.set_index_local indexes sets with. */
static uint64_t ms_route(const mem_sys *ms, uint64_t addr, uint32_t *slice)
{
    uint32_t ch;
    uint64_t a, ib = ms->cfg.l2_interleave_bytes;
    if (ms->map.dramid_pos >= 0) {
        /* the channel digit at bit N, and the address without it */
        uint32_t pos = (uint32_t)ms->map.dramid_pos;
        uint64_t high = addr >> pos, low = pos ? addr & ((1ull << pos) - 1) : 0;
        ch = (uint32_t)(high % ms->nch);
        a = ((high / ms->nch) << pos) | low;
    } else {
        mem_addr_loc loc;
        mem_addrmap_decode(&ms->map, addr, &loc);
        ch = loc.channel;
        a = addr / ib / ms->nch * ib + addr % ib;
    }
    uint64_t g = a / ib;
    *slice = ch * ms->nsub + (uint32_t)(g % ms->nsub);
    return g / ms->nsub * ib + a % ib;
}

uint32_t mem_sys_slice_of(const mem_sys *ms, uint64_t addr)
{
    uint32_t s;
    ms_route(ms, addr, &s);
    return s;
}

/* mem_cache.set_key of the L2 slices: the line number inside the slice. */
static uint64_t ms_slice_line(const void *ctx, uint64_t lineno)
{
    const mem_sys *ms = ctx;
    uint32_t s, line = ms->cfg.l2.line_bytes ? ms->cfg.l2.line_bytes : 128;
    return ms_route(ms, lineno * line, &s) / line;
}

uint32_t mem_sys_n_slices(const mem_sys *ms) { return ms->nslices; }

bool mem_sys_l2_holds(const mem_sys *ms, uint32_t slice, uint64_t addr)
{
    return slice < ms->nslices && mem_l2_holds(ms->l2[slice], addr);
}

static inline uint32_t req_bytes(const mem_req *r)
{
    return r->kind == MEM_READ ? MS_HDR_BYTES : MS_HDR_BYTES + r->bytes;
}

static inline uint32_t rep_bytes(const mem_req *r)
{
    return r->kind == MEM_WRITE ? MS_HDR_BYTES : MS_HDR_BYTES + r->bytes;
}

/* ------------------------------------------------------------------ */
/* Creation                                                            */
/* ------------------------------------------------------------------ */

static uint32_t umax(uint32_t a, uint32_t b) { return a > b ? a : b; }

/* The prefetch sink of channel `ctx`: the slice the line maps to reserves
   an MSHR; the fill goes back to that slice like a demand fill. */
static bool ms_pf_reserve(void *ctx, uint64_t addr, mem_req *out)
{
    ms_chan *ch = ctx;
    mem_sys *ms = ch->ms;
    uint32_t s = mem_sys_slice_of(ms, addr), id;      /* the slice demand would use */
    /* the fill returns to a slice of this channel (ms_dram_to_l2): a map
       whose routing disagrees with its decoding gets no prefetches rather
       than an MSHR no fill will ever free */
    if (s >= ms->nslices || &ms->ch[s / ms->nsub] != ch
        || !mem_l2_prefetch_reserve(ms->l2[s], addr, &id))
        return false;
    uint32_t line = ms->cfg.l2.line_bytes ? ms->cfg.l2.line_bytes : 128;
    *out = (mem_req){ .addr = addr / line * line, .bytes = line, .kind = MEM_READ,
                      .src = (uint8_t)(s % ms->nsub), .sm = UINT16_MAX, .id = id,
                      .warp = UINT32_MAX, .warp_uid = UINT64_MAX, .seq = ms->seq++ };
    return true;
}

/* One prefetcher instance per channel, wired to its controller. */
static int ms_make_prefetchers(mem_sys *ms, const ws_param_values *vals, char *err,
                               size_t errlen)
{
    for (uint32_t i = 0; ms->pf && i < ms->nch; i++) {
        ms_chan *ch = &ms->ch[i];
        ch->ms = ms;
        ws_policy_env env = { .nsms = ms->nsm, .channel = i, .nchannels = ms->nch,
                              .queue_size = ms->cfg.dram_queue,
                              .banks = mem_dram_banks(ch->d),
                              .row_lines = mem_dram_row_lines(ch->d) };
        if (ms->pf->init && !(ch->pf_st = ms->pf->init(vals, &env))) {
            snprintf(err, errlen, "DRAM prefetcher '%s' failed to initialise", ms->pf->name);
            return -1;
        }
        mem_dram_set_prefetch(ch->d, ms->pf, ch->pf_st,
                              (mem_prefetch_sink){ .ctx = ch, .reserve = ms_pf_reserve });
    }
    return 0;
}

static int ms_make_channels(mem_sys *ms, const ws_param_values *vals, mem_warp_info info,
                            char *err, size_t errlen)
{
    const gpu_config *c = &ms->cfg;
    if (!ms->sched || !ms->sched->pick) {
        snprintf(err, errlen, "no DRAM scheduler given");
        return -1;
    }
    for (uint32_t i = 0; i < ms->nch; i++) {
        ms_chan *ch = &ms->ch[i];
        ws_policy_env env = { .nsms = ms->nsm, .channel = i, .nchannels = ms->nch,
                              .queue_size = c->dram_queue };
        if (ms->sched->init && !(ch->sched_st = ms->sched->init(vals, &env))) {
            snprintf(err, errlen, "DRAM scheduler '%s' failed to initialise", ms->sched->name);
            return -1;
        }
        ch->d = mem_dram_new(c, i, ms->sched, ch->sched_st, info);
        if (!ch->d) {
            if (mem_dram_check_config(c, err, errlen) == 0)
                snprintf(err, errlen, "out of host memory creating DRAM channel %u", i);
            return -1;
        }
        ch->next_ev = UINT64_MAX;
    }
    return 0;
}

/* Largest payload the SMs send or receive, so buffers fit one packet. */
static uint32_t ms_max_packet(const gpu_config *c)
{
    uint32_t b = umax(umax(c->l1d.line_bytes, c->l1c.line_bytes),
                      umax(c->l1t.line_bytes, c->coalesce_bytes));
    return MS_HDR_BYTES + umax(b, 128);
}

mem_sys *mem_sys_new(const gpu_config *cfg, uint32_t nsm, const ws_dram_sched_ops *sched,
                     const ws_param_values *sched_params, const ws_dram_prefetch_ops *pf,
                     const ws_param_values *pf_params, mem_warp_info info,
                     char *err, size_t errlen)
{
    mem_sys *ms = ws_lines_alloc(sizeof *ms);   /* (its lines: struct mem_sys) */
    if (!ms) {
        snprintf(err, errlen, "out of host memory creating the memory system");
        return NULL;
    }
    ms->cfg = *cfg;
    gpu_config *c = &ms->cfg;
    if (!c->l2_interleave_bytes) c->l2_interleave_bytes = 256;
    ms->nsm = nsm ? nsm : 1;
    ms->nch = c->n_mem ? c->n_mem : 1;
    ms->nsub = c->n_sub_per_mem ? c->n_sub_per_mem : 1;
    ms->nslices = ms->nch * ms->nsub;
    gpu_clocks_init(&ms->clk, c->core_mhz, c->icnt_mhz, c->l2_mhz, c->dram_mhz);
    if (mem_addrmap_parse(&ms->map, c->dram_addr_map, ms->nch, ms->nsub, err, errlen)) {
        free(ms);
        return NULL;
    }
    if (c->dram_cta_rows && !(ms->rows = mem_rowshare_new())) {
        snprintf(err, errlen, "out of host memory creating the memory system");
        free(ms);
        return NULL;
    }
    uint32_t flit = c->icnt_flit_bytes ? c->icnt_flit_bytes : 32;
    uint32_t big = (ms_max_packet(c) + flit - 1) / flit;
    uint32_t inb = c->unlimited_mem ? MS_UNLIMITED_FLITS : umax(c->icnt_in_buffer, big);
    uint32_t outb = c->unlimited_mem ? MS_UNLIMITED_FLITS : umax(c->icnt_out_buffer, big);
    ms->req = mem_icnt_new(ms->nsm, ms->nslices, flit, c->icnt_latency, inb, outb,
                           MS_INPUT_SPEEDUP);
    ms->rep = mem_icnt_new(ms->nslices, ms->nsm, flit, c->icnt_latency, inb, outb,
                           MS_INPUT_SPEEDUP);
    ms->l2 = calloc(ms->nslices, sizeof *ms->l2);
    ms->ch = calloc(ms->nch, sizeof *ms->ch);
    ms->ports = ws_lines_alloc(ms->nsm * sizeof *ms->ports);
    bool ok = ms->req && ms->rep && ms->l2 && ms->ch && ms->ports;
    for (uint32_t i = 0; ok && i < ms->nslices; i++) {
        ok = (ms->l2[i] = mem_l2_new(c)) != NULL;
        if (ok && c->l2_set_index_local) mem_l2_set_key(ms->l2[i], ms_slice_line, ms);
    }
    for (uint32_t i = 0; ok && i < ms->nsm; i++) {
        ms->ports[i] = (ms_smport){ .ms = ms, .sm = i, .blocked = -1,
                                    .deliver.cap = MS_DELIVER_CAP };
        ok = (ms->ports[i].deliver.v = calloc(MS_DELIVER_CAP, sizeof(mem_req))) != NULL;
    }
    if (!ok) {
        snprintf(err, errlen, "out of host memory creating the memory system");
        mem_sys_free(ms);
        return NULL;
    }
    ms->sched = sched;
    ms->pf = pf;
    ms->warp_info = info.get != NULL;
    if (ms_make_channels(ms, sched_params, info, err, errlen)
        || ms_make_prefetchers(ms, pf_params, err, errlen)) {
        mem_sys_free(ms);
        return NULL;
    }
    return ms;
}

void mem_sys_free(mem_sys *ms)
{
    if (!ms) return;
    mem_rowshare_free(ms->rows);
    mem_icnt_free(ms->req);
    mem_icnt_free(ms->rep);
    for (uint32_t i = 0; ms->l2 && i < ms->nslices; i++) mem_l2_free(ms->l2[i]);
    for (uint32_t i = 0; ms->ch && i < ms->nch; i++) {
        mem_dram_free(ms->ch[i].d);
        if (ms->ch[i].sched_st && ms->sched->destroy) ms->sched->destroy(ms->ch[i].sched_st);
        if (ms->ch[i].pf_st && ms->pf->destroy) ms->pf->destroy(ms->ch[i].pf_st);
    }
    free(ms->l2);
    free(ms->ch);
    for (uint32_t i = 0; ms->ports && i < ms->nsm; i++) {
        free(ms->ports[i].pend);
        free(ms->ports[i].deliver.v);
    }
    free(ms->ports);
    free(ms);
}

/* ------------------------------------------------------------------ */
/* The SM side: ports                                                  */
/* ------------------------------------------------------------------ */

static bool ms_can_send(void *impl)
{
    const ms_smport *p = impl;
    return mem_icnt_free_flits(p->ms->req, p->sm) > p->pend_flits;
}

/* A send the interconnect refused: counted, and the SM marked blocked
   with the room its input had. */
static void ms_refuse(mem_sys *ms, uint32_t sm, int64_t free_flits)
{
    ms->inject_stalls++;
    ms->refused = true;
    if (ms->ports[sm].blocked < 0) ms->nblocked++;
    ms->ports[sm].blocked = free_flits;
}

static bool ms_inject(mem_sys *ms, uint32_t sm, mem_req *q, uint32_t slice, uint32_t flits)
{
    q->seq = ms->seq;
    if (!mem_icnt_inject(ms->req, sm, slice, q, flits)) return false;
    ms->seq++;
    ms->outstanding++;
    ms->mlp_sum += ms->outstanding;
    ms->mlp_count++;
    if (ms->ports[sm].blocked >= 0) {
        ms->ports[sm].blocked = -1;
        ms->nblocked--;
    }
    return true;
}

/* Keep a deferred send (accepted when `refused_free` < 0); false when the
   host is out of memory for the record. */
static bool ms_pend_add(ms_smport *p, const mem_req *q, uint32_t slice, uint32_t flits,
                        int64_t refused_free)
{
    if (p->npend == p->cap) {
        uint32_t cap = p->cap ? p->cap * 2 : 8;
        ms_pend *v = realloc(p->pend, cap * sizeof *v);
        if (!v) return false;
        p->pend = v;
        p->cap = cap;
    }
    p->pend[p->npend++] = (ms_pend){ .q = *q, .flits = flits, .slice = slice,
                                     .refused_free = refused_free };
    if (refused_free < 0) p->pend_flits += flits;
    return true;
}

/*
** A send from an SM.  While sends are deferred (the SMs tick on several
** threads) the decision is the same as an injection would make, from the
** SM's own input buffer less what it sent this cycle, and ml_commit
** injects them later in the order the serial model sends them.
*/
static bool ms_send(void *impl, const mem_req *r, uint64_t cycle)
{
    ms_smport *p = impl;
    mem_sys *ms = p->ms;
    uint32_t flits = mem_icnt_flits(ms->req, req_bytes(r));
    uint32_t slice = mem_sys_slice_of(ms, r->addr);
    mem_req q = *r;
    q.sent = cycle;
    if (ms->defer) {
        uint32_t room = mem_icnt_free_flits(ms->req, p->sm) - p->pend_flits;
        bool ok = flits <= room;
        return ms_pend_add(p, &q, slice, flits, ok ? -1 : (int64_t)room) && ok;
    }
    if (!mem_icnt_can_inject(ms->req, p->sm, flits) || !ms_inject(ms, p->sm, &q, slice, flits)) {
        ms_refuse(ms, p->sm, mem_icnt_free_flits(ms->req, p->sm));
        return false;
    }
    return true;
}

/* Would every send of this SM be refused now, as its last ones were?
   Each waiting request was refused with the room `blocked` records (it
   needs more flits than that), and its input has no more room now (only
   the crossbar frees room; an accepted send clears `blocked`). */
static bool ms_refusing(void *impl)
{
    const ms_smport *p = impl;
    int64_t was = p->blocked;
    return was >= 0 && !p->npend && (int64_t)mem_icnt_free_flits(p->ms->req, p->sm) <= was;
}

static void ms_tally_add(ms_tally *t, const mem_req *r, uint64_t cycle)
{
    t->n++;
    if (r->kind == MEM_WRITE) return;
    uint64_t lat = cycle > r->sent ? cycle - r->sent : 0;
    uint32_t b = 0;
    while (b + 1 < GPU_RT_BUCKETS && lat >> (b + 1)) b++;
    t->hist[b]++;
    t->count++;
    t->sum += lat;
    if (lat > t->max) t->max = lat;
}

/* Count the replies of `t` as delivered (all sums and a maximum, so the
   order ports are applied in does not matter) and empty it. */
static void ms_tally_apply(mem_sys *ms, ms_tally *t)
{
    if (!t->n) return;
    ms->outstanding -= t->n;
    ms->ndeliver -= t->n;
    for (uint32_t b = 0; b < GPU_RT_BUCKETS; b++) ms->rt_hist[b] += t->hist[b];
    ms->rt_count += t->count;
    ms->rt_sum += t->sum;
    if (t->max > ms->rt_max) ms->rt_max = t->max;
    *t = (ms_tally){ 0 };
}

static void ms_account_reply(mem_sys *ms, const mem_req *r, uint64_t cycle)
{
    ms_tally t = { 0 };
    ms_tally_add(&t, r, cycle);
    ms_tally_apply(ms, &t);
}

static bool ms_port_recv(void *impl, uint64_t cycle, mem_req *out)
{
    ms_smport *p = impl;
    ms_ring *q = &p->deliver;
    if (!q->n) return false;
    ring_pop(q, out);
    ms_account_reply(p->ms, out, cycle);
    return true;
}

mem_port mem_sys_port(mem_sys *ms, uint32_t sm)
{
    return (mem_port){ .impl = &ms->ports[sm < ms->nsm ? sm : 0], .can_send = ms_can_send,
                       .send = ms_send, .recv = ms_port_recv, .refusing = ms_refusing };
}

bool mem_sys_recv(mem_sys *ms, uint64_t cycle, mem_req *out)
{
    if (!ms->ndeliver) return false;
    for (uint32_t i = 0; i < ms->nsm; i++)
        if (ms->ports[i].deliver.n) return ms_port_recv(&ms->ports[i], cycle, out);
    return false;
}

uint32_t mem_sys_in_flight(const mem_sys *ms) { return ms->outstanding; }

/* ------------------------------------------------------------------ */
/* Domain edges                                                        */
/* ------------------------------------------------------------------ */

/* request network output `o` = slice o */
static bool ms_to_l2(void *ctx, uint32_t o, const mem_req *r)
{
    mem_sys *ms = ctx;
    if (!mem_l2_can_accept(ms->l2[o])) return false;
    mem_l2_push(ms->l2[o], r);
    return true;
}

/* reply network output `o` = SM o */
static bool ms_to_sm(void *ctx, uint32_t o, const mem_req *r)
{
    mem_sys *ms = ctx;
    ms_ring *q = &ms->ports[o].deliver;
    if (q->n == q->cap) return false;
    ring_push(q, r);
    ms->ndeliver++;
    return true;
}

static void ms_icnt_edge(mem_sys *ms, uint64_t t)
{
    mem_icnt_tick(ms->req, t, ms_to_l2, ms);
    mem_icnt_tick(ms->rep, t, ms_to_sm, ms);
}

/* Slice s's outputs: one reply into the reply network, one request into
   its channel's controller (slices of a channel take turns first). */
static void ms_slice_out(mem_sys *ms, uint32_t s, uint64_t t)
{
    mem_l2 *l2 = ms->l2[s];
    const mem_req *r = mem_l2_reply_head(l2, t);
    if (r) {
        uint32_t flits = mem_icnt_flits(ms->rep, rep_bytes(r));
        if (mem_icnt_can_inject(ms->rep, s, flits) && mem_icnt_inject(ms->rep, s, r->sm, r, flits))
            mem_l2_reply_pop(l2);
        else
            ms->reply_stalls++;
    }
}

/* dram_cta_rows: the demand read `r` reaches its DRAM row (a physical
   row: channel, bank, row; write-backs and prefetches have no CTA). */
static void ms_record_row(mem_sys *ms, const mem_req *r)
{
    if (r->kind != MEM_READ || r->warp_uid == UINT64_MAX || !ms->rows_wpc) return;
    mem_addr_loc loc;
    mem_addrmap_decode(&ms->map, r->addr, &loc);
    uint64_t banks = ms->cfg.dram_banks ? ms->cfg.dram_banks : 1;
    uint64_t key = (loc.row * ms->nch + loc.channel) * banks + loc.bank % banks;
    mem_rowshare_add(ms->rows, key, (uint32_t)(r->warp_uid / ms->rows_wpc));
}

static void ms_slice_dram(mem_sys *ms, uint32_t s)
{
    mem_l2 *l2 = ms->l2[s];
    const mem_req *r = mem_l2_dram_head(l2);
    if (!r) return;
    ms_chan *ch = &ms->ch[s / ms->nsub];
    if (!mem_dram_can_accept(ch->d)) { ms->dram_stalls++; return; }
    mem_req d = *r;
    d.src = (uint8_t)(s % ms->nsub);     /* the slice, for the way back */
    uint64_t now = ms->t[GPU_CLK_DRAM];   /* the controller's next cycle */
    if (ms->rows) ms_record_row(ms, &d);
    mem_dram_push(ch->d, &d, now);
    ch->next_ev = now;
    mem_l2_dram_pop(l2);
}

/* Completed DRAM reads of channel c into their slices' fill queues. */
static void ms_dram_to_l2(mem_sys *ms, uint32_t c, uint64_t t, bool pop)
{
    ms_chan *ch = &ms->ch[c];
    for (;;) {
        if (!ch->held) {
            if (!pop || !mem_dram_pop(ch->d, t, &ch->hold)) return;
            if (ch->hold.kind != MEM_READ) continue;      /* write done: nobody waits */
            ch->held = true;
        }
        mem_l2 *l2 = ms->l2[c * ms->nsub + ch->hold.src % ms->nsub];
        if (!mem_l2_can_fill(l2)) return;
        mem_l2_fill(l2, &ch->hold);
        ch->held = false;
    }
}

static void ms_l2_edge(mem_sys *ms, uint64_t t)
{
    for (uint32_t c = 0; c < ms->nch; c++)
        if (ms->ch[c].held) ms_dram_to_l2(ms, c, 0, false);
    for (uint32_t s = 0; s < ms->nslices; s++) {
        mem_l2 *l2 = ms->l2[s];
        if (mem_l2_needs_tick(l2)) mem_l2_tick(l2, t);
        ms_slice_out(ms, s, t);
    }
    for (uint32_t c = 0; c < ms->nch; c++)
        for (uint32_t k = 0; k < ms->nsub; k++) {
            uint32_t s = c * ms->nsub + (ms->ch[c].rr + k) % ms->nsub;
            ms_slice_dram(ms, s);
        }
    for (uint32_t c = 0; c < ms->nch; c++) ms->ch[c].rr = (ms->ch[c].rr + 1) % ms->nsub;
}

static void ms_dram_edge(mem_sys *ms, uint64_t t)
{
    for (uint32_t c = 0; c < ms->nch; c++) {
        ms_chan *ch = &ms->ch[c];
        if (t < ch->next_ev) continue;
        mem_dram_tick(ch->d, t);
        ms_dram_to_l2(ms, c, t, true);
        ch->next_ev = mem_dram_next_event(ch->d, t + 1);
    }
}

/* Anything inside that needs edges processed? */
static bool ms_has_work(const mem_sys *ms)
{
    if (!mem_icnt_idle(ms->req) || !mem_icnt_idle(ms->rep)) return true;
    for (uint32_t s = 0; s < ms->nslices; s++)
        if (mem_l2_busy(ms->l2[s])) return true;
    for (uint32_t c = 0; c < ms->nch; c++)
        if (ms->ch[c].held || ms->ch[c].next_ev != UINT64_MAX) return true;
    return false;
}

/* One core cycle's span of edges, in time order. */
static void ms_span(mem_sys *ms)
{
    uint64_t ticks[GPU_CLK_COUNT];
    gpu_clocks_advance(&ms->clk, 1, ticks);
    bool work = ms->prepped ? ms->prep_work : ms_has_work(ms);
    ms->prepped = false;
    if (!work) {
        for (int d = 1; d < GPU_CLK_COUNT; d++) ms->t[d] += ticks[d];
        return;
    }
    for (;;) {
        int best = 0;
        double bt = 0;
        for (int d = 1; d < GPU_CLK_COUNT; d++) {
            if (!ticks[d]) continue;
            double tm = (double)(ms->t[d] + 1) / ms->clk.mhz[d];
            if (!best || tm < bt) { best = d; bt = tm; }
        }
        if (!best) return;
        uint64_t t = ms->t[best]++;
        ticks[best]--;
        if (best == GPU_CLK_ICNT) ms_icnt_edge(ms, t);
        else if (best == GPU_CLK_L2) ms_l2_edge(ms, t);
        else ms_dram_edge(ms, t);
    }
}

/*
** Before the span that ends at core edge `cycle`, the part of it the SMs'
** next tick reads: the reply network's deliveries to the SMs and the
** request network's returned credits (the room an SM's send is decided
** on), both of the span's one interconnect edge.  Neither depends on what
** the span's earlier L2 and DRAM edges do (those inject into the reply
** network's inputs, and touch nothing of the request network's inputs),
** and what the edge does after them cannot reach an SM within the span
** (a packet matched at an edge arrives at a later one).  So the SMs may
** tick while mem_sys_advance runs the rest.  False (nothing done) when
** that does not hold: a span of more than one interconnect edge, or a
** DRAM scheduler reading the SMs' warp counters, which they change.
*/
bool mem_sys_prepare(mem_sys *ms, uint64_t cycle)
{
    uint64_t edges = gpu_clocks_next(&ms->clk, GPU_CLK_ICNT);
    if (ms->warp_info || ms->clk.cycles[GPU_CLK_CORE] + 1 != cycle || edges > 1)
        return false;
    ms->prep_work = ms_has_work(ms);
    ms->prepped = true;
    if (ms->prep_work && edges == 1) {
        uint64_t t = ms->t[GPU_CLK_ICNT];       /* the edge's number */
        mem_icnt_release(ms->req, t);
        mem_icnt_pre_eject(ms->rep, t, ms_to_sm, ms);
    }
    return true;
}

void mem_sys_advance(mem_sys *ms, uint64_t cycle)
{
    ms->refused = false;
    while (ms->clk.cycles[GPU_CLK_CORE] < cycle) ms_span(ms);
}

/* Could an SM see something at the next cycle? */
static bool ms_visible(const mem_sys *ms)
{
    if (ms->ndeliver) return true;
    if (!ms->nblocked) return false;
    for (uint32_t i = 0; i < ms->nsm; i++)
        if (ms->ports[i].blocked >= 0 && mem_icnt_free_flits(ms->req, i) > ms->ports[i].blocked)
            return true;
    return false;
}

uint64_t mem_sys_run_until(mem_sys *ms, uint64_t cycle, uint64_t limit)
{
    mem_sys_advance(ms, cycle);
    uint64_t now = cycle;
    while (now < limit && !ms_visible(ms)) {
        if (!ms_has_work(ms)) {
            if (limit == UINT64_MAX) return now;      /* nothing will ever come */
            /* nothing inside: jump the clocks (exact, see clock.c) */
            uint64_t ticks[GPU_CLK_COUNT];
            gpu_clocks_advance(&ms->clk, limit - now, ticks);
            for (int d = 1; d < GPU_CLK_COUNT; d++) ms->t[d] += ticks[d];
            return limit;
        }
        ms_span(ms);
        now++;
    }
    return now;
}

/* ------------------------------------------------------------------ */
/* Statistics                                                          */
/* ------------------------------------------------------------------ */

static void ms_add_cache(gpu_cache_stats *to, const gpu_cache_stats *s)
{
    to->accesses += s->accesses;
    to->hits += s->hits;
    to->misses += s->misses;
    to->merges += s->merges;
    to->mshr_allocs += s->mshr_allocs;
    to->merges_inter += s->merges_inter;
    to->reservation_fails += s->reservation_fails;
    to->evictions += s->evictions;
    to->writebacks += s->writebacks;
    to->mshr_occupancy_sum += s->mshr_occupancy_sum;
}

void mem_sys_stats(const mem_sys *ms, gpu_mem_stats *o)
{
    memset(o, 0, sizeof *o);
    o->icnt_cycles = ms->t[GPU_CLK_ICNT];
    o->l2_cycles = ms->t[GPU_CLK_L2];
    o->dram_cycles = ms->t[GPU_CLK_DRAM];
    for (uint32_t s = 0; s < ms->nslices; s++) {
        gpu_cache_stats cs;
        uint64_t full;
        mem_l2_get_stats(ms->l2[s], ms->t[GPU_CLK_L2], &cs, &full);
        ms_add_cache(&o->l2, &cs);
        o->l2_input_full_cycles += full;
    }
    o->l2_dram_stall_cycles = ms->dram_stalls;
    o->l2_reply_stall_cycles = ms->reply_stalls;
    const mem_icnt_stats *rq = mem_icnt_get_stats(ms->req), *rp = mem_icnt_get_stats(ms->rep);
    o->icnt_req_packets = rq->packets;
    o->icnt_req_flits = rq->flits;
    o->icnt_rep_packets = rp->packets;
    o->icnt_rep_flits = rp->flits;
    o->icnt_req_inject_stalls = ms->inject_stalls;
    o->icnt_req_credit_stalls = rq->credit_stalls;
    o->icnt_req_eject_stalls = rq->eject_stalls;
    o->icnt_rep_credit_stalls = rp->credit_stalls;
    o->icnt_rep_eject_stalls = rp->eject_stalls;
    o->mlp_sum = ms->mlp_sum;
    o->mlp_count = ms->mlp_count;
    o->rt_count = ms->rt_count;
    o->rt_sum = ms->rt_sum;
    o->rt_max = ms->rt_max;
    memcpy(o->rt_hist, ms->rt_hist, sizeof o->rt_hist);
    mem_dram_stats sum, one;
    memset(&sum, 0, sizeof sum);
    bool per_ch = ms->nch <= GPU_STATS_CHANNELS;
    for (uint32_t c = 0; c < ms->nch; c++) {
        mem_dram_stats_get(ms->ch[c].d, &one);
        mem_dram_stats_add(&sum, &one);
        if (!per_ch) continue;
        o->ch_col_accesses[c] = one.row_hits + one.row_misses + one.row_conflicts;
        o->ch_row_hits[c] = one.row_hits;
        o->ch_bank_busy_sum[c] = one.bank_busy_sum;
        o->ch_any_bank_busy[c] = one.any_bank_busy_cycles;
    }
    o->dram_reads = sum.reads;
    o->dram_writes = sum.writes;
    o->dram_bytes = sum.bytes;
    o->dram_rd_bytes = sum.rd_bytes;
    o->dram_row_hits = sum.row_hits;
    o->dram_row_misses = sum.row_misses;
    o->dram_row_conflicts = sum.row_conflicts;
    o->dram_activates = sum.activates;
    o->dram_precharges = sum.precharges;
    o->dram_col_cmds = sum.col_cmds;
    o->dram_bank_busy_sum = sum.bank_busy_sum;
    o->dram_any_bank_busy_cycles = sum.any_bank_busy_cycles;
    o->dram_bus_busy_cycles = sum.bus_busy_cycles;
    o->dram_queue_lat_sum = sum.queue_lat_sum;
    o->dram_queue_lat_count = sum.queue_lat_count;
    o->dram_service_lat_sum = sum.service_lat_sum;
    o->dram_max_queue = sum.max_queue;
    o->dram_prefetch_reads = sum.prefetch_reads;
    for (uint32_t s = 0; s < ms->nslices; s++) {
        mem_l2_pf_stats pf;
        mem_l2_pf_stats_get(ms->l2[s], &pf);
        o->l2_prefetch_fills += pf.fills;
        o->l2_prefetch_merges += pf.merges;
        o->l2_prefetch_hits += pf.hits;
    }
    if (ms->rows) {
        mem_rowshare_sum rs;
        mem_rowshare_summary(ms->rows, &rs);
        o->cta_rows = rs.rows;
        o->cta_row_ctas_sum = rs.ctas_sum;
        o->cta_row_score_ppm_sum = rs.score_ppm_sum;
        o->cta_row_lost = rs.lost;
    }
    o->n_channels = ms->nch;
    o->n_slices = ms->nslices;
    o->dram_peak_bytes_per_cycle = mem_dram_peak_bytes_per_cycle(&ms->cfg);
}

_Static_assert(sizeof(gpu_mem_stats) % sizeof(uint64_t) == 0, "gpu_mem_stats: uint64_t only");

void mem_sys_stats_diff(gpu_mem_stats *out, const gpu_mem_stats *a, const gpu_mem_stats *b)
{
    uint64_t va[sizeof *a / 8], vb[sizeof *b / 8];
    memcpy(va, a, sizeof va);
    memcpy(vb, b, sizeof vb);
    for (size_t i = 0; i < sizeof va / 8; i++) va[i] -= vb[i];
    memcpy(out, va, sizeof va);
    out->rt_max = a->rt_max;
    out->dram_max_queue = a->dram_max_queue;
    out->n_channels = a->n_channels;
    out->n_slices = a->n_slices;
    out->dram_peak_bytes_per_cycle = a->dram_peak_bytes_per_cycle;
}

/* ------------------------------------------------------------------ */
/* mem_lower view                                                      */
/* ------------------------------------------------------------------ */

static mem_port ml_port(void *impl, uint32_t sm) { return mem_sys_port(impl, sm); }
static bool ml_recv(void *impl, uint64_t c, mem_req *out) { return mem_sys_recv(impl, c, out); }
static void ml_advance(void *impl, uint64_t c) { mem_sys_advance(impl, c); }
static bool ml_prepare(void *impl, uint64_t c) { return mem_sys_prepare(impl, c); }
static uint64_t ml_run_until(void *impl, uint64_t c, uint64_t lim) { return mem_sys_run_until(impl, c, lim); }
static uint32_t ml_in_flight(const void *impl) { return mem_sys_in_flight(impl); }
static bool ml_refusing(const void *impl) { return ((const mem_sys *)impl)->refused; }
static void ml_stats(const void *impl, gpu_mem_stats *o) { mem_sys_stats(impl, o); }
static void ml_free(void *impl) { mem_sys_free(impl); }

static void ml_defer(void *impl, bool on) { ((mem_sys *)impl)->defer = on; }

/* SM `sm`'s next reply, its accounting kept in the port until
   ml_commit_replies: the SMs take their replies on their own threads. */
static bool ml_recv_sm(void *impl, uint32_t sm, uint64_t cycle, mem_req *out)
{
    mem_sys *ms = impl;
    ms_ring *q = &ms->ports[sm].deliver;
    if (!q->n) return false;
    ring_pop(q, out);
    ms_tally_add(&ms->ports[sm].got, out, cycle);
    return true;
}

static void ml_commit_replies(void *impl, uint32_t sm)
{
    mem_sys *ms = impl;
    ms_tally_apply(ms, &ms->ports[sm].got);
}

static bool ml_pending(const void *impl, uint32_t sm)
{
    return ((const mem_sys *)impl)->ports[sm].npend > 0;
}

/* Inject SM `sm`'s deferred sends in order; -1 when the host ran out of
   memory for a packet (the send was already promised). */
static int ml_commit(void *impl, uint32_t sm)
{
    mem_sys *ms = impl;
    ms_smport *p = &ms->ports[sm];
    int rc = 0;
    if (!p->npend) return 0;       /* (no write: the line stays the SM thread's) */
    for (uint32_t i = 0; i < p->npend; i++) {
        ms_pend *e = &p->pend[i];
        if (e->refused_free >= 0) ms_refuse(ms, sm, e->refused_free);
        else if (!ms_inject(ms, sm, &e->q, e->slice, e->flits)) rc = -1;
    }
    p->npend = 0;
    p->pend_flits = 0;
    return rc;
}

static void ml_skipped(void *impl, uint64_t n, uint32_t waiting)
{
    ((mem_sys *)impl)->inject_stalls += n * waiting;
}

/* A kernel starts (`begin`) or ended: per-kernel maxima restart, and the
   DRAM policies of every channel hear of it. */
static void ml_kernel(void *impl, const ws_launch_info *k, bool begin)
{
    mem_sys *ms = impl;
    if (begin) ms->rt_max = 0;
    /* rows are per kernel: cleared before the kernel's first snapshot, so
       the end-minus-begin difference is the kernel's own */
    if (begin && ms->rows) {
        mem_rowshare_clear(ms->rows);
        ms->rows_wpc = k->warps_per_cta;
    }
    for (uint32_t c = 0; c < ms->nch; c++) {
        ms_chan *ch = &ms->ch[c];
        void (*hs)(void *, const ws_launch_info *) =
            begin ? ms->sched->kernel_begin : ms->sched->kernel_end;
        if (hs) hs(ch->sched_st, k);
        void (*hp)(void *, const ws_launch_info *) =
            !ms->pf ? NULL : begin ? ms->pf->kernel_begin : ms->pf->kernel_end;
        if (hp) hp(ch->pf_st, k);
    }
}

static void ml_dump(const void *impl, char *buf, size_t len)
{
    const mem_sys *ms = impl;
    size_t u = strlen(buf);
#define DUMP(...) do { u = strlen(buf); if (u + 1 < len) snprintf(buf + u, len - u, __VA_ARGS__); } while (0)
    DUMP("memory system: %u requests in flight; interconnect %u request and %u reply "
         "packets\n", ms->outstanding, mem_icnt_packets(ms->req), mem_icnt_packets(ms->rep));
    for (uint32_t s = 0; s < ms->nslices; s++)
        if (mem_l2_busy(ms->l2[s]))
            DUMP("  L2 slice %u: %u queued, %u MSHRs\n", s, mem_l2_input_len(ms->l2[s]),
                 mem_l2_mshr_used(ms->l2[s]));
    for (uint32_t c = 0; c < ms->nch; c++)
        if (mem_dram_pending(ms->ch[c].d))
            DUMP("  DRAM channel %u: %u requests\n", c, mem_dram_pending(ms->ch[c].d));
#undef DUMP
    (void)u;
}

uint64_t mem_sys_warm_l2(mem_sys *ms, uint64_t addr, uint64_t bytes)
{
    uint64_t line = ms->cfg.l2.line_bytes ? ms->cfg.l2.line_bytes : 128;
    uint64_t end = addr + bytes, n = 0;
    if (end < addr) end = UINT64_MAX;
    /* piece by piece, one line at a time, each to the slice owning it */
    for (uint64_t a = addr; a < end;) {
        uint64_t next = (a / line + 1) * line;
        uint64_t stop = next < end && next > a ? next : end;
        n += mem_l2_warm(ms->l2[mem_sys_slice_of(ms, a)], a, (uint32_t)(stop - a));
        a = stop;
    }
    return n;
}

static void ml_host_copy(void *impl, uint64_t addr, uint64_t bytes)
{
    mem_sys_warm_l2(impl, addr, bytes);
}

mem_lower mem_sys_lower(mem_sys *ms)
{
    return (mem_lower){ .impl = ms, .port = ml_port, .recv = ml_recv, .advance = ml_advance,
                        .prepare = ml_prepare,
                        .run_until = ml_run_until, .in_flight = ml_in_flight,
                        .refusing = ml_refusing, .skipped = ml_skipped, .stats = ml_stats,
                        .kernel = ml_kernel, .host_copy = ml_host_copy, .dump = ml_dump,
                        .free = ml_free, .defer = ml_defer, .commit = ml_commit,
                        .recv_sm = ml_recv_sm, .commit_replies = ml_commit_replies,
                        .pending = ml_pending };
}
