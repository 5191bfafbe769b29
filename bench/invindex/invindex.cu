/*
** invindex.cu -- MapReduce-style inverted index: for every URL, the list of
** documents that link to it (the Mars InvertedIndex task, written from
** scratch).
**
** A document is DOC_TOK (16) 32-bit tokens; a token with the top bit set is a
** link to URL (token & URL_MASK), any other token is a word.  One thread
** per document: iix_count counts each URL's links with atomics, the host
** turns the counts into list offsets (an exclusive scan), and iix_fill walks
** the documents again and appends the document id to each linked URL's
** postings list through an atomic cursor.  Documents are row-major, so a
** warp's loads touch 32 lines and come back to them token after token (the
** reuse that survives in L1 only under few active warps, OWL's IIX).  The
** order inside a list depends on the schedule, so lists are sorted before
** they are compared with the CPU's.
*/
#include "bench.h"

#define DOC_TOK 16              /* 64 bytes: one L1 line per document */
#define LINK 0x80000000u
#define URL_MASK 0x000fffffu

__global__ void iix_count(const uint32_t *docs, uint32_t *df, int ndocs)
{
    int doc = blockIdx.x * blockDim.x + threadIdx.x;
    if (doc >= ndocs) return;
    const uint32_t *t = docs + (size_t)doc * DOC_TOK;
    for (int i = 0; i < DOC_TOK; i++) {
        uint32_t tok = t[i];
        if (tok & LINK) atomicAdd(&df[tok & URL_MASK], 1u);
    }
}

__global__ void iix_fill(const uint32_t *docs, const uint32_t *start, uint32_t *cursor,
                         uint32_t *postings, int ndocs)
{
    int doc = blockIdx.x * blockDim.x + threadIdx.x;
    if (doc >= ndocs) return;
    const uint32_t *t = docs + (size_t)doc * DOC_TOK;
    for (int i = 0; i < DOC_TOK; i++) {
        uint32_t tok = t[i];
        if (tok & LINK) {
            uint32_t url = tok & URL_MASK;
            postings[start[url] + atomicAdd(&cursor[url], 1u)] = (uint32_t)doc;
        }
    }
}

static int cmp_u32(const void *x, const void *y)
{
    uint32_t a = *(const uint32_t *)x, b = *(const uint32_t *)y;
    return a < b ? -1 : a > b;
}

int main(int argc, char **argv)
{
    bench_args a = bench_parse(argc, argv, "invindex");
    int ndocs = BENCH_PICK(a, 4096, 28672, 229376);
    int nurl = BENCH_PICK(a, 1024, 8192, 65536);
    const int threads = 128;
    bench_rng rng = bench_rng_new(a.seed);

    /* About one token in six is a link; a quarter of the links go to 256
       popular URLs (a site's navigation), the rest anywhere. */
    size_t ntok = (size_t)ndocs * DOC_TOK;
    uint32_t *docs = (uint32_t *)malloc(sizeof(uint32_t) * ntok);
    uint32_t *df = (uint32_t *)calloc(nurl, sizeof(uint32_t));
    size_t nlinks = 0;
    for (size_t i = 0; i < ntok; i++) {
        if (bench_below(&rng, 6) == 0) {
            uint32_t u = bench_below(&rng, (uint32_t)nurl);
            if (bench_below(&rng, 4) == 0) u %= 256;
            docs[i] = LINK | u;
            df[u]++;
            nlinks++;
        } else {
            docs[i] = bench_below(&rng, 1u << 30);
        }
    }
    uint32_t *start = (uint32_t *)malloc(sizeof(uint32_t) * (nurl + 1));
    start[0] = 0;
    for (int u = 0; u < nurl; u++) start[u + 1] = start[u] + df[u];

    uint32_t *d_docs, *d_df, *d_start, *d_cursor, *d_post;
    BENCH_CUDA(cudaMalloc(&d_docs, sizeof(uint32_t) * ntok));
    BENCH_CUDA(cudaMalloc(&d_df, sizeof(uint32_t) * nurl));
    BENCH_CUDA(cudaMalloc(&d_start, sizeof(uint32_t) * nurl));
    BENCH_CUDA(cudaMalloc(&d_cursor, sizeof(uint32_t) * nurl));
    BENCH_CUDA(cudaMalloc(&d_post, sizeof(uint32_t) * (nlinks + 1)));
    BENCH_CUDA(cudaMemcpy(d_docs, docs, sizeof(uint32_t) * ntok, cudaMemcpyHostToDevice));
    BENCH_CUDA(cudaMemset(d_df, 0, sizeof(uint32_t) * nurl));
    BENCH_CUDA(cudaMemset(d_cursor, 0, sizeof(uint32_t) * nurl));
    int blocks = (ndocs + threads - 1) / threads;
    iix_count<<<blocks, threads>>>(d_docs, d_df, ndocs);
    BENCH_LAUNCHED();

    /* The offsets come from the GPU's counts, so a wrong count shows up
       in the lists too. */
    uint32_t *gdf = (uint32_t *)malloc(sizeof(uint32_t) * nurl);
    uint32_t *gstart = (uint32_t *)malloc(sizeof(uint32_t) * (nurl + 1));
    BENCH_CUDA(cudaMemcpy(gdf, d_df, sizeof(uint32_t) * nurl, cudaMemcpyDeviceToHost));
    size_t bad = bench_check_u32(gdf, df, nurl, "df");
    gstart[0] = 0;
    for (int u = 0; u < nurl; u++) gstart[u + 1] = gstart[u] + gdf[u];
    if (bad || gstart[nurl] != nlinks) {
        fprintf(stderr, "counts wrong: %zu links counted, %zu in the documents\n",
                (size_t)gstart[nurl], nlinks);
        return bench_finish(&a, bad ? bad : 1, "counts wrong");
    }
    BENCH_CUDA(cudaMemcpy(d_start, gstart, sizeof(uint32_t) * nurl, cudaMemcpyHostToDevice));
    iix_fill<<<blocks, threads>>>(d_docs, d_start, d_cursor, d_post, ndocs);
    BENCH_LAUNCHED();

    uint32_t *post = (uint32_t *)malloc(sizeof(uint32_t) * (nlinks + 1));
    uint32_t *want = (uint32_t *)malloc(sizeof(uint32_t) * (nlinks + 1));
    uint32_t *fill = (uint32_t *)calloc(nurl, sizeof(uint32_t));
    BENCH_CUDA(cudaMemcpy(post, d_post, sizeof(uint32_t) * nlinks, cudaMemcpyDeviceToHost));
    for (int doc = 0; doc < ndocs; doc++)   /* document order = sorted lists */
        for (int i = 0; i < DOC_TOK; i++) {
            uint32_t tok = docs[(size_t)doc * DOC_TOK + i];
            if (tok & LINK) {
                uint32_t u = tok & URL_MASK;
                want[start[u] + fill[u]++] = (uint32_t)doc;
            }
        }
    bench_corrupt(post, sizeof(uint32_t), nlinks / 2);
    for (int u = 0; u < nurl; u++)
        qsort(post + start[u], df[u], sizeof(uint32_t), cmp_u32);
    bad += bench_check_u32(post, want, nlinks, "postings");

    char detail[80];
    snprintf(detail, sizeof detail, "docs=%d urls=%d links=%zu", ndocs, nurl, nlinks);
    cudaFree(d_docs); cudaFree(d_df); cudaFree(d_start); cudaFree(d_cursor); cudaFree(d_post);
    free(docs); free(df); free(start); free(gdf); free(gstart); free(post); free(want); free(fill);
    return bench_finish(&a, bad, detail);
}
