/*
** sweep_fig_spec.c -- the `figures` member of an experiment file: a list
** of figures ("bars": a metric per benchmark, one bar per config, plus an
** optional group-mean bar; "lines": a metric against a numeric setting of
** the configs, one line per benchmark).  Checked when the file is read, so
** a bad figure is refused (file and JSON path, exit 2) before any run.
*/
#include "cli.h"
#include "sweep.h"
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

/* The metric and, per kind, `mean` or `x`. */
static int check_data(const sweep_exp *x, int i, sweep_figure *f)
{
    const sweep_derived *d = f->metric ? find_derived(x, f->metric) : NULL;
    if (!f->metric || (find_stat(x, f->metric) < 0 && (!d || d->kind > SWEEP_D_RATIO)))
        return bad(x, i, "metric", "expected a collected statistic or a speedup/normalized "
                   "metric of $.derived");
    if (f->kind == SWEEP_FIG_BARS) {
        const sweep_derived *m = f->mean ? find_derived(x, f->mean) : NULL;
        if (f->mean && (!m || m->kind <= SWEEP_D_RATIO || m->kind == SWEEP_D_BEST
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

static int load_one(sweep_exp *x, json_t *o, int i)
{
    static const char *const keys[] = {"name", "kind", "metric", "mean", "x", "title", "ylabel",
                                       "baseline", NULL};
    sweep_figure *f = &x->figures[i];
    const char *k;
    json_t *v;
    if (!json_is_object(o)) return bad(x, i, NULL, "expected an object {\"name\": ..., ...}");
    json_object_foreach(o, k, v) {
        int j = 0;
        while (keys[j] && strcmp(keys[j], k)) j++;
        if (!keys[j])
            return bad(x, i, NULL, "unknown key '%s' (valid: name, kind, metric, mean, x, "
                       "title, ylabel, baseline)", k);
        if (strcmp(k, "baseline") && !json_is_string(v)) return bad(x, i, k, "expected a string");
    }
    f->name = json_string_value(json_object_get(o, "name"));
    const char *kind = json_string_value(json_object_get(o, "kind"));
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
    if (!kind || (strcmp(kind, "bars") && strcmp(kind, "lines")))
        return bad(x, i, "kind", "expected \"bars\" or \"lines\"");
    f->kind = strcmp(kind, "bars") == 0 ? SWEEP_FIG_BARS : SWEEP_FIG_LINES;
    json_t *b = json_object_get(o, "baseline");
    if (b && !json_is_number(b)) return bad(x, i, "baseline", "expected a number (e.g. 1.0)");
    f->has_baseline = b != NULL;
    f->baseline = b ? json_number_value(b) : 0;
    return check_data(x, i, f);
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
