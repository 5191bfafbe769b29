// assert.cu -- warpsim exec test: a failing device assert is
// cudaErrorAssert (710), reported by the synchronize and sticky afterwards
// (every later call returns it), as on a real GPU.
#include <cassert>
#include <cstdio>

__global__ void check(const int *x) { assert(x[threadIdx.x] == 0); }

int main()
{
    int *d;
    if (cudaMalloc(&d, 32 * sizeof(int)) != cudaSuccess ||
        cudaMemset(d, 1, 32 * sizeof(int)) != cudaSuccess) {
        printf("FAIL: setup\n");
        return 1;
    }
    check<<<1, 32>>>(d);
    cudaError_t e = cudaDeviceSynchronize();
    if (e != cudaErrorAssert) {
        printf("FAIL: synchronize returned %d (%s), want 710\n", (int)e, cudaGetErrorName(e));
        return 1;
    }
    int h = 0;
    e = cudaMemcpy(&h, d, sizeof h, cudaMemcpyDeviceToHost);
    if (e != cudaErrorAssert || cudaGetLastError() != cudaErrorAssert) {
        printf("FAIL: not sticky: cudaMemcpy returned %d\n", (int)e);
        return 1;
    }
    printf("assert: PASS\n");
    return 0;
}
