/*
** rowshare.c -- per DRAM row, the sorted set of CTA ids that read it
** (rowshare.h).  An open-addressing hash table of rows (linear probing,
** doubled at half load) points into a row array; each row keeps its CTA
** ids sorted and unique, so the consecutive test is a neighbour look.
** Deterministic: the summary walks rows in the order they were first
** seen, and integer arithmetic only.
*/
#include "rowshare.h"
#include <stdlib.h>
#include <string.h>

typedef struct rs_row {
    uint64_t key;
    uint32_t *cta;        /* sorted, unique */
    uint32_t n, cap;
} rs_row;

struct mem_rowshare {
    rs_row *rows;
    uint32_t nrows, caprows;
    uint32_t *slot;       /* hash table: row index + 1, 0 = empty */
    uint32_t nslot;       /* a power of two */
    uint64_t lost;
};

static uint32_t rs_hash(uint64_t k, uint32_t mask)
{
    k ^= k >> 33;
    k *= 0xff51afd7ed558ccdULL;
    k ^= k >> 33;
    return (uint32_t)k & mask;
}

mem_rowshare *mem_rowshare_new(void)
{
    mem_rowshare *t = calloc(1, sizeof *t);
    if (!t) return NULL;
    t->nslot = 1024;
    t->slot = calloc(t->nslot, sizeof *t->slot);
    if (!t->slot) { free(t); return NULL; }
    return t;
}

void mem_rowshare_clear(mem_rowshare *t)
{
    for (uint32_t i = 0; i < t->nrows; i++) free(t->rows[i].cta);
    t->nrows = 0;
    memset(t->slot, 0, t->nslot * sizeof *t->slot);
    t->lost = 0;
}

void mem_rowshare_free(mem_rowshare *t)
{
    if (!t) return;
    mem_rowshare_clear(t);
    free(t->rows);
    free(t->slot);
    free(t);
}

/* Double the hash table; false when out of memory (nothing changed). */
static int rs_grow(mem_rowshare *t)
{
    uint32_t n = t->nslot * 2;
    uint32_t *s = calloc(n, sizeof *s);
    if (!s) return 0;
    for (uint32_t i = 0; i < t->nrows; i++) {
        uint32_t h = rs_hash(t->rows[i].key, n - 1);
        while (s[h]) h = (h + 1) & (n - 1);
        s[h] = i + 1;
    }
    free(t->slot);
    t->slot = s;
    t->nslot = n;
    return 1;
}

/* The row of `key`, made when new; NULL when out of memory. */
static rs_row *rs_find(mem_rowshare *t, uint64_t key)
{
    uint32_t mask = t->nslot - 1, h = rs_hash(key, mask);
    for (; t->slot[h]; h = (h + 1) & mask)
        if (t->rows[t->slot[h] - 1].key == key) return &t->rows[t->slot[h] - 1];
    if ((t->nrows + 1) * 2 > t->nslot) {
        if (!rs_grow(t)) return NULL;
        return rs_find(t, key);
    }
    if (t->nrows == t->caprows) {
        uint32_t c = t->caprows ? t->caprows * 2 : 256;
        rs_row *r = realloc(t->rows, c * sizeof *r);
        if (!r) return NULL;
        t->rows = r;
        t->caprows = c;
    }
    t->rows[t->nrows] = (rs_row){ .key = key };
    t->slot[h] = ++t->nrows;
    return &t->rows[t->nrows - 1];
}

void mem_rowshare_add(mem_rowshare *t, uint64_t row_key, uint32_t cta)
{
    rs_row *r = rs_find(t, row_key);
    if (!r) { t->lost++; return; }
    uint32_t lo = 0, hi = r->n;            /* first id >= cta */
    while (lo < hi) {
        uint32_t mid = (lo + hi) / 2;
        if (r->cta[mid] < cta) lo = mid + 1; else hi = mid;
    }
    if (lo < r->n && r->cta[lo] == cta) return;
    if (r->n == r->cap) {
        uint32_t c = r->cap ? r->cap * 2 : 4;
        uint32_t *v = realloc(r->cta, c * sizeof *v);
        if (!v) { t->lost++; return; }
        r->cta = v;
        r->cap = c;
    }
    memmove(r->cta + lo + 1, r->cta + lo, (r->n - lo) * sizeof *r->cta);
    r->cta[lo] = cta;
    r->n++;
}

void mem_rowshare_summary(const mem_rowshare *t, mem_rowshare_sum *out)
{
    memset(out, 0, sizeof *out);
    out->lost = t->lost;
    for (uint32_t i = 0; i < t->nrows; i++) {
        const rs_row *r = &t->rows[i];
        uint64_t shared = 0;
        for (uint32_t j = 0; j < r->n; j++)
            shared += (j > 0 && r->cta[j - 1] + 1 == r->cta[j])
                      || (j + 1 < r->n && r->cta[j + 1] == r->cta[j] + 1);
        out->rows++;
        out->ctas_sum += r->n;
        out->score_ppm_sum += r->n ? shared * 1000000 / r->n : 0;
    }
}
