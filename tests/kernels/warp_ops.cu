// warp_ops.cu -- warp-level intrinsics: shuffles (up/down/xor/idx), votes
// (all/any/ballot), __activemask inside a divergent branch, and integer bit
// tricks (__popc, __clz, __brev, __ffs, __byte_perm, funnel shifts).  C++
// linkage on purpose, so the names are mangled.

// out has 8 words per thread.
__global__ void warp_shuffles(const int *in, int *out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int v = in[i];
    int *o = out + 8 * i;
    o[0] = __shfl_up_sync(0xffffffffu, v, 3);
    o[1] = __shfl_down_sync(0xffffffffu, v, 5);
    o[2] = __shfl_xor_sync(0xffffffffu, v, 9);
    o[3] = __shfl_sync(0xffffffffu, v, (threadIdx.x * 7) & 31);
    o[4] = __shfl_sync(0xffffffffu, v, 2, 8);           // width 8: lane 2 of each group
    o[5] = __shfl_down_sync(0xffffffffu, v, 1, 16);     // width 16
    o[6] = __all_sync(0xffffffffu, v > -1000) | (__any_sync(0xffffffffu, v == 77) << 1);
    o[7] = (int)__ballot_sync(0xffffffffu, v & 1);
}

// out has 2 words per thread: the active mask seen in the odd/even branch,
// and a ballot taken with that mask.
__global__ void warp_activemask(const int *in, unsigned *out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int v = in[i];
    unsigned m, b;
    if (v & 1) {
        m = __activemask();
        b = __ballot_sync(m, v > 0);
    } else {
        m = __activemask();
        b = __ballot_sync(m, v < 0) | 0x80000000u;
    }
    out[2 * i] = m;
    out[2 * i + 1] = b;
}

// out has 8 words per thread.
__global__ void bit_ops(const unsigned *in, unsigned *out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned x = in[i];
    unsigned y = in[i] * 2654435761u + 12345u;
    unsigned *o = out + 8 * i;
    o[0] = __popc(x);
    o[1] = __clz(x);
    o[2] = __brev(x);
    o[3] = __ffs(x);
    o[4] = __byte_perm(x, y, 0x7351);
    o[5] = __funnelshift_l(x, y, y & 63);
    o[6] = __funnelshift_rc(x, y, y & 63);
    o[7] = __popcll(((unsigned long long)x << 32) | y) + __clzll((unsigned long long)y);
}
