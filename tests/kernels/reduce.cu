// reduce.cu -- per-block sum of a uint32 array: grid-stride accumulation,
// shared-memory tree with __syncthreads down to 64 values, then a warp
// shuffle tail.  out[blockIdx.x] receives the block's partial sum; the last
// kernel folds partial sums into one total with atomicAdd.  blockDim.x must
// be a power of two in [64, 256]; __launch_bounds__ gives the PTX its
// .maxntid / .minnctapersm performance directives.

#define RED_MAX_THREADS 256

extern "C" __global__ void __launch_bounds__(RED_MAX_THREADS, 2)
reduce_sum(const unsigned *in, unsigned *out, int n)
{
    __shared__ unsigned s[RED_MAX_THREADS];
    unsigned tid = threadIdx.x;
    unsigned sum = 0;
    for (int i = blockIdx.x * blockDim.x + tid; i < n; i += blockDim.x * gridDim.x)
        sum += in[i];
    s[tid] = sum;
    __syncthreads();
    for (unsigned stride = blockDim.x / 2; stride >= 32; stride >>= 1) {
        if (tid < stride)
            s[tid] += s[tid + stride];
        __syncthreads();
    }
    if (tid < 32) {
        unsigned v = s[tid];
        for (int off = 16; off > 0; off >>= 1)
            v += __shfl_down_sync(0xffffffffu, v, off);
        if (tid == 0)
            out[blockIdx.x] = v;
    }
}

extern "C" __global__ void reduce_total(const unsigned *partial, unsigned *total, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        atomicAdd(total, partial[i]);
}
