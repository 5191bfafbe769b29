/*
** test_dram_sched.c -- the four DRAM scheduling policies (fcfs, frfcfs,
** frfair, reminst; specs/fetch-dram.md 2.2) on constructed request queues,
** their registry entries, and the same orders observed through a
** controller (the younger row hit overtakes the older miss under FR-FCFS
** only; FR-FAIR / REMINST read warp progress through mem_warp_info).
*/
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <cmocka.h>

#include "test_dram_harness.h"
#include "policy/policy.h"

static int pick(const char *name, const ws_dram_req_view *reqs, uint32_t n)
{
    const ws_dram_sched_ops *ops = ws_find_dram_sched(name);
    assert_non_null(ops);
    assert_non_null(ops->pick);
    ws_dram_view v = { .cycle = 1000, .channel = 0, .nreqs = n, .reqs = reqs };
    return ops->pick(NULL, &v);
}

/* request builder: arrival order = seq = index unless told otherwise */
static ws_dram_req_view rv(uint64_t arrival, bool hit, int64_t retired, int64_t remaining)
{
    ws_dram_req_view r;
    memset(&r, 0, sizeof r);
    r.arrival = arrival;
    r.seq = arrival;
    r.bank = 0;
    r.row = hit ? 1 : 2;
    r.row_hit = hit;
    r.ready = true;
    r.warp_retired = retired;
    r.warp_remaining = remaining;
    return r;
}

static void test_dram_registry(void **state)
{
    (void)state;
    const char *names[] = { "fcfs", "frfcfs", "frfair", "reminst" };
    for (int i = 0; i < 4; i++) {
        const ws_dram_sched_ops *o = ws_find_dram_sched(names[i]);
        assert_non_null(o);
        assert_string_equal(o->name, names[i]);
        assert_non_null(o->summary);
    }
    assert_null(ws_find_dram_sched("frfcf"));
    assert_null(ws_find_dram_sched("FRFCFS"));
    assert_null(ws_find_dram_sched(NULL));
    size_t n = 0;
    for (; ws_dram_nth(n); n++)
        for (size_t j = 0; j < n; j++)
            assert_true(strcmp(ws_dram_nth(n)->name, ws_dram_nth(j)->name) != 0);
    assert_int_equal(n, 4);
    char buf[256];
    ws_registry_names(NULL, WS_KIND_DRAM, buf, sizeof buf);
    assert_string_equal(buf, "frfcfs, fcfs, frfair, reminst");

    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    assert_non_null(f);
    ws_registry_print(NULL, f);
    fclose(f);
    assert_non_null(strstr(text, "DRAM schedulers"));
    assert_non_null(strstr(text, "reminst"));
    free(text);
}

/* Older row miss, younger row hit: FR-FCFS takes the hit, FCFS the miss. */
static void test_dram_frfcfs_vs_fcfs(void **state)
{
    (void)state;
    ws_dram_req_view q[3] = { rv(10, false, -1, -1), rv(20, true, -1, -1), rv(30, true, -1, -1) };
    assert_int_equal(pick("frfcfs", q, 3), 1);         /* oldest of the hits */
    assert_int_equal(pick("fcfs", q, 3), 0);           /* oldest, miss or not */
    /* no hits: both take the oldest */
    ws_dram_req_view m[3] = { rv(30, false, -1, -1), rv(5, false, -1, -1), rv(9, false, -1, -1) };
    assert_int_equal(pick("frfcfs", m, 3), 1);
    assert_int_equal(pick("fcfs", m, 3), 1);
    /* equal arrival cycles: global order decides */
    ws_dram_req_view e[2] = { rv(7, true, -1, -1), rv(7, true, -1, -1) };
    e[0].seq = 9;
    e[1].seq = 4;
    assert_int_equal(pick("frfcfs", e, 2), 1);
    assert_int_equal(pick("fcfs", e, 2), 1);
}

/* Only ready requests compete; none ready = -1 for every policy. */
static void test_dram_ready_respected(void **state)
{
    (void)state;
    const char *names[] = { "fcfs", "frfcfs", "frfair", "reminst" };
    ws_dram_req_view q[3] = { rv(1, true, 0, 900), rv(2, true, 5, 800), rv(3, false, 9, 10) };
    q[0].ready = false;
    q[1].ready = false;
    for (int i = 0; i < 4; i++)
        assert_int_equal(pick(names[i], q, 3), 2);
    q[2].ready = false;
    for (int i = 0; i < 4; i++)
        assert_int_equal(pick(names[i], q, 3), -1);
    for (int i = 0; i < 4; i++)
        assert_int_equal(pick(names[i], q, 0), -1);
}

/* FR-FAIR: hits first, then the warp with the fewest retired instructions. */
static void test_dram_frfair_order(void **state)
{
    (void)state;
    /* two hits: the younger one's warp has retired less -> it wins */
    ws_dram_req_view a[3] = { rv(1, true, 500, -1), rv(2, true, 120, -1), rv(3, false, 3, -1) };
    assert_int_equal(pick("frfair", a, 3), 1);
    assert_int_equal(pick("frfcfs", a, 3), 0);
    /* no hits: fewest retired among all */
    ws_dram_req_view b[3] = { rv(1, false, 500, -1), rv(2, false, 120, -1), rv(3, false, 30, -1) };
    assert_int_equal(pick("frfair", b, 3), 2);
    /* equal counts: oldest */
    ws_dram_req_view c[3] = { rv(4, false, 70, -1), rv(2, false, 70, -1), rv(3, false, 90, -1) };
    assert_int_equal(pick("frfair", c, 3), 1);
    /* unknown (-1) ranks after known counts; all unknown = FR-FCFS */
    ws_dram_req_view u[2] = { rv(1, false, -1, -1), rv(2, false, 400, -1) };
    assert_int_equal(pick("frfair", u, 2), 1);
    ws_dram_req_view w[3] = { rv(3, false, -1, -1), rv(1, false, -1, -1), rv(2, true, -1, -1) };
    assert_int_equal(pick("frfair", w, 3), pick("frfcfs", w, 3));
}

/* REMINST: hits first, then the warp with the most instructions left. */
static void test_dram_reminst_order(void **state)
{
    (void)state;
    ws_dram_req_view a[3] = { rv(1, true, -1, 40), rv(2, true, -1, 900), rv(3, false, -1, 5000) };
    assert_int_equal(pick("reminst", a, 3), 1);
    ws_dram_req_view b[3] = { rv(1, false, -1, 40), rv(2, false, -1, 900), rv(3, false, -1, 5000) };
    assert_int_equal(pick("reminst", b, 3), 2);
    ws_dram_req_view c[2] = { rv(9, false, -1, 300), rv(8, false, -1, 300) };
    assert_int_equal(pick("reminst", c, 2), 1);
    ws_dram_req_view u[2] = { rv(1, false, -1, -1), rv(2, false, -1, 1) };
    assert_int_equal(pick("reminst", u, 2), 1);
    /* it does not look at retired counts, FR-FAIR does not look at remaining */
    ws_dram_req_view d[2] = { rv(1, false, 10, 100), rv(2, false, 900, 800) };
    assert_int_equal(pick("reminst", d, 2), 1);
    assert_int_equal(pick("frfair", d, 2), 0);
}

/* Warps of equal length L: remaining = L - retired, so FR-FAIR and
   REMINST choose the same request (spec 8 item 3). */
static void test_dram_frfair_equals_reminst_equal_lengths(void **state)
{
    (void)state;
    uint32_t lcg = 7;
    for (int trial = 0; trial < 500; trial++) {
        ws_dram_req_view q[12];
        uint32_t n = 1 + trial % 12;
        for (uint32_t i = 0; i < n; i++) {
            lcg = lcg * 1664525u + 1013904223u;
            int64_t retired = (lcg >> 8) % 50;
            q[i] = rv((lcg >> 20) % 16, (lcg >> 4) % 3 == 0, retired, 1000 - retired);
            q[i].seq = i;
            q[i].ready = (lcg >> 2) % 5 != 0;
        }
        assert_int_equal(pick("frfair", q, n), pick("reminst", q, n));
    }
}

/* ---- through a controller --------------------------------------- */

/* Bank 0 busy with row 1; then an older request to row 2 and a younger
   one to row 1 wait.  Returns 1 when the hit (id 2) finished first. */
static int hit_overtakes(const char *sched)
{
    gpu_config c = td_cfg();
    strcpy(c.dram_scheduler, sched);
    td_drv *t = malloc(sizeof *t);
    mem_dram *d = td_new(&c);
    assert_non_null(d);
    td_init(t, d);
    td_push(t, td_addr(0, 1, 0), MEM_READ, 32, 0);
    td_run_to(t, 1);
    td_push(t, td_addr(0, 2, 0), MEM_READ, 32, 1);     /* older miss */
    td_run_to(t, 2);
    td_push(t, td_addr(0, 1, 1), MEM_READ, 32, 2);     /* younger hit */
    td_drain(t, 2000);
    assert_true(t->done[1] != UINT64_MAX && t->done[2] != UINT64_MAX);
    int r = t->done[2] < t->done[1];
    if (r) /* served right behind request 0 on the open row */
        assert_int_equal(t->done[2], t->done[0] + td_max(c.tCCD, td_bt(&c)));
    mem_dram_stats s;
    mem_dram_stats(d, &s);
    assert_int_equal(s.row_hits, r ? 1 : 0);
    mem_dram_free(d);
    free(t);
    return r;
}

static void test_dram_controller_frfcfs_vs_fcfs(void **state)
{
    (void)state;
    assert_int_equal(hit_overtakes("frfcfs"), 1);
    assert_int_equal(hit_overtakes("fcfs"), 0);
    assert_int_equal(hit_overtakes("frfair"), 1);
    assert_int_equal(hit_overtakes("reminst"), 1);
}

/* warp progress table read at scheduling time: warp w retired[w],
   remaining[w] */
typedef struct progress { int64_t retired[8], remaining[8]; uint32_t calls; } progress;

static void progress_get(void *ctx, const mem_req *r, int64_t *retired, int64_t *remaining)
{
    progress *p = ctx;
    p->calls++;
    *retired = p->retired[r->warp_uid % 8];
    *remaining = p->remaining[r->warp_uid % 8];
}

/* Bank 0 busy; three misses to other rows from warps 1, 2, 3 wait; the
   order they are served in follows the policy's warp key. */
static void served_order(const char *sched, progress *p, uint32_t order[3])
{
    gpu_config c = td_cfg();
    mem_warp_info info = { p, progress_get };
    const ws_dram_sched_ops *ops = ws_find_dram_sched(sched);
    mem_dram *d = mem_dram_new(&c, 0, ops, NULL, info);
    assert_non_null(d);
    td_drv *t = malloc(sizeof *t);
    td_init(t, d);
    td_push(t, td_addr(0, 1, 0), MEM_READ, 32, 0);
    td_run_to(t, 1);
    for (uint32_t w = 1; w <= 3; w++)
        td_push(t, td_addr(0, 1 + w, 0), MEM_READ, 32, w);   /* warp_uid = id = w */
    td_drain(t, 5000);
    for (uint32_t k = 0; k < 3; k++) {
        uint32_t best = 0;
        uint64_t bt = UINT64_MAX;
        for (uint32_t w = 1; w <= 3; w++) {
            bool used = false;
            for (uint32_t j = 0; j < k; j++)
                used |= order[j] == w;
            if (!used && t->done[w] < bt)
                bt = t->done[w], best = w;
        }
        order[k] = best;
    }
    mem_dram_free(d);
    free(t);
}

static void test_dram_controller_warp_keys(void **state)
{
    (void)state;
    progress p;
    memset(&p, 0, sizeof p);
    /* warp 1: retired 300 remaining 50; warp 2: 100/900; warp 3: 200/10 */
    p.retired[1] = 300; p.remaining[1] = 50;
    p.retired[2] = 100; p.remaining[2] = 900;
    p.retired[3] = 200; p.remaining[3] = 10;
    uint32_t o[3];
    served_order("frfcfs", &p, o);
    assert_int_equal(o[0], 1); assert_int_equal(o[1], 2); assert_int_equal(o[2], 3);
    served_order("frfair", &p, o);                  /* fewest retired first */
    assert_int_equal(o[0], 2); assert_int_equal(o[1], 3); assert_int_equal(o[2], 1);
    served_order("reminst", &p, o);                 /* most remaining first */
    assert_int_equal(o[0], 2); assert_int_equal(o[1], 1); assert_int_equal(o[2], 3);
    assert_true(p.calls > 0);
}

static void test_dram_check_config(void **state)
{
    (void)state;
    char err[256];
    gpu_config c = td_cfg();
    assert_int_equal(mem_dram_check_config(&c, err, sizeof err), 0);
    /* policy names and parameters: the one resolution path */
    ws_resolved_policies rp;
    const char *names[WS_KIND_COUNT] = { "lrr", "rr", "rr", "frfcfss", "none" };
    const char *none[WS_KIND_COUNT] = { "", "", "", "", "" };
    assert_int_equal(ws_policies_resolve(NULL, names, none, &rp, err, sizeof err), -1);
    assert_non_null(strstr(err, "dram_scheduler"));
    assert_non_null(strstr(err, "frfcfss"));
    assert_non_null(strstr(err, "reminst"));
    names[WS_KIND_DRAM] = "frfcfs";
    const char *params[WS_KIND_COUNT] = { "", "", "", "depth=3", "" };
    assert_int_equal(ws_policies_resolve(NULL, names, params, &rp, err, sizeof err), -1);
    assert_non_null(strstr(err, "dram_scheduler_params"));
    assert_non_null(strstr(err, "depth"));
    assert_int_equal(ws_policies_resolve(NULL, names, none, &rp, err, sizeof err), 0);
    assert_ptr_equal(rp.dram, ws_find_dram_sched("frfcfs"));
    assert_null(rp.dram_prefetch);
    c.dram_bank_groups = 3;
    assert_int_equal(mem_dram_check_config(&c, err, sizeof err), -1);
    assert_non_null(strstr(err, "dram_bank_groups"));
    c = td_cfg();
    strcpy(c.dram_addr_map, "RRRRXBBB");
    assert_int_equal(mem_dram_check_config(&c, err, sizeof err), -1);
    assert_non_null(strstr(err, "RRRRXBBB"));
    assert_null(td_new(&c));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_dram_registry),
        cmocka_unit_test(test_dram_frfcfs_vs_fcfs),
        cmocka_unit_test(test_dram_ready_respected),
        cmocka_unit_test(test_dram_frfair_order),
        cmocka_unit_test(test_dram_reminst_order),
        cmocka_unit_test(test_dram_frfair_equals_reminst_equal_lengths),
        cmocka_unit_test(test_dram_controller_frfcfs_vs_fcfs),
        cmocka_unit_test(test_dram_controller_warp_keys),
        cmocka_unit_test(test_dram_check_config),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
