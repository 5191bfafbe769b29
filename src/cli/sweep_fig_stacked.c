/*
** sweep_fig_stacked.c -- the "stacked" figure of `warpsim sweep`: a
** breakdown (collected statistics such as total.issue_slots.issued, ...
** .scoreboard, ... .idle) drawn as one stack per benchmark x config of the
** experiment's first size (several seeds averaged), grouped by benchmark
** when there are several configs, optionally as percentages of each
** stack's sum or as fractions of one config's stack sum (`normalize_to`:
** Mascar's Fig. 14, each bar relative to the baseline's total).  NAME.csv
** holds exactly the numbers drawn: one row per stack, one column per
** component.
*/
#include "cli.h"
#include "sweep_fig.h"
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The components of one stack (text as the table writes them, and
   values) and their sum; false when one is missing or not a number. */
static bool stack_vals(const fig_table *t, const sweep_figure *g, const char *bench,
                       const char *size, const char *config, char buf[][64],
                       const char **text, double *v, double *sum)
{
    bool ok = true;
    *sum = 0;
    for (int k = 0; k < g->ncomp; k++) {
        char *end;
        text[k] = sweep_fig_cell(t, g->comp[k], bench, size, config, buf[k], sizeof buf[k]);
        v[k] = strtod(text[k], &end);
        ok &= end != text[k] && !*end && isfinite(v[k]);
        *sum += v[k];
    }
    return ok;
}

/* One stack's row: its components as the table writes them, as
   percentages of their sum (`normalize`) or as fractions of the
   `normalize_to` config's stack sum for the same benchmark (10
   significant digits); every cell empty when a component is missing or
   the sum divided by is not positive, as a failed run is never a number. */
static void stack_row(FILE *o, const fig_table *t, const sweep_exp *x, const sweep_figure *g,
                      const char *bench, const char *size, const char *config)
{
    char buf[SWEEP_FIG_MAX_COMP][64];
    const char *text[SWEEP_FIG_MAX_COMP];
    double v[SWEEP_FIG_MAX_COMP], sum, div = 0;
    bool ok = stack_vals(t, g, bench, size, config, buf, text, v, &sum);
    if (g->normalize) div = sum;
    if (g->normalize_to >= 0) {
        char bbuf[SWEEP_FIG_MAX_COMP][64];
        const char *btext[SWEEP_FIG_MAX_COMP];
        double bv[SWEEP_FIG_MAX_COMP];
        ok &= stack_vals(t, g, bench, size, x->configs[g->normalize_to].name, bbuf, btext, bv,
                         &div);
    }
    bool scaled = g->normalize || g->normalize_to >= 0;
    if (scaled && !(div > 0)) ok = false;
    fprintf(o, "%s,%s", bench, config);
    for (int k = 0; k < g->ncomp; k++) {
        if (!ok) fputc(',', o);
        else if (g->normalize) fprintf(o, ",%.10g", 100.0 * v[k] / div);
        else if (scaled) fprintf(o, ",%.10g", v[k] / div);
        else fprintf(o, ",%s", text[k]);
    }
    fputc('\n', o);
}

int sweep_fig_stacked_csv(FILE *o, const fig_table *t, const sweep_exp *x,
                          const sweep_figure *g)
{
    const char *size = sweep_size_names[x->sizes[0]];
    fputs("benchmark,config", o);
    for (int k = 0; k < g->ncomp; k++) fprintf(o, ",%s", g->comp[k]);
    fputc('\n', o);
    int rows = 0;
    for (int b = 0; b < x->nbenches; b++)
        for (int k = 0; k < g->nsel && sweep_fig_draws(g, b); k++)
            if (sweep_runs(x, g->sel[k], b)) {
                stack_row(o, t, x, g, x->benches[b].name, size, x->configs[g->sel[k]].name);
                rows++;
            }
    return rows;
}

/* How many stacks benchmark b has: its selected configs that run on it
   (a restricted config has no point, so no row, elsewhere). */
static int stacks_of(const sweep_exp *x, const sweep_figure *g, int b)
{
    int n = 0;
    for (int k = 0; k < g->nsel && sweep_fig_draws(g, b); k++)
        n += sweep_runs(x, g->sel[k], b);
    return n;
}

/* The plot command: with one config a stack per benchmark (its name
   below); with several, a group per benchmark (gnuplot's newhistogram,
   the benchmark under the group, `drop` character heights below the
   axis) of one stack per config, every group starting from the same
   colour so a component keeps its colour. */
static void plot_cmd(FILE *o, const sweep_exp *x, const sweep_figure *g, const char *csv,
                     double drop)
{
    int last = g->ncomp + 2, first = 0;
    if (g->nsel == 1) {
        fprintf(o, "plot for [i=3:%d] ", last);
        sweep_fig_gp_str(o, csv);
        fputs(" using i:xtic(1) title columnhead(i)\n", o);
        return;
    }
    fputs("plot", o);
    /* the rows of a benchmark follow each other in NAME.csv: a group is
       the rows from the sum of the earlier benchmarks' stacks on */
    for (int b = 0; b < x->nbenches; b++) {
        int n = stacks_of(x, g, b);
        if (!n) continue;
        fprintf(o, "%s \\\n  newhistogram ", first ? "," : "");
        sweep_fig_gp_str(o, x->benches[b].name);
        fprintf(o, " offset 0,%.1f lt 1, for [i=3:%d] ", -drop, last);
        sweep_fig_gp_str(o, csv);
        fprintf(o, " every ::%d::%d using i:xtic(2) %s", first, first + n - 1,
                first ? "notitle" : "title columnhead(i)");
        first += n;
    }
    fputc('\n', o);
}

void sweep_fig_stacked_script(FILE *o, const sweep_exp *x, const sweep_figure *g,
                              const char *stem, int rows)
{
    char csv[PATH_MAX + 16];
    int groups = 0;
    for (int b = 0; b < x->nbenches; b++) groups += stacks_of(x, g, b) > 0;
    int w = 260 + rows * 40 + groups * 30;
    w = w < 800 ? 800 : w > 4000 ? 4000 : w;
    /* many stacks: the x labels (benchmarks, or configs under their
       benchmark) turn; the bottom margin leaves room for the longest config
       label turned (a character is about 0.6 of the text height wide) and
       the group titles a line below the labels (gnuplot places them under
       the labels' own height) */
    bool grouped = g->nsel > 1, turn = grouped ? rows > 16 : rows > 6;
    size_t longest = 0;
    for (int k = 0; k < g->nsel; k++)
        if (strlen(x->configs[g->sel[k]].name) > longest)
            longest = strlen(x->configs[g->sel[k]].name);
    double drop = 1.0, margin = 4.5 + (turn ? 0.6 * (double)longest : 0.0);
    snprintf(csv, sizeof csv, "%s.csv", stem);
    char ylab[128];
    if (g->normalize_to >= 0)
        snprintf(ylab, sizeof ylab, "fraction of %s's total", x->configs[g->normalize_to].name);
    sweep_fig_gp_head(o, g, g->normalize ? "% of the stack" : g->normalize_to >= 0 ? ylab : "count");
    /* the header line is the components' names, for every plot clause */
    fprintf(o, "set key outside right top vertical autotitle columnhead\n"
               "set style data histograms\nset style histogram rowstacked gap 1\n"
               "set style fill solid 0.85 border -1\nset boxwidth 0.8 relative\n"
               "set yrange [0:%s]\n", g->normalize ? "100" : "*");
    if (turn) fputs(grouped ? "set xtics rotate by 90 right\n" : "set xtics rotate by 40 right\n",
                    o);
    if (grouped) fprintf(o, "set bmargin %.1f\n", margin);
    for (int t = 0; t < 2; t++) {
        sweep_fig_gp_term(o, stem, t, w);
        plot_cmd(o, x, g, csv, drop);
    }
    fputs("unset output\n", o);
}
