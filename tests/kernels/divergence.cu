// divergence.cu -- control flow that splits warps: nested if/else on lane
// data, a data-dependent loop (Collatz step count) with break and continue,
// and an early return.  Results are deterministic per thread, so a CPU
// reference can recompute them exactly.

extern "C" __global__ void branchy(const int *in, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;                       // early return for the tail
    int v = in[i];
    int r;
    if (v & 1) {
        if (v % 3 == 0)
            r = v * 7;
        else if (v % 5 == 0)
            r = v - 11;
        else
            r = v ^ 0x55;
    } else {
        if (v > 1000)
            r = v / 3;
        else
            r = -v;
    }
    out[i] = r;
}

// Collatz steps of in[i], capped at `cap`; multiples of 4 are skipped with
// continue (two halvings in one step), values hitting 1 break out.
extern "C" __global__ void collatz(const unsigned *in, unsigned *steps, int n, unsigned cap)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    unsigned x = in[i];
    unsigned s = 0;
    if (x == 0) {
        steps[i] = 0xffffffffu;
        return;
    }
    while (s < cap) {
        if (x == 1)
            break;
        if ((x & 3) == 0) {
            x >>= 2;
            s += 2;
            continue;
        }
        x = (x & 1) ? 3 * x + 1 : x >> 1;
        s++;
    }
    steps[i] = s;
}
