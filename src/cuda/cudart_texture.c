/*
** cudart_texture.c -- CUDA arrays, texture objects and surface objects of
** the runtime, over the library's ws_texture_* calls.
**
** A cudaArray_t is a host record of a device allocation holding the
** elements in the layout warpsim.h documents (packed rows, then slices or
** layers), so every array copy is a 2D copy between pitched ranges.  The
** runtime remembers each object's descriptions for the Get* queries.
** Misuse gets CUDA's error codes: an unknown array or handle, a channel
** description the hardware has no format for, a resource the texture
** unit cannot read.
*/
#include "cudart_internal.h"
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

struct cudaArray {
    ws_devptr dev;
    struct cudaChannelFormatDesc desc;
    size_t elem;                 /* bytes per element */
    size_t width, height, depth; /* elements; height/depth 0 when unused */
    unsigned int flags;
};

typedef struct tex_rec {
    uint64_t handle;
    struct cudaResourceDesc res;
    struct cudaTextureDesc tex;
} tex_rec;

/* the runtime's arrays and objects (the runtime is process-global) */
static struct {
    pthread_mutex_t lock;
    struct cudaArray **arrays; int narrays, cap_arrays;
    tex_rec *objs; int nobjs, cap_objs;
} g_tex = { .lock = PTHREAD_MUTEX_INITIALIZER };

static bool array_live(const struct cudaArray *a)
{
    bool live = false;
    pthread_mutex_lock(&g_tex.lock);
    for (int i = 0; i < g_tex.narrays && !live; i++) live = g_tex.arrays[i] == a;
    pthread_mutex_unlock(&g_tex.lock);
    return a && live;
}

/* ------------------------------------------------------------------ */
/* Channel descriptions                                                */
/* ------------------------------------------------------------------ */

/* (cudaCreateChannelDesc itself is in cudart_state.c) */

/* `d` as a library format; false if the texture unit has none for it. */
static bool format_of(const struct cudaChannelFormatDesc *d, ws_tex_resource *r)
{
    int bits[4] = { d->x, d->y, d->z, d->w }, n = 0;
    for (int i = 0; i < 4; i++) {
        if (bits[i] == 0) break;
        if (bits[i] != bits[0]) return false;
        n++;
    }
    for (int i = n; i < 4; i++) if (bits[i]) return false;
    if (n == 0 || n == 3 || (bits[0] != 8 && bits[0] != 16 && bits[0] != 32)) return false;
    switch (d->f) {
    case cudaChannelFormatKindSigned:   r->channel_kind = WS_CH_SIGNED; break;
    case cudaChannelFormatKindUnsigned: r->channel_kind = WS_CH_UNSIGNED; break;
    case cudaChannelFormatKindFloat:
        if (bits[0] == 8) return false;
        r->channel_kind = WS_CH_FLOAT;
        break;
    default: return false;
    }
    r->channels = (uint32_t)n;
    r->channel_bits = (uint32_t)bits[0];
    return true;
}

static cudaError_t bad_desc(const char *fn, const struct cudaChannelFormatDesc *d)
{
    return wsc_fail(cudaErrorInvalidChannelDescriptor, fn, "channel description (%d,%d,%d,%d, kind "
                    "%d) has no texture format: 1, 2 or 4 equal channels of 8, 16 or 32 bits, "
                    "signed, unsigned or float", d->x, d->y, d->z, d->w, (int)d->f);
}

/* ------------------------------------------------------------------ */
/* Arrays                                                              */
/* ------------------------------------------------------------------ */

static cudaError_t array_new(const char *fn, cudaArray_t *out, const struct cudaChannelFormatDesc *desc,
                             size_t w, size_t h, size_t d, unsigned int flags)
{
    wsc_runtime *rt = wsc_rt();
    if (!out || !desc) return wsc_fail(cudaErrorInvalidValue, fn, "NULL argument");
    *out = NULL;
    if (rt->sticky) return wsc_sticky(rt);
    ws_tex_resource r;
    if (!format_of(desc, &r)) return bad_desc(fn, desc);
    if (w == 0 || w > 0xffffffffu || h > 0xffffffffu || d > 0xffffffffu)
        return wsc_fail(cudaErrorInvalidValue, fn, "extent (%zu, %zu, %zu) is empty or too large", w, h, d);
    ws_ctx *ctx = wsc_ctx(rt);
    if (!ctx) return cudaErrorMemoryAllocation;
    struct cudaArray *a = calloc(1, sizeof *a);
    if (!a) return wsc_fail(cudaErrorMemoryAllocation, fn, "out of host memory");
    a->desc = *desc;
    a->elem = r.channels * r.channel_bits / 8;
    a->width = w; a->height = h; a->depth = d; a->flags = flags;
    size_t bytes = a->elem * w * (h ? h : 1) * (d ? d : 1);
    ws_status st = ws_malloc(ctx, bytes, &a->dev);
    if (!st) st = ws_memset(ctx, a->dev, 0, bytes);
    pthread_mutex_lock(&g_tex.lock);
    int g = st ? 0 : wsc_grow((void **)&g_tex.arrays, &g_tex.cap_arrays, g_tex.narrays, sizeof *g_tex.arrays);
    if (!st && !g) g_tex.arrays[g_tex.narrays++] = a;
    pthread_mutex_unlock(&g_tex.lock);
    if (st || g) {
        if (!st) ws_free(ctx, a->dev);
        free(a);
        return st ? wsc_ws_fail(rt, st, fn) : wsc_fail(cudaErrorMemoryAllocation, fn, "out of host memory");
    }
    *out = a;
    return cudaSuccess;
}

WSC_API cudaError_t cudaMallocArray(cudaArray_t *array, const struct cudaChannelFormatDesc *desc,
                                    size_t width, size_t height, unsigned int flags)
{
    WSC_LOCK();
    return array_new("cudaMallocArray", array, desc, width, height, 0, flags);
}

WSC_API cudaError_t cudaMalloc3DArray(cudaArray_t *array, const struct cudaChannelFormatDesc *desc,
                                      struct cudaExtent e, unsigned int flags)
{
    WSC_LOCK();
    if ((flags & cudaArrayLayered) && e.depth == 0)
        return wsc_fail(cudaErrorInvalidValue, "cudaMalloc3DArray", "a layered array needs depth "
                        "(its layer count) > 0");
    if (!(flags & cudaArrayLayered) && e.depth && !e.height)
        return wsc_fail(cudaErrorInvalidValue, "cudaMalloc3DArray", "a 3D array needs a height");
    return array_new("cudaMalloc3DArray", array, desc, e.width, e.height, e.depth, flags);
}

WSC_API cudaError_t cudaFreeArray(cudaArray_t a)
{
    WSC_LOCK();
    if (!a) return cudaSuccess;
    if (!array_live(a))
        return wsc_fail(cudaErrorInvalidValue, "cudaFreeArray", "%p is not a live CUDA array", (void *)a);
    pthread_mutex_lock(&g_tex.lock);
    for (int i = 0; i < g_tex.narrays; i++)
        if (g_tex.arrays[i] == a) g_tex.arrays[i] = g_tex.arrays[--g_tex.narrays];
    pthread_mutex_unlock(&g_tex.lock);
    wsc_runtime *rt = wsc_rt();
    if (rt->ctx) ws_free(rt->ctx, a->dev);
    free(a);
    return cudaSuccess;
}

WSC_API cudaError_t cudaGetChannelDesc(struct cudaChannelFormatDesc *desc, cudaArray_const_t a)
{
    WSC_LOCK();
    if (!desc || !array_live(a))
        return wsc_fail(cudaErrorInvalidValue, "cudaGetChannelDesc", "NULL or unknown array");
    *desc = a->desc;
    return cudaSuccess;
}

WSC_API cudaError_t cudaArrayGetInfo(struct cudaChannelFormatDesc *desc, struct cudaExtent *extent,
                                     unsigned int *flags, cudaArray_t a)
{
    WSC_LOCK();
    if (!array_live(a)) return wsc_fail(cudaErrorInvalidValue, "cudaArrayGetInfo", "unknown array");
    if (desc) *desc = a->desc;
    if (extent) *extent = (struct cudaExtent){ a->width, a->height, a->depth };
    if (flags) *flags = a->flags;
    return cudaSuccess;
}

/* ------------------------------------------------------------------ */
/* Copies                                                              */
/* ------------------------------------------------------------------ */

static size_t arr_pitch(const struct cudaArray *a) { return a->elem * a->width; }
static size_t arr_rows(const struct cudaArray *a)
{
    return (a->height ? a->height : 1) * (a->depth ? a->depth : 1);
}

/* Device pointer of byte wOff of row hOff of `a` after checking that
   `width` bytes x `height` rows fit. */
static cudaError_t arr_at(const char *fn, const struct cudaArray *a, size_t wOff, size_t hOff,
                          size_t width, size_t height, void **p)
{
    if (!array_live(a)) return wsc_fail(cudaErrorInvalidValue, fn, "%p is not a live CUDA array", (const void *)a);
    if (wOff + width > arr_pitch(a) || hOff + height > arr_rows(a))
        return wsc_fail(cudaErrorInvalidValue, fn, "%zu bytes x %zu rows at (%zu, %zu) exceed the array "
                        "(%zu bytes x %zu rows)", width, height, wOff, hOff, arr_pitch(a), arr_rows(a));
    *p = (void *)(uintptr_t)(a->dev + hOff * arr_pitch(a) + wOff);
    return cudaSuccess;
}

WSC_API cudaError_t cudaMemcpy2DToArray(cudaArray_t dst, size_t wOffset, size_t hOffset, const void *src,
                                        size_t spitch, size_t width, size_t height, enum cudaMemcpyKind kind)
{
    WSC_LOCK();
    void *p;
    cudaError_t e = arr_at("cudaMemcpy2DToArray", dst, wOffset, hOffset, width, height, &p);
    return e ? e : cudaMemcpy2D(p, arr_pitch(dst), src, spitch, width, height, kind);
}

WSC_API cudaError_t cudaMemcpy2DFromArray(void *dst, size_t dpitch, cudaArray_const_t src, size_t wOffset,
                                          size_t hOffset, size_t width, size_t height,
                                          enum cudaMemcpyKind kind)
{
    WSC_LOCK();
    void *p;
    cudaError_t e = arr_at("cudaMemcpy2DFromArray", src, wOffset, hOffset, width, height, &p);
    return e ? e : cudaMemcpy2D(dst, dpitch, p, arr_pitch(src), width, height, kind);
}

/* count bytes from (wOffset, hOffset) on, row after row: contiguous here */
static cudaError_t arr_linear(const char *fn, const struct cudaArray *a, size_t wOff, size_t hOff,
                             size_t count, void **p)
{
    if (!array_live(a)) return wsc_fail(cudaErrorInvalidValue, fn, "%p is not a live CUDA array", (const void *)a);
    size_t total = arr_pitch(a) * arr_rows(a), off = hOff * arr_pitch(a) + wOff;
    if (wOff >= arr_pitch(a) || off > total || count > total - off)
        return wsc_fail(cudaErrorInvalidValue, fn, "%zu bytes at (%zu, %zu) exceed the array (%zu bytes)",
                        count, wOff, hOff, total);
    *p = (void *)(uintptr_t)(a->dev + off);
    return cudaSuccess;
}

WSC_API cudaError_t cudaMemcpyToArray(cudaArray_t dst, size_t wOffset, size_t hOffset, const void *src,
                                      size_t count, enum cudaMemcpyKind kind)
{
    WSC_LOCK();
    void *p;
    cudaError_t e = arr_linear("cudaMemcpyToArray", dst, wOffset, hOffset, count, &p);
    return e ? e : cudaMemcpy(p, src, count, kind);
}

WSC_API cudaError_t cudaMemcpyFromArray(void *dst, cudaArray_const_t src, size_t wOffset, size_t hOffset,
                                        size_t count, enum cudaMemcpyKind kind)
{
    WSC_LOCK();
    void *p;
    cudaError_t e = arr_linear("cudaMemcpyFromArray", src, wOffset, hOffset, count, &p);
    return e ? e : cudaMemcpy(dst, p, count, kind);
}

/* One side of a 3D copy as a pointer to its first byte, row pitch and rows
   per slice; `row` is the bytes of one row of the extent. */
static cudaError_t side3d(const char *fn, cudaArray_t arr, struct cudaPos pos, struct cudaPitchedPtr ptr,
                          struct cudaExtent ext, char **base, size_t *pitch, size_t *rows)
{
    if (arr) {
        if (!array_live(arr)) return wsc_fail(cudaErrorInvalidValue, fn, "%p is not a live CUDA array", (void *)arr);
        size_t h = arr->height ? arr->height : 1, d = arr->depth ? arr->depth : 1;
        if (pos.x + ext.width > arr->width || pos.y + (ext.height ? ext.height : 1) > h ||
            pos.z + (ext.depth ? ext.depth : 1) > d)
            return wsc_fail(cudaErrorInvalidValue, fn, "extent (%zu,%zu,%zu) at (%zu,%zu,%zu) exceeds the "
                            "array (%zu,%zu,%zu)", ext.width, ext.height, ext.depth, pos.x, pos.y, pos.z,
                            arr->width, h, d);
        *pitch = arr_pitch(arr);
        *rows = h;
        *base = (char *)(uintptr_t)arr->dev + (pos.z * h + pos.y) * *pitch + pos.x * arr->elem;
        return cudaSuccess;
    }
    if (!ptr.ptr) return wsc_fail(cudaErrorInvalidValue, fn, "neither an array nor a pointer");
    *pitch = ptr.pitch;
    *rows = ptr.ysize ? ptr.ysize : 1;
    *base = (char *)ptr.ptr + (pos.z * *rows + pos.y) * ptr.pitch + pos.x;   /* bytes for pointers */
    return cudaSuccess;
}

WSC_API cudaError_t cudaMemcpy3D(const struct cudaMemcpy3DParms *p)
{
    WSC_LOCK();
    const char *fn = "cudaMemcpy3D";
    if (!p) return wsc_fail(cudaErrorInvalidValue, fn, "NULL parameters");
    const struct cudaArray *a = p->srcArray ? p->srcArray : p->dstArray;
    if (a && !array_live(a)) return wsc_fail(cudaErrorInvalidValue, fn, "%p is not a live CUDA array", (const void *)a);
    size_t elem = a ? a->elem : 0;
    size_t row = a ? p->extent.width * elem : p->extent.width;  /* arrays count elements */
    char *s, *d;
    size_t sp, sr, dp, dr;
    cudaError_t e = side3d(fn, p->srcArray, p->srcPos, p->srcPtr, p->extent, &s, &sp, &sr);
    if (!e) e = side3d(fn, p->dstArray, p->dstPos, p->dstPtr, p->extent, &d, &dp, &dr);
    if (e) return e;
    size_t h = p->extent.height ? p->extent.height : 1, depth = p->extent.depth ? p->extent.depth : 1;
    for (size_t z = 0; z < depth && !e; z++)
        e = cudaMemcpy2D(d + z * dr * dp, dp, s + z * sr * sp, sp, row, h, p->kind);
    return e;
}

/* ------------------------------------------------------------------ */
/* Texture and surface objects                                         */
/* ------------------------------------------------------------------ */

/* The library's resource for CUDA's description. */
static cudaError_t resource_of(const char *fn, const struct cudaResourceDesc *rd, ws_tex_resource *r)
{
    memset(r, 0, sizeof *r);
    switch (rd->resType) {
    case cudaResourceTypeArray: {
        const struct cudaArray *a = rd->res.array.array;
        if (!array_live(a)) return wsc_fail(cudaErrorInvalidResourceHandle, fn, "%p is not a live CUDA "
                                            "array", (const void *)a);
        format_of(&a->desc, r);
        r->kind = WS_TEXRES_ARRAY;
        r->base = a->dev;
        r->width = (uint32_t)a->width;
        r->height = (uint32_t)a->height;
        r->depth = (uint32_t)a->depth;
        r->layered = (a->flags & cudaArrayLayered) != 0;
        if (r->layered && !a->height) { r->height = 1; }
        return cudaSuccess;
    }
    case cudaResourceTypeLinear:
        if (!format_of(&rd->res.linear.desc, r)) return bad_desc(fn, &rd->res.linear.desc);
        r->kind = WS_TEXRES_LINEAR;
        r->base = (ws_devptr)(uintptr_t)rd->res.linear.devPtr;
        r->width = (uint32_t)(rd->res.linear.sizeInBytes / (r->channels * r->channel_bits / 8));
        return cudaSuccess;
    case cudaResourceTypePitch2D:
        if (!format_of(&rd->res.pitch2D.desc, r)) return bad_desc(fn, &rd->res.pitch2D.desc);
        r->kind = WS_TEXRES_PITCH2D;
        r->base = (ws_devptr)(uintptr_t)rd->res.pitch2D.devPtr;
        r->width = (uint32_t)rd->res.pitch2D.width;
        r->height = (uint32_t)rd->res.pitch2D.height;
        r->pitch = rd->res.pitch2D.pitchInBytes;
        return cudaSuccess;
    default:
        return wsc_fail(cudaErrorNotSupported, fn, "resource type %d (mipmapped arrays) is not "
                        "supported", (int)rd->resType);
    }
}

static cudaError_t remember(uint64_t h, const struct cudaResourceDesc *rd, const struct cudaTextureDesc *td)
{
    pthread_mutex_lock(&g_tex.lock);
    int g = wsc_grow((void **)&g_tex.objs, &g_tex.cap_objs, g_tex.nobjs, sizeof *g_tex.objs);
    if (!g) {
        tex_rec *o = &g_tex.objs[g_tex.nobjs++];
        memset(o, 0, sizeof *o);
        o->handle = h;
        o->res = *rd;
        if (td) o->tex = *td;
    }
    pthread_mutex_unlock(&g_tex.lock);
    return g ? cudaErrorMemoryAllocation : cudaSuccess;
}

static cudaError_t create_obj(const char *fn, uint64_t *out, const struct cudaResourceDesc *rd,
                              const struct cudaTextureDesc *td, bool texture)
{
    wsc_runtime *rt = wsc_rt();
    if (!out || !rd || (texture && !td))
        return wsc_fail(cudaErrorInvalidValue, fn, "NULL argument");
    *out = 0;
    if (rt->sticky) return wsc_sticky(rt);
    ws_ctx *ctx = wsc_ctx(rt);
    if (!ctx) return cudaErrorMemoryAllocation;
    ws_tex_resource r;
    cudaError_t e = resource_of(fn, rd, &r);
    if (e) return e;
    ws_status st;
    uint64_t h;
    if (td) {
        ws_tex_sampler s = { .filter = td->filterMode, .read_normalized = td->readMode == cudaReadModeNormalizedFloat,
                             .normalized_coords = td->normalizedCoords != 0 };
        for (int i = 0; i < 3; i++) s.addr_mode[i] = td->addressMode[i];
        memcpy(s.border, td->borderColor, sizeof s.border);
        st = ws_texture_create(ctx, &r, &s, &h);
    } else {
        if (rd->resType != cudaResourceTypeArray)
            return wsc_fail(cudaErrorInvalidValue, fn, "surfaces need a CUDA array resource");
        st = ws_surface_create(ctx, &r, &h);
    }
    if (st) return wsc_ws_fail(rt, st, fn);
    if (remember(h, rd, td)) {
        ws_texture_destroy(ctx, h);
        return wsc_fail(cudaErrorMemoryAllocation, fn, "out of host memory");
    }
    *out = h;
    return cudaSuccess;
}

WSC_API cudaError_t cudaCreateTextureObject(cudaTextureObject_t *obj, const struct cudaResourceDesc *rd,
                                            const struct cudaTextureDesc *td,
                                            const struct cudaResourceViewDesc *view)
{
    WSC_LOCK();
    if (view)
        return wsc_fail(cudaErrorNotSupported, "cudaCreateTextureObject", "resource views are not "
                        "supported");
    return create_obj("cudaCreateTextureObject", (uint64_t *)obj, rd, td, true);
}

WSC_API cudaError_t cudaCreateSurfaceObject(cudaSurfaceObject_t *obj, const struct cudaResourceDesc *rd)
{
    WSC_LOCK();
    return create_obj("cudaCreateSurfaceObject", (uint64_t *)obj, rd, NULL, false);
}

/* The record of live object `h` (copied out), or false. */
static bool find_obj(uint64_t h, tex_rec *out, bool remove)
{
    bool found = false;
    pthread_mutex_lock(&g_tex.lock);
    for (int i = 0; i < g_tex.nobjs && !found; i++)
        if (g_tex.objs[i].handle == h) {
            found = true;
            if (out) *out = g_tex.objs[i];
            if (remove) g_tex.objs[i] = g_tex.objs[--g_tex.nobjs];
        }
    pthread_mutex_unlock(&g_tex.lock);
    return found;
}

static cudaError_t destroy_obj(const char *fn, uint64_t h)
{
    wsc_runtime *rt = wsc_rt();
    if (!h) return cudaSuccess;   /* CUDA accepts 0 */
    if (!rt->ctx || !find_obj(h, NULL, true) || ws_texture_destroy(rt->ctx, h))
        return wsc_fail(cudaErrorInvalidValue, fn, "0x%llx is not a live object", (unsigned long long)h);
    return cudaSuccess;
}

WSC_API cudaError_t cudaDestroyTextureObject(cudaTextureObject_t obj)
{
    WSC_LOCK();
    return destroy_obj("cudaDestroyTextureObject", obj);
}

WSC_API cudaError_t cudaDestroySurfaceObject(cudaSurfaceObject_t obj)
{
    WSC_LOCK();
    return destroy_obj("cudaDestroySurfaceObject", obj);
}

static cudaError_t get_rec(const char *fn, uint64_t h, tex_rec *r)
{
    if (!find_obj(h, r, false))
        return wsc_fail(cudaErrorInvalidValue, fn, "0x%llx is not a live object", (unsigned long long)h);
    return cudaSuccess;
}

WSC_API cudaError_t cudaGetTextureObjectResourceDesc(struct cudaResourceDesc *out, cudaTextureObject_t obj)
{
    WSC_LOCK();
    tex_rec r;
    if (!out) return wsc_err(cudaErrorInvalidValue);
    cudaError_t e = get_rec("cudaGetTextureObjectResourceDesc", obj, &r);
    if (!e) *out = r.res;
    return e;
}

WSC_API cudaError_t cudaGetTextureObjectTextureDesc(struct cudaTextureDesc *out, cudaTextureObject_t obj)
{
    WSC_LOCK();
    tex_rec r;
    if (!out) return wsc_err(cudaErrorInvalidValue);
    cudaError_t e = get_rec("cudaGetTextureObjectTextureDesc", obj, &r);
    if (!e) *out = r.tex;
    return e;
}

WSC_API cudaError_t cudaGetSurfaceObjectResourceDesc(struct cudaResourceDesc *out, cudaSurfaceObject_t obj)
{
    WSC_LOCK();
    tex_rec r;
    if (!out) return wsc_err(cudaErrorInvalidValue);
    cudaError_t e = get_rec("cudaGetSurfaceObjectResourceDesc", obj, &r);
    if (!e) *out = r.res;
    return e;
}
