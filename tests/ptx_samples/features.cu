// features.cu -- a wide mix of instructions nvcc emits (math library, atomics,
// cooperative groups, printf/assert, vectors, switch); parser coverage only.
#include <cassert>
#include <cstdio>
#include <cuda_fp16.h>
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
namespace cg = cooperative_groups;
__device__ double dsum;
__global__ void k1(double *d, float *f, long long *l, int n, half *h) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    d[i] = exp(d[i]) + log(d[i]) + pow(d[i], 1.5) + d[i] / (i + 1.0) + rsqrt(d[i]);
    f[i] = expf(f[i]) + logf(f[i]) + powf(f[i], 2.5f) + f[i] / (i + 1.0f) + tanhf(f[i]) + __fdividef(f[i], 3.0f);
    l[i] = l[i] / (i + 7) + l[i] % 13 + __mul64hi(l[i], i) + __brevll(l[i]) + __popcll(l[i]) + __clzll(l[i]);
    h[i] = __hadd(h[i], __float2half(1.0f)) * h[i];
    atomicAdd(&dsum, d[i]);
    atomicMin((unsigned long long *)l, (unsigned long long)i);
    unsigned u = __usad(i, n, 3) + __umulhi(i, n) + __sad(i, -n, 1) + __ffs(i) + __dp4a(i, n, 3);
    f[i] += __saturatef(f[i]) + fminf(f[i], 2.f) + copysignf(1.f, f[i]) + __int_as_float(u) + truncf(f[i]) + roundf(f[i]) + floorf(f[i]);
    d[i] += fma(d[i], 2.0, 1.0) + (double)__float2int_rn(f[i]) + (double)l[i] + ceil(d[i]);
}
__global__ void k2(int *out) {
    cg::thread_block b = cg::this_thread_block();
    cg::thread_block_tile<32> t = cg::tiled_partition<32>(b);
    int v = t.thread_rank();
    v = cg::reduce(t, v, cg::plus<int>());
    out[threadIdx.x] = v + t.shfl_xor(v, 3) + t.any(v > 3) + __syncthreads_count(v > 5) + __syncthreads_or(v) + __syncthreads_and(v);
    __syncwarp();
    __threadfence(); __threadfence_block(); __threadfence_system();
    out[threadIdx.x] += clock() + (int)clock64() ;__nanosleep(10);
    printf("%d %f %s %lld\n", v, 1.0, "x", (long long)v);
    if (v == 77) __trap();
    assert(v != 99);
}
__global__ void k3(float4 *a, double2 *b, char *c, short *s) {
    float4 x = a[threadIdx.x]; x.x += x.w; a[threadIdx.x + 1] = x;
    double2 y = b[threadIdx.x]; y.x *= y.y; b[threadIdx.x] = y;
    c[threadIdx.x] = c[threadIdx.x + 1] * 3; s[threadIdx.x] = s[threadIdx.x] >> 2;
    switch (threadIdx.x % 7) { case 0: c[0]=1; break; case 1: c[1]=2; break; case 2: c[2]=4; break; case 3: c[5] = 9; break; case 4: c[3]=8; break; default: c[4] = 3; }
    __shared__ float sm[8][33];
    sm[threadIdx.x % 8][threadIdx.y] = x.y; __syncthreads();
    a[0].z = sm[threadIdx.y % 8][threadIdx.x % 33];
    a[1].w = __ldg(&a[2].w) + __ldcs(&a[3].x) + __ldlu(&a[4].y);
    __stcg(&a[5].x, 1.0f);
}
