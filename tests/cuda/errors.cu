// errors.cu -- warpsim exec test: a launch with too many threads per block
// is reported through cudaGetLastError (and cleared by it), later work
// still runs, and an entry point the simulator lacks returns an error
// with a message instead of crashing.
#include <cstdio>
#include <cstring>

__global__ void inc(int *x) { x[threadIdx.x] += 1; }

int main()
{
    int *d, h[32];
    if (cudaMalloc(&d, sizeof h) != cudaSuccess) { printf("FAIL: cudaMalloc\n"); return 1; }
    cudaMemset(d, 0, sizeof h);
    inc<<<1, 2048>>>(d);                            // 2048 > 1024 threads per block
    cudaError_t e = cudaGetLastError();
    if (e != cudaErrorInvalidConfiguration) {
        printf("FAIL: launch error %d (%s), want cudaErrorInvalidConfiguration\n", (int)e,
               cudaGetErrorName(e));
        return 1;
    }
    if (strcmp(cudaGetErrorName(e), "cudaErrorInvalidConfiguration") != 0 ||
        cudaGetLastError() != cudaSuccess) {
        printf("FAIL: error name or reset\n");
        return 1;
    }
    inc<<<1, 32>>>(d);
    if (cudaDeviceSynchronize() != cudaSuccess ||
        cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost) != cudaSuccess || h[31] != 1) {
        printf("FAIL: the launch after the error did not run\n");
        return 1;
    }
    cudaGraph_t g;
    e = cudaGraphCreate(&g, 0);                     // not implemented by the simulator
    if (e != cudaErrorNotSupported || cudaGetLastError() != cudaErrorNotSupported) {
        printf("FAIL: cudaGraphCreate returned %d\n", (int)e);
        return 1;
    }
    cudaFree(d);
    printf("errors: PASS\n");
    return 0;
}
