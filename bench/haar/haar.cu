/*
** haar.cu -- full 1D Haar wavelet decomposition in shared memory.
**
** A block loads 2*T samples, then runs log2(2T) levels: at each level the
** first `half` threads turn pairs into an average and a detail coefficient
** (written straight to its slot in the output), with barriers between
** levels. The active set halves every level, so the first warp runs many
** more instructions than the others. A second pass decomposes the block
** averages the same way. Standard layout: out[0] = overall average, the
** details of the level with c coefficients at out[c .. 2c).
*/
#include "bench.h"

#define HAAR_MAX_THREADS 256
#define HAAR_RSQRT2 0.70710678118654752440f

__global__ void haar_pass(const float *in, float *out, float *averages, int len)
{
    __shared__ float s[2 * HAAR_MAX_THREADS];
    int t = threadIdx.x, nt = blockDim.x;
    const float *chunk = in + (size_t)blockIdx.x * 2 * nt;
    s[t] = chunk[t];
    s[t + nt] = chunk[t + nt];
    __syncthreads();
    int level_len = len;                        /* signal length at this level */
    for (int half = nt; half >= 1; half >>= 1) {
        float avg = 0.f;
        if (t < half) {
            float x = s[2 * t], y = s[2 * t + 1];
            avg = (x + y) * HAAR_RSQRT2;
            out[level_len / 2 + blockIdx.x * half + t] = (x - y) * HAAR_RSQRT2;
        }
        __syncthreads();
        if (t < half) s[t] = avg;
        __syncthreads();
        level_len /= 2;
    }
    if (t == 0) {
        averages[blockIdx.x] = s[0];
        if (gridDim.x == 1) out[0] = s[0];
    }
}

static void haar_cpu(const float *in, float *out, int n)
{
    float *cur = (float *)malloc(n * sizeof(float)), *next = (float *)malloc(n * sizeof(float));
    memcpy(cur, in, n * sizeof(float));
    for (int len = n; len > 1; len /= 2) {
        for (int i = 0; i < len / 2; i++) {
            next[i] = (cur[2 * i] + cur[2 * i + 1]) * HAAR_RSQRT2;
            out[len / 2 + i] = (cur[2 * i] - cur[2 * i + 1]) * HAAR_RSQRT2;
        }
        float *t = cur; cur = next; next = t;
    }
    out[0] = cur[0];
    free(cur); free(next);
}

int main(int argc, char **argv)
{
    bench_args a = bench_parse(argc, argv, "haar");
    int n = BENCH_PICK(a, 1 << 17, 1 << 20, 1 << 23);
    bench_rng rng = bench_rng_new(a.seed);
    float *h_in = (float *)malloc(n * sizeof(float)), *got = (float *)malloc(n * sizeof(float));
    float *want = (float *)malloc(n * sizeof(float));
    for (int i = 0; i < n; i++) h_in[i] = bench_uniform(&rng, -1.f, 1.f) + (i & 1024 ? 0.5f : 0.f);
    float *d_in, *d_out, *d_avg[2];
    BENCH_CUDA(cudaMalloc((void **)&d_in, n * sizeof(float)));
    BENCH_CUDA(cudaMalloc((void **)&d_out, n * sizeof(float)));
    BENCH_CUDA(cudaMalloc((void **)&d_avg[0], n / 2 * sizeof(float)));
    BENCH_CUDA(cudaMalloc((void **)&d_avg[1], n / 2 * sizeof(float)));
    BENCH_CUDA(cudaMemcpy(d_in, h_in, n * sizeof(float), cudaMemcpyHostToDevice));
    const float *src = d_in;
    int passes = 0;
    for (int len = n; len > 1; passes++) {
        int threads = len / 2 < HAAR_MAX_THREADS ? len / 2 : HAAR_MAX_THREADS;
        int blocks = len / (2 * threads);
        haar_pass<<<blocks, threads>>>(src, d_out, d_avg[passes & 1], len);
        BENCH_LAUNCHED();
        src = d_avg[passes & 1];
        len = blocks;
    }
    BENCH_CUDA(cudaMemcpy(got, d_out, n * sizeof(float), cudaMemcpyDeviceToHost));

    haar_cpu(h_in, want, n);
    bench_corrupt(got, sizeof(float), n / 2 + 11);
    /* coarse coefficients grow like sqrt(2)^level; the sums are short */
    size_t bad = bench_check_f32(got, want, n, 1e-5f, 1e-5f, "coef");
    char detail[96];
    snprintf(detail, sizeof detail, "n=%d passes=%d", n, passes);
    int rc = bench_finish(&a, bad, detail);
    cudaFree(d_in); cudaFree(d_out); cudaFree(d_avg[0]); cudaFree(d_avg[1]);
    free(h_in); free(got); free(want);
    return rc;
}
