/*
** convsep.cu -- separable 2-D convolution: a row pass then a column pass.
**
** Both kernels use 32x8 thread blocks. conv_rows stages an 8-row strip of
** 32 pixels plus a RADIUS-pixel apron on each side in shared memory (the
** edge lanes load the apron), synchronises and applies the 1-D filter
** along x; conv_cols does the same along y with an apron above and below.
** Pixels outside the image count as zero. The filter sits in constant
** memory. Blocks on the image border take extra branches.
*/
#include "bench.h"

#define RADIUS 8
#define TAPS (2 * RADIUS + 1)
#define BW 32
#define BH 8

__constant__ float c_filter[TAPS];

__global__ void conv_rows(const float *src, float *dst, int w, int h)
{
    __shared__ float s[BH][BW + 2 * RADIUS];
    int x = blockIdx.x * BW + threadIdx.x, y = blockIdx.y * BH + threadIdx.y;
    int yy = min(y, h - 1);
    const float *row = src + (size_t)yy * w;
    s[threadIdx.y][RADIUS + threadIdx.x] = x < w ? row[x] : 0.0f;
    if (threadIdx.x < RADIUS) {
        int xl = x - RADIUS;
        s[threadIdx.y][threadIdx.x] = xl >= 0 && xl < w ? row[xl] : 0.0f;
    }
    if (threadIdx.x >= BW - RADIUS) {
        int xr = x + RADIUS;
        s[threadIdx.y][2 * RADIUS + threadIdx.x] = xr < w ? row[xr] : 0.0f;
    }
    __syncthreads();
    if (x >= w || y >= h) return;
    float sum = 0.0f;
    for (int k = -RADIUS; k <= RADIUS; k++)
        sum += c_filter[RADIUS - k] * s[threadIdx.y][RADIUS + threadIdx.x + k];
    dst[(size_t)y * w + x] = sum;
}

__global__ void conv_cols(const float *src, float *dst, int w, int h)
{
    __shared__ float s[BH + 2 * RADIUS][BW];
    int x = blockIdx.x * BW + threadIdx.x, y0 = blockIdx.y * BH - RADIUS;
    int xx = min(x, w - 1);
    for (int r = threadIdx.y; r < BH + 2 * RADIUS; r += BH) {
        int y = y0 + r;
        s[r][threadIdx.x] = y >= 0 && y < h && x < w ? src[(size_t)y * w + xx] : 0.0f;
    }
    __syncthreads();
    int y = blockIdx.y * BH + threadIdx.y;
    if (x >= w || y >= h) return;
    float sum = 0.0f;
    for (int k = -RADIUS; k <= RADIUS; k++)
        sum += c_filter[RADIUS - k] * s[RADIUS + threadIdx.y + k][threadIdx.x];
    dst[(size_t)y * w + x] = sum;
}

static void cpu_conv(const float *src, float *dst, const float *f, int w, int h, int along_x)
{
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            double sum = 0.0;
            for (int k = -RADIUS; k <= RADIUS; k++) {
                int sx = along_x ? x + k : x, sy = along_x ? y : y + k;
                if (sx >= 0 && sx < w && sy >= 0 && sy < h) sum += (double)f[RADIUS - k] * src[(size_t)sy * w + sx];
            }
            dst[(size_t)y * w + x] = (float)sum;
        }
}

int main(int argc, char **argv)
{
    bench_args a = bench_parse(argc, argv, "convsep");
    int w = BENCH_PICK(a, 250, 800, 2500), h = BENCH_PICK(a, 200, 640, 2000);
    bench_rng rng = bench_rng_new(a.seed);
    size_t n = (size_t)w * h;

    float filter[TAPS], fsum = 0.0f;
    for (int k = 0; k < TAPS; k++) {
        filter[k] = (float)(RADIUS + 1 - abs(k - RADIUS)) + bench_uniform(&rng, 0.0f, 0.5f);
        fsum += filter[k];
    }
    for (int k = 0; k < TAPS; k++) filter[k] /= fsum;
    float *img = (float *)malloc(sizeof(float) * n);
    for (size_t i = 0; i < n; i++) img[i] = bench_uniform(&rng, 0.0f, 255.0f);

    float *d_img, *d_tmp, *d_out;
    BENCH_CUDA(cudaMalloc(&d_img, sizeof(float) * n));
    BENCH_CUDA(cudaMalloc(&d_tmp, sizeof(float) * n));
    BENCH_CUDA(cudaMalloc(&d_out, sizeof(float) * n));
    BENCH_CUDA(cudaMemcpy(d_img, img, sizeof(float) * n, cudaMemcpyHostToDevice));
    BENCH_CUDA(cudaMemcpyToSymbol(c_filter, filter, sizeof filter));
    dim3 grid((w + BW - 1) / BW, (h + BH - 1) / BH), block(BW, BH);
    conv_rows<<<grid, block>>>(d_img, d_tmp, w, h);
    BENCH_LAUNCHED();
    conv_cols<<<grid, block>>>(d_tmp, d_out, w, h);
    BENCH_LAUNCHED();

    float *tmp = (float *)malloc(sizeof(float) * n), *out = (float *)malloc(sizeof(float) * n);
    float *wtmp = (float *)malloc(sizeof(float) * n), *wout = (float *)malloc(sizeof(float) * n);
    BENCH_CUDA(cudaMemcpy(tmp, d_tmp, sizeof(float) * n, cudaMemcpyDeviceToHost));
    BENCH_CUDA(cudaMemcpy(out, d_out, sizeof(float) * n, cudaMemcpyDeviceToHost));
    cpu_conv(img, wtmp, filter, w, h, 1);
    cpu_conv(tmp, wout, filter, w, h, 0);   /* column pass checked on the GPU's own rows */
    bench_corrupt(out, sizeof(float), n / 2);
    size_t bad = bench_check_f32(tmp, wtmp, n, 1e-5f, 1e-3f, "rows");
    bad += bench_check_f32(out, wout, n, 1e-5f, 1e-3f, "cols");

    char detail[48];
    snprintf(detail, sizeof detail, "image=%dx%d taps=%d", w, h, TAPS);
    cudaFree(d_img); cudaFree(d_tmp); cudaFree(d_out);
    free(img); free(tmp); free(out); free(wtmp); free(wout);
    return bench_finish(&a, bad, detail);
}
