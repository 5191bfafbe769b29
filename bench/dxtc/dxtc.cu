/*
** dxtc.cu -- DXT1 (BC1) compression by an exhaustive colour-endpoint search.
**
** 64 blocks of 64 threads (two warps) walk the image's 4x4 tiles. For a
** tile, threads 0..15 load one pixel each into shared memory and mark
** colours that an earlier pixel already has (a loop as long as the thread
** index). After a barrier every thread tries up to two candidate endpoint
** pairs -- two distinct pixel colours, rounded to RGB565 -- and measures
** the tile's squared error against the four-colour palette, skipping
** duplicate colours and stopping a pair once it is worse than the
** thread's best so far. A shuffle-and-shared-memory reduction finds the
** best pair, and the first warp writes the two endpoints and 32 bits of
** indices. How much a warp does between two barriers depends on the
** tile's colours (flat tiles skip nearly everything) and differs between
** the two warps: an asymmetric, compute-intensive kernel with few
** barriers. The result is integer-exact.
*/
#include "bench.h"

#define DXT_THREADS 64
#define DXT_PAIRS 120           /* unordered pairs of 16 pixels */
#define DXT_NONE 0xffffffffu

/* RGB565 of an 8-bit colour (0x00BBGGRR) and back to 8 bits per channel,
   replicating the high bits as decoders do. */
__host__ __device__ static inline unsigned dxt_565(unsigned c)
{
    return ((c & 0xf8u) << 8) | ((c >> 5) & 0x7e0u) | ((c >> 19) & 0x1fu);
}
__host__ __device__ static inline void dxt_888(unsigned c, int *r, int *g, int *b)
{
    int r5 = c >> 11, g6 = (c >> 5) & 63, b5 = c & 31;
    *r = (r5 << 3) | (r5 >> 2);
    *g = (g6 << 2) | (g6 >> 4);
    *b = (b5 << 3) | (b5 >> 2);
}

/* The four-colour palette of endpoints c0 > c1: c0, c1, 2/3 c0 + 1/3 c1,
   1/3 c0 + 2/3 c1, as (r, g, b) in pal[0..11]. */
__host__ __device__ static inline void dxt_palette(unsigned c0, unsigned c1, int *pal)
{
    dxt_888(c0, &pal[0], &pal[1], &pal[2]);
    dxt_888(c1, &pal[3], &pal[4], &pal[5]);
    for (int k = 0; k < 3; k++) {
        pal[6 + k] = (2 * pal[k] + pal[3 + k]) / 3;
        pal[9 + k] = (pal[k] + 2 * pal[3 + k]) / 3;
    }
}

/* Squared distance from pixel (r, g, b) to its nearest palette colour;
   that colour's index in *idx (the first on ties). */
__host__ __device__ static inline int dxt_nearest(const int *pal, int r, int g, int b, int *idx)
{
    int best = 1 << 30;
    for (int k = 0; k < 4; k++) {
        int dr = r - pal[3 * k], dg = g - pal[3 * k + 1], db = b - pal[3 * k + 2];
        int d = dr * dr + dg * dg + db * db;
        if (d < best) { best = d; *idx = k; }
    }
    return best;
}

/* Pixels (i, j), i < j, of candidate pair 'p' (pairs in lexicographic order). */
__host__ __device__ static inline void dxt_pair(int p, int *i, int *j)
{
    int a = 0;
    while (p >= 15 - a) { p -= 15 - a; a++; }
    *i = a;
    *j = a + 1 + p;
}

__global__ void dxt_compress(const unsigned *img, int width, int tiles, uint2 *out)
{
    __shared__ int s_rgb[16][3];
    __shared__ unsigned s_565[16];
    __shared__ int s_dup[16];
    __shared__ unsigned s_key[DXT_THREADS / 32];
    int t = threadIdx.x, lane = t % 32, tiles_x = width / 4;
    for (int tile = blockIdx.x; tile < tiles; tile += gridDim.x) {
        /* load the tile; a colour an earlier pixel has is a duplicate */
        if (t < 16) {
            int x = tile % tiles_x * 4 + t % 4, y = tile / tiles_x * 4 + t / 4;
            unsigned c = img[(size_t)y * width + x], c565 = dxt_565(c);
            s_rgb[t][0] = c & 0xff; s_rgb[t][1] = (c >> 8) & 0xff; s_rgb[t][2] = (c >> 16) & 0xff;
            s_565[t] = c565;
            __syncwarp(0xffffu);
            int dup = 0;
            for (int k = 0; k < t && !dup; k++) dup = s_565[k] == c565;
            s_dup[t] = dup;
        }
        __syncthreads();
        /* up to two candidate pairs per thread */
        unsigned key = DXT_NONE;
        for (int p = t; p < DXT_PAIRS; p += DXT_THREADS) {
            int i, j;
            dxt_pair(p, &i, &j);
            unsigned ci = s_565[i], cj = s_565[j];
            if (s_dup[i] || s_dup[j] || ci == cj) continue;
            int pal[12], err = 0, idx;
            dxt_palette(ci > cj ? ci : cj, ci > cj ? cj : ci, pal);
            int bound = key == DXT_NONE ? 1 << 30 : (int)(key >> 7);
            for (int k = 0; k < 16 && err < bound; k++)
                err += dxt_nearest(pal, s_rgb[k][0], s_rgb[k][1], s_rgb[k][2], &idx);
            if (err < bound) key = (unsigned)err << 7 | (unsigned)p;
        }
        /* block minimum of the keys: error first, then pair index */
        for (int o = 16; o > 0; o >>= 1) key = min(key, __shfl_xor_sync(0xffffffffu, key, o));
        if (lane == 0) s_key[t / 32] = key;
        __syncthreads();
        if (t < 32) {
            key = min(s_key[0], s_key[1]);
            unsigned c0, c1, bits = 0;
            if (key == DXT_NONE) {              /* one colour: c0 == c1, indices 0 */
                c0 = c1 = s_565[0];
            } else {
                int i, j, idx = 0, pal[12];
                dxt_pair(key & 127, &i, &j);
                c0 = max(s_565[i], s_565[j]);
                c1 = min(s_565[i], s_565[j]);
                dxt_palette(c0, c1, pal);
                if (t < 16) {
                    dxt_nearest(pal, s_rgb[t][0], s_rgb[t][1], s_rgb[t][2], &idx);
                    bits = (unsigned)idx << (2 * t);
                }
                for (int o = 16; o > 0; o >>= 1) bits |= __shfl_xor_sync(0xffffffffu, bits, o);
            }
            if (t == 0) out[tile] = make_uint2(c0 | c1 << 16, bits);
        }
        __syncthreads();                        /* shared memory is reused */
    }
}

/* Host reference: the same exhaustive search over all pairs. */
static void dxt_cpu(const unsigned *img, int width, int tiles, unsigned *out)
{
    for (int tile = 0; tile < tiles; tile++) {
        int rgb[16][3], dup[16];
        unsigned c565[16];
        for (int t = 0; t < 16; t++) {
            int x = tile % (width / 4) * 4 + t % 4, y = tile / (width / 4) * 4 + t / 4;
            unsigned c = img[(size_t)y * width + x];
            rgb[t][0] = c & 0xff; rgb[t][1] = (c >> 8) & 0xff; rgb[t][2] = (c >> 16) & 0xff;
            c565[t] = dxt_565(c);
            dup[t] = 0;
            for (int k = 0; k < t; k++) dup[t] |= c565[k] == c565[t];
        }
        long best = -1;
        int best_p = -1, idx;
        for (int p = 0; p < DXT_PAIRS; p++) {
            int i, j, pal[12];
            long err = 0;
            dxt_pair(p, &i, &j);
            if (dup[i] || dup[j] || c565[i] == c565[j]) continue;
            unsigned hi = c565[i] > c565[j] ? c565[i] : c565[j];
            dxt_palette(hi, c565[i] ^ c565[j] ^ hi, pal);
            for (int k = 0; k < 16; k++) err += dxt_nearest(pal, rgb[k][0], rgb[k][1], rgb[k][2], &idx);
            if (best < 0 || err < best) { best = err; best_p = p; }
        }
        unsigned c0 = c565[0], c1 = c565[0], bits = 0;
        if (best_p >= 0) {
            int i, j, pal[12];
            dxt_pair(best_p, &i, &j);
            c0 = c565[i] > c565[j] ? c565[i] : c565[j];
            c1 = c565[i] ^ c565[j] ^ c0;
            dxt_palette(c0, c1, pal);
            for (int k = 0; k < 16; k++) {
                dxt_nearest(pal, rgb[k][0], rgb[k][1], rgb[k][2], &idx);
                bits |= (unsigned)idx << (2 * k);
            }
        }
        out[2 * tile] = c0 | c1 << 16;
        out[2 * tile + 1] = bits;
    }
}

/* A test image of 16x16 regions: flat colour, two-tone, smooth gradient
   or noise, so that tiles range from nothing to search to all 120 pairs. */
static void dxt_image(bench_rng *rng, unsigned *img, int w, int h)
{
    for (int ry = 0; ry < h; ry += 16)
        for (int rx = 0; rx < w; rx += 16) {
            int kind = (int)bench_below(rng, 4);
            unsigned a = (unsigned)bench_next(rng) & 0xffffff, b = (unsigned)bench_next(rng) & 0xffffff;
            for (int y = ry; y < ry + 16 && y < h; y++)
                for (int x = rx; x < rx + 16 && x < w; x++) {
                    unsigned c = a;
                    if (kind == 1) c = ((x ^ y) & 2) ? a : b;
                    else if (kind == 2) {
                        int f = (x - rx) * 16 + (y - ry);   /* 0..255 */
                        c = 0;
                        for (int s = 0; s < 24; s += 8) {
                            int ca = (a >> s) & 0xff, cb = (b >> s) & 0xff;
                            c |= (unsigned)((ca * (255 - f) + cb * f) / 255) << s;
                        }
                    } else if (kind == 3)
                        c = (unsigned)bench_next(rng) & 0xffffff;
                    img[(size_t)y * w + x] = c;
                }
        }
}

int main(int argc, char **argv)
{
    bench_args a = bench_parse(argc, argv, "dxtc");
    int side = BENCH_PICK(a, 32, 96, 256), blocks = BENCH_PICK(a, 16, 64, 64);
    int tiles = side / 4 * (side / 4);
    bench_rng rng = bench_rng_new(a.seed);
    unsigned *img = (unsigned *)malloc((size_t)side * side * sizeof(unsigned));
    unsigned *got = (unsigned *)malloc(2 * (size_t)tiles * sizeof(unsigned));
    unsigned *want = (unsigned *)malloc(2 * (size_t)tiles * sizeof(unsigned));
    dxt_image(&rng, img, side, side);
    unsigned *d_img;
    uint2 *d_out;
    BENCH_CUDA(cudaMalloc((void **)&d_img, (size_t)side * side * sizeof(unsigned)));
    BENCH_CUDA(cudaMalloc((void **)&d_out, (size_t)tiles * sizeof(uint2)));
    BENCH_CUDA(cudaMemcpy(d_img, img, (size_t)side * side * sizeof(unsigned), cudaMemcpyHostToDevice));
    dxt_compress<<<blocks, DXT_THREADS>>>(d_img, side, tiles, d_out);
    BENCH_LAUNCHED();
    BENCH_CUDA(cudaMemcpy(got, d_out, (size_t)tiles * sizeof(uint2), cudaMemcpyDeviceToHost));

    dxt_cpu(img, side, tiles, want);
    bench_corrupt(got, sizeof(unsigned), tiles + 1);
    size_t bad = bench_check_u32(got, want, 2 * (size_t)tiles, "block");
    char detail[96];
    snprintf(detail, sizeof detail, "image=%dx%d tiles=%d blocks=%d", side, side, tiles, blocks);
    int rc = bench_finish(&a, bad, detail);
    cudaFree(d_img); cudaFree(d_out);
    free(img); free(got); free(want);
    return rc;
}
