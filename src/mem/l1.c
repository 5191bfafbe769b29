/*
** l1.c -- first-level cache of an SM (data, constant or texture).
**
** Reads: hit -> touch; miss -> merge into the line's MSHR or take a new
** MSHR and a miss-queue slot.  Stores: write-through with no allocation
** (a hit only refreshes LRU, or with write_evict drops the line: GPGPU-Sim
** write policy E) by default; with write_back, a store hit dirties the
** line and a store miss allocates through an MSHR; dirty victims are
** written back.  Atomics always go to memory and drop any cached copy.  A
** disabled cache treats every read as a miss and installs nothing.
**
** When a miss takes its way (`allocate`):
**   fill       when the fill returns: the victim (LRU) is chosen, evicted
**              and reported then.  No way is held while the miss is out.
**   miss       as GPGPU-Sim's allocate-on-miss (and CCWS): when the miss is
**              sent, the LRU way among those not already reserved is
**              reserved and its line evicted and reported at that moment;
**              the fill validates the way (its LRU stamp stays the miss's).
**              A miss whose set has every way reserved is a reservation
**              fail (reservation_fails_set).  The check comes before the
**              MSHR and queue checks, as in GPGPU-Sim.
**   streaming  GPGPU-Sim's 's' (Volta's streaming L1) is allocate-on-fill
**              with one MSHR per cache line: here, fill's tag behaviour
**              (no way reserved, no set-reservation fail, victim chosen at
**              fill) with at least sets x ways MSHRs.  GPGPU-Sim's switch to
**              allocate-on-miss when a kernel gives the L1 all the unified
**              memory is not modelled.
** `owner = alloc` keeps a line's owner the warp whose miss allocated it
** (merging and hitting warps do not take it over, CCWS spec §7.7).
*/
#include "l1.h"
#include "cache.h"
#include "mshr.h"
#include <stdlib.h>
#include <string.h>

struct mem_l1 {
    gpu_cache_config cfg;
    uint16_t sm;
    uint8_t  src;
    uint32_t seg_bytes;
    mem_cache tags;
    mem_mshr mshr;
    /* miss queue: ring; `qcap` = miss_queue plus room for write-backs,
       which must not fail (they come from fills) */
    mem_req *q;
    uint32_t qhead, qn, qcap, qlimit;
    bool last_fail_set;   /* the last reservation fail was a full set */
    bool perfect;         /* mem_l1_set_perfect: every access hits */
    /* A refused access is refused again, with the same counts, until the
       cache changes: `ver` counts changes (an access taken, a fill, a
       send below, a reset), and the last refusal is remembered with the
       version it saw, so a blocked LSU's retry every cycle is one compare
       instead of a tag probe and an MSHR scan. */
    uint64_t ver;
    struct l1_refusal { uint64_t ver, addr; uint32_t bytes; int kind; bool valid; } refused;
    gpu_cache_stats st;
    /* hit classification (mem_l1_classify_enable; NULL when off): per MSHR
       the allocating warp and its lanes (a line's own lanes are in
       tags.lines[].lanes) */
    uint32_t *cls_mshr_lanes, *cls_mshr_warp;
};

_Static_assert((int)MEM_INDEX_FERMI == (int)GPU_SET_INDEX_FERMI
               && (int)MEM_INDEX_XOR == (int)GPU_SET_INDEX_XOR,
               "mem/cache.h index functions follow common/config.h's order");

mem_l1 *mem_l1_new(const gpu_cache_config *c, uint16_t sm, uint8_t src, uint32_t seg_bytes)
{
    mem_l1 *l = calloc(1, sizeof *l);
    if (!l) return NULL;
    l->cfg = *c;
    l->sm = sm;
    l->src = src;
    l->seg_bytes = seg_bytes ? seg_bytes : 128;
    uint32_t sets = c->sets ? c->sets : 1, ways = c->ways ? c->ways : 1;
    uint32_t mshrs = c->mshr_entries;
    if (c->allocate == GPU_L1_ALLOC_STREAMING && mshrs < sets * ways) mshrs = sets * ways;
    l->qlimit = c->miss_queue ? c->miss_queue : 1;
    l->qcap = l->qlimit + (mshrs ? mshrs : 1) + 1;
    l->q = calloc(l->qcap, sizeof *l->q);
    uint32_t line = c->line_bytes ? c->line_bytes : 128;
    if (!l->q || mem_cache_init(&l->tags, sets, ways, line)
        || mem_mshr_init(&l->mshr, mshrs, c->mshr_merge)) {
        mem_l1_free(l);
        return NULL;
    }
    l->tags.keep_owner = c->owner == GPU_L1_OWNER_ALLOC;
    l->tags.index = c->set_index;
    l->tags.unbounded = c->unbounded;
    return l;
}

int mem_l1_classify_enable(mem_l1 *l)
{
    size_t m = l->mshr.n ? l->mshr.n : 1;
    l->cls_mshr_lanes = calloc(m, sizeof *l->cls_mshr_lanes);
    l->cls_mshr_warp = calloc(m, sizeof *l->cls_mshr_warp);
    return l->cls_mshr_lanes && l->cls_mshr_warp ? 0 : -1;
}

void mem_l1_set_perfect(mem_l1 *l) { l->perfect = true; l->ver++; }

void mem_l1_free(mem_l1 *l)
{
    if (!l) return;
    free(l->cls_mshr_lanes);
    free(l->cls_mshr_warp);
    mem_cache_release(&l->tags);
    mem_mshr_release(&l->mshr);
    free(l->q);
    free(l);
}

void mem_l1_reset(mem_l1 *l)
{
    mem_cache_flush(&l->tags);
    mem_mshr_clear(&l->mshr);
    l->qhead = l->qn = 0;
    l->last_fail_set = false;
    l->ver++;
    memset(&l->st, 0, sizeof l->st);
}

/* ---- hit classification (CCWS spec Sec. 6) ------------------------- */

/* A read hit on line `idx` by `lanes` of `warp`, before the touch: the
   line's owner decides intra- vs inter-warp; for the owner, a lane seen
   before makes it intra-thread.  With `owner = last` a hit of another
   warp makes that warp the owner, with only its own lanes. */
static void l1_cls_hit(mem_l1 *l, int64_t idx, uint32_t warp, uint32_t lanes)
{
    uint32_t *seen = &l->tags.lines[idx].lanes;
    if (l->tags.lines[idx].owner != warp) {
        l->st.cls_inter_warp++;
        if (!l->tags.keep_owner) *seen = lanes;
        return;
    }
    if (lanes & *seen) l->st.cls_intra_thread++;
    else l->st.cls_inter_thread++;
    *seen |= lanes;
}

/* A read miss of `line` (new MSHR or merge): the MSHR gathers the
   allocating warp's lanes, which the filled line starts with. */
static void l1_cls_miss(mem_l1 *l, uint64_t line, uint32_t warp, uint32_t lanes, bool merged)
{
    l->st.cls_miss++;
    int i = mem_mshr_find(&l->mshr, line);
    if (i < 0) return;
    if (!merged) {
        l->cls_mshr_warp[i] = warp;
        l->cls_mshr_lanes[i] = lanes;
    } else if (l->cls_mshr_warp[i] == warp) {
        l->cls_mshr_lanes[i] |= lanes;
    }
}

static void l1_push(mem_l1 *l, int kind, uint64_t addr, uint32_t bytes, uint32_t id,
                    uint32_t warp)
{
    mem_req *r = &l->q[(l->qhead + l->qn) % l->qcap];
    *r = (mem_req){ .addr = addr, .bytes = bytes, .kind = (uint8_t)kind, .src = l->src,
                    .sm = l->sm, .id = id, .warp = warp };
    l->qn++;
}

static inline bool l1_queue_room(const mem_l1 *l) { return l->qn < l->qlimit; }

/* A reservation fail; `set`: because every way of the set is reserved. */
static int l1_fail(mem_l1 *l, bool set)
{
    l->st.reservation_fails++;
    l->st.reservation_fails_set += set;
    l->last_fail_set = set;
    return MEM_L1_FAIL;
}

/* Valid line `old` left the tags: count it, report it in *ev with its
   owner, and queue its write-back if dirty (the queue keeps room for
   these beyond miss_queue, so this never fails). */
static void l1_evicted(mem_l1 *l, const mem_cache_line *old, mem_l1_evict *ev)
{
    uint64_t addr = old->tag * l->tags.line_bytes;
    l->st.evictions++;
    *ev = (mem_l1_evict){ .valid = true, .line = addr, .owner = old->owner };
    if (old->dirty) {
        l->st.writebacks++;
        l1_push(l, MEM_WRITE, addr, l->tags.line_bytes, 0, old->owner);
    }
}

/* A read (or write-allocate store) that missed in the tags. */
static int l1_read_miss(mem_l1 *l, uint64_t line, uint32_t warp, uint32_t token,
                        mem_l1_evict *ev)
{
    int i = mem_mshr_find(&l->mshr, line);
    if (i >= 0) {
        /* the line's way (allocate = miss) was reserved by the first miss */
        if (!mem_mshr_can_merge(&l->mshr, i)) return l1_fail(l, false);
        mem_mshr_add(&l->mshr, i, token);
        l->st.accesses++;
        l->st.misses++;
        l->st.merges++;
        return MEM_L1_MERGED;
    }
    bool reserve = l->cfg.allocate == GPU_L1_ALLOC_MISS && l->cfg.enabled;
    int64_t way = reserve ? mem_cache_victim(&l->tags, line) : -1;
    if (reserve && way < 0) return l1_fail(l, true);
    if (mem_mshr_full(&l->mshr) || !l1_queue_room(l)) return l1_fail(l, false);
    mem_cache_line old;
    if (reserve && mem_cache_reserve(&l->tags, way, line, warp, &old)) l1_evicted(l, &old, ev);
    i = mem_mshr_alloc(&l->mshr, line);
    mem_mshr_add(&l->mshr, i, token);
    l1_push(l, MEM_READ, line, l->tags.line_bytes, (uint32_t)i, warp);
    l->st.accesses++;
    l->st.misses++;
    l->st.mshr_allocs++;
    return MEM_L1_MISS;
}

int mem_l1_access(mem_l1 *l, int kind, uint64_t addr, uint32_t warp, uint32_t token,
                  mem_l1_evict *ev)
{
    return mem_l1_access_n(l, kind, addr, 0, warp, token, ev);
}

int mem_l1_access_n(mem_l1 *l, int kind, uint64_t addr, uint32_t bytes, uint32_t warp,
                    uint32_t token, mem_l1_evict *ev)
{
    return mem_l1_access_lanes(l, kind, addr, bytes, warp, token, 0, ev);
}

static int l1_access(mem_l1 *l, int kind, uint64_t addr, uint32_t bytes, uint32_t warp,
                     uint32_t token, uint32_t lanes, mem_l1_evict *ev);

int mem_l1_access_lanes(mem_l1 *l, int kind, uint64_t addr, uint32_t bytes, uint32_t warp,
                        uint32_t token, uint32_t lanes, mem_l1_evict *ev)
{
    if (l->refused.valid && l->refused.ver == l->ver && l->refused.addr == addr
        && l->refused.kind == kind && l->refused.bytes == bytes) {
        ev->valid = false;
        return l1_fail(l, l->last_fail_set);   /* nothing changed since: the same refusal */
    }
    int r = l1_access(l, kind, addr, bytes, warp, token, lanes, ev);
    if (r == MEM_L1_FAIL)
        l->refused = (struct l1_refusal){ .ver = l->ver, .addr = addr, .bytes = bytes,
                                          .kind = kind, .valid = true };
    else
        l->ver++;
    return r;
}

/* One access (the refusal memo is the caller's). */
static int l1_access(mem_l1 *l, int kind, uint64_t addr, uint32_t bytes, uint32_t warp,
                     uint32_t token, uint32_t lanes, mem_l1_evict *ev)
{
    uint64_t line = mem_cache_line_addr(&l->tags, addr);
    ev->valid = false;
    if (l->perfect) {
        l->st.accesses++;
        l->st.hits++;
        return MEM_L1_HIT;
    }
    if (kind == MEM_ATOMIC) {
        if (!l1_queue_room(l)) return l1_fail(l, false);
        mem_cache_invalidate(&l->tags, addr);
        if (bytes) l1_push(l, MEM_ATOMIC, addr, bytes, token, warp);
        else l1_push(l, MEM_ATOMIC, addr / l->seg_bytes * l->seg_bytes, l->seg_bytes, token, warp);
        return MEM_L1_SENT;
    }
    int64_t hit = l->cfg.enabled ? mem_cache_probe(&l->tags, addr) : -1;
    if (kind == MEM_READ) {
        if (hit >= 0) {
            if (l->cls_mshr_warp) l1_cls_hit(l, hit, warp, lanes);
            mem_cache_touch(&l->tags, hit, warp);
            l->st.accesses++;
            l->st.hits++;
            return MEM_L1_HIT;
        }
        int r = l1_read_miss(l, line, warp, token, ev);
        if (l->cls_mshr_warp && r != MEM_L1_FAIL) l1_cls_miss(l, line, warp, lanes, r == MEM_L1_MERGED);
        return r;
    }
    /* store */
    if (l->cfg.write_back && l->cfg.enabled) {
        if (hit >= 0) {
            mem_cache_touch(&l->tags, hit, warp);
            l->tags.lines[hit].dirty = true;
            l->st.accesses++;
            l->st.hits++;
            return MEM_L1_HIT;
        }
        return l1_read_miss(l, line, warp, MEM_L1_NO_TOKEN, ev);
    }
    if (!l1_queue_room(l)) return l1_fail(l, false);
    l->st.accesses++;
    if (hit >= 0) {
        /* write-evict: the written line is dropped, not refreshed (not an
           eviction: no victim is reported) */
        if (l->cfg.write_evict) mem_cache_drop(&l->tags, hit);
        else mem_cache_touch(&l->tags, hit, warp);
        l->st.hits++;
    } else {
        l->st.misses++;
    }
    if (bytes) l1_push(l, MEM_WRITE, addr, bytes, 0, warp);
    else l1_push(l, MEM_WRITE, addr / l->seg_bytes * l->seg_bytes, l->seg_bytes, 0, warp);
    return MEM_L1_SENT;
}

bool mem_l1_would_send(const mem_l1 *l, int kind, uint64_t addr)
{
    if (l->perfect) return false;
    if (kind == MEM_ATOMIC) return true;
    bool hit = l->cfg.enabled && mem_cache_probe(&l->tags, addr) >= 0;
    if (kind == MEM_WRITE && !(l->cfg.write_back && l->cfg.enabled)) return true;
    return !hit && mem_mshr_find(&l->mshr, mem_cache_line_addr(&l->tags, addr)) < 0;
}

/* Mirrors the fail checks of mem_l1_access, in the same order, so that a
   caller can tell a request that only a reply or a send below can unblock
   (the re-execution queue's idle-cycle skipping) without touching LRU
   stamps or counters. */
bool mem_l1_would_fail(const mem_l1 *l, int kind, uint64_t addr, bool *set)
{
    *set = false;
    if (l->perfect) return false;
    if (kind == MEM_ATOMIC) return !l1_queue_room(l);
    bool allocating = kind == MEM_READ || (l->cfg.write_back && l->cfg.enabled);
    if (!allocating) return !l1_queue_room(l);     /* write-through store */
    if (l->cfg.enabled && mem_cache_probe(&l->tags, addr) >= 0) return false;
    uint64_t line = mem_cache_line_addr(&l->tags, addr);
    int i = mem_mshr_find(&l->mshr, line);
    if (i >= 0) return !mem_mshr_can_merge(&l->mshr, i);
    if (l->cfg.allocate == GPU_L1_ALLOC_MISS && l->cfg.enabled
        && mem_cache_victim(&l->tags, line) < 0) {
        *set = true;
        return true;
    }
    return mem_mshr_full(&l->mshr) || !l1_queue_room(l);
}

void mem_l1_add_fails(mem_l1 *l, uint64_t n, bool set)
{
    if (!n) return;
    l->st.reservation_fails += n;
    if (set) l->st.reservation_fails_set += n;
    l->last_fail_set = set;
}

void mem_l1_repeat_fail(mem_l1 *l, uint64_t n)
{
    l->st.reservation_fails += n;
    if (l->last_fail_set) l->st.reservation_fails_set += n;
}

bool mem_l1_tick(mem_l1 *l, const mem_port *port, uint64_t cycle)
{
    if (!l->qn || !port->send(port->impl, &l->q[l->qhead], cycle)) return false;
    l->qhead = (l->qhead + 1) % l->qcap;
    l->qn--;
    l->ver++;
    return true;
}

uint32_t mem_l1_fill(mem_l1 *l, const mem_req *rep, uint32_t *tokens, mem_l1_evict *ev)
{
    ev->valid = false;
    l->ver++;
    if (rep->kind == MEM_ATOMIC) {
        tokens[0] = rep->id;
        return 1;
    }
    if (rep->kind != MEM_READ) return 0;
    uint32_t n = mem_mshr_free(&l->mshr, (int)rep->id, tokens);
    /* write-allocate stores ride along as NO_TOKEN: they dirty the line */
    bool dirty = false;
    uint32_t k = 0;
    for (uint32_t i = 0; i < n; i++) {
        if (tokens[i] == MEM_L1_NO_TOKEN) dirty = true;
        else tokens[k++] = tokens[i];
    }
    if (!l->cfg.enabled) return k;
    int64_t idx;
    mem_cache_line old;
    if (l->cfg.allocate == GPU_L1_ALLOC_MISS) {
        /* the way was reserved (and its line evicted) when the miss went out */
        idx = mem_cache_validate(&l->tags, rep->addr);
    } else if (mem_cache_fill(&l->tags, rep->addr, rep->warp, &idx, &old)) {
        l1_evicted(l, &old, ev);
    }
    if (dirty && idx >= 0) l->tags.lines[idx].dirty = true;
    if (l->cls_mshr_warp && idx >= 0) l->tags.lines[idx].lanes = l->cls_mshr_lanes[rep->id];
    return k;
}

bool mem_l1_saturated(const mem_l1 *l, uint32_t mshr_slack, uint32_t missq_slack)
{
    return l->mshr.used + mshr_slack >= l->mshr.n || l->qn + missq_slack >= l->qlimit;
}

uint32_t mem_l1_mshr_used(const mem_l1 *l) { return l->mshr.used; }
uint32_t mem_l1_mshr_size(const mem_l1 *l) { return l->mshr.n; }
bool mem_l1_present(const mem_l1 *l, uint64_t addr)
{
    return l->cfg.enabled && mem_cache_probe(&l->tags, addr) >= 0;
}
uint64_t mem_l1_presence(const mem_l1 *l) { return l->tags.presence; }
uint32_t mem_l1_queue_size(const mem_l1 *l) { return l->qlimit; }
uint32_t mem_l1_queue_len(const mem_l1 *l) { return l->qn; }
bool mem_l1_idle(const mem_l1 *l) { return !l->mshr.used && !l->qn; }
const gpu_cache_stats *mem_l1_stats(const mem_l1 *l) { return &l->st; }
gpu_cache_stats *mem_l1_stats_mut(mem_l1 *l) { return &l->st; }
uint32_t mem_l1_line_bytes(const mem_l1 *l) { return l->tags.line_bytes; }
uint32_t mem_l1_hit_latency(const mem_l1 *l) { return l->cfg.hit_latency; }
