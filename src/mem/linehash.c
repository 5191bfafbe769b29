/*
** linehash.c -- line address -> entry index (linehash.h).
*/
#include "linehash.h"
#include <stdlib.h>
#include <string.h>

int mem_linehash_init(mem_linehash *h, uint32_t entries)
{
    uint32_t size = 2;
    while (size < 2 * entries) size *= 2;
    h->mask = size - 1;
    h->line = malloc(size * sizeof *h->line);
    h->v = calloc(size, sizeof *h->v);
    if (!h->line || !h->v) {
        mem_linehash_release(h);
        return -1;
    }
    return 0;
}

void mem_linehash_release(mem_linehash *h)
{
    free(h->line);
    free(h->v);
    h->line = NULL;
    h->v = NULL;
}

void mem_linehash_clear(mem_linehash *h)
{
    memset(h->v, 0, ((size_t)h->mask + 1) * sizeof *h->v);
}

static inline uint32_t lh_slot(const mem_linehash *h, uint64_t line)
{
    return (uint32_t)((line * 0x9E3779B97F4A7C15ull) >> 32) & h->mask;
}

int mem_linehash_find(const mem_linehash *h, uint64_t line)
{
    for (uint32_t s = lh_slot(h, line);; s = (s + 1) & h->mask) {
        if (!h->v[s]) return -1;
        if (h->line[s] == line) return (int)(h->v[s] - 1);
    }
}

void mem_linehash_put(mem_linehash *h, uint64_t line, uint32_t entry)
{
    uint32_t s = lh_slot(h, line);
    while (h->v[s]) s = (s + 1) & h->mask;
    h->line[s] = line;
    h->v[s] = entry + 1;
}

void mem_linehash_del(mem_linehash *h, uint64_t line)
{
    uint32_t s = lh_slot(h, line);
    while (h->line[s] != line || !h->v[s]) s = (s + 1) & h->mask;
    /* move back each later slot of the run whose home is not between the
       hole and it, so every probe sequence stays unbroken */
    for (uint32_t j = (s + 1) & h->mask; h->v[j]; j = (j + 1) & h->mask) {
        uint32_t home = lh_slot(h, h->line[j]);
        if (((j - home) & h->mask) >= ((j - s) & h->mask)) {
            h->line[s] = h->line[j];
            h->v[s] = h->v[j];
            s = j;
        }
    }
    h->v[s] = 0;
}
