/*
** sgemm.cu -- C = alpha * A * B + beta * C with 16x16 shared-memory tiles.
**
** Each block computes one 16x16 tile of C: per step it stages a tile of A
** and a tile of B in shared memory (barrier), then every thread does 16
** multiply-adds from shared memory (barrier). Few global accesses per
** arithmetic instruction, equal work per warp, a barrier per loop trip.
*/
#include "bench.h"

#define TILE 16

__global__ void sgemm_tiled(const float *a, const float *b, float *c, int m, int n, int k,
                            float alpha, float beta)
{
    __shared__ float sa[TILE][TILE], sb[TILE][TILE];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TILE + ty, col = blockIdx.x * TILE + tx;
    float acc = 0.f;
    for (int t = 0; t < k; t += TILE) {
        sa[ty][tx] = a[row * k + t + tx];
        sb[ty][tx] = b[(t + ty) * n + col];
        __syncthreads();
#pragma unroll
        for (int p = 0; p < TILE; p++) acc += sa[ty][p] * sb[p][tx];
        __syncthreads();
    }
    c[row * n + col] = alpha * acc + beta * c[row * n + col];
}

static void sgemm_cpu(const float *a, const float *b, float *c, int m, int n, int k, float alpha, float beta)
{
    for (int i = 0; i < m; i++)
        for (int j = 0; j < n; j++) {
            double acc = 0;
            for (int p = 0; p < k; p++) acc += (double)a[i * k + p] * b[p * n + j];
            c[i * n + j] = (float)(alpha * acc + beta * c[i * n + j]);
        }
}

int main(int argc, char **argv)
{
    bench_args a = bench_parse(argc, argv, "sgemm");
    int m = BENCH_PICK(a, 128, 256, 512), n = BENCH_PICK(a, 128, 256, 512), k = BENCH_PICK(a, 128, 256, 512);
    float alpha = 1.5f, beta = -0.5f;
    bench_rng rng = bench_rng_new(a.seed);
    float *ha = (float *)malloc((size_t)m * k * sizeof(float)), *hb = (float *)malloc((size_t)k * n * sizeof(float));
    float *hc = (float *)malloc((size_t)m * n * sizeof(float)), *ref = (float *)malloc((size_t)m * n * sizeof(float));
    for (size_t i = 0; i < (size_t)m * k; i++) ha[i] = bench_uniform(&rng, -1.f, 1.f);
    for (size_t i = 0; i < (size_t)k * n; i++) hb[i] = bench_uniform(&rng, -1.f, 1.f);
    for (size_t i = 0; i < (size_t)m * n; i++) ref[i] = hc[i] = bench_uniform(&rng, -1.f, 1.f);
    float *da, *db, *dc;
    BENCH_CUDA(cudaMalloc((void **)&da, (size_t)m * k * sizeof(float)));
    BENCH_CUDA(cudaMalloc((void **)&db, (size_t)k * n * sizeof(float)));
    BENCH_CUDA(cudaMalloc((void **)&dc, (size_t)m * n * sizeof(float)));
    BENCH_CUDA(cudaMemcpy(da, ha, (size_t)m * k * sizeof(float), cudaMemcpyHostToDevice));
    BENCH_CUDA(cudaMemcpy(db, hb, (size_t)k * n * sizeof(float), cudaMemcpyHostToDevice));
    BENCH_CUDA(cudaMemcpy(dc, hc, (size_t)m * n * sizeof(float), cudaMemcpyHostToDevice));
    sgemm_tiled<<<dim3(n / TILE, m / TILE), dim3(TILE, TILE)>>>(da, db, dc, m, n, k, alpha, beta);
    BENCH_LAUNCHED();
    BENCH_CUDA(cudaMemcpy(hc, dc, (size_t)m * n * sizeof(float), cudaMemcpyDeviceToHost));

    sgemm_cpu(ha, hb, ref, m, n, k, alpha, beta);
    bench_corrupt(hc, sizeof(float), (size_t)m * n / 2 + 5);
    /* |terms| <= 1, so rounding error is at most ~k * 2^-24 * sqrt(k) */
    size_t bad = bench_check_f32(hc, ref, (size_t)m * n, 1e-5f, 1e-4f * (k / 128.f), "c");
    char detail[96];
    snprintf(detail, sizeof detail, "m=%d n=%d k=%d", m, n, k);
    int rc = bench_finish(&a, bad, detail);
    cudaFree(da); cudaFree(db); cudaFree(dc);
    free(ha); free(hb); free(hc); free(ref);
    return rc;
}
