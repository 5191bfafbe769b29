/*
** mriq.cu -- the Q matrix of non-Cartesian MRI reconstruction (like Parboil mri-q).
**
** mriq_phimag squares the sample trajectory's phi values; mriq_compute
** gives each voxel its own thread, which sums phiMag * (cos, sin)(2 pi k.x)
** over a chunk of k-space samples held in __constant__ memory (all
** threads read the same sample at once: a broadcast). The host copies
** chunk after chunk. Trigonometry per memory access: compute-bound,
** symmetric.
*/
#include "bench.h"

#define KCHUNK 1024

struct kvalue { float kx, ky, kz, phimag; };
__constant__ kvalue c_k[KCHUNK];

__global__ void mriq_phimag(const float *phi_r, const float *phi_i, float *phimag, int numk)
{
    int k = blockIdx.x * blockDim.x + threadIdx.x;
    if (k < numk) phimag[k] = phi_r[k] * phi_r[k] + phi_i[k] * phi_i[k];
}

__global__ void mriq_compute(const float *x, const float *y, const float *z, float *qr, float *qi,
                             int numx, int chunk)
{
    int v = blockIdx.x * blockDim.x + threadIdx.x;
    if (v >= numx) return;
    float px = x[v], py = y[v], pz = z[v], sr = qr[v], si = qi[v];
    for (int k = 0; k < chunk; k++) {
        float arg = 6.28318530717958647692f * (c_k[k].kx * px + c_k[k].ky * py + c_k[k].kz * pz);
        float s, c;
        sincosf(arg, &s, &c);
        sr += c_k[k].phimag * c;
        si += c_k[k].phimag * s;
    }
    qr[v] = sr;
    qi[v] = si;
}

int main(int argc, char **argv)
{
    bench_args a = bench_parse(argc, argv, "mriq");
    int numx = BENCH_PICK(a, 2048, 8192, 32768), numk = BENCH_PICK(a, 256, 640, 2048);
    bench_rng rng = bench_rng_new(a.seed);
    float *hx = (float *)malloc(5 * (size_t)numx * sizeof(float));
    float *hk = (float *)malloc(6 * (size_t)numk * sizeof(float));
    for (size_t i = 0; i < 3 * (size_t)numx; i++) hx[i] = bench_uniform(&rng, -1.f, 1.f);
    for (size_t i = 0; i < 3 * (size_t)numk; i++) hk[i] = bench_uniform(&rng, -4.f, 4.f);
    for (size_t i = 3 * (size_t)numk; i < 5 * (size_t)numk; i++) hk[i] = bench_uniform(&rng, -1.f, 1.f);

    float *dx, *dk;
    BENCH_CUDA(cudaMalloc((void **)&dx, 5 * (size_t)numx * sizeof(float)));
    BENCH_CUDA(cudaMalloc((void **)&dk, 6 * (size_t)numk * sizeof(float)));
    BENCH_CUDA(cudaMemcpy(dx, hx, 3 * (size_t)numx * sizeof(float), cudaMemcpyHostToDevice));
    BENCH_CUDA(cudaMemcpy(dk, hk, 5 * (size_t)numk * sizeof(float), cudaMemcpyHostToDevice));
    BENCH_CUDA(cudaMemset(dx + 3 * (size_t)numx, 0, 2 * (size_t)numx * sizeof(float)));
    float *phimag = hk + 5 * (size_t)numk;
    mriq_phimag<<<(numk + 127) / 128, 128>>>(dk + 3 * (size_t)numk, dk + 4 * (size_t)numk, dk + 5 * (size_t)numk, numk);
    BENCH_LAUNCHED();
    BENCH_CUDA(cudaMemcpy(phimag, dk + 5 * (size_t)numk, numk * sizeof(float), cudaMemcpyDeviceToHost));

    kvalue *kv = (kvalue *)malloc(numk * sizeof(kvalue));
    for (int k = 0; k < numk; k++) kv[k] = (kvalue){ hk[k], hk[numk + k], hk[2 * numk + k], phimag[k] };
    for (int base = 0; base < numk; base += KCHUNK) {
        int chunk = numk - base < KCHUNK ? numk - base : KCHUNK;
        BENCH_CUDA(cudaMemcpyToSymbol(c_k, kv + base, chunk * sizeof(kvalue)));
        mriq_compute<<<(numx + 127) / 128, 128>>>(dx, dx + numx, dx + 2 * (size_t)numx, dx + 3 * (size_t)numx,
                                                  dx + 4 * (size_t)numx, numx, chunk);
        BENCH_LAUNCHED();
    }
    float *q = hx + 3 * (size_t)numx;
    BENCH_CUDA(cudaMemcpy(q, dx + 3 * (size_t)numx, 2 * (size_t)numx * sizeof(float), cudaMemcpyDeviceToHost));

    size_t bad = 0;
    for (int k = 0; k < numk; k++) {
        float want = hk[3 * numk + k] * hk[3 * numk + k] + hk[4 * numk + k] * hk[4 * numk + k];
        if (!(fabsf(phimag[k] - want) <= 1e-6f * want + 1e-7f)) bad++;
    }
    if (bad) fprintf(stderr, "%zu phiMag values wrong\n", bad);
    bench_corrupt(q, sizeof(float), numx / 2 + 9);
    for (int v = 0; v < numx; v++) {
        double sr = 0, si = 0, mag = 0;
        for (int k = 0; k < numk; k++) {
            double arg = 6.283185307179586 * ((double)kv[k].kx * hx[v] + (double)kv[k].ky * hx[numx + v] +
                                              (double)kv[k].kz * hx[2 * numx + v]);
            sr += kv[k].phimag * cos(arg);
            si += kv[k].phimag * sin(arg);
            mag += kv[k].phimag * (1 + fabs(arg));
        }
        /* float rounding of the argument costs ~|arg| * 2^-24 per term */
        double tol = 1e-6 * mag + 1e-5, got[2] = { q[v], q[numx + v] }, want[2] = { sr, si };
        for (int c = 0; c < 2; c++)
            if (!(fabs(got[c] - want[c]) <= tol)) {
                if (bad < 5) fprintf(stderr, "Q%c[%d]: got %.9g want %.9g\n", c ? 'i' : 'r', v, got[c], want[c]);
                bad++;
            }
    }
    char detail[96];
    snprintf(detail, sizeof detail, "voxels=%d samples=%d", numx, numk);
    int rc = bench_finish(&a, bad, detail);
    cudaFree(dx); cudaFree(dk);
    free(hx); free(hk); free(kv);
    return rc;
}
