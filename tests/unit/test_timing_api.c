/*
** test_timing_api.c -- the timing switch of the host API: a kernel run
** through ws_* on the timing model gives cycles > 0, correct results,
** identical statistics and reports across two runs; bad configurations
** give a message naming the key; registers per thread are reported with
** their source.
*/
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "warpsim.h"
#include "helpers.h"

#define N 4096

typedef struct run_out {
    ws_stats last;
    char *report;        /* JSON report */
    size_t report_len;
    char *text;          /* text report */
    size_t text_len;
    int correct;
} run_out;

/* vector_add of N floats on the timing model with `settings`. */
static void run_vector_add(const char *const *settings, run_out *o)
{
    ws_options opts = { 0 };
    opts.timing = 1;
    opts.config = "gtx480";
    opts.settings = settings;
    char err[1024];
    ws_ctx *ctx = NULL;
    ws_status st = ws_ctx_create2(&opts, &ctx, err, sizeof err);
    if (st) fprintf(stderr, "%s\n", err);
    assert_int_equal(st, WS_OK);
    size_t len;
    char *ptx = th_read_source_file("tests/kernels/vector_add.ptx", &len);
    assert_non_null(ptx);
    ws_module *mod;
    assert_int_equal(ws_module_load_string(ctx, ptx, "vector_add.ptx", &mod), WS_OK);
    free(ptx);
    ws_kernel *k;
    assert_int_equal(ws_module_get_kernel(mod, "vector_add", &k), WS_OK);
    float *a = malloc(N * 4), *b = malloc(N * 4), *c = malloc(N * 4);
    for (int i = 0; i < N; i++) { a[i] = (float)i; b[i] = 2.0f * (float)i; }
    ws_devptr da, db, dc;
    assert_int_equal(ws_malloc(ctx, N * 4, &da), WS_OK);
    assert_int_equal(ws_malloc(ctx, N * 4, &db), WS_OK);
    assert_int_equal(ws_malloc(ctx, N * 4, &dc), WS_OK);
    ws_memcpy_htod(ctx, da, a, N * 4);
    ws_memcpy_htod(ctx, db, b, N * 4);
    uint32_t n = N;
    void *args[] = { &da, &db, &dc, &n };
    st = ws_launch(ctx, k, (ws_dim3){ N / 256, 1, 1 }, (ws_dim3){ 256, 1, 1 }, args, 0);
    if (st) fprintf(stderr, "%s\n", ws_last_error(ctx));
    assert_int_equal(st, WS_OK);
    ws_memcpy_dtoh(ctx, c, dc, N * 4);
    o->correct = 1;
    for (int i = 0; i < N; i++)
        if (c[i] != 3.0f * (float)i) o->correct = 0;
    ws_stats_last(ctx, &o->last);
    FILE *m = open_memstream(&o->report, &o->report_len);
    assert_int_equal(ws_report(ctx, m, 1), WS_OK);
    fclose(m);
    m = open_memstream(&o->text, &o->text_len);
    assert_int_equal(ws_report(ctx, m, 0), WS_OK);
    fclose(m);
    free(a); free(b); free(c);
    ws_ctx_destroy(ctx);
}

static void test_timing_cycles_and_determinism(void **state)
{
    (void)state;
    const char *sets[] = { "use_ptxas=false", NULL };
    run_out r1 = { 0 }, r2 = { 0 };
    run_vector_add(sets, &r1);
    run_vector_add(sets, &r2);
    assert_true(r1.correct);
    assert_true(r1.last.cycles > 0);
    assert_int_equal(r1.last.thread_insns, r2.last.thread_insns);
    assert_true(r1.last.thread_insns > 0);
    assert_true(r1.last.l1d_accesses > 0 || r1.last.l1d_misses > 0);
    assert_memory_equal(&r1.last, &r2.last, sizeof r1.last);
    assert_int_equal(r1.report_len, r2.report_len);
    assert_memory_equal(r1.report, r2.report, r1.report_len);
    /* GPGPU-Sim names and the register source are in the report */
    assert_non_null(strstr(r1.report, "\"gpu_sim_cycle\""));
    assert_non_null(strstr(r1.report, "\"gpu_sim_insn\""));
    assert_non_null(strstr(r1.report, "\"gpu_ipc\""));
    assert_non_null(strstr(r1.report, "\"regs_source\": \"ptx\""));
    assert_non_null(strstr(r1.report, "\"l1d.sets\""));
    assert_non_null(strstr(r1.text, "gpu_sim_cycle = "));
    free(r1.report); free(r2.report); free(r1.text); free(r2.text);
}

static void test_timing_regs_source(void **state)
{
    (void)state;
    const char *sets[] = { "use_ptxas=false", "regs_per_thread=21", NULL };
    run_out r = { 0 };
    run_vector_add(sets, &r);
    assert_non_null(strstr(r.report, "\"regs_per_thread\": 21"));
    assert_non_null(strstr(r.report, "\"regs_source\": \"config\""));
    free(r.report); free(r.text);
    /* with ptxas on PATH the count comes from it */
    const char *ptxas[] = { "use_ptxas=true", NULL };
    run_vector_add(ptxas, &r);
    int have_ptxas = system("command -v ptxas > /dev/null 2>&1") == 0;
    if (have_ptxas) assert_non_null(strstr(r.report, "\"regs_source\": \"ptxas\""));
    else assert_null(strstr(r.report, "\"regs_source\": \"ptxas\""));
    free(r.report); free(r.text);
}

static void test_bad_config_message(void **state)
{
    (void)state;
    ws_options opts = { 0 };
    opts.timing = 1;
    const char *sets[] = { "l1d.ways=0", NULL };
    opts.settings = sets;
    char err[1024] = "";
    ws_ctx *ctx = (ws_ctx *)1;
    assert_int_equal(ws_ctx_create2(&opts, &ctx, err, sizeof err), WS_ERR_INVALID);
    assert_null(ctx);
    assert_non_null(strstr(err, "l1d.ways"));
    assert_non_null(strstr(err, "[1, 4096]"));
    assert_null(ws_ctx_create(&opts));
    opts.settings = NULL;
    opts.config = "gtx999";
    assert_int_equal(ws_ctx_create2(&opts, &ctx, err, sizeof err), WS_ERR_INVALID);
    assert_non_null(strstr(err, "gtx999"));
    char warn[64];
    assert_int_equal(ws_config_check("k20x", NULL, warn, sizeof warn, err, sizeof err), WS_OK);
    /* functional contexts have no report */
    ws_ctx *f = ws_ctx_create(NULL);
    assert_non_null(f);
    assert_int_equal(ws_report(f, stderr, 0), WS_ERR_INVALID);
    ws_ctx_destroy(f);
}

/* ws_config_machine: the device a runtime reports follows the machine. */
static void test_config_machine(void **state)
{
    (void)state;
    uint32_t sms = 0;
    double mhz = 0;
    assert_int_equal(ws_config_machine("gtx480", NULL, &sms, &mhz), WS_OK);
    assert_int_equal(sms, 15);
    assert_true(mhz > 699.9 && mhz < 700.1);
    assert_int_equal(ws_config_machine("owl28", NULL, &sms, NULL), WS_OK);
    assert_int_equal(sms, 28);
    const char *const set[] = { "n_clusters=4", "cores_per_cluster=2", "core_mhz=1000", NULL };
    assert_int_equal(ws_config_machine("gtx480", set, &sms, &mhz), WS_OK);
    assert_int_equal(sms, 8);
    assert_true(mhz > 999.9 && mhz < 1000.1);
    const char *const bad[] = { "no_such_key=1", NULL };
    assert_int_equal(ws_config_machine("gtx480", bad, &sms, &mhz), WS_ERR_INVALID);
    assert_int_equal(ws_config_machine("no_such_preset", NULL, &sms, &mhz), WS_ERR_INVALID);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_timing_cycles_and_determinism),
        cmocka_unit_test(test_timing_regs_source),
        cmocka_unit_test(test_bad_config_message),
        cmocka_unit_test(test_config_machine),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
