/*
** cudart_memory.c -- device, host and managed memory of the CUDA runtime:
** cudaMalloc/Free, the copies (plain, async, 2D, to/from symbols), memset
** and symbol queries.  Every "async" call completes before it returns, in
** issue order; its stream only decides its place in simulated time.
*/
#include "cudart_internal.h"
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

/* Device addresses (global heap and constant bank) live in one range of
   the simulator's address space; no host pointer does, except managed
   memory that is mapped there on purpose. */
static bool in_device_range(const void *p)
{
    return ws_is_device_range((ws_devptr)(uintptr_t)p);
}

wsc_managed *wsc_managed_find(wsc_runtime *rt, const void *p, size_t n)
{
    uintptr_t a = (uintptr_t)p;
    for (int i = 0; i < rt->nmanaged; i++) {
        wsc_managed *m = &rt->managed[i];
        uintptr_t h = (uintptr_t)m->host;
        if (a >= h && a - h <= m->bytes && n <= m->bytes - (a - h)) return m;
    }
    return NULL;
}

/* A device address inside mapped memory whose host copy lives elsewhere
   (mapped host memory where the host range could not be placed at the
   device address, registered memory): the host address, so copies and
   memsets reach the copy kernels see at the next launch.  Else `p`. */
void *wsc_mapped_host(wsc_runtime *rt, const void *p, size_t n)
{
    uintptr_t a = (uintptr_t)p;
    for (int i = 0; i < rt->nmanaged; i++) {
        wsc_managed *m = &rt->managed[i];
        if ((uintptr_t)m->host == m->dev || !m->pinned) continue;
        if (a >= m->dev && a - m->dev <= m->bytes && n <= m->bytes - (a - m->dev))
            return (char *)m->host + (a - m->dev);
    }
    return (void *)(uintptr_t)p;
}

/* ------------------------------------------------------------------ */
/* Allocation                                                          */
/* ------------------------------------------------------------------ */

WSC_API cudaError_t cudaMalloc(void **p, size_t bytes)
{
    WSC_LOCK();
    wsc_runtime *rt = wsc_rt();
    if (!p) return wsc_err(cudaErrorInvalidValue);
    *p = NULL;
    if (rt->sticky) return wsc_sticky(rt);
    ws_ctx *ctx = wsc_ctx(rt);
    if (!ctx) return cudaErrorMemoryAllocation;
    if (bytes == 0) return cudaSuccess;   /* CUDA gives NULL for 0 bytes */
    ws_devptr d;
    ws_status st = ws_malloc(ctx, bytes, &d);
    if (st) return wsc_ws_fail(rt, st, "cudaMalloc");
    *p = (void *)(uintptr_t)d;
    return cudaSuccess;
}

int wsc_managed_add(wsc_runtime *rt, const wsc_managed *m)
{
    if (wsc_grow((void **)&rt->managed, &rt->cap_managed, rt->nmanaged, sizeof *m)) return -1;
    rt->managed[rt->nmanaged++] = *m;
    return 0;
}

void wsc_managed_release(wsc_runtime *rt, wsc_managed *m)
{
    if (m->borrowed) {   /* registered host memory: only the device side is ours */
        if (rt->ctx) ws_free(rt->ctx, m->dev_base);
    } else if (m->map_len) {
        munmap(m->host, m->map_len);
        if (rt->ctx) ws_free(rt->ctx, m->dev_base);
    } else
        free(m->host);
}

/*
** Host memory mapped for the device (cudaMallocManaged, and mapped
** page-locked memory with `pinned`): a device allocation one page larger
** than `bytes` holds a page-aligned range, and the host range is asked for
** at that very address, so one pointer works on both sides.  Where the host
** already uses it (e.g. AddressSanitizer's shadow), `anywhere` takes any
** host range (the device pointer then differs and copies translate it,
** wsc_mapped_host); without it that is an error.
*/
cudaError_t wsc_managed_alloc(wsc_runtime *rt, size_t bytes, bool anywhere, bool pinned,
                              void **out, const char *fn)
{
    ws_ctx *ctx = wsc_ctx(rt);
    if (!ctx) return cudaErrorMemoryAllocation;
    size_t pg = (size_t)sysconf(_SC_PAGESIZE);
    size_t len = (bytes + pg - 1) / pg * pg;
    ws_devptr base;
    ws_status st = ws_malloc(ctx, len + pg, &base);
    if (st) return wsc_ws_fail(rt, st, fn);
    uintptr_t at = (uintptr_t)((base + pg - 1) / pg * pg);
    void *h = mmap((void *)at, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS |
                   MAP_FIXED_NOREPLACE, -1, 0);
    if (h != MAP_FAILED && h != (void *)at) { munmap(h, len); h = MAP_FAILED; }
    if (h == MAP_FAILED && anywhere)
        h = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (h == MAP_FAILED) {
        ws_free(ctx, base);
        if (anywhere)
            return wsc_fail(cudaErrorMemoryAllocation, fn, "out of host memory for %zu bytes",
                            bytes);
        return wsc_fail(cudaErrorMemoryAllocation, fn, "cannot map managed memory at device "
                        "address %p (the host already uses that range, e.g. under "
                        "AddressSanitizer); use cudaMalloc + cudaMemcpy", (void *)at);
    }
    wsc_managed m = { .host = h, .dev = (uintptr_t)h == at ? at : base, .bytes = bytes,
                      .dev_base = base, .map_len = len, .pinned = pinned };
    if (wsc_managed_add(rt, &m)) {
        munmap(h, len);
        ws_free(ctx, base);
        return wsc_err(cudaErrorMemoryAllocation);
    }
    *out = h;
    return cudaSuccess;
}

cudaError_t wsc_managed_mirror(wsc_runtime *rt, ws_devptr dev, size_t bytes, void **out)
{
    void *h = calloc(1, bytes ? bytes : 1);
    wsc_managed m = { .host = h, .dev = dev, .bytes = bytes };
    if (!h || wsc_managed_add(rt, &m)) { free(h); return cudaErrorMemoryAllocation; }
    *out = h;
    return cudaSuccess;
}

cudaError_t wsc_managed_push(wsc_runtime *rt)
{
    for (int i = 0; i < rt->nmanaged; i++) {
        wsc_managed *m = &rt->managed[i];
        ws_status st = ws_memcpy_htod(rt->ctx, m->dev, m->host, m->bytes);
        if (st) return wsc_ws_fail(rt, st, "managed memory");
    }
    return cudaSuccess;
}

void wsc_managed_pull(wsc_runtime *rt)
{
    for (int i = 0; i < rt->nmanaged; i++)
        ws_memcpy_dtoh(rt->ctx, rt->managed[i].host, rt->managed[i].dev, rt->managed[i].bytes);
}

void wsc_managed_free_all(wsc_runtime *rt)
{
    for (int i = 0; i < rt->nmanaged; i++) wsc_managed_release(rt, &rt->managed[i]);
    free(rt->managed);
    rt->managed = NULL;
    rt->nmanaged = rt->cap_managed = 0;
}

WSC_API cudaError_t cudaMallocManaged(void **p, size_t bytes, unsigned int flags)
{
    WSC_LOCK();
    (void)flags;
    wsc_runtime *rt = wsc_rt();
    if (!p || bytes == 0) return wsc_err(cudaErrorInvalidValue);
    *p = NULL;
    if (rt->sticky) return wsc_sticky(rt);
    return wsc_managed_alloc(rt, bytes, false, false, p, "cudaMallocManaged");
}

WSC_API cudaError_t cudaFree(void *p)
{
    WSC_LOCK();
    wsc_runtime *rt = wsc_rt();
    if (!p) return cudaSuccess;
    for (int i = 0; i < rt->nmanaged; i++)
        if (rt->managed[i].host == p && rt->managed[i].map_len && !rt->managed[i].pinned) {
            wsc_managed_release(rt, &rt->managed[i]);
            rt->managed[i] = rt->managed[--rt->nmanaged];
            return cudaSuccess;
        }
    if (!rt->ctx || !in_device_range(p))
        return wsc_fail(cudaErrorInvalidDevicePointer, "cudaFree", "%p is not device memory",
                        p);
    ws_status st = ws_free(rt->ctx, (ws_devptr)(uintptr_t)p);
    return st ? wsc_ws_fail(rt, st, "cudaFree") : cudaSuccess;
}

WSC_API cudaError_t cudaMallocPitch(void **p, size_t *pitch, size_t width, size_t height)
{
    WSC_LOCK();
    if (!pitch) return wsc_err(cudaErrorInvalidValue);
    *pitch = (width + 255) / 256 * 256;
    return cudaMalloc(p, *pitch * height);
}

/* free = the device's memory less what is allocated (module variables
   and managed memory included) */
WSC_API cudaError_t cudaMemGetInfo(size_t *free_bytes, size_t *total)
{
    WSC_LOCK();
    wsc_runtime *rt = wsc_rt();
    if (rt->sticky) return wsc_sticky(rt);
    ws_ctx *ctx = wsc_ctx(rt);
    if (!ctx) return cudaErrorMemoryAllocation;
    ws_status st = ws_mem_info(ctx, free_bytes, total);
    return st ? wsc_ws_fail(rt, st, "cudaMemGetInfo") : cudaSuccess;
}

/* ------------------------------------------------------------------ */
/* Copies                                                              */
/* ------------------------------------------------------------------ */

/* Is `p` (n bytes) on the device for a copy of direction `said`?
   Managed memory counts as host memory between launches. */
static cudaError_t side(wsc_runtime *rt, const char *fn, const char *which, const void *p,
                        size_t n, bool said_device, enum cudaMemcpyKind kind, bool *dev)
{
    bool managed = wsc_managed_find(rt, p, n) != NULL;
    bool devrange = in_device_range(p) && !managed;
    *dev = kind == cudaMemcpyDefault ? devrange : said_device && !managed;
    if (!*dev && devrange)
        return wsc_fail(cudaErrorInvalidValue, fn, "the %s %p is device memory but the copy "
                        "kind (%d) says host", which, p, (int)kind);
    return cudaSuccess;
}

static cudaError_t copy(wsc_runtime *rt, const char *fn, void *dst, const void *src,
                        size_t n, enum cudaMemcpyKind kind)
{
    if (rt->sticky) return wsc_sticky(rt);
    if (n == 0) return cudaSuccess;
    if ((unsigned)kind > cudaMemcpyDefault)
        return wsc_fail(cudaErrorInvalidMemcpyDirection, fn, "bad copy kind %d", (int)kind);
    dst = wsc_mapped_host(rt, dst, n);
    src = wsc_mapped_host(rt, src, n);
    bool dd, sd;
    cudaError_t e = side(rt, fn, "destination", dst, n,
                         kind == cudaMemcpyHostToDevice || kind == cudaMemcpyDeviceToDevice,
                         kind, &dd);
    if (!e) e = side(rt, fn, "source", src, n,
                     kind == cudaMemcpyDeviceToHost || kind == cudaMemcpyDeviceToDevice,
                     kind, &sd);
    if (e) return e;
    if (!dd && !sd) {
        if (!dst || !src) return wsc_fail(cudaErrorInvalidValue, fn, "NULL pointer");
        memmove(dst, src, n);
        return cudaSuccess;
    }
    ws_ctx *ctx = wsc_ctx(rt);
    if (!ctx) return cudaErrorMemoryAllocation;
    ws_devptr d = (uintptr_t)dst, s = (uintptr_t)src;
    ws_status st = dd && sd ? ws_memcpy_dtod(ctx, d, s, n)
                 : dd ? ws_memcpy_htod(ctx, d, src, n) : ws_memcpy_dtoh(ctx, dst, s, n);
    return st ? wsc_ws_fail(rt, st, fn) : cudaSuccess;
}

/* Every copy and memset also takes its place on the simulated timeline
   (cudart_stream.c): the synchronous ones on the legacy default stream,
   with the host waiting for a copy; the async ones on their stream. */
WSC_API cudaError_t cudaMemcpy(void *dst, const void *src, size_t n, enum cudaMemcpyKind kind)
{
    WSC_LOCK();
    wsc_runtime *rt = wsc_rt();
    cudaError_t e = copy(rt, "cudaMemcpy", dst, src, n, kind);
    if (!e) wsc_timeline_copy(rt, NULL, dst, src, n, kind, true);
    return e;
}

WSC_API cudaError_t cudaMemcpyAsync(void *dst, const void *src, size_t n,
                                    enum cudaMemcpyKind kind, cudaStream_t stream)
{
    WSC_LOCK();
    wsc_runtime *rt = wsc_rt();
    cudaError_t e = wsc_stream_check(rt, stream, "cudaMemcpyAsync");
    if (!e) e = copy(rt, "cudaMemcpyAsync", dst, src, n, kind);
    if (!e) wsc_timeline_copy(rt, stream, dst, src, n, kind, false);
    return e;
}

static cudaError_t copy_2d(wsc_runtime *rt, const char *fn, void *dst, size_t dpitch,
                           const void *src, size_t spitch, size_t width, size_t height,
                           enum cudaMemcpyKind kind)
{
    if (width > dpitch || width > spitch)
        return wsc_fail(cudaErrorInvalidPitchValue, fn, "width %zu exceeds a "
                        "pitch (%zu, %zu)", width, dpitch, spitch);
    for (size_t r = 0; r < height; r++) {
        cudaError_t e = copy(rt, fn, (char *)dst + r * dpitch,
                             (const char *)src + r * spitch, width, kind);
        if (e) return e;
    }
    return cudaSuccess;
}

WSC_API cudaError_t cudaMemcpy2D(void *dst, size_t dpitch, const void *src, size_t spitch,
                                 size_t width, size_t height, enum cudaMemcpyKind kind)
{
    WSC_LOCK();
    wsc_runtime *rt = wsc_rt();
    cudaError_t e = copy_2d(rt, "cudaMemcpy2D", dst, dpitch, src, spitch, width, height, kind);
    if (!e) wsc_timeline_copy(rt, NULL, dst, src, width * height, kind, true);
    return e;
}

WSC_API cudaError_t cudaMemcpy2DAsync(void *dst, size_t dpitch, const void *src, size_t spitch,
                                      size_t width, size_t height, enum cudaMemcpyKind kind,
                                      cudaStream_t stream)
{
    WSC_LOCK();
    wsc_runtime *rt = wsc_rt();
    cudaError_t e = wsc_stream_check(rt, stream, "cudaMemcpy2DAsync");
    if (!e) e = copy_2d(rt, "cudaMemcpy2DAsync", dst, dpitch, src, spitch, width, height, kind);
    if (!e) wsc_timeline_copy(rt, stream, dst, src, width * height, kind, false);
    return e;
}

WSC_API cudaError_t cudaMemcpyPeer(void *dst, int dd, const void *src, int sd, size_t n)
{
    WSC_LOCK();
    if (dd != 0 || sd != 0) return wsc_err(cudaErrorInvalidDevice);
    return copy(wsc_rt(), "cudaMemcpyPeer", dst, src, n, cudaMemcpyDeviceToDevice);
}

static cudaError_t set(wsc_runtime *rt, void *p, int value, size_t n)
{
    if (rt->sticky) return wsc_sticky(rt);
    if (n == 0) return cudaSuccess;
    p = wsc_mapped_host(rt, p, n);
    if (wsc_managed_find(rt, p, n)) { memset(p, value, n); return cudaSuccess; }
    ws_ctx *ctx = wsc_ctx(rt);
    if (!ctx) return cudaErrorMemoryAllocation;
    ws_status st = ws_memset(ctx, (uintptr_t)p, value, n);
    return st ? wsc_ws_fail(rt, st, "cudaMemset") : cudaSuccess;
}

WSC_API cudaError_t cudaMemset(void *p, int value, size_t n)
{
    WSC_LOCK();
    wsc_runtime *rt = wsc_rt();
    cudaError_t e = set(rt, p, value, n);
    if (!e) wsc_timeline_memset(rt, NULL, n);
    return e;
}

WSC_API cudaError_t cudaMemsetAsync(void *p, int value, size_t n, cudaStream_t stream)
{
    WSC_LOCK();
    wsc_runtime *rt = wsc_rt();
    cudaError_t e = wsc_stream_check(rt, stream, "cudaMemsetAsync");
    if (!e) e = set(rt, p, value, n);
    if (!e) wsc_timeline_memset(rt, stream, n);
    return e;
}

WSC_API cudaError_t cudaMemset2D(void *p, size_t pitch, int value, size_t width, size_t height)
{
    WSC_LOCK();
    for (size_t r = 0; r < height; r++) {
        cudaError_t e = cudaMemset((char *)p + r * pitch, value, width);
        if (e) return e;
    }
    return cudaSuccess;
}

/* ------------------------------------------------------------------ */
/* Symbols                                                             */
/* ------------------------------------------------------------------ */

static cudaError_t symbol(wsc_runtime *rt, const char *fn, const void *sym, size_t count,
                          size_t offset, ws_devptr *addr, size_t *bytes)
{
    wsc_var *v = wsc_var_find(rt, sym);
    if (!v) return wsc_fail(cudaErrorInvalidSymbol, fn, "%p is not a registered __device__ "
                            "or __constant__ variable", sym);
    cudaError_t e = wsc_var_addr(rt, v, fn, addr, bytes);
    if (e) return e;
    if (offset > *bytes || count > *bytes - offset)
        return wsc_fail(cudaErrorInvalidValue, fn, "%zu bytes at offset %zu overrun '%s' "
                        "(%zu bytes)", count, offset, v->name, *bytes);
    *addr += offset;
    return cudaSuccess;
}

WSC_API cudaError_t cudaMemcpyToSymbol(const void *sym, const void *src, size_t count,
                                       size_t offset, enum cudaMemcpyKind kind)
{
    WSC_LOCK();
    wsc_runtime *rt = wsc_rt();
    ws_devptr a;
    size_t bytes;
    if (rt->sticky) return wsc_sticky(rt);
    if (kind != cudaMemcpyHostToDevice && kind != cudaMemcpyDeviceToDevice &&
        kind != cudaMemcpyDefault)
        return wsc_err(cudaErrorInvalidMemcpyDirection);
    cudaError_t e = symbol(rt, "cudaMemcpyToSymbol", sym, count, offset, &a, &bytes);
    return e ? e : copy(rt, "cudaMemcpyToSymbol", (void *)(uintptr_t)a, src, count, kind);
}

WSC_API cudaError_t cudaMemcpyFromSymbol(void *dst, const void *sym, size_t count,
                                         size_t offset, enum cudaMemcpyKind kind)
{
    WSC_LOCK();
    wsc_runtime *rt = wsc_rt();
    ws_devptr a;
    size_t bytes;
    if (rt->sticky) return wsc_sticky(rt);
    if (kind != cudaMemcpyDeviceToHost && kind != cudaMemcpyDeviceToDevice &&
        kind != cudaMemcpyDefault)
        return wsc_err(cudaErrorInvalidMemcpyDirection);
    cudaError_t e = symbol(rt, "cudaMemcpyFromSymbol", sym, count, offset, &a, &bytes);
    return e ? e : copy(rt, "cudaMemcpyFromSymbol", dst, (void *)(uintptr_t)a, count, kind);
}

WSC_API cudaError_t cudaMemcpyToSymbolAsync(const void *sym, const void *src, size_t count,
                                            size_t offset, enum cudaMemcpyKind kind,
                                            cudaStream_t stream)
{
    WSC_LOCK();
    (void)stream;
    return cudaMemcpyToSymbol(sym, src, count, offset, kind);
}

WSC_API cudaError_t cudaMemcpyFromSymbolAsync(void *dst, const void *sym, size_t count,
                                              size_t offset, enum cudaMemcpyKind kind,
                                              cudaStream_t stream)
{
    WSC_LOCK();
    (void)stream;
    return cudaMemcpyFromSymbol(dst, sym, count, offset, kind);
}

WSC_API cudaError_t cudaGetSymbolAddress(void **p, const void *sym)
{
    WSC_LOCK();
    wsc_runtime *rt = wsc_rt();
    ws_devptr a;
    size_t bytes;
    if (!p) return wsc_err(cudaErrorInvalidValue);
    cudaError_t e = symbol(rt, "cudaGetSymbolAddress", sym, 0, 0, &a, &bytes);
    if (!e) *p = (void *)(uintptr_t)a;
    return e;
}

WSC_API cudaError_t cudaGetSymbolSize(size_t *size, const void *sym)
{
    WSC_LOCK();
    wsc_runtime *rt = wsc_rt();
    ws_devptr a;
    if (!size) return wsc_err(cudaErrorInvalidValue);
    return symbol(rt, "cudaGetSymbolSize", sym, 0, 0, &a, size);
}

/* Hints about where managed memory should live change nothing here. */
WSC_API cudaError_t cudaMemPrefetchAsync(const void *p, size_t n, struct cudaMemLocation loc,
                                         unsigned int flags, cudaStream_t stream)
{
    WSC_LOCK();
    (void)p; (void)n; (void)loc; (void)flags; (void)stream;
    return cudaSuccess;
}

WSC_API cudaError_t cudaMemAdvise(const void *p, size_t n, enum cudaMemoryAdvise advice,
                                  struct cudaMemLocation loc)
{
    WSC_LOCK();
    (void)p; (void)n; (void)advice; (void)loc;
    return cudaSuccess;
}
