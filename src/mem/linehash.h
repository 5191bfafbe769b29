/*
** linehash.h -- an index from a line address to an entry of a small
** table (the MSHRs of an L1 or an L2 slice): open addressing with linear
** probing, at most half full, and backward-shift deletion, so probe
** sequences stay short however long it runs (no tombstones).  Each line
** is in at most once.
*/
#ifndef WS_MEM_LINEHASH_H
#define WS_MEM_LINEHASH_H

#include <stdint.h>

typedef struct mem_linehash {
    uint64_t *line;
    uint32_t *v;          /* entry + 1; 0: the slot is empty */
    uint32_t mask;
} mem_linehash;

/* Room for `entries` lines; -1 when out of host memory. */
int mem_linehash_init(mem_linehash *h, uint32_t entries);
void mem_linehash_release(mem_linehash *h);
void mem_linehash_clear(mem_linehash *h);
/* The entry of `line`, or -1. */
int mem_linehash_find(const mem_linehash *h, uint64_t line);
/* `line` (not in) now maps to `entry`. */
void mem_linehash_put(mem_linehash *h, uint64_t line, uint32_t entry);
/* `line` (in) maps to nothing. */
void mem_linehash_del(mem_linehash *h, uint64_t line);

#endif /* WS_MEM_LINEHASH_H */
