// saxpy.cu -- y = a*x + y (extern "C") and the STREAM triad a = b + s*c as a
// C++ template (mangled names: _Z5triadIfEvPT_PKS0_S3_S0_i and the double
// version), both with a grid-stride loop.

extern "C" __global__ void saxpy(int n, float a, const float *x, float *y)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
        y[i] = a * x[i] + y[i];
}

template <typename T>
__global__ void triad(T *a, const T *b, const T *c, T s, int n)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
        a[i] = b[i] + s * c[i];
}

template __global__ void triad<float>(float *, const float *, const float *, float, int);
template __global__ void triad<double>(double *, const double *, const double *, double, int);
