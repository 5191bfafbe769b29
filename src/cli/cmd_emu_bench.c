/*
** cmd_emu_bench.c -- `warpsim emu-bench`: speed of the functional
** emulator in million thread-instructions per second on three bundled
** workloads (vector add, shared-memory reduction, divergent BFS).  Wall
** clock (monotonic) covers only the ws_launch() calls; with --repeat N the
** fastest of N runs is reported.  Results are still checked: a wrong
** answer makes the benchmark fail.
*/
#include "cli.h"
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

static const char bench_usage[] =
    "usage: warpsim emu-bench [--repeat N] [--size small|default]\n"
    "  Functional emulation speed on vector add, shared-memory reduction and\n"
    "  a divergent BFS graph kernel: thread-instructions, seconds (monotonic\n"
    "  wall clock inside ws_launch) and million thread-instructions per second,\n"
    "  plus the total.  --repeat N: best of N runs (default 1).\n"
    "  --size small: the demo's inputs; default: about 10^7 instructions each.\n";

typedef struct bench_opts { uint64_t repeat; cli_size size; } bench_opts;

/* Returns -1 to go on, else an exit status. */
static int parse_bench_args(int argc, char **argv, bench_opts *o)
{
    static const cli_opt opts[] = {{"repeat", true}, {"size", true}, {"help", false},
                                   {NULL, false}};
    cli_iter it;
    const char *name, *value;
    int kind;
    cli_iter_init(&it, argc, argv, opts);
    while ((kind = cli_iter_next(&it, &name, &value)) != CLI_ITER_END) {
        if (kind == CLI_ITER_ERROR)
            return CLI_EXIT_USAGE;
        if (kind == CLI_ITER_POSITIONAL) {
            cli_error(argv[0], "unexpected argument '%s'", value);
            return CLI_EXIT_USAGE;
        }
        if (strcmp(name, "help") == 0) {
            fputs(bench_usage, stdout);
            return CLI_EXIT_OK;
        }
        if (strcmp(name, "repeat") == 0 && (!cli_parse_u64(value, 1000, &o->repeat) || !o->repeat)) {
            cli_error(argv[0], "bad --repeat '%s' (want 1..1000)", value);
            return CLI_EXIT_USAGE;
        }
        if (strcmp(name, "size") == 0) {
            if (strcmp(value, "small") == 0)
                o->size = CLI_SIZE_SMALL;
            else if (strcmp(value, "default") == 0)
                o->size = CLI_SIZE_DEFAULT;
            else {
                cli_error(argv[0], "bad --size '%s' (valid: small, default)", value);
                return CLI_EXIT_USAGE;
            }
        }
    }
    return -1;
}

static double mips(uint64_t insns, double seconds)
{
    return seconds > 0 ? (double)insns / seconds / 1e6 : 0.0;
}

/* Best of `repeat` runs of one workload; false if any run fails. */
static bool bench_one(const cli_workload *w, const bench_opts *o, cli_result *best)
{
    for (uint64_t i = 0; i < o->repeat; i++) {
        cli_result r;
        cli_workload_exec(w, o->size, &r);
        if (!r.pass) {
            *best = r;
            return false;
        }
        if (i == 0 || r.seconds < best->seconds)
            *best = r;
    }
    return true;
}

int cli_cmd_emu_bench(int argc, char **argv)
{
    bench_opts o = {1, CLI_SIZE_DEFAULT};
    int rc = parse_bench_args(argc, argv, &o);
    if (rc >= 0)
        return rc;
    uint64_t total_insns = 0;
    double total_s = 0;
    bool ok = true;
    printf("warpsim %s emu-bench: size %s, best of %" PRIu64 " run%s\n\n", WS_VERSION_STRING,
           o.size == CLI_SIZE_SMALL ? "small" : "default", o.repeat, o.repeat == 1 ? "" : "s");
    printf("%-12s %-14s %16s %10s %12s\n", "kernel", "grid x block", "thread insns",
           "seconds", "M thr-ins/s");
    for (const cli_workload *w = cli_workloads; w->name; w++) {
        cli_result r;
        if (!bench_one(w, &o, &r)) {
            printf("%-12s FAIL: %s\n", w->name, r.detail[0] ? r.detail : "wrong result");
            ok = false;
            continue;
        }
        printf("%-12s %-14s %16" PRIu64 " %10.4f %12.2f\n", w->name, r.config,
               r.stats.thread_insns, r.seconds, mips(r.stats.thread_insns, r.seconds));
        fflush(stdout);
        total_insns += r.stats.thread_insns;
        total_s += r.seconds;
    }
    printf("%-12s %-14s %16" PRIu64 " %10.4f %12.2f\n", "total", "", total_insns, total_s,
           mips(total_insns, total_s));
    return ok ? CLI_EXIT_OK : CLI_EXIT_FAIL;
}
