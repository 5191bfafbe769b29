/*
** pathfinder.cu -- minimum-cost path down a grid of weights, by dynamic
** programming with a shared-memory pyramid.
**
** cost[r][c] = wall[r][c] + min(cost[r-1][c-1], cost[r-1][c], cost[r-1][c+1]).
** One launch advances HEIGHT rows: each block loads 256 costs (its 224
** output columns plus a halo of HEIGHT on both sides) into shared memory
** and computes row after row in place, the valid region shrinking by one
** column per side per row, with barriers between rows. Integer arithmetic
** on shared data with a global load per row: compute-leaning, barriers.
*/
#include "bench.h"

#define PF_THREADS 256
#define PF_HEIGHT 16
#define PF_OUT (PF_THREADS - 2 * PF_HEIGHT)

__global__ void pathfinder_rows(const int *wall, const int *src, int *dst, int cols, int first_row, int rows)
{
    __shared__ int prev[PF_THREADS], cur[PF_THREADS];
    int t = threadIdx.x;
    int x0 = blockIdx.x * PF_OUT - PF_HEIGHT, x = x0 + t;
    /* lanes outside the grid mirror the edge column, so clamping is free */
    int lo = x0 < 0 ? -x0 : 0, hi = x0 + PF_THREADS > cols ? cols - 1 - x0 : PF_THREADS - 1;
    if (x >= 0 && x < cols) prev[t] = src[x];
    __syncthreads();
    int done = 0;
    for (int i = 0; i < rows; i++) {
        done = 0;
        if (t > i && t < PF_THREADS - 1 - i && t >= lo && t <= hi) {
            int l = prev[t > lo ? t - 1 : t], m = prev[t], r = prev[t < hi ? t + 1 : t];
            int best = l < m ? l : m;
            best = best < r ? best : r;
            cur[t] = best + wall[(size_t)(first_row + i) * cols + x];
            done = 1;
        }
        __syncthreads();
        if (done) prev[t] = cur[t];
        __syncthreads();
    }
    if (done && t >= PF_HEIGHT && t < PF_THREADS - PF_HEIGHT) dst[x] = prev[t];
}

int main(int argc, char **argv)
{
    bench_args a = bench_parse(argc, argv, "pathfinder");
    int cols = BENCH_PICK(a, PF_OUT * 16, PF_OUT * 64, PF_OUT * 256) - 40;  /* a ragged last block */
    int nrows = BENCH_PICK(a, 97, 289, 721);
    bench_rng rng = bench_rng_new(a.seed);
    size_t cells = (size_t)nrows * cols;
    int *wall = (int *)malloc(cells * sizeof(int));
    for (size_t i = 0; i < cells; i++) wall[i] = (int)bench_below(&rng, 10);
    int *d_wall, *d_buf[2];
    BENCH_CUDA(cudaMalloc((void **)&d_wall, cells * sizeof(int)));
    BENCH_CUDA(cudaMalloc((void **)&d_buf[0], cols * sizeof(int)));
    BENCH_CUDA(cudaMalloc((void **)&d_buf[1], cols * sizeof(int)));
    BENCH_CUDA(cudaMemcpy(d_wall, wall, cells * sizeof(int), cudaMemcpyHostToDevice));
    BENCH_CUDA(cudaMemcpy(d_buf[0], wall, cols * sizeof(int), cudaMemcpyHostToDevice));
    int blocks = (cols + PF_OUT - 1) / PF_OUT, cur = 0;
    for (int r = 1; r < nrows; r += PF_HEIGHT) {
        int rows = nrows - r < PF_HEIGHT ? nrows - r : PF_HEIGHT;
        pathfinder_rows<<<blocks, PF_THREADS>>>(d_wall, d_buf[cur], d_buf[1 - cur], cols, r, rows);
        BENCH_LAUNCHED();
        cur = 1 - cur;
    }
    int *got = (int *)malloc(cols * sizeof(int)), *want = (int *)malloc(cols * sizeof(int));
    int *next = (int *)malloc(cols * sizeof(int));
    BENCH_CUDA(cudaMemcpy(got, d_buf[cur], cols * sizeof(int), cudaMemcpyDeviceToHost));

    memcpy(want, wall, cols * sizeof(int));
    for (int r = 1; r < nrows; r++) {
        for (int c = 0; c < cols; c++) {
            int best = want[c];
            if (c > 0 && want[c - 1] < best) best = want[c - 1];
            if (c < cols - 1 && want[c + 1] < best) best = want[c + 1];
            next[c] = best + wall[(size_t)r * cols + c];
        }
        memcpy(want, next, cols * sizeof(int));
    }
    bench_corrupt(got, sizeof(int), cols / 2);
    size_t bad = bench_check_u32((const uint32_t *)got, (const uint32_t *)want, cols, "cost");
    char detail[96];
    snprintf(detail, sizeof detail, "rows=%d cols=%d pyramid=%d", nrows, cols, PF_HEIGHT);
    int rc = bench_finish(&a, bad, detail);
    cudaFree(d_wall); cudaFree(d_buf[0]); cudaFree(d_buf[1]);
    free(wall); free(got); free(want); free(next);
    return rc;
}
