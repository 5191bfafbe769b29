/*
** sweep_out.c -- the outputs of `warpsim sweep` that hold runs: looking a
** statistic up by path in a run's JSON, one runs.jsonl line per run, the
** records --resume takes back, and results.csv (one row per point in point
** order, no wall times: byte-identical at any --jobs).
*/
#include "cli.h"
#include "sweep.h"
#include <errno.h>
#include <inttypes.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Element of array `a` selected by `sel`: a decimal index, or the object
   whose "name" (or "demangled" up to its parameter list) equals sel. */
static json_t *select_elem(json_t *a, const char *sel, size_t n)
{
    char *end;
    unsigned long k = strtoul(sel, &end, 10);
    if (end == sel + n && n) return json_array_get(a, k);
    json_t *v;
    size_t i;
    json_array_foreach(a, i, v) {
        const char *nm = json_string_value(json_object_get(v, "name"));
        const char *dm = json_string_value(json_object_get(v, "demangled"));
        if (nm && strlen(nm) == n && strncmp(nm, sel, n) == 0) return v;
        if (dm && strncmp(dm, sel, n) == 0 && (dm[n] == '\0' || dm[n] == '(')) return v;
    }
    return NULL;
}

void *sweep_lookup(const sweep_result *r, const char *path)
{
    json_t *cur = r->stats;
    if (strncmp(path, "report.", 7) == 0) { cur = r->report; path += 7; }
    const char *p = path;
    while (cur && *p) {
        size_t n = strcspn(p, ".[");
        if (n) {
            char key[256];
            snprintf(key, sizeof key, "%.*s", (int)(n < 255 ? n : 255), p);
            cur = json_object_get(cur, key);
            p += n;
        }
        while (cur && *p == '[') {
            const char *e = strchr(p, ']');
            if (!e) return NULL;
            cur = json_is_array(cur) ? select_elem(cur, p + 1, (size_t)(e - p - 1)) : NULL;
            p = e + 1;
        }
        if (*p == '.') p++;
    }
    return cur;
}

/* The point as JSON: labels and what its hash covers. */
static json_t *point_json(const sweep_exp *x, const sweep_point *p)
{
    const sweep_config *c = &x->configs[p->config];
    json_t *set = json_array(), *pl = json_array(), *env = json_object();
    for (int i = 0; i < c->nsets; i++) json_array_append_new(set, json_string(c->sets[i]));
    for (int i = 0; i < c->nplugins; i++) json_array_append_new(pl, json_string(c->plugins[i]));
    for (int i = 0; i < c->nenv; i++) {
        const char *eq = strchr(c->env[i], '=');
        char k[256];
        snprintf(k, sizeof k, "%.*s", (int)(eq - c->env[i]), c->env[i]);
        json_object_set_new(env, k, json_string(eq + 1));
    }
    return json_pack("{s:s, s:s, s:s, s:s, s:o, s:o, s:o, s:o}",
                     "benchmark", x->benches[p->bench].name,
                     "size", sweep_size_names[x->sizes[p->size]],
                     "config", c->name, "machine", c->config ? c->config : "gtx480",
                     "set", set, "plugins", pl, "env", env,
                     "seed", p->seed >= 0 ? json_integer((json_int_t)x->seeds[p->seed])
                                          : json_null());
}

int sweep_jsonl_write(void *fp, const sweep_exp *x, const sweep_point *p, const sweep_result *r,
                      const char *version)
{
    FILE *f = fp;
    char hash[32];
    snprintf(hash, sizeof hash, "%016" PRIx64, p->hash);
    json_t *o = json_pack("{s:s, s:o, s:s, s:s, s:i, s:s, s:f, s:s}", "experiment", x->name,
                          "point", point_json(x, p), "hash", hash,
                          "status", sweep_status_names[r->status], "exit_status", r->exit_status,
                          "verdict", r->verdict, "wall_s", r->seconds, "version", version);
    if (!o) return -1;
    json_object_set(o, "stats", r->stats ? r->stats : json_null());
    if (x->ts_interval && r->status == SWEEP_OK) {
        char ts[64];
        snprintf(ts, sizeof ts, "runs/%s.ts.json", hash);
        json_object_set_new(o, "timeseries", json_string(ts));
    }
    if (r->report) json_object_set(o, "report", r->report);
    char *s = json_dumps(o, JSON_COMPACT | JSON_ENSURE_ASCII);
    json_decref(o);
    if (!s) return -1;
    int rc = fprintf(f, "%s\n", s) < 0 || fflush(f) != 0 ? -1 : 0;
    free(s);
    return rc;
}

void sweep_ts_path(const char *dir, uint64_t hash, char *buf, size_t len)
{
    snprintf(buf, len, "%s/runs/%016" PRIx64 ".ts.json", dir, hash);
}

/* One line of runs.jsonl: a successful run of `version` whose hash is one
   of the points' takes that point's result (a later line wins). */
static void take_record(json_t *o, const char *version, const sweep_point *pts, int n,
                        sweep_result *res)
{
    const char *v = json_string_value(json_object_get(o, "version"));
    const char *h = json_string_value(json_object_get(o, "hash"));
    const char *st = json_string_value(json_object_get(o, "status"));
    if (!v || !h || !st || strcmp(v, version) || strcmp(st, "ok")) return;
    uint64_t hash = strtoull(h, NULL, 16);
    for (int i = 0; i < n; i++) {
        if (pts[i].hash != hash) continue;
        sweep_result *r = &res[i];
        json_decref(r->stats);
        json_decref(r->report);
        memset(r, 0, sizeof *r);
        r->status = SWEEP_OK;
        r->reused = true;
        r->stats = json_incref(json_object_get(o, "stats"));
        r->report = json_incref(json_object_get(o, "report"));
        snprintf(r->verdict, sizeof r->verdict, "%s",
                 json_string_value(json_object_get(o, "verdict")) ?: "");
        r->seconds = json_number_value(json_object_get(o, "wall_s"));
    }
}

int sweep_resume_load(const char *file, const char *version, const sweep_point *pts, int n,
                      sweep_result *res)
{
    FILE *f = fopen(file, "r");
    if (!f) return errno == ENOENT ? 0 : -1;
    char *line = NULL;
    size_t cap = 0;
    int lineno = 0;
    while (getline(&line, &cap, f) > 0) {
        json_error_t err;
        lineno++;
        json_t *o = json_loads(line, 0, &err);
        /* a line cut short by a killed sweep is skipped: its point reruns */
        if (!json_is_object(o))
            cli_error("sweep", "warning: %s:%d: not a JSON record, ignored", file, lineno);
        else
            take_record(o, version, pts, n, res);
        json_decref(o);
    }
    free(line);
    fclose(f);
    return 0;
}

/* One CSV cell of a statistic: numbers as written, strings quoted. */
static void cell(FILE *f, json_t *v)
{
    if (json_is_integer(v)) fprintf(f, "%" JSON_INTEGER_FORMAT, json_integer_value(v));
    else if (json_is_real(v)) {
        /* the shortest text that reads back as the same double */
        char b[40];
        double d = json_real_value(v);
        snprintf(b, sizeof b, "%.15g", d);
        if (strtod(b, NULL) != d) snprintf(b, sizeof b, "%.17g", d);
        fputs(b, f);
    }
    else if (json_is_boolean(v)) fputs(json_is_true(v) ? "true" : "false", f);
    else if (json_is_string(v)) {
        fputc('"', f);
        for (const char *s = json_string_value(v); *s; s++) {
            if (*s == '"') fputc('"', f);
            fputc(*s, f);
        }
        fputc('"', f);
    }
}

int sweep_write_csv(const char *dir, const sweep_exp *x, const sweep_point *pts, int n,
                    const sweep_result *res)
{
    char path[4200], tmp[4300];
    snprintf(path, sizeof path, "%s/results.csv", dir);
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    FILE *f = fopen(tmp, "w");
    if (!f) {
        cli_error("sweep", "cannot write %s: %s", tmp, strerror(errno));
        return -1;
    }
    fputs("benchmark,size,config,seed,hash,status,exit_status", f);
    for (int s = 0; s < x->nstats; s++) fprintf(f, ",%s", x->stats[s].name);
    fputc('\n', f);
    for (int i = 0; i < n; i++) {
        const sweep_point *p = &pts[i];
        const sweep_result *r = &res[i];
        fprintf(f, "%s,%s,%s,", x->benches[p->bench].name, sweep_size_names[x->sizes[p->size]],
                x->configs[p->config].name);
        if (p->seed >= 0) fprintf(f, "%" PRIu64, x->seeds[p->seed]);
        /* a reused run's exit status was 0: only ok runs are reused */
        fprintf(f, ",%016" PRIx64 ",%s,%d", p->hash, sweep_status_names[r->status],
                r->reused ? 0 : r->exit_status);
        for (int s = 0; s < x->nstats; s++) {
            fputc(',', f);
            if (r->status == SWEEP_OK) cell(f, sweep_lookup(r, x->stats[s].path));
        }
        fputc('\n', f);
    }
    if (fclose(f) != 0 || rename(tmp, path) != 0) {
        cli_error("sweep", "cannot write %s", path);
        return -1;
    }
    return 0;
}
