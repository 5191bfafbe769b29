/*
** dct8x8.cu -- 8x8 forward DCT of an image, the AMD APP SDK DCT sample's
** shape (written from scratch).
**
** The image is cut into 8x8 tiles, one block of 8x8 threads per tile on a
** 2D grid.  Y = C X C^T with C the orthonormal DCT-II matrix (the cos
** table, in global memory).  Each thread first computes one element of the
** intermediate T = C X with a loop over the 8 inputs of its tile column,
** reading the cos table and the image from global memory every trip, and
** stores it in shared memory; after a barrier it computes its output
** coefficient Y[v][u] = sum_k T[v][k] C[u][k] with a second loop over 8
** (shared intermediate, global cos table).  Memory-intensive, two warps
** per block doing the same work.  Every sum runs in a fixed order;
** verified against a double-precision reference with a tolerance.
*/
#include "bench.h"

#define BW 8   /* block width: the DCT size */

__global__ void dct8x8(float *output, const float *input, const float *dct, int width)
{
    __shared__ float inter[BW * BW];
    int i = threadIdx.x, j = threadIdx.y;            /* column, row within the tile */
    int x0 = blockIdx.x * BW, y0 = blockIdx.y * BW;
    float acc = 0.0f;
    for (int k = 0; k < BW; k++)                     /* T[j][i] = sum_k C[j][k] X[k][i] */
        acc += dct[j * BW + k] * input[(y0 + k) * width + x0 + i];
    inter[j * BW + i] = acc;
    __syncthreads();
    acc = 0.0f;
    for (int k = 0; k < BW; k++)                     /* Y[j][i] = sum_k T[j][k] C[i][k] */
        acc += inter[j * BW + k] * dct[i * BW + k];
    output[(y0 + j) * width + x0 + i] = acc;
}

int main(int argc, char **argv)
{
    bench_args a = bench_parse(argc, argv, "dct8x8");
    int w = BENCH_PICK(a, 96, 1024, 2048);           /* multiple of BW */
    int h = BENCH_PICK(a, 64, 1024, 2048);
    bench_rng rng = bench_rng_new(a.seed);
    size_t n = (size_t)w * h;

    float *img = (float *)malloc(sizeof(float) * n);
    for (size_t p = 0; p < n; p++) img[p] = (float)bench_below(&rng, 256);
    double cd[BW * BW];
    float cf[BW * BW];
    for (int u = 0; u < BW; u++)
        for (int x = 0; x < BW; x++) {
            double s = u == 0 ? sqrt(1.0 / BW) : sqrt(2.0 / BW);
            cd[u * BW + x] = s * cos((2 * x + 1) * u * M_PI / (2.0 * BW));
            cf[u * BW + x] = (float)cd[u * BW + x];
        }
    float *d_in, *d_out, *d_dct;
    BENCH_CUDA(cudaMalloc(&d_in, sizeof(float) * n));
    BENCH_CUDA(cudaMalloc(&d_out, sizeof(float) * n));
    BENCH_CUDA(cudaMalloc(&d_dct, sizeof cf));
    BENCH_CUDA(cudaMemcpy(d_in, img, sizeof(float) * n, cudaMemcpyHostToDevice));
    BENCH_CUDA(cudaMemcpy(d_dct, cf, sizeof cf, cudaMemcpyHostToDevice));
    dim3 grid(w / BW, h / BW), block(BW, BW);
    dct8x8<<<grid, block>>>(d_out, d_in, d_dct, w);
    BENCH_LAUNCHED();

    float *got = (float *)malloc(sizeof(float) * n), *want = (float *)malloc(sizeof(float) * n);
    BENCH_CUDA(cudaMemcpy(got, d_out, sizeof(float) * n, cudaMemcpyDeviceToHost));
    for (int y0 = 0; y0 < h; y0 += BW)
        for (int x0 = 0; x0 < w; x0 += BW) {
            double t[BW * BW];
            for (int j = 0; j < BW; j++)
                for (int i = 0; i < BW; i++) {
                    double s = 0.0;
                    for (int k = 0; k < BW; k++) s += cd[j * BW + k] * img[(size_t)(y0 + k) * w + x0 + i];
                    t[j * BW + i] = s;
                }
            for (int j = 0; j < BW; j++)
                for (int i = 0; i < BW; i++) {
                    double s = 0.0;
                    for (int k = 0; k < BW; k++) s += t[j * BW + k] * cd[i * BW + k];
                    want[(size_t)(y0 + j) * w + x0 + i] = (float)s;
                }
        }
    bench_corrupt(got, sizeof(float), n / 2 + 5);
    /* coefficients up to 2040 from 16 float products: 1e-3 absolute covers the rounding */
    size_t bad = bench_check_f32(got, want, n, 1e-5f, 2e-3f, "coef");

    char detail[48];
    snprintf(detail, sizeof detail, "image=%dx%d", w, h);
    cudaFree(d_in); cudaFree(d_out); cudaFree(d_dct);
    free(img); free(got); free(want);
    return bench_finish(&a, bad, detail);
}
