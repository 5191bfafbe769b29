/*
** streamcluster.cu -- the gain computation of online facility location.
**
** For a candidate centre x, every point (one thread) computes its weighted
** distance to x over DIM coordinates stored dimension-major (coalesced),
** decides whether it would switch to x and how much cost it would save;
** each block then sums its savings with a shared-memory tree reduction.
** The host tries several candidates, one launch each. Streaming reads with
** little reuse: memory-bound; the reduction's idle upper warps make the
** low warps of each block longer (asymmetric).
*/
#include "bench.h"

#define DIM 16

__global__ void sc_gain(const float *coord, const float *weight, const float *cost,
                        int npoints, int center, float *lower, int *switch_flag,
                        float *block_gain)
{
    extern __shared__ float partial[];
    int p = blockIdx.x * blockDim.x + threadIdx.x;
    float gain = 0.0f;
    if (p < npoints) {
        float d = 0.0f;
        for (int k = 0; k < DIM; k++) {
            float t = coord[k * npoints + p] - coord[k * npoints + center];
            d += t * t;
        }
        float c = d * weight[p];
        int sw = c < cost[p];
        gain = sw ? cost[p] - c : 0.0f;
        lower[p] = gain;
        switch_flag[p] = sw;
    }
    partial[threadIdx.x] = gain;
    __syncthreads();
    for (int s = blockDim.x / 2; s > 0; s >>= 1) {
        if (threadIdx.x < s) partial[threadIdx.x] += partial[threadIdx.x + s];
        __syncthreads();
    }
    if (threadIdx.x == 0) block_gain[blockIdx.x] = partial[0];
}

int main(int argc, char **argv)
{
    bench_args a = bench_parse(argc, argv, "streamcluster");
    int n = BENCH_PICK(a, 8192, 65536, 524288);
    const int threads = 256, ncand = 4;
    int blocks = (n + threads - 1) / threads;
    bench_rng rng = bench_rng_new(a.seed);

    float *coord = (float *)malloc(sizeof(float) * DIM * n);
    float *weight = (float *)malloc(sizeof(float) * n), *cost = (float *)malloc(sizeof(float) * n);
    for (int i = 0; i < DIM * n; i++) coord[i] = bench_uniform(&rng, 0.0f, 1.0f);
    for (int p = 0; p < n; p++) {
        weight[p] = 1.0f + (float)bench_below(&rng, 4);
        cost[p] = bench_uniform(&rng, 0.5f, 4.0f);
    }
    int cand[ncand];
    for (int c = 0; c < ncand; c++) cand[c] = (int)bench_below(&rng, (uint32_t)n);

    float *d_coord, *d_w, *d_cost, *d_lower, *d_gain;
    int *d_sw;
    BENCH_CUDA(cudaMalloc(&d_coord, sizeof(float) * DIM * n));
    BENCH_CUDA(cudaMalloc(&d_w, sizeof(float) * n));
    BENCH_CUDA(cudaMalloc(&d_cost, sizeof(float) * n));
    BENCH_CUDA(cudaMalloc(&d_lower, sizeof(float) * n * ncand));
    BENCH_CUDA(cudaMalloc(&d_sw, sizeof(int) * n * ncand));
    BENCH_CUDA(cudaMalloc(&d_gain, sizeof(float) * blocks * ncand));
    BENCH_CUDA(cudaMemcpy(d_coord, coord, sizeof(float) * DIM * n, cudaMemcpyHostToDevice));
    BENCH_CUDA(cudaMemcpy(d_w, weight, sizeof(float) * n, cudaMemcpyHostToDevice));
    BENCH_CUDA(cudaMemcpy(d_cost, cost, sizeof(float) * n, cudaMemcpyHostToDevice));
    for (int c = 0; c < ncand; c++) {
        sc_gain<<<blocks, threads, threads * sizeof(float)>>>(d_coord, d_w, d_cost, n, cand[c],
                                                              d_lower + (size_t)c * n, d_sw + (size_t)c * n,
                                                              d_gain + (size_t)c * blocks);
        BENCH_LAUNCHED();
    }
    float *lower = (float *)malloc(sizeof(float) * n * ncand);
    int *sw = (int *)malloc(sizeof(int) * n * ncand);
    float *gain = (float *)malloc(sizeof(float) * blocks * ncand);
    BENCH_CUDA(cudaMemcpy(lower, d_lower, sizeof(float) * n * ncand, cudaMemcpyDeviceToHost));
    BENCH_CUDA(cudaMemcpy(sw, d_sw, sizeof(int) * n * ncand, cudaMemcpyDeviceToHost));
    BENCH_CUDA(cudaMemcpy(gain, d_gain, sizeof(float) * blocks * ncand, cudaMemcpyDeviceToHost));

    /* CPU reference in double. A point whose distance lies within rounding
       of its cost may legitimately switch either way; such near-ties are
       accepted in both states. */
    size_t bad = 0;
    float *wlower = (float *)malloc(sizeof(float) * n * ncand);
    double *wgain = (double *)calloc((size_t)blocks * ncand, sizeof(double));
    for (int c = 0; c < ncand; c++)
        for (int p = 0; p < n; p++) {
            double d = 0.0;
            for (int k = 0; k < DIM; k++) {
                double t = (double)coord[k * n + p] - coord[k * n + cand[c]];
                d += t * t;
            }
            double cc = d * weight[p], g = cc < cost[p] ? cost[p] - cc : 0.0;
            size_t i = (size_t)c * n + p;
            int near_tie = fabs(cc - cost[p]) <= 1e-5 * cost[p];
            if (near_tie) { wlower[i] = lower[i]; g = lower[i]; }
            else {
                wlower[i] = (float)g;
                if (sw[i] != (cc < cost[p])) { if (bad < 5) fprintf(stderr, "switch[%zu] wrong\n", i); bad++; }
            }
            wgain[(size_t)c * blocks + p / threads] += g;
        }
    bench_corrupt(lower, sizeof(float), (size_t)n * ncand / 3);
    bad += bench_check_f32(lower, wlower, (size_t)n * ncand, 1e-5f, 1e-5f, "lower");
    float *wg = (float *)malloc(sizeof(float) * blocks * ncand);
    for (int i = 0; i < blocks * ncand; i++) wg[i] = (float)wgain[i];
    bad += bench_check_f32(gain, wg, (size_t)blocks * ncand, 1e-4f, 1e-4f, "block_gain");

    char detail[64];
    snprintf(detail, sizeof detail, "points=%d dim=%d candidates=%d", n, DIM, ncand);
    cudaFree(d_coord); cudaFree(d_w); cudaFree(d_cost); cudaFree(d_lower); cudaFree(d_sw); cudaFree(d_gain);
    free(coord); free(weight); free(cost); free(lower); free(sw); free(gain); free(wlower); free(wgain); free(wg);
    return bench_finish(&a, bad, detail);
}
