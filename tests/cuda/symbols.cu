// symbols.cu -- warpsim exec test: __constant__ memory written with
// cudaMemcpyToSymbol (also at an offset), __device__ globals written by a
// kernel and read back with cudaMemcpyFromSymbol and cudaGetSymbolAddress.
#include <cstdio>

#define CHECK(call) do { cudaError_t e_ = (call); if (e_ != cudaSuccess) { \
    printf("FAIL: %s: %s\n", #call, cudaGetErrorString(e_)); return 1; } } while (0)

__constant__ float coef[4];
__device__ int hits;
__device__ float table[64];

// table[i] = coef[0] + coef[1]*i + coef[2]*i^2 + coef[3]*i^3
__global__ void poly(int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float x = (float)i;
    table[i] = coef[0] + x * (coef[1] + x * (coef[2] + x * coef[3]));
    atomicAdd(&hits, 1);
}

int main()
{
    const float c[4] = {1.0f, 2.0f, 0.5f, 0.0f};
    const float c3 = 0.25f;
    const int zero = 0;
    CHECK(cudaMemcpyToSymbol(coef, c, sizeof c));
    CHECK(cudaMemcpyToSymbol(coef, &c3, sizeof c3, 3 * sizeof(float)));   // coef[3]
    CHECK(cudaMemcpyToSymbol(hits, &zero, sizeof zero));
    poly<<<2, 32>>>(50);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    int h = -1;
    float t[64];
    CHECK(cudaMemcpyFromSymbol(&h, hits, sizeof h));
    CHECK(cudaMemcpyFromSymbol(t, table, sizeof t));
    if (h != 50) { printf("FAIL: hits %d, want 50\n", h); return 1; }
    for (int i = 0; i < 64; i++) {
        float x = (float)i;
        float want = i < 50 ? 1.0f + x * (2.0f + x * (0.5f + x * 0.25f)) : 0.0f;
        if (t[i] != want) { printf("FAIL: table[%d] = %f, want %f\n", i, t[i], want); return 1; }
    }
    float *addr = nullptr, t7 = 0;
    size_t size = 0;
    CHECK(cudaGetSymbolAddress((void **)&addr, table));
    CHECK(cudaGetSymbolSize(&size, table));
    CHECK(cudaMemcpy(&t7, addr + 7, sizeof t7, cudaMemcpyDeviceToHost));
    if (size != sizeof t || t7 != t[7]) { printf("FAIL: symbol size %zu, t7 %f\n", size, t7); return 1; }
    printf("symbols: PASS\n");
    return 0;
}
