/*
** test_plugin.c -- policy plug-ins loaded with ws_registry_load: the
** example `youngest` warp scheduler (examples/plugins/, built into
** WS_PLUGIN_DIR) joins the registry and orders warps youngest first; a
** plug-in of another ABI version, a missing file, an object without the
** entry point and a second copy of a loaded plug-in are refused with a
** message naming the file, leaving the registry as it was.  Through the
** host API: ws_options.plugins makes the configuration accept the
** plug-in's scheduler, and a bad plug-in fails context creation.
*/
#define _GNU_SOURCE   /* dladdr */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dlfcn.h>
#include <math.h>
#include <unistd.h>
#include <cmocka.h>

#include "policy/policy.h"
#include "warpsim.h"

#define YOUNGEST WS_PLUGIN_DIR "/warp_youngest.so"
#define BADABI   WS_PLUGIN_DIR "/warp_badabi.so"

static const ws_warp_sched_ops *load_youngest(ws_registry *r)
{
    char err[1024] = "";
    int rc = ws_registry_load(r, YOUNGEST, err, sizeof err);
    if (rc != 0) print_error("%s\n", err);
    assert_int_equal(rc, 0);
    return ws_registry_find(r, WS_KIND_WARP, "youngest");
}

static void test_youngest_orders_youngest_first(void **state)
{
    (void)state;
    ws_registry *r = ws_registry_new();
    assert_non_null(r);
    const ws_warp_sched_ops *o = load_youngest(r);
    assert_non_null(o);
    assert_string_equal(o->name, "youngest");
    assert_non_null(o->order);

    /* slots 0..4: ages 5, 9, 7, 9 and a finished warp; slot 1 and 3 tie */
    ws_warp_view w[5];
    memset(w, 0, sizeof w);
    const uint64_t ages[5] = { 5, 9, 7, 9, 20 };
    for (uint32_t i = 0; i < 5; i++) {
        w[i].valid = i != 4;
        w[i].slot = i;
        w[i].age = ages[i];
    }
    const uint32_t cand[5] = { 0, 1, 2, 3, 4 };
    ws_sched_view v = { .nwarps = 5, .warps = w, .ncand = 5, .cand = cand, .nsched = 1 };
    uint32_t out[5] = { 99, 99, 99, 99, 99 };
    assert_int_equal(o->order(NULL, &v, out), 4);
    assert_int_equal(out[0], 1);   /* age 9, the lower slot of the tie */
    assert_int_equal(out[1], 3);
    assert_int_equal(out[2], 2);
    assert_int_equal(out[3], 0);

    /* three warps only, as a unit sees them */
    v.ncand = 3;
    assert_int_equal(o->order(NULL, &v, out), 3);
    assert_int_equal(out[0], 1);
    assert_int_equal(out[1], 2);
    assert_int_equal(out[2], 0);
    ws_registry_free(r);
}

static void test_plugin_joins_registry(void **state)
{
    (void)state;
    ws_registry *r = ws_registry_new();
    assert_non_null(load_youngest(r));
    /* the built-ins are still there; the built-in view does not see it */
    assert_non_null(ws_registry_find(r, WS_KIND_WARP, "gto"));
    assert_null(ws_registry_find(NULL, WS_KIND_WARP, "youngest"));
    char names[512];
    ws_registry_names(r, WS_KIND_WARP, names, sizeof names);
    assert_non_null(strstr(names, "youngest"));

    /* resolvable as any policy, by the one resolution path */
    const char *kinds[WS_KIND_COUNT] = { "youngest", "rr", "rr", "frfcfs", "none" };
    const char *params[WS_KIND_COUNT] = { "", "", "", "", "" };
    ws_resolved_policies rp;
    char err[1024];
    assert_int_equal(ws_policies_resolve(r, kinds, params, &rp, err, sizeof err), 0);
    assert_ptr_equal(rp.warp, ws_registry_find(r, WS_KIND_WARP, "youngest"));

    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    ws_registry_print(r, f);
    fclose(f);
    assert_non_null(strstr(text, "youngest"));
    assert_non_null(strstr(text, "(plug-in "));
    free(text);
    ws_registry_free(r);
}

static void test_bad_abi_refused(void **state)
{
    (void)state;
    ws_registry *r = ws_registry_new();
    char err[1024] = "", want[512];
    assert_int_equal(ws_registry_load(r, BADABI, err, sizeof err), -1);
    snprintf(want, sizeof want, "%s was built against policy ABI %d; this warpsim has ABI %d: "
             "rebuild it against this warpsim's include/warpsim_policy.h", BADABI,
             WS_POLICY_ABI_VERSION + 1, WS_POLICY_ABI_VERSION);
    assert_string_equal(err, want);
    assert_null(ws_registry_find(r, WS_KIND_WARP, "badabi"));
    ws_registry_free(r);
}

static void test_missing_file_and_symbol(void **state)
{
    (void)state;
    ws_registry *r = ws_registry_new();
    char err[1024] = "";
    assert_int_equal(ws_registry_load(r, "/nonexistent/nosuch.so", err, sizeof err), -1);
    assert_non_null(strstr(err, "/nonexistent/nosuch.so"));
    assert_non_null(strstr(err, "cannot load"));

    /* a real shared object that is not a plug-in: the C math library */
    Dl_info info;
    double (*cosine)(double) = cos;
    void *addr;
    memcpy(&addr, &cosine, sizeof addr);
    assert_true(dladdr(addr, &info) != 0 && info.dli_fname && strchr(info.dli_fname, '/'));
    assert_int_equal(ws_registry_load(r, info.dli_fname, err, sizeof err), -1);
    assert_non_null(strstr(err, info.dli_fname));
    assert_non_null(strstr(err, WS_PLUGIN_ENTRY));

    assert_int_equal(ws_registry_load(r, "", err, sizeof err), -1);
    ws_registry_free(r);
}

static void test_duplicate_and_bare_name(void **state)
{
    (void)state;
    ws_registry *r = ws_registry_new();
    char err[1024] = "";
    assert_non_null(load_youngest(r));
    assert_int_equal(ws_registry_load(r, YOUNGEST, err, sizeof err), -1);
    assert_non_null(strstr(err, YOUNGEST));
    assert_non_null(strstr(err, "'youngest' is already registered"));
    assert_non_null(ws_registry_find(r, WS_KIND_WARP, "youngest"));
    ws_registry_free(r);

    /* a name without '/' is a file in the current folder, not a library
       searched for on the library path */
    char cwd[4096];
    assert_non_null(getcwd(cwd, sizeof cwd));
    assert_int_equal(chdir(WS_PLUGIN_DIR), 0);
    r = ws_registry_new();
    int rc = ws_registry_load(r, "warp_youngest.so", err, sizeof err);
    int rc_lib = ws_registry_load(r, "libm.so.6", err, sizeof err);
    assert_int_equal(chdir(cwd), 0);
    assert_int_equal(rc, 0);
    assert_int_equal(rc_lib, -1);
    assert_non_null(strstr(err, "libm.so.6"));
    ws_registry_free(r);
}

/* Policy counters: the statistics hold WS_MAX_COUNTERS names shorter than
   WS_COUNTER_NAME; a plug-in declaring more or longer is refused whole. */
static uint32_t ctr_order(void *st, const ws_sched_view *v, uint32_t *out)
{
    (void)st;
    memcpy(out, v->cand, v->ncand * sizeof *out);
    return v->ncand;
}

static void test_counter_limits(void **state)
{
    (void)state;
    static const char *const nine[] = { "a", "b", "c", "d", "e", "f", "g", "h", "i", NULL };
    static const char *const longname[] = {
        "a_counter_name_of_thirty_two_chr", NULL };   /* 32 characters */
    static const char *const fine[] = { "hits", "vetoes", NULL };
    ws_warp_sched_ops ops = { .name = "counted", .order = ctr_order, .counter_names = nine };
    const ws_warp_sched_ops *list[] = { &ops, NULL };
    ws_plugin p = { .abi_version = WS_POLICY_ABI_VERSION, .name = "counters.so",
                    .warp = list };
    ws_registry *r = ws_registry_new();
    char err[1024] = "";
    assert_int_equal(ws_registry_add(r, &p, err, sizeof err), -1);
    assert_non_null(strstr(err, "'counted'"));
    assert_non_null(strstr(err, "more than 8 counters"));
    ops.counter_names = longname;
    assert_int_equal(ws_registry_add(r, &p, err, sizeof err), -1);
    assert_null(ws_registry_find(r, WS_KIND_WARP, "counted"));
    ops.counter_names = fine;
    assert_int_equal(ws_registry_add(r, &p, err, sizeof err), 0);
    assert_non_null(ws_registry_find(r, WS_KIND_WARP, "counted"));
    ws_registry_free(r);
}

static void test_host_api_options(void **state)
{
    (void)state;
    const char *sets[] = { "warp_scheduler=youngest", NULL };
    ws_options o = { .timing = 1, .settings = sets };
    char warn[1024], err[1024];
    uint32_t sms = 0;

    /* without the plug-in the name is unknown */
    assert_int_equal(ws_options_check(&o, &sms, NULL, warn, sizeof warn, err, sizeof err),
                     WS_ERR_INVALID);
    assert_non_null(strstr(err, "youngest"));
    /* with it (an empty item in the list is ignored) the configuration is whole */
    o.plugins = ":" YOUNGEST;
    assert_int_equal(ws_options_check(&o, &sms, NULL, warn, sizeof warn, err, sizeof err),
                     WS_OK);
    assert_true(sms > 0);
    ws_ctx *ctx = NULL;
    assert_int_equal(ws_ctx_create2(&o, &ctx, err, sizeof err), WS_OK);
    assert_non_null(ctx);
    ws_ctx_destroy(ctx);

    /* a bad plug-in fails context creation, with or without timing */
    o.plugins = YOUNGEST ":" BADABI;
    for (int timing = 0; timing <= 1; timing++) {
        o.timing = timing;
        ctx = NULL;
        assert_int_equal(ws_ctx_create2(&o, &ctx, err, sizeof err), WS_ERR_INVALID);
        assert_null(ctx);
        assert_non_null(strstr(err, BADABI));
        assert_int_equal(ws_options_check(&o, NULL, NULL, warn, sizeof warn, err, sizeof err),
                         WS_ERR_INVALID);
    }
    o.plugins = "";
    o.timing = 0;
    assert_int_equal(ws_options_check(&o, NULL, NULL, warn, sizeof warn, err, sizeof err), WS_OK);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_youngest_orders_youngest_first),
        cmocka_unit_test(test_plugin_joins_registry),
        cmocka_unit_test(test_bad_abi_refused),
        cmocka_unit_test(test_missing_file_and_symbol),
        cmocka_unit_test(test_duplicate_and_bare_name),
        cmocka_unit_test(test_counter_limits),
        cmocka_unit_test(test_host_api_options),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
