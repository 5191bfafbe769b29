/*
** bench_timing.c -- run one bundled benchmark on the timing model and read
** its totals back: the step `warpsim timing-bench` and `warpsim compare`
** share.  The program is built if needed (bench_exec.c), run through the
** exec machinery with `--config`, the `--set` overrides and
** `--stats-json` into a temporary file, and must verify (PASS).
*/
#include "cli.h"
#include "cli_bench.h"
#include <jansson.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The "total" object of a `warpsim exec --stats-json` file. */
static int read_totals(const char *path, bench_timing *t)
{
    json_error_t err;
    json_t *root = json_load_file(path, 0, &err);
    json_t *tot = root ? json_object_get(root, "total") : NULL;
    json_t *ti = tot ? json_object_get(tot, "thread_insns") : NULL;
    json_t *cy = tot ? json_object_get(tot, "cycles") : NULL;
    json_t *acc = tot ? json_object_get(tot, "l1d_accesses") : NULL;
    json_t *hit = tot ? json_object_get(tot, "l1d_hits") : NULL;
    int rc = json_is_integer(ti) && json_is_integer(cy) ? 0 : -1;
    if (rc == 0) {
        t->thread_insns = (uint64_t)json_integer_value(ti);
        t->cycles = (uint64_t)json_integer_value(cy);
        t->l1d_accesses = json_is_integer(acc) ? (uint64_t)json_integer_value(acc) : 0;
        t->l1d_hits = json_is_integer(hit) ? (uint64_t)json_integer_value(hit) : 0;
    }
    json_decref(root);
    return rc;
}

int bench_timing_run(const bench_timing_req *q, const bench_manifest *m,
                     const bench_entry *e, bench_timing *t)
{
    char bin[PATH_MAX], json[PATH_MAX];
    const char *dir = getenv("TMPDIR");
    memset(t, 0, sizeof *t);
    if (bench_bin_path(q->bin_dir, e->name, bin, sizeof bin)
        || bench_build(m, e, bin, q->rebuild, q->cmd))
        return -1;
    if (q->stats_out) {
        snprintf(json, sizeof json, "%s", q->stats_out);
    } else {
        snprintf(json, sizeof json, "%s/warpsim-timing-XXXXXX", dir && *dir ? dir : "/tmp");
        int fd = mkstemp(json);
        if (fd < 0) {
            cli_error(q->cmd, "cannot create a temporary file in %s", dir && *dir ? dir : "/tmp");
            return -1;
        }
        close(fd);
    }
    char *opts[2 * BENCH_TIMING_MAX_SETS + 2 * BENCH_TIMING_MAX_PLUGINS + 10];
    char plugins[sizeof q->plugins];
    int n = 0;
    opts[n++] = "--config";
    opts[n++] = (char *)(q->config ? q->config : "gtx480");
    for (int i = 0; i < q->nsets && i < BENCH_TIMING_MAX_SETS; i++) {
        opts[n++] = "--set";
        opts[n++] = (char *)q->sets[i];
    }
    /* one --plugin per file: the list split in a copy */
    snprintf(plugins, sizeof plugins, "%s", q->plugins);
    int np = 0;
    for (char *save = NULL, *p = strtok_r(plugins, ":", &save);
         p && np < BENCH_TIMING_MAX_PLUGINS; p = strtok_r(NULL, ":", &save), np++) {
        opts[n++] = "--plugin";
        opts[n++] = p;
    }
    opts[n++] = "--stats-json";
    opts[n++] = json;
    if (q->report_out) {
        opts[n++] = "--timing-report";
        opts[n++] = (char *)q->report_out;
    }
    opts[n++] = "--quiet";
    opts[n] = NULL;
    bench_outcome o;
    double t0 = cli_now();
    int rc = bench_run_program(e, bin, q->size, NULL, opts, false, &o);
    t->seconds = cli_now() - t0;
    if (rc || o.exit_status != 0 || strncmp(o.verdict, "PASS ", 5) != 0) {
        cli_error(q->cmd, "%s: %s (exit status %d)", e->name,
                  o.verdict[0] ? o.verdict : "no PASS line", rc ? -1 : o.exit_status);
        rc = -1;
    } else if (read_totals(json, t)) {
        cli_error(q->cmd, "%s: no statistics in %s", e->name, json);
        rc = -1;
    }
    if (!q->stats_out) unlink(json);
    return rc;
}

int bench_timing_option(bench_timing_req *q, const char **bench_dir, const char *name,
                        const char *value, int max_sets, bool allow_default_size)
{
    if (strcmp(name, "config") == 0) q->config = value;
    else if (strcmp(name, "bench-dir") == 0) *bench_dir = value;
    else if (strcmp(name, "bin-dir") == 0) q->bin_dir = value;
    else if (strcmp(name, "rebuild") == 0) q->rebuild = true;
    else if (strcmp(name, "plugin") == 0) {
        size_t n = 0;
        for (const char *p = q->plugins; *p; p++) n += *p == ':';
        if (q->plugins[0] && n + 1 >= BENCH_TIMING_MAX_PLUGINS) {
            cli_error(q->cmd, "too many --plugin (at most %d)", BENCH_TIMING_MAX_PLUGINS);
            return -1;
        }
        if (!cli_plugin_add(q->cmd, q->plugins, sizeof q->plugins, value)) return -1;
    } else if (strcmp(name, "set") == 0 || strcmp(name, "threads") == 0) {
        bool threads = name[0] == 't';
        if (threads && !cli_threads_setting(q->cmd, value, q->threads, NULL)) return -1;
        if (q->nsets >= max_sets) {
            cli_error(q->cmd, "too many --set%s (at most %d)", threads ? " and --threads" : "",
                      max_sets);
            return -1;
        }
        /* every slot of the one --threads buffer reads the last value */
        q->sets[q->nsets++] = threads ? q->threads : value;
    } else if (strcmp(name, "size") == 0) {
        q->size = bench_size_index(value);
        if (q->size < 0 || (!allow_default_size && q->size == BENCH_DEFAULT)) {
            cli_error(q->cmd, "--size '%s': expected tiny, small%s", value,
                      allow_default_size ? " or default" : "");
            return -1;
        }
    } else
        return 0;
    return 1;
}

void bench_timing_warn_once(const char *cmd, const char *warn)
{
    if (warn && warn[0]) cli_error(cmd, "warning: %s", warn);
    setenv("WARPSIM_CONFIG_WARNED", "1", 1);
}

int bench_timing_prepare(bench_timing_req *q, const char *bench_dir, const char *const *names,
                         int nnames, const char *const *defaults, bench_manifest *m,
                         const bench_entry **list, int max, int *n)
{
    char warn[16384], err[2048];   /* a GPGPU-Sim file names every option */
    q->sets[q->nsets] = NULL;
    ws_options o = { .timing = 1, .config = q->config, .settings = q->sets,
                     .plugins = q->plugins };
    if (ws_options_check(&o, NULL, NULL, warn, sizeof warn, err, sizeof err) != WS_OK) {
        cli_error(q->cmd, "%s", err);
        return CLI_EXIT_USAGE;
    }
    bench_timing_warn_once(q->cmd, warn);
    if (bench_manifest_load(m, bench_dir, q->cmd)) return CLI_EXIT_FAIL;
    *n = 0;
    for (int i = 0; i < nnames && *n < max; i++)
        if (!(list[(*n)++] = bench_find(m, names[i], q->cmd))) {
            bench_manifest_free(m);
            return CLI_EXIT_USAGE;
        }
    for (int i = 0; !nnames && defaults && defaults[i] && *n < max; i++)
        if ((list[*n] = bench_find(m, defaults[i], q->cmd))) (*n)++;
    for (int i = 0; !nnames && !defaults && i < m->n && *n < max; i++)
        list[(*n)++] = &m->entries[i];
    return -1;
}
