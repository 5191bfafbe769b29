/*
** cmd_timing_bench.c -- `warpsim timing-bench`: the speed of the timing
** model over the bundled benchmark suite (bench/manifest.json, built and
** run with the `warpsim bench` machinery of bench_exec.c).  Per benchmark
** and in total: thread instructions, simulated cycles, wall seconds,
** thread-instructions per second and simulated cycles per second.
*/
#include "cli.h"
#include "cli_bench.h"
#include <inttypes.h>
#include <jansson.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define TB_MAX_NAMES 64
#define TB_MAX_SETS 16

static const char tb_usage[] =
    "usage: warpsim timing-bench [--config NAME|FILE] [--set key=value]...\n"
    "                            [--size tiny|small] [--rebuild] [--bench-dir DIR]\n"
    "                            [--bin-dir DIR] [NAME...]\n"
    "  Run each named benchmark (default: all of bench/manifest.json) on the\n"
    "  timing model (default machine gtx480, size tiny) and print, per benchmark\n"
    "  and in total, thread instructions, simulated cycles, wall-clock seconds\n"
    "  (whole program run, including building the simulated context), and the\n"
    "  rates thread-instructions/s and simulated cycles/s.  Programs are built\n"
    "  with nvcc when missing, as by `warpsim bench run`.\n"
    "  Exit status: 0 all ran and verified, 1 one failed, 2 usage error.\n";

typedef struct tb_cli {
    const char *config, *bench_dir, *bin_dir;
    const char *sets[TB_MAX_SETS];
    int nsets, size;
    bool rebuild;
    const char *names[TB_MAX_NAMES];
    int nnames;
} tb_cli;

typedef struct tb_row {
    uint64_t thread_insns, cycles;
    double seconds;
} tb_row;

static int tb_parse(tb_cli *c, int argc, char **argv)
{
    static const cli_opt opts[] = {
        {"help", false}, {"config", true}, {"set", true}, {"size", true}, {"rebuild", false},
        {"bench-dir", true}, {"bin-dir", true}, {NULL, false}};
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
        } else if (strcmp(name, "config") == 0) c->config = v;
        else if (strcmp(name, "bench-dir") == 0) c->bench_dir = v;
        else if (strcmp(name, "bin-dir") == 0) c->bin_dir = v;
        else if (strcmp(name, "rebuild") == 0) c->rebuild = true;
        else if (strcmp(name, "set") == 0) {
            if (c->nsets == TB_MAX_SETS) {
                cli_error("timing-bench", "too many --set (at most %d)", TB_MAX_SETS);
                return CLI_EXIT_USAGE;
            }
            c->sets[c->nsets++] = v;
        } else if ((c->size = bench_size_index(v)) < 0 || c->size == BENCH_DEFAULT) {
            cli_error("timing-bench", "--size '%s': expected tiny or small", v);
            return CLI_EXIT_USAGE;
        }
    }
    return -1;
}

/* total.thread_insns and total.cycles of a `warpsim exec --stats-json` file. */
static int read_totals(const char *path, tb_row *row)
{
    json_error_t err;
    json_t *root = json_load_file(path, 0, &err);
    json_t *tot = root ? json_object_get(root, "total") : NULL;
    json_t *ti = tot ? json_object_get(tot, "thread_insns") : NULL;
    json_t *cy = tot ? json_object_get(tot, "cycles") : NULL;
    int rc = json_is_integer(ti) && json_is_integer(cy) ? 0 : -1;
    if (rc == 0) {
        row->thread_insns = (uint64_t)json_integer_value(ti);
        row->cycles = (uint64_t)json_integer_value(cy);
    }
    json_decref(root);
    return rc;
}

static void print_row(const char *name, const tb_row *r, const char *note)
{
    double s = r->seconds > 0 ? r->seconds : 1e-9;
    printf("%-15s %14" PRIu64 " %12" PRIu64 " %9.3f %12.3f %12.3f%s\n", name, r->thread_insns,
           r->cycles, r->seconds, (double)r->thread_insns / s / 1e6, (double)r->cycles / s / 1e6,
           note);
}

/* Build, run and measure one benchmark; 0, or -1 after printing why. */
static int tb_one(const tb_cli *c, const bench_manifest *m, const bench_entry *e, tb_row *row)
{
    char bin[PATH_MAX], json[PATH_MAX];
    const char *dir = getenv("TMPDIR");
    if (bench_bin_path(c->bin_dir, e->name, bin, sizeof bin)
        || bench_build(m, e, bin, c->rebuild, "timing-bench"))
        return -1;
    snprintf(json, sizeof json, "%s/warpsim-tbench-XXXXXX", dir && *dir ? dir : "/tmp");
    int fd = mkstemp(json);
    if (fd < 0) return -1;
    close(fd);
    char *opts[2 * TB_MAX_SETS + 8];
    int n = 0;
    opts[n++] = "--config";
    opts[n++] = (char *)(c->config ? c->config : "gtx480");
    for (int i = 0; i < c->nsets; i++) {
        opts[n++] = "--set";
        opts[n++] = (char *)c->sets[i];
    }
    opts[n++] = "--stats-json";
    opts[n++] = json;
    opts[n++] = "--quiet";
    opts[n] = NULL;
    bench_outcome o;
    double t0 = cli_now();
    int rc = bench_run_program(e, bin, c->size, NULL, opts, false, &o);
    row->seconds = cli_now() - t0;
    if (rc || o.exit_status != 0 || strncmp(o.verdict, "PASS ", 5) != 0) {
        printf("%-15s error: %s (exit status %d)\n", e->name,
               o.verdict[0] ? o.verdict : "no PASS line", rc ? -1 : o.exit_status);
        rc = -1;
    } else if (read_totals(json, row)) {
        printf("%-15s error: no statistics in %s\n", e->name, json);
        rc = -1;
    }
    unlink(json);
    return rc;
}

int cli_cmd_timing_bench(int argc, char **argv)
{
    tb_cli c = { .size = BENCH_TINY };
    int rc = tb_parse(&c, argc, argv);
    if (rc >= 0) return rc;
    char warn[2048], err[2048];
    c.sets[c.nsets] = NULL;
    if (ws_config_check(c.config, c.sets, warn, sizeof warn, err, sizeof err) != WS_OK) {
        cli_error("timing-bench", "%s", err);
        return CLI_EXIT_USAGE;
    }
    bench_manifest m;
    if (bench_manifest_load(&m, c.bench_dir, "timing-bench")) return CLI_EXIT_FAIL;
    const bench_entry *list[TB_MAX_NAMES * 2];
    int n = 0;
    for (int i = 0; i < c.nnames; i++)
        if (!(list[n++] = bench_find(&m, c.names[i], "timing-bench"))) {
            bench_manifest_free(&m);
            return CLI_EXIT_USAGE;
        }
    for (int i = 0; !c.nnames && i < m.n && n < TB_MAX_NAMES * 2; i++) list[n++] = &m.entries[i];
    printf("timing model speed: config %s, size %s, one thread\n",
           c.config ? c.config : "gtx480", bench_size_names[c.size]);
    printf("%-15s %14s %12s %9s %12s %12s\n", "benchmark", "thread-insns", "cycles", "wall-s",
           "M-tinsn/s", "M-cycles/s");
    tb_row total = { 0 };
    int failed = 0;
    for (int i = 0; i < n; i++) {
        tb_row r = { 0 };
        if (tb_one(&c, &m, list[i], &r)) { failed++; fflush(stdout); continue; }
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
