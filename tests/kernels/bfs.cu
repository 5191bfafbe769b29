// bfs.cu -- one level of breadth-first search on a CSR graph, frontier-queue
// style: one thread per frontier node loops over that node's edges (so work
// per thread follows the degree distribution: divergent), claims unvisited
// neighbours with atomicCAS and appends them to the next frontier.  The host
// swaps frontiers and relaunches until the next frontier is empty.

extern "C" __global__ void bfs_step(const int *row_ptr, const int *col_idx,
                                    const int *frontier, int frontier_size,
                                    int *dist, int *next_frontier,
                                    int *next_size, int level)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= frontier_size)
        return;
    int v = frontier[t];
    for (int e = row_ptr[v]; e < row_ptr[v + 1]; e++) {
        int u = col_idx[e];
        if (dist[u] != -1)
            continue;                 // cheap test before the atomic
        if (atomicCAS(&dist[u], -1, level + 1) == -1)
            next_frontier[atomicAdd(next_size, 1)] = u;
    }
}
