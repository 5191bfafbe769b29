/*
** mersenne.cu -- Mersenne-twister-like generators, one state per thread,
** followed by a Box-Muller transform.
**
** mt_generate: every thread owns a 19-word twisted-GFSR state (kept in
** local memory, indexed circularly) with its own twist and tempering
** parameters, and writes its stream strided by the thread count so each
** store is coalesced. mt_boxmuller turns pairs of uniforms into normals.
** Equal work per warp, a load/store every few instructions: memory-bound.
*/
#include "bench.h"

#define MT_N 19
#define MT_M 9
#define MT_UPPER 0xfffffffeu   /* r = 1: 19 * 32 - 1 = 607 state bits */
#define MT_LOWER 0x00000001u
#define MT_SHIFT0 12
#define MT_SHIFTB 7
#define MT_SHIFTC 15
#define MT_SHIFT1 18

typedef struct mt_params { unsigned matrix_a, mask_b, mask_c, seed; } mt_params;

__host__ __device__ static inline unsigned mt_temper(unsigned y, const mt_params p)
{
    y ^= y >> MT_SHIFT0;
    y ^= (y << MT_SHIFTB) & p.mask_b;
    y ^= (y << MT_SHIFTC) & p.mask_c;
    y ^= y >> MT_SHIFT1;
    return y;
}

__global__ void mt_generate(const mt_params *params, unsigned *out, int per_thread)
{
    int tid = blockIdx.x * blockDim.x + threadIdx.x, nthreads = gridDim.x * blockDim.x;
    mt_params p = params[tid];
    unsigned mt[MT_N];
    mt[0] = p.seed;
    for (int i = 1; i < MT_N; i++) mt[i] = 1812433253u * (mt[i - 1] ^ (mt[i - 1] >> 30)) + i;
    int i0 = 0, i1 = 1, im = MT_M;
    unsigned x0 = mt[0];
    for (int k = 0; k < per_thread; k++) {
        unsigned x1 = mt[i1], xm = mt[im];
        unsigned y = (x0 & MT_UPPER) | (x1 & MT_LOWER);
        y = xm ^ (y >> 1) ^ ((x1 & 1) ? p.matrix_a : 0u);
        mt[i0] = y;
        x0 = x1;
        i0 = i1;
        i1 = i1 + 1 == MT_N ? 0 : i1 + 1;
        im = im + 1 == MT_N ? 0 : im + 1;
        out[(size_t)k * nthreads + tid] = mt_temper(y, p);
    }
}

__global__ void mt_boxmuller(const unsigned *in, float *out, int pairs)
{
    int stride = gridDim.x * blockDim.x;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < pairs; i += stride) {
        float u1 = ((float)in[2 * i] + 1.0f) * (1.0f / 4294967296.0f);
        float u2 = (float)in[2 * i + 1] * (1.0f / 4294967296.0f);
        float r = sqrtf(-2.0f * logf(u1));
        float s, c;
        sincosf(6.28318530717958647692f * u2, &s, &c);
        out[2 * i] = r * c;
        out[2 * i + 1] = r * s;
    }
}

static void mt_cpu(const mt_params *params, unsigned *out, int nthreads, int per_thread)
{
    for (int tid = 0; tid < nthreads; tid++) {
        mt_params p = params[tid];
        unsigned mt[MT_N];
        mt[0] = p.seed;
        for (int i = 1; i < MT_N; i++) mt[i] = 1812433253u * (mt[i - 1] ^ (mt[i - 1] >> 30)) + i;
        for (int k = 0; k < per_thread; k++) {
            int i0 = k % MT_N, i1 = (k + 1) % MT_N, im = (k + MT_M) % MT_N;
            unsigned y = (mt[i0] & MT_UPPER) | (mt[i1] & MT_LOWER);
            mt[i0] = mt[im] ^ (y >> 1) ^ ((mt[i1] & 1) ? p.matrix_a : 0u);
            out[(size_t)k * nthreads + tid] = mt_temper(mt[i0], p);
        }
    }
}

static size_t mt_check_normals(const float *got, const unsigned *u, size_t pairs)
{
    size_t bad = 0;
    for (size_t i = 0; i < pairs; i++) {
        /* same float roundings as the device for the inputs of log and sincos */
        float u1 = ((float)u[2 * i] + 1.0f) * (1.0f / 4294967296.0f);
        float angle = 6.28318530717958647692f * ((float)u[2 * i + 1] * (1.0f / 4294967296.0f));
        double r = sqrt(-2 * log((double)u1)), want[2] = { r * cos(angle), r * sin(angle) };
        for (int k = 0; k < 2; k++)
            if (!(fabs(got[2 * i + k] - want[k]) <= 1e-5 + 1e-5 * fabs(want[k]))) {
                if (bad < 5) fprintf(stderr, "normal[%zu]: got %.9g want %.9g\n", 2 * i + k, got[2 * i + k], want[k]);
                bad++;
            }
    }
    return bad;
}

int main(int argc, char **argv)
{
    bench_args a = bench_parse(argc, argv, "mersenne");
    int threads = 128, blocks = BENCH_PICK(a, 32, 64, 128);
    int per_thread = BENCH_PICK(a, 64, 320, 800);
    int nthreads = blocks * threads;
    size_t total = (size_t)nthreads * per_thread;
    bench_rng rng = bench_rng_new(a.seed);
    mt_params *params = (mt_params *)malloc(nthreads * sizeof(mt_params));
    for (int t = 0; t < nthreads; t++) {
        params[t].matrix_a = (unsigned)bench_next(&rng) | 0x80000000u;
        params[t].mask_b = (unsigned)bench_next(&rng) & 0x9d2c5680u;
        params[t].mask_c = (unsigned)bench_next(&rng) & 0xefc60000u;
        params[t].seed = (unsigned)bench_next(&rng);
    }
    mt_params *d_params;
    unsigned *d_rand;
    float *d_norm;
    BENCH_CUDA(cudaMalloc((void **)&d_params, nthreads * sizeof(mt_params)));
    BENCH_CUDA(cudaMalloc((void **)&d_rand, total * sizeof(unsigned)));
    BENCH_CUDA(cudaMalloc((void **)&d_norm, total * sizeof(float)));
    BENCH_CUDA(cudaMemcpy(d_params, params, nthreads * sizeof(mt_params), cudaMemcpyHostToDevice));
    mt_generate<<<blocks, threads>>>(d_params, d_rand, per_thread);
    BENCH_LAUNCHED();
    mt_boxmuller<<<blocks, threads>>>(d_rand, d_norm, (int)(total / 2));
    BENCH_LAUNCHED();
    unsigned *h_rand = (unsigned *)malloc(total * sizeof(unsigned)), *ref = (unsigned *)malloc(total * sizeof(unsigned));
    float *h_norm = (float *)malloc(total * sizeof(float));
    BENCH_CUDA(cudaMemcpy(h_rand, d_rand, total * sizeof(unsigned), cudaMemcpyDeviceToHost));
    BENCH_CUDA(cudaMemcpy(h_norm, d_norm, total * sizeof(float), cudaMemcpyDeviceToHost));

    mt_cpu(params, ref, nthreads, per_thread);
    bench_corrupt(h_rand, sizeof(unsigned), total / 2 + 3);
    size_t bad = bench_check_u32(h_rand, ref, total, "rand");
    bad += mt_check_normals(h_norm, ref, total / 2);
    char detail[96];
    snprintf(detail, sizeof detail, "generators=%d per_thread=%d", nthreads, per_thread);
    int rc = bench_finish(&a, bad, detail);
    cudaFree(d_params); cudaFree(d_rand); cudaFree(d_norm);
    free(params); free(h_rand); free(ref); free(h_norm);
    return rc;
}
