/*
** sweep_derived.c -- what an experiment collects and derives: the
** `collect` and `derived` members of the experiment file, and derived.csv.
** Per-point metrics (speedup over a baseline config, normalisation) are
** computed from collected statistics of the point and its baseline twin
** (same benchmark, size, seed); means (geometric, harmonic, arithmetic)
** over a group of benchmarks per size x config x seed; the best value per
** benchmark over a set of configs (Best-SWL of the CCWS paper), under the
** best's name with the config that gave it in source_config, and means of
** a best; per point, the quotient of two metrics (misses per 1000
** instructions) and the sum of several (intra-warp = intra-thread +
** inter-thread hits).  The matrix may be sparse (a config's "benchmarks"): a missing
** point is absent, not a failure, so a mean is over the benchmarks a config
** runs on.  A value that cannot be computed (a failed run, a missing
** statistic, a zero) is an empty cell, never a number.
*/
#include "cli.h"
#include "cli_bench.h"
#include "sweep.h"
#include <jansson.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const kind_names[] = {"speedup", "normalized", "quotient", "sum", "geomean",
                                         "hmean", "mean", "best", NULL};

/* Well-formed path: segments split by '.', each a name optionally followed
   by [INDEX] or [NAME] selectors. */
static bool path_ok(const char *p)
{
    if (!*p || *p == '.' || *p == '[') return false;
    for (; *p; p++) {
        if (*p == '[') {
            const char *e = strchr(p, ']');
            if (!e || e == p + 1) return false;
            p = e;
            if (p[1] && p[1] != '.' && p[1] != '[') return false;
        } else if (*p == '.' && (!p[1] || p[1] == '.' || p[1] == '[')) return false;
        else if (*p == ']') return false;
    }
    return true;
}

static int find_stat(const sweep_exp *x, const char *name)
{
    for (int i = 0; i < x->nstats; i++)
        if (strcmp(x->stats[i].name, name) == 0) return i;
    return -1;
}

static int find_derived(const sweep_exp *x, const char *name, int before)
{
    for (int i = 0; i < before; i++)
        if (strcmp(x->derived[i].name, name) == 0) return i;
    return -1;
}

static int load_collect(sweep_exp *x, json_t *a)
{
    json_t *v;
    size_t i;
    char p[64];
    if (!json_is_array(a) || !json_array_size(a))
        return cli_error("sweep", "%s: $.collect: expected a non-empty array of paths or "
                         "{\"name\": ..., \"path\": ...}", x->path), -1;
    x->stats = calloc(json_array_size(a), sizeof *x->stats);
    json_array_foreach(a, i, v) {
        snprintf(p, sizeof p, "$.collect[%zu]", i);
        json_t *n = json_object_get(v, "name"), *pa = json_object_get(v, "path");
        sweep_stat *s = &x->stats[x->nstats];
        s->path = json_is_string(v) ? json_string_value(v) : json_string_value(pa);
        s->name = json_is_string(v) ? s->path : json_string_value(n);
        if (!s->name || !s->path || (json_is_object(v) && json_object_size(v) != 2))
            return cli_error("sweep", "%s: %s: expected a path or {\"name\": ..., \"path\": ...}",
                             x->path, p), -1;
        if (!path_ok(s->path) || strpbrk(s->name, ",\"\n"))
            return cli_error("sweep", "%s: %s: malformed path '%s' (e.g. total.gpu_tot_sim_cycle, "
                             "kernels[NAME].cycles, report.total.memsys)", x->path, p, s->path), -1;
        if (find_stat(x, s->name) >= 0)
            return cli_error("sweep", "%s: %s: statistic '%s' collected twice", x->path, p,
                             s->name), -1;
        if (strncmp(s->path, "report.", 7) == 0) x->need_report = true;
        x->nstats++;
    }
    return 0;
}

/* A group given by name: {"benchmarks": [NAME, ...], "label": L}, each
   among the experiment's benchmarks; the label (default "group") is the
   benchmark column of the mean's rows. */
static int load_group_names(sweep_exp *x, const char *p, json_t *g, sweep_derived *d)
{
    json_t *a = json_object_get(g, "benchmarks"), *lab = json_object_get(g, "label"), *v;
    size_t i;
    if (!json_is_array(a) || !json_array_size(a) || json_array_size(a) > SWEEP_MAX_GROUP
        || (lab && !json_is_string(lab)) || json_object_size(g) != 1 + (lab != NULL))
        return cli_error("sweep", "%s: %s.group: expected \"all\", {\"class\": TAG} or "
                         "{\"benchmarks\": [up to %d names], \"label\": L}", x->path, p,
                         SWEEP_MAX_GROUP), -1;
    json_array_foreach(a, i, v) {
        int b = 0;
        while (json_is_string(v) && b < x->nbenches
               && strcmp(x->benches[b].name, json_string_value(v))) b++;
        if (!json_is_string(v) || b == x->nbenches)
            return cli_error("sweep", "%s: %s.group.benchmarks[%zu]: expected one of the "
                             "experiment's benchmarks", x->path, p, i), -1;
        d->group_names[d->ngroup++] = json_string_value(v);
    }
    d->group_label = lab ? json_string_value(lab) : "group";
    if (strpbrk(d->group_label, ",\"\n") || !*d->group_label)
        return cli_error("sweep", "%s: %s.group.label: expected a name without , or \"", x->path,
                         p), -1;
    return 0;
}

/* The "group" of a mean: absent or "all", {"class": TAG} or names. */
static int load_group(sweep_exp *x, const char *p, json_t *g, sweep_derived *d)
{
    json_t *cls = json_object_get(g, "class");
    if (!g || (json_is_string(g) && strcmp(json_string_value(g), "all") == 0)) {
        d->group_label = "all";
        return 0;
    }
    if (json_object_get(g, "benchmarks")) return load_group_names(x, p, g, d);
    if (!json_is_string(cls) || json_object_size(g) != 1)
        return cli_error("sweep", "%s: %s.group: expected \"all\", {\"class\": TAG} or "
                         "{\"benchmarks\": [...]}", x->path, p), -1;
    d->group_class = json_string_value(cls);
    d->group_label = d->group_class;
    return 0;
}

/* The "configs" of a best: a list of config names or {"prefix": P}. */
static int load_best(sweep_exp *x, const char *p, json_t *cs, sweep_derived *d)
{
    json_t *pre = json_object_get(cs, "prefix"), *v;
    size_t i;
    int hits = 0;
    if (json_is_string(pre) && json_object_size(cs) == 1) {
        d->best_prefix = json_string_value(pre);
        for (int c = 0; c < x->nconfigs; c++)
            hits += strncmp(x->configs[c].name, d->best_prefix, strlen(d->best_prefix)) == 0;
        if (hits) return 0;
        return cli_error("sweep", "%s: %s.configs: no config name starts with '%s'", x->path, p,
                         d->best_prefix), -1;
    }
    if (!json_is_array(cs) || !json_array_size(cs) || json_array_size(cs) > SWEEP_MAX_SETS)
        return cli_error("sweep", "%s: %s.configs: expected up to %d config names or "
                         "{\"prefix\": P}", x->path, p, SWEEP_MAX_SETS), -1;
    json_array_foreach(cs, i, v) {
        int c = 0;
        while (json_is_string(v) && c < x->nconfigs
               && strcmp(x->configs[c].name, json_string_value(v))) c++;
        if (!json_is_string(v) || c == x->nconfigs)
            return cli_error("sweep", "%s: %s.configs[%zu]: expected the name of a config",
                             x->path, p, i), -1;
        d->best_names[d->nbest++] = json_string_value(v);
    }
    return 0;
}

/* An operand of a quotient or sum: a collected statistic or an earlier
   per-point metric. */
static bool operand_ok(const sweep_exp *x, const char *n, int before)
{
    int od = n ? find_derived(x, n, before) : -1;
    return n && (find_stat(x, n) >= 0 || (od >= 0 && SWEEP_D_PER_POINT(x->derived[od].kind)));
}

/* quotient: {"of": A, "over": B, "scale": S} = A / B * S per point;
   sum: {"of": [A, B, ...]} = A + B + ... per point. */
static int load_arith(sweep_exp *x, const char *p, json_t *v, json_t *of, sweep_derived *d, int i)
{
    json_t *sc = json_object_get(v, "scale"), *t;
    size_t k;
    if (json_object_get(v, "baseline") || json_object_get(v, "group") || json_object_get(v, "at")
        || json_object_get(v, "configs") || json_object_get(v, "higher_is_better")
        || (d->kind == SWEEP_D_SUM && (sc || json_object_get(v, "over"))))
        return cli_error("sweep", "%s: %s: a %s takes only %s", x->path, p, kind_names[d->kind],
                         d->kind == SWEEP_D_SUM ? "name, kind and of" : "name, kind, of, over "
                         "and scale"), -1;
    if (d->kind == SWEEP_D_QUOTIENT) {
        d->over = json_string_value(json_object_get(v, "over"));
        d->scale = sc ? json_number_value(sc) : 1;
        if (!operand_ok(x, d->of, i) || !operand_ok(x, d->over, i))
            return cli_error("sweep", "%s: %s: 'of' and 'over' must each be a collected statistic "
                             "or an earlier per-point metric", x->path, p), -1;
        if (sc && (!json_is_number(sc) || !(d->scale > 0)))
            return cli_error("sweep", "%s: %s.scale: expected a number > 0", x->path, p), -1;
        return 0;
    }
    if (!json_is_array(of) || json_array_size(of) < 2 || json_array_size(of) > SWEEP_MAX_SETS)
        return cli_error("sweep", "%s: %s.of: a sum takes an array of 2 to %d metrics", x->path,
                         p, SWEEP_MAX_SETS), -1;
    json_array_foreach(of, k, t) {
        const char *n = json_string_value(t);
        if (!operand_ok(x, n, i))
            return cli_error("sweep", "%s: %s.of[%zu]: expected a collected statistic or an "
                             "earlier per-point metric", x->path, p, k), -1;
        if (k == 0) d->of = n;
        else d->terms[d->nterms++] = n;
    }
    return 0;
}

static int load_one_derived(sweep_exp *x, json_t *v, int i)
{
    static const char *const keys[] = {"name", "kind", "of", "baseline", "higher_is_better",
                                       "group", "configs", "over", "scale", "at", NULL};
    char p[64];
    sweep_derived *d = &x->derived[i];
    snprintf(p, sizeof p, "$.derived[%d]", i);
    const char *k;
    json_t *m;
    json_object_foreach(v, k, m) {
        int j = 0;
        while (keys[j] && strcmp(keys[j], k)) j++;
        if (!keys[j])
            return cli_error("sweep", "%s: %s: unknown key '%s' (valid: name, kind, of, baseline, "
                             "higher_is_better, group, configs, over, scale, at)", x->path, p, k), -1;
    }
    d->name = json_string_value(json_object_get(v, "name"));
    const char *kind = json_string_value(json_object_get(v, "kind"));
    json_t *of = json_object_get(v, "of");
    d->of = json_string_value(of);
    d->baseline = json_string_value(json_object_get(v, "baseline"));
    d->higher_is_better = json_is_true(json_object_get(v, "higher_is_better"));
    if (!d->name || strpbrk(d->name, ",\"\n") || find_stat(x, d->name) >= 0
        || find_derived(x, d->name, i) >= 0)
        return cli_error("sweep", "%s: %s.name: expected a new metric name", x->path, p), -1;
    d->kind = -1;
    for (int j = 0; kind && kind_names[j]; j++)
        if (strcmp(kind, kind_names[j]) == 0) d->kind = j;
    if (d->kind < 0)
        return cli_error("sweep", "%s: %s.kind: expected speedup, normalized, quotient, sum, "
                         "geomean, hmean, mean or best", x->path, p), -1;
    if (d->kind == SWEEP_D_QUOTIENT || d->kind == SWEEP_D_SUM) return load_arith(x, p, v, of, d, i);
    int od = d->of ? find_derived(x, d->of, i) : -1;
    bool per_point = SWEEP_D_PER_POINT(d->kind), mean = !per_point && d->kind != SWEEP_D_BEST;
    /* a mean may average a best (Best-SWL's harmonic mean), a best not */
    bool of_ok = od >= 0 && (SWEEP_D_PER_POINT(x->derived[od].kind)
                             || (mean && x->derived[od].kind == SWEEP_D_BEST));
    /* a normalized metric may normalize an earlier per-point one (a sum) */
    bool pp_ok = d->kind == SWEEP_D_RATIO && od >= 0 && SWEEP_D_PER_POINT(x->derived[od].kind);
    if (!d->of || (find_stat(x, d->of) < 0 && (per_point ? !pp_ok : !of_ok)))
        return cli_error("sweep", "%s: %s.of: expected a collected statistic%s", x->path, p,
                         d->kind == SWEEP_D_RATIO ? " or an earlier per-point metric"
                         : per_point ? "" : mean ? " or an earlier per-point or best metric"
                                     : " or an earlier per-point metric"), -1;
    if (d->kind != SWEEP_D_BEST && json_object_get(v, "at"))
        return cli_error("sweep", "%s: %s.at: only a best has 'at'", x->path, p), -1;
    if ((d->kind == SWEEP_D_BEST) != !!json_object_get(v, "configs"))
        return cli_error("sweep", "%s: %s.configs: %s", x->path, p, d->kind == SWEEP_D_BEST
                         ? "expected the configs to choose from" : "only a best has configs"), -1;
    if (d->kind == SWEEP_D_BEST) {
        /* the best of a speedup or an IPC is its highest value */
        json_t *h = json_object_get(v, "higher_is_better");
        if (load_best(x, p, json_object_get(v, "configs"), d)) return -1;
        d->higher_is_better = !h || json_is_true(h);
        /* "at": e.g. the MPKI of the warp limit with the best speedup */
        json_t *at = json_object_get(v, "at");
        d->best_at = json_string_value(at);
        if (at && !operand_ok(x, d->best_at, i))
            return cli_error("sweep", "%s: %s.at: expected a collected statistic or an earlier "
                             "per-point metric", x->path, p), -1;
        return 0;
    }
    if (per_point) {
        int c = 0;
        /* normalized's "over": the baseline twin's value of another metric
           divides (Mascar Fig. 14: a component over the baseline's total) */
        d->over = json_string_value(json_object_get(v, "over"));
        if (json_object_get(v, "over") && (d->kind != SWEEP_D_RATIO || !operand_ok(x, d->over, i)))
            return cli_error("sweep", "%s: %s.over: %s", x->path, p, d->kind != SWEEP_D_RATIO
                             ? "only a quotient or a normalized metric has 'over'"
                             : "expected a collected statistic or an earlier per-point metric"),
                   -1;
        while (d->baseline && c < x->nconfigs && strcmp(x->configs[c].name, d->baseline)) c++;
        if (!d->baseline || c == x->nconfigs)
            return cli_error("sweep", "%s: %s.baseline: expected the name of a config",
                             x->path, p), -1;
        return 0;
    }
    return load_group(x, p, json_object_get(v, "group"), d);
}

int sweep_load_metrics(sweep_exp *x, json_t *root)
{
    json_t *a = json_object_get(root, "derived"), *v;
    size_t i;
    if (load_collect(x, json_object_get(root, "collect"))) return -1;
    if (!a) return 0;
    if (!json_is_array(a))
        return cli_error("sweep", "%s: $.derived: expected an array", x->path), -1;
    x->derived = calloc(json_array_size(a) + 1, sizeof *x->derived);
    json_array_foreach(a, i, v) {
        if (!json_is_object(v))
            return cli_error("sweep", "%s: $.derived[%zu]: expected an object", x->path, i), -1;
        if (load_one_derived(x, v, (int)i)) return -1;
        x->nderived++;
    }
    return 0;
}

/* ------------------------------------------------------------------ */
/* derived.csv                                                         */
/* ------------------------------------------------------------------ */

/* Value of statistic or per-point metric `name` at point i; NAN = none.
   `dv` holds the per-point derived values computed so far. */
static double value(const sweep_exp *x, const sweep_result *res, double **dv, const char *name,
                    int i)
{
    int s = find_stat(x, name);
    if (s < 0) return dv[find_derived(x, name, x->nderived)][i];
    if (res[i].status != SWEEP_OK) return NAN;
    json_t *j = sweep_lookup(&res[i], x->stats[s].path);
    return json_is_number(j) ? json_number_value(j) : NAN;
}

static void put_key(FILE *f, const sweep_exp *x, const char *metric, const char *bench, int size,
                    const char *config, int seed)
{
    fprintf(f, "%s,%s,%s,%s,", metric, bench, sweep_size_names[x->sizes[size]], config);
    if (seed >= 0) fprintf(f, "%llu", (unsigned long long)x->seeds[seed]);
    fputc(',', f);
}

/* A quotient (NAN for a zero denominator) or a sum of point i. */
static double arith(const sweep_exp *x, const sweep_result *res, double **dv,
                    const sweep_derived *d, int i)
{
    double v = value(x, res, dv, d->of, i);
    if (d->kind == SWEEP_D_QUOTIENT) {
        double o = value(x, res, dv, d->over, i);
        return o > 0 || o < 0 ? v / o * d->scale : NAN;
    }
    for (int t = 0; t < d->nterms; t++) v += value(x, res, dv, d->terms[t], i);
    return v;
}

static void per_point(FILE *f, const sweep_exp *x, const sweep_point *pts, int n,
                      const sweep_result *res, double **dv, int k)
{
    const sweep_derived *d = &x->derived[k];
    for (int i = 0; i < n; i++) {
        const sweep_point *p = &pts[i];
        if (d->kind == SWEEP_D_QUOTIENT || d->kind == SWEEP_D_SUM) {
            dv[k][i] = arith(x, res, dv, d, i);
            put_key(f, x, d->name, x->benches[p->bench].name, p->size,
                    x->configs[p->config].name, p->seed);
            fprintf(f, isfinite(dv[k][i]) ? "%.10g,\n" : ",\n", dv[k][i]);
            continue;
        }
        int b = i;
        /* the baseline twin: same benchmark, size and seed */
        for (b = 0; b < n; b++)
            if (pts[b].bench == p->bench && pts[b].size == p->size && pts[b].seed == p->seed
                && strcmp(x->configs[pts[b].config].name, d->baseline) == 0) break;
        const char *bm = d->over ? d->over : d->of;
        double v = value(x, res, dv, d->of, i), base = b < n ? value(x, res, dv, bm, b) : NAN;
        double r = d->kind == SWEEP_D_RATIO || d->higher_is_better ? v / base : base / v;
        /* with "over" a zero part of the baseline's total is a value */
        dv[k][i] = (v > 0 || v < 0 || (d->over && v == 0)) && (base > 0 || base < 0) ? r : NAN;
        put_key(f, x, d->name, x->benches[p->bench].name, p->size, x->configs[p->config].name,
                p->seed);
        fprintf(f, isfinite(dv[k][i]) ? "%.10g,\n" : ",\n", dv[k][i]);
    }
}

static bool best_member(const sweep_derived *d, const char *config)
{
    if (d->best_prefix) return strncmp(config, d->best_prefix, strlen(d->best_prefix)) == 0;
    for (int i = 0; i < d->nbest; i++)
        if (strcmp(d->best_names[i], config) == 0) return true;
    return false;
}

/* The point whose index holds best `d`'s row of point p's benchmark, size
   and seed: the first point of them under a chosen config; -1 when no
   chosen config runs on that benchmark. */
static int best_row(const sweep_exp *x, const sweep_derived *d, const sweep_point *pts, int n,
                    const sweep_point *p)
{
    for (int j = 0; j < n; j++)
        if (pts[j].bench == p->bench && pts[j].size == p->size && pts[j].seed == p->seed
            && best_member(d, x->configs[pts[j].config].name)) return j;
    return -1;
}

/* One mean row of size s, config c (-1: the rows of best `ob`) and seed
   d, over the group's benchmarks that have a point (or a best row) there;
   no row when there is none and the config is restricted or a best. */
static bool in_group(const sweep_derived *m, const sweep_bench *b)
{
    if (m->group_class) return bench_has_class(b->entry, m->group_class);
    for (int i = 0; i < m->ngroup; i++)
        if (strcmp(m->group_names[i], b->name) == 0) return true;
    return m->ngroup == 0;
}

static void mean_row(FILE *f, const sweep_exp *x, const sweep_point *pts, int n,
                     const sweep_result *res, double **dv, int k, const sweep_derived *ob, int s,
                     int c, int d)
{
    const sweep_derived *m = &x->derived[k];
    double acc = 0;
    int cnt = 0;
    bool ok = true;
    for (int j = 0; j < n; j++) {
        const sweep_point *q = &pts[j];
        if (q->size != s || q->seed != d || !in_group(m, &x->benches[q->bench])
            || (ob ? best_row(x, ob, pts, n, q) != j : q->config != c))
            continue;
        double v = value(x, res, dv, m->of, j);
        ok = ok && isfinite(v) && (m->kind == SWEEP_D_MEAN || v > 0);
        acc += m->kind == SWEEP_D_GEOMEAN ? log(v) : m->kind == SWEEP_D_HMEAN ? 1 / v : v;
        cnt++;
    }
    if (!cnt && (ob || x->configs[c].runs)) return;
    double v = !ok || !cnt ? NAN : m->kind == SWEEP_D_GEOMEAN ? exp(acc / cnt)
             : m->kind == SWEEP_D_HMEAN ? cnt / acc : acc / cnt;
    put_key(f, x, m->name, m->group_label, s, ob ? ob->name : x->configs[c].name, d);
    fprintf(f, isfinite(v) ? "%.10g,\n" : ",\n", v);
}

/* One row per size x config x seed (in that order): the mean over the
   group's benchmarks the config runs on (all must have a value).  Of a
   best: one row per size x seed, its config column the best's name. */
static void group_mean(FILE *f, const sweep_exp *x, const sweep_point *pts, int n,
                       const sweep_result *res, double **dv, int k)
{
    int od = find_derived(x, x->derived[k].of, k);
    const sweep_derived *ob = od >= 0 && x->derived[od].kind == SWEEP_D_BEST
                            ? &x->derived[od] : NULL;
    int ns = x->nseeds ? x->nseeds : 1;
    for (int s = 0; s < x->nsizes; s++)
        for (int c = 0; c < (ob ? 1 : x->nconfigs); c++)
            for (int d = 0; d < ns; d++)
                mean_row(f, x, pts, n, res, dv, k, ob, s, ob ? -1 : c, x->nseeds ? d : -1);
}

/* One row per benchmark x size x seed that a chosen config runs on: the
   best value over the chosen configs that run on it, the config column
   the best's name and source_config the config that gave it (both value
   and source empty when any of them has no value). */
static void best(FILE *f, const sweep_exp *x, const sweep_point *pts, int n,
                 const sweep_result *res, double **dv, int k)
{
    const sweep_derived *d = &x->derived[k];
    for (int i = 0; i < n; i++) {
        const sweep_point *p = &pts[i];
        int win = -1;
        if (best_row(x, d, pts, n, p) != i) continue;   /* one row per (benchmark, size, seed) */
        double b = NAN;
        bool ok = true;
        for (int j = i; j < n; j++) {
            if (pts[j].bench != p->bench || pts[j].size != p->size || pts[j].seed != p->seed
                || !best_member(d, x->configs[pts[j].config].name)) continue;
            double v = value(x, res, dv, d->of, j);
            ok = ok && isfinite(v);
            if (isfinite(v) && (win < 0 || (d->higher_is_better ? v > b : v < b))) { b = v; win = j; }
        }
        if (ok && d->best_at) b = value(x, res, dv, d->best_at, win);
        ok = ok && isfinite(b);
        dv[k][i] = ok ? b : NAN;
        put_key(f, x, d->name, x->benches[p->bench].name, p->size, d->name, p->seed);
        if (ok) fprintf(f, "%.10g,%s\n", b, x->configs[pts[win].config].name);
        else fputs(",\n", f);
    }
}

int sweep_write_derived(const char *dir, const sweep_exp *x, const sweep_point *pts, int n,
                        const sweep_result *res)
{
    char path[4200], tmp[4300];
    if (!x->nderived) return 0;
    snprintf(path, sizeof path, "%s/derived.csv", dir);
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    FILE *f = fopen(tmp, "w");
    double **dv = calloc((size_t)x->nderived, sizeof *dv);
    if (!f || !dv) {
        cli_error("sweep", "cannot write %s: %s", tmp, strerror(errno));
        if (f) fclose(f);
        free(dv);
        return -1;
    }
    fprintf(f, "metric,benchmark,size,config,seed,value,source_config\n");
    for (int k = 0; k < x->nderived; k++) {
        dv[k] = calloc((size_t)n + 1, sizeof **dv);
        if (SWEEP_D_PER_POINT(x->derived[k].kind)) per_point(f, x, pts, n, res, dv, k);
        else if (x->derived[k].kind == SWEEP_D_BEST) best(f, x, pts, n, res, dv, k);
        else group_mean(f, x, pts, n, res, dv, k);
    }
    for (int k = 0; k < x->nderived; k++) free(dv[k]);
    free(dv);
    if (fclose(f) != 0 || rename(tmp, path) != 0) {
        cli_error("sweep", "cannot write %s", path);
        return -1;
    }
    return 0;
}
