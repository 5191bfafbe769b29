/*
** report.c -- text and JSON reports of the timing model's counters
** (stats.h), per kernel launch and in total, and the time series.
** One emitter writes both formats, so text and JSON always carry the same
** fields; GPGPU-Sim's names are used where the meaning is the same
** (gpu_sim_cycle, gpu_sim_insn = thread instructions, gpu_ipc, L1D_...).
*/
#include "report.h"
#include <inttypes.h>
#include <string.h>

const char *const gpu_slot_names[GPU_SLOT_COUNT] = {
    [GPU_SLOT_ISSUED] = "issued", [GPU_SLOT_IDLE] = "idle",
    [GPU_SLOT_SCOREBOARD] = "scoreboard", [GPU_SLOT_UNIT_BUSY] = "unit_busy",
    [GPU_SLOT_MEM_VETO] = "mem_veto", [GPU_SLOT_BARRIER] = "barrier",
};

/* ------------------------------------------------------------------ */
/* The emitter: "name = value" lines or JSON members                   */
/* ------------------------------------------------------------------ */

typedef struct rep {
    FILE *out;
    bool json;
    int depth;          /* JSON nesting, for indentation */
    bool first;         /* no member written yet at this level */
    const char *prefix; /* text: printed before each name */
} rep;

static void json_str(FILE *out, const char *s)
{
    fputc('"', out);
    for (; s && *s; s++) {
        unsigned char ch = (unsigned char)*s;
        if (ch == '"' || ch == '\\') fprintf(out, "\\%c", ch);
        else if (ch < 0x20) fprintf(out, "\\u%04x", ch);
        else fputc(ch, out);
    }
    fputc('"', out);
}

static void member(rep *r, const char *name)
{
    if (r->json) {
        fprintf(r->out, "%s\n%*s", r->first ? "" : ",", 2 * r->depth, "");
        json_str(r->out, name);
        fputs(": ", r->out);
    } else {
        fprintf(r->out, "%s%s = ", r->prefix, name);
    }
    r->first = false;
}

static void put_u64(rep *r, const char *name, uint64_t v)
{
    member(r, name);
    fprintf(r->out, "%" PRIu64 "%s", v, r->json ? "" : "\n");
}

static void put_f(rep *r, const char *name, double v)
{
    member(r, name);
    fprintf(r->out, "%.6f%s", v, r->json ? "" : "\n");
}

static void put_s(rep *r, const char *name, const char *v)
{
    member(r, name);
    if (r->json) json_str(r->out, v ? v : "");
    else fprintf(r->out, "%s\n", v ? v : "");
}

static void put_dim(rep *r, const char *name, const uint32_t d[3])
{
    member(r, name);
    fprintf(r->out, r->json ? "[%u, %u, %u]" : "(%u,%u,%u)\n", d[0], d[1], d[2]);
}

static void open_obj(rep *r, const char *name)
{
    if (!r->json) return;
    if (name) member(r, name);
    fputc('{', r->out);
    r->depth++;
    r->first = true;
}

static void close_obj(rep *r)
{
    if (!r->json) return;
    r->depth--;
    fprintf(r->out, "\n%*s}", 2 * r->depth, "");
    r->first = false;
}

static double ratio(uint64_t a, uint64_t b) { return b ? (double)a / (double)b : 0.0; }

/* ------------------------------------------------------------------ */
/* One launch (or the totals)                                          */
/* ------------------------------------------------------------------ */

/* L1D_total_cache_* as GPGPU-Sim names them (pending hits = merges into
   an outstanding MSHR), then ours. */
static void cache_fields(rep *r, const char *tag, const gpu_cache_stats *c, uint64_t sm_cycles)
{
    char n[64];
#define F(suffix) (snprintf(n, sizeof n, "%s_%s", tag, suffix), n)
    put_u64(r, F("total_cache_accesses"), c->accesses);
    put_u64(r, F("total_cache_misses"), c->misses);
    put_f(r, F("total_cache_miss_rate"), ratio(c->misses, c->accesses));
    put_u64(r, F("total_cache_pending_hits"), c->merges);
    put_u64(r, F("total_cache_reservation_fails"), c->reservation_fails);
    put_u64(r, F("hits"), c->hits);
    put_f(r, F("hit_rate"), ratio(c->hits, c->accesses));
    put_u64(r, F("evictions"), c->evictions);
    put_u64(r, F("writebacks"), c->writebacks);
    put_f(r, F("mshr_occupancy_per_sm_avg"), ratio(c->mshr_occupancy_sum, sm_cycles));
#undef F
}

/* Counters shared by a launch and the totals; `tot` picks the
   gpu_tot_* names GPGPU-Sim uses for totals. */
static void counter_fields(rep *r, const gpu_config *cfg, const gpu_kernel_stats *k, bool tot)
{
    put_u64(r, tot ? "gpu_tot_sim_cycle" : "gpu_sim_cycle", k->cycles);
    put_u64(r, tot ? "gpu_tot_sim_insn" : "gpu_sim_insn", k->thread_insns);
    put_f(r, tot ? "gpu_tot_ipc" : "gpu_ipc", ratio(k->thread_insns, k->cycles));
    put_u64(r, "warp_insns", k->warp_insns);
    put_f(r, "warp_ipc", ratio(k->warp_insns, k->cycles));
    put_f(r, "sim_time_us", cfg->core_mhz > 0 ? (double)k->cycles / cfg->core_mhz : 0.0);
    put_u64(r, "mem_insns", k->mem_insns);
    put_u64(r, "bar_insns", k->bar_insns);
    uint64_t slots = 0;
    for (int i = 0; i < GPU_SLOT_COUNT; i++) slots += k->slots[i];
    open_obj(r, "issue_slots");
    for (int i = 0; i < GPU_SLOT_COUNT; i++) {
        char n[48];
        snprintf(n, sizeof n, r->json ? "%s" : "issue_slots.%s", gpu_slot_names[i]);
        put_u64(r, n, k->slots[i]);
    }
    close_obj(r);
    put_f(r, "issue_slot_utilization", ratio(k->slots[GPU_SLOT_ISSUED], slots));
    put_u64(r, "lsu_stall_cycles", k->lsu_stall_cycles);
    put_u64(r, "shmem_accesses", k->shmem_accesses);
    put_u64(r, "shmem_conflict_cycles", k->shmem_conflict_cycles);
    put_u64(r, "gmem_transactions", k->gmem_transactions);
    uint64_t sm_cycles = k->cycles * (uint64_t)gpu_config_n_sm(cfg);
    cache_fields(r, "L1D", &k->l1d, sm_cycles);
    cache_fields(r, "L1C", &k->l1c, sm_cycles);
    cache_fields(r, "L1T", &k->l1t, sm_cycles);
    put_u64(r, "mem_requests", k->mem_requests);
    put_u64(r, "mem_reply_bytes", k->mem_reply_bytes);
    put_u64(r, "mem_queue_full_cycles", k->mem_queue_full_cycles);
    put_f(r, "active_warps_avg", ratio(k->active_warps_sum, k->cycles));
    put_f(r, "active_warps_per_sm_avg",
          ratio(k->active_warps_sum, k->cycles * (uint64_t)gpu_config_n_sm(cfg)));
    put_u64(r, "skipped_cycles", k->skipped_cycles);
}

static void launch_fields(rep *r, const gpu_config *cfg, const gpu_kernel_stats *k)
{
    put_s(r, "kernel", k->name);
    put_dim(r, "grid", k->grid);
    put_dim(r, "block", k->block);
    put_u64(r, "regs_per_thread", k->regs_per_thread);
    put_s(r, "regs_source", k->regs_source);
    put_u64(r, "shmem_per_cta", k->shmem_per_cta);
    put_u64(r, "ctas_per_sm", k->ctas_per_sm);
    put_s(r, "occupancy_limiter", k->occupancy_limiter);
    put_u64(r, "start_cycle", k->start_cycle);
    counter_fields(r, cfg, k, false);
}

void gpu_stats_accumulate(gpu_kernel_stats *s, const gpu_kernel_stats *k)
{
    s->cycles += k->cycles;
    s->warp_insns += k->warp_insns;
    s->thread_insns += k->thread_insns;
    s->mem_insns += k->mem_insns;
    s->bar_insns += k->bar_insns;
    for (int i = 0; i < GPU_SLOT_COUNT; i++) s->slots[i] += k->slots[i];
    s->lsu_stall_cycles += k->lsu_stall_cycles;
    s->shmem_accesses += k->shmem_accesses;
    s->shmem_conflict_cycles += k->shmem_conflict_cycles;
    s->gmem_transactions += k->gmem_transactions;
    gpu_cache_stats *d[3] = { &s->l1d, &s->l1c, &s->l1t };
    const gpu_cache_stats *c[3] = { &k->l1d, &k->l1c, &k->l1t };
    for (int i = 0; i < 3; i++) {
        d[i]->accesses += c[i]->accesses;
        d[i]->hits += c[i]->hits;
        d[i]->misses += c[i]->misses;
        d[i]->merges += c[i]->merges;
        d[i]->reservation_fails += c[i]->reservation_fails;
        d[i]->evictions += c[i]->evictions;
        d[i]->writebacks += c[i]->writebacks;
        d[i]->mshr_occupancy_sum += c[i]->mshr_occupancy_sum;
    }
    s->mem_requests += k->mem_requests;
    s->mem_reply_bytes += k->mem_reply_bytes;
    s->mem_queue_full_cycles += k->mem_queue_full_cycles;
    s->active_warps_sum += k->active_warps_sum;
    s->skipped_cycles += k->skipped_cycles;
}

/* ------------------------------------------------------------------ */
/* Whole reports                                                       */
/* ------------------------------------------------------------------ */

void gpu_report_kernel(FILE *out, const gpu_config *cfg, const gpu_kernel_stats *k)
{
    rep r = { .out = out, .json = false, .first = true, .prefix = "  " };
    fprintf(out, "kernel '%s' on %s (%u SMs):\n", k->name, cfg->preset, gpu_config_n_sm(cfg));
    launch_fields(&r, cfg, k);
}

static void report_text(FILE *out, const gpu_config *cfg, const gpu_kernel_stats *ks,
                        uint32_t n, const gpu_kernel_stats *tot)
{
    fprintf(out, "---- warpsim timing report: %u launch%s on %s (%u SMs, %s scheduler, "
            "core %.0f MHz) ----\n", n, n == 1 ? "" : "es", cfg->preset, gpu_config_n_sm(cfg),
            cfg->warp_scheduler, cfg->core_mhz);
    for (uint32_t i = 0; i < n; i++) {
        fprintf(out, "launch %u:\n", i + 1);
        rep r = { .out = out, .json = false, .first = true, .prefix = "  " };
        launch_fields(&r, cfg, &ks[i]);
    }
    fprintf(out, "total:\n");
    rep r = { .out = out, .json = false, .first = true, .prefix = "  " };
    put_u64(&r, "launches", n);
    counter_fields(&r, cfg, tot, true);
}

static void report_json(FILE *out, const gpu_config *cfg, const gpu_kernel_stats *ks,
                        uint32_t n, const gpu_kernel_stats *tot)
{
    fprintf(out, "{\n  \"simulator\": \"warpsim\",\n  \"model\": \"timing\",\n  \"config\": ");
    gpu_config_dump(cfg, out, true);
    fprintf(out, "  ,\"launches\": [");
    for (uint32_t i = 0; i < n; i++) {
        rep r = { .out = out, .json = true, .depth = 2, .first = true };
        fprintf(out, "%s\n    {", i ? "," : "");
        r.depth = 3;
        launch_fields(&r, cfg, &ks[i]);
        fprintf(out, "\n    }");
    }
    fprintf(out, "%s],\n  \"total\": {", n ? "\n  " : "");
    rep r = { .out = out, .json = true, .depth = 2, .first = true };
    put_u64(&r, "launches", n);
    counter_fields(&r, cfg, tot, true);
    fprintf(out, "\n  }\n}\n");
}

void gpu_report(FILE *out, const gpu_config *cfg, const gpu_kernel_stats *ks, uint32_t n,
                bool json)
{
    gpu_kernel_stats tot;
    memset(&tot, 0, sizeof tot);
    for (uint32_t i = 0; i < n; i++) gpu_stats_accumulate(&tot, &ks[i]);
    if (json) report_json(out, cfg, ks, n, &tot);
    else report_text(out, cfg, ks, n, &tot);
}

void gpu_report_timeseries(FILE *out, const gpu_kernel_stats *ks, uint32_t n, bool json)
{
    if (json) fputc('[', out);
    else fprintf(out, "launch,kernel,cycle,warp_insns,thread_insns,active_warps,l1d_misses,"
                 "lsu_stall_cycles\n");
    bool first = true;
    for (uint32_t i = 0; i < n; i++)
        for (uint32_t j = 0; j < ks[i].nsamples; j++) {
            const gpu_sample *s = &ks[i].samples[j];
            if (json) {
                fprintf(out, "%s\n  {\"launch\": %u, \"kernel\": ", first ? "" : ",", i + 1);
                json_str(out, ks[i].name);
                fprintf(out, ", \"cycle\": %" PRIu64 ", \"warp_insns\": %" PRIu64
                        ", \"thread_insns\": %" PRIu64 ", \"active_warps\": %u, "
                        "\"l1d_misses\": %" PRIu64 ", \"lsu_stall_cycles\": %" PRIu64 "}",
                        s->cycle, s->warp_insns, s->thread_insns, s->active_warps,
                        s->l1d_misses, s->lsu_stall_cycles);
            } else {
                /* kernel names have no commas or quotes (PTX identifiers) */
                fprintf(out, "%u,%s,%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%u,%" PRIu64 ",%" PRIu64
                        "\n", i + 1, ks[i].name, s->cycle, s->warp_insns, s->thread_insns,
                        s->active_warps, s->l1d_misses, s->lsu_stall_cycles);
            }
            first = false;
        }
    if (json) fprintf(out, "%s]\n", first ? "" : "\n");
}
