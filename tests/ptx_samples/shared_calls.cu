// shared_calls.cu -- shared memory reached through the call graph, atomics,
// and a loop with an early exit (parser and layout tests).
__shared__ double s_common[32];

__device__ __noinline__ int stage(int v)
{
    __shared__ int s_stage[64];
    s_stage[threadIdx.x & 63] = v;
    s_common[threadIdx.x & 31] = v * 0.5;
    __syncthreads();
    return s_stage[(threadIdx.x + 1) & 63] + (int)s_common[(threadIdx.x + 3) & 31];
}

extern "C" __global__ void uses_stage(int *out)
{
    __shared__ float s_own[16];
    s_own[threadIdx.x & 15] = threadIdx.x;
    __syncthreads();
    out[threadIdx.x] = stage(out[threadIdx.x]) + (int)s_own[(threadIdx.x + 5) & 15];
}

extern "C" __global__ void no_stage(unsigned *out, int n)
{
    for (int i = 0; i < n; i++) {
        if (out[i] == 0xdeadbeef) return;
        atomicMax(&out[n], out[i]);
        atomicCAS(&out[n + 1], 0u, (unsigned)i);
        atomicExch(&out[n + 2], (unsigned)i);
    }
    atomicAdd((float *)&out[n + 3], 1.5f);
    atomicInc(&out[n + 4], 17u);
}
