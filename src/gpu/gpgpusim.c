/*
** gpgpusim.c -- GPGPU-Sim option names (gpgpusim.config) translated to
** warpsim parameters, for the subset both simulators share, so an
** existing config file runs.  Options GPGPU-Sim has but warpsim does not
** model are "ignored" and unknown ones "unknown": config.c lists both in
** one warning, never silently.
*/
#include "config_int.h"
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

/* GPGPU-Sim options we know and deliberately do not model (yet): the
   operand collector, parts of the memory system below L1 (the extra fixed
   DRAM latency, return queues, the booksim network file), power, PTX
   handling. */
static const char *const ignored_options[] = {
    "-gpgpu_operand_collector_num_units_sp", "-gpgpu_operand_collector_num_units_sfu",
    "-gpgpu_operand_collector_num_units_mem", "-gpgpu_operand_collector_num_units_gen",
    "-gpgpu_operand_collector_num_units_dp", "-gpgpu_operand_collector_num_units_int",
    "-gpgpu_operand_collector_num_in_ports_sp", "-gpgpu_operand_collector_num_in_ports_sfu",
    "-gpgpu_operand_collector_num_in_ports_mem", "-gpgpu_operand_collector_num_in_ports_gen",
    "-gpgpu_operand_collector_num_out_ports_sp", "-gpgpu_operand_collector_num_out_ports_sfu",
    "-gpgpu_operand_collector_num_out_ports_mem", "-gpgpu_operand_collector_num_out_ports_gen",
    "-gpgpu_num_reg_banks", "-gpgpu_reg_bank_use_warp_id", "-gpgpu_pipeline_widths",
    "-gpgpu_dual_issue_diff_exec_units", "-gpgpu_num_mem_units",
    "-gpgpu_cache:il1", "-gpgpu_cache:dl2_texture_only",
    "-gpgpu_cache:dl1PrefL1", "-gpgpu_cache:dl1PrefShared",
    "-gpgpu_shmem_size_PrefL1", "-gpgpu_shmem_size_PrefShared", "-gpgpu_shmem_warp_parts",
    "-gpgpu_coalesce_arch", "-gpgpu_n_mem_per_ctrlr", "-gpgpu_mem_address_mask",
    "-gpgpu_dram_return_queue_size", "-dram_latency", "-gpgpu_memlatency_stat", "-network_mode",
    "-inter_config_file", "-gpgpu_simd_model", "-gpgpu_runtime_stat", "-visualizer_enabled",
    "-gpuwattch_xml_file", "-power_simulation_enabled", "-power_trace_enabled",
    "-power_per_cycle_dump", "-gpgpu_ptx_force_max_capability",
    "-gpgpu_ptx_convert_to_ptxplus", "-gpgpu_ptx_save_converted_ptxplus",
    "-gpgpu_stack_size_limit", "-gpgpu_heap_size_limit", "-gpgpu_runtime_sync_depth_limit",
    "-gpgpu_runtime_pending_launch_count_limit", "-gpgpu_kernel_launch_latency",
    "-gpgpu_TB_launch_latency", "-gpgpu_max_concurrent_kernel", "-gpgpu_perfect_mem",
    "-gpgpu_flush_l1_cache", "-gpgpu_flush_l2_cache", "-gpgpu_deadlock_detect",
    "-gpgpu_max_insn", "-gpgpu_max_cta", "-gpgpu_ptx_instruction_classification",
    "-gpgpu_ptx_sim_mode", "-gpgpu_ignore_resources_limitation", "-gpgpu_l2_read_ratio",
    "-gpgpu_adaptive_cache_config", "-gpgpu_unified_l1d_size", "-gpgpu_l1_banks",
    "-gpgpu_l1_cache_write_ratio",
    "-gpgpu_shader_cta_thread_limit", "-gpgpu_occupancy_sm_number", "-save_embedded_ptx",
    "-enable_ptx_file_line_stats", "-ptx_opcode_latency_tensor",
    "-ptx_opcode_initiation_tensor", "-gpgpu_num_tensor_core_units", "-gpgpu_tensor_core_avail",
    "-gpgpu_concurrent_kernel_sm", "-gpgpu_sub_core_model", "-gpgpu_enable_specialized_operand_collector",
    "-gpgpu_stat_sampling_freq", "-gpgpu_clock_gated_lanes", "-gpgpu_clock_gated_reg_file",
    "-gpgpu_perf_sim_memcpy", "-gpgpu_local_mem_map", "-gpgpu_shmem_limited_broadcast",
    "-gpgpu_mem_unit_ports", "-gpgpu_fill_entire_line_on_clean", NULL
};

/* Parse a whole unsigned decimal number; false on junk. */
static bool num(const char *s, uint32_t *out)
{
    char *end;
    while (isspace((unsigned char)*s)) s++;
    if (!isdigit((unsigned char)*s)) return false;
    unsigned long long v = strtoull(s, &end, 10);
    while (isspace((unsigned char)*end)) end++;
    if (*end || v > 0xffffffffull) return false;
    *out = (uint32_t)v;
    return true;
}

/* Split `v` at `sep` into at most `max` fields (copied into `buf`). */
static int split(const char *v, char sep, char *buf, size_t len, char **f, int max)
{
    snprintf(buf, len, "%s", v);
    int n = 0;
    for (char *p = buf; n < max;) {
        f[n++] = p;
        char *s = strchr(p, sep);
        if (!s) break;
        *s = '\0';
        p = s + 1;
    }
    return n;
}

/* set("key", "%u", x) through the table, so bounds are checked there. */
static int setf(gpu_config *c, const char *key, const char *opt, uint32_t x, char *err,
                size_t errlen)
{
    char v[32], e[512];
    snprintf(v, sizeof v, "%u", x);
    if (gpu_config_set(c, key, v, e, sizeof e) == 0) return GPU_GS_APPLIED;
    snprintf(err, errlen, "%s: %s", opt, e);
    return GPU_GS_ERROR;
}

static int bad(const char *opt, const char *v, const char *want, char *err, size_t errlen)
{
    snprintf(err, errlen, "%s '%s': expected %s", opt, v, want);
    return GPU_GS_ERROR;
}

/* ------------------------------------------------------------------ */
/* Cache strings                                                       */
/* ------------------------------------------------------------------ */

/*
** "[N|S:]sets:line:ways,rep:write:alloc:write_alloc[:index],mshr:entries:merge,mq[:...]..."
**   e.g. "N:64:128:6,L:L:m:N:H,A:128:8,16:0,32"   (GPGPU-Sim 4.x)
**        "32:128:4,L:L:m:N,A:32:8,8"               (GPGPU-Sim 3.x)
** "none" disables the cache.  The policy letters, and what they become:
**   write:  B write-back (write_back = true); T write-through; E write-evict
**           (write-through + write_evict = true); R read-only (write-through:
**           it never holds dirty data); L local write-back / global
**           write-through: write-through for both, since the L1 does not tell
**           local from global stores (named in the warning).
**   alloc:  m, f, s -> <l1>.allocate = miss, fill, streaming.  The L2
**           allocates at fill: m and s are named in the warning there.
**   write_alloc: N (no write-allocate) is our write-through; W and F are our
**           write-back, which fetches the line on a store miss (F exactly; W,
**           GPGPU-Sim 3.x's write-allocate, as fetch-on-write); L (lazy
**           fetch-on-read) has no counterpart.
**   rep L (LRU) and index L (linear) are ours; rep F (FIFO) and index H, P,
**   C, X (hashed) have no counterpart.
** A letter without a counterpart is accepted and named in the one warning
** of unused options (GPU_GS_PARTIAL); a letter that is not GPGPU-Sim's is
** an error naming the option and the letter.
*/

/* One policy field: its position's name, its valid letters. */
static const struct { const char *name, *valid; } cache_fields[] = {
    { "replacement", "LF" }, { "write", "RBTEL" }, { "allocation", "mfs" },
    { "write-allocate", "NWFL" }, { "set-index", "HPCLX" },
};

/* Append "[X: why]" to the note in `note`. */
static void note_add(char *note, size_t len, char letter, const char *why)
{
    size_t n = strlen(note);
    snprintf(note + n, len - n, " [%c: %s]", letter, why);
}

/* The "rep:write:alloc:write_alloc[:index]" group for `cache` (l1d, l1c,
   l1t or l2): check every letter, apply those with a counterpart, note the
   others in `note`.  GPU_GS_APPLIED or GPU_GS_ERROR. */
static int cache_letters(gpu_config *c, const char *cache, const char *opt, const char *grp,
                         char *note, size_t notelen, char *err, size_t errlen)
{
    char buf[64], *f[6], set[96];
    int n = split(grp, ':', buf, sizeof buf, f, 6);
    if (n < 4 || n > 5) {
        snprintf(err, errlen, "%s: policy group '%s': expected rep:write:alloc:write_alloc"
                 "[:index] (e.g. L:T:m:N)", opt, grp);
        return GPU_GS_ERROR;
    }
    for (int i = 0; i < n; i++)
        if (strlen(f[i]) != 1 || !strchr(cache_fields[i].valid, f[i][0])) {
            snprintf(err, errlen, "%s: invalid %s policy letter '%s' in '%s' (valid: %s)", opt,
                     cache_fields[i].name, f[i], grp, cache_fields[i].valid);
            return GPU_GS_ERROR;
        }
    char rep = f[0][0], wr = f[1][0], al = f[2][0], wa = f[3][0], idx = n == 5 ? f[4][0] : 'L';
    bool l1 = strcmp(cache, "l2") != 0;
    if (rep == 'F') note_add(note, notelen, rep, "FIFO replacement, modelled as LRU");
    if (wr == 'L') note_add(note, notelen, wr, "local write-back, modelled as write-through");
    if (wr == 'E' && !l1) note_add(note, notelen, wr, "write-evict, not modelled at the L2");
    if (al != 'f' && !l1) note_add(note, notelen, al, "allocation at miss, the L2 allocates at fill");
    if (wa == 'L') note_add(note, notelen, wa, "lazy fetch-on-read, not modelled");
    if (wa == 'N' && wr == 'B')
        note_add(note, notelen, wa, "no write-allocate, write-back allocates on store misses");
    if ((wa == 'W' || wa == 'F') && wr != 'B')
        note_add(note, notelen, wa, "write-allocate, write-through never allocates");
    if (idx != 'L') note_add(note, notelen, idx, "hashed set index, modelled as linear");
    snprintf(set, sizeof set, "%s.write_back=%s", cache, wr == 'B' ? "true" : "false");
    if (gpu_config_apply(c, set, err, errlen)) return GPU_GS_ERROR;
    if (!l1) return GPU_GS_APPLIED;
    snprintf(set, sizeof set, "%s.write_evict=%s", cache, wr == 'E' ? "true" : "false");
    if (gpu_config_apply(c, set, err, errlen)) return GPU_GS_ERROR;
    snprintf(set, sizeof set, "%s.allocate=%s", cache,
             al == 'm' ? "miss" : al == 's' ? "streaming" : "fill");
    return gpu_config_apply(c, set, err, errlen) ? GPU_GS_ERROR : GPU_GS_APPLIED;
}

static int cache_option(gpu_config *c, const char *cache, const char *opt, const char *v,
                        char *err, size_t errlen)
{
    char buf[256], gbuf[256], *grp[8], *geo[4], key[64], note[512] = "";
    if (strcmp(v, "none") == 0) {
        snprintf(key, sizeof key, "%s.enabled=false", cache);
        return gpu_config_apply(c, key, err, errlen) ? GPU_GS_ERROR : GPU_GS_APPLIED;
    }
    int ng = split(v, ',', buf, sizeof buf, grp, 8);
    int nf = split(grp[0], ':', gbuf, sizeof gbuf, geo, 4);
    int g0 = nf == 4 && isalpha((unsigned char)geo[0][0]) ? 1 : 0;   /* N: / S: prefix */
    uint32_t sets, line, ways, mshr = 0, merge = 0, mq = 0;
    if (nf - g0 != 3 || !num(geo[g0], &sets) || !num(geo[g0 + 1], &line)
        || !num(geo[g0 + 2], &ways))
        return bad(opt, v, "[N:]sets:line:ways,... (e.g. 32:128:4,L:L:m:N,A:32:8,8)", err, errlen);
    if (ng >= 3) {
        char mbuf[64], *m[4];
        if (split(grp[2], ':', mbuf, sizeof mbuf, m, 4) < 3 || !num(m[1], &mshr)
            || !num(m[2], &merge))
            return bad(opt, v, "an MSHR group like A:32:8 (type:entries:merge)", err, errlen);
    }
    if (ng >= 4) {
        char qbuf[64], *q[4];
        split(grp[3], ':', qbuf, sizeof qbuf, q, 4);
        if (!num(q[0], &mq)) return bad(opt, v, "a miss-queue size after the MSHR group", err, errlen);
    }
    const char *fields[] = { "sets", "line_bytes", "ways", "mshr_entries", "mshr_merge",
                             "miss_queue" };
    uint32_t vals[] = { sets, line, ways, mshr, merge, mq };
    for (int i = 0; i < 6; i++) {
        if (i >= 3 && !vals[i]) continue;   /* group absent: keep ours */
        snprintf(key, sizeof key, "%s.%s", cache, fields[i]);
        if (setf(c, key, opt, vals[i], err, errlen) != GPU_GS_APPLIED) return GPU_GS_ERROR;
    }
    snprintf(key, sizeof key, "%s.enabled=true", cache);
    gpu_config_apply(c, key, err, errlen);
    if (ng >= 2 && cache_letters(c, cache, opt, grp[1], note, sizeof note, err, errlen))
        return GPU_GS_ERROR;
    if (!note[0]) return GPU_GS_APPLIED;
    snprintf(err, errlen, "%s%s", opt, note);
    return GPU_GS_PARTIAL;
}

/* ------------------------------------------------------------------ */
/* Composite options                                                   */
/* ------------------------------------------------------------------ */

/* lrr | gto | old | two_level_active:N:inner:outer | warp_limiting:type:N */
static int scheduler_option(gpu_config *c, const char *opt, const char *v, char *err,
                            size_t errlen)
{
    char buf[128], *f[5], params[128] = "";
    const char *name = NULL;
    int n = split(v, ':', buf, sizeof buf, f, 5);
    uint32_t a, b, d;
    if (n == 1 && (strcmp(f[0], "lrr") == 0 || strcmp(f[0], "gto") == 0)) name = f[0];
    else if (n == 1 && strcmp(f[0], "old") == 0) name = "oldest";
    else if (strcmp(f[0], "two_level_active") == 0) {
        if (n != 4 || !num(f[1], &a) || !num(f[2], &b) || !num(f[3], &d))
            return bad(opt, v, "two_level_active:ACTIVE:INNER:OUTER", err, errlen);
        name = "two-level";
        /* GPGPU-Sim's inner/outer codes: 0 = LRR / SRR, 1 = GTO / oldest */
        snprintf(params, sizeof params, "active_warps=%u,inner=%u,outer=%u", a, b ? 1 : 0,
                 d ? 1 : 0);
    } else if (strcmp(f[0], "warp_limiting") == 0) {
        if (n != 3 || !num(f[1], &a) || !num(f[2], &b))
            return bad(opt, v, "warp_limiting:TYPE:LIMIT", err, errlen);
        name = "swl";
        snprintf(params, sizeof params, "warp_limit=%u", b);
    }
    if (!name)
        return bad(opt, v, "lrr, gto, old, two_level_active:N:I:O or warp_limiting:T:N", err,
                   errlen);
    char e[512];
    if (gpu_config_set(c, "warp_scheduler", name, e, sizeof e)
        || gpu_config_set(c, "warp_scheduler_params", params, e, sizeof e)) {
        snprintf(err, errlen, "%s: %s", opt, e);
        return GPU_GS_ERROR;
    }
    return GPU_GS_APPLIED;
}

/* "ADD,MAX,MUL,MAD,DIV" -> op.<cls>.latency|interval (ADD for the class,
   max(MUL, MAD) for integer multiply, DIV for division) */
static int opcode_option(gpu_config *c, const char *opt, const char *v, const char *cls,
                         const char *what, char *err, size_t errlen)
{
    char buf[128], *f[6], key[64];
    uint32_t x[5];
    int n = split(v, ',', buf, sizeof buf, f, 6);
    if (strcmp(cls, "sfu") == 0) {
        if (n < 1 || !num(f[0], &x[0])) return bad(opt, v, "a cycle count", err, errlen);
        snprintf(key, sizeof key, "op.sfu.%s", what);
        return setf(c, key, opt, x[0], err, errlen);
    }
    if (n != 5) return bad(opt, v, "ADD,MAX,MUL,MAD,DIV (5 cycle counts)", err, errlen);
    for (int i = 0; i < 5; i++)
        if (!num(f[i], &x[i])) return bad(opt, v, "ADD,MAX,MUL,MAD,DIV (5 cycle counts)", err, errlen);
    const char *base = strcmp(cls, "int") == 0 ? "int" : strcmp(cls, "fp") == 0 ? "fp32" : "fp64";
    snprintf(key, sizeof key, "op.%s.%s", base, what);
    if (setf(c, key, opt, x[0], err, errlen)) return GPU_GS_ERROR;
    if (strcmp(base, "int") == 0) {
        snprintf(key, sizeof key, "op.int_mul.%s", what);
        if (setf(c, key, opt, x[2] > x[3] ? x[2] : x[3], err, errlen)) return GPU_GS_ERROR;
    }
    snprintf(key, sizeof key, "op.%s_div.%s", base, what);
    return setf(c, key, opt, x[4], err, errlen);
}

static int clock_option(gpu_config *c, const char *opt, const char *v, char *err, size_t errlen)
{
    char buf[128], *f[5];
    static const char *const keys[] = { "core_mhz", "icnt_mhz", "l2_mhz", "dram_mhz" };
    if (split(v, ':', buf, sizeof buf, f, 5) != 4)
        return bad(opt, v, "CORE:ICNT:L2:DRAM in MHz", err, errlen);
    for (int i = 0; i < 4; i++) {
        char e[512];
        if (gpu_config_set(c, keys[i], f[i], e, sizeof e)) {
            snprintf(err, errlen, "%s: %s", opt, e);
            return GPU_GS_ERROR;
        }
    }
    return GPU_GS_APPLIED;
}

static int pipeline_option(gpu_config *c, const char *opt, const char *v, char *err,
                           size_t errlen)
{
    char buf[64], *f[3];
    uint32_t threads, warp;
    if (split(v, ':', buf, sizeof buf, f, 3) != 2 || !num(f[0], &threads) || !num(f[1], &warp))
        return bad(opt, v, "THREADS:WARP_SIZE", err, errlen);
    if (warp != 32) return bad(opt, v, "warp size 32 (the only one warpsim models)", err, errlen);
    return setf(c, "max_threads_per_sm", opt, threads, err, errlen);
}

/* ------------------------------------------------------------------ */
/* Memory-system options                                               */
/* ------------------------------------------------------------------ */

/* Copy `v` without double quotes and white space (GPGPU-Sim quotes the
   timing string and config files break it over lines). */
static void squeeze(const char *v, char *buf, size_t len)
{
    size_t n = 0;
    for (; *v && n + 1 < len; v++)
        if (*v != '"' && !isspace((unsigned char)*v)) buf[n++] = *v;
    buf[n] = '\0';
}

/*
** "nbk=16:CCD=2:RRD=6:RCD=12:RAS=28:RP=12:RC=40:CL=12:WL=4:CDLR=5:WR=12:
**  nbkgrp=4:CCDL=3:RTPL=2".  Write-to-read and read-to-write turnarounds
** are derived the way GPGPU-Sim derives them, from the burst length and
** data:command ratio set so far: tWTR = WL + BL/ratio + CDLR, tRTW = CL +
** BL/ratio + 2 - WL (so give -gpgpu_dram_burst_length and
** -dram_data_command_freq_ratio first, as GPGPU-Sim's own configs do).
*/
static int timing_option(gpu_config *c, const char *opt, const char *v, char *err,
                         size_t errlen)
{
    static const struct { const char *name, *key; } direct[] = {
        { "nbk", "dram_banks" }, { "CCD", "tCCD" }, { "RRD", "tRRD" }, { "RCD", "tRCD" },
        { "RAS", "tRAS" }, { "RP", "tRP" }, { "RC", "tRC" }, { "CL", "tCL" }, { "WR", "tWR" },
        { "nbkgrp", "dram_bank_groups" }, { "CCDL", "tCCDL" }, { "RTPL", "tRTP" },
        { NULL, NULL }
    };
    char buf[512], *f[32];
    squeeze(v, buf, sizeof buf);
    char copy[512];
    snprintf(copy, sizeof copy, "%s", buf);
    int n = split(copy, ':', buf, sizeof buf, f, 32);
    uint32_t wl = 0, cdlr = 0, x;
    bool have_wl = false, have_cdlr = false, have_ccdl = false;
    for (int i = 0; i < n; i++) {
        char *eq = strchr(f[i], '=');
        if (!*f[i]) continue;                      /* trailing ':' */
        if (!eq || !num(eq + 1, &x))
            return bad(opt, v, "name=value fields separated by ':' (e.g. nbk=16:CCD=2:...)",
                       err, errlen);
        *eq = '\0';
        if (strcmp(f[i], "WL") == 0) { wl = x; have_wl = true; continue; }
        if (strcmp(f[i], "CDLR") == 0) { cdlr = x; have_cdlr = true; continue; }
        int k = 0;
        while (direct[k].name && strcmp(direct[k].name, f[i])) k++;
        if (!direct[k].name) {
            snprintf(err, errlen, "%s: unknown timing field '%s' (known: nbk, CCD, RRD, RCD, "
                     "RAS, RP, RC, CL, WL, CDLR, WR, nbkgrp, CCDL, RTPL)", opt, f[i]);
            return GPU_GS_ERROR;
        }
        if (strcmp(f[i], "CCDL") == 0) have_ccdl = true;
        if (setf(c, direct[k].key, opt, x, err, errlen)) return GPU_GS_ERROR;
    }
    /* no bank groups given: column commands space like tCCD everywhere */
    if (!have_ccdl && setf(c, "tCCDL", opt, c->tCCD, err, errlen)) return GPU_GS_ERROR;
    uint32_t bl = c->dram_burst / (c->dram_data_rate ? c->dram_data_rate : 1);
    if (have_wl || have_cdlr) {
        if (setf(c, "tWTR", opt, wl + bl + cdlr, err, errlen)) return GPU_GS_ERROR;
        uint32_t rtw = c->tCL + bl + 2 > wl ? c->tCL + bl + 2 - wl : 0;
        if (setf(c, "tRTW", opt, rtw, err, errlen)) return GPU_GS_ERROR;
    }
    return GPU_GS_APPLIED;
}

static int set_text(gpu_config *c, const char *key, const char *opt, const char *v, char *err,
                    size_t errlen)
{
    char e[512];
    if (gpu_config_set(c, key, v, e, sizeof e) == 0) return GPU_GS_APPLIED;
    snprintf(err, errlen, "%s: %s", opt, e);
    return GPU_GS_ERROR;
}

/* Options of the memory system; GPU_GS_UNKNOWN when `opt` is none. */
static int memsys_option(gpu_config *c, const char *opt, const char *v, char *err,
                         size_t errlen)
{
    char buf[512];
    uint32_t x;
    if (strcmp(opt, "-gpgpu_cache:dl2") == 0) return cache_option(c, "l2", opt, v, err, errlen);
    if (strcmp(opt, "-gpgpu_dram_timing_opt") == 0) return timing_option(c, opt, v, err, errlen);
    if (strcmp(opt, "-gpgpu_mem_addr_mapping") == 0) {
        squeeze(v, buf, sizeof buf);
        return set_text(c, "dram_addr_map", opt, buf, err, errlen);
    }
    if (strcmp(opt, "-gpgpu_dram_scheduler") == 0) {
        if (!num(v, &x) || x > 1) return bad(opt, v, "0 (FIFO) or 1 (FR-FCFS)", err, errlen);
        return set_text(c, "dram_scheduler", opt, x ? "frfcfs" : "fcfs", err, errlen);
    }
    /* per chip in GPGPU-Sim; its configs put 2 chips on a controller
       (-gpgpu_n_mem_per_ctrlr 2), which warpsim assumes [I] */
    if (strcmp(opt, "-gpgpu_dram_buswidth") == 0) {
        if (!num(v, &x) || !x) return bad(opt, v, "bytes per chip", err, errlen);
        return setf(c, "dram_bus_bytes", opt, 2 * x, err, errlen);
    }
    if (strcmp(opt, "-gpgpu_frfcfs_dram_sched_queue_size") == 0) {
        if (!num(v, &x)) return bad(opt, v, "entries per chip (0 = unlimited)", err, errlen);
        return setf(c, "dram_queue", opt, x ? 2 * x : 1u << 20, err, errlen);
    }
    /* icnt->L2 : L2->DRAM : DRAM->L2 : L2->icnt; warpsim has one size */
    if (strcmp(opt, "-gpgpu_dram_partition_queues") == 0) {
        char *f[4];
        uint32_t q[4], m = 0;
        if (split(v, ':', buf, sizeof buf, f, 4) != 4)
            return bad(opt, v, "four queue sizes A:B:C:D", err, errlen);
        for (int i = 0; i < 4; i++) {
            if (!num(f[i], &q[i])) return bad(opt, v, "four queue sizes A:B:C:D", err, errlen);
            if (q[i] > m) m = q[i];
        }
        return setf(c, "l2_queue", opt, m, err, errlen);
    }
    static const struct { const char *opt, *key; } nums[] = {
        { "-gpgpu_n_sub_partition_per_mchannel", "n_sub_per_mem" },
        { "-gpgpu_dram_burst_length", "dram_burst" },
        { "-dram_data_command_freq_ratio", "dram_data_rate" },
        /* ROP latency: the fixed delay of a request entering the L2 [I] */
        { "-gpgpu_l2_rop_latency", "l2.hit_latency" },
        { "-rop_latency", "l2.hit_latency" },
        /* GPGPU-Sim 4's local crossbar (network_mode 2) */
        { "-icnt_flit_size", "icnt_flit_bytes" },
        { "-icnt_in_buffer_limit", "icnt_in_buffer" },
        { "-icnt_out_buffer_limit", "icnt_out_buffer" },
        { NULL, NULL }
    };
    for (int i = 0; nums[i].opt; i++)
        if (strcmp(opt, nums[i].opt) == 0) {
            if (!num(v, &x)) return bad(opt, v, "a non-negative integer", err, errlen);
            return setf(c, nums[i].key, opt, x, err, errlen);
        }
    /* 2 chips per controller is what the per-chip options assume */
    if (strcmp(opt, "-gpgpu_n_mem_per_ctrlr") == 0 && num(v, &x) && x == 2) return GPU_GS_APPLIED;
    return GPU_GS_UNKNOWN;
}

/* ------------------------------------------------------------------ */
/* The table of single-number options                                  */
/* ------------------------------------------------------------------ */

static const struct { const char *opt, *key; } simple[] = {
    { "-gpgpu_n_clusters", "n_clusters" },
    { "-gpgpu_n_cores_per_cluster", "cores_per_cluster" },
    { "-gpgpu_num_sched_per_core", "n_schedulers" },
    { "-gpgpu_shmem_size", "shmem_per_sm" },
    { "-gpgpu_shader_registers", "regs_per_sm" },
    { "-gpgpu_shader_cta", "max_ctas_per_sm" },
    { "-gpgpu_n_mem", "n_mem" },
    { "-gpgpu_max_insn_issue_per_warp", "issue_width" },
    { "-gpgpu_num_sp_units", "units.sp" },
    { "-gpgpu_num_sfu_units", "units.sfu" },
    { "-gpgpu_num_dp_units", "units.dp" },
    { "-gpgpu_num_int_units", "units.int" },
    { "-gpgpu_shmem_num_banks", "shmem_banks" },
    { "-smem_latency", "shmem_latency" },
    { "-gpgpu_smem_latency", "shmem_latency" },
    { "-gpgpu_l1_latency", "l1d.hit_latency" },
    { "-gpgpu_max_cycle", "max_cycles" },
    { NULL, NULL }
};

int gpu_gpgpusim_apply(gpu_config *c, const char *opt, const char *v, char *err, size_t errlen)
{
    uint32_t x;
    /* values lose their quotes (squeeze): an unbalanced one would otherwise
       pass unnoticed and take whatever follows as part of the value */
    size_t quotes = 0;
    for (const char *q = v; *q; q++) quotes += *q == '"';
    if (quotes & 1) {
        snprintf(err, errlen, "%s '%s': unterminated '\"' in the value", opt, v);
        return GPU_GS_ERROR;
    }
    for (int i = 0; simple[i].opt; i++)
        if (strcmp(opt, simple[i].opt) == 0) {
            if (!num(v, &x)) return bad(opt, v, "a non-negative integer", err, errlen);
            return setf(c, simple[i].key, opt, x, err, errlen);
        }
    if (strcmp(opt, "-gpgpu_cache:dl1") == 0) return cache_option(c, "l1d", opt, v, err, errlen);
    if (strcmp(opt, "-gpgpu_const_cache:l1") == 0 || strcmp(opt, "-gpgpu_cache:const") == 0)
        return cache_option(c, "l1c", opt, v, err, errlen);
    if (strcmp(opt, "-gpgpu_tex_cache:l1") == 0 || strcmp(opt, "-gpgpu_cache:tex") == 0)
        return cache_option(c, "l1t", opt, v, err, errlen);
    if (strcmp(opt, "-gpgpu_gmem_skip_L1D") == 0) {
        if (!num(v, &x) || x > 1) return bad(opt, v, "0 or 1", err, errlen);
        return gpu_config_set(c, "l1d.enabled", x ? "false" : "true", err, errlen)
               ? GPU_GS_ERROR : GPU_GS_APPLIED;
    }
    if (strcmp(opt, "-gpgpu_scheduler") == 0) return scheduler_option(c, opt, v, err, errlen);
    if (strcmp(opt, "-gpgpu_clock_domains") == 0) return clock_option(c, opt, v, err, errlen);
    if (strcmp(opt, "-gpgpu_shader_core_pipeline") == 0)
        return pipeline_option(c, opt, v, err, errlen);
    static const char *const classes[] = { "int", "fp", "dp", "sfu" };
    for (int i = 0; i < 4; i++) {
        char lat[64], ini[64];
        snprintf(lat, sizeof lat, "-ptx_opcode_latency_%s", classes[i]);
        snprintf(ini, sizeof ini, "-ptx_opcode_initiation_%s", classes[i]);
        if (strcmp(opt, lat) == 0)
            return opcode_option(c, opt, v, classes[i], "latency", err, errlen);
        if (strcmp(opt, ini) == 0)
            return opcode_option(c, opt, v, classes[i], "interval", err, errlen);
    }
    int m = memsys_option(c, opt, v, err, errlen);
    if (m != GPU_GS_UNKNOWN) return m;
    for (int i = 0; ignored_options[i]; i++)
        if (strcmp(opt, ignored_options[i]) == 0) return GPU_GS_IGNORED;
    return GPU_GS_UNKNOWN;
}
