/*
** test_l1_replay.c -- the L1D stream replay (gpu/l1_replay.c): the toy
** streams of CCWS spec §2.9 (0 LRU / 4 Belady hits round-robin, 12 hits
** cache-aware), Belady's victim choice, stores under write-evict and
** write-back, atomics; and the unbounded tag array (mem/cache.c, l1.c):
** no line ever leaves it.
*/
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>
#include "gpu/l1_replay.h"
#include "mem/cache.h"
#include "mem/l1.h"

/* fully associative, 4 lines of 128 B: the §2.9 toy cache */
static const l1_replay_geom toy = { .sets = 1, .ways = 4, .line_bytes = 128 };

/* A stream of loads from a string of line letters ('A' = line 0, ...;
   lowercase = store, '!' before a letter = atomic). */
static size_t stream(const char *s, uint64_t *out)
{
    size_t n = 0;
    for (; *s; s++) {
        if (*s == ' ') continue;
        if (*s == '!') { s++; out[n++] = L1_REPLAY_PACK(*s - 'A', L1A_ATOMIC); continue; }
        if (*s >= 'a') out[n++] = L1_REPLAY_PACK(*s - 'a', L1A_STORE);
        else out[n++] = L1_REPLAY_PACK(*s - 'A', L1A_LOAD);
    }
    return n;
}

static l1_replay_result replay(const char *s, const l1_replay_geom *g)
{
    uint64_t a[256];
    size_t n = stream(s, a);
    l1_replay_result r = { 0 };
    assert_int_equal(l1_replay_stream(a, n, g, &r), 0);
    assert_int_equal(r.lru.hits + r.lru.misses, r.lru.accesses);
    assert_int_equal(r.belady.accesses, r.lru.accesses);
    return r;
}

/* CCWS spec §2.9 / Figs. 3-4: three warps touch ABCD, EFGH, IJKL twice */
static void test_toy_round_robin(void **state)
{
    (void)state;
    l1_replay_result r = replay("ABCD EFGH IJKL ABCD EFGH IJKL", &toy);
    assert_int_equal(r.lru.accesses, 24);
    assert_int_equal(r.lru.hits, 0);
    assert_int_equal(r.belady.hits, 4);
    assert_int_equal(r.belady.misses, 20);
}

static void test_toy_cache_aware(void **state)
{
    (void)state;
    l1_replay_result r = replay("ABCD ABCD EFGH EFGH IJKL IJKL", &toy);
    assert_int_equal(r.lru.hits, 12);
    assert_int_equal(r.belady.hits, 12);
}

/* Belady keeps the line used soonest: with 2 ways, A B C A B keeps A and
   B when C comes (C is never used again... it must still be installed:
   nothing is bypassed, so the victim is the farthest of A and B: B). */
static void test_belady_victim(void **state)
{
    (void)state;
    l1_replay_geom g = { .sets = 1, .ways = 2, .line_bytes = 128 };
    l1_replay_result r = replay("A B C A B", &g);
    assert_int_equal(r.belady.hits, 1);      /* A hits; B was evicted for C */
    assert_int_equal(r.lru.hits, 0);
    /* sets: A (line 0) and B (line 1) in different sets never conflict */
    g.sets = 2;
    g.ways = 1;
    r = replay("A B A B", &g);
    assert_int_equal(r.lru.hits, 2);
    assert_int_equal(r.belady.hits, 2);
}

/* Stores: write-through no-allocate (a store miss installs nothing),
   write-evict drops a hit line, write-back allocates; atomics drop the
   line and are not accesses. */
static void test_stores_and_atomics(void **state)
{
    (void)state;
    l1_replay_geom g = toy;
    l1_replay_result r = replay("a A", &g);               /* no write-allocate */
    assert_int_equal(r.lru.hits, 0);
    assert_int_equal(r.lru.load_misses, 1);
    r = replay("A a A", &g);                              /* store hit refreshes */
    assert_int_equal(r.lru.hits, 2);
    g.write_evict = true;
    r = replay("A a A", &g);                              /* store hit drops it */
    assert_int_equal(r.lru.hits, 1);
    assert_int_equal(r.belady.hits, 1);
    assert_int_equal(r.lru.misses, 2);
    g = toy;
    g.write_back = true;
    r = replay("a A", &g);                                /* write-allocate */
    assert_int_equal(r.lru.hits, 1);
    r = replay("A !A A", &g);                             /* the atomic drops A */
    assert_int_equal(r.lru.accesses, 2);
    assert_int_equal(r.lru.hits, 0);
    assert_int_equal(r.belady.hits, 0);
}

/* Replaying an SM's stream in pieces (kernels) adds up; an empty one is 0. */
static void test_accumulates(void **state)
{
    (void)state;
    l1_replay_result r = { 0 };
    assert_int_equal(l1_replay_stream(NULL, 0, &toy, &r), 0);
    assert_int_equal(r.lru.accesses, 0);
    uint64_t a[8];
    size_t n = stream("A A B B", a);
    assert_int_equal(l1_replay_stream(a, n, &toy, &r), 0);
    assert_int_equal(l1_replay_stream(a, n, &toy, &r), 0);
    assert_int_equal(r.lru.accesses, 8);
    assert_int_equal(r.lru.hits, 4);
    assert_int_equal(r.belady.misses, 4);
}

/* An unbounded tag array never evicts: 1000 lines through 2 sets x 2
   ways all stay, by fill and by allocate-on-miss reserve/validate. */
static void test_unbounded_cache(void **state)
{
    (void)state;
    mem_cache c;
    assert_int_equal(mem_cache_init(&c, 2, 2, 128), 0);
    c.unbounded = true;
    int64_t idx;
    mem_cache_line ev;
    for (uint64_t l = 0; l < 1000; l++)
        assert_false(mem_cache_fill(&c, l * 128 * 7, 0, &idx, &ev));
    for (uint64_t l = 0; l < 1000; l++) assert_true(mem_cache_probe(&c, l * 128 * 7) >= 0);
    mem_cache_release(&c);
    assert_int_equal(mem_cache_init(&c, 2, 2, 128), 0);
    c.unbounded = true;
    for (uint64_t l = 0; l < 300; l++) {
        int64_t w = mem_cache_victim(&c, l * 128);
        assert_true(w >= 0);
        assert_false(mem_cache_reserve(&c, w, l * 128, 0, &ev));
    }
    for (uint64_t l = 0; l < 300; l++) assert_true(mem_cache_validate(&c, l * 128) >= 0);
    for (uint64_t l = 0; l < 300; l++) assert_true(mem_cache_probe(&c, l * 128) >= 0);
    mem_cache_release(&c);
}

/* The L1 with l1d.unbounded on a stream 8x its capacity: the second pass
   hits everywhere, no eviction, only first touches missed. */
static void test_unbounded_l1(void **state)
{
    (void)state;
    gpu_cache_config cfg = { .sets = 4, .ways = 2, .line_bytes = 128, .enabled = true,
                             .mshr_entries = 128, .mshr_merge = 4, .miss_queue = 128,
                             .hit_latency = 1, .allocate = GPU_L1_ALLOC_MISS,
                             .unbounded = true };
    mem_l1 *l = mem_l1_new(&cfg, 0, 0, 128);
    assert_non_null(l);
    mem_l1_evict ev;
    uint32_t tok[8];
    for (uint32_t i = 0; i < 64; i++) {
        assert_int_equal(mem_l1_access(l, MEM_READ, i * 128, 0, i, &ev), MEM_L1_MISS);
        assert_false(ev.valid);
    }
    /* fills in order: a fresh L1 hands out MSHRs 0, 1, 2, ... */
    for (uint32_t i = 0; i < 64; i++) {
        mem_req rep = { .addr = i * 128, .kind = MEM_READ, .id = i };
        assert_int_equal(mem_l1_fill(l, &rep, tok, &ev), 1);
        assert_false(ev.valid);
    }
    for (uint32_t i = 0; i < 64; i++)
        assert_int_equal(mem_l1_access(l, MEM_READ, i * 128, 1, 0, &ev), MEM_L1_HIT);
    assert_int_equal(mem_l1_stats(l)->evictions, 0);
    assert_int_equal(mem_l1_stats(l)->misses, 64);
    mem_l1_free(l);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_toy_round_robin),
        cmocka_unit_test(test_toy_cache_aware),
        cmocka_unit_test(test_belady_victim),
        cmocka_unit_test(test_stores_and_atomics),
        cmocka_unit_test(test_accumulates),
        cmocka_unit_test(test_unbounded_cache),
        cmocka_unit_test(test_unbounded_l1),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
