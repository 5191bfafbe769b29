/*
** spmv.cu -- sparse matrix-vector product y = A*x, CSR scalar kernel.
**
** One thread per row walks its row's nonzeros: the value/column loads are
** strided across lanes (uncoalesced) and x is gathered at random columns
** that neighbouring rows share, so L1 hits matter. Row lengths vary from
** 1 to several times the mean, so warps run unequal instruction counts.
*/
#include "bench.h"

__global__ void spmv_csr_scalar(const int *row_start, const int *cols, const float *vals,
                                const float *x, float *y, int nrows)
{
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r >= nrows) return;
    float sum = 0.0f;
    for (int k = row_start[r]; k < row_start[r + 1]; k++)
        sum += vals[k] * x[cols[k]];
    y[r] = sum;
}

int main(int argc, char **argv)
{
    bench_args a = bench_parse(argc, argv, "spmv");
    int n = BENCH_PICK(a, 8192, 65536, 524288);
    const int avg = 12, threads = 128;
    bench_rng rng = bench_rng_new(a.seed);

    /* Row lengths: mostly 1..2*avg, one row in 16 is four times longer.
       Columns cluster near the diagonal (a banded mesh-like pattern) with
       a few far entries, so x is reused by nearby rows. */
    int *rs = (int *)malloc(sizeof(int) * (n + 1));
    rs[0] = 0;
    for (int r = 0; r < n; r++) {
        int len = 1 + (int)bench_below(&rng, 2 * avg);
        if (bench_below(&rng, 16) == 0) len *= 4;
        rs[r + 1] = rs[r] + len;
    }
    int nnz = rs[n];
    int *cols = (int *)malloc(sizeof(int) * nnz);
    float *vals = (float *)malloc(sizeof(float) * nnz);
    float *x = (float *)malloc(sizeof(float) * n);
    for (int k = 0; k < nnz; k++) vals[k] = bench_uniform(&rng, -1.0f, 1.0f);
    for (int r = 0; r < n; r++)
        for (int k = rs[r]; k < rs[r + 1]; k++)
            cols[k] = bench_below(&rng, 8) == 0 ? (int)bench_below(&rng, (uint32_t)n)
                                                 : (r + (int)bench_below(&rng, 512) - 256 + n) % n;
    for (int i = 0; i < n; i++) x[i] = bench_uniform(&rng, -1.0f, 1.0f);

    int *d_rs, *d_cols;
    float *d_vals, *d_x, *d_y;
    BENCH_CUDA(cudaMalloc(&d_rs, sizeof(int) * (n + 1)));
    BENCH_CUDA(cudaMalloc(&d_cols, sizeof(int) * nnz));
    BENCH_CUDA(cudaMalloc(&d_vals, sizeof(float) * nnz));
    BENCH_CUDA(cudaMalloc(&d_x, sizeof(float) * n));
    BENCH_CUDA(cudaMalloc(&d_y, sizeof(float) * n));
    BENCH_CUDA(cudaMemcpy(d_rs, rs, sizeof(int) * (n + 1), cudaMemcpyHostToDevice));
    BENCH_CUDA(cudaMemcpy(d_cols, cols, sizeof(int) * nnz, cudaMemcpyHostToDevice));
    BENCH_CUDA(cudaMemcpy(d_vals, vals, sizeof(float) * nnz, cudaMemcpyHostToDevice));
    BENCH_CUDA(cudaMemcpy(d_x, x, sizeof(float) * n, cudaMemcpyHostToDevice));
    spmv_csr_scalar<<<(n + threads - 1) / threads, threads>>>(d_rs, d_cols, d_vals, d_x, d_y, n);
    BENCH_LAUNCHED();

    float *y = (float *)malloc(sizeof(float) * n);
    float *want = (float *)malloc(sizeof(float) * n);
    BENCH_CUDA(cudaMemcpy(y, d_y, sizeof(float) * n, cudaMemcpyDeviceToHost));
    for (int r = 0; r < n; r++) {
        double sum = 0.0;
        for (int k = rs[r]; k < rs[r + 1]; k++) sum += (double)vals[k] * x[cols[k]];
        want[r] = (float)sum;
    }
    bench_corrupt(y, sizeof(float), n / 5);
    /* Float rounding of a <=100-term sum stays far below 1e-4. */
    size_t bad = bench_check_f32(y, want, n, 1e-4f, 1e-4f, "y");

    char detail[64];
    snprintf(detail, sizeof detail, "rows=%d nnz=%d", n, nnz);
    cudaFree(d_rs); cudaFree(d_cols); cudaFree(d_vals); cudaFree(d_x); cudaFree(d_y);
    free(rs); free(cols); free(vals); free(x); free(y); free(want);
    return bench_finish(&a, bad, detail);
}
