/*
** test_hals.c -- HALS (thesis 2020 Ch. 6; specs/haws.md 3.2, 7, 8 D) on
** constructed views: the launch-hint lists (hals_hint, WARPSIM_LAUNCH_HINT),
** the `hals` CTA placement (initial chunks, refill order, column-major
** order for hint 2, small grids, hint 0 = rr), the group keys of hints
** 1-3, the `hals` warp scheduler (pools, group switching when the active
** group is stalled, hint 0 = lrr) and the duplicate-MSHR record.
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
#include "gpu/hint.h"
#include "mem/dupmshr.h"
#include "policy/hals_groups.h"
#include "policy/policy.h"

/* ---- hint lists ---- */

static void test_hint_check(void **state)
{
    (void)state;
    char err[256];
    const char *good[] = { NULL, "", "gemm:1", "*:0", "_Z4gemmPfi:3,*:2", "a:0,b:1,c:2,d:3" };
    for (size_t i = 0; i < sizeof good / sizeof *good; i++)
        assert_int_equal(gpu_hint_check(good[i], err, sizeof err), 0);
    const char *bad[] = { "gemm", "gemm:4", ":1", "gemm:12", "gemm:1,", ",gemm:1",
                          "gemm:a", "gemm:-1", "a:1,,b:2" };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        err[0] = '\0';
        assert_int_equal(gpu_hint_check(bad[i], err, sizeof err), -1);
        assert_non_null(strstr(err, "KERNEL:N"));
    }
}

static void test_hint_lookup(void **state)
{
    (void)state;
    uint32_t h = 99;
    assert_true(gpu_hint_lookup("gemm:1", "_Z4gemmPfi", &h));      /* demangled base */
    assert_int_equal(h, 1);
    assert_true(gpu_hint_lookup("_Z4gemmPfi:2", "_Z4gemmPfi", &h)); /* PTX name */
    assert_int_equal(h, 2);
    assert_true(gpu_hint_lookup("gemm:1,*:3", "_Z4gemmPfi", &h));  /* named beats * */
    assert_int_equal(h, 1);
    assert_true(gpu_hint_lookup("*:3", "conv", &h));
    assert_int_equal(h, 3);
    assert_true(gpu_hint_lookup("conv:1,conv:2", "conv", &h));      /* the last wins */
    assert_int_equal(h, 2);
    h = 99;
    assert_false(gpu_hint_lookup("gemm:1", "conv", &h));
    assert_false(gpu_hint_lookup(NULL, "conv", &h));
    assert_false(gpu_hint_lookup("gemmx:1", "_Z4gemmPfi", &h));
    assert_int_equal(h, 99);
    char b[64];
    assert_string_equal(gpu_hint_base_name("_ZN2ns4gemmEv", b, sizeof b), "gemm");
    assert_string_equal(gpu_hint_base_name("_Z4gemmIfEvPT_", b, sizeof b), "gemm");
    assert_string_equal(gpu_hint_base_name("_ZL4convPf", b, sizeof b), "conv");
    assert_string_equal(gpu_hint_base_name("plain_c", b, sizeof b), "plain_c");
}

static void test_hint_config(void **state)
{
    (void)state;
    gpu_config c;
    char err[512];
    assert_int_equal(gpu_config_preset(&c, "k20x", err, sizeof err), 0);
    assert_int_equal(gpu_config_set(&c, "hals_hint", "gemm:1,*:2", err, sizeof err), 0);
    assert_int_equal(gpu_config_check(&c, err, sizeof err), 0);
    assert_int_equal(gpu_config_set(&c, "hals_hint", "gemm:7", err, sizeof err), 0);
    assert_int_equal(gpu_config_check(&c, err, sizeof err), -1);
    assert_non_null(strstr(err, "hals_hint"));
    assert_non_null(strstr(err, "gemm:7"));
    /* the k20x preset (spec 2.10 [M]): L1 6, L2 20, DRAM 300 */
    assert_int_equal(gpu_config_preset(&c, "k20x", err, sizeof err), 0);
    assert_int_equal(c.l1d.hit_latency, 6);
    assert_int_equal(c.l2.hit_latency, 20);
    assert_int_equal(c.dram_latency, 300);
    assert_int_equal(c.dup_mshr_window, 0);
}

/* ---- CTA placement: a dispatcher over constructed SM views ---- */

enum { MAXC = 64, MAXS = 8 };

typedef struct cta_rig {
    const ws_cta_map_ops *ops;
    void *st;
    ws_launch_info k;
    bool assigned[MAXC];
    ws_sm_view sms[MAXS];
    uint32_t cap;              /* CTAs per SM */
    uint32_t sm_of[MAXC];
} cta_rig;

static void cta_open(cta_rig *r, const char *name, const char *params, uint32_t nsms,
                     uint32_t gx, uint32_t gy, uint32_t cap, uint32_t hint)
{
    memset(r, 0, sizeof *r);
    r->ops = ws_find_cta_map(name);
    assert_non_null(r->ops);
    ws_param_values pv;
    char err[256];
    assert_int_equal(ws_params_parse(name, r->ops->params, params, &pv, err, sizeof err), 0);
    ws_policy_env env = { .nsms = nsms, .nwarps = 64, .nsched = 4, .max_ctas = cap };
    r->st = r->ops->init(&pv, &env);
    assert_non_null(r->st);
    r->cap = cap;
    r->k = (ws_launch_info){ .name = "k", .grid = { gx, gy, 1 }, .block = { 64, 1, 1 },
                             .nctas = gx * gy, .warps_per_cta = 2, .ctas_per_sm = cap,
                             .nsms = nsms, .hint = hint };
    if (r->ops->kernel_begin) r->ops->kernel_begin(r->st, &r->k);
    for (uint32_t s = 0; s < nsms; s++) r->sms[s] = (ws_sm_view){ .sm = s, .fits = true };
}

/* Place until the policy says no; the CTAs placed, in order, into `out`. */
static uint32_t cta_dispatch(cta_rig *r, uint32_t *out)
{
    uint32_t n = 0, placed = 0;
    for (uint32_t i = 0; i < r->k.nctas; i++) placed += r->assigned[i];
    for (;;) {
        uint32_t next = 0;
        while (next < r->k.nctas && r->assigned[next]) next++;
        ws_cta_map_view v = { .nctas = r->k.nctas, .next_cta = next, .placed = placed,
                              .assigned = r->assigned, .nsms = r->k.nsms, .sms = r->sms,
                              .kernel = &r->k };
        ws_cta_choice c;
        if (!r->ops->place(r->st, &v, &c)) return n;
        assert_true(c.cta < r->k.nctas && !r->assigned[c.cta]);
        assert_true(c.sm < r->k.nsms && r->sms[c.sm].fits);
        r->assigned[c.cta] = true;
        r->sm_of[c.cta] = c.sm;
        placed++;
        r->sms[c.sm].ctas++;
        r->sms[c.sm].fits = r->sms[c.sm].ctas < r->cap;
        out[n++] = c.cta;
    }
}

static void cta_free_slot(cta_rig *r, uint32_t sm)
{
    r->sms[sm].ctas--;
    r->sms[sm].fits = true;
}

static void cta_close(cta_rig *r)
{
    r->ops->destroy(r->st);
}

/* Initial wave: SM s gets [s*chunk, (s+1)*chunk); refill in order. */
static void test_cta_chunks_and_refill(void **state)
{
    (void)state;
    cta_rig r;
    uint32_t got[MAXC];
    cta_open(&r, "hals", "", 4, 10, 4, 4, 1);    /* 40 CTAs, chunk = min(4, 10) = 4 */
    assert_int_equal(cta_dispatch(&r, got), 16);
    for (uint32_t c = 0; c < 16; c++) assert_int_equal(r.sm_of[c], c / 4);
    cta_free_slot(&r, 2);
    assert_int_equal(cta_dispatch(&r, got), 1);
    assert_int_equal(got[0], 16);
    assert_int_equal(r.sm_of[16], 2);
    cta_free_slot(&r, 0);
    cta_free_slot(&r, 3);
    assert_int_equal(cta_dispatch(&r, got), 2);
    /* the next unassigned blocks in order; the search starts after SM 2 */
    assert_int_equal(got[0], 17);
    assert_int_equal(r.sm_of[17], 3);
    assert_int_equal(got[1], 18);
    assert_int_equal(r.sm_of[18], 0);
    cta_close(&r);
}

/* Hint 2: column-major (y fastest) unless order2=1. */
static void test_cta_column_major(void **state)
{
    (void)state;
    cta_rig r;
    uint32_t got[MAXC];
    cta_open(&r, "hals", "", 4, 4, 4, 4, 2);     /* 4x4 grid, chunk 4 */
    assert_int_equal(cta_dispatch(&r, got), 16);
    for (uint32_t c = 0; c < 16; c++) assert_int_equal(r.sm_of[c], c % 4);  /* x = SM */
    assert_int_equal(got[0], 0);
    assert_int_equal(got[1], 4);                 /* (0,1) right after (0,0) */
    cta_close(&r);
    cta_open(&r, "hals", "order2=1", 4, 4, 4, 4, 2);
    assert_int_equal(cta_dispatch(&r, got), 16);
    for (uint32_t c = 0; c < 16; c++) assert_int_equal(r.sm_of[c], c / 4);  /* y = SM */
    cta_close(&r);
}

/* A grid smaller than a wave leaves no SM idle that could have a block. */
static void test_cta_small_grid(void **state)
{
    (void)state;
    cta_rig r;
    uint32_t got[MAXC], per[MAXS];
    const uint32_t sizes[][2] = { { 6, 2 }, { 5, 2 }, { 4, 1 }, { 30, 8 } };
    for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++) {
        uint32_t n = sizes[i][0];
        cta_open(&r, "hals", "", 4, n, 1, 8, 1);
        assert_int_equal(cta_dispatch(&r, got), n);
        memset(per, 0, sizeof per);
        for (uint32_t c = 0; c < n; c++) per[r.sm_of[c]]++;
        for (uint32_t s = 0; s < 4; s++) {
            assert_true(per[s] >= 1);
            assert_true(per[s] <= sizes[i][1]);
        }
        /* adjacent blocks together: each SM's blocks are consecutive */
        for (uint32_t c = 1; c < n; c++) assert_true(r.sm_of[c] >= r.sm_of[c - 1]);
        cta_close(&r);
    }
}

/* Hint 0: the same placements as rr, step by step, refills included. */
static void test_cta_hint0_is_rr(void **state)
{
    (void)state;
    cta_rig a, b;
    uint32_t ga[MAXC], gb[MAXC];
    cta_open(&a, "hals", "", 3, 20, 1, 2, 0);
    cta_open(&b, "rr", "", 3, 20, 1, 2, 0);
    for (int round = 0; round < 8; round++) {
        uint32_t na = cta_dispatch(&a, ga), nb = cta_dispatch(&b, gb);
        assert_int_equal(na, nb);
        for (uint32_t i = 0; i < na; i++) {
            assert_int_equal(ga[i], gb[i]);
            assert_int_equal(a.sm_of[ga[i]], b.sm_of[gb[i]]);
        }
        cta_free_slot(&a, (uint32_t)round % 3);
        cta_free_slot(&b, (uint32_t)round % 3);
    }
    cta_close(&a);
    cta_close(&b);
}

/* ---- group keys (grid 4x4, 4 warps per block) ---- */

static uint64_t key(uint32_t hint, uint32_t x, uint32_t y, uint32_t w)
{
    const uint32_t grid[3] = { 4, 4, 1 };
    return hals_group_key(hint, grid, 4, y * 4 + x, w, 0, 1);
}

static void test_group_keys(void **state)
{
    (void)state;
    /* hint 1: the same warp of the blocks of one row */
    assert_true(key(1, 0, 0, 1) == key(1, 1, 0, 1));
    assert_true(key(1, 0, 0, 1) == key(1, 3, 0, 1));
    assert_true(key(1, 0, 0, 1) != key(1, 0, 1, 1));   /* another row */
    assert_true(key(1, 0, 0, 1) != key(1, 0, 0, 2));   /* another warp */
    /* hint 2: one column, a block's worth of warps shifted by one: warps
       0-2 of (x,0); warp 3 of (x,0) with warps 0-2 of (x,1); ... */
    assert_true(key(2, 0, 0, 0) == key(2, 0, 0, 2));
    assert_true(key(2, 0, 0, 3) != key(2, 0, 0, 2));
    assert_true(key(2, 0, 0, 3) == key(2, 0, 1, 0));   /* the boundary pair */
    assert_true(key(2, 0, 0, 3) == key(2, 0, 1, 2));
    assert_true(key(2, 0, 1, 3) == key(2, 0, 2, 0));
    assert_true(key(2, 0, 0, 3) != key(2, 1, 0, 3));   /* another column */
    assert_true(key(2, 2, 3, 3) != key(2, 3, 0, 0));
    /* hint 3: arrival mod NG, NG = ceil(resident / g_size) */
    const uint32_t grid[3] = { 4, 4, 1 };
    assert_int_equal(hals_ngroups(64, 8), 8);
    assert_int_equal(hals_ngroups(12, 8), 2);
    assert_int_equal(hals_ngroups(0, 8), 1);
    assert_true(hals_group_key(3, grid, 4, 0, 0, 0, 8) == hals_group_key(3, grid, 4, 5, 2, 8, 8));
    assert_true(hals_group_key(3, grid, 4, 0, 0, 0, 8) != hals_group_key(3, grid, 4, 0, 1, 1, 8));
}

/* ---- the warp scheduler: one SM, warps of CTAs arriving in order ---- */

enum { NW = 16 };

typedef struct warp_rig {
    const ws_warp_sched_ops *ops;
    void *st;
    ws_warp_view w[NW];
    uint32_t cand[NW];
    ws_sched_view v;
    ws_launch_info k;
    uint32_t nsched, pool[NW];
} warp_rig;

/* CTAs `ids` (grid gx x gy, `wpc` warps each) start in slots 0.. in
   order; assign_sched puts each warp in a pool; v shows unit `unit`. */
static void warp_open(warp_rig *r, const char *name, uint32_t nsched, uint32_t hint,
                      uint32_t gx, uint32_t gy, uint32_t wpc, uint32_t nctas,
                      const uint32_t *ids)
{
    memset(r, 0, sizeof *r);
    r->ops = ws_find_warp_sched(name);
    assert_non_null(r->ops);
    ws_param_values pv;
    char err[256];
    assert_int_equal(ws_params_parse(name, r->ops->params, "", &pv, err, sizeof err), 0);
    uint32_t n = nctas * wpc;
    ws_policy_env env = { .nsms = 1, .nwarps = n, .nsched = nsched, .max_ctas = nctas };
    r->st = r->ops->init(&pv, &env);
    assert_non_null(r->st);
    r->nsched = nsched;
    r->k = (ws_launch_info){ .name = "k", .grid = { gx, gy, 1 }, .nctas = gx * gy,
                             .warps_per_cta = wpc, .ctas_per_sm = nctas, .nsms = 1,
                             .hint = hint };
    r->v = (ws_sched_view){ .nwarps = n, .warps = r->w, .nsched = nsched, .cand = r->cand,
                            .kernel = &r->k, .cycle = 1 };
    if (r->ops->kernel_begin) r->ops->kernel_begin(r->st, &r->k);
    for (uint32_t c = 0; c < nctas; c++)
        for (uint32_t i = 0; i < wpc; i++) {
            uint32_t s = c * wpc + i;
            r->w[s] = (ws_warp_view){ .valid = true, .slot = s, .age = s, .cta_slot = c,
                                      .cta_id = ids[c], .warp_in_cta = i,
                                      .next_class = WS_NEXT_COMPUTE };
            r->pool[s] = r->ops->assign_sched ? r->ops->assign_sched(r->st, &r->v, s)
                                              : s % nsched;
            r->w[s].sched = r->pool[s];
        }
}

/* Show unit `u`'s warps (slots ascending) as the candidates. */
static void warp_unit(warp_rig *r, uint32_t u)
{
    r->v.sched = u;
    r->v.ncand = 0;
    for (uint32_t s = 0; s < r->v.nwarps; s++)
        if (r->pool[s] == u) r->cand[r->v.ncand++] = s;
}

/* What the core does: the first ready warp of the order issues (one per
   cycle). Returns its slot, or NW when none is ready. */
static uint32_t warp_step(warp_rig *r)
{
    uint32_t out[NW];
    uint32_t n = r->ops->order(r->st, &r->v, out);
    r->v.cycle++;
    for (uint32_t i = 0; i < n; i++)
        if (r->w[out[i]].valid && r->w[out[i]].stall == WS_STALL_NONE) {
            r->ops->on_issue(r->st, &r->v, out[i]);
            return out[i];
        }
    return NW;
}

static uint64_t warp_ctr(warp_rig *r, const char *name)
{
    uint64_t v[WS_MAX_COUNTERS] = { 0 };
    r->ops->counters(r->st, v);
    for (uint32_t i = 0; r->ops->counter_names[i]; i++)
        if (strcmp(r->ops->counter_names[i], name) == 0) return v[i];
    fail_msg("no counter %s", name);
    return 0;
}

/* Hint 1, grid 4x2, 2 warps per CTA, CTAs 0,1 (row 0) and 4 (row 1) on
   the SM, 2 pools: groups {w0 of row 0}, {w1 of row 0}, {w0 of row 1},
   {w1 of row 1}; each group in one pool, pools balanced at arrival. */
static void test_pools(void **state)
{
    (void)state;
    warp_rig r;
    warp_open(&r, "hals", 2, 1, 4, 2, 2, 3, (const uint32_t[]){ 0, 1, 4 });
    assert_int_equal(warp_ctr(&r, "groups"), 4);
    assert_int_equal(r.pool[0], r.pool[2]);     /* w0 of CTAs 0 and 1 */
    assert_int_equal(r.pool[1], r.pool[3]);     /* w1 of CTAs 0 and 1 */
    assert_int_not_equal(r.pool[0], r.pool[1]); /* the second group: the emptier pool */
    /* CTA 4's groups arrive when the pools hold 2 and 2: pool 0, then the
       emptier one, pool 1 */
    assert_int_equal(r.pool[0], 0);
    assert_int_equal(r.pool[4], 0);
    assert_int_equal(r.pool[5], 1);
    r.ops->destroy(r.st);
}

/* One pool, hint 1, grid 2x1, 2 warps per CTA: group A = slots 0 and 2
   (warp 0 of both CTAs), group B = slots 1 and 3.  Round-robin inside the
   active group; when all of it is stalled the next group issues in the
   same cycle, and stays active until it is all stalled in turn. */
static void test_group_switching(void **state)
{
    (void)state;
    warp_rig r;
    warp_open(&r, "hals", 1, 1, 2, 1, 2, 2, (const uint32_t[]){ 0, 1 });
    warp_unit(&r, 0);
    assert_int_equal(warp_ctr(&r, "groups"), 2);
    assert_int_equal(warp_step(&r), 0);
    assert_int_equal(warp_step(&r), 2);
    assert_int_equal(warp_step(&r), 0);
    r.w[0].stall = r.w[2].stall = WS_STALL_SCOREBOARD;   /* A waits on memory */
    assert_int_equal(warp_step(&r), 1);
    assert_int_equal(warp_ctr(&r, "group_switches"), 1);
    assert_int_equal(warp_step(&r), 3);
    r.w[0].stall = r.w[2].stall = WS_STALL_NONE;         /* A ready again: B keeps going */
    assert_int_equal(warp_step(&r), 1);
    assert_int_equal(warp_step(&r), 3);
    r.w[1].stall = WS_STALL_UNIT;                        /* one of B stalled: B still */
    assert_int_equal(warp_step(&r), 3);
    r.w[3].stall = WS_STALL_BARRIER;                     /* all of B: back to A */
    assert_int_equal(warp_step(&r), 2);                  /* A's RR continues after 0 */
    assert_int_equal(warp_ctr(&r, "group_switches"), 2);
    r.w[0].stall = r.w[2].stall = WS_STALL_IBUFFER;      /* nobody ready */
    assert_int_equal(warp_step(&r), NW);
    /* a finished warp leaves its group; the last one frees it */
    ws_sched_event e = { .kind = WS_EV_WARP_DONE, .warp = 1 };
    r.w[1].valid = false;
    r.ops->on_event(r.st, &r.v, &e);
    uint32_t out[NW];
    assert_int_equal(r.ops->order(r.st, &r.v, out), 3);
    r.ops->destroy(r.st);
}

/* Hint 0: the order and the issues of lrr, cycle by cycle. */
static void test_hint0_is_lrr(void **state)
{
    (void)state;
    warp_rig a, b;
    const uint32_t ids[] = { 0, 1, 2, 3 };
    warp_open(&a, "hals", 2, 0, 4, 1, 2, 4, ids);
    warp_open(&b, "lrr", 2, 0, 4, 1, 2, 4, ids);
    for (uint32_t s = 0; s < 8; s++) assert_int_equal(a.pool[s], s % 2);
    for (uint32_t cyc = 0; cyc < 40; cyc++) {
        uint32_t u = cyc % 2;
        warp_unit(&a, u);
        warp_unit(&b, u);
        for (uint32_t s = 0; s < 8; s++)   /* a changing pattern of stalls */
            a.w[s].stall = b.w[s].stall = (s * 7 + cyc * 3) % 5 == 0 ? WS_STALL_SCOREBOARD
                                                                     : WS_STALL_NONE;
        uint32_t oa[NW], ob[NW];
        uint32_t na = a.ops->order(a.st, &a.v, oa), nb = b.ops->order(b.st, &b.v, ob);
        assert_int_equal(na, nb);
        assert_memory_equal(oa, ob, na * sizeof *oa);
        assert_int_equal(warp_step(&a), warp_step(&b));
    }
    assert_int_equal(warp_ctr(&a, "groups"), 0);
    a.ops->destroy(a.st);
    b.ops->destroy(b.st);
}

/* ---- the duplicate-MSHR record ---- */

static void test_dup_mshr(void **state)
{
    (void)state;
    mem_dup_mshr d;
    assert_int_equal(mem_dup_mshr_init(&d, 100), 0);
    assert_false(mem_dup_mshr_note(&d, 0x1000, 0, 0));    /* first ever */
    assert_false(mem_dup_mshr_note(&d, 0x1000, 0, 10));   /* same SM */
    assert_true(mem_dup_mshr_note(&d, 0x1000, 1, 50));    /* SM 0 at 10 */
    assert_true(mem_dup_mshr_note(&d, 0x1000, 1, 110));   /* SM 0 at 10, 100 before */
    assert_false(mem_dup_mshr_note(&d, 0x1000, 1, 111));  /* SM 0 at 10 is too old */
    assert_false(mem_dup_mshr_note(&d, 0x1080, 1, 112));  /* another line */
    assert_true(mem_dup_mshr_note(&d, 0x1000, 2, 200));   /* SM 1 at 111 */
    assert_true(mem_dup_mshr_note(&d, 0x1000, 2, 205));   /* SM 1 at 111, behind SM 2 */
    assert_false(mem_dup_mshr_note(&d, 0x1000, 2, 400));
    assert_int_equal(d.allocs, 9);
    assert_int_equal(d.dups, 4);
    /* many lines, one per cycle: old lines are dropped, the table does not
       grow past what a window holds, and answers stay right */
    for (uint64_t t = 1000; t < 200000; t++) {
        assert_false(mem_dup_mshr_note(&d, t * 128, 0, t));
        if (t % 1000 == 500) assert_true(mem_dup_mshr_note(&d, (t - 50) * 128, 3, t));
    }
    assert_true(d.cap <= 1024);
    mem_dup_mshr_clear(&d);
    assert_int_equal(d.allocs, 0);
    assert_false(mem_dup_mshr_note(&d, 199999 * 128, 1, 200000));  /* forgotten */
    mem_dup_mshr_release(&d);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_hint_check),
        cmocka_unit_test(test_hint_lookup),
        cmocka_unit_test(test_hint_config),
        cmocka_unit_test(test_cta_chunks_and_refill),
        cmocka_unit_test(test_cta_column_major),
        cmocka_unit_test(test_cta_small_grid),
        cmocka_unit_test(test_cta_hint0_is_rr),
        cmocka_unit_test(test_group_keys),
        cmocka_unit_test(test_pools),
        cmocka_unit_test(test_group_switching),
        cmocka_unit_test(test_hint0_is_lrr),
        cmocka_unit_test(test_dup_mshr),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
