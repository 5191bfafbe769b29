/*
** corr_stats.c -- the statistics of `warpsim correlate`: Pearson's r (of
** cycles and of their logarithms), the mean absolute relative error, the
** share of runs within a band, and whether warpsim ranks GTO against LRR
** as GPGPU-Sim does.  Plain arithmetic on arrays (no I/O), so
** test_corr_stats checks it on fixed numbers.
*/
#include "corr.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

const char *const corr_insn_src_names[3] = {
    "gpu_tot_sim_insn", "timing report gpu_tot_sim_insn", "thread_insns"
};

/* Two passes (means first): the one-pass sum-of-squares form loses every
   digit when cycles are ~1e6 and nearly equal. */
double corr_pearson(const double *x, const double *y, int n)
{
    if (n < 2) return NAN;
    double mx = 0, my = 0;
    for (int i = 0; i < n; i++) { mx += x[i]; my += y[i]; }
    mx /= n;
    my /= n;
    double sxy = 0, sxx = 0, syy = 0;
    for (int i = 0; i < n; i++) {
        double dx = x[i] - mx, dy = y[i] - my;
        sxy += dx * dy;
        sxx += dx * dx;
        syy += dy * dy;
    }
    if (sxx <= 0 || syy <= 0) return NAN;
    return sxy / sqrt(sxx * syy);
}

double corr_pearson_log(const double *x, const double *y, int n)
{
    if (n < 2) return NAN;
    double *lx = malloc(2 * (size_t)n * sizeof *lx);
    if (!lx) return NAN;
    double *ly = lx + n, r = NAN;
    int ok = 1;
    for (int i = 0; i < n && ok; i++) {
        ok = x[i] > 0 && y[i] > 0;
        lx[i] = ok ? log(x[i]) : 0;
        ly[i] = ok ? log(y[i]) : 0;
    }
    if (ok) r = corr_pearson(lx, ly, n);
    free(lx);
    return r;
}

double corr_mare(const double *ref, const double *sim, int n)
{
    if (n < 1) return NAN;
    double sum = 0;
    for (int i = 0; i < n; i++) sum += fabs(sim[i] - ref[i]) / ref[i];
    return sum / n;
}

int corr_within(const double *ref, const double *sim, int n, double band)
{
    int k = 0;
    /* a hair of slack: 1.2 * 100 is not exactly 120 in binary */
    for (int i = 0; i < n; i++) k += fabs(sim[i] / ref[i] - 1.0) <= band + 1e-12;
    return k;
}

double corr_gto_gain(double gto_cycles, double lrr_cycles)
{
    return lrr_cycles > 0 ? (lrr_cycles - gto_cycles) / lrr_cycles : 0.0;
}

int corr_sign_agrees(double ref_gain, double sim_gain, double threshold)
{
    if (!(fabs(ref_gain) > threshold)) return -1;
    return (ref_gain > 0 && sim_gain > 0) || (ref_gain < 0 && sim_gain < 0);
}

bool corr_gto_lrr_pair(const corr_data *d, int b, const corr_run **gto, const corr_run **lrr)
{
    *gto = *lrr = NULL;
    for (int i = 0; i < b; i++)
        if (strcmp(d->runs[i].bench, d->runs[b].bench) == 0) return false;
    for (int i = b; i < d->n; i++) {
        const corr_run *r = &d->runs[i];
        if (strcmp(r->bench, d->runs[b].bench) != 0 || !r->comparable || !r->res.ok) continue;
        if (strcmp(r->sched, "gto") == 0) *gto = r;
        if (strcmp(r->sched, "lrr") == 0) *lrr = r;
    }
    return *gto && *lrr;
}

/* The first record of each benchmark checks the sign for all of them. */
static void sign_checks(const corr_data *d, corr_summary *s)
{
    for (int b = 0; b < d->n; b++) {
        const corr_run *g, *l;
        if (!corr_gto_lrr_pair(d, b, &g, &l)) continue;
        int a = corr_sign_agrees(corr_gto_gain(g->ref.cycles, l->ref.cycles),
                                 corr_gto_gain(g->res.sim.cycles, l->res.sim.cycles),
                                 CORR_SIGN_THRESHOLD);
        if (a < 0) continue;
        s->sign_checked++;
        s->sign_agree += a;
    }
}

void corr_summarize(const corr_data *d, corr_summary *s)
{
    memset(s, 0, sizeof *s);
    double *ref = calloc(2 * ((size_t)d->n + 1), sizeof *ref);
    if (!ref) { s->r_linear = s->r_log = s->mare = NAN; return; }
    double *sim = ref + d->n + 1;
    for (int i = 0; i < d->n; i++) {
        const corr_run *r = &d->runs[i];
        if (!r->comparable) { s->not_comparable++; continue; }
        if (!r->res.ok) { s->failed++; continue; }
        ref[s->n] = r->ref.cycles;
        sim[s->n] = r->res.sim.cycles;
        s->insn_equal += r->ref.insns == r->res.sim.insns;
        s->n++;
    }
    s->r_linear = corr_pearson(ref, sim, s->n);
    s->r_log = corr_pearson_log(ref, sim, s->n);
    s->mare = corr_mare(ref, sim, s->n);
    s->within20 = corr_within(ref, sim, s->n, 0.20);
    s->within25 = corr_within(ref, sim, s->n, 0.25);
    sign_checks(d, s);
    free(ref);
}
