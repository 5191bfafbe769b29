/*
** test_reexec.c -- the LSU re-execution queue and the L1 admission hook
** (Mascar §2.7).  A test policy NACKs warp 0's misses for the first
** NACK_UNTIL cycles; with a queue, warp 0's refused request is parked and
** warp 1's later L1 hit is served meanwhile; with no queue the LSU blocks
** and warp 1 waits.  A third case fills the queue through reservation
** fails (one MSHR).  Then: idle-cycle skipping over a queue stuck on
** reservation fails gives the counters of a run without skipping; stores
** parked after their warp left do not hold up the slot's next warp (this
** deadlocked before); an unused queue, or hooks that always admit, change
** no number.  Every run must compute the right values.
*/
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "timing_harness.h"

static const char *hdr = ".version 7.0\n.target sm_70\n.address_size 64\n";

#define NACK_UNTIL 3000

/* each warp reads its own line twice (the second address depends on the
   first value, so it hits once the line is in) and writes the sum */
static const char *kernel =
    ".visible .entry twice(.param .u64 in, .param .u64 out)\n{\n"
    "  .reg .b64 %rd<8>;\n  .reg .b32 %r<12>;\n"
    "  ld.param.u64 %rd1, [in];\n  ld.param.u64 %rd2, [out];\n"
    "  mov.u32 %r1, %tid.x;\n  mov.u32 %r2, %ctaid.x;\n  mov.u32 %r3, %ntid.x;\n"
    "  mad.lo.u32 %r1, %r2, %r3, %r1;\n"
    "  mul.wide.u32 %rd3, %r1, 4;\n  add.s64 %rd4, %rd1, %rd3;\n"
    "  ld.global.u32 %r4, [%rd4];\n  and.b32 %r5, %r4, 0;\n"
    "  cvt.u64.u32 %rd5, %r5;\n  add.s64 %rd6, %rd4, %rd5;\n"
    "  ld.global.u32 %r6, [%rd6];\n  add.u32 %r7, %r4, %r6;\n"
    "  add.s64 %rd7, %rd2, %rd3;\n  st.global.u32 [%rd7], %r7;\n  ret;\n}\n";

typedef struct rlog {
    bool nack_warp0;       /* refuse warp 0's misses before NACK_UNTIL */
    uint64_t first_park;   /* cycle warp 0's first request was parked (0: never) */
    uint64_t warp1_hit;    /* cycle of warp 1's first L1 hit */
    uint64_t retry_admit;  /* cycle warp 0's parked request was admitted (0: never) */
    uint32_t parks, nacks, picks;
} rlog;

static void *rl_init(const ws_param_values *p, const ws_policy_env *env)
{
    (void)env;
    return (void *)(intptr_t)p->v[0];
}

static bool rl_admit(void *st, const ws_sched_view *v, const ws_l1_request *r)
{
    rlog *l = st;
    if (l->nack_warp0 && r->uid == 0 && v->cycle < NACK_UNTIL) {
        l->nacks++;
        return false;
    }
    if (r->uid == 0 && r->from_reexec && !l->retry_admit) l->retry_admit = v->cycle;
    return true;
}

static int rl_pick(void *st, const ws_sched_view *v, const ws_reexec_view *q)
{
    rlog *l = st;
    (void)v;
    l->picks++;
    assert_true(q->n > 0 && q->n <= v->reexec_size);
    /* one request per entry; an instruction's parked and unsent ones */
    for (uint32_t i = 0; i < q->n; i++) assert_true(q->e[i].remaining >= 1);
    return 0;
}

static void rl_event(void *st, const ws_sched_view *v, const ws_sched_event *e)
{
    rlog *l = st;
    if (e->kind == WS_EV_REEXEC_PARK) {
        l->parks++;
        if (e->uid == 0 && !l->first_park) l->first_park = v->cycle;
        assert_true(v->warps[e->warp].reexec_entries > 0 || v->reexec_used > 0);
    }
    if (e->kind == WS_EV_L1_HIT && e->uid == 1 && !l->warp1_hit) l->warp1_hit = v->cycle;
}

static const ws_warp_sched_ops rl_sched = {
    .name = "test-reexec", .init = rl_init, .l1_admit = rl_admit, .reexec_pick = rl_pick,
    .on_event = rl_event,
};

static void run(uint32_t queue, uint32_t mshrs, uint32_t ctas, rlog *l, th_run *r)
{
    char ptx[2048];
    snprintf(ptx, sizeof ptx, "%s%s", hdr, kernel);
    gpu_config cfg;
    th_config(&cfg);
    cfg.lsu_reexec_queue = queue;
    cfg.l1d.mshr_entries = mshrs;
    uint32_t n = ctas * 64;
    uint32_t *in = malloc(n * 4), *out = calloc(n, 4);
    for (uint32_t i = 0; i < n; i++) in[i] = 3 * i + 7;
    th_buf buf[2] = { { n * 4, in, NULL, 0 }, { n * 4, NULL, out, 0 } };
    ws_param_values pv = { .n = 1, .v = { (int64_t)(intptr_t)l } };
    r->wsp = &pv;
    th_run_kernel(ptx, "twice", &cfg, &rl_sched, ctas, 64, buf, 2, NULL, 0, r);
    if (r->rc) fail_msg("%s", r->err);
    for (uint32_t i = 0; i < n; i++) assert_int_equal(out[i], 2 * in[i]);
    free(in);
    free(out);
}

static void test_nack_parked_hit_proceeds(void **state)
{
    (void)state;
    rlog l = { .nack_warp0 = true };
    th_run *r = calloc(1, sizeof *r);
    run(8, 64, 1, &l, r);
    assert_true(l.nacks >= 1);
    assert_true(r->st.l1_nacks >= 1);
    assert_true(r->st.reexec_parked >= 1);
    assert_true(r->st.reexec_retries >= 1);     /* retried, refused again, recycled */
    assert_true(l.picks >= 1);
    /* warp 0 was parked first, and warp 1 hit while it was still refused */
    assert_true(l.first_park > 0);
    assert_true(l.warp1_hit > l.first_park);
    assert_true(l.warp1_hit < NACK_UNTIL);
    assert_true(r->st.cycles > NACK_UNTIL);     /* warp 0 finished only after */
    /* the retry that got through came from the queue, once the NACKs ended */
    assert_true(l.retry_admit >= NACK_UNTIL);
    /* one event per parked instruction (warp 0's first load), not per retry */
    assert_int_equal(l.parks, 1);
    free(r);
}

static void test_nack_blocking_lsu(void **state)
{
    (void)state;
    rlog l = { .nack_warp0 = true };
    th_run *r = calloc(1, sizeof *r);
    run(0, 64, 1, &l, r);
    assert_true(r->st.l1_nacks >= 1);
    assert_int_equal(r->st.reexec_parked, 0);
    assert_true(r->st.lsu_stall_cycles > 0);
    /* the blocked LSU holds warp 1 back until warp 0 is admitted */
    assert_true(l.warp1_hit == 0 || l.warp1_hit >= NACK_UNTIL);
    free(r);
}

static void test_reservation_fails_parked(void **state)
{
    (void)state;
    rlog l = { .nack_warp0 = false };
    th_run *r = calloc(1, sizeof *r);
    run(4, 1, 8, &l, r);                       /* one MSHR, 16 warps */
    assert_true(r->st.reexec_parked > 0);
    assert_true(r->st.l1d.reservation_fails > 0);
    assert_int_equal(r->st.l1_nacks, 0);
    assert_true(r->st.reexec_full_cycles > 0);  /* 4 entries fill up */
    free(r);
}

/* The counters that must not depend on idle-cycle skipping (every field
   from `cycles` up to `skipped_cycles`: all uint64_t, no padding). */
static void assert_same_counters(const gpu_kernel_stats *a, const gpu_kernel_stats *b)
{
    size_t from = offsetof(gpu_kernel_stats, cycles);
    size_t to = offsetof(gpu_kernel_stats, skipped_cycles);
    if (memcmp((const char *)a + from, (const char *)b + from, to - from) == 0) return;
    fail_msg("counters differ: cycles %llu/%llu retries %llu/%llu full %llu/%llu "
             "L1D fails %llu/%llu (set %llu/%llu) slots[unit] %llu/%llu",
             (unsigned long long)a->cycles, (unsigned long long)b->cycles,
             (unsigned long long)a->reexec_retries, (unsigned long long)b->reexec_retries,
             (unsigned long long)a->reexec_full_cycles, (unsigned long long)b->reexec_full_cycles,
             (unsigned long long)a->l1d.reservation_fails,
             (unsigned long long)b->l1d.reservation_fails,
             (unsigned long long)a->l1d.reservation_fails_set,
             (unsigned long long)b->l1d.reservation_fails_set,
             (unsigned long long)a->slots[GPU_SLOT_UNIT_BUSY],
             (unsigned long long)b->slots[GPU_SLOT_UNIT_BUSY]);
}

/* every thread stores its id 128 bytes apart: 32 requests per store, and
   the warp exits right after it (its slot may be reused by a later CTA
   before the store's last request is handed over) */
static const char *scatter =
    ".visible .entry scatter(.param .u64 out)\n{\n"
    "  .reg .b64 %rd<4>;\n  .reg .b32 %r<6>;\n"
    "  ld.param.u64 %rd1, [out];\n"
    "  mov.u32 %r1, %tid.x;\n  mov.u32 %r2, %ctaid.x;\n  mov.u32 %r3, %ntid.x;\n"
    "  mad.lo.u32 %r1, %r2, %r3, %r1;\n"
    "  mul.wide.u32 %rd2, %r1, 128;\n  add.s64 %rd3, %rd1, %rd2;\n"
    "  st.global.u32 [%rd3], %r1;\n  ret;\n}\n";

/* Run `scatter` over `ctas` CTAs of 64 threads with the hook-less slot
   scheduler; checks every value landed. */
static void run_scatter(const gpu_config *cfg, uint32_t ctas, th_run *r)
{
    char ptx[2048];
    snprintf(ptx, sizeof ptx, "%s%s", hdr, scatter);
    uint32_t n = ctas * 64, words = n * 32;
    uint32_t *out = calloc(words, 4);
    th_buf buf[1] = { { (size_t)words * 4, NULL, out, 0 } };
    th_run_kernel(ptx, "scatter", cfg, &th_slot_sched, ctas, 64, buf, 1, NULL, 0, r);
    if (r->rc) fail_msg("%s", r->err);
    for (uint32_t i = 0; i < n; i++) assert_int_equal(out[i * 32], i);
    free(out);
}

/* `twice` over `ctas` CTAs with the hook-less slot scheduler. */
static void run_plain(const gpu_config *cfg, uint32_t ctas, th_run *r)
{
    char ptx[2048];
    snprintf(ptx, sizeof ptx, "%s%s", hdr, kernel);
    uint32_t n = ctas * 64;
    uint32_t *in = malloc(n * 4), *out = calloc(n, 4);
    for (uint32_t i = 0; i < n; i++) in[i] = 5 * i + 1;
    th_buf buf[2] = { { n * 4, in, NULL, 0 }, { n * 4, NULL, out, 0 } };
    th_run_kernel(ptx, "twice", cfg, &th_slot_sched, ctas, 64, buf, 2, NULL, 0, r);
    if (r->rc) fail_msg("%s", r->err);
    for (uint32_t i = 0; i < n; i++) assert_int_equal(out[i], 2 * in[i]);
    free(in);
    free(out);
}

/* A queue stuck on reservation fails lets the cycle loop skip: the same
   counters with and without skipping (retries, rotation, fails replayed),
   for fills and for allocate-on-miss (full-set fails). */
static void test_skip_with_stuck_queue(void **state)
{
    (void)state;
    for (int alloc = 0; alloc < 2; alloc++) {
        gpu_config cfg;
        th_config(&cfg);
        cfg.lsu_reexec_queue = 4;
        cfg.l1d.mshr_entries = 1;
        if (alloc) {
            cfg.l1d.allocate = GPU_L1_ALLOC_MISS;
            cfg.l1d.sets = 1;
            cfg.l1d.ways = 1;
            cfg.l1d.mshr_entries = 4;
        }
        th_run *a = calloc(1, sizeof *a), *b = calloc(1, sizeof *b);
        run_plain(&cfg, 8, a);
        cfg.skip_idle_cycles = false;
        run_plain(&cfg, 8, b);
        assert_true(a->st.reexec_parked > 0);
        assert_true(a->st.reexec_full_cycles > 0);
        assert_true(a->st.skipped_cycles > 0);
        assert_int_equal(b->st.skipped_cycles, 0);
        if (alloc) assert_true(a->st.l1d.reservation_fails_set > 0);
        assert_same_counters(&a->st, &b->st);
        free(a);
        free(b);
    }
}

/* Stores parked after their warp left (slots reused by later CTAs) must
   not hold up the slot's next warp; skipping stays exact meanwhile. */
static void test_store_parked_after_exit(void **state)
{
    (void)state;
    gpu_config cfg;
    th_config(&cfg);
    cfg.lsu_reexec_queue = 4;
    cfg.l1d.miss_queue = 2;
    cfg.mem_bytes_per_cycle = 8;
    cfg.max_ctas_per_sm = 2;
    th_run *a = calloc(1, sizeof *a), *b = calloc(1, sizeof *b);
    run_scatter(&cfg, 12, a);
    assert_true(a->st.reexec_parked > 0);
    assert_true(a->st.reexec_full_cycles > 0);
    cfg.skip_idle_cycles = false;
    run_scatter(&cfg, 12, b);
    assert_same_counters(&a->st, &b->st);
    free(a);
    free(b);
}

/* With no refusal the queue is never used: a queue changes nothing, and
   hooks that always admit change nothing on the blocking LSU. */
static void test_unused_queue_same_numbers(void **state)
{
    (void)state;
    gpu_config cfg;
    th_config(&cfg);
    th_run *a = calloc(1, sizeof *a), *b = calloc(1, sizeof *b), *c = calloc(1, sizeof *c);
    run_plain(&cfg, 4, a);
    cfg.lsu_reexec_queue = 8;
    run_plain(&cfg, 4, b);
    assert_int_equal(a->st.l1d.reservation_fails, 0);
    assert_int_equal(b->st.reexec_parked, 0);
    assert_same_counters(&a->st, &b->st);
    assert_int_equal(a->st.skipped_cycles, b->st.skipped_cycles);
    rlog l = { .nack_warp0 = false };
    run(0, 32, 4, &l, c);        /* l1_admit, reexec_pick, on_event set; admits all */
    assert_true(l.nacks == 0 && l.picks == 0);
    assert_int_equal(c->st.cycles, a->st.cycles);
    assert_int_equal(c->st.l1d.hits, a->st.l1d.hits);
    free(a);
    free(b);
    free(c);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_nack_parked_hit_proceeds),
        cmocka_unit_test(test_nack_blocking_lsu),
        cmocka_unit_test(test_reservation_fails_parked),
        cmocka_unit_test(test_skip_with_stuck_queue),
        cmocka_unit_test(test_store_parked_after_exit),
        cmocka_unit_test(test_unused_queue_same_numbers),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
