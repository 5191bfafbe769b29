/*
** cli_bench.h -- private header of `warpsim bench` (src/cli/): the
** benchmark manifest (bench_manifest.c, read with libjansson), building and
** running one benchmark program (bench_exec.c), and the subcommands
** list / run / characterize (cmd_bench.c).
*/
#ifndef WS_CLI_BENCH_H
#define WS_CLI_BENCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "cli.h"

#define BENCH_MAX_KERNELS 16
#define BENCH_MAX_CLASSES 8

enum { BENCH_TINY, BENCH_SMALL, BENCH_DEFAULT, BENCH_NSIZES };
extern const char *const bench_size_names[BENCH_NSIZES];

/* One manifest entry; the strings live as long as the manifest. */
typedef struct bench_entry {
    const char *name, *source, *stands_in_for, *notes;
    const char *kernels[BENCH_MAX_KERNELS];
    int nkernels;
    const char *classes[BENCH_MAX_CLASSES];
    int nclasses;
    const char *commands[BENCH_NSIZES];  /* "{bin} --size tiny", ... */
} bench_entry;

typedef struct bench_manifest {
    void *json;             /* the parsed document (json_t *) */
    char root[4096];        /* folder the manifest's relative paths start from */
    char path[4096];        /* the manifest file */
    const char *build;      /* build command template: {source}, {bin} */
    bench_entry *entries;
    int n;
} bench_manifest;

/* Load <bench_dir>/manifest.json (bench_dir NULL = the source tree's
   bench/). Returns 0, or -1 after printing why (prefix `cmd`). */
int bench_manifest_load(bench_manifest *m, const char *bench_dir, const char *cmd);
void bench_manifest_free(bench_manifest *m);
/* Entry by name, or NULL after printing the valid names. */
const bench_entry *bench_find(const bench_manifest *m, const char *name, const char *cmd);
/* true if the entry carries class tag `tag`. */
bool bench_has_class(const bench_entry *e, const char *tag);
/* Size index by name (tiny|small|default), or -1. */
int bench_size_index(const char *name);

/* Counters of one kernel (or a whole run) from a statistics JSON file. */
typedef struct bench_kstats {
    char name[256];         /* demangled name without the parameter list */
    uint64_t launches, warps, warp_insns, thread_insns, mem_insns, bar_insns;
    uint64_t warp_insns_min, warp_insns_max;
    double warp_insns_sq;   /* sum of squared warp lengths (ws_stats) */
} bench_kstats;

typedef struct bench_stats {
    bench_kstats total;
    bench_kstats *kernels;
    int nkernels;
} bench_stats;

/* Read the JSON written by `warpsim exec --stats-json`. 0 or -1 (printed). */
int bench_stats_read(const char *path, bench_stats *s, const char *cmd);
void bench_stats_free(bench_stats *s);

/* ------------------------------------------------------------------ */
/* Building and running (bench_exec.c)                                 */
/* ------------------------------------------------------------------ */

/* Path of the built program: <bin_dir or the build's bench-bin>/<name>. */
int bench_bin_path(const char *bin_dir, const char *name, char *out, size_t len);
/* Build `e` into `bin` with nvcc unless it is newer than its source and
   bench/common/bench.h (force: always). 0, or -1 after printing why. */
int bench_build(const bench_manifest *m, const bench_entry *e, const char *bin, bool force,
                const char *cmd);

typedef struct bench_outcome {
    int exit_status;        /* the program's, or 128+signal, 127 if it did not start */
    char verdict[512];      /* its last "PASS ..." / "FAIL ..." line, or "" */
} bench_outcome;

/* Run `bin` with the size's command line (+ --seed when seed_arg) through
   `warpsim exec` with `exec_opts` (argv-style, NULL-terminated). Program
   stdout is echoed when echo is true. 0, or -1 when it could not run. */
int bench_run_program(const bench_entry *e, const char *bin, int size, const char *seed_arg,
                      char *const *exec_opts, bool echo, bench_outcome *out);

/* ------------------------------------------------------------------ */
/* One benchmark on the timing model (bench_timing.c)                  */
/* ------------------------------------------------------------------ */

#define BENCH_TIMING_MAX_SETS 16
#define BENCH_TIMING_MAX_PLUGINS 16

typedef struct bench_timing_req {
    const char *cmd;          /* command name for messages */
    const char *config;       /* preset or file; NULL = gtx480 */
    const char *sets[BENCH_TIMING_MAX_SETS];   /* "key=value" overrides */
    int nsets;
    int size;                 /* BENCH_TINY, ... */
    const char *bin_dir;      /* NULL = the build's bench-bin */
    bool rebuild;
    char plugins[CLI_PLUGINS_MAX];   /* --plugin files, ':'-separated, "" = none */
    const char *stats_out;    /* keep the statistics JSON here; NULL = a temporary file */
    const char *report_out;   /* also write the full timing report here (--timing-report) */
    char threads[CLI_THREADS_SET];   /* --threads N as threads=N (the last one given) */
} bench_timing_req;

typedef struct bench_timing {
    uint64_t thread_insns, cycles, l1d_accesses, l1d_hits;
    double seconds;           /* wall clock of the whole program run */
} bench_timing;

/* Build if needed, run `e` on the timing model with `q`'s configuration,
   require PASS, and read the totals. 0, or -1 after printing why. */
int bench_timing_run(const bench_timing_req *q, const bench_manifest *m,
                     const bench_entry *e, bench_timing *t);
/* Take one of the options every command that runs benchmarks on the timing
   model shares: --config --set --size --rebuild --bin-dir --plugin
   --threads (a --set threads=N), and --bench-dir into *bench_dir.  At most
   `max_sets` --set and --threads together. 1 = taken, 0 = not one of them,
   -1 = bad value (message printed). */
int bench_timing_option(bench_timing_req *q, const char **bench_dir, const char *name,
                        const char *value, int max_sets, bool allow_default_size);
/* Print the machine's configuration warning `warn` (if any) once, for the
   command `cmd`, and tell the programs it runs not to repeat it
   (WARPSIM_CONFIG_WARNED in their environment). */
void bench_timing_warn_once(const char *cmd, const char *warn);
/* Check q's configuration and plug-ins (its warning printed once, see
   bench_timing_warn_once), load the manifest into *m and resolve `names`
   (none given: `defaults`, or every benchmark when defaults is NULL) into
   list[0..*n). -1 when ready (free m afterwards), else the exit status. */
int bench_timing_prepare(bench_timing_req *q, const char *bench_dir, const char *const *names,
                         int nnames, const char *const *defaults, bench_manifest *m,
                         const bench_entry **list, int max, int *n);

/* `warpsim timing-bench --threads N` (bench_threads.c): run each of
   list[0..n) with threads=1 and with threads=`threads` (each setting after
   q's own, so it wins), print per benchmark and in total both speeds, the
   speed-up and whether the statistics JSON files are byte-identical (a pair
   that differs is kept and named on stderr).  The exit status: 1 when a
   run failed or statistics differed. */
int bench_threads_compare(bench_timing_req *q, const bench_manifest *m,
                          const bench_entry *const *list, int n, uint32_t threads);

/* `warpsim bench pmem` (cmd_bench_pmem.c): argv[0] = "pmem". */
int cli_bench_pmem(int argc, char **argv);

#endif /* WS_CLI_BENCH_H */
