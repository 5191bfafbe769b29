// spin_wait.cu -- third-party-like CUDA program whose kernels wait for each
// other, run by tests/cli/exec_hang.sh through `warpsim exec`.
//   spin_wait ok    a consumer CTA spins on a flag the last CTA of the grid
//                   sets (a grid-wide handoff), and warp 0 of a CTA spins on
//                   a value warp 1 writes; both finish on a GPU.  Prints
//                   "spin_wait: PASS" when the results are right.
//   spin_wait hang  a kernel spinning on a flag nobody sets: on a GPU it
//                   hits the watchdog; prints the error the synchronize
//                   returns ("spin_wait: cudaErrorLaunchTimeout") and exits 3.
#include <cstdio>
#include <cstring>

__global__ void handoff(volatile int *flag, int *out)
{
    if (blockIdx.x == gridDim.x - 1) {          // the producer
        if (threadIdx.x == 0) {
            __threadfence();
            *flag = 42;
        }
        return;
    }
    while (*flag == 0) {}                       // every consumer thread waits
    out[blockIdx.x * blockDim.x + threadIdx.x] = *flag;
}

__global__ void pair(volatile int *flag, int *out)
{
    if (threadIdx.x == 32) *flag = 7;           // warp 1 writes
    if (threadIdx.x == 0) {                     // warp 0 waits for it
        while (*flag == 0) {}
        out[0] = *flag;
    }
}

__global__ void forever(volatile int *flag)
{
    while (*flag == 0) {}
}

static int run_ok(int *flag, int *out)
{
    const int ctas = 6, threads = 64, n = (ctas - 1) * threads;
    static int host[6 * 64];
    cudaMemset(flag, 0, sizeof(int));
    cudaMemset(out, 0, sizeof host);
    handoff<<<ctas, threads>>>(flag, out);
    cudaError_t e = cudaDeviceSynchronize();
    if (e != cudaSuccess) { printf("spin_wait: handoff: %s\n", cudaGetErrorName(e)); return 1; }
    cudaMemcpy(host, out, sizeof host, cudaMemcpyDeviceToHost);
    for (int i = 0; i < n; i++)
        if (host[i] != 42) { printf("spin_wait: FAIL out[%d] = %d\n", i, host[i]); return 1; }
    cudaMemset(flag, 0, sizeof(int));
    pair<<<1, 64>>>(flag, out);
    if ((e = cudaDeviceSynchronize()) != cudaSuccess) {
        printf("spin_wait: pair: %s\n", cudaGetErrorName(e));
        return 1;
    }
    cudaMemcpy(host, out, sizeof(int), cudaMemcpyDeviceToHost);
    if (host[0] != 7) { printf("spin_wait: FAIL pair gave %d\n", host[0]); return 1; }
    printf("spin_wait: PASS\n");
    return 0;
}

int main(int argc, char **argv)
{
    int *flag, *out;
    if (cudaMalloc(&flag, sizeof(int)) || cudaMalloc(&out, 6 * 64 * sizeof(int))) {
        printf("spin_wait: cudaMalloc failed\n");
        return 1;
    }
    if (argc > 1 && strcmp(argv[1], "hang") == 0) {
        cudaMemset(flag, 0, sizeof(int));
        forever<<<4, 64>>>(flag);
        cudaError_t e = cudaDeviceSynchronize();
        printf("spin_wait: %s\n", cudaGetErrorName(e));
        return 3;
    }
    return run_ok(flag, out);
}
