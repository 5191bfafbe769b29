// math.cu -- floating point and conversions: sqrtf (IEEE exact), expf,
// sinf, __fdividef, double-precision arithmetic and sqrt, float<->int
// conversions with several roundings, and half conversions.  C++ linkage.

#include <cuda_fp16.h>

// fo has 6 floats per element, io 6 ints, dout 3 doubles.
__global__ void math_funcs(const float *x, const float *y, float *fo, int *io,
                           double *dout, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    float a = x[i], b = y[i];
    float *f = fo + 6 * i;
    f[0] = sqrtf(fabsf(a));
    f[1] = expf(b * 0.125f);
    f[2] = sinf(a);
    f[3] = __fdividef(a, b);
    f[4] = __half2float(__float2half(a));
    f[5] = a / b;                                   // IEEE division
    int *o = io + 6 * i;
    o[0] = (int)a;                                  // truncation
    o[1] = __float2int_rn(a);
    o[2] = __float2int_rd(a);
    o[3] = (int)(unsigned)(fabsf(a) * 1000.0f);
    o[4] = __float_as_int((float)(i * 3 - 50));     // int -> float bits
    o[5] = (int)__half_as_ushort(__float2half(b));  // f32 -> f16 bits (rn)
    double d = (double)a;
    double *dd = dout + 3 * i;
    dd[0] = d * d + (double)b / 3.0;
    dd[1] = sqrt(fabs(d) + 1.0);
    dd[2] = (double)(long long)(d * 1e6) + 0.5;
}
