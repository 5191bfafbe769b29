/*
** jpegdec.cu -- the back end of a baseline JPEG decoder: de-zigzag,
** dequantise and inverse-DCT 8x8 blocks of a greyscale image into pixels.
**
** The entropy-decoded coefficients are stored block after block in raster
** order (64 int16 in zigzag order, 128 bytes a block); each CTA decodes two
** consecutive blocks with one thread per pixel: gather its coefficient,
** dequantise into shared memory, a row pass and a column pass of a
** fixed-point separable IDCT with a barrier between, then level shift and
** clamp into the raster image.  Each CTA reads 256 contiguous bytes once, so
** consecutive CTAs stream through the same DRAM rows and nothing is reused
** from L1 (OWL's JPEG: row-shared streaming, cache-insensitive).  All
** arithmetic is integer, so the CPU reference matches exactly.
*/
#include "bench.h"

#define BLOCKS_PER_CTA 2
#define FIX 12                   /* IDCT table scale: 2^12 */

__constant__ int c_idct[64];     /* [x*8+u] = 2^12 * c(u)/2 * cos((2x+1)u pi/16) */
__constant__ int c_quant[64];    /* natural order */
__constant__ unsigned char c_zz[64];  /* natural position -> zigzag index */

__device__ __host__ static inline int clamp255(int v) { return v < 0 ? 0 : v > 255 ? 255 : v; }

/* Arithmetic shift with rounding; both compilers shift signed ints
   arithmetically. */
__device__ __host__ static inline int descale(int v, int bits) { return (v + (1 << (bits - 1))) >> bits; }

__global__ void jpeg_idct(const short *coef, unsigned char *img, int width, int nblocks)
{
    __shared__ int s[BLOCKS_PER_CTA][64], t[BLOCKS_PER_CTA][64];
    int lb = threadIdx.x >> 6, p = threadIdx.x & 63, y = p >> 3, x = p & 7;
    int blk = blockIdx.x * BLOCKS_PER_CTA + lb;
    bool live = blk < nblocks;
    if (live) s[lb][p] = coef[(size_t)blk * 64 + c_zz[p]] * c_quant[p];
    __syncthreads();
    if (live) {          /* row pass: t[y][x] = sum_u C[x][u] s[y][u] */
        int acc = 0;
        for (int u = 0; u < 8; u++) acc += c_idct[x * 8 + u] * s[lb][y * 8 + u];
        t[lb][p] = descale(acc, FIX);
    }
    __syncthreads();
    if (live) {          /* column pass: out[y][x] = sum_v C[y][v] t[v][x] */
        int acc = 0;
        for (int v = 0; v < 8; v++) acc += c_idct[y * 8 + v] * t[lb][v * 8 + x];
        int bw = width / 8, by = blk / bw, bx = blk % bw;
        img[(size_t)(by * 8 + y) * width + bx * 8 + x] = (unsigned char)clamp255(descale(acc, FIX) + 128);
    }
}

/* The standard JPEG luminance quantisation table (ITU T.81 Annex K). */
static const int quant_k1[64] = {
    16, 11, 10, 16, 24, 40, 51, 61, 12, 12, 14, 19, 26, 58, 60, 55,
    14, 13, 16, 24, 40, 57, 69, 56, 14, 17, 22, 29, 51, 87, 80, 62,
    18, 22, 37, 56, 68, 109, 103, 77, 24, 35, 55, 64, 81, 104, 113, 92,
    49, 64, 78, 87, 103, 121, 120, 101, 72, 92, 95, 98, 112, 100, 103, 99 };

/* zz[natural] = zigzag index, by walking the anti-diagonals. */
static void make_zigzag(unsigned char *zz)
{
    int k = 0;
    for (int d = 0; d < 15; d++)
        for (int i = 0; i < 8; i++) {
            int y = (d & 1) ? i : d - i, x = d - y;
            if (y < 0 || y > 7 || x < 0 || x > 7) continue;
            zz[y * 8 + x] = (unsigned char)k++;
        }
}

static void decode_cpu(const short *coef, const int *idct, const unsigned char *zz,
                       unsigned char *img, int width, int nblocks)
{
    for (int blk = 0; blk < nblocks; blk++) {
        int s[64], t[64], bw = width / 8, by = blk / bw, bx = blk % bw;
        for (int p = 0; p < 64; p++) s[p] = coef[(size_t)blk * 64 + zz[p]] * quant_k1[p];
        for (int p = 0; p < 64; p++) {
            int acc = 0;
            for (int u = 0; u < 8; u++) acc += idct[(p & 7) * 8 + u] * s[(p >> 3) * 8 + u];
            t[p] = descale(acc, FIX);
        }
        for (int p = 0; p < 64; p++) {
            int acc = 0;
            for (int v = 0; v < 8; v++) acc += idct[(p >> 3) * 8 + v] * t[v * 8 + (p & 7)];
            img[(size_t)(by * 8 + (p >> 3)) * width + bx * 8 + (p & 7)] =
                (unsigned char)clamp255(descale(acc, FIX) + 128);
        }
    }
}

int main(int argc, char **argv)
{
    bench_args a = bench_parse(argc, argv, "jpegdec");
    int width = BENCH_PICK(a, 256, 1024, 4096), height = BENCH_PICK(a, 128, 512, 2048);
    int nblocks = (width / 8) * (height / 8);
    bench_rng rng = bench_rng_new(a.seed);

    int idct[64];
    unsigned char zz[64];
    for (int x = 0; x < 8; x++)
        for (int u = 0; u < 8; u++) {
            double cu = u ? 1.0 : sqrt(0.5);
            idct[x * 8 + u] = (int)lrint((1 << FIX) * cu / 2 * cos((2 * x + 1) * u * M_PI / 16));
        }
    make_zigzag(zz);
    /* Coefficients as an encoder leaves them: a DC term, a few low-frequency
       AC terms, and zeros further along the zigzag. */
    size_t ncoef = (size_t)nblocks * 64;
    short *coef = (short *)calloc(ncoef, sizeof(short));
    for (int b = 0; b < nblocks; b++) {
        coef[(size_t)b * 64] = (short)((int)bench_below(&rng, 64) - 32);
        for (int k = 1; k < 64; k++)
            if (bench_below(&rng, (uint32_t)k + 2) < 2)
                coef[(size_t)b * 64 + k] = (short)((int)bench_below(&rng, 9) - 4);
    }

    short *d_coef;
    unsigned char *d_img;
    BENCH_CUDA(cudaMalloc(&d_coef, sizeof(short) * ncoef));
    BENCH_CUDA(cudaMalloc(&d_img, (size_t)width * height));
    BENCH_CUDA(cudaMemcpy(d_coef, coef, sizeof(short) * ncoef, cudaMemcpyHostToDevice));
    BENCH_CUDA(cudaMemcpyToSymbol(c_idct, idct, sizeof idct));
    BENCH_CUDA(cudaMemcpyToSymbol(c_quant, quant_k1, sizeof quant_k1));
    BENCH_CUDA(cudaMemcpyToSymbol(c_zz, zz, sizeof zz));
    int ctas = (nblocks + BLOCKS_PER_CTA - 1) / BLOCKS_PER_CTA;
    jpeg_idct<<<ctas, 64 * BLOCKS_PER_CTA>>>(d_coef, d_img, width, nblocks);
    BENCH_LAUNCHED();

    size_t npix = (size_t)width * height;
    unsigned char *got = (unsigned char *)malloc(npix), *want = (unsigned char *)malloc(npix);
    BENCH_CUDA(cudaMemcpy(got, d_img, npix, cudaMemcpyDeviceToHost));
    decode_cpu(coef, idct, zz, want, width, nblocks);
    bench_corrupt(got, 1, npix / 2);
    size_t bad = 0;
    for (size_t i = 0; i < npix; i++)
        if (got[i] != want[i]) {
            if (bad < 5) fprintf(stderr, "pixel[%zu]: got %u want %u\n", i, got[i], want[i]);
            bad++;
        }

    char detail[64];
    snprintf(detail, sizeof detail, "image=%dx%d blocks=%d", width, height, nblocks);
    cudaFree(d_coef); cudaFree(d_img);
    free(coef); free(got); free(want);
    return bench_finish(&a, bad, detail);
}
