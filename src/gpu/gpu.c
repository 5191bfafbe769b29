/*
** gpu.c -- the timing model's top level: SMs, the memory below them
** (mem_lower: the simple backend, or the full memory system of memsys.c
** with interconnect, L2 slices and DRAM on their own clocks), the CTA
** dispatcher, and the cycle loop.
**
** Each core cycle: replies due from the memory go to their SM's caches;
** every SM ticks (in an order that rotates with the cycle so no SM always
** gets the port first; on `threads` host threads, smpar.c, with the same
** result); the dispatcher places waiting CTAs where they fit
** (CTA-mapping policy); the memory runs its clocks through the cycle.
** When no SM did anything and nothing is due, the loop lets the memory run
** ahead to the next cycle at which an SM could see a change (a register
** becoming readable, a pipe freeing, a reply arriving, room for a refused
** send) and accounts the skipped cycles as copies of the last one.  The deadlock
** watchdog stops a run in which no instruction issued or load returned for
** `watchdog_cycles`; a launch whose warps keep issuing without any of them
** finishing or passing a barrier (a spin that never ends) stops at its
** progress limit with the same dump, and so does one interrupted by the
** host.  Nothing here depends on wall-clock time or host addresses: runs
** are deterministic.
*/
#include "gpu.h"
#include "../common/clock.h"
#include "../core/core.h"
#include "../mem/backend.h"
#include "../mem/memsys.h"
#include "../mem/dupmshr.h"
#include "hint.h"
#include "l1_trace.h"
#include "smpar.h"
#include <stdio.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

/* the port an SM sends through: stamps the request's launch-wide warp id
   and counts it, then hands it to the memory's own port */
/* a cache line each: the SMs' threads count their sends here (smpar.c) */
typedef struct gpu_port {
    _Alignas(64) gpu *g;
    uint32_t sm;
    mem_port below;
    uint64_t requests, request_bytes;   /* this SM's, summed per kernel */
} gpu_port;

struct gpu {
    gpu_config cfg;
    uint32_t nsm;
    core_sm **sms;
    mem_lower mem;
    gpu_port *gports;
    mem_port *ports;              /* per SM, over gports */
    ws_resolved_policies pol;     /* the policies every unit runs */
    void *cta_map_st;
    ws_sm_view *smv;
    gpu_clocks clk;
    uint64_t cycle;
    /* the running kernel */
    emu_launch *launch;
    bool oom;                     /* the host ran out of memory for a send */
    uint32_t warps_per_cta;
    uint64_t launches;            /* kernels run so far (ws_launch_info.seq) */
    bool refusing;                /* the memory refused a send last cycle */
    bool mem_due;                 /* the memory's span up to `cycle` is still to run
                                     (beside the next tick: gpu_step) */
    l1_trace *l1trace;            /* the L1D access stream (l1d_trace, l1d_belady); NULL: off */
    uint64_t *sm_insns;           /* per SM, for the stream's kernel ends */
    mem_dup_mshr dup;             /* duplicate-MSHR record (dup_mshr_window > 0) */
    const char *hint_override;    /* launch hints over cfg.hals_hint (borrowed) */
    smpar *par;                   /* the SMs' tick and its per-SM state (smpar.c) */
};

/* ------------------------------------------------------------------ */
/* The memory below the L1s                                            */
/* ------------------------------------------------------------------ */

/* The simple backend behind mem_lower: one FIFO for all SMs, on the core
   clock; it changes only when a reply is taken. */
static mem_port sb_port(void *impl, uint32_t sm) { (void)sm; return mem_backend_port(impl); }
static bool sb_recv(void *impl, uint64_t c, mem_req *out)
{
    mem_port p = mem_backend_port(impl);
    return p.recv(impl, c, out);
}
static void sb_advance(void *impl, uint64_t c) { (void)impl; (void)c; }
static uint64_t sb_run_until(void *impl, uint64_t c, uint64_t limit)
{
    uint64_t t = mem_backend_next_ready(impl);
    return t <= c ? c : t < limit ? t : limit;
}
static uint32_t sb_in_flight(const void *impl) { return mem_backend_in_flight(impl); }
static bool sb_refusing(const void *impl) { return mem_backend_full(impl); }
static void sb_skipped(void *impl, uint64_t n, uint32_t w) { (void)impl; (void)n; (void)w; }
static void sb_stats(const void *impl, gpu_mem_stats *o) { (void)impl; memset(o, 0, sizeof *o); }
static void sb_kernel(void *impl, const ws_launch_info *k, bool begin)
{
    (void)impl; (void)k; (void)begin;     /* no memory-side policies */
}
static void sb_free(void *impl) { mem_backend_free(impl); }
static void sb_dump(const void *impl, char *buf, size_t len)
{
    size_t u = strlen(buf);
    if (u + 1 < len)
        snprintf(buf + u, len - u, "memory backend: %u requests in flight\n",
                 mem_backend_in_flight(impl));
}

static mem_lower gpu_simple_lower(mem_backend *be)
{
    return (mem_lower){ .impl = be, .port = sb_port, .recv = sb_recv, .advance = sb_advance,
                        .run_until = sb_run_until, .in_flight = sb_in_flight,
                        .refusing = sb_refusing, .skipped = sb_skipped, .stats = sb_stats,
                        .kernel = sb_kernel, .dump = sb_dump, .free = sb_free };
}

/* mem_warp_info for the DRAM schedulers: instructions the warp of `r`
   retired (its SM's live count; a finished warp retired its whole
   profile), and what the oracle profile says it has left. */
static void gpu_warp_progress(void *ctx, const mem_req *r, int64_t *retired, int64_t *remaining)
{
    const gpu *g = ctx;
    *retired = *remaining = -1;
    if (r->sm >= g->nsm || r->warp_uid == UINT64_MAX) return;
    uint64_t uid = UINT64_MAX;
    const emu_warp *ew = core_sm_warp(g->sms[r->sm], r->warp, &uid);
    bool live = ew && uid == r->warp_uid;
    if (live) *retired = (int64_t)ew->warp_insns;
    const emu_profile *p = g->launch ? g->launch->profile : NULL;
    if (!p || !p->total || r->warp_uid >= p->nwarps) return;
    uint64_t total = p->total[r->warp_uid];
    if (!live) *retired = (int64_t)total;
    *remaining = total > (uint64_t)*retired ? (int64_t)(total - (uint64_t)*retired) : 0;
}

static bool gp_can_send(void *impl)
{
    gpu_port *p = impl;
    return p->below.can_send(p->below.impl);
}

static bool gp_send(void *impl, const mem_req *r, uint64_t cycle)
{
    gpu_port *p = impl;
    gpu *g = p->g;
    mem_req q = *r;
    uint64_t uid = UINT64_MAX;
    core_sm_warp(g->sms[p->sm], r->warp, &uid);
    q.warp_uid = uid;
    q.sent = cycle;
    if (!p->below.send(p->below.impl, &q, cycle)) return false;
    p->requests++;
    p->request_bytes += r->bytes;
    return true;
}

static bool gp_refusing(void *impl)
{
    gpu_port *p = impl;
    return p->below.refusing && p->below.refusing(p->below.impl);
}

static bool gp_recv(void *impl, uint64_t cycle, mem_req *out)
{
    gpu_port *p = impl;
    return p->below.recv(p->below.impl, cycle, out);
}

/* The memory of `g->cfg`: the simple backend or the full system. */
static int gpu_make_memory(gpu *g, char *err, size_t errlen)
{
    gpu_config *c = &g->cfg;
    if (c->unlimited_mem) {
        /* no L1 back-pressure: room for every thread's own line twice over
           (a fully scattered load per warp, and the next one) in L1D, and
           for every warp's loads of one line (parameters, constants) */
        gpu_cache_config *l1[3] = { &c->l1d, &c->l1c, &c->l1t };
        uint32_t warps = gpu_config_max_warps(c);
        for (int i = 0; i < 3; i++) {
            uint32_t n = i == 0 ? c->max_threads_per_sm * 2 : 512;
            uint32_t merge = i == 0 ? warps * 2 : warps * 4;
            if (l1[i]->mshr_entries < n) l1[i]->mshr_entries = n;
            if (l1[i]->miss_queue < n) l1[i]->miss_queue = n;
            if (l1[i]->mshr_merge < merge) l1[i]->mshr_merge = merge;
        }
        if (c->mem_queue < (1u << 16)) c->mem_queue = 1u << 16;
    }
    if (strcmp(c->memory_model, "full") == 0) {
        /* per-request warp counters only for a DRAM scheduler that asks */
        bool counters = g->pol.dram && (g->pol.dram->needs & WS_NEED_WARP_COUNTERS);
        mem_warp_info info = { .ctx = g, .get = counters ? gpu_warp_progress : NULL };
        mem_sys *ms = mem_sys_new(c, g->nsm, g->pol.dram, &g->pol.params[WS_KIND_DRAM],
                                  g->pol.dram_prefetch, &g->pol.params[WS_KIND_DRAM_PREFETCH],
                                  info, err, errlen);
        if (!ms) return -1;
        g->mem = mem_sys_lower(ms);
    } else {
        mem_backend *be = mem_backend_new(c->mem_latency, c->mem_bytes_per_cycle, c->mem_queue);
        if (!be) {
            snprintf(err, errlen, "out of host memory creating the GPU");
            return -1;
        }
        g->mem = gpu_simple_lower(be);
    }
    g->gports = aligned_alloc(_Alignof(gpu_port), g->nsm * sizeof *g->gports);
    g->ports = calloc(g->nsm, sizeof *g->ports);
    if (!g->gports || !g->ports) {
        snprintf(err, errlen, "out of host memory creating the GPU");
        return -1;
    }
    for (uint32_t i = 0; i < g->nsm; i++) {
        g->gports[i] = (gpu_port){ .g = g, .sm = i, .below = g->mem.port(g->mem.impl, i) };
        g->ports[i] = (mem_port){ .impl = &g->gports[i], .can_send = gp_can_send,
                                  .send = gp_send, .recv = gp_recv,
                                  .refusing = gp_refusing };
    }
    return 0;
}

/* ------------------------------------------------------------------ */
/* Creation                                                            */
/* ------------------------------------------------------------------ */

/* The duplicate-MSHR record of the HALS statistics, when dup_mshr_window
   asks for it, wired to every SM (the SMs tick one after another, so one
   shared record stays deterministic). */
static int gpu_dup_new(gpu *g, char *err, size_t errlen)
{
    if (!g->cfg.dup_mshr_window) return 0;
    if (mem_dup_mshr_init(&g->dup, g->cfg.dup_mshr_window)) {
        snprintf(err, errlen, "out of host memory for the duplicate-MSHR record");
        return -1;
    }
    for (uint32_t i = 0; i < g->nsm; i++) core_sm_set_dup_mshr(g->sms[i], &g->dup);
    return 0;
}

/* The L1D access-stream recorder, when l1d_trace or l1d_belady asks for
   it, wired to every SM.  0, or -1 with err (e.g. the file cannot be
   created: before cycle 0, so nothing is lost). */
static int gpu_l1_stream_new(gpu *g, char *err, size_t errlen)
{
    g->l1trace = l1_trace_new(&g->cfg, g->nsm, err, errlen);
    if (!g->l1trace) return err[0] ? -1 : 0;
    if (!(g->sm_insns = calloc(g->nsm, sizeof *g->sm_insns))) {
        snprintf(err, errlen, "out of host memory creating the GPU");
        return -1;
    }
    for (uint32_t i = 0; i < g->nsm; i++) core_sm_set_l1d_sink(g->sms[i], l1_trace_sink(g->l1trace));
    return 0;
}

/* The kernel's end for the access stream: replay and/or write it.  A
   failure becomes the launch's error unless it already has one. */
static int gpu_l1_stream_kernel_end(gpu *g, gpu_kernel_stats *st, int rc, char *err,
                                    size_t errlen)
{
    if (!g->l1trace) return rc;
    char e[1280];
    for (uint32_t i = 0; i < g->nsm; i++) g->sm_insns[i] = core_sm_warp_insns(g->sms[i]);
    if (l1_trace_kernel_end(g->l1trace, g->sm_insns, st, e, sizeof e) == 0 || rc) return rc;
    snprintf(err, errlen, "%s", e);
    return -1;
}

gpu *gpu_new_with(const gpu_config *cfg, const ws_resolved_policies *rp,
                  char *err, size_t errlen)
{
    gpu *g = calloc(1, sizeof *g);
    if (!g) {
        snprintf(err, errlen, "out of host memory creating the GPU");
        return NULL;
    }
    g->cfg = *cfg;
    g->pol = *rp;
    /* DRAM policies run (and need their inputs) only with the full memory */
    bool full = strcmp(cfg->memory_model, "full") == 0;
    g->pol.needs = (rp->warp ? rp->warp->needs : 0) | (rp->fetch ? rp->fetch->needs : 0)
                 | (rp->cta_map ? rp->cta_map->needs : 0)
                 | (full && rp->dram ? rp->dram->needs : 0)
                 | (full && rp->dram_prefetch ? rp->dram_prefetch->needs : 0);
    if (!g->cfg.n_schedulers) g->cfg.n_schedulers = 1;
    if (!g->cfg.issue_width) g->cfg.issue_width = 1;
    if (!g->cfg.fetch_width) g->cfg.fetch_width = 1;
    if (!g->cfg.ibuffer_size) g->cfg.ibuffer_size = 2;
    if (!g->cfg.decode_latency) g->cfg.decode_latency = 1;   /* hand-filled configs */
    g->nsm = gpu_config_n_sm(&g->cfg);
    if (!g->nsm || gpu_config_max_warps(&g->cfg) == 0) {
        snprintf(err, errlen, "the configuration has no SM or no warp slot "
                 "(n_clusters=%u, cores_per_cluster=%u, max_threads_per_sm=%u)",
                 cfg->n_clusters, cfg->cores_per_cluster, cfg->max_threads_per_sm);
        free(g);
        return NULL;
    }
    gpu_clocks_init(&g->clk, cfg->core_mhz, cfg->icnt_mhz, cfg->l2_mhz, cfg->dram_mhz);
    g->sms = calloc(g->nsm, sizeof *g->sms);
    g->smv = calloc(g->nsm, sizeof *g->smv);
    if (!g->sms || !g->smv) {
        snprintf(err, errlen, "out of host memory creating the GPU");
        gpu_free(g);
        return NULL;
    }
    if (gpu_make_memory(g, err, errlen)) {
        gpu_free(g);
        return NULL;
    }
    for (uint32_t i = 0; i < g->nsm; i++)
        if (!(g->sms[i] = core_sm_new(i, g->nsm, &g->cfg, &g->pol, err, errlen))) {
            gpu_free(g);
            return NULL;
        }
    const ws_cta_map_ops *cm = g->pol.cta_map;
    ws_policy_env env = { .nsms = g->nsm, .nwarps = core_sm_slots(g->sms[0]),
                          .nsched = core_sm_schedulers(g->sms[0]),
                          .max_ctas = core_sm_cta_slots(g->sms[0]) };
    if (cm && cm->init && !(g->cta_map_st = cm->init(&g->pol.params[WS_KIND_CTA_MAP], &env))) {
        snprintf(err, errlen, "CTA placement policy '%s' failed to initialise", cm->name);
        gpu_free(g);
        return NULL;
    }
    if (gpu_l1_stream_new(g, err, errlen) || gpu_dup_new(g, err, errlen)) {
        gpu_free(g);
        return NULL;
    }
    /* one thread where the SMs share more than smpar.c separates: the
       simple backend's one queue, the GPU-wide L1D stream and MSHR record */
    uint32_t threads = g->mem.defer && g->mem.recv_sm && !g->l1trace && !g->dup.e
                     ? g->cfg.threads : 1;
    if (!(g->par = smpar_new(g->nsm, threads))) {
        snprintf(err, errlen, "could not start %u host threads for the SMs", threads);
        gpu_free(g);
        return NULL;
    }
    if (g->mem.defer) g->mem.defer(g->mem.impl, true);
    return g;
}

void gpu_free(gpu *g)
{
    if (!g) return;
    char e[1280];
    /* the trace file is renamed into place here; gpu_free has no error
       path, so a failure is said on stderr (the .tmp file keeps the data) */
    if (l1_trace_close(g->l1trace, e, sizeof e)) fprintf(stderr, "warpsim: %s\n", e);
    free(g->sm_insns);
    smpar_free(g->par);
    mem_dup_mshr_release(&g->dup);
    for (uint32_t i = 0; g->sms && i < g->nsm; i++) core_sm_free(g->sms[i]);
    if (g->cta_map_st && g->pol.cta_map->destroy) g->pol.cta_map->destroy(g->cta_map_st);
    if (g->mem.free) g->mem.free(g->mem.impl);
    free(g->gports);
    free(g->ports);
    free(g->sms);
    free(g->smv);
    free(g);
}

void gpu_host_copy(gpu *g, uint64_t addr, uint64_t bytes)
{
    if (g->cfg.l2_warm_on_copy && g->mem.host_copy && bytes)
        g->mem.host_copy(g->mem.impl, addr, bytes);
}

uint64_t gpu_cycle(const gpu *g) { return g->cycle; }
uint32_t gpu_policy_needs(const gpu *g) { return g->pol.needs; }
const gpu_config *gpu_get_config(const gpu *g) { return &g->cfg; }
void gpu_set_launch_hints(gpu *g, const char *list) { g->hint_override = list; }

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
    uint32_t nctas, next_cta;     /* next_cta: the lowest CTA not yet placed */
    uint32_t placed;
    bool *assigned;               /* [nctas] */
    uint32_t warps_per_cta, regs_per_cta, shmem;
    ws_launch_info info;          /* what policies see of the kernel */
} gpu_kernel_run;

/* The SMs' room for one more CTA; false when none has any. */
static bool gpu_sm_views(gpu *g, const gpu_kernel_run *k)
{
    bool any = false;
    for (uint32_t i = 0; i < g->nsm; i++) {
        const core_sm *s = g->sms[i];
        g->smv[i] = (ws_sm_view){ .sm = i, .ctas = core_sm_live_ctas(s),
            .warps = core_sm_live_warps(s),
            .fits = core_sm_fits(s, k->warps_per_cta, k->regs_per_cta, k->shmem) };
        any |= g->smv[i].fits;
    }
    return any;
}

/* Place waiting CTAs while some SM has room and the placement policy
   chooses a (CTA, SM) pair; it may take the CTAs in any order. */
static int gpu_dispatch(gpu *g, gpu_kernel_run *k, char *err, size_t errlen)
{
    const ws_cta_map_ops *cm = g->pol.cta_map;
    while (k->placed < k->nctas && gpu_sm_views(g, k)) {
        ws_cta_choice c = { .cta = k->next_cta, .sm = 0 };
        if (cm && cm->place) {
            ws_cta_map_view v = { .cycle = g->cycle, .nctas = k->nctas, .next_cta = k->next_cta,
                                  .placed = k->placed, .assigned = k->assigned,
                                  .nsms = g->nsm, .sms = g->smv, .kernel = &k->info };
            if (!cm->place(g->cta_map_st, &v, &c)) return 0;
            if (c.cta >= k->nctas || k->assigned[c.cta] || c.sm >= g->nsm || !g->smv[c.sm].fits) {
                snprintf(err, errlen, "CTA placement policy '%s' chose CTA %u on SM %u: %s",
                         cm->name, c.cta, c.sm,
                         c.cta >= k->nctas || k->assigned[c.cta] ? "not an unplaced CTA"
                                                                  : "that SM cannot take it");
                return -1;
            }
        } else {
            /* no policy: the next CTA on the first SM with room after it */
            uint32_t j = 0;
            while (j < g->nsm && !g->smv[(k->next_cta + j) % g->nsm].fits) j++;
            c.sm = (k->next_cta + j) % g->nsm;
        }
        if (core_sm_launch_cta(g->sms[c.sm], c.cta, k->regs_per_cta, k->shmem, g->cycle)) {
            snprintf(err, errlen, "out of host memory starting CTA %u", c.cta);
            return -1;
        }
        k->assigned[c.cta] = true;
        k->placed++;
        while (k->next_cta < k->nctas && k->assigned[k->next_cta]) k->next_cta++;
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
    to->mshr_allocs += s->mshr_allocs;
    to->reservation_fails += s->reservation_fails;
    to->reservation_fails_set += s->reservation_fails_set;
    to->evictions += s->evictions;
    to->writebacks += s->writebacks;
    to->mshr_occupancy_sum += s->mshr_occupancy_sum;
    to->cls_intra_thread += s->cls_intra_thread;
    to->cls_inter_thread += s->cls_inter_thread;
    to->cls_inter_warp += s->cls_inter_warp;
    to->cls_miss += s->cls_miss;
}

static void gpu_collect(gpu *g, gpu_kernel_stats *st)
{
    memset(&st->l1d, 0, sizeof st->l1d);
    memset(&st->l1c, 0, sizeof st->l1c);
    memset(&st->l1t, 0, sizeof st->l1t);
    memset(&st->l1i, 0, sizeof st->l1i);
    for (uint32_t i = 0; i < g->nsm; i++) {
        gpu_add_cache(&st->l1d, mem_l1_stats(core_sm_l1(g->sms[i], CORE_C_L1D)));
        gpu_add_cache(&st->l1c, mem_l1_stats(core_sm_l1(g->sms[i], CORE_C_L1C)));
        gpu_add_cache(&st->l1t, mem_l1_stats(core_sm_l1(g->sms[i], CORE_C_L1T)));
        const mem_l1 *l1i = core_sm_l1(g->sms[i], CORE_C_L1I);
        if (l1i) gpu_add_cache(&st->l1i, mem_l1_stats(l1i));
    }
}

/* Record time-series samples for every interval boundary up to `cycle`. */
static void gpu_take_samples(gpu *g, gpu_kernel_stats *st, uint64_t *next_sample, uint64_t cycle)
{
    uint64_t iv = g->cfg.timeseries_interval;
    if (!iv || *next_sample > cycle) return;
    for (uint32_t i = 0; i < g->nsm; i++) core_sm_settle(g->sms[i]);
    smpar_fold(g->par, st);          /* the SMs' counters so far */
    while (*next_sample <= cycle) {
        uint32_t n = st->nsamples;
        if (n == 0 || (n >= 16 && (n & (n - 1)) == 0)) {   /* full at 16, 32, 64, ... */
            uint32_t cap = n ? n * 2 : 16;
            gpu_sample *p = realloc(st->samples, cap * sizeof *p);
            if (!p) return;
            st->samples = p;
        }
        uint32_t live = 0;
        uint64_t misses = 0, accesses = 0;
        for (uint32_t i = 0; i < g->nsm; i++) {
            const gpu_cache_stats *l1d = mem_l1_stats(core_sm_l1(g->sms[i], CORE_C_L1D));
            live += core_sm_live_warps(g->sms[i]);
            misses += l1d->misses;
            accesses += l1d->accesses;
        }
        uint64_t wi = st->warp_insns, ti = st->thread_insns;
        /* add what resident CTAs executed so far (finished CTAs are in st),
           their finished warps included */
        for (uint32_t i = 0; i < g->nsm; i++) core_sm_insns_resident(g->sms[i], &wi, &ti);
        gpu_sample *sp = &st->samples[st->nsamples++];
        memset(sp, 0, sizeof *sp);     /* padding too: samples compare bytewise */
        sp->cycle = *next_sample - st->start_cycle;
        sp->warp_insns = wi;
        sp->thread_insns = ti;
        sp->active_warps = live;
        sp->l1d_misses = misses;
        sp->lsu_stall_cycles = st->lsu_stall_cycles;
        sp->l1d_accesses = accesses;
        /* the scheduler's counters so far (their names: the kernel's, set
           by core_sm_end_kernel, which runs however the kernel ends) */
        for (uint32_t i = 0; i < g->nsm; i++)
            core_sm_policy_counters(g->sms[i], sp->policy, NULL);
        *next_sample += iv;
    }
}

/* ------------------------------------------------------------------ */
/* The cycle loop                                                      */
/* ------------------------------------------------------------------ */

/* The memory's span up to `cycle`, if it waits for the next tick. */
static void gpu_mem_catch_up(gpu *g)
{
    if (!g->mem_due) return;
    g->mem_due = false;
    g->mem.advance(g->mem.impl, g->cycle);
}

static void gpu_dump(gpu *g, const char *why, char *err, size_t errlen)
{
    gpu_mem_catch_up(g);       /* the state the serial order stops in */
    snprintf(err, errlen, "%s at cycle %" PRIu64 "\n", why, g->cycle);
    g->mem.dump(g->mem.impl, err, errlen);
    for (uint32_t i = 0; i < g->nsm; i++) core_sm_dump(g->sms[i], g->cycle, err, errlen);
}

/*
** A launch that made no progress for its progress limit (emu_launch:
** warp instructions with no warp finishing and no barrier completing),
** or whose host asked it to stop: the watchdog's dump, kept as the
** launch's fault so that the host API can tell a hang from a deadlock.
*/
static int gpu_check_stop(gpu *g, emu_launch *l, char *err, size_t errlen)
{
    emu_fault_kind kind;
    char why[256];
    if (l->interrupt && *l->interrupt) {
        kind = EMU_FAULT_INTERRUPT;
        snprintf(why, sizeof why, "interrupted (SIGINT)");
    } else if (l->progress_limit && l->idle_insns >= l->progress_limit) {
        kind = EMU_FAULT_HANG;
        snprintf(why, sizeof why, "no progress: %" PRIu64 " warp instructions executed with "
                 "no warp finishing and no barrier completing (progress_limit %" PRIu64
                 "); the kernel never finishes (a busy loop, or a spin-wait nothing will "
                 "end)", l->idle_insns, l->progress_limit);
    } else {
        return 0;
    }
    gpu_dump(g, why, err, errlen);
    if (l->fault.kind == EMU_OK) {
        l->fault.kind = kind;
        snprintf(l->fault.msg, sizeof l->fault.msg, "kernel '%s': %s",
                 l->mod->funcs[l->func].name, err);
    }
    return -1;
}

static bool gpu_all_idle(const gpu *g)
{
    if (g->mem.in_flight(g->mem.impl)) return false;
    for (uint32_t i = 0; i < g->nsm; i++)
        if (!core_sm_idle(g->sms[i])) return false;
    return true;
}

static void gpu_mem_span(void *ctx)
{
    gpu *g = ctx;
    g->mem.advance(g->mem.impl, g->cycle);
}

/* One core cycle, after the memory's span before it: beside the SMs'
   tick when the memory is busy and can do first what the tick reads of
   the span (mem_lower.prepare), else first.  Returns true when something
   happened (no skipping). */
static bool gpu_step(gpu *g, gpu_kernel_stats *st)
{
    uint64_t now = g->cycle;
    bool side = g->mem_due && g->mem.in_flight(g->mem.impl)
                && g->mem.prepare(g->mem.impl, now);
    if (!side) gpu_mem_catch_up(g);
    g->mem_due = false;
    bool busy = smpar_tick(g->par, g->sms, g->ports, &g->mem, g->launch->gmem, now,
                           side ? gpu_mem_span : NULL, g);
    if (smpar_commit(g->par, g->launch, &g->mem, now)) g->oom = true;
    busy |= smpar_active(g->par);
    g->refusing = g->mem.refusing(g->mem.impl);
    if (g->refusing) st->mem_queue_full_cycles++;
    return busy;
}

/* Jump over `n` cycles in which no SM changes (the memory has already
   run through them). */
static void gpu_skip(gpu *g, gpu_kernel_stats *st, uint64_t n)
{
    uint32_t waiting = 0;    /* L1 queues whose send the memory refuses each cycle */
    for (uint32_t i = 0; i < g->nsm; i++) {
        core_sm_account_skip(g->sms[i], n);
        for (int c = 0; c < CORE_C_COUNT; c++) waiting += mem_l1_queue_len(core_sm_l1(g->sms[i], c)) > 0;
        const mem_l1 *l1i = core_sm_l1(g->sms[i], CORE_C_L1I);   /* NULL: perfect I-cache */
        if (l1i) waiting += mem_l1_queue_len(l1i) > 0;
    }
    g->mem.skipped(g->mem.impl, n, waiting);
    if (g->refusing) st->mem_queue_full_cycles += n;
    st->skipped_cycles += n;
    g->cycle += n;
    gpu_clocks_advance(&g->clk, n, NULL);
}

/* A cycle in which nothing happened: the next timed event, or where the
   watchdog, max_cycles or a time-series sample would stop the loop (at
   most the current cycle: no skip). */
static uint64_t gpu_skip_to(const gpu *g, const gpu_kernel_stats *st, uint64_t next_sample)
{
    const gpu_config *c = &g->cfg;
    uint64_t next = smpar_wake(g->par);   /* the earliest an SM's timer is due */
    uint64_t quiet_since = smpar_progress(g->par);
    if (c->watchdog_cycles && quiet_since + c->watchdog_cycles < next)
        next = quiet_since + c->watchdog_cycles;
    if (c->max_cycles && st->start_cycle + c->max_cycles < next)
        next = st->start_cycle + c->max_cycles;
    if (c->timeseries_interval && next_sample < next) next = next_sample;
    return next;
}

static int gpu_loop(gpu *g, gpu_kernel_run *k, gpu_kernel_stats *st, char *err, size_t errlen)
{
    const gpu_config *c = &g->cfg;
    uint64_t next_sample = st->start_cycle + c->timeseries_interval;
    g->mem_due = false;
    for (uint32_t i = 0; i < g->nsm; i++) core_sm_set_last_progress(g->sms[i], g->cycle);
    smpar_scan(g->par, g->sms);
    for (;;) {
        uint64_t ran = g->cycle - st->start_cycle;
        if (c->max_cycles && ran >= c->max_cycles) {
            char why[128];
            snprintf(why, sizeof why, "stopped: the kernel reached max_cycles (%" PRIu64 ")",
                     c->max_cycles);
            gpu_dump(g, why, err, errlen);
            return -1;
        }
        uint64_t quiet_since = smpar_progress(g->par);
        if (c->watchdog_cycles && g->cycle - quiet_since >= c->watchdog_cycles) {
            char why[160];
            snprintf(why, sizeof why, "deadlock watchdog: no instruction issued or load "
                     "returned for %" PRIu64 " cycles", g->cycle - quiet_since);
            gpu_dump(g, why, err, errlen);
            return -1;
        }
        if (gpu_check_stop(g, k->l, err, errlen)) return -1;
        bool busy = gpu_step(g, st);
        if (g->oom) {
            snprintf(err, errlen, "out of host memory for an interconnect packet at cycle %"
                     PRIu64, g->cycle);
            return -1;
        }
        if (smpar_faulted(g->par)) return -1;
        bool freed = false;
        if (smpar_freed(g->par))
            for (uint32_t i = 0; i < g->nsm; i++) freed |= core_sm_take_cta_freed(g->sms[i]);
        if (freed && k->placed < k->nctas) {
            if (gpu_dispatch(g, k, err, errlen)) return -1;
            busy = true;
        }
        gpu_take_samples(g, st, &next_sample, g->cycle);
        g->cycle++;
        gpu_clocks_advance(&g->clk, 1, NULL);
        /* (the memory's span changes neither what is in flight nor the
           SMs, so neither whether the kernel is done nor where a skip
           could go) */
        bool done = k->placed == k->nctas && gpu_all_idle(g);
        uint64_t next = busy || !c->skip_idle_cycles ? g->cycle : gpu_skip_to(g, st, next_sample);
        if (!done && next <= g->cycle && g->mem.prepare) {
            g->mem_due = true;         /* the next tick comes at once: gpu_step */
            continue;
        }
        g->mem.advance(g->mem.impl, g->cycle);
        if (done) return 0;
        if (next <= g->cycle) continue;
        /* the memory runs ahead, stopping where an SM could see it */
        next = g->mem.run_until(g->mem.impl, g->cycle, next);
        if (next == CORE_NEVER || next <= g->cycle) continue;
        gpu_skip(g, st, next - g->cycle);
    }
}

/* What policies see of the kernel `k` runs: shape, occupancy, and the
   program and oracle views when a policy declared it needs them. */
static void gpu_kernel_info(const gpu *g, gpu_kernel_run *k, const gpu_kernel_stats *st,
                            const ws_prog_uop *prog, ws_program_view *pv, ws_oracle_view *ov)
{
    const emu_launch *l = k->l;
    ws_launch_info *ki = &k->info;
    *ki = (ws_launch_info){ .name = st->name, .seq = g->launches, .nctas = k->nctas,
                            .warps_per_cta = k->warps_per_cta, .ctas_per_sm = st->ctas_per_sm,
                            .nsms = g->nsm, .regs_per_thread = st->regs_per_thread,
                            .shared_bytes = l->shared_bytes };
    memcpy(ki->grid, l->grid, sizeof ki->grid);
    memcpy(ki->block, l->block, sizeof ki->block);
    /* the host's hints (WARPSIM_LAUNCH_HINT) override the configuration's
       for the kernels they name */
    if (!gpu_hint_lookup(g->hint_override, st->name, &ki->hint)
        && !gpu_hint_lookup(g->cfg.hals_hint, st->name, &ki->hint))
        ki->hint = 0;
    if (prog) {
        *pv = (ws_program_view){ .nuops = l->mod->nuops, .uops = prog,
                                 .entry_pc = l->mod->funcs[l->func].uop_begin,
                                 .end_pc = l->mod->funcs[l->func].uop_end };
        ki->prog = pv;
    }
    const emu_profile *p = l->profile;
    if ((g->pol.needs & WS_NEED_ORACLE) && p && p->total) {
        *ov = (ws_oracle_view){ .nwarps = p->nwarps, .total = p->total, .mem = p->mem,
                                .ivl_start = p->ivl_start, .ivl_insns = p->ivl_insns,
                                .ivl_mem = p->ivl_mem, .ivl_dev = p->ivl_dev };
        ki->oracle = ov;
    }
}

ws_prog_uop *gpu_program_view(const ptx_module *m)
{
    gpu_config cfg;
    gpu_config_defaults(&cfg);      /* only units and latencies depend on it */
    core_uinfo *ui = core_decode_module(m, &cfg);
    ws_prog_uop *prog = ui ? core_program_view(m, ui) : NULL;
    free(ui);
    return prog;
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
    ws_prog_uop *prog = ui && (g->pol.needs & WS_NEED_PROGRAM)
                        ? core_program_view(l->mod, ui) : NULL;
    k.assigned = calloc(k.nctas ? k.nctas : 1, sizeof *k.assigned);
    if (!ui || !k.assigned || ((g->pol.needs & WS_NEED_PROGRAM) && !prog)) {
        snprintf(err, errlen, "out of host memory decoding kernel '%s'", st->name);
        free(ui);
        free(prog);
        free(k.assigned);
        return -1;
    }
    ws_program_view pv;
    ws_oracle_view ov;
    gpu_kernel_info(g, &k, st, prog, &pv, &ov);
    for (uint32_t i = 0; i < g->nsm; i++) g->gports[i].requests = g->gports[i].request_bytes = 0;
    gpu_mem_stats mem0;
    g->launch = l;
    g->warps_per_cta = k.warps_per_cta;
    g->mem.kernel(g->mem.impl, &k.info, true);
    g->mem.stats(g->mem.impl, &mem0);
    if (g->dup.e) mem_dup_mshr_clear(&g->dup);
    const ws_cta_map_ops *cm = g->pol.cta_map;
    if (cm && cm->kernel_begin) cm->kernel_begin(g->cta_map_st, &k.info);
    smpar_kernel_begin(g->par, l, st);
    for (uint32_t i = 0; i < g->nsm; i++)
        core_sm_begin_kernel(g->sms[i], smpar_launch(g->par, i), ui, smpar_stats(g->par, i),
                             &k.info, g->cycle);
    int rc = gpu_dispatch(g, &k, err, errlen);
    if (rc == 0) rc = gpu_loop(g, &k, st, err, errlen);
    for (uint32_t i = 0; i < g->nsm; i++) {
        core_sm_abort(g->sms[i]);
        core_sm_end_kernel(g->sms[i], g->cycle);
    }
    smpar_kernel_end(g->par, l, st);
    if (rc && l->fault.kind != EMU_OK) snprintf(err, errlen, "%s", l->fault.msg);
    if (cm && cm->kernel_end) cm->kernel_end(g->cta_map_st, &k.info);
    g->mem.kernel(g->mem.impl, &k.info, false);
    st->cycles = g->cycle - st->start_cycle;
    gpu_collect(g, st);
    st->dup_mshr_allocs = g->dup.allocs;
    st->dup_mshr_dups = g->dup.dups;
    rc = gpu_l1_stream_kernel_end(g, st, rc, err, errlen);
    for (uint32_t i = 0; i < g->nsm; i++) {
        st->mem_requests += g->gports[i].requests;
        st->mem_reply_bytes += g->gports[i].request_bytes;
    }
    gpu_mem_stats mem1;
    g->mem.stats(g->mem.impl, &mem1);
    mem_sys_stats_diff(&st->mem, &mem1, &mem0);
    g->launch = NULL;
    g->launches++;
    free(ui);
    free(prog);
    free(k.assigned);
    return rc;
}
