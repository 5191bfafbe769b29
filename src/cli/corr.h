/*
** corr.h -- private header of `warpsim correlate` (src/cli/): the
** statistics of a correlation (corr_stats.c, plain arithmetic on arrays so
** a unit test can check them on fixed numbers), the GPGPU-Sim data set and
** a warpsim run's figures (corr_data.c), running the data set's benchmarks
** on the timing model (corr_run.c) and the reports: text, JSON
** (corr_report.c) and the scatter plot (corr_plot.c).
*/
#ifndef WS_CLI_CORR_H
#define WS_CLI_CORR_H

#include <stdbool.h>
#include <stddef.h>

/* ------------------------------------------------------------------ */
/* Statistics (corr_stats.c)                                           */
/* ------------------------------------------------------------------ */

/* Pearson's r of x[0..n) against y[0..n); NaN when n < 2 or either side
   has no variance (r is undefined there, and 0 would read as "no
   correlation"). */
double corr_pearson(const double *x, const double *y, int n);
/* The same on log(x), log(y): NaN as above or when a value is <= 0. */
double corr_pearson_log(const double *x, const double *y, int n);
/* Mean of |sim - ref| / ref; NaN when n < 1. Every ref must be > 0. */
double corr_mare(const double *ref, const double *sim, int n);
/* How many runs have |sim / ref - 1| <= band (0.20 = within +-20 %). */
int corr_within(const double *ref, const double *sim, int n, double band);
/* GTO's gain over LRR as the issue states it: (lrr - gto) / lrr. */
double corr_gto_gain(double gto_cycles, double lrr_cycles);
/* Sign check of one benchmark: -1 when |GPGPU-Sim's gain| <= threshold
   (not checked), 1 when warpsim's gain has the same sign, 0 when not (a
   gain of exactly 0 has no sign, so it never agrees). */
int corr_sign_agrees(double ref_gain, double sim_gain, double threshold);
/* GPGPU-Sim's GTO-vs-LRR difference that the sign target checks (the 3 %). */
#define CORR_SIGN_THRESHOLD 0.03

/* ------------------------------------------------------------------ */
/* The data set and the runs                                           */
/* ------------------------------------------------------------------ */

/* One simulator's figures for one run; a rate < 0 = not reported. */
typedef struct corr_side {
    double cycles;          /* gpu_tot_sim_cycle; 0 = none */
    double insns;           /* gpu_tot_sim_insn */
    double l1d_miss, l2_miss;
} corr_side;

/* What a worker process sends back for one warpsim run (plain data: it
   crosses a pipe). */
typedef struct corr_result {
    int ok;                 /* ran, verified (PASS), statistics read */
    corr_side sim;
    int insn_src;           /* CORR_INSN_*: where sim.insns came from */
    double seconds;         /* wall clock of the program run */
} corr_result;

enum { CORR_INSN_GPGPUSIM = 0,   /* stats JSON total.gpu_tot_sim_insn */
       CORR_INSN_REPORT,         /* timing report total.gpu_tot_sim_insn */
       CORR_INSN_THREAD };       /* stats JSON total.thread_insns */
extern const char *const corr_insn_src_names[3];

/* One run record of the data set and its warpsim counterpart. */
typedef struct corr_run {
    char bench[64], sched[32];
    bool comparable;        /* GPGPU-Sim completed it (complete = true) */
    char why[256];          /* not comparable, or warpsim failed: why */
    corr_side ref;          /* GPGPU-Sim */
    corr_result res;        /* warpsim */
} corr_run;

typedef struct corr_data {
    void *json;             /* the parsed document (json_t *) */
    char path[4096];        /* the data set file */
    char config[4096];      /* its GPGPU-Sim config file (source.config_files[0]),
                               resolved; "" when not found */
    char config_rel[256];   /* that file as the data set names it; "" = none */
    const char *simulator;  /* source.simulator, or "GPGPU-Sim" */
    corr_run *runs;
    int n;
} corr_data;

/* Load the runs of `path` at size `size` (tiny|small) whose benchmark is
   one of names[0..nnames) (none: all). 0, or -1 after a message naming
   the file, or a NAME the data set lacks at that size (*usage set). */
int corr_data_load(corr_data *d, const char *path, const char *size, const char *const *names,
                   int nnames, const char *cmd, bool *usage);
void corr_data_free(corr_data *d);

/* The summary over the comparable runs warpsim ran. */
typedef struct corr_summary {
    int n;                  /* runs compared */
    int not_comparable, failed;
    double r_linear, r_log, mare;
    int within20, within25;
    int insn_equal;
    int sign_checked, sign_agree;
} corr_summary;

void corr_summarize(const corr_data *d, corr_summary *s);
/* At `b`, the first record of its benchmark: that benchmark's gto and lrr
   runs (both compared and run), or false (also at any later record). The
   data set's two schedulers are what the GTO-vs-LRR target compares. */
bool corr_gto_lrr_pair(const corr_data *d, int b, const corr_run **gto, const corr_run **lrr);

/* Read one warpsim run's figures: the statistics JSON `stats` (the names
   GPGPU-Sim uses when present, else warpsim's own) and the timing report
   `report` for what the statistics JSON lacks. 0 or -1. */
int corr_read_result(const char *stats, const char *report, corr_result *r);

/* Build each program of `d` once, then run every comparable run on the
   timing model with `q`'s machine and the run's scheduler, `jobs` worker
   processes at a time, into d->runs[i].res (files in `tmpdir`). Returns
   how many comparable runs could not be run or failed. */
struct bench_timing_req;
struct bench_manifest;
int corr_run_all(corr_data *d, const struct bench_timing_req *q,
                 const struct bench_manifest *m, int jobs, const char *tmpdir);

/* ------------------------------------------------------------------ */
/* Reports (corr_report.c)                                             */
/* ------------------------------------------------------------------ */

typedef struct corr_opts {
    const char *size;       /* tiny | small */
    const char *machine;    /* what --config was (file or preset) */
    const char *json, *plot;
} corr_opts;

void corr_print(const corr_data *d, const corr_opts *o, const corr_summary *s);
int corr_write_json(const corr_data *d, const corr_opts *o, const corr_summary *s,
                    const char *cmd);
/* corr_plot.c: the path of gnuplot on PATH into buf, or NULL after a
   message naming the Debian package that provides it. */
const char *corr_find_gnuplot(char *buf, size_t len, const char *cmd);
/* FILE.png and FILE.svg (FILE = o->plot) with gnuplot. 0, or -1 after a
   message. */
int corr_plot(const corr_data *d, const corr_opts *o, const char *cmd);

#endif /* WS_CLI_CORR_H */
