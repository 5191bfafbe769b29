/*
** workers.h -- a pool of threads running one function in parts (workers.c).
*/
#ifndef WS_GPU_WORKERS_H
#define WS_GPU_WORKERS_H

#include <stdbool.h>
#include <stdint.h>

typedef struct wk_pool wk_pool;
/* Part `part` of `nparts` of one phase. */
typedef void (*wk_fn)(void *ctx, uint32_t part, uint32_t nparts);

/* A pool running phases in `n` parts on the caller and up to n - 1
   threads (no more threads than the host has CPUs: each then runs
   several parts).  NULL when threads or memory could not be had. */
wk_pool *wk_new(uint32_t n);
uint32_t wk_parts(const wk_pool *p);
/* Threads running the parts, the caller included. */
uint32_t wk_threads(const wk_pool *p);
/* Run fn(ctx, k, n) for every part k (part 0 on the caller) and return
   when all have: true when the caller had to sleep for them (a thread
   was late: the host's CPUs are busy with something else). */
bool wk_run(wk_pool *p, wk_fn fn, void *ctx);
void wk_free(wk_pool *p);

#endif /* WS_GPU_WORKERS_H */
