/*
** gemm.cu -- PolyBench/GPU GEMM: C = alpha * A * B + beta * C.
**
** One thread per element of C on a 2D grid of 32x8 blocks (PolyBench's
** DIM_THREAD_BLOCK_X/Y), A row-major NI x NK, B NK x NJ.  As in PolyBench
** the kernel scales C[i][j] by beta and then accumulates alpha*A[i][k]*B[k][j]
** into it with the k loop over global memory: A[i][k] is one address per
** warp (a broadcast), B[k][j] one 128-byte line per warp, and blocks with
** the same blockIdx.y read the same rows of A (HALS Fig. 6.3, type 1: high
** inter-block locality).  Inputs are small integers stored as floats and
** every value stays below 2^24, so the result is exact in any order.
*/
#include "bench.h"

#define DIM_X 32
#define DIM_Y 8
#define ALPHA 3.0f
#define BETA 2.0f

__global__ void gemm_kernel(const float *a, const float *b, float *c, int ni, int nj, int nk)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    int i = blockIdx.y * blockDim.y + threadIdx.y;
    if (i < ni && j < nj) {
        c[i * nj + j] *= BETA;
        for (int k = 0; k < nk; k++) c[i * nj + j] += ALPHA * a[i * nk + k] * b[k * nj + j];
    }
}

int main(int argc, char **argv)
{
    bench_args a = bench_parse(argc, argv, "gemm");
    int ni = BENCH_PICK(a, 96, 256, 512), nj = ni, nk = ni;
    bench_rng rng = bench_rng_new(a.seed);

    float *ha = (float *)malloc(sizeof(float) * ni * nk), *hb = (float *)malloc(sizeof(float) * nk * nj);
    float *hc = (float *)malloc(sizeof(float) * ni * nj);
    for (int p = 0; p < ni * nk; p++) ha[p] = (float)((int)bench_below(&rng, 9) - 4);
    for (int p = 0; p < nk * nj; p++) hb[p] = (float)((int)bench_below(&rng, 9) - 4);
    for (int p = 0; p < ni * nj; p++) hc[p] = (float)((int)bench_below(&rng, 201) - 100);
    float *d_a, *d_b, *d_c;
    BENCH_CUDA(cudaMalloc(&d_a, sizeof(float) * ni * nk));
    BENCH_CUDA(cudaMalloc(&d_b, sizeof(float) * nk * nj));
    BENCH_CUDA(cudaMalloc(&d_c, sizeof(float) * ni * nj));
    BENCH_CUDA(cudaMemcpy(d_a, ha, sizeof(float) * ni * nk, cudaMemcpyHostToDevice));
    BENCH_CUDA(cudaMemcpy(d_b, hb, sizeof(float) * nk * nj, cudaMemcpyHostToDevice));
    BENCH_CUDA(cudaMemcpy(d_c, hc, sizeof(float) * ni * nj, cudaMemcpyHostToDevice));
    dim3 block(DIM_X, DIM_Y), grid((nj + DIM_X - 1) / DIM_X, (ni + DIM_Y - 1) / DIM_Y);
    gemm_kernel<<<grid, block>>>(d_a, d_b, d_c, ni, nj, nk);
    BENCH_LAUNCHED();

    float *got = (float *)malloc(sizeof(float) * ni * nj), *want = (float *)malloc(sizeof(float) * ni * nj);
    BENCH_CUDA(cudaMemcpy(got, d_c, sizeof(float) * ni * nj, cudaMemcpyDeviceToHost));
    for (int i = 0; i < ni; i++)
        for (int j = 0; j < nj; j++) {
            double s = BETA * (double)hc[i * nj + j];
            for (int k = 0; k < nk; k++) s += ALPHA * (double)ha[i * nk + k] * hb[k * nj + j];
            want[i * nj + j] = (float)s;
        }
    bench_corrupt(got, sizeof(float), ni * nj / 2 + 9);
    size_t bad = bench_check_f32(got, want, (size_t)ni * nj, 0.0f, 0.0f, "c");

    char detail[48];
    snprintf(detail, sizeof detail, "ni=nj=nk=%d", ni);
    cudaFree(d_a); cudaFree(d_b); cudaFree(d_c);
    free(ha); free(hb); free(hc); free(got); free(want);
    return bench_finish(&a, bad, detail);
}
