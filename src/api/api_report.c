/*
** api_report.c -- the timing model's reports and configuration checks in
** the host API: ws_config_check and ws_config_machine (before any context
** exists), the
** configuration's warnings, ws_report and ws_timeseries over every launch
** a timing context has run (api_timing.c records them).
*/
#include "api_internal.h"
#include "gpu/report.h"

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
    gpu_report(out, &ctx->cfg, ctx->kstats, ctx->nkstats, json != 0);
    return WS_OK;
}

ws_status ws_timeseries(const ws_ctx *ctx, FILE *out, int json)
{
    if (!ctx || !out || !ctx->gpu) return WS_ERR_INVALID;
    gpu_report_timeseries(out, ctx->kstats, ctx->nkstats, json != 0);
    return WS_OK;
}
