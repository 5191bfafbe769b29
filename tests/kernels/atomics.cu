// atomics.cu -- contended atomics on global and shared memory: a 16-bin
// histogram (shared atomicAdd, then global atomicAdd), min/max/CAS-loop sum/
// exchange/wrapping increment, float atomicAdd, and tickets whose returned
// old values must form a permutation.  Every result is order-independent so
// a CPU reference can check it exactly.

#define HIST_BINS 16

extern "C" __global__ void histogram16(const unsigned *in, unsigned *hist, int n)
{
    __shared__ unsigned local[HIST_BINS];
    if (threadIdx.x < HIST_BINS)
        local[threadIdx.x] = 0;
    __syncthreads();
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
        atomicAdd(&local[in[i] % HIST_BINS], 1u);
    __syncthreads();
    if (threadIdx.x < HIST_BINS)
        atomicAdd(&hist[threadIdx.x], local[threadIdx.x]);
}

// res layout (int32): [0] atomicMin over in, [1] atomicMax over in,
// [2] CAS-loop sum of in, [3] atomicInc counter with limit `inc_limit`,
// [4] shared-memory min folded into global with atomicMin,
// [5] shared-memory max folded into global with atomicMax,
// [6] slot for atomicExch (ends holding one thread's id).
// exch_old[i] receives the value thread i swapped out of res[6];
// ticket[i] receives thread i's atomicAdd ticket from res[7].
extern "C" __global__ void atomic_mix(const int *in, int *res, int *exch_old,
                                      unsigned *ticket, float *fsum, int n,
                                      unsigned inc_limit)
{
    __shared__ int smin, smax;
    if (threadIdx.x == 0) {
        smin = 0x7fffffff;
        smax = -0x7fffffff - 1;
    }
    __syncthreads();
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        int v = in[i];
        atomicMin(&res[0], v);
        atomicMax(&res[1], v);
        int old = res[2], assumed;
        do {
            assumed = old;
            old = atomicCAS(&res[2], assumed, assumed + v);
        } while (old != assumed);
        atomicInc((unsigned *)&res[3], inc_limit);
        atomicMin(&smin, v);
        atomicMax(&smax, v);
        exch_old[i] = atomicExch(&res[6], i);
        ticket[i] = atomicAdd((unsigned *)&res[7], 1u);
        atomicAdd(fsum, (float)(v & 15) * 0.25f);   // exact in any order
    }
    __syncthreads();
    if (threadIdx.x == 0) {
        atomicMin(&res[4], smin);
        atomicMax(&res[5], smax);
    }
}
