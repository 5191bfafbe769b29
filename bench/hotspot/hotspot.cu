/*
** hotspot.cu -- chip temperature simulation, a 5-point stencil in time.
**
** Each 16x16 block loads a tile of temperature and power into shared
** memory and advances it STEPS time steps in place before writing back
** (a pyramid: after each step the valid region shrinks by one cell, so a
** block writes only its inner (16-2*STEPS)^2 cells and tiles overlap).
** Steps are separated by barriers. Neighbours outside the chip use the
** cell's own temperature. Warps near tile edges go idle earlier.
*/
#include "bench.h"

#define BS 16
#define STEPS 2
#define OUT_BS (BS - 2 * STEPS)

typedef struct hs_coef { float cap_inv, rx_inv, ry_inv, rz_inv, amb; } hs_coef;

__host__ __device__ static inline float hs_cell(float t, float n, float s, float w, float e,
                                                float p, hs_coef k)
{
    return t + k.cap_inv * (p + (n + s - 2.0f * t) * k.ry_inv + (e + w - 2.0f * t) * k.rx_inv +
                            (k.amb - t) * k.rz_inv);
}

__global__ void hotspot_step(const float *temp_in, const float *power, float *temp_out,
                             int rows, int cols, hs_coef k)
{
    __shared__ float t[BS][BS], p[BS][BS], nt[BS][BS];
    int tx = threadIdx.x, ty = threadIdx.y;
    int gx = blockIdx.x * OUT_BS - STEPS + tx, gy = blockIdx.y * OUT_BS - STEPS + ty;
    int in = gx >= 0 && gx < cols && gy >= 0 && gy < rows;
    int cx = min(max(gx, 0), cols - 1), cy = min(max(gy, 0), rows - 1);
    t[ty][tx] = temp_in[cy * cols + cx];
    p[ty][tx] = power[cy * cols + cx];
    __syncthreads();
    for (int s = 1; s <= STEPS; s++) {
        int active = tx >= s && tx < BS - s && ty >= s && ty < BS - s && in;
        if (active) {
            float c = t[ty][tx];
            float nv = gy > 0 ? t[ty - 1][tx] : c, sv = gy < rows - 1 ? t[ty + 1][tx] : c;
            float wv = gx > 0 ? t[ty][tx - 1] : c, ev = gx < cols - 1 ? t[ty][tx + 1] : c;
            nt[ty][tx] = hs_cell(c, nv, sv, wv, ev, p[ty][tx], k);
        }
        __syncthreads();
        if (active) t[ty][tx] = nt[ty][tx];
        __syncthreads();
    }
    if (in && tx >= STEPS && tx < BS - STEPS && ty >= STEPS && ty < BS - STEPS)
        temp_out[gy * cols + gx] = t[ty][tx];
}

int main(int argc, char **argv)
{
    bench_args a = bench_parse(argc, argv, "hotspot");
    int rows = BENCH_PICK(a, 128, 384, 1024), cols = rows;
    int launches = BENCH_PICK(a, 4, 6, 10);
    bench_rng rng = bench_rng_new(a.seed);
    size_t n = (size_t)rows * cols;

    /* Chip constants loosely after a 16 mm die; scaled so a step changes a
       cell by well under a degree. */
    hs_coef k = { 0.5f, 0.1f, 0.1f, 0.002f, 80.0f };
    float *temp = (float *)malloc(sizeof(float) * n), *power = (float *)malloc(sizeof(float) * n);
    for (size_t i = 0; i < n; i++) {
        temp[i] = 320.0f + bench_uniform(&rng, -5.0f, 5.0f);
        power[i] = bench_below(&rng, 16) == 0 ? bench_uniform(&rng, 0.5f, 2.0f) : bench_uniform(&rng, 0.0f, 0.1f);
    }
    float *d_a, *d_b, *d_p;
    BENCH_CUDA(cudaMalloc(&d_a, sizeof(float) * n));
    BENCH_CUDA(cudaMalloc(&d_b, sizeof(float) * n));
    BENCH_CUDA(cudaMalloc(&d_p, sizeof(float) * n));
    BENCH_CUDA(cudaMemcpy(d_a, temp, sizeof(float) * n, cudaMemcpyHostToDevice));
    BENCH_CUDA(cudaMemcpy(d_p, power, sizeof(float) * n, cudaMemcpyHostToDevice));
    dim3 block(BS, BS), grid((cols + OUT_BS - 1) / OUT_BS, (rows + OUT_BS - 1) / OUT_BS);
    for (int l = 0; l < launches; l++) {
        hotspot_step<<<grid, block>>>(d_a, d_p, d_b, rows, cols, k);
        BENCH_LAUNCHED();
        float *t = d_a; d_a = d_b; d_b = t;
    }
    float *out = (float *)malloc(sizeof(float) * n);
    BENCH_CUDA(cudaMemcpy(out, d_a, sizeof(float) * n, cudaMemcpyDeviceToHost));

    /* CPU reference: plain time stepping, one step at a time. */
    float *next = (float *)malloc(sizeof(float) * n);
    for (int s = 0; s < launches * STEPS; s++) {
        for (int y = 0; y < rows; y++)
            for (int x = 0; x < cols; x++) {
                float c = temp[y * cols + x];
                float nv = y > 0 ? temp[(y - 1) * cols + x] : c, sv = y < rows - 1 ? temp[(y + 1) * cols + x] : c;
                float wv = x > 0 ? temp[y * cols + x - 1] : c, ev = x < cols - 1 ? temp[y * cols + x + 1] : c;
                next[y * cols + x] = hs_cell(c, nv, sv, wv, ev, power[y * cols + x], k);
            }
        float *t = temp; temp = next; next = t;
    }
    bench_corrupt(out, sizeof(float), n / 2 + 3);
    size_t bad = bench_check_f32(out, temp, n, 1e-6f, 1e-3f, "temp");

    char detail[64];
    snprintf(detail, sizeof detail, "grid=%dx%d steps=%d", rows, cols, launches * STEPS);
    cudaFree(d_a); cudaFree(d_b); cudaFree(d_p);
    free(temp); free(power); free(out); free(next);
    return bench_finish(&a, bad, detail);
}
