/*
** cudart_host.c -- page-locked host memory: cudaMallocHost, cudaHostAlloc,
** cudaFreeHost, cudaHostRegister/Unregister, cudaHostGetDevicePointer and
** cudaHostGetFlags.  Every allocation is remembered, so freeing a pointer
** the runtime did not give out (device memory, the stack, the middle of a
** block, twice, malloc'ed) is an error and frees nothing.  Mapped
** (zero-copy) memory is managed memory (cudart_memory.c) marked pinned:
** its host copy is placed at its device address where the host allows
** (one pointer on both sides, as with unified addressing), else the
** device pointer differs (under AddressSanitizer, whose shadow covers the
** device range; and for registered memory); either way kernels read and
** write it, atomics included, and the host sees the result when the
** launch returns.
*/
#include "cudart_internal.h"
#include <stdlib.h>
#include <string.h>

#define HOST_ALLOC_FLAGS (cudaHostAllocPortable | cudaHostAllocMapped | \
                          cudaHostAllocWriteCombined)
#define HOST_REGISTER_FLAGS (cudaHostRegisterPortable | cudaHostRegisterMapped | \
                             cudaHostRegisterIoMemory | cudaHostRegisterReadOnly)

/* The entry whose block holds [p, p+n), or NULL. */
static wsc_pinned *pinned_find(wsc_runtime *rt, const void *p, size_t n)
{
    uintptr_t a = (uintptr_t)p;
    for (int i = 0; i < rt->npinned; i++) {
        uintptr_t h = (uintptr_t)rt->pinned[i].host;
        if (a >= h && a - h < rt->pinned[i].bytes + (n == 0) &&
            n <= rt->pinned[i].bytes - (a - h))
            return &rt->pinned[i];
    }
    return NULL;
}

static int pinned_add(wsc_runtime *rt, const wsc_pinned *e)
{
    if (wsc_grow((void **)&rt->pinned, &rt->cap_pinned, rt->npinned, sizeof *e)) return -1;
    rt->pinned[rt->npinned++] = *e;
    return 0;
}

/* The managed entry mapping host block `host`, or NULL. */
static wsc_managed *mapping_of(wsc_runtime *rt, const void *host)
{
    for (int i = 0; i < rt->nmanaged; i++)
        if (rt->managed[i].pinned && rt->managed[i].host == host) return &rt->managed[i];
    return NULL;
}

/* Release and forget the mapping of host block `host`; false if none. */
static bool unmap(wsc_runtime *rt, const void *host)
{
    wsc_managed *m = mapping_of(rt, host);
    if (!m) return false;
    wsc_managed_release(rt, m);
    *m = rt->managed[--rt->nmanaged];
    return true;
}

/* Release what entry `e` owns (its mapping too) and forget it. */
static void pinned_drop(wsc_runtime *rt, wsc_pinned *e)
{
    if (!unmap(rt, e->host) && !e->registered) free(e->host);
    *e = rt->pinned[--rt->npinned];
}

void wsc_pinned_free_all(wsc_runtime *rt)
{
    while (rt->npinned) pinned_drop(rt, &rt->pinned[rt->npinned - 1]);
    free(rt->pinned);
    rt->pinned = NULL;
    rt->cap_pinned = 0;
}

WSC_API cudaError_t cudaHostAlloc(void **p, size_t bytes, unsigned int flags)
{
    WSC_LOCK();
    wsc_runtime *rt = wsc_rt();
    if (!p) return wsc_err(cudaErrorInvalidValue);
    *p = NULL;
    if (flags & ~(unsigned)HOST_ALLOC_FLAGS)
        return wsc_fail(cudaErrorInvalidValue, "cudaHostAlloc", "unknown flags 0x%x", flags);
    if (rt->sticky) return wsc_sticky(rt);
    if (bytes == 0) return cudaSuccess;
    void *h = NULL;
    if (flags & cudaHostAllocMapped) {
        cudaError_t e = wsc_managed_alloc(rt, bytes, true, true, &h, "cudaHostAlloc");
        if (e) return e;
    } else if (!(h = malloc(bytes)))
        return wsc_fail(cudaErrorMemoryAllocation, "cudaHostAlloc", "out of host memory "
                        "for %zu bytes", bytes);
    wsc_pinned e = { .host = h, .bytes = bytes, .flags = flags };
    if (pinned_add(rt, &e)) {
        if (!unmap(rt, h)) free(h);
        return wsc_err(cudaErrorMemoryAllocation);
    }
    *p = h;
    return cudaSuccess;
}

WSC_API cudaError_t cudaMallocHost(void **p, size_t bytes)
{
    WSC_LOCK();
    return cudaHostAlloc(p, bytes, cudaHostAllocDefault);
}

/* Why `p` is not something cudaFreeHost can free, for the message. */
static const char *not_ours(wsc_runtime *rt, const void *p)
{
    wsc_pinned *e = pinned_find(rt, p, 0);
    if (e && e->registered) return "registered with cudaHostRegister (use cudaHostUnregister)";
    if (e) return "inside a block from cudaHostAlloc/cudaMallocHost, not its start";
    if (wsc_managed_find(rt, p, 0)) return "managed memory (use cudaFree)";
    if (ws_is_device_range((ws_devptr)(uintptr_t)p)) return "device memory (use cudaFree)";
    return "not from cudaHostAlloc/cudaMallocHost, or already freed";
}

WSC_API cudaError_t cudaFreeHost(void *p)
{
    WSC_LOCK();
    wsc_runtime *rt = wsc_rt();
    if (!p) return cudaSuccess;
    for (int i = 0; i < rt->npinned; i++)
        if (rt->pinned[i].host == p && !rt->pinned[i].registered) {
            pinned_drop(rt, &rt->pinned[i]);
            return cudaSuccess;
        }
    return wsc_fail(cudaErrorInvalidValue, "cudaFreeHost", "%p is %s; nothing freed", p,
                    not_ours(rt, p));
}

/*
** Registered memory is the program's: it stays where it is.  Mapped
** registration gives it a device copy (a different address) that is
** synchronised around launches like every mapped block.
*/
WSC_API cudaError_t cudaHostRegister(void *p, size_t n, unsigned int flags)
{
    WSC_LOCK();
    wsc_runtime *rt = wsc_rt();
    if (!p || n == 0 || (flags & ~(unsigned)HOST_REGISTER_FLAGS))
        return wsc_fail(cudaErrorInvalidValue, "cudaHostRegister", "bad arguments (%p, %zu "
                        "bytes, flags 0x%x)", p, n, flags);
    if (pinned_find(rt, p, 1) || pinned_find(rt, (char *)p + n - 1, 1))
        return wsc_fail(cudaErrorHostMemoryAlreadyRegistered, "cudaHostRegister", "%p (%zu "
                        "bytes) overlaps page-locked memory", p, n);
    if (flags & cudaHostRegisterMapped) {
        ws_ctx *ctx = wsc_ctx(rt);
        if (!ctx) return cudaErrorMemoryAllocation;
        ws_devptr d;
        ws_status st = ws_malloc(ctx, n, &d);
        if (st) return wsc_ws_fail(rt, st, "cudaHostRegister");
        wsc_managed m = { .host = p, .dev = d, .bytes = n, .dev_base = d, .pinned = true,
                          .borrowed = true };
        if (wsc_managed_add(rt, &m)) { ws_free(ctx, d); return wsc_err(cudaErrorMemoryAllocation); }
    }
    wsc_pinned e = { .host = p, .bytes = n, .flags = flags, .registered = true };
    if (pinned_add(rt, &e)) {
        unmap(rt, p);
        return wsc_err(cudaErrorMemoryAllocation);
    }
    return cudaSuccess;
}

WSC_API cudaError_t cudaHostUnregister(void *p)
{
    WSC_LOCK();
    wsc_runtime *rt = wsc_rt();
    for (int i = 0; i < rt->npinned; i++)
        if (rt->pinned[i].host == p && rt->pinned[i].registered) {
            pinned_drop(rt, &rt->pinned[i]);
            return cudaSuccess;
        }
    return wsc_fail(cudaErrorHostMemoryNotRegistered, "cudaHostUnregister", "%p is not the "
                    "start of memory registered with cudaHostRegister", p);
}

/* The device address of mapped host memory (managed memory: itself). */
WSC_API cudaError_t cudaHostGetDevicePointer(void **pdev, void *host, unsigned int flags)
{
    WSC_LOCK();
    wsc_runtime *rt = wsc_rt();
    if (!pdev || flags) return wsc_err(cudaErrorInvalidValue);
    wsc_pinned *e = pinned_find(rt, host, 0);
    wsc_managed *m = e ? mapping_of(rt, e->host) : NULL;
    if (m) {
        *pdev = (void *)(uintptr_t)(m->dev + ((uintptr_t)host - (uintptr_t)m->host));
        return cudaSuccess;
    }
    if (!e && wsc_managed_find(rt, host, 0)) { *pdev = host; return cudaSuccess; }
    return wsc_fail(cudaErrorInvalidValue, "cudaHostGetDevicePointer", "%p is not mapped "
                    "host memory: allocate it with cudaHostAlloc(..., cudaHostAllocMapped) or "
                    "register it with cudaHostRegisterMapped", host);
}

WSC_API cudaError_t cudaHostGetFlags(unsigned int *flags, void *host)
{
    WSC_LOCK();
    wsc_runtime *rt = wsc_rt();
    wsc_pinned *e = pinned_find(rt, host, 0);
    if (!flags || !e || e->registered) return wsc_err(cudaErrorInvalidValue);
    *flags = e->flags;
    return cudaSuccess;
}
