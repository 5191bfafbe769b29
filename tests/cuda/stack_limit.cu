// stack_limit.cu -- warpsim exec test: cudaDeviceSetLimit(cudaLimitStackSize)
// applies between launches.  deep() keeps 6 KiB on its stack frame, more
// than the default 1 KiB: after raising the limit it runs, after lowering
// it again the launch faults.
#include <cstdio>

__device__ __noinline__ int deep(int seed)
{
    volatile int buf[1536];
    for (int i = 0; i < 1536; i++) buf[i] = seed + i;
    int s = 0;
    for (int i = 0; i < 1536; i += 97) s += buf[i];
    return s;
}

__global__ void run(int *out) { out[threadIdx.x] = deep((int)threadIdx.x); }

int main()
{
    int *d, h[32];
    size_t v = 0;
    if (cudaMalloc(&d, sizeof h) != cudaSuccess) { printf("FAIL: cudaMalloc\n"); return 1; }
    // the context exists now: the new limit must still reach the next launch
    if (cudaDeviceSetLimit(cudaLimitStackSize, 16384) != cudaSuccess ||
        cudaDeviceGetLimit(&v, cudaLimitStackSize) != cudaSuccess || v != 16384) {
        printf("FAIL: setting the stack limit\n");
        return 1;
    }
    run<<<1, 32>>>(d);
    cudaError_t e = cudaDeviceSynchronize();
    if (e != cudaSuccess) {
        printf("FAIL: with a 16 KiB stack the launch returned %s\n", cudaGetErrorName(e));
        return 1;
    }
    cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
    int want = 0;
    for (int i = 0; i < 1536; i += 97) want += 5 + i;
    if (h[5] != want) { printf("FAIL: h[5] = %d, want %d\n", h[5], want); return 1; }
    if (cudaDeviceSetLimit(cudaLimitStackSize, 1024) != cudaSuccess) {
        printf("FAIL: lowering the stack limit\n");
        return 1;
    }
    run<<<1, 32>>>(d);
    e = cudaDeviceSynchronize();
    if (e == cudaSuccess) { printf("FAIL: a 1 KiB stack did not overflow\n"); return 1; }
    printf("stack_limit: PASS\n");
    return 0;
}
