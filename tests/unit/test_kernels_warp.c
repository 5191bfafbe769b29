/*
** test_kernels_warp.c -- end-to-end tests of the bundled CUDA kernels that
** exercise atomics, warp intrinsics (shuffle, vote, activemask, bit ops),
** real recursion through the call stack, and floating-point math and
** conversions.  CPU references are written here; transcendental results are
** compared with a tolerance, everything else exactly.
*/
#include <math.h>
#include "test_kernels.h"

/* ------------------------------------------------------------------ */
/* atomics                                                             */
/* ------------------------------------------------------------------ */

static void test_histogram(ws_ctx *ctx, ws_module *mod)
{
    enum { N = 5000 };
    uint32_t in[N] = {0};
    uint32_t hist[16], want[16] = {0};
    uint64_t seed = 21;
    int n = N;
    for (int i = 0; i < N; i++) {
        in[i] = tk_rand(&seed) % 97;     /* uneven bins: heavy contention on some */
        want[in[i] % 16]++;
    }
    ws_devptr din = tk_upload(ctx, in, sizeof in), dh = tk_alloc(ctx, sizeof hist, 0);
    void *args[] = {&din, &dh, &n};
    tk_launch(ctx, tk_kernel(ctx, mod, "histogram16"), tk_dim(3, 1, 1), tk_dim(128, 1, 1), args, 0);
    tk_download(ctx, hist, dh, sizeof hist);
    tk_expect_u32s("hist", hist, want, 16);
}

static int cmp_i32(const void *a, const void *b)
{
    int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
    return (x > y) - (x < y);
}

static void test_atomics(void **state)
{
    (void)state;
    enum { N = 1000 };
    int32_t in[N] = {0}, exch_old[N + 1] = {0};
    uint32_t ticket[N] = {0};
    int32_t res[8] = {INT32_MAX, INT32_MIN, 0, 0, INT32_MAX, INT32_MIN, -1, 0};
    int32_t mn = INT32_MAX, mx = INT32_MIN, sum = 0;
    float fsum = 0, fwant = 0;
    uint64_t seed = 22;
    int n = N;
    uint32_t inc_limit = 100;
    for (int i = 0; i < N; i++) {
        in[i] = tk_rand_range(&seed, -100000, 100000);
        mn = in[i] < mn ? in[i] : mn;
        mx = in[i] > mx ? in[i] : mx;
        sum += in[i];
        fwant += (float)(in[i] & 15) * 0.25f;
    }
    ws_ctx *ctx = tk_ctx(NULL, 0);
    ws_module *mod = tk_load(ctx, "atomics.ptx");
    test_histogram(ctx, mod);

    ws_devptr din = tk_upload(ctx, in, sizeof in), dres = tk_upload(ctx, res, sizeof res);
    ws_devptr dold = tk_alloc(ctx, N * 4, 0), dticket = tk_alloc(ctx, N * 4, 0);
    ws_devptr dfsum = tk_alloc(ctx, 4, 0);
    void *args[] = {&din, &dres, &dold, &dticket, &dfsum, &n, &inc_limit};
    tk_launch(ctx, tk_kernel(ctx, mod, "atomic_mix"), tk_dim(4, 1, 1), tk_dim(256, 1, 1), args, 0);
    tk_download(ctx, res, dres, sizeof res);
    tk_download(ctx, exch_old, dold, N * 4);
    tk_download(ctx, ticket, dticket, sizeof ticket);
    tk_download(ctx, &fsum, dfsum, 4);
    assert_int_equal(res[0], mn);
    assert_int_equal(res[1], mx);
    assert_int_equal(res[2], sum);                         /* CAS loop */
    assert_int_equal(res[3], N % (inc_limit + 1));         /* atomicInc wraps */
    assert_int_equal(res[4], mn);                          /* via shared */
    assert_int_equal(res[5], mx);
    assert_int_equal(res[7], N);
    assert_true(fsum == fwant);

    /* exchange: the old values plus the final one are {-1, 0, ..., N-1} */
    exch_old[N] = res[6];
    qsort(exch_old, N + 1, 4, cmp_i32);
    for (int i = 0; i <= N; i++)
        assert_int_equal(exch_old[i], i - 1);
    /* tickets: a permutation of 0..N-1 */
    qsort(ticket, N, 4, cmp_i32);
    for (int i = 0; i < N; i++)
        assert_int_equal(ticket[i], i);
    ws_module_unload(mod);
    ws_ctx_destroy(ctx);
}

/* ------------------------------------------------------------------ */
/* warp shuffles, votes, activemask, bit operations                    */
/* ------------------------------------------------------------------ */

enum { WARP_T = 128 };

/* Reference for warp_shuffles: `v` is one warp's 32 inputs. */
static void shuffle_ref(const int32_t *v, int32_t *o)
{
    int all = 1, any = 0;
    uint32_t ballot = 0;
    for (int l = 0; l < 32; l++) {
        all &= v[l] > -1000;
        any |= v[l] == 77;
        ballot |= (uint32_t)(v[l] & 1) << l;
    }
    for (int l = 0; l < 32; l++) {
        int32_t *r = o + 8 * l;
        r[0] = l >= 3 ? v[l - 3] : v[l];
        r[1] = l + 5 < 32 ? v[l + 5] : v[l];
        r[2] = v[l ^ 9];
        r[3] = v[(l * 7) & 31];
        r[4] = v[(l & ~7) + 2];
        r[5] = (l & 15) + 1 < 16 ? v[l + 1] : v[l];
        r[6] = all | (any << 1);
        r[7] = (int32_t)ballot;
    }
}

static void activemask_ref(const int32_t *v, uint32_t *o)
{
    uint32_t odd = 0, pos_odd = 0, neg_even = 0;
    for (int l = 0; l < 32; l++) {
        odd |= (uint32_t)(v[l] & 1) << l;
        if ((v[l] & 1) && v[l] > 0) pos_odd |= 1u << l;
        if (!(v[l] & 1) && v[l] < 0) neg_even |= 1u << l;
    }
    for (int l = 0; l < 32; l++) {
        o[2 * l] = (v[l] & 1) ? odd : ~odd;
        o[2 * l + 1] = (v[l] & 1) ? pos_odd : neg_even | 0x80000000u;
    }
}

static uint32_t brev32(uint32_t x)
{
    uint32_t r = 0;
    for (int i = 0; i < 32; i++)
        r |= ((x >> i) & 1u) << (31 - i);
    return r;
}

static uint32_t byte_perm(uint32_t x, uint32_t y, uint32_t s)
{
    uint64_t b = ((uint64_t)y << 32) | x;
    uint32_t r = 0;
    for (int k = 0; k < 4; k++)
        r |= (uint32_t)((b >> (8 * ((s >> (4 * k)) & 7))) & 0xff) << (8 * k);
    return r;
}

static void bit_ops_ref(uint32_t x, uint32_t *o)
{
    uint32_t y = x * 2654435761u + 12345u, sh = y & 63;
    uint64_t hilo = ((uint64_t)y << 32) | x, xy = ((uint64_t)x << 32) | y;
    o[0] = (uint32_t)__builtin_popcount(x);
    o[1] = x ? (uint32_t)__builtin_clz(x) : 32;
    o[2] = brev32(x);
    o[3] = x ? (uint32_t)__builtin_ctz(x) + 1 : 0;
    o[4] = byte_perm(x, y, 0x7351);
    o[5] = (uint32_t)((hilo << (sh & 31)) >> 32);          /* funnelshift_l wraps */
    o[6] = (uint32_t)(hilo >> (sh < 32 ? sh : 32));        /* funnelshift_rc clamps */
    o[7] = (uint32_t)__builtin_popcountll(xy) + (y ? (uint32_t)__builtin_clzll(y) : 64);
}

static void test_warp_ops(void **state)
{
    (void)state;
    int32_t in[WARP_T] = {0}, out[WARP_T * 8] = {0}, want[WARP_T * 8] = {0};
    uint32_t mask[WARP_T * 2] = {0}, mwant[WARP_T * 2] = {0}, bits_in[WARP_T] = {0};
    uint32_t bits[WARP_T * 8] = {0}, bwant[WARP_T * 8] = {0};
    uint64_t seed = 23;
    for (int i = 0; i < WARP_T; i++) {
        in[i] = tk_rand_range(&seed, -500, 500);
        if (in[i] == 77)
            in[i] = 78;
        bits_in[i] = i < 4 ? (uint32_t[]){0, 1, 0x80000000u, 0xffffffffu}[i] : tk_rand(&seed);
        if (i >= 4 && i % 5 == 0)
            bits_in[i] >>= tk_rand(&seed) % 32;             /* vary leading zeros */
    }
    in[32 + 9] = 77;      /* warp 1: any() true */
    in[96 + 5] = -2000;   /* warp 3: all() false */
    for (int w = 0; w < WARP_T / 32; w++) {
        shuffle_ref(in + 32 * w, want + 8 * 32 * w);
        activemask_ref(in + 32 * w, mwant + 2 * 32 * w);
    }
    for (int i = 0; i < WARP_T; i++)
        bit_ops_ref(bits_in[i], bwant + 8 * i);

    ws_ctx *ctx = tk_ctx(NULL, 0);
    ws_module *mod = tk_load(ctx, "warp_ops.ptx");
    ws_devptr din = tk_upload(ctx, in, sizeof in), dout = tk_alloc(ctx, sizeof out, 0);
    void *args[] = {&din, &dout};
    tk_launch(ctx, tk_kernel(ctx, mod, "warp_shuffles"), tk_dim(2, 1, 1), tk_dim(64, 1, 1), args, 0);
    tk_download(ctx, out, dout, sizeof out);
    tk_expect_ints("warp_shuffles", out, want, WARP_T * 8);

    ws_devptr dmask = tk_alloc(ctx, sizeof mask, 0);
    void *margs[] = {&din, &dmask};
    tk_launch(ctx, tk_kernel(ctx, mod, "warp_activemask"), tk_dim(1, 1, 1), tk_dim(128, 1, 1), margs, 0);
    tk_download(ctx, mask, dmask, sizeof mask);
    tk_expect_u32s("warp_activemask", mask, mwant, WARP_T * 2);

    ws_devptr dbin = tk_upload(ctx, bits_in, sizeof bits_in), dbits = tk_alloc(ctx, sizeof bits, 0);
    void *bargs[] = {&dbin, &dbits};
    tk_launch(ctx, tk_kernel(ctx, mod, "bit_ops"), tk_dim(4, 1, 1), tk_dim(32, 1, 1), bargs, 0);
    tk_download(ctx, bits, dbits, sizeof bits);
    tk_expect_u32s("bit_ops", bits, bwant, WARP_T * 8);
    ws_module_unload(mod);
    ws_ctx_destroy(ctx);
}

/* ------------------------------------------------------------------ */
/* recursion                                                           */
/* ------------------------------------------------------------------ */

static uint32_t fib_ref(uint32_t n)
{
    uint32_t a = 0, b = 1;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t t = a + b;
        a = b;
        b = t;
    }
    return a;
}

static int tree_ref(const int *left, const int *right, const int *val, int node, int depth)
{
    if (node < 0)
        return 0;
    return val[node] * depth + tree_ref(left, right, val, left[node], depth + 1) +
           tree_ref(left, right, val, right[node], depth + 1);
}

static void test_recursion(void **state)
{
    (void)state;
    enum { N = 96, NODES = 127, ROOTS = 40 };
    uint32_t in[N] = {0}, fib[N] = {0};
    uint64_t fact[N] = {0}, fact_want[N] = {0};
    int left[NODES] = {0}, right[NODES] = {0}, val[NODES] = {0};
    int roots[ROOTS] = {0}, out[ROOTS] = {0}, want[ROOTS] = {0};
    uint64_t seed = 24;
    int n = N, nroots = ROOTS;
    for (int i = 0; i < N; i++) {
        in[i] = tk_rand(&seed) % 1000;
        fact_want[i] = 1;
        for (uint64_t k = 2; k <= in[i] % 21; k++)
            fact_want[i] *= k;
    }
    /* heap-shaped tree of depth 7 with random subtrees cut off */
    for (int v = 0; v < NODES; v++) {
        val[v] = tk_rand_range(&seed, -50, 50);
        left[v] = 2 * v + 1 < NODES && tk_rand(&seed) % 5 ? 2 * v + 1 : -1;
        right[v] = 2 * v + 2 < NODES && tk_rand(&seed) % 5 ? 2 * v + 2 : -1;
    }
    for (int i = 0; i < ROOTS; i++) {
        roots[i] = i == ROOTS - 1 ? -1 : tk_rand_range(&seed, 0, i < 8 ? 6 : NODES - 1);
        want[i] = tree_ref(left, right, val, roots[i], 1);
    }
    ws_ctx *ctx = tk_ctx(NULL, 16384);
    ws_module *mod = tk_load(ctx, "recursion.ptx");
    ws_devptr din = tk_upload(ctx, in, sizeof in), dfib = tk_alloc(ctx, sizeof fib, 0);
    ws_devptr dfact = tk_alloc(ctx, sizeof fact, 0);
    void *args[] = {&din, &dfib, &dfact, &n};
    tk_launch(ctx, tk_kernel(ctx, mod, "fib_fact"), tk_dim(3, 1, 1), tk_dim(32, 1, 1), args, 0);
    tk_download(ctx, fib, dfib, sizeof fib);
    tk_download(ctx, fact, dfact, sizeof fact);
    for (int i = 0; i < N; i++) {
        if (fib[i] != fib_ref(in[i] % 20))
            fail_msg("fib(%u) = %u, expected %u", in[i] % 20, fib[i], fib_ref(in[i] % 20));
        if (fact[i] != fact_want[i])
            fail_msg("factorial(%u) = %llu, expected %llu", in[i] % 21,
                     (unsigned long long)fact[i], (unsigned long long)fact_want[i]);
    }
    ws_devptr dl = tk_upload(ctx, left, sizeof left), dr = tk_upload(ctx, right, sizeof right);
    ws_devptr dv = tk_upload(ctx, val, sizeof val), droots = tk_upload(ctx, roots, sizeof roots);
    ws_devptr dout = tk_alloc(ctx, sizeof out, 0);
    void *targs[] = {&dl, &dr, &dv, &droots, &dout, &nroots};
    tk_launch(ctx, tk_kernel(ctx, mod, "tree_walk"), tk_dim(2, 1, 1), tk_dim(32, 1, 1), targs, 0);
    tk_download(ctx, out, dout, sizeof out);
    tk_expect_ints("tree_walk", out, want, ROOTS);
    ws_module_unload(mod);
    ws_ctx_destroy(ctx);
}

/* ------------------------------------------------------------------ */
/* math and conversions                                                */
/* ------------------------------------------------------------------ */

/* IEEE binary32 -> binary16 bits, round to nearest even. */
static uint16_t f32_to_f16(float f)
{
    uint32_t x;
    memcpy(&x, &f, 4);
    uint32_t sign = (x >> 16) & 0x8000u, absx = x & 0x7fffffffu;
    int exp = (int)(absx >> 23) - 127;
    uint32_t m = (absx & 0x7fffffu) | 0x800000u, val, rem, half;
    int drop;
    if (absx >= 0x7f800000u)
        return (uint16_t)(sign | 0x7c00u | (absx > 0x7f800000u ? 0x200u : 0));
    if (exp > 15)
        return (uint16_t)(sign | 0x7c00u);
    if (exp >= -14) {                   /* normal: keep 10 of 23 mantissa bits */
        val = ((uint32_t)(exp + 15) << 10) | ((absx & 0x7fffffu) >> 13);
        rem = absx & 0x1fffu;
        half = 0x1000u;
    } else {                            /* subnormal half: units of 2^-24 */
        drop = -(exp + 1);
        if (drop > 24)
            return (uint16_t)sign;
        val = m >> drop;
        rem = m & ((1u << drop) - 1);
        half = 1u << (drop - 1);
    }
    if (rem > half || (rem == half && (val & 1)))
        val++;                          /* a carry may roll into the exponent: fine */
    return (uint16_t)(sign | val);
}

static float f16_to_f32(uint16_t h)
{
    int exp = (h >> 10) & 31;
    float mag = exp == 0 ? ldexpf((float)(h & 0x3ff), -24)
              : exp == 31 ? ((h & 0x3ff) ? NAN : INFINITY)
              : ldexpf((float)((h & 0x3ff) | 0x400), exp - 25);
    return (h & 0x8000) ? -mag : mag;
}

static void expect_close(const char *what, int i, double got, double want, double rel,
                         double abs_tol)
{
    if (!(fabs(got - want) <= rel * fabs(want) + abs_tol))
        fail_msg("%s[%d] = %.9g, expected %.9g (rel %g, abs %g)", what, i, got, want, rel, abs_tol);
}

static void check_math_element(int i, float a, float b, const float *f, const int32_t *o,
                               const double *dd)
{
    float fw[2] = {sqrtf(fabsf(a)), a / b};
    float hw = f16_to_f32(f32_to_f16(a));
    float cf = (float)(i * 3 - 50);
    int32_t ow[6];
    double d = (double)a;
    ow[0] = (int32_t)a;
    ow[1] = (int32_t)nearbyintf(a);
    ow[2] = (int32_t)floorf(a);
    ow[3] = (int32_t)(uint32_t)(fabsf(a) * 1000.0f);
    memcpy(&ow[4], &cf, 4);
    ow[5] = f32_to_f16(b);
    if (memcmp(&f[0], &fw[0], 4) || memcmp(&f[5], &fw[1], 4) || memcmp(&f[4], &hw, 4))
        fail_msg("math[%d] (a=%.9g b=%.9g): sqrt %.9g/%.9g div %.9g/%.9g half %.9g/%.9g", i,
                 (double)a, (double)b, (double)f[0], (double)fw[0], (double)f[5],
                 (double)fw[1], (double)f[4], (double)hw);
    expect_close("expf", i, f[1], exp((double)(b * 0.125f)), 2e-6, 0);
    expect_close("sinf", i, f[2], sin((double)a), 0, 2e-6);
    expect_close("__fdividef", i, f[3], (double)a / (double)b, 4e-6, 0);
    tk_expect_ints("math ints", o, ow, 6);
    expect_close("double fma", i, dd[0], d * d + (double)b / 3.0, 1e-15, 1e-300);
    if (dd[1] != sqrt(fabs(d) + 1.0) || dd[2] != (double)(long long)(d * 1e6) + 0.5)
        fail_msg("math[%d] doubles: %.17g %.17g", i, dd[1], dd[2]);
}

static void test_math(void **state)
{
    (void)state;
    enum { N = 200 };
    static const float special[] = {0.5f, -0.5f, 1.5f, 2.5f, -2.5f, 0.0f, -0.0f, 3.0f,
                                    123456.7f, -987654.3f, 6e-5f, 1e-7f, 65519.0f, 70000.0f};
    float x[N] = {0}, y[N] = {0}, fo[N * 6] = {0};
    int32_t io[N * 6] = {0};
    double dout[N * 3] = {0};
    enum { NS = sizeof special / sizeof special[0] };
    uint64_t seed = 25;
    int n = N;
    for (int i = 0; i < N; i++) {
        x[i] = i < NS ? special[i] : (float)((double)tk_rand(&seed) / 4294967296.0 * 200.0 - 100.0);
        y[i] = (float)tk_rand_range(&seed, 1, 50000) / 1000.0f;
        if (tk_rand(&seed) & 1)
            y[i] = -y[i];
    }
    ws_ctx *ctx = tk_ctx(NULL, 0);
    ws_module *mod = tk_load(ctx, "math.ptx");
    ws_devptr dx = tk_upload(ctx, x, sizeof x), dy = tk_upload(ctx, y, sizeof y);
    ws_devptr dfo = tk_alloc(ctx, sizeof fo, 0), dio = tk_alloc(ctx, sizeof io, 0);
    ws_devptr dd = tk_alloc(ctx, sizeof dout, 0);
    void *args[] = {&dx, &dy, &dfo, &dio, &dd, &n};
    tk_launch(ctx, tk_kernel(ctx, mod, "math_funcs"), tk_dim(4, 1, 1), tk_dim(64, 1, 1), args, 0);
    tk_download(ctx, fo, dfo, sizeof fo);
    tk_download(ctx, io, dio, sizeof io);
    tk_download(ctx, dout, dd, sizeof dout);
    for (int i = 0; i < N; i++)
        check_math_element(i, x[i], y[i], fo + 6 * i, io + 6 * i, dout + 3 * i);
    ws_module_unload(mod);
    ws_ctx_destroy(ctx);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_atomics),
        cmocka_unit_test(test_warp_ops),
        cmocka_unit_test(test_recursion),
        cmocka_unit_test(test_math),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
