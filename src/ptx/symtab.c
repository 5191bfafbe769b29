/*
** symtab.c -- the scoped symbol table of the parser.
**
** One hash table holds every visible name; scopes are marks on the entry
** stack.  A new entry goes to the head of its bucket chain, so lookups
** find the innermost declaration first and popping a scope only has to
** unlink the newest entries (they are always at the heads of their chains).
*/
#include <stdlib.h>
#include <string.h>
#include "ptx_internal.h"

static uint32_t hash_name(const char *s, size_t len)
{
    uint32_t h = 2166136261u;
    for (size_t i = 0; i < len; i++) h = (h ^ (uint8_t)s[i]) * 16777619u;
    return h;
}

void ptx_symtab_free(ptx_symtab *t)
{
    for (uint32_t i = 0; i < t->n; i++) free(t->e[i].name);
    free(t->e);
    free(t->bucket);
    memset(t, 0, sizeof *t);
}

ptx_sym *ptx_symtab_find(ptx_symtab *t, const char *name, size_t len)
{
    if (!t->nbucket) return NULL;
    uint32_t h = hash_name(name, len);
    for (int32_t i = t->bucket[h & (t->nbucket - 1)]; i >= 0; i = t->e[i].next) {
        ptx_sym *s = &t->e[i];
        if (s->hash == h && strncmp(s->name, name, len) == 0 && s->name[len] == 0)
            return s;
    }
    return NULL;
}

/* Rebuild the chains in entry order so that newer entries stay first. */
static int rehash(ptx_symtab *t, uint32_t nbucket)
{
    int32_t *b = malloc(nbucket * sizeof *b);
    if (!b) return -1;
    for (uint32_t i = 0; i < nbucket; i++) b[i] = -1;
    for (uint32_t i = 0; i < t->n; i++) {
        uint32_t k = t->e[i].hash & (nbucket - 1);
        t->e[i].next = b[k];
        b[k] = (int32_t)i;
    }
    free(t->bucket);
    t->bucket = b;
    t->nbucket = nbucket;
    return 0;
}

ptx_sym *ptx_symtab_add(ptx_symtab *t, const char *name, size_t len, ptx_sym_kind kind, int64_t val)
{
    if (t->n == t->cap) {
        uint32_t cap = t->cap ? t->cap * 2 : 64;
        ptx_sym *e = realloc(t->e, cap * sizeof *e);
        if (!e) return NULL;
        t->e = e;
        t->cap = cap;
    }
    if (t->n + 1 > t->nbucket / 2 && rehash(t, t->nbucket ? t->nbucket * 2 : 128) < 0)
        return NULL;
    char *copy = malloc(len + 1);
    if (!copy) return NULL;
    memcpy(copy, name, len);
    copy[len] = 0;
    ptx_sym *s = &t->e[t->n];
    memset(s, 0, sizeof *s);
    s->name = copy;
    s->hash = hash_name(name, len);
    s->kind = (uint8_t)kind;
    s->val = val;
    uint32_t k = s->hash & (t->nbucket - 1);
    s->next = t->bucket[k];
    t->bucket[k] = (int32_t)t->n;
    t->n++;
    return s;
}

void ptx_symtab_pop(ptx_symtab *t, uint32_t mark)
{
    while (t->n > mark) {
        ptx_sym *s = &t->e[t->n - 1];
        t->bucket[s->hash & (t->nbucket - 1)] = s->next;
        free(s->name);
        t->n--;
    }
}
