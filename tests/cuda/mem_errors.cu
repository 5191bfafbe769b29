// mem_errors.cu -- device-memory misuse a program can survive or must be
// told about: cudaMemGetInfo follows the allocations, cudaMalloc beyond
// totalGlobalMem fails, a double free is an error (not a crash), and a
// kernel writing through a freed pointer.  Prints what each call returned;
// run_mem.sh checks it without and with --memcheck.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void poke(int *p, int v) { p[threadIdx.x] = v; }

int main()
{
    int bad = 0;
    cudaDeviceProp prop;
    cudaGetDeviceProperties(&prop, 0);
    size_t free0, total;
    cudaMemGetInfo(&free0, &total);
    if (total != prop.totalGlobalMem) { printf("FAIL: total %zu\n", total); bad = 1; }
    int *a, *keep;
    cudaMalloc(&a, 1 << 20);
    cudaMalloc(&keep, 256);
    size_t free1;
    cudaMemGetInfo(&free1, &total);
    if (free0 - free1 != (1 << 20) + 256) {
        printf("FAIL: cudaMemGetInfo: free went from %zu to %zu\n", free0, free1);
        bad = 1;
    }
    void *huge;
    cudaError_t e = cudaMalloc(&huge, prop.totalGlobalMem);
    printf("malloc beyond the device: %s\n", cudaGetErrorName(e));
    cudaGetLastError();
    if (e != cudaErrorMemoryAllocation) bad = 1;
    cudaFree(a);
    cudaMemGetInfo(&free1, &total);
    if (free0 - free1 != 256) { printf("FAIL: cudaFree did not give back\n"); bad = 1; }
    e = cudaFree(a);
    printf("double free: %s\n", cudaGetErrorName(e));
    cudaGetLastError();
    if (e != cudaErrorInvalidValue) bad = 1;
    poke<<<1, 32>>>(a, 7);   // use after free
    e = cudaDeviceSynchronize();
    printf("use after free: %s\n", cudaGetErrorName(e));
    printf(bad ? "mem_errors: FAIL\n" : "mem_errors: done\n");
    return bad;
}
