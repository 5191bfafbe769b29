// reduce.cu -- warpsim exec test: a shared-memory tree reduction with
// __syncthreads, several kernels and launches in one program, and events
// that measure simulated time (more work must take longer; nothing takes 0).
#include <cstdio>

#define CHECK(call) do { cudaError_t e_ = (call); if (e_ != cudaSuccess) { \
    printf("FAIL: %s: %s\n", #call, cudaGetErrorString(e_)); return 1; } } while (0)
#define THREADS 128

__global__ void fill(int *x, int n, int mul)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] = (i % 7) * mul;
}

__global__ void block_sum(const int *in, int *out, int n)
{
    __shared__ int buf[THREADS];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    buf[threadIdx.x] = i < n ? in[i] : 0;
    __syncthreads();
    for (int s = blockDim.x / 2; s > 0; s >>= 1) {
        if (threadIdx.x < s) buf[threadIdx.x] += buf[threadIdx.x + s];
        __syncthreads();
    }
    if (threadIdx.x == 0) out[blockIdx.x] = buf[0];
}

static long long expect(int n, int mul)
{
    long long s = 0;
    for (int i = 0; i < n; i++) s += (i % 7) * mul;
    return s;
}

// Sum n elements with two block_sum passes; returns the total via *sum.
static int reduce(int *dx, int *dtmp, int *dout, int n, int mul, int *sum)
{
    int blocks = (n + THREADS - 1) / THREADS;
    fill<<<blocks, THREADS>>>(dx, n, mul);
    block_sum<<<blocks, THREADS>>>(dx, dtmp, n);
    block_sum<<<1, THREADS>>>(dtmp, dout, blocks);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(sum, dout, sizeof(int), cudaMemcpyDeviceToHost));
    return 0;
}

int main()
{
    const int n = 100 * THREADS;   // 100 blocks: the second pass fits one block
    int *dx, *dtmp, *dout, sum;
    CHECK(cudaMalloc(&dx, n * sizeof(int)));
    CHECK(cudaMalloc(&dtmp, THREADS * sizeof(int)));
    CHECK(cudaMalloc(&dout, sizeof(int)));
    cudaEvent_t e0, e1, e2, e3;
    CHECK(cudaEventCreate(&e0));
    CHECK(cudaEventCreate(&e1));
    CHECK(cudaEventCreate(&e2));
    CHECK(cudaEventCreate(&e3));

    CHECK(cudaEventRecord(e0, 0));
    if (reduce(dx, dtmp, dout, n / 4, 1, &sum)) return 1;
    CHECK(cudaEventRecord(e1, 0));
    if (sum != expect(n / 4, 1)) { printf("FAIL: small sum %d, want %lld\n", sum, expect(n / 4, 1)); return 1; }
    if (reduce(dx, dtmp, dout, n, 3, &sum)) return 1;
    CHECK(cudaEventRecord(e2, 0));
    CHECK(cudaEventRecord(e3, 0));
    CHECK(cudaEventSynchronize(e3));
    if (sum != expect(n, 3)) { printf("FAIL: sum %d, want %lld\n", sum, expect(n, 3)); return 1; }

    float small_ms, big_ms, none_ms;
    CHECK(cudaEventElapsedTime(&small_ms, e0, e1));
    CHECK(cudaEventElapsedTime(&big_ms, e1, e2));
    CHECK(cudaEventElapsedTime(&none_ms, e2, e3));
    // the times include the result copies (fixed latency each, cudart_stream.c),
    // so 12 times the kernel work is more time, not 12 times the time
    if (!(small_ms > 0.0f) || !(big_ms > 1.2f * small_ms) || none_ms != 0.0f) {
        printf("FAIL: simulated times %g ms, %g ms, %g ms\n", small_ms, big_ms, none_ms);
        return 1;
    }
    CHECK(cudaEventDestroy(e0));
    CHECK(cudaEventDestroy(e1));
    CHECK(cudaEventDestroy(e2));
    CHECK(cudaEventDestroy(e3));
    CHECK(cudaFree(dx));
    CHECK(cudaFree(dtmp));
    CHECK(cudaFree(dout));
    CHECK(cudaDeviceSynchronize());
    printf("reduce: sum %d, simulated %.6f ms then %.6f ms: PASS\n", sum, small_ms, big_ms);
    return 0;
}
