// local_array.cu -- per-thread arrays indexed with run-time values, which
// forces them into local memory (ld.local/st.local via the stack frame):
// a small per-thread histogram and an insertion sort of 16 values.

extern "C" __global__ void local_sort16(const int *in, int *out, int n)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= n)
        return;
    int a[16];
    for (int k = 0; k < 16; k++)
        a[k] = in[t * 16 + k];
    for (int k = 1; k < 16; k++) {             // insertion sort
        int v = a[k];
        int j = k - 1;
        while (j >= 0 && a[j] > v) {
            a[j + 1] = a[j];
            j--;
        }
        a[j + 1] = v;
    }
    for (int k = 0; k < 16; k++)
        out[t * 16 + k] = a[k];
}

// counts[t*8 + b] = how many of the 16 values have (v & 7) == b
extern "C" __global__ void local_hist8(const int *in, int *counts, int n)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= n)
        return;
    int h[8];
    for (int b = 0; b < 8; b++)
        h[b] = 0;
    for (int k = 0; k < 16; k++)
        h[in[t * 16 + k] & 7]++;
    for (int b = 0; b < 8; b++)
        counts[t * 8 + b] = h[b];
}
