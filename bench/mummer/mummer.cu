/*
** mummer.cu -- exact-match search of DNA reads against a reference trie.
**
** The host builds a depth-limited suffix trie of a reference sequence
** (4 children per node, one int each). One thread per read walks the trie
** from every start position of its read as far as the read matches, and
** reports the total and the longest match length (the core of MUMmerGPU's
** matching). Reads have 16..64 bases and are sorted by length, as a batch
** from a read aligner would be, so whole warps get short or long reads.
** Pointer chasing through a tree whose top levels all threads share:
** memory-bound, cache-sensitive, unequal warps.
*/
#include "bench.h"

#define DEPTH 12          /* trie depth: longest match reported */
#define MIN_READ 16
#define MAX_READ 64       /* read stride in the read buffer */

__global__ void mummer_match(const int *trie, const unsigned char *reads, const int *lens,
                             int nreads, uint32_t *total, uint32_t *longest)
{
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r >= nreads) return;
    const unsigned char *read = reads + (size_t)r * MAX_READ;
    int rlen = lens[r];
    uint32_t sum = 0, best = 0;
    for (int s = 0; s < rlen; s++) {
        int node = 0, len = 0;
        while (s + len < rlen) {
            int child = trie[node * 4 + read[s + len]];
            if (child < 0) break;
            node = child;
            len++;
        }
        sum += (uint32_t)len;
        best = max(best, (uint32_t)len);
    }
    total[r] = sum;
    longest[r] = best;
}

/* Insert every length-DEPTH suffix window of ref; returns the node count. */
static int build_trie(const unsigned char *ref, int n, int *trie, int cap)
{
    int nodes = 1;
    for (int c = 0; c < 4; c++) trie[c] = -1;
    for (int i = 0; i < n; i++) {
        int node = 0;
        for (int d = 0; d < DEPTH && i + d < n; d++) {
            int *slot = &trie[node * 4 + ref[i + d]];
            if (*slot < 0) {
                if (nodes == cap) return nodes;
                for (int c = 0; c < 4; c++) trie[nodes * 4 + c] = -1;
                *slot = nodes++;
            }
            node = *slot;
        }
    }
    return nodes;
}

static int cpu_match_len(const unsigned char *ref, int n, const unsigned char *q, int qlen)
{
    /* Longest prefix of q (at most DEPTH) that occurs anywhere in ref. */
    int best = 0;
    for (int i = 0; i < n && best < DEPTH; i++) {
        int l = 0;
        while (l < qlen && l < DEPTH && i + l < n && ref[i + l] == q[l]) l++;
        if (l > best) best = l;
    }
    return best;
}

int main(int argc, char **argv)
{
    bench_args a = bench_parse(argc, argv, "mummer");
    int reflen = BENCH_PICK(a, 4096, 16384, 65536);
    int nreads = BENCH_PICK(a, 2048, 20480, 204800);
    const int threads = 128;
    bench_rng rng = bench_rng_new(a.seed);

    unsigned char *ref = (unsigned char *)malloc(reflen);
    for (int i = 0; i < reflen; i++) ref[i] = (unsigned char)bench_below(&rng, 4);
    int cap = reflen * DEPTH + 1;
    int *trie = (int *)malloc(sizeof(int) * 4 * cap);
    int nodes = build_trie(ref, reflen, trie, cap);

    /* Reads: copies of reference windows with ~1 mutation in 10 bases, or
       (one in 8) fully random reads that match only by chance. */
    int *lens = (int *)malloc(sizeof(int) * nreads), count[MAX_READ + 1] = { 0 };
    for (int r = 0; r < nreads; r++) count[MIN_READ + bench_below(&rng, MAX_READ - MIN_READ + 1)]++;
    for (int len = MIN_READ, r = 0; len <= MAX_READ; len++)     /* sorted by length */
        while (count[len]--) lens[r++] = len;
    unsigned char *reads = (unsigned char *)calloc((size_t)nreads, MAX_READ);
    for (int r = 0; r < nreads; r++) {
        unsigned char *q = reads + (size_t)r * MAX_READ;
        int random_read = bench_below(&rng, 8) == 0;
        int start = (int)bench_below(&rng, (uint32_t)(reflen - MAX_READ));
        for (int i = 0; i < lens[r]; i++) {
            q[i] = ref[start + i];
            if (random_read || bench_below(&rng, 10) == 0) q[i] = (unsigned char)bench_below(&rng, 4);
        }
    }

    int *d_trie, *d_lens;
    unsigned char *d_reads;
    uint32_t *d_total, *d_longest;
    BENCH_CUDA(cudaMalloc(&d_trie, sizeof(int) * 4 * nodes));
    BENCH_CUDA(cudaMalloc(&d_reads, (size_t)nreads * MAX_READ));
    BENCH_CUDA(cudaMalloc(&d_lens, sizeof(int) * nreads));
    BENCH_CUDA(cudaMalloc(&d_total, sizeof(uint32_t) * nreads));
    BENCH_CUDA(cudaMalloc(&d_longest, sizeof(uint32_t) * nreads));
    BENCH_CUDA(cudaMemcpy(d_trie, trie, sizeof(int) * 4 * nodes, cudaMemcpyHostToDevice));
    BENCH_CUDA(cudaMemcpy(d_reads, reads, (size_t)nreads * MAX_READ, cudaMemcpyHostToDevice));
    BENCH_CUDA(cudaMemcpy(d_lens, lens, sizeof(int) * nreads, cudaMemcpyHostToDevice));
    mummer_match<<<(nreads + threads - 1) / threads, threads>>>(d_trie, d_reads, d_lens, nreads,
                                                                d_total, d_longest);
    BENCH_LAUNCHED();

    uint32_t *total = (uint32_t *)malloc(sizeof(uint32_t) * nreads);
    uint32_t *longest = (uint32_t *)malloc(sizeof(uint32_t) * nreads);
    BENCH_CUDA(cudaMemcpy(total, d_total, sizeof(uint32_t) * nreads, cudaMemcpyDeviceToHost));
    BENCH_CUDA(cudaMemcpy(longest, d_longest, sizeof(uint32_t) * nreads, cudaMemcpyDeviceToHost));

    /* Reference answer by walking the host trie; the 16 shortest and 16 longest reads are also
       checked by brute-force scanning of the reference, which validates the
       trie itself. */
    uint32_t *wt = (uint32_t *)malloc(sizeof(uint32_t) * nreads);
    uint32_t *wl = (uint32_t *)malloc(sizeof(uint32_t) * nreads);
    size_t bad = 0;
    for (int r = 0; r < nreads; r++) {
        const unsigned char *q = reads + (size_t)r * MAX_READ;
        uint32_t sum = 0, best = 0;
        for (int s = 0; s < lens[r]; s++) {
            int node = 0, len = 0;
            while (s + len < lens[r] && trie[node * 4 + q[s + len]] >= 0) node = trie[node * 4 + q[s + len++]];
            if ((r < 16 || r >= nreads - 16) && len != cpu_match_len(ref, reflen, q + s, lens[r] - s)) bad++;
            sum += (uint32_t)len;
            if ((uint32_t)len > best) best = (uint32_t)len;
        }
        wt[r] = sum;
        wl[r] = best;
    }
    if (bad) fprintf(stderr, "mummer: host trie disagrees with brute force %zu times\n", bad);
    bench_corrupt(total, sizeof(uint32_t), nreads / 2);
    bad += bench_check_u32(total, wt, nreads, "total");
    bad += bench_check_u32(longest, wl, nreads, "longest");

    char detail[80];
    snprintf(detail, sizeof detail, "reference=%d nodes=%d reads=%d", reflen, nodes, nreads);
    cudaFree(d_trie); cudaFree(d_lens); cudaFree(d_reads); cudaFree(d_total); cudaFree(d_longest);
    free(ref); free(trie); free(lens); free(reads); free(total); free(longest); free(wt); free(wl);
    return bench_finish(&a, bad, detail);
}
