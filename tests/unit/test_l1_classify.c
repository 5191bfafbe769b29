/*
** test_l1_classify.c -- the L1D's hit classification (l1d_classify, CCWS
** spec Sec. 6) on a small access stream with known classes: a read hit on
** a line the requesting warp owns is intra-thread when one of its lanes
** touched the line before, else inter-thread; a hit on another warp's line
** is inter-warp; misses and merges are misses.  Owner = the allocating warp
** (`owner = alloc`), or the last toucher (`owner = last`).  Off, nothing is
** classified.
*/
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <cmocka.h>
#include "mem/backend.h"
#include "mem/l1.h"

enum { A = 0x1000, B = 0x2000 };

typedef struct rig {
    mem_l1 *l;
    mem_backend *b;
    mem_port port;
    uint64_t cycle;
} rig;

static void rig_open(rig *r, uint32_t alloc, uint32_t owner, bool classify)
{
    gpu_cache_config c = { .sets = 1, .ways = 4, .line_bytes = 128, .enabled = true,
                           .mshr_entries = 4, .mshr_merge = 4, .miss_queue = 4,
                           .hit_latency = 10, .allocate = alloc, .owner = owner };
    r->l = mem_l1_new(&c, 0, MEM_SRC_L1D, 128);
    assert_non_null(r->l);
    if (classify) assert_int_equal(mem_l1_classify_enable(r->l), 0);
    r->b = mem_backend_new(10, 128, 8);
    r->port = mem_backend_port(r->b);
    r->cycle = 0;
}

static void rig_close(rig *r)
{
    mem_l1_free(r->l);
    mem_backend_free(r->b);
}

static int rd(rig *r, uint32_t warp, uint32_t lanes, uint64_t addr)
{
    mem_l1_evict ev;
    return mem_l1_access_lanes(r->l, MEM_READ, addr, 0, warp, 1, lanes, &ev);
}

/* Send what is queued and deliver the fills. */
static void fill_all(rig *r)
{
    mem_req q;
    uint32_t buf[8];
    mem_l1_evict ev;
    while (mem_l1_tick(r->l, &r->port, r->cycle)) {}
    r->cycle += 20;
    while (r->port.recv(r->port.impl, r->cycle, &q)) mem_l1_fill(r->l, &q, buf, &ev);
}

static void expect(rig *r, uint64_t intra, uint64_t inter, uint64_t warp, uint64_t miss)
{
    const gpu_cache_stats *s = mem_l1_stats(r->l);
    assert_int_equal(s->cls_intra_thread, intra);
    assert_int_equal(s->cls_inter_thread, inter);
    assert_int_equal(s->cls_inter_warp, warp);
    assert_int_equal(s->cls_miss, miss);
    if (intra + inter + warp + miss) {
        assert_int_equal(s->hits, intra + inter + warp);
        assert_int_equal(s->misses, miss);
    }
}

static void stream_owner_alloc(uint32_t alloc)
{
    rig r;
    rig_open(&r, alloc, GPU_L1_OWNER_ALLOC, true);
    assert_int_equal(rd(&r, 0, 0x1, A), MEM_L1_MISS);
    fill_all(&r);
    expect(&r, 0, 0, 0, 1);
    assert_int_equal(rd(&r, 0, 0x1, A), MEM_L1_HIT);   /* lane 0 again */
    expect(&r, 1, 0, 0, 1);
    assert_int_equal(rd(&r, 0, 0x2, A), MEM_L1_HIT);   /* lane 1: same warp, other lane */
    expect(&r, 1, 1, 0, 1);
    assert_int_equal(rd(&r, 0, 0x2, A), MEM_L1_HIT);   /* lane 1 has touched it now */
    expect(&r, 2, 1, 0, 1);
    assert_int_equal(rd(&r, 1, 0x1, A), MEM_L1_HIT);   /* another warp */
    expect(&r, 2, 1, 1, 1);
    assert_int_equal(rd(&r, 0, 0x8, A), MEM_L1_HIT);   /* warp 1's hit did not take it */
    expect(&r, 2, 2, 1, 1);
    /* a miss and two merges: the allocating warp's lanes join, another's not */
    assert_int_equal(rd(&r, 2, 0x4, B), MEM_L1_MISS);
    assert_int_equal(rd(&r, 2, 0x10, B), MEM_L1_MERGED);
    assert_int_equal(rd(&r, 3, 0x20, B), MEM_L1_MERGED);
    expect(&r, 2, 2, 1, 4);
    fill_all(&r);
    assert_int_equal(rd(&r, 2, 0x10, B), MEM_L1_HIT);  /* merged lane: intra-thread */
    assert_int_equal(rd(&r, 2, 0x20, B), MEM_L1_HIT);  /* warp 3's lane: inter-thread */
    assert_int_equal(rd(&r, 3, 0x20, B), MEM_L1_HIT);  /* warp 3: inter-warp */
    expect(&r, 3, 3, 2, 4);
    /* stores are not classified; a new kernel (reset) starts cold */
    mem_l1_evict ev;
    assert_int_equal(mem_l1_access_lanes(r.l, MEM_WRITE, A, 0, 0, 0, 0x1, &ev), MEM_L1_SENT);
    mem_l1_reset(r.l);
    expect(&r, 0, 0, 0, 0);
    assert_int_equal(rd(&r, 0, 0x1, A), MEM_L1_MISS);
    fill_all(&r);
    assert_int_equal(rd(&r, 0, 0x2, A), MEM_L1_HIT);   /* lanes forgotten at the reset */
    expect(&r, 0, 1, 0, 1);
    rig_close(&r);
}

static void test_classes_alloc_on_miss(void **state)
{
    (void)state;
    stream_owner_alloc(GPU_L1_ALLOC_MISS);
}

static void test_classes_alloc_on_fill(void **state)
{
    (void)state;
    stream_owner_alloc(GPU_L1_ALLOC_FILL);
}

/* owner = last: a hit of another warp makes it the owner, with its lanes. */
static void test_classes_owner_last(void **state)
{
    (void)state;
    rig r;
    rig_open(&r, GPU_L1_ALLOC_MISS, GPU_L1_OWNER_LAST, true);
    rd(&r, 0, 0x1, A);
    fill_all(&r);
    assert_int_equal(rd(&r, 1, 0x1, A), MEM_L1_HIT);   /* inter-warp; warp 1 owns it */
    assert_int_equal(rd(&r, 1, 0x1, A), MEM_L1_HIT);   /* intra-thread */
    assert_int_equal(rd(&r, 1, 0x2, A), MEM_L1_HIT);   /* inter-thread */
    assert_int_equal(rd(&r, 0, 0x1, A), MEM_L1_HIT);   /* inter-warp again */
    expect(&r, 1, 1, 2, 1);
    rig_close(&r);
}

/* An unbounded L1D (1 set x 4 ways to start) that grows while lines keep
   their lanes: every line's lanes survive the rehash, so a second read by
   the same lane is intra-thread and by another lane inter-thread. */
static void test_classes_unbounded_growth(void **state)
{
    (void)state;
    rig r;
    gpu_cache_config c = { .sets = 1, .ways = 4, .line_bytes = 128, .enabled = true,
                           .mshr_entries = 4, .mshr_merge = 4, .miss_queue = 4,
                           .hit_latency = 10, .allocate = GPU_L1_ALLOC_MISS,
                           .owner = GPU_L1_OWNER_ALLOC, .unbounded = true };
    r.l = mem_l1_new(&c, 0, MEM_SRC_L1D, 128);
    assert_non_null(r.l);
    assert_int_equal(mem_l1_classify_enable(r.l), 0);
    r.b = mem_backend_new(10, 128, 8);
    r.port = mem_backend_port(r.b);
    r.cycle = 0;
    enum { N = 24 };   /* 6x the first capacity: several doublings */
    for (int i = 0; i < N; i++) {
        assert_int_equal(rd(&r, 0, 1u << (i % 32), (uint64_t)0x10000 + (uint64_t)i * 128),
                         MEM_L1_MISS);
        fill_all(&r);
    }
    for (int i = 0; i < N; i++)
        assert_int_equal(rd(&r, 0, 1u << (i % 32), (uint64_t)0x10000 + (uint64_t)i * 128),
                         MEM_L1_HIT);
    expect(&r, N, 0, 0, N);
    for (int i = 0; i < N; i++)
        rd(&r, 0, 1u << ((i + 1) % 32), (uint64_t)0x10000 + (uint64_t)i * 128);
    expect(&r, N, N, 0, N);
    rig_close(&r);
}

static void test_classes_off(void **state)
{
    (void)state;
    rig r;
    rig_open(&r, GPU_L1_ALLOC_MISS, GPU_L1_OWNER_ALLOC, false);
    rd(&r, 0, 0x1, A);
    fill_all(&r);
    rd(&r, 0, 0x1, A);
    rd(&r, 1, 0x1, A);
    const gpu_cache_stats *s = mem_l1_stats(r.l);
    assert_int_equal(s->hits, 2);
    expect(&r, 0, 0, 0, 0);
    rig_close(&r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_classes_alloc_on_miss),
        cmocka_unit_test(test_classes_alloc_on_fill),
        cmocka_unit_test(test_classes_owner_last),
        cmocka_unit_test(test_classes_off),
        cmocka_unit_test(test_classes_unbounded_growth),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
