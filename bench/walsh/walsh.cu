/*
** walsh.cu -- fast Walsh-Hadamard transform of a batch of signals (the
** CUDA SDK fastWalshTransform's structure, written from scratch).
**
** The transform is log2(N) butterfly stages, one per bit of the index.
** Stages with a stride of at least CHUNK elements run as fwt_global, one
** launch each: one radix-2 butterfly per thread, reading and writing two
** coalesced streams `stride` apart.  The remaining stages run in one
** fwt_shared launch: each CTA loads a 512-element piece into shared
** memory and does them there with a barrier per stage.  Consecutive CTAs
** stream consecutive data, so they share DRAM rows, and nothing is reused
** within a pass (OWL's FWT: cache-insensitive, row-sharing).  The stages
** act on different index bits, so their order does not change the result;
** arithmetic is modulo 2^32, so the GPU and the CPU agree exactly.
*/
#include "bench.h"

#define LOG2_CHUNK 9             /* 512 elements: one butterfly per thread per stage */
#define CHUNK (1 << LOG2_CHUNK)
#define THREADS 256

/* Sizes and strides are powers of two, so index arithmetic is 32-bit shifts
   and masks (as in the SDK kernels): the passes stay memory-bound.  The
   batch holds fewer than 2^31 elements. */
__global__ void fwt_global(uint32_t *d, int log2stride, int nbutterflies)
{
    int pos = blockIdx.x * blockDim.x + threadIdx.x;
    if (pos >= nbutterflies) return;
    int stride = 1 << log2stride;
    int i0 = ((pos >> log2stride) << (log2stride + 1)) + (pos & (stride - 1)), i1 = i0 + stride;
    uint32_t x = d[i0], y = d[i1];
    d[i0] = x + y;
    d[i1] = x - y;
}

__global__ void fwt_shared(uint32_t *d)
{
    __shared__ uint32_t s[CHUNK];
    uint32_t *piece = d + (size_t)blockIdx.x * CHUNK;
    for (int i = threadIdx.x; i < CHUNK; i += blockDim.x) s[i] = piece[i];
    __syncthreads();
    for (int ls = LOG2_CHUNK - 1; ls >= 0; ls--) {
        int stride = 1 << ls;
        for (int j = threadIdx.x; j < CHUNK / 2; j += blockDim.x) {
            int i0 = ((j >> ls) << (ls + 1)) + (j & (stride - 1)), i1 = i0 + stride;
            uint32_t x = s[i0], y = s[i1];
            s[i0] = x + y;
            s[i1] = x - y;
        }
        __syncthreads();
    }
    for (int i = threadIdx.x; i < CHUNK; i += blockDim.x) piece[i] = s[i];
}

/* CPU reference: the textbook in-place transform, stride 1 upwards. */
static void fwt_cpu(uint32_t *v, int n)
{
    for (int stride = 1; stride < n; stride <<= 1)
        for (int i = 0; i < n; i += 2 * stride)
            for (int k = i; k < i + stride; k++) {
                uint32_t x = v[k], y = v[k + stride];
                v[k] = x + y;
                v[k + stride] = x - y;
            }
}

int main(int argc, char **argv)
{
    bench_args a = bench_parse(argc, argv, "walsh");
    int log2n = BENCH_PICK(a, 14, 17, 20);
    int batch = BENCH_PICK(a, 2, 4, 8);
    int n = 1 << log2n;
    size_t total = (size_t)n * batch;
    bench_rng rng = bench_rng_new(a.seed);

    uint32_t *h = (uint32_t *)malloc(sizeof(uint32_t) * total);
    for (size_t i = 0; i < total; i++) h[i] = (uint32_t)((int)bench_below(&rng, 201) - 100);
    uint32_t *d;
    BENCH_CUDA(cudaMalloc(&d, sizeof(uint32_t) * total));
    BENCH_CUDA(cudaMemcpy(d, h, sizeof(uint32_t) * total, cudaMemcpyHostToDevice));
    int nbf = (int)(total / 2);
    /* A butterfly's pair never crosses a signal (stride < n), so the whole
       batch is one index space. */
    for (int ls = log2n - 1; ls >= LOG2_CHUNK; ls--) {
        fwt_global<<<(nbf + THREADS - 1) / THREADS, THREADS>>>(d, ls, nbf);
        BENCH_LAUNCHED();
    }
    fwt_shared<<<(int)(total / CHUNK), THREADS>>>(d);
    BENCH_LAUNCHED();

    uint32_t *got = (uint32_t *)malloc(sizeof(uint32_t) * total);
    BENCH_CUDA(cudaMemcpy(got, d, sizeof(uint32_t) * total, cudaMemcpyDeviceToHost));
    for (int b = 0; b < batch; b++) fwt_cpu(h + (size_t)b * n, n);
    bench_corrupt(got, sizeof(uint32_t), total / 3);
    size_t bad = bench_check_u32(got, h, total, "walsh");

    char detail[64];
    snprintf(detail, sizeof detail, "n=2^%d batch=%d", log2n, batch);
    cudaFree(d);
    free(h); free(got);
    return bench_finish(&a, bad, detail);
}
