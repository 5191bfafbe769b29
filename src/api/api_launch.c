/*
** api_launch.c -- ws_launch: checks the configuration like the CUDA
** driver does (block and grid limits, .reqntid/.maxntid, shared memory),
** builds the parameter buffer and runs the grid in the functional
** emulator, or on the timing model when the context has one (see
** api_timing.c); a kernel fault becomes a status plus the fault's report.
*/
#include "api_internal.h"
#include <stdlib.h>
#include <string.h>

#define WS_MAX_BLOCK_THREADS 1024u

static const char *kname(const ws_kernel *k)
{
    return k->mod->pm->funcs[k->func].name;
}

static ws_status check_dims(ws_ctx *ctx, const ws_kernel *k, ws_dim3 g, ws_dim3 b)
{
    const ptx_func *f = &k->mod->pm->funcs[k->func];
    const char *n = kname(k);
    if (!b.x || !b.y || !b.z)
        return ws__error(ctx, WS_ERR_LAUNCH, "ws_launch: kernel '%s': block (%u,%u,%u) has "
                         "a zero dimension", n, b.x, b.y, b.z);
    if (!g.x || !g.y || !g.z)
        return ws__error(ctx, WS_ERR_LAUNCH, "ws_launch: kernel '%s': grid (%u,%u,%u) has "
                         "a zero dimension", n, g.x, g.y, g.z);
    uint64_t threads = (uint64_t)b.x * b.y * b.z;
    if (threads > WS_MAX_BLOCK_THREADS || b.x > 1024 || b.y > 1024 || b.z > 64)
        return ws__error(ctx, WS_ERR_LAUNCH, "ws_launch: kernel '%s': block (%u,%u,%u) has "
                         "%llu threads; the limits are 1024 threads per block and "
                         "(1024,1024,64) per dimension", n, b.x, b.y, b.z,
                         (unsigned long long)threads);
    if (g.x > 0x7fffffffu || g.y > 65535 || g.z > 65535)
        return ws__error(ctx, WS_ERR_LAUNCH, "ws_launch: kernel '%s': grid (%u,%u,%u) exceeds "
                         "the limits (2147483647,65535,65535)", n, g.x, g.y, g.z);
    if ((uint64_t)g.x * g.y * g.z > 0xffffffffull)
        return ws__error(ctx, WS_ERR_LAUNCH, "ws_launch: kernel '%s': grid (%u,%u,%u) has "
                         "more than 2^32-1 CTAs", n, g.x, g.y, g.z);
    if (f->reqntid[0] && (b.x != f->reqntid[0] || b.y != (f->reqntid[1] ? f->reqntid[1] : 1) ||
                          b.z != (f->reqntid[2] ? f->reqntid[2] : 1)))
        return ws__error(ctx, WS_ERR_LAUNCH, "ws_launch: kernel '%s' requires block "
                         "(%u,%u,%u) (.reqntid) but was launched with (%u,%u,%u)", n,
                         f->reqntid[0], f->reqntid[1] ? f->reqntid[1] : 1,
                         f->reqntid[2] ? f->reqntid[2] : 1, b.x, b.y, b.z);
    if (f->maxntid[0]) {
        uint64_t max = (uint64_t)f->maxntid[0] * (f->maxntid[1] ? f->maxntid[1] : 1) *
                       (f->maxntid[2] ? f->maxntid[2] : 1);
        if (threads > max)
            return ws__error(ctx, WS_ERR_LAUNCH, "ws_launch: kernel '%s' allows at most %llu "
                             "threads per block (.maxntid) but was launched with %llu", n,
                             (unsigned long long)max, (unsigned long long)threads);
    }
    return WS_OK;
}

static ws_status fault_status(emu_fault_kind k)
{
    switch (k) {
    case EMU_OK:                return WS_OK;
    case EMU_FAULT_TRAP:        return WS_ERR_TRAP;
    case EMU_FAULT_BARRIER:     return WS_ERR_DEADLOCK;
    case EMU_FAULT_UNSUPPORTED: return WS_ERR_UNSUPPORTED;
    case EMU_FAULT_ASSERT:      return WS_ERR_ASSERT;
    case EMU_FAULT_HANG:        return WS_ERR_TIMEOUT;
    case EMU_FAULT_INTERRUPT:   return WS_ERR_INTERRUPTED;
    default:                    return WS_ERR_FAULT;
    }
}

/* Warp instructions without progress before a launch counts as hung
   (0 = no limit): the option, else the timing configuration's key, else
   the default. */
static uint64_t progress_limit(const ws_ctx *ctx)
{
    uint64_t v = ctx->opts.progress_limit;
    if (v == UINT64_MAX) return 0;
    if (v) return v;
    return ctx->gpu ? ctx->cfg.progress_limit : WS_DEFAULT_PROGRESS_LIMIT;
}

/* Per-SM limits of the functional runner's residency, those of an sm_86
   SM (the CUDA shim's default device): CTAs, threads, shared memory. */
#define RESIDENT_CTAS_PER_SM   16u
#define RESIDENT_THREADS_PER_SM 1536u
#define RESIDENT_SHARED_PER_SM (100u << 10)

/*
** How many CTAs the functional runner keeps in flight: what `num_sms`
** such SMs hold at once (at least one per SM), so that kernels whose CTAs
** wait for each other (a flag set by another CTA) finish as on a GPU,
** while the set stays as small as the machine's (host caches).
*/
static uint32_t resident_ctas(const ws_ctx *ctx, uint32_t threads, uint32_t shared)
{
    uint32_t warps = (threads + 31) / 32;
    uint32_t per_sm = RESIDENT_CTAS_PER_SM;
    if (RESIDENT_THREADS_PER_SM / (warps * 32) < per_sm)
        per_sm = RESIDENT_THREADS_PER_SM / (warps * 32);
    if (shared && RESIDENT_SHARED_PER_SM / shared < per_sm)
        per_sm = RESIDENT_SHARED_PER_SM / shared;
    if (per_sm == 0) per_sm = 1;
    return ctx->opts.num_sms * per_sm;
}

/* Copy each argument into the parameter buffer at its offset. */
static ws_status build_params(ws_ctx *ctx, const ws_kernel *k, void **args, uint8_t **out)
{
    const ptx_func *f = &k->mod->pm->funcs[k->func];
    uint8_t *buf = calloc(f->param_size ? f->param_size : 1, 1);
    if (!buf) return ws__error(ctx, WS_ERR_NOMEM, "ws_launch: out of host memory");
    if (f->nparams && !args) {
        free(buf);
        return ws__error(ctx, WS_ERR_INVALID, "ws_launch: kernel '%s' takes %u parameters "
                         "but args is NULL", kname(k), f->nparams);
    }
    for (uint32_t i = 0; i < f->nparams; i++) {
        const ptx_param *p = &f->params[i];
        if (!args[i]) {
            free(buf);
            return ws__error(ctx, WS_ERR_INVALID, "ws_launch: kernel '%s': args[%u] "
                             "(parameter '%s') is NULL", kname(k), i, p->name);
        }
        if ((uint64_t)p->offset + p->size <= f->param_size)
            memcpy(buf + p->offset, args[i], p->size);
    }
    *out = buf;
    return WS_OK;
}

/* Copy the timing counters of the launch into last and add them to total. */
static void add_timing(ws_ctx *ctx, const ws_stats *t)
{
    ctx->last.cycles = t->cycles;
    ctx->last.l1d_accesses = t->l1d_accesses;
    ctx->last.l1d_hits = t->l1d_hits;
    ctx->last.l1d_misses = t->l1d_misses;
    ctx->last.lsu_stall_cycles = t->lsu_stall_cycles;
    ctx->total.cycles += t->cycles;
    ctx->total.l1d_accesses += t->l1d_accesses;
    ctx->total.l1d_hits += t->l1d_hits;
    ctx->total.l1d_misses += t->l1d_misses;
    ctx->total.lsu_stall_cycles += t->lsu_stall_cycles;
}

/*
** The counters launch `l` (grid `grid`, blocks `block`) left, as
** ctx->last and added to ctx->total, with the timing counters
** ws__timing_launch left in ctx->last when the timing model ran it.
*/
static void launch_account(ws_ctx *ctx, const emu_launch *l, ws_dim3 grid, ws_dim3 block)
{
    uint64_t ctas = (uint64_t)grid.x * grid.y * grid.z;
    uint64_t wpc = ((uint64_t)block.x * block.y * block.z + 31) / 32;
    ws_stats timed = ctx->last;   /* timing counters ws__timing_launch left */
    ctx->last = (ws_stats){ .launches = 1, .ctas = ctas, .warps = ctas * wpc,
                            .warp_insns = l->warp_insns, .thread_insns = l->thread_insns,
                            .mem_insns = l->mem_insns, .bar_insns = l->bar_insns,
                            .warp_insns_min = l->warp_insns_min,
                            .warp_insns_max = l->warp_insns_max,
                            .warp_insns_sq = l->warp_insns_sq,
                            .reg_hash = l->reg_hash,
                            .untimed_launches = ctx->gpu && ctx->last_untimed };
    ctx->total.launches++;
    ctx->total.ctas += ctas;
    ctx->total.warps += ctas * wpc;
    ctx->total.warp_insns += l->warp_insns;
    ctx->total.thread_insns += l->thread_insns;
    ctx->total.mem_insns += l->mem_insns;
    ctx->total.bar_insns += l->bar_insns;
    ctx->total.warp_insns_sq += l->warp_insns_sq;
    ctx->total.reg_hash += l->reg_hash;
    ctx->total.untimed_launches += ctx->last.untimed_launches;
    if (l->warp_insns_min && (!ctx->total.warp_insns_min
                              || l->warp_insns_min < ctx->total.warp_insns_min))
        ctx->total.warp_insns_min = l->warp_insns_min;
    if (l->warp_insns_max > ctx->total.warp_insns_max)
        ctx->total.warp_insns_max = l->warp_insns_max;
    if (ctx->gpu) add_timing(ctx, &timed);
}

ws_status ws_launch(ws_ctx *ctx, ws_kernel *k, ws_dim3 grid, ws_dim3 block,
                    void **args, size_t dyn_shared_bytes)
{
    if (!ctx) return WS_ERR_INVALID;
    if (!k) return ws__error(ctx, WS_ERR_INVALID, "ws_launch: the kernel is NULL");
    if (k->mod->ctx != ctx)
        return ws__error(ctx, WS_ERR_INVALID, "ws_launch: kernel '%s' belongs to another "
                         "context", kname(k));
    ws_status st = check_dims(ctx, k, grid, block);
    if (st) return st;
    const ptx_func *f = &k->mod->pm->funcs[k->func];
    uint32_t al = f->dyn_shared_align ? f->dyn_shared_align : 16;
    uint64_t dyn_off = ((uint64_t)f->shared_size + al - 1) / al * al;
    uint64_t shared = dyn_shared_bytes ? dyn_off + dyn_shared_bytes : f->shared_size;
    if (shared > ctx->opts.max_shared_bytes)
        return ws__error(ctx, WS_ERR_LAUNCH, "ws_launch: kernel '%s' needs %llu bytes of "
                         "shared memory per CTA (%u static + %zu dynamic); the limit is %u",
                         kname(k), (unsigned long long)shared, f->shared_size,
                         dyn_shared_bytes, ctx->opts.max_shared_bytes);
    uint8_t *params = NULL;
    if ((st = build_params(ctx, k, args, &params))) return st;

    /* the kernel's own frame always fits; calls get what the option allows */
    uint32_t frame0 = ((k->mod->local_static + 15u) & ~15u) + ((f->frame_size + 15u) & ~15u);
    emu_launch l;
    memset(&l, 0, sizeof l);
    l.mod = k->mod->pm;
    l.func = k->func;
    l.grid[0] = grid.x; l.grid[1] = grid.y; l.grid[2] = grid.z;
    l.block[0] = block.x; l.block[1] = block.y; l.block[2] = block.z;
    l.dyn_shared = (uint32_t)dyn_shared_bytes;
    l.shared_bytes = (uint32_t)shared;
    l.dyn_shared_off = (uint32_t)dyn_off;
    l.params = params;
    l.sym_base = k->sym_base;
    l.gmem = ctx->mem;
    l.oob = ctx->oob;
    l.cmem = ctx->cmem;
    l.cmem_size = ctx->cmem_size;
    l.stack_bytes = ctx->opts.stack_bytes > frame0 ? ctx->opts.stack_bytes : frame0;
    l.smid_count = ctx->opts.num_sms;
    l.out = ctx->opts.printf_out ? ctx->opts.printf_out : stdout;
    l.local_static = k->mod->local_static;
    l.tex = &ctx->tex;
    l.progress_limit = progress_limit(ctx);
    l.interrupt = ctx->opts.interrupt;
    l.resident_ctas = resident_ctas(ctx, block.x * block.y * block.z, l.shared_bytes);

    int rc = ctx->gpu ? ws__timing_launch(ctx, k, &l) : emu_run_grid(&l);
    fflush(l.out);
    free(params);

    launch_account(ctx, &l, grid, block);
    if (rc == 0 && l.fault.kind == EMU_OK) return WS_OK;
    if (ctx->gpu && l.fault.kind == EMU_OK) {
        /* the model could not run it (e.g. a CTA does not fit, or the
           deadlock watchdog fired): ws__timing_launch wrote why */
        st = strstr(ctx->err, "deadlock") ? WS_ERR_DEADLOCK : WS_ERR_LAUNCH;
        ctx->pending = st;
        return st;
    }
    st = fault_status(l.fault.kind);
    if (st == WS_OK) st = WS_ERR_FAULT;
    ctx->pending = st;
    return ws__error(ctx, st, "%s", l.fault.msg);
}
