/*
** test_l2_sector.c -- a sectored L2 slice (l2.sector_bytes, GPGPU-Sim's
** 'S:' L2): a 128 B read becomes four sector accesses and four 32 B DRAM
** reads, answered once after the last fill; a sector written earlier hits
** while the others are read; a victim writes back only its dirty
** sectors; a slice takes a request only with room for all its sectors;
** the whole-line slice (sector_bytes 0) is unchanged.
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

static void cfg_sectored(gpu_config *c, uint32_t sector)
{
    gpu_config_defaults(c);
    c->l2 = (gpu_cache_config){ .sets = 1, .ways = 1, .line_bytes = 128, .write_back = true,
                                .enabled = true, .mshr_entries = 8, .mshr_merge = 4,
                                .miss_queue = 4, .hit_latency = LAT };
    c->l1d.line_bytes = c->l1c.line_bytes = c->l1t.line_bytes = 128;
    c->coalesce_bytes = 32;
    c->l2_queue = 16;
    c->l2_sector_bytes = sector;
    c->perfect_l2 = false;
    c->unlimited_mem = false;
}

static mem_req req(uint64_t addr, uint32_t bytes, int kind, uint32_t id)
{
    return (mem_req){ .addr = addr, .bytes = bytes, .kind = (uint8_t)kind, .sm = 1, .id = id };
}

/* Tick from..to-1, taking every DRAM request (kept in `dram`) and every
   reply (ids and cycles in `rep`). */
typedef struct trace {
    uint32_t n, id[16];
    uint64_t at[16];
    uint32_t nd;
    mem_req d[16];
} trace;

static void run(mem_l2 *s, uint64_t from, uint64_t to, trace *lg)
{
    for (uint64_t c = from; c < to; c++) {
        mem_l2_tick(s, c);
        const mem_req *r;
        while ((r = mem_l2_dram_head(s))) {
            if (lg->nd < 16) lg->d[lg->nd++] = *r;
            mem_l2_dram_pop(s);
        }
        while ((r = mem_l2_reply_head(s, c))) {
            if (lg->n < 16) {
                lg->id[lg->n] = r->id;
                lg->at[lg->n++] = c;
            }
            mem_l2_reply_pop(s);
        }
    }
}

static void stats(mem_l2 *s, gpu_cache_stats *st)
{
    uint64_t full;
    mem_l2_get_stats(s, 0, st, &full);
}

static void test_line_read_is_four_sector_reads(void **state)
{
    (void)state;
    gpu_config c;
    cfg_sectored(&c, 32);
    mem_l2 *s = mem_l2_new(&c);
    assert_non_null(s);
    mem_req a = req(0x1000, 128, MEM_READ, 7);
    mem_l2_push(s, &a);
    assert_int_equal(mem_l2_input_len(s), 4);       /* one input slot per sector */
    trace lg = { 0 };
    run(s, 0, 10, &lg);
    assert_int_equal(lg.n, 0);
    assert_int_equal(lg.nd, 4);                     /* each sector read on its own */
    for (uint32_t k = 0; k < 4; k++) {
        assert_int_equal(lg.d[k].addr, 0x1000 + 32 * k);
        assert_int_equal(lg.d[k].bytes, 32);
        assert_int_equal(lg.d[k].kind, MEM_READ);
    }
    assert_int_equal(mem_l2_mshr_used(s), 4);
    /* three fills: still no reply */
    for (uint32_t k = 0; k < 3; k++) mem_l2_fill(s, &lg.d[k]);
    run(s, 10, 40, &lg);
    assert_int_equal(lg.n, 0);
    mem_l2_fill(s, &lg.d[3]);
    run(s, 40, 80, &lg);
    assert_int_equal(lg.n, 1);                      /* one reply, the request's own id */
    assert_int_equal(lg.id[0], 7);
    assert_int_equal(lg.at[0], 40 + LAT);
    gpu_cache_stats st;
    stats(s, &st);
    assert_int_equal(st.accesses, 4);
    assert_int_equal(st.misses, 4);
    /* now every sector is present: a line read is four hits, no DRAM */
    mem_req b = req(0x1000, 128, MEM_READ, 8);
    mem_l2_push(s, &b);
    run(s, 80, 120, &lg);
    assert_int_equal(lg.nd, 4);
    assert_int_equal(lg.n, 2);
    assert_int_equal(lg.id[1], 8);
    assert_int_equal(lg.at[1], 83 + LAT);           /* the last sector's access */
    stats(s, &st);
    assert_int_equal(st.accesses, 8);
    assert_int_equal(st.hits, 4);
    assert_false(mem_l2_busy(s));
    mem_l2_free(s);
}

static void test_written_sector_hits_dirty_sectors_written_back(void **state)
{
    (void)state;
    gpu_config c;
    cfg_sectored(&c, 32);
    mem_l2 *s = mem_l2_new(&c);
    /* a 32 B store to sector 1 allocates the line, that sector dirty */
    mem_req w = req(0x1020, 32, MEM_WRITE, 1);
    mem_l2_push(s, &w);
    trace lg = { 0 };
    run(s, 0, 20, &lg);
    assert_int_equal(lg.n, 1);
    assert_int_equal(lg.nd, 0);                     /* no fetch for a store */
    /* a line read: sector 1 hits, 0, 2 and 3 are read */
    mem_req a = req(0x1000, 128, MEM_READ, 2);
    mem_l2_push(s, &a);
    run(s, 20, 40, &lg);
    assert_int_equal(lg.nd, 3);
    assert_int_equal(lg.d[0].addr, 0x1000);
    assert_int_equal(lg.d[1].addr, 0x1040);
    assert_int_equal(lg.d[2].addr, 0x1060);
    for (uint32_t k = 0; k < 3; k++) mem_l2_fill(s, &lg.d[k]);
    run(s, 40, 80, &lg);
    assert_int_equal(lg.n, 2);
    assert_int_equal(lg.id[1], 2);
    gpu_cache_stats st;
    stats(s, &st);
    assert_int_equal(st.accesses, 5);               /* 1 store + 4 sectors */
    assert_int_equal(st.hits, 1);
    /* another line in the one-way set evicts it: only sector 1 was dirty */
    mem_req b = req(0x2000, 32, MEM_READ, 3);
    mem_l2_push(s, &b);
    run(s, 80, 100, &lg);
    assert_int_equal(lg.nd, 4);
    assert_int_equal(lg.d[3].addr, 0x2000);
    assert_int_equal(lg.d[3].bytes, 32);
    mem_l2_fill(s, &lg.d[3]);
    run(s, 100, 140, &lg);
    assert_int_equal(lg.nd, 5);
    assert_int_equal(lg.d[4].kind, MEM_WRITE);
    assert_int_equal(lg.d[4].addr, 0x1000);
    assert_int_equal(lg.d[4].bytes, 32);            /* one dirty sector, not the line */
    mem_l2_free(s);
}

/* the slice takes a request only with room for every sector it may become */
static void test_accept_needs_room_for_all_sectors(void **state)
{
    (void)state;
    gpu_config c;
    cfg_sectored(&c, 32);
    c.l2_queue = 6;
    mem_l2 *s = mem_l2_new(&c);
    assert_true(mem_l2_can_accept(s));
    mem_req a = req(0x1000, 128, MEM_READ, 1);
    mem_l2_push(s, &a);
    assert_false(mem_l2_can_accept(s));            /* 2 slots left, 4 needed */
    trace lg = { 0 };
    run(s, 0, 2, &lg);
    assert_true(mem_l2_can_accept(s));
    mem_l2_free(s);
}

/* sector_bytes 0: a line read is one access and one 128 B DRAM read */
static void test_whole_lines_unchanged(void **state)
{
    (void)state;
    gpu_config c;
    cfg_sectored(&c, 0);
    mem_l2 *s = mem_l2_new(&c);
    mem_req a = req(0x1000, 128, MEM_READ, 7);
    mem_l2_push(s, &a);
    assert_int_equal(mem_l2_input_len(s), 1);
    trace lg = { 0 };
    run(s, 0, 10, &lg);
    assert_int_equal(lg.nd, 1);
    assert_int_equal(lg.d[0].bytes, 128);
    mem_l2_free(s);
}

static void test_config_check(void **state)
{
    (void)state;
    gpu_config c;
    char err[256];
    gpu_config_defaults(&c);
    assert_int_equal(c.l2_sector_bytes, 0);         /* presets keep whole lines */
    c.l2_sector_bytes = 32;
    assert_int_equal(gpu_config_check(&c, err, sizeof err), 0);
    c.l2_sector_bytes = 48;
    assert_int_not_equal(gpu_config_check(&c, err, sizeof err), 0);
    assert_non_null(strstr(err, "l2.sector_bytes"));
    c.l2_sector_bytes = 2;                          /* 64 sectors a line: too many */
    assert_int_not_equal(gpu_config_check(&c, err, sizeof err), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_line_read_is_four_sector_reads),
        cmocka_unit_test(test_written_sector_hits_dirty_sectors_written_back),
        cmocka_unit_test(test_accept_needs_room_for_all_sectors),
        cmocka_unit_test(test_whole_lines_unchanged),
        cmocka_unit_test(test_config_check),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
