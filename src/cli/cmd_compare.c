/*
** cmd_compare.c -- `warpsim compare`: the main job.  Runs bundled
** benchmarks on the timing model under several warp schedulers (default:
** every registered one) on one machine, checks that each run verifies,
** and prints per benchmark and scheduler the cycles, the speedup over the
** first scheduler, and the L1D hit rate, plus the geometric-mean speedup.
** --json FILE writes the same matrix for plots.
*/
#include "cli.h"
#include "cli_bench.h"
#include "policy/policy.h"
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CMP_MAX_NAMES 64
#define CMP_MAX_SCHEDS 16

/* A cross-section of the suite: cache-sensitive, streaming and compute
   kernels, with and without barriers. */
static const char *const cmp_default_names[] = {
    "kmeans", "bfs", "spmv", "memcached", "btree", "particlefilter", "mummer",
    "triad", "transpose", "sgemm", "hotspot", "nbody", "blackscholes", "nw", NULL
};

static const char cmp_usage[] =
    "usage: warpsim compare [--config NAME|FILE] [--set key=value]... [--threads N]\n"
    "                       [--plugin FILE.so]... [--schedulers a,b,...]\n"
    "                       [--size tiny|small|default]\n"
    "                       [--json FILE] [--rebuild] [--bench-dir DIR] [--bin-dir DIR]\n"
    "                       [NAME...]\n"
    "  Compare warp schedulers on bundled benchmarks (default: a cross-section\n"
    "  of the suite) on the timing model (default machine gtx480, size tiny).\n"
    "  Every run must verify (PASS).  Prints, per benchmark and scheduler,\n"
    "  simulated cycles, speedup over the first scheduler listed, and the L1D\n"
    "  hit rate; then the geometric-mean speedup.  --schedulers defaults to\n"
    "  every registered warp scheduler (see `warpsim policies`), those of the\n"
    "  plug-ins included.  --plugin FILE.so (repeatable) loads a policy plug-in\n"
    "  into every run, so --schedulers may name its warp schedulers.  --threads N\n"
    "  runs the timing model on N host threads (--set threads=N; the results are\n"
    "  the same for every N).  Programs are built with nvcc (CUDA 13) when\n"
    "  missing, as by `warpsim bench run`.\n"
    "  Exit status: 0 all ran and verified, 1 a run failed, 2 usage error (a\n"
    "  plug-in that cannot be loaded included).\n";

typedef struct cmp_cli {
    bench_timing_req q;
    const char *bench_dir, *json;
    const char *sched_list;   /* --schedulers, checked once plug-ins are loaded */
    ws_registry *reg;         /* built-ins + plug-ins; scheds may point into it */
    char scheds_buf[512];
    const char *scheds[CMP_MAX_SCHEDS];
    int nscheds;
    const char *names[CMP_MAX_NAMES];
    int nnames;
} cmp_cli;

/* Split "a,b,c" into c->scheds; every name must be a warp scheduler of
   c->reg (a plug-in's included). */
static int cmp_schedulers(cmp_cli *c, const char *list)
{
    snprintf(c->scheds_buf, sizeof c->scheds_buf, "%s", list);
    c->nscheds = 0;
    for (char *s = strtok(c->scheds_buf, ","); s; s = strtok(NULL, ",")) {
        if (!ws_registry_find(c->reg, WS_KIND_WARP, s)) {
            char names[512];
            ws_registry_names(c->reg, WS_KIND_WARP, names, sizeof names);
            cli_error("compare", "unknown warp scheduler '%s' (valid: %s)", s, names);
            return -1;
        }
        if (c->nscheds == CMP_MAX_SCHEDS) {
            cli_error("compare", "too many schedulers (at most %d)", CMP_MAX_SCHEDS);
            return -1;
        }
        c->scheds[c->nscheds++] = s;
    }
    if (!c->nscheds) {
        cli_error("compare", "--schedulers: no scheduler named");
        return -1;
    }
    return 0;
}

static int cmp_parse(cmp_cli *c, int argc, char **argv)
{
    static const cli_opt opts[] = {
        {"help", false}, {"config", true}, {"set", true}, {"size", true}, {"rebuild", false},
        {"schedulers", true}, {"json", true}, {"bench-dir", true}, {"bin-dir", true},
        {"plugin", true}, {"threads", true}, {NULL, false}};
    cli_iter it;
    const char *name, *v;
    int r;
    cli_iter_init(&it, argc, argv, opts);
    while ((r = cli_iter_next(&it, &name, &v)) != CLI_ITER_END) {
        if (r == CLI_ITER_ERROR) return CLI_EXIT_USAGE;
        if (r == CLI_ITER_POSITIONAL) {
            if (c->nnames == CMP_MAX_NAMES) return CLI_EXIT_USAGE;
            c->names[c->nnames++] = v;
        } else if (strcmp(name, "help") == 0) {
            fputs(cmp_usage, stdout);
            return CLI_EXIT_OK;
        } else if (strcmp(name, "json") == 0) c->json = v;
        else if (strcmp(name, "schedulers") == 0) c->sched_list = v;
        else if ((r = bench_timing_option(&c->q, &c->bench_dir, name, v,
                                            BENCH_TIMING_MAX_SETS - 2, true)) <= 0) {
            /* one --set slot stays for warp_scheduler=..., one for the NULL */
            return CLI_EXIT_USAGE;
        }
    }
    /* the plug-ins first: --schedulers may name their schedulers */
    if (!(c->reg = cli_registry_open("compare", c->q.plugins))) return CLI_EXIT_USAGE;
    if (c->sched_list && cmp_schedulers(c, c->sched_list)) return CLI_EXIT_USAGE;
    const ws_warp_sched_ops *o;
    for (size_t i = 0; !c->sched_list && (o = ws_registry_nth(c->reg, WS_KIND_WARP, i))
                       && c->nscheds < CMP_MAX_SCHEDS; i++)
        c->scheds[c->nscheds++] = o->name;
    return -1;
}

/* Run every benchmark under every scheduler into res[b * nscheds + s];
   returns the number of failed runs (their cycles stay 0). */
static int cmp_run_all(cmp_cli *c, const bench_manifest *m, const bench_entry *const *list,
                       int n, bench_timing *res)
{
    char set[128];
    int failed = 0;
    c->q.sets[c->q.nsets] = set;        /* the scheduler goes last: it wins */
    c->q.nsets++;
    for (int b = 0; b < n; b++) {
        fprintf(stderr, "compare: %s (%d of %d) under %d schedulers\n", list[b]->name, b + 1,
                n, c->nscheds);
        for (int s = 0; s < c->nscheds; s++) {
            snprintf(set, sizeof set, "warp_scheduler=%s", c->scheds[s]);
            if (bench_timing_run(&c->q, m, list[b], &res[b * c->nscheds + s])) failed++;
        }
    }
    c->q.nsets--;
    return failed;
}

static double hit_rate(const bench_timing *t)
{
    return t->l1d_accesses ? (double)t->l1d_hits / (double)t->l1d_accesses : 0.0;
}

static void cmp_print(const cmp_cli *c, const bench_entry *const *list, int n,
                      const bench_timing *res)
{
    printf("warpsim compare: warp schedulers on %s, size %s\n",
           c->q.config ? c->q.config : "gtx480", bench_size_names[c->q.size]);
    printf("per scheduler: simulated cycles, speedup over %s, L1D hit rate\n\n", c->scheds[0]);
    printf("%-15s", "benchmark");
    for (int s = 0; s < c->nscheds; s++) printf(" %24s", c->scheds[s]);
    printf("\n");
    double logsum[CMP_MAX_SCHEDS] = { 0 };
    int counted = 0;
    for (int b = 0; b < n; b++) {
        const bench_timing *row = &res[b * c->nscheds];
        bool complete = true;
        printf("%-15s", list[b]->name);
        for (int s = 0; s < c->nscheds; s++) {
            if (!row[s].cycles) { printf(" %24s", "failed"); complete = false; continue; }
            double sp = row[0].cycles ? (double)row[0].cycles / (double)row[s].cycles : 0.0;
            printf(" %12" PRIu64 " %5.2fx %4.2f", row[s].cycles, sp, hit_rate(&row[s]));
        }
        printf("\n");
        if (!complete) continue;
        counted++;
        for (int s = 0; s < c->nscheds; s++)
            logsum[s] += log((double)row[0].cycles / (double)row[s].cycles);
    }
    printf("%-15s", "geomean");
    for (int s = 0; s < c->nscheds; s++)
        printf(" %18.3fx%s", counted ? exp(logsum[s] / counted) : 0.0,
               s + 1 < c->nscheds ? "     " : "");
    printf("\n");
}

/* The matrix as JSON: {config, size, schedulers[], benchmarks: {name: {sched: {...}}}} */
static int cmp_write_json(const cmp_cli *c, const bench_entry *const *list, int n,
                          const bench_timing *res)
{
    FILE *f = fopen(c->json, "w");
    if (!f) {
        cli_error("compare", "cannot write %s", c->json);
        return -1;
    }
    fprintf(f, "{\n  \"config\": \"%s\",\n  \"size\": \"%s\",\n  \"schedulers\": [",
            c->q.config ? c->q.config : "gtx480", bench_size_names[c->q.size]);
    for (int s = 0; s < c->nscheds; s++) fprintf(f, "%s\"%s\"", s ? ", " : "", c->scheds[s]);
    fprintf(f, "],\n  \"benchmarks\": {\n");
    for (int b = 0; b < n; b++) {
        fprintf(f, "    \"%s\": {", list[b]->name);
        for (int s = 0; s < c->nscheds; s++) {
            const bench_timing *t = &res[b * c->nscheds + s];
            fprintf(f, "%s\n      \"%s\": {\"cycles\": %" PRIu64 ", \"thread_insns\": %" PRIu64
                    ", \"l1d_accesses\": %" PRIu64 ", \"l1d_hits\": %" PRIu64 "}",
                    s ? "," : "", c->scheds[s], t->cycles, t->thread_insns, t->l1d_accesses,
                    t->l1d_hits);
        }
        fprintf(f, "\n    }%s\n", b + 1 < n ? "," : "");
    }
    fprintf(f, "  }\n}\n");
    return fclose(f) == 0 ? 0 : -1;
}

/* Prepare, run every benchmark under every scheduler, report. */
static int cmp_main(cmp_cli *c)
{
    bench_manifest m;
    const bench_entry *list[CMP_MAX_NAMES];
    int n;
    int rc = bench_timing_prepare(&c->q, c->bench_dir, c->names, c->nnames, cmp_default_names,
                                  &m, list, CMP_MAX_NAMES, &n);
    if (rc >= 0) return rc;
    bench_timing *res = calloc((size_t)n * (size_t)c->nscheds + 1, sizeof *res);
    if (!res) {
        bench_manifest_free(&m);
        return CLI_EXIT_FAIL;
    }
    int failed = cmp_run_all(c, &m, list, n, res);
    cmp_print(c, list, n, res);
    if (c->json && cmp_write_json(c, list, n, res)) failed++;
    free(res);
    bench_manifest_free(&m);
    return failed ? CLI_EXIT_FAIL : CLI_EXIT_OK;
}

int cli_cmd_compare(int argc, char **argv)
{
    cmp_cli c = { .q = { .cmd = "compare", .size = BENCH_TINY } };
    int rc = cmp_parse(&c, argc, argv);
    if (rc < 0) rc = cmp_main(&c);
    ws_registry_free(c.reg);   /* last: the scheduler names may live in a plug-in */
    return rc;
}
