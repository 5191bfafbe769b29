/*
** mshr.c -- MSHR table: lines found through a hash index (linehash.c), a
** fresh entry is the lowest free one; it never allocates after init.
*/
#include "mshr.h"
#include <stdlib.h>
#include <string.h>

int mem_mshr_init(mem_mshr *m, uint32_t entries, uint32_t merge)
{
    memset(m, 0, sizeof *m);
    m->n = entries ? entries : 1;
    m->merge = merge ? merge : 1;
    m->e = calloc(m->n, sizeof *m->e);
    m->wait = calloc((size_t)m->n * m->merge, sizeof *m->wait);
    if (!m->e || !m->wait || mem_linehash_init(&m->index, m->n)) {
        mem_mshr_release(m);
        return -1;
    }
    return 0;
}

void mem_mshr_release(mem_mshr *m)
{
    free(m->e);
    free(m->wait);
    mem_linehash_release(&m->index);
    m->e = NULL;
    m->wait = NULL;
}

void mem_mshr_clear(mem_mshr *m)
{
    memset(m->e, 0, m->n * sizeof *m->e);
    mem_linehash_clear(&m->index);
    m->used = 0;
}

int mem_mshr_find(const mem_mshr *m, uint64_t line)
{
    return m->used ? mem_linehash_find(&m->index, line) : -1;
}

int mem_mshr_alloc(mem_mshr *m, uint64_t line)
{
    if (m->used >= m->n) return -1;
    for (uint32_t i = 0; i < m->n; i++)
        if (!m->e[i].valid) {
            m->e[i] = (mem_mshr_entry){ .line = line, .valid = true };
            mem_linehash_put(&m->index, line, i);
            m->used++;
            return (int)i;
        }
    return -1;
}

void mem_mshr_add(mem_mshr *m, int i, uint32_t token)
{
    m->wait[(size_t)i * m->merge + m->e[i].nwait++] = token;
}

uint32_t mem_mshr_free(mem_mshr *m, int i, uint32_t *out)
{
    uint32_t n = m->e[i].nwait;
    memcpy(out, &m->wait[(size_t)i * m->merge], n * sizeof *out);
    mem_linehash_del(&m->index, m->e[i].line);
    m->e[i].valid = false;
    m->e[i].nwait = 0;
    m->used--;
    return n;
}
