/*
** cmd_timing_bench.c -- `warpsim timing-bench`: the speed of the timing
** model over the bundled benchmark suite (bench/manifest.json, built and
** run with the `warpsim bench` machinery of bench_exec.c).  Per benchmark
** and in total: thread instructions, simulated cycles, wall seconds,
** thread-instructions per second and simulated cycles per second.  With
** --threads N (N >= 2) each benchmark runs at one and at N host threads
** and the two are compared (bench_threads.c).
*/
#include "cli.h"
#include "cli_bench.h"
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TB_MAX_NAMES 64

static const char tb_usage[] =
    "usage: warpsim timing-bench [--config NAME|FILE] [--set key=value]...\n"
    "                            [--size tiny|small] [--rebuild] [--bench-dir DIR]\n"
    "                            [--bin-dir DIR] [--plugin FILE.so]... [--threads N]\n"
    "                            [NAME...]\n"
    "  Run each named benchmark (default: all of bench/manifest.json) on the\n"
    "  timing model (default machine gtx480, size tiny) and print, per benchmark\n"
    "  and in total, thread instructions, simulated cycles, wall-clock seconds\n"
    "  (whole program run, including building the simulated context), and the\n"
    "  rates thread-instructions/s and simulated cycles/s.  Programs are built\n"
    "  with nvcc when missing, as by `warpsim bench run`.  --plugin loads a\n"
    "  policy plug-in into every run (repeatable), for --set to name.\n"
    "  --threads N (2-256): run each benchmark twice, with threads=1 and with\n"
    "  threads=N (host threads ticking the SMs; these win over --set threads=),\n"
    "  and print both runs' wall seconds and rates, the speed-up (wall at 1 /\n"
    "  wall at N; the total's from the summed walls) and whether the two\n"
    "  statistics JSON files are byte-identical (same / DIFFER: both files are\n"
    "  kept and named).  --threads 1 is --set threads=1.\n"
    "  Exit status: 0 all ran and verified (and, with --threads, every pair of\n"
    "  statistics is the same), 1 one failed or differed, 2 usage error.\n";

typedef struct tb_cli {
    bench_timing_req q;
    uint32_t threads;         /* --threads N; 0 = not given */
    const char *bench_dir;
    const char *names[TB_MAX_NAMES];
    int nnames;
} tb_cli;

static int tb_parse(tb_cli *c, int argc, char **argv)
{
    static const cli_opt opts[] = {
        {"help", false}, {"config", true}, {"set", true}, {"size", true}, {"rebuild", false},
        {"bench-dir", true}, {"bin-dir", true}, {"plugin", true}, {"threads", true},
        {NULL, false}};
    cli_iter it;
    const char *name, *v;
    int r;
    cli_iter_init(&it, argc, argv, opts);
    while ((r = cli_iter_next(&it, &name, &v)) != CLI_ITER_END) {
        if (r == CLI_ITER_ERROR) return CLI_EXIT_USAGE;
        if (r == CLI_ITER_POSITIONAL) {
            if (c->nnames == TB_MAX_NAMES) return CLI_EXIT_USAGE;
            c->names[c->nnames++] = v;
        } else if (strcmp(name, "help") == 0) {
            fputs(tb_usage, stdout);
            return CLI_EXIT_OK;
        } else if (strcmp(name, "threads") == 0) {
            if (!cli_threads_setting(c->q.cmd, v, c->q.threads, &c->threads))
                return CLI_EXIT_USAGE;
        } else if ((r = bench_timing_option(&c->q, &c->bench_dir, name, v,
                                            BENCH_TIMING_MAX_SETS - 1, false)) <= 0) {
            return CLI_EXIT_USAGE;   /* 0 cannot happen: the table holds only these */
        }
    }
    /* --threads 1: one run each, as --set threads=1 last (it wins); with
       N >= 2 bench_threads.c adds the setting to each run itself */
    if (c->threads == 1) {
        if (c->q.nsets >= BENCH_TIMING_MAX_SETS - 1) {   /* one slot for the NULL */
            cli_error(c->q.cmd, "too many --set and --threads (at most %d)",
                      BENCH_TIMING_MAX_SETS - 1);
            return CLI_EXIT_USAGE;
        }
        c->q.sets[c->q.nsets++] = c->q.threads;
    }
    return -1;
}

/* The header's host threads: "one thread" unless a --set threads=K (the
   last one) says otherwise. */
static void tb_head(const tb_cli *c)
{
    const char *k = NULL;
    for (int i = 0; i < c->q.nsets; i++)
        if (strncmp(c->q.sets[i], "threads=", 8) == 0) k = c->q.sets[i] + 8;
    printf("timing model speed: config %s, size %s, ", c->q.config ? c->q.config : "gtx480",
           bench_size_names[c->q.size]);
    if (k && strcmp(k, "1") != 0) printf("threads=%s\n", k);
    else printf("one thread\n");
}

static void print_row(const char *name, const bench_timing *r, const char *note)
{
    double s = r->seconds > 0 ? r->seconds : 1e-9;
    printf("%-15s %14" PRIu64 " %12" PRIu64 " %9.3f %12.3f %12.3f%s\n", name, r->thread_insns,
           r->cycles, r->seconds, (double)r->thread_insns / s / 1e6, (double)r->cycles / s / 1e6,
           note);
}

int cli_cmd_timing_bench(int argc, char **argv)
{
    tb_cli c = { .q = { .cmd = "timing-bench", .size = BENCH_TINY } };
    int rc = tb_parse(&c, argc, argv);
    if (rc >= 0) return rc;
    bench_manifest m;
    const bench_entry *list[TB_MAX_NAMES * 2];
    int n;
    rc = bench_timing_prepare(&c.q, c.bench_dir, c.names, c.nnames, NULL, &m, list,
                              TB_MAX_NAMES * 2, &n);
    if (rc >= 0) return rc;
    if (c.threads >= 2) {
        rc = bench_threads_compare(&c.q, &m, list, n, c.threads);
        bench_manifest_free(&m);
        return rc;
    }
    tb_head(&c);
    printf("%-15s %14s %12s %9s %12s %12s\n", "benchmark", "thread-insns", "cycles", "wall-s",
           "M-tinsn/s", "M-cycles/s");
    bench_timing total = { 0 };
    int failed = 0;
    for (int i = 0; i < n; i++) {
        bench_timing r;
        if (bench_timing_run(&c.q, &m, list[i], &r)) { failed++; fflush(stdout); continue; }
        print_row(list[i]->name, &r, "");
        fflush(stdout);
        total.thread_insns += r.thread_insns;
        total.cycles += r.cycles;
        total.seconds += r.seconds;
    }
    print_row("total", &total, failed ? " (failed benchmarks left out)" : "");
    bench_manifest_free(&m);
    return failed ? CLI_EXIT_FAIL : CLI_EXIT_OK;
}
