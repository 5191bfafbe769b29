/*
** cache.c -- set-associative tag array with true LRU (per-line use
** stamps from a counter: deterministic, and a victim search is one pass
** over the ways of a set).
*/
#include "cache.h"
#include <stdlib.h>
#include <string.h>

int mem_cache_init(mem_cache *c, uint32_t sets, uint32_t ways, uint32_t line_bytes)
{
    memset(c, 0, sizeof *c);
    if (!sets || !ways || !line_bytes) return -1;
    c->lines = calloc((size_t)sets * ways, sizeof *c->lines);
    if (!c->lines) return -1;
    c->sets = sets;
    c->ways = ways;
    c->line_bytes = line_bytes;
    return 0;
}

void mem_cache_release(mem_cache *c)
{
    free(c->lines);
    c->lines = NULL;
}

void mem_cache_flush(mem_cache *c)
{
    memset(c->lines, 0, (size_t)c->sets * c->ways * sizeof *c->lines);
    c->clock = 0;
    c->presence++;
}

/* Fermi's hashed index (GPGPU-Sim 'H').  The five low set bits are the
   line-number bits above the offset XORed with address bits 13-15, 17 and
   19, so a power-of-two stride (rows of an image, columns of a matrix)
   spreads over all sets instead of a few.  Only defined for 32 or 64 sets
   (checked by the configuration); 64 sets take bit 12 as the top bit. */
static uint32_t index_fermi(const mem_cache *c, uint64_t lineno)
{
    uint64_t addr = lineno * c->line_bytes;
    uint32_t lo = (uint32_t)(lineno & 0x1f);
    uint32_t hi = (uint32_t)((addr >> 13) & 0x7) | (uint32_t)((addr >> 14) & 0x8)
                | (uint32_t)((addr >> 15) & 0x10);
    uint32_t set = lo ^ hi;
    if (c->sets == 64) set |= (uint32_t)((addr >> 7) & 0x20);
    return set % c->sets;
}

static inline uint32_t cache_set_of(const mem_cache *c, uint64_t lineno)
{
    switch (c->index) {
    case MEM_INDEX_FERMI: return index_fermi(c, lineno);
    case MEM_INDEX_XOR:   return (uint32_t)((lineno ^ (lineno / c->sets)) % c->sets);
    default:              return (uint32_t)(lineno % c->sets);
    }
}

static inline mem_cache_line *cache_set(const mem_cache *c, uint64_t lineno)
{
    /* the set function applies to the key (an L2 slice: its local line
       number), as GPGPU-Sim hashes the partition address */
    uint64_t k = c->set_key ? c->set_key(c->set_key_ctx, lineno) : lineno;
    return c->lines + (size_t)cache_set_of(c, k) * c->ways;
}

int64_t mem_cache_probe(const mem_cache *c, uint64_t addr)
{
    uint64_t lineno = addr / c->line_bytes;
    const mem_cache_line *set = cache_set(c, lineno);
    for (uint32_t w = 0; w < c->ways; w++)
        if (set[w].valid && set[w].tag == lineno)
            return (set - c->lines) + w;
    return -1;
}

void mem_cache_touch(mem_cache *c, int64_t idx, uint32_t owner)
{
    c->lines[idx].stamp = ++c->clock;
    if (!c->keep_owner) c->lines[idx].owner = owner;
}

/* ---- unbounded caches ------------------------------------------------ */

/* The first way of `lineno`'s set that holds nothing, or -1. */
static int64_t cache_free_way(const mem_cache *c, uint64_t lineno)
{
    const mem_cache_line *set = cache_set(c, lineno);
    for (uint32_t w = 0; w < c->ways; w++)
        if (!set[w].valid && !set[w].reserved) return (set - c->lines) + w;
    return -1;
}

/* Unbounded: double the sets (rehashing every line) until `lineno`'s set
   has a free way, and return it; -1 when out of memory (the caller then
   evicts as a bounded cache would).  With the linear index the lines of
   a new set all come from one old set, so a rehash always fits. */
static int64_t cache_grow(mem_cache *c, uint64_t lineno)
{
    for (;;) {
        int64_t w = cache_free_way(c, lineno);
        if (w >= 0) return w;
        uint32_t old = c->sets;
        mem_cache_line *ol = c->lines, *nl = calloc((size_t)old * 2 * c->ways, sizeof *nl);
        if (!nl || old > UINT32_MAX / 2) { free(nl); return -1; }
        c->lines = nl;
        c->sets = old * 2;
        for (size_t i = 0; i < (size_t)old * c->ways; i++) {
            if (!ol[i].valid && !ol[i].reserved) continue;
            c->lines[cache_free_way(c, ol[i].tag)] = ol[i];
        }
        free(ol);
    }
}

bool mem_cache_fill(mem_cache *c, uint64_t addr, uint32_t owner, int64_t *idx,
                    mem_cache_line *evicted)
{
    uint64_t lineno = addr / c->line_bytes;
    c->presence++;
    if (c->unbounded && mem_cache_probe(c, addr) < 0) cache_grow(c, lineno);
    mem_cache_line *set = cache_set(c, lineno);
    uint32_t victim = 0;
    for (uint32_t w = 0; w < c->ways; w++) {
        if (set[w].valid && set[w].tag == lineno) { victim = w; goto install; }
        if (!set[w].valid) { victim = w; goto install_fresh; }
        if (set[w].stamp < set[victim].stamp) victim = w;
    }
    /* every way valid: the least recently used one goes */
    *evicted = set[victim];
    set[victim] = (mem_cache_line){ .tag = lineno, .valid = true, .owner = owner,
                                    .stamp = ++c->clock };
    *idx = (set - c->lines) + victim;
    return true;
install_fresh:
    set[victim] = (mem_cache_line){ .tag = lineno, .valid = true };
install:
    set[victim].owner = owner;
    set[victim].stamp = ++c->clock;
    *idx = (set - c->lines) + victim;
    return false;
}

void mem_cache_invalidate(mem_cache *c, uint64_t addr)
{
    int64_t i = mem_cache_probe(c, addr);
    if (i >= 0) mem_cache_drop(c, i);
}

void mem_cache_drop(mem_cache *c, int64_t idx)
{
    c->lines[idx].valid = false;
    c->presence++;
}

/* ------------------------------------------------------------------ */
/* Allocate on miss                                                    */
/* ------------------------------------------------------------------ */

int64_t mem_cache_victim(const mem_cache *c, uint64_t addr)
{
    const mem_cache_line *set = cache_set(c, addr / c->line_bytes);
    int64_t victim = -1;
    for (uint32_t w = 0; w < c->ways; w++) {
        if (set[w].reserved) continue;
        if (!set[w].valid) return (set - c->lines) + w;
        if (victim < 0 || set[w].stamp < set[victim].stamp) victim = w;
    }
    if (victim < 0 && c->unbounded) victim = 0;   /* mem_cache_reserve grows */
    return victim < 0 ? -1 : (set - c->lines) + victim;
}

bool mem_cache_reserve(mem_cache *c, int64_t idx, uint64_t addr, uint32_t owner,
                       mem_cache_line *evicted)
{
    if (c->unbounded && (c->lines[idx].valid || c->lines[idx].reserved)) {
        int64_t w = cache_grow(c, addr / c->line_bytes);
        if (w >= 0) idx = w;
    }
    mem_cache_line *l = &c->lines[idx];
    bool displaced = l->valid;
    if (displaced) { *evicted = *l; c->presence++; }
    *l = (mem_cache_line){ .tag = addr / c->line_bytes, .reserved = true, .owner = owner,
                           .stamp = ++c->clock };
    return displaced;
}

int64_t mem_cache_validate(mem_cache *c, uint64_t addr)
{
    uint64_t lineno = addr / c->line_bytes;
    mem_cache_line *set = cache_set(c, lineno);
    for (uint32_t w = 0; w < c->ways; w++)
        if (set[w].reserved && set[w].tag == lineno) {
            set[w].reserved = false;
            set[w].valid = true;
            c->presence++;
            return (set - c->lines) + w;
        }
    return -1;
}
