/*
** reduction.cu -- sum of a large array, six classic kernel variants.
**
** Every variant writes one partial sum per block:
**   reduce_interleaved   s[t] += s[t + stride] when t % (2 stride) == 0 (divergent)
**   reduce_strided       same pairs, thread t handles index 2 stride t (bank conflicts)
**   reduce_sequential    halving strides s[t] += s[t + half] (contiguous active threads)
**   reduce_firstadd      adds two elements while loading, then sequential
**   reduce_warpshuffle   firstadd, with the last 32 lanes reduced by shuffles
**   reduce_gridstride    a fixed grid, many elements per thread, shuffles
** and the gridstride kernel then reduces its own partials to one total.
** Tree reductions leave more warps idle each level: asymmetric, barriers.
*/
#include "bench.h"

#define RT 256

__global__ void reduce_interleaved(const unsigned *in, unsigned *out)
{
    __shared__ unsigned s[RT];
    unsigned t = threadIdx.x;
    s[t] = in[blockIdx.x * RT + t];
    __syncthreads();
    for (unsigned stride = 1; stride < RT; stride *= 2) {
        if (t % (2 * stride) == 0) s[t] += s[t + stride];
        __syncthreads();
    }
    if (t == 0) out[blockIdx.x] = s[0];
}

__global__ void reduce_strided(const unsigned *in, unsigned *out)
{
    __shared__ unsigned s[RT];
    unsigned t = threadIdx.x;
    s[t] = in[blockIdx.x * RT + t];
    __syncthreads();
    for (unsigned stride = 1; stride < RT; stride *= 2) {
        unsigned i = 2 * stride * t;
        if (i < RT) s[i] += s[i + stride];
        __syncthreads();
    }
    if (t == 0) out[blockIdx.x] = s[0];
}

__global__ void reduce_sequential(const unsigned *in, unsigned *out)
{
    __shared__ unsigned s[RT];
    unsigned t = threadIdx.x;
    s[t] = in[blockIdx.x * RT + t];
    __syncthreads();
    for (unsigned half = RT / 2; half > 0; half >>= 1) {
        if (t < half) s[t] += s[t + half];
        __syncthreads();
    }
    if (t == 0) out[blockIdx.x] = s[0];
}

__global__ void reduce_firstadd(const unsigned *in, unsigned *out)
{
    __shared__ unsigned s[RT];
    unsigned t = threadIdx.x, i = blockIdx.x * 2 * RT + t;
    s[t] = in[i] + in[i + RT];
    __syncthreads();
    for (unsigned half = RT / 2; half > 0; half >>= 1) {
        if (t < half) s[t] += s[t + half];
        __syncthreads();
    }
    if (t == 0) out[blockIdx.x] = s[0];
}

__device__ static inline unsigned warp_sum(unsigned v)
{
    for (int off = 16; off > 0; off >>= 1) v += __shfl_down_sync(0xffffffffu, v, off);
    return v;
}

__global__ void reduce_warpshuffle(const unsigned *in, unsigned *out)
{
    __shared__ unsigned s[RT];
    unsigned t = threadIdx.x, i = blockIdx.x * 2 * RT + t;
    s[t] = in[i] + in[i + RT];
    __syncthreads();
    for (unsigned half = RT / 2; half > 32; half >>= 1) {
        if (t < half) s[t] += s[t + half];
        __syncthreads();
    }
    if (t < 32) {
        unsigned v = warp_sum(s[t] + s[t + 32]);
        if (t == 0) out[blockIdx.x] = v;
    }
}

__global__ void reduce_gridstride(const unsigned *in, unsigned *out, int n)
{
    __shared__ unsigned warp_totals[RT / 32];
    unsigned t = threadIdx.x, v = 0;
    for (int i = blockIdx.x * RT + t; i < n; i += gridDim.x * RT) v += in[i];
    v = warp_sum(v);
    if (t % 32 == 0) warp_totals[t / 32] = v;
    __syncthreads();
    if (t < 32) {
        v = warp_sum(t < RT / 32 ? warp_totals[t] : 0);
        if (t == 0) out[blockIdx.x] = v;
    }
}

/* Partial sums of consecutive runs of `per_block` elements. */
static void reduce_runs(const unsigned *in, unsigned *out, int n, int per_block)
{
    for (int b = 0; b < n / per_block; b++) {
        unsigned s = 0;
        for (int i = 0; i < per_block; i++) s += in[b * per_block + i];
        out[b] = s;
    }
}

int main(int argc, char **argv)
{
    bench_args a = bench_parse(argc, argv, "reduction");
    int n = BENCH_PICK(a, 1 << 17, 1 << 20, 1 << 23), grid = BENCH_PICK(a, 16, 64, 256);
    int b1 = n / RT, b2 = n / (2 * RT);
    /* layout of the partials: 3 x b1, 2 x b2, grid, total */
    int np = 3 * b1 + 2 * b2 + grid + 1;
    bench_rng rng = bench_rng_new(a.seed);
    unsigned *h = (unsigned *)malloc(n * sizeof(unsigned));
    unsigned *got = (unsigned *)malloc(np * sizeof(unsigned)), *want = (unsigned *)calloc(np, sizeof(unsigned));
    for (int i = 0; i < n; i++) h[i] = (unsigned)bench_next(&rng);
    unsigned *d_in, *d_p;
    BENCH_CUDA(cudaMalloc((void **)&d_in, n * sizeof(unsigned)));
    BENCH_CUDA(cudaMalloc((void **)&d_p, np * sizeof(unsigned)));
    BENCH_CUDA(cudaMemcpy(d_in, h, n * sizeof(unsigned), cudaMemcpyHostToDevice));
    unsigned *p = d_p;
    reduce_interleaved<<<b1, RT>>>(d_in, p); BENCH_LAUNCHED(); p += b1;
    reduce_strided<<<b1, RT>>>(d_in, p); BENCH_LAUNCHED(); p += b1;
    reduce_sequential<<<b1, RT>>>(d_in, p); BENCH_LAUNCHED(); p += b1;
    reduce_firstadd<<<b2, RT>>>(d_in, p); BENCH_LAUNCHED(); p += b2;
    reduce_warpshuffle<<<b2, RT>>>(d_in, p); BENCH_LAUNCHED(); p += b2;
    reduce_gridstride<<<grid, RT>>>(d_in, p, n); BENCH_LAUNCHED();
    reduce_gridstride<<<1, RT>>>(p, p + grid, grid); BENCH_LAUNCHED();
    BENCH_CUDA(cudaMemcpy(got, d_p, np * sizeof(unsigned), cudaMemcpyDeviceToHost));

    unsigned *w = want;
    for (int v = 0; v < 3; v++, w += b1) reduce_runs(h, w, n, RT);
    for (int v = 0; v < 2; v++, w += b2) reduce_runs(h, w, n, 2 * RT);
    for (int i = 0; i < n; i++) {
        w[(i / RT) % grid] += h[i];
        w[grid] += h[i];
    }
    bench_corrupt(got, sizeof(unsigned), b1 + b1 / 2);
    size_t bad = bench_check_u32(got, want, np, "partial");
    char detail[96];
    snprintf(detail, sizeof detail, "n=%d total=%u", n, w[grid]);
    int rc = bench_finish(&a, bad, detail);
    cudaFree(d_in); cudaFree(d_p);
    free(h); free(got); free(want);
    return rc;
}
