/*
** triad.cu -- streaming vector add and STREAM triad.
**
** vec_add computes c = a + b and triad computes a2 = b + s*c, both with a
** grid-stride loop over float arrays: perfectly coalesced, no reuse, one
** or two flops per 12 bytes moved. The classic memory-bound, cache-
** insensitive kernel with identical work in every warp.
*/
#include "bench.h"

__global__ void vec_add(const float *a, const float *b, float *c, int n)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        c[i] = a[i] + b[i];
}

__global__ void triad(const float *b, const float *c, float *out, float s, int n)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        out[i] = b[i] + s * c[i];
}

int main(int argc, char **argv)
{
    bench_args a = bench_parse(argc, argv, "triad");
    int n = BENCH_PICK(a, 1 << 18, 1 << 21, 1 << 24);
    int blocks = BENCH_PICK(a, 64, 256, 1024);
    const int threads = 256;
    const float s = 3.0f;
    bench_rng rng = bench_rng_new(a.seed);

    float *ha = (float *)malloc(sizeof(float) * n), *hb = (float *)malloc(sizeof(float) * n);
    for (int i = 0; i < n; i++) {
        ha[i] = bench_uniform(&rng, -1.0f, 1.0f);
        hb[i] = bench_uniform(&rng, -1.0f, 1.0f);
    }
    float *d_a, *d_b, *d_c, *d_t;
    BENCH_CUDA(cudaMalloc(&d_a, sizeof(float) * n));
    BENCH_CUDA(cudaMalloc(&d_b, sizeof(float) * n));
    BENCH_CUDA(cudaMalloc(&d_c, sizeof(float) * n));
    BENCH_CUDA(cudaMalloc(&d_t, sizeof(float) * n));
    BENCH_CUDA(cudaMemcpy(d_a, ha, sizeof(float) * n, cudaMemcpyHostToDevice));
    BENCH_CUDA(cudaMemcpy(d_b, hb, sizeof(float) * n, cudaMemcpyHostToDevice));
    vec_add<<<blocks, threads>>>(d_a, d_b, d_c, n);
    BENCH_LAUNCHED();
    triad<<<blocks, threads>>>(d_b, d_c, d_t, s, n);
    BENCH_LAUNCHED();

    float *hc = (float *)malloc(sizeof(float) * n), *ht = (float *)malloc(sizeof(float) * n);
    float *wc = (float *)malloc(sizeof(float) * n), *wt = (float *)malloc(sizeof(float) * n);
    BENCH_CUDA(cudaMemcpy(hc, d_c, sizeof(float) * n, cudaMemcpyDeviceToHost));
    BENCH_CUDA(cudaMemcpy(ht, d_t, sizeof(float) * n, cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; i++) {
        wc[i] = ha[i] + hb[i];
        wt[i] = (float)((double)hb[i] + (double)s * wc[i]);
    }
    bench_corrupt(ht, sizeof(float), n / 2);
    /* vec_add is exact; the triad may be fused (one rounding) on the GPU. */
    size_t bad = bench_check_f32(hc, wc, n, 0.0f, 0.0f, "c");
    bad += bench_check_f32(ht, wt, n, 1e-6f, 1e-6f, "triad");

    char detail[48];
    snprintf(detail, sizeof detail, "n=%d blocks=%d", n, blocks);
    cudaFree(d_a); cudaFree(d_b); cudaFree(d_c); cudaFree(d_t);
    free(ha); free(hb); free(hc); free(ht); free(wc); free(wt);
    return bench_finish(&a, bad, detail);
}
