/*
** test_kernels.c -- end-to-end tests of the bundled CUDA kernels (the
** committed PTX in tests/kernels) through the public host API only:
** generated inputs, launch, copy back, compare with a CPU reference written
** here.  Memory, control-flow and I/O families live here; atomics, warp
** intrinsics, recursion and math in test_kernels_warp.c.
*/
#include <math.h>
#include "test_kernels.h"

/* ------------------------------------------------------------------ */
/* vector add, saxpy, triad                                            */
/* ------------------------------------------------------------------ */

static void test_vector_add(void **state)
{
    (void)state;
    enum { N = 1000 };   /* not a multiple of the block: the tail is guarded */
    float a[N] = {0}, b[N] = {0}, c[N + 24] = {0};
    int32_t ia[N] = {0}, ib[N] = {0}, ic[N + 24] = {0}, iwant[N + 24] = {0};
    uint64_t seed = 11;
    int n = N;
    for (int i = 0; i < N; i++) {
        a[i] = (float)tk_rand_range(&seed, -100000, 100000) / 64.0f;
        b[i] = (float)tk_rand_range(&seed, -100000, 100000) / 64.0f;
        ia[i] = (int32_t)tk_rand(&seed);
        ib[i] = (int32_t)tk_rand(&seed);
    }
    ws_ctx *ctx = tk_ctx(NULL, 0);
    ws_module *mod = tk_load(ctx, "vector_add.ptx");
    ws_devptr da = tk_upload(ctx, a, sizeof a), db = tk_upload(ctx, b, sizeof b);
    ws_devptr dc = tk_alloc(ctx, sizeof c, 0x7f);
    void *args[] = {&da, &db, &dc, &n};
    tk_launch(ctx, tk_kernel(ctx, mod, "vector_add"), tk_dim(4, 1, 1), tk_dim(256, 1, 1), args, 0);
    tk_download(ctx, c, dc, sizeof c);
    for (int i = 0; i < N; i++)
        if (c[i] != a[i] + b[i])
            fail_msg("c[%d] = %.9g, expected %.9g", i, (double)c[i], (double)(a[i] + b[i]));
    for (int i = N; i < N + 24; i++)   /* threads 1000..1023 must not write */
        assert_int_equal(((uint8_t *)&c[i])[0], 0x7f);

    ws_stats st;
    ws_stats_last(ctx, &st);
    assert_int_equal(st.ctas, 4);
    assert_int_equal(st.warps, 32);
    assert_true(st.thread_insns > (uint64_t)N * 5);
    assert_true(st.warp_insns * 32 >= st.thread_insns);

    /* int version wraps like the hardware */
    ws_devptr dia = tk_upload(ctx, ia, sizeof ia), dib = tk_upload(ctx, ib, sizeof ib);
    ws_devptr dic = tk_alloc(ctx, sizeof ic, 0);
    void *iargs[] = {&dia, &dib, &dic, &n};
    tk_launch(ctx, tk_kernel(ctx, mod, "vector_add_i32"), tk_dim(8, 1, 1), tk_dim(128, 1, 1), iargs, 0);
    tk_download(ctx, ic, dic, sizeof ic);
    for (int i = 0; i < N; i++)
        iwant[i] = (int32_t)((uint32_t)ia[i] + (uint32_t)ib[i]);
    tk_expect_ints("ic", ic, iwant, N + 24);
    ws_module_unload(mod);
    ws_ctx_destroy(ctx);
}

static void test_saxpy_triad(void **state)
{
    (void)state;
    enum { N = 3000 };
    float x[N] = {0}, y[N] = {0}, yw[N] = {0};
    float fa[N] = {0}, fb[N] = {0}, fc[N] = {0}, fw[N] = {0};
    double da_[N] = {0}, db_[N] = {0}, dc_[N] = {0}, dw[N] = {0};
    uint64_t seed = 12;
    int n = N;
    float alpha = 1.75f, fs = -0.3f;
    double ds = 2.0 / 3.0;
    for (int i = 0; i < N; i++) {
        x[i] = (float)tk_rand_range(&seed, -1000000, 1000000) * 1e-3f;
        y[i] = (float)tk_rand_range(&seed, -1000000, 1000000) * 1e-3f;
        yw[i] = fmaf(alpha, x[i], y[i]);    /* nvcc contracts a*x+y into fma.rn */
        fb[i] = x[i] * 0.37f;
        fc[i] = y[i] + 1.0f;
        fw[i] = fmaf(fs, fc[i], fb[i]);
        db_[i] = (double)x[i] / 7.0;
        dc_[i] = (double)y[i] * 1.1;
        dw[i] = fma(ds, dc_[i], db_[i]);
    }
    ws_ctx *ctx = tk_ctx(NULL, 0);
    ws_module *mod = tk_load(ctx, "saxpy.ptx");
    ws_devptr dx = tk_upload(ctx, x, sizeof x), dy = tk_upload(ctx, y, sizeof y);
    void *args[] = {&n, &alpha, &dx, &dy};
    /* 4 x 256 threads: the grid-stride loop runs about three times */
    tk_launch(ctx, tk_kernel(ctx, mod, "saxpy"), tk_dim(4, 1, 1), tk_dim(256, 1, 1), args, 0);
    tk_download(ctx, y, dy, sizeof y);
    tk_expect_floats_exact("saxpy y", y, yw, N);

    ws_devptr pa = tk_alloc(ctx, sizeof fa, 0), pb = tk_upload(ctx, fb, sizeof fb);
    ws_devptr pc = tk_upload(ctx, fc, sizeof fc);
    void *fargs[] = {&pa, &pb, &pc, &fs, &n};
    tk_launch(ctx, tk_kernel(ctx, mod, "triadIf"), tk_dim(3, 1, 1), tk_dim(128, 1, 1), fargs, 0);
    tk_download(ctx, fa, pa, sizeof fa);
    tk_expect_floats_exact("triad<float>", fa, fw, N);

    ws_devptr qa = tk_alloc(ctx, sizeof da_, 0), qb = tk_upload(ctx, db_, sizeof db_);
    ws_devptr qc = tk_upload(ctx, dc_, sizeof dc_);
    void *dargs[] = {&qa, &qb, &qc, &ds, &n};
    tk_launch(ctx, tk_kernel(ctx, mod, "triadId"), tk_dim(5, 1, 1), tk_dim(64, 1, 1), dargs, 0);
    tk_download(ctx, da_, qa, sizeof da_);
    for (int i = 0; i < N; i++)
        if (memcmp(&da_[i], &dw[i], 8) != 0)
            fail_msg("triad<double>[%d] = %.17g, expected %.17g", i, da_[i], dw[i]);
    ws_module_unload(mod);
    ws_ctx_destroy(ctx);
}

/* ------------------------------------------------------------------ */
/* shared-memory reduction                                             */
/* ------------------------------------------------------------------ */

static void run_reduction(ws_ctx *ctx, ws_module *mod, const uint32_t *in, int n,
                          int grid, int block)
{
    uint32_t partial[64], want[64] = {0}, total = 0, want_total = 0;
    ws_devptr din = tk_upload(ctx, in, (size_t)n * 4);
    ws_devptr dpart = tk_alloc(ctx, (size_t)grid * 4, 0xff), dtot = tk_alloc(ctx, 4, 0);
    void *args[] = {&din, &dpart, &n};
    tk_launch(ctx, tk_kernel(ctx, mod, "reduce_sum"), tk_dim((uint32_t)grid, 1, 1),
              tk_dim((uint32_t)block, 1, 1), args, 0);
    void *targs[] = {&dpart, &dtot, &grid};
    tk_launch(ctx, tk_kernel(ctx, mod, "reduce_total"), tk_dim(1, 1, 1), tk_dim(64, 1, 1), targs, 0);
    tk_download(ctx, partial, dpart, (size_t)grid * 4);
    tk_download(ctx, &total, dtot, 4);
    for (int i = 0; i < n; i++) {
        want[(i / block) % grid] += in[i];
        want_total += in[i];
    }
    tk_expect_u32s("partial", partial, want, (size_t)grid);
    assert_int_equal(total, want_total);
}

static void test_reduction(void **state)
{
    (void)state;
    enum { N = 20000 };
    uint32_t in[N] = {0};
    uint64_t seed = 13;
    for (int i = 0; i < N; i++)
        in[i] = tk_rand(&seed);          /* full 32-bit values: sums wrap */
    ws_ctx *ctx = tk_ctx(NULL, 0);
    ws_module *mod = tk_load(ctx, "reduce.ptx");
    run_reduction(ctx, mod, in, N, 7, 256);
    run_reduction(ctx, mod, in, N, 13, 64);
    run_reduction(ctx, mod, in, 100, 2, 128);   /* most threads add nothing */
    ws_module_unload(mod);
    ws_ctx_destroy(ctx);
}

/* ------------------------------------------------------------------ */
/* divergence                                                          */
/* ------------------------------------------------------------------ */

static int32_t branchy_ref(int32_t v)
{
    if (v & 1) {
        if (v % 3 == 0) return v * 7;
        if (v % 5 == 0) return v - 11;
        return v ^ 0x55;
    }
    return v > 1000 ? v / 3 : -v;
}

static uint32_t collatz_ref(uint32_t x, uint32_t cap)
{
    uint32_t s = 0;
    if (x == 0)
        return 0xffffffffu;
    while (s < cap && x != 1) {
        if ((x & 3) == 0) {
            x >>= 2;
            s += 2;
            continue;
        }
        x = (x & 1) ? 3 * x + 1 : x >> 1;
        s++;
    }
    return s;
}

static void test_divergence(void **state)
{
    (void)state;
    enum { N = 777 };
    int32_t in[N] = {0}, out[N] = {0}, want[N] = {0};
    uint32_t cin[N] = {0}, steps[N] = {0}, cwant[N] = {0};
    uint64_t seed = 14;
    int n = N;
    uint32_t cap = 300;
    for (int i = 0; i < N; i++) {
        in[i] = tk_rand_range(&seed, -3000, 3000);
        want[i] = branchy_ref(in[i]);
        cin[i] = i < 8 ? (uint32_t)i : tk_rand(&seed) % (i < 400 ? 100000u : 0xffffffffu);
        cwant[i] = collatz_ref(cin[i], cap);
    }
    ws_ctx *ctx = tk_ctx(NULL, 0);
    ws_module *mod = tk_load(ctx, "divergence.ptx");
    ws_devptr din = tk_upload(ctx, in, sizeof in), dout = tk_alloc(ctx, sizeof out, 0);
    void *args[] = {&din, &dout, &n};
    tk_launch(ctx, tk_kernel(ctx, mod, "branchy"), tk_dim(7, 1, 1), tk_dim(128, 1, 1), args, 0);
    tk_download(ctx, out, dout, sizeof out);
    tk_expect_ints("branchy", out, want, N);

    ws_stats st;
    ws_stats_last(ctx, &st);
    /* divergence: fewer active lanes per warp instruction than 32 */
    assert_true(st.thread_insns < st.warp_insns * 32);

    ws_devptr dcin = tk_upload(ctx, cin, sizeof cin), dsteps = tk_alloc(ctx, sizeof steps, 0);
    void *cargs[] = {&dcin, &dsteps, &n, &cap};
    tk_launch(ctx, tk_kernel(ctx, mod, "collatz"), tk_dim(25, 1, 1), tk_dim(32, 1, 1), cargs, 0);
    tk_download(ctx, steps, dsteps, sizeof steps);
    tk_expect_u32s("collatz", steps, cwant, N);
    ws_module_unload(mod);
    ws_ctx_destroy(ctx);
}

/* ------------------------------------------------------------------ */
/* BFS on a CSR graph                                                  */
/* ------------------------------------------------------------------ */

enum { BFS_N = 600 };

typedef struct bfs_graph {
    int row[BFS_N + 1];
    int col[BFS_N * 12];
} bfs_graph;

static void bfs_make(bfs_graph *g, uint64_t seed)
{
    g->row[0] = 0;
    for (int v = 0; v < BFS_N; v++) {
        int deg = v % 17 == 0 ? 11 : tk_rand_range(&seed, 0, 3);
        g->row[v + 1] = g->row[v] + deg;
        for (int e = g->row[v]; e < g->row[v + 1]; e++)
            g->col[e] = tk_rand_range(&seed, 0, BFS_N - 1);
    }
}

static void bfs_ref(const bfs_graph *g, int *dist)
{
    int queue[BFS_N], head = 0, tail = 0;
    for (int v = 0; v < BFS_N; v++)
        dist[v] = -1;
    dist[0] = 0;
    queue[tail++] = 0;
    while (head < tail) {
        int v = queue[head++];
        for (int e = g->row[v]; e < g->row[v + 1]; e++)
            if (dist[g->col[e]] < 0) {
                dist[g->col[e]] = dist[v] + 1;
                queue[tail++] = g->col[e];
            }
    }
}

static void test_bfs(void **state)
{
    (void)state;
    bfs_graph g = {0};
    int dist[BFS_N] = {0}, want[BFS_N] = {0};
    bfs_make(&g, 15);
    bfs_ref(&g, want);
    for (int v = 0; v < BFS_N; v++)
        dist[v] = v ? -1 : 0;
    ws_ctx *ctx = tk_ctx(NULL, 0);
    ws_module *mod = tk_load(ctx, "bfs.ptx");
    ws_kernel *k = tk_kernel(ctx, mod, "bfs_step");
    ws_devptr drow = tk_upload(ctx, g.row, sizeof g.row), dcol = tk_upload(ctx, g.col, sizeof g.col);
    ws_devptr ddist = tk_upload(ctx, dist, sizeof dist), dsize = tk_alloc(ctx, 4, 0);
    ws_devptr front[2] = {tk_alloc(ctx, sizeof dist, 0), tk_alloc(ctx, sizeof dist, 0)};
    int fsize = 1, level = 0, reached = 1;
    while (fsize > 0) {
        void *args[] = {&drow, &dcol, &front[level & 1], &fsize, &ddist,
                        &front[(level + 1) & 1], &dsize, &level};
        TK_OK(ctx, ws_memset(ctx, dsize, 0, 4));
        tk_launch(ctx, k, tk_dim(((uint32_t)fsize + 63) / 64, 1, 1), tk_dim(64, 1, 1), args, 0);
        tk_download(ctx, &fsize, dsize, 4);
        assert_true(fsize >= 0 && fsize <= BFS_N);
        reached += fsize;
        level++;
        assert_true(level <= BFS_N);
    }
    tk_download(ctx, dist, ddist, sizeof dist);
    tk_expect_ints("dist", dist, want, BFS_N);
    int want_reached = 0;
    for (int v = 0; v < BFS_N; v++)
        want_reached += want[v] >= 0;
    assert_int_equal(reached, want_reached);
    assert_true(want_reached > BFS_N / 4);   /* the graph is not trivial */
    ws_module_unload(mod);
    ws_ctx_destroy(ctx);
}

/* ------------------------------------------------------------------ */
/* 2D transpose, dynamic shared memory, constants and globals          */
/* ------------------------------------------------------------------ */

static void test_transpose(void **state)
{
    (void)state;
    enum { ROWS = 70, COLS = 45 };
    float in[ROWS * COLS] = {0}, out[ROWS * COLS] = {0}, want[ROWS * COLS] = {0};
    int rows = ROWS, cols = COLS;
    for (int r = 0; r < ROWS; r++)
        for (int c = 0; c < COLS; c++) {
            in[r * COLS + c] = (float)(r * 1000 + c);
            want[c * ROWS + r] = in[r * COLS + c];
        }
    ws_ctx *ctx = tk_ctx(NULL, 0);
    ws_module *mod = tk_load(ctx, "transpose.ptx");
    ws_devptr din = tk_upload(ctx, in, sizeof in), dout = tk_alloc(ctx, sizeof out, 0);
    void *args[] = {&din, &dout, &rows, &cols};
    tk_launch(ctx, tk_kernel(ctx, mod, "transpose"), tk_dim(2, 3, 1), tk_dim(32, 8, 1), args, 0);
    tk_download(ctx, out, dout, sizeof out);
    tk_expect_floats_exact("transpose", out, want, ROWS * COLS);
    ws_stats st;
    ws_stats_last(ctx, &st);
    assert_int_equal(st.ctas, 6);
    assert_int_equal(st.warps, 48);
    ws_module_unload(mod);
    ws_ctx_destroy(ctx);
}

static void test_dynamic_shared(void **state)
{
    (void)state;
    enum { N = 1000, B = 128, G = (N + B - 1) / B };
    int32_t data[N] = {0}, want[N] = {0}, mixed_in[G * B] = {0};
    float mixed_out[G * B] = {0}, mixed_want[G * B] = {0};
    uint64_t seed = 16;
    int n = N;
    for (int i = 0; i < N; i++)
        data[i] = want[i] = (int32_t)tk_rand(&seed);
    for (int base = 0; base < N; base += B)
        for (int t = 0; t < B; t++) {
            int r = B - 1 - t;
            if (base + r < N && base + t < N)
                want[base + t] = data[base + r];
        }
    for (int i = 0; i < G * B; i++)
        mixed_in[i] = tk_rand_range(&seed, -5000, 5000);
    for (int i = 0; i < G * B; i++) {
        int o = (i / B) * B + (i % B + 1) % B;
        mixed_want[i] = (float)mixed_in[o] + (float)mixed_in[o] * 0.5f;
    }
    ws_ctx *ctx = tk_ctx(NULL, 0);
    ws_module *mod = tk_load(ctx, "dyn_shared.ptx");
    ws_devptr dd = tk_upload(ctx, data, sizeof data);
    void *args[] = {&dd, &n};
    tk_launch(ctx, tk_kernel(ctx, mod, "reverse_block"), tk_dim(G, 1, 1), tk_dim(B, 1, 1), args,
              B * sizeof(int));
    tk_download(ctx, data, dd, sizeof data);
    tk_expect_ints("reverse_block", data, want, N);

    ws_devptr din = tk_upload(ctx, mixed_in, sizeof mixed_in);
    ws_devptr dout = tk_alloc(ctx, sizeof mixed_out, 0);
    void *margs[] = {&din, &dout};
    tk_launch(ctx, tk_kernel(ctx, mod, "dyn_mixed"), tk_dim(G, 1, 1), tk_dim(B, 1, 1), margs,
              2 * B * 4);
    tk_download(ctx, mixed_out, dout, sizeof mixed_out);
    tk_expect_floats_exact("dyn_mixed", mixed_out, mixed_want, G * B);
    ws_module_unload(mod);
    ws_ctx_destroy(ctx);
}

static void test_const_and_globals(void **state)
{
    (void)state;
    enum { N = 300 };
    static const int32_t table[8] = {1, 1, 2, 3, 5, 8, 13, 21};
    int32_t coef[4] = {7, -3, 2, 1}, in[N], out[N], want[N], bias = 0;
    uint64_t seed = 17, counter = 0;
    int n = N;
    for (int i = 0; i < N; i++) {
        int x = in[i] = tk_rand_range(&seed, -50, 50);
        want[i] = ((coef[3] * x + coef[2]) * x + coef[1]) * x + coef[0] + 1000 + table[x & 7];
    }
    ws_ctx *ctx = tk_ctx(NULL, 0);
    ws_module *mod = tk_load(ctx, "const_global.ptx");
    ws_devptr dcoef, dbias, dcounter, dtable;
    size_t bytes = 0;
    TK_OK(ctx, ws_module_get_global(mod, "poly_coef", &dcoef, &bytes));
    assert_int_equal(bytes, 16);
    TK_OK(ctx, ws_memcpy_htod(ctx, dcoef, coef, sizeof coef));
    TK_OK(ctx, ws_module_get_global(mod, "poly_bias", &dbias, &bytes));
    tk_download(ctx, &bias, dbias, 4);
    assert_int_equal(bias, 1000);                 /* initialiser in the PTX */
    TK_OK(ctx, ws_module_get_global(mod, "device_table", &dtable, &bytes));
    assert_int_equal(bytes, 32);
    TK_OK(ctx, ws_module_get_global(mod, "launch_counter", &dcounter, &bytes));
    assert_int_equal(bytes, 8);
    tk_download(ctx, &counter, dcounter, 8);
    assert_int_equal(counter, 0);
    assert_int_equal(ws_module_get_global(mod, "no_such_symbol", &dcounter, &bytes),
                     WS_ERR_NOT_FOUND);

    ws_devptr din = tk_upload(ctx, in, sizeof in), dout = tk_alloc(ctx, sizeof out, 0);
    void *args[] = {&din, &dout, &n};
    ws_kernel *k = tk_kernel(ctx, mod, "poly_eval");
    tk_launch(ctx, k, tk_dim(3, 1, 1), tk_dim(128, 1, 1), args, 0);
    tk_launch(ctx, k, tk_dim(5, 1, 1), tk_dim(64, 1, 1), args, 0);
    tk_download(ctx, out, dout, sizeof out);
    tk_expect_ints("poly_eval", out, want, N);
    TK_OK(ctx, ws_module_get_global(mod, "launch_counter", &dcounter, &bytes));
    tk_download(ctx, &counter, dcounter, 8);
    assert_int_equal(counter, 2 * N);             /* survives across launches */
    ws_module_unload(mod);
    ws_ctx_destroy(ctx);
}

/* ------------------------------------------------------------------ */
/* local arrays                                                        */
/* ------------------------------------------------------------------ */

static int cmp_int(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

static void test_local_arrays(void **state)
{
    (void)state;
    enum { T = 150 };
    int32_t in[T * 16] = {0}, out[T * 16] = {0}, want[T * 16] = {0};
    int32_t counts[T * 8] = {0}, cwant[T * 8] = {0};
    uint64_t seed = 18;
    int n = T;
    for (int i = 0; i < T * 16; i++)
        in[i] = tk_rand_range(&seed, -100, 100);
    memcpy(want, in, sizeof in);
    for (int t = 0; t < T; t++) {
        qsort(want + 16 * t, 16, sizeof(int), cmp_int);
        for (int k = 0; k < 16; k++)
            cwant[t * 8 + (in[t * 16 + k] & 7)]++;
    }
    ws_ctx *ctx = tk_ctx(NULL, 0);
    ws_module *mod = tk_load(ctx, "local_array.ptx");
    ws_devptr din = tk_upload(ctx, in, sizeof in), dout = tk_alloc(ctx, sizeof out, 0);
    ws_devptr dcounts = tk_alloc(ctx, sizeof counts, 0);
    void *args[] = {&din, &dout, &n};
    tk_launch(ctx, tk_kernel(ctx, mod, "local_sort16"), tk_dim(3, 1, 1), tk_dim(64, 1, 1), args, 0);
    tk_download(ctx, out, dout, sizeof out);
    tk_expect_ints("local_sort16", out, want, T * 16);
    void *hargs[] = {&din, &dcounts, &n};
    tk_launch(ctx, tk_kernel(ctx, mod, "local_hist8"), tk_dim(5, 1, 1), tk_dim(32, 1, 1), hargs, 0);
    tk_download(ctx, counts, dcounts, sizeof counts);
    tk_expect_ints("local_hist8", counts, cwant, T * 8);
    ws_module_unload(mod);
    ws_ctx_destroy(ctx);
}

/* ------------------------------------------------------------------ */
/* printf                                                              */
/* ------------------------------------------------------------------ */

static void test_printf(void **state)
{
    (void)state;
    char *text = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&text, &len);
    assert_non_null(out);
    ws_ctx *ctx = tk_ctx(out, 0);
    ws_module *mod = tk_load(ctx, "printf.ptx");
    int base = 10;
    float f = 1.5f;
    double d = 2.25;
    void *args[] = {&base, &f, &d};
    tk_launch(ctx, tk_kernel(ctx, mod, "hello_printf"), tk_dim(1, 1, 1), tk_dim(4, 1, 1), args, 0);
    TK_OK(ctx, ws_synchronize(ctx));
    ws_module_unload(mod);
    ws_ctx_destroy(ctx);
    fclose(out);
    static const char want[] =
        "thread 0 of 4: base+t=10 hex=a0 u=10\n"
        "thread 1 of 4: base+t=11 hex=a1 u=11\n"
        "thread 2 of 4: base+t=12 hex=a2 u=12\n"
        "thread 3 of 4: base+t=13 hex=a3 u=13\n"
        "f=1.500 d=2.250000 c=W s=warpsim 100%\n"
        "ll=-12345678901230 ull=18364758544493064720\n";
    assert_string_equal(text, want);
    free(text);
}

/* ------------------------------------------------------------------ */
/* out-of-bounds fault                                                 */
/* ------------------------------------------------------------------ */

/* PTX line of the first global load in oob.ptx: where the fault happens. */
static int oob_load_line(void)
{
    char *src = th_read_source_file("tests/kernels/oob.ptx", NULL);
    assert_non_null(src);
    int line = 1;
    const char *hit = strstr(src, "ld.global");
    assert_non_null(hit);
    for (const char *p = src; p < hit; p++)
        line += *p == '\n';
    free(src);
    return line;
}

static void test_oob_fault(void **state)
{
    (void)state;
    int32_t in[16], keep[64], before[64], after[64];
    int stride = 1000000, n = 64;   /* 4 MB apart: outside every mapped 2 MiB page */
    for (int i = 0; i < 16; i++)
        in[i] = i * 3;
    for (int i = 0; i < 64; i++)
        keep[i] = 0x5a5a0000 + i;
    ws_ctx *ctx = tk_ctx(NULL, 0);
    ws_module *va = tk_load(ctx, "vector_add.ptx");
    ws_module *mod = tk_load(ctx, "oob.ptx");
    ws_devptr dkeep = tk_upload(ctx, keep, sizeof keep), dsum = tk_alloc(ctx, sizeof before, 0);
    void *vargs[] = {&dkeep, &dkeep, &dsum, &n};
    tk_launch(ctx, tk_kernel(ctx, va, "vector_add_i32"), tk_dim(1, 1, 1), tk_dim(64, 1, 1), vargs, 0);
    tk_download(ctx, before, dsum, sizeof before);

    ws_devptr din = tk_upload(ctx, in, sizeof in), dout = tk_alloc(ctx, 64 * 4, 0);
    void *args[] = {&din, &dout, &stride};
    ws_status st = ws_launch(ctx, tk_kernel(ctx, mod, "oob_read"), tk_dim(2, 1, 1),
                             tk_dim(32, 1, 1), args, 0);
    assert_int_equal(st, WS_ERR_FAULT);
    const char *msg = ws_last_error(ctx);
    char want[96];
    assert_non_null(strstr(msg, "oob_read"));
    assert_non_null(strstr(msg, "CTA (0,0,0)"));
    assert_non_null(strstr(msg, "thread ("));
    snprintf(want, sizeof want, "line %d", oob_load_line());
    if (!strstr(msg, want))
        fail_msg("fault message lacks '%s': %s", want, msg);
    /* thread 1 is the first to fault, at in + 4000000 */
    snprintf(want, sizeof want, "%llx", (unsigned long long)(din + 4 * stride));
    if (!strstr(msg, want))
        fail_msg("fault message lacks the address %s: %s", want, msg);

    /* everything written before the faulting launch is intact */
    tk_download(ctx, after, dsum, sizeof after);
    assert_memory_equal(after, before, sizeof before);
    tk_download(ctx, after, dkeep, sizeof keep);
    assert_memory_equal(after, keep, sizeof keep);
    for (int i = 0; i < 64; i++)
        assert_int_equal((uint32_t)before[i], 2u * (uint32_t)keep[i]);
    ws_module_unload(mod);
    ws_module_unload(va);
    ws_ctx_destroy(ctx);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_vector_add),
        cmocka_unit_test(test_saxpy_triad),
        cmocka_unit_test(test_reduction),
        cmocka_unit_test(test_divergence),
        cmocka_unit_test(test_bfs),
        cmocka_unit_test(test_transpose),
        cmocka_unit_test(test_dynamic_shared),
        cmocka_unit_test(test_const_and_globals),
        cmocka_unit_test(test_local_arrays),
        cmocka_unit_test(test_printf),
        cmocka_unit_test(test_oob_fault),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
