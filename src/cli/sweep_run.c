/*
** sweep_run.c -- running the points of an experiment: each benchmark is
** built once (bench_exec.c), then each point runs as its own worker process
** (cli_pool.c) through `warpsim exec` on the timing model, its stderr kept
** in DIR/logs/HASH.log (its time series, when the experiment keeps them, in
** DIR/runs/HASH.ts.json).  A point's outcome is classified from its exit
** status and its PASS/FAIL line, appended to runs.jsonl the moment it is
** known (an interrupted sweep loses nothing finished), and shown as
** progress: a status line on a terminal, a plain line per run otherwise.
*/
#include "cli.h"
#include "cli_bench.h"
#include "sweep.h"
#include <fcntl.h>
#include <inttypes.h>
#include <jansson.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

const char *const sweep_status_names[6] = {"ok", "fail", "error", "crash", "timeout", "notrun"};

/* What a worker sends back (plain data through a pipe, < PIPE_BUF). */
typedef struct worker_out {
    int rc;                 /* bench_run_program's: -1 = could not run */
    int exit_status;
    char verdict[512];
} worker_out;

typedef struct run_ctx {
    const sweep_exp *x;
    const bench_manifest *m;
    const sweep_point *pts;
    sweep_result *res;
    const sweep_opts *o;
    FILE *jsonl;
    int total, done, failed;
    double t0;
    bool tty;
} run_ctx;

static void tmp_path(const run_ctx *c, int i, const char *what, char *buf, size_t len)
{
    snprintf(buf, len, "%s/tmp/%016" PRIx64 ".%s.json", c->o->out_dir, c->pts[i].hash, what);
}

/* Worker: run point i (stderr into its log). */
static void run_point(void *ctx, int i, void *outp)
{
    const run_ctx *c = ctx;
    const sweep_point *p = &c->pts[i];
    const sweep_config *cf = &c->x->configs[p->config];
    worker_out *out = outp;
    char log[PATH_MAX], stats[PATH_MAX], report[PATH_MAX], bin[PATH_MAX], seed[32];
    char ts[PATH_MAX], ts_set[64];
    snprintf(log, sizeof log, "%s/logs/%016" PRIx64 ".log", c->o->out_dir, p->hash);
    int fd = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd >= 0) { dup2(fd, STDERR_FILENO); close(fd); }
    for (int k = 0; k < cf->nenv; k++) putenv((char *)cf->env[k]);
    tmp_path(c, i, "stats", stats, sizeof stats);
    tmp_path(c, i, "report", report, sizeof report);
    char *opts[2 * SWEEP_MAX_SETS + 2 * SWEEP_MAX_PLUGINS + 14];
    int n = 0;
    opts[n++] = "--config";
    opts[n++] = (char *)(cf->config ? cf->config : "gtx480");
    for (int k = 0; k < cf->nsets; k++) { opts[n++] = "--set"; opts[n++] = (char *)cf->sets[k]; }
    for (int k = 0; k < cf->nplugins; k++) {
        opts[n++] = "--plugin";
        opts[n++] = (char *)cf->plugins[k];
    }
    opts[n++] = "--stats-json";
    opts[n++] = stats;
    if (c->x->need_report) { opts[n++] = "--timing-report"; opts[n++] = report; }
    if (c->x->ts_interval) {
        /* after the config's own sets: the experiment's interval wins */
        tmp_path(c, i, "ts", ts, sizeof ts);
        snprintf(ts_set, sizeof ts_set, "timeseries_interval=%" PRIu64, c->x->ts_interval);
        opts[n++] = "--set";
        opts[n++] = ts_set;
        opts[n++] = "--timeseries";
        opts[n++] = ts;
    }
    opts[n++] = "--quiet";
    opts[n] = NULL;
    if (p->seed >= 0) snprintf(seed, sizeof seed, "%" PRIu64, c->x->seeds[p->seed]);
    bench_outcome o;
    const bench_entry *e = c->x->benches[p->bench].entry;
    out->rc = bench_bin_path(c->o->bin_dir, e->name, bin, sizeof bin);
    if (out->rc == 0)
        out->rc = bench_run_program(e, bin, c->x->sizes[p->size], p->seed >= 0 ? seed : NULL,
                                    opts, false, &o);
    out->exit_status = out->rc ? -1 : o.exit_status;
    snprintf(out->verdict, sizeof out->verdict, "%s", out->rc ? "" : o.verdict);
}

/* A successful run's time series from tmp/ to runs/HASH.ts.json, where
   timeseries figures and --resume find it; false when it is missing. */
static bool keep_timeseries(const run_ctx *c, int i)
{
    char tmp[PATH_MAX], dst[PATH_MAX];
    tmp_path(c, i, "ts", tmp, sizeof tmp);
    sweep_ts_path(c->o->out_dir, c->pts[i].hash, dst, sizeof dst);
    return rename(tmp, dst) == 0;
}

/* Classify a finished point and load its statistics. */
static void classify(const run_ctx *c, int i, const worker_out *w, int how, sweep_result *r)
{
    char stats[PATH_MAX], report[PATH_MAX], ts[PATH_MAX];
    json_error_t err;
    tmp_path(c, i, "stats", stats, sizeof stats);
    tmp_path(c, i, "report", report, sizeof report);
    tmp_path(c, i, "ts", ts, sizeof ts);
    r->exit_status = w ? w->exit_status : -1;
    snprintf(r->verdict, sizeof r->verdict, "%s", w ? w->verdict : "");
    if (how == CLI_POOL_TIMEOUT) r->status = SWEEP_TIMEOUT;
    else if (how != CLI_POOL_OK) r->status = SWEEP_CRASH;
    else if (strncmp(w->verdict, "FAIL", 4) == 0) r->status = SWEEP_FAIL;
    else if (w->rc || w->exit_status >= 128) r->status = SWEEP_CRASH;
    else if (w->exit_status != 0 || strncmp(w->verdict, "PASS", 4) != 0) r->status = SWEEP_ERROR;
    else {
        r->stats = json_load_file(stats, 0, &err);
        r->report = c->x->need_report ? json_load_file(report, 0, &err) : NULL;
        r->status = r->stats && (r->report || !c->x->need_report) ? SWEEP_OK : SWEEP_ERROR;
        if (r->status != SWEEP_OK)
            snprintf(r->verdict, sizeof r->verdict, "%.480s (no statistics)", w->verdict);
        else if (c->x->ts_interval && !keep_timeseries(c, i)) {
            r->status = SWEEP_ERROR;
            snprintf(r->verdict, sizeof r->verdict, "%.480s (no time series)", w->verdict);
            json_decref(r->stats);
            json_decref(r->report);
            r->stats = r->report = NULL;
        }
    }
    if (!r->verdict[0] && r->status != SWEEP_OK)
        snprintf(r->verdict, sizeof r->verdict, "%s",
                 r->status == SWEEP_TIMEOUT ? "timed out" : "no PASS line");
    unlink(stats);
    unlink(report);
    unlink(ts);
}

static void fmt_time(char *buf, size_t len, double s)
{
    long t = (long)(s + 0.5);
    snprintf(buf, len, "%02ld:%02ld:%02ld", t / 3600, t / 60 % 60, t % 60);
}

static void progress(run_ctx *c, int i)
{
    const sweep_result *r = &c->res[i];
    char label[512], el[32], eta[32];
    sweep_point_label(c->x, &c->pts[i], label, sizeof label);
    double spent = cli_now() - c->t0;
    fmt_time(el, sizeof el, spent);
    fmt_time(eta, sizeof eta, c->done ? spent / c->done * (c->total - c->done) : 0);
    if (!c->tty || r->status != SWEEP_OK)
        fprintf(stderr, "%ssweep: [%d/%d] %s %s (%.1f s)%s%s\n", c->tty ? "\r\033[K" : "",
                c->done, c->total, sweep_status_names[r->status], label, r->seconds,
                r->status != SWEEP_OK ? ": " : "", r->status != SWEEP_OK ? r->verdict : "");
    if (c->tty)
        fprintf(stderr, "\r\033[Ksweep: %d/%d done, %d failed, %s elapsed, ETA %s", c->done,
                c->total, c->failed, el, eta);
    fflush(stderr);
}

static void finished(void *ctx, int i, const void *out, int how, double seconds)
{
    run_ctx *c = ctx;
    sweep_result *r = &c->res[i];
    classify(c, i, out, how, r);
    r->seconds = seconds;
    c->done++;
    c->failed += r->status != SWEEP_OK;
    sweep_jsonl_write(c->jsonl, c->x, &c->pts[i], r, c->o->version);
    progress(c, i);
}

/* Build every benchmark a pending point needs; a failed build fails its
   points (recorded like any other failure). */
static void build_all(run_ctx *c, int *idx, int *nidx)
{
    int k = 0;
    for (int b = 0; b < c->x->nbenches; b++) {
        const bench_entry *e = c->x->benches[b].entry;
        char bin[PATH_MAX];
        bool need = false;
        for (int j = 0; j < *nidx && !need; j++) need = c->pts[idx[j]].bench == b;
        if (!need) continue;
        if (bench_bin_path(c->o->bin_dir, e->name, bin, sizeof bin) == 0
            && bench_build(c->m, e, bin, false, "sweep") == 0)
            continue;
        for (int j = 0; j < *nidx; j++)
            if (c->pts[idx[j]].bench == b) {
                worker_out w = { .rc = -1, .exit_status = -1 };
                snprintf(w.verdict, sizeof w.verdict, "building %s failed", e->name);
                finished(c, idx[j], &w, CLI_POOL_OK, 0);
                c->res[idx[j]].status = SWEEP_ERROR;
            }
    }
    for (int j = 0; j < *nidx; j++)
        if (c->res[idx[j]].status == SWEEP_NOTRUN) idx[k++] = idx[j];
    *nidx = k;
}

int sweep_run_all(const sweep_exp *x, const bench_manifest *m, const sweep_point *pts, int n,
                  sweep_result *res, const sweep_opts *o, void *jsonl)
{
    run_ctx c = { .x = x, .m = m, .pts = pts, .res = res, .o = o, .jsonl = jsonl,
                  .t0 = cli_now(), .tty = isatty(STDERR_FILENO) };
    int *idx = calloc((size_t)n + 1, sizeof *idx), nidx = 0;
    if (!idx) return n;
    for (int i = 0; i < n; i++)
        if (res[i].status == SWEEP_NOTRUN) idx[nidx++] = i;
    c.total = nidx;
    build_all(&c, idx, &nidx);
    cli_pool pool = { .ctx = &c, .out_size = sizeof(worker_out), .timeout_s = x->timeout_s,
                      .run = run_point, .finished = finished };
    cli_pool_run(&pool, idx, nidx, o->jobs);
    if (c.tty && c.total) fputc('\n', stderr);
    free(idx);
    return c.failed;
}

/* The binary and the CUDA runtime shim beside it (lib/) are what runs a
   point: a rebuild of either is another simulator for --resume. */
void sweep_version(char *buf, size_t len)
{
    char exe[PATH_MAX], lib[PATH_MAX + 32];
    uint64_t h = sweep_file_hash("/proc/self/exe");
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    exe[n > 0 ? n : 0] = '\0';
    char *slash = strrchr(exe, '/');
    if (slash) {
        *slash = '\0';
        snprintf(lib, sizeof lib, "%s/lib/libcudart.so.13", exe);
        uint64_t l = sweep_file_hash(lib);
        h = sweep_fnv(h, &l, sizeof l);
    }
    snprintf(buf, len, "%s+%016" PRIx64, WS_VERSION_STRING, h);
}
