/*
** scalarprod.cu -- scalar products of many vector pairs (CUDA SDK
** scalarProd's shape, written from scratch).
**
** Each CTA takes whole vector pairs (pair = blockIdx.x, + gridDim.x ...):
** its threads stream the two vectors with unit stride into per-thread
** partial sums, then reduce them in shared memory with a barrier per level.
** Every element is read exactly once and no two CTAs touch the same data:
** a streaming, cache-insensitive, memory-bound kernel with no reuse (OWL's
** SCP).  Inputs are small integers stored as floats and the sums stay
** below 2^24, so every rounding is exact and the order of addition does not
** matter.
*/
#include "bench.h"

#define THREADS 256

__global__ void scalar_prod(const float *a, const float *b, float *out, int npairs, int len)
{
    __shared__ float part[THREADS];
    for (int p = blockIdx.x; p < npairs; p += gridDim.x) {
        const float *va = a + (size_t)p * len, *vb = b + (size_t)p * len;
        float s = 0.0f;
        for (int i = threadIdx.x; i < len; i += blockDim.x) s += va[i] * vb[i];
        part[threadIdx.x] = s;
        __syncthreads();
        for (int w = blockDim.x / 2; w > 0; w >>= 1) {
            if (threadIdx.x < w) part[threadIdx.x] += part[threadIdx.x + w];
            __syncthreads();
        }
        if (threadIdx.x == 0) out[p] = part[0];
        __syncthreads();   /* part[] is reused by the next pair */
    }
}

int main(int argc, char **argv)
{
    bench_args a = bench_parse(argc, argv, "scalarprod");
    int npairs = BENCH_PICK(a, 64, 256, 1024);
    int len = BENCH_PICK(a, 1024, 4096, 8192);
    int blocks = BENCH_PICK(a, 32, 128, 256);   /* divides npairs: equal work per CTA */
    bench_rng rng = bench_rng_new(a.seed);

    size_t n = (size_t)npairs * len;
    float *ha = (float *)malloc(sizeof(float) * n), *hb = (float *)malloc(sizeof(float) * n);
    for (size_t i = 0; i < n; i++) {
        ha[i] = (float)((int)bench_below(&rng, 15) - 7);
        hb[i] = (float)((int)bench_below(&rng, 15) - 7);
    }
    float *d_a, *d_b, *d_out;
    BENCH_CUDA(cudaMalloc(&d_a, sizeof(float) * n));
    BENCH_CUDA(cudaMalloc(&d_b, sizeof(float) * n));
    BENCH_CUDA(cudaMalloc(&d_out, sizeof(float) * npairs));
    BENCH_CUDA(cudaMemcpy(d_a, ha, sizeof(float) * n, cudaMemcpyHostToDevice));
    BENCH_CUDA(cudaMemcpy(d_b, hb, sizeof(float) * n, cudaMemcpyHostToDevice));
    scalar_prod<<<blocks, THREADS>>>(d_a, d_b, d_out, npairs, len);
    BENCH_LAUNCHED();

    float *got = (float *)malloc(sizeof(float) * npairs), *want = (float *)malloc(sizeof(float) * npairs);
    BENCH_CUDA(cudaMemcpy(got, d_out, sizeof(float) * npairs, cudaMemcpyDeviceToHost));
    for (int p = 0; p < npairs; p++) {
        double s = 0.0;
        for (int i = 0; i < len; i++) s += (double)ha[(size_t)p * len + i] * hb[(size_t)p * len + i];
        want[p] = (float)s;
    }
    bench_corrupt(got, sizeof(float), npairs / 2);
    size_t bad = bench_check_f32(got, want, npairs, 0.0f, 0.0f, "dot");

    char detail[64];
    snprintf(detail, sizeof detail, "pairs=%d len=%d blocks=%d", npairs, len, blocks);
    cudaFree(d_a); cudaFree(d_b); cudaFree(d_out);
    free(ha); free(hb); free(got); free(want);
    return bench_finish(&a, bad, detail);
}
