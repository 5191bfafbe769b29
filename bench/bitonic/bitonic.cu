/*
** bitonic.cu -- bitonic sort of 32-bit keys.
**
** bitonic_local sorts 512-key chunks in shared memory (all stages up to
** 512, a barrier after each compare-exchange step). For longer sequences
** bitonic_global does one compare-exchange step with stride >= 512 in
** global memory, and bitonic_merge finishes the strides below 512 in
** shared memory. Every thread does one compare-exchange per step: equal
** work per warp, integer compares, barriers.
*/
#include "bench.h"

#define BT_THREADS 256
#define BT_CHUNK (2 * BT_THREADS)

/* Compare-exchange of the pair (i, i + stride) of the sequence as seen
   from global index gi of element i, for bitonic stage `size`. */
__device__ static inline void bitonic_swap(unsigned *s, int i, int stride, unsigned gi, unsigned size)
{
    unsigned x = s[i], y = s[i + stride];
    unsigned lo = min(x, y), hi = max(x, y);
    bool ascending = (gi & size) == 0;
    s[i] = ascending ? lo : hi;         /* branch-free: every warp does the same work */
    s[i + stride] = ascending ? hi : lo;
}

__global__ void bitonic_local(unsigned *keys)
{
    __shared__ unsigned s[BT_CHUNK];
    int t = threadIdx.x;
    unsigned base = blockIdx.x * BT_CHUNK;
    s[t] = keys[base + t];
    s[t + BT_THREADS] = keys[base + t + BT_THREADS];
    for (unsigned size = 2; size <= BT_CHUNK; size <<= 1)
        for (unsigned stride = size / 2; stride > 0; stride >>= 1) {
            __syncthreads();
            int i = 2 * t - (t & (stride - 1));
            bitonic_swap(s, i, stride, base + i, size);
        }
    __syncthreads();
    keys[base + t] = s[t];
    keys[base + t + BT_THREADS] = s[t + BT_THREADS];
}

__global__ void bitonic_global(unsigned *keys, unsigned size, unsigned stride)
{
    unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned i = 2 * t - (t & (stride - 1));
    bitonic_swap(keys, i, stride, i, size);
}

__global__ void bitonic_merge(unsigned *keys, unsigned size)
{
    __shared__ unsigned s[BT_CHUNK];
    int t = threadIdx.x;
    unsigned base = blockIdx.x * BT_CHUNK;
    s[t] = keys[base + t];
    s[t + BT_THREADS] = keys[base + t + BT_THREADS];
    for (unsigned stride = BT_CHUNK / 2; stride > 0; stride >>= 1) {
        __syncthreads();
        int i = 2 * t - (t & (stride - 1));
        bitonic_swap(s, i, stride, base + i, size);
    }
    __syncthreads();
    keys[base + t] = s[t];
    keys[base + t + BT_THREADS] = s[t + BT_THREADS];
}

static int bitonic_cmp(const void *a, const void *b)
{
    unsigned x = *(const unsigned *)a, y = *(const unsigned *)b;
    return x < y ? -1 : x > y;
}

int main(int argc, char **argv)
{
    bench_args a = bench_parse(argc, argv, "bitonic");
    unsigned n = BENCH_PICK(a, 1u << 14, 1u << 17, 1u << 20);
    bench_rng rng = bench_rng_new(a.seed);
    unsigned *h = (unsigned *)malloc(n * sizeof(unsigned)), *want = (unsigned *)malloc(n * sizeof(unsigned));
    for (unsigned i = 0; i < n; i++) want[i] = h[i] = (unsigned)bench_next(&rng) >> (i & 3 ? 0 : 20);
    unsigned *d;
    BENCH_CUDA(cudaMalloc((void **)&d, n * sizeof(unsigned)));
    BENCH_CUDA(cudaMemcpy(d, h, n * sizeof(unsigned), cudaMemcpyHostToDevice));
    int launches = 1;
    bitonic_local<<<n / BT_CHUNK, BT_THREADS>>>(d);
    BENCH_LAUNCHED();
    for (unsigned size = 2 * BT_CHUNK; size <= n; size <<= 1) {
        for (unsigned stride = size / 2; stride >= BT_CHUNK; stride >>= 1, launches++) {
            bitonic_global<<<n / 2 / BT_THREADS, BT_THREADS>>>(d, size, stride);
            BENCH_LAUNCHED();
        }
        bitonic_merge<<<n / BT_CHUNK, BT_THREADS>>>(d, size);
        BENCH_LAUNCHED();
        launches++;
    }
    BENCH_CUDA(cudaMemcpy(h, d, n * sizeof(unsigned), cudaMemcpyDeviceToHost));

    qsort(want, n, sizeof(unsigned), bitonic_cmp);
    bench_corrupt(h, sizeof(unsigned), n / 2 + 1);
    size_t bad = bench_check_u32(h, want, n, "key");
    char detail[96];
    snprintf(detail, sizeof detail, "keys=%u launches=%d", n, launches);
    int rc = bench_finish(&a, bad, detail);
    cudaFree(d);
    free(h); free(want);
    return rc;
}
