// mapped.cu -- warpsim exec test: zero-copy host memory as a program that
// checks canMapHostMemory uses it.  Kernels read and write mapped host
// memory (cudaHostAlloc(cudaHostAllocMapped) and cudaHostRegisterMapped)
// through cudaHostGetDevicePointer, atomics included; the host reads the
// results and changes the inputs without a single cudaMemcpy.
#include <cstdio>
#include <cstdlib>

#define N 1000
#define BINS 16

__global__ void work(const int *in, int *out, int *bins, unsigned *count, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    out[i] = in[i] * 3 + 1;
    atomicAdd(&bins[in[i] % BINS], 1);
    atomicInc(count, 0xffffffffu);
}

__global__ void negate(int *x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] = -x[i];
}

static int check(const int *in, const int *out, const int *bins, unsigned count, int round)
{
    int want[BINS] = {0};
    for (int i = 0; i < N; i++) {
        want[in[i] % BINS]++;
        if (out[i] != in[i] * 3 + 1) {
            printf("FAIL: round %d: out[%d] = %d, want %d\n", round, i, out[i], in[i] * 3 + 1);
            return 1;
        }
    }
    for (int b = 0; b < BINS; b++)
        if (bins[b] != want[b]) {
            printf("FAIL: round %d: bin %d = %d, want %d\n", round, b, bins[b], want[b]);
            return 1;
        }
    if (count != (unsigned)N) {
        printf("FAIL: round %d: count %u\n", round, count);
        return 1;
    }
    return 0;
}

int main()
{
    cudaDeviceProp p;
    if (cudaGetDeviceProperties(&p, 0) || !p.canMapHostMemory) {
        printf("FAIL: the device cannot map host memory\n");
        return 1;
    }
    int attr = 0;
    cudaDeviceGetAttribute(&attr, cudaDevAttrCanMapHostMemory, 0);
    if (attr != 1 || cudaSetDeviceFlags(cudaDeviceMapHost) != cudaSuccess) {
        printf("FAIL: attribute %d / cudaSetDeviceFlags\n", attr);
        return 1;
    }
    int *in, *out, *bins, *din, *dout, *dbins;
    unsigned *count, *dcount;
    if (cudaHostAlloc(&in, N * sizeof(int), cudaHostAllocMapped | cudaHostAllocWriteCombined) ||
        cudaHostAlloc(&out, N * sizeof(int), cudaHostAllocMapped | cudaHostAllocPortable) ||
        cudaHostAlloc(&bins, BINS * sizeof(int), cudaHostAllocMapped) ||
        cudaHostAlloc(&count, sizeof(unsigned), cudaHostAllocMapped) ||
        cudaHostGetDevicePointer(&din, in, 0) || cudaHostGetDevicePointer(&dout, out, 0) ||
        cudaHostGetDevicePointer(&dbins, bins, 0) || cudaHostGetDevicePointer(&dcount, count, 0)) {
        printf("FAIL: mapped allocation\n");
        return 1;
    }
    unsigned flags = 0;
    if (cudaHostGetFlags(&flags, out) || flags != (cudaHostAllocMapped | cudaHostAllocPortable)) {
        printf("FAIL: cudaHostGetFlags 0x%x\n", flags);
        return 1;
    }
    for (int round = 0; round < 2; round++) {
        for (int b = 0; b < BINS; b++) bins[b] = 0;             // host writes, no copy
        *count = 0;
        for (int i = 0; i < N; i++) in[i] = (i * 7 + round * 5) % 101;
        work<<<(N + 127) / 128, 128>>>(din, dout, dbins, dcount, N);
        if (cudaDeviceSynchronize() != cudaSuccess) { printf("FAIL: launch\n"); return 1; }
        if (check(in, out, bins, *count, round)) return 1;
    }
    // registered (malloc'ed) memory, mapped
    int *reg = (int *)malloc(N * sizeof(int)), *dreg;
    for (int i = 0; i < N; i++) reg[i] = i;
    if (cudaHostRegister(reg, N * sizeof(int), cudaHostRegisterMapped) ||
        cudaHostGetDevicePointer(&dreg, reg, 0)) {
        printf("FAIL: cudaHostRegister\n");
        return 1;
    }
    negate<<<(N + 127) / 128, 128>>>(dreg, N);
    cudaDeviceSynchronize();
    for (int i = 0; i < N; i++)
        if (reg[i] != -i) { printf("FAIL: reg[%d] = %d\n", i, reg[i]); return 1; }
    if (cudaHostUnregister(reg) || cudaHostUnregister(reg) != cudaErrorHostMemoryNotRegistered) {
        printf("FAIL: cudaHostUnregister\n");
        return 1;
    }
    cudaGetLastError();
    free(reg);
    if (cudaFreeHost(in) || cudaFreeHost(out) || cudaFreeHost(bins) || cudaFreeHost(count)) {
        printf("FAIL: cudaFreeHost\n");
        return 1;
    }
    printf("mapped: PASS\n");
    return 0;
}
