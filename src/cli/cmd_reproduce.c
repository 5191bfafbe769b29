/*
** cmd_reproduce.c -- `warpsim reproduce PAPER`: a paper's experiment
** (experiments/PAPER.json) run by the sweep's code (sweep_execute), its
** figures, then its claims (experiments/PAPER.claims.json, claims_*.c)
** evaluated over the sweep's tables into DIR/report.md and a verdict line
** per claim.  `--list` shows the papers and whether their files exist yet.
*/
#include "claims.h"
#include "cli.h"
#include "cli_bench.h"
#include "sweep.h"
#include <errno.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static const char reproduce_usage[] =
    "usage: warpsim reproduce PAPER [--size tiny|small|default] [--jobs N] [--out DIR]\n"
    "                         [--resume] [--experiments-dir DIR] [--bench-dir DIR]\n"
    "                         [--bin-dir DIR]\n"
    "       warpsim reproduce --list\n"
    "  Run PAPER's experiment (experiments/PAPER.json, as `warpsim sweep`), draw\n"
    "  its figures, and check each claim of experiments/PAPER.claims.json against\n"
    "  the results: prints `PASS|FAIL|SKIP id: measured vs paper (band)` per claim\n"
    "  and `claims: N passed, M failed, K skipped`, and writes DIR/report.md\n"
    "  (DIR defaults to reproduce-PAPER).  --size runs every benchmark at that\n"
    "  size instead of the experiment's sizes.  PAPER: mascar, ccws, owl,\n"
    "  owl-sens, fetch-dram, haws, demo.\n"
    "  Exit status: 0 every claim passed or was skipped and every run was ok,\n"
    "  1 a claim failed or a run failed, 2 usage, experiment or claims-file error.\n";

typedef struct paper {
    const char *id, *title;
} paper;

static const paper papers[] = {
    {"mascar", "Mascar: Speeding up GPU Warps by Reducing Memory Pitstops (Sethia et al., "
               "HPCA 2015)"},
    {"ccws", "Cache-Conscious Wavefront Scheduling (Rogers et al., MICRO 2012)"},
    {"owl", "OWL: Cooperative Thread Array Aware Scheduling Techniques for Improving GPGPU "
            "Performance (Jog et al., ASPLOS 2013)"},
    {"owl-sens", "OWL's sensitivity to group size and DRAM banks (Figs. 9-10) and to the "
                 "interconnect latency"},
    {"fetch-dram", "Effect of Instruction Fetch and Memory Scheduling on GPU Performance "
                   "(Lakshminarayana and Kim)"},
    {"haws", "Hint-Assisted Scheduling on Modern GPUs (Gong, PhD thesis)"},
    {"demo", "Demonstration: the bundled warp schedulers, GTO against LRR"},
    {NULL, NULL}};

typedef struct repro_cli {
    sweep_opts o;
    const char *paper, *exp_dir, *bench_dir;
    int size;                   /* BENCH_* or -1: the experiment's sizes */
    bool list;
} repro_cli;

static int parse_opt(repro_cli *c, const char *name, const char *v)
{
    int64_t j;
    if (strcmp(name, "help") == 0) { fputs(reproduce_usage, stdout); return CLI_EXIT_OK; }
    if (strcmp(name, "jobs") == 0) {
        if (!cli_parse_i64(v, 1, CLI_POOL_MAX_JOBS, &j)) {
            cli_error("reproduce", "--jobs '%s': expected a number from 1 to %d", v,
                      CLI_POOL_MAX_JOBS);
            return CLI_EXIT_USAGE;
        }
        c->o.jobs = (int)j;
    } else if (strcmp(name, "size") == 0) {
        for (c->size = 0; c->size < 3 && strcmp(sweep_size_names[c->size], v); c->size++) {}
        if (c->size == 3) {
            cli_error("reproduce", "--size '%s': expected tiny, small or default", v);
            return CLI_EXIT_USAGE;
        }
    } else if (strcmp(name, "out") == 0) c->o.out_dir = v;
    else if (strcmp(name, "resume") == 0) c->o.resume = true;
    else if (strcmp(name, "list") == 0) c->list = true;
    else if (strcmp(name, "experiments-dir") == 0) c->exp_dir = v;
    else if (strcmp(name, "bench-dir") == 0) c->bench_dir = v;
    else if (strcmp(name, "bin-dir") == 0) c->o.bin_dir = v;
    return -1;
}

static int parse(repro_cli *c, int argc, char **argv)
{
    static const cli_opt opts[] = {{"help", false}, {"list", false}, {"size", true},
                                   {"jobs", true}, {"out", true}, {"resume", false},
                                   {"experiments-dir", true}, {"bench-dir", true},
                                   {"bin-dir", true}, {NULL, false}};
    cli_iter it;
    const char *name, *v;
    int k, rc;
    cli_iter_init(&it, argc, argv, opts);
    while ((k = cli_iter_next(&it, &name, &v)) != CLI_ITER_END) {
        if (k == CLI_ITER_ERROR) return CLI_EXIT_USAGE;
        if (k != CLI_ITER_POSITIONAL) {
            if ((rc = parse_opt(c, name, v)) >= 0) return rc;
        } else if (c->paper) {
            cli_error("reproduce", "one paper only ('%s' and '%s')", c->paper, v);
            return CLI_EXIT_USAGE;
        } else c->paper = v;
    }
    if (!c->paper && !c->list) { fputs(reproduce_usage, stderr); return CLI_EXIT_USAGE; }
    if (c->paper && c->list) {
        cli_error("reproduce", "--list takes no paper");
        return CLI_EXIT_USAGE;
    }
    return -1;
}

static void paths(const repro_cli *c, const char *id, char *exp, char *cl, size_t len)
{
    snprintf(exp, len, "%s/%s.json", c->exp_dir, id);
    snprintf(cl, len, "%s/%s.claims.json", c->exp_dir, id);
}

static int list(const repro_cli *c)
{
    printf("%-11s %-7s %-6s %-28s %s\n", "paper", "files", "claims", "experiment", "title");
    for (const paper *p = papers; p->id; p++) {
        char exp[4200], cl[4200], e[64];
        paths(c, p->id, exp, cl, sizeof exp);
        bool have = access(exp, R_OK) == 0 && access(cl, R_OK) == 0;
        int n = have ? claims_count(cl) : -1;
        snprintf(e, sizeof e, "experiments/%s.json", p->id);
        if (n >= 0) printf("%-11s %-7s %-6d %-28s %s\n", p->id, "ready", n, e, p->title);
        else printf("%-11s %-7s %-6s %-28s %s\n", p->id, have ? "broken" : "missing", "-", e,
                    p->title);
    }
    return CLI_EXIT_OK;
}

static const paper *find_paper(const char *id)
{
    for (const paper *p = papers; p->id; p++)
        if (strcmp(p->id, id) == 0) return p;
    char known[256];
    size_t o = 0;
    for (const paper *p = papers; p->id && o < sizeof known; p++)
        o += (size_t)snprintf(known + o, sizeof known - o, "%s%s", o ? ", " : "", p->id);
    cli_error("reproduce", "unknown paper '%s' (known: %s; `warpsim reproduce --list`)", id,
              known);
    return NULL;
}

static void command_line(char *buf, size_t len, int argc, char **argv)
{
    size_t o = (size_t)snprintf(buf, len, "warpsim");
    for (int i = 0; i < argc && o < len; i++)
        o += (size_t)snprintf(buf + o, len - o, " %s", argv[i]);
}

/* Evaluate every claim, print its line, write report.md. The exit status:
   2 a claim cannot be computed (the file is wrong), 1 a claim failed or
   the sweep failed (a run, a figure), else 0. */
static int verdict(const repro_cli *c, const sweep_exp *x, claims_file *cf,
                   const bench_manifest *m, claims_report_info *info, int sweep_rc)
{
    claims_table t;
    int cnt[4] = {0}, rc;
    if (claims_table_read(&t, c->o.out_dir, m)) return CLI_EXIT_FAIL;
    claims_result *res = calloc((size_t)cf->n, sizeof *res);
    const char **figs = calloc((size_t)x->nfigures + 1, sizeof *figs);
    if (!res || !figs) { free(res); free(figs); claims_table_free(&t); return CLI_EXIT_FAIL; }
    for (int i = 0; i < x->nfigures; i++) figs[i] = x->figures[i].name;
    info->figures = figs;
    info->nfigures = x->nfigures;
    for (int i = 0; i < cf->n; i++) {
        char line[1400];
        claims_eval(&cf->claims[i], &t, &res[i]);
        cnt[res[i].verdict]++;
        claims_line(line, sizeof line, &cf->claims[i], &res[i]);
        if (res[i].verdict == CLAIMS_ERROR)
            cli_error("reproduce", "%s: claim '%s': %s", cf->path, cf->claims[i].id, res[i].why);
        else printf("%s\n", line);
    }
    rc = claims_write_report(info, cf, res, &t);
    char sum[160];
    claims_summary(sum, sizeof sum, cnt);
    printf("%s\n", sum);
    if (!rc) fprintf(stderr, "reproduce: %s/report.md\n", c->o.out_dir);
    rc = cnt[CLAIMS_ERROR] ? CLI_EXIT_USAGE
       : cnt[CLAIMS_FAIL] || sweep_rc || rc ? CLI_EXIT_FAIL : CLI_EXIT_OK;
    free(res);
    free(figs);
    claims_table_free(&t);
    return rc;
}

static int reproduce(repro_cli *c, const paper *p, const bench_manifest *m, char *cmd)
{
    char exp[4200], cl[4200], version[128];
    struct timespec t0, t1;
    sweep_exp x;
    claims_file cf;
    paths(c, p->id, exp, cl, sizeof exp);
    if (access(exp, R_OK) != 0 || access(cl, R_OK) != 0) {
        cli_error("reproduce", "%s: its experiment is not in this version yet (%s%s%s missing)",
                  p->id, access(exp, R_OK) ? exp : "", access(exp, R_OK) && access(cl, R_OK)
                  ? " and " : "", access(cl, R_OK) ? cl : "");
        return CLI_EXIT_USAGE;
    }
    clock_gettime(CLOCK_MONOTONIC, &t0);
    sweep_version(version, sizeof version);
    c->o.version = version;
    /* both files are checked before anything runs: a bad one wastes no run */
    int rc = sweep_load(&x, exp, m) ? CLI_EXIT_USAGE : -1;
    if (rc < 0 && claims_load(&cf, cl)) { claims_free(&cf); rc = CLI_EXIT_USAGE; }
    if (rc < 0) {
        if (c->size >= 0) { x.sizes[0] = c->size; x.nsizes = 1; }
        setenv("WARPSIM_CONFIG_WARNED", "1", 1);
        int sweep_rc = sweep_execute(&c->o, &x, m);
        clock_gettime(CLOCK_MONOTONIC, &t1);
        claims_report_info info = {p->title, p->id, cmd, version, c->o.out_dir,
                                   (double)(t1.tv_sec - t0.tv_sec)
                                   + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9, NULL, 0};
        rc = verdict(c, &x, &cf, m, &info, sweep_rc);
        claims_free(&cf);
    }
    sweep_free(&x);
    return rc;
}

int cli_cmd_reproduce(int argc, char **argv)
{
    repro_cli c = {.exp_dir = WS_SOURCE_DIR "/experiments", .size = -1};
    char out[512], cmd[2048];
    int rc = parse(&c, argc, argv);
    if (rc >= 0) return rc;
    if (c.list) return list(&c);
    const paper *p = find_paper(c.paper);
    if (!p) return CLI_EXIT_USAGE;
    if (!c.o.out_dir) {
        snprintf(out, sizeof out, "reproduce-%s", p->id);
        c.o.out_dir = out;
    }
    if (!c.o.jobs) {
        long np = sysconf(_SC_NPROCESSORS_ONLN);
        c.o.jobs = np < 1 ? 1 : np > CLI_POOL_MAX_JOBS ? CLI_POOL_MAX_JOBS : (int)np;
    }
    command_line(cmd, sizeof cmd, argc, argv);
    bench_manifest m;
    if (bench_manifest_load(&m, c.bench_dir, "reproduce")) return CLI_EXIT_USAGE;
    rc = reproduce(&c, p, &m, cmd);
    bench_manifest_free(&m);
    return rc;
}
