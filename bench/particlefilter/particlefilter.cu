/*
** particlefilter.cu -- particle-filter likelihood and weight update.
**
** Each particle (one thread) sits at an estimated object position; it
** samples the video frame under a disk of offsets around that position,
** scores every pixel against foreground/background intensities and
** multiplies its weight by exp(likelihood). Particles cluster around the
** object, so neighbouring threads gather overlapping pixels: memory-bound
** with L1 reuse, and every particle does the same amount of work.
*/
#include "bench.h"

#define RADIUS 5
#define MAX_OFFS ((2 * RADIUS + 1) * (2 * RADIUS + 1))

__constant__ int c_offs[MAX_OFFS];   /* dy * width + dx for each disk pixel */

__global__ void particle_likelihood(const int *frame, const float *px, const float *py,
                                    float *weight, float *likelihood, int nparticles,
                                    int width, int height, int noffs)
{
    int p = blockIdx.x * blockDim.x + threadIdx.x;
    if (p >= nparticles) return;
    int cx = (int)rintf(px[p]), cy = (int)rintf(py[p]);
    cx = min(max(cx, RADIUS), width - 1 - RADIUS);
    cy = min(max(cy, RADIUS), height - 1 - RADIUS);
    int base = cy * width + cx, score = 0;
    for (int k = 0; k < noffs; k++) {
        int v = frame[base + c_offs[k]];
        score += (v - 100) * (v - 100) - (v - 228) * (v - 228);
    }
    float lik = (float)score / (2000.0f * (float)noffs);
    likelihood[p] = lik;
    weight[p] = weight[p] * expf(lik);
}

int main(int argc, char **argv)
{
    bench_args a = bench_parse(argc, argv, "particlefilter");
    int np = BENCH_PICK(a, 4096, 40960, 409600);
    int width = BENCH_PICK(a, 256, 512, 1024), height = width;
    const int threads = 128;
    bench_rng rng = bench_rng_new(a.seed);

    /* Frame: noisy dark background with a bright disk (the object). */
    int *frame = (int *)malloc(sizeof(int) * width * height);
    int ox = width / 2, oy = height / 2, orad = width / 16;
    for (int y = 0; y < height; y++)
        for (int x = 0; x < width; x++) {
            int in = (x - ox) * (x - ox) + (y - oy) * (y - oy) <= orad * orad;
            frame[y * width + x] = (in ? 228 : 100) + (int)bench_below(&rng, 41) - 20;
        }
    int offs[MAX_OFFS], noffs = 0;
    for (int dy = -RADIUS; dy <= RADIUS; dy++)
        for (int dx = -RADIUS; dx <= RADIUS; dx++)
            if (dx * dx + dy * dy <= RADIUS * RADIUS) offs[noffs++] = dy * width + dx;

    /* Particles scatter around the object's last known position. */
    float *px = (float *)malloc(sizeof(float) * np), *py = (float *)malloc(sizeof(float) * np);
    float *w = (float *)malloc(sizeof(float) * np);
    for (int p = 0; p < np; p++) {
        px[p] = (float)ox + bench_uniform(&rng, -3.0f, 3.0f) * (float)orad / 4.0f;
        py[p] = (float)oy + bench_uniform(&rng, -3.0f, 3.0f) * (float)orad / 4.0f;
        w[p] = 1.0f / (float)np;
    }

    int *d_frame;
    float *d_px, *d_py, *d_w, *d_lik;
    BENCH_CUDA(cudaMalloc(&d_frame, sizeof(int) * width * height));
    BENCH_CUDA(cudaMalloc(&d_px, sizeof(float) * np));
    BENCH_CUDA(cudaMalloc(&d_py, sizeof(float) * np));
    BENCH_CUDA(cudaMalloc(&d_w, sizeof(float) * np));
    BENCH_CUDA(cudaMalloc(&d_lik, sizeof(float) * np));
    BENCH_CUDA(cudaMemcpy(d_frame, frame, sizeof(int) * width * height, cudaMemcpyHostToDevice));
    BENCH_CUDA(cudaMemcpy(d_px, px, sizeof(float) * np, cudaMemcpyHostToDevice));
    BENCH_CUDA(cudaMemcpy(d_py, py, sizeof(float) * np, cudaMemcpyHostToDevice));
    BENCH_CUDA(cudaMemcpy(d_w, w, sizeof(float) * np, cudaMemcpyHostToDevice));
    BENCH_CUDA(cudaMemcpyToSymbol(c_offs, offs, sizeof(int) * noffs));
    particle_likelihood<<<(np + threads - 1) / threads, threads>>>(d_frame, d_px, d_py, d_w, d_lik,
                                                                   np, width, height, noffs);
    BENCH_LAUNCHED();

    float *gw = (float *)malloc(sizeof(float) * np), *glik = (float *)malloc(sizeof(float) * np);
    float *ww = (float *)malloc(sizeof(float) * np), *wlik = (float *)malloc(sizeof(float) * np);
    BENCH_CUDA(cudaMemcpy(gw, d_w, sizeof(float) * np, cudaMemcpyDeviceToHost));
    BENCH_CUDA(cudaMemcpy(glik, d_lik, sizeof(float) * np, cudaMemcpyDeviceToHost));
    for (int p = 0; p < np; p++) {
        int cx = (int)rintf(px[p]), cy = (int)rintf(py[p]);
        cx = cx < RADIUS ? RADIUS : cx > width - 1 - RADIUS ? width - 1 - RADIUS : cx;
        cy = cy < RADIUS ? RADIUS : cy > height - 1 - RADIUS ? height - 1 - RADIUS : cy;
        int score = 0;
        for (int k = 0; k < noffs; k++) {
            int v = frame[cy * width + cx + offs[k]];
            score += (v - 100) * (v - 100) - (v - 228) * (v - 228);
        }
        wlik[p] = (float)score / (2000.0f * (float)noffs);
        ww[p] = w[p] * (float)exp((double)wlik[p]);
    }
    bench_corrupt(gw, sizeof(float), np / 4);
    size_t bad = bench_check_f32(glik, wlik, np, 1e-6f, 1e-6f, "likelihood");
    bad += bench_check_f32(gw, ww, np, 1e-5f, 0.0f, "weight");

    char detail[64];
    snprintf(detail, sizeof detail, "particles=%d frame=%dx%d disk=%d", np, width, height, noffs);
    cudaFree(d_frame); cudaFree(d_px); cudaFree(d_py); cudaFree(d_w); cudaFree(d_lik);
    free(frame); free(px); free(py); free(w); free(gw); free(glik); free(ww); free(wlik);
    return bench_finish(&a, bad, detail);
}
