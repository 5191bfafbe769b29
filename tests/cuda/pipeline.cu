// pipeline.cu -- warpsim exec test: a two-stream copy/compute pipeline as a
// third-party program writes it.  It checks asyncEngineCount and
// concurrentKernels first (and gives up without copy engines, as such
// programs do), splits the work into chunks alternating between two
// streams (async copy in, kernel, async copy out into pinned memory),
// joins with an event and cudaStreamWaitEvent, and checks every value.
// The same work on one stream must take longer in simulated time
// (cudaEventElapsedTime): the copies of one stream overlap the other's.
#include <cstdio>

#define CHUNKS 8
#define CHUNK 16384

__global__ void square_add(const float *in, float *out, float add, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = in[i] * in[i] + add;
}

__global__ void total(const float *x, float *sum, int n)   // one thread: tiny
{
    float s = 0;
    for (int i = 0; i < n; i += 1024) s += x[i];
    *sum = s;
}

// Run the pipeline on `ns` streams; return simulated milliseconds.
static float run(cudaStream_t *s, int ns, const float *hin, float *hout, float *din,
                 float *dout, float *dsum, float *hsum)
{
    cudaEvent_t start, stop, joined;
    cudaEventCreate(&start);
    cudaEventCreate(&stop);
    cudaEventCreate(&joined);
    cudaEventRecord(start, 0);
    for (int c = 0; c < CHUNKS; c++) {
        cudaStream_t st = s[c % ns];
        size_t off = (size_t)c * CHUNK;
        cudaMemcpyAsync(din + off, hin + off, CHUNK * sizeof(float), cudaMemcpyHostToDevice, st);
        square_add<<<CHUNK / 256, 256, 0, st>>>(din + off, dout + off, (float)c, CHUNK);
        cudaMemcpyAsync(hout + off, dout + off, CHUNK * sizeof(float), cudaMemcpyDeviceToHost, st);
    }
    // stream 0 sums everything once stream 1 is done too
    cudaEventRecord(joined, s[ns - 1]);
    cudaStreamWaitEvent(s[0], joined, 0);
    total<<<1, 1, 0, s[0]>>>(dout, dsum, CHUNKS * CHUNK);
    cudaMemcpyAsync(hsum, dsum, sizeof(float), cudaMemcpyDeviceToHost, s[0]);
    cudaEventRecord(stop, s[0]);
    cudaEventSynchronize(stop);
    float ms = -1, join_to_stop = -1;
    if (cudaEventElapsedTime(&ms, start, stop) || cudaEventElapsedTime(&join_to_stop, joined, stop) ||
        join_to_stop <= 0 || cudaEventQuery(stop) != cudaSuccess)
        ms = -1;
    cudaEventDestroy(start);
    cudaEventDestroy(stop);
    cudaEventDestroy(joined);
    return ms;
}

static int check(const float *hin, const float *hout, float sum)
{
    float want_sum = 0;
    for (int i = 0; i < CHUNKS * CHUNK; i++) {
        float want = hin[i] * hin[i] + (float)(i / CHUNK);
        if (hout[i] != want) {
            printf("FAIL: out[%d] = %f, want %f\n", i, hout[i], want);
            return 1;
        }
        if (i % 1024 == 0) want_sum += want;
    }
    if (sum != want_sum) { printf("FAIL: sum %f, want %f\n", sum, want_sum); return 1; }
    return 0;
}

int main()
{
    cudaDeviceProp p;
    cudaGetDeviceProperties(&p, 0);
    int engines = -1;
    cudaDeviceGetAttribute(&engines, cudaDevAttrAsyncEngineCount, 0);
    if (p.asyncEngineCount < 1 || engines != p.asyncEngineCount || !p.concurrentKernels) {
        printf("FAIL: no copy engine (asyncEngineCount %d, attribute %d, concurrentKernels %d)\n",
               p.asyncEngineCount, engines, p.concurrentKernels);
        return 1;
    }
    float *hin, *hout, *din, *dout, *dsum, *hsum;
    size_t bytes = (size_t)CHUNKS * CHUNK * sizeof(float);
    cudaMallocHost(&hin, bytes);
    cudaMallocHost(&hout, bytes);
    cudaMallocHost(&hsum, sizeof(float));
    cudaMalloc(&din, bytes);
    cudaMalloc(&dout, bytes);
    cudaMalloc(&dsum, sizeof(float));
    for (int i = 0; i < CHUNKS * CHUNK; i++) hin[i] = (float)(i % 97) * 0.5f;
    cudaStream_t s[2];
    cudaStreamCreate(&s[0]);
    cudaStreamCreateWithFlags(&s[1], cudaStreamNonBlocking);
    float one = run(s, 1, hin, hout, din, dout, dsum, hsum);
    if (check(hin, hout, *hsum)) return 1;
    cudaMemset(dout, 0, bytes);
    for (int i = 0; i < CHUNKS * CHUNK; i++) hout[i] = -1;
    float two = run(s, 2, hin, hout, din, dout, dsum, hsum);
    if (check(hin, hout, *hsum)) return 1;
    if (cudaStreamQuery(s[1]) != cudaSuccess || cudaDeviceSynchronize() != cudaSuccess) {
        printf("FAIL: query/synchronize\n");
        return 1;
    }
    printf("one stream %.4f ms, two streams %.4f ms (simulated)\n", one, two);
    if (one <= 0 || two <= 0 || two > one * 0.8f) {
        printf("FAIL: two streams do not overlap copies (%.4f vs %.4f ms)\n", two, one);
        return 1;
    }
    cudaStreamDestroy(s[0]);
    cudaStreamDestroy(s[1]);
    cudaFreeHost(hin);
    cudaFreeHost(hout);
    cudaFreeHost(hsum);
    printf("pipeline: PASS\n");
    return 0;
}
