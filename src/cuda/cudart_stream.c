/*
** cudart_stream.c -- streams, events and the simulated order of work.
**
** Work runs to completion when it is issued (in the order the host issues
** it, across all streams and threads), so results never depend on stream
** timing.  What streams change is simulated time: each piece of work is
** placed on a timeline, in core cycles, as a GPU with one compute engine
** and WSC_COPY_ENGINES copy engines (host-to-device, device-to-host) would
** run it:
**   start = max(host has issued it, its stream's previous work ends,
**               its engine is free, implicit default-stream ordering)
**   end   = start + duration
** Kernels take their simulated cycles, memsets and device-to-device copies
** run on the compute engine at WSC_DEVICE_MBPS, host copies on their copy
** engine at WSC_PCIE_MBPS after WSC_COPY_LATENCY_US.  The legacy default
** stream waits for all blocking streams and they for it; non-blocking
** streams (cudaStreamNonBlocking) skip that; cudaStreamPerThread is a
** blocking stream of the calling thread.  Events take the time their stream
** reaches; cudaStreamWaitEvent delays the stream to it; synchronize and
** query calls (which always succeed: the work is done) move the host
** clock to what they wait for.  cudaEventElapsedTime is the difference in
** simulated time, so copy/kernel overlap across streams shows in it.
*/
#include "cudart_internal.h"
#include <stdlib.h>
#include <string.h>

#define WSC_PCIE_MBPS        16000    /* host<->device copies, MB/s (PCIe 4.0 x16) */
#define WSC_DEVICE_MBPS      400000   /* device-to-device copies and memsets, MB/s */
#define WSC_COPY_LATENCY_US  2        /* per host copy */

/* Our definitions of the toolkit's opaque handle types. */
struct CUstream_st { unsigned flags; int priority; uint64_t ready; };
struct CUevent_st { uint64_t cycles; bool recorded; unsigned flags; };

/* The legacy default stream (part of the runtime's one global state) and
   each thread's per-thread default stream. */
static struct CUstream_st g_legacy;
static __thread struct CUstream_st t_per_thread;

/* ------------------------------------------------------------------ */
/* Handles of streams and events                                       */
/* ------------------------------------------------------------------ */

int wsc_handle_add(wsc_runtime *rt, void *p)
{
    if (rt->nhandles == rt->cap_handles) {
        int cap = rt->cap_handles ? rt->cap_handles * 2 : 16;
        void **a = realloc(rt->handles, (size_t)cap * sizeof *a);
        if (!a) return -1;
        rt->handles = a;
        rt->cap_handles = cap;
    }
    rt->handles[rt->nhandles++] = p;
    return 0;
}

void wsc_handle_del(wsc_runtime *rt, void *p)
{
    for (int i = 0; i < rt->nhandles; i++)
        if (rt->handles[i] == p) {
            rt->handles[i] = rt->handles[--rt->nhandles];
            return;
        }
}

bool wsc_handle_live(const wsc_runtime *rt, const void *p)
{
    for (int i = 0; i < rt->nhandles; i++)
        if (rt->handles[i] == p) return true;
    return false;
}

/* ------------------------------------------------------------------ */
/* The timeline                                                        */
/* ------------------------------------------------------------------ */

static uint64_t max64(uint64_t a, uint64_t b) { return a > b ? a : b; }

/* The state behind stream handle `s` (the default streams included). */
static struct CUstream_st *stream_of(cudaStream_t s)
{
    if (s == NULL || s == cudaStreamLegacy) return &g_legacy;
    if (s == cudaStreamPerThread) return &t_per_thread;
    return s;
}

/* When work issued now on `st` may start, before its engine is asked. */
static uint64_t stream_start(const wsc_timeline *tl, const struct CUstream_st *st)
{
    uint64_t t = max64(tl->host, st->ready);
    if (st == &g_legacy) return max64(t, tl->blocking_end);
    if (!(st->flags & cudaStreamNonBlocking)) t = max64(t, tl->legacy_end);
    return t;
}

/* `st` has work up to `end`: keep the ordering facts current. */
static void stream_reach(wsc_timeline *tl, struct CUstream_st *st, uint64_t end)
{
    st->ready = max64(st->ready, end);
    if (st == &g_legacy) tl->legacy_end = max64(tl->legacy_end, end);
    else if (!(st->flags & cudaStreamNonBlocking))
        tl->blocking_end = max64(tl->blocking_end, end);
    tl->device_end = max64(tl->device_end, end);
}

static uint64_t place(wsc_runtime *rt, cudaStream_t s, wsc_engine e, uint64_t cycles)
{
    wsc_timeline *tl = &rt->tl;
    struct CUstream_st *st = stream_of(s);
    uint64_t start = max64(stream_start(tl, st), tl->engine_free[e]);
    uint64_t end = start + cycles;
    tl->engine_free[e] = end;
    stream_reach(tl, st, end);
    return end;
}

/* Cycles to move `n` bytes at `mbps` MB/s (1 MB/s = 1 byte/us). */
static uint64_t transfer_cycles(const wsc_runtime *rt, size_t n, uint64_t mbps)
{
    return ((uint64_t)n * rt->cfg.clock_mhz + mbps - 1) / mbps;
}

void wsc_timeline_wait(wsc_runtime *rt, uint64_t t) { rt->tl.host = max64(rt->tl.host, t); }

void wsc_timeline_kernel(wsc_runtime *rt, cudaStream_t s, uint64_t cycles)
{
    place(rt, s, WSC_ENGINE_COMPUTE, cycles);
}

void wsc_timeline_memset(wsc_runtime *rt, cudaStream_t s, size_t n)
{
    place(rt, s, WSC_ENGINE_COMPUTE, transfer_cycles(rt, n, WSC_DEVICE_MBPS));
}

/* Which engine a copy uses: by its kind, or for cudaMemcpyDefault by where
   the pointers are (managed and mapped memory count as host memory). */
static wsc_engine copy_engine(wsc_runtime *rt, const void *dst, const void *src,
                              enum cudaMemcpyKind kind)
{
    if (kind == cudaMemcpyDefault) {
        bool dd = ws_is_device_range((uintptr_t)dst) && !wsc_managed_find(rt, dst, 1);
        bool sd = ws_is_device_range((uintptr_t)src) && !wsc_managed_find(rt, src, 1);
        kind = dd ? (sd ? cudaMemcpyDeviceToDevice : cudaMemcpyHostToDevice)
                  : (sd ? cudaMemcpyDeviceToHost : cudaMemcpyHostToHost);
    }
    switch (kind) {
    case cudaMemcpyHostToDevice: return WSC_ENGINE_H2D;
    case cudaMemcpyDeviceToHost: return WSC_ENGINE_D2H;
    case cudaMemcpyDeviceToDevice: return WSC_ENGINE_COMPUTE;
    default: return WSC_ENGINES;   /* host to host: no device work */
    }
}

void wsc_timeline_copy(wsc_runtime *rt, cudaStream_t s, const void *dst, const void *src,
                       size_t n, enum cudaMemcpyKind kind, bool sync)
{
    wsc_engine e = copy_engine(rt, dst, src, kind);
    if (e == WSC_ENGINES) return;
    uint64_t cycles = e == WSC_ENGINE_COMPUTE ? transfer_cycles(rt, n, WSC_DEVICE_MBPS)
        : transfer_cycles(rt, n, WSC_PCIE_MBPS) + (uint64_t)WSC_COPY_LATENCY_US *
                                                  rt->cfg.clock_mhz;
    uint64_t end = place(rt, s, e, cycles);
    if (sync) wsc_timeline_wait(rt, end);
}

/* When everything issued so far on `s` is done (events recorded on it
   take this time). */
static uint64_t stream_done(wsc_runtime *rt, cudaStream_t s)
{
    struct CUstream_st *st = stream_of(s);
    return stream_start(&rt->tl, st);
}

/* ------------------------------------------------------------------ */
/* Streams                                                             */
/* ------------------------------------------------------------------ */

WSC_API cudaError_t cudaStreamCreateWithPriority(cudaStream_t *s, unsigned int flags, int prio)
{
    WSC_LOCK();
    wsc_runtime *rt = wsc_rt();
    if (!s) return wsc_err(cudaErrorInvalidValue);
    struct CUstream_st *st = calloc(1, sizeof *st);
    if (!st || wsc_handle_add(rt, st)) { free(st); return wsc_err(cudaErrorMemoryAllocation); }
    st->flags = flags;
    st->priority = prio;
    st->ready = rt->tl.host;
    *s = st;
    return cudaSuccess;
}

WSC_API cudaError_t cudaStreamCreateWithFlags(cudaStream_t *s, unsigned int flags)
{
    WSC_LOCK();
    return cudaStreamCreateWithPriority(s, flags, 0);
}

WSC_API cudaError_t cudaStreamCreate(cudaStream_t *s)
{
    WSC_LOCK();
    return cudaStreamCreateWithPriority(s, 0, 0);
}

cudaError_t wsc_stream_check(wsc_runtime *rt, cudaStream_t s, const char *fn)
{
    if (s == NULL || s == cudaStreamLegacy || s == cudaStreamPerThread ||
        wsc_handle_live(rt, s))
        return cudaSuccess;
    return wsc_fail(cudaErrorInvalidResourceHandle, fn, "unknown stream %p", (void *)s);
}

WSC_API cudaError_t cudaStreamDestroy(cudaStream_t s)
{
    WSC_LOCK();
    wsc_runtime *rt = wsc_rt();
    if (s == NULL || s == cudaStreamLegacy || s == cudaStreamPerThread || !wsc_handle_live(rt, s))
        return wsc_fail(cudaErrorInvalidResourceHandle, "cudaStreamDestroy",
                        "%p is not a stream made by cudaStreamCreate", (void *)s);
    wsc_handle_del(rt, s);
    free(s);
    return cudaSuccess;
}

WSC_API cudaError_t cudaStreamSynchronize(cudaStream_t s)
{
    WSC_LOCK();
    wsc_runtime *rt = wsc_rt();
    cudaError_t e = wsc_stream_check(rt, s, "cudaStreamSynchronize");
    if (e) return e;
    wsc_timeline_wait(rt, stream_done(rt, s));
    return wsc_sticky(rt);
}

WSC_API cudaError_t cudaStreamQuery(cudaStream_t s)
{
    WSC_LOCK();
    return cudaStreamSynchronize(s);
}

WSC_API cudaError_t cudaStreamWaitEvent(cudaStream_t s, cudaEvent_t ev, unsigned int flags)
{
    WSC_LOCK();
    wsc_runtime *rt = wsc_rt();
    if (!wsc_handle_live(rt, ev) || flags & ~(unsigned)cudaEventWaitExternal)
        return wsc_fail(cudaErrorInvalidResourceHandle, "cudaStreamWaitEvent", "%p is not an "
                        "event made by cudaEventCreate (or bad flags 0x%x)", (void *)ev, flags);
    cudaError_t e = wsc_stream_check(rt, s, "cudaStreamWaitEvent");
    if (e) return e;
    /* later work on `s` starts no earlier than the event (an event never
       recorded is complete: CUDA waits for nothing then) */
    if (ev->recorded) stream_reach(&rt->tl, stream_of(s), ev->cycles);
    return cudaSuccess;
}

WSC_API cudaError_t cudaStreamGetPriority(cudaStream_t s, int *prio)
{
    WSC_LOCK();
    wsc_runtime *rt = wsc_rt();
    if (!prio) return wsc_err(cudaErrorInvalidValue);
    cudaError_t e = wsc_stream_check(rt, s, "cudaStreamGetPriority");
    if (!e) *prio = wsc_handle_live(rt, s) ? s->priority : 0;
    return e;
}

WSC_API cudaError_t cudaDeviceGetStreamPriorityRange(int *least, int *greatest)
{
    if (least) *least = 0;
    if (greatest) *greatest = 0;
    return cudaSuccess;
}

/* The host function runs now: everything before it in the stream is done. */
WSC_API cudaError_t cudaLaunchHostFunc(cudaStream_t s, cudaHostFn_t fn, void *data)
{
    WSC_LOCK();
    wsc_runtime *rt = wsc_rt();
    cudaError_t e = wsc_stream_check(rt, s, "cudaLaunchHostFunc");
    if (e) return e;
    if (!fn) return wsc_err(cudaErrorInvalidValue);
    fn(data);
    return cudaSuccess;
}

WSC_API cudaError_t cudaStreamAddCallback(cudaStream_t s, cudaStreamCallback_t cb, void *data,
                                          unsigned int flags)
{
    WSC_LOCK();
    wsc_runtime *rt = wsc_rt();
    cudaError_t e = wsc_stream_check(rt, s, "cudaStreamAddCallback");
    if (e || flags) return e ? e : wsc_err(cudaErrorInvalidValue);
    if (!cb) return wsc_err(cudaErrorInvalidValue);
    cb(s, rt->sticky, data);
    return cudaSuccess;
}

/* ------------------------------------------------------------------ */
/* Events                                                              */
/* ------------------------------------------------------------------ */

WSC_API cudaError_t cudaEventCreateWithFlags(cudaEvent_t *ev, unsigned int flags)
{
    WSC_LOCK();
    wsc_runtime *rt = wsc_rt();
    if (!ev) return wsc_err(cudaErrorInvalidValue);
    struct CUevent_st *e = calloc(1, sizeof *e);
    if (!e || wsc_handle_add(rt, e)) { free(e); return wsc_err(cudaErrorMemoryAllocation); }
    e->flags = flags;
    *ev = e;
    return cudaSuccess;
}

WSC_API cudaError_t cudaEventCreate(cudaEvent_t *ev) { return cudaEventCreateWithFlags(ev, 0); }

WSC_API cudaError_t cudaEventDestroy(cudaEvent_t ev)
{
    WSC_LOCK();
    wsc_runtime *rt = wsc_rt();
    if (!wsc_handle_live(rt, ev)) return wsc_err(cudaErrorInvalidResourceHandle);
    wsc_handle_del(rt, ev);
    free(ev);
    return cudaSuccess;
}

WSC_API cudaError_t cudaEventRecord(cudaEvent_t ev, cudaStream_t s)
{
    WSC_LOCK();
    wsc_runtime *rt = wsc_rt();
    if (!wsc_handle_live(rt, ev))
        return wsc_fail(cudaErrorInvalidResourceHandle, "cudaEventRecord", "%p is not an "
                        "event made by cudaEventCreate", (void *)ev);
    cudaError_t e = wsc_stream_check(rt, s, "cudaEventRecord");
    if (e) return e;
    ev->cycles = stream_done(rt, s);
    ev->recorded = true;
    return cudaSuccess;
}

WSC_API cudaError_t cudaEventRecordWithFlags(cudaEvent_t ev, cudaStream_t s, unsigned int f)
{
    WSC_LOCK();
    (void)f;
    return cudaEventRecord(ev, s);
}

WSC_API cudaError_t cudaEventSynchronize(cudaEvent_t ev)
{
    WSC_LOCK();
    wsc_runtime *rt = wsc_rt();
    if (!wsc_handle_live(rt, ev)) return wsc_err(cudaErrorInvalidResourceHandle);
    if (ev->recorded) wsc_timeline_wait(rt, ev->cycles);
    return wsc_sticky(rt);
}

WSC_API cudaError_t cudaEventQuery(cudaEvent_t ev) { return cudaEventSynchronize(ev); }

/* Milliseconds of simulated time between two recorded events. */
WSC_API cudaError_t cudaEventElapsedTime(float *ms, cudaEvent_t start, cudaEvent_t end)
{
    WSC_LOCK();
    wsc_runtime *rt = wsc_rt();
    if (!ms) return wsc_err(cudaErrorInvalidValue);
    if (!wsc_handle_live(rt, start) || !wsc_handle_live(rt, end))
        return wsc_err(cudaErrorInvalidResourceHandle);
    if (!start->recorded || !end->recorded) return wsc_err(cudaErrorInvalidResourceHandle);
    if ((start->flags | end->flags) & cudaEventDisableTiming)
        return wsc_err(cudaErrorInvalidResourceHandle);
    double cycles = (double)end->cycles - (double)start->cycles;
    *ms = (float)(cycles / (rt->cfg.clock_mhz * 1000.0));
    return cudaSuccess;
}
