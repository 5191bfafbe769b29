/*
** cmd_bench_pmem.c -- `warpsim bench pmem`: OWL's PMEM classification
** (specs/owl.md §4, §6).  Each benchmark runs twice on the timing model,
** as configured and with `perfect_l1` (every L1 data, constant and texture
** access hits, nothing goes below L1); PMEM = IPC(perfect L1) / IPC, and a
** benchmark is Type-1 (memory-intensive) when PMEM >= the threshold (1.4,
** as the paper sorts its 38 applications), else Type-2.  IPC is thread
** instructions per core cycle; both runs do the same work, so PMEM is the
** ratio of the cycles.
*/
#include "cli.h"
#include "cli_bench.h"
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define PMEM_MAX_NAMES 128
#define PMEM_THRESHOLD 1.4

static const char pmem_usage[] =
    "usage: warpsim bench pmem [--config NAME|FILE] [--set key=value]...\n"
    "                          [--size tiny|small|default] [--json FILE]\n"
    "                          [--plugin FILE.so]... [--rebuild] [--bench-dir DIR]\n"
    "                          [--bin-dir DIR] [NAME...]\n"
    "  OWL's PMEM classification: run each benchmark (default: all) on the timing\n"
    "  model (default machine owl28, size tiny) as configured and with\n"
    "  perfect_l1=true (every L1 data, constant and texture access hits), and\n"
    "  print per benchmark the cycles and IPC (thread instructions per cycle) of\n"
    "  both, PMEM = IPC(perfect L1) / IPC, and the type: Type-1 (memory-\n"
    "  intensive) when PMEM >= 1.4, else Type-2.  --json FILE writes the table.\n"
    "  Every run must verify (PASS).  Exit status: 0 all ran and verified, 1 a\n"
    "  run failed (its row says so), 2 usage error.\n";

typedef struct pmem_cli {
    bench_timing_req q;
    const char *bench_dir, *json;
    const char *names[PMEM_MAX_NAMES];
    int nnames;
} pmem_cli;

typedef struct pmem_row {
    bench_timing base, perfect;
    bool ok;
} pmem_row;

static double ipc(const bench_timing *t)
{
    return t->cycles ? (double)t->thread_insns / (double)t->cycles : 0.0;
}

static double pmem_of(const pmem_row *r)
{
    return r->ok && ipc(&r->base) > 0 ? ipc(&r->perfect) / ipc(&r->base) : 0.0;
}

static const char *type_of(const pmem_row *r)
{
    return pmem_of(r) >= PMEM_THRESHOLD ? "Type-1" : "Type-2";
}

/* Options; -1 to go on, else the exit status. */
static int pmem_parse(pmem_cli *c, int argc, char **argv)
{
    static const cli_opt opts[] = {
        {"help", false}, {"config", true}, {"set", true}, {"size", true}, {"rebuild", false},
        {"json", true}, {"bench-dir", true}, {"bin-dir", true}, {"plugin", true},
        {NULL, false}};
    cli_iter it;
    const char *name, *v;
    int r;
    cli_iter_init(&it, argc, argv, opts);
    while ((r = cli_iter_next(&it, &name, &v)) != CLI_ITER_END) {
        if (r == CLI_ITER_ERROR) return CLI_EXIT_USAGE;
        if (r == CLI_ITER_POSITIONAL) {
            if (c->nnames == PMEM_MAX_NAMES) {
                cli_error(c->q.cmd, "too many benchmark names (at most %d)", PMEM_MAX_NAMES);
                return CLI_EXIT_USAGE;
            }
            c->names[c->nnames++] = v;
        } else if (strcmp(name, "help") == 0) {
            fputs(pmem_usage, stdout);
            return CLI_EXIT_OK;
        } else if (strcmp(name, "json") == 0) {
            c->json = v;
        } else if (bench_timing_option(&c->q, &c->bench_dir, name, v,
                                       BENCH_TIMING_MAX_SETS - 2, true) <= 0) {
            /* one --set slot stays for perfect_l1=true, one for the NULL */
            return CLI_EXIT_USAGE;
        }
    }
    /* before minutes of runs: can --json be written? */
    if (c->json) {
        bool existed = access(c->json, F_OK) == 0;
        FILE *f = fopen(c->json, "a");
        if (!f) {
            cli_error(c->q.cmd, "--json '%s': cannot write there: %s", c->json, strerror(errno));
            return CLI_EXIT_USAGE;
        }
        fclose(f);
        if (!existed) unlink(c->json);
    }
    return -1;
}

/* Both runs of one benchmark; perfect_l1 goes last, so it wins. */
static void pmem_run_one(pmem_cli *c, const bench_manifest *m, const bench_entry *e,
                         pmem_row *row)
{
    row->ok = bench_timing_run(&c->q, m, e, &row->base) == 0;
    if (!row->ok) return;
    c->q.sets[c->q.nsets++] = "perfect_l1=true";
    row->ok = bench_timing_run(&c->q, m, e, &row->perfect) == 0;
    c->q.nsets--;
}

static void pmem_print(const pmem_cli *c, const bench_entry *const *list, int n,
                       const pmem_row *rows)
{
    printf("warpsim bench pmem: %s, size %s; PMEM = IPC(perfect L1) / IPC, Type-1 when "
           ">= %.1f\n", c->q.config, bench_size_names[c->q.size], PMEM_THRESHOLD);
    printf("%-15s %12s %12s %9s %9s %7s %s\n", "benchmark", "cycles", "perfect-L1",
           "IPC", "IPC-pL1", "PMEM", "type");
    int t1 = 0, ok = 0;
    for (int b = 0; b < n; b++) {
        const pmem_row *r = &rows[b];
        if (!r->ok) {
            printf("%-15s failed (see above)\n", list[b]->name);
            continue;
        }
        ok++;
        t1 += pmem_of(r) >= PMEM_THRESHOLD;
        printf("%-15s %12" PRIu64 " %12" PRIu64 " %9.2f %9.2f %6.2fx %s\n", list[b]->name,
               r->base.cycles, r->perfect.cycles, ipc(&r->base), ipc(&r->perfect),
               pmem_of(r), type_of(r));
    }
    printf("%d benchmarks: %d Type-1, %d Type-2, %d failed\n", n, t1, ok - t1, n - ok);
}

/* {config, size, threshold, benchmarks: {name: {cycles, ..., pmem, type}}} */
static int pmem_write_json(const pmem_cli *c, const bench_entry *const *list, int n,
                           const pmem_row *rows)
{
    FILE *f = fopen(c->json, "w");
    if (!f) {
        cli_error(c->q.cmd, "--json '%s': cannot write there", c->json);
        return -1;
    }
    fprintf(f, "{\n  \"config\": \"%s\",\n  \"size\": \"%s\",\n  \"threshold\": %.2f,\n"
            "  \"benchmarks\": {", c->q.config, bench_size_names[c->q.size], PMEM_THRESHOLD);
    for (int b = 0; b < n; b++) {
        const pmem_row *r = &rows[b];
        fprintf(f, "%s\n    \"%s\": ", b ? "," : "", list[b]->name);
        if (!r->ok) { fprintf(f, "{\"failed\": true}"); continue; }
        fprintf(f, "{\"cycles\": %" PRIu64 ", \"perfect_l1_cycles\": %" PRIu64
                ", \"thread_insns\": %" PRIu64 ", \"ipc\": %.6f, \"perfect_l1_ipc\": %.6f"
                ", \"pmem\": %.6f, \"type\": %d}", r->base.cycles, r->perfect.cycles,
                r->base.thread_insns, ipc(&r->base), ipc(&r->perfect), pmem_of(r),
                pmem_of(r) >= PMEM_THRESHOLD ? 1 : 2);
    }
    fprintf(f, "\n  }\n}\n");
    if (fclose(f) != 0) {
        cli_error(c->q.cmd, "--json '%s': write failed", c->json);
        return -1;
    }
    return 0;
}

int cli_bench_pmem(int argc, char **argv)
{
    pmem_cli c = { .q = { .cmd = "bench pmem", .config = "owl28", .size = BENCH_TINY } };
    int rc = pmem_parse(&c, argc, argv);
    if (rc >= 0) return rc;
    bench_manifest m;
    const bench_entry *list[PMEM_MAX_NAMES];
    int n;
    rc = bench_timing_prepare(&c.q, c.bench_dir, c.names, c.nnames, NULL, &m, list,
                              PMEM_MAX_NAMES, &n);
    if (rc >= 0) return rc;
    pmem_row *rows = calloc((size_t)n + 1, sizeof *rows);
    if (!rows) {
        bench_manifest_free(&m);
        cli_error(c.q.cmd, "out of memory");
        return CLI_EXIT_FAIL;
    }
    int failed = 0;
    for (int b = 0; b < n; b++) {
        fprintf(stderr, "bench pmem: %s (%d of %d)\n", list[b]->name, b + 1, n);
        pmem_run_one(&c, &m, list[b], &rows[b]);
        failed += !rows[b].ok;
    }
    pmem_print(&c, list, n, rows);
    if (c.json && pmem_write_json(&c, list, n, rows)) failed++;
    free(rows);
    bench_manifest_free(&m);
    return failed ? CLI_EXIT_FAIL : CLI_EXIT_OK;
}
