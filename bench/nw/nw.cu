/*
** nw.cu -- Needleman-Wunsch global alignment scores, tiled along anti-diagonals.
**
** The (n+1)^2 score matrix is cut into 64x64 tiles; one launch handles one
** diagonal of tiles (they are independent). A block of 64 threads stages the
** tile's top row, left column and substitution scores in shared memory and
** sweeps the tile's 127 inner anti-diagonals with a barrier after each:
** thread t works on diagonal d only when t <= d (then t <= 126 - d), so the
** second warp sits idle through half of the sweep. Barriers in the main
** loop and warps of unequal length.
*/
#include "bench.h"

#define NW_B 64
#define NW_PENALTY 10
#define NW_ALPHABET 24

__device__ __host__ static inline int nw_max3(int a, int b, int c)
{
    int m = a > b ? a : b;
    return m > c ? m : c;
}

__global__ void nw_diagonal(int *score, const int *ref, int n, int diag, int nb)
{
    __shared__ int s[NW_B + 1][NW_B + 1];
    __shared__ int r[NW_B][NW_B];
    int t = threadIdx.x, w = n + 1;
    int bi = blockIdx.x + (diag >= nb ? diag - nb + 1 : 0), bj = diag - bi;
    int row0 = bi * NW_B, col0 = bj * NW_B;     /* top-left corner, already final */
    if (t == 0) s[0][0] = score[row0 * w + col0];
    s[0][t + 1] = score[row0 * w + col0 + 1 + t];
    s[t + 1][0] = score[(row0 + 1 + t) * w + col0];
    for (int i = 0; i < NW_B; i++) r[i][t] = ref[(row0 + 1 + i) * w + col0 + 1 + t];
    __syncthreads();
    for (int d = 0; d < NW_B; d++) {            /* upper-left triangle */
        if (t <= d) {
            int x = t + 1, y = d - t + 1;
            s[y][x] = nw_max3(s[y - 1][x - 1] + r[y - 1][x - 1], s[y - 1][x] - NW_PENALTY, s[y][x - 1] - NW_PENALTY);
        }
        __syncthreads();
    }
    for (int d = NW_B - 2; d >= 0; d--) {       /* lower-right triangle */
        if (t <= d) {
            int x = NW_B - d + t, y = NW_B - t;
            s[y][x] = nw_max3(s[y - 1][x - 1] + r[y - 1][x - 1], s[y - 1][x] - NW_PENALTY, s[y][x - 1] - NW_PENALTY);
        }
        __syncthreads();
    }
    for (int i = 0; i < NW_B; i++) score[(row0 + 1 + i) * w + col0 + 1 + t] = s[i + 1][t + 1];
}

int main(int argc, char **argv)
{
    bench_args a = bench_parse(argc, argv, "nw");
    int n = BENCH_PICK(a, 512, 1600, 5120), nb = n / NW_B, w = n + 1;
    bench_rng rng = bench_rng_new(a.seed);
    int sub[NW_ALPHABET][NW_ALPHABET];
    for (int i = 0; i < NW_ALPHABET; i++)
        for (int j = 0; j <= i; j++)
            sub[i][j] = sub[j][i] = i == j ? 4 + (int)bench_below(&rng, 8) : (int)bench_below(&rng, 8) - 4;
    int *seq = (int *)malloc(2 * (size_t)w * sizeof(int));
    for (int i = 1; i <= n; i++) {
        seq[i] = (int)bench_below(&rng, NW_ALPHABET);
        /* the second sequence is a mutated copy, so alignments are not random */
        seq[w + i] = bench_below(&rng, 4) ? seq[i] : (int)bench_below(&rng, NW_ALPHABET);
    }
    size_t cells = (size_t)w * w;
    int *ref = (int *)calloc(cells, sizeof(int)), *want = (int *)calloc(cells, sizeof(int));
    int *got = (int *)malloc(cells * sizeof(int));
    for (int i = 1; i <= n; i++)
        for (int j = 1; j <= n; j++) ref[(size_t)i * w + j] = sub[seq[i]][seq[w + j]];
    for (int i = 0; i <= n; i++) want[(size_t)i * w] = want[i] = -i * NW_PENALTY;

    int *d_score, *d_ref;
    BENCH_CUDA(cudaMalloc((void **)&d_score, cells * sizeof(int)));
    BENCH_CUDA(cudaMalloc((void **)&d_ref, cells * sizeof(int)));
    BENCH_CUDA(cudaMemcpy(d_score, want, cells * sizeof(int), cudaMemcpyHostToDevice));
    BENCH_CUDA(cudaMemcpy(d_ref, ref, cells * sizeof(int), cudaMemcpyHostToDevice));
    for (int diag = 0; diag < 2 * nb - 1; diag++) {
        int tiles = diag < nb ? diag + 1 : 2 * nb - 1 - diag;
        nw_diagonal<<<tiles, NW_B>>>(d_score, d_ref, n, diag, nb);
        BENCH_LAUNCHED();
    }
    BENCH_CUDA(cudaMemcpy(got, d_score, cells * sizeof(int), cudaMemcpyDeviceToHost));

    for (int i = 1; i <= n; i++)
        for (int j = 1; j <= n; j++) {
            size_t c = (size_t)i * w + j;
            want[c] = nw_max3(want[c - w - 1] + ref[c], want[c - w] - NW_PENALTY, want[c - 1] - NW_PENALTY);
        }
    bench_corrupt(got, sizeof(int), cells / 2 + n / 3);
    size_t bad = bench_check_u32((const uint32_t *)got, (const uint32_t *)want, cells, "score");
    char detail[96];
    snprintf(detail, sizeof detail, "n=%d tiles=%dx%d score=%d", n, nb, nb, want[cells - 1]);
    int rc = bench_finish(&a, bad, detail);
    cudaFree(d_score); cudaFree(d_ref);
    free(seq); free(ref); free(want); free(got);
    return rc;
}
