/*
** jacobi2d.cu -- PolyBench/GPU Jacobi-2D: TSTEPS time steps of a 5-point
** stencil on an N x N grid, two kernels per step.
**
** jacobi2d_stencil writes B[i][j] = 0.2 * (A[i][j] + A[i][j-1] + A[i][j+1]
** + A[i+1][j] + A[i-1][j]) for the interior points, jacobi2d_copy copies the
** interior of B back into A; both one thread per point on a 2D grid of
** 32x8 blocks (PolyBench's).  Vertically adjacent blocks read each other's
** boundary rows (HALS Fig. 6.4, type 2).  Memory-bound, no barriers; the
** edge threads skip the work.  The GPU evaluates the sum in the same order
** as the reference (no fused operation applies), compared with a small
** tolerance.
*/
#include "bench.h"

#define DIM_X 32
#define DIM_Y 8

__global__ void jacobi2d_stencil(const float *a, float *b, int n)
{
    int i = blockIdx.y * blockDim.y + threadIdx.y;
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= 1 && i < n - 1 && j >= 1 && j < n - 1)
        b[i * n + j] = 0.2f * (a[i * n + j] + a[i * n + (j - 1)] + a[i * n + (1 + j)]
                               + a[(1 + i) * n + j] + a[(i - 1) * n + j]);
}

__global__ void jacobi2d_copy(float *a, const float *b, int n)
{
    int i = blockIdx.y * blockDim.y + threadIdx.y;
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= 1 && i < n - 1 && j >= 1 && j < n - 1) a[i * n + j] = b[i * n + j];
}

int main(int argc, char **argv)
{
    bench_args a = bench_parse(argc, argv, "jacobi2d");
    int n = BENCH_PICK(a, 96, 512, 1024);
    int steps = BENCH_PICK(a, 2, 6, 20);
    bench_rng rng = bench_rng_new(a.seed);
    size_t nn = (size_t)n * n;

    float *ha = (float *)malloc(sizeof(float) * nn), *hb = (float *)malloc(sizeof(float) * nn);
    for (size_t p = 0; p < nn; p++) { ha[p] = bench_uniform(&rng, 0.0f, 1.0f); hb[p] = ha[p]; }
    float *d_a, *d_b;
    BENCH_CUDA(cudaMalloc(&d_a, sizeof(float) * nn));
    BENCH_CUDA(cudaMalloc(&d_b, sizeof(float) * nn));
    BENCH_CUDA(cudaMemcpy(d_a, ha, sizeof(float) * nn, cudaMemcpyHostToDevice));
    BENCH_CUDA(cudaMemcpy(d_b, hb, sizeof(float) * nn, cudaMemcpyHostToDevice));
    dim3 block(DIM_X, DIM_Y), grid((n + DIM_X - 1) / DIM_X, (n + DIM_Y - 1) / DIM_Y);
    for (int t = 0; t < steps; t++) {
        jacobi2d_stencil<<<grid, block>>>(d_a, d_b, n);
        BENCH_LAUNCHED();
        jacobi2d_copy<<<grid, block>>>(d_a, d_b, n);
        BENCH_LAUNCHED();
    }

    float *got = (float *)malloc(sizeof(float) * nn);
    BENCH_CUDA(cudaMemcpy(got, d_a, sizeof(float) * nn, cudaMemcpyDeviceToHost));
    for (int t = 0; t < steps; t++) {
        for (int i = 1; i < n - 1; i++)
            for (int j = 1; j < n - 1; j++)
                hb[i * n + j] = 0.2f * (ha[i * n + j] + ha[i * n + (j - 1)] + ha[i * n + (1 + j)]
                                        + ha[(1 + i) * n + j] + ha[(i - 1) * n + j]);
        for (int i = 1; i < n - 1; i++)
            for (int j = 1; j < n - 1; j++) ha[i * n + j] = hb[i * n + j];
    }
    bench_corrupt(got, sizeof(float), nn / 2 + n / 2);
    size_t bad = bench_check_f32(got, ha, nn, 1e-5f, 1e-6f, "a");

    char detail[48];
    snprintf(detail, sizeof detail, "n=%d steps=%d", n, steps);
    cudaFree(d_a); cudaFree(d_b);
    free(ha); free(hb); free(got);
    return bench_finish(&a, bad, detail);
}
