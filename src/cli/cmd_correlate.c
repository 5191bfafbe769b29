/*
** cmd_correlate.c -- `warpsim correlate`: the timing model against
** GPGPU-Sim's own results.  Reads a data set of GPGPU-Sim runs of the
** bundled benchmarks (default configs/gpgpusim/correlation/), runs each on
** warpsim with the data set's GPGPU-Sim config and the run's scheduler,
** and reports cycles, cache miss rates and instruction counts side by side
** with the correlation summary (corr_*.c hold the parts).
*/
#include "cli.h"
#include "cli_bench.h"
#include "corr.h"
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifndef WS_SOURCE_DIR
#define WS_SOURCE_DIR "."
#endif

#define CORR_MAX_NAMES 64
#define CORR_DEFAULT_DATA WS_SOURCE_DIR "/configs/gpgpusim/correlation/gpgpusim-gtx480.json"

static const char corr_usage[] =
    "usage: warpsim correlate [FILE.json] [--size tiny|small] [--jobs N]\n"
    "                         [--config NAME|FILE] [--set key=value]...\n"
    "                         [--json OUT] [--plot FILE] [--rebuild]\n"
    "                         [--bench-dir DIR] [--bin-dir DIR] [NAME...]\n"
    "  Run the benchmarks of a GPGPU-Sim data set (default\n"
    "  configs/gpgpusim/correlation/gpgpusim-gtx480.json) on the timing model\n"
    "  with the same scheduler as each GPGPU-Sim run, on the data set's own\n"
    "  gpgpusim.config (--config another machine; when the data set's config\n"
    "  cannot be loaded the gtx480 preset is used, said on stderr and in the\n"
    "  header).  Only runs GPGPU-Sim completed are compared; the others are\n"
    "  listed as not comparable.  Prints per run: cycles of both, their ratio\n"
    "  (warpsim / GPGPU-Sim), L1D and L2 miss rates of both (GPGPU-Sim's\n"
    "  definition: pending hits are not misses) and whether the thread-\n"
    "  instruction counts are equal (gpu_tot_sim_insn); per benchmark GTO's\n"
    "  gain over LRR in both; then Pearson r of cycles (linear, and of log\n"
    "  cycles), the mean absolute relative error, runs within +-20 %% and +-25 %%,\n"
    "  and whether warpsim's GTO-vs-LRR difference has GPGPU-Sim's sign wherever\n"
    "  GPGPU-Sim's exceeds 3 %%.  --jobs N runs N simulations at once (separate\n"
    "  processes); --json OUT writes the same as JSON; --plot FILE writes\n"
    "  FILE.png and FILE.svg (log-log scatter, y = x) with gnuplot.\n"
    "  Exit status: 0 every comparable run ran and verified, 1 one did not,\n"
    "  2 usage error.\n";

typedef struct corr_cli {
    bench_timing_req q;
    const char *bench_dir, *data, *size;
    corr_opts o;
    int jobs;
    char machine[4200];
    char warn[16384];          /* the chosen machine's configuration warning */
    const char *names[CORR_MAX_NAMES];
    int nnames;
} corr_cli;

/* A positional: the data set (only first, ending .json) or a NAME. */
static int corr_positional(corr_cli *c, const char *v)
{
    size_t n = strlen(v);
    if (!c->data && !c->nnames && n > 5 && strcmp(v + n - 5, ".json") == 0) {
        c->data = v;
        return 0;
    }
    if (c->nnames == CORR_MAX_NAMES) {
        cli_error("correlate", "too many benchmark names (at most %d)", CORR_MAX_NAMES);
        return -1;
    }
    c->names[c->nnames++] = v;
    return 0;
}

static int corr_option(corr_cli *c, const char *name, const char *v)
{
    int64_t j;
    if (strcmp(name, "json") == 0) c->o.json = v;
    else if (strcmp(name, "plot") == 0) {
        if (strpbrk(v, "'\"\n")) {
            cli_error("correlate", "--plot '%s': the name may not hold quotes or newlines", v);
            return -1;
        }
        c->o.plot = v;
    } else if (strcmp(name, "jobs") == 0) {
        if (!cli_parse_i64(v, 1, 64, &j)) {
            cli_error("correlate", "--jobs '%s': expected a number from 1 to 64", v);
            return -1;
        }
        c->jobs = (int)j;
    } else if (strcmp(name, "size") == 0) {
        if (strcmp(v, "tiny") && strcmp(v, "small")) {
            cli_error("correlate", "--size '%s': expected tiny or small (the data set's "
                      "sizes)", v);
            return -1;
        }
        c->size = v;
        c->q.size = bench_size_index(v);
    } else if (bench_timing_option(&c->q, &c->bench_dir, name, v,
                                   BENCH_TIMING_MAX_SETS - 2, false) <= 0) {
        /* one --set slot stays for warp_scheduler=..., one for the NULL */
        return -1;
    }
    return 0;
}

static int corr_parse(corr_cli *c, int argc, char **argv)
{
    static const cli_opt opts[] = {
        {"help", false}, {"config", true}, {"set", true}, {"size", true}, {"jobs", true},
        {"json", true}, {"plot", true}, {"rebuild", false}, {"bench-dir", true},
        {"bin-dir", true}, {"plugin", true}, {NULL, false}};
    cli_iter it;
    const char *name, *v;
    int r;
    cli_iter_init(&it, argc, argv, opts);
    while ((r = cli_iter_next(&it, &name, &v)) != CLI_ITER_END) {
        if (r == CLI_ITER_ERROR) return CLI_EXIT_USAGE;
        if (r == CLI_ITER_POSITIONAL) {
            if (corr_positional(c, v)) return CLI_EXIT_USAGE;
        } else if (strcmp(name, "help") == 0) {
            fputs(corr_usage, stdout);
            return CLI_EXIT_OK;
        } else if (corr_option(c, name, v)) {
            return CLI_EXIT_USAGE;
        }
    }
    if (!c->data) c->data = CORR_DEFAULT_DATA;
    if (c->o.plot) {
        char gp[PATH_MAX];
        /* checked before hours of simulation, not after */
        if (!corr_find_gnuplot(gp, sizeof gp, "correlate")) return CLI_EXIT_FAIL;
    }
    return -1;
}

/* Does `config` (with the user's --set) load? The reason into err. */
static bool config_loads(corr_cli *c, const char *config, char *err, size_t len)
{
    c->q.sets[c->q.nsets] = NULL;
    ws_options o = { .timing = 1, .config = config, .settings = c->q.sets,
                     .plugins = c->q.plugins };
    return ws_options_check(&o, NULL, NULL, c->warn, sizeof c->warn, err, len) == WS_OK;
}

/* --config as given, else the data set's config file, else (said on
   stderr and in the header) the gtx480 preset. false: a usage error. */
static bool choose_machine(corr_cli *c, const corr_data *d)
{
    char err[2048];
    if (c->q.config) {
        if (!config_loads(c, c->q.config, err, sizeof err)) {
            cli_error("correlate", "%s", err);
            return false;
        }
        snprintf(c->machine, sizeof c->machine, "%s", c->q.config);
    } else if (d->config[0] && config_loads(c, d->config, err, sizeof err)) {
        c->q.config = d->config;
        snprintf(c->machine, sizeof c->machine, "%s", d->config);
    } else {
        if (d->config[0])
            fprintf(stderr, "warpsim correlate: the data set's config %s does not load (%s); "
                    "using the gtx480 preset\n", d->config, err);
        else if (d->config_rel[0])
            fprintf(stderr, "warpsim correlate: the data set's config %s is neither next to "
                    "it nor one folder up; using the gtx480 preset\n", d->config_rel);
        else
            fprintf(stderr, "warpsim correlate: the data set names no config file "
                    "(source.config_files); using the gtx480 preset\n");
        if (!config_loads(c, "gtx480", err, sizeof err)) {
            cli_error("correlate", "%s", err);
            return false;
        }
        c->q.config = "gtx480";
        snprintf(c->machine, sizeof c->machine, "gtx480 (preset: the data set's config did "
                 "not load)");
    }
    c->o.machine = c->machine;
    /* once for the whole data set, not once per run */
    bench_timing_warn_once("correlate", c->warn);
    return true;
}

static int corr_main(corr_cli *c)
{
    corr_data d;
    bench_manifest m;
    bool usage;
    char tmpdir[] = "/tmp/warpsim-correlate-XXXXXX";
    if (corr_data_load(&d, c->data, c->size, c->names, c->nnames, "correlate", &usage)) {
        corr_data_free(&d);
        return usage ? CLI_EXIT_USAGE : CLI_EXIT_FAIL;
    }
    if (!choose_machine(c, &d)) { corr_data_free(&d); return CLI_EXIT_USAGE; }
    if (bench_manifest_load(&m, c->bench_dir, "correlate")) {
        corr_data_free(&d);
        return CLI_EXIT_FAIL;
    }
    if (!mkdtemp(tmpdir)) {
        cli_error("correlate", "cannot create a temporary folder in /tmp");
        bench_manifest_free(&m);
        corr_data_free(&d);
        return CLI_EXIT_FAIL;
    }
    int failed = corr_run_all(&d, &c->q, &m, c->jobs, tmpdir);
    rmdir(tmpdir);
    corr_summary s;
    corr_summarize(&d, &s);
    corr_print(&d, &c->o, &s);
    fflush(stdout);
    if (c->o.json && corr_write_json(&d, &c->o, &s, "correlate")) failed++;
    if (c->o.plot && corr_plot(&d, &c->o, "correlate")) failed++;
    bench_manifest_free(&m);
    corr_data_free(&d);
    return failed ? CLI_EXIT_FAIL : CLI_EXIT_OK;
}

int cli_cmd_correlate(int argc, char **argv)
{
    corr_cli c = { .q = { .cmd = "correlate", .size = BENCH_TINY }, .size = "tiny",
                   .jobs = 1, .o = { .size = "tiny" } };
    int rc = corr_parse(&c, argc, argv);
    c.o.size = c.size;
    return rc < 0 ? corr_main(&c) : rc;
}
