/*
** test_mem_l1.c -- the memory pieces below the LSU on their own: the tag
** array's LRU, MSHR merging and limits, the L1's reservation fails,
** write-through vs write-back, saturation, the allocation policies
** (allocate on fill / on miss with set-reservation fails / streaming), the
** owner reported with an eviction, write-evict, and the backend's latency,
** bandwidth and bounded queue behind the mem_port interface.
*/
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <cmocka.h>
#include "mem/backend.h"
#include "mem/cache.h"
#include "mem/l1.h"
#include "mem/mshr.h"

static void test_cache_lru(void **state)
{
    (void)state;
    mem_cache c;
    assert_int_equal(mem_cache_init(&c, 2, 2, 128), 0);   /* 2 sets x 2 ways */
    int64_t i;
    mem_cache_line ev;
    /* lines 0, 2, 4 map to set 0 */
    assert_false(mem_cache_fill(&c, 0 * 128, 1, &i, &ev));
    assert_false(mem_cache_fill(&c, 2 * 128, 2, &i, &ev));
    assert_true(mem_cache_probe(&c, 0) >= 0);
    mem_cache_touch(&c, mem_cache_probe(&c, 0), 3);           /* 0 is now most recent */
    assert_true(mem_cache_fill(&c, 4 * 128, 4, &i, &ev));     /* evicts line 2 */
    assert_int_equal(ev.tag, 2);
    assert_int_equal(ev.owner, 2);
    assert_true(mem_cache_probe(&c, 2 * 128) < 0);
    assert_true(mem_cache_probe(&c, 0 + 5) >= 0);             /* any byte of the line */
    assert_true(mem_cache_probe(&c, 1 * 128) < 0);            /* other set untouched */
    mem_cache_invalidate(&c, 0);
    assert_true(mem_cache_probe(&c, 0) < 0);
    mem_cache_release(&c);
}

/* `presence` moves whenever a probe could answer differently (fill,
   invalidate, a reserved way validated, a valid line displaced by a
   reservation, write-evict) and never on a probe or a touch: the missed
   hit-under-miss count memoises its probes on it (core/hum.c). */
static void test_cache_presence(void **state)
{
    (void)state;
    mem_cache c;
    assert_int_equal(mem_cache_init(&c, 1, 2, 128), 0);
    int64_t i;
    mem_cache_line ev;
    uint64_t p = c.presence;
    mem_cache_fill(&c, 0, 1, &i, &ev);
    assert_true(c.presence != p);
    p = c.presence;
    mem_cache_touch(&c, mem_cache_probe(&c, 0), 2);
    assert_true(mem_cache_probe(&c, 0) >= 0);
    assert_int_equal(c.presence, p);
    int64_t v = mem_cache_victim(&c, 128);             /* the free way: nothing displaced */
    assert_false(mem_cache_reserve(&c, v, 128, 3, &ev));
    assert_int_equal(c.presence, p);
    assert_true(mem_cache_validate(&c, 128) >= 0);     /* line 1 becomes present */
    assert_true(c.presence != p);
    p = c.presence;
    v = mem_cache_victim(&c, 256);                     /* LRU valid line: line 0 */
    assert_true(mem_cache_reserve(&c, v, 256, 4, &ev));
    assert_true(c.presence != p);
    p = c.presence;
    mem_cache_invalidate(&c, 128);
    assert_true(c.presence != p);
    p = c.presence;
    mem_cache_flush(&c);
    assert_true(c.presence != p);
    mem_cache_release(&c);
}

/* The line that fill put at `addr` sits in set idx / ways. */
static uint32_t set_of(mem_cache *c, uint64_t addr)
{
    int64_t i;
    mem_cache_line ev;
    mem_cache_fill(c, addr, 0, &i, &ev);
    return (uint32_t)(i / c->ways);
}

/* GPGPU-Sim's 'H' set index: line bits 7-11 XOR address bits 13-15, 17,
   19 (bit 12 on top for 64 sets); 'X': line number XOR the next set-index
   worth of bits.  A linear index puts every 8 KB-strided line in one set. */
static void test_cache_set_index_hash(void **state)
{
    (void)state;
    mem_cache c;
    assert_int_equal(mem_cache_init(&c, 32, 4, 128), 0);
    c.index = MEM_INDEX_FERMI;
    assert_int_equal(set_of(&c, 0x0), 0);
    assert_int_equal(set_of(&c, 0x80), 1);        /* bit 7: lowest line bit */
    assert_int_equal(set_of(&c, 0x2000), 1);      /* bit 13 -> set bit 0 */
    assert_int_equal(set_of(&c, 0x2080), 0);      /* bit 7 ^ bit 13 */
    assert_int_equal(set_of(&c, 0x8000), 4);      /* bit 15 -> set bit 2 */
    assert_int_equal(set_of(&c, 0x20000), 8);     /* bit 17 -> set bit 3 */
    assert_int_equal(set_of(&c, 0x80000), 16);    /* bit 19 -> set bit 4 */
    assert_int_equal(set_of(&c, 0x1000), 0);      /* bit 12 unused with 32 sets */
    assert_int_equal(set_of(&c, 0x40000), 0);     /* bit 18 unused */
    /* eight lines 8 KB apart: all kept (one set each) */
    mem_cache_flush(&c);
    for (uint64_t k = 0; k < 8; k++) set_of(&c, k * 8192);
    for (uint64_t k = 0; k < 8; k++) assert_true(mem_cache_probe(&c, k * 8192) >= 0);
    /* linear: the same eight share set 0 and only four survive */
    mem_cache_flush(&c);
    c.index = MEM_INDEX_LINEAR;
    int kept = 0;
    for (uint64_t k = 0; k < 8; k++) assert_int_equal(set_of(&c, k * 8192), 0);
    for (uint64_t k = 0; k < 8; k++) kept += mem_cache_probe(&c, k * 8192) >= 0;
    assert_int_equal(kept, 4);
    c.index = MEM_INDEX_XOR;
    assert_int_equal(set_of(&c, 32 * 128), 1);    /* 32 ^ (32 / 32) */
    assert_int_equal(set_of(&c, 35 * 128), 2);    /* 3 ^ 1 */
    mem_cache_release(&c);
    assert_int_equal(mem_cache_init(&c, 64, 4, 128), 0);
    c.index = MEM_INDEX_FERMI;
    assert_int_equal(set_of(&c, 0x1000), 32);     /* 64 sets: bit 12 -> set bit 5 */
    assert_int_equal(set_of(&c, 0x3000), 33);
    mem_cache_release(&c);
}

static void test_mshr_merge_and_limit(void **state)
{
    (void)state;
    mem_mshr m;
    assert_int_equal(mem_mshr_init(&m, 2, 3), 0);
    int a = mem_mshr_alloc(&m, 0x100), b = mem_mshr_alloc(&m, 0x200);
    assert_true(a >= 0 && b >= 0 && a != b);
    assert_int_equal(mem_mshr_alloc(&m, 0x300), -1);
    assert_true(mem_mshr_full(&m));
    assert_int_equal(mem_mshr_find(&m, 0x200), b);
    for (uint32_t t = 0; t < 3; t++) {
        assert_true(mem_mshr_can_merge(&m, a));
        mem_mshr_add(&m, a, 10 + t);
    }
    assert_false(mem_mshr_can_merge(&m, a));
    uint32_t tok[3];
    assert_int_equal(mem_mshr_free(&m, a, tok), 3);
    assert_int_equal(tok[0], 10);
    assert_int_equal(tok[2], 12);
    assert_int_equal(mem_mshr_find(&m, 0x100), -1);
    assert_false(mem_mshr_full(&m));
    mem_mshr_release(&m);
}

/* mem_l1_access for tests that do not look at evictions */
static int acc(mem_l1 *l, int kind, uint64_t addr, uint32_t warp, uint32_t token)
{
    mem_l1_evict ev;
    return mem_l1_access(l, kind, addr, warp, token, &ev);
}

static gpu_cache_config l1cfg(void)
{
    return (gpu_cache_config){ .sets = 4, .ways = 2, .line_bytes = 128, .enabled = true,
                               .mshr_entries = 2, .mshr_merge = 2, .miss_queue = 2,
                               .hit_latency = 10 };
}

/* Deliver every reply of `port` due by `cycle` to `l`; returns tokens seen. */
static uint32_t drain(mem_port *port, mem_l1 *l, uint64_t cycle, uint32_t *tokens)
{
    mem_req r;
    uint32_t n = 0, buf[8];
    mem_l1_evict ev;
    while (port->recv(port->impl, cycle, &r)) {
        uint32_t k = mem_l1_fill(l, &r, buf, &ev);
        for (uint32_t i = 0; i < k; i++) tokens[n++] = buf[i];
    }
    return n;
}

static void test_l1_miss_merge_fail_fill(void **state)
{
    (void)state;
    gpu_cache_config c = l1cfg();
    mem_l1 *l = mem_l1_new(&c, 0, MEM_SRC_L1D, 128);
    mem_backend *b = mem_backend_new(100, 32, 8);
    mem_port port = mem_backend_port(b);
    assert_int_equal(acc(l, MEM_READ, 0x1000, 0, 1), MEM_L1_MISS);
    assert_int_equal(acc(l, MEM_READ, 0x1004, 1, 2), MEM_L1_MERGED);
    assert_int_equal(acc(l, MEM_READ, 0x1008, 2, 3), MEM_L1_FAIL);   /* merge full */
    assert_int_equal(acc(l, MEM_READ, 0x2000, 0, 4), MEM_L1_MISS);
    assert_int_equal(acc(l, MEM_READ, 0x3000, 0, 5), MEM_L1_FAIL);   /* no MSHR */
    assert_true(mem_l1_saturated(l, 0, 0));
    const gpu_cache_stats *st = mem_l1_stats(l);
    assert_int_equal(st->reservation_fails, 2);
    assert_int_equal(st->merges, 1);
    assert_int_equal(st->misses, 3);
    assert_true(mem_l1_tick(l, &port, 0));
    assert_true(mem_l1_tick(l, &port, 1));
    assert_false(mem_l1_tick(l, &port, 2));          /* queue empty */
    uint32_t tok[8];
    assert_int_equal(drain(&port, l, 99, tok), 0);     /* not yet */
    assert_int_equal(drain(&port, l, 100, tok), 2);    /* 0x1000: both waiters */
    assert_int_equal(tok[0], 1);
    assert_int_equal(tok[1], 2);
    assert_int_equal(acc(l, MEM_READ, 0x1040, 3, 6), MEM_L1_HIT);
    assert_int_equal(drain(&port, l, 101, tok), 1);
    assert_true(mem_l1_idle(l));
    assert_false(mem_l1_saturated(l, 0, 0));
    mem_l1_free(l);
    mem_backend_free(b);
}

static void test_l1_write_policies(void **state)
{
    (void)state;
    gpu_cache_config c = l1cfg();
    mem_l1 *l = mem_l1_new(&c, 0, MEM_SRC_L1D, 128);
    /* write-through, no allocate: stores go below and do not install */
    assert_int_equal(acc(l, MEM_WRITE, 0x1000, 0, 0), MEM_L1_SENT);
    assert_int_equal(acc(l, MEM_WRITE, 0x1000, 0, 0), MEM_L1_SENT);
    assert_int_equal(acc(l, MEM_WRITE, 0x1000, 0, 0), MEM_L1_FAIL); /* queue of 2 */
    assert_int_equal(mem_l1_queue_len(l), 2);
    assert_int_equal(mem_l1_stats(l)->misses, 2);
    mem_l1_free(l);
    /* write-back: a store miss allocates, the dirty line is written back on eviction */
    c.write_back = true;
    c.sets = 1;
    c.ways = 1;
    l = mem_l1_new(&c, 0, MEM_SRC_L1D, 128);
    mem_backend *b = mem_backend_new(10, 128, 8);
    mem_port port = mem_backend_port(b);
    assert_int_equal(acc(l, MEM_WRITE, 0x1000, 7, 0), MEM_L1_MISS);
    assert_true(mem_l1_tick(l, &port, 0));
    uint32_t tok[8];
    assert_int_equal(drain(&port, l, 10, tok), 0);     /* nobody waits on a store */
    assert_int_equal(acc(l, MEM_WRITE, 0x1010, 7, 0), MEM_L1_HIT);
    assert_int_equal(acc(l, MEM_READ, 0x2000, 8, 5), MEM_L1_MISS);
    assert_true(mem_l1_tick(l, &port, 11));
    assert_int_equal(drain(&port, l, 21, tok), 1);
    assert_int_equal(mem_l1_stats(l)->evictions, 1);
    assert_int_equal(mem_l1_stats(l)->writebacks, 1);
    assert_int_equal(mem_l1_queue_len(l), 1);           /* the write-back */
    mem_l1_free(l);
    mem_backend_free(b);
}

/* ------------------------------------------------------------------ */
/* Allocation policies, owners, write-evict                            */
/* ------------------------------------------------------------------ */

/* One set of `ways` ways: every line maps to it. */
static gpu_cache_config one_set(uint32_t ways, uint32_t alloc)
{
    gpu_cache_config c = l1cfg();
    c.sets = 1;
    c.ways = ways;
    c.mshr_entries = 8;
    c.mshr_merge = 4;
    c.miss_queue = 8;
    c.allocate = alloc;
    return c;
}

/* Send everything queued at `cycle` and deliver the replies due by
   `cycle + 10` (the backend's latency below); evictions reported by the
   fills are counted in *nev. */
static uint32_t round_trip(mem_port *port, mem_l1 *l, uint64_t cycle, uint32_t *nev)
{
    mem_req r;
    uint32_t n = 0, buf[8];
    while (mem_l1_tick(l, port, cycle)) {}
    while (port->recv(port->impl, cycle + 10, &r)) {
        mem_l1_evict ev;
        n += mem_l1_fill(l, &r, buf, &ev);
        *nev += ev.valid;
    }
    return n;
}

/* allocate = miss: W+1 distinct lines missing back to back in a W-way set
   with no fill between: the first W reserve the ways, the last fails for
   the set (not for MSHRs: 8 of them); one fill frees a way to evict. */
static void test_l1_alloc_miss_set_reservation(void **state)
{
    (void)state;
    gpu_cache_config c = one_set(2, GPU_L1_ALLOC_MISS);
    mem_l1 *l = mem_l1_new(&c, 0, MEM_SRC_L1D, 128);
    mem_backend *b = mem_backend_new(10, 128, 8);
    mem_port port = mem_backend_port(b);
    mem_l1_evict ev;
    assert_int_equal(mem_l1_access(l, MEM_READ, 0x1000, 0, 1, &ev), MEM_L1_MISS);
    assert_false(ev.valid);
    assert_int_equal(mem_l1_access(l, MEM_READ, 0x2000, 1, 2, &ev), MEM_L1_MISS);
    assert_int_equal(mem_l1_access(l, MEM_READ, 0x2040, 2, 3, &ev), MEM_L1_MERGED); /* no way */
    assert_int_equal(mem_l1_access(l, MEM_READ, 0x3000, 2, 4, &ev), MEM_L1_FAIL);
    const gpu_cache_stats *st = mem_l1_stats(l);
    assert_int_equal(st->reservation_fails, 1);
    assert_int_equal(st->reservation_fails_set, 1);
    assert_int_equal(mem_l1_mshr_used(l), 2);
    /* skipped retries count as the same kind of fail */
    mem_l1_repeat_fail(l, 3);
    assert_int_equal(st->reservation_fails, 4);
    assert_int_equal(st->reservation_fails_set, 4);
    /* the fills validate the reserved ways and evict nothing */
    uint32_t nev = 0;
    assert_int_equal(round_trip(&port, l, 0, &nev), 3);
    assert_int_equal(nev, 0);
    assert_int_equal(mem_l1_access(l, MEM_READ, 0x2000, 3, 5, &ev), MEM_L1_HIT); /* 0x1000 LRU */
    /* the retry succeeds and evicts the least recently used line at once */
    assert_int_equal(mem_l1_access(l, MEM_READ, 0x3000, 2, 4, &ev), MEM_L1_MISS);
    assert_true(ev.valid);
    assert_int_equal(ev.line, 0x1000);
    assert_int_equal(ev.owner, 0);
    assert_int_equal(st->evictions, 1);
    assert_true(mem_l1_access(l, MEM_READ, 0x1000, 0, 6, &ev) == MEM_L1_MISS && ev.valid);
    assert_int_equal(ev.line, 0x2000);
    assert_int_equal(st->reservation_fails, 4);
    mem_l1_free(l);
    mem_backend_free(b);
}

/* allocate = fill (the default) and streaming: the same sequence never
   fails for the set, and the victim leaves when the fill returns. */
static void test_l1_alloc_fill_and_streaming(void **state)
{
    (void)state;
    for (uint32_t alloc = GPU_L1_ALLOC_FILL; alloc <= GPU_L1_ALLOC_STREAMING;
         alloc += GPU_L1_ALLOC_STREAMING - GPU_L1_ALLOC_FILL) {
        gpu_cache_config c = one_set(2, alloc);
        c.mshr_entries = 1;     /* streaming: raised to one per line (2) */
        mem_l1 *l = mem_l1_new(&c, 0, MEM_SRC_L1D, 128);
        mem_backend *b = mem_backend_new(10, 128, 8);
        mem_port port = mem_backend_port(b);
        mem_l1_evict ev;
        uint32_t nev = 0;
        assert_int_equal(mem_l1_access(l, MEM_READ, 0x1000, 0, 1, &ev), MEM_L1_MISS);
        int second = mem_l1_access(l, MEM_READ, 0x2000, 1, 2, &ev);
        assert_int_equal(second, alloc == GPU_L1_ALLOC_STREAMING ? MEM_L1_MISS : MEM_L1_FAIL);
        assert_int_equal(mem_l1_stats(l)->reservation_fails_set, 0);
        round_trip(&port, l, 0, &nev);
        if (second == MEM_L1_FAIL) {
            assert_int_equal(mem_l1_access(l, MEM_READ, 0x2000, 1, 2, &ev), MEM_L1_MISS);
            round_trip(&port, l, 20, &nev);
        }
        /* both ways valid now */
        assert_int_equal(mem_l1_access(l, MEM_READ, 0x3000, 2, 3, &ev), MEM_L1_MISS);
        assert_false(ev.valid);                     /* not at the access ... */
        assert_int_equal(nev, 0);
        round_trip(&port, l, 40, &nev);
        assert_int_equal(nev, 1);                   /* ... but at the fill */
        assert_int_equal(mem_l1_stats(l)->evictions, 1);
        assert_int_equal(mem_l1_stats(l)->reservation_fails_set, 0);
        mem_l1_free(l);
        mem_backend_free(b);
    }
}

/* owner = last names the last warp that touched the evicted line, owner =
   alloc the warp whose miss brought it in; under both allocation modes. */
static void test_l1_owner_alloc_vs_last(void **state)
{
    (void)state;
    for (int k = 0; k < 4; k++) {
        uint32_t alloc = k & 1 ? GPU_L1_ALLOC_MISS : GPU_L1_ALLOC_FILL;
        uint32_t owner = k & 2 ? GPU_L1_OWNER_ALLOC : GPU_L1_OWNER_LAST;
        gpu_cache_config c = one_set(1, alloc);
        c.owner = owner;
        mem_l1 *l = mem_l1_new(&c, 0, MEM_SRC_L1D, 128);
        mem_backend *b = mem_backend_new(10, 128, 8);
        mem_port port = mem_backend_port(b);
        mem_l1_evict ev = { .valid = false };
        uint32_t nev = 0;
        assert_int_equal(mem_l1_access(l, MEM_READ, 0x1000, 5, 1, &ev), MEM_L1_MISS);
        assert_int_equal(mem_l1_access(l, MEM_READ, 0x1000, 6, 2, &ev), MEM_L1_MERGED);
        round_trip(&port, l, 0, &nev);
        assert_int_equal(mem_l1_access(l, MEM_READ, 0x1000, 7, 3, &ev), MEM_L1_HIT);
        assert_int_equal(mem_l1_access(l, MEM_READ, 0x2000, 8, 4, &ev), MEM_L1_MISS);
        if (alloc == GPU_L1_ALLOC_FILL) {
            assert_false(ev.valid);
            mem_req r;
            uint32_t buf[8];
            while (mem_l1_tick(l, &port, 20)) {}
            assert_true(port.recv(port.impl, 30, &r));
            mem_l1_fill(l, &r, buf, &ev);
        }
        assert_true(ev.valid);
        assert_int_equal(ev.line, 0x1000);
        assert_int_equal(ev.owner, owner == GPU_L1_OWNER_ALLOC ? 5 : 7);
        mem_l1_free(l);
        mem_backend_free(b);
    }
}

/* write_evict: a write-through store hit drops the line (the next read
   misses); without it the line stays. */
static void test_l1_write_evict(void **state)
{
    (void)state;
    for (int evict = 0; evict < 2; evict++) {
        gpu_cache_config c = l1cfg();
        c.write_evict = evict;
        mem_l1 *l = mem_l1_new(&c, 0, MEM_SRC_L1D, 128);
        mem_backend *b = mem_backend_new(10, 128, 8);
        mem_port port = mem_backend_port(b);
        uint32_t nev = 0;
        assert_int_equal(acc(l, MEM_READ, 0x1000, 0, 1), MEM_L1_MISS);
        round_trip(&port, l, 0, &nev);
        uint64_t p = mem_l1_presence(l);
        assert_int_equal(acc(l, MEM_WRITE, 0x1008, 0, 0), MEM_L1_SENT);
        assert_int_equal(mem_l1_stats(l)->hits, 1);            /* the store hit */
        assert_int_equal(mem_l1_presence(l) != p, evict);      /* the line left */
        assert_int_equal(acc(l, MEM_READ, 0x1000, 0, 2), evict ? MEM_L1_MISS : MEM_L1_HIT);
        assert_int_equal(mem_l1_stats(l)->evictions, 0);       /* not an eviction */
        mem_l1_free(l);
        mem_backend_free(b);
    }
}

/* A port that keeps what it is sent (the last request). */
static bool cap_can(void *impl) { (void)impl; return true; }
static bool cap_send(void *impl, const mem_req *r, uint64_t cycle)
{
    (void)cycle;
    *(mem_req *)impl = *r;
    return true;
}
static bool cap_recv(void *impl, uint64_t cycle, mem_req *out)
{
    (void)impl; (void)cycle; (void)out;
    return false;
}

/* A reduced write-through store (coalesce_reduce) goes below with its own
   start and size; unreduced (bytes 0) it carries the whole segment. */
static void test_l1_store_bytes(void **state)
{
    (void)state;
    gpu_cache_config c = l1cfg();
    mem_l1 *l = mem_l1_new(&c, 0, MEM_SRC_L1D, 128);
    mem_req got = { 0 };
    mem_port port = { .impl = &got, .can_send = cap_can, .send = cap_send, .recv = cap_recv };
    mem_l1_evict ev;
    assert_int_equal(mem_l1_access_n(l, MEM_WRITE, 0x1060, 32, 0, 0, &ev), MEM_L1_SENT);
    while (mem_l1_tick(l, &port, 0)) {}
    assert_int_equal(got.kind, MEM_WRITE);
    assert_int_equal(got.addr, 0x1060);
    assert_int_equal(got.bytes, 32);
    assert_int_equal(mem_l1_access_n(l, MEM_WRITE, 0x1064, 0, 0, 0, &ev), MEM_L1_SENT);
    while (mem_l1_tick(l, &port, 1)) {}
    assert_int_equal(got.addr, 0x1000);
    assert_int_equal(got.bytes, 128);
    /* an atomic likewise (GPGPU-Sim reduces atomics too) */
    assert_int_equal(mem_l1_access_n(l, MEM_ATOMIC, 0x1020, 32, 0, 7, &ev), MEM_L1_SENT);
    while (mem_l1_tick(l, &port, 2)) {}
    assert_int_equal(got.kind, MEM_ATOMIC);
    assert_int_equal(got.addr, 0x1020);
    assert_int_equal(got.bytes, 32);
    mem_l1_free(l);
}

static void test_backend_latency_bandwidth_queue(void **state)
{
    (void)state;
    mem_backend *b = mem_backend_new(50, 32, 3);
    mem_port p = mem_backend_port(b);
    mem_req r = { .addr = 0, .bytes = 128, .kind = MEM_READ };
    /* three requests at cycle 0: 128 B each at 32 B/cycle = 4 cycles apiece */
    assert_true(p.send(p.impl, &r, 0));
    assert_true(p.send(p.impl, &r, 0));
    assert_true(p.send(p.impl, &r, 0));
    assert_false(p.can_send(p.impl));
    assert_false(p.send(p.impl, &r, 0));                /* bounded queue */
    assert_int_equal(mem_backend_next_ready(b), 50);
    mem_req out;
    assert_false(p.recv(p.impl, 49, &out));
    assert_true(p.recv(p.impl, 50, &out));
    assert_true(p.can_send(p.impl));
    /* the data of all three took 12 cycles, well inside the latency */
    assert_true(p.recv(p.impl, 50, &out));
    assert_true(p.recv(p.impl, 50, &out));
    assert_false(p.recv(p.impl, 50, &out));
    /* bandwidth: a long stream is limited to 32 B/cycle */
    mem_backend *s = mem_backend_new(10, 32, 1000);
    mem_port q = mem_backend_port(s);
    for (int i = 0; i < 100; i++) assert_true(q.send(q.impl, &r, 0));
    uint64_t last = 0;
    for (uint64_t c = 0; c < 1000 && mem_backend_in_flight(s); c++)
        while (q.recv(q.impl, c, &out)) last = c;
    assert_int_equal(last, 100 * 128 / 32);
    assert_int_equal(mem_backend_requests(s), 100);
    assert_int_equal(mem_backend_bytes(s), 100 * 128);
    mem_backend_free(s);
    mem_backend_free(b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cache_lru),
        cmocka_unit_test(test_cache_presence),
        cmocka_unit_test(test_cache_set_index_hash),
        cmocka_unit_test(test_mshr_merge_and_limit),
        cmocka_unit_test(test_l1_miss_merge_fail_fill),
        cmocka_unit_test(test_l1_write_policies),
        cmocka_unit_test(test_l1_alloc_miss_set_reservation),
        cmocka_unit_test(test_l1_alloc_fill_and_streaming),
        cmocka_unit_test(test_l1_owner_alloc_vs_last),
        cmocka_unit_test(test_l1_write_evict),
        cmocka_unit_test(test_l1_store_bytes),
        cmocka_unit_test(test_backend_latency_bandwidth_queue),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
