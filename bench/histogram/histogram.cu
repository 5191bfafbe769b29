/*
** histogram.cu -- 256-bin byte histogram with shared-memory atomics.
**
** Each block clears a private 256-bin histogram in shared memory, walks
** its grid-stride share of the input four bytes per word with atomicAdd
** on the shared bins, then merges its bins into the global histogram with
** global atomicAdd. Barriers separate the three phases. The input is
** skewed (a few hot byte values), so shared atomics collide often.
*/
#include "bench.h"

#define BINS 256

__global__ void histo_shared(const uint32_t *words, int nwords, uint32_t *hist)
{
    __shared__ uint32_t bins[BINS];
    for (int b = threadIdx.x; b < BINS; b += blockDim.x) bins[b] = 0;
    __syncthreads();
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < nwords; i += gridDim.x * blockDim.x) {
        uint32_t w = words[i];
        atomicAdd(&bins[w & 0xFFu], 1u);
        atomicAdd(&bins[(w >> 8) & 0xFFu], 1u);
        atomicAdd(&bins[(w >> 16) & 0xFFu], 1u);
        atomicAdd(&bins[w >> 24], 1u);
    }
    __syncthreads();
    for (int b = threadIdx.x; b < BINS; b += blockDim.x)
        if (bins[b]) atomicAdd(&hist[b], bins[b]);
}

int main(int argc, char **argv)
{
    bench_args a = bench_parse(argc, argv, "histogram");
    int nwords = BENCH_PICK(a, 1 << 18, 1 << 21, 1 << 24);
    int blocks = BENCH_PICK(a, 32, 128, 512);
    const int threads = 256;
    bench_rng rng = bench_rng_new(a.seed);

    /* Bytes: half from 8 hot values, the rest a triangular spread. */
    uint32_t *words = (uint32_t *)malloc(sizeof(uint32_t) * nwords);
    for (int i = 0; i < nwords; i++) {
        uint32_t w = 0;
        for (int k = 0; k < 4; k++) {
            uint32_t b = bench_below(&rng, 2) ? 32u * bench_below(&rng, 8)
                                              : (bench_below(&rng, 256) + bench_below(&rng, 256)) / 2;
            w |= b << (8 * k);
        }
        words[i] = w;
    }
    uint32_t *d_words, *d_hist;
    BENCH_CUDA(cudaMalloc(&d_words, sizeof(uint32_t) * nwords));
    BENCH_CUDA(cudaMalloc(&d_hist, sizeof(uint32_t) * BINS));
    BENCH_CUDA(cudaMemcpy(d_words, words, sizeof(uint32_t) * nwords, cudaMemcpyHostToDevice));
    BENCH_CUDA(cudaMemset(d_hist, 0, sizeof(uint32_t) * BINS));
    histo_shared<<<blocks, threads>>>(d_words, nwords, d_hist);
    BENCH_LAUNCHED();

    uint32_t hist[BINS], want[BINS];
    BENCH_CUDA(cudaMemcpy(hist, d_hist, sizeof hist, cudaMemcpyDeviceToHost));
    memset(want, 0, sizeof want);
    for (int i = 0; i < nwords; i++)
        for (int k = 0; k < 4; k++) want[(words[i] >> (8 * k)) & 0xFFu]++;
    bench_corrupt(hist, sizeof(uint32_t), 37);
    size_t bad = bench_check_u32(hist, want, BINS, "hist");

    char detail[48];
    snprintf(detail, sizeof detail, "bytes=%d blocks=%d", 4 * nwords, blocks);
    cudaFree(d_words); cudaFree(d_hist);
    free(words);
    return bench_finish(&a, bad, detail);
}
