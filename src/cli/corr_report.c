/*
** corr_report.c -- what `warpsim correlate` prints: per run GPGPU-Sim's and
** warpsim's cycles, their ratio, L1D and L2 miss rates side by side and
** whether the thread-instruction counts are equal; per benchmark GTO's gain
** over LRR in both simulators; then the summary (corr_stats.c).  The same
** as JSON with --json (libjansson, so names are escaped and an undefined
** statistic is null).
*/
#include "cli.h"
#include "corr.h"
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <string.h>


/* "0.42" or "-" when the simulator did not report it. */
static const char *rate(char *buf, size_t len, double v)
{
    if (v < 0) snprintf(buf, len, "-");
    else snprintf(buf, len, "%.2f", v);
    return buf;
}

/* "equal" or "+N" / "-N" (warpsim minus GPGPU-Sim). */
static const char *insn_cell(char *buf, size_t len, const corr_run *r)
{
    double d = r->res.sim.insns - r->ref.insns;
    if (d == 0) snprintf(buf, len, "equal");
    else snprintf(buf, len, "%+.0f", d);
    return buf;
}

static void print_run(const corr_run *r)
{
    char a[16], b[16], c[16], e[16], n[32];
    printf("%-15s %-5s", r->bench, r->sched);
    if (!r->comparable || !r->res.ok) {
        printf(" %s: %s\n", r->comparable ? "failed" : "not comparable", r->why);
        return;
    }
    printf(" %10.0f %10.0f %6.2f %5s %5s %5s %5s %s\n", r->ref.cycles, r->res.sim.cycles,
           r->res.sim.cycles / r->ref.cycles, rate(a, sizeof a, r->ref.l1d_miss),
           rate(b, sizeof b, r->res.sim.l1d_miss), rate(c, sizeof c, r->ref.l2_miss),
           rate(e, sizeof e, r->res.sim.l2_miss), insn_cell(n, sizeof n, r));
}

static void print_signs(const corr_data *d)
{
    printf("\nGTO's gain over LRR, (lrr - gto) / lrr cycles; the sign is checked where "
           "GPGPU-Sim's exceeds %.0f %%:\n", CORR_SIGN_THRESHOLD * 100);
    printf("%-15s %9s %9s  %s\n", "benchmark", "gpgpusim", "warpsim", "same sign");
    for (int b = 0; b < d->n; b++) {
        const corr_run *g, *l;
        if (!corr_gto_lrr_pair(d, b, &g, &l)) continue;
        double rg = corr_gto_gain(g->ref.cycles, l->ref.cycles);
        double sg = corr_gto_gain(g->res.sim.cycles, l->res.sim.cycles);
        int a = corr_sign_agrees(rg, sg, CORR_SIGN_THRESHOLD);
        printf("%-15s %8.1f%% %8.1f%%  %s\n", d->runs[b].bench, 100 * rg, 100 * sg,
               a < 0 ? "(not checked)" : a ? "yes" : "NO");
    }
}

void corr_print(const corr_data *d, const corr_opts *o, const corr_summary *s)
{
    printf("warpsim correlate: %s vs warpsim on %s, size %s\n", d->simulator, o->machine,
           o->size);
    printf("data set: %s\n\n", d->path);
    printf("%-15s %-5s %10s %10s %6s %11s %11s %s\n", "benchmark", "sched", "gpgpusim",
           "warpsim", "ratio", "L1D miss", "L2 miss", "insns");
    printf("%-15s %-5s %10s %10s %6s %5s %5s %5s %5s %s\n", "", "", "cycles", "cycles",
           "ws/gs", "gs", "ws", "gs", "ws", "ws - gs");
    for (int i = 0; i < d->n; i++) print_run(&d->runs[i]);
    print_signs(d);
    printf("\nsummary over %d runs compared (%d not comparable, %d failed):\n", s->n,
           s->not_comparable, s->failed);
    printf("  Pearson r of cycles:        %.4f (linear), %.4f (log cycles)\n", s->r_linear,
           s->r_log);
    printf("  mean absolute rel. error:   %.1f %%\n", 100 * s->mare);
    printf("  within +-20 %%:              %d of %d\n", s->within20, s->n);
    printf("  within +-25 %%:              %d of %d\n", s->within25, s->n);
    const char *src = NULL;
    for (int i = 0; i < d->n && !src; i++)
        if (d->runs[i].comparable && d->runs[i].res.ok)
            src = corr_insn_src_names[d->runs[i].res.insn_src];
    printf("  instruction counts equal:   %d of %d (GPGPU-Sim thread_insns vs warpsim %s)\n",
           s->insn_equal, s->n, src ? src : "-");
    printf("  GTO-vs-LRR sign agrees:     %d of %d benchmarks (GPGPU-Sim's gain > %.0f %%)\n",
           s->sign_agree, s->sign_checked, CORR_SIGN_THRESHOLD * 100);
}

/* ------------------------------------------------------------------ */
/* JSON                                                                */
/* ------------------------------------------------------------------ */

/* A real, or null where it is undefined (NaN) or not reported (< 0 when
   `neg_null`). */
static json_t *jreal(double v, bool neg_null)
{
    return isnan(v) || (neg_null && v < 0) ? json_null() : json_real(v);
}

static json_t *side_json(const corr_side *s, const char *insn_name)
{
    return json_pack("{s:o, s:o, s:o, s:o}", "cycles", json_integer((json_int_t)s->cycles),
                     insn_name, json_integer((json_int_t)s->insns),
                     "l1d_miss_rate", jreal(s->l1d_miss, true),
                     "l2_miss_rate", jreal(s->l2_miss, true));
}

static json_t *run_json(const corr_run *r)
{
    json_t *o = json_pack("{s:s, s:s, s:b}", "benchmark", r->bench, "scheduler", r->sched,
                          "comparable", r->comparable);
    bool ok = r->comparable && r->res.ok;
    json_object_set_new(o, "ok", json_boolean(ok));
    if (!ok) {
        json_object_set_new(o, "why", json_string(r->why));
        return o;
    }
    json_t *w = side_json(&r->res.sim, "gpu_tot_sim_insn");
    json_object_set_new(w, "insn_source", json_string(corr_insn_src_names[r->res.insn_src]));
    json_object_set_new(w, "wall_s", json_real(r->res.seconds));
    json_object_set_new(o, "gpgpusim", side_json(&r->ref, "thread_insns"));
    json_object_set_new(o, "warpsim", w);
    json_object_set_new(o, "ratio", json_real(r->res.sim.cycles / r->ref.cycles));
    json_object_set_new(o, "insn_equal", json_boolean(r->ref.insns == r->res.sim.insns));
    json_object_set_new(o, "insn_diff", json_integer((json_int_t)(r->res.sim.insns
                                                                  - r->ref.insns)));
    return o;
}

static json_t *signs_json(const corr_data *d)
{
    json_t *a = json_array();
    for (int b = 0; b < d->n; b++) {
        const corr_run *g, *l;
        if (!corr_gto_lrr_pair(d, b, &g, &l)) continue;
        double rg = corr_gto_gain(g->ref.cycles, l->ref.cycles);
        double sg = corr_gto_gain(g->res.sim.cycles, l->res.sim.cycles);
        int ag = corr_sign_agrees(rg, sg, CORR_SIGN_THRESHOLD);
        json_array_append_new(a, json_pack("{s:s, s:f, s:f, s:b, s:o}", "benchmark",
                                           d->runs[b].bench, "gpgpusim_gain", rg,
                                           "warpsim_gain", sg, "checked", ag >= 0,
                                           "same_sign", ag < 0 ? json_null()
                                                               : json_boolean(ag)));
    }
    return a;
}

static json_t *summary_json(const corr_summary *s)
{
    return json_pack("{s:i, s:i, s:i, s:o, s:o, s:o, s:i, s:i, s:i, s:i, s:i, s:f}",
                     "runs", s->n, "not_comparable", s->not_comparable, "failed", s->failed,
                     "pearson_r", jreal(s->r_linear, false),
                     "pearson_r_log", jreal(s->r_log, false), "mare", jreal(s->mare, false),
                     "within_20pct", s->within20, "within_25pct", s->within25,
                     "insn_equal", s->insn_equal, "sign_checked", s->sign_checked,
                     "sign_agree", s->sign_agree, "sign_threshold", CORR_SIGN_THRESHOLD);
}

int corr_write_json(const corr_data *d, const corr_opts *o, const corr_summary *s,
                    const char *cmd)
{
    json_t *runs = json_array();
    for (int i = 0; i < d->n; i++) json_array_append_new(runs, run_json(&d->runs[i]));
    json_t *root = json_pack("{s:s, s:s, s:s, s:s, s:s, s:o, s:o, s:o}", "data_set", d->path,
                             "simulator", d->simulator, "machine", o->machine, "size", o->size,
                             "pearson_on", "linear cycles (pearson_r_log: log cycles)",
                             "runs", runs, "gto_vs_lrr", signs_json(d),
                             "summary", summary_json(s));
    int rc = root && json_dump_file(root, o->json, JSON_INDENT(1) | JSON_PRESERVE_ORDER) == 0
             ? 0 : -1;
    if (rc) cli_error(cmd, "cannot write %s", o->json);
    json_decref(root);
    return rc;
}
