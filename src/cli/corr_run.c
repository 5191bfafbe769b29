/*
** corr_run.c -- running the data set's benchmarks on the timing model for
** `warpsim correlate`: each program is built once (bench_exec.c), then each
** run goes through bench_timing_run with the run's warp scheduler, `--jobs`
** of them at a time, each in its own worker process (cli_pool.c) whose
** figures come back through a pipe.  Results land in the data set's order whatever the
** order the workers finish in, so the report does not depend on --jobs.
*/
#include "cli.h"
#include "cli_bench.h"
#include "corr.h"
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef struct run_ctx {
    const bench_timing_req *q;
    const bench_manifest *m;
    corr_data *d;
    const bench_entry **entry;  /* per run; NULL = not in the manifest */
    int *build_run;             /* build task k builds run build_run[k]'s program */
    const char *tmpdir;
} run_ctx;

typedef int (*task_fn)(const run_ctx *c, int i, corr_result *out);

/* Worker: build the program of run c->build_run[k]. */
static int task_build(const run_ctx *c, int k, corr_result *out)
{
    char bin[PATH_MAX];
    const bench_entry *e = c->entry[c->build_run[k]];
    out->ok = bench_bin_path(c->q->bin_dir, e->name, bin, sizeof bin) == 0
              && bench_build(c->m, e, bin, c->q->rebuild, c->q->cmd) == 0;
    return 0;
}

/* Worker: run i on the timing model under its own scheduler, and read its
   statistics JSON and timing report back. */
static int task_run(const run_ctx *c, int i, corr_result *out)
{
    const corr_run *r = &c->d->runs[i];
    bench_timing_req q = *c->q;
    char set[96], stats[PATH_MAX], report[PATH_MAX];
    bench_timing t;
    snprintf(set, sizeof set, "warp_scheduler=%s", r->sched);
    q.sets[q.nsets++] = set;            /* last: it wins over the config file */
    q.sets[q.nsets] = NULL;
    q.rebuild = false;                  /* built in the first phase */
    snprintf(stats, sizeof stats, "%s/run%d.stats.json", c->tmpdir, i);
    snprintf(report, sizeof report, "%s/run%d.report.json", c->tmpdir, i);
    q.stats_out = stats;
    q.report_out = report;
    out->ok = bench_timing_run(&q, c->m, c->entry[i], &t) == 0
              && corr_read_result(stats, report, out) == 0;
    out->seconds = t.seconds;
    unlink(stats);
    unlink(report);
    return 0;
}

/* The pool (cli_pool.c) around one phase's task function. */
typedef struct phase {
    const run_ctx *c;
    task_fn fn;
    corr_result *out;
    const char *label;
} phase;

static void phase_run(void *ctx, int i, void *out)
{
    const phase *ph = ctx;
    ph->fn(ph->c, i, out);
}

static void phase_started(void *ctx, int i, int k, int n)
{
    const phase *ph = ctx;
    const corr_run *r = &ph->c->d->runs[ph->fn == task_run ? i : ph->c->build_run[i]];
    fprintf(stderr, "correlate: %s %s%s%s (%d of %d)\n", ph->label, r->bench,
            ph->fn == task_run ? " " : "", ph->fn == task_run ? r->sched : "", k, n);
}

/* A worker that died or whose result did not arrive counts as ok = 0. */
static void phase_finished(void *ctx, int i, const void *out, int how, double seconds)
{
    const phase *ph = ctx;
    (void)how; (void)seconds;
    if (out) memcpy(&ph->out[i], out, sizeof ph->out[i]);
    else memset(&ph->out[i], 0, sizeof ph->out[i]);
}

/* Run tasks idx[0..n) of `fn`, at most `jobs` at once; out[idx[k]] gets
   each result (ok = 0 when a worker died). `label` prints progress. */
static void pool(const run_ctx *c, task_fn fn, const int *idx, int n, int jobs,
                 corr_result *out, const char *label)
{
    phase ph = { .c = c, .fn = fn, .out = out, .label = label };
    cli_pool p = { .ctx = &ph, .out_size = sizeof(corr_result), .run = phase_run,
                   .started = phase_started, .finished = phase_finished };
    cli_pool_run(&p, idx, n, jobs);
}

/* The manifest entry of every run; a run whose program the manifest lacks
   cannot be compared (said once per run). */
static void find_entries(run_ctx *c)
{
    for (int i = 0; i < c->d->n; i++) {
        corr_run *r = &c->d->runs[i];
        c->entry[i] = NULL;
        for (int k = 0; k < c->m->n && !c->entry[i]; k++)
            if (strcmp(c->m->entries[k].name, r->bench) == 0) c->entry[i] = &c->m->entries[k];
        if (!c->entry[i] && r->comparable)
            snprintf(r->why, sizeof r->why, "not in the benchmark manifest (bench/manifest.json)");
    }
}

int corr_run_all(corr_data *d, const struct bench_timing_req *q,
                 const struct bench_manifest *m, int jobs, const char *tmpdir)
{
    run_ctx c = { .q = q, .m = m, .d = d, .tmpdir = tmpdir };
    c.entry = calloc((size_t)d->n + 1, sizeof *c.entry);
    c.build_run = calloc((size_t)d->n + 1, sizeof *c.build_run);
    int *idx = calloc((size_t)d->n + 1, sizeof *idx), nb = 0, nr = 0, failed = 0;
    corr_result *built = calloc((size_t)d->n + 1, sizeof *built);
    corr_result *res = calloc((size_t)d->n + 1, sizeof *res);
    if (!c.entry || !c.build_run || !idx || !built || !res) {
        failed = d->n;
        goto out;
    }
    find_entries(&c);
    /* phase 1: one build per program (the gto and lrr runs share it) */
    for (int i = 0; i < d->n; i++) {
        bool first = d->runs[i].comparable && c.entry[i];
        for (int k = 0; k < nb && first; k++) first = c.entry[c.build_run[k]] != c.entry[i];
        if (first) { c.build_run[nb] = i; idx[nb] = nb; nb++; }
    }
    pool(&c, task_build, idx, nb, jobs, built, "building");
    /* phase 2: every comparable run whose program was built */
    for (int i = 0; i < d->n; i++) {
        corr_run *r = &d->runs[i];
        bool ok = r->comparable && c.entry[i];
        for (int k = 0; k < nb && ok; k++)
            if (c.entry[c.build_run[k]] == c.entry[i] && !built[k].ok) {
                snprintf(r->why, sizeof r->why, "building %s failed", r->bench);
                ok = false;
            }
        if (ok) idx[nr++] = i;
        else failed += r->comparable;
    }
    pool(&c, task_run, idx, nr, jobs, res, "running");
    for (int k = 0; k < nr; k++) {
        corr_run *r = &d->runs[idx[k]];
        r->res = res[idx[k]];
        if (!r->res.ok) {
            snprintf(r->why, sizeof r->why, "the warpsim run failed (its message is above)");
            failed++;
        }
    }
out:
    free(c.entry); free(c.build_run); free(idx); free(built); free(res);
    return failed;
}
