/*
** test_config.c -- the machine configuration (gpu/config.c, presets.c,
** gpgpusim.c): defaults and presets pass the checks, set/get round trips,
** errors name key, value and bounds, GPGPU-Sim config files load with
** the expected values and one warning, and the dump lists every key.
*/
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "gpu/config.h"
#include "helpers.h"

static void test_defaults_pass_check(void **state)
{
    (void)state;
    gpu_config c;
    char err[512] = "";
    gpu_config_defaults(&c);
    assert_int_equal(gpu_config_check(&c, err, sizeof err), 0);
    assert_string_equal(c.preset, "gtx480");
    /* Mascar Table I */
    assert_int_equal(gpu_config_n_sm(&c), 15);
    assert_int_equal(c.l1d.sets, 64);
    assert_int_equal(c.l1d.ways, 4);
    assert_int_equal(c.l1d.line_bytes, 128);
    assert_int_equal(c.l1d.mshr_entries, 64);
    assert_int_equal(gpu_config_max_warps(&c), 48);
    assert_false(c.l1d.write_back);
    assert_string_equal(c.warp_scheduler, "lrr");
}

static void test_every_preset_loads(void **state)
{
    (void)state;
    int n = 0;
    for (const char *const *p = gpu_preset_names; *p; p++, n++) {
        gpu_config c;
        char err[512] = "";
        int rc = gpu_config_preset(&c, *p, err, sizeof err);
        if (rc) fprintf(stderr, "preset %s: %s\n", *p, err);
        assert_int_equal(rc, 0);
        assert_string_equal(c.preset, *p);
        rc = gpu_config_check(&c, err, sizeof err);
        if (rc) fprintf(stderr, "preset %s: %s\n", *p, err);
        assert_int_equal(rc, 0);
        assert_non_null(gpu_preset_summary(*p));
    }
    assert_int_equal(n, 5);
    gpu_config c;
    char err[512];
    assert_int_equal(gpu_config_preset(&c, "fx5800", err, sizeof err), 0);
    assert_int_equal(gpu_config_n_sm(&c), 30);        /* CCWS: 10 x 3 */
    assert_int_equal(c.l1d.mshr_entries, 16);
    assert_int_equal(c.issue_width, 2);
    assert_int_equal(gpu_config_preset(&c, "owl28", err, sizeof err), 0);
    assert_int_equal(gpu_config_n_sm(&c), 28);
    assert_int_equal(c.l1d.line_bytes, 64);
    assert_int_equal(gpu_config_preset(&c, "k20x", err, sizeof err), 0);
    assert_int_equal(c.n_schedulers, 4);
    assert_int_equal(gpu_config_max_warps(&c), 64);
    assert_int_equal(gpu_config_preset(&c, "tesla8", err, sizeof err), 0);
    assert_false(c.l1d.enabled);
    assert_int_equal(gpu_config_preset(&c, "gtx48", err, sizeof err), -1);
    assert_non_null(strstr(err, "gtx480"));   /* lists the presets */
}

static void test_set_get(void **state)
{
    (void)state;
    gpu_config c;
    char err[512], v[64];
    gpu_config_defaults(&c);
    assert_int_equal(gpu_config_set(&c, "l1d.sets", "32", err, sizeof err), 0);
    assert_int_equal(c.l1d.sets, 32);
    assert_int_equal(gpu_config_get(&c, "l1d.sets", v, sizeof v), 0);
    assert_string_equal(v, "32");
    assert_int_equal(gpu_config_set(&c, "core_mhz", "1400.5", err, sizeof err), 0);
    assert_int_equal(gpu_config_get(&c, "core_mhz", v, sizeof v), 0);
    assert_string_equal(v, "1400.5");
    assert_int_equal(gpu_config_set(&c, "l1d.write_back", "yes", err, sizeof err), 0);
    assert_true(c.l1d.write_back);
    assert_int_equal(gpu_config_set(&c, "warp_scheduler", "gto", err, sizeof err), 0);
    assert_string_equal(c.warp_scheduler, "gto");
    assert_int_equal(gpu_config_apply(&c, "op.sfu.latency=33", err, sizeof err), 0);
    assert_int_equal(c.op[GPU_OPC_SFU].latency, 33);
    assert_int_equal(gpu_config_set(&c, "units.sp", "010", err, sizeof err), 0);
    assert_int_equal(c.units[GPU_UNIT_SP], 10);          /* decimal, not octal */
    assert_int_equal(gpu_config_get(&c, "no_such", v, sizeof v), -1);
    /* GPGPU-Sim names through --set */
    assert_int_equal(gpu_config_apply(&c, "-gpgpu_scheduler=two_level_active:6:0:1", err,
                                      sizeof err), 0);
    assert_string_equal(c.warp_scheduler, "two-level");
    assert_non_null(strstr(c.warp_scheduler_params, "active_warps=6"));
    assert_int_equal(gpu_config_check(&c, err, sizeof err), 0);
}

static void test_bad_key_suggests(void **state)
{
    (void)state;
    gpu_config c;
    char err[4096];
    gpu_config_defaults(&c);
    assert_int_equal(gpu_config_set(&c, "l1d.set", "4", err, sizeof err), -1);
    assert_non_null(strstr(err, "'l1d.set'"));
    assert_non_null(strstr(err, "did you mean"));
    assert_non_null(strstr(err, "l1d.sets"));
    /* nothing close: every valid key is listed */
    assert_int_equal(gpu_config_set(&c, "zzzzzzzzzzzz", "4", err, sizeof err), -1);
    assert_non_null(strstr(err, "valid parameters"));
    assert_non_null(strstr(err, "warp_scheduler"));
    assert_non_null(strstr(err, "skip_idle_cycles"));
}

static void test_bad_value_names_bounds(void **state)
{
    (void)state;
    gpu_config c;
    char err[512];
    gpu_config_defaults(&c);
    assert_int_equal(gpu_config_set(&c, "l1d.ways", "0", err, sizeof err), -1);
    assert_non_null(strstr(err, "l1d.ways"));
    assert_non_null(strstr(err, "0"));
    assert_non_null(strstr(err, "[1, 256]"));
    assert_int_equal(gpu_config_set(&c, "n_clusters", "many", err, sizeof err), -1);
    assert_non_null(strstr(err, "'many'"));
    assert_non_null(strstr(err, "n_clusters"));
    assert_int_equal(gpu_config_set(&c, "n_clusters", "-3", err, sizeof err), -1);
    assert_int_equal(gpu_config_set(&c, "use_ptxas", "maybe", err, sizeof err), -1);
    assert_non_null(strstr(err, "boolean"));
    assert_int_equal(c.n_clusters, 15);      /* failed sets change nothing */
    /* cross-field checks */
    gpu_config_defaults(&c);
    assert_int_equal(gpu_config_set(&c, "n_schedulers", "5", err, sizeof err), 0);
    assert_int_equal(gpu_config_check(&c, err, sizeof err), -1);
    assert_non_null(strstr(err, "n_schedulers"));
    gpu_config_defaults(&c);
    assert_int_equal(gpu_config_set(&c, "warp_scheduler", "gtoo", err, sizeof err), 0);
    assert_int_equal(gpu_config_check(&c, err, sizeof err), -1);
    assert_non_null(strstr(err, "gtoo"));
    assert_non_null(strstr(err, "gto"));
    gpu_config_defaults(&c);
    assert_int_equal(gpu_config_set(&c, "warp_scheduler", "swl", err, sizeof err), 0);
    assert_int_equal(gpu_config_set(&c, "warp_scheduler_params", "warp_limit=0", err,
                                    sizeof err), 0);
    assert_int_equal(gpu_config_check(&c, err, sizeof err), -1);
    assert_non_null(strstr(err, "warp_limit"));
    gpu_config_defaults(&c);
    assert_int_equal(gpu_config_set(&c, "l1d.line_bytes", "100", err, sizeof err), 0);
    assert_int_equal(gpu_config_check(&c, err, sizeof err), -1);
    assert_non_null(strstr(err, "power of two"));
}

static void test_gpgpusim_file(void **state)
{
    (void)state;
    gpu_config c;
    char warn[4096], err[512] = "";
    gpu_config_defaults(&c);
    /* start from a different machine: the file must set the values */
    assert_int_equal(gpu_config_preset(&c, "k20x", err, sizeof err), 0);
    int rc = gpu_config_load_file(&c, th_source_path("tests/data/gtx480.gpgpusim.config"),
                                  warn, sizeof warn, err, sizeof err);
    if (rc) fprintf(stderr, "%s\n", err);
    assert_int_equal(rc, 0);
    assert_int_equal(gpu_config_check(&c, err, sizeof err), 0);
    assert_int_equal(gpu_config_n_sm(&c), 15);
    assert_int_equal(c.max_threads_per_sm, 1536);
    assert_int_equal(c.regs_per_sm, 32768);
    assert_int_equal(c.max_ctas_per_sm, 8);
    assert_int_equal(c.n_schedulers, 2);
    assert_int_equal(c.shmem_per_sm, 49152);
    assert_int_equal(c.n_mem, 6);
    assert_true(c.core_mhz == 700.0 && c.dram_mhz == 924.0);
    assert_int_equal(c.l1d.sets, 64);
    assert_int_equal(c.l1d.ways, 4);
    assert_int_equal(c.l1d.line_bytes, 128);
    assert_int_equal(c.l1d.mshr_entries, 64);
    assert_int_equal(c.l1d.mshr_merge, 8);
    assert_int_equal(c.l1d.miss_queue, 8);
    assert_int_equal(c.l1t.sets, 4);
    assert_int_equal(c.l1t.ways, 24);
    assert_int_equal(c.l1c.line_bytes, 64);
    assert_int_equal(c.op[GPU_OPC_INT_DIV].latency, 145);
    assert_int_equal(c.op[GPU_OPC_INT_MUL].latency, 5);
    assert_int_equal(c.op[GPU_OPC_FP64_DIV].interval, 130);
    assert_int_equal(c.units[GPU_UNIT_SP], 2);
    assert_string_equal(c.warp_scheduler, "lrr");
    /* one warning naming the ignored and the unknown options */
    assert_null(strchr(warn, '\n'));
    assert_non_null(strstr(warn, "-gpgpu_operand_collector_num_units_sp"));
    assert_non_null(strstr(warn, "-gpgpu_dram_timing_opt"));
    assert_non_null(strstr(warn, "unknown: -gpgpu_cflog_interval, -gpgpu_perfect_inst_const_cache"));
    /* not in the file: kept from the k20x start */
    assert_int_equal(c.l1d.hit_latency, 6);
}

static void test_cache_string_formats(void **state)
{
    (void)state;
    gpu_config c;
    char err[512];
    gpu_config_defaults(&c);
    assert_int_equal(gpu_config_apply(&c, "-gpgpu_cache:dl1=32:128:4,L:L:m:N,A:32:8,8", err,
                                      sizeof err), 0);
    assert_int_equal(c.l1d.sets, 32);
    assert_int_equal(c.l1d.mshr_entries, 32);
    assert_int_equal(gpu_config_apply(&c, "-gpgpu_cache:dl1=N:64:128:6,L:B:m:N:H,A:128:8,16:0,32",
                                      err, sizeof err), 0);
    assert_int_equal(c.l1d.ways, 6);
    assert_int_equal(c.l1d.mshr_entries, 128);
    assert_int_equal(c.l1d.miss_queue, 16);
    assert_true(c.l1d.write_back);
    assert_int_equal(gpu_config_apply(&c, "-gpgpu_cache:dl1=12:x:4", err, sizeof err), -1);
    assert_non_null(strstr(err, "-gpgpu_cache:dl1"));
    assert_int_equal(gpu_config_apply(&c, "-gpgpu_gmem_skip_L1D=1", err, sizeof err), 0);
    assert_false(c.l1d.enabled);
    assert_int_equal(gpu_config_apply(&c, "-gpgpu_shader_core_pipeline=1024:16", err,
                                      sizeof err), -1);
    assert_non_null(strstr(err, "warp size"));
    assert_int_equal(gpu_config_apply(&c, "-gpgpu_clock_domains=1:2:3:4", err, sizeof err), 0);
    assert_true(c.l2_mhz == 3.0);
}

static void test_build_file_and_errors(void **state)
{
    (void)state;
    gpu_config c;
    char warn[2048], err[1024];
    const char *sets[] = { "warp_scheduler=gto", "l1d.sets=32", NULL };
    assert_int_equal(gpu_config_build(&c, "fx5800", sets, warn, sizeof warn, err, sizeof err), 0);
    assert_string_equal(c.warp_scheduler, "gto");
    assert_int_equal(c.l1d.sets, 32);
    assert_int_equal(gpu_config_n_sm(&c), 30);
    assert_string_equal(warn, "");
    assert_int_equal(gpu_config_build(&c, "nosuch", NULL, warn, sizeof warn, err, sizeof err), -1);
    assert_non_null(strstr(err, "nosuch"));
    assert_int_equal(gpu_config_build(&c, "/nonexistent/x.cfg", NULL, warn, sizeof warn, err,
                                      sizeof err), -1);
    assert_non_null(strstr(err, "/nonexistent/x.cfg"));
    const char *bad[] = { "l1d.sets", NULL };
    assert_int_equal(gpu_config_build(&c, NULL, bad, warn, sizeof warn, err, sizeof err), -1);
    assert_non_null(strstr(err, "key=value"));
    /* a file in our own format, with an error on line 3 */
    char path[] = "/tmp/ws_cfg_XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    FILE *f = fdopen(fd, "w");
    fprintf(f, "# comment\nl1d.sets = 16   # sets\nl1d.ways = lots\n");
    fclose(f);
    assert_int_equal(gpu_config_build(&c, path, NULL, warn, sizeof warn, err, sizeof err), -1);
    assert_non_null(strstr(err, ":3:"));
    assert_non_null(strstr(err, "'lots'"));
    unlink(path);
}

static void test_dump_has_every_key(void **state)
{
    (void)state;
    gpu_config c, back;
    char err[512], warn[512];
    gpu_config_defaults(&c);
    for (int json = 0; json < 2; json++) {
        char *buf = NULL;
        size_t len = 0;
        FILE *m = open_memstream(&buf, &len);
        gpu_config_dump(&c, m, json);
        fclose(m);
        uint32_t i = 0;
        for (const char *k; (k = gpu_config_key(i)); i++) {
            char pat[128];
            snprintf(pat, sizeof pat, json ? "\"%s\": {\"value\"" : "\n%s ", k);
            if (!strstr(buf, pat)) fprintf(stderr, "missing %s\n", k);
            assert_non_null(strstr(buf, pat));
        }
        assert_true(i > 60);
        if (json) assert_non_null(strstr(buf, "\"unit\": \"bytes\""));
        else assert_non_null(strstr(buf, "# sets"));
        free(buf);
    }
    /* the text dump is a config file that reproduces the machine */
    char path[] = "/tmp/ws_dump_XXXXXX";
    int fd = mkstemp(path);
    FILE *f = fdopen(fd, "w");
    gpu_config_preset(&c, "owl28", err, sizeof err);
    gpu_config_dump(&c, f, false);
    fclose(f);
    assert_int_equal(gpu_config_load_file(&back, path, warn, sizeof warn, err, sizeof err), 0);
    gpu_config_defaults(&back);
    assert_int_equal(gpu_config_load_file(&back, path, warn, sizeof warn, err, sizeof err), 0);
    unlink(path);
    for (uint32_t i = 0; gpu_config_key(i); i++) {
        char a[320], b[320];
        gpu_config_get(&c, gpu_config_key(i), a, sizeof a);
        gpu_config_get(&back, gpu_config_key(i), b, sizeof b);
        assert_string_equal(a, b);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_defaults_pass_check),
        cmocka_unit_test(test_every_preset_loads),
        cmocka_unit_test(test_set_get),
        cmocka_unit_test(test_bad_key_suggests),
        cmocka_unit_test(test_bad_value_names_bounds),
        cmocka_unit_test(test_gpgpusim_file),
        cmocka_unit_test(test_cache_string_formats),
        cmocka_unit_test(test_build_file_and_errors),
        cmocka_unit_test(test_dump_has_every_key),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
