/*
** report.c -- text and JSON reports of the timing model's counters
** (stats.h), per kernel launch and in total, and the time series.
** One emitter writes both formats, so text and JSON always carry the same
** fields; GPGPU-Sim's names are used where the meaning is the same
** (gpu_sim_cycle, gpu_sim_insn = thread instructions as GPGPU-Sim counts
** them, gpu_ipc, L1D_...); warpsim's own count stays thread_insns.
*/
#include "report.h"
#include "energy.h"
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

/* energies and powers: 7 significant digits whatever their scale */
static void put_e(rep *r, const char *name, double v)
{
    member(r, name);
    fprintf(r->out, "%.6e%s", v, r->json ? "" : "\n");
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

/* <tag>_total_cache_* with GPGPU-Sim's meaning: accesses (hits, misses and
   pending hits; refused ones are not accesses), misses, miss rate, pending
   hits (merges into an outstanding MSHR: GPGPU-Sim's HIT_RESERVED) and
   reservation fails (refused for want of an MSHR, merge slot, miss-queue
   entry or way, and retried). */
static void gpgpusim_cache_fields(rep *r, const char *tag, const gpu_cache_stats *c)
{
    char n[64];
#define F(suffix) (snprintf(n, sizeof n, "%s_%s", tag, suffix), n)
    put_u64(r, F("total_cache_accesses"), c->accesses);
    put_u64(r, F("total_cache_misses"), c->misses);
    put_f(r, F("total_cache_miss_rate"), ratio(c->misses, c->accesses));
    put_u64(r, F("total_cache_pending_hits"), c->merges);
    put_u64(r, F("total_cache_reservation_fails"), c->reservation_fails);
#undef F
}

/* GPGPU-Sim's totals (gpgpusim_cache_fields, when `gs`), then ours; `l1`
   adds the L1-only counters. */
static void cache_fields(rep *r, const char *tag, const gpu_cache_stats *c, uint64_t sm_cycles,
                         const char *occ_name, bool l1, bool gs)
{
    char n[64];
#define F(suffix) (snprintf(n, sizeof n, "%s_%s", tag, suffix), n)
    if (gs) gpgpusim_cache_fields(r, tag, c);
    if (l1) put_u64(r, F("reservation_fails_set"), c->reservation_fails_set);
    put_u64(r, F("hits"), c->hits);
    put_f(r, F("hit_rate"), ratio(c->hits, c->accesses));
    put_u64(r, F("evictions"), c->evictions);
    put_u64(r, F("writebacks"), c->writebacks);
    put_f(r, F(occ_name), ratio(c->mshr_occupancy_sum, sm_cycles));
#undef F
}

/* Space-separated numbers (text) or a JSON array. */
static void put_arr(rep *r, const char *name, const uint64_t *v, int n)
{
    member(r, name);
    fputs(r->json ? "[" : "", r->out);
    for (int i = 0; i < n; i++)
        fprintf(r->out, "%s%" PRIu64, i ? (r->json ? ", " : " ") : "", v[i]);
    fputs(r->json ? "]" : "\n", r->out);
}

/* Ratios a[i] / b[i] as put_arr writes numbers. */
static void put_ratios(rep *r, const char *name, const uint64_t *a, const uint64_t *b, int n)
{
    member(r, name);
    fputs(r->json ? "[" : "", r->out);
    for (int i = 0; i < n; i++)
        fprintf(r->out, "%s%.6f", i ? (r->json ? ", " : " ") : "", ratio(a[i], b[i]));
    fputs(r->json ? "]" : "\n", r->out);
}

/*
** Row-buffer locality and bank-level parallelism per channel (OWL spec
** §6, Fig. 6), as the totals define them; empty lists when the machine
** has more channels than the statistics keep (GPU_STATS_CHANNELS).  (The
** prefetcher's accuracy and coverage are L2_prefetch_accuracy/_coverage.)
*/
static void channel_fields(rep *r, const gpu_config *cfg, const gpu_mem_stats *m)
{
    int n = m->n_channels <= GPU_STATS_CHANNELS ? (int)m->n_channels : 0;
    put_ratios(r, "row_buffer_locality_per_channel", m->ch_row_hits, m->ch_col_accesses, n);
    put_ratios(r, "bank_level_parallelism_per_channel", m->ch_bank_busy_sum,
               m->ch_any_bank_busy, n);
    /* dram_cta_rows: OWL Table 4 (mem/rowshare.h); over several kernels
       the means weigh each kernel's rows alike */
    if (!cfg->dram_cta_rows) return;
    put_u64(r, "cta_rows", m->cta_rows);
    put_f(r, "consecutive_cta_row_sharing", ratio(m->cta_row_score_ppm_sum, m->cta_rows) / 1e6);
    put_f(r, "ctas_per_row", ratio(m->cta_row_ctas_sum, m->cta_rows));
    put_u64(r, "cta_rows_lost", m->cta_row_lost);
}

/*
** The memory system below L1 (memory_model = full; zeros with the simple
** backend).  GPGPU-Sim names where the meaning is the same: L2_total_cache_*,
** n_act, n_pre, n_rd, n_write, bwutil, averagemflatency, maxmflatency.
** DRAM ratios: row-buffer locality = hits / (hits + misses + conflicts);
** bank-level parallelism = banks busy summed over DRAM cycles / cycles with
** any bank busy; bandwidth utilisation = data-bus busy cycles / (DRAM
** cycles x channels), and achieved bytes against the configured peak.
** Memory-side prefetching (dram_prefetch): issued = dram_prefetch_reads,
** useful = L2_prefetch_hits + L2_prefetch_merges (late: the demand joined
** the fill in flight); accuracy = useful / issued; coverage = useful /
** (useful + demand reads from DRAM), the share of lines demand needed
** from DRAM that a prefetch brought.
*/
static void memsys_fields(rep *r, const gpu_config *cfg, const gpu_kernel_stats *k)
{
    const gpu_mem_stats *m = &k->mem;
    open_obj(r, "memsys");
    put_s(r, "memory_model", cfg->memory_model[0] ? cfg->memory_model : "simple");
    put_u64(r, "icnt_cycles", m->icnt_cycles);
    put_u64(r, "l2_cycles", m->l2_cycles);
    put_u64(r, "dram_cycles", m->dram_cycles);
    put_u64(r, "n_channels", m->n_channels);
    put_u64(r, "n_l2_slices", m->n_slices);
    /* L2_total_cache_* are with L1D's, at the top level */
    cache_fields(r, "L2", &m->l2, m->l2_cycles * m->n_slices, "mshr_occupancy_per_slice_avg",
                 false, false);
    put_u64(r, "l2_input_full_cycles", m->l2_input_full_cycles);
    put_u64(r, "l2_dram_stall_cycles", m->l2_dram_stall_cycles);
    put_u64(r, "l2_reply_stall_cycles", m->l2_reply_stall_cycles);
    put_u64(r, "icnt_req_packets", m->icnt_req_packets);
    put_u64(r, "icnt_req_flits", m->icnt_req_flits);
    put_u64(r, "icnt_rep_packets", m->icnt_rep_packets);
    put_u64(r, "icnt_rep_flits", m->icnt_rep_flits);
    put_u64(r, "icnt_req_inject_stalls", m->icnt_req_inject_stalls);
    put_u64(r, "icnt_req_credit_stalls", m->icnt_req_credit_stalls);
    put_u64(r, "icnt_req_eject_stalls", m->icnt_req_eject_stalls);
    put_u64(r, "icnt_rep_credit_stalls", m->icnt_rep_credit_stalls);
    put_u64(r, "icnt_rep_eject_stalls", m->icnt_rep_eject_stalls);
    put_u64(r, "mem_rt_count", m->rt_count);
    put_f(r, "averagemflatency", ratio(m->rt_sum, m->rt_count));
    put_u64(r, "maxmflatency", m->rt_max);
    put_arr(r, "mem_rt_hist_log2", m->rt_hist, GPU_RT_BUCKETS);
    put_u64(r, "n_rd", m->dram_reads);
    put_u64(r, "n_write", m->dram_writes);
    put_u64(r, "dram_bytes", m->dram_bytes);
    put_u64(r, "n_act", m->dram_activates);
    put_u64(r, "n_pre", m->dram_precharges);
    put_u64(r, "n_col_cmds", m->dram_col_cmds);
    put_u64(r, "dram_row_hits", m->dram_row_hits);
    put_u64(r, "dram_row_misses", m->dram_row_misses);
    put_u64(r, "dram_row_conflicts", m->dram_row_conflicts);
    uint64_t served = m->dram_row_hits + m->dram_row_misses + m->dram_row_conflicts;
    put_f(r, "row_buffer_locality", ratio(m->dram_row_hits, served));
    put_f(r, "bank_level_parallelism", ratio(m->dram_bank_busy_sum, m->dram_any_bank_busy_cycles));
    put_u64(r, "dram_bus_busy_cycles", m->dram_bus_busy_cycles);
    put_f(r, "bwutil", ratio(m->dram_bus_busy_cycles, m->dram_cycles * m->n_channels));
    put_f(r, "dram_bw_of_peak", ratio(m->dram_bytes, m->dram_cycles * m->n_channels
                                                       * m->dram_peak_bytes_per_cycle));
    double us = cfg->core_mhz > 0 ? (double)k->cycles / cfg->core_mhz : 0.0;
    put_f(r, "dram_bandwidth_gbs", us > 0 ? (double)m->dram_bytes / us / 1000.0 : 0.0);
    put_f(r, "dram_avg_queue_latency", ratio(m->dram_queue_lat_sum, m->dram_queue_lat_count));
    put_f(r, "dram_avg_service_latency", ratio(m->dram_service_lat_sum, m->dram_queue_lat_count));
    put_u64(r, "dram_max_queue", m->dram_max_queue);
    put_u64(r, "dram_prefetch_reads", m->dram_prefetch_reads);
    put_u64(r, "L2_prefetch_fills", m->l2_prefetch_fills);
    put_u64(r, "L2_prefetch_merges", m->l2_prefetch_merges);
    put_u64(r, "L2_prefetch_hits", m->l2_prefetch_hits);
    /* useful = demands a prefetched line served: hits on it in L2, or
       late, merged into its fill in flight (L2_prefetch_merges) */
    uint64_t useful = m->l2_prefetch_hits + m->l2_prefetch_merges;
    uint64_t demand_reads = m->dram_reads - (m->dram_reads < m->dram_prefetch_reads
                                             ? m->dram_reads : m->dram_prefetch_reads);
    put_f(r, "L2_prefetch_accuracy", ratio(useful, m->dram_prefetch_reads));
    put_f(r, "L2_prefetch_coverage", ratio(useful, useful + demand_reads));
    channel_fields(r, cfg, m);
    close_obj(r);
}

/* The issue-slot breakdown (one slot per scheduler per cycle). */
static void slot_fields(rep *r, const gpu_kernel_stats *k)
{
    open_obj(r, "issue_slots");
    for (int i = 0; i < GPU_SLOT_COUNT; i++) {
        char n[48];
        snprintf(n, sizeof n, r->json ? "%s" : "issue_slots.%s", gpu_slot_names[i]);
        put_u64(r, n, k->slots[i]);
    }
    close_obj(r);
}

/* l1d_belady: the L1D stream replayed with LRU and Belady (l1_replay.c);
   MPKI per 1000 warp instructions (CCWS spec §6). */
static void belady_fields(rep *r, const gpu_config *cfg, const gpu_kernel_stats *k)
{
    if (!cfg->l1d_belady) return;
    put_u64(r, "l1d_replay_accesses", k->l1d_replay_accesses);
    put_u64(r, "l1d_lru_hits", k->l1d_lru_hits);
    put_u64(r, "l1d_lru_misses", k->l1d_lru_misses);
    put_f(r, "l1d_lru_mpki", ratio(k->l1d_lru_misses * 1000, k->warp_insns));
    put_u64(r, "l1d_belady_hits", k->l1d_belady_hits);
    put_u64(r, "l1d_belady_misses", k->l1d_belady_misses);
    put_f(r, "l1d_belady_mpki", ratio(k->l1d_belady_misses * 1000, k->warp_insns));
}

/* The L1D's read accesses by class (l1d_classify only, so that reports
   without it stay as they were). */
static void classify_fields(rep *r, const gpu_config *cfg, const gpu_kernel_stats *k)
{
    if (!cfg->l1d_classify) return;
    put_u64(r, "L1D_cls_intra_thread_hits", k->l1d.cls_intra_thread);
    put_u64(r, "L1D_cls_inter_thread_hits", k->l1d.cls_inter_thread);
    put_u64(r, "L1D_cls_inter_warp_hits", k->l1d.cls_inter_warp);
    put_u64(r, "L1D_cls_misses", k->l1d.cls_miss);
}

/* The LSU re-execution queue, L1 admission and missed hit-under-miss (Mascar Fig. 5),
   for the statistics JSON of the shims (whose own fields carry
   lsu_stall_cycles). */
static void lsu_admission_fields(rep *r, const gpu_kernel_stats *k)
{
    put_u64(r, "reexec_parked", k->reexec_parked);
    put_u64(r, "reexec_retries", k->reexec_retries);
    put_u64(r, "reexec_full_cycles", k->reexec_full_cycles);
    put_u64(r, "l1_nacks", k->l1_nacks);
    put_u64(r, "missed_hum_cycles", k->missed_hum_cycles);
}

/* The warp scheduler's own counters (ops->counters), when it has any. */
static void policy_fields(rep *r, const gpu_kernel_stats *k)
{
    if (!k->npolicy_counters) return;
    open_obj(r, "policy");
    for (uint32_t i = 0; i < k->npolicy_counters; i++) {
        char n[48];
        snprintf(n, sizeof n, r->json ? "%s" : "policy.%s", k->policy_counter_names[i]);
        put_u64(r, n, k->policy_counters[i]);
    }
    close_obj(r);
}

/*
** What OWL reports (spec §6), from counters every run keeps: SM activity
** over SM-cycles (cycles x SMs): CINV = inactive SM-cycles / SM-cycles,
** active being an issue or an ALU pipe inside an issued instruction's
** initiation interval (so SIMT width 8's 4 cycles per warp count; memory
** instructions count at issue only), NoWarpCycles (no live warp on the SM), MemoryBlockCycles
** and their fraction (core/issue.c: every live warp waits on a load whose
** L1 miss is outstanding); the L1 miss rate combined over data, constant
** and texture caches.
*/
static void activity_fields(rep *r, const gpu_config *cfg, const gpu_kernel_stats *k)
{
    uint64_t sm_cycles = k->cycles * (uint64_t)gpu_config_n_sm(cfg);
    put_u64(r, "sm_cycles", sm_cycles);
    put_u64(r, "sm_active_cycles", k->sm_active_cycles);
    put_f(r, "cinv", sm_cycles ? 1.0 - ratio(k->sm_active_cycles, sm_cycles) : 0.0);
    put_u64(r, "no_warp_cycles", sm_cycles > k->sm_warp_cycles ? sm_cycles - k->sm_warp_cycles : 0);
    put_u64(r, "mem_block_cycles", k->mem_block_cycles);
    put_f(r, "mem_block_fraction", ratio(k->mem_block_cycles, sm_cycles));
    put_f(r, "L1_combined_miss_rate",
          ratio(k->l1d.misses + k->l1c.misses + k->l1t.misses,
                k->l1d.accesses + k->l1c.accesses + k->l1t.accesses));
}

/* Warps a launch ran (the totals keep their sum). */
static uint64_t kernel_warps(const gpu_kernel_stats *k)
{
    if (k->warps_run) return k->warps_run;
    uint64_t threads = (uint64_t)k->block[0] * k->block[1] * k->block[2];
    return (uint64_t)k->grid[0] * k->grid[1] * k->grid[2] * ((threads + 31) / 32);
}

/*
** The fetch-dram study's statistics (spec §6): fetch cycles and stalls
** (the common issue queue's, fetch_queue > 0), issue-queue occupancy per
** SM-cycle, barrier wait (total per warp as % of the cycles: wait / warps
** x 100 / cycles), device-memory instruction latency, the intra-core merge
** ratio (L1D MSHR merges / L1D accesses: post-coalescing requests merged
** before they leave the SM) and the inter-core one (L2 MSHR merges into
** another SM's request / L2 accesses), MLP.
*/
static void fetchdram_fields(rep *r, const gpu_config *cfg, const gpu_kernel_stats *k)
{
    static const char *const why[GPU_FSTALL_COUNT] = { "barrier", "mem", "branch", "imiss" };
    uint64_t sm_cycles = k->cycles * (uint64_t)gpu_config_n_sm(cfg);
    put_u64(r, "fetch_cycles", k->fetch_cycles);
    put_u64(r, "fetch_queue_full_cycles", k->fetch_queue_full_cycles);
    put_u64(r, "fetch_none_cycles", k->fetch_none_cycles);
    for (int i = 0; i < GPU_FSTALL_COUNT; i++) {
        char n[48];
        snprintf(n, sizeof n, "fetch_stall_%s_warp_cycles", why[i]);
        put_u64(r, n, k->fetch_warp_stalls[i]);
    }
    put_f(r, "issue_queue_occupancy_avg", ratio(k->iq_occupancy_sum, sm_cycles));
    put_u64(r, "barrier_wait_cycles", k->barrier_wait_cycles);
    put_u64(r, "barrier_arrivals", k->barrier_arrivals);
    uint64_t warps = kernel_warps(k);
    put_f(r, "barrier_wait_pct",
          warps && k->cycles ? 100.0 * (double)k->barrier_wait_cycles / (double)warps
                                   / (double)k->cycles : 0.0);
    put_u64(r, "devmem_insns_timed", k->devmem_lat_count);
    put_f(r, "devmem_latency_avg", ratio(k->devmem_lat_sum, k->devmem_lat_count));
    put_f(r, "intracore_merge_ratio", ratio(k->l1d.merges, k->l1d.accesses));
    put_u64(r, "intercore_merges", k->mem.l2.merges_inter);
    put_f(r, "intercore_merge_ratio", ratio(k->mem.l2.merges_inter, k->mem.l2.accesses));
    put_f(r, "mlp", ratio(k->mem.mlp_sum, k->mem.mlp_count));
}

/*
** The alternate issue stream (core/altissue.c; HAWS, specs/haws.md §7):
** its counters, instructions per episode ("per switch"), the share of ALU
** instructions and of long-latency loads issued out of order, and the
** scheduler-cycle breakdown the thesis plots (Issued; Long Latency Stall:
** every live warp waits on a long-latency load), as % of all scheduler
** cycles.
*/
static void alt_fields(rep *r, const gpu_config *cfg, const gpu_kernel_stats *k)
{
    const struct gpu_alt_stats *a = &k->alt;
    uint64_t slots = k->cycles * (uint64_t)gpu_config_n_sm(cfg) * cfg->n_schedulers;
    put_u64(r, "alt_switches", a->switches);
    put_u64(r, "alt_issued", a->issued);
    put_u64(r, "alt_issued_alu", a->issued_alu);
    put_u64(r, "alt_issued_ll", a->issued_ll);
    put_u64(r, "alt_copies", a->copies);
    put_u64(r, "alt_skips", a->skips);
    put_u64(r, "alt_refused", a->refused);
    put_u64(r, "alt_max_episode", a->max_episode);
    put_u64(r, "alt_ended_load_back", a->ended_load_back);
    put_u64(r, "alt_order_errors", a->order_errors);
    put_f(r, "alt_insns_per_switch", ratio(a->issued, a->switches));
    put_f(r, "alt_alu_pct", 100.0 * ratio(a->issued_alu, a->alu_insns + a->issued_alu));
    put_f(r, "alt_ll_pct", 100.0 * ratio(a->issued_ll, a->ll_insns + a->issued_ll));
    put_u64(r, "ll_stall_slots", a->ll_stall_slots);
    put_f(r, "ll_stall_pct", 100.0 * ratio(a->ll_stall_slots, slots));
    put_f(r, "issued_slot_pct", 100.0 * ratio(k->slots[GPU_SLOT_ISSUED], slots));
}

/* The HALS statistics (HAWS spec 7, thesis Ch. 6): requests per L1D MSHR
** entry over its lifetime, 1 + its merges (allocations + merges over
** allocations), and with dup_mshr_window > 0 the duplicate-MSHR share:
** L1D MSHR allocations whose line had one from another SM within the
** window, in percent of all allocations.
*/
static void hals_fields(rep *r, const gpu_config *cfg, const gpu_kernel_stats *k)
{
    put_f(r, "reqs_per_mshr", ratio(k->l1d.mshr_allocs + k->l1d.merges, k->l1d.mshr_allocs));
    if (!cfg->dup_mshr_window) return;
    put_u64(r, "dup_mshr_allocs", k->dup_mshr_allocs);
    put_f(r, "dup_mshr_pct", 100.0 * ratio(k->dup_mshr_dups, k->dup_mshr_allocs));
}

/*
** The energy model (gpu/energy.c, docs/energy.md): total, dynamic and
** static (energy_leak_j: every unit's static power, DRAM background
** included) energy, average power over the simulated time, and one
** energy_<part>_j per part of the breakdown.  Nothing when the table does
** not resolve (the configuration check refuses such a machine first).
*/
static void energy_fields(rep *r, const gpu_config *cfg, const gpu_kernel_stats *k)
{
    energy_breakdown b;
    if (energy_of_kernel(cfg, k, &b)) return;
    put_s(r, "energy_tech", cfg->energy_tech);
    put_e(r, "energy_j", b.total_j);
    put_e(r, "avg_power_w", b.avg_power_w);
    put_e(r, "energy_dynamic_j", b.dynamic_j);
    put_e(r, "energy_static_j", b.static_j);
    put_e(r, "energy_leak_j", b.static_j);
    char n[64];
    for (int q = 0; q < ENERGY_NPART; q++) {
        snprintf(n, sizeof n, "energy_%s_j", energy_part_name(q));
        put_e(r, n, b.part_j[q]);
    }
}

/* Counters shared by a launch and the totals; `tot` picks the
   gpu_tot_* names GPGPU-Sim uses for totals. */
static void counter_fields(rep *r, const gpu_config *cfg, const gpu_kernel_stats *k, bool tot)
{
    uint64_t gs_insn = k->thread_insns + k->vec_hit_insns;
    put_u64(r, tot ? "gpu_tot_sim_cycle" : "gpu_sim_cycle", k->cycles);
    put_u64(r, tot ? "gpu_tot_sim_insn" : "gpu_sim_insn", gs_insn);
    put_f(r, tot ? "gpu_tot_ipc" : "gpu_ipc", ratio(gs_insn, k->cycles));
    put_u64(r, "thread_insns", k->thread_insns);
    put_f(r, "thread_ipc", ratio(k->thread_insns, k->cycles));
    put_u64(r, "warp_insns", k->warp_insns);
    put_f(r, "warp_ipc", ratio(k->warp_insns, k->cycles));
    put_f(r, "sim_time_us", cfg->core_mhz > 0 ? (double)k->cycles / cfg->core_mhz : 0.0);
    put_u64(r, "mem_insns", k->mem_insns);
    put_u64(r, "bar_insns", k->bar_insns);
    uint64_t slots = 0;
    for (int i = 0; i < GPU_SLOT_COUNT; i++) slots += k->slots[i];
    slot_fields(r, k);
    put_f(r, "issue_slot_utilization", ratio(k->slots[GPU_SLOT_ISSUED], slots));
    put_u64(r, "lsu_stall_cycles", k->lsu_stall_cycles);
    put_u64(r, "reexec_parked", k->reexec_parked);
    put_u64(r, "reexec_retries", k->reexec_retries);
    put_u64(r, "reexec_full_cycles", k->reexec_full_cycles);
    put_u64(r, "l1_nacks", k->l1_nacks);
    put_u64(r, "missed_hum_cycles", k->missed_hum_cycles);
    put_u64(r, "shmem_accesses", k->shmem_accesses);
    put_u64(r, "shmem_conflict_cycles", k->shmem_conflict_cycles);
    put_u64(r, "gmem_transactions", k->gmem_transactions);
    fetchdram_fields(r, cfg, k);
    alt_fields(r, cfg, k);
    hals_fields(r, cfg, k);
    uint64_t sm_cycles = k->cycles * (uint64_t)gpu_config_n_sm(cfg);
    cache_fields(r, "L1D", &k->l1d, sm_cycles, "mshr_occupancy_per_sm_avg", true, true);
    belady_fields(r, cfg, k);
    classify_fields(r, cfg, k);
    gpgpusim_cache_fields(r, "L2", &k->mem.l2);
    cache_fields(r, "L1C", &k->l1c, sm_cycles, "mshr_occupancy_per_sm_avg", true, true);
    cache_fields(r, "L1T", &k->l1t, sm_cycles, "mshr_occupancy_per_sm_avg", true, true);
    if (cfg->l1i_model)
        cache_fields(r, "L1I", &k->l1i, sm_cycles, "mshr_occupancy_per_sm_avg", true, true);
    put_u64(r, "mem_requests", k->mem_requests);
    put_u64(r, "mem_reply_bytes", k->mem_reply_bytes);
    put_u64(r, "mem_queue_full_cycles", k->mem_queue_full_cycles);
    put_f(r, "active_warps_avg", ratio(k->active_warps_sum, k->cycles));
    put_f(r, "active_warps_per_sm_avg",
          ratio(k->active_warps_sum, k->cycles * (uint64_t)gpu_config_n_sm(cfg)));
    put_u64(r, "skipped_cycles", k->skipped_cycles);
    activity_fields(r, cfg, k);
    energy_fields(r, cfg, k);
    policy_fields(r, k);
    memsys_fields(r, cfg, k);
}

void gpu_report_gpgpusim_json(FILE *out, const gpu_config *cfg, const gpu_kernel_stats *k,
                              int depth, bool tot)
{
    rep r = { .out = out, .json = true, .depth = depth, .first = false };
    uint64_t gs_insn = k->thread_insns + k->vec_hit_insns;
    put_u64(&r, tot ? "gpu_tot_sim_cycle" : "gpu_sim_cycle", k->cycles);
    put_u64(&r, tot ? "gpu_tot_sim_insn" : "gpu_sim_insn", gs_insn);
    put_f(&r, tot ? "gpu_tot_ipc" : "gpu_ipc", ratio(gs_insn, k->cycles));
    gpgpusim_cache_fields(&r, "L1D", &k->l1d);
    belady_fields(&r, cfg, k);
    classify_fields(&r, cfg, k);
    gpgpusim_cache_fields(&r, "L2", &k->mem.l2);
    if (cfg->l1i_model) gpgpusim_cache_fields(&r, "L1I", &k->l1i);
    slot_fields(&r, k);
    activity_fields(&r, cfg, k);
    lsu_admission_fields(&r, k);
    alt_fields(&r, cfg, k);
    hals_fields(&r, cfg, k);
    energy_fields(&r, cfg, k);
    policy_fields(&r, k);
    memsys_fields(&r, cfg, k);
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

static void cache_accumulate(gpu_cache_stats *d, const gpu_cache_stats *c)
{
    d->accesses += c->accesses;
    d->hits += c->hits;
    d->misses += c->misses;
    d->merges += c->merges;
    d->mshr_allocs += c->mshr_allocs;
    d->merges_inter += c->merges_inter;
    d->reservation_fails += c->reservation_fails;
    d->reservation_fails_set += c->reservation_fails_set;
    d->evictions += c->evictions;
    d->writebacks += c->writebacks;
    d->mshr_occupancy_sum += c->mshr_occupancy_sum;
    d->cls_intra_thread += c->cls_intra_thread;
    d->cls_inter_thread += c->cls_inter_thread;
    d->cls_inter_warp += c->cls_inter_warp;
    d->cls_miss += c->cls_miss;
}

static void alt_accumulate(struct gpu_alt_stats *d, const struct gpu_alt_stats *a)
{
    d->switches += a->switches;
    d->issued += a->issued;
    d->issued_alu += a->issued_alu;
    d->issued_ll += a->issued_ll;
    d->copies += a->copies;
    d->skips += a->skips;
    d->refused += a->refused;
    if (a->max_episode > d->max_episode) d->max_episode = a->max_episode;
    d->ended_load_back += a->ended_load_back;
    d->order_errors += a->order_errors;
    d->alu_insns += a->alu_insns;
    d->ll_insns += a->ll_insns;
    d->ll_stall_slots += a->ll_stall_slots;
}

static void mem_accumulate(gpu_mem_stats *d, const gpu_mem_stats *m)
{
    d->icnt_cycles += m->icnt_cycles;
    d->l2_cycles += m->l2_cycles;
    d->dram_cycles += m->dram_cycles;
    cache_accumulate(&d->l2, &m->l2);
    d->l2_input_full_cycles += m->l2_input_full_cycles;
    d->l2_dram_stall_cycles += m->l2_dram_stall_cycles;
    d->l2_reply_stall_cycles += m->l2_reply_stall_cycles;
    d->icnt_req_packets += m->icnt_req_packets;
    d->icnt_req_flits += m->icnt_req_flits;
    d->icnt_rep_packets += m->icnt_rep_packets;
    d->icnt_rep_flits += m->icnt_rep_flits;
    d->icnt_req_inject_stalls += m->icnt_req_inject_stalls;
    d->icnt_req_credit_stalls += m->icnt_req_credit_stalls;
    d->icnt_req_eject_stalls += m->icnt_req_eject_stalls;
    d->icnt_rep_credit_stalls += m->icnt_rep_credit_stalls;
    d->icnt_rep_eject_stalls += m->icnt_rep_eject_stalls;
    d->mlp_sum += m->mlp_sum;
    d->mlp_count += m->mlp_count;
    d->rt_count += m->rt_count;
    d->rt_sum += m->rt_sum;
    if (m->rt_max > d->rt_max) d->rt_max = m->rt_max;
    for (int i = 0; i < GPU_RT_BUCKETS; i++) d->rt_hist[i] += m->rt_hist[i];
    d->dram_reads += m->dram_reads;
    d->dram_writes += m->dram_writes;
    d->dram_bytes += m->dram_bytes;
    d->dram_rd_bytes += m->dram_rd_bytes;
    d->dram_row_hits += m->dram_row_hits;
    d->dram_row_misses += m->dram_row_misses;
    d->dram_row_conflicts += m->dram_row_conflicts;
    d->dram_activates += m->dram_activates;
    d->dram_precharges += m->dram_precharges;
    d->dram_col_cmds += m->dram_col_cmds;
    d->dram_bank_busy_sum += m->dram_bank_busy_sum;
    d->dram_any_bank_busy_cycles += m->dram_any_bank_busy_cycles;
    d->dram_bus_busy_cycles += m->dram_bus_busy_cycles;
    d->dram_queue_lat_sum += m->dram_queue_lat_sum;
    d->dram_queue_lat_count += m->dram_queue_lat_count;
    d->dram_service_lat_sum += m->dram_service_lat_sum;
    d->dram_prefetch_reads += m->dram_prefetch_reads;
    d->l2_prefetch_fills += m->l2_prefetch_fills;
    d->l2_prefetch_merges += m->l2_prefetch_merges;
    d->l2_prefetch_hits += m->l2_prefetch_hits;
    d->cta_rows += m->cta_rows;
    d->cta_row_ctas_sum += m->cta_row_ctas_sum;
    d->cta_row_score_ppm_sum += m->cta_row_score_ppm_sum;
    d->cta_row_lost += m->cta_row_lost;
    for (int c = 0; c < GPU_STATS_CHANNELS; c++) {
        d->ch_col_accesses[c] += m->ch_col_accesses[c];
        d->ch_row_hits[c] += m->ch_row_hits[c];
        d->ch_bank_busy_sum[c] += m->ch_bank_busy_sum[c];
        d->ch_any_bank_busy[c] += m->ch_any_bank_busy[c];
    }
    /* a high-water mark since the GPU was built, and machine constants */
    if (m->dram_max_queue > d->dram_max_queue) d->dram_max_queue = m->dram_max_queue;
    if (m->n_channels) d->n_channels = m->n_channels;
    if (m->n_slices) d->n_slices = m->n_slices;
    if (m->dram_peak_bytes_per_cycle) d->dram_peak_bytes_per_cycle = m->dram_peak_bytes_per_cycle;
}

void gpu_stats_accumulate(gpu_kernel_stats *s, const gpu_kernel_stats *k)
{
    s->cycles += k->cycles;
    s->warp_insns += k->warp_insns;
    s->thread_insns += k->thread_insns;
    s->vec_hit_insns += k->vec_hit_insns;
    s->mem_insns += k->mem_insns;
    s->bar_insns += k->bar_insns;
    for (int i = 0; i < GPU_SLOT_COUNT; i++) s->slots[i] += k->slots[i];
    s->lsu_stall_cycles += k->lsu_stall_cycles;
    s->reexec_parked += k->reexec_parked;
    s->reexec_retries += k->reexec_retries;
    s->reexec_full_cycles += k->reexec_full_cycles;
    s->l1_nacks += k->l1_nacks;
    s->dup_mshr_allocs += k->dup_mshr_allocs;
    s->dup_mshr_dups += k->dup_mshr_dups;
    s->shmem_accesses += k->shmem_accesses;
    s->shmem_conflict_cycles += k->shmem_conflict_cycles;
    s->fetched_insns += k->fetched_insns;
    s->rf_reads += k->rf_reads;
    s->rf_writes += k->rf_writes;
    for (int i = 0; i < GPU_STATS_PIPES; i++) s->pipe_lanes[i] += k->pipe_lanes[i];
    s->gmem_transactions += k->gmem_transactions;
    cache_accumulate(&s->l1d, &k->l1d);
    s->l1d_replay_accesses += k->l1d_replay_accesses;
    s->l1d_lru_hits += k->l1d_lru_hits;
    s->l1d_lru_misses += k->l1d_lru_misses;
    s->l1d_belady_hits += k->l1d_belady_hits;
    s->l1d_belady_misses += k->l1d_belady_misses;
    cache_accumulate(&s->l1c, &k->l1c);
    cache_accumulate(&s->l1t, &k->l1t);
    cache_accumulate(&s->l1i, &k->l1i);
    s->mem_requests += k->mem_requests;
    s->mem_reply_bytes += k->mem_reply_bytes;
    s->mem_queue_full_cycles += k->mem_queue_full_cycles;
    s->active_warps_sum += k->active_warps_sum;
    s->skipped_cycles += k->skipped_cycles;
    s->sm_active_cycles += k->sm_active_cycles;
    s->sm_warp_cycles += k->sm_warp_cycles;
    s->mem_block_cycles += k->mem_block_cycles;
    s->missed_hum_cycles += k->missed_hum_cycles;
    s->fetch_cycles += k->fetch_cycles;
    s->fetch_queue_full_cycles += k->fetch_queue_full_cycles;
    s->fetch_none_cycles += k->fetch_none_cycles;
    for (int i = 0; i < GPU_FSTALL_COUNT; i++) s->fetch_warp_stalls[i] += k->fetch_warp_stalls[i];
    s->iq_occupancy_sum += k->iq_occupancy_sum;
    s->barrier_wait_cycles += k->barrier_wait_cycles;
    s->barrier_arrivals += k->barrier_arrivals;
    s->warps_run += kernel_warps(k);
    s->devmem_lat_sum += k->devmem_lat_sum;
    alt_accumulate(&s->alt, &k->alt);
    s->devmem_lat_count += k->devmem_lat_count;
    /* launches under one configuration have the same scheduler and names */
    for (uint32_t i = 0; i < k->npolicy_counters; i++) {
        memcpy(s->policy_counter_names[i], k->policy_counter_names[i], GPU_POLICY_COUNTER_NAME);
        s->policy_counters[i] += k->policy_counters[i];
    }
    if (k->npolicy_counters > s->npolicy_counters) s->npolicy_counters = k->npolicy_counters;
    mem_accumulate(&s->mem, &k->mem);
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

/* Fast-forward: the launches run functionally, with the total (only when
   a fast-forward key is set, so other reports keep their shape). */
static void ffwd_fields(rep *r, const gpu_config *cfg, const gpu_ffwd *ff)
{
    if (!ff || !gpu_ffwd_active(cfg->timing_from, cfg->timing_kernels, cfg->timing_every))
        return;
    put_u64(r, "functional_launches", ff->launches);
    put_u64(r, "functional_warp_insns", ff->warp_insns);
    put_u64(r, "functional_thread_insns", ff->thread_insns);
}

static void report_text(FILE *out, const gpu_config *cfg, const gpu_kernel_stats *ks,
                        uint32_t n, const gpu_kernel_stats *tot, const gpu_ffwd *ff)
{
    fprintf(out, "---- warpsim timing report: %u launch%s on %s (%u SMs, %s scheduler, "
            "core %.0f MHz) ----\n", n, n == 1 ? "" : "es", cfg->preset, gpu_config_n_sm(cfg),
            cfg->warp_scheduler, cfg->core_mhz);
    if (ff && gpu_ffwd_active(cfg->timing_from, cfg->timing_kernels, cfg->timing_every))
        fprintf(out, "fast-forward: %" PRIu64 " launch%s run functionally, not timed "
                "(timing_from '%s', timing_kernels '%s', timing_every %u)\n", ff->launches,
                ff->launches == 1 ? "" : "es", cfg->timing_from, cfg->timing_kernels,
                cfg->timing_every);
    for (uint32_t i = 0; i < n; i++) {
        fprintf(out, "launch %u:\n", i + 1);
        rep r = { .out = out, .json = false, .first = true, .prefix = "  " };
        launch_fields(&r, cfg, &ks[i]);
    }
    fprintf(out, "total:\n");
    rep r = { .out = out, .json = false, .first = true, .prefix = "  " };
    put_u64(&r, "launches", n);
    ffwd_fields(&r, cfg, ff);
    counter_fields(&r, cfg, tot, true);
}

static void report_json(FILE *out, const gpu_config *cfg, const gpu_kernel_stats *ks,
                        uint32_t n, const gpu_kernel_stats *tot, const gpu_ffwd *ff)
{
    fprintf(out, "{\n  \"simulator\": \"warpsim\",\n  \"model\": \"timing\",\n  \"machine\": {\"name\": ");
    json_str(out, cfg->preset);   /* the machine simulated, not a device's arch */
    fprintf(out, ", \"sms\": %u, \"core_mhz\": %.6g},\n  \"config\": ", gpu_config_n_sm(cfg),
            cfg->core_mhz);
    gpu_config_dump_machine(cfg, out);
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
    ffwd_fields(&r, cfg, ff);
    counter_fields(&r, cfg, tot, true);
    fprintf(out, "\n  }\n}\n");
}

void gpu_report(FILE *out, const gpu_config *cfg, const gpu_kernel_stats *ks, uint32_t n,
                const gpu_ffwd *ff, bool json)
{
    gpu_kernel_stats tot;
    memset(&tot, 0, sizeof tot);
    for (uint32_t i = 0; i < n; i++) gpu_stats_accumulate(&tot, &ks[i]);
    if (json) report_json(out, cfg, ks, n, &tot, ff);
    else report_text(out, cfg, ks, n, &tot, ff);
}

/* The launch whose warp scheduler counters name the CSV's policy.NAME
   columns (every launch of a GPU has the same scheduler), or NULL. */
static const gpu_kernel_stats *ts_policy_names(const gpu_kernel_stats *ks, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++)
        if (ks[i].npolicy_counters) return &ks[i];
    return NULL;
}

/* One sample's warp scheduler counters: a JSON "policy" object, or the
   CSV's columns (`ncol` of them: empty for a launch without counters).
   Nothing at all for a policy without counters, so those outputs stay as
   they were. */
static void ts_policy(FILE *out, const gpu_kernel_stats *k, const gpu_sample *s, bool json,
                      uint32_t ncol)
{
    if (json) {
        if (!k->npolicy_counters) return;
        fputs(", \"policy\": {", out);
        for (uint32_t c = 0; c < k->npolicy_counters; c++) {
            fputs(c ? ", " : "", out);
            json_str(out, k->policy_counter_names[c]);
            fprintf(out, ": %" PRIu64, s->policy[c]);
        }
        fputc('}', out);
        return;
    }
    for (uint32_t c = 0; c < ncol; c++) {
        fputc(',', out);
        if (c < k->npolicy_counters) fprintf(out, "%" PRIu64, s->policy[c]);
    }
}

void gpu_report_timeseries(FILE *out, const gpu_kernel_stats *ks, uint32_t n, bool json)
{
    const gpu_kernel_stats *pn = ts_policy_names(ks, n);
    uint32_t ncol = pn ? pn->npolicy_counters : 0;
    if (json) fputc('[', out);
    else {
        fprintf(out, "launch,kernel,cycle,warp_insns,thread_insns,active_warps,l1d_misses,"
                "lsu_stall_cycles,l1d_accesses");
        for (uint32_t c = 0; c < ncol; c++) fprintf(out, ",policy.%s", pn->policy_counter_names[c]);
        fputc('\n', out);
    }
    bool first = true;
    for (uint32_t i = 0; i < n; i++)
        for (uint32_t j = 0; j < ks[i].nsamples; j++) {
            const gpu_sample *s = &ks[i].samples[j];
            if (json) {
                fprintf(out, "%s\n  {\"launch\": %u, \"kernel\": ", first ? "" : ",", i + 1);
                json_str(out, ks[i].name);
                fprintf(out, ", \"cycle\": %" PRIu64 ", \"warp_insns\": %" PRIu64
                        ", \"thread_insns\": %" PRIu64 ", \"active_warps\": %u, "
                        "\"l1d_misses\": %" PRIu64 ", \"lsu_stall_cycles\": %" PRIu64
                        ", \"l1d_accesses\": %" PRIu64,
                        s->cycle, s->warp_insns, s->thread_insns, s->active_warps,
                        s->l1d_misses, s->lsu_stall_cycles, s->l1d_accesses);
                ts_policy(out, &ks[i], s, true, 0);
                fputc('}', out);
            } else {
                /* kernel names have no commas or quotes (PTX identifiers) */
                fprintf(out, "%u,%s,%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%u,%" PRIu64 ",%" PRIu64
                        ",%" PRIu64, i + 1, ks[i].name, s->cycle, s->warp_insns,
                        s->thread_insns, s->active_warps, s->l1d_misses, s->lsu_stall_cycles,
                        s->l1d_accesses);
                ts_policy(out, &ks[i], s, false, ncol);
                fputc('\n', out);
            }
            first = false;
        }
    if (json) fprintf(out, "%s]\n", first ? "" : "\n");
}
