// badptx.cu -- warpsim exec test: a launch whose PTX the simulator cannot
// load (cp.async, which warpsim does not implement) is an error the program
// sees: cudaGetLastError right after the launch and the next synchronize
// report it; it is not sticky (CUDA reports a JIT failure per launch), so
// the device still copies memory afterwards.  Built with -arch=sm_80.
#include <cstdio>

__global__ void uses_cp_async(int *x)
{
#if __CUDA_ARCH__ >= 800
    asm volatile("cp.async.wait_all;" ::: "memory");
#endif
    x[threadIdx.x] = 1;
}

static int expect(const char *what, cudaError_t got, cudaError_t want)
{
    if (got == want) return 0;
    printf("FAIL: %s returned %d (%s), want %d (%s)\n", what, (int)got, cudaGetErrorName(got),
           (int)want, cudaGetErrorName(want));
    return 1;
}

int main()
{
    int *d, h[32];
    for (int i = 0; i < 32; i++) h[i] = 7;
    if (expect("cudaMalloc", cudaMalloc(&d, sizeof h), cudaSuccess)) return 1;
    uses_cp_async<<<1, 32>>>(d);
    if (expect("cudaGetLastError after the launch", cudaGetLastError(), cudaErrorInvalidPtx) ||
        expect("cudaGetLastError again", cudaGetLastError(), cudaSuccess))
        return 1;
    uses_cp_async<<<1, 32>>>(d);
    if (expect("cudaDeviceSynchronize after the launch", cudaDeviceSynchronize(),
               cudaErrorInvalidPtx) ||
        expect("cudaGetLastError after the synchronize", cudaGetLastError(),
               cudaErrorInvalidPtx) ||
        expect("a second cudaDeviceSynchronize", cudaDeviceSynchronize(), cudaSuccess))
        return 1;
    // not sticky: memory still works and nothing was written by the kernel
    if (expect("cudaMemcpy", cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice), cudaSuccess) ||
        expect("cudaMemcpy back", cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost),
               cudaSuccess))
        return 1;
    if (h[0] != 7 || h[31] != 7) { printf("FAIL: memory changed\n"); return 1; }
    cudaFree(d);
    printf("badptx: PASS\n");
    return 0;
}
