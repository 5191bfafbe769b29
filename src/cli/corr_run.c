/*
** corr_run.c -- running the data set's benchmarks on the timing model for
** `warpsim correlate`: each program is built once (bench_exec.c), then each
** run goes through bench_timing_run with the run's warp scheduler, `--jobs`
** of them at a time, each in its own worker process whose figures come
** back through a pipe.  Results land in the data set's order whatever the
** order the workers finish in, so the report does not depend on --jobs.
*/
#include "cli.h"
#include "cli_bench.h"
#include "corr.h"
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
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

/* Start task i in a worker process writing its result into a pipe; the
   read end, or -1 when the worker could not start. */
static int start(const run_ctx *c, task_fn fn, int i, pid_t *pid)
{
    int fds[2];
    if (pipe(fds) != 0) return -1;
    fflush(NULL);
    *pid = fork();
    if (*pid < 0) { close(fds[0]); close(fds[1]); return -1; }
    if (*pid == 0) {
        corr_result out;
        memset(&out, 0, sizeof out);
        close(fds[0]);
        fn(c, i, &out);
        /* smaller than PIPE_BUF: one write, never blocks on an empty pipe */
        ssize_t w = write(fds[1], &out, sizeof out);
        fflush(NULL);
        _exit(w == (ssize_t)sizeof out ? 0 : 1);
    }
    close(fds[1]);
    return fds[0];
}

/* Run tasks idx[0..n) of `fn`, at most `jobs` at once; out[idx[k]] gets
   each result (ok = 0 when a worker died). `label` prints progress. */
static void pool(const run_ctx *c, task_fn fn, const int *idx, int n, int jobs,
                 corr_result *out, const char *label)
{
    pid_t pid[64];
    int fd[64], slot_task[64], live = 0, next = 0;
    if (jobs > 64) jobs = 64;
    while (next < n || live) {
        while (live < jobs && next < n) {
            int i = idx[next++];
            const corr_run *r = &c->d->runs[fn == task_run ? i : c->build_run[i]];
            fprintf(stderr, "correlate: %s %s%s%s (%d of %d)\n", label, r->bench,
                    fn == task_run ? " " : "", fn == task_run ? r->sched : "", next, n);
            memset(&out[i], 0, sizeof out[i]);
            if ((fd[live] = start(c, fn, i, &pid[live])) < 0) continue;
            slot_task[live++] = i;
        }
        int st;
        pid_t p = waitpid(-1, &st, 0);
        if (p < 0) { if (errno == EINTR) continue; break; }
        for (int s = 0; s < live; s++) {
            if (pid[s] != p) continue;
            corr_result *o = &out[slot_task[s]];
            if (read(fd[s], o, sizeof *o) != (ssize_t)sizeof *o || !WIFEXITED(st)
                || WEXITSTATUS(st) != 0)
                memset(o, 0, sizeof *o);
            close(fd[s]);
            live--;
            pid[s] = pid[live]; fd[s] = fd[live]; slot_task[s] = slot_task[live];
            break;
        }
    }
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
