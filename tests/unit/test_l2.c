/*
** test_l2.c -- one L2 slice (mem/l2.c): a read miss goes to DRAM and its
** fill answers after the hit latency, a second read hits; misses to a
** pending line merge up to the limit; a slice out of MSHRs (or of room
** toward DRAM) refuses and its input queue fills; write-back with
** allocation (no DRAM read, dirty victims written back); perfect L2;
** lazy MSHR occupancy; memory-side prefetch reservations, fills and
** merges.
*/
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>
#include "gpu/config.h"
#include "mem/l2.h"

#define LAT 10

static void cfg_small(gpu_config *c)
{
    gpu_config_defaults(c);
    c->l2 = (gpu_cache_config){ .sets = 4, .ways = 2, .line_bytes = 128, .write_back = true,
                                .enabled = true, .mshr_entries = 2, .mshr_merge = 2,
                                .miss_queue = 4, .hit_latency = LAT };
    c->l2_queue = 3;
    c->perfect_l2 = false;
    c->unlimited_mem = false;
}

static mem_req rd(uint64_t addr, uint32_t id)
{
    return (mem_req){ .addr = addr, .bytes = 128, .kind = MEM_READ, .sm = 1, .id = id };
}

/* run ticks from..to-1; returns replies seen, their ids and cycles */
typedef struct seen {
    uint32_t n, id[32];
    uint64_t at[32];
    uint8_t kind[32];
} seen;

static void run(mem_l2 *s, uint64_t from, uint64_t to, seen *out)
{
    for (uint64_t c = from; c < to; c++) {
        mem_l2_tick(s, c);
        const mem_req *r;
        while ((r = mem_l2_reply_head(s, c))) {
            if (out && out->n < 32) {
                out->id[out->n] = r->id;
                out->at[out->n] = c;
                out->kind[out->n] = r->kind;
                out->n++;
            }
            mem_l2_reply_pop(s);
        }
    }
}

static void test_miss_fill_hit(void **state)
{
    (void)state;
    gpu_config c;
    cfg_small(&c);
    mem_l2 *s = mem_l2_new(&c);
    assert_non_null(s);
    mem_req a = rd(0x1000, 7);
    mem_l2_push(s, &a);
    seen sn = { 0 };
    run(s, 0, 5, &sn);
    assert_int_equal(sn.n, 0);
    const mem_req *d = mem_l2_dram_head(s);
    assert_non_null(d);
    assert_int_equal(d->addr, 0x1000);
    assert_int_equal(d->kind, MEM_READ);
    assert_int_equal(d->bytes, 128);
    mem_req fill = *d;
    mem_l2_dram_pop(s);
    assert_null(mem_l2_dram_head(s));
    assert_int_equal(mem_l2_mshr_used(s), 1);
    mem_l2_fill(s, &fill);
    run(s, 5, 30, &sn);
    assert_int_equal(sn.n, 1);
    assert_int_equal(sn.id[0], 7);                 /* the requester's own id */
    assert_int_equal(sn.at[0], 5 + LAT);
    assert_int_equal(mem_l2_mshr_used(s), 0);
    /* the line is there now */
    mem_req b = rd(0x1000, 8);                     /* same line */
    mem_l2_push(s, &b);
    run(s, 30, 60, &sn);
    assert_int_equal(sn.n, 2);
    assert_int_equal(sn.at[1], 30 + LAT);
    assert_null(mem_l2_dram_head(s));
    gpu_cache_stats st;
    uint64_t full;
    mem_l2_get_stats(s, 60, &st, &full);
    assert_int_equal(st.accesses, 2);
    assert_int_equal(st.misses, 1);
    assert_int_equal(st.hits, 1);
    /* one MSHR held from cycle 0 to the fill at cycle 5 */
    assert_int_equal(st.mshr_occupancy_sum, 5);
    assert_false(mem_l2_busy(s));
    mem_l2_free(s);
}

static void test_merge_limit(void **state)
{
    (void)state;
    gpu_config c;
    cfg_small(&c);
    mem_l2 *s = mem_l2_new(&c);
    for (uint32_t i = 0; i < 3; i++) {
        mem_req r = rd(0x2000, i);
        mem_l2_push(s, &r);
    }
    seen sn = { 0 };
    run(s, 0, 10, &sn);
    /* two joined one MSHR (merge 2); the third waits at the head */
    assert_int_equal(mem_l2_mshr_used(s), 1);
    assert_int_equal(mem_l2_input_len(s), 1);
    gpu_cache_stats st;
    uint64_t full;
    mem_l2_get_stats(s, 10, &st, &full);
    assert_int_equal(st.merges, 1);
    assert_true(st.reservation_fails >= 8);
    mem_req fill = *mem_l2_dram_head(s);
    mem_l2_dram_pop(s);
    assert_null(mem_l2_dram_head(s));              /* one DRAM read for all */
    mem_l2_fill(s, &fill);
    run(s, 10, 40, &sn);
    /* the fill answers both waiters; the third then hits */
    assert_int_equal(sn.n, 3);
    assert_int_equal(sn.id[0], 0);
    assert_int_equal(sn.id[1], 1);
    assert_int_equal(sn.id[2], 2);
    mem_l2_free(s);
}

/* out of MSHRs: the head waits, the input queue fills, the slice refuses */
static void test_refusal_chain(void **state)
{
    (void)state;
    gpu_config c;
    cfg_small(&c);
    mem_l2 *s = mem_l2_new(&c);
    uint32_t pushed = 0;
    for (uint64_t cyc = 0; cyc < 20; cyc++) {
        mem_req r = rd(0x10000 + pushed * 128, pushed);
        if (mem_l2_can_accept(s)) { mem_l2_push(s, &r); pushed++; }
        mem_l2_tick(s, cyc);
    }
    /* 2 MSHRs taken, 3 waiting in the input queue */
    assert_int_equal(mem_l2_mshr_used(s), 2);
    assert_int_equal(pushed, 5);
    assert_false(mem_l2_can_accept(s));
    gpu_cache_stats st;
    uint64_t full;
    mem_l2_get_stats(s, 20, &st, &full);
    assert_true(st.reservation_fails > 10);
    assert_true(full > 10);
    /* one fill frees an MSHR: the head proceeds and there is room again */
    mem_req f = *mem_l2_dram_head(s);
    mem_l2_dram_pop(s);
    mem_l2_fill(s, &f);
    mem_l2_tick(s, 20);
    mem_l2_tick(s, 21);
    assert_true(mem_l2_can_accept(s));
    mem_l2_free(s);
}

/* room toward DRAM is a reservation too */
static void test_dram_queue_full(void **state)
{
    (void)state;
    gpu_config c;
    cfg_small(&c);
    c.l2.mshr_entries = 8;
    c.l2_queue = 2;
    mem_l2 *s = mem_l2_new(&c);
    for (uint64_t cyc = 0; cyc < 10; cyc++) {
        mem_req r = rd(0x40000 + cyc * 128, (uint32_t)cyc);
        if (mem_l2_can_accept(s)) mem_l2_push(s, &r);
        mem_l2_tick(s, cyc);
    }
    assert_int_equal(mem_l2_mshr_used(s), 2);       /* the DRAM queue holds 2 */
    gpu_cache_stats st;
    uint64_t full;
    mem_l2_get_stats(s, 10, &st, &full);
    assert_true(st.reservation_fails > 0);
    mem_l2_free(s);
}

static void test_write_back_allocate(void **state)
{
    (void)state;
    gpu_config c;
    cfg_small(&c);
    c.l2.sets = 1;
    c.l2.ways = 1;
    mem_l2 *s = mem_l2_new(&c);
    mem_req w = { .addr = 0x3000, .bytes = 128, .kind = MEM_WRITE, .id = 1 };
    mem_l2_push(s, &w);
    seen sn = { 0 };
    run(s, 0, 20, &sn);
    assert_int_equal(sn.n, 1);                      /* acknowledged */
    assert_int_equal(sn.kind[0], MEM_WRITE);
    assert_null(mem_l2_dram_head(s));               /* allocated without a read */
    assert_true(mem_l2_holds(s, 0x3000));
    /* a read of another line evicts the dirty one: a DRAM write + a read */
    mem_req r = rd(0x8000, 2);
    mem_l2_push(s, &r);
    run(s, 20, 25, &sn);
    const mem_req *d = mem_l2_dram_head(s);
    assert_non_null(d);
    assert_int_equal(d->kind, MEM_READ);
    mem_req f = *d;
    mem_l2_dram_pop(s);
    mem_l2_fill(s, &f);
    run(s, 25, 50, &sn);
    d = mem_l2_dram_head(s);
    assert_non_null(d);
    assert_int_equal(d->kind, MEM_WRITE);
    assert_int_equal(d->addr, 0x3000);
    assert_int_equal(d->bytes, 128);
    gpu_cache_stats st;
    uint64_t full;
    mem_l2_get_stats(s, 50, &st, &full);
    assert_int_equal(st.evictions, 1);
    assert_int_equal(st.writebacks, 1);
    assert_false(mem_l2_holds(s, 0x3000));
    mem_l2_free(s);
}

static void test_perfect(void **state)
{
    (void)state;
    gpu_config c;
    cfg_small(&c);
    c.perfect_l2 = true;
    mem_l2 *s = mem_l2_new(&c);
    seen sn = { 0 };
    for (uint32_t i = 0; i < 6; i++) {
        mem_req r = rd(0x100000 + i * 4096, i);
        mem_l2_push(s, &r);
        run(s, i * 20, i * 20 + 20, &sn);
    }
    assert_int_equal(sn.n, 6);
    for (uint32_t i = 0; i < 6; i++) assert_int_equal(sn.at[i], i * 20 + LAT);
    assert_null(mem_l2_dram_head(s));
    gpu_cache_stats st;
    uint64_t full;
    mem_l2_get_stats(s, 200, &st, &full);
    assert_int_equal(st.hits, 6);
    assert_int_equal(st.misses, 0);
    mem_l2_free(s);
}

/* unlimited: thousands of lines in flight, no refusal */
static void test_unlimited(void **state)
{
    (void)state;
    gpu_config c;
    cfg_small(&c);
    c.unlimited_mem = true;
    mem_l2 *s = mem_l2_new(&c);
    for (uint32_t i = 0; i < 3000; i++) {
        mem_req r = rd((uint64_t)i * 128, i);
        assert_true(mem_l2_can_accept(s));
        mem_l2_push(s, &r);
        mem_l2_tick(s, i);
        while (mem_l2_dram_head(s)) mem_l2_dram_pop(s);
    }
    assert_int_equal(mem_l2_mshr_used(s), 3000);
    gpu_cache_stats st;
    uint64_t full;
    mem_l2_get_stats(s, 3000, &st, &full);
    assert_int_equal(st.reservation_fails, 0);
    mem_l2_free(s);
}

/* Memory-side prefetch into one slice: a reservation takes an MSHR with no
   waiter and is refused when the line is pending, present, or no MSHR is
   free; the fill installs the line and answers nobody; a demand miss that
   arrives in flight joins the prefetch (one DRAM read); a demand hit on a
   prefetched line counts once. */
static void test_prefetch_reserve_fill_merge(void **state)
{
    (void)state;
    gpu_config c;
    cfg_small(&c);                                 /* 2 MSHRs */
    mem_l2 *s = mem_l2_new(&c);
    uint32_t ix, iy, iz;
    assert_true(mem_l2_prefetch_reserve(s, 0x1010, &ix));   /* line 0x1000 */
    assert_false(mem_l2_prefetch_reserve(s, 0x1000, &iz));  /* pending already */
    assert_true(mem_l2_prefetch_reserve(s, 0x2000, &iy));
    assert_false(mem_l2_prefetch_reserve(s, 0x3000, &iz));  /* no MSHR left */
    assert_int_equal(mem_l2_mshr_used(s), 2);
    assert_null(mem_l2_dram_head(s));              /* the controller reads it, not L2 */

    /* a demand miss to the prefetched line Y joins it */
    mem_req dy = rd(0x2000, 9);
    mem_l2_push(s, &dy);
    seen sn = { 0 };
    run(s, 0, 5, &sn);
    assert_null(mem_l2_dram_head(s));              /* not sent to DRAM again */
    mem_req fx = { .addr = 0x1000, .bytes = 128, .kind = MEM_READ, .id = ix };
    mem_req fy = { .addr = 0x2000, .bytes = 128, .kind = MEM_READ, .id = iy };
    mem_l2_fill(s, &fx);
    mem_l2_fill(s, &fy);
    run(s, 5, 40, &sn);
    assert_int_equal(sn.n, 1);                     /* only the demand is answered */
    assert_int_equal(sn.id[0], 9);
    assert_int_equal(mem_l2_mshr_used(s), 0);
    assert_true(mem_l2_holds(s, 0x1000));
    assert_false(mem_l2_prefetch_reserve(s, 0x1000, &iz));  /* present */

    /* X was brought by the prefetch alone: a demand read hits, counted once */
    for (uint32_t i = 0; i < 2; i++) {
        mem_req dx = rd(0x1000, 20 + i);
        mem_l2_push(s, &dx);
    }
    run(s, 40, 80, &sn);
    assert_int_equal(sn.n, 3);
    assert_null(mem_l2_dram_head(s));
    mem_l2_pf_stats pf;
    mem_l2_pf_stats_get(s, &pf);
    assert_int_equal(pf.fills, 2);
    assert_int_equal(pf.merges, 1);
    assert_int_equal(pf.hits, 1);
    gpu_cache_stats st;
    uint64_t full;
    mem_l2_get_stats(s, 80, &st, &full);
    assert_int_equal(st.hits, 2);
    assert_int_equal(st.merges, 1);
    mem_l2_free(s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_miss_fill_hit),
        cmocka_unit_test(test_merge_limit),
        cmocka_unit_test(test_refusal_chain),
        cmocka_unit_test(test_dram_queue_full),
        cmocka_unit_test(test_write_back_allocate),
        cmocka_unit_test(test_perfect),
        cmocka_unit_test(test_unlimited),
        cmocka_unit_test(test_prefetch_reserve_fill_merge),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
