/*
** config.c -- the simulated GPU and report options of the CUDA shims,
** read once from WARPSIM_* environment variables (set by `warpsim exec`),
** including the timing model's (checked before anything runs), plus the
** messages both shims print.
*/
#include "cuda_internal.h"
#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#define WSC_DEFAULT_CC_MAJOR  8
#define WSC_DEFAULT_CC_MINOR  6
#define WSC_DEFAULT_SMS       15     /* same as libwarpsim's default */
#define WSC_DEFAULT_CLOCK_MHZ 1400

void wsc_msg(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("warpsim: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
}

int wsc_grow(void **arr, int *cap, int n, size_t elem)
{
    if (n < *cap) return 0;
    int c = *cap ? *cap * 2 : 16;
    void *q = realloc(*arr, (size_t)c * elem);
    if (!q) return -1;
    *arr = q;
    *cap = c;
    return 0;
}

static bool env_flag(const char *name)
{
    const char *v = getenv(name);
    return v && *v && strcmp(v, "0") != 0;
}

/* Unsigned value of `name` in [lo, hi] into *out; a bad value is reported. */
static void env_u32(const char *name, uint32_t lo, uint32_t hi, uint32_t *out)
{
    const char *v = getenv(name);
    if (!v || !*v) return;
    char *end;
    errno = 0;
    unsigned long long x = strtoull(v, &end, 0);
    if (errno || *end || v[0] == '-' || x < lo || x > hi) {
        wsc_msg("ignoring %s='%s': expected an integer in [%u, %u]", name, v, lo, hi);
        return;
    }
    *out = (uint32_t)x;
}

/* Bytes as a plain integer (0x.. accepted); a bad value is reported. */
static void env_u64(const char *name, uint64_t *out)
{
    const char *v = getenv(name);
    if (!v || !*v) return;
    char *end;
    errno = 0;
    unsigned long long x = strtoull(v, &end, 0);
    if (errno || *end || v[0] == '-') {
        wsc_msg("ignoring %s='%s': expected a number of bytes", name, v);
        return;
    }
    *out = x;
}

/* "sm_86", "compute_86" or "86" -> 8.6 */
static void env_arch(wsc_config *c)
{
    const char *v = getenv(WSC_ENV_ARCH);
    if (!v || !*v) return;
    const char *d = v;
    if (strncmp(d, "sm_", 3) == 0) d += 3;
    else if (strncmp(d, "compute_", 8) == 0) d += 8;
    char *end;
    long x = strtol(d, &end, 10);
    if (end == d || *end || end - d < 2 || end - d > 3) {
        wsc_msg("ignoring %s='%s': expected sm_NN or sm_NNN (e.g. sm_86)", WSC_ENV_ARCH, v);
        return;
    }
    /* the range `warpsim exec --arch` accepts (cli.h CLI_ARCH_MIN/MAX) */
    if (x < 30 || x > 129) {
        wsc_msg("ignoring %s='%s': sm_%ld is not supported (sm_30 .. sm_129)", WSC_ENV_ARCH,
                v, x);
        return;
    }
    c->cc_major = (int)(x / 10);
    c->cc_minor = (int)(x % 10);
}

/* WARPSIM_PROGRESS_LIMIT: warp instructions without progress before a
   launch counts as hung; 0 = no limit (ws_options: UINT64_MAX). */
static void env_progress(wsc_config *c)
{
    const char *v = getenv(WSC_ENV_PROGRESS);
    if (!v || !*v) return;
    char *end;
    errno = 0;
    unsigned long long x = strtoull(v, &end, 0);
    if (errno || *end || v[0] == '-') {
        wsc_msg("ignoring %s='%s': expected an integer (0 = no limit)", WSC_ENV_PROGRESS, v);
        return;
    }
    c->progress_limit = x ? (uint64_t)x : UINT64_MAX;
}

static void env_str(const char *name, char *out, size_t len)
{
    const char *v = getenv(name);
    if (v && *v) snprintf(out, len, "%s", v);
}

/*
** The timing model's options and the policy plug-ins.  WARPSIM_SET holds
** "key=value" lines; a bad configuration or a plug-in that cannot be
** loaded is a usage error of the whole run: it is reported (file, key,
** value, bounds) and the program stops with status 2 before any kernel
** runs, rather than silently running something else.
*/
static void timing_read(wsc_config *c)
{
    c->timing = env_flag(WSC_ENV_TIMING);
    env_str(WSC_ENV_CONFIG, c->timing_config, sizeof c->timing_config);
    env_str(WSC_ENV_SET, c->set_buf, sizeof c->set_buf);
    env_str(WSC_ENV_TIMESERIES, c->timeseries, sizeof c->timeseries);
    env_str(WSC_ENV_REPORT_JSON, c->timing_report, sizeof c->timing_report);
    env_str(WSC_ENV_PLUGINS, c->plugins, sizeof c->plugins);
    int n = 0;
    for (char *save = NULL, *kv = strtok_r(c->set_buf, "\n", &save); kv && n < 64;
         kv = strtok_r(NULL, "\n", &save))
        if (*kv) c->settings[n++] = kv;
    c->settings[n] = NULL;
    if (!c->timing && !c->plugins[0]) return;
    ws_options o = wsc_config_options(c);
    char warn[16384] = "", err[1024] = "";   /* a GPGPU-Sim file names every option */
    uint32_t sms = 0;
    double mhz = 0.0;
    if (ws_options_check(&o, &sms, &mhz, warn, sizeof warn, err, sizeof err) != WS_OK) {
        wsc_msg("%s", err);
        exit(2);
    }
    /* a command running many programs on one machine says it once itself */
    if (warn[0] && !env_flag(WSC_ENV_CONFIG_WARNED)) wsc_msg("warning: %s", warn);
    /* the device the program sees is the simulated machine: its SMs, and
       its core clock for event times and the clock-rate attribute */
    if (c->timing) {
        c->num_sms = sms;
        c->clock_mhz = mhz >= 1.0 ? (uint32_t)(mhz + 0.5) : 1;
    }
}

void wsc_config_read(wsc_config *c)
{
    memset(c, 0, sizeof *c);
    c->cc_major = WSC_DEFAULT_CC_MAJOR;
    c->cc_minor = WSC_DEFAULT_CC_MINOR;
    c->num_sms = WSC_DEFAULT_SMS;
    c->clock_mhz = WSC_DEFAULT_CLOCK_MHZ;
    const char *js = getenv(WSC_ENV_STATS_JSON);
    if (js && *js) snprintf(c->stats_json, sizeof c->stats_json, "%s", js);
    c->per_kernel = env_flag(WSC_ENV_PER_KERNEL);
    c->quiet = env_flag(WSC_ENV_QUIET);
    env_arch(c);
    env_u32(WSC_ENV_SMS, 1, 4096, &c->num_sms);
    env_u32(WSC_ENV_CLOCK_MHZ, 1, 100000, &c->clock_mhz);
    env_u32(WSC_ENV_STACK, 16, 1u << 24, &c->stack_bytes);
    c->memcheck = env_flag(WSC_ENV_MEMCHECK);
    env_u64(WSC_ENV_HOST_MEM, &c->host_mem_limit);
    env_str(WSC_ENV_KEEP_PTX, c->keep_ptx, sizeof c->keep_ptx);
    env_progress(c);
    timing_read(c);
}

/*
** Ctrl-C during a long kernel.  The handler only sets this flag (the one
** async-signal-safe thing to do; a volatile sig_atomic_t is the type C
** allows a handler to write), which the library's run loops poll between
** turns / cycles; the launch then returns WS_ERR_INTERRUPTED with where
** every warp is, and wsc_interrupted prints it and exits.  A global
** because a signal handler has no other way to reach state.  A SIGINT
** the program ignores or handles itself is left alone.
*/
static volatile sig_atomic_t wsc_sigint;

static void wsc_on_sigint(int sig)
{
    (void)sig;
    wsc_sigint = 1;
}

static void wsc_sigint_install(void)
{
    struct sigaction old, sa;
    if (sigaction(SIGINT, NULL, &old) != 0 || old.sa_handler != SIG_DFL) return;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = wsc_on_sigint;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
}

void wsc_interrupted(ws_ctx *ctx, ws_status st)
{
    if (st != WS_ERR_INTERRUPTED) return;
    wsc_msg("%s", ctx ? ws_last_error(ctx) : "interrupted (SIGINT)");
    exit(130);    /* 128 + SIGINT, as a shell reports it */
}

ws_options wsc_config_options(const wsc_config *c)
{
    ws_options o;
    memset(&o, 0, sizeof o);
    wsc_sigint_install();
    o.interrupt = &wsc_sigint;
    o.progress_limit = c->progress_limit;
    o.printf_out = stdout;
    o.num_sms = c->num_sms;
    o.stack_bytes = c->stack_bytes;
    o.max_shared_bytes = WSC_SHARED_PER_BLOCK;
    o.plugins = c->plugins[0] ? c->plugins : NULL;
    /* the device the properties describe: cudaMalloc beyond it fails */
    o.device_mem_bytes = WSC_TOTAL_GLOBAL_MEM;
    o.memcheck = c->memcheck;
    o.host_mem_limit = c->host_mem_limit;
    if (c->timing) {
        o.timing = 1;
        o.config = c->timing_config[0] ? c->timing_config : NULL;
        o.settings = c->settings;
        /* the full report follows the shim's own summary at exit */
        o.report_out = c->quiet ? NULL : stderr;
        o.report_json = c->timing_report[0] ? c->timing_report : NULL;
        o.timeseries = c->timeseries[0] ? c->timeseries : NULL;
    }
    return o;
}

ws_status wsc_launch_hints(ws_ctx *ctx)
{
    ws_status st = ws_ctx_set_launch_hints(ctx, getenv(WSC_ENV_LAUNCH_HINT));
    if (st != WS_OK) wsc_msg("%s: %s", WSC_ENV_LAUNCH_HINT, ws_last_error(ctx));
    return st;
}
