/*
** test_corr_stats.c -- the statistics of `warpsim correlate`
** (src/cli/corr_stats.c) on fixed numbers worked out by hand: Pearson's r
** (linear and of logs, and its precision on cycle counts near 1e9), the
** mean absolute relative error, the +-20 %/+-25 % bands with their edges,
** GTO's gain over LRR, the sign check and the summary over a data set
** with runs that are not comparable or failed.
*/
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>
#include "cli/corr.h"

static void test_pearson(void **state)
{
    (void)state;
    const double x[] = { 1, 2, 3, 4, 5 }, y[] = { 2, 4, 5, 4, 5 };
    /* sxy = 6, sxx = 10, syy = 6: r = 6 / sqrt(60) */
    assert_float_equal(corr_pearson(x, y, 5), 6 / sqrt(60), 1e-12);
    const double line[] = { 3, 5, 7, 9, 11 }, anti[] = { 11, 9, 7, 5, 3 };
    assert_float_equal(corr_pearson(x, line, 5), 1.0, 1e-12);
    assert_float_equal(corr_pearson(x, anti, 5), -1.0, 1e-12);
    /* undefined, not 0: one run, or a side without variance */
    const double flat[] = { 4, 4, 4, 4, 4 };
    assert_true(isnan(corr_pearson(x, y, 1)));
    assert_true(isnan(corr_pearson(x, flat, 5)));
    /* cycle counts near 1e9 differing in the units: the one-pass formula
       would lose every digit here */
    double bx[5], by[5];
    for (int i = 0; i < 5; i++) { bx[i] = 1e9 + x[i]; by[i] = 1e9 + y[i]; }
    assert_float_equal(corr_pearson(bx, by, 5), 6 / sqrt(60), 1e-9);
}

static void test_pearson_log(void **state)
{
    (void)state;
    /* y = 2x is a shifted line in log space; linear r of a power law is not 1 */
    const double x[] = { 1, 10, 100, 1000 }, y[] = { 2, 20, 200, 2000 };
    const double sq[] = { 1, 100, 10000, 1000000 };
    assert_float_equal(corr_pearson_log(x, y, 4), 1.0, 1e-12);
    assert_float_equal(corr_pearson_log(x, sq, 4), 1.0, 1e-12);
    /* the cube law y = x^3 on 1..4: log r = 1, linear r = 104 / sqrt(11950) */
    const double c1[] = { 1, 2, 3, 4 }, c3[] = { 1, 8, 27, 64 };
    assert_float_equal(corr_pearson_log(c1, c3, 4), 1.0, 1e-12);
    assert_float_equal(corr_pearson(c1, c3, 4), 104 / sqrt(11950), 1e-12);
    const double zero[] = { 0, 10, 100, 1000 };
    assert_true(isnan(corr_pearson_log(zero, y, 4)));
}

static void test_mare_and_bands(void **state)
{
    (void)state;
    const double ref[] = { 100, 200, 400 }, sim[] = { 110, 150, 400 };
    assert_float_equal(corr_mare(ref, sim, 3), (0.10 + 0.25 + 0.0) / 3, 1e-12);
    assert_true(isnan(corr_mare(ref, sim, 0)));
    /* the edges count as inside: 120 and 80 are exactly +-20 %, 125 +25 % */
    const double r4[] = { 100, 100, 100, 100 }, s4[] = { 120, 125, 80, 74.9 };
    assert_int_equal(corr_within(r4, s4, 4, 0.20), 2);
    assert_int_equal(corr_within(r4, s4, 4, 0.25), 3);
}

static void test_gain_and_sign(void **state)
{
    (void)state;
    /* the SpMV: GPGPU-Sim's GTO gains 7.8 % over LRR */
    assert_float_equal(corr_gto_gain(382802, 415170), (415170.0 - 382802) / 415170, 1e-12);
    assert_float_equal(corr_gto_gain(382802, 415170), 0.078, 5e-4);
    assert_int_equal(corr_sign_agrees(0.05, 0.01, 0.03), 1);
    assert_int_equal(corr_sign_agrees(-0.04, -0.001, 0.03), 1);
    assert_int_equal(corr_sign_agrees(0.05, -0.01, 0.03), 0);
    assert_int_equal(corr_sign_agrees(0.05, 0.0, 0.03), 0);     /* no sign */
    assert_int_equal(corr_sign_agrees(0.02, -0.5, 0.03), -1);   /* not checked */
    assert_int_equal(corr_sign_agrees(0.03, -0.5, 0.03), -1);   /* must exceed */
}

static void add_run(corr_data *d, const char *b, const char *s, bool comparable, bool ok,
                    double ref, double sim, double ref_insns, double sim_insns)
{
    corr_run *r = &d->runs[d->n++];
    memset(r, 0, sizeof *r);
    strcpy(r->bench, b);
    strcpy(r->sched, s);
    r->comparable = comparable;
    r->ref.cycles = ref;
    r->ref.insns = ref_insns;
    r->res.ok = ok;
    r->res.sim.cycles = sim;
    r->res.sim.insns = sim_insns;
}

static void test_summary(void **state)
{
    (void)state;
    corr_run runs[10];
    corr_data d = { .runs = runs };
    /* a: GTO 10 % better in both (agrees); b: GPGPU-Sim's gain 5 %, warpsim's
       negative (disagrees); c: gain 1 % (not checked); d: not comparable;
       e: lrr failed in warpsim, so no pair */
    add_run(&d, "a", "gto", true, true, 900, 1000, 50, 50);
    add_run(&d, "a", "lrr", true, true, 1000, 1110, 50, 50);
    add_run(&d, "b", "gto", true, true, 950, 700, 70, 71);
    add_run(&d, "b", "lrr", true, true, 1000, 690, 70, 71);
    add_run(&d, "c", "gto", true, true, 990, 1500, 9, 9);
    add_run(&d, "c", "lrr", true, true, 1000, 1000, 9, 9);
    add_run(&d, "d", "gto", false, false, 0, 0, 0, 0);
    add_run(&d, "e", "gto", true, true, 400, 420, 5, 5);
    add_run(&d, "e", "lrr", true, false, 500, 0, 5, 0);
    corr_summary s;
    corr_summarize(&d, &s);
    assert_int_equal(s.n, 7);
    assert_int_equal(s.not_comparable, 1);
    assert_int_equal(s.failed, 1);
    assert_int_equal(s.insn_equal, 5);           /* b's two differ */
    assert_int_equal(s.sign_checked, 2);         /* a and b */
    assert_int_equal(s.sign_agree, 1);           /* a */
    /* ratios 1.111 1.110 0.737 0.690 1.515 1.0 1.05 */
    assert_int_equal(s.within20, 4);
    assert_int_equal(s.within25, 4);
    double ref[] = { 900, 1000, 950, 1000, 990, 1000, 400 };
    double sim[] = { 1000, 1110, 700, 690, 1500, 1000, 420 };
    assert_float_equal(s.r_linear, corr_pearson(ref, sim, 7), 1e-12);
    assert_float_equal(s.mare, corr_mare(ref, sim, 7), 1e-12);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_pearson),
        cmocka_unit_test(test_pearson_log),
        cmocka_unit_test(test_mare_and_bands),
        cmocka_unit_test(test_gain_and_sign),
        cmocka_unit_test(test_summary),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
