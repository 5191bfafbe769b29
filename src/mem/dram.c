/*
** dram.c -- one DRAM channel's memory controller (API in dram.h).
** Requests wait in per-bank lists; when a bank can start a new access its
** scheduler policy picks one of that bank's requests, the bank commits to
** it and issues PRE / ACT / RD|WR as the timing allows, one command per
** DRAM cycle on the channel's command bus; completed requests leave in
** completion order through a FIFO.
*/
#include "dram.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "addrmap.h"

/*
** Timing rules (all in DRAM command cycles; t = the command's cycle):
**
**   ACT  bank closed;  t >= PRE + tRP,  t >= ACT(same bank) + tRC,
**        t >= ACT(any bank) + tRRD
**   PRE  t >= ACT + tRAS,  t >= RD + tRTP,  t >= write data end + tWR
**   RD   row open;  t >= ACT + tRCD,  t >= column(any bank) + tCCD,
**   WR   t >= column(same bank group) + tCCDL (bank groups > 1),
**        RD: t >= WR + tWTR                  WR: t >= RD + tRTW
**        data beats on the bus during [t + tCL, t + tCL + burst time),
**        and bursts never overlap on the bus.
**   burst time = ceil(dram_burst / dram_data_rate) cycles; a request of
**   `bytes` needs ceil(bytes / (dram_bus_bytes * dram_burst)) column
**   commands and completes when the last one's data has crossed the bus.
**
** Interpretations: tWTR and tRTW are command-to-command turnarounds, as
** the configuration defines them (GPGPU-Sim derives them from WL, CL, the
** burst and CDLR); tWR counts from the end of the write data (JEDEC; also
** GPGPU-Sim's WL + BL/ratio + WR).  The configuration has no separate
** write latency, so write data follows WR after tCL, like read data
** (GPGPU-Sim's WL is shorter: only the PRE after a write depends on it).  No
** refresh, no tFAW.  Bank b sits in bank group b mod dram_bank_groups, so
** neighbouring bank numbers (the address map's lowest bank bit usually
** interleaves neighbouring lines) alternate groups and streams are not
** held to tCCDL.  Bank busy (for bank-level parallelism) = from the
** first command of a request to the end of its data, union per bank.
*/

enum { CMD_NONE = 0, CMD_ACT, CMD_PRE, CMD_COL };

typedef struct dram_slot {          /* one queued request */
    mem_req  r;
    uint64_t arrival;
    uint32_t bank, row;
    uint32_t ncol;                  /* column commands still to issue */
    uint32_t line;                  /* line index within its row (prefetcher events) */
    int32_t  next;                  /* next in its bank's list or in the free list */
    bool     started;               /* first command issued */
} dram_slot;

typedef struct dram_done {          /* issued; data done at `done` */
    mem_req  r;
    uint64_t arrival, done;
    bool     prefetch;              /* a prefetch read: no demand latency to count */
} dram_done;

typedef struct dram_bank {
    int32_t  head, tail;            /* queued requests, arrival order */
    uint32_t nq;
    int32_t  cur;                   /* committed request slot, -1 = free */
    uint32_t cur_row;               /* its row and direction, kept here: the */
    bool     cur_read;              /* tick reads them for every busy bank */
    bool     open;
    uint32_t row;
    uint32_t group;
    uint64_t next_act, next_pre, next_col;
    bool     pf_done;               /* the prefetcher is done with this activation */
    uint64_t row_addr;              /* the request that opened the row: a prefetch
                                       reads its row with its bits the map does not
                                       decode (high bits, banks beyond dram_banks) */
    bool     busy;                  /* for bank-level parallelism */
    uint64_t busy_end;              /* UINT64_MAX while the end is not known */
    uint64_t hold_until;            /* dram_bank_hold: no new access before this */
} dram_bank;

struct mem_dram {
    uint32_t channel;
    /* banks with a request queued or committed, one bit each: the tick
       looks only at these (most banks of a channel are empty most cycles) */
    uint64_t *active;
    /* geometry and timing */
    uint32_t nbanks, ngroups, bus_bytes, burst, burst_time, col_bytes;
    uint32_t tCL, tRCD, tRP, tRAS, tRC, tRRD, tCCD, tWTR, tWR, tRTW, tCCDL, tRTP;
    uint32_t fixed_latency;
    bool     bank_hold;             /* dram_bank_hold */
    uint32_t extra_latency;         /* dram_latency in DRAM cycles: added to each
                                       completion, not to the service latency */
    bool     unlimited;
    mem_addrmap map;
    /* scheduler */
    const ws_dram_sched_ops *ops;
    void    *ops_state;
    bool     own_state;
    mem_warp_info info;
    /* queue */
    dram_slot *slots;
    uint32_t cap, nqueued, limit;
    int32_t  free_head;
    uint64_t q_avg_x64;             /* nqueued averaged per DRAM cycle (EMA, x64) */
    uint64_t q_avg_t;               /* ... over the cycles before this one */
    ws_dram_req_view *view;         /* scratch, cap entries */
    /* the banks as the policies see them (nbanks entries), kept up to date
       as requests arrive and commands issue, so a view costs nothing to
       build; demand = requests queued or committed, not yet done */
    ws_dram_bank_view *bview;
    /* memory-side prefetcher (dram_prefetch; NULL = none) */
    const ws_dram_prefetch_ops *pf;
    void    *pf_st;
    mem_prefetch_sink sink;
    uint32_t line_bytes;            /* an L2 line: what a prefetch reads */
    uint32_t row_lines;             /* L2 lines per row (ws_dram_view.row_lines) */
    uint32_t sbits, pf_rr;
    int32_t  *view_slot;
    dram_bank *banks;
    uint64_t *group_next_col;
    /* channel-wide timing */
    uint64_t next_act_any, next_col_any, next_rd, next_wr, bus_free;
    uint64_t wake;                  /* no tick before this can do anything */
    /* completion FIFO (ring) */
    dram_done *fifo;
    uint32_t fcap, fhead, fcount;
    /* statistics */
    mem_dram_stats st;
    uint32_t nbusy;                 /* banks busy now */
    uint64_t acct_t;                /* busy accounting done up to here */
    /* no busy bank's period ends before this (at most the earliest end:
       acct_advance scans the banks only once it is reached) */
    uint64_t busy_min;
};

/* ------------------------------------------------------------------ */
/* Configuration                                                       */
/* ------------------------------------------------------------------ */

static void set_err(char *err, size_t errlen, const char *fmt, ...)
{
    if (!err || errlen == 0)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
}

static uint32_t or_default(uint32_t v, uint32_t def) { return v ? v : def; }

/* Geometry with the fallbacks used while a field is still 0 (the fields
   arrived before their config table entries): banks from the address
   map, 4-byte bus, burst 8, DDR, 16 requests, 1 channel. */
typedef struct dram_geom {
    uint32_t nch, nsub, nbanks, ngroups, bus, burst, rate, queue;
} dram_geom;

static int geom_of(const gpu_config *cfg, mem_addrmap *map, dram_geom *g,
                   char *err, size_t errlen)
{
    g->nch = or_default(cfg->n_mem, 1);
    g->nsub = or_default(cfg->n_sub_per_mem, 1);
    if (mem_addrmap_parse(map, cfg->dram_addr_map, g->nch, g->nsub, err, errlen) < 0)
        return -1;
    g->nbanks = or_default(cfg->dram_banks, mem_addrmap_banks(map));
    g->ngroups = or_default(cfg->dram_bank_groups, 1);
    g->bus = or_default(cfg->dram_bus_bytes, 4);
    g->burst = or_default(cfg->dram_burst, 8);
    g->rate = or_default(cfg->dram_data_rate, 2);
    g->queue = or_default(cfg->dram_queue, 16);
    if (g->nbanks > 4096) {
        set_err(err, errlen, "dram_banks=%u: at most 4096 banks per channel", g->nbanks);
        return -1;
    }
    if (g->ngroups > g->nbanks || g->nbanks % g->ngroups) {
        set_err(err, errlen, "dram_bank_groups=%u must divide dram_banks=%u",
                g->ngroups, g->nbanks);
        return -1;
    }
    if (g->queue > (1u << 24)) {
        set_err(err, errlen, "dram_queue=%u: at most %u requests", g->queue, 1u << 24);
        return -1;
    }
    return 0;
}

int mem_dram_check_config(const gpu_config *cfg, char *err, size_t errlen)
{
    mem_addrmap map;
    dram_geom g;
    /* the scheduler's name and parameters are checked with every other
       policy's (gpu/config.c, the registry) */
    return geom_of(cfg, &map, &g, err, errlen) < 0 ? -1 : 0;
}

uint32_t mem_dram_peak_bytes_per_cycle(const gpu_config *cfg)
{
    return or_default(cfg->dram_bus_bytes, 4) * or_default(cfg->dram_data_rate, 2);
}

/* ------------------------------------------------------------------ */
/* Construction                                                        */
/* ------------------------------------------------------------------ */

static int grow_slots(mem_dram *d, uint32_t cap)
{
    dram_slot *s = realloc(d->slots, (size_t)cap * sizeof *s);
    if (!s)
        return -1;
    d->slots = s;
    ws_dram_req_view *v = realloc(d->view, (size_t)cap * sizeof *v);
    if (!v)
        return -1;
    d->view = v;
    int32_t *vs = realloc(d->view_slot, (size_t)cap * sizeof *vs);
    if (!vs)
        return -1;
    d->view_slot = vs;
    /* new slots go to the free list */
    for (uint32_t i = cap; i-- > d->cap; ) {
        s[i].next = d->free_head;
        d->free_head = (int32_t)i;
    }
    d->cap = cap;
    return 0;
}

static void take_timing(mem_dram *d, const gpu_config *cfg)
{
    d->tCL = cfg->tCL;   d->tRCD = cfg->tRCD; d->tRP = cfg->tRP;   d->tRAS = cfg->tRAS;
    d->tRC = cfg->tRC;   d->tRRD = cfg->tRRD; d->tCCD = cfg->tCCD; d->tWTR = cfg->tWTR;
    d->tWR = cfg->tWR;   d->tRTW = cfg->tRTW; d->tRTP = cfg->tRTP;
    d->tCCDL = cfg->tCCDL > cfg->tCCD ? cfg->tCCDL : cfg->tCCD;
}

mem_dram *mem_dram_new(const gpu_config *cfg, uint32_t channel, const ws_dram_sched_ops *ops,
                       void *ops_state, mem_warp_info info)
{
    dram_geom g;
    mem_dram *d = calloc(1, sizeof *d);
    if (!d)
        return NULL;
    d->free_head = -1;
    if (geom_of(cfg, &d->map, &g, NULL, 0) < 0 || channel >= g.nch)
        goto fail;
    d->channel = channel;
    d->nbanks = g.nbanks;
    d->ngroups = g.ngroups;
    d->bus_bytes = g.bus;
    d->burst = g.burst;
    d->burst_time = (g.burst + g.rate - 1) / g.rate;
    d->col_bytes = g.bus * g.burst;
    d->fixed_latency = cfg->dram_fixed_latency;
    d->bank_hold = cfg->dram_bank_hold;
    /* GPGPU-Sim counts -dram_latency in core cycles */
    double ratio = cfg->core_mhz > 0 ? cfg->dram_mhz / cfg->core_mhz : 1.0;
    d->extra_latency = (uint32_t)(cfg->dram_latency * ratio + 0.5);
    d->unlimited = cfg->unlimited_mem;
    d->limit = g.queue;
    take_timing(d, cfg);
    /* lines of a row, for every policy's view and the prefetcher */
    d->line_bytes = cfg->l2.line_bytes ? cfg->l2.line_bytes : 128;
    d->sbits = d->map.bits[MEM_AF_BURST];
    uint64_t row_bytes = mem_addrmap_row_bytes(&d->map);
    d->row_lines = (uint32_t)(row_bytes > d->line_bytes ? row_bytes / d->line_bytes : 1);

    d->ops = ops;
    d->ops_state = ops_state;
    if (!d->ops || !d->ops->pick)
        goto fail;       /* the owner resolved the scheduler (gpu/, one path) */
    d->info = info;

    d->banks = calloc(g.nbanks, sizeof *d->banks);
    d->active = calloc((g.nbanks + 63) / 64, sizeof *d->active);
    d->bview = calloc(g.nbanks, sizeof *d->bview);
    d->group_next_col = calloc(g.ngroups, sizeof *d->group_next_col);
    if (!d->banks || !d->active || !d->bview || !d->group_next_col || grow_slots(d, g.queue) < 0)
        goto fail;
    for (uint32_t b = 0; b < g.nbanks; b++) {
        d->banks[b].head = d->banks[b].tail = d->banks[b].cur = -1;
        d->banks[b].group = b % g.ngroups;
    }
    d->wake = UINT64_MAX;
    return d;
fail:
    mem_dram_free(d);
    return NULL;
}

void mem_dram_free(mem_dram *d)
{
    if (!d)
        return;
    if (d->own_state && d->ops && d->ops->destroy)
        d->ops->destroy(d->ops_state);
    free(d->slots);
    free(d->active);
    free(d->view);
    free(d->view_slot);
    free(d->banks);
    free(d->bview);
    free(d->group_next_col);
    free(d->fifo);
    free(d);
}

/* ------------------------------------------------------------------ */
/* Queue and completion FIFO                                           */
/* ------------------------------------------------------------------ */

bool mem_dram_can_accept(const mem_dram *d)
{
    if (d->unlimited)
        return true;
    if (d->fixed_latency)
        return d->fcount < d->limit;
    return d->nqueued < d->limit;
}

uint32_t mem_dram_pending(const mem_dram *d)
{
    return d->nqueued + d->fcount;
}

static bool fifo_put(mem_dram *d, const mem_req *r, uint64_t arrival, uint64_t done,
                     bool prefetch)
{
    if (d->fcount == d->fcap) {
        uint32_t ncap = d->fcap ? d->fcap * 2 : 64;
        dram_done *f = malloc((size_t)ncap * sizeof *f);
        if (!f)
            return false;
        for (uint32_t i = 0; i < d->fcount; i++)
            f[i] = d->fifo[(d->fhead + i) % d->fcap];
        free(d->fifo);
        d->fifo = f;
        d->fcap = ncap;
        d->fhead = 0;
    }
    dram_done *e = &d->fifo[(d->fhead + d->fcount) % d->fcap];
    e->r = *r;
    e->arrival = arrival;
    e->done = done + d->extra_latency;   /* constant: completion order is kept */
    e->prefetch = prefetch;
    d->fcount++;
    return true;
}

bool mem_dram_pop(mem_dram *d, uint64_t dram_cycle, mem_req *out)
{
    if (d->fcount == 0 || d->fifo[d->fhead].done > dram_cycle)
        return false;
    dram_done *e = &d->fifo[d->fhead];
    *out = e->r;
    if (e->r.kind == MEM_READ) {
        d->st.reads++;
        d->st.rd_bytes += e->r.bytes;
    } else
        d->st.writes++;
    d->st.bytes += e->r.bytes;
    if (!e->prefetch)       /* averaged over demand requests (queue_lat_count) */
        d->st.service_lat_sum += e->done - d->extra_latency - e->arrival;
    d->fhead = (d->fhead + 1) % d->fcap;
    d->fcount--;
    return true;
}

/*
** The queue-occupancy average of the view (queue_avg_x64): one EMA step
** avg += (nqueued*64 - avg) / 64 per DRAM cycle before `now`, with the
** occupancy each of those cycles had.  Called before every change of
** nqueued and before a view is built, so stepping it lazily is exact; it
** stops early once a step changes nothing (the average has settled).
*/
static void q_avg_to(mem_dram *d, uint64_t now)
{
    uint64_t target = (uint64_t)d->nqueued << 6, a = d->q_avg_x64;
    for (uint64_t t = d->q_avg_t; t < now; t++) {
        uint64_t step = target >= a ? (target - a) >> 6 : (a - target + 63) >> 6;
        if (step == 0) break;
        a = target >= a ? a + step : a - step;
    }
    d->q_avg_x64 = a;
    if (now > d->q_avg_t) d->q_avg_t = now;
}

void mem_dram_push(mem_dram *d, const mem_req *r, uint64_t dram_cycle)
{
    if (d->fixed_latency) {
        fifo_put(d, r, dram_cycle, dram_cycle + d->fixed_latency, false);
        if (d->fcount > d->st.max_queue)
            d->st.max_queue = d->fcount;
        return;
    }
    if (d->free_head < 0 && grow_slots(d, d->cap ? d->cap * 2 : 16) < 0)
        return;   /* out of memory: the request is lost (caller checked can_accept) */
    int32_t i = d->free_head;
    dram_slot *s = &d->slots[i];
    d->free_head = s->next;

    mem_addr_loc loc;
    mem_addrmap_decode(&d->map, r->addr, &loc);
    s->r = *r;
    s->arrival = dram_cycle;
    s->bank = loc.bank % d->nbanks;
    s->row = (uint32_t)loc.row;
    s->ncol = r->bytes > d->col_bytes ? (r->bytes + d->col_bytes - 1) / d->col_bytes : 1;
    s->next = -1;
    s->started = false;
    s->line = (uint32_t)(((loc.col << d->sbits) | loc.col_byte) / d->line_bytes);

    dram_bank *b = &d->banks[s->bank];
    ws_dram_bank_view *bv = &d->bview[s->bank];
    q_avg_to(d, dram_cycle);
    bv->demand++;
    bv->demand_open_row += b->open && b->row == s->row;
    if (b->tail >= 0)
        d->slots[b->tail].next = i;
    else
        b->head = i;
    b->tail = i;
    b->nq++;
    d->active[s->bank / 64] |= 1ull << (s->bank % 64);
    d->nqueued++;
    if (d->nqueued > d->st.max_queue)
        d->st.max_queue = d->nqueued;
    if (dram_cycle < d->wake)
        d->wake = dram_cycle;
}

/* ------------------------------------------------------------------ */
/* Bank-busy accounting (bank-level parallelism), exact and lazy        */
/* ------------------------------------------------------------------ */

/* Account [acct_t, t) with the busy count changing at each known end. */
static void acct_advance(mem_dram *d, uint64_t t)
{
    while (d->nbusy > 0 && d->busy_min <= t) {
        uint64_t end = UINT64_MAX;
        uint32_t who = 0;
        for (uint32_t b = 0; b < d->nbanks; b++)
            if (d->banks[b].busy && d->banks[b].busy_end < end) {
                end = d->banks[b].busy_end;
                who = b;
            }
        d->busy_min = end;
        if (end > t)
            break;
        if (end > d->acct_t) {
            d->st.bank_busy_sum += (uint64_t)d->nbusy * (end - d->acct_t);
            d->st.any_bank_busy_cycles += end - d->acct_t;
            d->acct_t = end;
        }
        d->banks[who].busy = false;
        d->nbusy--;
        d->busy_min = 0;            /* the next end: scan again */
    }
    if (t > d->acct_t) {
        if (d->nbusy) {
            d->st.bank_busy_sum += (uint64_t)d->nbusy * (t - d->acct_t);
            d->st.any_bank_busy_cycles += t - d->acct_t;
        }
        d->acct_t = t;
    }
}

static void bank_busy_from(mem_dram *d, dram_bank *b, uint64_t t)
{
    acct_advance(d, t);
    if (!b->busy) {
        b->busy = true;
        d->nbusy++;
    }
    b->busy_end = UINT64_MAX;
}

void mem_dram_stats_get(const mem_dram *d, mem_dram_stats *out)
{
    /* close every interval whose end is known, on a scratch copy */
    mem_dram tmp = *d;
    dram_bank *banks = malloc((size_t)d->nbanks * sizeof *banks);
    if (banks) {
        memcpy(banks, d->banks, (size_t)d->nbanks * sizeof *banks);
        tmp.banks = banks;
        uint64_t last = d->acct_t;
        for (uint32_t b = 0; b < d->nbanks; b++)
            if (banks[b].busy && banks[b].busy_end != UINT64_MAX && banks[b].busy_end > last)
                last = banks[b].busy_end;
        acct_advance(&tmp, last);
        free(banks);
    }
    *out = tmp.st;
}

_Static_assert(sizeof(mem_dram_stats) % sizeof(uint64_t) == 0,
               "mem_dram_stats must hold only uint64_t counters");

void mem_dram_stats_add(mem_dram_stats *sum, const mem_dram_stats *s)
{
    uint64_t *a = (uint64_t *)sum;
    const uint64_t *b = (const uint64_t *)s;
    for (size_t i = 0; i < sizeof *s / sizeof(uint64_t); i++)
        a[i] += b[i];
}

/* ------------------------------------------------------------------ */
/* Scheduling: a free bank picks one of its requests                   */
/* ------------------------------------------------------------------ */

/* What the policies see of the channel (the bank view is kept current
   by push, issue_col and issue). */
static ws_dram_view dram_view(mem_dram *d, uint64_t now)
{
    q_avg_to(d, now);
    return (ws_dram_view){ .cycle = now, .channel = d->channel, .nbanks = d->nbanks,
                           .banks = d->bview, .queue_used = d->nqueued, .queue_size = d->limit,
                           .queue_avg_x64 = (uint32_t)d->q_avg_x64,
                           .row_lines = d->row_lines };
}

/* Does the prefetcher keep bank `bi`'s open row from being precharged
   (ws_dram_prefetch_ops.hold)?  Only while it has not declined the row. */
static bool pf_holds(mem_dram *d, uint32_t bi, uint64_t now)
{
    const dram_bank *b = &d->banks[bi];
    if (!d->pf || !d->pf->hold || !b->open || b->pf_done) return false;
    ws_dram_view v = dram_view(d, now);
    return d->pf->hold(d->pf_st, &v, bi);
}

/* Tell the prefetcher about a command. */
static void pf_event(mem_dram *d, int kind, uint32_t bank, uint32_t row, uint32_t line,
                     bool prefetch, uint64_t now)
{
    if (!d->pf || !d->pf->on_event) return;
    ws_dram_view v = dram_view(d, now);
    ws_dram_event e = { .kind = kind, .bank = bank, .row = row, .line = line,
                        .prefetch = prefetch };
    d->pf->on_event(d->pf_st, &v, &e);
}

/* Ask the policy to choose among bank `bi`'s queue; commit to the choice.
   Every candidate is `ready`: the bank is free to start a new access now
   (specs/fetch-dram.md 2.2: "applied per bank when the bank can start a
   new access").  Returns false when the policy chose none. */
static bool bank_select(mem_dram *d, uint32_t bi, uint64_t now)
{
    dram_bank *b = &d->banks[bi];
    uint32_t n = 0;
    for (int32_t i = b->head; i >= 0; i = d->slots[i].next) {
        const dram_slot *s = &d->slots[i];
        ws_dram_req_view *v = &d->view[n];
        v->arrival = s->arrival;
        v->seq = s->r.seq;
        v->bank = bi;
        v->row = s->row;
        v->row_hit = b->open && b->row == s->row;
        v->ready = true;
        v->is_write = s->r.kind != MEM_READ;
        v->sm = s->r.sm;
        v->warp = s->r.warp;
        v->warp_uid = s->r.warp_uid;
        v->warp_retired = v->warp_remaining = -1;
        if (d->info.get)
            d->info.get(d->info.ctx, &s->r, &v->warp_retired, &v->warp_remaining);
        d->view_slot[n++] = i;
    }
    ws_dram_view view = dram_view(d, now);
    view.nreqs = n;
    view.reqs = d->view;
    int k = d->ops->pick ? d->ops->pick(d->ops_state, &view) : 0;
    if (k < 0 || (uint32_t)k >= n)
        return false;

    /* unlink the chosen slot from the bank list */
    int32_t chosen = d->view_slot[k], prev = k > 0 ? d->view_slot[k - 1] : -1;
    if (prev >= 0)
        d->slots[prev].next = d->slots[chosen].next;
    else
        b->head = d->slots[chosen].next;
    if (b->tail == chosen)
        b->tail = prev;
    b->nq--;
    b->cur = chosen;       /* still demand, to the same row: the view stays */
    b->cur_row = d->slots[chosen].row;
    b->cur_read = d->slots[chosen].r.kind == MEM_READ;

    uint32_t row = d->slots[chosen].row;
    if (!b->open)
        d->st.row_misses++;
    else if (b->row == row)
        d->st.row_hits++;
    else
        d->st.row_conflicts++;
    return true;
}

/* The next command bank `b`'s committed request needs, and the earliest
   cycle it may issue. */
static int next_cmd(const mem_dram *d, const dram_bank *b, uint64_t *when)
{
    uint64_t t;
    if (!b->open) {
        t = b->next_act > d->next_act_any ? b->next_act : d->next_act_any;
        *when = t;
        return CMD_ACT;
    }
    if (b->row != b->cur_row) {
        *when = b->next_pre;
        return CMD_PRE;
    }
    t = b->next_col;
    if (d->next_col_any > t) t = d->next_col_any;
    if (d->group_next_col[b->group] > t) t = d->group_next_col[b->group];
    uint64_t dir = b->cur_read ? d->next_rd : d->next_wr;
    if (dir > t) t = dir;
    if (d->bus_free > d->tCL && d->bus_free - d->tCL > t)
        t = d->bus_free - d->tCL;
    *when = t;
    return CMD_COL;
}

static uint64_t max_u64(uint64_t a, uint64_t b) { return a > b ? a : b; }

static void issue_col(mem_dram *d, uint32_t bi, uint64_t t)
{
    dram_bank *b = &d->banks[bi];
    dram_slot *s = &d->slots[b->cur];
    uint64_t data_end = t + d->tCL + d->burst_time;

    d->bus_free = data_end;
    d->next_col_any = t + d->tCCD;
    d->group_next_col[b->group] = t + d->tCCDL;
    if (s->r.kind == MEM_READ) {
        d->next_wr = max_u64(d->next_wr, t + d->tRTW);
        b->next_pre = max_u64(b->next_pre, t + d->tRTP);
    } else {
        d->next_rd = max_u64(d->next_rd, t + d->tWTR);
        b->next_pre = max_u64(b->next_pre, data_end + d->tWR);
    }
    d->st.col_cmds++;
    d->st.bus_busy_cycles += d->burst_time;
    if (--s->ncol > 0)
        return;
    /* last column command: the request leaves the queue */
    fifo_put(d, &s->r, s->arrival, data_end, false);
    b->busy_end = data_end;
    if (data_end < d->busy_min) d->busy_min = data_end;
    if (d->bank_hold) b->hold_until = data_end;
    b->cur = -1;
    if (!b->nq) d->active[bi / 64] &= ~(1ull << (bi % 64));
    d->bview[bi].demand--;
    d->bview[bi].demand_open_row--;      /* a column command: to the open row */
    s->next = d->free_head;
    d->free_head = (int32_t)(s - d->slots);
    q_avg_to(d, t);
    d->nqueued--;
}

/* Bank `bi` just activated its row at `t`: the committed request and the
   queued ones to that row are now demand to the open row. */
static void bank_view_open(mem_dram *d, uint32_t bi, uint64_t t)
{
    const dram_bank *b = &d->banks[bi];
    ws_dram_bank_view *bv = &d->bview[bi];
    uint32_t n = b->cur >= 0;
    for (int32_t i = b->head; i >= 0; i = d->slots[i].next)
        n += d->slots[i].row == b->row;
    *bv = (ws_dram_bank_view){ .open = true, .row = b->row, .demand = bv->demand,
                               .demand_open_row = n, .last_activate = t };
}

static void issue(mem_dram *d, uint32_t bi, int cmd, uint64_t t)
{
    dram_bank *b = &d->banks[bi];
    dram_slot *s = &d->slots[b->cur];
    if (!s->started) {
        s->started = true;
        d->st.queue_lat_sum += t - s->arrival;
        d->st.queue_lat_count++;
        bank_busy_from(d, b, t);
    }
    switch (cmd) {
    case CMD_ACT:
        b->open = true;
        b->row = s->row;
        b->pf_done = false;
        b->row_addr = s->r.addr;
        bank_view_open(d, bi, t);
        b->next_col = t + d->tRCD;
        b->next_pre = t + d->tRAS;
        b->next_act = t + d->tRC;
        d->next_act_any = t + d->tRRD;
        d->st.activates++;
        pf_event(d, WS_DRAM_EV_ACTIVATE, bi, b->row, 0, false, t);
        break;
    case CMD_PRE:
        b->open = false;
        d->bview[bi].open = false;
        d->bview[bi].demand_open_row = 0;
        b->next_act = max_u64(b->next_act, t + d->tRP);
        d->st.precharges++;
        pf_event(d, WS_DRAM_EV_PRECHARGE, bi, b->row, 0, false, t);
        break;
    default:
        if (d->pf)
            pf_event(d, s->r.kind == MEM_READ ? WS_DRAM_EV_READ : WS_DRAM_EV_WRITE, bi, s->row,
                     s->line, false, t);
        issue_col(d, bi, t);
        break;
    }
}

/* Command-bus arbitration: column commands first, then the older request
   (arrival, then global order). */
static bool cmd_before(const mem_dram *d, int ca, const dram_bank *a, int cb, const dram_bank *b)
{
    if ((ca == CMD_COL) != (cb == CMD_COL))
        return ca == CMD_COL;
    const dram_slot *x = &d->slots[a->cur], *y = &d->slots[b->cur];
    if (x->arrival != y->arrival)
        return x->arrival < y->arrival;
    return x->r.seq < y->r.seq;
}

/* ------------------------------------------------------------------ */
/* Memory-side prefetching (a dram_prefetch policy)                    */
/* ------------------------------------------------------------------ */

void mem_dram_set_prefetch(mem_dram *d, const ws_dram_prefetch_ops *ops, void *st,
                           mem_prefetch_sink sink)
{
    d->pf = ops && ops->prefetch ? ops : NULL;
    d->pf_st = st;
    d->sink = sink;
    if (d->pf) d->wake = 0;
}

/* Earliest cycle a read column command could issue on open bank `b`. */
static uint64_t pf_col_time(const mem_dram *d, const dram_bank *b)
{
    uint64_t t = max_u64(b->next_col, d->next_col_any);
    t = max_u64(t, max_u64(d->group_next_col[b->group], d->next_rd));
    if (d->bus_free > d->tCL) t = max_u64(t, d->bus_free - d->tCL);
    return t;
}

/* Read line `line` of bank `bi`'s open row for the L2 (its column
   commands back to back [I]); false when the L2 does not want it. */
static bool pf_issue(mem_dram *d, uint32_t bi, uint32_t line, uint64_t now)
{
    dram_bank *b = &d->banks[bi];
    uint64_t off = (uint64_t)line * d->line_bytes;
    mem_addr_loc loc;
    mem_addrmap_decode(&d->map, b->row_addr, &loc);
    loc.col = off >> d->sbits;
    loc.col_byte = (uint32_t)(off & ((1ull << d->sbits) - 1));
    mem_req r;
    if (!d->sink.reserve || !d->sink.reserve(d->sink.ctx, mem_addrmap_compose(&d->map, &loc), &r))
        return false;
    uint32_t ncol = d->line_bytes > d->col_bytes ? (d->line_bytes + d->col_bytes - 1) / d->col_bytes : 1;
    uint64_t data_end = now + d->tCL + (uint64_t)d->burst_time * ncol;
    d->bus_free = data_end;
    d->next_col_any = now + (uint64_t)d->tCCD * ncol;
    d->group_next_col[b->group] = now + (uint64_t)d->tCCDL * ncol;
    d->next_wr = max_u64(d->next_wr, now + d->tRTW);
    b->next_pre = max_u64(b->next_pre, now + d->tRTP);
    d->st.col_cmds += ncol;
    d->st.bus_busy_cycles += (uint64_t)d->burst_time * ncol;
    d->st.prefetch_reads++;
    fifo_put(d, &r, now, data_end, true);
    pf_event(d, WS_DRAM_EV_READ, bi, b->row, line, true, now);
    return true;
}

/*
** A cycle without a demand command: offer each bank whose row is open and
** has no demand left for it to the prefetcher, round robin; at most one
** prefetch read issues.  A bank the prefetcher declines (-1) is not offered
** again until its next activate.  Returns the cycle to look again.
*/
static uint64_t pf_step(mem_dram *d, uint64_t now)
{
    uint64_t wake = UINT64_MAX;
    for (uint32_t k = 0; k < 2 * d->nbanks; k++) {
        uint32_t bi = (d->pf_rr + k) % d->nbanks;
        dram_bank *b = &d->banks[bi];
        /* first the banks a demand to another row waits for, then the rest */
        if (!b->open || b->pf_done || d->bview[bi].demand_open_row
            || (k < d->nbanks) != (d->bview[bi].demand > 0)) continue;
        uint64_t t = pf_col_time(d, b);
        if (t > now) {
            if (t < wake) wake = t;
            continue;
        }
        /* a line the L2 refuses (present, pending, no MSHR) costs no DRAM
           cycle: the prefetcher names the next one at once */
        for (uint32_t tries = 0; tries <= d->row_lines; tries++) {
            ws_dram_view v = dram_view(d, now);
            int line = d->pf->prefetch(d->pf_st, &v, bi);
            if (line < 0 || (uint32_t)line >= d->row_lines) {
                b->pf_done = true;
                break;
            }
            if (pf_issue(d, bi, (uint32_t)line, now)) {
                d->pf_rr = (bi + 1) % d->nbanks;
                return now + 1;
            }
        }
        if (!b->pf_done) wake = now + 1;   /* still naming refused lines: go on */
    }
    return wake;
}

/* The earliest cycle after `now` at which bank `bi` may have a command to
   issue, as far as its own state and the channel's now say (a later
   command elsewhere only delays it); UINT64_MAX: nothing for it. */
static uint64_t bank_next(const mem_dram *d, uint32_t bi, uint64_t now)
{
    const dram_bank *b = &d->banks[bi];
    uint64_t t;
    if (b->cur >= 0)
        next_cmd(d, b, &t);
    else if (b->nq)
        t = b->hold_until;                  /* a new access to choose */
    else
        return UINT64_MAX;
    return t > now ? t : now + 1;
}

/*
** One DRAM cycle: free banks with waiting requests pick one, then one
** command issues on the command bus -- column commands before row
** commands (they keep the data bus busy), then the oldest request; with
** no demand command, the prefetcher may read a line of an open row.
*/
void mem_dram_tick(mem_dram *d, uint64_t now)
{
    if (d->fixed_latency || now < d->wake)
        return;
    uint64_t wake = UINT64_MAX;
    int best_cmd = CMD_NONE;
    uint32_t best = 0, ncand = 0;
    for (uint32_t wd = 0, nw = (d->nbanks + 63) / 64; wd < nw; wd++) {
        for (uint64_t m = d->active[wd]; m; m &= m - 1) {
            uint32_t bi = wd * 64 + (uint32_t)__builtin_ctzll(m);   /* in bank order */
            dram_bank *b = &d->banks[bi];
            if (b->cur < 0) {
                if (now < b->hold_until) {  /* dram_bank_hold: the last access is not done */
                    if (b->hold_until < wake)
                        wake = b->hold_until;
                    continue;
                }
                /* the prefetcher keeps the row: commit to nothing yet */
                if (pf_holds(d, bi, now) || !bank_select(d, bi, now)) {
                    wake = now + 1;       /* declined or held: ask again */
                    continue;
                }
            }
            uint64_t when;
            int cmd = next_cmd(d, b, &when);
            if (when <= now && cmd == CMD_PRE && pf_holds(d, bi, now))
                when = now + 1;           /* the prefetcher still reads this row */
            if (when > now) {
                if (when < wake)
                    wake = when;
                continue;
            }
            ncand++;
            if (best_cmd == CMD_NONE || cmd_before(d, cmd, b, best_cmd, &d->banks[best])) {
                best_cmd = cmd;
                best = bi;
            }
        }
    }
    if (best_cmd != CMD_NONE) {
        issue(d, best, best_cmd, now);
        /* A command only moves the channel's constraints later, so with
           no other candidate now the other banks' earliest cycles stand,
           and the next tick that can do anything is at the earliest of
           theirs and the issuing bank's next (most ticks after a command
           found nothing to do).  Beaten candidates might go next cycle; a
           prefetcher may read in any cycle without a demand command. */
        uint64_t own = ncand == 1 && !d->pf ? bank_next(d, best, now) : now + 1;
        if (own < wake) wake = own;   /* (every other bank's is after now) */
    } else if (d->pf) {
        uint64_t t = pf_step(d, now);
        if (t < wake) wake = t;
    }
    d->wake = wake;
}

uint32_t mem_dram_banks(const mem_dram *d) { return d->nbanks; }
uint32_t mem_dram_row_lines(const mem_dram *d) { return d->row_lines; }

uint64_t mem_dram_next_event(const mem_dram *d, uint64_t now)
{
    uint64_t t = d->fixed_latency ? UINT64_MAX : d->wake;
    if (d->fcount > 0 && d->fifo[d->fhead].done < t)
        t = d->fifo[d->fhead].done;
    return t < now ? now : t;
}
