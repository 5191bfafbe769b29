/*
** test_policy_owl_pf.c -- the `owl` DRAM prefetcher on constructed views
** and events (specs/owl.md Sec. 8 item 5): it never names a line whose bit
** is set (demand reads and writes, its own prefetches), names nothing
** while a demand to the open row is queued, names exactly C lines per
** activation (pf_higher below the queue threshold, pf_lower at or above
** it; fewer when fewer are unsent), holds the row against a precharge
** only while its burst is not over, and keeps 8 MCs x 4 banks x 32 lines
** = 1024 independent bits.
*/
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "policy/policy.h"

enum { NB = 4, LINES = 32 };

typedef struct rig {
    const ws_dram_prefetch_ops *ops;
    void *st;
    ws_dram_bank_view b[NB];
    ws_dram_view v;
} rig;

static const ws_dram_prefetch_ops *owl(void)
{
    const ws_dram_prefetch_ops *o = ws_registry_find(NULL, WS_KIND_DRAM_PREFETCH, "owl");
    assert_non_null(o);
    return o;
}

/* An instance for channel `ch` with `params`; every bank closed, the
   queue empty (used 0, average 0). */
static void rig_open(rig *r, const char *params, uint32_t ch)
{
    memset(r, 0, sizeof *r);
    r->ops = owl();
    ws_param_values pv;
    char err[256];
    assert_int_equal(ws_params_parse("owl", r->ops->params, params, &pv, err, sizeof err), 0);
    ws_policy_env env = { .channel = ch, .nchannels = 8, .banks = NB, .queue_size = 128,
                          .row_lines = LINES };
    r->st = r->ops->init(&pv, &env);
    assert_non_null(r->st);
    r->v = (ws_dram_view){ .channel = ch, .nbanks = NB, .banks = r->b, .queue_size = 128,
                           .row_lines = LINES };
}

static void ev(rig *r, int kind, uint32_t bank, uint32_t line, bool pf)
{
    ws_dram_event e = { .kind = kind, .bank = bank, .row = r->b[bank].row, .line = line,
                        .prefetch = pf };
    r->ops->on_event(r->st, &r->v, &e);
}

/* Open row `row` in `bank` (the ACTIVATE event); no demand left to it. */
static void activate(rig *r, uint32_t bank, uint32_t row)
{
    r->b[bank] = (ws_dram_bank_view){ .open = true, .row = row };
    ev(r, WS_DRAM_EV_ACTIVATE, bank, 0, false);
}

/* Ask for the next line as the platform does: a named line is read (the
   prefetch READ event follows).  -1 when none. */
static int next(rig *r, uint32_t bank)
{
    int l = r->ops->prefetch(r->st, &r->v, bank);
    if (l >= 0) {
        assert_true(l < LINES);
        ev(r, WS_DRAM_EV_READ, bank, (uint32_t)l, true);
    }
    return l;
}

/* Lines named until the prefetcher declines, into `out` (their count). */
static uint32_t burst(rig *r, uint32_t bank, int *out)
{
    uint32_t n = 0;
    for (int l; n <= LINES && (l = next(r, bank)) >= 0;) out[n++] = l;
    return n;
}

/* A demand read or write sets the line's bit; the prefetcher names the
   rest lowest first, each once, never one whose bit is set. */
static void test_owl_never_a_set_bit(void **state)
{
    (void)state;
    rig r;
    rig_open(&r, "pf_lower=32,pf_higher=32", 0);
    activate(&r, 1, 7);
    ev(&r, WS_DRAM_EV_READ, 1, 0, false);
    ev(&r, WS_DRAM_EV_READ, 1, 1, false);
    ev(&r, WS_DRAM_EV_WRITE, 1, 5, false);
    ev(&r, WS_DRAM_EV_READ, 1, 31, false);
    int got[LINES + 1];
    uint32_t n = burst(&r, 1, got);
    assert_int_equal(n, LINES - 4);
    int want = 2;
    for (uint32_t i = 0; i < n; i++, want++) {
        if (want == 5) want++;
        assert_int_equal(got[i], want);     /* ascending, skipping set bits */
    }
    assert_int_equal(next(&r, 1), -1);      /* every bit set: nothing more */
    /* an activate clears the bits: the row's lines are unsent again */
    activate(&r, 1, 8);
    assert_int_equal(next(&r, 1), 0);
    /* a line named but refused by the L2 (no READ event) is not named again */
    assert_int_equal(r.ops->prefetch(r.st, &r.v, 1), 1);
    assert_int_equal(next(&r, 1), 2);
    r.ops->destroy(r.st);
}

/* Nothing while a demand to the open row is queued (and no hold), without
   ending the activation's burst: once it is served, prefetching starts. */
static void test_owl_nothing_while_row_hits_queued(void **state)
{
    (void)state;
    rig r;
    rig_open(&r, "", 0);
    activate(&r, 2, 3);
    r.b[2].demand = r.b[2].demand_open_row = 1;
    for (int i = 0; i < 5; i++) {
        assert_int_equal(r.ops->prefetch(r.st, &r.v, 2), -1);
        assert_false(r.ops->hold(r.st, &r.v, 2));
    }
    r.b[2].demand_open_row = 0;             /* served; a demand to another row waits */
    assert_true(r.ops->hold(r.st, &r.v, 2));
    assert_int_equal(next(&r, 2), 0);
    /* a row hit arriving in the middle of the burst pauses it */
    r.b[2].demand_open_row = 1;
    assert_int_equal(r.ops->prefetch(r.st, &r.v, 2), -1);
    r.b[2].demand_open_row = 0;
    assert_int_equal(next(&r, 2), 1);
    /* a closed bank or a bank beyond the channel's: nothing */
    assert_int_equal(r.ops->prefetch(r.st, &r.v, 0), -1);
    assert_false(r.ops->hold(r.st, &r.v, 0));
    assert_int_equal(r.ops->prefetch(r.st, &r.v, NB), -1);
    r.ops->destroy(r.st);
}

/* Exactly C per activation: pf_higher while the queue holds fewer demands
   than its average (the view's EMA), pf_lower otherwise; a fixed
   pf_threshold instead of the average; fewer when fewer lines are unsent;
   one burst per activation.  The row is held until the burst is over. */
static void test_owl_exactly_c(void **state)
{
    (void)state;
    rig r;
    int got[LINES + 1];
    rig_open(&r, "", 0);                    /* defaults: 8 / 16, average threshold */
    r.v.queue_avg_x64 = 10 * 64;
    r.v.queue_used = 3;                     /* below the average: C = 16 */
    activate(&r, 0, 1);
    r.b[0].demand = 1;                      /* a row-conflict demand waits */
    for (uint32_t i = 0; i < 16; i++) {
        assert_true(r.ops->hold(r.st, &r.v, 0));
        assert_int_equal(next(&r, 0), (int)i);
    }
    assert_false(r.ops->hold(r.st, &r.v, 0));       /* C issued: let it precharge */
    assert_int_equal(next(&r, 0), -1);
    assert_int_equal(next(&r, 0), -1);              /* one burst per activation */
    r.v.queue_used = 10;                    /* at the average: C = 8 */
    activate(&r, 0, 2);
    assert_int_equal(burst(&r, 0, got), 8);
    r.v.queue_avg_x64 = 0;                  /* empty average: never below it */
    r.v.queue_used = 0;
    activate(&r, 3, 2);
    assert_int_equal(burst(&r, 3, got), 8);
    /* fewer unsent than C: all of them */
    r.v.queue_avg_x64 = 10 * 64;
    activate(&r, 1, 9);
    for (uint32_t l = 0; l < LINES - 5; l++) ev(&r, WS_DRAM_EV_READ, 1, l, false);
    assert_int_equal(burst(&r, 1, got), 5);
    assert_int_equal(got[0], LINES - 5);
    r.ops->destroy(r.st);

    rig_open(&r, "pf_threshold=4,pf_lower=24,pf_higher=32", 0);
    r.v.queue_avg_x64 = 100 * 64;           /* ignored: the fixed threshold */
    r.v.queue_used = 4;
    activate(&r, 2, 1);
    assert_int_equal(burst(&r, 2, got), 24);
    r.v.queue_used = 3;
    activate(&r, 2, 2);
    assert_int_equal(burst(&r, 2, got), 32);
    r.ops->destroy(r.st);
}

/* C = 0 (pf_lower = pf_higher = 0) names nothing and holds nothing;
   STOP_ON_DEMAND neither holds nor starts with a demand to another row
   waiting; EXTEND_WHEN_IDLE goes on past C while no such demand waits. */
static void test_owl_modes_and_zero(void **state)
{
    (void)state;
    rig r;
    int got[LINES + 1];
    rig_open(&r, "pf_lower=0,pf_higher=0", 0);
    r.v.queue_avg_x64 = 5 * 64;
    activate(&r, 0, 1);
    r.b[0].demand = 1;
    assert_false(r.ops->hold(r.st, &r.v, 0));
    assert_int_equal(next(&r, 0), -1);
    r.ops->destroy(r.st);

    rig_open(&r, "pf_mode=2", 0);
    activate(&r, 0, 1);
    assert_false(r.ops->hold(r.st, &r.v, 0));
    assert_int_equal(burst(&r, 0, got), 8);         /* nothing waits: C lines */
    activate(&r, 0, 2);
    r.b[0].demand = 1;                              /* another row waits */
    assert_false(r.ops->hold(r.st, &r.v, 0));
    assert_int_equal(next(&r, 0), -1);
    r.ops->destroy(r.st);

    rig_open(&r, "pf_mode=1", 0);
    activate(&r, 0, 1);
    assert_int_equal(burst(&r, 0, got), LINES);     /* idle: the whole row */
    activate(&r, 0, 2);
    for (uint32_t i = 0; i < 8; i++) assert_int_equal(next(&r, 0), (int)i);
    r.b[0].demand = 1;                              /* after C: a demand stops it */
    assert_false(r.ops->hold(r.st, &r.v, 0));
    assert_int_equal(next(&r, 0), -1);
    r.ops->destroy(r.st);
}

/* 8 MCs x 4 banks x 32 lines: each (channel, bank, line) is named exactly
   once with C = 32, all 1024 of them, then nothing; banks and channels
   keep their bits apart. */
static void test_owl_1024_bits(void **state)
{
    (void)state;
    static rig r[8];
    uint8_t seen[8][NB][LINES] = { { { 0 } } };
    for (uint32_t c = 0; c < 8; c++) {
        rig_open(&r[c], "pf_lower=32,pf_higher=32", c);
        for (uint32_t b = 0; b < NB; b++) activate(&r[c], b, 4 + b);
    }
    uint32_t total = 0;
    for (uint32_t round = 0; round < LINES + 1; round++)       /* interleaved */
        for (uint32_t c = 0; c < 8; c++)
            for (uint32_t b = 0; b < NB; b++) {
                int l = next(&r[c], b);
                if (l < 0) continue;
                assert_int_equal(seen[c][b][l]++, 0);
                total++;
            }
    assert_int_equal(total, 8 * NB * LINES);
    assert_int_equal(total, 1024);
    for (uint32_t c = 0; c < 8; c++) r[c].ops->destroy(r[c].st);
}

/* The parameters are declared with the spec's defaults and bounds. */
static void test_owl_params(void **state)
{
    (void)state;
    ws_param_values pv;
    char err[256];
    const ws_dram_prefetch_ops *o = owl();
    assert_int_equal(ws_params_parse("owl", o->params, "", &pv, err, sizeof err), 0);
    assert_int_equal(pv.n, 4);
    assert_int_equal(pv.v[0], 8);      /* pf_lower */
    assert_int_equal(pv.v[1], 16);     /* pf_higher */
    assert_int_equal(pv.v[2], -1);     /* pf_threshold: the average */
    assert_int_equal(pv.v[3], 0);      /* pf_mode: EXACT_DEGREE */
    assert_int_equal(ws_params_parse("owl", o->params, "pf_mode=3", &pv, err, sizeof err), -1);
    assert_int_equal(ws_params_parse("owl", o->params, "degree=3", &pv, err, sizeof err), -1);
    ws_policy_env env = { .banks = 4 };   /* no row geometry: refused */
    assert_int_equal(ws_params_parse("owl", o->params, "", &pv, err, sizeof err), 0);
    assert_null(o->init(&pv, &env));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_owl_never_a_set_bit),
        cmocka_unit_test(test_owl_nothing_while_row_hits_queued),
        cmocka_unit_test(test_owl_exactly_c),
        cmocka_unit_test(test_owl_modes_and_zero),
        cmocka_unit_test(test_owl_1024_bits),
        cmocka_unit_test(test_owl_params),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
