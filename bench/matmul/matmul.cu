/*
** matmul.cu -- naive matrix multiply, the inner loop of HAWS Fig. 5.1
** (AMD APP SDK MatrixMultiplication / CUDA "MatrixMulKernel" without tiles).
**
** P = M x N for square width x width matrices, one thread per element of P
** in 16x16 blocks on a 2D grid.  The k loop reads M[row][k] (the same
** address for a whole half-warp row of threads) and N[k][col] (16
** consecutive floats) from global memory every trip -- no shared memory --
** and multiply-adds them into a register: two long-latency loads per trip
** followed by a dependent FMUL/FADD and independent index arithmetic, the
** loop HAWS hints.  Memory-intensive (a load per two arithmetic
** instructions), equal work per warp.  Inputs are small integers stored as
** floats and |P| stays below 2^24, so every rounding is exact and the
** result does not depend on the order of the additions.
*/
#include "bench.h"

#define TILE_WIDTH 16

__global__ void matmul_naive(const float *md, const float *nd, float *pd, int width)
{
    int row = blockIdx.y * TILE_WIDTH + threadIdx.y;
    int col = blockIdx.x * TILE_WIDTH + threadIdx.x;
    float pvalue = 0;
    for (int k = 0; k < width; ++k)
        pvalue += md[row * width + k] * nd[k * width + col];
    pd[row * width + col] = pvalue;
}

int main(int argc, char **argv)
{
    bench_args a = bench_parse(argc, argv, "matmul");
    int width = BENCH_PICK(a, 96, 320, 512);   /* multiple of TILE_WIDTH */
    bench_rng rng = bench_rng_new(a.seed);
    size_t n = (size_t)width * width;

    float *m = (float *)malloc(sizeof(float) * n), *nn = (float *)malloc(sizeof(float) * n);
    for (size_t i = 0; i < n; i++) m[i] = (float)((int)bench_below(&rng, 9) - 4);
    for (size_t i = 0; i < n; i++) nn[i] = (float)((int)bench_below(&rng, 9) - 4);
    float *d_m, *d_n, *d_p;
    BENCH_CUDA(cudaMalloc(&d_m, sizeof(float) * n));
    BENCH_CUDA(cudaMalloc(&d_n, sizeof(float) * n));
    BENCH_CUDA(cudaMalloc(&d_p, sizeof(float) * n));
    BENCH_CUDA(cudaMemcpy(d_m, m, sizeof(float) * n, cudaMemcpyHostToDevice));
    BENCH_CUDA(cudaMemcpy(d_n, nn, sizeof(float) * n, cudaMemcpyHostToDevice));
    dim3 grid(width / TILE_WIDTH, width / TILE_WIDTH), block(TILE_WIDTH, TILE_WIDTH);
    matmul_naive<<<grid, block>>>(d_m, d_n, d_p, width);
    BENCH_LAUNCHED();

    float *got = (float *)malloc(sizeof(float) * n), *want = (float *)malloc(sizeof(float) * n);
    BENCH_CUDA(cudaMemcpy(got, d_p, sizeof(float) * n, cudaMemcpyDeviceToHost));
    for (int r = 0; r < width; r++)
        for (int c = 0; c < width; c++) {
            double s = 0.0;
            for (int k = 0; k < width; k++) s += (double)m[(size_t)r * width + k] * nn[(size_t)k * width + c];
            want[(size_t)r * width + c] = (float)s;
        }
    bench_corrupt(got, sizeof(float), n / 2 + 3);
    size_t bad = bench_check_f32(got, want, n, 0.0f, 0.0f, "p");

    char detail[48];
    snprintf(detail, sizeof detail, "width=%d", width);
    cudaFree(d_m); cudaFree(d_n); cudaFree(d_p);
    free(m); free(nn); free(got); free(want);
    return bench_finish(&a, bad, detail);
}
