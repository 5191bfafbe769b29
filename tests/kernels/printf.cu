// printf.cu -- device printf: integers of several widths, hex, a float, a
// double, a character, strings (a literal and %s), and %%.  hello_printf is
// meant for one block; the format covers the cases vprintf must handle.

#include <cstdio>

extern "C" __global__ void hello_printf(int base, float f, double d)
{
    int t = threadIdx.x;
    printf("thread %d of %d: base+t=%d hex=%x u=%u\n", t, blockDim.x, base + t,
           (unsigned)(base * 16 + t), (unsigned)(base + t));
    if (t == 0) {
        printf("f=%.3f d=%.6f c=%c s=%s 100%%\n", f, d, 'W', "warpsim");
        printf("ll=%lld ull=%llu\n", -1234567890123LL * base, 0xfedcba9876543210ULL);
    }
}
