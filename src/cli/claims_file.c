/*
** claims_file.c -- reading a claims file (docs/experiments.md, "Claims and
** `warpsim reproduce`"): per claim an id, the spec section, the claim in
** words, the paper's value, the acceptance band and how to compute it from
** a sweep's tables (a scalar, a per-benchmark value, or an ordering).
** Everything the file can get wrong on its own is refused here, naming the
** file, the claim and the member; names the tables must hold (metrics,
** configs) are checked when the claim is evaluated (claims_eval.c).
** Messages go straight to stderr (no cli.c) so the unit test links this
** file alone.
*/
#include "claims.h"
#include <jansson.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Context of the claim being read, for messages. */
typedef struct ctx {
    claims_file *cf;
    const char *id;             /* the claim's id, or NULL before it is known */
    int index;
} ctx;

__attribute__((format(printf, 3, 4)))
static int bad(const ctx *k, const char *member, const char *fmt, ...)
{
    va_list ap;
    fprintf(stderr, "warpsim reproduce: %s: claim ", k->cf->path);
    if (k->id) fprintf(stderr, "'%s'", k->id);
    else fprintf(stderr, "#%d", k->index + 1);
    fprintf(stderr, " ($.claims[%d]%s%s): ", k->index, *member ? "." : "", member);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    return -1;
}

static bool only_keys(json_t *o, const char *const *keys, const char **unknown)
{
    const char *k;
    json_t *v;
    json_object_foreach(o, k, v) {
        int j = 0;
        while (keys[j] && strcmp(keys[j], k)) j++;
        if (!keys[j]) { *unknown = k; return false; }
    }
    return true;
}

static const char *const agg_names[] = {"", "geomean", "hmean", "mean", "min", "max", NULL};

static int load_benches(const ctx *k, const char *m, json_t *b, claims_sel *s)
{
    size_t i;
    json_t *v;
    if (!b) return 0;
    if (json_is_string(b)) { s->benches[s->nbenches++] = json_string_value(b); return 0; }
    if (json_is_object(b) && json_object_size(b) == 1
        && json_is_string(json_object_get(b, "class"))) {
        s->cls = json_string_value(json_object_get(b, "class"));
        return 0;
    }
    if (!json_is_array(b) || !json_array_size(b) || json_array_size(b) > CLAIMS_MAX_BENCHES)
        return bad(k, m, "expected a benchmark name, a list of up to %d names or "
                   "{\"class\": TAG}", CLAIMS_MAX_BENCHES);
    json_array_foreach(b, i, v) {
        if (!json_is_string(v)) return bad(k, m, "expected benchmark names");
        s->benches[s->nbenches++] = json_string_value(v);
    }
    return 0;
}

/* A selection: {"metric", "config", "size", "benchmark", "agg"}. */
static int load_sel(const ctx *k, const char *m, json_t *o, claims_sel *s, bool config_ok)
{
    static const char *const keys[] = {"metric", "config", "size", "benchmark", "agg", NULL};
    const char *unk, *agg;
    char mb[256];
    if (!json_is_object(o))
        return bad(k, m, "expected a selection {\"metric\": ..., \"config\": ..., ...}");
    if (!only_keys(o, keys, &unk))
        return bad(k, m, "unknown key '%s' (valid: metric, config, size, benchmark, agg)", unk);
    memset(s, 0, sizeof *s);
    s->metric = json_string_value(json_object_get(o, "metric"));
    s->config = json_string_value(json_object_get(o, "config"));
    s->size = json_string_value(json_object_get(o, "size"));
    if (!s->metric) return bad(k, m, "expected \"metric\": a column of results.csv or a "
                               "metric of derived.csv");
    if (json_object_get(o, "config") && !s->config) return bad(k, m, "config: expected a name");
    if (s->config && !config_ok)
        return bad(k, m, "config: the ordering names the configs; leave it out here");
    if (json_object_get(o, "size") && (!s->size || (strcmp(s->size, "tiny")
                                                    && strcmp(s->size, "small")
                                                    && strcmp(s->size, "default"))))
        return bad(k, m, "size: expected tiny, small or default");
    snprintf(mb, sizeof mb, "%s.benchmark", m);
    if (load_benches(k, mb, json_object_get(o, "benchmark"), s)) return -1;
    agg = json_string_value(json_object_get(o, "agg"));
    if (json_object_get(o, "agg")) {
        for (s->agg = 1; agg && agg_names[s->agg] && strcmp(agg_names[s->agg], agg); s->agg++) {}
        if (!agg || !agg_names[s->agg])
            return bad(k, m, "agg: expected geomean, hmean, mean, min or max");
    }
    return 0;
}

/* A scalar: a selection, {"ratio": [A, B]} or {"diff": [A, B]}. */
static int load_expr(const ctx *k, const char *m, json_t *o, claims_expr *e, int depth)
{
    json_t *r = json_object_get(o, "ratio"), *d = json_object_get(o, "diff"), *ab = r ? r : d;
    char mb[256];
    if (depth > 8) return bad(k, m, "expressions nest too deep");
    if (!ab) { e->op = CLAIMS_E_SEL; return load_sel(k, m, o, &e->sel, true); }
    snprintf(mb, sizeof mb, "%s.%s", m, r ? "ratio" : "diff");
    if (json_object_size(o) != 1 || !json_is_array(ab) || json_array_size(ab) != 2)
        return bad(k, mb, "expected an array of two values [A, B]");
    e->op = r ? CLAIMS_E_RATIO : CLAIMS_E_DIFF;
    claims_file *cf = k->cf;
    claims_expr **ow = realloc(cf->owned, (size_t)(cf->nowned + 2) * sizeof *ow);
    if (!ow) return bad(k, m, "out of memory");
    cf->owned = ow;
    e->a = ow[cf->nowned++] = calloc(1, sizeof *e->a);
    e->b = ow[cf->nowned++] = calloc(1, sizeof *e->b);
    if (!e->a || !e->b) return bad(k, m, "out of memory");
    char ma[300], mbb[300];
    snprintf(ma, sizeof ma, "%s[0]", mb);
    snprintf(mbb, sizeof mbb, "%s[1]", mb);
    return load_expr(k, ma, json_array_get(ab, 0), e->a, depth + 1)
        || load_expr(k, mbb, json_array_get(ab, 1), e->b, depth + 1) ? -1 : 0;
}

/* "band": [lo, hi], either null for an open end. */
static int load_band(const ctx *k, json_t *b, claim *c)
{
    json_t *lo = json_array_get(b, 0), *hi = json_array_get(b, 1);
    if (!json_is_array(b) || json_array_size(b) != 2 || !(json_is_number(lo) || json_is_null(lo))
        || !(json_is_number(hi) || json_is_null(hi)) || (json_is_null(lo) && json_is_null(hi)))
        return bad(k, "band", "expected [LOW, HIGH] (numbers; null for an open end)");
    c->lo = json_is_null(lo) ? -INFINITY : json_number_value(lo);
    c->hi = json_is_null(hi) ? INFINITY : json_number_value(hi);
    if (c->lo > c->hi) return bad(k, "band", "LOW %g is above HIGH %g", c->lo, c->hi);
    return 0;
}

static bool is_rel(const char *s)
{
    return s && (!strcmp(s, "<") || !strcmp(s, "<=") || !strcmp(s, ">") || !strcmp(s, ">=")
                 || !strcmp(s, "~"));
}

/* "order": [ITEM, REL, ITEM, ...]; an ITEM is a config name (the claim's
   "of" selection under that config) or a scalar. */
static int load_order(const ctx *k, json_t *o, claim *c)
{
    json_t *a = json_object_get(o, "order"), *of = json_object_get(o, "of");
    size_t n = json_array_size(a);
    if (!json_is_array(a) || n < 3 || n % 2 == 0 || n > 2 * CLAIMS_MAX_ORDER - 1)
        return bad(k, "order", "expected [A, REL, B, ...] (2 to %d items, REL one of < <= > "
                   ">= ~)", CLAIMS_MAX_ORDER);
    bool names = false;
    for (size_t i = 0; i < n; i += 2) {
        json_t *it = json_array_get(a, i);
        char m[64];
        snprintf(m, sizeof m, "order[%zu]", i);
        if (i + 1 < n) {
            const char *r = json_string_value(json_array_get(a, i + 1));
            if (!is_rel(r)) return bad(k, "order", "item %zu: expected one of < <= > >= ~", i + 1);
            strcpy(c->rel[c->norder], r);
        }
        if (json_is_string(it)) { c->order_cfg[c->norder] = json_string_value(it); names = true; }
        else {
            if (c->per_benchmark) return bad(k, m, "per_benchmark orders configs: expected a name");
            claims_file *cf = k->cf;
            claims_expr **ow = realloc(cf->owned, (size_t)(cf->nowned + 1) * sizeof *ow);
            if (!ow) return -1;
            cf->owned = ow;
            c->order_expr[c->norder] = ow[cf->nowned++] = calloc(1, sizeof(claims_expr));
            if (load_expr(k, m, it, c->order_expr[c->norder], 0)) return -1;
        }
        c->norder++;
    }
    if (names && !of) return bad(k, "of", "expected the selection the config names apply to");
    if (of && load_sel(k, "of", of, &c->value.sel, false)) return -1;
    if (c->per_benchmark && c->value.sel.agg)
        return bad(k, "of.agg", "per_benchmark compares each benchmark: no agg");
    json_t *t = json_object_get(o, "tolerance");
    if (t && (!json_is_number(t) || json_number_value(t) < 0))
        return bad(k, "tolerance", "expected a relative margin >= 0 (e.g. 0.02)");
    c->tolerance = t ? json_number_value(t) : 0;
    return 0;
}

/* The members every claim has. */
static int load_head(const ctx *k, json_t *o, claim *c)
{
    static const char *const keys[] = {"id", "section", "text", "paper", "band", "value", "each",
                                       "at_least", "order", "of", "tolerance", "per_benchmark",
                                       "skip", NULL};
    const char *unk;
    if (!only_keys(o, keys, &unk))
        return bad(k, "", "unknown key '%s' (valid: id, section, text, paper, band, value, each, "
                   "at_least, order, of, tolerance, per_benchmark, skip)", unk);
    c->section = json_string_value(json_object_get(o, "section"));
    c->text = json_string_value(json_object_get(o, "text"));
    if (!c->section) return bad(k, "section", "expected the spec section, e.g. \"ccws §8.10\"");
    if (!c->text) return bad(k, "text", "expected the claim in words");
    json_t *p = json_object_get(o, "paper");
    if (json_is_string(p)) snprintf(c->paper, sizeof c->paper, "%s", json_string_value(p));
    else if (json_is_number(p)) snprintf(c->paper, sizeof c->paper, "%g", json_number_value(p));
    else return bad(k, "paper", "expected the paper's value: a number or words");
    json_t *al = json_object_get(o, "at_least");
    if (al && (!json_is_integer(al) || json_integer_value(al) < 1))
        return bad(k, "at_least", "expected a count >= 1");
    c->at_least = al ? (int)json_integer_value(al) : 0;
    c->per_benchmark = json_is_true(json_object_get(o, "per_benchmark"));
    json_t *sk = json_object_get(o, "skip");
    if (sk && (!json_is_string(sk) || !*json_string_value(sk)))
        return bad(k, "skip", "expected the reason the claim cannot be checked yet");
    c->skip = sk ? json_string_value(sk) : NULL;
    return 0;
}

static int load_claim(ctx *k, json_t *o, claim *c)
{
    json_t *id = json_object_get(o, "id");
    if (!json_is_object(o)) return bad(k, "", "expected an object");
    if (!json_is_string(id) || !*json_string_value(id) || strpbrk(json_string_value(id), " |\n"))
        return bad(k, "id", "expected an id (no spaces or '|')");
    c->id = k->id = json_string_value(id);
    for (int i = 0; i < k->index; i++)
        if (strcmp(k->cf->claims[i].id, c->id) == 0) return bad(k, "id", "id used twice");
    if (load_head(k, o, c)) return -1;
    int nk = !!json_object_get(o, "value") + !!json_object_get(o, "each")
           + !!json_object_get(o, "order");
    if (nk == 0 && c->skip) {   /* a declared SKIP need not say how it will be computed */
        c->kind = CLAIMS_K_NONE;
        if (json_object_get(o, "band") || json_object_get(o, "of") || c->at_least
            || json_object_get(o, "tolerance") || c->per_benchmark)
            return bad(k, "", "a \"skip\" without \"value\", \"each\" or \"order\" takes no "
                       "band, of, tolerance, at_least or per_benchmark");
        return 0;
    }
    if (nk != 1) return bad(k, "", "expected exactly one of \"value\" (a scalar in the band), "
                           "\"each\" (every benchmark in the band) or \"order\"");
    if (json_object_get(o, "order")) {
        c->kind = CLAIMS_K_ORDER;
        if (json_object_get(o, "band")) return bad(k, "band", "an ordering has no band");
        if (c->at_least && !c->per_benchmark)
            return bad(k, "at_least", "only with \"each\" or \"per_benchmark\": true");
        return load_order(k, o, c);
    }
    if (json_object_get(o, "of") || json_object_get(o, "tolerance") || c->per_benchmark)
        return bad(k, "", "\"of\", \"tolerance\" and \"per_benchmark\" belong to an \"order\"");
    if (load_band(k, json_object_get(o, "band"), c)) return -1;
    if (json_object_get(o, "each")) {
        c->kind = CLAIMS_K_EACH;
        if (load_sel(k, "each", json_object_get(o, "each"), &c->value.sel, true)) return -1;
        if (c->value.sel.agg) return bad(k, "each.agg", "\"each\" checks every benchmark: no agg");
        return 0;
    }
    c->kind = CLAIMS_K_BAND;
    if (c->at_least) return bad(k, "at_least", "only with \"each\" or \"per_benchmark\": true");
    return load_expr(k, "value", json_object_get(o, "value"), &c->value, 0);
}

static int load_doc(claims_file *cf, json_t *root)
{
    json_t *a = json_object_get(root, "claims"), *v;
    const char *k;
    json_object_foreach(root, k, v)
        if (strcmp(k, "claims") && strcmp(k, "paper") && strcmp(k, "about")) {
            fprintf(stderr, "warpsim reproduce: %s: unknown key '%s' (valid: paper, about, "
                    "claims)\n", cf->path, k);
            return -1;
        }
    if (!json_is_array(a) || !json_array_size(a)) {
        fprintf(stderr, "warpsim reproduce: %s: $.claims: expected a non-empty array of claims\n",
                cf->path);
        return -1;
    }
    cf->claims = calloc(json_array_size(a), sizeof *cf->claims);
    if (!cf->claims) return -1;
    size_t i;
    json_array_foreach(a, i, v) {
        ctx c = {cf, NULL, (int)i};
        if (load_claim(&c, v, &cf->claims[i])) return -1;
        cf->n++;
    }
    return 0;
}

static int finish(claims_file *cf, json_t *root, const json_error_t *e)
{
    if (!root) {
        fprintf(stderr, "warpsim reproduce: %s:%d:%d: %s\n", cf->path, e->line, e->column,
                e->text);
        return -1;
    }
    cf->json = root;
    if (!json_is_object(root)) {
        fprintf(stderr, "warpsim reproduce: %s: expected an object {\"claims\": [...]}\n",
                cf->path);
        return -1;
    }
    return load_doc(cf, root);
}

int claims_load(claims_file *cf, const char *path)
{
    json_error_t e;
    memset(cf, 0, sizeof *cf);
    snprintf(cf->path, sizeof cf->path, "%s", path);
    return finish(cf, json_load_file(path, JSON_REJECT_DUPLICATES, &e), &e);
}

int claims_load_string(claims_file *cf, const char *name, const char *text)
{
    json_error_t e;
    memset(cf, 0, sizeof *cf);
    snprintf(cf->path, sizeof cf->path, "%s", name);
    return finish(cf, json_loads(text, JSON_REJECT_DUPLICATES, &e), &e);
}

void claims_free(claims_file *cf)
{
    for (int i = 0; i < cf->nowned; i++) free(cf->owned[i]);
    free(cf->owned);
    free(cf->claims);
    json_decref(cf->json);
    memset(cf, 0, sizeof *cf);
}

int claims_count(const char *path)
{
    json_error_t e;
    json_t *root = json_load_file(path, 0, &e);
    json_t *a = json_object_get(root, "claims");
    int n = json_is_array(a) ? (int)json_array_size(a) : -1;
    json_decref(root);
    return n;
}
