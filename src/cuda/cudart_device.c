/*
** cudart_device.c -- the one simulated device (count, select, properties,
** attributes, limits, synchronize, reset), streams and events.  Work runs
** to completion when issued, so streams are trivially in order and
** synchronization only reports pending errors.  Events read the simulated
** clock (stats.c: nominal cycles of all launches so far), so elapsed times
** measure simulated, not host, time.
*/
#include "cudart_internal.h"
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------ */
/* Device                                                              */
/* ------------------------------------------------------------------ */

WSC_API cudaError_t cudaGetDeviceCount(int *n)
{
    if (!n) return wsc_err(cudaErrorInvalidValue);
    *n = 1;
    return cudaSuccess;
}

WSC_API cudaError_t cudaGetDevice(int *d)
{
    if (!d) return wsc_err(cudaErrorInvalidValue);
    *d = 0;
    return cudaSuccess;
}

WSC_API cudaError_t cudaSetDevice(int d)
{
    return d == 0 ? cudaSuccess : wsc_fail(cudaErrorInvalidDevice, "cudaSetDevice",
                                           "device %d does not exist (the simulator has "
                                           "one device, 0)", d);
}

WSC_API cudaError_t cudaInitDevice(int d, unsigned int dflags, unsigned int flags)
{
    (void)dflags; (void)flags;
    return cudaSetDevice(d);
}

WSC_API cudaError_t cudaSetDeviceFlags(unsigned int flags) { (void)flags; return cudaSuccess; }

WSC_API cudaError_t cudaGetDeviceFlags(unsigned int *flags)
{
    if (!flags) return wsc_err(cudaErrorInvalidValue);
    *flags = 0;
    return cudaSuccess;
}

WSC_API cudaError_t cudaChooseDevice(int *d, const struct cudaDeviceProp *prop)
{
    (void)prop;
    return cudaGetDevice(d);
}

WSC_API cudaError_t cudaGetDeviceProperties(struct cudaDeviceProp *p, int d)
{
    if (!p) return wsc_err(cudaErrorInvalidValue);
    if (d != 0) return wsc_err(cudaErrorInvalidDevice);
    wsc_device_props(&wsc_rt()->cfg, p);
    return cudaSuccess;
}

WSC_API cudaError_t cudaDeviceGetAttribute(int *v, enum cudaDeviceAttr a, int d)
{
    if (!v) return wsc_err(cudaErrorInvalidValue);
    if (d != 0) return wsc_err(cudaErrorInvalidDevice);
    if (wsc_device_attr(&wsc_rt()->cfg, (int)a, v))
        return wsc_fail(cudaErrorInvalidValue, "cudaDeviceGetAttribute", "attribute %d is "
                        "not modelled by the simulator", (int)a);
    return cudaSuccess;
}

WSC_API cudaError_t cudaDeviceSynchronize(void)
{
    return wsc_sticky(wsc_rt());
}

/* Frees all device memory and modules; statistics and registrations stay
   (modules are loaded again on next use). */
WSC_API cudaError_t cudaDeviceReset(void)
{
    wsc_runtime *rt = wsc_rt();
    wsc_managed_free_all(rt);
    wsc_register_reset(rt);
    if (rt->ctx) ws_ctx_destroy(rt->ctx);
    rt->ctx = NULL;
    rt->sticky = cudaSuccess;
    return cudaSuccess;
}

WSC_API cudaError_t cudaDeviceSetCacheConfig(enum cudaFuncCache c) { (void)c; return cudaSuccess; }

WSC_API cudaError_t cudaDeviceGetCacheConfig(enum cudaFuncCache *c)
{
    if (!c) return wsc_err(cudaErrorInvalidValue);
    *c = cudaFuncCachePreferNone;
    return cudaSuccess;
}

static size_t *limit_slot(wsc_runtime *rt, enum cudaLimit l)
{
    switch (l) {
    case cudaLimitStackSize:      return &rt->limit_stack;
    case cudaLimitPrintfFifoSize: return &rt->limit_printf;
    case cudaLimitMallocHeapSize: return &rt->limit_heap;
    default:                      return NULL;
    }
}

/* Only the stack size changes the simulation (per-thread local memory):
   like CUDA it may change between launches, so it goes to the context now
   (if there is one) and to the options of one made later (after a reset). */
WSC_API cudaError_t cudaDeviceSetLimit(enum cudaLimit l, size_t value)
{
    wsc_runtime *rt = wsc_rt();
    size_t *slot = limit_slot(rt, l);
    if (!slot) return wsc_err(cudaErrorUnsupportedLimit);
    if (l == cudaLimitStackSize) {
        if (value > WS_MAX_STACK_BYTES)
            return wsc_fail(cudaErrorInvalidValue, "cudaDeviceSetLimit", "a stack of %zu "
                            "bytes per thread; the simulator allows at most %u", value,
                            WS_MAX_STACK_BYTES);
        value = value < 16 ? 16 : (value + 15) & ~(size_t)15;
        if (rt->ctx && ws_ctx_set_stack(rt->ctx, value))
            return wsc_ws_fail(rt, WS_ERR_INVALID, "cudaDeviceSetLimit");
        rt->cfg.stack_bytes = (uint32_t)value;
    }
    *slot = value;
    return cudaSuccess;
}

WSC_API cudaError_t cudaDeviceGetLimit(size_t *value, enum cudaLimit l)
{
    wsc_runtime *rt = wsc_rt();
    size_t *slot = limit_slot(rt, l);
    if (!value) return wsc_err(cudaErrorInvalidValue);
    if (!slot) return wsc_err(cudaErrorUnsupportedLimit);
    *value = *slot;
    return cudaSuccess;
}

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

/* Our definitions of the toolkit's opaque handle types. */
struct CUstream_st { unsigned flags; int priority; };
struct CUevent_st { uint64_t cycles; bool recorded; unsigned flags; };

/* ------------------------------------------------------------------ */
/* Streams                                                             */
/* ------------------------------------------------------------------ */

WSC_API cudaError_t cudaStreamCreateWithPriority(cudaStream_t *s, unsigned int flags, int prio)
{
    wsc_runtime *rt = wsc_rt();
    if (!s) return wsc_err(cudaErrorInvalidValue);
    struct CUstream_st *st = calloc(1, sizeof *st);
    if (!st || wsc_handle_add(rt, st)) { free(st); return wsc_err(cudaErrorMemoryAllocation); }
    st->flags = flags;
    st->priority = prio;
    *s = st;
    return cudaSuccess;
}

WSC_API cudaError_t cudaStreamCreateWithFlags(cudaStream_t *s, unsigned int flags)
{
    return cudaStreamCreateWithPriority(s, flags, 0);
}

WSC_API cudaError_t cudaStreamCreate(cudaStream_t *s)
{
    return cudaStreamCreateWithPriority(s, 0, 0);
}

static cudaError_t stream_check(wsc_runtime *rt, cudaStream_t s, const char *fn)
{
    if (s == NULL || s == cudaStreamLegacy || s == cudaStreamPerThread ||
        wsc_handle_live(rt, s))
        return cudaSuccess;
    return wsc_fail(cudaErrorInvalidResourceHandle, fn, "unknown stream %p", (void *)s);
}

WSC_API cudaError_t cudaStreamDestroy(cudaStream_t s)
{
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
    wsc_runtime *rt = wsc_rt();
    cudaError_t e = stream_check(rt, s, "cudaStreamSynchronize");
    return e ? e : wsc_sticky(rt);
}

WSC_API cudaError_t cudaStreamQuery(cudaStream_t s)
{
    return cudaStreamSynchronize(s);
}

WSC_API cudaError_t cudaStreamWaitEvent(cudaStream_t s, cudaEvent_t ev, unsigned int flags)
{
    (void)flags;
    wsc_runtime *rt = wsc_rt();
    if (!wsc_handle_live(rt, ev)) return wsc_err(cudaErrorInvalidResourceHandle);
    return stream_check(rt, s, "cudaStreamWaitEvent");
}

WSC_API cudaError_t cudaStreamGetPriority(cudaStream_t s, int *prio)
{
    wsc_runtime *rt = wsc_rt();
    if (!prio) return wsc_err(cudaErrorInvalidValue);
    cudaError_t e = stream_check(rt, s, "cudaStreamGetPriority");
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
    wsc_runtime *rt = wsc_rt();
    cudaError_t e = stream_check(rt, s, "cudaLaunchHostFunc");
    if (e) return e;
    if (!fn) return wsc_err(cudaErrorInvalidValue);
    fn(data);
    return cudaSuccess;
}

WSC_API cudaError_t cudaStreamAddCallback(cudaStream_t s, cudaStreamCallback_t cb, void *data,
                                          unsigned int flags)
{
    wsc_runtime *rt = wsc_rt();
    cudaError_t e = stream_check(rt, s, "cudaStreamAddCallback");
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
    wsc_runtime *rt = wsc_rt();
    if (!wsc_handle_live(rt, ev)) return wsc_err(cudaErrorInvalidResourceHandle);
    wsc_handle_del(rt, ev);
    free(ev);
    return cudaSuccess;
}

WSC_API cudaError_t cudaEventRecord(cudaEvent_t ev, cudaStream_t s)
{
    wsc_runtime *rt = wsc_rt();
    if (!wsc_handle_live(rt, ev))
        return wsc_fail(cudaErrorInvalidResourceHandle, "cudaEventRecord", "%p is not an "
                        "event made by cudaEventCreate", (void *)ev);
    cudaError_t e = stream_check(rt, s, "cudaEventRecord");
    if (e) return e;
    ev->cycles = wsc_now_cycles(rt);
    ev->recorded = true;
    return cudaSuccess;
}

WSC_API cudaError_t cudaEventRecordWithFlags(cudaEvent_t ev, cudaStream_t s, unsigned int f)
{
    (void)f;
    return cudaEventRecord(ev, s);
}

WSC_API cudaError_t cudaEventSynchronize(cudaEvent_t ev)
{
    wsc_runtime *rt = wsc_rt();
    if (!wsc_handle_live(rt, ev)) return wsc_err(cudaErrorInvalidResourceHandle);
    return wsc_sticky(rt);
}

WSC_API cudaError_t cudaEventQuery(cudaEvent_t ev) { return cudaEventSynchronize(ev); }

/* Milliseconds of simulated time between two recorded events. */
WSC_API cudaError_t cudaEventElapsedTime(float *ms, cudaEvent_t start, cudaEvent_t end)
{
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

/* ------------------------------------------------------------------ */
/* Per-thread default stream variants (--default-stream per-thread)    */
/* ------------------------------------------------------------------ */

WSC_API cudaError_t cudaMemcpy_ptds(void *dst, const void *src, size_t n,
                                    enum cudaMemcpyKind kind)
{
    return cudaMemcpy(dst, src, n, kind);
}

WSC_API cudaError_t cudaMemcpyAsync_ptsz(void *dst, const void *src, size_t n,
                                         enum cudaMemcpyKind kind, cudaStream_t s)
{
    return cudaMemcpyAsync(dst, src, n, kind, s);
}

WSC_API cudaError_t cudaMemset_ptds(void *p, int v, size_t n) { return cudaMemset(p, v, n); }

WSC_API cudaError_t cudaMemsetAsync_ptsz(void *p, int v, size_t n, cudaStream_t s)
{
    return cudaMemsetAsync(p, v, n, s);
}

WSC_API cudaError_t cudaMemcpyToSymbol_ptds(const void *sym, const void *src, size_t n,
                                            size_t off, enum cudaMemcpyKind kind)
{
    return cudaMemcpyToSymbol(sym, src, n, off, kind);
}

WSC_API cudaError_t cudaMemcpyFromSymbol_ptds(void *dst, const void *sym, size_t n,
                                              size_t off, enum cudaMemcpyKind kind)
{
    return cudaMemcpyFromSymbol(dst, sym, n, off, kind);
}

WSC_API cudaError_t cudaStreamSynchronize_ptsz(cudaStream_t s) { return cudaStreamSynchronize(s); }
WSC_API cudaError_t cudaStreamQuery_ptsz(cudaStream_t s) { return cudaStreamQuery(s); }
WSC_API cudaError_t cudaEventRecord_ptsz(cudaEvent_t ev, cudaStream_t s)
{
    return cudaEventRecord(ev, s);
}
