/*
** transpose.cu -- matrix transpose, naive and shared-memory tiled.
**
** transpose_naive reads rows coalesced but writes columns (32 lines per
** warp store). transpose_tiled stages a 32x32 tile in shared memory
** (padded to 33 columns against bank conflicts), synchronises, and writes
** the transposed tile row by row, so both sides are coalesced. Each block
** of 32x8 threads moves a 32x32 tile in four steps. Memory-bound.
*/
#include "bench.h"

#define TILE 32
#define ROWS 8

__global__ void transpose_naive(const float *in, float *out, int rows, int cols)
{
    int x = blockIdx.x * TILE + threadIdx.x;
    for (int j = 0; j < TILE; j += ROWS) {
        int y = blockIdx.y * TILE + threadIdx.y + j;
        if (x < cols && y < rows) out[(size_t)x * rows + y] = in[(size_t)y * cols + x];
    }
}

__global__ void transpose_tiled(const float *in, float *out, int rows, int cols)
{
    __shared__ float tile[TILE][TILE + 1];
    int x = blockIdx.x * TILE + threadIdx.x;
    for (int j = 0; j < TILE; j += ROWS) {
        int y = blockIdx.y * TILE + threadIdx.y + j;
        if (x < cols && y < rows) tile[threadIdx.y + j][threadIdx.x] = in[(size_t)y * cols + x];
    }
    __syncthreads();
    int ox = blockIdx.y * TILE + threadIdx.x;          /* column of out = row of in */
    for (int j = 0; j < TILE; j += ROWS) {
        int oy = blockIdx.x * TILE + threadIdx.y + j;   /* row of out = column of in */
        if (ox < rows && oy < cols) out[(size_t)oy * rows + ox] = tile[threadIdx.x][threadIdx.y + j];
    }
}

int main(int argc, char **argv)
{
    bench_args a = bench_parse(argc, argv, "transpose");
    int rows = BENCH_PICK(a, 512, 1536, 4096);
    int cols = BENCH_PICK(a, 384, 1600, 4096);
    bench_rng rng = bench_rng_new(a.seed);
    size_t n = (size_t)rows * cols;

    float *in = (float *)malloc(sizeof(float) * n);
    for (size_t i = 0; i < n; i++) in[i] = bench_uniform(&rng, -100.0f, 100.0f);
    float *d_in, *d_naive, *d_tiled;
    BENCH_CUDA(cudaMalloc(&d_in, sizeof(float) * n));
    BENCH_CUDA(cudaMalloc(&d_naive, sizeof(float) * n));
    BENCH_CUDA(cudaMalloc(&d_tiled, sizeof(float) * n));
    BENCH_CUDA(cudaMemcpy(d_in, in, sizeof(float) * n, cudaMemcpyHostToDevice));
    dim3 grid((cols + TILE - 1) / TILE, (rows + TILE - 1) / TILE), block(TILE, ROWS);
    transpose_naive<<<grid, block>>>(d_in, d_naive, rows, cols);
    BENCH_LAUNCHED();
    transpose_tiled<<<grid, block>>>(d_in, d_tiled, rows, cols);
    BENCH_LAUNCHED();

    float *naive = (float *)malloc(sizeof(float) * n), *tiled = (float *)malloc(sizeof(float) * n);
    float *want = (float *)malloc(sizeof(float) * n);
    BENCH_CUDA(cudaMemcpy(naive, d_naive, sizeof(float) * n, cudaMemcpyDeviceToHost));
    BENCH_CUDA(cudaMemcpy(tiled, d_tiled, sizeof(float) * n, cudaMemcpyDeviceToHost));
    for (int y = 0; y < rows; y++)
        for (int x = 0; x < cols; x++) want[(size_t)x * rows + y] = in[(size_t)y * cols + x];
    bench_corrupt(tiled, sizeof(float), n / 2 + 7);
    /* A transpose moves bits: compare exactly (as integers). */
    size_t bad = bench_check_u32((const uint32_t *)naive, (const uint32_t *)want, n, "naive");
    bad += bench_check_u32((const uint32_t *)tiled, (const uint32_t *)want, n, "tiled");

    char detail[48];
    snprintf(detail, sizeof detail, "matrix=%dx%d", rows, cols);
    cudaFree(d_in); cudaFree(d_naive); cudaFree(d_tiled);
    free(in); free(naive); free(tiled); free(want);
    return bench_finish(&a, bad, detail);
}
