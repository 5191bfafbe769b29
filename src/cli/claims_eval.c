/*
** claims_eval.c -- evaluating a claim over the long table of a sweep's
** values (claims.h): a scalar within a band, every (or at least K)
** benchmark(s) within a band, or an ordering of configs or scalars with a
** relative tolerance.  Pure: no I/O, the verdict and its text go into a
** claims_result, so the unit test drives it with in-memory tables.
** A value the claim needs that is missing makes it SKIP, naming the value
** and the failed run behind it; a metric or config the tables do not have
** is the claims file's error (ERROR).
*/
#include "claims.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *const claims_verdict_names[4] = {"PASS", "FAIL", "SKIP", "ERROR"};

#define MAXB 256                /* benchmarks one selection may gather */

/* Per-benchmark values of a selection (seeds averaged), in table order. */
typedef struct vals {
    const char *bench[MAXB], *config[MAXB];
    double sum[MAXB];
    int cnt[MAXB];
    int n;
} vals;

enum { E_OK, E_SKIP, E_ERROR };

int claims_table_add(claims_table *t, const char *metric, const char *bench, const char *size,
                     const char *config, const char *seed, const char *status, double value)
{
    if (t->n == t->cap) {
        int cap = t->cap ? 2 * t->cap : 256;
        claims_row *r = realloc(t->rows, (size_t)cap * sizeof *r);
        if (!r) return -1;
        t->rows = r;
        t->cap = cap;
    }
    t->rows[t->n++] = (claims_row){metric, bench, size, config, seed, status, value};
    return 0;
}

static bool known(const claims_table *t, const char *metric, const char *config)
{
    for (int i = 0; i < t->n; i++)
        if ((!metric || strcmp(t->rows[i].metric, metric) == 0)
            && (!config || strcmp(t->rows[i].config, config) == 0)) return true;
    return false;
}

static bool has_class(const claims_table *t, const char *bench, const char *cls)
{
    size_t l = strlen(cls);
    for (int i = 0; i < t->nbenches; i++) {
        if (strcmp(t->benches[i].name, bench)) continue;
        for (const char *p = t->benches[i].classes; (p = strstr(p, cls)); p += l)
            if ((p == t->benches[i].classes || p[-1] == ' ') && (p[l] == ' ' || !p[l]))
                return true;
    }
    return false;
}

static bool bench_ok(const claims_table *t, const claims_sel *s, const char *bench)
{
    if (s->cls) return has_class(t, bench, s->cls);
    if (!s->nbenches) return true;
    for (int i = 0; i < s->nbenches; i++)
        if (strcmp(s->benches[i], bench) == 0) return true;
    return false;
}

/* Why the value of row r is missing: the failed run behind it. */
static void why_missing(const claims_table *t, const claims_row *r, char *why, size_t len)
{
    const claims_row *f = r->status && strcmp(r->status, "ok") ? r : NULL;
    for (int i = 0; !f && i < t->n; i++) {
        const claims_row *q = &t->rows[i];
        /* a derived row's benchmark may be a group: "all" or a class tag */
        bool group = r->status == NULL;
        if (q->status && strcmp(q->status, "ok") && strcmp(q->size, r->size) == 0
            && (strcmp(q->bench, r->bench) == 0 || (group && has_class(t, q->bench, r->bench))
                || (group && strcmp(r->bench, "all") == 0)))
            f = q;
    }
    if (f)
        snprintf(why, len, "%s of %s (%s, %s) has no value: run %s %s %s%s%s failed (%s)",
                 r->metric, r->bench, r->size, r->config, f->bench, f->size, f->config,
                 *f->seed ? " seed " : "", f->seed, f->status);
    else
        snprintf(why, len, "%s of %s (%s, %s) has no value", r->metric, r->bench, r->size,
                 r->config);
}

static int add_val(vals *v, const claims_row *r, char *why, size_t len)
{
    int j = 0;
    while (j < v->n && strcmp(v->bench[j], r->bench)) j++;
    if (j == v->n) {
        if (v->n == MAXB) { snprintf(why, len, "selects over %d benchmarks", MAXB); return E_ERROR; }
        v->bench[j] = r->bench;
        v->config[j] = r->config;
        v->n++;
    } else if (strcmp(v->config[j], r->config)) {
        snprintf(why, len, "%s of %s: rows of configs %s and %s match; name a \"config\"",
                 r->metric, r->bench, v->config[j], r->config);
        return E_ERROR;
    }
    v->sum[j] += r->value;
    v->cnt[j]++;
    return E_OK;
}

/* Gather the selection's values under `config` (NULL: the selection's). */
static int gather(const claims_table *t, const claims_sel *s, const char *config, vals *v,
                  char *why, size_t len)
{
    const char *cfg = config ? config : s->config;
    const char *size = s->size ? s->size : t->n ? t->rows[0].size : "";
    memset(v, 0, sizeof *v);
    if (!known(t, s->metric, NULL))
        return snprintf(why, len, "unknown metric '%s' (not a column of results.csv nor a metric "
                        "of derived.csv)", s->metric), E_ERROR;
    if (cfg && !known(t, NULL, cfg))
        return snprintf(why, len, "unknown config '%s'", cfg), E_ERROR;
    /* nothing at all under the config (e.g. a mean of a group it runs no
       benchmark of): the claim cannot mean anything; a missing benchmark
       of a restricted config is a SKIP below */
    if (cfg && !known(t, s->metric, cfg))
        return snprintf(why, len, "%s has no row under config '%s' (it runs on none of the "
                        "metric's benchmarks, or the metric's rows are under another name)",
                        s->metric, cfg), E_ERROR;
    for (int i = 0; i < t->n; i++) {
        const claims_row *r = &t->rows[i];
        if (strcmp(r->metric, s->metric) || strcmp(r->size, size)
            || (cfg && strcmp(r->config, cfg)) || !bench_ok(t, s, r->bench)) continue;
        if (isnan(r->value)) { why_missing(t, r, why, len); return E_SKIP; }
        int e = add_val(v, r, why, len);
        if (e != E_OK) return e;
    }
    for (int b = 0; b < s->nbenches; b++) {
        int j = 0;
        while (j < v->n && strcmp(v->bench[j], s->benches[b])) j++;
        if (j == v->n)
            return snprintf(why, len, "no %s of %s at size %s%s%s", s->metric, s->benches[b], size,
                            cfg ? " under " : "", cfg ? cfg : ""), E_SKIP;
    }
    if (!v->n)
        return snprintf(why, len, "no %s%s%s at size %s%s%s", s->metric, s->cls ? " of class " : "",
                        s->cls ? s->cls : "", size, cfg ? " under " : "", cfg ? cfg : ""), E_SKIP;
    for (int j = 0; j < v->n; j++) v->sum[j] /= v->cnt[j];
    return E_OK;
}

static int fold(const claims_sel *s, const vals *v, double *out, char *why, size_t len)
{
    double acc = s->agg == CLAIMS_AGG_MIN ? INFINITY : s->agg == CLAIMS_AGG_MAX ? -INFINITY : 0;
    if (s->agg == CLAIMS_AGG_NONE) {
        if (v->n != 1)
            return snprintf(why, len, "%s selects %d benchmarks: name one, or give \"agg\"",
                            s->metric, v->n), E_ERROR;
        *out = v->sum[0];
        return E_OK;
    }
    for (int j = 0; j < v->n; j++) {
        double x = v->sum[j];
        if ((s->agg == CLAIMS_AGG_GEOMEAN || s->agg == CLAIMS_AGG_HMEAN) && !(x > 0))
            return snprintf(why, len, "%s of %s is %g: no geometric/harmonic mean", s->metric,
                            v->bench[j], x), E_SKIP;
        acc = s->agg == CLAIMS_AGG_GEOMEAN ? acc + log(x) : s->agg == CLAIMS_AGG_HMEAN ? acc + 1 / x
            : s->agg == CLAIMS_AGG_MEAN ? acc + x : s->agg == CLAIMS_AGG_MIN ? fmin(acc, x)
            : fmax(acc, x);
    }
    *out = s->agg == CLAIMS_AGG_GEOMEAN ? exp(acc / v->n) : s->agg == CLAIMS_AGG_HMEAN
         ? v->n / acc : s->agg == CLAIMS_AGG_MEAN ? acc / v->n : acc;
    return E_OK;
}

static int scalar(const claims_table *t, const claims_expr *e, const char *config, double *out,
                  char *why, size_t len)
{
    if (e->op == CLAIMS_E_SEL) {
        vals v;
        int rc = gather(t, &e->sel, config, &v, why, len);
        return rc != E_OK ? rc : fold(&e->sel, &v, out, why, len);
    }
    double a, b;
    int rc = scalar(t, e->a, config, &a, why, len);
    if (rc == E_OK) rc = scalar(t, e->b, config, &b, why, len);
    if (rc != E_OK) return rc;
    if (e->op == CLAIMS_E_RATIO && b == 0)
        return snprintf(why, len, "ratio with a zero divisor"), E_SKIP;
    *out = e->op == CLAIMS_E_RATIO ? a / b : a - b;
    return E_OK;
}

static bool in_band(const claim *c, double x)
{
    return x >= c->lo && x <= c->hi;
}

static bool holds(const char *rel, double a, double b, double tol)
{
    double m = tol * fmax(fabs(a), fabs(b));
    if (!strcmp(rel, "<")) return a < b - m;
    if (!strcmp(rel, "<=")) return a <= b + m;
    if (!strcmp(rel, ">")) return a > b + m;
    if (!strcmp(rel, ">=")) return a >= b - m;
    return fabs(a - b) <= m;
}

/* Set the verdict from an E_* code (SKIP/ERROR keep their reason). */
static bool settle(claims_result *r, int e)
{
    if (e == E_OK) return false;
    r->verdict = e == E_SKIP ? CLAIMS_SKIP : CLAIMS_ERROR;
    return true;
}

static void eval_band(const claim *c, const claims_table *t, claims_result *r)
{
    double x;
    if (settle(r, scalar(t, &c->value, NULL, &x, r->why, sizeof r->why))) return;
    snprintf(r->measured, sizeof r->measured, "%.6g", x);
    r->verdict = in_band(c, x) ? CLAIMS_PASS : CLAIMS_FAIL;
}

/* Benchmarks named in a list of at most 4, then "...". */
static void name_list(char *buf, size_t len, const char *const *names, int n)
{
    size_t o = 0;
    buf[0] = 0;
    for (int i = 0; i < n && i < 4 && o < len; i++)
        o += (size_t)snprintf(buf + o, len - o, "%s%s", i ? ", " : "", names[i]);
    if (n > 4 && o < len) snprintf(buf + o, len - o, ", ...");
}

static void eval_each(const claim *c, const claims_table *t, claims_result *r)
{
    vals v;
    const char *out[MAXB] = {0};
    int nin = 0, nout = 0, lo = 0, hi = 0;
    if (settle(r, gather(t, &c->value.sel, NULL, &v, r->why, sizeof r->why))) return;
    for (int j = 0; j < v.n; j++) {
        if (in_band(c, v.sum[j])) nin++;
        else out[nout++] = v.bench[j];
        if (v.sum[j] < v.sum[lo]) lo = j;
        if (v.sum[j] > v.sum[hi]) hi = j;
    }
    int need = c->at_least ? c->at_least : v.n;
    if (need > v.n) {
        snprintf(r->why, sizeof r->why, "%d benchmark%s of %s, the claim needs %d", v.n,
                 v.n == 1 ? "" : "s", c->value.sel.metric, need);
        r->verdict = CLAIMS_SKIP;
        return;
    }
    char outs[256];
    name_list(outs, sizeof outs, out, nout);
    snprintf(r->measured, sizeof r->measured, "%d of %d in band (min %.6g %s, max %.6g %s)%s%s",
             nin, v.n, v.sum[lo], v.bench[lo], v.sum[hi], v.bench[hi], nout ? "; out: " : "",
             outs);
    r->verdict = nin >= need ? CLAIMS_PASS : CLAIMS_FAIL;
}

static void eval_order_scalars(const claim *c, const claims_table *t, claims_result *r)
{
    double x[CLAIMS_MAX_ORDER];
    size_t o = 0;
    bool ok = true;
    for (int i = 0; i < c->norder; i++) {
        const claims_expr *e = c->order_expr[i] ? c->order_expr[i] : &c->value;
        if (settle(r, scalar(t, e, c->order_cfg[i], &x[i], r->why, sizeof r->why))) return;
        if (i && !holds(c->rel[i - 1], x[i - 1], x[i], c->tolerance)) ok = false;
        /* "lrr 1 <= gto 1.109": a config's name, then its value */
        const char *nm = c->order_cfg[i] ? c->order_cfg[i] : "";
        if (o < sizeof r->measured)
            o += (size_t)snprintf(r->measured + o, sizeof r->measured - o, "%s%s%s%s%s%.6g",
                                  i ? " " : "", i ? c->rel[i - 1] : "", i ? " " : "", nm,
                                  *nm ? " " : "", x[i]);
    }
    r->verdict = ok ? CLAIMS_PASS : CLAIMS_FAIL;
}

/* The ordering of configs on each benchmark of the "of" selection. */
static void eval_order_each(const claim *c, const claims_table *t, claims_result *r)
{
    vals *vv = calloc(CLAIMS_MAX_ORDER, sizeof *vv);   /* too large for the stack */
    if (!vv) { snprintf(r->why, sizeof r->why, "out of memory"); r->verdict = CLAIMS_ERROR; return; }
    for (int i = 0; i < c->norder; i++)
        if (settle(r, gather(t, &c->value.sel, c->order_cfg[i], &vv[i], r->why, sizeof r->why)))
            goto out;
    const char *bad[MAXB] = {0};
    int nbad = 0, n = 0;
    for (int j = 0; j < vv[0].n; j++) {
        /* the benchmark's value under each config, in the order's order */
        double v[CLAIMS_MAX_ORDER];
        int i = 1, k = 0;
        v[0] = vv[0].sum[j];
        for (; i < c->norder; i++) {
            for (k = 0; k < vv[i].n && strcmp(vv[i].bench[k], vv[0].bench[j]); k++) {}
            if (k == vv[i].n) break;
            v[i] = vv[i].sum[k];
        }
        /* no row under some config (one restricted by its "benchmarks", a
           run failed would have an empty row): not compared there */
        if (i < c->norder) continue;
        bool ok = true;
        for (i = 1; i < c->norder; i++)
            ok = ok && holds(c->rel[i - 1], v[i - 1], v[i], c->tolerance);
        n++;
        if (!ok) bad[nbad++] = vv[0].bench[j];
    }
    if (!n) {
        snprintf(r->why, sizeof r->why, "no benchmark has %s under every config of the order",
                 c->value.sel.metric);
        r->verdict = CLAIMS_SKIP;
        goto out;
    }
    char outs[256];
    name_list(outs, sizeof outs, bad, nbad);
    snprintf(r->measured, sizeof r->measured, "holds on %d of %d benchmarks%s%s", n - nbad, n,
             nbad ? "; not on: " : "", outs);
    r->verdict = n - nbad >= (c->at_least ? c->at_least : n) ? CLAIMS_PASS : CLAIMS_FAIL;
out:
    free(vv);
}

static void band_text(const claim *c, char *buf, size_t len)
{
    if (c->kind == CLAIMS_K_NONE) {
        snprintf(buf, len, "-");
        return;
    }
    if (c->kind == CLAIMS_K_ORDER) {
        snprintf(buf, len, "tolerance %g%s", c->tolerance, c->per_benchmark ? ", per benchmark" : "");
        return;
    }
    char lo[32], hi[32];
    if (isinf(c->lo)) snprintf(lo, sizeof lo, "-inf");
    else snprintf(lo, sizeof lo, "%g", c->lo);
    if (isinf(c->hi)) snprintf(hi, sizeof hi, "inf");
    else snprintf(hi, sizeof hi, "%g", c->hi);
    snprintf(buf, len, "[%s, %s]", lo, hi);
}

void claims_eval(const claim *c, const claims_table *t, claims_result *r)
{
    memset(r, 0, sizeof *r);
    band_text(c, r->band, sizeof r->band);
    if (c->skip) {              /* declared SKIP: never computed, whatever the tables hold */
        r->verdict = CLAIMS_SKIP;
        snprintf(r->why, sizeof r->why, "%s", c->skip);
        return;
    }
    if (c->kind == CLAIMS_K_BAND) eval_band(c, t, r);
    else if (c->kind == CLAIMS_K_EACH) eval_each(c, t, r);
    else if (c->per_benchmark) eval_order_each(c, t, r);
    else eval_order_scalars(c, t, r);
}
