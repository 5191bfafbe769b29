/*
** conv2d.cu -- PolyBench/GPU 2DCONV: a 3x3 convolution with constant
** coefficients over an NI x NJ image.
**
** One thread per output point on a 2D grid of 32x8 blocks (PolyBench's);
** each reads its 3x3 neighbourhood from global memory (nine loads, three
** rows) and writes one value; the border is left alone.  Adjacent blocks
** share their boundary rows (HALS Fig. 6.4, type 2).  Memory-bound, no
** barriers.  The GPU may fuse the multiply-adds: compared against a
** double-precision reference with a tolerance.
*/
#include "bench.h"

#define DIM_X 32
#define DIM_Y 8

__global__ void conv2d_kernel(const float *a, float *b, int ni, int nj)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    int i = blockIdx.y * blockDim.y + threadIdx.y;
    float c11 = +0.2f, c21 = +0.5f, c31 = -0.8f;
    float c12 = -0.3f, c22 = +0.6f, c32 = -0.9f;
    float c13 = +0.4f, c23 = +0.7f, c33 = +0.10f;
    if (i < ni - 1 && j < nj - 1 && i > 0 && j > 0)
        b[i * nj + j] = c11 * a[(i - 1) * nj + (j - 1)] + c21 * a[(i - 1) * nj + (j + 0)]
                      + c31 * a[(i - 1) * nj + (j + 1)] + c12 * a[(i + 0) * nj + (j - 1)]
                      + c22 * a[(i + 0) * nj + (j + 0)] + c32 * a[(i + 0) * nj + (j + 1)]
                      + c13 * a[(i + 1) * nj + (j - 1)] + c23 * a[(i + 1) * nj + (j + 0)]
                      + c33 * a[(i + 1) * nj + (j + 1)];
}

int main(int argc, char **argv)
{
    bench_args a = bench_parse(argc, argv, "conv2d");
    int ni = BENCH_PICK(a, 64, 1024, 4096), nj = BENCH_PICK(a, 256, 2048, 4096);
    bench_rng rng = bench_rng_new(a.seed);
    size_t n = (size_t)ni * nj;

    float *ha = (float *)malloc(sizeof(float) * n);
    for (size_t p = 0; p < n; p++) ha[p] = bench_uniform(&rng, 0.0f, 1.0f);
    float *d_a, *d_b;
    BENCH_CUDA(cudaMalloc(&d_a, sizeof(float) * n));
    BENCH_CUDA(cudaMalloc(&d_b, sizeof(float) * n));
    BENCH_CUDA(cudaMemcpy(d_a, ha, sizeof(float) * n, cudaMemcpyHostToDevice));
    BENCH_CUDA(cudaMemset(d_b, 0, sizeof(float) * n));
    dim3 block(DIM_X, DIM_Y), grid((nj + DIM_X - 1) / DIM_X, (ni + DIM_Y - 1) / DIM_Y);
    conv2d_kernel<<<grid, block>>>(d_a, d_b, ni, nj);
    BENCH_LAUNCHED();

    float *got = (float *)malloc(sizeof(float) * n), *want = (float *)calloc(n, sizeof(float));
    BENCH_CUDA(cudaMemcpy(got, d_b, sizeof(float) * n, cudaMemcpyDeviceToHost));
    static const double c[3][3] = { { 0.2, -0.3, 0.4 }, { 0.5, 0.6, 0.7 }, { -0.8, -0.9, 0.10 } };
    for (int i = 1; i < ni - 1; i++)
        for (int j = 1; j < nj - 1; j++) {
            double s = 0.0;   /* c[dj][di]: PolyBench's c<col><row> naming */
            for (int di = -1; di <= 1; di++)
                for (int dj = -1; dj <= 1; dj++)
                    s += (double)(float)c[dj + 1][di + 1] * ha[(size_t)(i + di) * nj + (j + dj)];
            want[(size_t)i * nj + j] = (float)s;
        }
    bench_corrupt(got, sizeof(float), n / 2 + nj / 2);
    /* |terms| sum to at most 4.5: 1e-5 absolute covers nine float roundings */
    size_t bad = bench_check_f32(got, want, n, 1e-5f, 1e-5f, "b");

    char detail[48];
    snprintf(detail, sizeof detail, "image=%dx%d", ni, nj);
    cudaFree(d_a); cudaFree(d_b);
    free(ha); free(got); free(want);
    return bench_finish(&a, bad, detail);
}
