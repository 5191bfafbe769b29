/*
** sweep_fig_ts.c -- the "timeseries" figure of `warpsim sweep`: one series
** of the runs' kept time series (DIR/runs/HASH.ts.json, the simulator's
** --timeseries JSON: cumulative counters of each launch sampled every
** interval) against the simulated cycle, one line per chosen point.  Each
** sample becomes the value of its interval (the difference to the sample
** before it in the same launch, or to zero at the launch's start); the
** launches of a run are placed end to end, each starting where the one
** before had its last sample (the < interval cycles after it are not
** shown).  Series policy.NAME and policy.A/policy.B read the warp
** scheduler's counters (each sample's "policy" object): a run whose
** samples lack one gives empty cells and a warning, not an error, since
** only the runs know which counters their scheduler has.
** NAME.csv: one row per cycle any line has, one column per point.
*/
#include "cli.h"
#include "sweep_fig.h"
#include <errno.h>
#include <inttypes.h>
#include <jansson.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

const char *const sweep_ts_series_names[SWEEP_TS_COUNT] = {
    [SWEEP_TS_IPC] = "ipc", [SWEEP_TS_WARP_IPC] = "warp_ipc",
    [SWEEP_TS_ACTIVE_WARPS] = "active_warps", [SWEEP_TS_L1D_MISSES] = "l1d_misses",
    [SWEEP_TS_L1D_MISS_RATE] = "l1d_miss_rate", [SWEEP_TS_L1D_MPKI] = "l1d_mpki", [SWEEP_TS_LSU_STALL] = "lsu_stall_cycles",
};

/* Per series: what the y axis says when the figure gives no ylabel. */
static const char *const series_label[SWEEP_TS_COUNT] = {
    "IPC (thread instructions per cycle, per interval)",
    "warp instructions per cycle, per interval", "active warps",
    "L1D misses per interval", "L1D miss rate (misses / accesses, per interval)",
    "L1D misses per 1000 warp instructions, per interval",
    "LSU stall cycles per interval",
};

/* One line: its samples' cycles (increasing) and values (NAN: none). */
typedef struct ts_line {
    uint64_t *x;
    double *y;
    int n;
} ts_line;

static uint64_t u(json_t *o, const char *k)
{
    json_t *v = json_object_get(o, k);
    return json_is_integer(v) ? (uint64_t)json_integer_value(v) : 0;
}

/* Warp scheduler counter `name` of sample `o` (its "policy" object);
   false when the sample has none of that name. */
static bool pol(json_t *o, const char *name, double *v)
{
    json_t *c = json_object_get(json_object_get(o, "policy"), name);
    if (!json_is_integer(c)) return false;
    *v = (double)json_integer_value(c);
    return true;
}

/* Series policy.A (per interval) or policy.A/policy.B (the ratio of the
   two per-interval differences; NAN when B did not change). `*missing`:
   a sample (or the one before it) lacks a counter the series names. */
static double policy_value(const sweep_figure *g, json_t *o, json_t *prev, bool *missing)
{
    double d[2] = { 0, 1 };
    for (int k = 0; k < 2 && g->pol[k][0]; k++) {
        double a, b = 0;
        if (!pol(o, g->pol[k], &a) || (prev && !pol(prev, g->pol[k], &b))) {
            *missing = true;
            return NAN;
        }
        d[k] = a - b;
    }
    if (!g->pol[1][0]) return d[0];
    return d[1] != 0 ? d[0] / d[1] : NAN;
}

/* The value of series s for sample `o` given the launch's sample before
   it (NULL: the launch's start, all counters zero). */
static double series_value(int s, json_t *o, json_t *prev)
{
    /* in doubles: a counter that fell (a file of an older simulator) gives
       a negative value, not a wrapped one */
#define D(k) ((double)u(o, k) - (prev ? (double)u(prev, k) : 0.0))
    double dc = D("cycle"), dw = D("warp_insns");
    switch (s) {
    case SWEEP_TS_IPC: return dc > 0 ? D("thread_insns") / dc : NAN;
    case SWEEP_TS_WARP_IPC: return dc > 0 ? dw / dc : NAN;
    case SWEEP_TS_ACTIVE_WARPS: return (double)u(o, "active_warps");
    case SWEEP_TS_L1D_MISSES: return D("l1d_misses");
    case SWEEP_TS_L1D_MISS_RATE: {
        /* the file of a simulator before l1d_accesses was sampled has none */
        double da = D("l1d_accesses");
        return da > 0 ? D("l1d_misses") / da : NAN;
    }
    case SWEEP_TS_L1D_MPKI: return dw > 0 ? 1000.0 * D("l1d_misses") / dw : NAN;
    default: return D("lsu_stall_cycles");
    }
#undef D
}

/* Read one run's time series file into line `l` (titled `title` in a
   warning). -1 after a message. */
static int load_line(const char *path, const sweep_figure *g, const char *title, ts_line *l)
{
    bool missing = false;
    json_error_t err;
    json_t *a = json_load_file(path, 0, &err), *o, *prev = NULL;
    size_t i;
    uint64_t base = 0, last = 0;
    if (!json_is_array(a)) {
        cli_error("sweep", "figure %s: cannot read the time series %s: %s", g->name, path,
                  a ? "not a JSON array" : err.text);
        json_decref(a);
        return -1;
    }
    l->x = calloc(json_array_size(a) + 1, sizeof *l->x);
    l->y = calloc(json_array_size(a) + 1, sizeof *l->y);
    json_array_foreach(a, i, o) {
        if (!l->x || !l->y) break;
        /* a new launch starts where the one before had its last sample */
        if (prev && u(o, "launch") != u(prev, "launch")) { base += last; prev = NULL; }
        last = u(o, "cycle");
        l->x[l->n] = base + last;
        l->y[l->n++] = g->series == SWEEP_TS_POLICY ? policy_value(g, o, prev, &missing)
                                                    : series_value(g->series, o, prev);
        prev = o;
    }
    json_decref(a);
    if (missing)
        cli_error("sweep", "warning: figure %s: %s has samples without policy counter %s%s%s "
                  "(%s; its warp scheduler has no such counter?): their cells are empty",
                  g->name, title, g->pol[0], g->pol[1][0] ? " or " : "", g->pol[1], path);
    return 0;
}

/* The column title of point p: benchmark/config, plus size and seed when
   the experiment has several. */
static void point_title(const sweep_exp *x, const sweep_fig_point *p, char *buf, size_t len)
{
    int n = snprintf(buf, len, "%s/%s", x->benches[p->bench].name, x->configs[p->config].name);
    if (x->nsizes > 1 && n > 0 && (size_t)n < len)
        n += snprintf(buf + n, len - (size_t)n, " %s", sweep_size_names[x->sizes[p->size]]);
    if (p->seed >= 0 && x->nseeds > 1 && n > 0 && (size_t)n < len)
        snprintf(buf + n, len - (size_t)n, " seed=%" PRIu64, x->seeds[p->seed]);
}

/* Line of point p: empty when its run in results.csv is not ok. */
static int point_line(const char *dir, const fig_table *t, const sweep_exp *x,
                      const sweep_figure *g, const sweep_fig_point *p, const char *title,
                      ts_line *l)
{
    char seed[32] = "", path[PATH_MAX];
    const char *b = x->benches[p->bench].name, *c = x->configs[p->config].name;
    const char *sz = sweep_size_names[x->sizes[p->size]];
    if (p->seed >= 0) snprintf(seed, sizeof seed, "%" PRIu64, x->seeds[p->seed]);
    const char *st = sweep_fig_value(t, "#status", b, sz, c, seed);
    const char *h = sweep_fig_value(t, "#hash", b, sz, c, seed);
    if (!st || !h || strcmp(st, "ok") != 0) return 0;
    snprintf(path, sizeof path, "%s/runs/%s.ts.json", dir, h);
    return load_line(path, g, title, l);
}

/* The next cycle any line has after `after` (UINT64_MAX: none). */
static uint64_t next_x(const ts_line *l, const int *pos, int n)
{
    uint64_t m = UINT64_MAX;
    for (int k = 0; k < n; k++)
        if (pos[k] < l[k].n && l[k].x[pos[k]] < m) m = l[k].x[pos[k]];
    return m;
}

int sweep_fig_ts_csv(FILE *o, const char *dir, const fig_table *t, const sweep_exp *x,
                     const sweep_figure *g)
{
    ts_line l[SWEEP_FIG_MAX_PTS] = {0};
    int pos[SWEEP_FIG_MAX_PTS] = {0}, values = 0, rc = 0;
    char title[512];
    fputs("cycle", o);
    for (int k = 0; k < g->npts; k++) {
        point_title(x, &g->pts[k], title, sizeof title);
        fprintf(o, ",%s", title);
        if (point_line(dir, t, x, g, &g->pts[k], title, &l[k])) rc = -1;
    }
    fputc('\n', o);
    for (uint64_t c; rc == 0 && (c = next_x(l, pos, g->npts)) != UINT64_MAX;) {
        fprintf(o, "%" PRIu64, c);
        for (int k = 0; k < g->npts; k++) {
            fputc(',', o);
            if (pos[k] >= l[k].n || l[k].x[pos[k]] != c) continue;
            if (isfinite(l[k].y[pos[k]])) {
                fprintf(o, "%.10g", l[k].y[pos[k]]);
                values++;
            }
            pos[k]++;
        }
        fputc('\n', o);
    }
    for (int k = 0; k < g->npts; k++) { free(l[k].x); free(l[k].y); }
    return rc ? -1 : values;
}

void sweep_fig_ts_script(FILE *o, const sweep_figure *g, const char *stem, int values)
{
    char csv[PATH_MAX + 16];
    snprintf(csv, sizeof csv, "%s.csv", stem);
    char label[2 * SWEEP_TS_POLICY_NAME + 64];
    if (g->series != SWEEP_TS_POLICY) snprintf(label, sizeof label, "%s", series_label[g->series]);
    else if (!g->pol[1][0]) snprintf(label, sizeof label, "policy.%s per interval", g->pol[0]);
    else snprintf(label, sizeof label, "policy.%s / policy.%s, per interval",
                     g->pol[0], g->pol[1]);
    sweep_fig_gp_head(o, g, label);
    fputs("set key below center horizontal\nset xlabel 'cycle'\nset yrange [0:*]\n", o);
    for (int t = 0; t < 2; t++) {
        sweep_fig_gp_term(o, stem, t, 1000);
        if (!values) {
            /* gnuplot refuses to plot columns with no number at all (every
               run failed, or none has the policy counter): an empty frame */
            fputs("set xrange [0:1]\nset yrange [0:1]\nset label 1 'no values (see the warnings of "
                  "the sweep)' at graph 0.5,0.5 center\nplot 2 notitle\n", o);
            continue;
        }
        fprintf(o, "plot for [i=2:%d] ", g->npts + 1);
        sweep_fig_gp_str(o, csv);
        fputs(" using 1:i with lines lw 1.5 title columnhead(i)\n", o);
    }
    fputs("unset output\n", o);
}
