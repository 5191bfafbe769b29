/*
** l1_replay.c -- LRU and Belady-optimal replay of an L1D access stream
** (CCWS spec §2.9; l1_replay.h has the contract).  Both replays use the
** timing model's tag array (mem/cache.c) with its set-index function; the
** Belady one overwrites a line's LRU stamp with UINT64_MAX - (index of its
** next use), so the tag array's "smallest stamp goes" evicts the line used
** furthest in the future, and an invalid way is still taken first.
*/
#include "l1_replay.h"
#include "../mem/cache.h"
#include <stdlib.h>

#define NEVER UINT32_MAX               /* no next use */
#define EMPTY UINT64_MAX               /* free hash slot (no line number is) */

static inline uint64_t lineno_of(uint64_t p) { return p >> 2; }
static inline int kind_of(uint64_t p) { return (int)(p & 3); }

/* ---- next use: one backward pass with an open-addressing table -------- */

typedef struct next_map {
    uint64_t *key;
    uint32_t *val;
    size_t cap, used;    /* cap a power of two, used <= cap / 2 */
} next_map;

static inline size_t nm_hash(uint64_t k, size_t cap)
{
    k ^= k >> 33;
    k *= 0xff51afd7ed558ccdULL;
    k ^= k >> 33;
    return (size_t)k & (cap - 1);
}

static int nm_init(next_map *m, size_t cap)
{
    m->cap = cap;
    m->used = 0;
    m->key = malloc(cap * sizeof *m->key);
    m->val = malloc(cap * sizeof *m->val);
    if (!m->key || !m->val) return -1;
    for (size_t i = 0; i < cap; i++) m->key[i] = EMPTY;
    return 0;
}

static void nm_free(next_map *m)
{
    free(m->key);
    free(m->val);
}

/* The slot of `k` (found, or the free one where it belongs). */
static size_t nm_slot(const next_map *m, uint64_t k)
{
    size_t i = nm_hash(k, m->cap);
    while (m->key[i] != EMPTY && m->key[i] != k) i = (i + 1) & (m->cap - 1);
    return i;
}

static int nm_grow(next_map *m)
{
    next_map n;
    if (nm_init(&n, m->cap * 2)) { nm_free(&n); return -1; }
    for (size_t i = 0; i < m->cap; i++) {
        if (m->key[i] == EMPTY) continue;
        size_t j = nm_slot(&n, m->key[i]);
        n.key[j] = m->key[i];
        n.val[j] = m->val[i];
        n.used++;
    }
    nm_free(m);
    *m = n;
    return 0;
}

/* next[i] = index of the next load or store of access i's line, NEVER
   when none comes or an atomic drops the line first. */
static int next_uses(const uint64_t *acc, size_t n, uint32_t *next)
{
    next_map m;
    if (nm_init(&m, 1024)) { nm_free(&m); return -1; }
    for (size_t i = n; i-- > 0;) {
        if (m.used * 2 >= m.cap && nm_grow(&m)) { nm_free(&m); return -1; }
        size_t s = nm_slot(&m, lineno_of(acc[i]));
        if (m.key[s] == EMPTY) {
            m.key[s] = lineno_of(acc[i]);
            m.val[s] = NEVER;
            m.used++;
        }
        next[i] = m.val[s];
        m.val[s] = kind_of(acc[i]) == L1A_ATOMIC ? NEVER : (uint32_t)i;
    }
    nm_free(&m);
    return 0;
}

/* ---- the replay -------------------------------------------------------- */

/* Access `p` on `c`; `bel`: stamps are next uses (`nx`).  Counts into *k. */
static void replay_one(mem_cache *c, const l1_replay_geom *g, uint64_t p, uint32_t nx,
                       bool bel, l1_replay_counts *k)
{
    uint64_t addr = lineno_of(p) * g->line_bytes;
    int kind = kind_of(p);
    if (kind == L1A_ATOMIC) {
        mem_cache_invalidate(c, addr);
        return;
    }
    k->accesses++;
    int64_t idx = mem_cache_probe(c, addr);
    bool store = kind == L1A_STORE;
    if (idx >= 0) {
        k->hits++;
        if (store && g->write_evict && !g->write_back) {
            c->lines[idx].valid = false;
            return;
        }
        mem_cache_touch(c, idx, 0);
    } else {
        k->misses++;
        k->load_misses += !store;
        if (store && !g->write_back) return;      /* no write-allocate */
        mem_cache_line old;
        mem_cache_fill(c, addr, 0, &idx, &old);
    }
    if (bel) c->lines[idx].stamp = UINT64_MAX - nx;
}

int l1_replay_stream(const uint64_t *acc, size_t n, const l1_replay_geom *g,
                     l1_replay_result *out)
{
    if (!n) return 0;
    if (n >= NEVER) return -1;
    uint32_t *next = malloc(n * sizeof *next);
    mem_cache lru, bel;
    int rc = -1;
    bool have_lru = !mem_cache_init(&lru, g->sets, g->ways, g->line_bytes);
    bool have_bel = !mem_cache_init(&bel, g->sets, g->ways, g->line_bytes);
    if (next && have_lru && have_bel && !next_uses(acc, n, next)) {
        lru.index = bel.index = g->set_index;
        for (size_t i = 0; i < n; i++) {
            replay_one(&lru, g, acc[i], 0, false, &out->lru);
            replay_one(&bel, g, acc[i], next[i], true, &out->belady);
        }
        rc = 0;
    }
    if (have_lru) mem_cache_release(&lru);
    if (have_bel) mem_cache_release(&bel);
    free(next);
    return rc;
}

int l1_replay_push(l1_replay_buf *b, uint64_t packed)
{
    if (b->n == b->cap) {
        size_t cap = b->cap ? b->cap * 2 : 4096;
        uint64_t *a = realloc(b->a, cap * sizeof *a);
        if (!a) return -1;
        b->a = a;
        b->cap = cap;
    }
    b->a[b->n++] = packed;
    return 0;
}

void l1_replay_buf_free(l1_replay_buf *b)
{
    free(b->a);
    *b = (l1_replay_buf){ 0 };
}
