// stencil_halo.cu -- a third-party-style 1D three-point stencil: each block
// stages its tile plus one halo element on either side in shared memory,
// loading in[-1] and in[n] at the grid's borders unconditionally (as many
// real stencils do) and discarding them.  On a GPU those reads hit mapped
// memory and do not fault; the simulator must run it the same way and warn
// once per site at exit.  Self-checking against a CPU reference.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define BLOCK 128

__global__ void stencil(const float *in, float *out, int n)
{
    __shared__ float tile[BLOCK + 2];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int t = threadIdx.x + 1;
    tile[t] = in[i];
    if (threadIdx.x == 0) tile[0] = in[i - 1];                    // in[-1] in block 0
    if (threadIdx.x == blockDim.x - 1) tile[t + 1] = in[i + 1];   // in[n] in the last
    __syncthreads();
    float l = i > 0 ? tile[t - 1] : 0.0f;       // the halo values are discarded
    float r = i < n - 1 ? tile[t + 1] : 0.0f;
    out[i] = 0.25f * l + 0.5f * tile[t] + 0.25f * r;
}

static int check(cudaError_t e, const char *what)
{
    if (e == cudaSuccess) return 0;
    printf("stencil_halo: FAIL: %s: %s\n", what, cudaGetErrorName(e));
    return 1;
}

int main()
{
    const int n = 4 * BLOCK, steps = 3;
    float *h = (float *)malloc(n * sizeof(float)), *ref = (float *)malloc(n * sizeof(float));
    float *tmp = (float *)malloc(n * sizeof(float));
    for (int i = 0; i < n; i++) h[i] = ref[i] = (float)((i * 37) % 101);
    float *a, *b;
    if (check(cudaMalloc(&a, n * sizeof(float)), "cudaMalloc") ||
        check(cudaMalloc(&b, n * sizeof(float)), "cudaMalloc") ||
        check(cudaMemcpy(a, h, n * sizeof(float), cudaMemcpyHostToDevice), "cudaMemcpy"))
        return 1;
    for (int s = 0; s < steps; s++) {
        stencil<<<n / BLOCK, BLOCK>>>(s % 2 ? b : a, s % 2 ? a : b, n);
        if (check(cudaGetLastError(), "launch") || check(cudaDeviceSynchronize(), "kernel"))
            return 1;
        for (int i = 0; i < n; i++)
            tmp[i] = 0.25f * (i > 0 ? ref[i - 1] : 0.0f) + 0.5f * ref[i] +
                     0.25f * (i < n - 1 ? ref[i + 1] : 0.0f);
        for (int i = 0; i < n; i++) ref[i] = tmp[i];
    }
    if (check(cudaMemcpy(h, steps % 2 ? b : a, n * sizeof(float), cudaMemcpyDeviceToHost),
              "cudaMemcpy back"))
        return 1;
    for (int i = 0; i < n; i++)
        if (h[i] != ref[i]) {
            printf("stencil_halo: FAIL: out[%d] = %g, want %g\n", i, h[i], ref[i]);
            return 1;
        }
    printf("stencil_halo: PASS (%d points, %d steps)\n", n, steps);
    cudaFree(a);
    cudaFree(b);
    free(h); free(ref); free(tmp);
    return 0;
}
