/*
** test_mascar.c -- Mascar's toy examples (spec §9 item 13) on the timing
** model with warp_scheduler = mascar.
**  Fig. 3: 3 warps, one scheduler issuing one instruction a cycle, 1-cycle
**  ALU ops, 5-cycle loads (1-cycle L1 + 4-cycle memory); each warp loads
**  two lines and then runs 4 dependent adds.  The paper: about 21 cycles
**  with unlimited MSHRs under RR, 26 with 2 MSHRs under RR, 23 with 2
**  MSHRs under Mascar.  Our kernel has a prologue (parameter load, address
**  arithmetic) and a store, so the counts are larger by a constant-ish
**  amount; the test asserts the order (unlimited <= Mascar < RR) and that
**  Mascar saves a clear part of what the 2 MSHRs cost RR.
**  Fig. 7: a 1-entry re-execution queue: a warp's miss with no MSHR free is
**  parked and another warp's L1 hit is served while it waits (hit under
**  the parked miss); a further miss with the queue full stalls the LSU.
** Every run checks the invariants (`check=1`) and the computed values.
** Then the policy alone through the ABI: the saturation threshold per L1
** (spec 2.2) and the owner protocol (claims, veto, NACKs, release; 2.5-2.7).
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

/* warp w reads in[w*64 + lane] and in[w*64 + 32 + lane] (two lines),
   then 4 dependent adds, and stores the result */
static const char *fig3 =
    ".visible .entry fig3(.param .u64 in, .param .u64 out)\n{\n"
    "  .reg .b64 %rd<8>;\n  .reg .b32 %r<12>;\n"
    "  ld.param.u64 %rd1, [in];\n  ld.param.u64 %rd4, [out];\n"
    "  mov.u32 %r1, %tid.x;\n  and.b32 %r2, %r1, -32;\n  add.u32 %r3, %r1, %r2;\n"
    "  mul.wide.u32 %rd2, %r3, 4;\n  add.s64 %rd3, %rd1, %rd2;\n"
    "  mul.wide.u32 %rd5, %r1, 4;\n  add.s64 %rd6, %rd4, %rd5;\n  bar.sync 0;\n"
    "  ld.global.u32 %r4, [%rd3];\n  ld.global.u32 %r5, [%rd3+128];\n"
    "  add.u32 %r6, %r4, %r5;\n  add.u32 %r6, %r6, 1;\n"
    "  add.u32 %r6, %r6, 2;\n  add.u32 %r6, %r6, 3;\n"
    "  st.global.u32 [%rd6], %r6;\n  ret;\n}\n";

/* Mascar's parameters: defaults with check = 1 and the given overrides
   (name=value pairs, -1 ends) */
static void mascar_params(ws_param_values *pv, const ws_warp_sched_ops *ws)
{
    ws_params_defaults(ws->params, pv);
    for (uint32_t i = 0; ws->params[i].name; i++)
        if (!strcmp(ws->params[i].name, "check")) pv->v[i] = 1;
}

static void fig3_config(gpu_config *c, uint32_t mshrs)
{
    th_config(c);
    c->n_schedulers = 1;
    c->issue_width = 1;
    for (int i = 0; i < GPU_OPC_COUNT; i++) c->op[i] = (gpu_op_timing){ 1, 1 };
    c->l1d.hit_latency = 1;
    c->l1c.hit_latency = 1;
    c->l1d.mshr_entries = mshrs;
    c->l1d_sat_mshr_slack = 0;
    c->l1d_sat_missq_slack = 0;
    c->mem_latency = 4;
    c->mem_bytes_per_cycle = 1024;
}

/* cycles of fig3 on 3 warps under `sched`, with `mshrs` L1D MSHRs */
static uint64_t fig3_run(const char *sched, uint32_t mshrs, uint32_t queue, th_run *r)
{
    char ptx[2048];
    snprintf(ptx, sizeof ptx, "%s%s", hdr, fig3);
    gpu_config cfg;
    fig3_config(&cfg, mshrs);
    cfg.lsu_reexec_queue = queue;
    uint32_t in[192], out[96];
    for (uint32_t i = 0; i < 192; i++) in[i] = 7 * i + 3;
    th_buf buf[2] = { { sizeof in, in, NULL, 0 }, { sizeof out, NULL, out, 0 } };
    const ws_warp_sched_ops *ws = th_sched(sched);
    ws_param_values pv;
    if (ws->params) {
        mascar_params(&pv, ws);
        r->wsp = &pv;
    }
    th_run_kernel(ptx, "fig3", &cfg, ws, 1, 96, buf, 2, NULL, 0, r);
    if (r->rc) fail_msg("%s", r->err);
    for (uint32_t t = 0; t < 96; t++) {
        uint32_t j = t + (t & ~31u);
        assert_int_equal(out[t], in[j] + in[j + 32] + 6);
    }
    return r->st.cycles;
}

static void test_fig3(void **state)
{
    (void)state;
    th_run *r = calloc(1, sizeof *r);
    uint64_t inf_rr = fig3_run("lrr", 64, 0, r);
    uint64_t rr2 = fig3_run("lrr", 2, 0, r);
    uint64_t m2 = fig3_run("mascar", 2, 0, r);
    uint64_t m2q = fig3_run("mascar", 2, 32, r);
    print_message("fig3: unlimited MSHRs + RR %llu, 2 MSHRs + RR %llu, 2 MSHRs + Mascar %llu "
                  "(with a 32-entry queue %llu); paper 21 / 26 / 23\n",
                  (unsigned long long)inf_rr, (unsigned long long)rr2,
                  (unsigned long long)m2, (unsigned long long)m2q);
    assert_true(rr2 > inf_rr);          /* 2 MSHRs cost RR */
    assert_true(m2 < rr2);              /* Mascar wins some of it back */
    assert_true(m2 >= inf_rr);
    assert_true(m2q < rr2);
    free(r);
}

/* Fig. 7's situation: every warp first reads line 0 (in[lane]) and waits
   for it; then even warps read a line of their own (a miss: in[32 + tid])
   and odd warps line 0 again (a hit); out = first + second.  With one
   MSHR, warp 2's miss finds warp 0's holding it, warp 3's hit comes after
   it in round-robin order, and warp 4's miss finds the queue full. */
static const char *fig7 =
    ".visible .entry fig7(.param .u64 in, .param .u64 out)\n{\n"
    "  .reg .b64 %rd<12>;\n  .reg .b32 %r<12>;\n  .reg .pred %p<2>;\n"
    "  ld.param.u64 %rd1, [in];\n  ld.param.u64 %rd2, [out];\n"
    "  mov.u32 %r1, %tid.x;\n  and.b32 %r9, %r1, 31;\n"
    "  mul.wide.u32 %rd8, %r9, 4;\n  add.s64 %rd9, %rd1, %rd8;\n"
    "  ld.global.u32 %r4, [%rd9];\n  and.b32 %r5, %r4, 0;\n  cvt.u64.u32 %rd5, %r5;\n"
    "  shr.u32 %r2, %r1, 5;\n  and.b32 %r3, %r2, 1;\n  setp.eq.u32 %p1, %r3, 1;\n"
    "  mul.wide.u32 %rd3, %r1, 4;\n  add.s64 %rd4, %rd1, %rd3;\n  add.s64 %rd4, %rd4, 128;\n"
    "  @%p1 mov.u64 %rd4, %rd9;\n  add.s64 %rd6, %rd4, %rd5;\n"
    "  ld.global.u32 %r6, [%rd6];\n  add.u32 %r7, %r4, %r6;\n"
    "  add.s64 %rd7, %rd2, %rd3;\n  st.global.u32 [%rd7], %r7;\n  ret;\n}\n";

/* What the Fig. 7 runs saw: L1D hits served while a request was parked.
   A test-only wrapper around mascar's table (a static: tests only). */
static struct {
    const ws_warp_sched_ops *base;
    uint32_t hits, hits_under_parked;
} f7;

static void f7_event(void *st, const ws_sched_view *v, const ws_sched_event *e)
{
    if (e->kind == WS_EV_L1_HIT) {
        f7.hits++;
        f7.hits_under_parked += v->reexec_used > 0;
    }
    if (f7.base->on_event) f7.base->on_event(st, v, e);
}

/* `fig7` on 6 warps with one L1D MSHR and a 200-cycle memory, under
   mascar with sched = 0 (re-execution only) and `queue` entries */
static void fig7_run(uint32_t queue, th_run *r)
{
    char ptx[2048];
    snprintf(ptx, sizeof ptx, "%s%s", hdr, fig7);
    gpu_config cfg;
    th_config(&cfg);
    cfg.lsu_reexec_queue = queue;
    cfg.l1d.mshr_entries = 1;
    cfg.l1d_sat_mshr_slack = 0;
    uint32_t n = 192, in[224], out[192];
    for (uint32_t i = 0; i < 224; i++) in[i] = 3 * i + 7;
    th_buf buf[2] = { { sizeof in, in, NULL, 0 }, { sizeof out, NULL, out, 0 } };
    ws_warp_sched_ops ops = *th_sched("mascar");
    f7.base = th_sched("mascar");
    f7.hits = f7.hits_under_parked = 0;
    ops.on_event = f7_event;
    ws_param_values pv;
    mascar_params(&pv, &ops);
    pv.v[2] = 0;                        /* sched = 0: re-execution only (Fig. 7) */
    assert_string_equal(ops.params[2].name, "sched");
    r->wsp = &pv;
    th_run_kernel(ptx, "fig7", &cfg, &ops, 1, 192, buf, 2, NULL, 0, r);
    if (r->rc) fail_msg("%s", r->err);
    for (uint32_t t = 0; t < n; t++)
        assert_int_equal(out[t], in[t % 32] + ((t / 32) % 2 ? in[t % 32] : in[32 + t]));
}

static void test_fig7_hit_under_parked_miss(void **state)
{
    (void)state;
    th_run *base = calloc(1, sizeof *base), *q1 = calloc(1, sizeof *q1);
    fig7_run(0, base);
    assert_int_equal(f7.hits_under_parked, 0);
    assert_int_equal(base->st.reexec_parked, 0);
    assert_true(base->st.lsu_stall_cycles > 0);
    /* the blocked LSU held back warps whose next load's line was in L1 */
    assert_true(base->st.missed_hum_cycles > 0);
    fig7_run(1, q1);
    print_message("fig7: no queue %llu cycles (missed hit-under-miss %llu, LSU stalls %llu); "
                  "1-entry queue %llu cycles (%u hits under a parked miss, missed %llu, "
                  "LSU stalls %llu, queue full %llu)\n",
                  (unsigned long long)base->st.cycles,
                  (unsigned long long)base->st.missed_hum_cycles,
                  (unsigned long long)base->st.lsu_stall_cycles,
                  (unsigned long long)q1->st.cycles, f7.hits_under_parked,
                  (unsigned long long)q1->st.missed_hum_cycles,
                  (unsigned long long)q1->st.lsu_stall_cycles,
                  (unsigned long long)q1->st.reexec_full_cycles);
    assert_true(q1->st.reexec_parked > 0);
    assert_true(f7.hits_under_parked > 0);          /* W1 hits under W0's miss */
    assert_true(q1->st.reexec_full_cycles > 0);     /* a miss with the queue full ... */
    assert_true(q1->st.lsu_stall_cycles > 0);       /* ... stalls the LSU */
    assert_true(q1->st.missed_hum_cycles < base->st.missed_hum_cycles);
    assert_true(q1->st.cycles <= base->st.cycles);
    free(base);
    free(q1);
}

/* ---- the policy alone, through the ABI -------------------------------- */

enum { NW = 4 };

typedef struct abi_rig {
    const ws_warp_sched_ops *ops;
    void *st;
    ws_warp_view w[NW];
    uint32_t cand[NW];
    ws_sched_view v;
    uint64_t ctr[WS_MAX_COUNTERS];
} abi_rig;

/* one SM of 4 warps in one scheduler unit; `min_dwell` as given */
static void rig_init(abi_rig *r, int64_t min_dwell)
{
    memset(r, 0, sizeof *r);
    r->ops = th_sched("mascar");
    ws_param_values pv;
    mascar_params(&pv, r->ops);
    for (uint32_t i = 0; r->ops->params[i].name; i++)
        if (!strcmp(r->ops->params[i].name, "min_dwell")) pv.v[i] = min_dwell;
    ws_policy_env env = { .nsms = 1, .nwarps = NW, .nsched = 1, .max_ctas = 1,
                          .reexec_size = 32 };
    r->st = r->ops->init(&pv, &env);
    assert_non_null(r->st);
    ws_launch_info k = { .name = "k", .nsms = 1 };
    r->ops->kernel_begin(r->st, &k);
    for (uint32_t i = 0; i < NW; i++) {
        r->w[i] = (ws_warp_view){ .valid = true, .slot = i, .uid = 10 + i, .age = i,
                                  .next_class = WS_NEXT_MEM, .next_space = WS_SPACE_GLOBAL,
                                  .next_kind = WS_MEM_LOAD, .wait_load_pc = WS_NO_PC };
        r->cand[i] = i;
    }
    r->v = (ws_sched_view){ .nsched = 1, .nwarps = NW, .warps = r->w, .ncand = NW,
                            .cand = r->cand, .live_warps = NW, .reexec_size = 32,
                            .sched = 0 };
    r->v.l1[WS_L1D] = (ws_l1_occupancy){ 0, 64, 0, 8 };
    r->v.l1[WS_L1C] = (ws_l1_occupancy){ 0, 2, 0, 4 };
    r->v.l1[WS_L1T] = (ws_l1_occupancy){ 0, 128, 0, 128 };
}

static uint64_t rig_ctr(abi_rig *r, const char *name)
{
    r->ops->counters(r->st, r->ctr);
    for (uint32_t i = 0; r->ops->counter_names[i]; i++)
        if (!strcmp(r->ops->counter_names[i], name)) return r->ctr[i];
    fail_msg("no counter %s", name);
    return 0;
}

/* one cycle: tick; true when it ends in MP mode (from mp_cycles) */
static bool rig_tick_mp(abi_rig *r)
{
    uint64_t mp = rig_ctr(r, "mp_cycles");
    r->v.cycle++;
    r->ops->tick(r->st, &r->v);
    return rig_ctr(r, "mp_cycles") > mp;
}

/* Spec 2.2: "almost full" = used >= size - slack per structure, ORed over
   the L1s; a slack as large as the structure counts as 0 (the L1C's 2
   MSHRs); min_dwell keeps a mode. */
static void test_saturation_threshold(void **state)
{
    (void)state;
    abi_rig r;
    rig_init(&r, 0);
    assert_false(rig_tick_mp(&r));
    r.v.l1[WS_L1D].mshr_used = 59;
    assert_false(rig_tick_mp(&r));
    r.v.l1[WS_L1D].mshr_used = 60;                  /* 64 - mshr_slack 4 */
    assert_true(rig_tick_mp(&r));
    r.v.l1[WS_L1D].mshr_used = 10;
    r.v.l1[WS_L1D].missq_used = 7;                  /* 8 - mq_slack 1 */
    assert_true(rig_tick_mp(&r));
    r.v.l1[WS_L1D].missq_used = 6;
    assert_false(rig_tick_mp(&r));
    r.v.l1[WS_L1C].mshr_used = 1;                   /* 1 of 2: not full */
    assert_false(rig_tick_mp(&r));
    r.v.l1[WS_L1C].mshr_used = 2;
    assert_true(rig_tick_mp(&r));
    r.v.l1[WS_L1C].mshr_used = 0;
    r.v.l1[WS_L1T].missq_used = 127;
    assert_true(rig_tick_mp(&r));
    r.v.l1[WS_L1T].missq_used = 0;
    assert_false(rig_tick_mp(&r));
    assert_int_equal(rig_ctr(&r, "mode_switches"), 4);
    r.ops->destroy(r.st);
    /* min_dwell = 3: a mode is kept three cycles */
    rig_init(&r, 3);
    r.v.l1[WS_L1D].mshr_used = 64;
    assert_false(rig_tick_mp(&r));
    assert_false(rig_tick_mp(&r));
    assert_false(rig_tick_mp(&r));
    assert_true(rig_tick_mp(&r));
    r.v.l1[WS_L1D].mshr_used = 0;
    assert_true(rig_tick_mp(&r));
    assert_true(rig_tick_mp(&r));
    assert_false(rig_tick_mp(&r));
    r.ops->destroy(r.st);
}

/* Spec 2.5-2.7: the first memory issue in MP claims ownership; others'
   memory instructions are vetoed and their new requests NACKed, compute
   goes first; the owner releases when its next instruction waits on its
   own load; NACKs never in EP; MP -> EP drops the owner. */
static void test_owner_protocol(void **state)
{
    (void)state;
    abi_rig r;
    rig_init(&r, 0);
    uint32_t out[NW];
    /* EP: memory first, greedy then oldest; everyone admitted */
    r.w[2].next_class = WS_NEXT_COMPUTE;
    r.w[2].next_space = WS_SPACE_NONE;
    assert_false(rig_tick_mp(&r));
    assert_int_equal(r.ops->order(r.st, &r.v, out), NW);
    assert_int_equal(out[0], 0);
    assert_int_equal(out[3], 2);
    ws_l1_request q = { .warp = 1, .uid = 11, .mem = WS_MEM_LOAD };
    assert_true(r.ops->l1_admit(r.st, &r.v, &q));
    /* MP: compute first, oldest first; warp 1 issues memory and owns */
    r.v.l1[WS_L1D].mshr_used = 64;
    assert_true(rig_tick_mp(&r));
    r.ops->order(r.st, &r.v, out);
    assert_int_equal(out[0], 2);
    assert_int_equal(out[1], 0);
    assert_true(r.ops->may_issue(r.st, &r.v, 1));
    r.ops->on_issue(r.st, &r.v, 1);
    assert_int_equal(rig_ctr(&r, "owner_grants"), 1);
    assert_false(r.ops->may_issue(r.st, &r.v, 0));   /* memory of a non-owner */
    assert_true(r.ops->may_issue(r.st, &r.v, 2));    /* compute of anyone */
    assert_true(r.ops->may_issue(r.st, &r.v, 1));
    assert_true(r.ops->l1_admit(r.st, &r.v, &q));
    ws_l1_request o = { .warp = 3, .uid = 13, .mem = WS_MEM_LOAD, .from_reexec = true };
    assert_false(r.ops->l1_admit(r.st, &r.v, &o));
    assert_int_equal(rig_ctr(&r, "nacks"), 1);
    /* a slot reused by another warp is not the owner */
    ws_l1_request stale = { .warp = 1, .uid = 99, .mem = WS_MEM_LOAD };
    assert_false(r.ops->l1_admit(r.st, &r.v, &stale));
    /* a dependence on a load that is parked keeps ownership, on one in
       flight gives it up */
    r.w[1].waits_on_load = true;
    r.w[1].reexec_entries = 1;
    assert_true(rig_tick_mp(&r));
    assert_int_equal(rig_ctr(&r, "owner_releases"), 0);
    r.w[1].reexec_entries = 0;
    assert_true(rig_tick_mp(&r));
    assert_int_equal(rig_ctr(&r, "owner_releases"), 1);
    assert_true(r.ops->may_issue(r.st, &r.v, 0));    /* nobody owns: anyone */
    /* claim (2): the queue's head warp when the LSU serves the queue */
    ws_reexec_entry e[2] = { { .warp = 3, .uid = 13, .pc = 7, .remaining = 1 },
                             { .warp = 0, .uid = 10, .pc = 9, .remaining = 1 } };
    ws_reexec_view rq = { .n = 2, .e = e };
    assert_int_equal(r.ops->reexec_pick(r.st, &r.v, &rq), 0);
    assert_int_equal(rig_ctr(&r, "owner_grants"), 2);
    assert_true(r.ops->l1_admit(r.st, &r.v, &o));
    assert_false(r.ops->l1_admit(r.st, &r.v, &q));
    /* the owner at a barrier gives up ownership */
    r.w[3].stall = WS_STALL_BARRIER;
    assert_true(rig_tick_mp(&r));
    assert_int_equal(rig_ctr(&r, "owner_releases"), 2);
    /* back to EP: no NACK for anyone */
    r.v.l1[WS_L1D].mshr_used = 0;
    assert_false(rig_tick_mp(&r));
    assert_true(r.ops->l1_admit(r.st, &r.v, &o));
    assert_true(r.ops->l1_admit(r.st, &r.v, &q));
    assert_int_equal(rig_ctr(&r, "nacks"), 3);
    r.ops->destroy(r.st);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fig3),
        cmocka_unit_test(test_fig7_hit_under_parked_miss),
        cmocka_unit_test(test_saturation_threshold),
        cmocka_unit_test(test_owner_protocol),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
