/*
** sweep_file.c -- reading an experiment file (JSON, libjansson) for
** `warpsim sweep`: benchmarks (names or manifest class tags), sizes,
** configs, seeds, the time series to keep, statistics to collect, derived
** metrics and figures (sweep_fig_spec.c).  Every
** refusal names the file and the JSON path of the bad item ("$.configs[1]
** .set[0]"), or file:line:column for a syntax error, so a user can find it.
** Settings themselves are not checked here: a bad --set is one failed run
** of the sweep, as the issue asks, not a refused file.
*/
#include "cli.h"
#include "cli_bench.h"
#include "sweep.h"
#include <jansson.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Print "FILE: PATH: message". Always -1. */
static int bad(const sweep_exp *x, const char *path, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static int bad(const sweep_exp *x, const char *path, const char *fmt, ...)
{
    char msg[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    cli_error("sweep", "%s: %s: %s", x->path, path, msg);
    return -1;
}

static const char *own(sweep_exp *x, const char *s)
{
    char *d = strdup(s);
    char **o = realloc(x->owned, (size_t)(x->nowned + 1) * sizeof *o);
    if (!d || !o) { free(d); if (o) x->owned = o; return NULL; }
    x->owned = o;
    x->owned[x->nowned++] = d;
    return d;
}

/* Reject members of `obj` not in the NULL-terminated `keys`. */
static int only_keys(const sweep_exp *x, const char *path, json_t *obj, const char *const *keys)
{
    const char *k;
    json_t *v;
    json_object_foreach(obj, k, v) {
        bool ok = false;
        for (int i = 0; keys[i] && !ok; i++) ok = strcmp(keys[i], k) == 0;
        if (!ok) {
            char valid[512] = "";
            for (int i = 0; keys[i]; i++)
                snprintf(valid + strlen(valid), sizeof valid - strlen(valid), "%s%s",
                         i ? ", " : "", keys[i]);
            return bad(x, path, "unknown key '%s' (valid: %s)", k, valid);
        }
    }
    return 0;
}

/* A file named relative to the experiment file's folder (absolute kept). */
static const char *rel_path(sweep_exp *x, const char *name)
{
    char buf[PATH_MAX * 2];
    const char *slash = strrchr(x->path, '/');
    if (name[0] == '/' || !slash) return own(x, name);
    snprintf(buf, sizeof buf, "%.*s/%s", (int)(slash - x->path), x->path, name);
    return own(x, buf);
}

/* ------------------------------------------------------------------ */
/* benchmarks, sizes, seeds                                            */
/* ------------------------------------------------------------------ */

static int add_bench(sweep_exp *x, const bench_manifest *m, const bench_entry *e)
{
    for (int i = 0; i < x->nbenches; i++)
        if (x->benches[i].entry == e) return 0;   /* named twice: one row */
    char src[PATH_MAX * 2];
    sweep_bench *b = &x->benches[x->nbenches++];
    b->name = e->name;
    for (int s = 0; s < 3; s++) b->commands[s] = e->commands[s];
    snprintf(src, sizeof src, "%s/%s", m->root, e->source);
    b->source_hash = sweep_file_hash(src);
    b->entry = e;
    return 0;
}

static int load_benches(sweep_exp *x, json_t *root, const bench_manifest *m)
{
    json_t *a = json_object_get(root, "benchmarks"), *v;
    size_t i;
    char path[64];
    if (!json_is_array(a) || !json_array_size(a))
        return bad(x, "$.benchmarks", "expected a non-empty array of names or {\"class\": TAG}");
    x->benches = calloc((size_t)m->n + 1, sizeof *x->benches);
    if (!x->benches) return bad(x, "$.benchmarks", "out of memory");
    json_array_foreach(a, i, v) {
        snprintf(path, sizeof path, "$.benchmarks[%zu]", i);
        const char *name = json_string_value(v);
        json_t *cls = json_is_object(v) ? json_object_get(v, "class") : NULL;
        if (name) {
            int k = 0;
            while (k < m->n && strcmp(m->entries[k].name, name) != 0) k++;
            if (k == m->n) return bad(x, path, "no benchmark '%s' in %s", name, m->path);
            add_bench(x, m, &m->entries[k]);
        } else if (json_is_string(cls) && json_object_size(v) == 1) {
            int found = 0;
            for (int k = 0; k < m->n; k++)
                if (bench_has_class(&m->entries[k], json_string_value(cls))) {
                    add_bench(x, m, &m->entries[k]);
                    found++;
                }
            if (!found)
                return bad(x, path, "no benchmark of class '%s' in %s", json_string_value(cls),
                           m->path);
        } else
            return bad(x, path, "expected a benchmark name or {\"class\": TAG}");
    }
    return 0;
}

static int load_sizes(sweep_exp *x, json_t *root)
{
    json_t *a = json_object_get(root, "sizes"), *v;
    size_t i;
    char path[64];
    if (!a) { x->sizes[0] = BENCH_TINY; x->nsizes = 1; return 0; }
    if (!json_is_array(a) || !json_array_size(a) || json_array_size(a) > 3)
        return bad(x, "$.sizes", "expected an array of 1 to 3 of tiny, small, default");
    json_array_foreach(a, i, v) {
        snprintf(path, sizeof path, "$.sizes[%zu]", i);
        int s = json_is_string(v) ? bench_size_index(json_string_value(v)) : -1;
        if (s < 0) return bad(x, path, "expected tiny, small or default");
        for (int k = 0; k < x->nsizes; k++)
            if (x->sizes[k] == s) return bad(x, path, "size given twice");
        x->sizes[x->nsizes++] = s;
    }
    return 0;
}

static int load_seeds(sweep_exp *x, json_t *root)
{
    json_t *a = json_object_get(root, "seeds"), *v;
    size_t i;
    char path[64];
    if (!a) return 0;
    if (!json_is_array(a)) return bad(x, "$.seeds", "expected an array of integers >= 0");
    x->seeds = calloc(json_array_size(a) + 1, sizeof *x->seeds);
    if (!x->seeds) return bad(x, "$.seeds", "out of memory");
    json_array_foreach(a, i, v) {
        snprintf(path, sizeof path, "$.seeds[%zu]", i);
        if (!json_is_integer(v) || json_integer_value(v) < 0)
            return bad(x, path, "expected an integer >= 0");
        x->seeds[x->nseeds++] = (uint64_t)json_integer_value(v);
    }
    return 0;
}

/* ------------------------------------------------------------------ */
/* configs                                                             */
/* ------------------------------------------------------------------ */

/* An array of strings into out[0..*n), at most max. */
static int str_list(sweep_exp *x, const char *path, json_t *a, const char **out, int *n, int max)
{
    json_t *v;
    size_t i;
    char p[256];
    if (!a) return 0;
    if (!json_is_array(a)) return bad(x, path, "expected an array of strings");
    json_array_foreach(a, i, v) {
        snprintf(p, sizeof p, "%s[%zu]", path, i);
        if (!json_is_string(v)) return bad(x, p, "expected a string");
        if (*n >= max) return bad(x, p, "too many (at most %d)", max);
        out[(*n)++] = json_string_value(v);
    }
    return 0;
}

static bool env_name_ok(const char *k)
{
    if (!k[0] || (k[0] >= '0' && k[0] <= '9')) return false;
    for (const char *p = k; *p; p++)
        if (!((*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') || *p == '_')) return false;
    return true;
}

static int load_env(sweep_exp *x, const char *path, json_t *o, sweep_config *c)
{
    const char *k;
    json_t *v;
    char p[256], kv[1024];
    if (!o) return 0;
    if (!json_is_object(o)) return bad(x, path, "expected an object of NAME: \"value\"");
    json_object_foreach(o, k, v) {
        snprintf(p, sizeof p, "%s.%s", path, k);
        if (!env_name_ok(k)) return bad(x, p, "not an environment variable name (A-Z, 0-9, _)");
        if (!json_is_string(v)) return bad(x, p, "expected a string");
        if (c->nenv >= SWEEP_MAX_ENV) return bad(x, p, "too many (at most %d)", SWEEP_MAX_ENV);
        snprintf(kv, sizeof kv, "%s=%s", k, json_string_value(v));
        if (!(c->env[c->nenv++] = own(x, kv))) return bad(x, p, "out of memory");
    }
    return 0;
}

/* A config's "benchmarks": names or {"class": TAG}, as the top-level list,
   each among the experiment's benchmarks; the config runs only on those. */
static int load_only(sweep_exp *x, const char *path, json_t *a, sweep_config *c)
{
    json_t *v;
    size_t i;
    char p[128];
    if (!a) return 0;
    if (!json_is_array(a) || !json_array_size(a))
        return bad(x, path, "expected a non-empty array of names or {\"class\": TAG}");
    if (!(c->runs = calloc((size_t)x->nbenches + 1, 1))) return bad(x, path, "out of memory");
    json_array_foreach(a, i, v) {
        snprintf(p, sizeof p, "%s[%zu]", path, i);
        const char *name = json_string_value(v);
        json_t *cls = json_is_object(v) ? json_object_get(v, "class") : NULL;
        int found = 0;
        if (!name && !(json_is_string(cls) && json_object_size(v) == 1))
            return bad(x, p, "expected a benchmark name or {\"class\": TAG}");
        for (int b = 0; b < x->nbenches; b++)
            if (name ? strcmp(x->benches[b].name, name) == 0
                     : bench_has_class(x->benches[b].entry, json_string_value(cls))) {
                c->runs[b] = 1;
                found++;
            }
        if (!found && name) return bad(x, p, "benchmark '%s' is not in $.benchmarks", name);
        if (!found)
            return bad(x, p, "no benchmark of $.benchmarks has class '%s'",
                       json_string_value(cls));
    }
    return 0;
}

static int load_config(sweep_exp *x, json_t *o, int idx)
{
    static const char *const keys[] = {"name", "config", "set", "plugins", "env", "benchmarks",
                                       NULL};
    sweep_config *c = &x->configs[idx];
    char path[64], p[96];
    const char *plugins[SWEEP_MAX_PLUGINS];
    snprintf(path, sizeof path, "$.configs[%d]", idx);
    if (!json_is_object(o)) return bad(x, path, "expected an object {\"name\": ..., ...}");
    if (only_keys(x, path, o, keys)) return -1;
    json_t *name = json_object_get(o, "name"), *cfg = json_object_get(o, "config");
    snprintf(p, sizeof p, "%s.name", path);
    if (!json_is_string(name) || !json_string_length(name)
        || strpbrk(json_string_value(name), ",\"\n"))
        return bad(x, p, "expected a non-empty name without ',', '\"' or a newline");
    c->name = json_string_value(name);
    for (int k = 0; k < idx; k++)
        if (strcmp(x->configs[k].name, c->name) == 0)
            return bad(x, p, "config name '%s' used twice", c->name);
    snprintf(p, sizeof p, "%s.config", path);
    if (cfg && !json_is_string(cfg)) return bad(x, p, "expected a preset name or a file");
    if (cfg) {
        /* a file beside the experiment wins over a preset of the same name */
        const char *f = rel_path(x, json_string_value(cfg));
        bool is_file = f && access(f, R_OK) == 0;
        c->config = is_file ? f : json_string_value(cfg);
        c->config_hash = is_file ? sweep_file_hash(f) : 0;
    }
    snprintf(p, sizeof p, "%s.set", path);
    if (str_list(x, p, json_object_get(o, "set"), c->sets, &c->nsets, SWEEP_MAX_SETS)) return -1;
    snprintf(p, sizeof p, "%s.plugins", path);
    int np = 0;
    if (str_list(x, p, json_object_get(o, "plugins"), plugins, &np, SWEEP_MAX_PLUGINS)) return -1;
    for (int i = 0; i < np; i++) {
        snprintf(p, sizeof p, "%s.plugins[%d]", path, i);
        const char *f = rel_path(x, plugins[i]);
        if (!f || access(f, R_OK) != 0) return bad(x, p, "cannot read plug-in '%s'", plugins[i]);
        c->plugins[c->nplugins] = f;
        c->plugin_hash[c->nplugins++] = sweep_file_hash(f);
    }
    snprintf(p, sizeof p, "%s.benchmarks", path);
    if (load_only(x, p, json_object_get(o, "benchmarks"), c)) return -1;
    snprintf(p, sizeof p, "%s.env", path);
    return load_env(x, p, json_object_get(o, "env"), c);
}

static int load_configs(sweep_exp *x, json_t *root)
{
    json_t *a = json_object_get(root, "configs"), *v;
    size_t i;
    if (!json_is_array(a) || !json_array_size(a))
        return bad(x, "$.configs", "expected a non-empty array of {\"name\": ..., ...}");
    x->configs = calloc(json_array_size(a), sizeof *x->configs);
    if (!x->configs) return bad(x, "$.configs", "out of memory");
    json_array_foreach(a, i, v) {
        if (load_config(x, v, (int)i)) {
            free(x->configs[i].runs);   /* not counted yet: sweep_free would miss it */
            return -1;
        }
        x->nconfigs++;
    }
    return 0;
}

int sweep_load_metrics(sweep_exp *x, json_t *root);   /* sweep_derived.c */

/* "timeseries": {"interval": N}: every run keeps its time series sampled
   every N cycles (DIR/runs/HASH.ts.json), for timeseries figures. */
static int load_timeseries(sweep_exp *x, json_t *root)
{
    static const char *const keys[] = {"interval", NULL};
    json_t *t = json_object_get(root, "timeseries");
    if (!t) return 0;
    if (!json_is_object(t)) return bad(x, "$.timeseries", "expected {\"interval\": CYCLES}");
    if (only_keys(x, "$.timeseries", t, keys)) return -1;
    json_t *iv = json_object_get(t, "interval");
    if (!json_is_integer(iv) || json_integer_value(iv) < 1
        || json_integer_value(iv) > 1000000000000000LL)
        return bad(x, "$.timeseries.interval", "expected a number of cycles from 1 to 1e15");
    x->ts_interval = (uint64_t)json_integer_value(iv);
    return 0;
}

int sweep_load(sweep_exp *x, const char *path, const bench_manifest *m)
{
    static const char *const keys[] = {"name", "about", "benchmarks", "sizes", "configs",
                                       "seeds", "timeout", "collect", "derived", "figures",
                                       "timeseries", NULL};
    json_error_t err;
    memset(x, 0, sizeof *x);
    snprintf(x->path, sizeof x->path, "%s", path);
    json_t *root = json_load_file(path, JSON_REJECT_DUPLICATES, &err);
    if (!root) {
        if (err.line < 1) cli_error("sweep", "%s: %s", path, err.text);
        else cli_error("sweep", "%s:%d:%d: %s", path, err.line, err.column, err.text);
        return -1;
    }
    x->json = root;
    if (!json_is_object(root)) return bad(x, "$", "expected an object");
    if (only_keys(x, "$", root, keys)) return -1;
    json_t *name = json_object_get(root, "name"), *to = json_object_get(root, "timeout");
    if (name && !json_is_string(name)) return bad(x, "$.name", "expected a string");
    snprintf(x->name, sizeof x->name, "%s", name ? json_string_value(name) : "experiment");
    if (to && (!json_is_number(to) || json_number_value(to) < 0))
        return bad(x, "$.timeout", "expected seconds >= 0 (0 = none)");
    x->timeout_s = to ? json_number_value(to) : 0;
    if (load_benches(x, root, m) || load_sizes(x, root) || load_configs(x, root)
        || load_seeds(x, root) || load_timeseries(x, root) || sweep_load_metrics(x, root)
        || sweep_load_figures(x, root))
        return -1;
    return 0;
}

void sweep_free(sweep_exp *x)
{
    json_decref(x->json);
    free(x->benches);
    for (int c = 0; c < x->nconfigs; c++) free(x->configs[c].runs);
    free(x->configs);
    free(x->seeds);
    free(x->stats);
    free(x->derived);
    for (int f = 0; x->figures && f <= x->nfigures; f++) {
        free(x->figures[f].sel);     /* <=: the one that failed to load too */
        free(x->figures[f].bench);
    }
    free(x->figures);
    for (int i = 0; i < x->nowned; i++) free(x->owned[i]);
    free(x->owned);
    memset(x, 0, sizeof *x);
}
