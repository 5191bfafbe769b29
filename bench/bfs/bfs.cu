/*
** bfs.cu -- level-synchronous breadth-first search on a CSR graph.
**
** One thread per node. bfs_expand lets every frontier node relax its
** neighbours (irregular gathers through the edge list, so warps do very
** different amounts of work); bfs_advance turns the newly reached nodes
** into the next frontier and raises a flag while there is more to do.
*/
#include "bench.h"

__global__ void bfs_expand(const int *row_start, const int *edges, const int *frontier,
                           int *cost, int *reached, int n, int level)
{
    int v = blockIdx.x * blockDim.x + threadIdx.x;
    if (v >= n || !frontier[v]) return;
    for (int e = row_start[v]; e < row_start[v + 1]; e++) {
        int u = edges[e];
        if (cost[u] < 0) {
            cost[u] = level + 1;    /* every writer stores the same value */
            reached[u] = 1;
        }
    }
}

__global__ void bfs_advance(int *frontier, int *reached, int *more, int n)
{
    int v = blockIdx.x * blockDim.x + threadIdx.x;
    if (v >= n) return;
    int r = reached[v];
    frontier[v] = r;
    if (r) {
        reached[v] = 0;
        *more = 1;
    }
}

/* Random graph: each node gets 1..2*avg-1 out-edges, half of them to
   nearby node ids (locality) and half anywhere. */
static void make_graph(bench_rng *rng, int n, int avg, int **rs_out, int **ed_out, int *m_out)
{
    int *rs = (int *)malloc(sizeof(int) * (n + 1));
    rs[0] = 0;
    for (int v = 0; v < n; v++) rs[v + 1] = rs[v] + 1 + (int)bench_below(rng, 2 * avg - 1);
    int m = rs[n];
    int *ed = (int *)malloc(sizeof(int) * m);
    for (int v = 0; v < n; v++)
        for (int e = rs[v]; e < rs[v + 1]; e++) {
            if (bench_below(rng, 2)) ed[e] = (int)bench_below(rng, (uint32_t)n);
            else ed[e] = (v + (int)bench_below(rng, 64) - 32 + n) % n;
        }
    *rs_out = rs; *ed_out = ed; *m_out = m;
}

static void cpu_bfs(const int *rs, const int *ed, int n, int src, int *cost)
{
    int *queue = (int *)malloc(sizeof(int) * n);
    for (int v = 0; v < n; v++) cost[v] = -1;
    int head = 0, tail = 0;
    cost[src] = 0;
    queue[tail++] = src;
    while (head < tail) {
        int v = queue[head++];
        for (int e = rs[v]; e < rs[v + 1]; e++)
            if (cost[ed[e]] < 0) { cost[ed[e]] = cost[v] + 1; queue[tail++] = ed[e]; }
    }
    free(queue);
}

int main(int argc, char **argv)
{
    bench_args a = bench_parse(argc, argv, "bfs");
    int n = BENCH_PICK(a, 8192, 98304, 1048576);
    const int avg = 6, src = 0, threads = 256;
    bench_rng rng = bench_rng_new(a.seed);
    int *rs, *ed, m;
    make_graph(&rng, n, avg, &rs, &ed, &m);

    int *cost = (int *)malloc(sizeof(int) * n);
    int *zeros = (int *)calloc(n, sizeof(int));
    for (int v = 0; v < n; v++) cost[v] = -1;
    cost[src] = 0;

    int *d_rs, *d_ed, *d_front, *d_cost, *d_reached, *d_more;
    BENCH_CUDA(cudaMalloc(&d_rs, sizeof(int) * (n + 1)));
    BENCH_CUDA(cudaMalloc(&d_ed, sizeof(int) * m));
    BENCH_CUDA(cudaMalloc(&d_front, sizeof(int) * n));
    BENCH_CUDA(cudaMalloc(&d_cost, sizeof(int) * n));
    BENCH_CUDA(cudaMalloc(&d_reached, sizeof(int) * n));
    BENCH_CUDA(cudaMalloc(&d_more, sizeof(int)));
    BENCH_CUDA(cudaMemcpy(d_rs, rs, sizeof(int) * (n + 1), cudaMemcpyHostToDevice));
    BENCH_CUDA(cudaMemcpy(d_ed, ed, sizeof(int) * m, cudaMemcpyHostToDevice));
    BENCH_CUDA(cudaMemcpy(d_cost, cost, sizeof(int) * n, cudaMemcpyHostToDevice));
    BENCH_CUDA(cudaMemcpy(d_front, zeros, sizeof(int) * n, cudaMemcpyHostToDevice));
    BENCH_CUDA(cudaMemset(d_reached, 0, sizeof(int) * n));
    int one = 1;
    BENCH_CUDA(cudaMemcpy(d_front + src, &one, sizeof(int), cudaMemcpyHostToDevice));

    int blocks = (n + threads - 1) / threads, levels = 0, more = 1;
    while (more && levels < n) {
        BENCH_CUDA(cudaMemset(d_more, 0, sizeof(int)));
        bfs_expand<<<blocks, threads>>>(d_rs, d_ed, d_front, d_cost, d_reached, n, levels);
        BENCH_LAUNCHED();
        bfs_advance<<<blocks, threads>>>(d_front, d_reached, d_more, n);
        BENCH_LAUNCHED();
        BENCH_CUDA(cudaMemcpy(&more, d_more, sizeof(int), cudaMemcpyDeviceToHost));
        levels++;
    }
    BENCH_CUDA(cudaMemcpy(cost, d_cost, sizeof(int) * n, cudaMemcpyDeviceToHost));

    int *want = (int *)malloc(sizeof(int) * n);
    cpu_bfs(rs, ed, n, src, want);
    bench_corrupt(cost, sizeof(int), n / 3);
    size_t bad = bench_check_u32((const uint32_t *)cost, (const uint32_t *)want, n, "cost");

    char detail[96];
    snprintf(detail, sizeof detail, "nodes=%d edges=%d levels=%d", n, m, levels);
    cudaFree(d_rs); cudaFree(d_ed); cudaFree(d_front); cudaFree(d_cost);
    cudaFree(d_reached); cudaFree(d_more);
    free(rs); free(ed); free(cost); free(zeros); free(want);
    return bench_finish(&a, bad, detail);
}
