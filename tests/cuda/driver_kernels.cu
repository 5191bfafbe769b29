// driver_kernels.cu -- kernels for the driver-API test (driver_test.c).
// driver_kernels.ptx is what `nvcc -ptx -arch=sm_75` makes of this file
// (committed, so the test needs no nvcc):
//   nvcc -ptx -arch=sm_75 -o driver_kernels.ptx driver_kernels.cu
__device__ unsigned int calls;

extern "C" __global__ void saxpy(float a, const float *x, float *y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        y[i] = a * x[i] + y[i];
        atomicAdd(&calls, 1u);
    }
}
