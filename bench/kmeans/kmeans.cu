/*
** kmeans.cu -- k-means assignment step over a row-major feature matrix.
**
** One thread per point; the point's features are row-major, so the 32
** lanes of a warp read 32 different lines for every feature and come back
** to the same lines for every cluster: heavily uncoalesced and only fast
** when those lines stay in L1 (the cache-sensitive kmeans of CCWS/Mascar).
** Features are small integers stored as floats so distances are exact.
*/
#include "bench.h"

#define NFEAT 34
#define NCLUST 5

__constant__ float c_centroids[NCLUST * NFEAT];

__global__ void kmeans_assign(const float *features, int *membership, int npoints)
{
    int p = blockIdx.x * blockDim.x + threadIdx.x;
    if (p >= npoints) return;
    const float *row = features + (size_t)p * NFEAT;
    int best = 0;
    float best_dist = 3.0e38f;
    for (int c = 0; c < NCLUST; c++) {
        float dist = 0.0f;
        for (int f = 0; f < NFEAT; f++) {
            float d = row[f] - c_centroids[c * NFEAT + f];
            dist += d * d;
        }
        if (dist < best_dist) { best_dist = dist; best = c; }
    }
    membership[p] = best;
}

int main(int argc, char **argv)
{
    bench_args a = bench_parse(argc, argv, "kmeans");
    int n = BENCH_PICK(a, 4096, 40960, 409600);
    const int threads = 128;
    bench_rng rng = bench_rng_new(a.seed);

    /* Points are drawn around NCLUST hidden centres so clusters are real. */
    float *feat = (float *)malloc(sizeof(float) * n * NFEAT);
    float cent[NCLUST * NFEAT];
    for (int i = 0; i < NCLUST * NFEAT; i++) cent[i] = (float)bench_below(&rng, 32);
    for (int p = 0; p < n; p++) {
        int home = (int)bench_below(&rng, NCLUST);
        for (int f = 0; f < NFEAT; f++)
            feat[p * NFEAT + f] = cent[home * NFEAT + f] + (float)((int)bench_below(&rng, 25) - 12);
    }

    float *d_feat;
    int *d_memb;
    BENCH_CUDA(cudaMalloc(&d_feat, sizeof(float) * n * NFEAT));
    BENCH_CUDA(cudaMalloc(&d_memb, sizeof(int) * n));
    BENCH_CUDA(cudaMemcpy(d_feat, feat, sizeof(float) * n * NFEAT, cudaMemcpyHostToDevice));
    BENCH_CUDA(cudaMemcpyToSymbol(c_centroids, cent, sizeof cent));
    kmeans_assign<<<(n + threads - 1) / threads, threads>>>(d_feat, d_memb, n);
    BENCH_LAUNCHED();

    int *memb = (int *)malloc(sizeof(int) * n);
    int *want = (int *)malloc(sizeof(int) * n);
    BENCH_CUDA(cudaMemcpy(memb, d_memb, sizeof(int) * n, cudaMemcpyDeviceToHost));
    for (int p = 0; p < n; p++) {
        int best = 0;
        float best_dist = 3.0e38f;
        for (int c = 0; c < NCLUST; c++) {
            float dist = 0.0f;
            for (int f = 0; f < NFEAT; f++) {
                float d = feat[p * NFEAT + f] - cent[c * NFEAT + f];
                dist += d * d;
            }
            if (dist < best_dist) { best_dist = dist; best = c; }
        }
        want[p] = best;
    }
    bench_corrupt(memb, sizeof(int), n / 2);
    size_t bad = bench_check_u32((const uint32_t *)memb, (const uint32_t *)want, n, "membership");

    char detail[64];
    snprintf(detail, sizeof detail, "points=%d features=%d clusters=%d", n, NFEAT, NCLUST);
    cudaFree(d_feat); cudaFree(d_memb);
    free(feat); free(memb); free(want);
    return bench_finish(&a, bad, detail);
}
