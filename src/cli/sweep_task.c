/*
** sweep_task.c -- `warpsim run-point EXPERIMENT INDEX... --out DIR`, the
** hidden command each task of a remote sweep runs (a Slurm array task, a
** GNU parallel job): it runs the given points exactly as the local sweep
** does (sweep_run_all, one point at a time) and leaves each point's
** runs.jsonl record in DIR/points/HASH.json, written to a temporary name and
** renamed, so a collector never reads half a record.
*/
#include "cli.h"
#include "cli_bench.h"
#include "sweep.h"
#include <errno.h>
#include <inttypes.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const char run_point_usage[] =
    "usage: warpsim run-point FILE.json INDEX[,INDEX...]... --out DIR [--bench-dir DIR]\n"
    "                         [--bin-dir DIR]\n"
    "  (internal: what each task of `warpsim sweep --backend slurm|parallel`\n"
    "  runs)  Run the points INDEX (0-based, in the order of `sweep --dry-run`)\n"
    "  of the experiment FILE as `warpsim sweep` runs them, logs in DIR/logs/,\n"
    "  and write each point's runs.jsonl record to DIR/points/HASH.json.\n"
    "  Exit status: 0 every point ok, 1 a point failed, 2 usage error.\n";

void sweep_point_file(const char *shared, uint64_t hash, char *buf, size_t len)
{
    snprintf(buf, len, "%s/points/%016" PRIx64 ".json", shared, hash);
}

static int make_dir(const char *d)
{
    if (mkdir(d, 0777) == 0 || errno == EEXIST) return 0;
    cli_error("run-point", "cannot create %s: %s", d, strerror(errno));
    return -1;
}

/* The folders a point's run writes into (several tasks may race to make
   them: EEXIST is fine). */
static int make_dirs(const char *shared, bool ts)
{
    static const char *const sub[] = {"", "/logs", "/tmp", "/points", "/runs"};
    char d[4200];
    for (int k = 0; k < 5 - !ts; k++) {
        snprintf(d, sizeof d, "%s%s", shared, sub[k]);
        if (make_dir(d)) return -1;
    }
    return 0;
}

/* Run point i alone through sweep_run_all (every other point marked done
   so it skips them) with its record going to a private file, then rename
   that file into place. 1 when the point failed, 0 ok, -1 no file. */
static int run_one(const sweep_opts *o, const sweep_exp *x, const bench_manifest *m,
                   const sweep_point *pts, int n, sweep_result *res, int i)
{
    char dst[4200], tmp[4300];
    sweep_point_file(o->out_dir, pts[i].hash, dst, sizeof dst);
    snprintf(tmp, sizeof tmp, "%s.tmp%ld", dst, (long)getpid());
    FILE *f = fopen(tmp, "w");
    if (!f) {
        cli_error("run-point", "cannot write %s: %s", tmp, strerror(errno));
        return -1;
    }
    for (int k = 0; k < n; k++) res[k].status = k == i ? SWEEP_NOTRUN : SWEEP_OK;
    sweep_run_all(x, m, pts, n, res, o, f);
    bool ok = res[i].status == SWEEP_OK;
    json_decref(res[i].stats);
    json_decref(res[i].report);
    memset(&res[i], 0, sizeof res[i]);
    if (fclose(f) != 0 || rename(tmp, dst) != 0) {
        cli_error("run-point", "cannot write %s: %s", dst, strerror(errno));
        unlink(tmp);
        return -1;
    }
    return ok ? 0 : 1;
}

int sweep_task_run(const sweep_opts *o, const sweep_exp *x, const bench_manifest *m,
                   const sweep_point *pts, int n, const int *idx, int nidx)
{
    if (make_dirs(o->out_dir, x->ts_interval != 0)) return -1;
    sweep_result *res = calloc((size_t)n + 1, sizeof *res);
    if (!res) return -1;
    int failed = 0;
    for (int k = 0; k < nidx; k++) {
        int rc = run_one(o, x, m, pts, n, res, idx[k]);
        if (rc < 0) { failed = -1; break; }
        failed += rc;
    }
    free(res);
    return failed;
}

/* "3,4,5" into idx[] (appended at *nidx); false on anything but indices
   below n. */
static bool parse_indices(const char *s, int n, int *idx, int *nidx)
{
    while (*s) {
        char word[32];
        size_t len = strcspn(s, ",");
        int64_t v;
        if (len == 0 || len >= sizeof word) return false;
        memcpy(word, s, len);
        word[len] = '\0';
        if (!cli_parse_i64(word, 0, n - 1, &v) || *nidx >= n) return false;
        idx[(*nidx)++] = (int)v;
        s += len + (s[len] == ',');
    }
    return true;
}

typedef struct task_cli {
    sweep_opts o;
    const char *file, *bench_dir;
    const char *lists[256];     /* the INDEX arguments, read once the points are known */
    int nlists;
} task_cli;

static int parse(task_cli *c, int argc, char **argv)
{
    static const cli_opt opts[] = {{"help", false}, {"out", true}, {"bench-dir", true},
                                   {"bin-dir", true}, {NULL, false}};
    cli_iter it;
    const char *name, *v;
    int k;
    cli_iter_init(&it, argc, argv, opts);
    while ((k = cli_iter_next(&it, &name, &v)) != CLI_ITER_END) {
        if (k == CLI_ITER_ERROR) return CLI_EXIT_USAGE;
        if (k == CLI_ITER_POSITIONAL) {
            if (!c->file) c->file = v;
            else if (c->nlists < 256) c->lists[c->nlists++] = v;
            else { cli_error("run-point", "too many INDEX arguments"); return CLI_EXIT_USAGE; }
        } else if (strcmp(name, "help") == 0) {
            fputs(run_point_usage, stdout);
            return CLI_EXIT_OK;
        } else if (strcmp(name, "out") == 0) c->o.out_dir = v;
        else if (strcmp(name, "bench-dir") == 0) c->bench_dir = v;
        else if (strcmp(name, "bin-dir") == 0) c->o.bin_dir = v;
    }
    if (!c->file || !c->nlists || !c->o.out_dir) {
        fputs(run_point_usage, stderr);
        return CLI_EXIT_USAGE;
    }
    return -1;
}

/* Load, pick the points, run them. */
static int run_listed(task_cli *c, const sweep_exp *x, const bench_manifest *m)
{
    sweep_point *pts = NULL;
    int n = sweep_points(x, &pts), nidx = 0, rc = CLI_EXIT_USAGE;
    int *idx = n > 0 ? calloc((size_t)n, sizeof *idx) : NULL;
    if (!idx) { free(pts); return CLI_EXIT_FAIL; }
    for (int k = 0; k < c->nlists; k++)
        if (!parse_indices(c->lists[k], n, idx, &nidx)) {
            cli_error("run-point", "INDEX '%s': expected point numbers 0 to %d, comma-separated",
                      c->lists[k], n - 1);
            goto out;
        }
    int failed = sweep_task_run(&c->o, x, m, pts, n, idx, nidx);
    rc = failed ? CLI_EXIT_FAIL : CLI_EXIT_OK;
out:
    free(idx);
    free(pts);
    return rc;
}

int cli_cmd_run_point(int argc, char **argv)
{
    task_cli c = { .o = { .jobs = 1 } };
    char version[128];
    int rc = parse(&c, argc, argv);
    if (rc >= 0) return rc;
    sweep_version(version, sizeof version);
    c.o.version = version;
    bench_manifest m;
    sweep_exp x;
    if (bench_manifest_load(&m, c.bench_dir, "run-point")) return CLI_EXIT_USAGE;
    if (sweep_load(&x, c.file, &m)) rc = CLI_EXIT_USAGE;
    else {
        /* as in `warpsim sweep`: configuration warnings once, in the logs */
        setenv("WARPSIM_CONFIG_WARNED", "1", 1);
        rc = run_listed(&c, &x, &m);
    }
    sweep_free(&x);
    bench_manifest_free(&m);
    return rc;
}
