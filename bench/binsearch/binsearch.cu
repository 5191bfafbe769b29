/*
** binsearch.cu -- binary search of many keys in a sorted array in global
** memory (the AMD APP SDK BinarySearch workload, one key per thread).
**
** The sorted array holds distinct integers with random gaps; half of the
** keys are in it, half are not.  Each thread halves its interval [lo, hi]
** until it finds its key or the interval is empty: every trip loads the
** middle element -- an address that depends on the previous load -- and
** compares, so the loop is a chain of dependent long-latency loads with a
** little integer work between them (HAWS's BS, the benchmark with the most
** memory instructions run in hint mode).  Early exits make the trip count
** differ between threads; a warp runs until its last lane is done.  Output:
** the key's index or -1, checked exactly.
*/
#include "bench.h"

#define THREADS 256

__global__ void binary_search(const unsigned *sorted, int n, const unsigned *keys, int nkeys,
                              int *found)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= nkeys) return;
    unsigned key = keys[t];
    int lo = 0, hi = n - 1, at = -1;
    while (lo <= hi) {
        int mid = lo + ((hi - lo) >> 1);
        unsigned v = sorted[mid];
        if (v == key) { at = mid; break; }
        if (v < key) lo = mid + 1;
        else hi = mid - 1;
    }
    found[t] = at;
}

int main(int argc, char **argv)
{
    bench_args a = bench_parse(argc, argv, "binsearch");
    int n = BENCH_PICK(a, 1 << 16, 1 << 20, 1 << 24);
    int nkeys = BENCH_PICK(a, 8192, 1 << 17, 1 << 20);
    bench_rng rng = bench_rng_new(a.seed);

    /* distinct values with gaps of 1..8: absent keys fall into the gaps */
    unsigned *sorted = (unsigned *)malloc(sizeof(unsigned) * n);
    unsigned v = bench_below(&rng, 16);
    for (int i = 0; i < n; i++) { v += 1 + bench_below(&rng, 8); sorted[i] = v; }
    unsigned *keys = (unsigned *)malloc(sizeof(unsigned) * nkeys);
    for (int k = 0; k < nkeys; k++)
        keys[k] = (k & 1) ? bench_below(&rng, sorted[n - 1] + 16)   /* mostly absent */
                          : sorted[bench_below(&rng, n)];           /* present */

    unsigned *d_sorted, *d_keys;
    int *d_found;
    BENCH_CUDA(cudaMalloc(&d_sorted, sizeof(unsigned) * n));
    BENCH_CUDA(cudaMalloc(&d_keys, sizeof(unsigned) * nkeys));
    BENCH_CUDA(cudaMalloc(&d_found, sizeof(int) * nkeys));
    BENCH_CUDA(cudaMemcpy(d_sorted, sorted, sizeof(unsigned) * n, cudaMemcpyHostToDevice));
    BENCH_CUDA(cudaMemcpy(d_keys, keys, sizeof(unsigned) * nkeys, cudaMemcpyHostToDevice));
    binary_search<<<(nkeys + THREADS - 1) / THREADS, THREADS>>>(d_sorted, n, d_keys, nkeys, d_found);
    BENCH_LAUNCHED();

    int *got = (int *)malloc(sizeof(int) * nkeys), *want = (int *)malloc(sizeof(int) * nkeys);
    BENCH_CUDA(cudaMemcpy(got, d_found, sizeof(int) * nkeys, cudaMemcpyDeviceToHost));
    int present = 0;
    for (int k = 0; k < nkeys; k++) {
        int lo = 0, hi = n - 1;
        want[k] = -1;
        while (lo <= hi) {   /* values are distinct: the index is unique */
            int mid = lo + (hi - lo) / 2;
            if (sorted[mid] == keys[k]) { want[k] = mid; break; }
            if (sorted[mid] < keys[k]) lo = mid + 1; else hi = mid - 1;
        }
        present += want[k] >= 0;
    }
    bench_corrupt(got, sizeof(int), nkeys / 2 + 1);
    size_t bad = bench_check_u32((const uint32_t *)got, (const uint32_t *)want, nkeys, "found");

    char detail[64];
    snprintf(detail, sizeof detail, "n=%d keys=%d present=%d", n, nkeys, present);
    cudaFree(d_sorted); cudaFree(d_keys); cudaFree(d_found);
    free(sorted); free(keys); free(got); free(want);
    return bench_finish(&a, bad, detail);
}
