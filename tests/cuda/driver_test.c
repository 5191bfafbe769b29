/*
** driver_test.c -- a C host program on the CUDA driver API, run by
** `warpsim exec`: loads driver_kernels.ptx (argv[1]) from the file and from
** memory, runs saxpy, reads a __device__ counter through cuModuleGetGlobal,
** and checks error reporting.  Prints PASS and exits 0 when all is right.
*/
#include <cuda.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CK(call) do { CUresult r_ = (call); if (r_ != CUDA_SUCCESS) { \
    const char *s_ = NULL; cuGetErrorString(r_, &s_); \
    printf("FAIL: %s: %d (%s)\n", #call, (int)r_, s_ ? s_ : "?"); return 1; } } while (0)

#define N 300

static char *read_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *s = malloc((size_t)n + 1);
    if (s && fread(s, 1, (size_t)n, f) == (size_t)n) s[n] = '\0';
    else { free(s); s = NULL; }
    fclose(f);
    return s;
}

int main(int argc, char **argv)
{
    if (argc != 2) { printf("usage: driver_test FILE.ptx\n"); return 2; }
    CUdevice dev;
    CUcontext ctx;
    CUmodule mod, mod2;
    CUfunction saxpy, bad;
    int count = 0, warp = 0;
    char name[128];
    CK(cuInit(0));
    CK(cuDeviceGetCount(&count));
    CK(cuDeviceGet(&dev, 0));
    CK(cuDeviceGetAttribute(&warp, CU_DEVICE_ATTRIBUTE_WARP_SIZE, dev));
    CK(cuDeviceGetName(name, sizeof name, dev));
    if (count != 1 || warp != 32 || !strstr(name, "warpsim")) {
        printf("FAIL: device count %d, warp %d, name '%s'\n", count, warp, name);
        return 1;
    }
    CK(cuCtxCreate(&ctx, NULL, 0, dev));
    CK(cuModuleLoad(&mod, argv[1]));
    CK(cuModuleGetFunction(&saxpy, mod, "saxpy"));
    CUresult r = cuModuleGetFunction(&bad, mod, "no_such_kernel");
    const char *msg = NULL;
    if (r != CUDA_ERROR_NOT_FOUND || cuGetErrorString(r, &msg) != CUDA_SUCCESS || !msg) {
        printf("FAIL: unknown kernel gave %d\n", (int)r);
        return 1;
    }

    float hx[N], hy[N];
    for (int i = 0; i < N; i++) hx[i] = (float)i;
    CUdeviceptr dx, dy, dy2, calls;
    size_t calls_size = 0;
    CK(cuMemAlloc(&dx, sizeof hx));
    CK(cuMemAlloc(&dy, sizeof hy));
    CK(cuMemAlloc(&dy2, sizeof hy));
    CK(cuMemcpyHtoD(dx, hx, sizeof hx));
    CK(cuMemsetD32(dy, 0x3f800000u, N));           /* y = 1.0f */
    CK(cuModuleGetGlobal(&calls, &calls_size, mod, "calls"));
    float a = 2.0f;
    int n = N;
    void *params[] = {&a, &dx, &dy, &n};
    CK(cuLaunchKernel(saxpy, (N + 127) / 128, 1, 1, 128, 1, 1, 0, NULL, params, NULL));
    CK(cuCtxSynchronize());
    CK(cuMemcpyDtoD(dy2, dy, sizeof hy));
    CK(cuMemcpyDtoH(hy, dy2, sizeof hy));
    unsigned int hcalls = 0;
    CK(cuMemcpyDtoH(&hcalls, calls, sizeof hcalls));
    for (int i = 0; i < N; i++)
        if (hy[i] != 2.0f * i + 1.0f) { printf("FAIL: y[%d] = %f\n", i, hy[i]); return 1; }
    if (calls_size != 4 || hcalls != N) {
        printf("FAIL: calls %u (size %zu), want %d\n", hcalls, calls_size, N);
        return 1;
    }

    /* the same PTX from memory, a second module with its own counter */
    char *text = read_file(argv[1]);
    if (!text) { printf("FAIL: cannot read %s\n", argv[1]); return 1; }
    CK(cuModuleLoadData(&mod2, text));
    free(text);
    CUfunction saxpy2;
    CK(cuModuleGetFunction(&saxpy2, mod2, "saxpy"));
    n = 10;
    CK(cuLaunchKernel(saxpy2, 1, 1, 1, 32, 1, 1, 0, NULL, params, NULL));
    CK(cuMemcpyDtoH(hy, dy, sizeof hy));
    if (hy[9] != 4.0f * 9 + 1.0f || hy[10] != 2.0f * 10 + 1.0f) {
        printf("FAIL: second launch y[9] = %f, y[10] = %f\n", hy[9], hy[10]);
        return 1;
    }
    /* page-locked host memory: cuMemFreeHost frees only its own blocks */
    void *pinned;
    char *heap = malloc(16);
    CK(cuMemAllocHost(&pinned, 64));
    memset(pinned, 1, 64);
    if (cuMemFreeHost((char *)pinned + 8) != CUDA_ERROR_INVALID_VALUE ||
        cuMemFreeHost(heap) != CUDA_ERROR_INVALID_VALUE ||
        cuMemFreeHost(&count) != CUDA_ERROR_INVALID_VALUE ||
        cuMemFreeHost((void *)(uintptr_t)dx) != CUDA_ERROR_INVALID_VALUE) {
        printf("FAIL: cuMemFreeHost accepted a pointer it did not allocate\n");
        return 1;
    }
    free(heap);   /* glibc aborts here if cuMemFreeHost had freed it */
    CK(cuMemFreeHost(pinned));
    if (cuMemFreeHost(pinned) != CUDA_ERROR_INVALID_VALUE) {
        printf("FAIL: cuMemFreeHost freed a block twice\n");
        return 1;
    }
    CK(cuMemFree(dx));
    CK(cuMemFree(dy));
    CK(cuMemFree(dy2));
    CK(cuModuleUnload(mod2));
    CK(cuModuleUnload(mod));
    CK(cuCtxDestroy(ctx));
    printf("driver_test: PASS\n");
    return 0;
}
