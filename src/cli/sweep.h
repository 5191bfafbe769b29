/*
** sweep.h -- private header of `warpsim sweep` (src/cli/): an experiment
** file (sweep_file.c, JSON read with libjansson; schema in
** docs/experiments.md), its points and their content hashes
** (sweep_point.c, plain C so a unit test can check them), running the
** points in worker processes (sweep_run.c, through cli_pool.c), and the
** outputs: runs.jsonl, results.csv, derived.csv (sweep_out.c,
** sweep_derived.c) and the figures drawn from those tables (sweep_fig.c,
** sweep_fig_spec.c; sweep_fig_stacked.c, sweep_fig_ts.c behind
** sweep_fig.h) and from the runs' kept time series (DIR/runs/); and the
** same points run by Slurm or GNU parallel (sweep_remote.c, sweep_task.c,
** sweep_slurm.c, sweep_parallel.c, sweep_collect.c; docs/cluster.md).
*/
#ifndef WS_CLI_SWEEP_H
#define WS_CLI_SWEEP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define SWEEP_MAX_SETS 16       /* = BENCH_TIMING_MAX_SETS */
#define SWEEP_MAX_GROUP 64      /* benchmarks named in a mean's group */
#define SWEEP_MAX_PLUGINS 8
#define SWEEP_MAX_ENV 8

/* One benchmark of the matrix (a manifest entry, copied so the point code
   needs no manifest). */
typedef struct sweep_bench {
    const char *name;
    const char *commands[3];    /* per size, as the manifest gives them */
    uint64_t source_hash;       /* FNV-1a of the program's source file */
    const void *entry;          /* its bench_entry (cli_bench.h) */
} sweep_bench;

/* One machine configuration of the matrix. */
typedef struct sweep_config {
    const char *name;           /* label: a column of results.csv */
    const char *config;         /* preset name or resolved config file path */
    uint64_t config_hash;       /* FNV-1a of that file's contents; 0 = a preset */
    const char *sets[SWEEP_MAX_SETS];   /* "key=value" */
    int nsets;
    const char *plugins[SWEEP_MAX_PLUGINS];   /* resolved .so paths */
    uint64_t plugin_hash[SWEEP_MAX_PLUGINS];  /* FNV-1a of each file */
    int nplugins;
    const char *env[SWEEP_MAX_ENV];     /* "NAME=value" for the run's process */
    int nenv;
    /* "benchmarks": runs[b] says whether this config runs on benchmark b of
       the experiment; NULL = on every one (points it skips do not exist) */
    unsigned char *runs;
} sweep_config;

/* A statistic to collect: column `name`, found at `path` in the run's
   statistics JSON ("report." first: in the timing report). */
typedef struct sweep_stat {
    const char *name, *path;
} sweep_stat;

/* Per-point kinds first (up to SWEEP_D_SUM), then group means, then best. */
enum { SWEEP_D_SPEEDUP, SWEEP_D_RATIO, SWEEP_D_QUOTIENT, SWEEP_D_SUM, SWEEP_D_GEOMEAN,
       SWEEP_D_HMEAN, SWEEP_D_MEAN, SWEEP_D_BEST };
#define SWEEP_D_PER_POINT(kind) ((kind) <= SWEEP_D_SUM)

/* A derived metric (derived.csv). */
typedef struct sweep_derived {
    const char *name;
    int kind;                   /* SWEEP_D_* */
    const char *of;             /* speedup/ratio: a stat; means: a stat or derived;
                                   quotient: the numerator; sum: the first term */
    const char *over;           /* quotient: the denominator (a stat or per-point metric);
                                   normalized: the baseline's metric that divides (NULL: of) */
    double scale;               /* quotient: of / over * scale (default 1) */
    const char *terms[SWEEP_MAX_SETS];  /* sum: of + terms[] */
    int nterms;
    const char *baseline;       /* speedup/ratio: a config name */
    bool higher_is_better;      /* speedup: value / baseline instead of baseline / value */
    const char *group_class;    /* means: benchmarks with this class tag; NULL = all */
    const char *group_label;    /* the benchmark column of a mean's rows */
    const char *group_names[SWEEP_MAX_GROUP];  /* means: these benchmarks (group_class NULL) */
    int ngroup;
    /* best: per benchmark x size x seed, the best value over the configs
       named in best_names or whose name starts with best_prefix */
    const char *best_prefix;
    const char *best_at;        /* best: report this per-point metric at the winning config
                                   (NULL: the winning value of `of` itself) */
    const char *best_names[SWEEP_MAX_SETS];
    int nbest;
} sweep_derived;

enum { SWEEP_FIG_BARS, SWEEP_FIG_LINES, SWEEP_FIG_STACKED, SWEEP_FIG_TIMESERIES };

#define SWEEP_FIG_MAX_COMP 16   /* components of a stacked figure */
#define SWEEP_FIG_MAX_PTS 32    /* points (lines) of a timeseries figure */
#define SWEEP_TS_POLICY_NAME 32 /* a policy counter's name and its NUL (the ABI's limit) */

/* A point a timeseries figure draws: indices into the experiment's lists
   (size and seed: the first when the figure does not say). */
typedef struct sweep_fig_point {
    int bench, size, config, seed;
} sweep_fig_point;

/* A figure (DIR/figures/NAME.{png,svg,csv}), drawn from results.csv and
   derived.csv (a timeseries figure: from each point's DIR/runs/HASH.ts.json). */
typedef struct sweep_figure {
    const char *name;           /* file name stem: [A-Za-z0-9_.-], unique */
    int kind;                   /* SWEEP_FIG_* */
    const char *metric;         /* a collected statistic or a per-point derived metric */
    const char *mean;           /* bars: a derived mean of `metric` (the group bar); or NULL */
    const char *x;              /* lines: the numeric setting read from each config's `set` */
    const char *title, *ylabel;
    double baseline;            /* a horizontal line at this value ... */
    bool has_baseline;          /* ... when given */
    const char *comp[SWEEP_FIG_MAX_COMP];   /* stacked: collected statistics, bottom up */
    int ncomp;
    bool normalize;             /* stacked: each stack as percentages of its sum */
    int normalize_to;           /* stacked: config whose stack sum (same benchmark)
                                   divides every stack, as Mascar's Fig. 14; -1 none */
    int series;                 /* timeseries: SWEEP_TS_* */
    /* series SWEEP_TS_POLICY: policy.pol[0] per interval, divided by
       policy.pol[1]'s when that is not empty */
    char pol[2][SWEEP_TS_POLICY_NAME];
    sweep_fig_point pts[SWEEP_FIG_MAX_PTS]; /* timeseries: its lines */
    int npts;
    /* "configs": the series drawn, in order: a config index >= 0, or
       -1 - k for best derived metric k (bars only); default every config */
    int *sel;
    int nsel;
    /* "benchmarks": bench[b] says whether benchmark b is drawn; NULL = all */
    unsigned char *bench;
} sweep_figure;

/* The series a timeseries figure can show, per interval of the run's time
   series (sweep_fig_ts.c; names in sweep_ts_series_names). */
enum { SWEEP_TS_IPC, SWEEP_TS_WARP_IPC, SWEEP_TS_ACTIVE_WARPS, SWEEP_TS_L1D_MISSES,
       SWEEP_TS_L1D_MISS_RATE, SWEEP_TS_L1D_MPKI, SWEEP_TS_LSU_STALL, SWEEP_TS_COUNT,
       /* "policy.NAME" or "policy.A/policy.B": the warp scheduler's own
          counters in each sample's "policy" object (names only the runs
          know: a run without one gives an empty column and a warning) */
       SWEEP_TS_POLICY = SWEEP_TS_COUNT };
extern const char *const sweep_ts_series_names[SWEEP_TS_COUNT];

typedef struct sweep_exp {
    void *json;                 /* the parsed document (json_t *), owns the strings */
    char path[4096];            /* the experiment file */
    char name[256];
    sweep_bench *benches;
    int nbenches;
    int sizes[3];               /* BENCH_TINY, ... */
    int nsizes;
    sweep_config *configs;
    int nconfigs;
    uint64_t *seeds;            /* none: one point per (b, s, c) without --seed */
    int nseeds;
    sweep_stat *stats;
    int nstats;
    sweep_derived *derived;
    int nderived;
    sweep_figure *figures;
    int nfigures;
    double timeout_s;           /* per run; 0 = none */
    uint64_t ts_interval;       /* "timeseries": {"interval": N}; 0 = no time series kept */
    bool need_report;           /* a stat reads the timing report */
    char **owned;               /* strings the loader made (paths, "k=v") */
    int nowned;
} sweep_exp;

/* One point of the matrix: indices into the experiment's lists;
   seed = -1 when the experiment gives no seeds. */
typedef struct sweep_point {
    int bench, size, config, seed;
    uint64_t hash;              /* sweep_point_hash */
} sweep_point;

/* ---- sweep_point.c ---- */

/* FNV-1a 64 of `n` bytes, continuing from `h` (start: SWEEP_FNV_INIT). */
#define SWEEP_FNV_INIT 0xcbf29ce484222325ULL
uint64_t sweep_fnv(uint64_t h, const void *p, size_t n);
/* FNV-1a of a file's contents; 0 when it cannot be read. */
uint64_t sweep_file_hash(const char *path);
/* Does config c run on benchmark b (its "benchmarks" restriction)? */
bool sweep_runs(const sweep_exp *x, int c, int b);
/* Every point in the documented order: benchmark, then size, then config,
   then seed (the last varies fastest), leaving out the benchmarks a
   config's "benchmarks" restricts it from. *out is malloc'd; the count, or -1. */
int sweep_points(const sweep_exp *x, sweep_point **out);
/* The canonical text of a point's resolved inputs (what its hash covers:
   not the labels) into buf; the hash of that text. */
uint64_t sweep_point_hash(const sweep_exp *x, const sweep_point *p, char *buf, size_t len);
/* "name=... size=... config=... seed=..." for messages. */
void sweep_point_label(const sweep_exp *x, const sweep_point *p, char *buf, size_t len);
extern const char *const sweep_size_names[3];

/* ---- sweep_file.c ---- */

struct bench_manifest;
/* Load and check `path` against manifest `m`. 0, or -1 after a message
   naming the file and the JSON path of the bad item. */
int sweep_load(sweep_exp *x, const char *path, const struct bench_manifest *m);
void sweep_free(sweep_exp *x);

/* ---- sweep_run.c / sweep_out.c ---- */

enum { SWEEP_OK, SWEEP_FAIL, SWEEP_ERROR, SWEEP_CRASH, SWEEP_TIMEOUT, SWEEP_NOTRUN };
extern const char *const sweep_status_names[6];

/* What is known of a point after the sweep (from this run or runs.jsonl). */
typedef struct sweep_result {
    int status;                 /* SWEEP_* */
    int exit_status;
    char verdict[512];
    double seconds;
    void *stats;                /* json_t *: the statistics JSON, NULL when none */
    void *report;               /* json_t *: the timing report, NULL when none */
    bool reused;                /* taken from runs.jsonl (--resume) */
    char version[128];          /* a remote task's simulator version; "" = this one's */
} sweep_result;

typedef struct sweep_opts {
    int jobs;
    const char *out_dir;
    bool resume, dry_run;
    const char *bin_dir;
    const char *version;        /* the simulator version string */
} sweep_opts;

/* Run every point not already in `res` (res[i].status == SWEEP_NOTRUN),
   `o->jobs` at a time, appending each to `jsonl` as it finishes. Returns
   how many failed. */
struct bench_manifest;
int sweep_run_all(const sweep_exp *x, const struct bench_manifest *m, const sweep_point *pts,
                  int n, sweep_result *res, const sweep_opts *o, void *jsonl);
/* The whole sweep of cmd_sweep.c (also `warpsim reproduce`): run the points
   (or list them, o->dry_run), write runs.jsonl, results.csv, derived.csv
   and the figures into o->out_dir. CLI_EXIT_OK, or CLI_EXIT_FAIL when a
   run failed, a figure could not be drawn or a table not written. */
int sweep_execute(const sweep_opts *o, const sweep_exp *x, const struct bench_manifest *m);
/* The simulator version: WS_VERSION_STRING + the FNV-1a of this binary. */
void sweep_version(char *buf, size_t len);

/* Look `path` up in a result: a json_t * or NULL. */
void *sweep_lookup(const sweep_result *r, const char *path);
/* Read runs.jsonl records of matching version into res[] by point hash. */
int sweep_resume_load(const char *file, const char *version, const sweep_point *pts, int n,
                      sweep_result *res);
/* DIR/runs/HASH.ts.json: where a point's kept time series is. */
void sweep_ts_path(const char *dir, uint64_t hash, char *buf, size_t len);
/* One runs.jsonl line for point i. */
int sweep_jsonl_write(void *f, const sweep_exp *x, const sweep_point *p,
                      const sweep_result *r, const char *version);
/* results.csv and derived.csv into dir. 0 or -1 (printed). */
int sweep_write_csv(const char *dir, const sweep_exp *x, const sweep_point *pts, int n,
                    const sweep_result *res);
int sweep_write_derived(const char *dir, const sweep_exp *x, const sweep_point *pts, int n,
                        const sweep_result *res);

/* ---- sweep_fig_spec.c / sweep_fig.c ---- */

/* The `figures` member of the experiment file (json_t *root). 0, or -1
   after a message naming the file and the JSON path. */
int sweep_load_figures(sweep_exp *x, void *root);
/* A config's value of figure setting `key`: `key=NUMBER` in its `set`
   list, or a `key=NUMBER` item of a `*_params=a=1,b=2` value. */
bool sweep_fig_setting(const sweep_config *c, const char *key, double *out);
/* Draw every figure of `x` from DIR/results.csv and DIR/derived.csv into
   DIR/figures/. 0, or -1 (printed: gnuplot missing, a table unreadable). */
int sweep_draw_figures(const char *dir, const sweep_exp *x);

/* ---- sweep_task.c / sweep_collect.c / sweep_remote.c: sweeps run by a
   cluster's engine (sweep_slurm.c, sweep_parallel.c; docs/cluster.md) ---- */

/* The options of `--backend slurm|parallel`. */
typedef struct sweep_remote {
    const char *backend;        /* "slurm" or "parallel" */
    const char *shared_dir;     /* where the tasks write (points/, logs/, runs/): the out dir
                                   unless --shared-dir */
    const char *partition, *account, *time;  /* slurm: #SBATCH lines; NULL = the site's default */
    const char *hosts;          /* parallel: GNU parallel's --sshloginfile */
    const char *bench_dir;      /* --bench-dir, passed on to every task */
    char exp_path[4096];        /* the experiment file, absolute: tasks read it */
    int max_parallel;           /* slurm: the array's %N; parallel: jobs per host; 0 = no limit */
    int chunk;                  /* points per task (--chunk, default 1) */
    bool submit_only;
} sweep_remote;

/* The tasks of one submission: task t (0-based; Slurm array index t + 1)
   runs the points of tasks[t], comma-separated 0-based point indices
   ("0,1,2"); state[t] and why[t] say how it stands. */
typedef struct sweep_tasks {
    char **tasks;
    int ntasks;
    char job[64];               /* the Slurm job id; "" = none */
    char *state;                /* per task: 'P' pending, 'R' running, 'G' gone, '?' unknown */
    char (*why)[32];            /* a gone task's end: its Slurm state ("CANCELLED",
                                   "TIMEOUT"), "exit 1" from GNU parallel; "" = unknown */
} sweep_tasks;
void sweep_tasks_free(sweep_tasks *t);

/* ---- sweep_task.c ---- */

/* SHARED/points/HASH.json: where a task leaves a point's runs.jsonl record. */
void sweep_point_file(const char *shared, uint64_t hash, char *buf, size_t len);
/* Run points idx[0..nidx) as the local sweep does (o->out_dir = the shared
   folder), each record written to its point file atomically. Returns how
   many failed, or -1 when a folder or file could not be made. */
int sweep_task_run(const sweep_opts *o, const sweep_exp *x, const struct bench_manifest *m,
                   const sweep_point *pts, int n, const int *idx, int nidx);

/* ---- sweep_collect.c ---- */

/* Read the point files of `shared` into res[] (any status; with `version`
   only successful records of that version, as --resume keeps them).
   Returns how many were found. */
int sweep_collect_load(const char *shared, const char *version, const sweep_point *pts, int n,
                       sweep_result *res);
/* runs.jsonl (in point order), results.csv, derived.csv and the figures of
   a remote sweep into o->out_dir, time series copied from `shared`; prints
   the summary and each point not ok. CLI_EXIT_OK or CLI_EXIT_FAIL. */
int sweep_collect_write(const sweep_opts *o, const sweep_exp *x, const sweep_point *pts, int n,
                        sweep_result *res, const char *shared);

/* ---- sweep_remote.c ---- */

/* The whole remote sweep of cmd_sweep.c: submit the points that need
   running, follow them (unless r->submit_only), collect. */
int sweep_remote_execute(const sweep_opts *o, sweep_remote *r, const sweep_exp *x,
                         const struct bench_manifest *m);
/* OUT/remote.json, what `warpsim sweep-collect OUT` reads back: the
   options, the tasks and the job. 0 or -1 (printed). sweep_remote_load
   fills o->bin_dir, *r and *t with strings owned by *doc (a json_t *). */
int sweep_remote_save(const sweep_opts *o, const sweep_remote *r, const sweep_tasks *t);
int sweep_remote_load(const char *out, sweep_opts *o, sweep_remote *r, sweep_tasks *t,
                      void **doc);
/* Points without a result: failed when their task is gone (timeout when
   Slurm says TIMEOUT), still not run when it is pending or running. */
void sweep_remote_mark(const sweep_remote *r, const sweep_tasks *t, int n, sweep_result *res);
/* Quote `s` for a POSIX shell ('...', ' as '\'') into f (a FILE *). */
void sweep_shell_quote(void *f, const char *s);
/* Run argv (no shell), its stdout into buf (NUL-terminated, cut at len),
   its stderr to ours unless `quiet`. The exit status, 127 when it could
   not start. */
int sweep_capture(char *const *argv, char *buf, size_t len, bool quiet);
/* Is `prog` on PATH? */
bool sweep_on_path(const char *prog);

/* ---- sweep_slurm.c ---- */

/* Write OUT/slurm/job.sh (one array task per task) and submit it with
   sbatch; t->job set. 0, or -1 after a message. */
int sweep_slurm_submit(const sweep_opts *o, const sweep_remote *r, const sweep_exp *x,
                       sweep_tasks *t);
/* Ask squeue for each task's state into t->state; for tasks gone, their
   final Slurm state (sacct, else scontrol) into t->why. -1 when squeue
   cannot be asked. */
int sweep_slurm_poll(sweep_tasks *t);
/* Poll until every task has left the queue, printing progress in points. */
void sweep_slurm_follow(const sweep_remote *r, sweep_tasks *t, const sweep_point *pts, int n);

/* ---- sweep_parallel.c ---- */

/* Run the tasks with GNU parallel (r->hosts: its --sshloginfile; ":" the
   local machine), its --joblog in OUT/parallel/joblog; each task's exit
   into t->why. 0, or -1 when parallel could not run. */
int sweep_parallel_run(const sweep_opts *o, const sweep_remote *r, sweep_tasks *t);

#endif /* WS_CLI_SWEEP_H */
