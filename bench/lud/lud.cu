/*
** lud.cu -- blocked LU decomposition without pivoting (Doolittle, in place).
**
** For each 16x16 diagonal block k: lud_diagonal factors it in shared
** memory (one block, a barrier per elimination step, a shrinking triangle
** of active threads); lud_perimeter solves the blocks right of it (U row,
** half a warp) and below it (L column, the other half) by substitution;
** lud_internal subtracts L * U from every trailing block with shared tiles.
** Launch sizes shrink as k grows, and the three kernels do very different
** amounts of work per warp.
*/
#include "bench.h"

#define LB 16

__global__ void lud_diagonal(float *a, int n, int k)
{
    __shared__ float t[LB][LB];
    int tx = threadIdx.x, ty = threadIdx.y, o = k * LB;
    t[ty][tx] = a[(o + ty) * n + o + tx];
    __syncthreads();
    for (int p = 0; p < LB - 1; p++) {
        if (tx == p && ty > p) t[ty][p] /= t[p][p];
        __syncthreads();
        if (tx > p && ty > p) t[ty][tx] -= t[ty][p] * t[p][tx];
        __syncthreads();
    }
    a[(o + ty) * n + o + tx] = t[ty][tx];
}

/* 32 threads per block: lanes 0..15 each own one column of the block to the
   right of the diagonal, lanes 16..31 one row of the block below it. */
__global__ void lud_perimeter(float *a, int n, int k)
{
    __shared__ float dia[LB][LB], rowb[LB][LB], colb[LB][LB];
    int t = threadIdx.x, o = k * LB, j = (k + 1 + blockIdx.x) * LB;
    for (int i = t; i < LB * LB; i += blockDim.x) {
        int r = i / LB, c = i % LB;
        dia[r][c] = a[(o + r) * n + o + c];
        rowb[r][c] = a[(o + r) * n + j + c];
        colb[r][c] = a[(j + r) * n + o + c];
    }
    __syncthreads();
    if (t < LB) {               /* U12 = L11^-1 A12, unit lower L11 */
        for (int r = 1; r < LB; r++) {
            float s = rowb[r][t];
            for (int p = 0; p < r; p++) s -= dia[r][p] * rowb[p][t];
            rowb[r][t] = s;
        }
    } else {                    /* L21 = A21 U11^-1 */
        int r = t - LB;
        for (int c = 0; c < LB; c++) {
            float s = colb[r][c];
            for (int p = 0; p < c; p++) s -= colb[r][p] * dia[p][c];
            colb[r][c] = s / dia[c][c];
        }
    }
    __syncthreads();
    for (int i = t; i < LB * LB; i += blockDim.x) {
        int r = i / LB, c = i % LB;
        a[(o + r) * n + j + c] = rowb[r][c];
        a[(j + r) * n + o + c] = colb[r][c];
    }
}

__global__ void lud_internal(float *a, int n, int k)
{
    __shared__ float l[LB][LB], u[LB][LB];
    int tx = threadIdx.x, ty = threadIdx.y, o = k * LB;
    int row = (k + 1 + blockIdx.y) * LB + ty, col = (k + 1 + blockIdx.x) * LB + tx;
    l[ty][tx] = a[row * n + o + tx];
    u[ty][tx] = a[(o + ty) * n + col];
    __syncthreads();
    float s = 0.f;
#pragma unroll
    for (int p = 0; p < LB; p++) s += l[ty][p] * u[p][tx];
    a[row * n + col] -= s;
}

/* Unblocked Doolittle in double: the same factors, a different order. */
static void lud_cpu(double *m, int n)
{
    for (int p = 0; p < n; p++)
        for (int i = p + 1; i < n; i++) {
            double f = (m[(size_t)i * n + p] /= m[(size_t)p * n + p]);
            for (int j = p + 1; j < n; j++) m[(size_t)i * n + j] -= f * m[(size_t)p * n + j];
        }
}

int main(int argc, char **argv)
{
    bench_args a = bench_parse(argc, argv, "lud");
    int n = BENCH_PICK(a, 192, 384, 768), nb = n / LB;
    bench_rng rng = bench_rng_new(a.seed);
    size_t cells = (size_t)n * n;
    float *h = (float *)malloc(cells * sizeof(float));
    double *ref = (double *)malloc(cells * sizeof(double));
    for (size_t i = 0; i < cells; i++) h[i] = bench_uniform(&rng, -1.f, 1.f);
    for (int i = 0; i < n; i++) h[(size_t)i * n + i] += 0.5f * n;   /* diagonally dominant: no pivoting */
    for (size_t i = 0; i < cells; i++) ref[i] = h[i];
    float *d;
    BENCH_CUDA(cudaMalloc((void **)&d, cells * sizeof(float)));
    BENCH_CUDA(cudaMemcpy(d, h, cells * sizeof(float), cudaMemcpyHostToDevice));
    for (int k = 0; k < nb; k++) {
        lud_diagonal<<<1, dim3(LB, LB)>>>(d, n, k);
        BENCH_LAUNCHED();
        if (k == nb - 1) break;
        lud_perimeter<<<nb - 1 - k, 2 * LB>>>(d, n, k);
        BENCH_LAUNCHED();
        lud_internal<<<dim3(nb - 1 - k, nb - 1 - k), dim3(LB, LB)>>>(d, n, k);
        BENCH_LAUNCHED();
    }
    BENCH_CUDA(cudaMemcpy(h, d, cells * sizeof(float), cudaMemcpyDeviceToHost));

    lud_cpu(ref, n);
    bench_corrupt(h, sizeof(float), cells / 2 + n / 2 + 1);
    size_t bad = 0;
    for (size_t i = 0; i < cells; i++)
        if (!(fabs(h[i] - ref[i]) <= 1e-5 * fabs(ref[i]) + 1e-6)) {
            if (bad < 5) fprintf(stderr, "lu[%zu]: got %.9g want %.9g\n", i, h[i], ref[i]);
            bad++;
        }
    char detail[96];
    snprintf(detail, sizeof detail, "n=%d blocks=%d", n, nb);
    int rc = bench_finish(&a, bad, detail);
    cudaFree(d);
    free(h); free(ref);
    return rc;
}
