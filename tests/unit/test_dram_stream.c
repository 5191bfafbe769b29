/*
** test_dram_stream.c -- bandwidth at the unit level: a streaming pattern of
** line reads through one controller keeps the data bus >= 85% busy under
** the open-page policy (GTX480-like GDDR5 timing and address map), and
** FR-FCFS beats FCFS on row hits and time for two interleaved streams
** that fight over the same banks.
*/
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <cmocka.h>

#include "test_dram_harness.h"
#include "gpu/config.h"
#include "mem/addrmap.h"

/* GDDR5 as GPGPU-Sim's GTX480 configuration describes it: 16 banks in 4
   groups, 4-byte bus, burst 8 at 4 beats per command clock (burst time 2),
   CCD=2 RRD=6 RCD=12 RAS=28 RP=12 RC=40 CL=12 WR=12 CCDL=3 RTPL=2 CDLR=5. */
static gpu_config gddr5_cfg(const char *sched)
{
    gpu_config c = td_cfg();
    c.dram_banks = 16;
    c.dram_bank_groups = 4;
    c.dram_queue = 16;
    c.dram_bus_bytes = 4;
    c.dram_burst = 8;
    c.dram_data_rate = 4;
    c.tCCD = 2;  c.tRRD = 6; c.tRCD = 12; c.tRAS = 28; c.tRP = 12; c.tRC = 40;
    c.tCL = 12;  c.tWR = 12; c.tCCDL = 3; c.tRTP = 2;  c.tWTR = 5; c.tRTW = 8;
    strcpy(c.dram_addr_map, MEM_ADDRMAP_DEFAULT);    /* one channel: compact = addr */
    strcpy(c.dram_scheduler, sched);
    return c;
}

/* Feed `n` 128-byte reads from addr(i) as fast as the queue takes them;
   return the cycle the last one came back. */
static uint64_t run_stream(mem_dram *d, uint32_t n, uint64_t (*addr)(uint32_t))
{
    uint32_t sent = 0, got = 0;
    uint64_t now = 0;
    while (got < n && now < 10000000) {
        while (sent < n && mem_dram_can_accept(d)) {
            mem_req r = td_req(addr(sent), MEM_READ, 128, sent);
            mem_dram_push(d, &r, now);
            sent++;
        }
        mem_dram_tick(d, now);
        mem_req out;
        while (mem_dram_pop(d, now, &out))
            got++;
        if (got < n)
            now++;
    }
    assert_int_equal(got, n);
    return now + 1;
}

static uint64_t seq_addr(uint32_t i) { return (uint64_t)i * 128; }

static void test_dram_stream_bandwidth(void **state)
{
    (void)state;
    gpu_config c = gddr5_cfg("frfcfs");
    mem_dram *d = td_new(&c);
    assert_non_null(d);
    enum { N = 4096 };                                /* 512 KB */
    uint64_t cycles = run_stream(d, N, seq_addr);
    mem_dram_stats s;
    mem_dram_stats(d, &s);
    uint64_t peak = mem_dram_peak_bytes_per_cycle(&c);
    assert_int_equal(peak, 16);
    double util = (double)s.bytes / ((double)cycles * (double)peak);
    double bus = (double)s.bus_busy_cycles / (double)cycles;
    print_message("stream: %u x 128 B in %llu DRAM cycles: %.1f%% of peak "
                  "(bus busy %.1f%%), row hits %llu, misses %llu, conflicts %llu, BLP %.2f\n",
                  N, (unsigned long long)cycles, 100 * util, 100 * bus,
                  (unsigned long long)s.row_hits, (unsigned long long)s.row_misses,
                  (unsigned long long)s.row_conflicts,
                  (double)s.bank_busy_sum / (double)s.any_bank_busy_cycles);
    assert_int_equal(s.bytes, (uint64_t)N * 128);
    assert_true(util >= 0.85);
    assert_true(bus >= 0.85 && bus <= 1.0);
    assert_true(s.row_hits > 10 * (s.row_misses + s.row_conflicts));
    mem_dram_free(d);
}

/* Channel 0's share of a sequential stream over 6 channels (dramid@8):
   256-byte chunks 0, 6, 12, ... */
static uint64_t ch0_addr(uint32_t i)
{
    return (uint64_t)(i / 2) * 6 * 256 + (i % 2) * 128;
}

/* The same with the gtx480 preset exactly as configured (whatever its
   bus, burst, queue and timing values are): >= 85% of its peak. */
static void test_dram_stream_bandwidth_gtx480_preset(void **state)
{
    (void)state;
    gpu_config c;
    char warn[256], err[256];
    const char *set[] = { "memory_model=full", NULL };
    assert_int_equal(gpu_config_build(&c, "gtx480", set, warn, sizeof warn, err, sizeof err), 0);
    mem_dram *d = td_new(&c);
    assert_non_null(d);
    enum { N = 4096 };
    uint64_t cycles = run_stream(d, N, ch0_addr);
    mem_dram_stats s;
    mem_dram_stats(d, &s);
    double util = (double)s.bytes / ((double)cycles * mem_dram_peak_bytes_per_cycle(&c));
    print_message("gtx480 channel 0: %u x 128 B in %llu DRAM cycles: %.1f%% of peak %u B/cycle\n",
                  N, (unsigned long long)cycles, 100 * util, mem_dram_peak_bytes_per_cycle(&c));
    assert_true(util >= 0.85);
    mem_dram_free(d);
}

/* Two streams 64 KB apart: same banks, different rows, interleaved
   request by request. */
static uint64_t two_stream_addr(uint32_t i)
{
    return (uint64_t)(i / 2) * 128 + (i % 2 ? 0x10000u * 3 : 0);
}

static void test_dram_frfcfs_beats_fcfs_on_conflicting_streams(void **state)
{
    (void)state;
    enum { N = 2048 };
    uint64_t cycles[2];
    mem_dram_stats s[2];
    const char *names[2] = { "frfcfs", "fcfs" };
    for (int i = 0; i < 2; i++) {
        gpu_config c = gddr5_cfg(names[i]);
        mem_dram *d = td_new(&c);
        assert_non_null(d);
        cycles[i] = run_stream(d, N, two_stream_addr);
        mem_dram_stats(d, &s[i]);
        mem_dram_free(d);
    }
    print_message("two streams: frfcfs %llu cycles, %llu hits; fcfs %llu cycles, %llu hits\n",
                  (unsigned long long)cycles[0], (unsigned long long)s[0].row_hits,
                  (unsigned long long)cycles[1], (unsigned long long)s[1].row_hits);
    assert_true(s[0].row_hits > s[1].row_hits);
    assert_true(cycles[0] < cycles[1]);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_dram_stream_bandwidth),
        cmocka_unit_test(test_dram_stream_bandwidth_gtx480_preset),
        cmocka_unit_test(test_dram_frfcfs_beats_fcfs_on_conflicting_streams),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
