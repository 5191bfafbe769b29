/*
** twomm.cu -- PolyBench/GPU 2MM: tmp = alpha * A * B, then
** D = tmp * C + beta * D.
**
** Two kernels, each one thread per output element on a 2D grid of 32x8
** blocks (PolyBench's), accumulating straight into the output in global
** memory with the k loop over global memory as PolyBench does: a broadcast
** load of the row operand and a coalesced load of the column operand per
** trip; blocks on the same block row share the row operand's lines (HALS
** type 1).  The second kernel reads the first one's output.  Inputs are
** small integers stored as floats and every value stays below 2^24, so the
** results are exact in any order.
*/
#include "bench.h"

#define DIM_X 32
#define DIM_Y 8
#define ALPHA 2.0f
#define BETA 3.0f

__global__ void mm2_kernel1(const float *a, const float *b, float *tmp, int ni, int nj, int nk)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    int i = blockIdx.y * blockDim.y + threadIdx.y;
    if (i < ni && j < nj) {
        tmp[i * nj + j] = 0;
        for (int k = 0; k < nk; k++) tmp[i * nj + j] += ALPHA * a[i * nk + k] * b[k * nj + j];
    }
}

__global__ void mm2_kernel2(const float *tmp, const float *c, float *d, int ni, int nj, int nl)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    int i = blockIdx.y * blockDim.y + threadIdx.y;
    if (i < ni && j < nl) {
        d[i * nl + j] *= BETA;
        for (int k = 0; k < nj; k++) d[i * nl + j] += tmp[i * nj + k] * c[k * nl + j];
    }
}

static float *fill(bench_rng *r, int n, int lo, int hi)
{
    float *p = (float *)malloc(sizeof(float) * n);
    for (int q = 0; q < n; q++) p[q] = (float)(lo + (int)bench_below(r, hi - lo + 1));
    return p;
}

int main(int argc, char **argv)
{
    bench_args a = bench_parse(argc, argv, "twomm");
    int ni = BENCH_PICK(a, 96, 192, 512), nj = ni, nk = ni, nl = ni;
    bench_rng rng = bench_rng_new(a.seed);
    float *ha = fill(&rng, ni * nk, -2, 2), *hb = fill(&rng, nk * nj, -2, 2);
    float *hc = fill(&rng, nj * nl, -2, 2), *hd = fill(&rng, ni * nl, -50, 50);

    float *d_a, *d_b, *d_tmp, *d_c, *d_d;
    BENCH_CUDA(cudaMalloc(&d_a, sizeof(float) * ni * nk));
    BENCH_CUDA(cudaMalloc(&d_b, sizeof(float) * nk * nj));
    BENCH_CUDA(cudaMalloc(&d_tmp, sizeof(float) * ni * nj));
    BENCH_CUDA(cudaMalloc(&d_c, sizeof(float) * nj * nl));
    BENCH_CUDA(cudaMalloc(&d_d, sizeof(float) * ni * nl));
    BENCH_CUDA(cudaMemcpy(d_a, ha, sizeof(float) * ni * nk, cudaMemcpyHostToDevice));
    BENCH_CUDA(cudaMemcpy(d_b, hb, sizeof(float) * nk * nj, cudaMemcpyHostToDevice));
    BENCH_CUDA(cudaMemcpy(d_c, hc, sizeof(float) * nj * nl, cudaMemcpyHostToDevice));
    BENCH_CUDA(cudaMemcpy(d_d, hd, sizeof(float) * ni * nl, cudaMemcpyHostToDevice));
    dim3 block(DIM_X, DIM_Y);
    dim3 grid1((nj + DIM_X - 1) / DIM_X, (ni + DIM_Y - 1) / DIM_Y);
    dim3 grid2((nl + DIM_X - 1) / DIM_X, (ni + DIM_Y - 1) / DIM_Y);
    mm2_kernel1<<<grid1, block>>>(d_a, d_b, d_tmp, ni, nj, nk);
    BENCH_LAUNCHED();
    mm2_kernel2<<<grid2, block>>>(d_tmp, d_c, d_d, ni, nj, nl);
    BENCH_LAUNCHED();

    float *got = (float *)malloc(sizeof(float) * ni * nl), *want = (float *)malloc(sizeof(float) * ni * nl);
    double *tmp = (double *)malloc(sizeof(double) * ni * nj);
    BENCH_CUDA(cudaMemcpy(got, d_d, sizeof(float) * ni * nl, cudaMemcpyDeviceToHost));
    for (int i = 0; i < ni; i++)
        for (int j = 0; j < nj; j++) {
            double s = 0.0;
            for (int k = 0; k < nk; k++) s += ALPHA * (double)ha[i * nk + k] * hb[k * nj + j];
            tmp[i * nj + j] = s;
        }
    for (int i = 0; i < ni; i++)
        for (int j = 0; j < nl; j++) {
            double s = BETA * (double)hd[i * nl + j];
            for (int k = 0; k < nj; k++) s += tmp[i * nj + k] * hc[k * nl + j];
            want[i * nl + j] = (float)s;
        }
    bench_corrupt(got, sizeof(float), ni * nl / 2 + 11);
    size_t bad = bench_check_f32(got, want, (size_t)ni * nl, 0.0f, 0.0f, "d");

    char detail[48];
    snprintf(detail, sizeof detail, "ni=nj=nk=nl=%d", ni);
    cudaFree(d_a); cudaFree(d_b); cudaFree(d_tmp); cudaFree(d_c); cudaFree(d_d);
    free(ha); free(hb); free(hc); free(hd); free(got); free(want); free(tmp);
    return bench_finish(&a, bad, detail);
}
