/*
** montecarlo.cu -- Monte Carlo pricing of European calls, one block per option.
**
** Every block walks the same array of normally distributed samples (so
** threads with equal indices in different blocks load the same addresses),
** sums the payoff and its square in registers, then reduces them: every
** warp with shuffles, the warp totals through shared memory after a
** barrier. The reduction is nearly the same in all warps, so warps stay
** symmetric; a memory stream shared by all blocks.
*/
#include "bench.h"

#define MC_THREADS 256
#define MC_RISKFREE 0.06f
#define MC_VOLATILITY 0.10f

__device__ static inline float warp_sum(float v)
{
    for (int off = 16; off > 0; off >>= 1) v += __shfl_xor_sync(0xffffffffu, v, off);
    return v;
}

__global__ void montecarlo_option(const float *samples, const float *price, const float *strike,
                                  const float *years, float *value, float *conf, int paths)
{
    __shared__ float s_sum[MC_THREADS / 32], s_sq[MC_THREADS / 32];
    int opt = blockIdx.x, t = threadIdx.x;
    float s = price[opt], x = strike[opt], years_ = years[opt];
    float drift = (MC_RISKFREE - 0.5f * MC_VOLATILITY * MC_VOLATILITY) * years_;
    float vol = MC_VOLATILITY * sqrtf(years_);
    float sum = 0.f, sq = 0.f;
    for (int i = t; i < paths; i += blockDim.x) {
        float payoff = fmaxf(s * expf(drift + vol * samples[i]) - x, 0.f);
        sum += payoff;
        sq += payoff * payoff;
    }
    sum = warp_sum(sum);
    sq = warp_sum(sq);
    if (t % 32 == 0) {
        s_sum[t / 32] = sum;
        s_sq[t / 32] = sq;
    }
    __syncthreads();
    if (t < 32) {
        sum = warp_sum(t < MC_THREADS / 32 ? s_sum[t] : 0.f);
        sq = warp_sum(t < MC_THREADS / 32 ? s_sq[t] : 0.f);
    }
    if (t == 0) {
        float disc = expf(-MC_RISKFREE * years_);
        float mean = sum / paths;
        float var = fmaxf(sq / paths - mean * mean, 0.f);
        value[opt] = disc * mean;
        conf[opt] = disc * 1.96f * sqrtf(var / paths);
    }
}

static void montecarlo_cpu(const float *samples, const float *price, const float *strike,
                           const float *years, double *value, double *conf, int opts, int paths)
{
    const double r = MC_RISKFREE, v = MC_VOLATILITY;
    for (int o = 0; o < opts; o++) {
        double drift = (r - 0.5 * v * v) * years[o], vol = v * sqrt((double)years[o]);
        double sum = 0, sq = 0;
        for (int i = 0; i < paths; i++) {
            double p = price[o] * exp(drift + vol * samples[i]) - strike[o];
            if (p < 0) p = 0;
            sum += p;
            sq += p * p;
        }
        double disc = exp(-r * years[o]), mean = sum / paths, var = sq / paths - mean * mean;
        value[o] = disc * mean;
        conf[o] = disc * 1.96 * sqrt(var > 0 ? var / paths : 0);
    }
}

/* Standard normal samples by the Box-Muller transform (host side). */
static void montecarlo_samples(bench_rng *rng, float *out, int n)
{
    for (int i = 0; i < n; i += 2) {
        double u1 = (bench_next(rng) >> 11) * (1.0 / 9007199254740992.0) + 1e-12;
        double u2 = (bench_next(rng) >> 11) * (1.0 / 9007199254740992.0);
        double r = sqrt(-2 * log(u1));
        out[i] = (float)(r * cos(6.283185307179586 * u2));
        if (i + 1 < n) out[i + 1] = (float)(r * sin(6.283185307179586 * u2));
    }
}

static size_t montecarlo_check(const float *got, const double *want, int n, double tol, const char *what)
{
    size_t bad = 0;
    for (int i = 0; i < n; i++)
        if (!(fabs(got[i] - want[i]) <= tol * (1 + fabs(want[i])))) {
            if (bad < 5) fprintf(stderr, "%s[%d]: got %.9g want %.9g\n", what, i, got[i], want[i]);
            bad++;
        }
    return bad;
}

int main(int argc, char **argv)
{
    bench_args a = bench_parse(argc, argv, "montecarlo");
    int opts = BENCH_PICK(a, 32, 64, 256), paths = BENCH_PICK(a, 16384, 65536, 131072);
    bench_rng rng = bench_rng_new(a.seed);
    float *samples = (float *)malloc((size_t)paths * sizeof(float));
    float *h_opt = (float *)malloc(5 * (size_t)opts * sizeof(float));
    montecarlo_samples(&rng, samples, paths);
    for (int o = 0; o < opts; o++) {
        h_opt[o] = bench_uniform(&rng, 5.f, 50.f);
        h_opt[opts + o] = bench_uniform(&rng, 10.f, 25.f);
        h_opt[2 * opts + o] = bench_uniform(&rng, 1.f, 5.f);
    }
    float *d_samples, *d_opt;
    BENCH_CUDA(cudaMalloc((void **)&d_samples, (size_t)paths * sizeof(float)));
    BENCH_CUDA(cudaMalloc((void **)&d_opt, 5 * (size_t)opts * sizeof(float)));
    BENCH_CUDA(cudaMemcpy(d_samples, samples, (size_t)paths * sizeof(float), cudaMemcpyHostToDevice));
    BENCH_CUDA(cudaMemcpy(d_opt, h_opt, 3 * (size_t)opts * sizeof(float), cudaMemcpyHostToDevice));
    montecarlo_option<<<opts, MC_THREADS>>>(d_samples, d_opt, d_opt + opts, d_opt + 2 * opts,
                                            d_opt + 3 * opts, d_opt + 4 * opts, paths);
    BENCH_LAUNCHED();
    float *value = h_opt + 3 * opts, *conf = h_opt + 4 * opts;
    BENCH_CUDA(cudaMemcpy(value, d_opt + 3 * opts, 2 * (size_t)opts * sizeof(float), cudaMemcpyDeviceToHost));

    double *ref = (double *)malloc(2 * (size_t)opts * sizeof(double));
    montecarlo_cpu(samples, h_opt, h_opt + opts, h_opt + 2 * opts, ref, ref + opts, opts, paths);
    bench_corrupt(value, sizeof(float), opts / 2);
    size_t bad = montecarlo_check(value, ref, opts, 1e-4, "value");
    bad += montecarlo_check(conf, ref + opts, opts, 1e-3, "conf");
    char detail[96];
    snprintf(detail, sizeof detail, "options=%d paths=%d", opts, paths);
    int rc = bench_finish(&a, bad, detail);
    cudaFree(d_samples); cudaFree(d_opt);
    free(samples); free(h_opt); free(ref);
    return rc;
}
