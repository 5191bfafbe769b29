/*
** test_energy.c -- the energy model (src/gpu/energy.c): on a constructed
** run each part's energy is the sum of its events times their energies
** plus its static power times the time; doubling one unit's per-event
** energy changes that unit's part alone; the technology tables are
** complete and cited; config overrides and their checks; which counters
** are whose events; the report's fields.
*/
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "gpu/config.h"
#include "gpu/energy.h"
#include "gpu/report.h"

/* every parameter a distinct value and count: p + 1 pJ (or W), 1000 (p + 3) events */
static void constructed(energy_counts *c, energy_table *t)
{
    memset(c, 0, sizeof *c);
    memset(t, 0, sizeof *t);
    for (int p = 0; p < ENERGY_NPARAM; p++) {
        t->v[p] = p + 1.0;
        c->n[p] = p < ENERGY_NDYN ? 1000.0 * (p + 3) : (double)(p % 4 + 1);
    }
}

static void close_to(double got, double want)
{
    double tol = 1e-12 * fabs(want) + 1e-300;
    if (fabs(got - want) > tol) fail_msg("got %.17g, want %.17g", got, want);
}

static void test_sum_per_unit(void **state)
{
    (void)state;
    energy_counts c;
    energy_table t;
    constructed(&c, &t);
    double secs = 2.5e-4;
    energy_breakdown b;
    energy_compute(&c, &t, secs, &b);
    double want[ENERGY_NPART] = { 0 };
    for (int p = 0; p < ENERGY_NPARAM; p++)
        want[energy_param_part(p)] += p < ENERGY_NDYN ? c.n[p] * t.v[p] * 1e-12
                                                      : c.n[p] * t.v[p] * secs;
    double dyn = 0, stat = 0;
    for (int q = 0; q < ENERGY_NPART; q++) {
        close_to(b.part_j[q], want[q]);
        assert_true(want[q] > 0);     /* every part has a parameter */
        if (q < ENERGY_NPART_DYN) dyn += want[q];
        else stat += want[q];
    }
    close_to(b.dynamic_j, dyn);
    close_to(b.static_j, stat);
    close_to(b.total_j, dyn + stat);
    close_to(b.avg_power_w, (dyn + stat) / secs);
    assert_true(b.seconds == secs);
    /* static parts follow time: twice the time, twice the static energy */
    energy_breakdown b2;
    energy_compute(&c, &t, 2 * secs, &b2);
    close_to(b2.static_j, 2 * stat);
    close_to(b2.dynamic_j, dyn);
}

/* Doubling one unit's per-event energies changes that part alone. */
static void test_double_one_unit(void **state)
{
    (void)state;
    energy_counts c;
    energy_table t;
    constructed(&c, &t);
    energy_breakdown base;
    energy_compute(&c, &t, 1e-3, &base);
    for (int part = 0; part < ENERGY_NPART; part++) {
        energy_table t2 = t;
        for (int p = 0; p < ENERGY_NPARAM; p++)
            if (energy_param_part(p) == part) t2.v[p] *= 2;
        energy_breakdown b;
        energy_compute(&c, &t2, 1e-3, &b);
        for (int q = 0; q < ENERGY_NPART; q++) {
            if (q == part) close_to(b.part_j[q], 2 * base.part_j[q]);
            else assert_true(b.part_j[q] == base.part_j[q]);
        }
        close_to(b.total_j, base.total_j + base.part_j[part]);
    }
}

/* Every table gives every parameter a value > 0 and a source; keys unique. */
static void test_tables_complete(void **state)
{
    (void)state;
    const char *const *names = energy_tech_names();
    assert_non_null(names[0]);
    for (; *names; names++) {
        const energy_tech *tech = energy_tech_find(*names);
        assert_non_null(tech);
        for (int p = 0; p < ENERGY_NPARAM; p++) {
            if (!(tech->v[p] > 0)) fail_msg("%s: energy.%s has no value", *names, energy_param_key(p));
            if (!tech->src[p] || !tech->src[p][0])
                fail_msg("%s: energy.%s has no source", *names, energy_param_key(p));
        }
    }
    for (int p = 0; p < ENERGY_NPARAM; p++)
        for (int q = p + 1; q < ENERGY_NPARAM; q++)
            assert_string_not_equal(energy_param_key(p), energy_param_key(q));
    assert_null(energy_tech_find("7nm-nonexistent"));
}

static void test_config_overrides(void **state)
{
    (void)state;
    gpu_config c;
    char err[512];
    gpu_config_defaults(&c);
    assert_int_equal(gpu_config_check(&c, err, sizeof err), 0);
    energy_table t;
    assert_int_equal(energy_table_resolve(&c, &t, err, sizeof err), 0);
    const energy_tech *tech = energy_tech_find("40nm");
    for (int p = 0; p < ENERGY_NPARAM; p++) assert_true(t.v[p] == tech->v[p]);
    assert_int_equal(gpu_config_set(&c, "energy.l1d_access_pj", "500", err, sizeof err), 0);
    assert_int_equal(gpu_config_set(&c, "energy.leak_sm_w", "0", err, sizeof err), 0);
    assert_int_equal(energy_table_resolve(&c, &t, err, sizeof err), 0);
    assert_true(t.v[ENERGY_P_L1D] == 500);
    assert_true(t.v[ENERGY_P_LEAK_SM] == 0);
    assert_true(t.v[ENERGY_P_L2] == tech->v[ENERGY_P_L2]);
    /* a negative value other than -1, and an unknown table, are refused */
    assert_int_equal(gpu_config_set(&c, "energy.l2_access_pj", "-0.5", err, sizeof err), 0);
    assert_int_not_equal(gpu_config_check(&c, err, sizeof err), 0);
    assert_non_null(strstr(err, "energy.l2_access_pj"));
    gpu_config_defaults(&c);
    assert_int_equal(gpu_config_set(&c, "energy_tech", "3nm", err, sizeof err), 0);
    assert_int_not_equal(gpu_config_check(&c, err, sizeof err), 0);
    assert_non_null(strstr(err, "energy_tech"));
    assert_non_null(strstr(err, "40nm"));
}

static void some_stats(gpu_kernel_stats *k)
{
    memset(k, 0, sizeof *k);
    k->cycles = 700000;             /* 1 ms at 700 MHz */
    k->fetched_insns = 11;
    k->warp_insns = 10;
    k->rf_reads = 300;
    k->rf_writes = 100;
    for (int i = 0; i < GPU_STATS_PIPES; i++) k->pipe_lanes[i] = 32u * (i + 1);
    k->shmem_accesses = 5;
    k->shmem_conflict_cycles = 2;
    k->l1d.accesses = 40;
    k->l1d.reservation_fails = 7;
    k->reexec_parked = 3;
    k->reexec_retries = 4;
    k->mem.icnt_req_flits = 6;
    k->mem.icnt_rep_flits = 9;
    k->mem.l2.accesses = 12;
    k->mem.dram_activates = 2;
    k->mem.dram_precharges = 1;
    k->mem.dram_bytes = 640;
    k->mem.dram_rd_bytes = 512;
}

static void test_counts_of(void **state)
{
    (void)state;
    gpu_config c;
    gpu_config_defaults(&c);
    gpu_kernel_stats k;
    some_stats(&k);
    energy_counts n;
    energy_counts_of(&c, &k, &n);
    assert_true(n.n[ENERGY_P_FETCH] == 11);
    assert_true(n.n[ENERGY_P_ISSUE] == 10);
    assert_true(n.n[ENERGY_P_RF_READ] == 300 && n.n[ENERGY_P_RF_WRITE] == 100);
    assert_true(n.n[ENERGY_P_SP] == 32 && n.n[ENERGY_P_LDST] == 32 * 5);
    assert_true(n.n[ENERGY_P_CTRL] == 32 * 6);
    assert_true(n.n[ENERGY_P_SMEM] == 7);
    assert_true(n.n[ENERGY_P_L1D] == 47);
    assert_true(n.n[ENERGY_P_REEXEC] == 7);
    assert_true(n.n[ENERGY_P_ICNT] == 15.0 * c.icnt_flit_bytes);
    assert_true(n.n[ENERGY_P_L2] == 12);
    assert_true(n.n[ENERGY_P_DRAM_RD] == 512 && n.n[ENERGY_P_DRAM_WR] == 128);
    assert_true(n.n[ENERGY_P_LEAK_SM] == gpu_config_n_sm(&c));
    assert_true(n.n[ENERGY_P_DRAM_BG] == c.n_mem);
    close_to(energy_seconds(&c, &k), 1e-3);
}

/* The text and JSON reports carry the total and the parts, equal to the model's. */
static void test_report_fields(void **state)
{
    (void)state;
    gpu_config c;
    gpu_config_defaults(&c);
    gpu_kernel_stats k;
    some_stats(&k);
    energy_breakdown b;
    assert_int_equal(energy_of_kernel(&c, &k, &b), 0);
    for (int json = 0; json < 2; json++) {
        char *buf = NULL;
        size_t len = 0;
        FILE *f = open_memstream(&buf, &len);
        gpu_report(f, &c, &k, 1, NULL, json);
        fclose(f);
        char want[128];
        snprintf(want, sizeof want, json ? "\"energy_j\": %.6e" : "energy_j = %.6e", b.total_j);
        assert_non_null(strstr(buf, want));
        snprintf(want, sizeof want, json ? "\"avg_power_w\": %.6e" : "avg_power_w = %.6e",
                 b.avg_power_w);
        assert_non_null(strstr(buf, want));
        for (int q = 0; q < ENERGY_NPART; q++) {
            snprintf(want, sizeof want, "energy_%s_j", energy_part_name(q));
            assert_non_null(strstr(buf, want));
        }
        assert_non_null(strstr(buf, "energy_leak_j"));
        free(buf);
    }
    /* 1 ms of the 40 nm table's static power alone: about 54 mJ */
    assert_true(b.static_j > 0.04 && b.static_j < 0.07);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sum_per_unit),
        cmocka_unit_test(test_double_one_unit),
        cmocka_unit_test(test_tables_complete),
        cmocka_unit_test(test_config_overrides),
        cmocka_unit_test(test_counts_of),
        cmocka_unit_test(test_report_fields),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
