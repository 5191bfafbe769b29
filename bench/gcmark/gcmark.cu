/*
** gcmark.cu -- mark phase of a tracing garbage collector on the GPU.
**
** The heap is one word array: each object is a header word
** (nrefs << 1 | mark bit) followed by nrefs reference words holding other
** objects' header offsets. gc_mark_step pops one gray object per thread
** from the current work list, sets its children's mark bits with atomicOr
** and pushes every child it was first to mark onto the next list. The host
** swaps lists until none is left. Pointer chasing through a shared heap
** with very uneven fan-out: memory-bound, cache-sensitive, unequal warps.
*/
#include "bench.h"

__global__ void gc_mark_step(uint32_t *heap, const uint32_t *work, int nwork,
                             uint32_t *next, uint32_t *next_count)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= nwork) return;
    uint32_t obj = work[t];
    uint32_t nrefs = heap[obj] >> 1;
    for (uint32_t i = 1; i <= nrefs; i++) {
        uint32_t child = heap[obj + i];
        if (child == 0xFFFFFFFFu) continue;            /* null reference */
        if ((heap[child] & 1u) != 0) continue;         /* cheap pre-check */
        if ((atomicOr(&heap[child], 1u) & 1u) == 0)
            next[atomicAdd(next_count, 1u)] = child;
    }
}

int main(int argc, char **argv)
{
    bench_args a = bench_parse(argc, argv, "gcmark");
    int nobj = BENCH_PICK(a, 16384, 163840, 1638400);
    int nroots = nobj / 128;
    const int threads = 128;
    bench_rng rng = bench_rng_new(a.seed);

    /* Objects: mostly 0..4 fields, one in 32 is a big array of 16..79
       references. Young objects mostly point near themselves; the rest point
       anywhere. A tenth of the references are null. */
    uint32_t *off = (uint32_t *)malloc(sizeof(uint32_t) * nobj);
    int *nrefs = (int *)malloc(sizeof(int) * nobj);
    size_t words = 0;
    for (int o = 0; o < nobj; o++) {
        nrefs[o] = bench_below(&rng, 32) == 0 ? 16 + (int)bench_below(&rng, 64)
                                              : (int)bench_below(&rng, 5);
        off[o] = (uint32_t)words;
        words += 1 + nrefs[o];
    }
    uint32_t *heap = (uint32_t *)malloc(sizeof(uint32_t) * words);
    for (int o = 0; o < nobj; o++) {
        heap[off[o]] = (uint32_t)nrefs[o] << 1;
        for (int i = 1; i <= nrefs[o]; i++) {
            int target;
            uint32_t r = bench_below(&rng, 10);
            if (r == 0) { heap[off[o] + i] = 0xFFFFFFFFu; continue; }
            if (r < 7) target = (o + (int)bench_below(&rng, 256) - 128 + nobj) % nobj;
            else target = (int)bench_below(&rng, (uint32_t)nobj);
            heap[off[o] + i] = off[target];
        }
    }
    /* Roots are marked up front and form the first work list. */
    uint32_t *roots = (uint32_t *)malloc(sizeof(uint32_t) * nroots);
    int nr = 0;
    for (int i = 0; i < nroots; i++) {
        uint32_t o = off[bench_below(&rng, (uint32_t)nobj)];
        if (heap[o] & 1u) continue;
        heap[o] |= 1u;
        roots[nr++] = o;
    }

    uint32_t *d_heap, *d_a, *d_b, *d_count;
    BENCH_CUDA(cudaMalloc(&d_heap, sizeof(uint32_t) * words));
    BENCH_CUDA(cudaMalloc(&d_a, sizeof(uint32_t) * nobj));
    BENCH_CUDA(cudaMalloc(&d_b, sizeof(uint32_t) * nobj));
    BENCH_CUDA(cudaMalloc(&d_count, sizeof(uint32_t)));
    BENCH_CUDA(cudaMemcpy(d_heap, heap, sizeof(uint32_t) * words, cudaMemcpyHostToDevice));
    BENCH_CUDA(cudaMemcpy(d_a, roots, sizeof(uint32_t) * nr, cudaMemcpyHostToDevice));
    uint32_t nwork = (uint32_t)nr;
    int steps = 0;
    while (nwork > 0) {
        BENCH_CUDA(cudaMemset(d_count, 0, sizeof(uint32_t)));
        gc_mark_step<<<(nwork + threads - 1) / threads, threads>>>(d_heap, d_a, (int)nwork, d_b, d_count);
        BENCH_LAUNCHED();
        BENCH_CUDA(cudaMemcpy(&nwork, d_count, sizeof(uint32_t), cudaMemcpyDeviceToHost));
        uint32_t *t = d_a; d_a = d_b; d_b = t;
        steps++;
    }
    uint32_t *gheap = (uint32_t *)malloc(sizeof(uint32_t) * words);
    BENCH_CUDA(cudaMemcpy(gheap, d_heap, sizeof(uint32_t) * words, cudaMemcpyDeviceToHost));

    /* CPU reference: depth-first marking from the same roots. */
    uint32_t *stack = (uint32_t *)malloc(sizeof(uint32_t) * nobj);
    int sp = 0, live = 0;
    for (int i = 0; i < nr; i++) stack[sp++] = roots[i];
    while (sp > 0) {
        uint32_t o = stack[--sp];
        for (uint32_t i = 1; i <= heap[o] >> 1; i++) {
            uint32_t c = heap[o + i];
            if (c != 0xFFFFFFFFu && !(heap[c] & 1u)) { heap[c] |= 1u; stack[sp++] = c; }
        }
    }
    uint32_t *got = (uint32_t *)malloc(sizeof(uint32_t) * nobj);
    uint32_t *want = (uint32_t *)malloc(sizeof(uint32_t) * nobj);
    for (int o = 0; o < nobj; o++) {
        got[o] = gheap[off[o]] & 1u;
        want[o] = heap[off[o]] & 1u;
        live += (int)want[o];
    }
    bench_corrupt(got, sizeof(uint32_t), nobj / 2);
    size_t bad = bench_check_u32(got, want, nobj, "mark");
    /* The collector must not touch anything but mark bits. */
    for (size_t w = 0; w < words; w++)
        if ((gheap[w] | 1u) != (heap[w] | 1u)) { bad++; break; }

    char detail[96];
    snprintf(detail, sizeof detail, "objects=%d words=%zu roots=%d live=%d steps=%d",
             nobj, words, nr, live, steps);
    cudaFree(d_heap); cudaFree(d_a); cudaFree(d_b); cudaFree(d_count);
    free(off); free(nrefs); free(heap); free(roots); free(stack); free(gheap); free(got); free(want);
    return bench_finish(&a, bad, detail);
}
