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
}

static inline mem_cache_line *cache_set(const mem_cache *c, uint64_t lineno)
{
    uint64_t k = c->set_key ? c->set_key(c->set_key_ctx, lineno) : lineno;
    return c->lines + (size_t)(k % c->sets) * c->ways;
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

bool mem_cache_fill(mem_cache *c, uint64_t addr, uint32_t owner, int64_t *idx,
                    mem_cache_line *evicted)
{
    uint64_t lineno = addr / c->line_bytes;
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
    if (i >= 0) c->lines[i].valid = false;
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
    return victim < 0 ? -1 : (set - c->lines) + victim;
}

bool mem_cache_reserve(mem_cache *c, int64_t idx, uint64_t addr, uint32_t owner,
                       mem_cache_line *evicted)
{
    mem_cache_line *l = &c->lines[idx];
    bool displaced = l->valid;
    if (displaced) *evicted = *l;
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
            return (set - c->lines) + w;
        }
    return -1;
}
