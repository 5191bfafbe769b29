/*
** main.c -- entry point of the `warpsim` command: global options
** (--help, --version) and the table of subcommands.  Each subcommand lives
** in its own cmd_*.c file; adding one = one file + one line below.
*/
#include "cli.h"
#include <stdio.h>
#include <string.h>

typedef struct cli_command {
    const char *name;
    cli_handler handler;
    const char *args;   /* usage synopsis after the name */
    const char *help;   /* one line */
} cli_command;

static const cli_command commands[] = {
    {"compare", cli_cmd_compare,
     "[--config NAME|FILE] [--plugin FILE.so]... [--schedulers a,b] [--size S] [NAME...]",
     "the main job: warp schedulers compared on bundled benchmarks (timing model)"},
    {"check", cli_cmd_check, "FILE.ptx [--list]",
     "parse a PTX file; list kernels, params, registers, shared memory, directives"},
    {"kernels", cli_cmd_kernels, "FILE.ptx",
     "list the kernel names in a PTX file"},
    {"hints", cli_cmd_hints, "FILE.ptx [KERNEL] [--v2] [--json]",
     "HAWS hint pass: stall points, their long-latency loads, chains and renames"},
    {"run", cli_cmd_run, "FILE.ptx KERNEL --grid X[,Y[,Z]] --block X[,Y[,Z]] [--arg SPEC]... [--dump ARG:N]",
     "run one kernel with arguments from the command line"},
    {"demo", cli_cmd_demo, "",
     "run the bundled kernels (vector add, reduction, BFS) and check them"},
    {"exec", cli_cmd_exec, "[options] -- PROGRAM [ARGS...]",
     "run a CUDA program (nvcc -cudart shared) on the simulator"},
    {"bench", cli_cmd_bench,
     "list | run NAME [--size S] [options] | characterize [--json F] [NAME...]",
     "the bundled benchmark suite: list, build and run, characterize"},
    {"config", cli_cmd_config, "list | show [PRESET|FILE] [--set key=value]... [--json]",
     "timing model machines: presets, every parameter with value and unit"},
    {"policies", cli_cmd_policies, "[--plugin FILE.so]...",
     "scheduling policies and their parameters, plug-ins' too (also --list-policies)"},
    {"correlate", cli_cmd_correlate,
     "[FILE.json] [--size tiny|small] [--jobs N] [--json OUT] [--plot FILE] [NAME...]",
     "the timing model against GPGPU-Sim's results: cycles, miss rates, Pearson r"},
    {"sweep", cli_cmd_sweep,
     "FILE.json [--jobs N] [--out DIR] [--resume] [--dry-run]",
     "run an experiment file's matrix of runs into runs.jsonl and results.csv"},
    {"sweep-collect", cli_cmd_sweep_collect, "DIR",
     "gather a Slurm or GNU parallel sweep's results (after sweep --submit-only)"},
    {"belady", cli_cmd_belady, "FILE [--sets N] [--ways N] [--json]",
     "replay an L1D access trace (--set l1d_trace=FILE) with LRU and Belady-optimal replacement"},
    {"reproduce", cli_cmd_reproduce,
     "PAPER [--size tiny|small|default] [--jobs N] [--out DIR] [--resume] | --list",
     "run a paper's experiment and check its claims: PASS/FAIL/SKIP, report.md"},
    {"timing-bench", cli_cmd_timing_bench, "[--config NAME|FILE] [--size tiny|small] [NAME...]",
     "timing-model speed over the benchmark suite (thread-insns/s, cycles/s)"},
    {"emu-bench", cli_cmd_emu_bench, "[--repeat N] [--size small|default]",
     "functional emulation speed benchmark (thread-instructions per second)"},
    {NULL, NULL, NULL, NULL}
};

static void print_usage(FILE *out)
{
    fprintf(out,
            "warpsim %s -- cycle-level GPU simulator (PTX front end, functional emulator,\n"
            "timing model)\n\n"
            "usage: warpsim [--help | --version | --list-policies]\n"
            "       warpsim COMMAND [ARGS...]     (warpsim COMMAND --help for details)\n\n"
            "commands:\n", WS_VERSION_STRING);
    for (const cli_command *c = commands; c->name; c++)
        fprintf(out, "  %-13s %s\n", c->name, c->help);
    fprintf(out, "\nexit status: 0 success, 1 failure (kernel fault, check FAIL), 2 usage or parse error\n");
}

static void list_commands(FILE *out)
{
    fprintf(out, "valid commands:");
    for (const cli_command *c = commands; c->name; c++)
        fprintf(out, " %s", c->name);
    fprintf(out, "\n");
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        print_usage(stderr);
        return CLI_EXIT_USAGE;
    }
    const char *cmd = argv[1];
    if (strcmp(cmd, "--help") == 0 || strcmp(cmd, "-h") == 0 || strcmp(cmd, "help") == 0) {
        print_usage(stdout);
        return CLI_EXIT_OK;
    }
    if (strcmp(cmd, "--list-policies") == 0)
        return cli_cmd_policies(1, argv + 1);
    if (strcmp(cmd, "--version") == 0) {
        printf("warpsim %s\n", WS_VERSION_STRING);
        return CLI_EXIT_OK;
    }
    for (const cli_command *c = commands; c->name; c++)
        if (strcmp(c->name, cmd) == 0)
            return c->handler(argc - 1, argv + 1);
    /* not in the table: what each task of a remote sweep runs, not a
       command for people (sweep_task.c) */
    if (strcmp(cmd, "run-point") == 0) return cli_cmd_run_point(argc - 1, argv + 1);
    if (cmd[0] == '-')
        fprintf(stderr, "warpsim: unknown option '%s' (valid: --help, --version, "
                "--list-policies)\n", cmd);
    else
        fprintf(stderr, "warpsim: unknown command '%s'\n", cmd);
    list_commands(stderr);
    return CLI_EXIT_USAGE;
}
