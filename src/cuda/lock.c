/*
** lock.c -- the one lock of a CUDA shim.  CUDA's runtime and driver APIs
** are thread-safe, the simulator below them is not: every exported entry
** point takes this recursive mutex (WSC_LOCK, cuda_internal.h) for its
** whole body, so calls from several host threads run one at a time, in
** the order they take the lock, and an entry point may call another.
** Each shim library links its own copy, so each has its own lock.
*/
#include "cuda_internal.h"
#include <pthread.h>

/* Part of the shim's process-global state (see cudart_internal.h). */
static pthread_mutex_t g_lock;
static pthread_once_t g_lock_once = PTHREAD_ONCE_INIT;

static void lock_init(void)
{
    pthread_mutexattr_t a;
    pthread_mutexattr_init(&a);
    pthread_mutexattr_settype(&a, PTHREAD_MUTEX_RECURSIVE);
    pthread_mutex_init(&g_lock, &a);
    pthread_mutexattr_destroy(&a);
}

int wsc_lock(void)
{
    pthread_once(&g_lock_once, lock_init);
    pthread_mutex_lock(&g_lock);
    return 0;
}

void wsc_unlock_guard(int *guard)
{
    (void)guard;
    pthread_mutex_unlock(&g_lock);
}
