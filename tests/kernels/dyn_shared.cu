// dyn_shared.cu -- dynamic shared memory (extern __shared__): each block
// reverses its slice of the array in a buffer sized at launch time
// (blockDim.x ints), and a second kernel uses a mixed int/float layout
// inside one dynamic buffer.

extern "C" __global__ void reverse_block(int *data, int n)
{
    extern __shared__ int buf[];
    int base = blockIdx.x * blockDim.x;
    int t = threadIdx.x;
    if (base + t < n)
        buf[t] = data[base + t];
    __syncthreads();
    int r = blockDim.x - 1 - t;
    if (base + r < n && base + t < n)
        data[base + t] = buf[r];
}

// Dynamic buffer holds blockDim.x ints then blockDim.x floats.
extern "C" __global__ void dyn_mixed(const int *in, float *out)
{
    extern __shared__ int raw[];
    int *ints = raw;
    float *floats = (float *)(raw + blockDim.x);
    int t = threadIdx.x;
    int g = blockIdx.x * blockDim.x + t;
    ints[t] = in[g];
    floats[t] = (float)in[g] * 0.5f;
    __syncthreads();
    int o = (t + 1) % blockDim.x;
    out[g] = (float)ints[o] + floats[o];
}
