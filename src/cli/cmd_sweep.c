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
    "                     [--backend local|slurm|parallel] [--chunk K]\n"
    "                     [--max-parallel N] [--shared-dir DIR] [--partition P]\n"
    "                     [--account A] [--time T] [--submit-only] [--hosts FILE]\n"
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
    "  --backend slurm runs the points as one Slurm job array instead (one\n"
    "  task per point, or per K points with --chunk K; at most N at once with\n"
    "  --max-parallel N; --partition, --account and --time go to sbatch), its\n"
    "  job script in DIR/slurm/job.sh, each task writing into --shared-dir\n"
    "  (default DIR, which must then be on a file system the nodes share);\n"
    "  it follows the job, collects the same tables as a local run and names\n"
    "  each point whose task failed.  --submit-only submits and returns:\n"
    "  `warpsim sweep-collect DIR` gathers the results later.  --backend\n"
    "  parallel runs the tasks with GNU parallel on the hosts of --hosts FILE\n"
    "  (its --sshloginfile; default this machine), N jobs per host.  With\n"
    "  either, --resume submits only the points without a successful result.\n"
    "  docs/cluster.md.\n"
    "  Exit status: 0 every run ok, 1 a run failed, 2 usage or experiment-file\n"
    "  error.\n";

typedef struct sweep_cli {
    sweep_opts o;
    const char *file, *bench_dir;
    bool figures_only;          /* redraw the figures from DIR's tables */
    sweep_remote r;             /* --backend slurm|parallel and its options */
    const char *remote_opt;     /* the first option only a remote backend takes */
    const char *slurm_opt;      /* the first option only --backend slurm takes */
    char shared[4096], bench[4096], bin[4096];  /* the tasks' paths, made absolute */
} sweep_cli;

/* The options of the remote backends; 1 taken, 0 not one, -1 bad value. */
static int remote_option(sweep_cli *c, const char *name, const char *v)
{
    static const char *const slurm_only[] = {"partition", "account", "time", "submit-only",
                                             NULL};
    int64_t k;
    if (strcmp(name, "backend") == 0) {
        if (strcmp(v, "local") && strcmp(v, "slurm") && strcmp(v, "parallel")) {
            cli_error("sweep", "--backend '%s': expected local, slurm or parallel", v);
            return -1;
        }
        c->r.backend = v;
        return 1;
    }
    if (strcmp(name, "max-parallel") == 0 || strcmp(name, "chunk") == 0) {
        if (!cli_parse_i64(v, 1, 1000000, &k)) {
            cli_error("sweep", "--%s '%s': expected a number from 1 to 1000000", name, v);
            return -1;
        }
        *(name[0] == 'c' ? &c->r.chunk : &c->r.max_parallel) = (int)k;
    } else if (strcmp(name, "shared-dir") == 0) c->r.shared_dir = v;
    else if (strcmp(name, "hosts") == 0) c->r.hosts = v;
    else if (strcmp(name, "partition") == 0) c->r.partition = v;
    else if (strcmp(name, "account") == 0) c->r.account = v;
    else if (strcmp(name, "time") == 0) c->r.time = v;
    else if (strcmp(name, "submit-only") == 0) c->r.submit_only = true;
    else return 0;
    for (int i = 0; slurm_only[i]; i++)
        if (!c->slurm_opt && strcmp(name, slurm_only[i]) == 0) c->slurm_opt = slurm_only[i];
    if (!c->remote_opt) c->remote_opt = name;
    return 1;
}

/* An option the chosen backend does not take, or a client it needs that
   is missing: a usage error before anything is written. */
static int check_backend(const sweep_cli *c)
{
    const char *b = c->r.backend;
    bool slurm = strcmp(b, "slurm") == 0, par = strcmp(b, "parallel") == 0;
    const char *why = NULL;
    if (!slurm && !par && c->remote_opt) why = c->remote_opt;
    else if (!slurm && c->slurm_opt) why = c->slurm_opt;
    else if (!par && c->r.hosts) why = "hosts";
    if (why) {
        cli_error("sweep", "--%s is an option of --backend %s, not of --backend %s", why,
                  strcmp(why, "hosts") == 0 ? "parallel"
                  : c->slurm_opt && strcmp(c->slurm_opt, why) == 0 ? "slurm" : "slurm|parallel",
                  b);
        return CLI_EXIT_USAGE;
    }
    if (c->o.jobs && (slurm || par)) {
        cli_error("sweep", "--jobs is for --backend local; --max-parallel N limits the %s "
                  "tasks", b);
        return CLI_EXIT_USAGE;
    }
    if (slurm && (!sweep_on_path("sbatch") || !sweep_on_path("squeue"))) {
        cli_error("sweep", "--backend slurm: sbatch and squeue not found on PATH (the Slurm "
                  "client commands; Debian: slurm-client)");
        return CLI_EXIT_USAGE;
    }
    if (par && !sweep_on_path("parallel")) {
        cli_error("sweep", "--backend parallel: GNU parallel not found on PATH (Debian: "
                  "parallel)");
        return CLI_EXIT_USAGE;
    }
    return -1;
}

static int parse(sweep_cli *c, int argc, char **argv)
{
    static const cli_opt opts[] = {{"help", false}, {"jobs", true}, {"out", true},
                                   {"resume", false}, {"dry-run", false},
                                   {"figures-only", false},
                                   {"bench-dir", true}, {"bin-dir", true}, {"backend", true},
                                   {"chunk", true}, {"max-parallel", true},
                                   {"shared-dir", true}, {"partition", true},
                                   {"account", true}, {"time", true},
                                   {"submit-only", false}, {"hosts", true}, {NULL, false}};
    cli_iter it;
    const char *name, *v;
    int k, t;
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
        } else if ((t = remote_option(c, name, v)) != 0) {
            if (t < 0) return CLI_EXIT_USAGE;
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
    return check_backend(c);
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

/* `path` as an absolute path into buf (cwd + path when relative): tasks on
   other nodes, and a later sweep-collect, start in other folders. */
static const char *absolute(const char *path, char *buf, size_t len)
{
    char cwd[4096];
    if (!path || path[0] == '/' || !getcwd(cwd, sizeof cwd)) return path;
    return snprintf(buf, len, "%s/%s", cwd, path) < (int)len ? buf : path;
}

/* Hand the sweep to Slurm or GNU parallel, its paths made absolute. */
static int remote(sweep_cli *c, const sweep_exp *x, const bench_manifest *m)
{
    if (!c->r.chunk) c->r.chunk = 1;
    c->r.shared_dir = absolute(c->r.shared_dir ? c->r.shared_dir : c->o.out_dir, c->shared,
                               sizeof c->shared);
    c->r.bench_dir = absolute(c->bench_dir, c->bench, sizeof c->bench);
    c->o.bin_dir = absolute(c->o.bin_dir, c->bin, sizeof c->bin);
    return sweep_remote_execute(&c->o, &c->r, x, m);
}

int cli_cmd_sweep(int argc, char **argv)
{
    sweep_cli c = { .o = { .out_dir = "sweep-out" }, .r = { .backend = "local" } };
    char version[128];
    int rc = parse(&c, argc, argv);
    if (rc >= 0) return rc;
    bool local = strcmp(c.r.backend, "local") == 0;
    if (!c.o.jobs) {
        long np = sysconf(_SC_NPROCESSORS_ONLN);
        c.o.jobs = np < 1 ? 1 : np > CLI_POOL_MAX_JOBS ? CLI_POOL_MAX_JOBS : (int)np;
    }
    sweep_version(version, sizeof version);
    c.o.version = version;
    bench_manifest m;
    sweep_exp x;
    /* a remote sweep loads the file by the absolute path its tasks use:
       a point's hash covers its config files' resolved paths */
    if (!local && !realpath(c.file, c.r.exp_path)) {
        cli_error("sweep", "%s: %s", c.file, strerror(errno));
        return CLI_EXIT_USAGE;
    }
    if (bench_manifest_load(&m, c.bench_dir, "sweep")) return CLI_EXIT_USAGE;
    if (sweep_load(&x, local ? c.file : c.r.exp_path, &m)) rc = CLI_EXIT_USAGE;
    else {
        /* the programs' own configuration warnings go to their logs once */
        setenv("WARPSIM_CONFIG_WARNED", "1", 1);
        if (!c.figures_only && (local || c.o.dry_run)) rc = sweep_execute(&c.o, &x, &m);
        else if (!c.figures_only) rc = remote(&c, &x, &m);
        else if (!x.nfigures) {
            cli_error("sweep", "%s has no figures to draw", c.file);
            rc = CLI_EXIT_USAGE;
        } else rc = sweep_draw_figures(c.o.out_dir, &x) ? CLI_EXIT_FAIL : CLI_EXIT_OK;
    }
    sweep_free(&x);
    bench_manifest_free(&m);
    return rc;
}
