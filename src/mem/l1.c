/*
** l1.c -- first-level cache of an SM (data, constant or texture).
**
** Reads: hit -> touch; miss -> merge into the line's MSHR or take a new
** MSHR and a miss-queue slot.  Lines are allocated when the fill returns
** (the displaced line is reported then).  Stores: write-through with no
** allocation (a hit only refreshes LRU) by default; with write_back, a
** store hit dirties the line and a store miss allocates through an MSHR;
** dirty victims are written back.  Atomics always go to memory and drop
** any cached copy.  A disabled cache treats every read as a miss and
** installs nothing.
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
    gpu_cache_stats st;
};

mem_l1 *mem_l1_new(const gpu_cache_config *c, uint16_t sm, uint8_t src, uint32_t seg_bytes)
{
    mem_l1 *l = calloc(1, sizeof *l);
    if (!l) return NULL;
    l->cfg = *c;
    l->sm = sm;
    l->src = src;
    l->seg_bytes = seg_bytes ? seg_bytes : 128;
    l->qlimit = c->miss_queue ? c->miss_queue : 1;
    l->qcap = l->qlimit + (c->mshr_entries ? c->mshr_entries : 1) + 1;
    l->q = calloc(l->qcap, sizeof *l->q);
    uint32_t line = c->line_bytes ? c->line_bytes : 128;
    if (!l->q || mem_cache_init(&l->tags, c->sets ? c->sets : 1, c->ways ? c->ways : 1, line)
        || mem_mshr_init(&l->mshr, c->mshr_entries, c->mshr_merge)) {
        mem_l1_free(l);
        return NULL;
    }
    return l;
}

void mem_l1_free(mem_l1 *l)
{
    if (!l) return;
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
    memset(&l->st, 0, sizeof l->st);
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

/* A read (or write-allocate store) that missed in the tags. */
static int l1_read_miss(mem_l1 *l, uint64_t line, uint32_t warp, uint32_t token)
{
    int i = mem_mshr_find(&l->mshr, line);
    if (i >= 0) {
        if (!mem_mshr_can_merge(&l->mshr, i)) { l->st.reservation_fails++; return MEM_L1_FAIL; }
        mem_mshr_add(&l->mshr, i, token);
        l->st.accesses++;
        l->st.misses++;
        l->st.merges++;
        return MEM_L1_MERGED;
    }
    if (mem_mshr_full(&l->mshr) || !l1_queue_room(l)) {
        l->st.reservation_fails++;
        return MEM_L1_FAIL;
    }
    i = mem_mshr_alloc(&l->mshr, line);
    mem_mshr_add(&l->mshr, i, token);
    l1_push(l, MEM_READ, line, l->tags.line_bytes, (uint32_t)i, warp);
    l->st.accesses++;
    l->st.misses++;
    return MEM_L1_MISS;
}

int mem_l1_access(mem_l1 *l, int kind, uint64_t addr, uint32_t warp, uint32_t token)
{
    uint64_t line = mem_cache_line_addr(&l->tags, addr);
    if (kind == MEM_ATOMIC) {
        if (!l1_queue_room(l)) { l->st.reservation_fails++; return MEM_L1_FAIL; }
        mem_cache_invalidate(&l->tags, addr);
        l1_push(l, MEM_ATOMIC, addr / l->seg_bytes * l->seg_bytes, l->seg_bytes, token, warp);
        return MEM_L1_SENT;
    }
    int64_t hit = l->cfg.enabled ? mem_cache_probe(&l->tags, addr) : -1;
    if (kind == MEM_READ) {
        if (hit >= 0) {
            mem_cache_touch(&l->tags, hit, warp);
            l->st.accesses++;
            l->st.hits++;
            return MEM_L1_HIT;
        }
        return l1_read_miss(l, line, warp, token);
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
        return l1_read_miss(l, line, warp, MEM_L1_NO_TOKEN);
    }
    if (!l1_queue_room(l)) { l->st.reservation_fails++; return MEM_L1_FAIL; }
    l->st.accesses++;
    if (hit >= 0) {
        mem_cache_touch(&l->tags, hit, warp);
        l->st.hits++;
    } else {
        l->st.misses++;
    }
    l1_push(l, MEM_WRITE, addr / l->seg_bytes * l->seg_bytes, l->seg_bytes, 0, warp);
    return MEM_L1_SENT;
}

bool mem_l1_tick(mem_l1 *l, const mem_port *port, uint64_t cycle)
{
    if (!l->qn || !port->send(port->impl, &l->q[l->qhead], cycle)) return false;
    l->qhead = (l->qhead + 1) % l->qcap;
    l->qn--;
    return true;
}

uint32_t mem_l1_fill(mem_l1 *l, const mem_req *rep, uint32_t *tokens, mem_l1_evict *ev)
{
    ev->valid = false;
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
    if (mem_cache_fill(&l->tags, rep->addr, rep->warp, &idx, &old)) {
        l->st.evictions++;
        *ev = (mem_l1_evict){ .valid = true, .line = old.tag * l->tags.line_bytes,
                              .owner = old.owner };
        if (old.dirty) {
            l->st.writebacks++;
            l1_push(l, MEM_WRITE, old.tag * l->tags.line_bytes, l->tags.line_bytes, 0,
                    old.owner);
        }
    }
    if (dirty) l->tags.lines[idx].dirty = true;
    return k;
}

bool mem_l1_saturated(const mem_l1 *l, uint32_t mshr_slack, uint32_t missq_slack)
{
    return l->mshr.used + mshr_slack >= l->mshr.n || l->qn + missq_slack >= l->qlimit;
}

uint32_t mem_l1_mshr_used(const mem_l1 *l) { return l->mshr.used; }
uint32_t mem_l1_queue_len(const mem_l1 *l) { return l->qn; }
bool mem_l1_idle(const mem_l1 *l) { return !l->mshr.used && !l->qn; }
const gpu_cache_stats *mem_l1_stats(const mem_l1 *l) { return &l->st; }
gpu_cache_stats *mem_l1_stats_mut(mem_l1 *l) { return &l->st; }
uint32_t mem_l1_line_bytes(const mem_l1 *l) { return l->tags.line_bytes; }
uint32_t mem_l1_hit_latency(const mem_l1 *l) { return l->cfg.hit_latency; }
