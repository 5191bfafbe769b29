/*
** driver_errors.c -- a C program on the CUDA driver API, run by `warpsim
** exec`: PTX the simulator cannot load fails cuModuleLoadData with
** CUDA_ERROR_INVALID_PTX (the message cites a PTX file that exists); a
** kernel that stores through a wild pointer fails its launch, and the
** error is sticky in its context (cuCtxSynchronize, cuMemAlloc) as on a
** GPU, while a new context works.  Prints PASS and exits 0 when all is right.
*/
#include <cuda.h>
#include <stdio.h>

static const char bad_ptx[] =
    ".version 8.0\n.target sm_80\n.address_size 64\n"
    ".visible .entry waits()\n{\n    cp.async.wait_all;\n    ret;\n}\n";

static const char poke_ptx[] =
    ".version 8.0\n.target sm_75\n.address_size 64\n"
    ".visible .entry poke(.param .u64 p)\n{\n    .reg .b64 %rd<2>;\n    .reg .b32 %r<2>;\n"
    "    ld.param.u64 %rd1, [p];\n    mov.u32 %r1, 1;\n    st.global.u32 [%rd1], %r1;\n"
    "    ret;\n}\n";

static int expect(const char *what, CUresult got, CUresult want)
{
    if (got == want) return 0;
    const char *g = NULL, *w = NULL;
    cuGetErrorName(got, &g);
    cuGetErrorName(want, &w);
    printf("FAIL: %s returned %d (%s), want %d (%s)\n", what, (int)got, g ? g : "?", (int)want,
           w ? w : "?");
    return 1;
}

int main(void)
{
    CUcontext ctx, ctx2;
    CUmodule mod;
    CUfunction poke;
    CUdeviceptr d;
    if (expect("cuInit", cuInit(0), CUDA_SUCCESS) ||
        expect("cuCtxCreate", cuCtxCreate(&ctx, NULL, 0, 0), CUDA_SUCCESS) ||
        expect("cuModuleLoadData(cp.async)", cuModuleLoadData(&mod, bad_ptx),
               CUDA_ERROR_INVALID_PTX) ||
        expect("cuCtxSynchronize after a failed load", cuCtxSynchronize(), CUDA_SUCCESS) ||
        expect("cuModuleLoadData", cuModuleLoadData(&mod, poke_ptx), CUDA_SUCCESS) ||
        expect("cuModuleGetFunction", cuModuleGetFunction(&poke, mod, "poke"), CUDA_SUCCESS))
        return 1;
    CUdeviceptr wild = 16;
    void *args[] = { &wild };
    if (expect("cuLaunchKernel(wild store)",
               cuLaunchKernel(poke, 1, 1, 1, 1, 1, 1, 0, NULL, args, NULL),
               CUDA_ERROR_ILLEGAL_ADDRESS) ||
        expect("cuCtxSynchronize after the fault", cuCtxSynchronize(),
               CUDA_ERROR_ILLEGAL_ADDRESS) ||
        expect("cuMemAlloc after the fault", cuMemAlloc(&d, 64), CUDA_ERROR_ILLEGAL_ADDRESS) ||
        expect("cuLaunchKernel after the fault",
               cuLaunchKernel(poke, 1, 1, 1, 1, 1, 1, 0, NULL, args, NULL),
               CUDA_ERROR_ILLEGAL_ADDRESS))
        return 1;
    /* the error belongs to that context: a new one works */
    if (expect("cuCtxCreate (second)", cuCtxCreate(&ctx2, NULL, 0, 0), CUDA_SUCCESS) ||
        expect("cuMemAlloc in the new context", cuMemAlloc(&d, 64), CUDA_SUCCESS) ||
        expect("cuCtxSynchronize in the new context", cuCtxSynchronize(), CUDA_SUCCESS) ||
        expect("cuCtxDestroy of the faulted context", cuCtxDestroy(ctx), CUDA_SUCCESS))
        return 1;
    printf("driver_errors: PASS\n");
    return 0;
}
