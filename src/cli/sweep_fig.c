/*
** sweep_fig.c -- drawing an experiment's figures (sweep_fig_spec.c reads
** their specs) from the tables a sweep wrote, DIR/results.csv and
** DIR/derived.csv, so `--figures-only` redraws without running anything.
** Per figure, DIR/figures/ gets NAME.csv (exactly the numbers shown, as the
** tables write them), NAME.gp (the gnuplot script, to restyle by hand) and
** NAME.png / NAME.svg, drawn by gnuplot through cli_gnuplot.c.  A figure
** shows the experiment's first size; several seeds are averaged.  Stacked
** and timeseries figures are written by sweep_fig_stacked.c and
** sweep_fig_ts.c.
*/
#include "cli.h"
#include "sweep_fig.h"
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Split a CSV line in place (double quotes protect commas). */
static int split(char *s, char **out, int max)
{
    int n = 0;
    while (n < max) {
        out[n++] = s;
        bool q = false;
        for (; *s && (q || *s != ','); s++) q ^= *s == '"';
        if (!*s) break;
        *s++ = 0;
    }
    return n;
}

static int add_row(fig_table *t, char *const f[F_N])
{
    if (t->n == t->cap) {
        int cap = t->cap ? 2 * t->cap : 256;
        fig_row *r = realloc(t->rows, (size_t)cap * sizeof *r);
        if (!r) return -1;
        t->rows = r;
        t->cap = cap;
    }
    memcpy(t->rows[t->n++].f, f, sizeof t->rows[0].f);
    return 0;
}

/* Read dir/name; results.csv's columns from 7 on become rows of metric
   = the column's name. -1 when it cannot be read. */
static int read_table(fig_table *t, const char *dir, const char *name, bool results)
{
    char path[PATH_MAX + 64], *line = NULL, *hdr[256], *c[256];
    size_t cap = 0;
    int nh = 0;
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "r");
    if (!f) { cli_error("sweep", "cannot read %s: %s", path, strerror(errno)); return -1; }
    while (getline(&line, &cap, f) > 0) {
        line[strcspn(line, "\r\n")] = 0;
        char **l = realloc(t->lines, (size_t)(t->nlines + 1) * sizeof *l);
        if (!l) break;
        t->lines = l;
        t->lines[t->nlines++] = line;
        char *s = line;
        line = NULL;
        cap = 0;
        if (!nh) { nh = split(s, hdr, 256); continue; }
        int n = split(s, c, 256);
        if (!results && n >= F_N) add_row(t, c);   /* a best's source_config after */
        for (int k = 7; results && k < n && k < nh; k++) {
            char *r[F_N] = {hdr[k], c[0], c[1], c[2], c[3], c[k]};
            if (strcmp(c[5], "ok") != 0) r[F_VALUE] = "";   /* never a number */
            add_row(t, r);
        }
        if (results && n >= 7) {
            /* the row's status and hash (a timeseries figure's files) */
            add_row(t, (char *[F_N]){"#status", c[0], c[1], c[2], c[3], c[5]});
            add_row(t, (char *[F_N]){"#hash", c[0], c[1], c[2], c[3], c[4]});
        }
    }
    free(line);
    fclose(f);
    if (!nh) { cli_error("sweep", "%s is empty", path); return -1; }
    return 0;
}

static void free_table(fig_table *t)
{
    for (int i = 0; i < t->nlines; i++) free(t->lines[i]);
    free(t->lines);
    free(t->rows);
}

const char *sweep_fig_cell(const fig_table *t, const char *m, const char *bench,
                           const char *size, const char *config, char *buf, size_t len)
{
    double sum = 0;
    int n = 0;
    const char *text = "";
    for (int i = 0; i < t->n; i++) {
        char *const *f = t->rows[i].f;
        if (strcmp(f[F_METRIC], m) || strcmp(f[F_BENCH], bench) || strcmp(f[F_SIZE], size)
            || strcmp(f[F_CONFIG], config))
            continue;
        char *end;
        double v = strtod(f[F_VALUE], &end);
        if (end == f[F_VALUE] || *end || !isfinite(v)) return "";
        sum += v;
        text = f[F_VALUE];
        n++;
    }
    if (n <= 1) return text;
    snprintf(buf, len, "%.10g", sum / n);
    return buf;
}

const char *sweep_fig_value(const fig_table *t, const char *m, const char *bench,
                            const char *size, const char *config, const char *seed)
{
    for (int i = 0; i < t->n; i++) {
        char *const *f = t->rows[i].f;
        if (!strcmp(f[F_METRIC], m) && !strcmp(f[F_BENCH], bench) && !strcmp(f[F_SIZE], size)
            && !strcmp(f[F_CONFIG], config) && !strcmp(f[F_SEED], seed))
            return f[F_VALUE];
    }
    return NULL;
}

void sweep_fig_gp_str(FILE *f, const char *s)
{
    fputc('\'', f);
    for (; *s; s++) fputs(*s == '\'' ? "''" : (char[2]){*s, 0}, f);
    fputc('\'', f);
}

void sweep_fig_gp_head(FILE *o, const sweep_figure *g, const char *ylabel)
{
    fprintf(o, "set datafile separator ','\nset grid ytics\nset title ");
    sweep_fig_gp_str(o, g->title ? g->title : g->name);
    fputs("\nset ylabel ", o);
    sweep_fig_gp_str(o, g->ylabel ? g->ylabel : ylabel);
    fputc('\n', o);
    if (g->has_baseline)
        fprintf(o, "set arrow from graph 0, first %.10g to graph 1, first %.10g nohead dt 2 "
                   "lw 1.5 lc rgb 'gray30' front\n", g->baseline, g->baseline);
}

void sweep_fig_gp_term(FILE *o, const char *stem, int t, int w)
{
    char path[PATH_MAX + 16];
    fprintf(o, "set terminal %s noenhanced size %d,560 font ',11'\nset output ",
            t ? "svg" : "pngcairo", w);
    snprintf(path, sizeof path, "%s.%s", stem, t ? "svg" : "png");
    sweep_fig_gp_str(o, path);
    fputc('\n', o);
}

static const char *const mean_names[] = {"", "", "", "", "geomean", "hmean", "mean"};

const char *sweep_fig_series_name(const sweep_exp *x, const sweep_figure *g, int k)
{
    int s = g->sel[k];
    return s >= 0 ? x->configs[s].name : x->derived[-1 - s].name;
}

bool sweep_fig_draws(const sweep_figure *g, int b)
{
    return !g->bench || g->bench[b];
}

/* The mean row's metric for series k of a bars figure whose mean is m: m
   itself for a config; for a best, the mean of the same kind and group
   whose `of` is that best (NULL when the file has none). */
static const sweep_derived *series_mean(const sweep_exp *x, const sweep_figure *g,
                                        const sweep_derived *m, int k)
{
    if (g->sel[k] >= 0) return m;
    const char *best = x->derived[-1 - g->sel[k]].name;
    for (int i = 0; i < x->nderived; i++) {
        const sweep_derived *d = &x->derived[i];
        if (d->kind == m->kind && strcmp(d->of, best) == 0
            && strcmp(d->group_label, m->group_label) == 0)
            return d;
    }
    return NULL;
}

/* NAME.csv of a bars figure: one row per benchmark drawn, one column per
   series (a config, or a best: its own rows), then the group mean's row.
   Returns the number of rows. */
static int bars_csv(FILE *o, const fig_table *t, const sweep_exp *x, const sweep_figure *g)
{
    const char *size = sweep_size_names[x->sizes[0]];
    char buf[64];
    int rows = 0;
    fputs("benchmark", o);
    for (int k = 0; k < g->nsel; k++) fprintf(o, ",%s", sweep_fig_series_name(x, g, k));
    for (int b = 0; b < x->nbenches; b++) {
        if (!sweep_fig_draws(g, b)) continue;
        fprintf(o, "\n%s", x->benches[b].name);
        rows++;
        for (int k = 0; k < g->nsel; k++) {
            const char *s = sweep_fig_series_name(x, g, k);
            fprintf(o, ",%s", sweep_fig_cell(t, g->sel[k] >= 0 ? g->metric : s,
                                             x->benches[b].name, size, s, buf, sizeof buf));
        }
    }
    const sweep_derived *m = NULL;
    for (int i = 0; g->mean && i < x->nderived; i++)
        if (strcmp(x->derived[i].name, g->mean) == 0) m = &x->derived[i];
    if (m) {
        fprintf(o, "\n%s", mean_names[m->kind]);
        if (strcmp(m->group_label, "all") != 0) fprintf(o, "(%s)", m->group_label);
        for (int k = 0; k < g->nsel; k++) {
            const sweep_derived *mk = series_mean(x, g, m, k);
            fprintf(o, ",%s", !mk ? "" : sweep_fig_cell(t, mk->name, m->group_label, size,
                                                        sweep_fig_series_name(x, g, k), buf,
                                                        sizeof buf));
        }
    }
    fputc('\n', o);
    return rows + (m != NULL);
}

/* NAME.csv of a lines figure: one row per config that has the setting, in
   ascending order of it, one column per benchmark. */
static int lines_csv(FILE *o, const fig_table *t, const sweep_exp *x, const sweep_figure *g)
{
    const char *size = sweep_size_names[x->sizes[0]];
    char buf[64];
    int order[256], n = 0;
    double xv[256];
    for (int j = 0; j < g->nsel && n < 256; j++) {
        double v;
        int c = g->sel[j];
        if (!sweep_fig_setting(&x->configs[c], g->x, &v)) continue;
        int k = n++;
        for (; k > 0 && xv[k - 1] > v; k--) { xv[k] = xv[k - 1]; order[k] = order[k - 1]; }
        xv[k] = v;
        order[k] = c;
    }
    fputs(g->x, o);
    for (int b = 0; b < x->nbenches; b++)
        if (sweep_fig_draws(g, b)) fprintf(o, ",%s", x->benches[b].name);
    for (int i = 0; i < n; i++) {
        fprintf(o, "\n%.10g", xv[i]);
        for (int b = 0; b < x->nbenches; b++)
            if (sweep_fig_draws(g, b))
                fprintf(o, ",%s", sweep_fig_cell(t, g->metric, x->benches[b].name, size,
                                                 x->configs[order[i]].name, buf, sizeof buf));
    }
    fputc('\n', o);
    return n;
}

/* The script of a bars or lines figure: the same figure as PNG, then as
   SVG. */
static void script(FILE *o, const sweep_exp *x, const sweep_figure *g, const char *stem,
                   int rows)
{
    int ncol = 0;
    for (int b = 0; b < x->nbenches; b++) ncol += sweep_fig_draws(g, b);
    if (g->kind == SWEEP_FIG_BARS) ncol = g->nsel;
    int w = g->kind == SWEEP_FIG_BARS ? 160 + rows * (24 * ncol + 30) : 900;
    char path[PATH_MAX + 16];
    w = w < 800 ? 800 : w > 4000 ? 4000 : w;
    sweep_fig_gp_head(o, g, g->metric);
    fputs("set key below center horizontal\n", o);
    if (g->kind == SWEEP_FIG_BARS)
        fprintf(o, "set style data histograms\nset style histogram clustered gap 1\n"
                   "set style fill solid 0.85 border -1\nset yrange [0:*]\n%s",
                rows > 6 ? "set xtics rotate by 40 right\n" : "");
    else {
        fputs("set xlabel ", o);
        sweep_fig_gp_str(o, g->x);
        fputc('\n', o);
    }
    snprintf(path, sizeof path, "%s.csv", stem);
    for (int t = 0; t < 2; t++) {
        sweep_fig_gp_term(o, stem, t, w);
        fprintf(o, "plot for [i=2:%d] ", ncol + 1);
        sweep_fig_gp_str(o, path);
        fputs(g->kind == SWEEP_FIG_BARS ? " using i:xtic(1) title columnhead(i)\n"
                                        : " using 1:i with linespoints pt 7 title "
                                          "columnhead(i)\n", o);
    }
    fputs("unset output\n", o);
}

/* NAME.csv and NAME.gp of figure g; -1 after a message. */
static int write_files(const char *dir, const char *stem, const fig_table *t,
                       const sweep_exp *x, const sweep_figure *g)
{
    char path[PATH_MAX + 16];
    snprintf(path, sizeof path, "%s.csv", stem);
    FILE *o = fopen(path, "w");
    if (!o) { cli_error("sweep", "cannot write %s: %s", path, strerror(errno)); return -1; }
    int rows = g->kind == SWEEP_FIG_BARS      ? bars_csv(o, t, x, g)
               : g->kind == SWEEP_FIG_LINES   ? lines_csv(o, t, x, g)
               : g->kind == SWEEP_FIG_STACKED ? sweep_fig_stacked_csv(o, t, x, g)
                                              : sweep_fig_ts_csv(o, dir, t, x, g);
    if (fclose(o) != 0 || rows < 0) {
        if (rows >= 0) cli_error("sweep", "cannot write %s", path);
        return -1;
    }
    snprintf(path, sizeof path, "%s.gp", stem);
    if (!(o = fopen(path, "w"))) {
        cli_error("sweep", "cannot write %s: %s", path, strerror(errno));
        return -1;
    }
    if (g->kind == SWEEP_FIG_STACKED) sweep_fig_stacked_script(o, x, g, stem, rows);
    else if (g->kind == SWEEP_FIG_TIMESERIES) sweep_fig_ts_script(o, g, stem, rows);
    else script(o, x, g, stem, rows);
    if (fclose(o) != 0) { cli_error("sweep", "cannot write %s", path); return -1; }
    return 0;
}

/* NAME.csv, NAME.gp, then gnuplot for NAME.png and NAME.svg. */
static int draw(const char *gnuplot, const char *dir, const char *fdir, const fig_table *t,
                const sweep_exp *x, const sweep_figure *g)
{
    char stem[PATH_MAX], path[PATH_MAX + 16];
    snprintf(stem, sizeof stem, "%s/%s", fdir, g->name);
    if (write_files(dir, stem, t, x, g)) return -1;
    snprintf(path, sizeof path, "%s.gp", stem);
    int st = cli_gnuplot_run(gnuplot, path);
    for (int k = 0; k < 2 && st == 0; k++) {
        snprintf(path, sizeof path, "%s.%s", stem, k ? "svg" : "png");
        struct stat sb;
        if (stat(path, &sb) != 0 || sb.st_size == 0) st = -1;
    }
    if (st != 0) {
        cli_error("sweep", "figure %s: gnuplot (%s) failed (status %d) on %s.gp", g->name,
                  gnuplot, st, stem);
        return -1;
    }
    fprintf(stderr, "sweep: figure %s.{png,svg,csv}\n", stem);
    return 0;
}

int sweep_draw_figures(const char *dir, const sweep_exp *x)
{
    char gnuplot[PATH_MAX], fdir[PATH_MAX];
    fig_table t = {0};
    int rc = 0;
    if (!x->nfigures) return 0;
    if (!cli_gnuplot_find(gnuplot, sizeof gnuplot, "sweep", "drawing the figures")) return -1;
    if (read_table(&t, dir, "results.csv", true)
        || (x->nderived && read_table(&t, dir, "derived.csv", false))) {
        free_table(&t);
        return -1;
    }
    snprintf(fdir, sizeof fdir, "%s/figures", dir);
    if (mkdir(fdir, 0777) != 0 && errno != EEXIST) {
        cli_error("sweep", "cannot create %s: %s", fdir, strerror(errno));
        fdir[0] = 0;
        rc = -1;
    }
    /* a figure that fails does not keep the others from being drawn */
    for (int i = 0; fdir[0] && i < x->nfigures; i++)
        if (draw(gnuplot, dir, fdir, &t, x, &x->figures[i])) rc = -1;
    free_table(&t);
    return rc;
}
