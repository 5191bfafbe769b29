/*
** cudart_device.c -- the one simulated device (count, select, properties,
** attributes, limits, synchronize, reset) and the per-thread default
** stream entry points.  Streams and events are cudart_stream.c's.
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
    WSC_LOCK();
    if (!d) return wsc_err(cudaErrorInvalidValue);
    *d = 0;
    return cudaSuccess;
}

WSC_API cudaError_t cudaSetDevice(int d)
{
    WSC_LOCK();
    return d == 0 ? cudaSuccess : wsc_fail(cudaErrorInvalidDevice, "cudaSetDevice",
                                           "device %d does not exist (the simulator has "
                                           "one device, 0)", d);
}

WSC_API cudaError_t cudaInitDevice(int d, unsigned int dflags, unsigned int flags)
{
    WSC_LOCK();
    (void)dflags; (void)flags;
    return cudaSetDevice(d);
}

/* Schedule flags change nothing in the simulator; cudaDeviceMapHost is
   what unified addressing implies anyway (mapped memory always works). */
WSC_API cudaError_t cudaSetDeviceFlags(unsigned int flags)
{
    WSC_LOCK();
    unsigned known = cudaDeviceScheduleMask | cudaDeviceMapHost | cudaDeviceLmemResizeToMax |
                     cudaDeviceSyncMemops;
    if (flags & ~known)
        return wsc_fail(cudaErrorInvalidValue, "cudaSetDeviceFlags", "unknown flags 0x%x",
                        flags);
    wsc_rt()->device_flags = flags;
    return cudaSuccess;
}

WSC_API cudaError_t cudaGetDeviceFlags(unsigned int *flags)
{
    WSC_LOCK();
    if (!flags) return wsc_err(cudaErrorInvalidValue);
    *flags = wsc_rt()->device_flags | cudaDeviceMapHost;
    return cudaSuccess;
}

WSC_API cudaError_t cudaChooseDevice(int *d, const struct cudaDeviceProp *prop)
{
    WSC_LOCK();
    (void)prop;
    return cudaGetDevice(d);
}

WSC_API cudaError_t cudaGetDeviceProperties(struct cudaDeviceProp *p, int d)
{
    WSC_LOCK();
    if (!p) return wsc_err(cudaErrorInvalidValue);
    if (d != 0) return wsc_err(cudaErrorInvalidDevice);
    wsc_device_props(&wsc_rt()->cfg, p);
    return cudaSuccess;
}

WSC_API cudaError_t cudaDeviceGetAttribute(int *v, enum cudaDeviceAttr a, int d)
{
    WSC_LOCK();
    if (!v) return wsc_err(cudaErrorInvalidValue);
    if (d != 0) return wsc_err(cudaErrorInvalidDevice);
    if (wsc_device_attr(&wsc_rt()->cfg, (int)a, v))
        return wsc_fail(cudaErrorInvalidValue, "cudaDeviceGetAttribute", "attribute %d is "
                        "not modelled by the simulator", (int)a);
    return cudaSuccess;
}

WSC_API cudaError_t cudaDeviceSynchronize(void)
{
    WSC_LOCK();
    wsc_runtime *rt = wsc_rt();
    wsc_timeline_wait(rt, rt->tl.device_end);
    return wsc_sticky(rt);
}

/* Frees all device memory and modules; statistics and registrations stay
   (modules are loaded again on next use). */
WSC_API cudaError_t cudaDeviceReset(void)
{
    WSC_LOCK();
    wsc_runtime *rt = wsc_rt();
    wsc_pinned_free_all(rt);
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
    WSC_LOCK();
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
    WSC_LOCK();
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
    WSC_LOCK();
    wsc_runtime *rt = wsc_rt();
    size_t *slot = limit_slot(rt, l);
    if (!value) return wsc_err(cudaErrorInvalidValue);
    if (!slot) return wsc_err(cudaErrorUnsupportedLimit);
    *value = *slot;
    return cudaSuccess;
}

/* ------------------------------------------------------------------ */
/* Per-thread default stream variants (--default-stream per-thread)    */
/* ------------------------------------------------------------------ */

WSC_API cudaError_t cudaMemcpy_ptds(void *dst, const void *src, size_t n,
                                    enum cudaMemcpyKind kind)
{
    WSC_LOCK();
    return cudaMemcpy(dst, src, n, kind);
}

WSC_API cudaError_t cudaMemcpyAsync_ptsz(void *dst, const void *src, size_t n,
                                         enum cudaMemcpyKind kind, cudaStream_t s)
{
    WSC_LOCK();
    return cudaMemcpyAsync(dst, src, n, kind, s);
}

WSC_API cudaError_t cudaMemset_ptds(void *p, int v, size_t n) { return cudaMemset(p, v, n); }

WSC_API cudaError_t cudaMemsetAsync_ptsz(void *p, int v, size_t n, cudaStream_t s)
{
    WSC_LOCK();
    return cudaMemsetAsync(p, v, n, s);
}

WSC_API cudaError_t cudaMemcpyToSymbol_ptds(const void *sym, const void *src, size_t n,
                                            size_t off, enum cudaMemcpyKind kind)
{
    WSC_LOCK();
    return cudaMemcpyToSymbol(sym, src, n, off, kind);
}

WSC_API cudaError_t cudaMemcpyFromSymbol_ptds(void *dst, const void *sym, size_t n,
                                              size_t off, enum cudaMemcpyKind kind)
{
    WSC_LOCK();
    return cudaMemcpyFromSymbol(dst, sym, n, off, kind);
}

WSC_API cudaError_t cudaStreamSynchronize_ptsz(cudaStream_t s) { return cudaStreamSynchronize(s); }
WSC_API cudaError_t cudaStreamQuery_ptsz(cudaStream_t s) { return cudaStreamQuery(s); }
WSC_API cudaError_t cudaEventRecord_ptsz(cudaEvent_t ev, cudaStream_t s)
{
    WSC_LOCK();
    return cudaEventRecord(ev, s);
}
