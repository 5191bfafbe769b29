/*
** mrigridding.cu -- scatter non-Cartesian samples onto a regular grid.
**
** Like the gridding step of MRI reconstruction: each thread takes one
** sample at a random (kx, ky) and adds its complex value, weighted by a
** smooth window, to every grid cell within radius R using float atomics;
** it also counts contributions with integer atomics. Samples land anywhere,
** so the read-modify-writes are scattered: memory-bound, little reuse.
*/
#include "bench.h"

#define GRID_R 2.5f

__host__ __device__ static inline float grid_weight(float d2)
{
    float t = 1.f - d2 * (1.f / (GRID_R * GRID_R));
    return t * t;
}

__global__ void gridding_scatter(const float *kx, const float *ky, const float *vre, const float *vim,
                                 float *gre, float *gim, unsigned *gcount, int m, int g)
{
    int s = blockIdx.x * blockDim.x + threadIdx.x;
    if (s >= m) return;
    float x = kx[s], y = ky[s], re = vre[s], im = vim[s];
    int x0 = max((int)ceilf(x - GRID_R), 0), x1 = min((int)floorf(x + GRID_R), g - 1);
    int y0 = max((int)ceilf(y - GRID_R), 0), y1 = min((int)floorf(y + GRID_R), g - 1);
    for (int cy = y0; cy <= y1; cy++) {
        float dy = (float)cy - y;
        for (int cx = x0; cx <= x1; cx++) {
            float dx = (float)cx - x;
            float d2 = dx * dx + dy * dy;
            if (d2 < GRID_R * GRID_R) {
                float w = grid_weight(d2);
                int cell = cy * g + cx;
                atomicAdd(&gre[cell], w * re);
                atomicAdd(&gim[cell], w * im);
                atomicAdd(&gcount[cell], 1u);
            }
        }
    }
}

/* CPU reference in double; also accumulates |contribution| per cell to
   scale the tolerance (float atomics sum in any order). */
static void gridding_cpu(const float *kx, const float *ky, const float *vre, const float *vim,
                         double *gre, double *gim, double *mag, unsigned *cnt, int m, int g)
{
    for (int s = 0; s < m; s++) {
        float x = kx[s], y = ky[s];
        int x0 = (int)ceilf(x - GRID_R), x1 = (int)floorf(x + GRID_R);
        int y0 = (int)ceilf(y - GRID_R), y1 = (int)floorf(y + GRID_R);
        if (x0 < 0) x0 = 0;
        if (y0 < 0) y0 = 0;
        if (x1 > g - 1) x1 = g - 1;
        if (y1 > g - 1) y1 = g - 1;
        for (int cy = y0; cy <= y1; cy++)
            for (int cx = x0; cx <= x1; cx++) {
                float dx = (float)cx - x, dy = (float)cy - y;
                float d2 = dx * dx + dy * dy;
                if (d2 < GRID_R * GRID_R) {
                    double w = grid_weight(d2);
                    int cell = cy * g + cx;
                    gre[cell] += w * vre[s];
                    gim[cell] += w * vim[s];
                    mag[cell] += w * (fabs(vre[s]) + fabs(vim[s]));
                    cnt[cell]++;
                }
            }
    }
}

static size_t gridding_check(const float *got, const double *want, const double *mag, int n, const char *what)
{
    size_t bad = 0;
    for (int i = 0; i < n; i++) {
        double tol = 1e-5 + 1e-5 * mag[i];
        if (!(fabs(got[i] - want[i]) <= tol)) {
            if (bad < 5) fprintf(stderr, "%s[%d]: got %.9g want %.9g\n", what, i, got[i], want[i]);
            bad++;
        }
    }
    return bad;
}

int main(int argc, char **argv)
{
    bench_args a = bench_parse(argc, argv, "mrigridding");
    int g = BENCH_PICK(a, 128, 256, 512);
    int m = BENCH_PICK(a, 16384, 131072, 1048576);
    int cells = g * g;
    bench_rng rng = bench_rng_new(a.seed);
    float *h_in = (float *)malloc(4 * (size_t)m * sizeof(float));
    float *kx = h_in, *ky = h_in + m, *vre = h_in + 2 * (size_t)m, *vim = h_in + 3 * (size_t)m;
    for (int s = 0; s < m; s++) {
        /* a mild density bias towards the centre, as in radial trajectories */
        float r = bench_uniform(&rng, 0.f, 1.f);
        float t = bench_uniform(&rng, 0.f, 6.2831853f);
        r = 0.5f * r + 0.5f * r * r;
        kx[s] = (g - 1) * (0.5f + 0.5f * r * cosf(t));
        ky[s] = (g - 1) * (0.5f + 0.5f * r * sinf(t));
        vre[s] = bench_uniform(&rng, -1.f, 1.f);
        vim[s] = bench_uniform(&rng, -1.f, 1.f);
    }

    float *d_in, *d_grid;
    unsigned *d_cnt;
    BENCH_CUDA(cudaMalloc((void **)&d_in, 4 * (size_t)m * sizeof(float)));
    BENCH_CUDA(cudaMalloc((void **)&d_grid, 2 * (size_t)cells * sizeof(float)));
    BENCH_CUDA(cudaMalloc((void **)&d_cnt, (size_t)cells * sizeof(unsigned)));
    BENCH_CUDA(cudaMemcpy(d_in, h_in, 4 * (size_t)m * sizeof(float), cudaMemcpyHostToDevice));
    BENCH_CUDA(cudaMemset(d_grid, 0, 2 * (size_t)cells * sizeof(float)));
    BENCH_CUDA(cudaMemset(d_cnt, 0, (size_t)cells * sizeof(unsigned)));
    int threads = 256;
    gridding_scatter<<<(m + threads - 1) / threads, threads>>>(d_in, d_in + m, d_in + 2 * (size_t)m,
                                                                d_in + 3 * (size_t)m, d_grid, d_grid + cells,
                                                                d_cnt, m, g);
    BENCH_LAUNCHED();
    float *h_grid = (float *)malloc(2 * (size_t)cells * sizeof(float));
    unsigned *h_cnt = (unsigned *)malloc((size_t)cells * sizeof(unsigned));
    BENCH_CUDA(cudaMemcpy(h_grid, d_grid, 2 * (size_t)cells * sizeof(float), cudaMemcpyDeviceToHost));
    BENCH_CUDA(cudaMemcpy(h_cnt, d_cnt, (size_t)cells * sizeof(unsigned), cudaMemcpyDeviceToHost));

    double *ref = (double *)calloc(3 * (size_t)cells, sizeof(double));
    unsigned *ref_cnt = (unsigned *)calloc(cells, sizeof(unsigned));
    gridding_cpu(kx, ky, vre, vim, ref, ref + cells, ref + 2 * (size_t)cells, ref_cnt, m, g);
    bench_corrupt(h_grid, sizeof(float), (size_t)cells / 2 + g / 2);
    size_t bad = gridding_check(h_grid, ref, ref + 2 * (size_t)cells, cells, "grid.re");
    bad += gridding_check(h_grid + cells, ref + cells, ref + 2 * (size_t)cells, cells, "grid.im");
    bad += bench_check_u32(h_cnt, ref_cnt, cells, "count");
    char detail[96];
    snprintf(detail, sizeof detail, "grid=%dx%d samples=%d", g, g, m);
    int rc = bench_finish(&a, bad, detail);
    cudaFree(d_in); cudaFree(d_grid); cudaFree(d_cnt);
    free(h_in); free(h_grid); free(h_cnt); free(ref); free(ref_cnt);
    return rc;
}
