/*
** test_dram_prefetch.c -- what a DRAM controller shows its policies and
** how it serves a memory-side prefetcher (mem/dram.c, dram_prefetch):
** the bank view after activates and precharges (open row, demand and
** demand to the open row, last activate), row_lines and queue occupancy
** seen by the scheduler without a prefetcher, a prefetch read offered only
** once the open row has no demand left and issued under the same column
** and data-bus timing as a demand read, and an L2 that refuses a line
** (present, pending, no MSHR) costing no DRAM command; a prefetcher's
** hold keeps the row open against a row-conflict precharge until its
** lines are read; the view's queue-occupancy average is the per-cycle EMA.
*/
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <cmocka.h>

#include "test_dram_harness.h"

/* ---- a test prefetcher: the lowest line of the open row not yet read
   or written since the activate, at most `limit` per activation; it
   records what it saw ---- */

#define TP_MAXEV 64

typedef struct tp_state {
    uint64_t sent[8];            /* per bank: lines read or written (bit set) */
    uint32_t issued[8];          /* prefetches named this activation */
    uint32_t limit;
    uint32_t nev;
    ws_dram_event ev[TP_MAXEV];
    ws_dram_bank_view bank_at[TP_MAXEV][8];   /* every bank, at each event */
    ws_dram_view view_at[TP_MAXEV];
    uint32_t ncalls;
    uint64_t first_call;         /* DRAM cycle of the first prefetch() */
    /* the sink */
    bool     accept;
    uint32_t nres;
    uint64_t res_addr[TP_MAXEV];
} tp_state;

static void tp_event(void *st, const ws_dram_view *v, const ws_dram_event *e)
{
    tp_state *p = st;
    if (e->kind == WS_DRAM_EV_ACTIVATE) {
        p->sent[e->bank] = 0;
        p->issued[e->bank] = 0;
    }
    if (e->kind == WS_DRAM_EV_READ || e->kind == WS_DRAM_EV_WRITE)
        p->sent[e->bank] |= 1ull << e->line;
    if (p->nev < TP_MAXEV) {
        p->ev[p->nev] = *e;
        p->view_at[p->nev] = *v;
        for (uint32_t b = 0; b < v->nbanks && b < 8; b++) p->bank_at[p->nev][b] = v->banks[b];
        p->nev++;
    }
}

static int tp_prefetch(void *st, const ws_dram_view *v, uint32_t bank)
{
    tp_state *p = st;
    if (p->ncalls++ == 0) p->first_call = v->cycle;
    /* the contract: offered only with the row open and no demand to it */
    assert_true(v->banks[bank].open);
    assert_int_equal(v->banks[bank].demand_open_row, 0);
    if (p->issued[bank] >= p->limit) return -1;
    for (uint32_t l = 0; l < v->row_lines && l < 64; l++)
        if (!(p->sent[bank] >> l & 1)) {
            p->sent[bank] |= 1ull << l;
            p->issued[bank]++;
            return (int)l;
        }
    return -1;
}

static const ws_dram_prefetch_ops tp_ops = {
    .name = "test-next-unsent", .on_event = tp_event, .prefetch = tp_prefetch,
};

/* The L2 side: accept (as request id 1000 + n) or refuse every line. */
static bool tp_reserve(void *ctx, uint64_t addr, mem_req *out)
{
    tp_state *p = ctx;
    if (!p->accept) {
        p->nres++;
        return false;
    }
    uint32_t n = p->nres++;
    if (n < TP_MAXEV) p->res_addr[n] = addr;
    *out = td_req(addr, MEM_READ, 32, 1000 + n);
    return true;
}

/* A controller on the harness's machine with L2 lines of `line` bytes
   (rows are 2 KB) and the test prefetcher (`p` NULL: none). */
static mem_dram *tp_start(td_drv *t, gpu_config *c, uint32_t line, tp_state *p)
{
    c->l2.line_bytes = line;
    mem_dram *d = td_new(c);
    assert_non_null(d);
    td_init(t, d);
    if (p)
        mem_dram_set_prefetch(d, &tp_ops, p,
                              (mem_prefetch_sink){ .ctx = p, .reserve = tp_reserve });
    return d;
}

static const ws_dram_event *find_ev(const tp_state *p, int kind, uint32_t bank, uint32_t nth,
                                    uint32_t *at)
{
    for (uint32_t i = 0; i < p->nev; i++)
        if (p->ev[i].kind == kind && p->ev[i].bank == bank && nth-- == 0) {
            *at = i;
            return &p->ev[i];
        }
    fail_msg("no event %d on bank %u", kind, bank);
    return NULL;
}

/* (c) After an activate the view shows the open row, the bank's demand
   (queued + committed) and how much of it is to the open row; a precharge
   closes it; served requests leave the counts. */
static void test_dram_bank_view_activate(void **state)
{
    (void)state;
    gpu_config c = td_cfg();
    td_drv *t = malloc(sizeof *t);
    tp_state *p = calloc(1, sizeof *p);          /* limit 0: never prefetches */
    mem_dram *d = tp_start(t, &c, 64, p);
    td_push(t, td_addr(2, 5, 0), MEM_READ, 32, 0);
    td_push(t, td_addr(2, 5, 4), MEM_READ, 32, 1);
    td_push(t, td_addr(2, 6, 0), MEM_READ, 32, 2);
    td_push(t, td_addr(3, 1, 0), MEM_READ, 32, 3);
    td_drain(t, 2000);
    assert_int_equal(t->ndone, 4);

    uint32_t i;
    const ws_dram_event *e = find_ev(p, WS_DRAM_EV_ACTIVATE, 2, 0, &i);
    assert_int_equal(e->row, 5);
    const ws_dram_bank_view *b2 = &p->bank_at[i][2];
    assert_true(b2->open);
    assert_int_equal(b2->row, 5);
    assert_int_equal(b2->demand, 3);
    assert_int_equal(b2->demand_open_row, 2);
    assert_int_equal(b2->last_activate, 0);
    assert_false(p->bank_at[i][3].open);
    assert_int_equal(p->bank_at[i][3].demand, 1);
    assert_int_equal(p->bank_at[i][3].demand_open_row, 0);
    assert_int_equal(p->view_at[i].nbanks, 8);
    assert_int_equal(p->view_at[i].queue_used, 4);
    assert_int_equal(p->view_at[i].queue_size, 32);
    assert_int_equal(p->view_at[i].row_lines, 2048 / 64);

    e = find_ev(p, WS_DRAM_EV_ACTIVATE, 3, 0, &i);    /* tRRD later */
    assert_int_equal(p->bank_at[i][3].last_activate, c.tRRD);
    assert_int_equal(p->bank_at[i][3].demand_open_row, 1);
    assert_int_equal(p->bank_at[i][2].demand, 3);     /* nothing served yet */

    /* row 6 needs a precharge: by then both row-5 reads were served */
    e = find_ev(p, WS_DRAM_EV_PRECHARGE, 2, 0, &i);
    assert_int_equal(e->row, 5);
    assert_false(p->bank_at[i][2].open);
    assert_int_equal(p->bank_at[i][2].demand, 1);
    assert_int_equal(p->bank_at[i][2].demand_open_row, 0);
    e = find_ev(p, WS_DRAM_EV_ACTIVATE, 2, 1, &i);
    assert_int_equal(e->row, 6);
    assert_int_equal(p->bank_at[i][2].demand_open_row, 1);
    assert_true(p->bank_at[i][3].open);               /* bank 3 done: row stays open */
    assert_int_equal(p->bank_at[i][3].demand, 0);
    assert_int_equal(p->bank_at[i][3].demand_open_row, 0);

    /* the demand reads name their line within the row (64-byte lines) */
    e = find_ev(p, WS_DRAM_EV_READ, 2, 1, &i);
    assert_int_equal(e->line, 4 * 32 / 64);
    assert_false(e->prefetch);
    assert_int_equal(p->nres, 0);
    mem_dram_free(d);
    free(p);
    free(t);
}

/* The DRAM scheduler sees the banks and the row geometry without any
   prefetcher configured. */
typedef struct seen_view { uint32_t row_lines, nbanks, queue_used, demand; bool banks; } seen_view;

static int sv_pick(void *st, const ws_dram_view *v)
{
    seen_view *s = st;
    *s = (seen_view){ .row_lines = v->row_lines, .nbanks = v->nbanks,
                      .queue_used = v->queue_used, .banks = v->banks != NULL,
                      .demand = v->banks ? v->banks[v->reqs[0].bank].demand : 0 };
    return 0;
}
static const ws_dram_sched_ops sv_ops = { .name = "test-seen", .pick = sv_pick };

static void test_dram_view_without_prefetcher(void **state)
{
    (void)state;
    gpu_config c = td_cfg();
    c.l2.line_bytes = 128;
    seen_view seen = { 0 };
    mem_dram *d = mem_dram_new(&c, 0, &sv_ops, &seen, (mem_warp_info){ 0 });
    assert_non_null(d);
    td_drv *t = malloc(sizeof *t);
    td_init(t, d);
    td_push(t, td_addr(1, 3, 0), MEM_READ, 32, 0);
    td_push(t, td_addr(1, 3, 1), MEM_READ, 32, 1);
    td_run_to(t, 1);
    assert_int_equal(seen.row_lines, 2048 / 128);
    assert_int_equal(seen.nbanks, 8);
    assert_true(seen.banks);
    assert_int_equal(seen.queue_used, 2);
    assert_int_equal(seen.demand, 2);
    td_drain(t, 1000);
    assert_int_equal(t->ndone, 2);
    mem_dram_free(d);
    free(t);
}

/* A prefetch read waits until the open row's demand is served, then
   issues at the first cycle a demand read could (tCCD, data bus), and a
   later demand read waits for it the same way. */
static void prefetch_read_timing(uint32_t tccd)
{
    gpu_config c = td_cfg();
    c.tCCD = tccd;
    td_drv *t = malloc(sizeof *t);
    tp_state *p = calloc(1, sizeof *p);
    p->limit = 1;
    p->accept = true;
    mem_dram *d = tp_start(t, &c, 32, p);           /* one column per line */
    uint64_t bt = td_bt(&c);
    const uint64_t high = 0x7ull << 32;               /* above the map: kept */
    td_push(t, high | td_addr(0, 5, 0), MEM_READ, 32, 0);
    /* demand column at tRCD; the prefetch column when both tCCD and the
       data bus allow it */
    uint64_t demand_col = c.tRCD, demand_end = demand_col + c.tCL + bt;
    uint64_t pf_col = td_max(demand_col + c.tCCD, demand_end - c.tCL);
    td_run_to(t, pf_col + 1);
    assert_int_equal(p->first_call, pf_col);
    assert_int_equal(p->nres, 1);
    assert_int_equal(p->res_addr[0], high | td_addr(0, 5, 1));   /* line 1 of row 5 */
    uint32_t i;
    const ws_dram_event *e = find_ev(p, WS_DRAM_EV_READ, 0, 1, &i);
    assert_true(e->prefetch);
    assert_int_equal(e->line, 1);
    assert_int_equal(e->row, 5);

    /* a demand row hit arriving now waits behind the prefetch */
    td_push(t, td_addr(0, 5, 2), MEM_READ, 32, 1);
    td_drain(t, 1000);
    assert_int_equal(t->done[0], demand_end);
    uint64_t pf_end = pf_col + c.tCL + bt;
    assert_int_equal(t->done[1000], pf_end);
    uint64_t col2 = td_max(pf_col + c.tCCD, pf_end - c.tCL);
    assert_int_equal(t->done[1], col2 + c.tCL + bt);

    mem_dram_stats s;
    mem_dram_stats(d, &s);
    assert_int_equal(s.prefetch_reads, 1);
    assert_int_equal(s.col_cmds, 3);
    assert_int_equal(s.reads, 3);                    /* the prefetch data came back */
    assert_int_equal(s.queue_lat_count, 2);          /* no demand-queue entry */
    assert_int_equal(s.service_lat_sum, demand_end + (t->done[1] - (pf_col + 1)));
    assert_int_equal(s.row_hits, 1);
    mem_dram_free(d);
    free(p);
    free(t);
}

static void test_dram_prefetch_read_timing(void **state)
{
    (void)state;
    prefetch_read_timing(3);     /* the data bus binds (burst time 4) */
    prefetch_read_timing(7);     /* tCCD binds */
}

/* The L2 refuses every line (present, pending or out of MSHRs): the
   prefetcher walks the row, and no DRAM command or data results. */
static void test_dram_prefetch_refused(void **state)
{
    (void)state;
    gpu_config c = td_cfg();
    td_drv *t = malloc(sizeof *t);
    tp_state *p = calloc(1, sizeof *p);
    p->limit = 1000;
    p->accept = false;
    mem_dram *d = tp_start(t, &c, 64, p);
    td_push(t, td_addr(4, 9, 0), MEM_READ, 32, 0);
    td_drain(t, 1000);
    td_run_to(t, t->now + 200);
    assert_int_equal(t->ndone, 1);
    assert_int_equal(p->nres, 2048 / 64 - 1);        /* every other line asked for */
    assert_int_equal(mem_dram_pending(d), 0);
    assert_int_equal(mem_dram_next_event(d, t->now), UINT64_MAX);   /* done: idle */
    mem_dram_stats s;
    mem_dram_stats(d, &s);
    assert_int_equal(s.prefetch_reads, 0);
    assert_int_equal(s.col_cmds, 1);
    assert_int_equal(s.reads, 1);
    mem_dram_free(d);
    free(p);
    free(t);
}

/* ---- ws_dram_prefetch_ops.hold: a prefetcher that keeps the row open
   until it has named `limit` lines of it ---- */

static bool tp_hold(void *st, const ws_dram_view *v, uint32_t bank)
{
    tp_state *p = st;
    (void)v;
    return p->issued[bank] < p->limit;
}

static const ws_dram_prefetch_ops tp_hold_ops = {
    .name = "test-hold", .on_event = tp_event, .prefetch = tp_prefetch, .hold = tp_hold,
};

/* Row 5 of bank 0 is read, a demand to row 6 of the same bank waits: a
   holding prefetcher reads its `limit` lines of row 5 before the
   precharge; one without hold loses the row to the precharge first. */
static uint32_t pf_reads_before_pre(bool hold, uint32_t limit)
{
    gpu_config c = td_cfg();
    c.l2.line_bytes = 32;
    c.tRTP = 2;          /* below the 4-cycle burst: prefetch reads leave room for PRE */
    td_drv *t = malloc(sizeof *t);
    tp_state *p = calloc(1, sizeof *p);
    p->limit = limit;
    p->accept = true;
    mem_dram *d = td_new(&c);
    assert_non_null(d);
    td_init(t, d);
    mem_dram_set_prefetch(d, hold ? &tp_hold_ops : &tp_ops, p,
                          (mem_prefetch_sink){ .ctx = p, .reserve = tp_reserve });
    td_push(t, td_addr(0, 5, 0), MEM_READ, 32, 0);
    td_push(t, td_addr(0, 6, 0), MEM_READ, 32, 1);
    td_drain(t, 5000);
    assert_int_equal(t->ndone, 2 + p->nres);
    uint32_t i, n = 0;
    find_ev(p, WS_DRAM_EV_PRECHARGE, 0, 0, &i);
    for (uint32_t k = 0; k < i; k++) n += p->ev[k].kind == WS_DRAM_EV_READ && p->ev[k].prefetch;
    find_ev(p, WS_DRAM_EV_ACTIVATE, 0, 1, &i);
    assert_int_equal(p->ev[i].row, 6);             /* the waiting demand got its row */
    mem_dram_free(d);
    free(p);
    free(t);
    return n;
}

static void test_dram_prefetch_hold(void **state)
{
    (void)state;
    assert_int_equal(pf_reads_before_pre(true, 6), 6);
    assert_int_equal(pf_reads_before_pre(true, 1), 1);
    assert_true(pf_reads_before_pre(false, 6) < 6);
}

/* queue_avg_x64: the per-DRAM-cycle EMA avg += (used*64 - avg) / 64 of the
   demand queue, seen at every event (kept lazily, so stepped here cycle
   by cycle between events: the queue changes only at its column
   commands, after their event). */
static void test_dram_queue_average(void **state)
{
    (void)state;
    gpu_config c = td_cfg();
    td_drv *t = malloc(sizeof *t);
    tp_state *p = calloc(1, sizeof *p);          /* limit 0: never prefetches */
    mem_dram *d = tp_start(t, &c, 64, p);
    for (uint32_t r = 0; r < 6; r++) td_push(t, td_addr(0, 10 + r, 0), MEM_READ, 32, r);
    td_drain(t, 5000);
    assert_int_equal(t->ndone, 6);
    assert_true(p->nev >= 12 && p->nev < TP_MAXEV);
    assert_int_equal(p->view_at[0].queue_avg_x64, 0);          /* from 0 at cycle 0 */
    int64_t avg = 0;
    for (uint32_t i = 1; i < p->nev; i++) {
        int64_t q = (int64_t)p->view_at[i - 1].queue_used * 64;
        if (p->ev[i - 1].kind == WS_DRAM_EV_READ) q -= 64;     /* it left after its event */
        for (uint64_t k = p->view_at[i - 1].cycle; k < p->view_at[i].cycle; k++)
            avg += q >= avg ? (q - avg) / 64 : -((avg - q + 63) / 64);
        assert_int_equal(p->view_at[i].queue_avg_x64, avg);
    }
    assert_true(avg > 64);                      /* a queue of up to 6: an average above 1 */
    mem_dram_free(d);
    free(p);
    free(t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_dram_bank_view_activate),
        cmocka_unit_test(test_dram_view_without_prefetcher),
        cmocka_unit_test(test_dram_prefetch_read_timing),
        cmocka_unit_test(test_dram_prefetch_refused),
        cmocka_unit_test(test_dram_prefetch_hold),
        cmocka_unit_test(test_dram_queue_average),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
