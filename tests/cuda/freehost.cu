// freehost.cu -- warpsim exec test: cudaFreeHost on pointers it did not
// give out (a device pointer, a stack address, the middle of a block, a
// block freed twice, malloc'ed memory) returns cudaErrorInvalidValue and
// frees nothing: each of those blocks is still usable afterwards (glibc
// would abort at the final free() of a block the runtime had freed).
#include <cstdio>
#include <cstdlib>
#include <cstring>

static int bad = 0;

static void expect_error(const char *what, void *p)
{
    cudaError_t e = cudaFreeHost(p);
    if (e != cudaErrorInvalidValue || cudaGetLastError() != cudaErrorInvalidValue) {
        printf("FAIL: cudaFreeHost(%s) returned %d (%s)\n", what, (int)e, cudaGetErrorName(e));
        bad = 1;
    }
}

int main()
{
    int *d, *h, *h2, stack[4] = {1, 2, 3, 4};
    char *m = (char *)malloc(64);
    if (cudaMalloc(&d, 256) || cudaMallocHost(&h, 256) || cudaHostAlloc(&h2, 64, 0)) {
        printf("FAIL: allocation\n");
        return 1;
    }
    memset(h, 1, 256);
    expect_error("device pointer", d);
    expect_error("stack address", stack);
    expect_error("interior pointer", h + 4);
    expect_error("malloc'ed pointer", m);
    if (cudaFreeHost(nullptr) != cudaSuccess) { printf("FAIL: NULL\n"); bad = 1; }
    if (cudaFreeHost(h2) != cudaSuccess) { printf("FAIL: first free\n"); bad = 1; }
    expect_error("block freed twice", h2);
    // nothing was freed: the device block, the pinned block and the
    // malloc'ed block all still work
    if (cudaMemcpy(d, h, 256, cudaMemcpyHostToDevice) ||
        cudaMemcpy(h, d, 256, cudaMemcpyDeviceToHost) || h[63] != 0x01010101) {
        printf("FAIL: the device or pinned block was freed\n");
        bad = 1;
    }
    memset(m, 7, 64);
    free(m);
    if (stack[3] != 4) bad = 1;
    if (cudaFreeHost(h) != cudaSuccess || cudaFree(d) != cudaSuccess) {
        printf("FAIL: freeing the real blocks\n");
        bad = 1;
    }
    if (bad) return 1;
    printf("freehost: PASS\n");
    return 0;
}
