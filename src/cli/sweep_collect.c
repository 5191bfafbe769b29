/*
** sweep_collect.c -- gathering a remote sweep: the per-point records the
** tasks left in SHARED/points/HASH.json become runs.jsonl (point order),
** results.csv, derived.csv and the figures through the local sweep's own
** output code, so the tables are byte-identical whatever ran the points.
** Also `warpsim sweep-collect DIR`, for login nodes that forbid a client
** that waits: it asks Slurm once, gathers what is there and exits.
*/
#include "cli.h"
#include "cli_bench.h"
#include "sweep.h"
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char collect_usage[] =
    "usage: warpsim sweep-collect DIR\n"
    "  Gather the results of `warpsim sweep --backend slurm|parallel --out DIR`\n"
    "  (e.g. after --submit-only) into DIR/runs.jsonl, DIR/results.csv,\n"
    "  DIR/derived.csv and the figures, from what its tasks have written so\n"
    "  far; asks Slurm once for the tasks still pending or running.\n"
    "  Exit status: 0 every point ok, 1 a point failed or is not done yet,\n"
    "  2 usage error or DIR is not a remote sweep.\n";

static int status_index(const char *s)
{
    for (int k = 0; k < SWEEP_NOTRUN; k++)
        if (s && strcmp(s, sweep_status_names[k]) == 0) return k;
    return -1;
}

/* One record into r; false when it is not one of ours. */
static bool take(json_t *o, const char *version, sweep_result *r)
{
    const char *v = json_string_value(json_object_get(o, "version"));
    int st = status_index(json_string_value(json_object_get(o, "status")));
    if (st < 0 || !v || (version && (strcmp(v, version) || st != SWEEP_OK))) return false;
    json_decref(r->stats);
    json_decref(r->report);
    memset(r, 0, sizeof *r);
    r->status = st;
    r->exit_status = (int)json_integer_value(json_object_get(o, "exit_status"));
    snprintf(r->verdict, sizeof r->verdict, "%s",
             json_string_value(json_object_get(o, "verdict")) ?: "");
    r->seconds = json_number_value(json_object_get(o, "wall_s"));
    /* runs.jsonl keeps the version that ran the point, not the collector's */
    snprintf(r->version, sizeof r->version, "%s", v);
    json_t *s = json_object_get(o, "stats"), *rep = json_object_get(o, "report");
    r->stats = json_is_null(s) ? NULL : json_incref(s);
    r->report = json_incref(rep);
    return true;
}

int sweep_collect_load(const char *shared, const char *version, const sweep_point *pts, int n,
                       sweep_result *res)
{
    int found = 0;
    for (int i = 0; i < n; i++) {
        char path[4200];
        json_error_t err;
        sweep_point_file(shared, pts[i].hash, path, sizeof path);
        json_t *o = json_load_file(path, 0, &err);
        /* the hash in the name is the record's own: a renamed file is not */
        const char *h = json_string_value(json_object_get(o, "hash"));
        if (o && h && strtoull(h, NULL, 16) == pts[i].hash && take(o, version, &res[i])) found++;
        json_decref(o);
    }
    return found;
}

/* A point's time series from the shared folder to the output folder
   (another file system, maybe: copied, not renamed). */
static int copy_ts(const char *shared, const char *out, uint64_t hash)
{
    char src[4200], dst[4200], tmp[4300], buf[65536];
    sweep_ts_path(shared, hash, src, sizeof src);
    sweep_ts_path(out, hash, dst, sizeof dst);
    snprintf(tmp, sizeof tmp, "%s.tmp", dst);
    FILE *in = fopen(src, "rb"), *f = in ? fopen(tmp, "wb") : NULL;
    size_t k;
    int rc = f ? 0 : -1;
    while (f && (k = fread(buf, 1, sizeof buf, in)) > 0)
        if (fwrite(buf, 1, k, f) != k) rc = -1;
    if (in) fclose(in);
    if (f && (fclose(f) != 0 || rc || rename(tmp, dst) != 0)) rc = -1;
    return rc;
}

/* runs.jsonl afresh, in point order (what ran where is in each record). */
static int write_jsonl(const sweep_opts *o, const sweep_exp *x, const sweep_point *pts, int n,
                       const sweep_result *res)
{
    char path[4200];
    snprintf(path, sizeof path, "%s/runs.jsonl", o->out_dir);
    FILE *f = fopen(path, "w");
    if (!f) {
        cli_error("sweep", "cannot write %s: %s", path, strerror(errno));
        return -1;
    }
    int rc = 0;
    for (int i = 0; i < n; i++)
        if (res[i].status != SWEEP_NOTRUN
            && sweep_jsonl_write(f, x, &pts[i], &res[i],
                                 res[i].version[0] ? res[i].version : o->version))
            rc = -1;
    return fclose(f) || rc ? -1 : 0;
}

int sweep_collect_write(const sweep_opts *o, const sweep_exp *x, const sweep_point *pts, int n,
                        sweep_result *res, const char *shared)
{
    int failed = 0, notrun = 0, rc = CLI_EXIT_FAIL;
    bool other = strcmp(shared, o->out_dir) != 0;
    for (int i = 0; i < n; i++) {
        char label[512];
        if (res[i].status == SWEEP_OK && x->ts_interval && other
            && copy_ts(shared, o->out_dir, pts[i].hash)) {
            res[i].status = SWEEP_ERROR;
            snprintf(res[i].verdict, sizeof res[i].verdict, "no time series in %s", shared);
        }
        if (res[i].status == SWEEP_OK) continue;
        /* one line per failed point; those not done yet only counted */
        if (res[i].status == SWEEP_NOTRUN) { notrun++; continue; }
        failed++;
        sweep_point_label(x, &pts[i], label, sizeof label);
        fprintf(stderr, "sweep: %s %s: %s\n", sweep_status_names[res[i].status], label,
                res[i].verdict);
    }
    /* as the local sweep: tables first, figures from them */
    if (write_jsonl(o, x, pts, n, res) == 0 && sweep_write_csv(o->out_dir, x, pts, n, res) == 0
        && sweep_write_derived(o->out_dir, x, pts, n, res) == 0) {
        int fig = sweep_draw_figures(o->out_dir, x);
        rc = failed || notrun || fig ? CLI_EXIT_FAIL : CLI_EXIT_OK;
    }
    printf("sweep: %d point%s, %d ok, %d failed", n, n == 1 ? "" : "s", n - failed - notrun,
           failed);
    if (notrun) printf(", %d not done yet", notrun);
    printf("; %s/results.csv\n", o->out_dir);
    return rc;
}

/* Gather the sweep recorded in DIR/remote.json: load, ask the engine once,
   write. */
static int collect_dir(const char *dir)
{
    sweep_opts o = { .out_dir = dir };
    sweep_remote r;
    sweep_tasks t;
    bench_manifest m;
    sweep_exp x;
    char version[128];
    void *doc = NULL;
    int rc = CLI_EXIT_USAGE;
    sweep_version(version, sizeof version);
    o.version = version;
    if (sweep_remote_load(dir, &o, &r, &t, &doc)) return CLI_EXIT_USAGE;
    if (bench_manifest_load(&m, r.bench_dir, "sweep-collect")) goto out_doc;
    if (sweep_load(&x, r.exp_path, &m) == 0) {
        sweep_point *pts = NULL;
        int n = sweep_points(&x, &pts);
        sweep_result *res = n >= 0 ? calloc((size_t)n + 1, sizeof *res) : NULL;
        for (int i = 0; res && i < n; i++) res[i].status = SWEEP_NOTRUN;
        if (res) {
            sweep_collect_load(r.shared_dir, NULL, pts, n, res);
            /* once: a login node may forbid a client that waits */
            if (t.job[0] && sweep_slurm_poll(&t) != 0)
                cli_error("sweep-collect", "warning: squeue did not answer: the states of "
                          "job %s are unknown", t.job);
            sweep_remote_mark(&r, &t, n, res);
            rc = sweep_collect_write(&o, &x, pts, n, res, r.shared_dir);
        } else rc = CLI_EXIT_FAIL;
        for (int i = 0; res && i < n; i++) { json_decref(res[i].stats); json_decref(res[i].report); }
        free(res);
        free(pts);
        sweep_free(&x);
    }
    bench_manifest_free(&m);
out_doc:
    sweep_tasks_free(&t);
    json_decref(doc);
    return rc;
}

int cli_cmd_sweep_collect(int argc, char **argv)
{
    static const cli_opt opts[] = {{"help", false}, {NULL, false}};
    cli_iter it;
    const char *name, *v, *dir = NULL;
    int k;
    cli_iter_init(&it, argc, argv, opts);
    while ((k = cli_iter_next(&it, &name, &v)) != CLI_ITER_END) {
        if (k == CLI_ITER_ERROR) return CLI_EXIT_USAGE;
        if (k == CLI_ITER_OPT) { fputs(collect_usage, stdout); return CLI_EXIT_OK; }
        if (dir) { cli_error("sweep-collect", "one folder only ('%s')", v); return CLI_EXIT_USAGE; }
        dir = v;
    }
    if (!dir) { fputs(collect_usage, stderr); return CLI_EXIT_USAGE; }
    return collect_dir(dir);
}
