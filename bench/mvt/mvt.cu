/*
** mvt.cu -- PolyBench/GPU MVT: x1 += A * y1 and x2 += A^T * y2.
**
** Two kernels, one thread per row of the N x N matrix A in 1D blocks of 256
** (PolyBench's).  mvt_kernel1 walks its row of A (consecutive threads read
** addresses N floats apart: 32 lines per warp load, the lines reused by the
** next 31 trips while they stay in the cache); mvt_kernel2 walks its
** column (a warp reads one line per trip).  Both read the vector y from
** global memory, the same address for a whole warp (data shared by every
** block: HALS type 3), and accumulate into x in global memory as PolyBench
** does.  Inputs are small integers stored as floats and the sums stay
** below 2^24, so the results are exact in any order.
*/
#include "bench.h"

#define DIM_X 256

__global__ void mvt_kernel1(const float *a, float *x1, const float *y1, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        for (int j = 0; j < n; j++) x1[i] += a[i * n + j] * y1[j];
}

__global__ void mvt_kernel2(const float *a, float *x2, const float *y2, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        for (int j = 0; j < n; j++) x2[i] += a[j * n + i] * y2[j];
}

int main(int argc, char **argv)
{
    bench_args a = bench_parse(argc, argv, "mvt");
    int n = BENCH_PICK(a, 512, 2048, 4096);
    bench_rng rng = bench_rng_new(a.seed);
    size_t nn = (size_t)n * n;

    float *ha = (float *)malloc(sizeof(float) * nn);
    float *x1 = (float *)malloc(sizeof(float) * n), *x2 = (float *)malloc(sizeof(float) * n);
    float *y1 = (float *)malloc(sizeof(float) * n), *y2 = (float *)malloc(sizeof(float) * n);
    for (size_t p = 0; p < nn; p++) ha[p] = (float)((int)bench_below(&rng, 7) - 3);
    for (int p = 0; p < n; p++) {
        x1[p] = (float)((int)bench_below(&rng, 201) - 100);
        x2[p] = (float)((int)bench_below(&rng, 201) - 100);
        y1[p] = (float)((int)bench_below(&rng, 7) - 3);
        y2[p] = (float)((int)bench_below(&rng, 7) - 3);
    }
    float *d_a, *d_x1, *d_x2, *d_y1, *d_y2;
    BENCH_CUDA(cudaMalloc(&d_a, sizeof(float) * nn));
    BENCH_CUDA(cudaMalloc(&d_x1, sizeof(float) * n));
    BENCH_CUDA(cudaMalloc(&d_x2, sizeof(float) * n));
    BENCH_CUDA(cudaMalloc(&d_y1, sizeof(float) * n));
    BENCH_CUDA(cudaMalloc(&d_y2, sizeof(float) * n));
    BENCH_CUDA(cudaMemcpy(d_a, ha, sizeof(float) * nn, cudaMemcpyHostToDevice));
    BENCH_CUDA(cudaMemcpy(d_x1, x1, sizeof(float) * n, cudaMemcpyHostToDevice));
    BENCH_CUDA(cudaMemcpy(d_x2, x2, sizeof(float) * n, cudaMemcpyHostToDevice));
    BENCH_CUDA(cudaMemcpy(d_y1, y1, sizeof(float) * n, cudaMemcpyHostToDevice));
    BENCH_CUDA(cudaMemcpy(d_y2, y2, sizeof(float) * n, cudaMemcpyHostToDevice));
    int blocks = (n + DIM_X - 1) / DIM_X;
    mvt_kernel1<<<blocks, DIM_X>>>(d_a, d_x1, d_y1, n);
    BENCH_LAUNCHED();
    mvt_kernel2<<<blocks, DIM_X>>>(d_a, d_x2, d_y2, n);
    BENCH_LAUNCHED();

    float *got = (float *)malloc(sizeof(float) * 2 * n), *want = (float *)malloc(sizeof(float) * 2 * n);
    BENCH_CUDA(cudaMemcpy(got, d_x1, sizeof(float) * n, cudaMemcpyDeviceToHost));
    BENCH_CUDA(cudaMemcpy(got + n, d_x2, sizeof(float) * n, cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; i++) {
        double s1 = x1[i], s2 = x2[i];
        for (int j = 0; j < n; j++) {
            s1 += (double)ha[(size_t)i * n + j] * y1[j];
            s2 += (double)ha[(size_t)j * n + i] * y2[j];
        }
        want[i] = (float)s1;
        want[n + i] = (float)s2;
    }
    bench_corrupt(got, sizeof(float), n + n / 2);
    size_t bad = bench_check_f32(got, want, 2 * (size_t)n, 0.0f, 0.0f, "x");

    char detail[32];
    snprintf(detail, sizeof detail, "n=%d", n);
    cudaFree(d_a); cudaFree(d_x1); cudaFree(d_x2); cudaFree(d_y1); cudaFree(d_y2);
    free(ha); free(x1); free(x2); free(y1); free(y2); free(got); free(want);
    return bench_finish(&a, bad, detail);
}
