/*
** corr_data.c -- the GPGPU-Sim data set `warpsim correlate` compares
** against (configs/gpgpusim/correlation/: one record per program run with
** GPGPU-Sim's cycles, thread instructions and cache totals, fields in its
** README), read with libjansson, and the warpsim side of a run read back
** from the statistics JSON and the timing report of `warpsim exec`.
*/
#include "cli.h"
#include "corr.h"
#include <jansson.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* A number field (integer or real) of `o`, or `dflt` when absent/null. */
static double num(json_t *o, const char *key, double dflt)
{
    json_t *v = o ? json_object_get(o, key) : NULL;
    return json_is_number(v) ? json_number_value(v) : dflt;
}

/* The data set's config file (source.config_files[0], relative to the data
   set): next to it as in ../shared/correlation/, or one folder up as in
   configs/gpgpusim/ (correlation/ and gtx480/ side by side). */
static void find_config(corr_data *d, json_t *source)
{
    const char *rel = json_string_value(json_array_get(json_object_get(source, "config_files"), 0));
    char dir[4096], cand[8192 + 8];
    d->config[0] = '\0';
    if (!rel) return;
    snprintf(d->config_rel, sizeof d->config_rel, "%s", rel);
    snprintf(dir, sizeof dir, "%s", d->path);
    char *slash = strrchr(dir, '/');
    if (slash) *slash = '\0'; else snprintf(dir, sizeof dir, ".");
    const char *const fmt[] = { "%s/%s", "%s/../%s" };
    for (int i = 0; i < 2; i++) {
        snprintf(cand, sizeof cand, fmt[i], dir, rel);
        if (access(cand, R_OK) == 0 && realpath(cand, d->config)) return;
    }
    d->config[0] = '\0';
}

/* One run record into `r`; false (with the field in *bad) if malformed. */
static bool run_parse(json_t *o, corr_run *r, const char **bad)
{
    const char *b = json_string_value(json_object_get(o, "benchmark"));
    const char *s = json_string_value(json_object_get(o, "scheduler"));
    memset(r, 0, sizeof *r);
    if (!b || strlen(b) >= sizeof r->bench) { *bad = "benchmark"; return false; }
    if (!s || strlen(s) >= sizeof r->sched) { *bad = "scheduler"; return false; }
    snprintf(r->bench, sizeof r->bench, "%s", b);
    snprintf(r->sched, sizeof r->sched, "%s", s);
    r->comparable = json_is_true(json_object_get(o, "complete"));
    r->ref.cycles = num(o, "cycles", 0);
    r->ref.insns = num(o, "thread_insns", 0);
    r->ref.l1d_miss = num(json_object_get(o, "l1d"), "miss_rate", -1);
    r->ref.l2_miss = num(json_object_get(o, "l2"), "miss_rate", -1);
    if (r->comparable && r->ref.cycles <= 0) { *bad = "cycles"; return false; }
    if (!r->comparable) {
        const char *f = json_string_value(json_object_get(o, "failure"));
        snprintf(r->why, sizeof r->why, "GPGPU-Sim did not complete it: %s",
                 f ? f : "(no reason given)");
    }
    return true;
}

static bool wanted(const char *bench, const char *const *names, int nnames)
{
    for (int i = 0; i < nnames; i++)
        if (strcmp(names[i], bench) == 0) return true;
    return nnames == 0;
}

/* Every NAME must have a run at this size: a typo is a usage error. */
static int check_names(const corr_data *d, const char *size, const char *const *names,
                       int nnames, const char *cmd)
{
    for (int i = 0; i < nnames; i++) {
        bool found = false;
        for (int k = 0; k < d->n && !found; k++) found = strcmp(d->runs[k].bench, names[i]) == 0;
        if (!found) {
            cli_error(cmd, "%s: no run of '%s' at size %s in the data set", d->path, names[i],
                      size);
            return -1;
        }
    }
    return 0;
}

int corr_data_load(corr_data *d, const char *path, const char *size, const char *const *names,
                   int nnames, const char *cmd, bool *usage)
{
    json_error_t err;
    memset(d, 0, sizeof *d);
    *usage = false;
    snprintf(d->path, sizeof d->path, "%s", path);
    json_t *root = json_load_file(path, 0, &err);
    if (!root) {
        cli_error(cmd, "%s:%d: cannot read the data set: %s", path, err.line, err.text);
        return -1;
    }
    d->json = root;
    json_t *runs = json_object_get(root, "runs"), *source = json_object_get(root, "source");
    if (!json_is_array(runs)) {
        cli_error(cmd, "%s: no \"runs\" array (not a GPGPU-Sim correlation data set)", path);
        return -1;
    }
    d->simulator = json_string_value(json_object_get(source, "simulator"));
    if (!d->simulator) d->simulator = "GPGPU-Sim";
    find_config(d, source);
    d->runs = calloc(json_array_size(runs) + 1, sizeof *d->runs);
    if (!d->runs) return -1;
    for (size_t i = 0; i < json_array_size(runs); i++) {
        json_t *o = json_array_get(runs, i);
        const char *sz = json_string_value(json_object_get(o, "size")), *bad = NULL;
        const char *b = json_string_value(json_object_get(o, "benchmark"));
        if (!sz || strcmp(sz, size) != 0 || !b || !wanted(b, names, nnames)) continue;
        if (!run_parse(o, &d->runs[d->n], &bad)) {
            cli_error(cmd, "%s: runs[%zu]: missing or malformed \"%s\"", path, i, bad);
            return -1;
        }
        d->n++;
    }
    if (check_names(d, size, names, nnames, cmd)) {
        *usage = true;
        return -1;
    }
    return 0;
}

void corr_data_free(corr_data *d)
{
    free(d->runs);
    json_decref(d->json);
    memset(d, 0, sizeof *d);
}

/* ------------------------------------------------------------------ */
/* The warpsim side                                                    */
/* ------------------------------------------------------------------ */

/* GPGPU-Sim's miss rate (pending hits, i.e. MSHR merges, are not misses)
   from a cache's totals in the timing report, where warpsim counts a merge
   as a miss too. -1 when absent. */
static double miss_rate_from_report(json_t *o, const char *tag)
{
    char a[64], m[64], p[64];
    snprintf(a, sizeof a, "%s_total_cache_accesses", tag);
    snprintf(m, sizeof m, "%s_total_cache_misses", tag);
    snprintf(p, sizeof p, "%s_total_cache_pending_hits", tag);
    double acc = num(o, a, -1), mis = num(o, m, -1), pend = num(o, p, 0);
    if (acc < 0 || mis < 0) return -1;
    return acc > 0 ? (mis - pend) / acc : 0.0;
}

int corr_read_result(const char *stats, const char *report, corr_result *r)
{
    json_error_t err;
    json_t *sj = json_load_file(stats, 0, &err);
    json_t *rj = report ? json_load_file(report, 0, &err) : NULL;
    json_t *st = json_object_get(sj, "total"), *rt = json_object_get(rj, "total");
    json_t *rm = json_object_get(rt, "memsys");
    corr_side *s = &r->sim;
    /* GPGPU-Sim's names in the statistics JSON first (they mean what the
       data set's fields mean), then what warpsim reports today */
    s->cycles = num(st, "gpu_tot_sim_cycle", num(st, "cycles", 0));
    r->insn_src = CORR_INSN_GPGPUSIM;
    s->insns = num(st, "gpu_tot_sim_insn", -1);
    if (s->insns < 0) { r->insn_src = CORR_INSN_REPORT; s->insns = num(rt, "gpu_tot_sim_insn", -1); }
    if (s->insns < 0) { r->insn_src = CORR_INSN_THREAD; s->insns = num(st, "thread_insns", -1); }
    s->l1d_miss = num(st, "L1D_total_cache_miss_rate", miss_rate_from_report(rt, "L1D"));
    s->l2_miss = num(st, "L2_total_cache_miss_rate", miss_rate_from_report(rm, "L2"));
    int rc = s->cycles > 0 && s->insns >= 0 ? 0 : -1;
    json_decref(sj);
    json_decref(rj);
    return rc;
}
