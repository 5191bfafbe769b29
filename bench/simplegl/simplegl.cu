/*
** simplegl.cu -- sine-wave vertex mesh, one animation frame per launch.
**
** Every thread turns its mesh coordinates (x, y) and the frame time into
** one float4 vertex (u, w, v, 1) with w = sin(4u + t) cos(4v + t) / 2 and
** stores it: no loads, one 16-byte store per thread, a few dozen
** instructions around it. 8x8 blocks (two warps), no branches that depend
** on the data, so every warp runs exactly as many instructions as every
** other (max/min 1.000): a symmetric, store-bound kernel.
*/
#include "bench.h"

#define GL_BLOCK 8              /* 8x8 threads: two warps per block */
#define GL_FREQ 4.0f

__global__ void simplegl_wave(float4 *pos, unsigned width, unsigned height, float time)
{
    unsigned x = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned y = blockIdx.y * blockDim.y + threadIdx.y;
    float u = x / (float)width * 2.0f - 1.0f;
    float v = y / (float)height * 2.0f - 1.0f;
    /* the SDK's fast sine and cosine: no range-reduction branches */
    float w = __sinf(u * GL_FREQ + time) * __cosf(v * GL_FREQ + time) * 0.5f;
    pos[y * width + x] = make_float4(u, w, v, 1.0f);
}

static void simplegl_cpu(float *out, unsigned width, unsigned height, float time)
{
    for (unsigned y = 0; y < height; y++)
        for (unsigned x = 0; x < width; x++) {
            float u = x / (float)width * 2.0f - 1.0f, v = y / (float)height * 2.0f - 1.0f;
            float *p = out + 4 * ((size_t)y * width + x);
            p[0] = u;
            p[1] = (float)(sin(u * GL_FREQ + time) * cos(v * GL_FREQ + time) * 0.5);
            p[2] = v;
            p[3] = 1.0f;
        }
}

int main(int argc, char **argv)
{
    bench_args a = bench_parse(argc, argv, "simplegl");
    unsigned side = BENCH_PICK(a, 128, 256, 512);
    int frames = BENCH_PICK(a, 2, 4, 8);
    size_t verts = (size_t)side * side, floats = 4 * verts * frames;
    bench_rng rng = bench_rng_new(a.seed);
    float t0 = bench_uniform(&rng, 0.f, 1.f);   /* the seed picks the animation phase */
    float *got = (float *)malloc(floats * sizeof(float));
    float *want = (float *)malloc(floats * sizeof(float));
    float4 *d_pos;
    BENCH_CUDA(cudaMalloc((void **)&d_pos, floats * sizeof(float)));
    dim3 block(GL_BLOCK, GL_BLOCK), grid(side / GL_BLOCK, side / GL_BLOCK);
    /* one launch per frame, each into its own vertex buffer (as an
       application keeping the last frames would) */
    for (int f = 0; f < frames; f++) {
        simplegl_wave<<<grid, block>>>(d_pos + f * verts, side, side, t0 + 0.01f * f);
        BENCH_LAUNCHED();
    }
    BENCH_CUDA(cudaMemcpy(got, d_pos, floats * sizeof(float), cudaMemcpyDeviceToHost));

    for (int f = 0; f < frames; f++) simplegl_cpu(want + 4 * verts * f, side, side, t0 + 0.01f * f);
    bench_corrupt(got, sizeof(float), floats / 2 + 1);
    /* __sinf/__cosf: absolute error about 1e-6 for these small arguments;
       u and v are computed exactly as on the host */
    size_t bad = bench_check_f32(got, want, floats, 0.f, 2e-5f, "pos");
    char detail[96];
    snprintf(detail, sizeof detail, "mesh=%ux%u frames=%d", side, side, frames);
    int rc = bench_finish(&a, bad, detail);
    cudaFree(d_pos);
    free(got); free(want);
    return rc;
}
