// threads.cu -- warpsim exec test: 8 host threads use the runtime at once,
// as CUDA allows.  Each creates its own stream and events, allocates,
// copies in, launches on its stream (also through the legacy launch path
// when built with -D__NV_LEGACY_LAUNCH), copies out and checks every value,
// several times.  Thread 0 also makes an error: only thread 0's
// cudaGetLastError may see it (the last error is per thread).
#include <cstdio>
#include <cstdlib>
#include <pthread.h>

#define NTHREADS 8
#define N 2048
#define ROUNDS 3

__global__ void affine(const int *in, int *out, int mul, int add, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = in[i] * mul + add;
}

static pthread_barrier_t barrier;
static int failures[NTHREADS];

static void *worker(void *arg)
{
    int id = (int)(long)arg, *din, *dout, dev = -1;
    int *h = (int *)malloc(N * sizeof(int)), *r = (int *)malloc(N * sizeof(int));
    cudaStream_t s;
    cudaEvent_t a, b;
    int *fail = &failures[id];
    if (cudaStreamCreate(&s) || cudaEventCreate(&a) || cudaEventCreate(&b) ||
        cudaMalloc(&din, N * sizeof(int)) || cudaMalloc(&dout, N * sizeof(int))) {
        printf("FAIL: thread %d: setup\n", id);
        *fail = 1;
        return NULL;
    }
    if (cudaGetDevice(&dev) || dev != 0) { printf("FAIL: thread %d: device %d\n", id, dev); *fail = 1; }
    if (id == 0 && cudaSetDevice(7) != cudaErrorInvalidDevice) { printf("FAIL: no error\n"); *fail = 1; }
    pthread_barrier_wait(&barrier);   // thread 0's error is recorded before anyone looks
    cudaError_t e = cudaGetLastError();
    if (e != (id == 0 ? cudaErrorInvalidDevice : cudaSuccess)) {
        printf("FAIL: thread %d: cudaGetLastError %d (the last error is per thread)\n", id,
               (int)e);
        *fail = 1;
    }
    for (int round = 0; round < ROUNDS && !*fail; round++) {
        for (int i = 0; i < N; i++) h[i] = i + id * 1000 + round;
        cudaMemcpyAsync(din, h, N * sizeof(int), cudaMemcpyHostToDevice, s);
        cudaEventRecord(a, s);
        affine<<<(N + 127) / 128, 128, 0, s>>>(din, dout, id + 2, round, N);
        cudaEventRecord(b, s);
        cudaMemcpyAsync(r, dout, N * sizeof(int), cudaMemcpyDeviceToHost, s);
        if ((e = cudaStreamSynchronize(s)) != cudaSuccess) {
            printf("FAIL: thread %d: synchronize: %s\n", id, cudaGetErrorName(e));
            *fail = 1;
            break;
        }
        float ms = -1;
        if (cudaEventElapsedTime(&ms, a, b) || ms <= 0) {
            printf("FAIL: thread %d: elapsed %f\n", id, ms);
            *fail = 1;
        }
        for (int i = 0; i < N; i++)
            if (r[i] != h[i] * (id + 2) + round) {
                printf("FAIL: thread %d round %d: r[%d] = %d, want %d\n", id, round, i, r[i],
                       h[i] * (id + 2) + round);
                *fail = 1;
                break;
            }
    }
    cudaFree(din);
    cudaFree(dout);
    cudaEventDestroy(a);
    cudaEventDestroy(b);
    cudaStreamDestroy(s);
    free(h);
    free(r);
    return NULL;
}

int main()
{
    pthread_t t[NTHREADS];
    pthread_barrier_init(&barrier, NULL, NTHREADS);
    for (long i = 0; i < NTHREADS; i++) pthread_create(&t[i], NULL, worker, (void *)i);
    int bad = 0;
    for (int i = 0; i < NTHREADS; i++) {
        pthread_join(t[i], NULL);
        bad |= failures[i];
    }
    if (cudaGetLastError() != cudaSuccess) { printf("FAIL: main thread sees an error\n"); bad = 1; }
    if (bad) return 1;
    printf("threads: PASS\n");
    return 0;
}
