/*
** sweep_fig_spec.c -- the `figures` member of an experiment file: a list
** of figures ("bars": a metric per benchmark, one bar per config, plus an
** optional group-mean bar; "lines": a metric against a numeric setting of
** the configs, one line per benchmark; "stacked": a breakdown of collected
** statistics, one stack per benchmark x config; "timeseries": a series of
** the runs' kept time series against the cycle, one line per chosen point).
** Checked when the file is read, so
** a bad figure is refused (file and JSON path, exit 2) before any run.
*/
#include "cli.h"
#include "cli_bench.h"
#include "sweep.h"
#include <ctype.h>
#include <jansson.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int bad(const sweep_exp *x, int i, const char *key, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static int bad(const sweep_exp *x, int i, const char *key, const char *fmt, ...)
{
    char msg[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    cli_error("sweep", "%s: $.figures[%d]%s%s: %s", x->path, i, key ? "." : "", key ? key : "",
              msg);
    return -1;
}

/* "key=NUMBER" at p, ending at the string's end or a ','. */
static bool item(const char *p, const char *key, double *out)
{
    size_t kl = strlen(key);
    char *end;
    if (strncmp(p, key, kl) != 0 || p[kl] != '=') return false;
    double v = strtod(p + kl + 1, &end);
    if (end == p + kl + 1 || (*end && *end != ',')) return false;
    *out = v;
    return true;
}

bool sweep_fig_setting(const sweep_config *c, const char *key, double *out)
{
    for (int i = 0; i < c->nsets; i++) {
        if (item(c->sets[i], key, out)) return true;
        /* the items of "warp_scheduler_params=warp_limit=4,x=1" */
        for (const char *p = strchr(c->sets[i], '='); p; p = strchr(p, ','))
            if (item(++p, key, out)) return true;
    }
    return false;
}

static int find_stat(const sweep_exp *x, const char *n)
{
    for (int i = 0; i < x->nstats; i++)
        if (strcmp(x->stats[i].name, n) == 0) return i;
    return -1;
}

static const sweep_derived *find_derived(const sweep_exp *x, const char *n)
{
    for (int i = 0; i < x->nderived; i++)
        if (strcmp(x->derived[i].name, n) == 0) return &x->derived[i];
    return NULL;
}

static bool name_ok(const char *s)
{
    if (!s || !*s || *s == '.' || strlen(s) > 128) return false;
    return strspn(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.-")
           == strlen(s);
}

/* stacked: "components", collected statistics or per-point derived
   metrics (e.g. hits per 1000 instructions), drawn bottom up. */
static int load_components(const sweep_exp *x, int i, json_t *o, sweep_figure *f)
{
    json_t *a = json_object_get(o, "components"), *v;
    size_t k;
    char key[48];
    if (!json_is_array(a) || !json_array_size(a) || json_array_size(a) > SWEEP_FIG_MAX_COMP)
        return bad(x, i, "components", "expected an array of 1 to %d collected statistics or per-point metrics "
                   "(the parts of each stack, bottom up)", SWEEP_FIG_MAX_COMP);
    json_array_foreach(a, k, v) {
        snprintf(key, sizeof key, "components[%zu]", k);
        const char *n = json_string_value(v);
        const sweep_derived *dn = n ? find_derived(x, n) : NULL;
        if (!n || (find_stat(x, n) < 0 && (!dn || !SWEEP_D_PER_POINT(dn->kind)))) {
            char names[512] = "";
            for (int s = 0; s < x->nstats; s++)
                snprintf(names + strlen(names), sizeof names - strlen(names), "%s%s",
                         s ? ", " : "", x->stats[s].name);
            return bad(x, i, key, "'%s' is not a collected statistic or a per-point derived "
                       "metric (collect: %s)",
                       n ? n : "(not a string)", names);
        }
        for (int j = 0; j < f->ncomp; j++)
            if (strcmp(f->comp[j], n) == 0) return bad(x, i, key, "'%s' given twice", n);
        f->comp[f->ncomp++] = n;
    }
    json_t *nz = json_object_get(o, "normalize");
    if (nz && !json_is_boolean(nz)) return bad(x, i, "normalize", "expected true or false");
    f->normalize = json_is_true(nz);
    /* normalize_to: a config of the experiment; its stack's sum is 1 */
    const char *nt = json_string_value(json_object_get(o, "normalize_to"));
    f->normalize_to = -1;
    if (!nt) return 0;
    if (f->normalize)
        return bad(x, i, "normalize_to", "takes no \"normalize\": true (one normalization)");
    for (int c = 0; c < x->nconfigs; c++)
        if (strcmp(x->configs[c].name, nt) == 0) f->normalize_to = c;
    if (f->normalize_to < 0)
        return bad(x, i, "normalize_to", "'%s' is not a config of the experiment", nt);
    return 0;
}

/* Index of `name` in `n` names spaced `stride` bytes apart from `base`,
   or -1. */
static int index_of(const void *base, size_t stride, int n, const char *name)
{
    for (int k = 0; k < n; k++)
        if (strcmp(*(const char *const *)((const char *)base + (size_t)k * stride), name) == 0)
            return k;
    return -1;
}

/* One of "points": {"benchmark": B, "config": C[, "size": S][, "seed": N]}. */
static int load_ts_point(const sweep_exp *x, int i, json_t *o, size_t k, sweep_fig_point *p)
{
    char key[48];
    snprintf(key, sizeof key, "points[%zu]", k);
    const char *b = json_string_value(json_object_get(o, "benchmark"));
    const char *c = json_string_value(json_object_get(o, "config"));
    const char *sz = json_string_value(json_object_get(o, "size"));
    json_t *seed = json_object_get(o, "seed");
    size_t nkeys = 2 + (json_object_get(o, "size") != NULL) + (seed != NULL);
    if (!json_is_object(o) || !b || !c || json_object_size(o) != nkeys)
        return bad(x, i, key, "expected {\"benchmark\": NAME, \"config\": NAME} (and "
                   "optionally \"size\", \"seed\")");
    *p = (sweep_fig_point){ .bench = index_of(x->benches, sizeof *x->benches, x->nbenches, b),
                            .config = index_of(x->configs, sizeof *x->configs, x->nconfigs, c),
                            .size = 0, .seed = x->nseeds ? 0 : -1 };
    if (p->bench < 0) return bad(x, i, key, "benchmark '%s' is not in $.benchmarks", b);
    if (p->config < 0) return bad(x, i, key, "config '%s' is not in $.configs", c);
    if (!sweep_runs(x, p->config, p->bench))
        return bad(x, i, key, "config '%s' does not run on '%s' (its \"benchmarks\")", c, b);
    if (json_object_get(o, "size")) {
        int s = 0;
        while (s < x->nsizes && (!sz || strcmp(sweep_size_names[x->sizes[s]], sz))) s++;
        if (s == x->nsizes) return bad(x, i, key, "size is not one of $.sizes");
        p->size = s;
    }
    if (seed) {
        int s = 0;
        while (s < x->nseeds && (!json_is_integer(seed)
                                 || (json_int_t)x->seeds[s] != json_integer_value(seed)))
            s++;
        if (s == x->nseeds) return bad(x, i, key, "seed is not one of $.seeds");
        p->seed = s;
    }
    return 0;
}

/* One "policy.NAME" at *p (NAME up to the string's end or a '/') into
   `out`; *p moves past it.  The name itself is checked only against the
   ABI's form: which counters exist only the runs know. */
static bool policy_name(const char **p, char out[SWEEP_TS_POLICY_NAME])
{
    static const char pre[] = "policy.";
    if (strncmp(*p, pre, sizeof pre - 1) != 0) return false;
    const char *n = *p + sizeof pre - 1;
    size_t len = strcspn(n, "/");
    if (len == 0 || len >= SWEEP_TS_POLICY_NAME) return false;
    for (size_t k = 0; k < len; k++)    /* a CSV column and a gnuplot label */
        if (!isgraph((unsigned char)n[k]) || n[k] == ',' || n[k] == '\'' || n[k] == '"')
            return false;
    memcpy(out, n, len);
    out[len] = '\0';
    *p = n + len;
    return true;
}

/* A series of the warp scheduler's counters: "policy.A" or
   "policy.A/policy.B" into f->pol.  false: not of that form. */
static bool policy_series(const char *s, sweep_figure *f)
{
    const char *p = s;
    if (!policy_name(&p, f->pol[0])) return false;
    if (!*p) return true;
    p++;
    return policy_name(&p, f->pol[1]) && !*p;
}

/* timeseries: "series" and "points" (absent: every benchmark x config). */
static int load_ts(const sweep_exp *x, int i, json_t *o, sweep_figure *f)
{
    const char *s = json_string_value(json_object_get(o, "series"));
    json_t *a = json_object_get(o, "points"), *v;
    size_t k;
    if (!x->ts_interval)
        return bad(x, i, "kind", "a timeseries figure needs the experiment to keep time "
                   "series: add \"timeseries\": {\"interval\": CYCLES} to the file");
    f->series = -1;
    for (int j = 0; s && j < SWEEP_TS_COUNT; j++)
        if (strcmp(s, sweep_ts_series_names[j]) == 0) f->series = j;
    if (f->series < 0 && s && policy_series(s, f)) f->series = SWEEP_TS_POLICY;
    if (f->series < 0)
        return bad(x, i, "series", "expected one of ipc, warp_ipc, active_warps, l1d_misses, "
                   "l1d_miss_rate, l1d_mpki, lsu_stall_cycles, policy.NAME or "
                   "policy.NAME/policy.NAME (NAME: a warp scheduler counter, 1 to %d "
                   "characters, e.g. policy.allowed_warps_sum/policy.cycles)",
                   SWEEP_TS_POLICY_NAME - 1);
    if (!a) {
        /* every selected benchmark x config the experiment has a point of */
        for (int b = 0; b < x->nbenches; b++)
            for (int k = 0; k < f->nsel && (!f->bench || f->bench[b]); k++) {
                if (!sweep_runs(x, f->sel[k], b)) continue;
                if (f->npts == SWEEP_FIG_MAX_PTS)
                    return bad(x, i, "points", "more than %d benchmark x config lines: choose "
                               "them with \"points\"", SWEEP_FIG_MAX_PTS);
                f->pts[f->npts++] = (sweep_fig_point){ b, 0, f->sel[k], x->nseeds ? 0 : -1 };
            }
        return 0;
    }
    if (!json_is_array(a) || !json_array_size(a) || json_array_size(a) > SWEEP_FIG_MAX_PTS)
        return bad(x, i, "points", "expected an array of 1 to %d points", SWEEP_FIG_MAX_PTS);
    json_array_foreach(a, k, v) {
        if (load_ts_point(x, i, v, k, &f->pts[f->npts])) return -1;
        f->npts++;
    }
    return 0;
}

/* The metric and, per kind, `mean` or `x`. */
static int check_data(const sweep_exp *x, int i, sweep_figure *f)
{
    const sweep_derived *d = f->metric ? find_derived(x, f->metric) : NULL;
    if (!f->metric || (find_stat(x, f->metric) < 0 && (!d || !SWEEP_D_PER_POINT(d->kind))))
        return bad(x, i, "metric", "expected a collected statistic or a per-point metric "
                   "(speedup, normalized, quotient, sum) of $.derived");
    if (f->kind == SWEEP_FIG_BARS) {
        const sweep_derived *m = f->mean ? find_derived(x, f->mean) : NULL;
        if (f->mean && (!m || SWEEP_D_PER_POINT(m->kind) || m->kind == SWEEP_D_BEST
                          || strcmp(m->of, f->metric) != 0))
            return bad(x, i, "mean", "expected a geomean/hmean/mean metric of $.derived whose "
                       "'of' is '%s'", f->metric);
        if (f->x) return bad(x, i, "x", "only a \"lines\" figure has an x setting");
        return 0;
    }
    if (f->mean) return bad(x, i, "mean", "only a \"bars\" figure has a mean bar");
    if (!f->x || !*f->x || strpbrk(f->x, ",= "))
        return bad(x, i, "x", "expected the name of a numeric setting (e.g. warp_limit)");
    int have = 0;
    double v;
    for (int c = 0; c < x->nconfigs; c++) have += sweep_fig_setting(&x->configs[c], f->x, &v);
    if (!have)
        return bad(x, i, "x", "no config sets '%s' to a number (in 'set', as %s=N or inside a "
                   "*_params list)", f->x, f->x);
    return 0;
}

/* "benchmarks": names or {"class": TAG} of the experiment's benchmarks
   (drawn in the experiment's order). */
static int load_fig_benches(const sweep_exp *x, int i, json_t *a, sweep_figure *f)
{
    json_t *v;
    size_t k;
    char key[48];
    if (!a) return 0;
    if (!json_is_array(a) || !json_array_size(a))
        return bad(x, i, "benchmarks", "expected a non-empty array of names or {\"class\": TAG}");
    if (!(f->bench = calloc((size_t)x->nbenches + 1, 1))) return bad(x, i, NULL, "out of memory");
    json_array_foreach(a, k, v) {
        snprintf(key, sizeof key, "benchmarks[%zu]", k);
        const char *name = json_string_value(v);
        json_t *cls = json_is_object(v) ? json_object_get(v, "class") : NULL;
        int found = 0;
        if (!name && !(json_is_string(cls) && json_object_size(v) == 1))
            return bad(x, i, key, "expected a benchmark name or {\"class\": TAG}");
        for (int b = 0; b < x->nbenches; b++)
            if (name ? strcmp(x->benches[b].name, name) == 0
                     : bench_has_class(x->benches[b].entry, json_string_value(cls)))
                f->bench[b] = 1, found++;
        if (!found)
            return bad(x, i, key, "%s '%s' is not in $.benchmarks", name ? "benchmark" : "class",
                       name ? name : json_string_value(cls));
    }
    return 0;
}

/* The derived mean of best `best` of the kind and group of figure f's
   mean (the mean row's cell of a best series), or -1. */
static int best_mean(const sweep_exp *x, const sweep_figure *f, const char *best)
{
    const sweep_derived *m = find_derived(x, f->mean);
    for (int k = 0; m && k < x->nderived; k++) {
        const sweep_derived *d = &x->derived[k];
        if (d->kind == m->kind && strcmp(d->of, best) == 0
            && strcmp(d->group_label, m->group_label) == 0)
            return k;
    }
    return -1;
}

/* "configs": config names in the order to draw (default: all); a bars
   figure may also name a best metric of its metric (one more series). */
static int load_fig_configs(const sweep_exp *x, int i, json_t *a, sweep_figure *f)
{
    json_t *v;
    size_t k;
    char key[48];
    if (!(f->sel = calloc((size_t)(x->nconfigs + x->nderived) + 1, sizeof *f->sel)))
        return bad(x, i, NULL, "out of memory");
    if (!a) {
        for (int c = 0; c < x->nconfigs; c++) f->sel[f->nsel++] = c;
        return 0;
    }
    if (!json_is_array(a) || !json_array_size(a)
        || json_array_size(a) > (size_t)(x->nconfigs + x->nderived))
        return bad(x, i, "configs", "expected a non-empty array of config names");
    json_array_foreach(a, k, v) {
        snprintf(key, sizeof key, "configs[%zu]", k);
        const char *n = json_string_value(v);
        int c = n ? index_of(x->configs, sizeof *x->configs, x->nconfigs, n) : -1, s = c;
        const sweep_derived *d = n && c < 0 ? find_derived(x, n) : NULL;
        if (d && f->kind == SWEEP_FIG_BARS && d->kind == SWEEP_D_BEST
            && strcmp(d->best_at ? d->best_at : d->of, f->metric) == 0)
            s = -1 - (int)(d - x->derived);
        if (s == -1)
            return bad(x, i, key, "'%s' is not a config of $.configs%s", n ? n : "(not a string)",
                       f->kind == SWEEP_FIG_BARS ? " nor a best metric of $.derived of the "
                       "figure's metric" : "");
        for (int j = 0; j < f->nsel; j++)
            if (f->sel[j] == s) return bad(x, i, key, "'%s' given twice", n);
        if (s < -1 && f->mean && best_mean(x, f, n) < 0)
            return bad(x, i, key, "the mean row needs a mean of '%s' of the kind and group of "
                       "'%s' in $.derived (e.g. {\"kind\": \"hmean\", \"of\": \"%s\"})", n,
                       f->mean, n);
        f->sel[f->nsel++] = s;
    }
    return 0;
}

/* Which keys a figure of each kind takes (a key of another kind is
   refused, so a misplaced key is not silently ignored). */
static const char *const kind_names[] = {"bars", "lines", "stacked", "timeseries"};
static const char *const kind_keys[4] = {
    "name, kind, metric, mean, title, ylabel, baseline, configs, benchmarks",
    "name, kind, metric, x, title, ylabel, baseline, configs, benchmarks",
    "name, kind, components, normalize, normalize_to, title, ylabel, configs, benchmarks",
    "name, kind, series, points, title, ylabel, baseline, configs, benchmarks",
};

/* Is `k` a whole word of the comma-separated `list`? */
static bool in_list(const char *list, const char *k)
{
    size_t n = strlen(k);
    for (const char *p = list; (p = strstr(p, k)) != NULL; p += n)
        if ((p == list || p[-1] == ' ') && (p[n] == ',' || !p[n])) return true;
    return false;
}

/* What each kind draws: components / metric, then the selection of
   configs and benchmarks (a timeseries figure's default points come from
   it, so it is read first there). */
static int load_kind(const sweep_exp *x, int i, json_t *o, sweep_figure *f)
{
    json_t *cs = json_object_get(o, "configs"), *bs = json_object_get(o, "benchmarks");
    if (f->kind == SWEEP_FIG_STACKED && load_components(x, i, o, f)) return -1;
    if ((f->kind == SWEEP_FIG_BARS || f->kind == SWEEP_FIG_LINES) && check_data(x, i, f))
        return -1;
    if (f->kind == SWEEP_FIG_TIMESERIES && json_object_get(o, "points") && (cs || bs))
        return bad(x, i, cs ? "configs" : "benchmarks", "a timeseries figure with \"points\" "
                   "takes no configs or benchmarks (they choose the default points)");
    if (load_fig_configs(x, i, cs, f) || load_fig_benches(x, i, bs, f)) return -1;
    return f->kind == SWEEP_FIG_TIMESERIES ? load_ts(x, i, o, f) : 0;
}

static int load_one(sweep_exp *x, json_t *o, int i)
{
    sweep_figure *f = &x->figures[i];
    const char *k;
    json_t *v;
    if (!json_is_object(o)) return bad(x, i, NULL, "expected an object {\"name\": ..., ...}");
    const char *kind = json_string_value(json_object_get(o, "kind"));
    f->kind = -1;
    for (int j = 0; kind && j < 4; j++)
        if (strcmp(kind, kind_names[j]) == 0) f->kind = j;
    if (f->kind < 0)
        return bad(x, i, "kind", "expected \"bars\", \"lines\", \"stacked\" or "
                   "\"timeseries\"");
    json_object_foreach(o, k, v) {
        if (!in_list(kind_keys[f->kind], k))
            return bad(x, i, NULL, "unknown key '%s' for a %s figure (valid: %s)", k, kind,
                       kind_keys[f->kind]);
        if (!in_list("baseline, components, normalize, points, configs, benchmarks", k)
            && !json_is_string(v))
            return bad(x, i, k, "expected a string");
    }
    f->name = json_string_value(json_object_get(o, "name"));
    f->metric = json_string_value(json_object_get(o, "metric"));
    f->mean = json_string_value(json_object_get(o, "mean"));
    f->x = json_string_value(json_object_get(o, "x"));
    f->title = json_string_value(json_object_get(o, "title"));
    f->ylabel = json_string_value(json_object_get(o, "ylabel"));
    if (!name_ok(f->name))
        return bad(x, i, "name", "expected a file name stem (letters, digits, '_', '.', '-')");
    for (int j = 0; j < i; j++)
        if (strcmp(x->figures[j].name, f->name) == 0)
            return bad(x, i, "name", "figure '%s' named twice", f->name);
    json_t *b = json_object_get(o, "baseline");
    if (b && !json_is_number(b)) return bad(x, i, "baseline", "expected a number (e.g. 1.0)");
    f->has_baseline = b != NULL;
    f->baseline = b ? json_number_value(b) : 0;
    return load_kind(x, i, o, f);
}

int sweep_load_figures(sweep_exp *x, void *root)
{
    json_t *a = json_object_get(root, "figures"), *v;
    size_t i;
    if (!a) return 0;
    if (!json_is_array(a))
        return cli_error("sweep", "%s: $.figures: expected an array of figures", x->path), -1;
    x->figures = calloc(json_array_size(a) + 1, sizeof *x->figures);
    if (!x->figures) return cli_error("sweep", "%s: $.figures: out of memory", x->path), -1;
    json_array_foreach(a, i, v) {
        if (load_one(x, v, (int)i)) return -1;
        x->nfigures++;
    }
    return 0;
}
