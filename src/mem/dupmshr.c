/*
** dupmshr.c -- the duplicate-MSHR record (dupmshr.h): a hash table from
** line address to its last allocations, linear probing.
*/
#include "dupmshr.h"

#include <stdlib.h>
#include <string.h>

#define DUP_CAP0 1024u

static uint32_t dup_hash(uint64_t key, uint32_t cap)
{
    key ^= key >> 33;                          /* splitmix-style mixing */
    key *= 0xff51afd7ed558ccdULL;
    key ^= key >> 33;
    return (uint32_t)key & (cap - 1);
}

static int dup_alloc(mem_dup_mshr *d, uint32_t cap)
{
    mem_dup_line *e = calloc(cap, sizeof *e), *s = calloc(cap, sizeof *s);
    if (!e || !s) {
        free(e);
        free(s);
        return -1;
    }
    free(d->e);
    free(d->spare);
    d->e = e;
    d->spare = s;
    d->cap = cap;
    d->used = 0;
    return 0;
}

int mem_dup_mshr_init(mem_dup_mshr *d, uint64_t window)
{
    memset(d, 0, sizeof *d);
    d->window = window;
    return dup_alloc(d, DUP_CAP0);
}

void mem_dup_mshr_release(mem_dup_mshr *d)
{
    free(d->e);
    free(d->spare);
    memset(d, 0, sizeof *d);
}

void mem_dup_mshr_clear(mem_dup_mshr *d)
{
    memset(d->e, 0, d->cap * sizeof *d->e);
    d->used = 0;
    d->allocs = d->dups = 0;
}

/* The slot holding `key`, or the empty slot where it would go. */
static mem_dup_line *dup_slot(mem_dup_line *e, uint32_t cap, uint64_t key)
{
    uint32_t i = dup_hash(key, cap);
    while (e[i].line && e[i].line != key) i = (i + 1) & (cap - 1);
    return &e[i];
}

/* Move the entries still inside the window at `now` into `to` (cap
   slots, empty), then make `to` the table. */
static void dup_rehash(mem_dup_mshr *d, mem_dup_line *to, uint32_t cap, uint64_t now)
{
    uint32_t used = 0;
    for (uint32_t i = 0; i < d->cap; i++) {
        const mem_dup_line *x = &d->e[i];
        if (!x->line || now - x->last > d->window) continue;   /* stale: forget */
        *dup_slot(to, cap, x->line) = *x;
        used++;
    }
    memset(d->e, 0, d->cap * sizeof *d->e);
    d->spare = d->e;
    d->e = to;
    d->used = used;
}

/* Room for one more line: drop stale lines; double when still over half
   full (then the spare is reallocated too).  false when out of memory. */
static bool dup_room(mem_dup_mshr *d, uint64_t now)
{
    if ((d->used + 1) * 4 <= d->cap * 3) return true;
    memset(d->spare, 0, d->cap * sizeof *d->spare);
    dup_rehash(d, d->spare, d->cap, now);
    if (d->used * 2 <= d->cap) return true;
    uint32_t cap = d->cap * 2;
    mem_dup_line *big = calloc(cap, sizeof *big), *spare = calloc(cap, sizeof *spare);
    if (!big || !spare) {
        free(big);
        free(spare);
        return d->used + 2 <= d->cap;   /* probing needs one slot left empty */
    }
    dup_rehash(d, big, cap, now);
    free(d->spare);
    d->spare = spare;
    d->cap = cap;
    return true;
}

bool mem_dup_mshr_note(mem_dup_mshr *d, uint64_t line, uint32_t sm, uint64_t cycle)
{
    d->allocs++;
    uint64_t key = line + 1;
    mem_dup_line *x = dup_slot(d->e, d->cap, key);
    if (!x->line) {
        if (!dup_room(d, cycle)) return false;
        x = dup_slot(d->e, d->cap, key);
        *x = (mem_dup_line){ .line = key, .last = cycle, .sm = sm };
        d->used++;
        return false;
    }
    /* the last allocation by an SM other than `sm`: the last one when it
       was another SM's, else the remembered other one */
    bool have = x->sm != sm || x->has_other;
    uint64_t when = x->sm != sm ? x->last : x->other;
    bool dup = have && cycle - when <= d->window;
    if (x->sm != sm) {
        x->other = x->last;
        x->has_other = true;
        x->sm = sm;
    }
    x->last = cycle;
    d->dups += dup;
    return dup;
}
