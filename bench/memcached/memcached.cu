/*
** memcached.cu -- key-value store GET lookups in an open-addressing table.
**
** One thread per GET request: hash the 16-byte key (FNV-1a), then probe
** the table linearly, comparing stored keys word by word, until the key or
** an empty slot is found. Popular keys are requested far more often than
** others, so hot slots are re-read by many warps (cache-sensitive, like
** MEMC in CCWS), and probe lengths differ per request (unequal warps).
*/
#include "bench.h"

#define KEY_WORDS 4
#define EMPTY_KEY 0u          /* word 0 of a key is never 0 */
#define MISS 0xFFFFFFFFu

__host__ __device__ static inline uint32_t key_hash(const uint32_t *k)
{
    uint32_t h = 2166136261u;
    for (int w = 0; w < KEY_WORDS; w++)
        for (int b = 0; b < 4; b++) {
            h ^= (k[w] >> (8 * b)) & 0xFFu;
            h *= 16777619u;
        }
    return h;
}

__global__ void memcached_get(const uint32_t *table_keys, const uint32_t *table_vals,
                              uint32_t mask, const uint32_t *req_keys, uint32_t *out, int nreq)
{
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r >= nreq) return;
    uint32_t key[KEY_WORDS];
    for (int w = 0; w < KEY_WORDS; w++) key[w] = req_keys[r * KEY_WORDS + w];
    uint32_t slot = key_hash(key) & mask, result = MISS;
    for (;;) {
        const uint32_t *sk = table_keys + (size_t)slot * KEY_WORDS;
        uint32_t k0 = sk[0];
        if (k0 == EMPTY_KEY) break;
        if (k0 == key[0] && sk[1] == key[1] && sk[2] == key[2] && sk[3] == key[3]) {
            result = table_vals[slot];
            break;
        }
        slot = (slot + 1) & mask;
    }
    out[r] = result;
}

static void random_key(bench_rng *rng, uint32_t *k)
{
    for (int w = 0; w < KEY_WORDS; w++) k[w] = (uint32_t)bench_next(rng);
    if (k[0] == EMPTY_KEY) k[0] = 1;
}

static uint32_t cpu_get(const uint32_t *tk, const uint32_t *tv, uint32_t mask, const uint32_t *k)
{
    for (uint32_t slot = key_hash(k) & mask;; slot = (slot + 1) & mask) {
        const uint32_t *sk = tk + (size_t)slot * KEY_WORDS;
        if (sk[0] == EMPTY_KEY) return MISS;
        if (!memcmp(sk, k, sizeof(uint32_t) * KEY_WORDS)) return tv[slot];
    }
}

int main(int argc, char **argv)
{
    bench_args a = bench_parse(argc, argv, "memcached");
    int log_slots = BENCH_PICK(a, 14, 17, 20);
    int nreq = BENCH_PICK(a, 16384, 163840, 1638400);
    const int threads = 128;
    uint32_t nslots = 1u << log_slots, mask = nslots - 1;
    int nkeys = (int)(nslots * 3 / 4);    /* load factor 0.75: varied probe chains */
    bench_rng rng = bench_rng_new(a.seed);

    uint32_t *tk = (uint32_t *)calloc((size_t)nslots * KEY_WORDS, sizeof(uint32_t));
    uint32_t *tv = (uint32_t *)calloc(nslots, sizeof(uint32_t));
    uint32_t *keys = (uint32_t *)malloc(sizeof(uint32_t) * nkeys * KEY_WORDS);
    for (int i = 0; i < nkeys; i++) {
        uint32_t *k = keys + i * KEY_WORDS;
        random_key(&rng, k);
        uint32_t slot = key_hash(k) & mask;
        while (tk[(size_t)slot * KEY_WORDS] != EMPTY_KEY) slot = (slot + 1) & mask;
        memcpy(tk + (size_t)slot * KEY_WORDS, k, sizeof(uint32_t) * KEY_WORDS);
        tv[slot] = (uint32_t)bench_next(&rng) & 0x7FFFFFFFu;
    }
    /* Requests: 85% hits skewed toward low key indices (u^3), 15% misses. */
    uint32_t *req = (uint32_t *)malloc(sizeof(uint32_t) * nreq * KEY_WORDS);
    for (int r = 0; r < nreq; r++) {
        if (bench_below(&rng, 100) < 85) {
            double u = (double)bench_below(&rng, 1u << 24) / (double)(1u << 24);
            int i = (int)(u * u * u * nkeys);
            memcpy(req + r * KEY_WORDS, keys + i * KEY_WORDS, sizeof(uint32_t) * KEY_WORDS);
        } else {
            random_key(&rng, req + r * KEY_WORDS);
        }
    }

    uint32_t *d_tk, *d_tv, *d_req, *d_out;
    BENCH_CUDA(cudaMalloc(&d_tk, sizeof(uint32_t) * nslots * KEY_WORDS));
    BENCH_CUDA(cudaMalloc(&d_tv, sizeof(uint32_t) * nslots));
    BENCH_CUDA(cudaMalloc(&d_req, sizeof(uint32_t) * nreq * KEY_WORDS));
    BENCH_CUDA(cudaMalloc(&d_out, sizeof(uint32_t) * nreq));
    BENCH_CUDA(cudaMemcpy(d_tk, tk, sizeof(uint32_t) * nslots * KEY_WORDS, cudaMemcpyHostToDevice));
    BENCH_CUDA(cudaMemcpy(d_tv, tv, sizeof(uint32_t) * nslots, cudaMemcpyHostToDevice));
    BENCH_CUDA(cudaMemcpy(d_req, req, sizeof(uint32_t) * nreq * KEY_WORDS, cudaMemcpyHostToDevice));
    memcached_get<<<(nreq + threads - 1) / threads, threads>>>(d_tk, d_tv, mask, d_req, d_out, nreq);
    BENCH_LAUNCHED();

    uint32_t *out = (uint32_t *)malloc(sizeof(uint32_t) * nreq);
    uint32_t *want = (uint32_t *)malloc(sizeof(uint32_t) * nreq);
    BENCH_CUDA(cudaMemcpy(out, d_out, sizeof(uint32_t) * nreq, cudaMemcpyDeviceToHost));
    int hits = 0;
    for (int r = 0; r < nreq; r++) {
        want[r] = cpu_get(tk, tv, mask, req + r * KEY_WORDS);
        hits += want[r] != MISS;
    }
    bench_corrupt(out, sizeof(uint32_t), nreq / 3);
    size_t bad = bench_check_u32(out, want, nreq, "value");

    char detail[80];
    snprintf(detail, sizeof detail, "slots=%u keys=%d requests=%d hits=%d", nslots, nkeys, nreq, hits);
    cudaFree(d_tk); cudaFree(d_tv); cudaFree(d_req); cudaFree(d_out);
    free(tk); free(tv); free(keys); free(req); free(out); free(want);
    return bench_finish(&a, bad, detail);
}
