/*
** blackscholes.cu -- European call and put prices by the Black-Scholes formula.
**
** A fixed grid walks all options with a grid-stride loop; each option reads
** three floats and writes two, with a few dozen arithmetic instructions in
** between (log, exp, sqrt, the polynomial normal CDF). Every warp does the
** same work: a streaming, memory-bound, symmetric kernel.
*/
#include "bench.h"

#define BS_RISKFREE 0.02f
#define BS_VOLATILITY 0.30f

__host__ __device__ static inline float bs_cnd(float d)
{
    const float a1 = 0.31938153f, a2 = -0.356563782f, a3 = 1.781477937f;
    const float a4 = -1.821255978f, a5 = 1.330274429f, rsqrt2pi = 0.39894228040143267794f;
    float k = 1.0f / (1.0f + 0.2316419f * fabsf(d));
    float c = rsqrt2pi * expf(-0.5f * d * d) * (k * (a1 + k * (a2 + k * (a3 + k * (a4 + k * a5)))));
    return d > 0 ? 1.0f - c : c;
}

__global__ void blackscholes(const float *price, const float *strike, const float *years,
                             float *call, float *put, int n)
{
    int stride = gridDim.x * blockDim.x;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
        float s = price[i], x = strike[i], t = years[i];
        float sqrt_t = sqrtf(t);
        float d1 = (logf(s / x) + (BS_RISKFREE + 0.5f * BS_VOLATILITY * BS_VOLATILITY) * t) /
                   (BS_VOLATILITY * sqrt_t);
        float d2 = d1 - BS_VOLATILITY * sqrt_t;
        float cnd1 = bs_cnd(d1), cnd2 = bs_cnd(d2);
        float disc = expf(-BS_RISKFREE * t);
        call[i] = s * cnd1 - x * disc * cnd2;
        put[i] = x * disc * (1.0f - cnd2) - s * (1.0f - cnd1);
    }
}

static void blackscholes_cpu(const float *price, const float *strike, const float *years,
                             float *call, float *put, int n)
{
    const double r = BS_RISKFREE, v = BS_VOLATILITY;
    for (int i = 0; i < n; i++) {
        double s = price[i], x = strike[i], t = years[i];
        double d1 = (log(s / x) + (r + 0.5 * v * v) * t) / (v * sqrt(t));
        double d2 = d1 - v * sqrt(t);
        double c1 = 0.5 * erfc(-d1 / sqrt(2.0)), c2 = 0.5 * erfc(-d2 / sqrt(2.0));
        double disc = exp(-r * t);
        call[i] = (float)(s * c1 - x * disc * c2);
        put[i] = (float)(x * disc * (1 - c2) - s * (1 - c1));
    }
}

int main(int argc, char **argv)
{
    bench_args a = bench_parse(argc, argv, "blackscholes");
    int n = BENCH_PICK(a, 131072, 1048576, 4194304);
    int blocks = BENCH_PICK(a, 64, 256, 512), threads = 128;   /* n divides evenly: equal trips */
    bench_rng rng = bench_rng_new(a.seed);
    size_t bytes = (size_t)n * sizeof(float);
    float *h = (float *)malloc(7 * bytes);
    float *price = h, *strike = h + n, *years = h + 2 * (size_t)n;
    float *call = h + 3 * (size_t)n, *put = h + 4 * (size_t)n;
    float *ref_call = h + 5 * (size_t)n, *ref_put = h + 6 * (size_t)n;
    for (int i = 0; i < n; i++) {
        price[i] = bench_uniform(&rng, 5.f, 30.f);
        strike[i] = bench_uniform(&rng, 1.f, 100.f);
        years[i] = bench_uniform(&rng, 0.25f, 10.f);
    }
    float *d;
    BENCH_CUDA(cudaMalloc((void **)&d, 5 * bytes));
    BENCH_CUDA(cudaMemcpy(d, h, 3 * bytes, cudaMemcpyHostToDevice));
    blackscholes<<<blocks, threads>>>(d, d + n, d + 2 * (size_t)n, d + 3 * (size_t)n, d + 4 * (size_t)n, n);
    BENCH_LAUNCHED();
    BENCH_CUDA(cudaMemcpy(call, d + 3 * (size_t)n, 2 * bytes, cudaMemcpyDeviceToHost));

    blackscholes_cpu(price, strike, years, ref_call, ref_put, n);
    bench_corrupt(call, sizeof(float), (size_t)n / 2 + 7);
    /* the polynomial CDF is accurate to ~1e-7; prices are at most ~30 */
    size_t bad = bench_check_f32(call, ref_call, n, 1e-4f, 2e-4f, "call");
    bad += bench_check_f32(put, ref_put, n, 1e-4f, 2e-4f, "put");
    char detail[96];
    snprintf(detail, sizeof detail, "options=%d grid=%dx%d", n, blocks, threads);
    int rc = bench_finish(&a, bad, detail);
    cudaFree(d);
    free(h);
    return rc;
}
