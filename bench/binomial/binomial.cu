/*
** binomial.cu -- European calls on a Cox-Ross-Rubinstein binomial tree,
** one option per block.
**
** A block of 256 threads (8 warps) writes its option's leaf payoffs to its
** own global buffer, then walks the tree back to the root: each pass
** reads the live nodes tile by tile (256 values) into shared memory, takes
** 32 backward steps there with a barrier per step (ping-pong buffers; the
** live part of a tile shrinks by one node per step, so the threads past it
** idle) and writes the 224 finished values back. The step count follows
** the option's maturity, so blocks differ in length, and within a block
** the upper warps fall idle near the end of each pass: asymmetric, nearly
** all the work in shared memory (compute-intensive), and no two blocks
** read the same data.
*/
#include "bench.h"

#define BIN_THREADS 256
#define BIN_TILE BIN_THREADS    /* values per tile in shared memory */
#define BIN_DELTA 32            /* backward steps per pass */
#define BIN_KEEP (BIN_TILE - BIN_DELTA)   /* finished values per tile */
#define BIN_RISKFREE 0.06f
#define BIN_VOLATILITY 0.25f

__global__ void binomial_option(const float *price, const float *strike, const float *years,
                                const int *steps, float *tree, int stride, float *value)
{
    __shared__ float s_a[BIN_TILE], s_b[BIN_TILE];
    __shared__ float s_opt[3];
    __shared__ int s_steps;
    int opt = blockIdx.x, t = threadIdx.x;
    /* one thread reads the option: no request for the other warps to merge with */
    if (t == 0) {
        s_opt[0] = price[opt]; s_opt[1] = strike[opt]; s_opt[2] = years[opt];
        s_steps = steps[opt];
    }
    __syncthreads();
    int n = s_steps;
    float s = s_opt[0], x = s_opt[1], dt = s_opt[2] / n;
    float vdt = BIN_VOLATILITY * sqrtf(dt), u = expf(vdt), d = expf(-vdt);
    float df = expf(-BIN_RISKFREE * dt), pu = (expf(BIN_RISKFREE * dt) - d) / (u - d);
    float pu_df = pu * df, pd_df = (1.0f - pu) * df;
    float *v = tree + (size_t)opt * stride;
    for (int i = t; i <= n; i += blockDim.x) v[i] = fmaxf(s * expf(vdt * (2 * i - n)) - x, 0.0f);
    /* level 'l' holds nodes v[0..l]; a pass takes it to level l - k */
    for (int l = n; l > 0;) {
        int k = min(BIN_DELTA, l);
        for (int base = 0; base <= l - k; base += BIN_KEEP) {
            int last = min(BIN_TILE - 1, l - base);     /* last live node of the tile */
            __syncthreads();                            /* v and s_a are free */
            if (t <= last) s_a[t] = v[base + t];
            float *src = s_a, *dst = s_b;
            for (int j = 1; j <= k; j++) {
                __syncthreads();
                if (t <= last - j) dst[t] = pu_df * src[t + 1] + pd_df * src[t];
                float *w = src; src = dst; dst = w;
            }
            __syncthreads();
            if (t < min(BIN_KEEP, l - k - base + 1)) v[base + t] = src[t];
        }
        l -= k;
    }
    __syncthreads();
    if (t == 0) value[opt] = v[0];
}

static void binomial_cpu(float s, float x, float years, int n, double *v, float *out)
{
    double dt = (double)years / n, vdt = BIN_VOLATILITY * sqrt(dt), u = exp(vdt), d = exp(-vdt);
    double df = exp(-(double)BIN_RISKFREE * dt), pu = (exp((double)BIN_RISKFREE * dt) - d) / (u - d);
    for (int i = 0; i <= n; i++) {
        double p = s * exp(vdt * (2 * i - n)) - x;
        v[i] = p > 0 ? p : 0;
    }
    for (int l = n; l > 0; l--)
        for (int i = 0; i < l; i++) v[i] = df * (pu * v[i + 1] + (1 - pu) * v[i]);
    *out = (float)v[0];
}

int main(int argc, char **argv)
{
    bench_args a = bench_parse(argc, argv, "binomial");
    int opts = BENCH_PICK(a, 8, 32, 64);
    int min_steps = BENCH_PICK(a, 64, 224, 1024), max_steps = BENCH_PICK(a, 96, 288, 1536);
    int stride = (max_steps + 32) / 32 * 32;   /* per-option tree buffer, 128-byte aligned */
    bench_rng rng = bench_rng_new(a.seed);
    float *h = (float *)malloc(5 * (size_t)opts * sizeof(float));
    float *price = h, *strike = h + opts, *years = h + 2 * opts, *got = h + 3 * opts;
    float *want = h + 4 * opts;
    int *steps = (int *)malloc(opts * sizeof(int));
    for (int o = 0; o < opts; o++) {
        price[o] = bench_uniform(&rng, 10.f, 40.f);
        strike[o] = bench_uniform(&rng, 10.f, 40.f);
        years[o] = bench_uniform(&rng, 0.5f, 5.f);
        /* the step count grows with the maturity, in multiples of 8 */
        float f = (years[o] - 0.5f) / 4.5f;
        steps[o] = (min_steps + (int)(f * (max_steps - min_steps))) / 8 * 8;
    }
    float *d_opt, *d_tree, *d_value;
    int *d_steps;
    BENCH_CUDA(cudaMalloc((void **)&d_opt, 3 * (size_t)opts * sizeof(float)));
    BENCH_CUDA(cudaMalloc((void **)&d_steps, opts * sizeof(int)));
    BENCH_CUDA(cudaMalloc((void **)&d_tree, (size_t)opts * stride * sizeof(float)));
    BENCH_CUDA(cudaMalloc((void **)&d_value, opts * sizeof(float)));
    BENCH_CUDA(cudaMemcpy(d_opt, h, 3 * (size_t)opts * sizeof(float), cudaMemcpyHostToDevice));
    BENCH_CUDA(cudaMemcpy(d_steps, steps, opts * sizeof(int), cudaMemcpyHostToDevice));
    binomial_option<<<opts, BIN_THREADS>>>(d_opt, d_opt + opts, d_opt + 2 * opts, d_steps, d_tree,
                                           stride, d_value);
    BENCH_LAUNCHED();
    BENCH_CUDA(cudaMemcpy(got, d_value, opts * sizeof(float), cudaMemcpyDeviceToHost));

    double *v = (double *)malloc((max_steps + 1) * sizeof(double));
    for (int o = 0; o < opts; o++) binomial_cpu(price[o], strike[o], years[o], steps[o], v, &want[o]);
    bench_corrupt(got, sizeof(float), opts / 2);
    /* float parameters and a few hundred float steps: ~1e-5 relative */
    size_t bad = bench_check_f32(got, want, opts, 5e-4f, 5e-4f, "value");
    char detail[96];
    snprintf(detail, sizeof detail, "options=%d steps=%d..%d", opts, min_steps, max_steps);
    int rc = bench_finish(&a, bad, detail);
    cudaFree(d_opt); cudaFree(d_steps); cudaFree(d_tree); cudaFree(d_value);
    free(h); free(steps); free(v);
    return rc;
}
