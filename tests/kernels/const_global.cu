// const_global.cu -- module-scope variables: a __constant__ coefficient
// table (one initialised in PTX, one set by the host before launch) and a
// __device__ global counter that survives across launches.

__constant__ int poly_coef[4];                 // set by the host
__constant__ int poly_bias = 1000;             // initialised in the PTX
__device__ unsigned long long launch_counter;  // zero at load, host may read it
__device__ int device_table[8] = {1, 1, 2, 3, 5, 8, 13, 21};

// out[i] = bias + c0 + c1*x + c2*x^2 + c3*x^3 + device_table[x & 7]
extern "C" __global__ void poly_eval(const int *in, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        int x = in[i];
        int r = poly_coef[3];
        r = r * x + poly_coef[2];
        r = r * x + poly_coef[1];
        r = r * x + poly_coef[0];
        out[i] = r + poly_bias + device_table[x & 7];
        atomicAdd(&launch_counter, 1ull);
    }
}
