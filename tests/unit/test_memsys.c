/*
** test_memsys.c -- the full memory system (mem/memsys.c) on its own:
** one request through the port comes back after interconnect + L2 +
** DRAM, a second to the same line hits in L2 and is faster; routing
** spreads lines over every slice and keeps a slice inside its channel;
** clock domains tick at their own rates; idealised modes (perfect L2,
** fixed-latency DRAM); a refused send becomes visible to run_until when
** room frees; running ahead equals stepping; a span whose SM-visible
** part was done first (mem_sys_prepare, the replies read and the room
** checked before the rest runs) equals the span run in one piece;
** memory-side prefetches fill
** the L2 (and merge with demand); the `owl` prefetcher's lines go only to
** the slice of the controller that read them, and a later demand hits.
*/
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "gpu/config.h"
#include "mem/memsys.h"
#include "mem/addrmap.h"
#include "policy/policy.h"

static const ws_param_values no_params = { 0 };

static void cfg_full(gpu_config *c)
{
    gpu_config_defaults(c);
    snprintf(c->memory_model, sizeof c->memory_model, "full");
    c->core_mhz = c->icnt_mhz = c->l2_mhz = c->dram_mhz = 1000;
    c->n_mem = 2;
    c->n_sub_per_mem = 2;
    c->perfect_l2 = c->unlimited_mem = false;
    c->dram_fixed_latency = 0;
}

static mem_sys *make(const gpu_config *c, uint32_t nsm)
{
    char err[512];
    mem_sys *ms = mem_sys_new(c, nsm, ws_find_dram_sched(c->dram_scheduler), &no_params,
                              NULL, &no_params, (mem_warp_info){ 0 }, err, sizeof err);
    if (!ms) fail_msg("mem_sys_new: %s", err);
    return ms;
}

/* Step core cycles until a reply arrives; its cycle, or 0 on timeout. */
static uint64_t wait_reply(mem_sys *ms, uint64_t *cycle, mem_req *out)
{
    for (uint64_t end = *cycle + 100000; *cycle < end;) {
        if (mem_sys_recv(ms, *cycle, out)) return *cycle;
        ++*cycle;
        mem_sys_advance(ms, *cycle);
    }
    return 0;
}

static mem_req rd(uint64_t addr, uint16_t sm)
{
    return (mem_req){ .addr = addr, .bytes = 128, .kind = MEM_READ, .sm = sm, .id = 5 };
}

static void test_round_trip(void **state)
{
    (void)state;
    gpu_config c;
    cfg_full(&c);
    mem_sys *ms = make(&c, 2);
    mem_port p = mem_sys_port(ms, 1);
    mem_req r = rd(0x12300 & ~127ull, 1), got;
    uint64_t cyc = 10;
    mem_sys_advance(ms, cyc);
    assert_true(p.send(p.impl, &r, cyc));
    assert_int_equal(mem_sys_in_flight(ms), 1);
    mem_sys_advance(ms, ++cyc);
    uint64_t t1 = wait_reply(ms, &cyc, &got);
    assert_true(t1 > 0);
    assert_int_equal(got.id, 5);
    assert_int_equal(got.sm, 1);
    assert_int_equal(got.addr, r.addr);
    uint64_t miss_lat = t1 - 10;
    /* at least both networks, the L2 latency and a DRAM row miss */
    assert_true(miss_lat > 2 * c.icnt_latency + c.l2.hit_latency + c.tRCD + c.tCL);
    assert_int_equal(mem_sys_in_flight(ms), 0);
    /* same line again: an L2 hit, no DRAM */
    uint64_t t0 = cyc;
    assert_true(p.send(p.impl, &r, cyc));
    mem_sys_advance(ms, ++cyc);
    uint64_t t2 = wait_reply(ms, &cyc, &got);
    uint64_t hit_lat = t2 - t0;
    assert_true(hit_lat < miss_lat);
    assert_true(hit_lat >= c.l2.hit_latency + 2 * c.icnt_latency);
    gpu_mem_stats st;
    mem_sys_stats(ms, &st);
    assert_int_equal(st.l2.accesses, 2);
    assert_int_equal(st.l2.misses, 1);
    assert_int_equal(st.l2.hits, 1);
    assert_int_equal(st.dram_reads, 1);
    assert_int_equal(st.rt_count, 2);
    assert_int_equal(st.rt_sum, miss_lat + hit_lat);
    assert_int_equal(st.rt_max, miss_lat);
    uint64_t hist = 0;
    for (int b = 0; b < GPU_RT_BUCKETS; b++) hist += st.rt_hist[b];
    assert_int_equal(hist, 2);
    int b = 0;
    while ((2ull << b) <= miss_lat) b++;
    assert_true(st.rt_hist[b] >= 1);
    assert_int_equal(st.icnt_req_packets, 2);
    assert_int_equal(st.icnt_rep_packets, 2);
    /* a 128-byte reply is 5 flits of 32 bytes (8-byte header) */
    assert_int_equal(st.icnt_rep_flits, 2 * ((128 + 8 + c.icnt_flit_bytes - 1) / c.icnt_flit_bytes));
    assert_int_equal(st.n_slices, 4);
    assert_int_equal(st.n_channels, 2);
    mem_sys_free(ms);
}

/* consecutive lines land on every slice; a slice belongs to one channel */
static void test_routing(void **state)
{
    (void)state;
    gpu_config c;
    cfg_full(&c);
    c.n_mem = 6;
    mem_sys *ms = make(&c, 1);
    uint32_t hits[12] = { 0 };
    for (uint64_t a = 0; a < (1u << 20); a += 128) {
        uint32_t s = mem_sys_slice_of(ms, a);
        assert_true(s < 12);
        hits[s]++;
    }
    for (int s = 0; s < 12; s++) assert_true(hits[s] > 8192 / 12 / 2);
    mem_sys_free(ms);
}

/* writes are acknowledged; stats of the DRAM and L2 see them */
static void test_write_ack(void **state)
{
    (void)state;
    gpu_config c;
    cfg_full(&c);
    mem_sys *ms = make(&c, 1);
    mem_port p = mem_sys_port(ms, 0);
    mem_req w = { .addr = 0x4000, .bytes = 128, .kind = MEM_WRITE, .sm = 0 }, got;
    uint64_t cyc = 0;
    assert_true(p.send(p.impl, &w, cyc));
    mem_sys_advance(ms, ++cyc);
    assert_true(wait_reply(ms, &cyc, &got) > 0);
    assert_int_equal(got.kind, MEM_WRITE);
    gpu_mem_stats st;
    mem_sys_stats(ms, &st);
    assert_int_equal(st.rt_count, 0);        /* round trips are of reads and atomics */
    assert_int_equal(st.l2.accesses, 1);
    assert_int_equal(st.dram_reads, 0);      /* write-allocate without a fetch */
    mem_sys_free(ms);
}

/* every domain ticks at its own rate over any run */
static void test_clock_domains(void **state)
{
    (void)state;
    gpu_config c;
    cfg_full(&c);
    c.core_mhz = 700;
    c.icnt_mhz = 1400;
    c.l2_mhz = 350;
    c.dram_mhz = 924;
    mem_sys *ms = make(&c, 1);
    mem_port p = mem_sys_port(ms, 0);
    mem_req r = rd(0x80000, 0), got;
    uint64_t cyc = 0;
    assert_true(p.send(p.impl, &r, cyc));
    mem_sys_advance(ms, ++cyc);
    assert_true(wait_reply(ms, &cyc, &got) > 0);
    mem_sys_advance(ms, 7000);
    gpu_mem_stats st;
    mem_sys_stats(ms, &st);
    assert_int_equal(st.icnt_cycles, 14000);
    assert_int_equal(st.l2_cycles, 3500);
    assert_int_equal(st.dram_cycles, 9240);
    mem_sys_free(ms);
}

static uint64_t one_read_latency(const gpu_config *c, uint64_t addr)
{
    mem_sys *ms = make(c, 1);
    mem_port p = mem_sys_port(ms, 0);
    mem_req r = rd(addr, 0), got;
    uint64_t cyc = 0;
    assert_true(p.send(p.impl, &r, cyc));
    mem_sys_advance(ms, ++cyc);
    uint64_t t = wait_reply(ms, &cyc, &got);
    gpu_mem_stats st;
    mem_sys_stats(ms, &st);
    if (c->perfect_l2) assert_int_equal(st.dram_reads, 0);
    mem_sys_free(ms);
    return t;
}

static void test_ideal_modes(void **state)
{
    (void)state;
    gpu_config c;
    cfg_full(&c);
    uint64_t real = one_read_latency(&c, 0x777780);
    c.perfect_l2 = true;
    uint64_t perfect = one_read_latency(&c, 0x777780);
    c.perfect_l2 = false;
    c.dram_fixed_latency = 300;
    uint64_t fixed = one_read_latency(&c, 0x777780);
    assert_true(perfect > 0 && perfect < real);
    assert_true(fixed > real);
    assert_true(fixed - perfect >= 300);
}

/* a full input buffer refuses the SM; run_until stops when it frees */
static void test_refusal_visible(void **state)
{
    (void)state;
    gpu_config c;
    cfg_full(&c);
    c.icnt_in_buffer = 5;          /* one write packet */
    mem_sys *ms = make(&c, 1);
    mem_port p = mem_sys_port(ms, 0);
    mem_req w = { .addr = 0x4000, .bytes = 128, .kind = MEM_WRITE, .sm = 0 };
    uint64_t cyc = 0;
    assert_true(p.send(p.impl, &w, cyc));
    w.addr += 128;
    assert_false(p.send(p.impl, &w, cyc));     /* 10 flits do not fit in 5 */
    mem_lower low = mem_sys_lower(ms);
    assert_true(low.refusing(ms));
    uint64_t t = mem_sys_run_until(ms, 1, 1000);
    assert_true(t > 1 && t < 1000);
    assert_true(p.send(p.impl, &w, t));
    gpu_mem_stats st;
    mem_sys_stats(ms, &st);
    assert_int_equal(st.icnt_req_inject_stalls, 1);
    low.skipped(ms, 10, 2);
    mem_sys_stats(ms, &st);
    assert_int_equal(st.icnt_req_inject_stalls, 21);
    mem_sys_free(ms);
}

/* running ahead to the next visible event equals stepping cycle by cycle */
static void test_run_until_equals_stepping(void **state)
{
    (void)state;
    gpu_config c;
    cfg_full(&c);
    c.core_mhz = 700;
    c.dram_mhz = 924;
    c.icnt_mhz = 800;
    gpu_mem_stats st[2];
    uint64_t times[2][16];
    for (int mode = 0; mode < 2; mode++) {
        mem_sys *ms = make(&c, 2);
        uint64_t cyc = 0;
        for (uint32_t i = 0; i < 16; i++) {
            mem_port p = mem_sys_port(ms, i % 2);
            mem_req r = rd(0x100000 + (uint64_t)i * 4096 * 3, i % 2);
            assert_true(p.send(p.impl, &r, cyc));
        }
        mem_sys_advance(ms, ++cyc);
        uint32_t got = 0;
        while (got < 16 && cyc < 100000) {
            mem_req out;
            while (mem_sys_recv(ms, cyc, &out)) times[mode][got++] = cyc;
            cyc++;
            if (mode == 0) mem_sys_advance(ms, cyc);
            else cyc = mem_sys_run_until(ms, cyc, 20000);
        }
        assert_int_equal(got, 16);
        mem_sys_advance(ms, 20000);
        mem_sys_stats(ms, &st[mode]);
        mem_sys_free(ms);
    }
    assert_memory_equal(times[0], times[1], sizeof times[0]);
    assert_memory_equal(&st[0], &st[1], sizeof st[0]);
}

/* xorshift: the same traffic for both runs */
static uint64_t prep_rand(uint64_t *x)
{
    *x ^= *x << 13;
    *x ^= *x >> 7;
    *x ^= *x << 17;
    return *x;
}

/*
** One run of test_prepare_equals_advance: 4 SMs send reads and writes to
** 4096 lines over small buffers (refusals, eject stalls, L2 hits and
** misses; the L2 slices' small queues back up into the network).  With `prep` each span is prepared first and the SMs take
** their replies and read their room before the rest of it runs, as the
** parallel loop does; replies (cycle, SM, id) and room go to `log`.
*/
static uint32_t prep_run(const gpu_config *c, bool prep, uint64_t *log, uint32_t cap,
                         gpu_mem_stats *st, uint32_t *nprepped)
{
    mem_sys *ms = make(c, 4);
    uint64_t x = 0x9e3779b97f4a7c15ull;
    uint32_t n = 0, id = 0;
    *nprepped = 0;
    for (uint64_t cyc = 1; cyc < 6000; cyc++) {
        bool early = prep && mem_sys_prepare(ms, cyc);
        *nprepped += early;
        if (!early) mem_sys_advance(ms, cyc);
        mem_req out;
        while (mem_sys_recv(ms, cyc, &out) && n < cap)
            log[n++] = cyc << 24 | (uint64_t)out.sm << 16 | (out.id & 0xffff);
        for (uint32_t sm = 0; sm < 4 && n < cap; sm++) {
            mem_port p = mem_sys_port(ms, sm);
            log[n++] = cyc << 24 | 1u << 20 | sm << 16 | p.can_send(p.impl);
        }
        if (early) mem_sys_advance(ms, cyc);
        /* bursts: the networks drain to nothing between them */
        for (uint32_t sm = 0; sm < 4 && cyc < 5000 && cyc / 150 % 2 == 0; sm++) {
            uint64_t r = prep_rand(&x);
            if (r % 4 == 0) continue;
            mem_port p = mem_sys_port(ms, sm);
            mem_req q = { .addr = (r >> 8) % 4096 * 128, .bytes = 128, .sm = (uint16_t)sm,
                          .kind = r & 8 ? MEM_WRITE : MEM_READ, .id = id++ };
            p.send(p.impl, &q, cyc);
        }
    }
    mem_sys_stats(ms, st);
    mem_sys_free(ms);
    return n;
}

/* The SMs' part of a span done first, then the rest: the same as the span
   in one piece (replies, their cycles, room, every statistic). */
static void test_prepare_equals_advance(void **state)
{
    (void)state;
    gpu_config c;
    cfg_full(&c);
    c.core_mhz = 700;
    c.icnt_mhz = 700;
    c.l2_mhz = 650;
    c.dram_mhz = 924;
    c.icnt_in_buffer = 10;
    c.icnt_out_buffer = 10;
    c.icnt_latency = 2;
    c.l2_queue = 2;                 /* a full slice refuses the request network */
    enum { CAP = 60000 };
    uint64_t *log[2] = { calloc(CAP, 8), calloc(CAP, 8) };
    gpu_mem_stats st[2];
    uint32_t n[2], nprep[2];
    for (int m = 0; m < 2; m++) n[m] = prep_run(&c, m == 1, log[m], CAP, &st[m], &nprep[m]);
    assert_true(n[0] < CAP);
    assert_int_equal(n[0], n[1]);
    assert_memory_equal(log[0], log[1], n[0] * sizeof *log[0]);
    assert_memory_equal(&st[0], &st[1], sizeof st[0]);
    assert_int_equal(nprep[1], 5999);               /* every span was prepared */
    assert_true(st[0].icnt_req_inject_stalls > 0);  /* the traffic had back-pressure */
    assert_true(st[0].icnt_rep_eject_stalls + st[0].icnt_req_eject_stalls
                + st[0].icnt_req_credit_stalls > 0);
    /* an interconnect faster than the core: two edges in some spans */
    c.icnt_mhz = 1500;
    n[1] = prep_run(&c, true, log[1], CAP, &st[1], &nprep[1]);
    assert_true(nprep[1] < 5999);
    free(log[0]);
    free(log[1]);
}

static void test_stats_diff(void **state)
{
    (void)state;
    gpu_mem_stats a, b, d;
    memset(&a, 0, sizeof a);
    memset(&b, 0, sizeof b);
    a.l2.hits = 10; b.l2.hits = 4;
    a.rt_hist[3] = 7; b.rt_hist[3] = 2;
    a.rt_max = 99; b.rt_max = 120;
    a.n_slices = b.n_slices = 12;
    mem_sys_stats_diff(&d, &a, &b);
    assert_int_equal(d.l2.hits, 6);
    assert_int_equal(d.rt_hist[3], 5);
    assert_int_equal(d.rt_max, 99);
    assert_int_equal(d.n_slices, 12);
}

static void test_bad_config(void **state)
{
    (void)state;
    gpu_config c;
    cfg_full(&c);
    /* the scheduler's name is resolved by the configuration (one path,
       test_policy_registry); the memory system needs a scheduler */
    char err[512] = "";
    assert_null(mem_sys_new(&c, 1, NULL, &no_params, NULL, &no_params, (mem_warp_info){ 0 },
                            err, sizeof err));
    assert_non_null(strstr(err, "DRAM scheduler"));
    cfg_full(&c);
    snprintf(c.dram_addr_map, sizeof c.dram_addr_map, "XYZ");
    err[0] = '\0';
    assert_null(mem_sys_new(&c, 1, ws_find_dram_sched("frfcfs"), &no_params, NULL, &no_params,
                            (mem_warp_info){ 0 }, err, sizeof err));
    assert_true(err[0] != '\0');
}


/* ---- memory-side prefetching: a test prefetcher that, after a demand
   read of line l of a bank's open row, reads line l + 1 once ---- */

typedef struct nextline { int32_t want[64]; } nextline;

static void *nl_init(const ws_param_values *p, const ws_policy_env *env)
{
    (void)p; (void)env;
    nextline *n = malloc(sizeof *n);
    for (int i = 0; i < 64; i++) n->want[i] = -1;
    return n;
}
static void nl_destroy(void *st) { free(st); }
static void nl_event(void *st, const ws_dram_view *v, const ws_dram_event *e)
{
    nextline *n = st;
    if (e->kind == WS_DRAM_EV_READ && !e->prefetch && e->line + 1 < v->row_lines)
        n->want[e->bank % 64] = (int32_t)e->line + 1;
    if (e->kind == WS_DRAM_EV_ACTIVATE) {
        /* the bank view is current: the row just opened, its demand counted */
        assert_true(v->banks[e->bank].open);
        assert_int_equal(v->banks[e->bank].row, e->row);
        assert_true(v->banks[e->bank].demand >= 1);
        assert_true(v->banks[e->bank].demand_open_row >= 1);
    }
}
static int nl_prefetch(void *st, const ws_dram_view *v, uint32_t bank)
{
    nextline *n = st;
    assert_true(v->banks[bank].open);
    assert_int_equal(v->banks[bank].demand_open_row, 0);
    int l = n->want[bank % 64];
    n->want[bank % 64] = -1;
    return l;
}
static const ws_dram_prefetch_ops nextline_ops = {
    .name = "test-nextline", .init = nl_init, .destroy = nl_destroy, .on_event = nl_event,
    .prefetch = nl_prefetch,
};

static mem_sys *make_pf(const gpu_config *c)
{
    char err[512];
    mem_sys *ms = mem_sys_new(c, 1, ws_find_dram_sched("frfcfs"), &no_params, &nextline_ops,
                              &no_params, (mem_warp_info){ 0 }, err, sizeof err);
    if (!ms) fail_msg("mem_sys_new: %s", err);
    return ms;
}

/* The address of the line after `a`'s in the same DRAM row. */
static uint64_t next_in_row(const gpu_config *c, uint64_t a)
{
    mem_addrmap map;
    char err[256];
    assert_int_equal(mem_addrmap_parse(&map, c->dram_addr_map, c->n_mem, c->n_sub_per_mem,
                                       err, sizeof err), 0);
    mem_addr_loc loc;
    mem_addrmap_decode(&map, a, &loc);
    uint32_t sbits = map.bits[MEM_AF_BURST];
    uint64_t off = ((loc.col << sbits) | loc.col_byte) + c->l2.line_bytes;
    loc.col = off >> sbits;
    loc.col_byte = (uint32_t)(off & ((1u << sbits) - 1));
    uint64_t b = mem_addrmap_compose(&map, &loc);
    mem_addr_loc back;
    mem_addrmap_decode(&map, b, &back);
    assert_int_equal(back.bank, loc.bank);
    assert_int_equal(back.row, loc.row);
    assert_int_equal(back.channel, loc.channel);
    return b;
}

static void test_prefetch_fills_l2(void **state)
{
    (void)state;
    gpu_config c;
    cfg_full(&c);
    mem_sys *ms = make_pf(&c);
    mem_port p = mem_sys_port(ms, 0);
    uint64_t a = 0x700040000ull, b = next_in_row(&c, a), cyc = 10;   /* device heap */
    mem_req r = rd(a, 0), got;
    mem_sys_advance(ms, cyc);
    assert_true(p.send(p.impl, &r, cyc));
    mem_sys_advance(ms, ++cyc);
    assert_true(wait_reply(ms, &cyc, &got) > 0);
    for (uint64_t end = cyc + 3000; cyc < end;) mem_sys_advance(ms, ++cyc);
    gpu_mem_stats st;
    mem_sys_stats(ms, &st);
    assert_int_equal(st.dram_prefetch_reads, 1);
    assert_int_equal(st.l2_prefetch_fills, 1);
    assert_int_equal(st.dram_reads, 2);
    /* the next line is an L2 hit now: no DRAM read, the prefetch was useful */
    r = rd(b, 0);
    assert_true(p.send(p.impl, &r, cyc));
    mem_sys_advance(ms, ++cyc);
    assert_true(wait_reply(ms, &cyc, &got) > 0);
    assert_int_equal(got.addr, b);
    mem_sys_stats(ms, &st);
    assert_int_equal(st.dram_reads, 2);
    assert_int_equal(st.l2.hits, 1);
    assert_int_equal(st.l2_prefetch_hits, 1);
    mem_sys_free(ms);
}

static void test_prefetch_merges_demand(void **state)
{
    (void)state;
    gpu_config c;
    cfg_full(&c);
    mem_sys *ms = make_pf(&c);
    mem_port p = mem_sys_port(ms, 0);
    uint64_t a = 0x700040000ull, b = next_in_row(&c, a), cyc = 10;   /* device heap */
    mem_req r = rd(a, 0), got;
    mem_sys_advance(ms, cyc);
    assert_true(p.send(p.impl, &r, cyc));
    /* step until the prefetch is on its way and has not filled L2 yet */
    gpu_mem_stats st;
    do {
        mem_sys_advance(ms, ++cyc);
        mem_sys_stats(ms, &st);
        if (mem_sys_recv(ms, cyc, &got)) assert_int_equal(got.addr, a);
    } while (st.dram_prefetch_reads == 0 && cyc < 100000);
    assert_int_equal(st.l2_prefetch_fills, 0);
    r = rd(b, 0);
    assert_true(p.send(p.impl, &r, cyc));
    bool seen_b = false;
    for (uint64_t end = cyc + 5000; cyc < end && !seen_b;) {
        mem_sys_advance(ms, ++cyc);
        while (mem_sys_recv(ms, cyc, &got)) seen_b |= got.addr == b;
    }
    assert_true(seen_b);
    mem_sys_stats(ms, &st);
    assert_int_equal(st.l2_prefetch_merges, 1);    /* joined the prefetch in flight */
    assert_int_equal(st.dram_reads, 2);            /* A and the prefetch: B not read again */
    assert_int_equal(st.l2_prefetch_fills, 1);
    mem_sys_free(ms);
}

/* ---- the `owl` prefetcher in the memory system: its lines go to the L2
   slice of the controller that read them, nowhere else, and a later
   demand hits there (OWL spec Sec. 8 item 5) ---- */

/* Line `l` of the DRAM row `a` lies in, its channel into *ch. */
static uint64_t line_in_row(const gpu_config *c, uint64_t a, uint32_t l, uint32_t *ch)
{
    mem_addrmap map;
    char err[256];
    assert_int_equal(mem_addrmap_parse(&map, c->dram_addr_map, c->n_mem, c->n_sub_per_mem,
                                       err, sizeof err), 0);
    mem_addr_loc loc;
    mem_addrmap_decode(&map, a, &loc);
    uint32_t sbits = map.bits[MEM_AF_BURST];
    uint64_t off = (uint64_t)l * c->l2.line_bytes;
    loc.col = off >> sbits;
    loc.col_byte = (uint32_t)(off & ((1u << sbits) - 1));
    *ch = loc.channel;
    return mem_addrmap_compose(&map, &loc);
}

static void test_owl_prefetch_local_slice(void **state)
{
    (void)state;
    gpu_config c;
    cfg_full(&c);
    const ws_dram_prefetch_ops *owl = ws_registry_find(NULL, WS_KIND_DRAM_PREFETCH, "owl");
    assert_non_null(owl);
    ws_param_values pv;
    char err[512];
    assert_int_equal(ws_params_parse("owl", owl->params, "", &pv, err, sizeof err), 0);
    mem_sys *ms = mem_sys_new(&c, 1, ws_find_dram_sched("frfcfs"), &no_params, owl, &pv,
                              (mem_warp_info){ 0 }, err, sizeof err);
    if (!ms) fail_msg("mem_sys_new: %s", err);
    mem_port p = mem_sys_port(ms, 0);
    uint64_t a = 0x700040000ull, cyc = 10;          /* device heap */
    mem_req r = rd(a, 0), got;
    mem_sys_advance(ms, cyc);
    assert_true(p.send(p.impl, &r, cyc));
    mem_sys_advance(ms, ++cyc);
    assert_true(wait_reply(ms, &cyc, &got) > 0);
    for (uint64_t end = cyc + 3000; cyc < end;) mem_sys_advance(ms, ++cyc);
    assert_false(mem_sys_recv(ms, cyc, &got));     /* nothing sent to a core */
    gpu_mem_stats st;
    mem_sys_stats(ms, &st);
    /* the queue held one request briefly: its average stays below 1, so
       C = pf_lower = 8 lines, each filled into the L2 */
    assert_int_equal(st.dram_prefetch_reads, 8);
    assert_int_equal(st.l2_prefetch_fills, 8);
    assert_int_equal(st.icnt_rep_packets, 1);
    /* every line of the row: where it is held */
    uint32_t ch_a, ch, held = 0, nsub = c.n_sub_per_mem;
    line_in_row(&c, a, 0, &ch_a);
    uint64_t pf_line = 0;
    for (uint32_t l = 0; l < 2048 / c.l2.line_bytes; l++) {
        uint64_t x = line_in_row(&c, a, l, &ch);
        assert_int_equal(ch, ch_a);
        uint32_t home = mem_sys_slice_of(ms, x);
        assert_int_equal(home / nsub, ch_a);        /* a slice of this controller */
        for (uint32_t s = 0; s < mem_sys_n_slices(ms); s++)
            if (s != home) assert_false(mem_sys_l2_holds(ms, s, x));
        if (mem_sys_l2_holds(ms, home, x)) {
            held++;
            if (x / c.l2.line_bytes != a / c.l2.line_bytes) pf_line = x;
        }
    }
    assert_int_equal(held, 1 + 8);                  /* the demand's line and C lines */
    assert_true(pf_line != 0);
    /* a demand for a prefetched line hits in its slice: no DRAM read */
    r = rd(pf_line, 0);
    assert_true(p.send(p.impl, &r, cyc));
    mem_sys_advance(ms, ++cyc);
    assert_true(wait_reply(ms, &cyc, &got) > 0);
    assert_int_equal(got.addr, pf_line);
    gpu_mem_stats st2;
    mem_sys_stats(ms, &st2);
    assert_int_equal(st2.dram_reads, st.dram_reads);
    assert_int_equal(st2.l2.hits, st.l2.hits + 1);
    assert_int_equal(st2.l2_prefetch_hits, 1);
    mem_sys_free(ms);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_round_trip),
        cmocka_unit_test(test_routing),
        cmocka_unit_test(test_write_ack),
        cmocka_unit_test(test_clock_domains),
        cmocka_unit_test(test_ideal_modes),
        cmocka_unit_test(test_refusal_visible),
        cmocka_unit_test(test_run_until_equals_stepping),
        cmocka_unit_test(test_prepare_equals_advance),
        cmocka_unit_test(test_stats_diff),
        cmocka_unit_test(test_bad_config),
        cmocka_unit_test(test_prefetch_fills_l2),
        cmocka_unit_test(test_prefetch_merges_demand),
        cmocka_unit_test(test_owl_prefetch_local_slice),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
