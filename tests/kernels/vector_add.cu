// vector_add.cu -- element-wise c = a + b, the "hello world" of the bundled
// kernels: float (demo, emu-bench) and int32 (CLI --dump test) versions.
// One thread per element, bounds-checked, 1D grid.

extern "C" __global__ void vector_add(const float *a, const float *b, float *c, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        c[i] = a[i] + b[i];
}

extern "C" __global__ void vector_add_i32(const int *a, const int *b, int *c, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        c[i] = a[i] + b[i];
}
