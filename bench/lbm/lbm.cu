/*
** lbm.cu -- lattice-Boltzmann D2Q9 stream-and-collide on a periodic grid.
**
** One thread per cell. Each time step pulls the nine distributions from the
** neighbouring cells of the previous step (structure-of-arrays layout, so
** every direction is a coalesced but shifted stream), then relaxes them
** towards equilibrium (BGK); obstacle cells bounce the populations back.
** Lots of loads and stores per cell and little reuse: memory-bound.
*/
#include "bench.h"

#define LBM_Q 9
#define LBM_OMEGA 1.2f

/* Direction vectors, weights and opposite directions of D2Q9. */
static const int lbm_ex[LBM_Q] = { 0, 1, 0, -1, 0, 1, -1, -1, 1 };
static const int lbm_ey[LBM_Q] = { 0, 0, 1, 0, -1, 1, 1, -1, -1 };
static const int lbm_opp[LBM_Q] = { 0, 3, 4, 1, 2, 7, 8, 5, 6 };
__constant__ int c_ex[LBM_Q] = { 0, 1, 0, -1, 0, 1, -1, -1, 1 };
__constant__ int c_ey[LBM_Q] = { 0, 0, 1, 0, -1, 1, 1, -1, -1 };
__constant__ int c_opp[LBM_Q] = { 0, 3, 4, 1, 2, 7, 8, 5, 6 };
__constant__ float c_w[LBM_Q] = { 4.f / 9, 1.f / 9, 1.f / 9, 1.f / 9, 1.f / 9,
                                  1.f / 36, 1.f / 36, 1.f / 36, 1.f / 36 };

__host__ __device__ static inline float lbm_weight(int q)
{
    return q == 0 ? 4.f / 9 : q < 5 ? 1.f / 9 : 1.f / 36;
}

__global__ void lbm_step(const float *src, float *dst, const unsigned char *obstacle, int nx, int ny)
{
    int cell = blockIdx.x * blockDim.x + threadIdx.x;
    int n = nx * ny;
    if (cell >= n) return;
    int x = cell % nx, y = cell / nx;
    float f[LBM_Q];
#pragma unroll
    for (int q = 0; q < LBM_Q; q++) {
        int sx = x - c_ex[q], sy = y - c_ey[q];
        sx = sx < 0 ? sx + nx : sx >= nx ? sx - nx : sx;
        sy = sy < 0 ? sy + ny : sy >= ny ? sy - ny : sy;
        f[q] = src[q * n + sy * nx + sx];
    }
    if (obstacle[cell]) {
#pragma unroll
        for (int q = 0; q < LBM_Q; q++) dst[q * n + cell] = f[c_opp[q]];
        return;
    }
    float rho = 0.f, ux = 0.f, uy = 0.f;
#pragma unroll
    for (int q = 0; q < LBM_Q; q++) {
        rho += f[q];
        ux += f[q] * (float)c_ex[q];
        uy += f[q] * (float)c_ey[q];
    }
    ux /= rho;
    uy /= rho;
    float usq = 1.5f * (ux * ux + uy * uy);
#pragma unroll
    for (int q = 0; q < LBM_Q; q++) {
        float eu = (float)c_ex[q] * ux + (float)c_ey[q] * uy;
        float feq = c_w[q] * rho * (1.f + 3.f * eu + 4.5f * eu * eu - usq);
        dst[q * n + cell] = f[q] - LBM_OMEGA * (f[q] - feq);
    }
}

static void lbm_step_cpu(const float *src, float *dst, const unsigned char *obstacle, int nx, int ny)
{
    int n = nx * ny;
    for (int cell = 0; cell < n; cell++) {
        int x = cell % nx, y = cell / nx;
        double f[LBM_Q];
        for (int q = 0; q < LBM_Q; q++) {
            int sx = (x - lbm_ex[q] + nx) % nx, sy = (y - lbm_ey[q] + ny) % ny;
            f[q] = src[q * n + sy * nx + sx];
        }
        if (obstacle[cell]) {
            for (int q = 0; q < LBM_Q; q++) dst[q * n + cell] = (float)f[lbm_opp[q]];
            continue;
        }
        double rho = 0, ux = 0, uy = 0;
        for (int q = 0; q < LBM_Q; q++) {
            rho += f[q];
            ux += f[q] * lbm_ex[q];
            uy += f[q] * lbm_ey[q];
        }
        ux /= rho;
        uy /= rho;
        double usq = 1.5 * (ux * ux + uy * uy);
        for (int q = 0; q < LBM_Q; q++) {
            double eu = lbm_ex[q] * ux + lbm_ey[q] * uy;
            double feq = lbm_weight(q) * rho * (1 + 3 * eu + 4.5 * eu * eu - usq);
            dst[q * n + cell] = (float)(f[q] - LBM_OMEGA * (f[q] - feq));
        }
    }
}

/* Start from equilibrium with a slightly perturbed density and velocity. */
static void lbm_init(bench_rng *rng, float *f, unsigned char *obstacle, int n)
{
    for (int c = 0; c < n; c++) {
        obstacle[c] = bench_below(rng, 100) < 8;
        float rho = bench_uniform(rng, 0.95f, 1.05f);
        float ux = bench_uniform(rng, -0.05f, 0.05f), uy = bench_uniform(rng, -0.05f, 0.05f);
        float usq = 1.5f * (ux * ux + uy * uy);
        for (int q = 0; q < LBM_Q; q++) {
            float eu = lbm_ex[q] * ux + lbm_ey[q] * uy;
            f[q * n + c] = lbm_weight(q) * rho * (1.f + 3.f * eu + 4.5f * eu * eu - usq);
        }
    }
}

int main(int argc, char **argv)
{
    bench_args a = bench_parse(argc, argv, "lbm");
    int nx = BENCH_PICK(a, 128, 256, 512), ny = BENCH_PICK(a, 64, 256, 512);
    int steps = BENCH_PICK(a, 4, 8, 20);
    int n = nx * ny;
    size_t fbytes = (size_t)LBM_Q * n * sizeof(float);
    bench_rng rng = bench_rng_new(a.seed);
    float *h_f = (float *)malloc(fbytes), *h_tmp = (float *)malloc(fbytes), *h_gpu = (float *)malloc(fbytes);
    unsigned char *h_obs = (unsigned char *)malloc(n);
    lbm_init(&rng, h_f, h_obs, n);

    float *d_a, *d_b;
    unsigned char *d_obs;
    BENCH_CUDA(cudaMalloc((void **)&d_a, fbytes));
    BENCH_CUDA(cudaMalloc((void **)&d_b, fbytes));
    BENCH_CUDA(cudaMalloc((void **)&d_obs, n));
    BENCH_CUDA(cudaMemcpy(d_a, h_f, fbytes, cudaMemcpyHostToDevice));
    BENCH_CUDA(cudaMemcpy(d_obs, h_obs, n, cudaMemcpyHostToDevice));
    int threads = 128, blocks = (n + threads - 1) / threads;
    for (int s = 0; s < steps; s++) {
        lbm_step<<<blocks, threads>>>(d_a, d_b, d_obs, nx, ny);
        BENCH_LAUNCHED();
        float *t = d_a; d_a = d_b; d_b = t;
    }
    BENCH_CUDA(cudaMemcpy(h_gpu, d_a, fbytes, cudaMemcpyDeviceToHost));

    for (int s = 0; s < steps; s++) {
        lbm_step_cpu(h_f, h_tmp, h_obs, nx, ny);
        float *t = h_f; h_f = h_tmp; h_tmp = t;
    }
    bench_corrupt(h_gpu, sizeof(float), (size_t)n * 4 + n / 3);
    size_t bad = bench_check_f32(h_gpu, h_f, (size_t)LBM_Q * n, 1e-4f, 1e-6f, "f");
    char detail[96];
    snprintf(detail, sizeof detail, "grid=%dx%d steps=%d", nx, ny, steps);
    int rc = bench_finish(&a, bad, detail);
    cudaFree(d_a); cudaFree(d_b); cudaFree(d_obs);
    free(h_f); free(h_tmp); free(h_gpu); free(h_obs);
    return rc;
}
