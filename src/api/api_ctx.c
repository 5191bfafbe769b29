/*
** api_ctx.c -- contexts, error messages, status names and statistics of
** the public host API (warpsim.h).
*/
#include "api_internal.h"
#include "policy/policy.h"
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

const char *ws_status_name(ws_status s)
{
    static const char *const names[] = {
        [WS_OK] = "WS_OK", [WS_ERR_INVALID] = "WS_ERR_INVALID",
        [WS_ERR_PARSE] = "WS_ERR_PARSE", [WS_ERR_NOT_FOUND] = "WS_ERR_NOT_FOUND",
        [WS_ERR_NOMEM] = "WS_ERR_NOMEM", [WS_ERR_LAUNCH] = "WS_ERR_LAUNCH",
        [WS_ERR_FAULT] = "WS_ERR_FAULT", [WS_ERR_TRAP] = "WS_ERR_TRAP",
        [WS_ERR_DEADLOCK] = "WS_ERR_DEADLOCK", [WS_ERR_UNSUPPORTED] = "WS_ERR_UNSUPPORTED",
        [WS_ERR_IO] = "WS_ERR_IO", [WS_ERR_ASSERT] = "WS_ERR_ASSERT",
        [WS_ERR_TIMEOUT] = "WS_ERR_TIMEOUT", [WS_ERR_INTERRUPTED] = "WS_ERR_INTERRUPTED",
    };
    if ((unsigned)s < sizeof names / sizeof names[0] && names[s]) return names[s];
    return "WS_ERR_UNKNOWN";
}

ws_status ws__error(ws_ctx *ctx, ws_status st, const char *fmt, ...)
{
    if (!ctx) return st;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(ctx->err, sizeof ctx->err, fmt, ap);
    va_end(ap);
    return st;
}

ws_status ws_ctx_create2(const ws_options *opts, ws_ctx **out, char *err, size_t errlen)
{
    if (err && errlen) err[0] = '\0';
    if (!out) return WS_ERR_INVALID;
    *out = NULL;
    ws_ctx *ctx = calloc(1, sizeof *ctx);
    if (!ctx) goto nomem;
    if (opts) ctx->opts = *opts;
    if (!ctx->opts.stack_bytes) ctx->opts.stack_bytes = WS_DEFAULT_STACK;
    ctx->opts.stack_bytes = (ctx->opts.stack_bytes + 15u) & ~15u;
    if (!ctx->opts.num_sms) ctx->opts.num_sms = WS_DEFAULT_SMS;
    if (!ctx->opts.max_shared_bytes) ctx->opts.max_shared_bytes = WS_DEFAULT_MAX_SHARED;
    /* the caller's strings need not outlive this call */
    ctx->opts.config = NULL;
    ctx->opts.settings = NULL;
    ctx->opts.report_json = ctx->opts.timeseries = ctx->opts.plugins = NULL;
    ctx->mem = emu_mem_new();
    ctx->oob = ctx->opts.memcheck ? NULL : emu_oob_new();
    if (!ctx->mem || (!ctx->opts.memcheck && !ctx->oob)) {
        emu_mem_free(ctx->mem);
        emu_oob_free(ctx->oob);
        free(ctx);
        goto nomem;
    }
    /* memcheck keeps freed addresses poisoned (and out of reuse) far longer */
    if (ctx->opts.memcheck) emu_mem_set_quarantine(ctx->mem, WS_MEMCHECK_QUARANTINE);
    if (ctx->opts.host_mem_limit)
        emu_mem_set_page_limit(ctx->mem, (ctx->opts.host_mem_limit + 4095) / 4096);
    char e[1024] = "";
    ws_status st = WS_OK;
    /* plug-ins are loaded even without timing: a bad one is refused the
       same way in every mode, before anything runs */
    if (opts && opts->plugins) st = ws__registry_open(opts->plugins, &ctx->registry, e, sizeof e);
    if (st == WS_OK && opts && opts->timing) st = ws__timing_init(ctx, opts, e, sizeof e);
    if (st != WS_OK) {
        if (err && errlen) snprintf(err, errlen, "%s", e);
        ws_ctx_destroy(ctx);
        return st;
    }
    *out = ctx;
    return WS_OK;
nomem:
    if (err && errlen) snprintf(err, errlen, "out of host memory creating a context");
    return WS_ERR_NOMEM;
}

/* Only later launches see it: each launch copies the size into its
   emu_launch (functional and timing paths alike), so nothing resident has
   to be resized. */
ws_status ws_ctx_set_stack(ws_ctx *ctx, size_t bytes)
{
    if (!ctx) return WS_ERR_INVALID;
    if (bytes > WS_MAX_STACK_BYTES)
        return ws__error(ctx, WS_ERR_INVALID, "ws_ctx_set_stack: %zu bytes per thread; the "
                         "simulator allows at most %u", bytes, WS_MAX_STACK_BYTES);
    uint32_t b = bytes ? (uint32_t)bytes : WS_DEFAULT_STACK;
    ctx->opts.stack_bytes = (b + 15u) & ~15u;
    return WS_OK;
}

ws_ctx *ws_ctx_create(const ws_options *opts)
{
    ws_ctx *ctx = NULL;
    ws_ctx_create2(opts, &ctx, NULL, 0);
    return ctx;
}

void ws_ctx_destroy(ws_ctx *ctx)
{
    if (!ctx) return;
    if (!ctx->oob_taken) ws_mem_warnings(ctx, ctx->opts.warn_out ? ctx->opts.warn_out : stderr);
    ws__timing_fini(ctx);
    while (ctx->nmods) ws_module_unload(ctx->mods[ctx->nmods - 1]);
    free(ctx->mods);
    free(ctx->cmem);
    free(ctx->tex.obj);
    free(ctx->hints);
    emu_oob_free(ctx->oob);
    emu_mem_free(ctx->mem);
    /* last: the plug-ins' code ran in the policy instances freed above */
    ws_registry_free(ctx->registry);
    free(ctx);
}

const char *ws_last_error(const ws_ctx *ctx)
{
    if (!ctx) return "no context (NULL ws_ctx)";
    return ctx->err;
}

ws_status ws_synchronize(ws_ctx *ctx)
{
    if (!ctx) return WS_ERR_INVALID;
    ws_status st = ctx->pending;
    ctx->pending = WS_OK;
    return st;
}

void ws_stats_last(const ws_ctx *ctx, ws_stats *out)
{
    if (!out) return;
    if (ctx) *out = ctx->last;
    else memset(out, 0, sizeof *out);
}

void ws_stats_total(const ws_ctx *ctx, ws_stats *out)
{
    if (!out) return;
    if (ctx) *out = ctx->total;
    else memset(out, 0, sizeof *out);
}
