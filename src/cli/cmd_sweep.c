/*
** cmd_sweep.c -- `warpsim sweep FILE`: run an experiment's matrix of
** benchmark x size x config x seed points on the timing model, each as its
** own process, N at a time, into DIR/runs.jsonl, DIR/results.csv and
** DIR/derived.csv (and, when it asks, each run's time series into
** DIR/runs/), then the experiment's figures into DIR/figures/
** (sweep_*.c hold the parts; docs/experiments.md the file format and the
** outputs).
*/
#include "cli.h"
#include "cli_bench.h"
#include "sweep.h"
#include <errno.h>
#include <inttypes.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const char sweep_usage[] =
    "usage: warpsim sweep FILE.json [--jobs N] [--out DIR] [--resume] [--dry-run]\n"
    "                     [--figures-only] [--bench-dir DIR] [--bin-dir DIR]\n"
    "  Run every point of the experiment FILE (benchmark x size x config x seed,\n"
    "  in that order, the seed varying fastest; a config with \"benchmarks\"\n"
    "  runs only on those; docs/experiments.md) on the timing model, each\n"
    "  as its own process, N at a time (default: the number of CPUs).  A\n"
    "  run that crashes, times out or whose benchmark prints FAIL is\n"
    "  recorded as failed and the sweep goes on.  Writes\n"
    "  DIR/runs.jsonl (one line per run: point, hash, status, wall time,\n"
    "  simulator version, statistics), DIR/results.csv (one row per point,\n"
    "  one column per collected statistic) and DIR/derived.csv (derived\n"
    "  metrics), and with the file's \"timeseries\" each run's time series as\n"
    "  DIR/runs/HASH.ts.json; DIR defaults to sweep-out.  --resume keeps the\n"
    "  successful runs of runs.jsonl whose point hash and simulator version\n"
    "  are the same and runs only the others.  --dry-run lists the points.\n"
    "  The file's figures go to DIR/figures/NAME.{png,svg,csv} (gnuplot);\n"
    "  --figures-only redraws them from DIR's tables without running anything.\n"
    "  Exit status: 0 every run ok, 1 a run failed, 2 usage or experiment-file\n"
    "  error.\n";

typedef struct sweep_cli {
    sweep_opts o;
    const char *file, *bench_dir;
    bool figures_only;          /* redraw the figures from DIR's tables */
} sweep_cli;

static int parse(sweep_cli *c, int argc, char **argv)
{
    static const cli_opt opts[] = {{"help", false}, {"jobs", true}, {"out", true},
                                   {"resume", false}, {"dry-run", false},
                                   {"figures-only", false},
                                   {"bench-dir", true}, {"bin-dir", true}, {NULL, false}};
    cli_iter it;
    const char *name, *v;
    int k;
    int64_t j;
    cli_iter_init(&it, argc, argv, opts);
    while ((k = cli_iter_next(&it, &name, &v)) != CLI_ITER_END) {
        if (k == CLI_ITER_ERROR) return CLI_EXIT_USAGE;
        if (k == CLI_ITER_POSITIONAL) {
            if (c->file) { cli_error("sweep", "one experiment file only ('%s')", v); return 2; }
            c->file = v;
        } else if (strcmp(name, "help") == 0) {
            fputs(sweep_usage, stdout);
            return CLI_EXIT_OK;
        } else if (strcmp(name, "jobs") == 0) {
            if (!cli_parse_i64(v, 1, CLI_POOL_MAX_JOBS, &j)) {
                cli_error("sweep", "--jobs '%s': expected a number from 1 to %d", v,
                          CLI_POOL_MAX_JOBS);
                return CLI_EXIT_USAGE;
            }
            c->o.jobs = (int)j;
        } else if (strcmp(name, "out") == 0) c->o.out_dir = v;
        else if (strcmp(name, "resume") == 0) c->o.resume = true;
        else if (strcmp(name, "dry-run") == 0) c->o.dry_run = true;
        else if (strcmp(name, "figures-only") == 0) c->figures_only = true;
        else if (strcmp(name, "bench-dir") == 0) c->bench_dir = v;
        else if (strcmp(name, "bin-dir") == 0) c->o.bin_dir = v;
    }
    if (!c->file) {
        fputs(sweep_usage, stderr);
        return CLI_EXIT_USAGE;
    }
    return -1;
}

static void dry_run(const sweep_exp *x, const sweep_point *pts, int n)
{
    printf("%d point%s of %s:\n", n, n == 1 ? "" : "s", x->path);
    for (int i = 0; i < n; i++) {
        char label[512];
        sweep_point_label(x, &pts[i], label, sizeof label);
        printf("%4d %016" PRIx64 " %s\n", i + 1, pts[i].hash, label);
    }
}

static int make_dir(const char *d)
{
    if (mkdir(d, 0777) == 0 || errno == EEXIST) return 0;
    cli_error("sweep", "cannot create %s: %s", d, strerror(errno));
    return -1;
}

/* A kept run whose time series the experiment wants but runs/ lacks (an
   older sweep without "timeseries", a deleted file) runs again. */
static void drop_without_ts(const sweep_opts *o, const sweep_exp *x, const sweep_point *pts,
                            int n, sweep_result *res)
{
    char ts[4200];
    for (int i = 0; x->ts_interval && i < n; i++) {
        sweep_ts_path(o->out_dir, pts[i].hash, ts, sizeof ts);
        if (!res[i].reused || access(ts, R_OK) == 0) continue;
        json_decref(res[i].stats);
        json_decref(res[i].report);
        memset(&res[i], 0, sizeof res[i]);
        res[i].status = SWEEP_NOTRUN;
    }
}

/* Output folders, resume records, runs.jsonl open for appending. */
static FILE *prepare_out(const sweep_opts *o, const sweep_exp *x, const sweep_point *pts, int n,
                         sweep_result *res)
{
    char d[4200];
    if (make_dir(o->out_dir)) return NULL;
    snprintf(d, sizeof d, "%s/logs", o->out_dir);
    if (make_dir(d)) return NULL;
    snprintf(d, sizeof d, "%s/tmp", o->out_dir);
    if (make_dir(d)) return NULL;
    snprintf(d, sizeof d, "%s/runs", o->out_dir);
    if (x->ts_interval && make_dir(d)) return NULL;
    snprintf(d, sizeof d, "%s/runs.jsonl", o->out_dir);
    if (o->resume && sweep_resume_load(d, o->version, pts, n, res)) {
        cli_error("sweep", "cannot read %s: %s", d, strerror(errno));
        return NULL;
    }
    drop_without_ts(o, x, pts, n, res);
    /* without --resume the file starts afresh; with it, new runs follow
       the old ones (nothing already written is lost) */
    FILE *f = fopen(d, o->resume ? "a" : "w");
    if (!f) cli_error("sweep", "cannot write %s: %s", d, strerror(errno));
    return f;
}

int sweep_execute(const sweep_opts *o, const sweep_exp *x, const bench_manifest *m)
{
    sweep_point *pts = NULL;
    int n = sweep_points(x, &pts), rc = CLI_EXIT_FAIL, failed = 0, reused = 0;
    if (n < 0) return CLI_EXIT_FAIL;
    if (o->dry_run) { dry_run(x, pts, n); free(pts); return CLI_EXIT_OK; }
    sweep_result *res = calloc((size_t)n + 1, sizeof *res);
    for (int i = 0; res && i < n; i++) res[i].status = SWEEP_NOTRUN;
    FILE *jl = res ? prepare_out(o, x, pts, n, res) : NULL;
    if (!jl) goto out;
    for (int i = 0; i < n; i++) reused += res[i].reused;
    fprintf(stderr, "sweep: %s: %d point%s, %d to run (%d kept from runs.jsonl), %d at a time\n",
            x->name, n, n == 1 ? "" : "s", n - reused, reused, o->jobs);
    sweep_run_all(x, m, pts, n, res, o, jl);
    fclose(jl);
    for (int i = 0; i < n; i++) failed += res[i].status != SWEEP_OK;
    /* figures after the tables (a failed run is an empty cell in them): a
       missing gnuplot loses no result */
    if (sweep_write_csv(o->out_dir, x, pts, n, res) == 0
        && sweep_write_derived(o->out_dir, x, pts, n, res) == 0) {
        int fig = sweep_draw_figures(o->out_dir, x);
        rc = failed || fig ? CLI_EXIT_FAIL : CLI_EXIT_OK;
    }
    printf("sweep: %d point%s, %d ok, %d failed; %s/results.csv\n", n, n == 1 ? "" : "s",
           n - failed, failed, o->out_dir);
out:
    for (int i = 0; res && i < n; i++) { json_decref(res[i].stats); json_decref(res[i].report); }
    free(res);
    free(pts);
    return rc;
}

int cli_cmd_sweep(int argc, char **argv)
{
    sweep_cli c = { .o = { .out_dir = "sweep-out" } };
    char version[128];
    int rc = parse(&c, argc, argv);
    if (rc >= 0) return rc;
    if (!c.o.jobs) {
        long np = sysconf(_SC_NPROCESSORS_ONLN);
        c.o.jobs = np < 1 ? 1 : np > CLI_POOL_MAX_JOBS ? CLI_POOL_MAX_JOBS : (int)np;
    }
    sweep_version(version, sizeof version);
    c.o.version = version;
    bench_manifest m;
    sweep_exp x;
    if (bench_manifest_load(&m, c.bench_dir, "sweep")) return CLI_EXIT_USAGE;
    if (sweep_load(&x, c.file, &m)) rc = CLI_EXIT_USAGE;
    else {
        /* the programs' own configuration warnings go to their logs once */
        setenv("WARPSIM_CONFIG_WARNED", "1", 1);
        if (!c.figures_only) rc = sweep_execute(&c.o, &x, &m);
        else if (!x.nfigures) {
            cli_error("sweep", "%s has no figures to draw", c.file);
            rc = CLI_EXIT_USAGE;
        } else rc = sweep_draw_figures(c.o.out_dir, &x) ? CLI_EXIT_FAIL : CLI_EXIT_OK;
    }
    sweep_free(&x);
    bench_manifest_free(&m);
    return rc;
}
