/*
** srad.cu -- speckle-reducing anisotropic diffusion, two stencil kernels.
**
** srad_coeff computes each pixel's four directional differences and its
** diffusion coefficient from the local gradient and Laplacian relative to
** the speckle scale q0^2; srad_update moves every pixel by the divergence
** of the coefficient-weighted differences. The host runs ITERS iterations.
** Neighbour loads with clamped borders and several arrays per pixel:
** memory-bound, every thread does the same work.
*/
#include "bench.h"

#define ITERS 3

__global__ void srad_coeff(const float *J, float *dN, float *dS, float *dW, float *dE, float *C,
                           int rows, int cols, float q0sqr)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= cols || y >= rows) return;
    int i = y * cols + x;
    float jc = J[i];
    float n = J[max(y - 1, 0) * cols + x] - jc, s = J[min(y + 1, rows - 1) * cols + x] - jc;
    float w = J[y * cols + max(x - 1, 0)] - jc, e = J[y * cols + min(x + 1, cols - 1)] - jc;
    float g2 = (n * n + s * s + w * w + e * e) / (jc * jc);
    float l = (n + s + w + e) / jc;
    float num = 0.5f * g2 - 0.0625f * l * l;
    float den = 1.0f + 0.25f * l;
    float qsqr = num / (den * den);
    float c = 1.0f / (1.0f + (qsqr - q0sqr) / (q0sqr * (1.0f + q0sqr)));
    c = fminf(fmaxf(c, 0.0f), 1.0f);
    dN[i] = n; dS[i] = s; dW[i] = w; dE[i] = e; C[i] = c;
}

__global__ void srad_update(float *J, const float *dN, const float *dS, const float *dW,
                            const float *dE, const float *C, int rows, int cols, float lambda)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= cols || y >= rows) return;
    int i = y * cols + x;
    float cn = C[i], cw = C[i];
    float cs = C[min(y + 1, rows - 1) * cols + x], ce = C[y * cols + min(x + 1, cols - 1)];
    float d = cn * dN[i] + cs * dS[i] + cw * dW[i] + ce * dE[i];
    J[i] = J[i] + 0.25f * lambda * d;
}

static void cpu_srad(float *J, int rows, int cols, float q0sqr, float lambda)
{
    size_t n = (size_t)rows * cols;
    float *dN = (float *)malloc(sizeof(float) * n * 5), *dS = dN + n, *dW = dS + n, *dE = dW + n, *C = dE + n;
    for (int it = 0; it < ITERS; it++) {
        for (int y = 0; y < rows; y++)
            for (int x = 0; x < cols; x++) {
                int i = y * cols + x;
                double jc = J[i];
                double nn = J[(y > 0 ? y - 1 : 0) * cols + x] - jc, s = J[(y < rows - 1 ? y + 1 : y) * cols + x] - jc;
                double w = J[y * cols + (x > 0 ? x - 1 : 0)] - jc, e = J[y * cols + (x < cols - 1 ? x + 1 : x)] - jc;
                double g2 = (nn * nn + s * s + w * w + e * e) / (jc * jc), l = (nn + s + w + e) / jc;
                double num = 0.5 * g2 - 0.0625 * l * l, den = 1.0 + 0.25 * l;
                double c = 1.0 / (1.0 + ((num / (den * den)) - q0sqr) / (q0sqr * (1.0 + q0sqr)));
                C[i] = (float)(c < 0.0 ? 0.0 : c > 1.0 ? 1.0 : c);
                dN[i] = (float)nn; dS[i] = (float)s; dW[i] = (float)w; dE[i] = (float)e;
            }
        for (int y = 0; y < rows; y++)
            for (int x = 0; x < cols; x++) {
                int i = y * cols + x;
                double cs = C[(y < rows - 1 ? y + 1 : y) * cols + x], ce = C[y * cols + (x < cols - 1 ? x + 1 : x)];
                double d = (double)C[i] * dN[i] + cs * dS[i] + (double)C[i] * dW[i] + ce * dE[i];
                J[i] = (float)(J[i] + 0.25 * lambda * d);
            }
    }
    free(dN);
}

int main(int argc, char **argv)
{
    bench_args a = bench_parse(argc, argv, "srad");
    int rows = BENCH_PICK(a, 128, 400, 1280), cols = BENCH_PICK(a, 160, 512, 1600);
    const float lambda = 0.5f;
    bench_rng rng = bench_rng_new(a.seed);
    size_t n = (size_t)rows * cols;

    /* Image: smooth bright blobs on a background with multiplicative
       speckle noise, all strictly positive. */
    float *img = (float *)malloc(sizeof(float) * n);
    double sum = 0.0, sum2 = 0.0;
    for (int y = 0; y < rows; y++)
        for (int x = 0; x < cols; x++) {
            double base = 0.4 + 0.3 * sin(x * 0.05) * cos(y * 0.07) + 0.2 * ((x / 32 + y / 32) & 1);
            float v = (float)(base * (0.75 + 0.5 * bench_uniform(&rng, 0.0f, 1.0f)));
            img[y * cols + x] = v;
            sum += v; sum2 += (double)v * v;
        }
    double mean = sum / n, var = sum2 / n - mean * mean;
    float q0sqr = (float)(var / (mean * mean));

    float *d_J, *d_buf;
    BENCH_CUDA(cudaMalloc(&d_J, sizeof(float) * n));
    BENCH_CUDA(cudaMalloc(&d_buf, sizeof(float) * n * 5));
    BENCH_CUDA(cudaMemcpy(d_J, img, sizeof(float) * n, cudaMemcpyHostToDevice));
    float *d_N = d_buf, *d_S = d_N + n, *d_W = d_S + n, *d_E = d_W + n, *d_C = d_E + n;
    dim3 block(32, 8), grid((cols + 31) / 32, (rows + 7) / 8);
    for (int it = 0; it < ITERS; it++) {
        srad_coeff<<<grid, block>>>(d_J, d_N, d_S, d_W, d_E, d_C, rows, cols, q0sqr);
        BENCH_LAUNCHED();
        srad_update<<<grid, block>>>(d_J, d_N, d_S, d_W, d_E, d_C, rows, cols, lambda);
        BENCH_LAUNCHED();
    }
    float *out = (float *)malloc(sizeof(float) * n);
    BENCH_CUDA(cudaMemcpy(out, d_J, sizeof(float) * n, cudaMemcpyDeviceToHost));
    cpu_srad(img, rows, cols, q0sqr, lambda);
    bench_corrupt(out, sizeof(float), n / 2);
    size_t bad = bench_check_f32(out, img, n, 1e-4f, 1e-5f, "J");

    char detail[64];
    snprintf(detail, sizeof detail, "image=%dx%d iters=%d q0sqr=%.4f", rows, cols, ITERS, q0sqr);
    cudaFree(d_J); cudaFree(d_buf);
    free(img); free(out);
    return bench_finish(&a, bad, detail);
}
