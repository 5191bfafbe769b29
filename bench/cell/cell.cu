/*
** cell.cu -- a 3D cellular automaton, two generations per launch.
**
** A block of 8x8x8 threads (16 warps) loads an 8^3 tile of the grid with a
** two-cell apron from global memory into shared memory. After a barrier
** the outer layer exits, the 6^3 interior computes the first generation
** from its 26 neighbours, and after a second barrier the 4^3 core computes
** the second one and stores it. Warps of the two outer z layers therefore
** only load and leave, those of the next layers stop after the first
** generation, the rest run both: every block holds some very short warps
** (max/min about 9). Rule: an excitable medium with four states: survive
** and birth by the alive-neighbour count, no birth beside a crowd of dying
** cells, and dying cells count down through the extra states.
*/
#include "bench.h"

#define CELL_TILE 8             /* threads (and loaded cells) per side */
#define CELL_OUT 4              /* cells written per side: TILE - 2 * 2 */
#define CELL_STATES 4           /* 0 dead, 1 alive, 2..3 dying */
#define CELL_SURVIVE 0x1f0u     /* alive neighbour counts 4..8 keep a cell alive */
#define CELL_BIRTH 0x1c0u       /* counts 6..8 bring a dead cell to life, */
#define CELL_CROWD 4            /* unless 4 or more neighbours are dying */

/* Next state of a cell in state 's' with 'alive' live and 'dying'
   dying neighbours: an excitable medium, where a crowd of dying
   neighbours keeps a dead cell from being born. */
__host__ __device__ static inline unsigned char cell_rule(unsigned s, unsigned alive,
                                                          unsigned dying)
{
    if (s == 0) return (CELL_BIRTH >> alive) & 1u && dying < CELL_CROWD;
    if (s == 1) return (CELL_SURVIVE >> alive) & 1u ? 1 : 2;
    return (unsigned char)((s + 1) % CELL_STATES);
}

/* Next state of tile cell (x, y, z) from its 26 neighbours in 't'. */
__device__ static inline unsigned char cell_step(unsigned char (*t)[CELL_TILE][CELL_TILE],
                                                 int x, int y, int z)
{
    unsigned alive = 0, dying = 0;
#pragma unroll
    for (int dz = -1; dz <= 1; dz++)
#pragma unroll
        for (int dy = -1; dy <= 1; dy++)
#pragma unroll
            for (int dx = -1; dx <= 1; dx++)
                if (dx | dy | dz) {
                    unsigned c = t[z + dz][y + dy][x + dx];
                    alive += c == 1;
                    dying += c >= 2;
                }
    return cell_rule(t[z][y][x], alive, dying);
}

__global__ void cell_evolve(const unsigned char *in, unsigned char *out, int side)
{
    __shared__ unsigned char a[CELL_TILE][CELL_TILE][CELL_TILE];
    __shared__ unsigned char b[CELL_TILE][CELL_TILE][CELL_TILE];
    int x = threadIdx.x, y = threadIdx.y, z = threadIdx.z;
    int gx = blockIdx.x * CELL_OUT + x - 2, gy = blockIdx.y * CELL_OUT + y - 2;
    int gz = blockIdx.z * CELL_OUT + z - 2;
    bool inside = (unsigned)gx < (unsigned)side && (unsigned)gy < (unsigned)side &&
                  (unsigned)gz < (unsigned)side;
    size_t g = ((size_t)gz * side + gy) * side + gx;
    a[z][y][x] = inside ? in[g] : 0;            /* outside the grid: dead */
    __syncthreads();
    /* first generation on the 6^3 interior; the grid's outside stays dead */
    if (x < 1 || x > 6 || y < 1 || y > 6 || z < 1 || z > 6) return;
    b[z][y][x] = inside ? cell_step(a, x, y, z) : 0;
    __syncthreads();
    /* second generation on the 4^3 core, which is always inside the grid */
    if (x < 2 || x > 5 || y < 2 || y > 5 || z < 2 || z > 5) return;
    out[g] = cell_step(b, x, y, z);
}

/* One generation on the host; cells outside the grid are dead. */
static void cell_cpu_step(const unsigned char *in, unsigned char *out, int side)
{
    for (int z = 0; z < side; z++)
        for (int y = 0; y < side; y++)
            for (int x = 0; x < side; x++) {
                unsigned alive = 0, dying = 0;
                for (int dz = -1; dz <= 1; dz++)
                    for (int dy = -1; dy <= 1; dy++)
                        for (int dx = -1; dx <= 1; dx++) {
                            int nx = x + dx, ny = y + dy, nz = z + dz;
                            if (!(dx | dy | dz) || nx < 0 || ny < 0 || nz < 0 || nx >= side ||
                                ny >= side || nz >= side)
                                continue;
                            unsigned c = in[((size_t)nz * side + ny) * side + nx];
                            alive += c == 1;
                            dying += c >= 2;
                        }
                size_t i = ((size_t)z * side + y) * side + x;
                out[i] = cell_rule(in[i], alive, dying);
            }
}

int main(int argc, char **argv)
{
    bench_args a = bench_parse(argc, argv, "cell");
    int blocks = BENCH_PICK(a, 3, 6, 10);       /* blocks per side */
    int launches = BENCH_PICK(a, 1, 1, 3);      /* two generations each */
    int side = blocks * CELL_OUT;
    size_t n = (size_t)side * side * side;
    bench_rng rng = bench_rng_new(a.seed);
    unsigned char *h = (unsigned char *)malloc(3 * n);
    unsigned char *cur = h, *next = h + n, *got = h + 2 * n;
    /* a random soup, denser in a ball in the middle so that some regions
       live longer than others */
    for (size_t i = 0; i < n; i++) {
        int x = (int)(i % side), y = (int)(i / side % side), z = (int)(i / side / side);
        int c = side / 2, r2 = (x - c) * (x - c) + (y - c) * (y - c) + (z - c) * (z - c);
        uint32_t p = r2 < side * side / 9 ? 45 : 20;
        cur[i] = bench_below(&rng, 100) < p ? 1 : (bench_below(&rng, 8) == 0 ? 2 : 0);
    }
    unsigned char *d_a, *d_b;
    BENCH_CUDA(cudaMalloc((void **)&d_a, n));
    BENCH_CUDA(cudaMalloc((void **)&d_b, n));
    BENCH_CUDA(cudaMemcpy(d_a, cur, n, cudaMemcpyHostToDevice));
    dim3 block(CELL_TILE, CELL_TILE, CELL_TILE), grid(blocks, blocks, blocks);
    for (int l = 0; l < launches; l++) {
        cell_evolve<<<grid, block>>>(l & 1 ? d_b : d_a, l & 1 ? d_a : d_b, side);
        BENCH_LAUNCHED();
    }
    BENCH_CUDA(cudaMemcpy(got, launches & 1 ? d_b : d_a, n, cudaMemcpyDeviceToHost));

    for (int gen = 0; gen < 2 * launches; gen++) {
        cell_cpu_step(cur, next, side);
        unsigned char *t = cur; cur = next; next = t;
    }
    size_t alive = 0;
    for (size_t i = 0; i < n; i++) alive += cur[i] == 1;
    bench_corrupt(got, 1, n / 2 + 3);
    size_t bad = 0;
    for (size_t i = 0; i < n; i++)
        if (got[i] != cur[i]) {
            if (bad < 5) fprintf(stderr, "cell[%zu]: got %u want %u\n", i, got[i], cur[i]);
            bad++;
        }
    char detail[96];
    snprintf(detail, sizeof detail, "grid=%d^3 generations=%d alive=%zu", side, 2 * launches,
             alive);
    int rc = bench_finish(&a, bad, detail);
    cudaFree(d_a); cudaFree(d_b);
    free(h);
    return rc;
}
