/*
** mshr.h -- miss status holding registers: one entry per distinct line
** being fetched, each collecting up to `merge` waiting requests (tokens
** chosen by the owner, e.g. the LSU's load record index).
*/
#ifndef WS_MEM_MSHR_H
#define WS_MEM_MSHR_H

#include "linehash.h"
#include <stdbool.h>
#include <stdint.h>

typedef struct mem_mshr_entry {
    uint64_t line;        /* line address */
    uint32_t nwait;       /* tokens waiting */
    bool     valid;
} mem_mshr_entry;

typedef struct mem_mshr {
    uint32_t n, merge, used;
    mem_mshr_entry *e;
    uint32_t *wait;       /* n * merge tokens, entry i at [i * merge] */
    mem_linehash index;   /* line -> entry: a memory-bound L1 looks up
                             every access in a full table */
} mem_mshr;

int mem_mshr_init(mem_mshr *m, uint32_t entries, uint32_t merge);
void mem_mshr_release(mem_mshr *m);
void mem_mshr_clear(mem_mshr *m);
/* Entry index fetching `line`, or -1. */
int mem_mshr_find(const mem_mshr *m, uint64_t line);
/* A fresh entry for `line`, or -1 when all are in use. */
int mem_mshr_alloc(mem_mshr *m, uint64_t line);
static inline bool mem_mshr_can_merge(const mem_mshr *m, int i) { return m->e[i].nwait < m->merge; }
static inline bool mem_mshr_full(const mem_mshr *m) { return m->used >= m->n; }
/* Add a waiter (caller checked mem_mshr_can_merge). */
void mem_mshr_add(mem_mshr *m, int i, uint32_t token);
/* Free entry `i`, copying its tokens into `out` (room for `merge`);
   returns how many. */
uint32_t mem_mshr_free(mem_mshr *m, int i, uint32_t *out);

#endif /* WS_MEM_MSHR_H */
