/*
** test_timing_threads.c -- the timing model with its SMs on 1, 2 and 4
** host threads (gpu/smpar.c, docs/parallel-timing.md): contended global
** atomics whose returned values must be exact (tickets form a
** permutation, a CAS loop sums exactly: an atomic redone when its log is
** applied corrects its register), device printf in full and in order,
** and timing reports byte-identical for every thread count.
*/
#include "test_kernels.h"
#include <unistd.h>

/* The whole of file `path`, NUL-terminated; NULL when unreadable. */
static char *read_all(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    char *buf = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&buf, &len);
    char chunk[4096];
    size_t k;
    while (m && (k = fread(chunk, 1, sizeof chunk, f)) > 0) fwrite(chunk, 1, k, m);
    fclose(f);
    if (m) fclose(m);
    return buf;
}

/* A timing context on gtx480 with `threads`, printf to `out`, the JSON
   report to `json` at destroy. */
static ws_ctx *threads_ctx(const char *threads, FILE *out, const char *json)
{
    static const char *const sets[3][2] = { { "threads=1", NULL }, { "threads=2", NULL },
                                            { "threads=4", NULL } };
    int k = threads[0] == '1' ? 0 : threads[0] == '2' ? 1 : 2;
    ws_options o;
    memset(&o, 0, sizeof o);
    o.printf_out = out;
    o.timing = 1;
    o.config = "gtx480";
    o.settings = sets[k];
    o.report_json = json;
    ws_ctx *ctx = ws_ctx_create(&o);
    assert_non_null(ctx);
    return ctx;
}

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

/* atomic_mix (tests/kernels/atomics.cu) on 16 CTAs (every SM), checked exactly. */
static void run_atomics(ws_ctx *ctx)
{
    enum { N = 512 };
    static int32_t in[N];
    static uint32_t ticket[N];
    int32_t res[8] = {INT32_MAX, INT32_MIN, 0, 0, INT32_MAX, INT32_MIN, -1, 0};
    int32_t sum = 0;
    uint64_t seed = 7;
    int n = N;
    uint32_t inc_limit = 1000000;
    for (int i = 0; i < N; i++) {
        in[i] = tk_rand_range(&seed, -1000, 1000);
        sum += in[i];
    }
    ws_module *mod = tk_load(ctx, "atomics.ptx");
    ws_devptr din = tk_upload(ctx, in, sizeof in), dres = tk_upload(ctx, res, sizeof res);
    ws_devptr dold = tk_alloc(ctx, N * 4, 0), dticket = tk_alloc(ctx, N * 4, 0);
    ws_devptr dfsum = tk_alloc(ctx, 4, 0);
    void *args[] = {&din, &dres, &dold, &dticket, &dfsum, &n, &inc_limit};
    tk_launch(ctx, tk_kernel(ctx, mod, "atomic_mix"), tk_dim(16, 1, 1), tk_dim(32, 1, 1), args, 0);
    tk_download(ctx, res, dres, sizeof res);
    tk_download(ctx, ticket, dticket, sizeof ticket);
    assert_int_equal(res[2], sum);           /* CAS loop: every retry saw the truth */
    assert_int_equal(res[3], N);             /* atomicInc below its limit */
    assert_int_equal(res[7], N);
    qsort(ticket, N, 4, cmp_u32);
    for (uint32_t i = 0; i < N; i++) assert_int_equal(ticket[i], i);
    ws_module_unload(mod);
}

/* printf from 8 CTAs of one warp each. */
static void run_printf(ws_ctx *ctx)
{
    ws_module *mod = tk_load(ctx, "printf.ptx");
    int base = 1;
    float f = 0.5f;
    double d = 0.25;
    void *args[] = {&base, &f, &d};
    tk_launch(ctx, tk_kernel(ctx, mod, "hello_printf"), tk_dim(8, 1, 1), tk_dim(32, 1, 1), args, 0);
    TK_OK(ctx, ws_synchronize(ctx));
    ws_module_unload(mod);
}

/* Run both kernels with `threads`; the printf text and the JSON report. */
static void run_all(const char *threads, char **text, char **report)
{
    char path[] = "/tmp/ws_threads_XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    size_t len = 0;
    FILE *out = open_memstream(text, &len);
    assert_non_null(out);
    ws_ctx *ctx = threads_ctx(threads, out, path);
    run_atomics(ctx);
    run_printf(ctx);
    ws_ctx_destroy(ctx);
    fclose(out);
    *report = read_all(path);
    assert_non_null(*report);
    unlink(path);
}

static void test_threads_identical(void **state)
{
    (void)state;
    char *text[3], *report[3];
    const char *t[3] = { "1", "2", "4" };
    for (int i = 0; i < 3; i++) run_all(t[i], &text[i], &report[i]);
    /* 8 CTAs x 32 threads, plus two lines from each CTA's thread 0 */
    int lines = 0;
    for (const char *p = text[0]; *p; p++) lines += *p == '\n';
    assert_int_equal(lines, 8 * 32 + 8 * 2);
    for (int i = 1; i < 3; i++) {
        assert_string_equal(text[i], text[0]);
        assert_string_equal(report[i], report[0]);
    }
    assert_non_null(strstr(report[0], "\"gpu_sim_cycle\""));
    assert_null(strstr(report[0], "\"threads\": {"));   /* how, not what: left out */
    for (int i = 0; i < 3; i++) {
        free(text[i]);
        free(report[i]);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_threads_identical),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
