// control.cu -- control flow shapes for CFG / reconvergence tests.
extern "C" __global__ void if_else(int *out)
{
    int t = threadIdx.x, v;
    if (t & 1) v = t * 3; else v = t + 7;
    out[t] = v;
}

extern "C" __global__ void loop_break_continue(int *out, int n)
{
    int t = threadIdx.x, acc = 0;
    for (int i = 0; i < n; i++) {
        if (((i + t) % 3) == 0) continue;
        acc += out[i];
        if (acc > 1000 + t) break;
    }
    out[t] = acc;
}

extern "C" __global__ void early_return(int *out, int n)
{
    int t = threadIdx.x;
    if (t >= n) return;
    out[t] = t;
}

__device__ __noinline__ int clampit(int x, int hi)
{
    if (x > hi) return hi;
    if (x < 0) return 0;
    return x * 2;
}

extern "C" __global__ void calls(int *out, double *d)
{
    int t = threadIdx.x;
    out[t] = clampit(out[t], 100);
    d[t] = sqrt(d[t]) + sin(d[t]) / 3.0;
}
