/*
** l2.c -- one L2 slice: tags + MSHRs + its four queues (see l2.h).
**
** A request covers the L2 lines from its address to address + bytes (one
** line unless the L1 line is longer than the L2's); its MSHR is keyed by
** the first of them.  Waiting requests are kept whole (they become the
** replies) in a pool, linked per MSHR.  The MSHR table is this file's own
** rather than mshr.c's: the line index (linehash.c) finds a line and a
** stack finds a free entry in constant time, so the thousands of entries
** of unlimited_mem cost nothing per access, and waiters take memory only
** when they exist.
** MSHR occupancy is summed lazily (used x the cycles since the last
** change), so an idle slice costs nothing per cycle.
**
** Sectored slices (l2.sector_bytes, GPGPU-Sim's 'S:' L2): the unit of
** presence, MSHRs and DRAM reads is the sector, not the line.  A request
** that spans several sectors is split when it enters the slice into one
** sub-request per sector, as GPGPU-Sim's memory_sub_partition does before
** its ROP queue, so each takes an input-queue slot and an L2 cycle, hits or
** misses on its own and a missing sector is read from DRAM alone (a 32 B
** read still occupies a whole DRAM burst: the bandwidth GPGPU-Sim loses).
** The sub-requests share a join entry; the one reply to the L1 leaves when
** the last of them is answered (GPGPU-Sim sends each sector back as its
** own packet: the same flits on 40 B flits, one reply here).  A victim
** line writes back only its dirty sectors.
*/
#include "l2.h"
#include "cache.h"
#include "linehash.h"
#include <stdlib.h>
#include <string.h>

/* "unlimited" sizes: beyond what the SMs can have in flight */
#define L2_UNLIMITED_QUEUE 4096
#define L2_UNLIMITED_MSHR  16384
#define L2_UNLIMITED_MERGE 4096

#define L2_NIL UINT32_MAX

typedef struct l2_mshr {
    uint64_t line;
    uint32_t nwait, head, tail;   /* waiters, linked through the pool */
    bool     valid;
    bool     prefetch;            /* reserved by a memory-side prefetch */
} l2_mshr;

typedef struct l2_waiter {
    mem_req  r;
    uint32_t next;
    uint32_t join;        /* sectored: join entry of a sub-request, or L2_NIL */
} l2_waiter;

typedef struct l2_mshrs {
    uint32_t n, merge, used;
    l2_mshr *e;
    uint32_t *free;       /* stack of free entries */
    mem_linehash index;   /* line -> entry */
    l2_waiter *w;         /* waiter pool, grows by doubling */
    uint32_t wcap, wfree;
} l2_mshrs;

typedef struct l2_item {
    mem_req  r;
    uint32_t join;        /* sectored: join entry of a sub-request, or L2_NIL */
} l2_item;

typedef struct l2_ring {
    l2_item *v;
    uint32_t head, n, cap;
} l2_ring;

/* The sub-requests of one split request: the reply goes when left = 0. */
typedef struct l2_join {
    mem_req  r;           /* the request as it came, which becomes the reply */
    uint32_t left;        /* sub-requests not yet answered; next free when unused */
} l2_join;

struct mem_l2 {
    uint32_t line, latency;
    uint32_t sector;      /* 0: whole lines; else sector bytes */
    uint32_t unit;        /* presence/MSHR/fetch granule: sector or line */
    uint32_t split_max;   /* most sub-requests one request can become */
    l2_join *j;           /* join pool, grows by doubling */
    uint32_t jcap, jfree;
    bool     perfect;
    bool     bypass;      /* l2.enabled = false: nothing is kept, every
                             read goes to DRAM (merging in the MSHRs while
                             in flight), writes go on to DRAM */
    mem_cache tags;
    l2_mshrs mshr;
    l2_ring in, fills, todram, resp;
    uint64_t last_acct;   /* MSHR occupancy summed up to this cycle */
    gpu_cache_stats st;
    uint64_t input_full;
    mem_l2_pf_stats pf;
};

static int ring_init(l2_ring *q, uint32_t cap)
{
    q->cap = cap ? cap : 1;
    q->head = q->n = 0;
    q->v = calloc(q->cap, sizeof *q->v);
    return q->v ? 0 : -1;
}

static inline bool ring_room(const l2_ring *q, uint32_t k) { return q->n + k <= q->cap; }
static inline mem_req *ring_head(const l2_ring *q) { return &q->v[q->head].r; }
static inline uint32_t ring_head_join(const l2_ring *q) { return q->v[q->head].join; }

static void ring_push_j(l2_ring *q, const mem_req *r, uint32_t join)
{
    uint32_t t = q->head + q->n;
    q->v[t < q->cap ? t : t - q->cap] = (l2_item){ .r = *r, .join = join };
    q->n++;
}

static void ring_push(l2_ring *q, const mem_req *r) { ring_push_j(q, r, L2_NIL); }

static void ring_pop(l2_ring *q)
{
    q->head = q->head + 1 < q->cap ? q->head + 1 : 0;
    q->n--;
}

/* ------------------------------------------------------------------ */
/* MSHRs                                                               */
/* ------------------------------------------------------------------ */

static int mshr_init(l2_mshrs *m, uint32_t n, uint32_t merge)
{
    memset(m, 0, sizeof *m);
    m->n = n;
    m->merge = merge;
    m->wcap = n < 64 ? 64 : n;
    m->e = calloc(n, sizeof *m->e);
    m->free = malloc(n * sizeof *m->free);
    m->w = malloc(m->wcap * sizeof *m->w);
    if (!m->e || !m->free || !m->w || mem_linehash_init(&m->index, n)) return -1;
    for (uint32_t i = 0; i < n; i++) m->free[i] = n - 1 - i;    /* entry 0 on top */
    for (uint32_t k = 0; k < m->wcap; k++) m->w[k].next = k + 1 < m->wcap ? k + 1 : L2_NIL;
    m->wfree = 0;
    return 0;
}

static void mshr_release(l2_mshrs *m)
{
    free(m->e);
    free(m->free);
    mem_linehash_release(&m->index);
    free(m->w);
}

/* Entry fetching `line`, or -1. */
static int mshr_find(const l2_mshrs *m, uint64_t line)
{
    return m->used ? mem_linehash_find(&m->index, line) : -1;
}

static int mshr_alloc(l2_mshrs *m, uint64_t line)
{
    uint32_t i = m->free[m->n - 1 - m->used++];
    m->e[i] = (l2_mshr){ .line = line, .head = L2_NIL, .tail = L2_NIL, .valid = true };
    mem_linehash_put(&m->index, line, i);
    return (int)i;
}

/* Add a waiter to entry i; false when out of host memory. */
static bool mshr_wait(l2_mshrs *m, int i, const mem_req *r, uint32_t join)
{
    if (m->wfree == L2_NIL) {
        uint32_t cap = m->wcap * 2;
        l2_waiter *w = realloc(m->w, (size_t)cap * sizeof *w);
        if (!w) return false;
        for (uint32_t k = m->wcap; k < cap; k++) w[k].next = k + 1 < cap ? k + 1 : L2_NIL;
        m->w = w;
        m->wfree = m->wcap;
        m->wcap = cap;
    }
    uint32_t k = m->wfree;
    m->wfree = m->w[k].next;
    m->w[k] = (l2_waiter){ .r = *r, .next = L2_NIL, .join = join };
    l2_mshr *e = &m->e[i];
    if (e->tail == L2_NIL) e->head = k;
    else m->w[e->tail].next = k;
    e->tail = k;
    e->nwait++;
    return true;
}

/* Free entry i; returns the head of its waiter list, which the caller
   walks and gives back to the pool. */
static uint32_t mshr_free(l2_mshrs *m, int i)
{
    l2_mshr *e = &m->e[i];
    mem_linehash_del(&m->index, e->line);
    e->valid = false;
    m->free[m->n - m->used--] = (uint32_t)i;
    return e->head;
}

mem_l2 *mem_l2_new(const gpu_config *cfg)
{
    mem_l2 *s = calloc(1, sizeof *s);
    if (!s) return NULL;
    const gpu_cache_config *c = &cfg->l2;
    bool unl = cfg->unlimited_mem;
    s->line = c->line_bytes ? c->line_bytes : 128;
    s->latency = c->hit_latency;
    s->perfect = cfg->perfect_l2;
    s->bypass = !cfg->l2.enabled;
    s->sector = cfg->l2_sector_bytes < s->line ? cfg->l2_sector_bytes : 0;
    s->unit = s->sector ? s->sector : s->line;
    s->jfree = L2_NIL;
    uint32_t q = unl ? L2_UNLIMITED_QUEUE : cfg->l2_queue ? cfg->l2_queue : 1;
    if (s->sector) {
        /* the longest request: an L1 line or a coalesced segment (memsys) */
        uint32_t b = s->line;
        const uint32_t from[] = { cfg->l1d.line_bytes, cfg->l1c.line_bytes, cfg->l1t.line_bytes,
                                  cfg->coalesce_bytes };
        for (int k = 0; k < 4; k++) b = from[k] > b ? from[k] : b;
        s->split_max = b / s->sector;
        if (q < s->split_max) q = s->split_max;
    }
    uint32_t n = c->mshr_entries ? c->mshr_entries : 1;
    if (n > (1u << 24)) n = 1u << 24;
    uint32_t merge = c->mshr_merge ? c->mshr_merge : 1;
    if (unl) {
        if (n < L2_UNLIMITED_MSHR) n = L2_UNLIMITED_MSHR;
        if (merge < L2_UNLIMITED_MERGE) merge = L2_UNLIMITED_MERGE;
    }
    /* the reply pipe holds what `latency` cycles of accesses and fills
       produce, plus one more queue's worth before the slice stalls */
    uint32_t resp = q + s->latency + 2 * (merge < 64 ? merge : 64);
    if (mem_cache_init(&s->tags, c->sets ? c->sets : 1, c->ways ? c->ways : 1, s->line)
        || mshr_init(&s->mshr, n, merge)
        || ring_init(&s->in, q) || ring_init(&s->fills, q) || ring_init(&s->todram, q)
        || ring_init(&s->resp, resp)) {
        mem_l2_free(s);
        return NULL;
    }
    return s;
}

void mem_l2_free(mem_l2 *s)
{
    if (!s) return;
    mem_cache_release(&s->tags);
    mshr_release(&s->mshr);
    free(s->in.v);
    free(s->fills.v);
    free(s->todram.v);
    free(s->resp.v);
    free(s->j);
    free(s);
}

/* ------------------------------------------------------------------ */
/* Sectors: splitting requests, joining their replies                  */
/* ------------------------------------------------------------------ */

/* A join entry for `n` sub-requests of `r`, or L2_NIL when out of memory. */
static uint32_t join_new(mem_l2 *s, const mem_req *r, uint32_t n)
{
    if (s->jfree == L2_NIL) {
        uint32_t cap = s->jcap ? s->jcap * 2 : 64;
        l2_join *j = realloc(s->j, (size_t)cap * sizeof *j);
        if (!j) return L2_NIL;
        for (uint32_t k = s->jcap; k < cap; k++) j[k].left = k + 1 < cap ? k + 1 : L2_NIL;
        s->j = j;
        s->jfree = s->jcap;
        s->jcap = cap;
    }
    uint32_t k = s->jfree;
    s->jfree = s->j[k].left;
    s->j[k] = (l2_join){ .r = *r, .left = n };
    return k;
}

/* Sub-request answered: the request itself when it was the last one
   (true, *out), else nothing yet. */
static bool join_done(mem_l2 *s, uint32_t k, mem_req *out)
{
    if (--s->j[k].left) return false;
    *out = s->j[k].r;
    s->j[k].left = s->jfree;
    s->jfree = k;
    return true;
}

/* Sectored: as many slots as the longest request splits into (GPGPU-Sim's
   full(SECTOR_CHUNCK_SIZE) test before the interconnect pops a request). */
bool mem_l2_can_accept(const mem_l2 *s)
{
    return ring_room(&s->in, s->sector ? s->split_max : 1);
}

/* Sectored: one sub-request per sector the request covers, each with the
   request's bytes in that sector (a write's part, a read's whole sector
   range).  A request in one sector goes in whole. */
void mem_l2_push(mem_l2 *s, const mem_req *r)
{
    uint64_t first = r->addr / s->unit * s->unit, end = r->addr + (r->bytes ? r->bytes : 1);
    uint32_t n = (uint32_t)((end - first + s->unit - 1) / s->unit);
    uint32_t j = s->sector && !s->perfect && n > 1 ? join_new(s, r, n) : L2_NIL;
    if (j == L2_NIL) {           /* whole (or no memory to split: fetched whole) */
        ring_push(&s->in, r);
        return;
    }
    for (uint32_t k = 0; k < n; k++) {
        uint64_t lo = first + (uint64_t)k * s->unit, hi = lo + s->unit;
        mem_req sub = *r;
        sub.addr = lo > r->addr ? lo : r->addr;
        sub.bytes = (uint32_t)((hi < end ? hi : end) - sub.addr);
        ring_push_j(&s->in, &sub, j);
    }
}

bool mem_l2_can_fill(const mem_l2 *s) { return ring_room(&s->fills, 1); }
void mem_l2_fill(mem_l2 *s, const mem_req *r) { ring_push(&s->fills, r); }

/* ------------------------------------------------------------------ */
/* Lines, replies, write-backs                                         */
/* ------------------------------------------------------------------ */

/* First unit (line, or sector when sectored) of a request, and how many. */
static inline uint64_t l2_first(const mem_l2 *s, const mem_req *r)
{
    return r->addr / s->unit * s->unit;
}

static inline uint32_t l2_nlines(const mem_l2 *s, const mem_req *r)
{
    uint64_t last = (r->addr + (r->bytes ? r->bytes : 1) - 1) / s->unit * s->unit;
    return (uint32_t)((last - l2_first(s, r)) / s->unit) + 1;
}

/* Bit of the sector of `a` in its line (0 when not sectored). */
static inline uint32_t l2_sbit(const mem_l2 *s, uint64_t a)
{
    return s->sector ? 1u << (a % s->line / s->sector) : 0;
}

/* Answer `r` (a sub-request of join entry `join`: the whole request once
   every part is answered). */
static void l2_reply(mem_l2 *s, const mem_req *r, uint32_t join, uint64_t now)
{
    mem_req rep = *r;
    if (join != L2_NIL && !join_done(s, join, &rep)) return;
    rep.ready = now + s->latency;
    ring_push(&s->resp, &rep);
}

static uint32_t popcount32(uint32_t x)
{
    uint32_t n = 0;
    for (; x; x &= x - 1) n++;
    return n;
}

/* Install `n` units (lines, or sectors) from `first`; dirty victims become
   DRAM writes of their dirty sectors (the caller made room for `n`). */
static void l2_install(mem_l2 *s, uint64_t first, uint32_t n, bool dirty, const mem_req *by)
{
    for (uint32_t k = 0; k < n; k++) {
        uint64_t a = first + (uint64_t)k * s->unit;
        int64_t idx = mem_cache_probe(&s->tags, a);
        bool fresh = idx < 0;
        mem_cache_line old;
        if (idx < 0 && mem_cache_fill(&s->tags, a, by->warp, &idx, &old)) {
            s->st.evictions++;
            if (old.dirty) {
                s->st.writebacks++;
                uint32_t wbytes = s->sector ? popcount32(old.sdirty) * s->sector : s->line;
                mem_req wb = { .addr = old.tag * s->line, .bytes = wbytes, .kind = MEM_WRITE,
                               .src = by->src, .sm = UINT16_MAX, .id = UINT32_MAX,
                               .warp = UINT32_MAX, .warp_uid = UINT64_MAX, .sent = by->sent,
                               .seq = by->seq };
                ring_push(&s->todram, &wb);
            }
        } else {
            mem_cache_touch(&s->tags, idx, by->warp);
        }
        mem_cache_line *l = &s->tags.lines[idx];
        if (fresh) l->sectors = l->sdirty = 0;
        l->sectors |= l2_sbit(s, a);
        if (dirty) {
            l->dirty = true;
            l->sdirty |= l2_sbit(s, a);
        }
    }
}

/* Is the unit of `a` here (its line, and its sector when sectored)? */
static bool l2_present(const mem_l2 *s, uint64_t a)
{
    int64_t idx = mem_cache_probe(&s->tags, a);
    return idx >= 0 && (!s->sector || (s->tags.lines[idx].sectors & l2_sbit(s, a)));
}

/* A demand access finds lines a prefetch brought in: count each once. */
static void l2_count_pf_hits(mem_l2 *s, uint64_t first, uint32_t n)
{
    for (uint32_t k = 0; k < n && s->pf.fills; k++) {
        int64_t idx = mem_cache_probe(&s->tags, first + (uint64_t)k * s->unit);
        if (idx >= 0 && s->tags.lines[idx].prefetched) {
            s->tags.lines[idx].prefetched = false;
            s->pf.hits++;
        }
    }
}

static bool l2_all_present(mem_l2 *s, uint64_t first, uint32_t n)
{
    for (uint32_t k = 0; k < n; k++)
        if (!l2_present(s, first + (uint64_t)k * s->unit)) return false;
    return true;
}

/* ------------------------------------------------------------------ */
/* The cycle                                                           */
/* ------------------------------------------------------------------ */

static void l2_account(mem_l2 *s, uint64_t now)
{
    if (now > s->last_acct) {
        s->st.mshr_occupancy_sum += (uint64_t)s->mshr.used * (now - s->last_acct);
        s->last_acct = now;
    }
}

/* Data for an MSHR came back: install, answer every waiter (the reply
   pipe takes them all at once, or the fill waits). */
static void l2_do_fill(mem_l2 *s, uint64_t now)
{
    l2_mshrs *m = &s->mshr;
    const mem_req *f = ring_head(&s->fills);
    int i = (int)f->id;
    if (f->id >= m->n || !m->e[i].valid || m->e[i].line != l2_first(s, f)) {
        ring_pop(&s->fills);        /* not ours (cannot happen): drop */
        return;
    }
    uint32_t nl = l2_nlines(s, f);
    if (!ring_room(&s->resp, m->e[i].nwait) || !ring_room(&s->todram, nl)) return;
    mem_req fill = *f;
    ring_pop(&s->fills);
    bool pf_only = m->e[i].prefetch && m->e[i].nwait == 0;
    s->pf.fills += m->e[i].prefetch;
    uint32_t head = mshr_free(m, i);
    bool dirty = false;
    for (uint32_t k = head; k != L2_NIL; k = m->w[k].next) dirty |= m->w[k].r.kind != MEM_READ;
    if (!s->bypass)
        l2_install(s, l2_first(s, &fill), nl, dirty, head != L2_NIL ? &m->w[head].r : &fill);
    if (pf_only && !s->bypass) {
        /* nobody asked yet: a later demand hit shows the prefetch was useful */
        int64_t idx = mem_cache_probe(&s->tags, l2_first(s, &fill));
        if (idx >= 0) s->tags.lines[idx].prefetched = true;
    }
    uint32_t k = head;
    while (k != L2_NIL) {
        uint32_t next = m->w[k].next;
        l2_reply(s, &m->w[k].r, m->w[k].join, now);
        m->w[k].next = m->wfree;
        m->wfree = k;
        k = next;
    }
}

/* The input queue's head: true when it was consumed. */
static bool l2_do_access(mem_l2 *s, uint64_t now)
{
    l2_mshrs *m = &s->mshr;
    const mem_req *r = ring_head(&s->in);
    uint32_t join = ring_head_join(&s->in);
    if (!ring_room(&s->resp, 1)) return false;         /* replies are not leaving */
    if (s->perfect) {
        s->st.accesses++;
        s->st.hits++;
        l2_reply(s, r, join, now);
        return true;
    }
    uint64_t first = l2_first(s, r);
    uint32_t nl = l2_nlines(s, r);
    int i = mshr_find(m, first);
    if (i >= 0) {                                       /* line on its way: join it */
        /* the request that opened the entry is its first waiter */
        bool inter = m->e[i].nwait && m->w[m->e[i].head].r.sm != r->sm;
        if (m->e[i].nwait >= m->merge || !mshr_wait(m, i, r, join)) {
            s->st.reservation_fails++;
            return false;
        }
        s->st.merges_inter += inter;
        s->st.accesses++;
        s->st.misses++;
        s->st.merges++;
        s->pf.merges += m->e[i].prefetch;
        return true;
    }
    if (!s->bypass && l2_all_present(s, first, nl)) {
        l2_count_pf_hits(s, first, nl);
        l2_install(s, first, nl, r->kind != MEM_READ, r);   /* touches, maybe dirties */
        s->st.accesses++;
        s->st.hits++;
        l2_reply(s, r, join, now);
        return true;
    }
    if (r->kind == MEM_WRITE && s->bypass) {
        /* uncached: the write goes on to DRAM, acknowledged as it leaves */
        if (!ring_room(&s->todram, 1)) { s->st.reservation_fails++; return false; }
        ring_push(&s->todram, r);
        s->st.accesses++;
        s->st.misses++;
        l2_reply(s, r, join, now);
        return true;
    }
    if (r->kind == MEM_WRITE) {                         /* allocate dirty, no fetch */
        if (!ring_room(&s->todram, nl)) { s->st.reservation_fails++; return false; }
        l2_install(s, first, nl, true, r);
        s->st.accesses++;
        s->st.misses++;
        l2_reply(s, r, join, now);
        return true;
    }
    if (m->used >= m->n || !ring_room(&s->todram, 1)) {
        s->st.reservation_fails++;
        return false;
    }
    i = mshr_alloc(m, first);
    if (!mshr_wait(m, i, r, join)) {
        mshr_free(m, i);
        s->st.reservation_fails++;
        return false;
    }
    mem_req d = *r;
    d.addr = first;
    d.bytes = nl * s->unit;
    d.kind = MEM_READ;
    d.id = (uint32_t)i;
    ring_push(&s->todram, &d);
    s->st.accesses++;
    s->st.misses++;
    return true;
}

void mem_l2_tick(mem_l2 *s, uint64_t now)
{
    l2_account(s, now);
    if (s->in.n == s->in.cap) s->input_full++;
    if (s->fills.n) l2_do_fill(s, now);
    if (s->in.n && l2_do_access(s, now)) ring_pop(&s->in);
}

/* ------------------------------------------------------------------ */
/* Outputs and queries                                                 */
/* ------------------------------------------------------------------ */

const mem_req *mem_l2_reply_head(const mem_l2 *s, uint64_t now)
{
    if (!s->resp.n || ring_head(&s->resp)->ready > now) return NULL;
    return ring_head(&s->resp);
}

void mem_l2_reply_pop(mem_l2 *s) { ring_pop(&s->resp); }
const mem_req *mem_l2_dram_head(const mem_l2 *s) { return s->todram.n ? ring_head(&s->todram) : NULL; }
void mem_l2_dram_pop(mem_l2 *s) { ring_pop(&s->todram); }

bool mem_l2_needs_tick(const mem_l2 *s) { return s->in.n || s->fills.n; }

bool mem_l2_busy(const mem_l2 *s)
{
    return s->in.n || s->fills.n || s->todram.n || s->resp.n || s->mshr.used;
}

uint32_t mem_l2_mshr_used(const mem_l2 *s) { return s->mshr.used; }
uint32_t mem_l2_input_len(const mem_l2 *s) { return s->in.n; }

void mem_l2_get_stats(const mem_l2 *s, uint64_t now, gpu_cache_stats *out, uint64_t *input_full)
{
    *out = s->st;
    if (now > s->last_acct) out->mshr_occupancy_sum += (uint64_t)s->mshr.used * (now - s->last_acct);
    *input_full = s->input_full;
}

bool mem_l2_prefetch_reserve(mem_l2 *s, uint64_t addr, uint32_t *id)
{
    uint64_t first = addr / s->line * s->line;
    if (s->perfect || mem_cache_probe(&s->tags, first) >= 0 || mshr_find(&s->mshr, first) >= 0
        || s->mshr.used >= s->mshr.n)
        return false;
    int i = mshr_alloc(&s->mshr, first);
    s->mshr.e[i].prefetch = true;
    *id = (uint32_t)i;
    return true;
}

void mem_l2_pf_stats_get(const mem_l2 *s, mem_l2_pf_stats *out) { *out = s->pf; }

bool mem_l2_holds(const mem_l2 *s, uint64_t addr)
{
    return s->perfect || mem_cache_probe(&s->tags, addr) >= 0;
}

/* GPGPU-Sim's fill leaves the sector VALID whatever it was, so a dirty
   line the copy finds (a kernel's output read back by the host) becomes
   clean, and a dirty victim is overwritten without a write-back. */
bool mem_l2_warm(mem_l2 *s, uint64_t addr, uint32_t bytes)
{
    /* sectored: the sectors [addr, addr + bytes) touches (within one
       line), as GPGPU-Sim fills 32 B at a time; else the whole line */
    uint32_t want = 0;
    for (uint64_t a = addr; s->sector && bytes && a < addr + bytes; a = (a / s->sector + 1) * s->sector)
        want |= l2_sbit(s, a);
    int64_t idx = mem_cache_probe(&s->tags, addr);
    bool had = idx >= 0;
    bool fresh = !had || (s->sector && (s->tags.lines[idx].sectors & want) != want);
    mem_cache_line old;   /* a dirty victim is dropped, as GPGPU-Sim does */
    mem_cache_fill(&s->tags, addr, UINT32_MAX, &idx, &old);   /* most recently used */
    mem_cache_line *l = &s->tags.lines[idx];
    if (!had) l->sectors = 0;
    l->sectors |= want;
    l->dirty = false;
    l->sdirty = 0;
    l->prefetched = false;
    return fresh;
}

void mem_l2_set_key(mem_l2 *s, uint64_t (*key)(const void *ctx, uint64_t lineno),
                    const void *ctx)
{
    s->tags.set_key = key;
    s->tags.set_key_ctx = ctx;
}
