/*
** api_report.c -- the timing model's reports and configuration checks in
** the host API: ws_config_check and ws_config_machine (before any context
** exists), the
** configuration's warnings, ws_report and ws_timeseries over every launch
** a timing context has run (api_timing.c records them), and the
** accumulators of launch statistics the CUDA shims keep (ws_tstats).
*/
#include "api_internal.h"
#include "gpu/report.h"
#include <stdlib.h>

ws_status ws_config_check(const char *config, const char *const *settings, char *warn,
                          size_t warnlen, char *err, size_t errlen)
{
    gpu_config c;
    char e[1024];
    if (gpu_config_build(&c, config, settings, warn, warnlen, e, sizeof e) == 0) return WS_OK;
    if (err && errlen) snprintf(err, errlen, "timing configuration: %s", e);
    return WS_ERR_INVALID;
}

ws_status ws_config_machine(const char *config, const char *const *settings,
                            uint32_t *num_sms, double *core_mhz)
{
    gpu_config c;
    char warn[16], e[1024];
    if (gpu_config_build(&c, config, settings, warn, sizeof warn, e, sizeof e)) return WS_ERR_INVALID;
    if (num_sms) *num_sms = gpu_config_n_sm(&c);
    if (core_mhz) *core_mhz = c.core_mhz;
    return WS_OK;
}

const char *ws_config_warnings(const ws_ctx *ctx)
{
    return ctx ? ctx->warn : "";
}

ws_status ws_report(const ws_ctx *ctx, FILE *out, int json)
{
    if (!ctx || !out) return WS_ERR_INVALID;
    if (!ctx->gpu) return WS_ERR_INVALID;
    gpu_report(out, &ctx->cfg, ctx->kstats, ctx->nkstats, &ctx->ffwd, json != 0);
    return WS_OK;
}

ws_status ws_timeseries(const ws_ctx *ctx, FILE *out, int json)
{
    if (!ctx || !out || !ctx->gpu) return WS_ERR_INVALID;
    gpu_report_timeseries(out, ctx->kstats, ctx->nkstats, json != 0);
    return WS_OK;
}

/* ------------------------------------------------------------------ */
/* Accumulated launch statistics (ws_tstats)                           */
/* ------------------------------------------------------------------ */

/* A copy of the machine configuration travels with the counters: the
   report's ratios need its clock, SM count and memory model, and the
   context it came from may be destroyed before the report is written
   (only its plain values are read, never its pointers). */
struct ws_tstats {
    gpu_config cfg;
    gpu_kernel_stats sum;   /* names and samples are not summed */
    uint64_t launches;
};

ws_tstats *ws_tstats_new(void)
{
    return calloc(1, sizeof(ws_tstats));
}

void ws_tstats_free(ws_tstats *t)
{
    free(t);
}

void ws_tstats_add_last(ws_tstats *t, const ws_ctx *ctx)
{
    if (!t || !ctx || !ctx->gpu || !ctx->nkstats) return;
    if (!t->launches) t->cfg = ctx->cfg;
    gpu_stats_accumulate(&t->sum, &ctx->kstats[ctx->nkstats - 1]);
    t->launches++;
}

void ws_tstats_add(ws_tstats *t, const ws_tstats *o)
{
    if (!t || !o || !o->launches) return;
    if (!t->launches) t->cfg = o->cfg;
    gpu_stats_accumulate(&t->sum, &o->sum);
    t->launches += o->launches;
}

uint64_t ws_tstats_launches(const ws_tstats *t)
{
    return t ? t->launches : 0;
}

void ws_tstats_json(const ws_tstats *t, FILE *out, int depth, int total)
{
    if (!t || !out || !t->launches) return;
    gpu_report_gpgpusim_json(out, &t->cfg, &t->sum, depth, total != 0);
}

const char *ws_tstats_machine(const ws_tstats *t, uint32_t *num_sms, double *core_mhz)
{
    bool have = t && t->launches;
    if (num_sms) *num_sms = have ? gpu_config_n_sm(&t->cfg) : 0;
    if (core_mhz) *core_mhz = have ? t->cfg.core_mhz : 0.0;
    return have ? t->cfg.preset : "";
}
