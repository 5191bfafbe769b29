/*
** stats.c -- the statistics report of a CUDA program run on the
** simulator: per kernel (in order of first launch) and optionally per
** launch, as text on stderr (the program's stdout stays clean) and as
** JSON.  Everything printed is a pure function of the launches, so the
** report is deterministic.
*/
#include "cuda_internal.h"
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/*
** Simulated time without the timing model (with it, ws_stats.cycles):
** every SM the grid can
** occupy (min(SMs, CTAs)) retires one warp instruction per cycle, so a
** launch takes ceil(warp instructions / those SMs) cycles.  Crude but
** deterministic and monotone in work; cudaEvent timings use it.
*/
uint64_t wsc_launch_cycles(const ws_stats *s, uint32_t num_sms)
{
    if (s->cycles) return s->cycles;   /* the timing model measured it */
    uint64_t sms = s->ctas < num_sms ? s->ctas : num_sms;
    if (sms == 0) sms = 1;
    return (s->warp_insns + sms - 1) / sms;
}

static const char *pretty(const wsc_kstats *k) { return k->pretty ? k->pretty : k->name; }

static int stats_kernel(wsc_stats *st, const char *name)
{
    for (uint32_t i = 0; i < st->nkernels; i++)
        if (strcmp(st->kernels[i].name, name) == 0) return (int)i;
    if (st->nkernels == st->cap_kernels) {
        uint32_t cap = st->cap_kernels ? st->cap_kernels * 2 : 16;
        wsc_kstats *k = realloc(st->kernels, cap * sizeof *k);
        if (!k) return -1;
        st->kernels = k;
        st->cap_kernels = cap;
    }
    wsc_kstats *k = &st->kernels[st->nkernels];
    memset(k, 0, sizeof *k);
    if (!(k->name = strdup(name))) return -1;
    k->pretty = wsc_demangle(name);
    return (int)st->nkernels++;
}

static bool stats_keep_launch(wsc_stats *st, const wsc_launch_rec *r)
{
    if (st->nlaunches == st->cap_launches) {
        uint64_t cap = st->cap_launches ? st->cap_launches * 2 : 64;
        wsc_launch_rec *l = realloc(st->launches, cap * sizeof *l);
        if (!l) return false;   /* the per-launch list is best effort */
        st->launches = l;
        st->cap_launches = cap;
    }
    st->launches[st->nlaunches++] = *r;
    return true;
}

/* The library's full counters of the launch `ctx` just ran, added to the
   kernel's and the total (and into a new one for the launch record when
   `rec`), on the timing model only.  Best effort: out of host memory,
   the report lacks them. */
static ws_tstats *stats_keep_timing(wsc_stats *st, wsc_kstats *k, const ws_ctx *ctx, bool rec)
{
    if (!st->t) st->t = ws_tstats_new();
    if (!k->t) k->t = ws_tstats_new();
    ws_tstats_add_last(st->t, ctx);
    ws_tstats_add_last(k->t, ctx);
    ws_tstats *t = rec ? ws_tstats_new() : NULL;
    ws_tstats_add_last(t, ctx);
    return t;
}

void wsc_stats_add(wsc_stats *st, const wsc_config *c, const ws_ctx *ctx, const char *kernel,
                   ws_dim3 grid, ws_dim3 block, size_t shared, const ws_stats *s, bool failed)
{
    int ki = stats_kernel(st, kernel);
    if (ki < 0) return;
    wsc_kstats *k = &st->kernels[ki];
    ws_tstats *t = c->timing ? stats_keep_timing(st, k, ctx, c->per_kernel) : NULL;
    uint64_t cycles = wsc_launch_cycles(s, c->num_sms);
    k->launches++;
    k->ctas += s->ctas;
    k->warps += s->warps;
    k->warp_insns += s->warp_insns;
    k->thread_insns += s->thread_insns;
    k->mem_insns += s->mem_insns;
    k->bar_insns += s->bar_insns;
    k->warp_insns_sq += s->warp_insns_sq;
    k->reg_hash += s->reg_hash;
    if (s->warp_insns_min && (!k->warp_insns_min || s->warp_insns_min < k->warp_insns_min))
        k->warp_insns_min = s->warp_insns_min;
    if (s->warp_insns_max > k->warp_insns_max) k->warp_insns_max = s->warp_insns_max;
    k->cycles += cycles;
    k->l1d_accesses += s->l1d_accesses;
    k->l1d_hits += s->l1d_hits;
    k->l1d_misses += s->l1d_misses;
    k->lsu_stall_cycles += s->lsu_stall_cycles;
    k->untimed += s->untimed_launches;
    st->cycles += cycles;
    st->total_launches++;
    if (!c->per_kernel) return;
    wsc_launch_rec r = { .kernel = (uint32_t)ki, .grid = grid, .block = block,
                         .shared = shared, .s = *s, .cycles = cycles, .failed = failed,
                         .t = t };
    if (!stats_keep_launch(st, &r)) ws_tstats_free(t);
    if (!c->quiet)
        fprintf(stderr, "warpsim: launch %" PRIu64 ": %s grid (%u,%u,%u) block (%u,%u,%u)"
                " shared %zu: %" PRIu64 " warp instructions, %" PRIu64 " thread "
                "instructions, %" PRIu64 " cycles; %" PRIu64 " memory, %" PRIu64
                " barrier; warp length %" PRIu64 "..%" PRIu64 "%s\n", st->total_launches,
                pretty(k), grid.x, grid.y, grid.z, block.x, block.y, block.z, shared,
                s->warp_insns, s->thread_insns, cycles, s->mem_insns, s->bar_insns,
                s->warp_insns_min, s->warp_insns_max, failed ? " (FAILED)" : "");
}

/* ------------------------------------------------------------------ */
/* Output                                                              */
/* ------------------------------------------------------------------ */

static double ratio(uint64_t a, uint64_t b) { return b ? (double)a / (double)b : 0.0; }

/* What the cycle counts mean, for the report headers. */
static void time_model(const wsc_config *c, char *buf, size_t len)
{
    if (c->timing)
        snprintf(buf, len, "timing model, configuration %s",
                 c->timing_config[0] ? c->timing_config : "gtx480");
    else
        snprintf(buf, len, "functional emulation; cycles: 1 warp instruction per SM per cycle");
}

/* The simulated machine's name: with the timing model the configuration
   it was built from (its preset, or the file's name), else the device the
   program sees. */
static const char *machine_name(const wsc_stats *st, const wsc_config *c, char *buf, size_t len)
{
    if (!c->timing) {
        snprintf(buf, len, "sm_%d%d", c->cc_major, c->cc_minor);
        return buf;
    }
    const char *m = ws_tstats_machine(st->t, NULL, NULL);
    return m[0] ? m : c->timing_config[0] ? c->timing_config : "gtx480";
}

static void stats_text(const wsc_stats *st, const wsc_config *c, FILE *out)
{
    uint64_t w = 0, t = 0;
    char model[1200], buf[32];
    time_model(c, model, sizeof model);
    const char *mach = machine_name(st, c, buf, sizeof buf);
    if (c->timing)   /* the machine timed is not the device the program sees */
        fprintf(out, "warpsim: ---- statistics: %" PRIu64 " launch%s of %u kernel%s on "
                "%s, %u SMs at %u MHz (%s; the program sees an sm_%d%d device) ----\n",
                st->total_launches, st->total_launches == 1 ? "" : "es", st->nkernels,
                st->nkernels == 1 ? "" : "s", mach, c->num_sms, c->clock_mhz, model,
                c->cc_major, c->cc_minor);
    else
        fprintf(out, "warpsim: ---- statistics: %" PRIu64 " launch%s of %u kernel%s on "
                "%s, %u SMs (%s) ----\n", st->total_launches,
                st->total_launches == 1 ? "" : "es", st->nkernels, st->nkernels == 1 ? "" : "s",
                mach, c->num_sms, model);
    for (uint32_t i = 0; i < st->nkernels; i++) {
        const wsc_kstats *k = &st->kernels[i];
        fprintf(out, "warpsim: %s: %" PRIu64 " launch%s, %" PRIu64 " CTAs, %" PRIu64
                " warps, %" PRIu64 " warp instructions, %" PRIu64 " thread instructions, %"
                PRIu64 " cycles\n", pretty(k), k->launches, k->launches == 1 ? "" : "es",
                k->ctas, k->warps, k->warp_insns, k->thread_insns, k->cycles);
        if (k->untimed)
            fprintf(out, "warpsim:   fast-forward: %" PRIu64 " of the launches ran functionally "
                    "(not timed; their cycles are the functional estimate)\n", k->untimed);
        fprintf(out, "warpsim:   %" PRIu64 " memory and %" PRIu64 " barrier warp "
                "instructions; warp length %" PRIu64 "..%" PRIu64 " instructions\n",
                k->mem_insns, k->bar_insns, k->warp_insns_min, k->warp_insns_max);
        if (c->timing)
            fprintf(out, "warpsim:   timing: IPC %.4f (thread instructions per cycle), L1D hit "
                    "rate %.4f (%" PRIu64 " of %" PRIu64 " accesses), LSU stall cycles %"
                    PRIu64 "\n", ratio(k->thread_insns, k->cycles),
                    ratio(k->l1d_hits, k->l1d_accesses), k->l1d_hits, k->l1d_accesses,
                    k->lsu_stall_cycles);
        w += k->warp_insns;
        t += k->thread_insns;
    }
    fprintf(out, "warpsim: total: %" PRIu64 " warp instructions, %" PRIu64 " thread "
            "instructions, %" PRIu64 " cycles (%.6f ms at %u MHz)\n", w, t, st->cycles,
            (double)st->cycles / (c->clock_mhz * 1000.0), c->clock_mhz);
}

static void json_str(FILE *f, const char *s)
{
    fputc('"', f);
    for (; *s; s++) {
        unsigned char ch = (unsigned char)*s;
        if (ch == '"' || ch == '\\') fprintf(f, "\\%c", ch);
        else if (ch < 0x20) fprintf(f, "\\u%04x", ch);
        else fputc(ch, f);
    }
    fputc('"', f);
}

static void json_counts(FILE *f, uint64_t ctas, uint64_t warps, uint64_t wi, uint64_t ti,
                        uint64_t cycles)
{
    fprintf(f, "\"ctas\": %" PRIu64 ", \"warps\": %" PRIu64 ", \"warp_insns\": %" PRIu64
            ", \"thread_insns\": %" PRIu64 ", \"cycles\": %" PRIu64, ctas, warps, wi, ti,
            cycles);
}

/* The characterization counters of a kernel or launch (after the counts). */
static void json_classes(FILE *f, uint64_t mem, uint64_t bar, uint64_t wmin, uint64_t wmax)
{
    fprintf(f, ", \"mem_insns\": %" PRIu64 ", \"bar_insns\": %" PRIu64 ", "
            "\"warp_insns_min\": %" PRIu64 ", \"warp_insns_max\": %" PRIu64, mem, bar,
            wmin, wmax);
}

/*
** The spread of warp lengths of a kernel or launch (after the classes):
** the sum of squared lengths (so that reports can be merged), and the
** mean and standard deviation over its `warps` warps it gives.
*/
static void json_spread(FILE *f, uint64_t warps, uint64_t wi, double sq)
{
    double avg = warps ? (double)wi / (double)warps : 0.0;
    double var = warps ? sq / (double)warps - avg * avg : 0.0;
    fprintf(f, ", \"warp_insns_sq\": %.17g, \"warp_insns_avg\": %.3f, "
            "\"warp_insns_std\": %.3f", sq, avg, var > 0.0 ? sqrt(var) : 0.0);
}

/* The exit-register hash (ws_stats.reg_hash), as a hex string: a JSON
   number would lose bits in readers that parse doubles. */
static void json_reg_hash(FILE *f, uint64_t h)
{
    fprintf(f, ", \"reg_hash\": \"%016" PRIx64 "\"", h);
}

/* Timing-model counters (only with the timing model on). */
static void json_timing(FILE *f, const wsc_config *c, uint64_t ti, uint64_t cycles,
                        uint64_t acc, uint64_t hits, uint64_t misses, uint64_t lsu)
{
    if (!c->timing) return;
    fprintf(f, ", \"ipc\": %.6f, \"l1d_accesses\": %" PRIu64 ", \"l1d_hits\": %" PRIu64
            ", \"l1d_misses\": %" PRIu64 ", \"l1d_hit_rate\": %.6f, \"lsu_stall_cycles\": %"
            PRIu64, ratio(ti, cycles), acc, hits, misses, ratio(hits, acc), lsu);
}

/* The report's head: simulator, machine, time model and settings. */
static void json_head(const wsc_stats *st, const wsc_config *c, const char *api, FILE *f)
{
    fprintf(f, "{\n  \"simulator\": \"warpsim\",\n  \"version\": \"%s\",\n  \"api\": ",
            WS_VERSION_STRING);
    json_str(f, api);
    char buf[32];
    const char *mach = machine_name(st, c, buf, sizeof buf);
    if (c->timing) {
        /* the machine the timing model simulated; device_arch is only what
           the program's device properties say */
        fprintf(f, ",\n  \"gpu\": {\"machine\": ");
        json_str(f, mach);
        fprintf(f, ", \"sms\": %u, \"clock_mhz\": %u, \"device_arch\": \"sm_%d%d\"},\n"
                "  \"time_model\": ", c->num_sms, c->clock_mhz, c->cc_major, c->cc_minor);
    } else {
        fprintf(f, ",\n  \"gpu\": {\"arch\": \"sm_%d%d\", \"sms\": %u, \"clock_mhz\": %u},\n"
                "  \"time_model\": ", c->cc_major, c->cc_minor, c->num_sms, c->clock_mhz);
    }
    json_str(f, c->timing ? "timing" : "nominal: 1 warp instruction per SM per cycle");
    if (c->timing) {
        fprintf(f, ",\n  \"timing_config\": ");
        json_str(f, c->timing_config[0] ? c->timing_config : "gtx480");
        fprintf(f, ", \"timing_settings\": [");
        /* `threads` says how the host simulated, not what: left out, so
           the statistics are the same for any value (docs/parallel-timing.md) */
        bool first = true;
        for (int i = 0; c->settings[i]; i++) {
            if (strncmp(c->settings[i], "threads=", 8) == 0) continue;
            fputs(first ? "" : ", ", f);
            first = false;
            json_str(f, c->settings[i]);
        }
        fputc(']', f);
    }
}

/* One "kernels" element, its counters also added to `sum` (the total). */
static void json_kernel(const wsc_kstats *k, const wsc_config *c, FILE *f, wsc_kstats *sum)
{
    fprintf(f, "\n    {\"name\": ");
    json_str(f, k->name);
    if (k->pretty) {
        fprintf(f, ", \"demangled\": ");
        json_str(f, k->pretty);
    }
    fprintf(f, ", \"launches\": %" PRIu64 ", ", k->launches);
    json_counts(f, k->ctas, k->warps, k->warp_insns, k->thread_insns, k->cycles);
    json_classes(f, k->mem_insns, k->bar_insns, k->warp_insns_min, k->warp_insns_max);
    json_spread(f, k->warps, k->warp_insns, k->warp_insns_sq);
    json_reg_hash(f, k->reg_hash);
    if (k->untimed) fprintf(f, ", \"untimed_launches\": %" PRIu64, k->untimed);
    json_timing(f, c, k->thread_insns, k->cycles, k->l1d_accesses, k->l1d_hits,
                k->l1d_misses, k->lsu_stall_cycles);
    ws_tstats_json(k->t, f, 3, 0);
    fputc('}', f);
    sum->l1d_accesses += k->l1d_accesses; sum->l1d_hits += k->l1d_hits;
    sum->l1d_misses += k->l1d_misses; sum->lsu_stall_cycles += k->lsu_stall_cycles;
    sum->ctas += k->ctas; sum->warps += k->warps; sum->warp_insns += k->warp_insns;
    sum->thread_insns += k->thread_insns; sum->mem_insns += k->mem_insns;
    sum->bar_insns += k->bar_insns; sum->warp_insns_sq += k->warp_insns_sq;
    sum->reg_hash += k->reg_hash;
    sum->untimed += k->untimed;
    if (k->warp_insns_min && (!sum->warp_insns_min || k->warp_insns_min < sum->warp_insns_min))
        sum->warp_insns_min = k->warp_insns_min;
    if (k->warp_insns_max > sum->warp_insns_max) sum->warp_insns_max = k->warp_insns_max;
}

/* The "launches" list (--per-kernel). */
static void json_launches(const wsc_stats *st, const wsc_config *c, FILE *f)
{
    fprintf(f, "  \"launches\": [");
    for (uint64_t i = 0; i < st->nlaunches; i++) {
        const wsc_launch_rec *r = &st->launches[i];
        fprintf(f, "%s\n    {\"kernel\": ", i ? "," : "");
        json_str(f, st->kernels[r->kernel].name);
        fprintf(f, ", \"grid\": [%u, %u, %u], \"block\": [%u, %u, %u], "
                "\"dynamic_shared\": %" PRIu64 ", \"failed\": %s, ", r->grid.x,
                r->grid.y, r->grid.z, r->block.x, r->block.y, r->block.z, r->shared,
                r->failed ? "true" : "false");
        json_counts(f, r->s.ctas, r->s.warps, r->s.warp_insns, r->s.thread_insns,
                    r->cycles);
        json_classes(f, r->s.mem_insns, r->s.bar_insns, r->s.warp_insns_min,
                     r->s.warp_insns_max);
        json_spread(f, r->s.warps, r->s.warp_insns, r->s.warp_insns_sq);
        json_reg_hash(f, r->s.reg_hash);
        if (r->s.untimed_launches) fprintf(f, ", \"untimed\": true");
        json_timing(f, c, r->s.thread_insns, r->cycles, r->s.l1d_accesses, r->s.l1d_hits,
                    r->s.l1d_misses, r->s.lsu_stall_cycles);
        ws_tstats_json(r->t, f, 3, 0);
        fputc('}', f);
    }
    fprintf(f, "%s],\n", st->nlaunches ? "\n  " : "");
}

static void stats_json(const wsc_stats *st, const wsc_config *c, const char *api, FILE *f)
{
    wsc_kstats t = { 0 };   /* the total over kernels */
    json_head(st, c, api, f);
    fprintf(f, ",\n  \"kernels\": [");
    for (uint32_t i = 0; i < st->nkernels; i++) {
        fputs(i ? "," : "", f);
        json_kernel(&st->kernels[i], c, f, &t);
    }
    fprintf(f, "%s],\n", st->nkernels ? "\n  " : "");
    if (c->per_kernel) json_launches(st, c, f);
    fprintf(f, "  \"total\": {\"launches\": %" PRIu64 ", ", st->total_launches);
    json_counts(f, t.ctas, t.warps, t.warp_insns, t.thread_insns, st->cycles);
    json_classes(f, t.mem_insns, t.bar_insns, t.warp_insns_min, t.warp_insns_max);
    json_spread(f, t.warps, t.warp_insns, t.warp_insns_sq);
    json_reg_hash(f, t.reg_hash);
    if (t.untimed) fprintf(f, ", \"untimed_launches\": %" PRIu64, t.untimed);
    json_timing(f, c, t.thread_insns, st->cycles, t.l1d_accesses, t.l1d_hits,
                t.l1d_misses, t.lsu_stall_cycles);
    ws_tstats_json(st->t, f, 2, 1);
    fprintf(f, "}\n}\n");
}

void wsc_stats_report(const wsc_stats *st, const wsc_config *c, const char *api, FILE *out)
{
    if (!c->quiet) stats_text(st, c, out);
    if (!c->stats_json[0]) return;
    FILE *f = fopen(c->stats_json, "w");
    if (!f) {
        wsc_msg("cannot write the statistics to '%s'", c->stats_json);
        return;
    }
    stats_json(st, c, api, f);
    if (fclose(f) != 0) wsc_msg("error writing the statistics to '%s'", c->stats_json);
}

void wsc_stats_free(wsc_stats *st)
{
    for (uint32_t i = 0; i < st->nkernels; i++) {
        free(st->kernels[i].name);
        free(st->kernels[i].pretty);
        ws_tstats_free(st->kernels[i].t);
    }
    for (uint64_t i = 0; i < st->nlaunches; i++) ws_tstats_free(st->launches[i].t);
    ws_tstats_free(st->t);
    free(st->kernels);
    free(st->launches);
    memset(st, 0, sizeof *st);
}
