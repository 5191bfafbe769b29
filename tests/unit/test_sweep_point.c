/*
** test_sweep_point.c -- the points of an experiment (sweep_point.c): the
** documented order (benchmark, size, config, seed; seed fastest) and what
** the content hash covers: the resolved inputs, not the labels.
*/
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "cli/sweep.h"

static sweep_bench benches[2] = {
    { .name = "kmeans", .commands = {"{bin} --size tiny", "{bin} --size small", "{bin}"},
      .source_hash = 1 },
    { .name = "btree", .commands = {"{bin} --size tiny", "{bin} --size small", "{bin}"},
      .source_hash = 2 },
};
static uint64_t seeds[2] = {1, 7};

static void make(sweep_exp *x, sweep_config *c)
{
    memset(x, 0, sizeof *x);
    memset(c, 0, 3 * sizeof *c);
    c[0] = (sweep_config){ .name = "lrr", .sets = {"warp_scheduler=lrr"}, .nsets = 1 };
    c[1] = (sweep_config){ .name = "gto", .sets = {"warp_scheduler=gto"}, .nsets = 1 };
    x->benches = benches; x->nbenches = 2;
    x->sizes[0] = 0; x->sizes[1] = 1; x->nsizes = 2;
    x->configs = c; x->nconfigs = 2;
    x->seeds = seeds; x->nseeds = 2;
}

static void test_order(void **state)
{
    (void)state;
    sweep_exp x;
    sweep_config c[3];
    sweep_point *p;
    make(&x, c);
    int n = sweep_points(&x, &p);
    assert_int_equal(n, 16);
    /* seed fastest, then config, then size, then benchmark */
    assert_int_equal(p[0].seed, 0);
    assert_int_equal(p[1].seed, 1);
    assert_int_equal(p[2].config, 1);
    assert_int_equal(p[4].size, 1);
    assert_int_equal(p[8].bench, 1);
    assert_int_equal(p[15].bench, 1);
    assert_int_equal(p[15].size, 1);
    assert_int_equal(p[15].config, 1);
    assert_int_equal(p[15].seed, 1);
    for (int i = 0; i < n; i++)
        for (int j = i + 1; j < n; j++) assert_true(p[i].hash != p[j].hash);
    free(p);
    x.nseeds = 0;   /* no seeds: one point per (b, s, c), seed -1 */
    n = sweep_points(&x, &p);
    assert_int_equal(n, 8);
    assert_int_equal(p[0].seed, -1);
    free(p);
}

static uint64_t hash0(sweep_exp *x)
{
    char buf[4096];
    sweep_point p = { .bench = 0, .size = 0, .config = 1, .seed = 1 };
    return sweep_point_hash(x, &p, buf, sizeof buf);
}

static void test_hash_covers_inputs(void **state)
{
    (void)state;
    sweep_exp x;
    sweep_config c[3];
    make(&x, c);
    uint64_t h = hash0(&x);
    c[1].name = "renamed";                  /* a label: same point */
    assert_true(hash0(&x) == h);
    c[1].sets[0] = "warp_scheduler=oldest"; /* a setting: another point */
    assert_true(hash0(&x) != h);
    c[1].sets[0] = "warp_scheduler=gto";
    assert_true(hash0(&x) == h);
    seeds[1] = 8;
    assert_true(hash0(&x) != h);
    seeds[1] = 7;
    benches[0].source_hash = 99;            /* the program's source changed */
    assert_true(hash0(&x) != h);
    benches[0].source_hash = 1;
    c[1].plugins[0] = "/p.so"; c[1].plugin_hash[0] = 5; c[1].nplugins = 1;
    uint64_t hp = hash0(&x);
    assert_true(hp != h);
    c[1].plugin_hash[0] = 6;                /* the plug-in file's contents changed */
    assert_true(hash0(&x) != hp);
    c[1].nplugins = 0;
    c[1].env[0] = "WARPSIM_BENCH_CORRUPT=1"; c[1].nenv = 1;
    assert_true(hash0(&x) != h);
    c[1].nenv = 0;
    c[1].config = "/x.cfg"; c[1].config_hash = 3;
    uint64_t hc = hash0(&x);
    assert_true(hc != h);
    c[1].config_hash = 4;                   /* the config file's contents changed */
    assert_true(hash0(&x) != hc);
}

/* A config's "benchmarks": its points elsewhere do not exist, the others
   keep their order and their hashes. */
static void test_restricted(void **state)
{
    (void)state;
    sweep_exp x;
    sweep_config c[3];
    sweep_point *all, *p;
    unsigned char only_btree[2] = {0, 1};
    make(&x, c);
    x.nseeds = 0;
    x.nsizes = 1;
    int na = sweep_points(&x, &all);
    assert_int_equal(na, 4);
    c[1].runs = only_btree;                 /* gto only on btree */
    assert_false(sweep_runs(&x, 1, 0));
    assert_true(sweep_runs(&x, 1, 1));
    assert_true(sweep_runs(&x, 0, 0));
    int n = sweep_points(&x, &p);
    assert_int_equal(n, 3);
    /* kmeans lrr, btree lrr, btree gto: as before, kmeans gto left out */
    assert_int_equal(p[0].bench, 0);
    assert_int_equal(p[0].config, 0);
    assert_int_equal(p[1].bench, 1);
    assert_int_equal(p[1].config, 0);
    assert_int_equal(p[2].bench, 1);
    assert_int_equal(p[2].config, 1);
    assert_true(p[0].hash == all[0].hash);
    assert_true(p[1].hash == all[2].hash);
    assert_true(p[2].hash == all[3].hash);
    free(all);
    free(p);
}

static void test_fnv(void **state)
{
    (void)state;
    /* FNV-1a 64 reference values */
    assert_true(sweep_fnv(SWEEP_FNV_INIT, "", 0) == 0xcbf29ce484222325ULL);
    assert_true(sweep_fnv(SWEEP_FNV_INIT, "a", 1) == 0xaf63dc4c8601ec8cULL);
    assert_true(sweep_file_hash("/nonexistent/file") == 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_order),
        cmocka_unit_test(test_hash_covers_inputs),
        cmocka_unit_test(test_fnv),
        cmocka_unit_test(test_restricted),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
