/*
** timing_harness.h -- shared set-up for the timing-model tests
** (test_timing_*.c): a small hand-filled machine configuration, a
** slot-order warp scheduler, and a runner that parses a PTX string, puts
** buffers in device memory and runs one kernel on the model through
** gpu_run_kernel, the way the host API does.
*/
#ifndef WS_TIMING_HARNESS_H
#define WS_TIMING_HARNESS_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "gpu/gpu.h"
#include "ptx/ptx.h"

/* One SM, Fermi-like sizes, simple latencies; tests change what they probe. */
static void th_config(gpu_config *c)
{
    memset(c, 0, sizeof *c);
    snprintf(c->preset, sizeof c->preset, "test");
    c->core_mhz = c->icnt_mhz = c->l2_mhz = c->dram_mhz = 1000;
    c->n_clusters = 1;
    c->cores_per_cluster = 1;
    c->max_threads_per_sm = 1536;
    c->max_ctas_per_sm = 8;
    c->regs_per_sm = 32768;
    c->shmem_per_sm = 48 * 1024;
    c->regs_per_thread = 16;
    c->fetch_width = 1;
    c->ibuffer_size = 2;
    c->n_schedulers = 2;
    c->issue_width = 1;
    c->units[GPU_UNIT_SP] = 2;
    c->units[GPU_UNIT_SFU] = 1;
    c->units[GPU_UNIT_DP] = 1;
    c->units[GPU_UNIT_INT] = 0;
    c->units[GPU_UNIT_LDST] = 1;
    for (int i = 0; i < GPU_OPC_COUNT; i++) c->op[i] = (gpu_op_timing){ 4, 1 };
    c->op[GPU_OPC_SFU] = (gpu_op_timing){ 20, 4 };
    c->op[GPU_OPC_FP64] = (gpu_op_timing){ 8, 2 };
    c->coalesce_bytes = 128;
    c->shmem_banks = 32;
    c->shmem_bank_bytes = 4;
    c->shmem_latency = 24;
    c->l1d = (gpu_cache_config){ .sets = 32, .ways = 4, .line_bytes = 128, .enabled = true,
                                 .mshr_entries = 32, .mshr_merge = 8, .miss_queue = 8,
                                 .hit_latency = 30 };
    c->l1c = (gpu_cache_config){ .sets = 64, .ways = 2, .line_bytes = 64, .enabled = true,
                                 .mshr_entries = 8, .mshr_merge = 32, .miss_queue = 4,
                                 .hit_latency = 8 };
    c->l1t = c->l1c;
    c->l1d_sat_mshr_slack = 2;
    c->l1d_sat_missq_slack = 1;
    c->mem_latency = 200;
    c->mem_bytes_per_cycle = 64;
    c->mem_queue = 64;
    c->n_mem = 1;
    c->watchdog_cycles = 100000;
    c->skip_idle_cycles = true;
}

/* Kernel `two(.param .u64 p)` of the fetch tests: warp w loops w + 1
   times over two global loads, then a barrier, then one more load and a
   store: unequal warps, two barrier intervals. */
#define TH_TWO_PTX                                                                      \
    ".version 7.0\n.target sm_70\n.address_size 64\n"                                   \
    ".visible .entry two(.param .u64 p)\n{\n"                                            \
    "  .reg .b64 %rd<4>;\n  .reg .b32 %r<8>;\n  .reg .pred %p<2>;\n"                     \
    "  ld.param.u64 %rd1, [p];\n  mov.u32 %r1, %tid.x;\n  shr.u32 %r2, %r1, 5;\n"       \
    "  mul.wide.u32 %rd2, %r1, 4;\n  add.s64 %rd3, %rd1, %rd2;\n  mov.u32 %r3, 0;\n"    \
    "LOOP:\n  ld.global.u32 %r4, [%rd3];\n  ld.global.u32 %r5, [%rd3];\n"               \
    "  add.u32 %r3, %r3, 1;\n  setp.le.u32 %p1, %r3, %r2;\n  @%p1 bra LOOP;\n"          \
    "  bar.sync 0;\n  ld.global.u32 %r6, [%rd3];\n  add.u32 %r6, %r6, %r3;\n"           \
    "  st.global.u32 [%rd3], %r6;\n  ret;\n}\n"

/* scheduler: slot order (order == NULL), no veto */
static const ws_warp_sched_ops th_slot_sched = { .name = "test-slot", .summary = "slot order" };

/* A registered policy (policy/registry.c), failing the test if absent. */
static __attribute__((unused)) const ws_warp_sched_ops *th_sched(const char *name)
{
    const ws_warp_sched_ops *ws = ws_find_warp_sched(name);
    if (!ws) fail_msg("warp scheduler '%s' is not registered", name);
    return ws;
}

/* A device buffer to create before the launch. */
typedef struct th_buf {
    size_t bytes;
    const void *init;       /* NULL: zeroed */
    void *out;              /* copied back after the run when non-NULL */
    uint64_t addr;          /* filled: device address */
} th_buf;

typedef struct th_run {
    gpu_kernel_stats st;
    int rc;
    char err[8192];
    emu_launch l;
    const ws_param_values *wsp;   /* scheduler parameters, NULL = defaults */
    const ws_cta_map_ops *cta_map;/* CTA placement, NULL = built-in round robin */
    ws_param_values cta_params;   /* its parameters */
    const ws_fetch_ops *fetch;    /* fetch policy, NULL = built-in round robin */
    ws_param_values fetch_params;
    emu_profile prof;             /* the oracle profile, built when `fetch` needs it */
    uint32_t grid_y;              /* CTAs in y (0 = 1) */
    const ws_dram_prefetch_ops *dram_prefetch;   /* NULL = none */
    ws_param_values dram_prefetch_params;
} th_run;

/*
** Parse `ptx`, create `nbuf` buffers, pass their addresses as the kernel's
** first `nbuf` parameters (u64) followed by `nextra` u32 values, run kernel
** `name` with grid x block on a GPU built from `cfg` and scheduler `ws`.
*/
static void th_run_kernel(const char *ptx, const char *name, const gpu_config *cfg,
                          const ws_warp_sched_ops *ws, uint32_t grid, uint32_t block,
                          th_buf *bufs, uint32_t nbuf, const uint32_t *extra, uint32_t nextra,
                          th_run *r)
{
    ptx_error perr;
    ptx_module *m = ptx_parse(ptx, strlen(ptx), "test.ptx", &perr);
    if (!m) fail_msg("PTX does not parse: %s", perr.msg);
    int f = ptx_find_func(m, name);
    assert_true(f >= 0);
    const ptx_func *fn = &m->funcs[f];
    emu_mem *mem = emu_mem_new();
    uint8_t *params = calloc(fn->param_size ? fn->param_size : 1, 1);
    for (uint32_t i = 0; i < nbuf; i++) {
        assert_int_equal(emu_mem_alloc(mem, bufs[i].bytes, 256, EMU_ALLOC_DEVICE, "buf",
                                       &bufs[i].addr), 0);
        if (bufs[i].init) emu_mem_write(mem, bufs[i].addr, bufs[i].init, bufs[i].bytes);
        else {
            void *z = calloc(1, bufs[i].bytes);
            emu_mem_write(mem, bufs[i].addr, z, bufs[i].bytes);
            free(z);
        }
        assert_true(i < fn->nparams);
        memcpy(params + fn->params[i].offset, &bufs[i].addr, 8);
    }
    for (uint32_t i = 0; i < nextra; i++) {
        assert_true(nbuf + i < fn->nparams);
        memcpy(params + fn->params[nbuf + i].offset, &extra[i], 4);
    }
    uint64_t *sym = calloc(m->nvars ? m->nvars : 1, sizeof *sym);
    for (uint32_t i = 0; i < m->nvars; i++)
        if (m->vars[i].space == PTX_SPACE_SHARED)
            sym[i] = m->vars[i].is_extern ? fn->shared_size
                   : (fn->shared_off && fn->shared_off[i] >= 0) ? (uint64_t)fn->shared_off[i] : 0;
    emu_launch *l = &r->l;
    memset(l, 0, sizeof *l);
    l->mod = m;
    l->func = (uint32_t)f;
    l->grid[0] = grid; l->grid[1] = r->grid_y ? r->grid_y : 1; l->grid[2] = 1;
    l->block[0] = block; l->block[1] = l->block[2] = 1;
    l->shared_bytes = fn->shared_size;
    l->dyn_shared_off = fn->shared_size;
    l->params = params;
    l->sym_base = sym;
    l->gmem = mem;
    l->stack_bytes = 1024;
    l->smid_count = gpu_config_n_sm(cfg);
    l->out = stdout;
    char err[512];
    ws_resolved_policies rp = { .warp = ws, .fetch = r->fetch, .cta_map = r->cta_map,
                                .dram = ws_find_dram_sched("frfcfs") };
    rp.params[WS_KIND_CTA_MAP] = r->cta_params;
    rp.params[WS_KIND_FETCH] = r->fetch_params;
    rp.dram_prefetch = r->dram_prefetch;
    rp.params[WS_KIND_DRAM_PREFETCH] = r->dram_prefetch_params;
    if (r->fetch && (r->fetch->needs & WS_NEED_ORACLE)) {
        if (emu_profile_build(l, &r->prof, err, sizeof err)) fail_msg("profile: %s", err);
        l->profile = &r->prof;
    }
    if (r->wsp) rp.params[WS_KIND_WARP] = *r->wsp;
    else ws_params_defaults(ws ? ws->params : NULL, &rp.params[WS_KIND_WARP]);
    gpu *g = gpu_new_with(cfg, &rp, err, sizeof err);
    if (!g) fail_msg("gpu_new_with: %s", err);
    r->err[0] = '\0';
    r->rc = gpu_run_kernel(g, l, name, cfg->regs_per_thread, "config", &r->st,
                           r->err, sizeof r->err);
    for (uint32_t i = 0; i < nbuf; i++)
        if (bufs[i].out) emu_mem_read(mem, bufs[i].addr, bufs[i].out, bufs[i].bytes);
    gpu_free(g);
    if (l->profile) emu_profile_free(&r->prof);
    l->profile = NULL;
    free(sym);
    free(params);
    emu_mem_free(mem);
    ptx_module_free(m);
    l->mod = NULL;
}

#endif /* WS_TIMING_HARNESS_H */
