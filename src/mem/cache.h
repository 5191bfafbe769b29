/*
** cache.h -- a generic set-associative tag array with LRU replacement.
**
**   address:  | tag .................... | set index | line offset |
**             set = (addr / line_bytes) % sets,  tag = addr / line_bytes
** (the whole line number is kept as the tag, so any set count works).
** `index` may hash the set instead (GPGPU-Sim's set-index functions):
**   fermi  set = (addr bits 7..11) XOR (bits 13,14,15,17,19), for 32 sets;
**          64 sets add bit 12 as the set's top bit (Nugteren et al., HPCA 2014)
**   xor    set = (line number mod sets) XOR (line number / sets mod sets)
** The tag stays the whole line number, so a hash never aliases two lines.
** Only tags live here, never data: the functional emulator owns values.
**
** Two ways to allocate: mem_cache_fill installs a line at once (victim
** chosen then); allocate-on-miss caches instead reserve a way when the
** miss is sent (mem_cache_victim + mem_cache_reserve: the old line leaves
** at that moment) and validate it when the fill returns
** (mem_cache_validate).  A reserved way is neither a hit nor a victim.
**
**   line state:  invalid --reserve--> reserved --validate--> valid
**                invalid/valid --fill--> valid
*/
#ifndef WS_MEM_CACHE_H
#define WS_MEM_CACHE_H

#include <stdbool.h>
#include <stdint.h>

typedef struct mem_cache_line {
    uint64_t tag;         /* line number (addr / line_bytes) */
    uint64_t stamp;       /* last use; smallest in a set = least recent */
    uint32_t owner;       /* warp slot that touched it last, or that allocated it
                             (keep_owner) */
    bool     valid, dirty;
    bool     prefetched;  /* L2: brought by a prefetch, no demand access yet */
    bool     reserved;    /* allocate-on-miss: way held for an outstanding miss
                             (not valid, `tag` is the line awaited) */
    uint32_t sectors;     /* sectored L2: bit k = sector k valid (set by l2.c) */
    uint32_t sdirty;      /* sectored L2: bit k = sector k dirty */
    uint32_t lanes;       /* L1D hit classification: lanes of the owner warp that
                             touched it since its fill (set by l1.c; kept here so
                             an unbounded cache's rehash moves it with the line) */
} mem_cache_line;

/* Set-index functions (the values of gpu_cache_config.set_index). */
enum { MEM_INDEX_LINEAR = 0, MEM_INDEX_FERMI, MEM_INDEX_XOR };

typedef struct mem_cache {
    uint32_t sets, ways, line_bytes;
    uint32_t index;       /* MEM_INDEX_*; linear after init, set by the user */
    uint64_t clock;       /* use counter for LRU stamps */
    uint64_t presence;    /* bumped whenever a line becomes or stops being
                             valid: a reader that caches "is X present"
                             answers re-probes only when this moved */
    mem_cache_line *lines;/* sets * ways, set-major */
    bool keep_owner;      /* touches leave `owner` alone: it stays the warp
                             that allocated the line (CCWS); set by the user */
    bool unbounded;       /* never evict: a line whose set is full doubles the
                             sets and rehashes (linear index only); set by
                             the user */
    /* optional: the number whose remainder by `sets` picks a line's set,
       from its line number (NULL: the line number itself).  An L2 slice
       sees only its share of the lines; without the digits that chose
       the slice, its lines spread over all its sets (memsys.c). */
    uint64_t (*set_key)(const void *ctx, uint64_t lineno);
    const void *set_key_ctx;
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
/* Mark line `idx` most recently used by warp `owner` (its new owner,
   unless keep_owner). */
void mem_cache_touch(mem_cache *c, int64_t idx, uint32_t owner);
/* Install the line of `addr` (LRU or invalid way of its set) for `owner`.
   When a valid line is displaced, *evicted gets a copy and true is
   returned.  The new line's index goes to *idx. */
bool mem_cache_fill(mem_cache *c, uint64_t addr, uint32_t owner, int64_t *idx,
                    mem_cache_line *evicted);
/* Drop the line holding `addr` if present (atomics bypass the L1). */
void mem_cache_invalidate(mem_cache *c, uint64_t addr);
/* Line `idx` stops being valid (write-evict, invalidate). */
void mem_cache_drop(mem_cache *c, int64_t idx);

/* Allocate-on-miss: the way a miss on `addr` would reserve (the first
   invalid way of its set, else the least recently used valid one), or -1
   when every way of the set is reserved.  Changes nothing.  Unbounded:
   never -1 (mem_cache_reserve makes room). */
int64_t mem_cache_victim(const mem_cache *c, uint64_t addr);
/* Reserve way `idx` (from mem_cache_victim) for the line of `addr` on
   behalf of `owner`; its LRU stamp is the reservation.  When a valid line
   is displaced, *evicted gets a copy and true is returned. */
bool mem_cache_reserve(mem_cache *c, int64_t idx, uint64_t addr, uint32_t owner,
                       mem_cache_line *evicted);
/* The fill of a reserved line: make it valid (stamp and owner as
   reserved).  Its index, or -1 when no way awaits `addr`. */
int64_t mem_cache_validate(mem_cache *c, uint64_t addr);

#endif /* WS_MEM_CACHE_H */
