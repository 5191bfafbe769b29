/*
** sad.cu -- motion estimation by sum of absolute differences (like Parboil
** sad's first kernel, Mascar Table III: sad-1, C, Comp/Mem 2563).
**
** Each thread takes one 4x4 block of the current frame into registers and
** tries every offset within +-R pixels of it in the reference frame, whose
** window around the CTA's 32x32 region sits in shared memory (clamped at
** the frame's edges).  It writes only the best SAD and its offset: 16
** loads, (2R+1)^2 x 16 absolute differences, two stores per thread, so
** thousands of instructions per L1 miss.  Integer pixels: exact.
*/
#include "bench.h"

#define R 8                       /* search range: offsets -R..R each way */
#define REGION 32                 /* pixels per side of a CTA's region */
#define WIN (REGION + 2 * R)      /* reference window per side */

__global__ void sad_search(const int *cur, const int *ref, int w, int h, int *best)
{
    __shared__ int win[WIN * WIN];
    int rx = blockIdx.x * REGION, ry = blockIdx.y * REGION;
    for (int i = threadIdx.x; i < WIN * WIN; i += blockDim.x) {
        int x = min(max(rx - R + i % WIN, 0), w - 1), y = min(max(ry - R + i / WIN, 0), h - 1);
        win[i] = ref[y * w + x];
    }
    int bx = threadIdx.x % (REGION / 4) * 4, by = threadIdx.x / (REGION / 4) * 4;
    int c[16];
    for (int k = 0; k < 16; k++) c[k] = cur[(ry + by + k / 4) * w + rx + bx + k % 4];
    __syncthreads();
    int bs = 0x7fffffff, bo = 0;
    for (int dy = -R; dy <= R; dy++)
        for (int dx = -R; dx <= R; dx++) {
            int s = 0;
            for (int k = 0; k < 16; k++)
                s += abs(c[k] - win[(by + k / 4 + dy + R) * WIN + bx + k % 4 + dx + R]);
            if (s < bs) { bs = s; bo = (dy + R) * (2 * R + 1) + dx + R; }
        }
    int blk = ((ry + by) / 4) * (w / 4) + (rx + bx) / 4;
    best[2 * blk] = bs;
    best[2 * blk + 1] = bo;
}

static int px(const int *f, int w, int h, int x, int y)
{
    x = x < 0 ? 0 : x >= w ? w - 1 : x;
    y = y < 0 ? 0 : y >= h ? h - 1 : y;
    return f[y * w + x];
}

int main(int argc, char **argv)
{
    bench_args a = bench_parse(argc, argv, "sad");
    int w = BENCH_PICK(a, 64, 128, 256), h = BENCH_PICK(a, 64, 96, 256);
    size_t n = (size_t)w * h, nblk = n / 16;
    bench_rng rng = bench_rng_new(a.seed);
    int *cur = (int *)malloc(n * sizeof(int)), *ref = (int *)malloc(n * sizeof(int));
    for (size_t i = 0; i < n; i++) ref[i] = (int)bench_below(&rng, 256);
    for (int y = 0; y < h; y++)   /* the current frame: the reference moved by (3, -2), plus noise */
        for (int x = 0; x < w; x++)
            cur[y * w + x] = px(ref, w, h, x + 3, y - 2) + (int)bench_below(&rng, 9) - 4;
    int *d_cur, *d_ref, *d_best;
    uint32_t *got = (uint32_t *)malloc(2 * nblk * sizeof(uint32_t));
    uint32_t *want = (uint32_t *)malloc(2 * nblk * sizeof(uint32_t));
    BENCH_CUDA(cudaMalloc((void **)&d_cur, n * sizeof(int)));
    BENCH_CUDA(cudaMalloc((void **)&d_ref, n * sizeof(int)));
    BENCH_CUDA(cudaMalloc((void **)&d_best, 2 * nblk * sizeof(int)));
    BENCH_CUDA(cudaMemcpy(d_cur, cur, n * sizeof(int), cudaMemcpyHostToDevice));
    BENCH_CUDA(cudaMemcpy(d_ref, ref, n * sizeof(int), cudaMemcpyHostToDevice));
    sad_search<<<dim3(w / REGION, h / REGION), (REGION / 4) * (REGION / 4)>>>(d_cur, d_ref, w, h, d_best);
    BENCH_LAUNCHED();
    BENCH_CUDA(cudaMemcpy(got, d_best, 2 * nblk * sizeof(int), cudaMemcpyDeviceToHost));

    for (int by = 0; by < h; by += 4)
        for (int bx = 0; bx < w; bx += 4) {
            int bs = 0x7fffffff, bo = 0;
            for (int dy = -R; dy <= R; dy++)
                for (int dx = -R; dx <= R; dx++) {
                    int s = 0;   /* the GPU's window holds the frame clamped at its edges */
                    for (int k = 0; k < 16; k++)
                        s += abs(cur[(by + k / 4) * w + bx + k % 4]
                                 - px(ref, w, h, bx + k % 4 + dx, by + k / 4 + dy));
                    if (s < bs) { bs = s; bo = (dy + R) * (2 * R + 1) + dx + R; }
                }
            size_t blk = (size_t)(by / 4) * (w / 4) + bx / 4;
            want[2 * blk] = (uint32_t)bs;
            want[2 * blk + 1] = (uint32_t)bo;
        }
    bench_corrupt(got, sizeof(uint32_t), nblk + 1);
    size_t bad = bench_check_u32(got, want, 2 * nblk, "best");
    char detail[64];
    snprintf(detail, sizeof detail, "frame=%dx%d range=%d", w, h, R);
    int rc = bench_finish(&a, bad, detail);
    cudaFree(d_cur); cudaFree(d_ref); cudaFree(d_best);
    free(cur); free(ref); free(got); free(want);
    return rc;
}
