/*
** sweep_fig.h -- what the figure writers of `warpsim sweep` share
** (sweep_fig.c: the tables, bars and lines; sweep_fig_stacked.c: stacked
** breakdowns; sweep_fig_ts.c: time series): the tables a sweep wrote, read
** back as rows of one value each, and the pieces of a gnuplot script.
*/
#ifndef WS_CLI_SWEEP_FIG_H
#define WS_CLI_SWEEP_FIG_H

#include "sweep.h"
#include <stdio.h>

/* One value of a table: metric, benchmark, size, config, seed, value
   (results.csv gives one per collected column of each row, plus the
   pseudo-metrics "#status" and "#hash" of the row). */
enum { F_METRIC, F_BENCH, F_SIZE, F_CONFIG, F_SEED, F_VALUE, F_N };
typedef struct fig_row {
    char *f[F_N];
} fig_row;

typedef struct fig_table {
    fig_row *rows;
    int n, cap;
    char **lines;               /* the lines the fields point into */
    int nlines;
} fig_table;

/* The value of metric `m` for (bench, size, config) into buf: the table's
   text when one seed gives it, the mean of several seeds (10 significant
   digits), or "" when any is missing. */
const char *sweep_fig_cell(const fig_table *t, const char *m, const char *bench,
                           const char *size, const char *config, char *buf, size_t len);
/* The text of metric `m` of exactly (bench, size, config, seed); NULL when
   the table has no such row. */
const char *sweep_fig_value(const fig_table *t, const char *m, const char *bench,
                            const char *size, const char *config, const char *seed);
/* The label of figure g's series k: a config's name or a best's. */
const char *sweep_fig_series_name(const sweep_exp *x, const sweep_figure *g, int k);
/* Does figure g draw benchmark b (its "benchmarks")? */
bool sweep_fig_draws(const sweep_figure *g, int b);
/* A gnuplot single-quoted string (a quote is doubled). */
void sweep_fig_gp_str(FILE *f, const char *s);
/* The script's common start: CSV input, grid, title, ylabel (default
   `ylabel`), the baseline line when the figure has one. */
void sweep_fig_gp_head(FILE *o, const sweep_figure *g, const char *ylabel);
/* "set terminal ...\nset output 'STEM.png|svg'\n" for terminal t (0 = PNG,
   1 = SVG) at width w. */
void sweep_fig_gp_term(FILE *o, const char *stem, int t, int w);

/* sweep_fig_stacked.c: NAME.csv of a stacked figure (returns its rows) and
   its script. */
int sweep_fig_stacked_csv(FILE *o, const fig_table *t, const sweep_exp *x,
                          const sweep_figure *g);
void sweep_fig_stacked_script(FILE *o, const sweep_exp *x, const sweep_figure *g,
                              const char *stem, int rows);

/* sweep_fig_ts.c: NAME.csv of a timeseries figure from the runs' files in
   DIR/runs/ (returns how many of its cells hold a number, -1 after a
   message when a file is unreadable) and its script (an empty frame when
   `values` is 0). */
int sweep_fig_ts_csv(FILE *o, const char *dir, const fig_table *t, const sweep_exp *x,
                     const sweep_figure *g);
void sweep_fig_ts_script(FILE *o, const sweep_figure *g, const char *stem, int values);

#endif /* WS_CLI_SWEEP_FIG_H */
