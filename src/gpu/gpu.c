/*
** gpu.c -- the timing model's top level: SMs, the memory backend behind
** its port, the CTA dispatcher, and the cycle loop.
**
** Each core cycle: replies due from the memory port go to their SM's
** caches; every SM ticks (in an order that rotates with the cycle so no SM
** always gets the port first); the dispatcher places waiting CTAs where
** they fit (CTA-mapping policy).  When no SM did anything and nothing is
** due, the loop jumps to the next cycle at which something can change
** (a register becoming readable, a pipe freeing, a reply arriving),
** accounting the skipped cycles as copies of the last one.  The deadlock
** watchdog stops a run in which no instruction issued or load returned for
** `watchdog_cycles`.  Nothing here depends on wall-clock time or host
** addresses: runs are deterministic.
*/
#include "gpu.h"
#include "clock.h"
#include "../core/core.h"
#include "../mem/backend.h"
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

struct gpu {
    gpu_config cfg;
    uint32_t nsm;
    core_sm **sms;
    mem_backend *be;
    mem_port port;
    const ws_cta_map_ops *cta_map;
    void *cta_map_st;
    ws_sm_view *smv;
    gpu_clocks clk;
    uint64_t cycle;
};

/* ------------------------------------------------------------------ */
/* Creation                                                            */
/* ------------------------------------------------------------------ */

gpu *gpu_new_with(const gpu_config *cfg, const ws_warp_sched_ops *ws,
                  const ws_param_values *ws_params, const ws_fetch_ops *fetch,
                  const ws_cta_map_ops *cta_map, char *err, size_t errlen)
{
    gpu *g = calloc(1, sizeof *g);
    if (!g) {
        snprintf(err, errlen, "out of host memory creating the GPU");
        return NULL;
    }
    g->cfg = *cfg;
    if (!g->cfg.n_schedulers) g->cfg.n_schedulers = 1;
    if (!g->cfg.issue_width) g->cfg.issue_width = 1;
    if (!g->cfg.fetch_width) g->cfg.fetch_width = 1;
    if (!g->cfg.ibuffer_size) g->cfg.ibuffer_size = 2;
    g->nsm = gpu_config_n_sm(&g->cfg);
    if (!g->nsm || gpu_config_max_warps(&g->cfg) == 0) {
        snprintf(err, errlen, "the configuration has no SM or no warp slot "
                 "(n_clusters=%u, cores_per_cluster=%u, max_threads_per_sm=%u)",
                 cfg->n_clusters, cfg->cores_per_cluster, cfg->max_threads_per_sm);
        free(g);
        return NULL;
    }
    /* a policy with parameters gets its defaults when none were given */
    ws_param_values defs = { 0 };
    if (!ws_params && ws && ws->params)
        for (const ws_param_desc *p = ws->params; p->name && defs.n < 16; p++)
            defs.v[defs.n++] = p->def;
    gpu_clocks_init(&g->clk, cfg->core_mhz, cfg->icnt_mhz, cfg->l2_mhz, cfg->dram_mhz);
    g->sms = calloc(g->nsm, sizeof *g->sms);
    g->smv = calloc(g->nsm, sizeof *g->smv);
    g->be = mem_backend_new(cfg->mem_latency, cfg->mem_bytes_per_cycle, cfg->mem_queue);
    if (!g->sms || !g->smv || !g->be) {
        snprintf(err, errlen, "out of host memory creating the GPU");
        gpu_free(g);
        return NULL;
    }
    g->port = mem_backend_port(g->be);
    for (uint32_t i = 0; i < g->nsm; i++)
        if (!(g->sms[i] = core_sm_new(i, &g->cfg, ws, ws_params ? ws_params : &defs, fetch,
                                      err, errlen))) {
            gpu_free(g);
            return NULL;
        }
    g->cta_map = cta_map;
    if (cta_map && cta_map->init) {
        ws_param_values none = { 0 };
        if (!(g->cta_map_st = cta_map->init(&none, g->nsm))) {
            snprintf(err, errlen, "CTA mapping policy '%s' failed to initialise", cta_map->name);
            gpu_free(g);
            return NULL;
        }
    }
    return g;
}

void gpu_free(gpu *g)
{
    if (!g) return;
    for (uint32_t i = 0; g->sms && i < g->nsm; i++) core_sm_free(g->sms[i]);
    if (g->cta_map_st && g->cta_map->destroy) g->cta_map->destroy(g->cta_map_st);
    mem_backend_free(g->be);
    free(g->sms);
    free(g->smv);
    free(g);
}

uint64_t gpu_cycle(const gpu *g) { return g->cycle; }
const gpu_config *gpu_get_config(const gpu *g) { return &g->cfg; }

void gpu_stats_release(gpu_kernel_stats *st)
{
    free(st->samples);
    st->samples = NULL;
    st->nsamples = 0;
}

/* ------------------------------------------------------------------ */
/* Occupancy and CTA dispatch                                          */
/* ------------------------------------------------------------------ */

uint32_t gpu_ctas_per_sm(const gpu_config *cfg, uint32_t threads_per_cta,
                         uint32_t regs_per_thread, uint32_t shmem_per_cta,
                         const char **limiter)
{
    uint32_t warps = (threads_per_cta + EMU_WARP_SIZE - 1) / EMU_WARP_SIZE;
    uint32_t threads = warps * EMU_WARP_SIZE;     /* threads are allocated by whole warps */
    uint64_t regs = (uint64_t)regs_per_thread * threads;
    struct { const char *name; uint64_t n; } lim[] = {
        { "ctas", cfg->max_ctas_per_sm },
        { "threads", threads ? cfg->max_threads_per_sm / threads : 0 },
        { "warps", warps ? gpu_config_max_warps(cfg) / warps : 0 },
        { "registers", regs ? cfg->regs_per_sm / regs : UINT32_MAX },
        { "shared memory", shmem_per_cta ? cfg->shmem_per_sm / shmem_per_cta : UINT32_MAX },
    };
    uint64_t best = UINT64_MAX;
    const char *why = "ctas";
    for (size_t i = 0; i < sizeof lim / sizeof *lim; i++)
        if (lim[i].n < best) { best = lim[i].n; why = lim[i].name; }
    if (limiter) *limiter = why;
    return (uint32_t)best;
}

typedef struct gpu_kernel_run {
    emu_launch *l;
    uint32_t nctas, next_cta;
    uint32_t warps_per_cta, regs_per_cta, shmem;
} gpu_kernel_run;

/* Place waiting CTAs while some SM has room and the policy chooses one. */
static int gpu_dispatch(gpu *g, gpu_kernel_run *k, char *err, size_t errlen)
{
    while (k->next_cta < k->nctas) {
        int sm = -1;
        bool any = false;
        for (uint32_t i = 0; i < g->nsm; i++) {
            const core_sm *s = g->sms[i];
            g->smv[i] = (ws_sm_view){ .sm = i, .ctas = s->live_ctas, .warps = s->live_warps,
                .fits = core_sm_fits(s, k->warps_per_cta, k->regs_per_cta, k->shmem) };
            any |= g->smv[i].fits;
        }
        if (!any) return 0;
        if (g->cta_map && g->cta_map->select_sm) {
            ws_cta_map_view v = { .cycle = g->cycle, .cta_id = k->next_cta, .nctas = k->nctas,
                                  .nsms = g->nsm, .sms = g->smv };
            sm = g->cta_map->select_sm(g->cta_map_st, &v);
            if (sm < 0) return 0;
            if ((uint32_t)sm >= g->nsm || !g->smv[sm].fits) {
                snprintf(err, errlen, "CTA mapping policy '%s' chose SM %d, which cannot "
                         "take CTA %u", g->cta_map->name, sm, k->next_cta);
                return -1;
            }
        } else {
            /* built-in: the next SM after the last one used that has room */
            for (uint32_t j = 0; j < g->nsm && sm < 0; j++) {
                uint32_t i = (k->next_cta + j) % g->nsm;
                if (g->smv[i].fits) sm = (int)i;
            }
        }
        if (core_sm_launch_cta(g->sms[sm], k->next_cta, k->regs_per_cta, k->shmem, g->cycle)) {
            snprintf(err, errlen, "out of host memory starting CTA %u", k->next_cta);
            return -1;
        }
        k->next_cta++;
    }
    return 0;
}

/* ------------------------------------------------------------------ */
/* Statistics helpers                                                  */
/* ------------------------------------------------------------------ */

static void gpu_add_cache(gpu_cache_stats *to, const gpu_cache_stats *s)
{
    to->accesses += s->accesses;
    to->hits += s->hits;
    to->misses += s->misses;
    to->merges += s->merges;
    to->reservation_fails += s->reservation_fails;
    to->evictions += s->evictions;
    to->writebacks += s->writebacks;
    to->mshr_occupancy_sum += s->mshr_occupancy_sum;
}

static void gpu_collect(gpu *g, gpu_kernel_stats *st)
{
    memset(&st->l1d, 0, sizeof st->l1d);
    memset(&st->l1c, 0, sizeof st->l1c);
    memset(&st->l1t, 0, sizeof st->l1t);
    for (uint32_t i = 0; i < g->nsm; i++) {
        gpu_add_cache(&st->l1d, mem_l1_stats(g->sms[i]->l1[CORE_C_L1D]));
        gpu_add_cache(&st->l1c, mem_l1_stats(g->sms[i]->l1[CORE_C_L1C]));
        gpu_add_cache(&st->l1t, mem_l1_stats(g->sms[i]->l1[CORE_C_L1T]));
    }
}

/* Record time-series samples for every interval boundary up to `cycle`. */
static void gpu_take_samples(gpu *g, gpu_kernel_stats *st, uint64_t *next_sample, uint64_t cycle)
{
    uint64_t iv = g->cfg.timeseries_interval;
    if (!iv) return;
    while (*next_sample <= cycle) {
        uint32_t n = st->nsamples;
        if (n == 0 || (n >= 16 && (n & (n - 1)) == 0)) {   /* full at 16, 32, 64, ... */
            uint32_t cap = n ? n * 2 : 16;
            gpu_sample *p = realloc(st->samples, cap * sizeof *p);
            if (!p) return;
            st->samples = p;
        }
        uint32_t live = 0;
        uint64_t misses = 0;
        for (uint32_t i = 0; i < g->nsm; i++) {
            live += g->sms[i]->live_warps;
            misses += mem_l1_stats(g->sms[i]->l1[CORE_C_L1D])->misses;
        }
        uint64_t wi = st->warp_insns, ti = st->thread_insns;
        /* add what running warps executed so far (finished CTAs are in st) */
        for (uint32_t i = 0; i < g->nsm; i++)
            for (uint32_t w = 0; w < g->sms[i]->nwarps; w++) {
                const emu_warp *ew = g->sms[i]->warps[w].ew;
                if (ew) { wi += ew->warp_insns; ti += ew->thread_insns; }
            }
        gpu_sample *sp = &st->samples[st->nsamples++];
        memset(sp, 0, sizeof *sp);     /* padding too: samples compare bytewise */
        sp->cycle = *next_sample - st->start_cycle;
        sp->warp_insns = wi;
        sp->thread_insns = ti;
        sp->active_warps = live;
        sp->l1d_misses = misses;
        sp->lsu_stall_cycles = st->lsu_stall_cycles;
        *next_sample += iv;
    }
}

/* ------------------------------------------------------------------ */
/* The cycle loop                                                      */
/* ------------------------------------------------------------------ */

static void gpu_dump(gpu *g, const char *why, char *err, size_t errlen)
{
    snprintf(err, errlen, "%s at cycle %" PRIu64 "; memory backend: %u requests in flight\n",
             why, g->cycle, mem_backend_in_flight(g->be));
    for (uint32_t i = 0; i < g->nsm; i++) core_sm_dump(g->sms[i], g->cycle, err, errlen);
}

static bool gpu_all_idle(const gpu *g)
{
    if (mem_backend_in_flight(g->be)) return false;
    for (uint32_t i = 0; i < g->nsm; i++)
        if (!core_sm_idle(g->sms[i])) return false;
    return true;
}

/* One core cycle. Returns true when something happened (no skipping). */
static bool gpu_step(gpu *g, gpu_kernel_stats *st)
{
    bool busy = false;
    uint64_t now = g->cycle;
    mem_req rep;
    while (g->port.recv(g->port.impl, now, &rep)) {
        if (rep.sm < g->nsm) core_sm_reply(g->sms[rep.sm], &rep, now);
        busy = true;
    }
    for (uint32_t k = 0; k < g->nsm; k++) {
        core_sm *sm = g->sms[(now + k) % g->nsm];
        core_sm_tick(sm, &g->port, now);
        busy |= sm->active;
    }
    if (mem_backend_full(g->be)) st->mem_queue_full_cycles++;
    return busy;
}

/* Earliest cycle after `now` at which a timed event is due. */
static uint64_t gpu_next_event(const gpu *g)
{
    uint64_t t = mem_backend_next_ready(g->be);
    for (uint32_t i = 0; i < g->nsm; i++)
        if (g->sms[i]->wake < t) t = g->sms[i]->wake;
    return t;
}

static uint64_t gpu_last_progress(const gpu *g)
{
    uint64_t t = 0;
    for (uint32_t i = 0; i < g->nsm; i++)
        if (g->sms[i]->last_progress > t) t = g->sms[i]->last_progress;
    return t;
}

/* Jump over `n` cycles in which nothing changes. */
static void gpu_skip(gpu *g, gpu_kernel_stats *st, uint64_t n)
{
    for (uint32_t i = 0; i < g->nsm; i++) core_sm_account_skip(g->sms[i], n);
    if (mem_backend_full(g->be)) st->mem_queue_full_cycles += n;
    st->skipped_cycles += n;
    g->cycle += n;
    gpu_clocks_advance(&g->clk, n, NULL);
}

static int gpu_loop(gpu *g, gpu_kernel_run *k, gpu_kernel_stats *st, char *err, size_t errlen)
{
    const gpu_config *c = &g->cfg;
    uint64_t next_sample = st->start_cycle + c->timeseries_interval;
    for (uint32_t i = 0; i < g->nsm; i++) g->sms[i]->last_progress = g->cycle;
    for (;;) {
        uint64_t ran = g->cycle - st->start_cycle;
        if (c->max_cycles && ran >= c->max_cycles) {
            char why[128];
            snprintf(why, sizeof why, "stopped: the kernel reached max_cycles (%" PRIu64 ")",
                     c->max_cycles);
            gpu_dump(g, why, err, errlen);
            return -1;
        }
        uint64_t quiet_since = gpu_last_progress(g);
        if (c->watchdog_cycles && g->cycle - quiet_since >= c->watchdog_cycles) {
            char why[160];
            snprintf(why, sizeof why, "deadlock watchdog: no instruction issued or load "
                     "returned for %" PRIu64 " cycles", g->cycle - quiet_since);
            gpu_dump(g, why, err, errlen);
            return -1;
        }
        bool busy = gpu_step(g, st);
        bool freed = false;
        for (uint32_t i = 0; i < g->nsm; i++) {
            freed |= g->sms[i]->cta_freed;
            g->sms[i]->cta_freed = false;
            if (g->sms[i]->fault) return -1;
        }
        if (freed && k->next_cta < k->nctas) {
            if (gpu_dispatch(g, k, err, errlen)) return -1;
            busy = true;
        }
        gpu_take_samples(g, st, &next_sample, g->cycle);
        g->cycle++;
        gpu_clocks_advance(&g->clk, 1, NULL);
        if (k->next_cta == k->nctas && gpu_all_idle(g)) return 0;
        quiet_since = gpu_last_progress(g);
        if (busy || !c->skip_idle_cycles) continue;
        /* nothing happened: jump to the next timed event (or to where the
           watchdog / max_cycles would stop us) */
        uint64_t next = gpu_next_event(g);
        if (c->watchdog_cycles && quiet_since + c->watchdog_cycles < next)
            next = quiet_since + c->watchdog_cycles;
        if (c->max_cycles && st->start_cycle + c->max_cycles < next)
            next = st->start_cycle + c->max_cycles;
        if (c->timeseries_interval && next_sample < next) next = next_sample;
        if (next == CORE_NEVER || next <= g->cycle) continue;
        gpu_skip(g, st, next - g->cycle);
    }
}

int gpu_run_kernel(gpu *g, emu_launch *l, const char *kernel_name,
                   uint32_t regs_per_thread, const char *regs_source,
                   gpu_kernel_stats *st, char *err, size_t errlen)
{
    memset(st, 0, sizeof *st);
    snprintf(st->name, sizeof st->name, "%s", kernel_name ? kernel_name : "?");
    memcpy(st->grid, l->grid, sizeof st->grid);
    memcpy(st->block, l->block, sizeof st->block);
    st->regs_per_thread = regs_per_thread;
    st->regs_source = regs_source;
    st->shmem_per_cta = l->shared_bytes;
    st->start_cycle = g->cycle;
    uint32_t threads = l->block[0] * l->block[1] * l->block[2];
    gpu_kernel_run k = { .l = l, .nctas = l->grid[0] * l->grid[1] * l->grid[2],
                         .warps_per_cta = (threads + EMU_WARP_SIZE - 1) / EMU_WARP_SIZE,
                         .shmem = l->shared_bytes };
    k.regs_per_cta = regs_per_thread * k.warps_per_cta * EMU_WARP_SIZE;
    st->ctas_per_sm = gpu_ctas_per_sm(&g->cfg, threads, regs_per_thread, l->shared_bytes,
                                      &st->occupancy_limiter);
    if (st->ctas_per_sm == 0) {
        snprintf(err, errlen, "kernel '%s': one CTA (%u threads, %u registers per thread, "
                 "%u bytes of shared memory) does not fit on an SM: not enough %s",
                 st->name, threads, regs_per_thread, l->shared_bytes, st->occupancy_limiter);
        return -1;
    }
    core_uinfo *ui = core_decode_module(l->mod, &g->cfg);
    if (!ui) {
        snprintf(err, errlen, "out of host memory decoding kernel '%s'", st->name);
        return -1;
    }
    uint64_t req0 = mem_backend_requests(g->be), bytes0 = mem_backend_bytes(g->be);
    for (uint32_t i = 0; i < g->nsm; i++) core_sm_begin_kernel(g->sms[i], l, ui, st);
    int rc = gpu_dispatch(g, &k, err, errlen);
    if (rc == 0) rc = gpu_loop(g, &k, st, err, errlen);
    if (rc && l->fault.kind != EMU_OK) snprintf(err, errlen, "%s", l->fault.msg);
    for (uint32_t i = 0; i < g->nsm; i++) core_sm_abort(g->sms[i]);
    st->cycles = g->cycle - st->start_cycle;
    gpu_collect(g, st);
    st->mem_requests = mem_backend_requests(g->be) - req0;
    st->mem_reply_bytes = mem_backend_bytes(g->be) - bytes0;
    free(ui);
    return rc;
}
