/*
** test_policy_registry.c -- the policy registry: every listed name is found
** by exact name and is unique within its kind, unknown names are not, and
** ws_params_resolve / ws_params_parse apply defaults, overrides and bounds
** with messages that name the policy, key and value.
*/
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "policy/policy.h"

static void test_every_name_found(void **state)
{
    (void)state;
    size_t n = 0;
    for (size_t i = 0; ws_warp_nth(i); i++, n++) {
        assert_non_null(ws_warp_nth(i)->name);
        assert_ptr_equal(ws_find_warp_sched(ws_warp_nth(i)->name), ws_warp_nth(i));
        assert_non_null(ws_warp_nth(i)->summary);
    }
    assert_int_equal(n, 13);
    n = 0;
    for (size_t i = 0; ws_fetch_nth(i); i++, n++)
        assert_ptr_equal(ws_find_fetch(ws_fetch_nth(i)->name), ws_fetch_nth(i));
    assert_true(n >= 1);
    n = 0;
    for (size_t i = 0; ws_cta_map_nth(i); i++, n++)
        assert_ptr_equal(ws_find_cta_map(ws_cta_map_nth(i)->name), ws_cta_map_nth(i));
    assert_true(n >= 1);

    const char *warp_names[] = { "lrr", "gto", "oldest", "two-level", "swl", "ccws" };
    for (size_t i = 0; i < 6; i++) {
        const ws_warp_sched_ops *o = ws_find_warp_sched(warp_names[i]);
        assert_non_null(o);
        assert_string_equal(o->name, warp_names[i]);
        assert_non_null(o->init);
        assert_non_null(o->order);
    }
    assert_non_null(ws_find_fetch("rr"));
    assert_non_null(ws_find_cta_map("rr"));
}

static void test_names_unique(void **state)
{
    (void)state;
    for (size_t i = 0; ws_warp_nth(i); i++)
        for (size_t j = i + 1; ws_warp_nth(j); j++)
            assert_string_not_equal(ws_warp_nth(i)->name, ws_warp_nth(j)->name);
    for (size_t i = 0; ws_fetch_nth(i); i++)
        for (size_t j = i + 1; ws_fetch_nth(j); j++)
            assert_string_not_equal(ws_fetch_nth(i)->name, ws_fetch_nth(j)->name);
    for (size_t i = 0; ws_cta_map_nth(i); i++)
        for (size_t j = i + 1; ws_cta_map_nth(j); j++)
            assert_string_not_equal(ws_cta_map_nth(i)->name, ws_cta_map_nth(j)->name);
}

/* Parameter names are unique within each policy and defaults lie in bounds. */
static void check_params(const ws_param_desc *p)
{
    for (size_t i = 0; p && p[i].name; i++) {
        assert_true(p[i].min <= p[i].def && p[i].def <= p[i].max);
        assert_non_null(p[i].help);
        for (size_t j = i + 1; p[j].name; j++)
            assert_string_not_equal(p[i].name, p[j].name);
    }
}

static void test_param_tables_sane(void **state)
{
    (void)state;
    for (size_t i = 0; ws_warp_nth(i); i++)
        check_params(ws_warp_nth(i)->params);
    for (size_t i = 0; ws_fetch_nth(i); i++)
        check_params(ws_fetch_nth(i)->params);
    for (size_t i = 0; ws_cta_map_nth(i); i++)
        check_params(ws_cta_map_nth(i)->params);
}

static void test_unknown_names(void **state)
{
    (void)state;
    /* GPGPU-Sim matched by substring: here a typo, prefix or its own
       spelling is simply unknown */
    assert_null(ws_find_warp_sched("gtoo"));
    assert_null(ws_find_warp_sched("gt"));
    assert_null(ws_find_warp_sched("GTO"));
    assert_null(ws_find_warp_sched("two_level_active"));
    assert_null(ws_find_warp_sched(""));
    assert_null(ws_find_warp_sched(NULL));
    assert_null(ws_find_fetch("icount-not-here"));
    assert_null(ws_find_cta_map("rrr"));

    char buf[256];
    ws_registry_names(NULL, WS_KIND_WARP, buf, sizeof buf);
    assert_string_equal(buf, "lrr, gto, oldest, fifo, two-level, swl, ccws, owl-cta, owl-locality, owl-blp, mascar, haws, hals");
    ws_registry_names(NULL, WS_KIND_FETCH, buf, sizeof buf);
    assert_non_null(strstr(buf, "rr"));
    char tiny[5];
    ws_registry_names(NULL, WS_KIND_WARP, tiny, sizeof tiny);
    assert_int_equal(strlen(tiny), 4);   /* truncated, still terminated */
}

static void test_resolve_defaults(void **state)
{
    (void)state;
    const ws_warp_sched_ops *tl = ws_find_warp_sched("two-level");
    ws_param_values pv;
    char err[256];
    assert_int_equal(ws_params_resolve("two-level", tl->params, 0, NULL, NULL, &pv,
                                       err, sizeof err), 0);
    assert_int_equal(pv.n, 3);
    assert_int_equal(pv.v[0], 8);   /* active_warps */
    assert_int_equal(pv.v[1], 0);   /* inner */
    assert_int_equal(pv.v[2], 0);   /* outer */

    /* a policy without parameters */
    assert_int_equal(ws_params_resolve("gto", NULL, 0, NULL, NULL, &pv, err, sizeof err), 0);
    assert_int_equal(pv.n, 0);
}

static void test_resolve_overrides(void **state)
{
    (void)state;
    const ws_warp_sched_ops *tl = ws_find_warp_sched("two-level");
    const char *keys[] = { "outer", "active_warps" };
    const char *vals[] = { "1", "6" };
    ws_param_values pv;
    char err[256];
    assert_int_equal(ws_params_resolve("two-level", tl->params, 2, keys, vals, &pv,
                                       err, sizeof err), 0);
    assert_int_equal(pv.v[0], 6);
    assert_int_equal(pv.v[1], 0);   /* untouched: default */
    assert_int_equal(pv.v[2], 1);
}

static void test_resolve_unknown_key(void **state)
{
    (void)state;
    const ws_warp_sched_ops *tl = ws_find_warp_sched("two-level");
    const char *keys[] = { "actve_warps" };
    const char *vals[] = { "4" };
    ws_param_values pv;
    char err[256];
    assert_int_equal(ws_params_resolve("two-level", tl->params, 1, keys, vals, &pv,
                                       err, sizeof err), -1);
    assert_non_null(strstr(err, "two-level"));
    assert_non_null(strstr(err, "actve_warps"));
    assert_non_null(strstr(err, "active_warps"));
    assert_non_null(strstr(err, "inner"));
    assert_non_null(strstr(err, "outer"));

    /* a key given to a policy that takes none */
    assert_int_equal(ws_params_resolve("gto", NULL, 1, keys, vals, &pv, err, sizeof err), -1);
    assert_non_null(strstr(err, "gto"));
    assert_non_null(strstr(err, "no parameters"));
}

static void test_resolve_bad_values(void **state)
{
    (void)state;
    const ws_warp_sched_ops *swl = ws_find_warp_sched("swl");
    const char *keys[] = { "warp_limit" };
    ws_param_values pv;
    char err[256];

    const char *zero[] = { "0" };
    assert_int_equal(ws_params_resolve("swl", swl->params, 1, keys, zero, &pv,
                                       err, sizeof err), -1);
    assert_non_null(strstr(err, "swl"));
    assert_non_null(strstr(err, "warp_limit=0"));
    assert_non_null(strstr(err, "[1, 256]"));

    const char *big[] = { "257" };
    assert_int_equal(ws_params_resolve("swl", swl->params, 1, keys, big, &pv,
                                       err, sizeof err), -1);
    assert_non_null(strstr(err, "257"));

    const char *bad[] = { "8x", "", "eight", "99999999999999999999999" };
    for (size_t i = 0; i < 4; i++) {
        const char *v1[] = { bad[i] };
        assert_int_equal(ws_params_resolve("swl", swl->params, 1, keys, v1, &pv,
                                           err, sizeof err), -1);
        assert_non_null(strstr(err, "not an integer"));
        assert_non_null(strstr(err, "warp_limit"));
    }

    /* bounds are inclusive */
    const char *edge[] = { "256" };
    assert_int_equal(ws_params_resolve("swl", swl->params, 1, keys, edge, &pv,
                                       err, sizeof err), 0);
    assert_int_equal(pv.v[0], 256);

    /* the same key twice is a mistake, not "last wins" */
    const char *k2[] = { "warp_limit", "warp_limit" };
    const char *v2[] = { "4", "5" };
    assert_int_equal(ws_params_resolve("swl", swl->params, 2, k2, v2, &pv,
                                       err, sizeof err), -1);
    assert_non_null(strstr(err, "twice"));
}

static void test_parse_text(void **state)
{
    (void)state;
    const ws_warp_sched_ops *tl = ws_find_warp_sched("two-level");
    ws_param_values pv;
    char err[256];
    assert_int_equal(ws_params_parse("two-level", tl->params, " active_warps = 4 , inner=1",
                                     &pv, err, sizeof err), 0);
    assert_int_equal(pv.v[0], 4);
    assert_int_equal(pv.v[1], 1);
    assert_int_equal(pv.v[2], 0);

    assert_int_equal(ws_params_parse("two-level", tl->params, "", &pv, err, sizeof err), 0);
    assert_int_equal(pv.v[0], 8);
    assert_int_equal(ws_params_parse("two-level", tl->params, NULL, &pv, err, sizeof err), 0);

    assert_int_equal(ws_params_parse("two-level", tl->params, "active_warps", &pv,
                                     err, sizeof err), -1);
    assert_non_null(strstr(err, "key=value"));
    assert_int_equal(ws_params_parse("two-level", tl->params, "inner=1,,outer=1", &pv,
                                     err, sizeof err), -1);
    assert_non_null(strstr(err, "empty"));
    assert_int_equal(ws_params_parse("two-level", tl->params, "inner=2", &pv,
                                     err, sizeof err), -1);
    assert_non_null(strstr(err, "inner=2"));
    assert_non_null(strstr(err, "[0, 1]"));
}

static void test_list_policies(void **state)
{
    (void)state;
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    assert_non_null(f);
    ws_registry_print(NULL, f);
    fclose(f);
    for (size_t i = 0; ws_warp_nth(i); i++)
        assert_non_null(strstr(text, ws_warp_nth(i)->name));
    assert_non_null(strstr(text, "active_warps"));
    assert_non_null(strstr(text, "warp_limit"));
    assert_non_null(strstr(text, "[1, 256]"));
    assert_non_null(strstr(text, "fetch"));
    assert_non_null(strstr(text, "CTA"));
    free(text);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_name_found),
        cmocka_unit_test(test_names_unique),
        cmocka_unit_test(test_param_tables_sane),
        cmocka_unit_test(test_unknown_names),
        cmocka_unit_test(test_resolve_defaults),
        cmocka_unit_test(test_resolve_overrides),
        cmocka_unit_test(test_resolve_unknown_key),
        cmocka_unit_test(test_resolve_bad_values),
        cmocka_unit_test(test_parse_text),
        cmocka_unit_test(test_list_policies),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
