/*
** test_claims.c -- the claims of `warpsim reproduce` (src/cli/claims_file.c,
** claims_eval.c) over an in-memory table: bands, every/at-least-K
** benchmarks, orderings with a tolerance, ratios and differences, the
** aggregates, SKIP naming the failed run behind a missing value, and the
** file errors (at load: malformed members; at evaluation: names the tables
** do not have).
*/
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "cli/claims.h"

/* Two cache-sensitive benchmarks (a, b) and a compute one (c) under lrr
   and gto; b's gto run failed at size "small". */
static void table(claims_table *t)
{
    memset(t, 0, sizeof *t);
    static const claims_bench benches[] = {{"a", "memory cache-sensitive"},
                                           {"b", "memory cache-sensitive"}, {"c", "compute"}};
    t->benches = (claims_bench *)benches;
    t->nbenches = 3;
    /* ipc: a 10/20, b 10/40, c 10/10 (lrr/gto) */
    claims_table_add(t, "ipc", "a", "tiny", "lrr", "", "ok", 10);
    claims_table_add(t, "ipc", "a", "tiny", "gto", "", "ok", 20);
    claims_table_add(t, "ipc", "b", "tiny", "lrr", "", "ok", 10);
    claims_table_add(t, "ipc", "b", "tiny", "gto", "", "ok", 40);
    claims_table_add(t, "ipc", "c", "tiny", "lrr", "", "ok", 10);
    claims_table_add(t, "ipc", "c", "tiny", "gto", "", "ok", 10);
    claims_table_add(t, "speedup", "a", "tiny", "gto", "", NULL, 2);
    claims_table_add(t, "speedup", "b", "tiny", "gto", "", NULL, 4);
    claims_table_add(t, "speedup", "c", "tiny", "gto", "", NULL, 0.99);
    claims_table_add(t, "gm", "cache-sensitive", "tiny", "gto", "", NULL, sqrt(8));
    /* a best over lrr and gto: its config column is the best's name */
    claims_table_add(t, "best_ipc", "a", "tiny", "best_ipc", "", NULL, 20);
    claims_table_add(t, "best_ipc", "b", "tiny", "best_ipc", "", NULL, 40);
    claims_table_add(t, "best_ipc", "c", "tiny", "best_ipc", "", NULL, 10);
    /* swl runs only on a (its "benchmarks"): no rows of b and c */
    claims_table_add(t, "ipc", "a", "tiny", "swl", "", "ok", 30);
    claims_table_add(t, "ipc", "b", "small", "lrr", "", "ok", 10);
    claims_table_add(t, "ipc", "b", "small", "gto", "", "fail", NAN);
    claims_table_add(t, "gm", "cache-sensitive", "small", "gto", "", NULL, NAN);
}

/* Evaluate the one claim of {"claims": [CLAIM]}. */
static int eval1(const char *claim_json, claims_result *r)
{
    char doc[2048];
    claims_file cf;
    claims_table t;
    snprintf(doc, sizeof doc, "{\"claims\": [{\"id\": \"x\", \"section\": \"s\", \"text\": \"t\", "
             "\"paper\": 1, %s}]}", claim_json);
    assert_int_equal(claims_load_string(&cf, "test.claims.json", doc), 0);
    table(&t);
    claims_eval(&cf.claims[0], &t, r);
    free(t.rows);
    claims_free(&cf);
    return r->verdict;
}

static void test_band(void **state)
{
    (void)state;
    claims_result r;
    assert_int_equal(eval1("\"band\": [2.8, 2.9], \"value\": {\"metric\": \"gm\", \"config\": "
                           "\"gto\"}", &r), CLAIMS_PASS);
    assert_string_equal(r.measured, "2.82843");
    assert_string_equal(r.band, "[2.8, 2.9]");
    assert_int_equal(eval1("\"band\": [3, null], \"value\": {\"metric\": \"gm\", \"config\": "
                           "\"gto\"}", &r), CLAIMS_FAIL);
    assert_string_equal(r.band, "[3, inf]");
    /* the harmonic mean of the cache-sensitive IPCs under gto: 2/(1/20+1/40) */
    assert_int_equal(eval1("\"band\": [26.6, 26.7], \"value\": {\"metric\": \"ipc\", \"config\": "
                           "\"gto\", \"benchmark\": {\"class\": \"cache-sensitive\"}, "
                           "\"agg\": \"hmean\"}", &r), CLAIMS_PASS);
    /* CCWS-like "within 10 % of Best-SWL": hmean IPC over hmean of the best */
    assert_int_equal(eval1("\"band\": [0.9, 1.1], \"value\": {\"ratio\": [{\"metric\": \"ipc\", "
                           "\"config\": \"lrr\", \"agg\": \"hmean\"}, {\"metric\": \"best_ipc\", "
                           "\"agg\": \"hmean\"}]}", &r), CLAIMS_FAIL);
    assert_string_equal(r.measured, "0.583333");
    assert_int_equal(eval1("\"band\": [0.9, 1.1], \"value\": {\"ratio\": [{\"metric\": \"ipc\", "
                           "\"config\": \"gto\", \"benchmark\": [\"a\", \"b\"], \"agg\": \"hmean\"}, "
                           "{\"metric\": \"best_ipc\", \"benchmark\": {\"class\": "
                           "\"cache-sensitive\"}, \"agg\": \"hmean\"}]}", &r), CLAIMS_PASS);
    /* ratio and difference of scalars */
    assert_int_equal(eval1("\"band\": [2, 2], \"value\": {\"ratio\": [{\"metric\": \"ipc\", "
                           "\"config\": \"gto\", \"benchmark\": \"a\"}, {\"metric\": \"ipc\", "
                           "\"config\": \"lrr\", \"benchmark\": \"a\"}]}", &r), CLAIMS_PASS);
    assert_int_equal(eval1("\"band\": [30, 30], \"value\": {\"diff\": [{\"metric\": \"ipc\", "
                           "\"config\": \"gto\", \"benchmark\": \"b\"}, {\"metric\": \"ipc\", "
                           "\"config\": \"lrr\", \"benchmark\": \"b\"}]}", &r), CLAIMS_PASS);
}

static void test_each(void **state)
{
    (void)state;
    claims_result r;
    const char *every = "\"band\": [0.97, 1.03], \"each\": {\"metric\": \"speedup\", \"config\": "
                        "\"gto\"%s}";
    char buf[512];
    snprintf(buf, sizeof buf, every, ", \"benchmark\": {\"class\": \"compute\"}");
    assert_int_equal(eval1(buf, &r), CLAIMS_PASS);
    assert_non_null(strstr(r.measured, "1 of 1 in band"));
    snprintf(buf, sizeof buf, every, "");
    assert_int_equal(eval1(buf, &r), CLAIMS_FAIL);
    assert_non_null(strstr(r.measured, "1 of 3 in band"));
    assert_non_null(strstr(r.measured, "out: a, b"));
    /* at least 1 of the 3 */
    snprintf(buf, sizeof buf, "\"at_least\": 1, %s", every);
    char buf2[600];
    snprintf(buf2, sizeof buf2, buf, "");
    assert_int_equal(eval1(buf2, &r), CLAIMS_PASS);
    /* at least 4 of 3 benchmarks: not enough inputs */
    snprintf(buf, sizeof buf, "\"at_least\": 4, %s", every);
    snprintf(buf2, sizeof buf2, buf, "");
    assert_int_equal(eval1(buf2, &r), CLAIMS_SKIP);
}

static void test_order(void **state)
{
    (void)state;
    claims_result r;
    /* geomean IPC of the cache-sensitive group: lrr 10 < gto sqrt(800) */
    assert_int_equal(eval1("\"order\": [\"lrr\", \"<\", \"gto\"], \"of\": {\"metric\": \"ipc\", "
                           "\"benchmark\": {\"class\": \"cache-sensitive\"}, \"agg\": "
                           "\"geomean\"}", &r), CLAIMS_PASS);
    assert_string_equal(r.measured, "lrr 10 < gto 28.2843");
    assert_int_equal(eval1("\"order\": [\"lrr\", \">=\", \"gto\"], \"of\": {\"metric\": \"ipc\", "
                           "\"benchmark\": \"a\"}", &r), CLAIMS_FAIL);
    /* c: 10 vs 10: "<" fails, "~" and "<=" hold; a 1 % tolerance makes 10 ~ 10.05 */
    assert_int_equal(eval1("\"order\": [\"lrr\", \"<\", \"gto\"], \"of\": {\"metric\": \"ipc\", "
                           "\"benchmark\": \"c\"}", &r), CLAIMS_FAIL);
    assert_int_equal(eval1("\"order\": [\"lrr\", \"~\", \"gto\", \"<=\", \"lrr\"], \"of\": "
                           "{\"metric\": \"ipc\", \"benchmark\": \"c\"}", &r), CLAIMS_PASS);
    /* scalars as items */
    assert_int_equal(eval1("\"order\": [{\"metric\": \"gm\", \"config\": \"gto\"}, \">\", "
                           "{\"metric\": \"speedup\", \"config\": \"gto\", \"benchmark\": \"a\"}], "
                           "\"tolerance\": 0.2", &r), CLAIMS_PASS);
    assert_int_equal(eval1("\"order\": [{\"metric\": \"gm\", \"config\": \"gto\"}, \">\", "
                           "{\"metric\": \"speedup\", \"config\": \"gto\", \"benchmark\": \"a\"}], "
                           "\"tolerance\": 0.3", &r), CLAIMS_FAIL);
    /* per benchmark: lrr <= gto holds on a, b, c; lrr < gto on a and b only */
    assert_int_equal(eval1("\"order\": [\"lrr\", \"<\", \"gto\"], \"per_benchmark\": true, "
                           "\"of\": {\"metric\": \"ipc\"}", &r), CLAIMS_FAIL);
    assert_non_null(strstr(r.measured, "holds on 2 of 3 benchmarks; not on: c"));
    assert_int_equal(eval1("\"order\": [\"lrr\", \"<\", \"gto\"], \"per_benchmark\": true, "
                           "\"at_least\": 2, \"of\": {\"metric\": \"ipc\"}", &r), CLAIMS_PASS);
}

static void test_skip(void **state)
{
    (void)state;
    claims_result r;
    assert_int_equal(eval1("\"band\": [1, 2], \"value\": {\"metric\": \"ipc\", \"config\": "
                           "\"gto\", \"size\": \"small\", \"benchmark\": \"b\"}", &r), CLAIMS_SKIP);
    assert_non_null(strstr(r.why, "run b small gto failed (fail)"));
    /* a group mean that is empty because of that run */
    assert_int_equal(eval1("\"band\": [1, 2], \"value\": {\"metric\": \"gm\", \"config\": "
                           "\"gto\", \"size\": \"small\"}", &r), CLAIMS_SKIP);
    assert_non_null(strstr(r.why, "run b small gto failed (fail)"));
    /* a benchmark the tables do not have (the size omits it) */
    assert_int_equal(eval1("\"band\": [1, 2], \"value\": {\"metric\": \"ipc\", \"config\": "
                           "\"gto\", \"benchmark\": \"zz\"}", &r), CLAIMS_SKIP);
    assert_non_null(strstr(r.why, "no ipc of zz"));
}

/* A declared SKIP ("skip": reason) is SKIP with its reason whatever the
   tables hold: without a computation, and with one that would PASS. */
static void test_declared_skip(void **state)
{
    (void)state;
    claims_result r;
    assert_int_equal(eval1("\"skip\": \"until the energy model exists\"", &r), CLAIMS_SKIP);
    assert_string_equal(r.why, "until the energy model exists");
    assert_string_equal(r.band, "-");
    assert_int_equal(eval1("\"skip\": \"later\", \"band\": [2.8, 2.9], \"value\": "
                           "{\"metric\": \"gm\", \"config\": \"gto\"}", &r), CLAIMS_SKIP);
    assert_string_equal(r.why, "later");
    assert_string_equal(r.band, "[2.8, 2.9]");
}

/* A config restricted to some benchmarks: its missing rows are neither
   failed runs nor errors; a metric with no row at all under a config is. */
static void test_sparse(void **state)
{
    (void)state;
    claims_result r;
    assert_int_equal(eval1("\"band\": [30, 30], \"each\": {\"metric\": \"ipc\", \"config\": "
                           "\"swl\"}", &r), CLAIMS_PASS);
    assert_int_equal(eval1("\"band\": [30, 30], \"value\": {\"metric\": \"ipc\", \"config\": "
                           "\"swl\", \"benchmark\": {\"class\": \"cache-sensitive\"}, "
                           "\"agg\": \"hmean\"}", &r), CLAIMS_PASS);
    assert_int_equal(eval1("\"band\": [1, 2], \"value\": {\"metric\": \"ipc\", \"config\": "
                           "\"swl\", \"benchmark\": \"b\"}", &r), CLAIMS_SKIP);
    assert_non_null(strstr(r.why, "no ipc of b at size tiny under swl"));
    assert_null(strstr(r.why, "failed"));
    assert_int_equal(eval1("\"band\": [1, 2], \"value\": {\"metric\": \"gm\", \"config\": "
                           "\"swl\"}", &r), CLAIMS_ERROR);
    assert_non_null(strstr(r.why, "gm has no row under config 'swl'"));
    /* an ordering per benchmark compares where every config has a row */
    assert_int_equal(eval1("\"order\": [\"lrr\", \"<\", \"swl\"], \"per_benchmark\": true, "
                           "\"of\": {\"metric\": \"ipc\"}", &r), CLAIMS_PASS);
    assert_string_equal(r.measured, "holds on 1 of 1 benchmarks");
    assert_int_equal(eval1("\"order\": [\"swl\", \"<\", \"lrr\"], \"per_benchmark\": true, "
                           "\"of\": {\"metric\": \"ipc\"}", &r), CLAIMS_FAIL);
    assert_int_equal(eval1("\"order\": [\"swl\", \">\", \"lrr\"], \"per_benchmark\": true, "
                           "\"of\": {\"metric\": \"ipc\", \"benchmark\": [\"b\", \"c\"]}", &r),
                     CLAIMS_SKIP);
    /* a best addressed by its own name as the config */
    assert_int_equal(eval1("\"band\": [40, 40], \"value\": {\"metric\": \"best_ipc\", "
                           "\"config\": \"best_ipc\", \"benchmark\": \"b\"}", &r), CLAIMS_PASS);
}

static void test_eval_errors(void **state)
{
    (void)state;
    claims_result r;
    assert_int_equal(eval1("\"band\": [1, 2], \"value\": {\"metric\": \"nope\", \"config\": "
                           "\"gto\"}", &r), CLAIMS_ERROR);
    assert_non_null(strstr(r.why, "unknown metric 'nope'"));
    assert_int_equal(eval1("\"band\": [1, 2], \"value\": {\"metric\": \"ipc\", \"config\": "
                           "\"gtoo\"}", &r), CLAIMS_ERROR);
    assert_non_null(strstr(r.why, "unknown config 'gtoo'"));
    assert_int_equal(eval1("\"band\": [1, 2], \"value\": {\"metric\": \"ipc\", \"config\": "
                           "\"gto\"}", &r), CLAIMS_ERROR);
    assert_non_null(strstr(r.why, "selects 3 benchmarks"));
    assert_int_equal(eval1("\"band\": [1, 2], \"value\": {\"metric\": \"ipc\", \"benchmark\": "
                           "\"a\"}", &r), CLAIMS_ERROR);
    assert_non_null(strstr(r.why, "name a \"config\""));
}

/* Each malformed file is refused with the message naming the file, the
   claim and the bad member (stderr caught in a temporary file). */
static void test_load_errors(void **state)
{
    (void)state;
#define HEAD "{\"claims\": [{\"id\": \"k\", \"section\": \"s\", \"text\": \"t\", \"paper\": 1, "
    static const char *const bad[][2] = {
        {"{\"claims\": []}", "bad.claims.json: $.claims: expected a non-empty array"},
        {HEAD "\"value\": {\"metric\": \"m\"}}]}", "claim 'k' ($.claims[0].band): expected [LOW"},
        {HEAD "\"order\": [\"a\", \"=<\", \"b\"], \"of\": {\"metric\": \"m\"}}]}",
         "($.claims[0].order): item 1: expected one of"},
        {HEAD "\"band\": [2, 1], \"value\": {\"metric\": \"m\"}}]}", "LOW 2 is above HIGH 1"},
        {HEAD "\"band\": [1, 2], \"value\": {\"metric\": \"m\", \"agg\": \"median\"}}]}",
         "($.claims[0].value): agg: expected geomean"},
        {HEAD "\"band\": [1, 2], \"value\": {\"metric\": \"m\"}, \"each\": {\"metric\": \"m\"}}]}",
         "($.claims[0]): expected exactly one of"},
        {HEAD "\"band\": [1, 2], \"value\": {\"metric\": \"m\"}}, {\"id\": \"k\", \"section\": "
         "\"s\", \"text\": \"t\", \"paper\": 1, \"band\": [1, 2], \"value\": {\"metric\": \"m\"}}]}",
         "claim 'k' ($.claims[1].id): id used twice"},
        {"{\"claims\": [{\"id\": \"k\", \"text\": \"t\", \"paper\": 1, \"band\": [1, 2], "
         "\"value\": {\"metric\": \"m\"}}]}", "claim 'k' ($.claims[0].section): expected"},
        {HEAD "\"band\": [1, 2], \"value\": {\"metric\": \"m\", \"confg\": \"x\"}}]}",
         "($.claims[0].value): unknown key 'confg'"},
        {HEAD "\"band\": [1, 2], \"value\": {\"metric\": \"m\", \"size\": \"huge\"}}]}",
         "size: expected tiny, small or default"},
        {HEAD "\"skip\": \"\"}]}", "($.claims[0].skip): expected the reason"},
        {HEAD "\"skip\": 3}]}", "($.claims[0].skip): expected the reason"},
        {HEAD "\"skip\": \"r\", \"band\": [1, 2]}]}", "($.claims[0]): a \"skip\" without"},
        {HEAD "\"sikp\": \"r\"}]}", "unknown key 'sikp'"},
        {HEAD "\"order\": [\"a\", \"<\", \"b\"], \"per_benchmark\": true, \"of\": "
         "{\"metric\": \"m\", \"agg\": \"mean\"}}]}", "($.claims[0].of.agg): per_benchmark"},
        {"{\"claims\": [{\"section\": \"s\"}]}", "claim #1 ($.claims[0].id): expected an id"},
    };
#undef HEAD
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        claims_file cf;
        char msg[1024] = "";
        FILE *f = tmpfile();
        int saved = dup(2);
        assert_non_null(f);
        fflush(stderr);
        dup2(fileno(f), 2);
        int rc = claims_load_string(&cf, "bad.claims.json", bad[i][0]);
        fflush(stderr);
        dup2(saved, 2);
        close(saved);
        rewind(f);
        size_t n = fread(msg, 1, sizeof msg - 1, f);
        msg[n] = 0;
        fclose(f);
        claims_free(&cf);
        assert_int_equal(rc, -1);
        if (!strstr(msg, bad[i][1])) fail_msg("file %zu: '%s' lacks '%s'", i, msg, bad[i][1]);
        assert_non_null(strstr(msg, "bad.claims.json"));
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_band),        cmocka_unit_test(test_each),
        cmocka_unit_test(test_order),       cmocka_unit_test(test_skip),
        cmocka_unit_test(test_eval_errors), cmocka_unit_test(test_load_errors),
        cmocka_unit_test(test_sparse),      cmocka_unit_test(test_declared_skip),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
