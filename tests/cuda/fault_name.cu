// fault_name.cu -- warpsim exec test: a kernel that stores through a wild
// pointer.  The fault message must name the kernel as the programmer wrote
// it (demangled) and a PTX file that exists; the error is sticky, as CUDA
// makes an illegal address.
#include <cstdio>

namespace img {
template <typename T> __global__ void poke(T *p, int n) { p[n + threadIdx.x] = T(1); }
}

int main()
{
    int *d;
    if (cudaMalloc(&d, 64) != cudaSuccess) { printf("FAIL: cudaMalloc\n"); return 1; }
    img::poke<int><<<1, 1>>>(reinterpret_cast<int *>(16), 0);
    cudaError_t e = cudaDeviceSynchronize();
    if (e != cudaErrorIllegalAddress) {
        printf("FAIL: synchronize returned %d (%s)\n", (int)e, cudaGetErrorName(e));
        return 1;
    }
    e = cudaMalloc(&d, 64);
    if (e != cudaErrorIllegalAddress) {
        printf("FAIL: not sticky: cudaMalloc returned %d\n", (int)e);
        return 1;
    }
    printf("fault_name: PASS\n");
    return 0;
}
