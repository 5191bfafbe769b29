/*
** workers.c -- a pool of threads that run one function in N parts and
** meet again (the parallel timing model's per-cycle phase, smpar.c).
**
** A phase lasts microseconds, so waking a thread through the kernel on
** every one would cost more than the phase: a waiting thread spins on a
** generation counter for a while and only then sleeps on a condition
** variable.  Who sleeps and who wakes is decided with sequentially
** consistent atomics on both sides (the waiter announces itself, then
** looks again; the waker publishes, then looks for sleepers), so no
** wake-up is lost.
*/
#include "workers.h"
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdlib.h>
#include <unistd.h>

#define WK_SPIN 20000          /* polls before sleeping (a few tens of µs) */

struct wk_pool {
    uint32_t n;                /* parts of a phase */
    uint32_t nt;               /* threads, the caller included: thread k runs
                                  parts k, k + nt, ... (at most the host's CPUs:
                                  more would only take turns at the barrier) */
    pthread_t *tid;
    uint32_t started;
    pthread_mutex_t mu;
    pthread_cond_t wake, done;
    atomic_uint_fast64_t gen;  /* bumped for each phase */
    atomic_uint pending;       /* workers still in the phase */
    atomic_uint sleepers;      /* workers asleep on `wake` */
    atomic_bool caller_asleep; /* the caller asleep on `done` */
    atomic_bool quit;
    wk_fn fn;
    void *ctx;
};

typedef struct wk_arg { wk_pool *p; uint32_t part; } wk_arg;

static inline void wk_relax(uint32_t i)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#endif
    if ((i & 1023) == 1023) sched_yield();   /* an oversubscribed host */
}

/* Wait until the generation differs from `seen` (or quit). */
static uint64_t wk_wait_phase(wk_pool *p, uint64_t seen)
{
    for (uint32_t i = 0; i < WK_SPIN; i++) {
        uint64_t g = atomic_load(&p->gen);
        if (g != seen || atomic_load(&p->quit)) return g;
        wk_relax(i);
    }
    pthread_mutex_lock(&p->mu);
    atomic_fetch_add(&p->sleepers, 1);
    while (atomic_load(&p->gen) == seen && !atomic_load(&p->quit))
        pthread_cond_wait(&p->wake, &p->mu);
    atomic_fetch_sub(&p->sleepers, 1);
    pthread_mutex_unlock(&p->mu);
    return atomic_load(&p->gen);
}

static void *wk_main(void *arg)
{
    wk_arg a = *(wk_arg *)arg;
    free(arg);
    wk_pool *p = a.p;
    uint64_t seen = 0;
    for (;;) {
        seen = wk_wait_phase(p, seen);
        if (atomic_load(&p->quit)) return NULL;
        for (uint32_t k = a.part; k < p->n; k += p->nt) p->fn(p->ctx, k, p->n);
        if (atomic_fetch_sub(&p->pending, 1) == 1 && atomic_load(&p->caller_asleep)) {
            pthread_mutex_lock(&p->mu);
            pthread_cond_signal(&p->done);
            pthread_mutex_unlock(&p->mu);
        }
    }
}

wk_pool *wk_new(uint32_t n)
{
    wk_pool *p = calloc(1, sizeof *p);
    if (!p) return NULL;
    p->n = n ? n : 1;
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    p->nt = cpus > 0 && p->n > (uint32_t)cpus ? (uint32_t)cpus : p->n;
    p->tid = calloc(p->nt, sizeof *p->tid);
    pthread_mutex_init(&p->mu, NULL);
    pthread_cond_init(&p->wake, NULL);
    pthread_cond_init(&p->done, NULL);
    if (!p->tid) { wk_free(p); return NULL; }
    for (uint32_t k = 1; k < p->nt; k++) {
        wk_arg *a = malloc(sizeof *a);
        if (!a) { wk_free(p); return NULL; }
        *a = (wk_arg){ p, k };
        if (pthread_create(&p->tid[k], NULL, wk_main, a) != 0) {
            free(a);
            wk_free(p);
            return NULL;
        }
        p->started = k;
    }
    return p;
}

uint32_t wk_parts(const wk_pool *p) { return p->n; }
uint32_t wk_threads(const wk_pool *p) { return p->nt; }

bool wk_run(wk_pool *p, wk_fn fn, void *ctx)
{
    if (p->nt == 1) {
        for (uint32_t k = 0; k < p->n; k++) fn(ctx, k, p->n);
        return false;
    }
    p->fn = fn;
    p->ctx = ctx;
    atomic_store(&p->pending, p->nt - 1);
    atomic_fetch_add(&p->gen, 1);
    if (atomic_load(&p->sleepers)) {
        pthread_mutex_lock(&p->mu);
        pthread_cond_broadcast(&p->wake);
        pthread_mutex_unlock(&p->mu);
    }
    for (uint32_t k = 0; k < p->n; k += p->nt) fn(ctx, k, p->n);
    for (uint32_t i = 0; i < WK_SPIN; i++) {
        if (!atomic_load(&p->pending)) return false;
        wk_relax(i);
    }
    pthread_mutex_lock(&p->mu);
    atomic_store(&p->caller_asleep, true);
    while (atomic_load(&p->pending)) pthread_cond_wait(&p->done, &p->mu);
    atomic_store(&p->caller_asleep, false);
    pthread_mutex_unlock(&p->mu);
    return true;
}

void wk_free(wk_pool *p)
{
    if (!p) return;
    pthread_mutex_lock(&p->mu);
    atomic_store(&p->quit, true);
    pthread_cond_broadcast(&p->wake);
    pthread_mutex_unlock(&p->mu);
    for (uint32_t k = 1; k <= p->started; k++) pthread_join(p->tid[k], NULL);
    pthread_mutex_destroy(&p->mu);
    pthread_cond_destroy(&p->wake);
    pthread_cond_destroy(&p->done);
    free(p->tid);
    free(p);
}
