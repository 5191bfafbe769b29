/*
** cache.h -- a generic set-associative tag array with LRU replacement.
**
**   address:  | tag .................... | set index | line offset |
**             set = (addr / line_bytes) % sets,  tag = addr / line_bytes
** (the whole line number is kept as the tag, so any set count works).
** Only tags live here, never data: the functional emulator owns values.
*/
#ifndef WS_MEM_CACHE_H
#define WS_MEM_CACHE_H

#include <stdbool.h>
#include <stdint.h>

typedef struct mem_cache_line {
    uint64_t tag;         /* line number (addr / line_bytes) */
    uint64_t stamp;       /* last use; smallest in a set = least recent */
    uint32_t owner;       /* warp slot that touched it last */
    bool     valid, dirty;
} mem_cache_line;

typedef struct mem_cache {
    uint32_t sets, ways, line_bytes;
    uint64_t clock;       /* use counter for LRU stamps */
    mem_cache_line *lines;/* sets * ways, set-major */
} mem_cache;

/* 0, or -1 when out of memory or a geometry value is 0. */
int mem_cache_init(mem_cache *c, uint32_t sets, uint32_t ways, uint32_t line_bytes);
void mem_cache_release(mem_cache *c);
/* Forget every line (new kernel with a cold cache is the caller's choice). */
void mem_cache_flush(mem_cache *c);

static inline uint64_t mem_cache_line_addr(const mem_cache *c, uint64_t addr)
{
    return addr / c->line_bytes * c->line_bytes;
}

/* Index of the valid line holding `addr`, or -1. */
int64_t mem_cache_probe(const mem_cache *c, uint64_t addr);
/* Mark line `idx` most recently used by warp `owner`. */
void mem_cache_touch(mem_cache *c, int64_t idx, uint32_t owner);
/* Install the line of `addr` (LRU or invalid way of its set) for `owner`.
   When a valid line is displaced, *evicted gets a copy and true is
   returned.  The new line's index goes to *idx. */
bool mem_cache_fill(mem_cache *c, uint64_t addr, uint32_t owner, int64_t *idx,
                    mem_cache_line *evicted);
/* Drop the line holding `addr` if present (atomics bypass the L1). */
void mem_cache_invalidate(mem_cache *c, uint64_t addr);

#endif /* WS_MEM_CACHE_H */
