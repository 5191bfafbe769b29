/*
** tpacf.cu -- two-point angular correlation histogram (like Parboil tpacf,
** Mascar Table III: C, Comp/Mem 10816).
**
** Every pair of points is binned by the dot product of their direction
** vectors: a binary search over the bin edges held in __constant__ memory,
** a shared-memory histogram per CTA (shared atomics), one global write of
** it per CTA.  Points are small integer vectors so the dot product, and so
** every bin, is exact on the GPU and in the CPU reference.  Each thread
** loads one point and each CTA streams the others through shared memory in
** tiles: thousands of instructions per L1 miss, compute-bound.
*/
#include "bench.h"

#define NBINS 32
#define TILE 128
#define COORD 1000

__constant__ int c_edges[NBINS - 1];  /* ascending dot-product bin edges */

__device__ int tpacf_bin(int dot)
{
    int lo = 0, hi = NBINS - 1;       /* bin = number of edges <= dot */
    while (lo < hi) {
        int mid = (lo + hi) >> 1;
        if (c_edges[mid] <= dot) lo = mid + 1;
        else hi = mid;
    }
    return lo;
}

__global__ void tpacf_hist(const int4 *pts, int n, unsigned *hist)
{
    __shared__ int4 tile[TILE];
    __shared__ unsigned h[NBINS];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (threadIdx.x < NBINS) h[threadIdx.x] = 0;
    int4 p = pts[i];
    for (int base = 0; base < n; base += TILE) {
        __syncthreads();
        tile[threadIdx.x] = pts[base + threadIdx.x];
        __syncthreads();
        for (int j = 0; j < TILE; j++) {
            int4 q = tile[j];
            if (base + j > i) atomicAdd(&h[tpacf_bin(p.x * q.x + p.y * q.y + p.z * q.z)], 1u);
        }
    }
    __syncthreads();
    if (threadIdx.x < NBINS) hist[blockIdx.x * NBINS + threadIdx.x] = h[threadIdx.x];
}

int main(int argc, char **argv)
{
    bench_args a = bench_parse(argc, argv, "tpacf");
    int n = BENCH_PICK(a, 512, 2048, 8192), blocks = n / TILE;
    bench_rng rng = bench_rng_new(a.seed);
    int4 *pts = (int4 *)malloc(n * sizeof(int4));
    for (int i = 0; i < n; i++)
        pts[i] = make_int4((int)bench_below(&rng, 2 * COORD + 1) - COORD,
                           (int)bench_below(&rng, 2 * COORD + 1) - COORD,
                           (int)bench_below(&rng, 2 * COORD + 1) - COORD, 0);
    int edges[NBINS - 1];             /* evenly spaced over +-3 COORD^2 */
    for (int b = 0; b < NBINS - 1; b++) edges[b] = -3 * COORD * COORD + (b + 1) * (6 * COORD * COORD / NBINS);
    BENCH_CUDA(cudaMemcpyToSymbol(c_edges, edges, sizeof edges));
    int4 *d_pts;
    unsigned *d_hist, *h_hist = (unsigned *)malloc((size_t)blocks * NBINS * sizeof(unsigned));
    BENCH_CUDA(cudaMalloc((void **)&d_pts, n * sizeof(int4)));
    BENCH_CUDA(cudaMalloc((void **)&d_hist, (size_t)blocks * NBINS * sizeof(unsigned)));
    BENCH_CUDA(cudaMemcpy(d_pts, pts, n * sizeof(int4), cudaMemcpyHostToDevice));
    tpacf_hist<<<blocks, TILE>>>(d_pts, n, d_hist);
    BENCH_LAUNCHED();
    BENCH_CUDA(cudaMemcpy(h_hist, d_hist, (size_t)blocks * NBINS * sizeof(unsigned), cudaMemcpyDeviceToHost));

    uint32_t got[NBINS] = { 0 }, want[NBINS] = { 0 };
    for (int b = 0; b < blocks; b++)
        for (int k = 0; k < NBINS; k++) got[k] += h_hist[b * NBINS + k];
    for (int i = 0; i < n; i++)
        for (int j = i + 1; j < n; j++) {
            int dot = pts[i].x * pts[j].x + pts[i].y * pts[j].y + pts[i].z * pts[j].z, k = 0;
            while (k < NBINS - 1 && edges[k] <= dot) k++;
            want[k]++;
        }
    bench_corrupt(got, sizeof(uint32_t), NBINS / 2);
    size_t bad = bench_check_u32(got, want, NBINS, "hist");
    char detail[64];
    snprintf(detail, sizeof detail, "points=%d bins=%d", n, NBINS);
    int rc = bench_finish(&a, bad, detail);
    cudaFree(d_pts); cudaFree(d_hist);
    free(pts); free(h_hist);
    return rc;
}
