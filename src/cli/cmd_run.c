/*
** cmd_run.c -- `warpsim run FILE.ptx KERNEL --grid .. --block .. --arg ..`:
** launch one kernel with scalar and buffer arguments given on the command
** line, print the launch counters, and optionally dump buffers afterwards;
** with --timing/--config/--set on the timing model, with its report.
** Argument specs are checked against the kernel's PTX signature first, so
** a wrong count or width is reported before anything runs.
*/
#include "cli.h"
#include "ptx/ptx.h"
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define RUN_MAX_ARGS 64
#define RUN_MAX_DUMPS 16
#define RUN_MAX_BUF (256ull << 20)   /* host copy is made first: keep it sane */
#define RUN_MAX_SETS 64

static const char run_usage[] =
    "usage: warpsim run FILE.ptx KERNEL --grid X[,Y[,Z]] --block X[,Y[,Z]]\n"
    "                   [--shared BYTES] [--arg SPEC]... [--dump ARG:N]...\n"
    "                   [--timing | --config NAME|FILE] [--set key=value]...\n"
    "                   [--threads N]\n"
    "                   [--plugin FILE.so]... [--memcheck] [--progress-limit N]\n"
    "  Run KERNEL once; --arg gives the kernel parameters in order.\n"
    "  SPEC is one of:\n"
    "    i32:V  u32:V  i64:V  u64:V  f32:V  f64:V    a scalar (ints accept 0x..)\n"
    "    buf:N              N zeroed bytes of device memory; passes its address\n"
    "    buf:N:iota32       32-bit words 0, 1, 2, ...\n"
    "    buf:N:iotaf32      floats 0.0, 1.0, 2.0, ...\n"
    "    buf:N:rand32:SEED  pseudo-random 32-bit words (64-bit LCG, SEED)\n"
    "    buf:N:fill8:B      every byte = B\n"
    "  --shared BYTES   dynamic shared memory per CTA (default 0)\n"
    "  --dump ARG:N     after the launch print the first N 32-bit words of\n"
    "                   buffer argument ARG (0-based), as int, hex and float\n"
    "  --memcheck       any global access outside an allocation faults (use\n"
    "                   after free named); by default one inside a mapped 2 MiB\n"
    "                   page proceeds as on a GPU, with one warning per site\n"
    "  Timing model (cycle-level; without these the kernel runs functionally):\n"
    "  --timing         run on the timing model (default machine gtx480) and\n"
    "                   print its report\n"
    "  --config NAME|FILE  machine preset (warpsim config list) or config file;\n"
    "                   implies --timing\n"
    "  --set key=value  override one parameter (repeatable; warpsim config show\n"
    "                   lists them); implies --timing\n"
    "  --threads N      host threads ticking the SMs, 1-256 (--set threads=N;\n"
    "                   implies --timing); the statistics are the same for every N\n"
    "  --stats-json FILE   write the timing report as JSON\n"
    "  --timeseries FILE   write the time series (needs --set\n"
    "                   timeseries_interval=N; FILE ending .json: JSON, else CSV)\n"
    "  --plugin FILE.so load a policy plug-in (repeatable; see warpsim policies\n"
    "                   --plugin FILE.so) whose policies --set may then name, e.g.\n"
    "                   --plugin ./youngest.so --set warp_scheduler=youngest\n"
    "  --progress-limit N  stop the kernel as hung (with where each warp is) after\n"
    "                   N warp instructions with no warp finishing and no barrier\n"
    "                   completing; 0 = no limit (default 1000000000, or the\n"
    "                   timing configuration's progress_limit)\n"
    "  Ctrl-C prints where every resident warp is and exits with status 130.\n"
    "  Exit 0 on success, 1 on a bad argument value or kernel failure (a hang\n"
    "  included), 2 on a usage error, PTX that does not parse, or a plug-in that\n"
    "  cannot be loaded.\n";

typedef struct run_arg {
    const char *spec;
    uint32_t size;        /* bytes passed to the kernel */
    bool is_buf;
    uint8_t value[8];     /* scalar bytes, or the device pointer of a buffer */
    uint8_t *host;        /* buffer contents before upload */
    uint64_t buf_bytes;
    ws_devptr ptr;
} run_arg;

typedef struct run_dump { uint32_t arg, words; } run_dump;

typedef struct run_job {
    const char *path, *kernel;
    ws_dim3 grid, block;
    bool have_grid, have_block;
    uint64_t shared;
    run_arg args[RUN_MAX_ARGS];
    uint32_t nargs;
    run_dump dumps[RUN_MAX_DUMPS];
    uint32_t ndumps;
    bool memcheck;
    /* timing model */
    bool timing;
    const char *config, *stats_json, *timeseries;
    const char *sets[RUN_MAX_SETS + 1];
    uint32_t nsets;
    char plugins[CLI_PLUGINS_MAX];   /* colon-separated, "" = none */
    char threads[CLI_THREADS_SET];   /* --threads N as threads=N (the last one given) */
    uint64_t progress_limit;         /* ws_options.progress_limit */
} run_job;

/* ------------------------------------------------------------------ */
/* Argument specs                                                      */
/* ------------------------------------------------------------------ */

static bool parse_scalar(const char *type, const char *v, run_arg *a)
{
    int64_t i;
    uint64_t u;
    double d;
    if (strcmp(type, "i32") == 0 && cli_parse_i64(v, INT32_MIN, INT32_MAX, &i)) {
        int32_t x = (int32_t)i;
        memcpy(a->value, &x, a->size = 4);
    } else if (strcmp(type, "u32") == 0 && cli_parse_u64(v, UINT32_MAX, &u)) {
        uint32_t x = (uint32_t)u;
        memcpy(a->value, &x, a->size = 4);
    } else if (strcmp(type, "i64") == 0 && cli_parse_i64(v, INT64_MIN, INT64_MAX, &i)) {
        memcpy(a->value, &i, a->size = 8);
    } else if (strcmp(type, "u64") == 0 && cli_parse_u64(v, UINT64_MAX, &u)) {
        memcpy(a->value, &u, a->size = 8);
    } else if (strcmp(type, "f32") == 0 && cli_parse_f64(v, &d)) {
        float f = (float)d;
        memcpy(a->value, &f, a->size = 4);
    } else if (strcmp(type, "f64") == 0 && cli_parse_f64(v, &d)) {
        memcpy(a->value, &d, a->size = 8);
    } else {
        return false;
    }
    return true;
}

/* Fill a host buffer by `fill` ("", "iota32", "iotaf32", "rand32:S", "fill8:B"). */
static bool fill_buffer(uint8_t *p, uint64_t n, const char *fill)
{
    uint64_t words = n / 4, u;
    if (!*fill)
        return true;                        /* calloc'ed: zero */
    if (strcmp(fill, "iota32") == 0) {
        for (uint64_t k = 0; k < words; k++) {
            uint32_t w = (uint32_t)k;
            memcpy(p + 4 * k, &w, 4);
        }
    } else if (strcmp(fill, "iotaf32") == 0) {
        for (uint64_t k = 0; k < words; k++) {
            float f = (float)k;
            memcpy(p + 4 * k, &f, 4);
        }
    } else if (strncmp(fill, "rand32:", 7) == 0 && cli_parse_u64(fill + 7, UINT64_MAX, &u)) {
        for (uint64_t k = 0; k < words; k++) {
            uint32_t w = cli_rand32(&u);
            memcpy(p + 4 * k, &w, 4);
        }
    } else if (strncmp(fill, "fill8:", 6) == 0 && cli_parse_u64(fill + 6, 255, &u)) {
        memset(p, (int)u, n);
    } else {
        return false;
    }
    return true;
}

static bool parse_buffer(const char *rest, run_arg *a)
{
    char num[32];
    const char *colon = strchr(rest, ':');
    size_t len = colon ? (size_t)(colon - rest) : strlen(rest);
    if (len == 0 || len >= sizeof num)
        return false;
    memcpy(num, rest, len);
    num[len] = 0;
    if (!cli_parse_u64(num, RUN_MAX_BUF, &a->buf_bytes) || a->buf_bytes == 0)
        return false;
    a->host = calloc(1, a->buf_bytes);
    if (!a->host)
        return false;
    a->is_buf = true;
    a->size = 8;
    return fill_buffer(a->host, a->buf_bytes, colon ? colon + 1 : "");
}

static bool parse_arg_spec(const char *spec, run_arg *a)
{
    char type[8];
    const char *colon = strchr(spec, ':');
    memset(a, 0, sizeof *a);
    a->spec = spec;
    if (!colon || colon - spec >= (long)sizeof type)
        return false;
    memcpy(type, spec, (size_t)(colon - spec));
    type[colon - spec] = 0;
    if (strcmp(type, "buf") == 0)
        return parse_buffer(colon + 1, a);
    return parse_scalar(type, colon + 1, a);
}

static bool parse_dump(const char *s, run_dump *d)
{
    char buf[48];
    uint64_t arg, words;
    const char *colon = strchr(s, ':');
    if (!colon || (size_t)(colon - s) >= sizeof buf)
        return false;
    memcpy(buf, s, (size_t)(colon - s));
    buf[colon - s] = 0;
    if (!cli_parse_u64(buf, RUN_MAX_ARGS - 1, &arg) || !cli_parse_u64(colon + 1, 1u << 24, &words))
        return false;
    d->arg = (uint32_t)arg;
    d->words = (uint32_t)words;
    return true;
}

/* ------------------------------------------------------------------ */
/* Command line                                                        */
/* ------------------------------------------------------------------ */

/* Returns -1 to go on, else the exit status (help printed or error). */
static int handle_option(run_job *job, const char *cmd, const char *name, const char *value)
{
    if (strcmp(name, "help") == 0) {
        fputs(run_usage, stdout);
        return CLI_EXIT_OK;
    }
    if (strcmp(name, "grid") == 0 || strcmp(name, "block") == 0) {
        bool is_grid = name[0] == 'g';
        if (!cli_parse_dim3(value, is_grid ? &job->grid : &job->block)) {
            cli_error(cmd, "bad --%s '%s' (want X[,Y[,Z]], each >= 1)", name, value);
            return CLI_EXIT_USAGE;
        }
        *(is_grid ? &job->have_grid : &job->have_block) = true;
    } else if (strcmp(name, "shared") == 0) {
        if (!cli_parse_u64(value, UINT32_MAX, &job->shared)) {
            cli_error(cmd, "bad --shared '%s' (want a byte count)", value);
            return CLI_EXIT_USAGE;
        }
    } else if (strcmp(name, "arg") == 0) {
        if (job->nargs == RUN_MAX_ARGS) {
            cli_error(cmd, "too many --arg (at most %d)", RUN_MAX_ARGS);
            return CLI_EXIT_FAIL;
        }
        run_arg *a = &job->args[job->nargs++];
        if (!parse_arg_spec(value, a)) {
            cli_error(cmd, "bad --arg '%s' (see `warpsim run --help` for SPEC forms)", value);
            return CLI_EXIT_FAIL;
        }
    } else if (strcmp(name, "timing") == 0) {
        job->timing = true;
    } else if (strcmp(name, "memcheck") == 0) {
        job->memcheck = true;
    } else if (strcmp(name, "config") == 0) {
        job->config = value;
        job->timing = true;
    } else if (strcmp(name, "set") == 0) {
        if (job->nsets == RUN_MAX_SETS || !strchr(value, '=')) {
            cli_error(cmd, "bad --set '%s' (want key=value, at most %d)", value, RUN_MAX_SETS);
            return CLI_EXIT_USAGE;
        }
        job->sets[job->nsets++] = value;
        job->timing = true;
    } else if (strcmp(name, "threads") == 0) {
        if (!cli_threads_setting(cmd, value, job->threads, NULL)) return CLI_EXIT_USAGE;
        if (job->nsets == RUN_MAX_SETS) {
            cli_error(cmd, "too many --set and --threads (at most %d)", RUN_MAX_SETS);
            return CLI_EXIT_USAGE;
        }
        /* one buffer: every slot of it reads the last --threads, which
           wins over an earlier --set threads= as a later --set would */
        job->sets[job->nsets++] = job->threads;
        job->timing = true;
    } else if (strcmp(name, "plugin") == 0) {
        if (!cli_plugin_add(cmd, job->plugins, sizeof job->plugins, value))
            return CLI_EXIT_USAGE;
    } else if (strcmp(name, "progress-limit") == 0) {
        if (!cli_parse_u64(value, UINT64_MAX - 1, &job->progress_limit)) {
            cli_error(cmd, "bad --progress-limit '%s' (want a count of warp instructions, "
                      "0 = no limit)", value);
            return CLI_EXIT_USAGE;
        }
        if (job->progress_limit == 0) job->progress_limit = UINT64_MAX;
    } else if (strcmp(name, "stats-json") == 0) {
        job->stats_json = value;
    } else if (strcmp(name, "timeseries") == 0) {
        job->timeseries = value;
    } else if (strcmp(name, "dump") == 0) {
        if (job->ndumps == RUN_MAX_DUMPS || !parse_dump(value, &job->dumps[job->ndumps])) {
            cli_error(cmd, "bad --dump '%s' (want ARG:N, at most %d dumps)", value, RUN_MAX_DUMPS);
            return CLI_EXIT_USAGE;
        }
        job->ndumps++;
    }
    return -1;
}

static int parse_command_line(run_job *job, int argc, char **argv)
{
    static const cli_opt opts[] = {
        {"grid", true}, {"block", true}, {"shared", true}, {"arg", true},
        {"dump", true}, {"help", false}, {"timing", false}, {"config", true},
        {"set", true}, {"stats-json", true}, {"timeseries", true}, {"plugin", true},
        {"memcheck", false}, {"progress-limit", true}, {"threads", true},
        {NULL, false}};
    cli_iter it;
    const char *name, *value;
    int kind, rc;
    cli_iter_init(&it, argc, argv, opts);
    while ((kind = cli_iter_next(&it, &name, &value)) != CLI_ITER_END) {
        if (kind == CLI_ITER_ERROR)
            return CLI_EXIT_USAGE;
        if (kind == CLI_ITER_OPT && (rc = handle_option(job, argv[0], name, value)) >= 0)
            return rc;
        if (kind == CLI_ITER_POSITIONAL) {
            if (!job->path) job->path = value;
            else if (!job->kernel) job->kernel = value;
            else {
                cli_error(argv[0], "unexpected argument '%s'", value);
                return CLI_EXIT_USAGE;
            }
        }
    }
    if ((job->stats_json || job->timeseries) && !job->timing) {
        cli_error(argv[0], "--stats-json and --timeseries need the timing model "
                  "(--timing, --config, --set or --threads)");
        return CLI_EXIT_USAGE;
    }
    if (!job->path || !job->kernel || !job->have_grid || !job->have_block) {
        cli_error(argv[0], "need FILE.ptx, KERNEL, --grid and --block");
        fputs(run_usage, stderr);
        return CLI_EXIT_USAGE;
    }
    return -1;
}

/* ------------------------------------------------------------------ */
/* Checking the arguments against the PTX signature                    */
/* ------------------------------------------------------------------ */

static void list_kernels(const ptx_module *m)
{
    fprintf(stderr, "kernels in %s:", m->filename ? m->filename : "the module");
    for (uint32_t i = 0; i < m->nfuncs; i++)
        if (m->funcs[i].is_entry)
            fprintf(stderr, " %s", m->funcs[i].name);
    fputc('\n', stderr);
}

static int check_signature(const run_job *job, const char *cmd)
{
    ptx_error err;
    memset(&err, 0, sizeof err);
    ptx_module *m = ptx_parse_file(job->path, &err);
    if (!m) {
        fprintf(stderr, "%s\n", err.msg[0] ? err.msg : "error: PTX parse failed");
        return CLI_EXIT_USAGE;
    }
    int rc = -1, fi = ptx_find_func(m, job->kernel);
    const ptx_func *f = fi >= 0 ? &m->funcs[fi] : NULL;
    if (!f || !f->is_entry) {
        cli_error(cmd, "no kernel '%s' in %s", job->kernel, job->path);
        list_kernels(m);
        rc = CLI_EXIT_FAIL;
    } else if (f->nparams != job->nargs) {
        cli_error(cmd, "kernel %s takes %u parameters but %u --arg were given",
                  f->name, f->nparams, job->nargs);
        rc = CLI_EXIT_FAIL;
    } else {
        for (uint32_t i = 0; i < job->nargs && rc < 0; i++) {
            if (f->params[i].size == job->args[i].size)
                continue;
            cli_error(cmd, "--arg %s is %u bytes but parameter %u of %s is .%s (%u bytes)",
                      job->args[i].spec, job->args[i].size, i, f->name,
                      f->params[i].type < PTX_T_COUNT ? ptx_type_names[f->params[i].type] : "?",
                      f->params[i].size);
            rc = CLI_EXIT_FAIL;
        }
    }
    ptx_module_free(m);
    return rc;
}

/* ------------------------------------------------------------------ */
/* Running                                                             */
/* ------------------------------------------------------------------ */

static bool upload_buffers(ws_ctx *ctx, run_job *job, const char *cmd)
{
    for (uint32_t i = 0; i < job->nargs; i++) {
        run_arg *a = &job->args[i];
        if (!a->is_buf)
            continue;
        if (ws_malloc(ctx, a->buf_bytes, &a->ptr) != WS_OK ||
            ws_memcpy_htod(ctx, a->ptr, a->host, a->buf_bytes) != WS_OK) {
            cli_error(cmd, "buffer for --arg %s: %s", a->spec, ws_last_error(ctx));
            return false;
        }
        memcpy(a->value, &a->ptr, 8);
    }
    return true;
}

static bool print_dump(ws_ctx *ctx, const run_job *job, const run_dump *d, const char *cmd)
{
    if (d->arg >= job->nargs || !job->args[d->arg].is_buf) {
        cli_error(cmd, "--dump %u:%u: argument %u is not a buffer", d->arg, d->words, d->arg);
        return false;
    }
    const run_arg *a = &job->args[d->arg];
    uint64_t n = d->words;
    if (n > a->buf_bytes / 4)
        n = a->buf_bytes / 4;
    uint32_t *w = calloc(n ? n : 1, 4);
    if (!w || ws_memcpy_dtoh(ctx, w, a->ptr, n * 4) != WS_OK) {
        cli_error(cmd, "--dump %u: %s", d->arg, w ? ws_last_error(ctx) : "out of memory");
        free(w);
        return false;
    }
    printf("arg %u (%s): first %" PRIu64 " of %" PRIu64 " words (int, hex, float)\n",
           d->arg, a->spec, n, a->buf_bytes / 4);
    for (uint64_t k = 0; k < n; k++) {
        float f;
        memcpy(&f, &w[k], 4);
        printf("  [%" PRIu64 "] %d 0x%08x %.9g\n", k, (int32_t)w[k], w[k], (double)f);
    }
    free(w);
    return true;
}

static void print_stats(const ws_ctx *ctx, const run_job *job)
{
    ws_stats s;
    ws_stats_last(ctx, &s);
    printf("%s<<<(%u,%u,%u), (%u,%u,%u), %" PRIu64 ">>>: OK\n", job->kernel,
           job->grid.x, job->grid.y, job->grid.z, job->block.x, job->block.y,
           job->block.z, job->shared);
    printf("  ctas %" PRIu64 ", warps %" PRIu64 ", warp instructions %" PRIu64
           ", thread instructions %" PRIu64 "\n", s.ctas, s.warps, s.warp_insns,
           s.thread_insns);
    if (job->timing) {
        printf("  cycles %" PRIu64 ", IPC %.4f, L1D hits %" PRIu64 " of %" PRIu64 "\n",
               s.cycles, s.cycles ? (double)s.thread_insns / (double)s.cycles : 0.0,
               s.l1d_hits, s.l1d_accesses);
        ws_report(ctx, stdout, 0);
    }
}

/* Write the JSON report / time series the options asked for. */
static bool write_timing_files(const ws_ctx *ctx, const run_job *job, const char *cmd)
{
    const char *paths[2] = { job->stats_json, job->timeseries };
    bool ok = true;
    for (int i = 0; i < 2; i++) {
        if (!paths[i]) continue;
        FILE *f = fopen(paths[i], "w");
        size_t n = strlen(paths[i]);
        bool json = i == 0 || (n >= 5 && strcmp(paths[i] + n - 5, ".json") == 0);
        if (!f || (i == 0 ? ws_report(ctx, f, 1) : ws_timeseries(ctx, f, json)) != WS_OK
            || fclose(f) != 0) {
            cli_error(cmd, "cannot write '%s'", paths[i]);
            ok = false;
        }
    }
    return ok;
}

static int launch_job(ws_ctx *ctx, run_job *job, const char *cmd)
{
    ws_module *mod = NULL;
    ws_kernel *k = NULL;
    void *argp[RUN_MAX_ARGS];
    ws_status st = ws_module_load_file(ctx, job->path, &mod);
    if (st != WS_OK) {
        fprintf(stderr, "%s\n", ws_last_error(ctx));
        return st == WS_ERR_PARSE ? CLI_EXIT_USAGE : CLI_EXIT_FAIL;
    }
    if (ws_module_get_kernel(mod, job->kernel, &k) != WS_OK || !upload_buffers(ctx, job, cmd)) {
        if (!k)
            cli_error(cmd, "%s", ws_last_error(ctx));
        ws_module_unload(mod);
        return CLI_EXIT_FAIL;
    }
    for (uint32_t i = 0; i < job->nargs; i++)
        argp[i] = job->args[i].value;
    st = ws_launch(ctx, k, job->grid, job->block, argp, job->shared);
    if (st != WS_OK) {
        cli_error(cmd, "kernel %s failed (%s): %s", job->kernel, ws_status_name(st),
                  ws_last_error(ctx));
        ws_module_unload(mod);
        return st == WS_ERR_INTERRUPTED ? CLI_EXIT_SIGINT : CLI_EXIT_FAIL;
    }
    print_stats(ctx, job);
    int rc = CLI_EXIT_OK;
    if (job->timing && !write_timing_files(ctx, job, cmd))
        rc = CLI_EXIT_FAIL;
    for (uint32_t i = 0; i < job->ndumps; i++)
        if (!print_dump(ctx, job, &job->dumps[i], cmd))
            rc = CLI_EXIT_FAIL;
    ws_module_unload(mod);
    return rc;
}

/* Create the context (with the timing model when asked: a configuration
   error or a plug-in that cannot be loaded is a usage error) and launch. */
static int run_in_context(run_job *job, const char *cmd)
{
    ws_options o = { 0 };
    o.timing = job->timing;
    o.config = job->config;
    job->sets[job->nsets] = NULL;
    o.settings = job->sets;
    o.plugins = job->plugins;
    o.memcheck = job->memcheck;
    o.progress_limit = job->progress_limit;
    o.interrupt = cli_sigint_install();
    ws_ctx *ctx = NULL;
    char err[2048];
    ws_status st = ws_ctx_create2(&o, &ctx, err, sizeof err);
    if (st != WS_OK) {
        cli_error(cmd, "%s", err);
        return st == WS_ERR_INVALID ? CLI_EXIT_USAGE : CLI_EXIT_FAIL;
    }
    if (ws_config_warnings(ctx)[0])
        cli_error(cmd, "warning: %s", ws_config_warnings(ctx));
    int rc = launch_job(ctx, job, cmd);
    ws_ctx_destroy(ctx);
    return rc;
}

int cli_cmd_run(int argc, char **argv)
{
    run_job *job = calloc(1, sizeof *job);
    if (!job) {
        cli_error(argv[0], "out of memory");
        return CLI_EXIT_FAIL;
    }
    int rc = parse_command_line(job, argc, argv);
    if (rc < 0)
        rc = check_signature(job, argv[0]);
    if (rc < 0)
        rc = run_in_context(job, argv[0]);
    for (uint32_t i = 0; i < job->nargs; i++)
        free(job->args[i].host);
    free(job);
    return rc;
}
