// oob.cu -- a deliberate out-of-bounds read for the memory checker: each
// thread reads in[i * stride]; with stride > 1 the upper threads read far
// past the end of the allocation and the launch must fail with a fault.

extern "C" __global__ void oob_read(const int *in, int *out, int stride)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = in[i * stride];
}
