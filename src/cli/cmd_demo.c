/*
** cmd_demo.c -- `warpsim demo`: run the bundled workloads (vector add,
** shared-memory reduction, BFS) on the functional emulator, check each
** against its CPU reference and print a PASS/FAIL table with instruction
** counts.  Exit 1 if any workload fails.
*/
#include "cli.h"
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

static const char demo_usage[] =
    "usage: warpsim demo\n"
    "  Run the bundled kernels (vector add, shared-memory reduction, divergent\n"
    "  BFS) with generated inputs on the functional emulator, check each result\n"
    "  against a CPU reference, and print kernel, grid x block, PASS/FAIL, warp\n"
    "  and thread instruction counts.  Exit 1 if any check fails.\n";

int cli_cmd_demo(int argc, char **argv)
{
    static const cli_opt opts[] = {{"help", false}, {NULL, false}};
    cli_iter it;
    const char *name, *value;
    int kind, failures = 0;
    cli_iter_init(&it, argc, argv, opts);
    while ((kind = cli_iter_next(&it, &name, &value)) != CLI_ITER_END) {
        if (kind == CLI_ITER_OPT) {
            fputs(demo_usage, stdout);
            return CLI_EXIT_OK;
        }
        if (kind == CLI_ITER_POSITIONAL)
            cli_error(argv[0], "unexpected argument '%s'", value);
        return CLI_EXIT_USAGE;
    }
    printf("warpsim %s demo: bundled kernels on the functional emulator\n\n", WS_VERSION_STRING);
    printf("%-12s %-16s %-6s %14s %16s\n", "kernel", "grid x block", "check",
           "warp insns", "thread insns");
    for (const cli_workload *w = cli_workloads; w->name; w++) {
        cli_result r;
        cli_workload_exec(w, CLI_SIZE_SMALL, &r);
        printf("%-12s %-16s %-6s %14" PRIu64 " %16" PRIu64 "\n", w->name, r.config,
               r.pass ? "PASS" : "FAIL", r.stats.warp_insns, r.stats.thread_insns);
        if (!r.pass) {
            printf("  -> %s\n", r.detail[0] ? r.detail : "result differs from the CPU reference");
            failures++;
        }
        fflush(stdout);
    }
    printf("\n%s\n", failures ? "demo: FAILED" : "demo: all kernels PASS");
    return failures ? CLI_EXIT_FAIL : CLI_EXIT_OK;
}
