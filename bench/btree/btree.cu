/*
** btree.cu -- point lookups in a B+tree stored as a flat node array.
**
** The host bulk-loads a B+tree of FANOUT-way nodes; each node is
** [count, keys[FANOUT], ptrs[FANOUT]] where keys[i] is the smallest key
** under ptrs[i] (inner nodes) or a stored key with its value (leaves).
** One thread per query descends from the root, scanning each node's keys
** linearly. All warps share the upper levels (cache-friendly) and scan
** lengths depend on the key, so warps do unequal work.
*/
#include "bench.h"

#define FANOUT 16
#define NODE_INTS (1 + 2 * FANOUT)
#define NOT_FOUND -1

__global__ void btree_find(const int *nodes, int root, int height, const int *queries,
                           int *result, int nq)
{
    int q = blockIdx.x * blockDim.x + threadIdx.x;
    if (q >= nq) return;
    int key = queries[q], node = root;
    for (int level = 0; level < height - 1; level++) {
        const int *nd = nodes + node * NODE_INTS;
        int cnt = nd[0], i = 0;
        while (i + 1 < cnt && nd[1 + i + 1] <= key) i++;
        node = nd[1 + FANOUT + i];
    }
    const int *leaf = nodes + node * NODE_INTS;
    int cnt = leaf[0], val = NOT_FOUND;
    for (int i = 0; i < cnt; i++)
        if (leaf[1 + i] == key) { val = leaf[1 + FANOUT + i]; break; }
    result[q] = val;
}

/* Bulk-load sorted keys; returns node count, sets root and height. */
static int build_tree(const int *keys, const int *vals, int n, int *nodes, int *root, int *height)
{
    int count = 0, level_first = 0, level_n = 0;
    for (int i = 0; i < n; i += FANOUT, count++) {           /* leaves */
        int *nd = nodes + count * NODE_INTS, c = n - i < FANOUT ? n - i : FANOUT;
        nd[0] = c;
        for (int j = 0; j < c; j++) { nd[1 + j] = keys[i + j]; nd[1 + FANOUT + j] = vals[i + j]; }
    }
    level_n = count;
    *height = 1;
    while (level_n > 1) {                                     /* inner levels */
        int first = count;
        for (int i = 0; i < level_n; i += FANOUT, count++) {
            int *nd = nodes + count * NODE_INTS, c = level_n - i < FANOUT ? level_n - i : FANOUT;
            nd[0] = c;
            for (int j = 0; j < c; j++) {
                int child = level_first + i + j;
                nd[1 + j] = nodes[child * NODE_INTS + 1];     /* child's smallest key */
                nd[1 + FANOUT + j] = child;
            }
        }
        level_first = first;
        level_n = count - first;
        (*height)++;
    }
    *root = level_first;
    return count;
}

static int cmp_int(const void *x, const void *y)
{
    int a = *(const int *)x, b = *(const int *)y;
    return (a > b) - (a < b);
}

int main(int argc, char **argv)
{
    bench_args a = bench_parse(argc, argv, "btree");
    int nkeys = BENCH_PICK(a, 65536, 262144, 1048576);
    int nq = BENCH_PICK(a, 16384, 163840, 1638400);
    const int threads = 128;
    bench_rng rng = bench_rng_new(a.seed);

    /* Keys: distinct even numbers (random gaps), so odd queries miss. */
    int *keys = (int *)malloc(sizeof(int) * nkeys), *vals = (int *)malloc(sizeof(int) * nkeys);
    int k = 0;
    for (int i = 0; i < nkeys; i++) {
        k += 2 * (1 + (int)bench_below(&rng, 8));
        keys[i] = k;
        vals[i] = (int)(bench_next(&rng) & 0x3FFFFFFF);
    }
    int maxnodes = 2 * (nkeys / FANOUT + 2) + 64;
    int *nodes = (int *)calloc((size_t)maxnodes * NODE_INTS, sizeof(int));
    int root, height, nn = build_tree(keys, vals, nkeys, nodes, &root, &height);

    /* Queries: 3/4 existing keys, 1/4 random (mostly misses). */
    int *qs = (int *)malloc(sizeof(int) * nq);
    for (int q = 0; q < nq; q++)
        qs[q] = bench_below(&rng, 4) ? keys[bench_below(&rng, (uint32_t)nkeys)]
                                     : (int)bench_below(&rng, (uint32_t)k + 16);

    int *d_nodes, *d_q, *d_res;
    BENCH_CUDA(cudaMalloc(&d_nodes, sizeof(int) * nn * NODE_INTS));
    BENCH_CUDA(cudaMalloc(&d_q, sizeof(int) * nq));
    BENCH_CUDA(cudaMalloc(&d_res, sizeof(int) * nq));
    BENCH_CUDA(cudaMemcpy(d_nodes, nodes, sizeof(int) * nn * NODE_INTS, cudaMemcpyHostToDevice));
    BENCH_CUDA(cudaMemcpy(d_q, qs, sizeof(int) * nq, cudaMemcpyHostToDevice));
    btree_find<<<(nq + threads - 1) / threads, threads>>>(d_nodes, root, height, d_q, d_res, nq);
    BENCH_LAUNCHED();

    int *res = (int *)malloc(sizeof(int) * nq), *want = (int *)malloc(sizeof(int) * nq);
    BENCH_CUDA(cudaMemcpy(res, d_res, sizeof(int) * nq, cudaMemcpyDeviceToHost));
    /* Reference: binary search over the sorted key array (independent of
       the tree layout, so it also checks the bulk loader). */
    int hits = 0;
    for (int q = 0; q < nq; q++) {
        const int *hit = (const int *)bsearch(&qs[q], keys, nkeys, sizeof(int), cmp_int);
        want[q] = hit ? vals[hit - keys] : NOT_FOUND;
        hits += hit != NULL;
    }
    bench_corrupt(res, sizeof(int), nq / 2);
    size_t bad = bench_check_u32((const uint32_t *)res, (const uint32_t *)want, nq, "value");

    char detail[80];
    snprintf(detail, sizeof detail, "keys=%d nodes=%d height=%d queries=%d hits=%d", nkeys, nn,
             height, nq, hits);
    cudaFree(d_nodes); cudaFree(d_q); cudaFree(d_res);
    free(keys); free(vals); free(nodes); free(qs); free(res); free(want);
    return bench_finish(&a, bad, detail);
}
