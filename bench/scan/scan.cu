/*
** scan.cu -- exclusive prefix sum of a large array (work-efficient, Blelloch).
**
** scan_block scans 512 elements per block in shared memory: an up-sweep
** builds partial sums in a tree, the root goes out as the block's total,
** and a down-sweep spreads the prefixes back, with a barrier per tree
** level; the active threads halve (then double) every level, so the first
** warp works longest. The block totals are scanned the same way
** (recursively) and scan_add adds them back. Values wrap modulo 2^32.
*/
#include "bench.h"

#define SCAN_THREADS 256
#define SCAN_CHUNK (2 * SCAN_THREADS)

__global__ void scan_block(const unsigned *in, unsigned *out, unsigned *sums, int n)
{
    __shared__ unsigned s[SCAN_CHUNK];
    int t = threadIdx.x, base = blockIdx.x * SCAN_CHUNK;
    s[t] = base + t < n ? in[base + t] : 0;
    s[t + SCAN_THREADS] = base + t + SCAN_THREADS < n ? in[base + t + SCAN_THREADS] : 0;
    int offset = 1;
    for (int d = SCAN_THREADS; d > 0; d >>= 1) {
        __syncthreads();
        if (t < d) s[offset * (2 * t + 2) - 1] += s[offset * (2 * t + 1) - 1];
        offset *= 2;
    }
    if (t == 0) {
        sums[blockIdx.x] = s[SCAN_CHUNK - 1];
        s[SCAN_CHUNK - 1] = 0;
    }
    for (int d = 1; d < SCAN_CHUNK; d *= 2) {
        offset >>= 1;
        __syncthreads();
        if (t < d) {
            int ai = offset * (2 * t + 1) - 1, bi = offset * (2 * t + 2) - 1;
            unsigned left = s[ai];
            s[ai] = s[bi];
            s[bi] += left;
        }
    }
    __syncthreads();
    if (base + t < n) out[base + t] = s[t];
    if (base + t + SCAN_THREADS < n) out[base + t + SCAN_THREADS] = s[t + SCAN_THREADS];
}

__global__ void scan_add(unsigned *out, const unsigned *prefix, int n)
{
    int i = blockIdx.x * SCAN_CHUNK + threadIdx.x;
    unsigned p = prefix[blockIdx.x];
    if (i < n) out[i] += p;
    if (i + SCAN_THREADS < n) out[i + SCAN_THREADS] += p;
}

/* Exclusive scan of d_in[0..n) into d_out; scratch holds the block sums of
   every recursion level. Returns the number of launches. */
static int scan_device(const unsigned *d_in, unsigned *d_out, int n, unsigned *scratch)
{
    int blocks = (n + SCAN_CHUNK - 1) / SCAN_CHUNK;
    unsigned *sums = scratch, *sums_scanned = scratch + blocks;
    scan_block<<<blocks, SCAN_THREADS>>>(d_in, d_out, sums, n);
    BENCH_LAUNCHED();
    if (blocks == 1) return 1;
    int launches = scan_device(sums, sums_scanned, blocks, scratch + 2 * blocks);
    scan_add<<<blocks, SCAN_THREADS>>>(d_out, sums_scanned, n);
    BENCH_LAUNCHED();
    return launches + 2;
}

int main(int argc, char **argv)
{
    bench_args a = bench_parse(argc, argv, "scan");
    int n = BENCH_PICK(a, (1 << 17) + 1000, (1 << 20) + 1000, (1 << 23) + 1000);  /* ragged tail */
    bench_rng rng = bench_rng_new(a.seed);
    unsigned *h = (unsigned *)malloc(n * sizeof(unsigned)), *got = (unsigned *)malloc(n * sizeof(unsigned));
    unsigned *want = (unsigned *)malloc(n * sizeof(unsigned));
    for (int i = 0; i < n; i++) h[i] = bench_below(&rng, i % 97 ? 100 : 4000000000u);
    unsigned *d_in, *d_out, *d_scratch;
    BENCH_CUDA(cudaMalloc((void **)&d_in, n * sizeof(unsigned)));
    BENCH_CUDA(cudaMalloc((void **)&d_out, n * sizeof(unsigned)));
    BENCH_CUDA(cudaMalloc((void **)&d_scratch, (n / 128 + 64) * sizeof(unsigned)));
    BENCH_CUDA(cudaMemcpy(d_in, h, n * sizeof(unsigned), cudaMemcpyHostToDevice));
    int launches = scan_device(d_in, d_out, n, d_scratch);
    BENCH_CUDA(cudaMemcpy(got, d_out, n * sizeof(unsigned), cudaMemcpyDeviceToHost));

    unsigned acc = 0;
    for (int i = 0; i < n; i++) {
        want[i] = acc;
        acc += h[i];
    }
    bench_corrupt(got, sizeof(unsigned), n / 2 + 3);
    size_t bad = bench_check_u32(got, want, n, "prefix");
    char detail[96];
    snprintf(detail, sizeof detail, "n=%d launches=%d", n, launches);
    int rc = bench_finish(&a, bad, detail);
    cudaFree(d_in); cudaFree(d_out); cudaFree(d_scratch);
    free(h); free(got); free(want);
    return rc;
}
