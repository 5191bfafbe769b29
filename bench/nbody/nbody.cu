/*
** nbody.cu -- all-pairs gravitational accelerations with shared-memory tiles.
**
** Each thread owns one body. The block loads a tile of blockDim bodies into
** shared memory (barrier), every thread accumulates the softened 1/r^3
** interaction with each of them (barrier), and so on over all tiles; then
** velocity and position take one Euler step. Almost pure arithmetic with
** equal work per warp: compute-bound, symmetric, with barriers.
*/
#include "bench.h"

#define NB_SOFTENING 0.01f
#define NB_DT 0.001f

__global__ void nbody_step(const float4 *pos, const float4 *vel, float4 *acc_out, float4 *new_pos,
                           float4 *new_vel, int n)
{
    extern __shared__ float4 tile[];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float4 p = pos[i];
    float ax = 0.f, ay = 0.f, az = 0.f;
    for (int base = 0; base < n; base += blockDim.x) {
        tile[threadIdx.x] = pos[base + threadIdx.x];
        __syncthreads();
        for (int j = 0; j < blockDim.x; j++) {
            float4 q = tile[j];
            float dx = q.x - p.x, dy = q.y - p.y, dz = q.z - p.z;
            float d2 = dx * dx + dy * dy + dz * dz + NB_SOFTENING;
            float inv = rsqrtf(d2);
            float s = q.w * inv * inv * inv;
            ax += dx * s;
            ay += dy * s;
            az += dz * s;
        }
        __syncthreads();
    }
    float4 v = vel[i];
    v.x += ax * NB_DT;
    v.y += ay * NB_DT;
    v.z += az * NB_DT;
    acc_out[i] = make_float4(ax, ay, az, 0.f);
    new_vel[i] = v;
    new_pos[i] = make_float4(p.x + v.x * NB_DT, p.y + v.y * NB_DT, p.z + v.z * NB_DT, p.w);
}

/* Reference accelerations in double plus, per body, the sum of the
   magnitudes of all terms: cancellation makes a relative bound useless. */
static void nbody_cpu(const float4 *pos, double *acc, double *mag, int n)
{
    for (int i = 0; i < n; i++) {
        double a[3] = { 0, 0, 0 }, m = 0;
        for (int j = 0; j < n; j++) {
            double d[3] = { (double)pos[j].x - pos[i].x, (double)pos[j].y - pos[i].y, (double)pos[j].z - pos[i].z };
            double d2 = d[0] * d[0] + d[1] * d[1] + d[2] * d[2] + NB_SOFTENING;
            double s = pos[j].w / (d2 * sqrt(d2));
            for (int k = 0; k < 3; k++) a[k] += d[k] * s;
            m += s * sqrt(d2 - NB_SOFTENING);
        }
        for (int k = 0; k < 3; k++) acc[3 * i + k] = a[k];
        mag[i] = m;
    }
}

int main(int argc, char **argv)
{
    bench_args a = bench_parse(argc, argv, "nbody");
    int n = BENCH_PICK(a, 1024, 3200, 10240), threads = 128;
    bench_rng rng = bench_rng_new(a.seed);
    size_t bytes = (size_t)n * sizeof(float4);
    float4 *h = (float4 *)malloc(5 * bytes);
    float4 *pos = h, *vel = h + n, *acc = h + 2 * (size_t)n, *npos = h + 3 * (size_t)n, *nvel = h + 4 * (size_t)n;
    for (int i = 0; i < n; i++) {
        pos[i] = make_float4(bench_uniform(&rng, -1.f, 1.f), bench_uniform(&rng, -1.f, 1.f),
                             bench_uniform(&rng, -1.f, 1.f), bench_uniform(&rng, 0.5f, 1.5f) / n);
        vel[i] = make_float4(bench_uniform(&rng, -0.1f, 0.1f), bench_uniform(&rng, -0.1f, 0.1f),
                             bench_uniform(&rng, -0.1f, 0.1f), 0.f);
    }
    float4 *d;
    BENCH_CUDA(cudaMalloc((void **)&d, 5 * bytes));
    BENCH_CUDA(cudaMemcpy(d, h, 2 * bytes, cudaMemcpyHostToDevice));
    nbody_step<<<n / threads, threads, threads * sizeof(float4)>>>(d, d + n, d + 2 * (size_t)n,
                                                                   d + 3 * (size_t)n, d + 4 * (size_t)n, n);
    BENCH_LAUNCHED();
    BENCH_CUDA(cudaMemcpy(acc, d + 2 * (size_t)n, 3 * bytes, cudaMemcpyDeviceToHost));

    double *ref = (double *)malloc(4 * (size_t)n * sizeof(double)), *mag = ref + 3 * (size_t)n;
    nbody_cpu(pos, ref, mag, n);
    bench_corrupt(acc, sizeof(float4), n / 2 + 1);
    size_t bad = 0;
    for (int i = 0; i < n; i++) {
        const float *ga = &acc[i].x, *gv = &nvel[i].x, *gp = &npos[i].x, *p0 = &pos[i].x, *v0 = &vel[i].x;
        for (int k = 0; k < 3; k++) {
            double tol = 1e-5 * mag[i] + 1e-6;
            double v = v0[k] + ref[3 * i + k] * NB_DT, p = p0[k] + v * NB_DT;
            int ok = fabs(ga[k] - ref[3 * i + k]) <= tol && fabs(gv[k] - v) <= tol * NB_DT + 1e-6 &&
                     fabs(gp[k] - p) <= 1e-6;
            if (!ok) {
                if (bad < 5) fprintf(stderr, "body %d dim %d: acc %.9g want %.9g, vel %.9g want %.9g, pos %.9g want %.9g\n",
                                     i, k, ga[k], ref[3 * i + k], gv[k], v, gp[k], p);
                bad++;
            }
        }
    }
    char detail[96];
    snprintf(detail, sizeof detail, "bodies=%d", n);
    int rc = bench_finish(&a, bad, detail);
    cudaFree(d);
    free(h); free(ref);
    return rc;
}
