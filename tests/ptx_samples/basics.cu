// basics.cu -- small kernels covering common PTX shapes (parser tests).
#include <cstdio>

struct Pair { double a; int b; float c[3]; };

__constant__ float c_coef[4] = {1.0f, 0.5f, -2.0f, 3.25f};
__device__ int g_counter;
__device__ int g_table[2][3] = {{1, 2, 3}, {4, 5, 6}};

extern "C" __global__ void vec_add(const float *__restrict__ a, const float *__restrict__ b,
                                   float *c, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) c[i] = a[i] + b[i] * c_coef[i & 3];
}

extern "C" __global__ void __launch_bounds__(256, 2)
reduce_sum(const int *in, int *out, int n)
{
    __shared__ int tile[256];
    int t = threadIdx.x;
    int i = blockIdx.x * blockDim.x + t;
    tile[t] = i < n ? in[i] : 0;
    __syncthreads();
    for (int s = blockDim.x / 2; s > 32; s >>= 1) {
        if (t < s) tile[t] += tile[t + s];
        __syncthreads();
    }
    int v = tile[t];
    if (t < 32) {
        for (int o = 16; o > 0; o >>= 1) v += __shfl_down_sync(0xffffffff, v, o);
        if (t == 0) atomicAdd(out, v);
    }
}

__device__ __noinline__ int fib(int n)
{
    if (n < 2) return n;
    return fib(n - 1) + fib(n - 2);
}

extern "C" __global__ void fib_kernel(int *out)
{
    out[threadIdx.x] = fib(threadIdx.x);
}

extern "C" __global__ void struct_param(Pair p, double *out)
{
    out[threadIdx.x] = p.a + p.b + p.c[threadIdx.x % 3];
}

extern "C" __global__ void hello(int x)
{
    printf("hello %d from %d\n", x, threadIdx.x);
    if (threadIdx.x == 0) atomicAdd(&g_counter, g_table[1][2]);
}

extern "C" __global__ void dyn_shared(float *out)
{
    extern __shared__ float buf[];
    buf[threadIdx.x] = threadIdx.x * 2.0;
    __syncthreads();
    out[threadIdx.x] = buf[blockDim.x - 1 - threadIdx.x];
}

extern "C" __global__ void local_array(int *out, int k)
{
    int arr[16];
    for (int i = 0; i < 16; i++) arr[i] = i * k + threadIdx.x;
    out[threadIdx.x] = arr[(threadIdx.x + k) & 15];
}

extern "C" __global__ void warp_ops(unsigned *out, float *f)
{
    unsigned b = __ballot_sync(0xffffffff, threadIdx.x & 1);
    int a = __all_sync(0xffffffff, threadIdx.x < 40);
    unsigned m = __match_any_sync(0xffffffff, threadIdx.x & 3);
    unsigned r = __reduce_add_sync(0xffffffff, threadIdx.x);
    float x = f[threadIdx.x];
    out[threadIdx.x] = b + a + m + r + __popc(b) + __clz(m) + __brev(r) + __byte_perm(b, m, 0x5410)
        + __funnelshift_l(b, m, r) + (unsigned)(sinf(x) * 100.0f) + (unsigned)__expf(x) + __activemask();
}
