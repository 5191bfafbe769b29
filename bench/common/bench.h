/*
** bench.h -- host-side helpers shared by every bundled benchmark program.
**
** Each benchmark is one .cu file with main(): it parses `--size
** tiny|small|default` and `--seed N`, builds its input deterministically
** from the seed (bench_rng, never rand()/time()), runs its kernels, copies
** results back, checks them against a CPU reference and prints one line
** `PASS <name> ...` or `FAIL <name> ...`; exit status 0 on PASS, 1 on FAIL,
** 2 on bad arguments or a CUDA error.
**
** Mutation hook: when the environment variable WARPSIM_BENCH_CORRUPT is
** set, bench_corrupt() flips one element of the GPU output before it is
** verified, so a test can prove that verification catches a wrong result.
*/
#ifndef WARPSIM_BENCH_H
#define WARPSIM_BENCH_H

#include <cuda_runtime.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- sizes and arguments --------------------------------------------- */

enum bench_size { BENCH_TINY = 0, BENCH_SMALL = 1, BENCH_DEFAULT = 2 };

typedef struct bench_args {
    int size;           /* enum bench_size */
    uint64_t seed;
    const char *name;   /* benchmark name for the PASS/FAIL line */
} bench_args;

/* Pick one of three values by size: BENCH_PICK(a, tiny, small, default). */
#define BENCH_PICK(a, t, s, d) ((a).size == BENCH_TINY ? (t) : (a).size == BENCH_SMALL ? (s) : (d))

static inline bench_args bench_parse(int argc, char **argv, const char *name)
{
    bench_args a = { BENCH_SMALL, 1, name };
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--size") && i + 1 < argc) {
            const char *s = argv[++i];
            if (!strcmp(s, "tiny")) a.size = BENCH_TINY;
            else if (!strcmp(s, "small")) a.size = BENCH_SMALL;
            else if (!strcmp(s, "default")) a.size = BENCH_DEFAULT;
            else { fprintf(stderr, "%s: unknown size '%s' (tiny|small|default)\n", name, s); exit(2); }
        } else if (!strcmp(argv[i], "--seed") && i + 1 < argc) {
            a.seed = strtoull(argv[++i], NULL, 0);
        } else {
            fprintf(stderr, "usage: %s [--size tiny|small|default] [--seed N]\n", name);
            exit(2);
        }
    }
    return a;
}

/* ---- deterministic random numbers (splitmix64) ------------------------ */

typedef struct bench_rng { uint64_t s; } bench_rng;

static inline bench_rng bench_rng_new(uint64_t seed) { bench_rng r = { seed * 0x9E3779B97F4A7C15ull + 1 }; return r; }
static inline uint64_t bench_next(bench_rng *r)
{
    uint64_t z = (r->s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}
/* uniform integer in [0, n) */
static inline uint32_t bench_below(bench_rng *r, uint32_t n) { return (uint32_t)(bench_next(r) % (n ? n : 1)); }
/* uniform float in [lo, hi) */
static inline float bench_uniform(bench_rng *r, float lo, float hi)
{
    return lo + (hi - lo) * (float)((bench_next(r) >> 40) * (1.0 / 16777216.0));
}

/* ---- CUDA error checks -------------------------------------------------- */

#define BENCH_CUDA(call)                                                        \
    do {                                                                        \
        cudaError_t e_ = (call);                                                \
        if (e_ != cudaSuccess) {                                                \
            fprintf(stderr, "%s:%d: CUDA error %s: %s\n", __FILE__, __LINE__,   \
                    cudaGetErrorName(e_), cudaGetErrorString(e_));              \
            exit(2);                                                            \
        }                                                                       \
    } while (0)

/* After a launch: report launch and execution errors. */
#define BENCH_LAUNCHED() do { BENCH_CUDA(cudaGetLastError()); BENCH_CUDA(cudaDeviceSynchronize()); } while (0)

/* ---- mutation hook and verification ---------------------------------- */

/* Corrupt element `i` of a host copy of GPU output (bytes at p + i*elem)
   when WARPSIM_BENCH_CORRUPT is set: flips the low bit of every byte. */
static inline void bench_corrupt(void *p, size_t elem, size_t i)
{
    if (!getenv("WARPSIM_BENCH_CORRUPT")) return;
    unsigned char *b = (unsigned char *)p + i * elem;
    for (size_t k = 0; k < elem; k++) b[k] ^= 0x5a;
}

/* Count mismatches between float arrays with relative+absolute tolerance;
   prints the first few. */
static inline size_t bench_check_f32(const float *got, const float *want, size_t n,
                                     float rel, float abs_tol, const char *what)
{
    size_t bad = 0;
    for (size_t i = 0; i < n; i++) {
        float g = got[i], w = want[i];
        float tol = abs_tol + rel * fabsf(w);
        if (!(fabsf(g - w) <= tol)) {   /* NaN fails too */
            if (bad < 5) fprintf(stderr, "%s[%zu]: got %.9g want %.9g\n", what, i, g, w);
            bad++;
        }
    }
    return bad;
}

static inline size_t bench_check_u32(const uint32_t *got, const uint32_t *want, size_t n,
                                     const char *what)
{
    size_t bad = 0;
    for (size_t i = 0; i < n; i++)
        if (got[i] != want[i]) {
            if (bad < 5) fprintf(stderr, "%s[%zu]: got %u want %u\n", what, i, got[i], want[i]);
            bad++;
        }
    return bad;
}

/* Print the verdict line and return the exit status. */
static inline int bench_finish(const bench_args *a, size_t bad, const char *detail)
{
    static const char *sizes[] = { "tiny", "small", "default" };
    printf("%s %s size=%s seed=%llu %s\n", bad ? "FAIL" : "PASS", a->name, sizes[a->size],
           (unsigned long long)a->seed, detail ? detail : "");
    return bad ? 1 : 0;
}

#endif /* WARPSIM_BENCH_H */
