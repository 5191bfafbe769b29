/*
** test_dram_timing.c -- DRAM controller command timing: each command
** sequence must take exactly the cycles its timing parameters imply
** (closed bank, row hit, row conflict, tRAS, tRC, tRRD, tCCD, tCCDL, tWTR,
** tRTW, tWR, tRTP, data-bus occupancy and turnaround, multi-burst
** requests), plus fixed-latency mode, the bounded queue, cycle skipping
** through next_event and the statistics.
*/
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <cmocka.h>

#include "test_dram_harness.h"

/* a fresh controller on `c`, with every request pushed at cycle 0 */
static mem_dram *start(td_drv *t, const gpu_config *c)
{
    mem_dram *d = td_new(c);
    assert_non_null(d);
    td_init(t, d);
    return d;
}

/* Leave row `row` open in `bank` (one read), long enough ago that no
   activate-related constraint (tRAS, tRC, tRRD) still binds. */
static void open_row(td_drv *t, uint32_t bank, uint32_t row, uint32_t id)
{
    td_push(t, td_addr(bank, row, 0), MEM_READ, 32, id);
    td_drain(t, 1000);
    td_run_to(t, t->now + 200);
}

static void test_dram_closed_hit_conflict(void **state)
{
    (void)state;
    gpu_config c = td_cfg();
    td_drv *t = malloc(sizeof *t);
    mem_dram *d = start(t, &c);
    uint64_t bt = td_bt(&c);

    td_push(t, td_addr(0, 5, 0), MEM_READ, 32, 0);      /* bank closed */
    td_drain(t, 1000);
    assert_int_equal(t->done[0], c.tRCD + c.tCL + bt);

    td_run_to(t, 200);
    td_push(t, td_addr(0, 5, 1), MEM_READ, 32, 1);      /* row 5 open: hit */
    td_drain(t, 1000);
    assert_int_equal(t->done[1] - 200, c.tCL + bt);

    td_run_to(t, 400);
    td_push(t, td_addr(0, 6, 0), MEM_READ, 32, 2);      /* row 5 open: conflict */
    td_drain(t, 1000);
    assert_int_equal(t->done[2] - 400, c.tRP + c.tRCD + c.tCL + bt);

    /* the three latencies differ exactly by the row commands they need */
    assert_int_equal((t->done[0] - 0) - (t->done[1] - 200), c.tRCD);
    assert_int_equal((t->done[2] - 400) - (t->done[0] - 0), c.tRP);

    mem_dram_stats s;
    mem_dram_stats(d, &s);
    assert_int_equal(s.row_misses, 1);
    assert_int_equal(s.row_hits, 1);
    assert_int_equal(s.row_conflicts, 1);
    assert_int_equal(s.activates, 2);
    assert_int_equal(s.precharges, 1);
    assert_int_equal(s.col_cmds, 3);
    assert_int_equal(s.reads, 3);
    assert_int_equal(s.bytes, 96);
    assert_int_equal(s.bus_busy_cycles, 3 * bt);
    assert_int_equal(s.queue_lat_count, 3);
    assert_int_equal(s.queue_lat_sum, 0);              /* every first command at arrival */
    assert_int_equal(s.service_lat_sum, (t->done[0] - 0) + (t->done[1] - 200) + (t->done[2] - 400));
    mem_dram_free(d);
    free(t);
}

/* Different latencies configured -> different measured latencies. */
static void test_dram_latencies_follow_config(void **state)
{
    (void)state;
    for (uint32_t trcd = 5; trcd <= 25; trcd += 10) {
        gpu_config c = td_cfg();
        c.tRCD = trcd;
        c.tRP = trcd + 4;
        c.tCL = 20 - trcd / 5;
        td_drv *t = malloc(sizeof *t);
        mem_dram *d = start(t, &c);
        uint64_t bt = td_bt(&c);
        td_push(t, td_addr(3, 1, 0), MEM_READ, 32, 0);
        td_drain(t, 1000);
        td_run_to(t, 300);
        td_push(t, td_addr(3, 1, 2), MEM_READ, 32, 1);
        td_drain(t, 1000);
        td_run_to(t, 600);
        td_push(t, td_addr(3, 2, 2), MEM_READ, 32, 2);
        td_drain(t, 1000);
        assert_int_equal(t->done[0], c.tRCD + c.tCL + bt);
        assert_int_equal(t->done[1] - 300, c.tCL + bt);
        assert_int_equal(t->done[2] - 600, c.tRP + c.tRCD + c.tCL + bt);
        mem_dram_free(d);
        free(t);
    }
}

/* dram_latency (GPGPU-Sim -dram_latency, core cycles) delays every
   completion by that many core cycles in DRAM cycles, and nothing else:
   back-to-back row hits stay one burst apart. */
static void test_dram_extra_latency(void **state)
{
    (void)state;
    gpu_config c = td_cfg();
    c.core_mhz = 700;
    c.dram_mhz = 924;
    c.dram_latency = 100;                        /* 100 x 924 / 700 = 132 DRAM cycles */
    td_drv *t = malloc(sizeof *t);
    mem_dram *d = start(t, &c);
    uint64_t bt = td_bt(&c);
    td_push(t, td_addr(0, 5, 0), MEM_READ, 32, 0);
    td_push(t, td_addr(0, 5, 1), MEM_READ, 32, 1);
    td_drain(t, 1000);
    assert_int_equal(t->done[0], c.tRCD + c.tCL + bt + 132);
    assert_int_equal(t->done[1] - t->done[0], td_max(bt, c.tCCD));
    mem_dram_free(d);
    free(t);
}

/* A conflict right after an activate waits for tRAS before precharging. */
static void test_dram_tras(void **state)
{
    (void)state;
    gpu_config c = td_cfg();
    c.tRC = 1;                                  /* only tRAS binds */
    td_drv *t = malloc(sizeof *t);
    mem_dram *d = start(t, &c);
    uint64_t bt = td_bt(&c);
    td_push(t, td_addr(0, 1, 0), MEM_READ, 32, 0);
    td_push(t, td_addr(0, 2, 0), MEM_READ, 32, 1);
    td_drain(t, 1000);
    assert_int_equal(t->done[0], c.tRCD + c.tCL + bt);
    /* PRE at tRAS (> RD + tRTP), ACT at tRAS + tRP */
    assert_true(c.tRAS > c.tRCD + c.tRTP);
    assert_int_equal(t->done[1], c.tRAS + c.tRP + c.tRCD + c.tCL + bt);
    mem_dram_free(d);
    free(t);
}

/* Two activates of one bank are at least tRC apart. */
static void test_dram_trc(void **state)
{
    (void)state;
    gpu_config c = td_cfg();
    assert_true(c.tRC > c.tRAS + c.tRP);
    td_drv *t = malloc(sizeof *t);
    mem_dram *d = start(t, &c);
    uint64_t bt = td_bt(&c);
    td_push(t, td_addr(0, 1, 0), MEM_READ, 32, 0);
    td_push(t, td_addr(0, 2, 0), MEM_READ, 32, 1);
    td_drain(t, 1000);
    assert_int_equal(t->done[1], c.tRC + c.tRCD + c.tCL + bt);
    mem_dram_free(d);
    free(t);
}

/* Activates of two banks are at least tRRD apart; both banks then overlap. */
static void test_dram_trrd_and_bank_parallelism(void **state)
{
    (void)state;
    gpu_config c = td_cfg();
    td_drv *t = malloc(sizeof *t);
    mem_dram *d = start(t, &c);
    uint64_t bt = td_bt(&c);
    td_push(t, td_addr(0, 1, 0), MEM_READ, 32, 0);
    td_push(t, td_addr(1, 1, 0), MEM_READ, 32, 1);
    td_drain(t, 1000);
    assert_int_equal(t->done[0], c.tRCD + c.tCL + bt);
    assert_int_equal(t->done[1], c.tRRD + c.tRCD + c.tCL + bt);

    /* bank 0 busy [0, done0), bank 1 busy [tRRD, done1) */
    mem_dram_stats s;
    mem_dram_stats(d, &s);
    assert_int_equal(s.bank_busy_sum, t->done[0] + (t->done[1] - c.tRRD));
    assert_int_equal(s.any_bank_busy_cycles, t->done[1]);
    mem_dram_free(d);
    free(t);
}

/* Column commands to two banks: tCCD apart when tCCD exceeds the burst. */
static void test_dram_tccd(void **state)
{
    (void)state;
    gpu_config c = td_cfg();
    c.tCCD = 6;
    td_drv *t = malloc(sizeof *t);
    mem_dram *d = start(t, &c);
    uint64_t bt = td_bt(&c);
    assert_true(c.tCCD > bt);
    open_row(t, 0, 1, 100);
    open_row(t, 1, 1, 101);
    uint64_t T = t->now;
    td_push(t, td_addr(0, 1, 3), MEM_READ, 32, 0);
    td_push(t, td_addr(1, 1, 3), MEM_READ, 32, 1);
    td_drain(t, 1000);
    assert_int_equal(t->done[0] - T, c.tCL + bt);
    assert_int_equal(t->done[1] - T, c.tCCD + c.tCL + bt);
    mem_dram_free(d);
    free(t);
}

/* dram_bank_hold (fetch-dram spec §3 [R]): two hits to one open bank no
   longer overlap, the second starts when the first's data is done; hits
   in two banks still overlap. */
static void test_dram_bank_hold(void **state)
{
    (void)state;
    gpu_config c = td_cfg();
    c.dram_bank_hold = true;
    td_drv *t = malloc(sizeof *t);
    mem_dram *d = start(t, &c);
    uint64_t bt = td_bt(&c);
    open_row(t, 0, 1, 100);
    uint64_t T = t->now;
    td_push(t, td_addr(0, 1, 3), MEM_READ, 32, 0);
    td_push(t, td_addr(0, 1, 4), MEM_READ, 32, 1);
    td_drain(t, 1000);
    assert_int_equal(t->done[0] - T, c.tCL + bt);
    assert_int_equal(t->done[1] - T, 2 * (c.tCL + bt));
    open_row(t, 1, 1, 300);
    open_row(t, 2, 1, 301);
    T = t->now;
    td_push(t, td_addr(1, 1, 3), MEM_READ, 32, 2);
    td_push(t, td_addr(2, 1, 3), MEM_READ, 32, 3);
    td_drain(t, 1000);
    assert_int_equal(t->done[3] - T, td_max(c.tCCD, bt) + c.tCL + bt);
    mem_dram_free(d);
    free(t);
    /* without the hold the same-bank pair overlaps */
    c.dram_bank_hold = false;
    t = malloc(sizeof *t);
    d = start(t, &c);
    open_row(t, 0, 1, 100);
    T = t->now;
    td_push(t, td_addr(0, 1, 3), MEM_READ, 32, 0);
    td_push(t, td_addr(0, 1, 4), MEM_READ, 32, 1);
    td_drain(t, 1000);
    assert_true(t->done[1] - T < 2 * (c.tCL + bt));
    mem_dram_free(d);
    free(t);
}

/* When the burst is longer than tCCD the data bus spaces column commands:
   back-to-back hits, in two banks and in one bank, move data with no gap. */
static void test_dram_data_bus_back_to_back(void **state)
{
    (void)state;
    gpu_config c = td_cfg();
    td_drv *t = malloc(sizeof *t);
    mem_dram *d = start(t, &c);
    uint64_t bt = td_bt(&c);
    assert_true(bt > c.tCCD);
    open_row(t, 0, 1, 100);
    open_row(t, 1, 1, 101);
    uint64_t T = t->now;
    td_push(t, td_addr(0, 1, 3), MEM_READ, 32, 0);
    td_push(t, td_addr(1, 1, 3), MEM_READ, 32, 1);
    td_push(t, td_addr(0, 1, 4), MEM_READ, 32, 2);
    td_drain(t, 1000);
    assert_int_equal(t->done[0] - T, c.tCL + bt);
    assert_int_equal(t->done[1] - T, bt + c.tCL + bt);
    assert_int_equal(t->done[2] - T, 2 * bt + c.tCL + bt);
    mem_dram_free(d);
    free(t);
}

/* A 128-byte request is four 32-byte column commands, spaced by the bus. */
static void test_dram_multi_burst_request(void **state)
{
    (void)state;
    gpu_config c = td_cfg();
    td_drv *t = malloc(sizeof *t);
    mem_dram *d = start(t, &c);
    uint64_t bt = td_bt(&c);
    td_push(t, td_addr(2, 7, 0), MEM_READ, 128, 0);
    td_drain(t, 1000);
    assert_int_equal(t->done[0], c.tRCD + 3 * td_max(c.tCCD, bt) + c.tCL + bt);
    mem_dram_stats s;
    mem_dram_stats(d, &s);
    assert_int_equal(s.col_cmds, 4);
    assert_int_equal(s.bus_busy_cycles, 4 * bt);
    assert_int_equal(s.bytes, 128);
    mem_dram_free(d);
    free(t);
}

/* Bank groups: same group -> tCCDL apart, different groups -> tCCD. */
static void test_dram_tccdl_bank_groups(void **state)
{
    (void)state;
    gpu_config c = td_cfg();
    c.dram_bank_groups = 2;        /* bank b in group b mod 2 */
    c.dram_data_rate = 4;          /* burst time 2 < tCCD < tCCDL */
    c.tCCD = 3;
    c.tCCDL = 5;
    for (int same = 0; same <= 1; same++) {
        td_drv *t = malloc(sizeof *t);
        mem_dram *d = start(t, &c);
        uint32_t other = same ? 2 : 1;
        open_row(t, 0, 1, 100);
        open_row(t, other, 1, 101);
        uint64_t T = t->now;
        td_push(t, td_addr(0, 1, 3), MEM_READ, 32, 0);
        td_push(t, td_addr(other, 1, 3), MEM_READ, 32, 1);
        td_drain(t, 1000);
        assert_int_equal(t->done[0] - T, c.tCL + td_bt(&c));
        assert_int_equal(t->done[1] - T, (same ? c.tCCDL : c.tCCD) + c.tCL + td_bt(&c));
        mem_dram_free(d);
        free(t);
    }
}

/* Write then read: the read command waits tWTR after the write command. */
static void test_dram_twtr(void **state)
{
    (void)state;
    gpu_config c = td_cfg();
    td_drv *t = malloc(sizeof *t);
    mem_dram *d = start(t, &c);
    uint64_t bt = td_bt(&c);
    open_row(t, 0, 1, 100);
    open_row(t, 1, 1, 101);
    uint64_t T = t->now;
    td_push(t, td_addr(0, 1, 3), MEM_WRITE, 32, 0);
    td_push(t, td_addr(1, 1, 3), MEM_READ, 32, 1);
    td_drain(t, 1000);
    assert_int_equal(t->kind[0], MEM_WRITE);
    assert_int_equal(t->done[0] - T, c.tCL + bt);
    assert_true(c.tWTR > td_max(c.tCCD, bt));
    assert_int_equal(t->done[1] - T, c.tWTR + c.tCL + bt);
    mem_dram_free(d);
    free(t);
}

/* Read then write: the write waits tRTW after the read command. */
static void test_dram_trtw(void **state)
{
    (void)state;
    gpu_config c = td_cfg();
    td_drv *t = malloc(sizeof *t);
    mem_dram *d = start(t, &c);
    uint64_t bt = td_bt(&c);
    assert_true(c.tRTW > td_max(c.tCCD, bt));
    open_row(t, 0, 1, 100);
    open_row(t, 1, 1, 101);
    uint64_t T = t->now;
    td_push(t, td_addr(0, 1, 3), MEM_READ, 32, 0);
    td_push(t, td_addr(1, 1, 3), MEM_WRITE, 32, 1);
    td_drain(t, 1000);
    assert_int_equal(t->done[0] - T, c.tCL + bt);
    assert_int_equal(t->done[1] - T, c.tRTW + c.tCL + bt);
    mem_dram_free(d);
    free(t);
}

/* Bus turnaround: read, write, read to one open row take tRTW and then
   tWTR, later than three reads by exactly that much. */
static void test_dram_bus_turnaround(void **state)
{
    (void)state;
    gpu_config c = td_cfg();
    uint64_t bt = td_bt(&c), step = td_max(c.tCCD, bt);
    uint64_t last[2];
    for (int mixed = 0; mixed <= 1; mixed++) {
        td_drv *t = malloc(sizeof *t);
        mem_dram *d = start(t, &c);
        open_row(t, 0, 1, 100);
        uint64_t T = t->now;
        td_push(t, td_addr(0, 1, 3), MEM_READ, 32, 0);
        td_push(t, td_addr(0, 1, 4), mixed ? MEM_WRITE : MEM_READ, 32, 1);
        td_push(t, td_addr(0, 1, 5), MEM_READ, 32, 2);
        td_drain(t, 1000);
        last[mixed] = t->done[2] - T;
        if (mixed) {
            assert_int_equal(t->done[1] - T, c.tRTW + c.tCL + bt);
            assert_int_equal(last[1], c.tRTW + c.tWTR + c.tCL + bt);
        } else {
            assert_int_equal(last[0], 2 * step + c.tCL + bt);
        }
        mem_dram_free(d);
        free(t);
    }
    assert_int_equal(last[1] - last[0],
                     c.tRTW + c.tWTR - 2 * step);
}

/* A conflict after a write precharges only tWR after the write data. */
static void test_dram_twr(void **state)
{
    (void)state;
    gpu_config c = td_cfg();
    td_drv *t = malloc(sizeof *t);
    mem_dram *d = start(t, &c);
    uint64_t bt = td_bt(&c);
    open_row(t, 0, 1, 100);
    uint64_t T = t->now;
    td_push(t, td_addr(0, 1, 3), MEM_WRITE, 32, 0);
    td_push(t, td_addr(0, 2, 3), MEM_READ, 32, 1);
    td_drain(t, 1000);
    assert_int_equal(t->done[0] - T, c.tCL + bt);
    assert_int_equal(t->done[1] - T, c.tCL + bt + c.tWR + c.tRP + c.tRCD + c.tCL + bt);
    mem_dram_free(d);
    free(t);
}

/* A conflict after a read precharges tRTP after the read command. */
static void test_dram_trtp(void **state)
{
    (void)state;
    gpu_config c = td_cfg();
    td_drv *t = malloc(sizeof *t);
    mem_dram *d = start(t, &c);
    uint64_t bt = td_bt(&c);
    open_row(t, 0, 1, 100);
    uint64_t T = t->now;
    td_push(t, td_addr(0, 1, 3), MEM_READ, 32, 0);
    td_push(t, td_addr(0, 2, 3), MEM_READ, 32, 1);
    td_drain(t, 1000);
    assert_true(c.tRTP > 1);
    assert_int_equal(t->done[1] - T, c.tRTP + c.tRP + c.tRCD + c.tCL + bt);
    mem_dram_free(d);
    free(t);
}

/* Writes come back as acknowledgements carrying the request's fields. */
static void test_dram_write_ack_fields(void **state)
{
    (void)state;
    gpu_config c = td_cfg();
    mem_dram *d = td_new(&c);
    assert_non_null(d);
    mem_req r = td_req(td_addr(4, 9, 1), MEM_WRITE, 32, 77);
    r.sm = 3;
    r.src = MEM_SRC_L1D;
    r.sent = 1234;
    mem_dram_push(d, &r, 10);
    mem_req out;
    uint64_t done = 10 + c.tRCD + c.tCL + td_bt(&c), now = 10;
    for (; now < done; now++) {
        mem_dram_tick(d, now);
        assert_false(mem_dram_pop(d, now, &out));
    }
    mem_dram_tick(d, now);
    assert_true(mem_dram_pop(d, now, &out));
    assert_int_equal(out.kind, MEM_WRITE);
    assert_int_equal(out.id, 77);
    assert_int_equal(out.sm, 3);
    assert_int_equal(out.sent, 1234);
    assert_int_equal(out.addr, r.addr);
    assert_int_equal(mem_dram_pending(d), 0);
    assert_int_equal(mem_dram_next_event(d, now), UINT64_MAX);
    mem_dram_free(d);
}

static void test_dram_fixed_latency(void **state)
{
    (void)state;
    gpu_config c = td_cfg();
    c.dram_fixed_latency = 100;
    c.dram_queue = 2;
    mem_dram *d = td_new(&c);
    assert_non_null(d);
    mem_req r = td_req(td_addr(0, 1, 0), MEM_READ, 128, 1), out;
    assert_true(mem_dram_can_accept(d));
    mem_dram_push(d, &r, 5);
    r.id = 2;
    mem_dram_push(d, &r, 6);
    assert_false(mem_dram_can_accept(d));
    assert_int_equal(mem_dram_next_event(d, 6), 105);
    mem_dram_tick(d, 104);
    assert_false(mem_dram_pop(d, 104, &out));
    assert_true(mem_dram_pop(d, 105, &out));
    assert_int_equal(out.id, 1);
    assert_false(mem_dram_pop(d, 105, &out));
    assert_true(mem_dram_can_accept(d));
    assert_int_equal(mem_dram_next_event(d, 105), 106);
    assert_true(mem_dram_pop(d, 106, &out));
    assert_int_equal(out.id, 2);
    assert_int_equal(mem_dram_next_event(d, 106), UINT64_MAX);
    mem_dram_free(d);
}

static void test_dram_queue_bound_and_unlimited(void **state)
{
    (void)state;
    gpu_config c = td_cfg();
    c.dram_queue = 4;
    for (int unlimited = 0; unlimited <= 1; unlimited++) {
        c.unlimited_mem = unlimited;
        td_drv *t = malloc(sizeof *t);
        mem_dram *d = start(t, &c);
        uint32_t n = 0;
        while (mem_dram_can_accept(d) && n < 100) {
            td_push(t, td_addr(n % 8, n, 0), MEM_READ, 32, n);
            n++;
        }
        assert_int_equal(n, unlimited ? 100 : 4);
        assert_int_equal(mem_dram_pending(d), n);
        td_drain(t, 100000);
        assert_int_equal(t->ndone, n);
        assert_int_equal(mem_dram_pending(d), 0);
        mem_dram_free(d);
        free(t);
    }
}

/* Driving the controller only at mem_dram_next_event gives the same
   completion cycles and statistics as ticking every cycle. */
static void test_dram_next_event_skipping_exact(void **state)
{
    (void)state;
    gpu_config c = td_cfg();
    c.dram_queue = 8;
    enum { N = 400 };
    uint64_t done_every[N], done_skip[N];
    mem_dram_stats st[2];
    uint64_t ticks[2] = { 0, 0 };
    for (int skip = 0; skip <= 1; skip++) {
        mem_dram *d = td_new(&c);
        assert_non_null(d);
        uint64_t *done = skip ? done_skip : done_every;
        uint32_t lcg = 12345, sent = 0, got = 0;
        uint64_t next_arrival = 0;
        for (uint64_t now = 0; got < N && now < 1000000; ) {
            if (sent < N && now >= next_arrival && mem_dram_can_accept(d)) {
                lcg = lcg * 1103515245u + 12345u;
                uint32_t bank = (lcg >> 8) % 8, row = (lcg >> 12) % 3, col = (lcg >> 16) % 64;
                int kind = (lcg >> 24) % 4 == 0 ? MEM_WRITE : MEM_READ;
                mem_req r = td_req(td_addr(bank, row, col), kind, (lcg >> 28) % 2 ? 64 : 32, sent);
                mem_dram_push(d, &r, now);
                sent++;
                next_arrival = now + (lcg >> 20) % 12;
            }
            mem_dram_tick(d, now);
            ticks[skip]++;
            mem_req out;
            while (mem_dram_pop(d, now, &out))
                done[out.id] = now, got++;
            uint64_t nxt = now + 1;
            if (skip) {
                uint64_t ev = mem_dram_next_event(d, now + 1);
                if (sent < N) {
                    uint64_t a = next_arrival > now + 1 ? next_arrival : now + 1;
                    if (a < ev)
                        ev = a;
                }
                assert_true(ev != UINT64_MAX || got == N);
                nxt = ev == UINT64_MAX ? now + 1 : ev;
            }
            now = nxt;
        }
        assert_int_equal(got, N);
        mem_dram_stats(d, &st[skip]);
        mem_dram_free(d);
    }
    for (uint32_t i = 0; i < N; i++)
        assert_int_equal(done_every[i], done_skip[i]);
    assert_memory_equal(&st[0], &st[1], sizeof st[0]);
    assert_true(ticks[1] < ticks[0]);
    assert_int_equal(st[0].reads + st[0].writes, N);
    assert_int_equal(st[0].row_hits + st[0].row_misses + st[0].row_conflicts, N);
}

/* After a command that had no other candidate, the next tick that could do
   anything is the next command's cycle (here the column read tRCD after
   the activate), not the next cycle; with a beaten candidate it is the
   next cycle (that one may go then). */
static void test_dram_next_event_after_command(void **state)
{
    (void)state;
    gpu_config c = td_cfg();
    for (int two = 0; two <= 1; two++) {
        td_drv *t = malloc(sizeof *t);
        mem_dram *d = start(t, &c);
        td_push(t, td_addr(0, 5, 0), MEM_READ, 32, 0);
        if (two) td_push(t, td_addr(1, 5, 0), MEM_READ, 32, 1);
        td_step(t);                                  /* cycle 0: an activate */
        uint64_t want = two ? 1 : c.tRCD;
        assert_int_equal(mem_dram_next_event(d, 1), want);
        td_drain(t, 1000);                           /* and the same completions */
        assert_int_equal(t->done[0], c.tRCD + c.tCL + td_bt(&c));
        mem_dram_free(d);
        free(t);
    }
}

static void test_dram_stats_add(void **state)
{
    (void)state;
    mem_dram_stats a, b;
    memset(&a, 0, sizeof a);
    memset(&b, 0, sizeof b);
    a.row_hits = 3; a.bus_busy_cycles = 10; a.max_queue = 2;
    b.row_hits = 4; b.bus_busy_cycles = 5; b.service_lat_sum = 7;
    mem_dram_stats_add(&a, &b);
    assert_int_equal(a.row_hits, 7);
    assert_int_equal(a.bus_busy_cycles, 15);
    assert_int_equal(a.service_lat_sum, 7);
    assert_int_equal(a.max_queue, 2);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_dram_closed_hit_conflict),
        cmocka_unit_test(test_dram_latencies_follow_config),
        cmocka_unit_test(test_dram_extra_latency),
        cmocka_unit_test(test_dram_tras),
        cmocka_unit_test(test_dram_trc),
        cmocka_unit_test(test_dram_trrd_and_bank_parallelism),
        cmocka_unit_test(test_dram_tccd),
        cmocka_unit_test(test_dram_bank_hold),
        cmocka_unit_test(test_dram_data_bus_back_to_back),
        cmocka_unit_test(test_dram_multi_burst_request),
        cmocka_unit_test(test_dram_tccdl_bank_groups),
        cmocka_unit_test(test_dram_twtr),
        cmocka_unit_test(test_dram_trtw),
        cmocka_unit_test(test_dram_bus_turnaround),
        cmocka_unit_test(test_dram_twr),
        cmocka_unit_test(test_dram_trtp),
        cmocka_unit_test(test_dram_write_ack_fields),
        cmocka_unit_test(test_dram_fixed_latency),
        cmocka_unit_test(test_dram_queue_bound_and_unlimited),
        cmocka_unit_test(test_dram_next_event_skipping_exact),
        cmocka_unit_test(test_dram_next_event_after_command),
        cmocka_unit_test(test_dram_stats_add),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
