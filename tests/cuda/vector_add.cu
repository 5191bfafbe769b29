// vector_add.cu -- warpsim exec test: device queries, a stream, async
// copies and a grid-stride vector add; checks every element and prints PASS.
#include <cstdio>
#include <cstring>

#define CHECK(call) do { cudaError_t e_ = (call); if (e_ != cudaSuccess) { \
    printf("FAIL: %s: %s (%s)\n", #call, cudaGetErrorName(e_), cudaGetErrorString(e_)); \
    return 1; } } while (0)

__global__ void vector_add(const float *a, const float *b, float *c, int n)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        c[i] = a[i] + b[i];
}

int main()
{
    int count = 0, sms = 0;
    CHECK(cudaGetDeviceCount(&count));
    CHECK(cudaSetDevice(0));
    cudaDeviceProp prop;
    CHECK(cudaGetDeviceProperties(&prop, 0));
    CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    if (count != 1 || prop.warpSize != 32 || prop.major < 7 || sms != prop.multiProcessorCount ||
        !strstr(prop.name, "warpsim") || prop.maxThreadsPerBlock != 1024) {
        printf("FAIL: device: count %d warp %d cc %d.%d sms %d/%d name '%s'\n", count,
               prop.warpSize, prop.major, prop.minor, sms, prop.multiProcessorCount, prop.name);
        return 1;
    }
    const int n = 1000;
    float ha[n], hb[n], hc[n];
    for (int i = 0; i < n; i++) { ha[i] = (float)i; hb[i] = 0.5f * i; hc[i] = -1.0f; }
    float *da, *db, *dc;
    CHECK(cudaMalloc(&da, n * sizeof(float)));
    CHECK(cudaMalloc(&db, n * sizeof(float)));
    CHECK(cudaMalloc(&dc, n * sizeof(float)));
    CHECK(cudaMemset(dc, 0, n * sizeof(float)));
    cudaStream_t s;
    CHECK(cudaStreamCreate(&s));
    CHECK(cudaMemcpyAsync(da, ha, n * sizeof(float), cudaMemcpyHostToDevice, s));
    CHECK(cudaMemcpyAsync(db, hb, n * sizeof(float), cudaMemcpyDefault, s));
    vector_add<<<3, 128, 0, s>>>(da, db, dc, n);
    CHECK(cudaGetLastError());
    CHECK(cudaStreamSynchronize(s));
    CHECK(cudaMemcpy(hc, dc, n * sizeof(float), cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; i++)
        if (hc[i] != 1.5f * i) { printf("FAIL: c[%d] = %f, want %f\n", i, hc[i], 1.5f * i); return 1; }
    CHECK(cudaStreamDestroy(s));
    CHECK(cudaFree(da));
    CHECK(cudaFree(db));
    CHECK(cudaFree(dc));
    printf("vector_add: PASS\n");
    return 0;
}
