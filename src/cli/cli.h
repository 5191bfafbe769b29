/*
** cli.h -- private header of the `warpsim` command (src/cli/).
**
** main.c dispatches to one handler per subcommand (one file each); cli.c
** holds the option iterator and small parsers they share; workloads.c the
** bundled-kernel workloads run by both `demo` and `emu-bench`.
*/
#ifndef WS_CLI_H
#define WS_CLI_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include "warpsim.h"

/* Bundled PTX, generated into the build by cmake/embed.cmake; the table
   ends with {NULL, NULL}. name is the file name, e.g. "vector_add.ptx". */
extern const struct ws_bundled_ptx { const char *name; const char *text; } ws_bundled_ptx[];

/* Exit statuses of every subcommand. */
enum { CLI_EXIT_OK = 0, CLI_EXIT_FAIL = 1, CLI_EXIT_USAGE = 2 };

/* A subcommand handler gets argv[0] = its own name. */
typedef int (*cli_handler)(int argc, char **argv);

int cli_cmd_check(int argc, char **argv);
int cli_cmd_kernels(int argc, char **argv);
int cli_cmd_run(int argc, char **argv);
int cli_cmd_demo(int argc, char **argv);
int cli_cmd_emu_bench(int argc, char **argv);
int cli_cmd_exec(int argc, char **argv);
/* exec_elf.c: 1 if `prog` (as execvp finds it) is an ELF program with device
   code linked with the static CUDA runtime, which the shim cannot replace. */
int cli_exec_static_cudart(const char *prog);
int cli_cmd_bench(int argc, char **argv);   /* cmd_bench.c */
int cli_cmd_config(int argc, char **argv);  /* cmd_config.c: config list | show */
int cli_cmd_policies(int argc, char **argv);/* cmd_config.c */
int cli_cmd_timing_bench(int argc, char **argv); /* cmd_timing_bench.c */
int cli_cmd_compare(int argc, char **argv);      /* cmd_compare.c */
int cli_cmd_correlate(int argc, char **argv);    /* cmd_correlate.c */
int cli_cmd_sweep(int argc, char **argv);        /* cmd_sweep.c */
int cli_cmd_sweep_collect(int argc, char **argv);/* sweep_collect.c */
int cli_cmd_run_point(int argc, char **argv);    /* sweep_task.c: hidden, a remote task */
int cli_cmd_belady(int argc, char **argv);       /* cmd_belady.c */
int cli_cmd_reproduce(int argc, char **argv);    /* cmd_reproduce.c */
int cli_cmd_hints(int argc, char **argv);        /* cmd_hints.c */

/* ------------------------------------------------------------------ */
/* Option parsing (cli.c)                                              */
/* ------------------------------------------------------------------ */

/* One long option of a subcommand; a NULL name ends a table. */
typedef struct cli_opt {
    const char *name;   /* without the leading "--" */
    bool has_value;     /* takes "--name VALUE" or "--name=VALUE" */
} cli_opt;

typedef struct cli_iter {
    int argc;
    char **argv;
    int i;              /* next argv index */
    const cli_opt *opts;
} cli_iter;

enum { CLI_ITER_END = 0, CLI_ITER_OPT, CLI_ITER_POSITIONAL, CLI_ITER_ERROR };

void cli_iter_init(cli_iter *it, int argc, char **argv, const cli_opt *opts);
/* Next item: CLI_ITER_OPT sets *name (and *value when it takes one),
   CLI_ITER_POSITIONAL sets *value. CLI_ITER_ERROR has already printed a
   message listing the valid options. */
int cli_iter_next(cli_iter *it, const char **name, const char **value);

/* Print "warpsim CMD: " + message to stderr (printf-style). */
void cli_error(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Strict number parsers: the whole string must be a number in range.
   Return false on any junk. */
bool cli_parse_i64(const char *s, int64_t lo, int64_t hi, int64_t *out);
bool cli_parse_u64(const char *s, uint64_t hi, uint64_t *out);
bool cli_parse_f64(const char *s, double *out);
/* "X", "X,Y" or "X,Y,Z", each 1..2^31-1; missing components are 1. */
bool cli_parse_dim3(const char *s, ws_dim3 *out);
/* --threads N (exec, run, bench run, compare, timing-bench): the host
   threads ticking the SMs, the configuration key `threads`, of which it is
   shorthand (`--set threads=N`).  Check `v` against the key's own bounds and
   write "threads=N" into `set` (CLI_THREADS_SET bytes) and N into *n (NULL:
   not wanted); false after a usage message naming `cmd` and --threads. */
#define CLI_THREADS_SET 16
bool cli_threads_setting(const char *cmd, const char *v, char *set, uint32_t *n);
/* Lowest and highest compute capability (x10) the simulated GPU can report. */
#define CLI_ARCH_MIN 30
#define CLI_ARCH_MAX 129
/* Check an --arch value: "sm_NN", "sm_NNN", "compute_NN" or "NN" (two or
   three digits).  false after a message naming `cmd`: a syntax error, or
   a well-formed architecture outside CLI_ARCH_MIN..CLI_ARCH_MAX. */
bool cli_check_arch(const char *cmd, const char *v);

/* ------------------------------------------------------------------ */
/* Policy plug-ins (cli_plugin.c)                                      */
/* ------------------------------------------------------------------ */

/* Room for the colon-separated plug-in list of one command. */
#define CLI_PLUGINS_MAX 4096
/* Append `path` (one --plugin FILE), made absolute, to the colon-separated
   list in `list` (`len` bytes, "" = none yet). false after a message when
   it contains ':' or the list is full (a usage error). */
bool cli_plugin_add(const char *cmd, char *list, size_t len, const char *path);
/* A registry (policy/policy.h) of the built-ins plus the plug-ins of
   `list`; NULL after a message naming the file that could not be loaded
   (a usage error). Free it with ws_registry_free. */
struct ws_registry;
struct ws_registry *cli_registry_open(const char *cmd, const char *list);

/* ------------------------------------------------------------------ */
/* Ctrl-C (cli_signal.c)                                               */
/* ------------------------------------------------------------------ */

/* Exit status of a command stopped by SIGINT (128 + SIGINT). */
#define CLI_EXIT_SIGINT 130
/* Install the SIGINT handler (unless SIGINT is ignored) and return the
   flag it sets, for ws_options.interrupt. */
const volatile sig_atomic_t *cli_sigint_install(void);

/* ------------------------------------------------------------------ */
/* Worker processes (cli_pool.c)                                       */
/* ------------------------------------------------------------------ */

#define CLI_POOL_MAX_JOBS 64
enum { CLI_POOL_OK, CLI_POOL_DIED, CLI_POOL_TIMEOUT };

/* Tasks run each in a worker process; `run` fills `out_size` bytes (at
   most PIPE_BUF) in the worker, `finished` gets them in the parent (NULL
   unless CLI_POOL_OK) with how it ended and its wall time. */
typedef struct cli_pool {
    void *ctx;
    size_t out_size;
    double timeout_s;           /* per task; 0 = none */
    void (*run)(void *ctx, int i, void *out);
    void (*started)(void *ctx, int i, int k, int n);   /* optional: k-th of n starts */
    void (*finished)(void *ctx, int i, const void *out, int how, double seconds);
} cli_pool;

/* Run tasks idx[0..n), `jobs` at once. 0, or -1 when out of memory. */
int cli_pool_run(const cli_pool *p, const int *idx, int n, int jobs);

/* ------------------------------------------------------------------ */
/* gnuplot (cli_gnuplot.c)                                             */
/* ------------------------------------------------------------------ */

/* gnuplot's path on PATH into buf, or NULL after an error naming `what`
   ("--plot") and the Debian package gnuplot-nox. */
const char *cli_gnuplot_find(char *buf, size_t len, const char *cmd, const char *what);
/* Run gnuplot on a script file; its exit status (127: did not start). */
int cli_gnuplot_run(const char *gnuplot, const char *script);

/* Text of a bundled PTX file by name ("bfs.ptx"), or NULL. */
const char *cli_bundled_ptx(const char *name);

/* Deterministic generator: a 64-bit LCG (Knuth's MMIX constants). */
uint32_t cli_rand32(uint64_t *state);
/* Monotonic wall clock in seconds. */
double cli_now(void);

/* ------------------------------------------------------------------ */
/* Bundled workloads (workloads.c)                                     */
/* ------------------------------------------------------------------ */

typedef enum { CLI_SIZE_SMALL, CLI_SIZE_DEFAULT } cli_size;

typedef struct cli_result {
    bool pass;            /* device result equals the CPU reference */
    char config[48];      /* launch shape for the table, e.g. "40x256" */
    char detail[256];     /* why it failed (API error or first mismatch) */
    ws_stats stats;       /* summed over the workload's launches */
    double seconds;       /* wall clock spent inside ws_launch */
} cli_result;

typedef struct cli_workload {
    const char *name;     /* row label, e.g. "vector_add" */
    const char *ptx;      /* bundled file, e.g. "vector_add.ptx" */
    /* Run on `ctx` with `mod` loaded; fill `r`. Returns WS_OK or the
       first failing call's status (r->detail says which). */
    ws_status (*run)(ws_ctx *ctx, ws_module *mod, cli_size size, cli_result *r);
} cli_workload;

/* vector add, shared-memory reduction, BFS; ends with a NULL name. */
extern const cli_workload cli_workloads[];

/* Create a context, load the workload's PTX, run it, tear down.
   r->pass is false on any error. */
void cli_workload_exec(const cli_workload *w, cli_size size, cli_result *r);

#endif /* WS_CLI_H */
