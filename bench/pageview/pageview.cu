/*
** pageview.cu -- MapReduce-style page-view count over a web-server log.
**
** The log is an array of 64-byte records, each one URL padded with zeros.
** pvc_map hashes every record (one thread per record, FNV-1a over its 16
** words) into a key; pvc_count adds one view per key to its bucket of a
** global count table with atomics.  Records are row-major, so the 32
** lanes of a warp touch 32 different lines per word and come back to them
** for the next 15 words: a warp's lines are reused only if they survive in
** L1 while the other warps of the core run: reuse inside a CTA that a
** scheduler favouring few warps (GTO, OWL's CTA groups) keeps and round-robin
** over 32 warps (2x the L1's lines) loses (OWL's PVC).  Counts are integers.
*/
#include "bench.h"

#define REC_WORDS 16            /* 64-byte record = one L1 line */
#define TABLE 4096              /* count-table buckets (power of two) */
#define PVC_EMPTY 0xffffffffu   /* key of an empty slot (GPU and CPU treat it alike) */

__device__ __host__ static inline uint32_t pvc_hash_words(const uint32_t *w)
{
    uint32_t h = 2166136261u;
    for (int i = 0; i < REC_WORDS; i++) {
        uint32_t v = w[i];
        for (int b = 0; b < 4; b++) {   /* FNV-1a over the word's bytes */
            h ^= (v >> (8 * b)) & 0xffu;
            h *= 16777619u;
        }
    }
    return h;
}

__global__ void pvc_map(const uint32_t *log, uint32_t *keys, int nrec)
{
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r >= nrec) return;
    const uint32_t *rec = log + (size_t)r * REC_WORDS;
    keys[r] = rec[0] ? pvc_hash_words(rec) : PVC_EMPTY;   /* an empty slot emits nothing */
}

/* The reduce side: one view per non-empty record into its key's bucket.
   Keys are read coalesced; popular pages make some buckets hot. */
__global__ void pvc_count(const uint32_t *keys, uint32_t *counts, int nrec)
{
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r < nrec && keys[r] != PVC_EMPTY) atomicAdd(&counts[keys[r] & (TABLE - 1)], 1u);
}

/* Fill `rec` with the URL of page `page`, zero-padded to 64 bytes. */
static void make_record(uint32_t *rec, uint32_t page)
{
    char s[4 * REC_WORDS];
    memset(s, 0, sizeof s);
    snprintf(s, sizeof s, "http://www.site%03u.example/page%05u.html", page % 997u, page);
    memcpy(rec, s, sizeof s);
}

int main(int argc, char **argv)
{
    bench_args a = bench_parse(argc, argv, "pageview");
    int nrec = BENCH_PICK(a, 8192, 57344, 458752);
    int npages = BENCH_PICK(a, 512, 4096, 32768);
    const int threads = 128;
    bench_rng rng = bench_rng_new(a.seed);

    /* Popular pages are viewed more often (a skewed log); one record in 64
       is an empty slot that counts nothing. */
    uint32_t *log = (uint32_t *)calloc((size_t)nrec * REC_WORDS, sizeof(uint32_t));
    for (int r = 0; r < nrec; r++) {
        if (bench_below(&rng, 64) == 0) continue;
        uint32_t p = bench_below(&rng, (uint32_t)npages);
        if (bench_below(&rng, 2)) p = p % (uint32_t)(npages / 16 + 1);
        make_record(log + (size_t)r * REC_WORDS, p);
    }

    uint32_t *d_log, *d_keys, *d_counts;
    size_t logb = sizeof(uint32_t) * nrec * REC_WORDS;
    BENCH_CUDA(cudaMalloc(&d_log, logb));
    BENCH_CUDA(cudaMalloc(&d_keys, sizeof(uint32_t) * nrec));
    BENCH_CUDA(cudaMalloc(&d_counts, sizeof(uint32_t) * TABLE));
    BENCH_CUDA(cudaMemcpy(d_log, log, logb, cudaMemcpyHostToDevice));
    BENCH_CUDA(cudaMemset(d_counts, 0, sizeof(uint32_t) * TABLE));
    int blocks = (nrec + threads - 1) / threads;
    pvc_map<<<blocks, threads>>>(d_log, d_keys, nrec);
    BENCH_LAUNCHED();
    pvc_count<<<blocks, threads>>>(d_keys, d_counts, nrec);
    BENCH_LAUNCHED();

    uint32_t *keys = (uint32_t *)malloc(sizeof(uint32_t) * nrec);
    uint32_t counts[TABLE], want_keys_bad = 0, want[TABLE];
    BENCH_CUDA(cudaMemcpy(keys, d_keys, sizeof(uint32_t) * nrec, cudaMemcpyDeviceToHost));
    BENCH_CUDA(cudaMemcpy(counts, d_counts, sizeof counts, cudaMemcpyDeviceToHost));
    memset(want, 0, sizeof want);
    for (int r = 0; r < nrec; r++) {
        const uint32_t *rec = log + (size_t)r * REC_WORDS;
        uint32_t h = rec[0] ? pvc_hash_words(rec) : PVC_EMPTY;
        if (keys[r] != h) {
            if (want_keys_bad < 5) fprintf(stderr, "keys[%d]: got %u want %u\n", r, keys[r], h);
            want_keys_bad++;
        }
        if (h != PVC_EMPTY) want[h & (TABLE - 1)]++;
    }
    bench_corrupt(counts, sizeof(uint32_t), TABLE / 3);
    size_t bad = want_keys_bad + bench_check_u32(counts, want, TABLE, "counts");

    char detail[64];
    snprintf(detail, sizeof detail, "records=%d pages=%d", nrec, npages);
    cudaFree(d_log); cudaFree(d_keys); cudaFree(d_counts);
    free(log); free(keys);
    return bench_finish(&a, bad, detail);
}
