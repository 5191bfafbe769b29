/*
** driver.c -- a subset of the CUDA driver API (libcuda.so.1) for C host
** programs that load PTX themselves: init, device queries, contexts,
** modules (PTX text, a .ptx file, or a fatbinary), memory, launches and
** error strings.  Names are those cuda.h maps to (cuMemAlloc_v2, ...); the
** rest of the API answers "not supported" through generated stubs.
*/
#include <cuda.h>
#include "cuda_internal.h"
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#define WSD_API __attribute__((visibility("default")))

/* Our definitions of the toolkit's opaque handle types. */
/* A kernel fault poisons its context (`sticky`), as on a GPU.  A module
   loaded from memory keeps its PTX text until the file its messages cite
   is written (`path`, ptx_file.c). */
/* A context owns its module handles (`mods`): destroying it frees them. */
struct CUctx_st { ws_ctx *ctx; struct CUctx_st *next; CUresult sticky; struct CUmod_st *mods; };
struct CUmod_st { ws_module *mod; struct CUctx_st *owner; struct CUfunc_st *funcs;
                  char *ptx; char *path; struct CUmod_st *next; };
struct CUfunc_st { ws_kernel *k; char *name; struct CUmod_st *mod; struct CUfunc_st *next; };

/* The API is process-global, so is its state (as in cudart_state.c). */
typedef struct wsd_driver {
    wsc_config cfg;
    struct CUctx_st *ctxs;     /* all live contexts */
    wsc_stats stats;
    void **host; int nhost, cap_host;   /* page-locked blocks given out */
    const char **unsupported; int nunsupported, cap_unsupported;
    int nmodules;              /* modules loaded from memory, for file names */
} wsd_driver;

static wsd_driver *g_drv;
static pthread_once_t g_once = PTHREAD_ONCE_INIT;
/* The current context is per host thread, as CUDA defines it; one
   destroyed meanwhile reads as none (ctx_current). */
static __thread struct CUctx_st *t_current;

/* Free module handle `h` (its module too when `unload`: a context being
   destroyed frees its modules itself). */
static void mod_free(struct CUmod_st *h, bool unload)
{
    while (h->funcs) {
        struct CUfunc_st *f = h->funcs;
        h->funcs = f->next;
        free(f->name);
        free(f);
    }
    if (unload) ws_module_unload(h->mod);
    free(h->ptx);
    free(h->path);
    free(h);
}

/* Destroy context `c` (already unlinked) with its module handles. */
static void ctx_free(struct CUctx_st *c)
{
    while (c->mods) {
        struct CUmod_st *h = c->mods;
        c->mods = h->next;
        mod_free(h, false);
    }
    ws_ctx_destroy(c->ctx);
    free(c);
}

static void drv_exit(void)
{
    WSC_LOCK();
    wsd_driver *d = g_drv;
    if (!d) return;
    fflush(stdout);
    wsc_stats_report(&d->stats, &d->cfg, "driver", stderr);
    while (d->ctxs) {
        struct CUctx_st *c = d->ctxs;
        d->ctxs = c->next;
        ctx_free(c);
    }
    wsc_stats_free(&d->stats);
    for (int i = 0; i < d->nhost; i++) free(d->host[i]);
    free(d->host);
    free(d->unsupported);
    free(d);
    g_drv = NULL;
}

static void drv_create(void)
{
    wsd_driver *d = calloc(1, sizeof *d);
    if (!d) return;
    wsc_config_read(&d->cfg);
    g_drv = d;
    atexit(drv_exit);
}

/* NULL until cuInit has run. */
static wsd_driver *drv(void) { return g_drv; }

int wsc_driver_unsupported(const char *name)
{
    WSC_LOCK();
    pthread_once(&g_once, drv_create);
    wsd_driver *d = g_drv;
    if (d) {
        for (int i = 0; i < d->nunsupported; i++)
            if (d->unsupported[i] == name) return CUDA_ERROR_NOT_SUPPORTED;
        if (d->nunsupported == d->cap_unsupported) {
            int cap = d->cap_unsupported ? d->cap_unsupported * 2 : 16;
            const char **u = realloc(d->unsupported, (size_t)cap * sizeof *u);
            if (u) { d->unsupported = u; d->cap_unsupported = cap; }
        }
        if (d->nunsupported < d->cap_unsupported) d->unsupported[d->nunsupported++] = name;
    }
    wsc_msg("%s is not supported by warpsim's driver API; it returns "
            "CUDA_ERROR_NOT_SUPPORTED", name);
    return CUDA_ERROR_NOT_SUPPORTED;
}

static CUresult ws_result(ws_status st)
{
    switch (st) {
    case WS_OK:              return CUDA_SUCCESS;
    case WS_ERR_NOMEM:       return CUDA_ERROR_OUT_OF_MEMORY;
    case WS_ERR_PARSE:       return CUDA_ERROR_INVALID_PTX;
    case WS_ERR_NOT_FOUND:   return CUDA_ERROR_NOT_FOUND;
    case WS_ERR_LAUNCH:      return CUDA_ERROR_INVALID_VALUE;
    case WS_ERR_FAULT:       return CUDA_ERROR_ILLEGAL_ADDRESS;
    case WS_ERR_IO:          return CUDA_ERROR_FILE_NOT_FOUND;
    case WS_ERR_TRAP:        return CUDA_ERROR_LAUNCH_FAILED;
    case WS_ERR_ASSERT:      return CUDA_ERROR_ASSERT;
    case WS_ERR_DEADLOCK:    return CUDA_ERROR_LAUNCH_FAILED;
    case WS_ERR_UNSUPPORTED: return CUDA_ERROR_LAUNCH_FAILED;
    case WS_ERR_TIMEOUT:     return CUDA_ERROR_LAUNCH_TIMEOUT;
    default:                 return CUDA_ERROR_INVALID_VALUE;
    }
}

/* Print the library's message for a failed call (kernels demangled) and
   map its status. */
static CUresult fail(ws_ctx *ctx, ws_status st, const char *fn)
{
    wsc_interrupted(ctx, st);
    char msg[2048];
    wsc_demangle_msg(ctx ? ws_last_error(ctx) : ws_status_name(st), msg, sizeof msg);
    wsc_msg("%s: %s", fn, msg);
    return ws_result(st);
}

/* This thread's current context if it is still alive, else NULL. */
static struct CUctx_st *ctx_current(const wsd_driver *d)
{
    for (struct CUctx_st *c = d->ctxs; c; c = c->next)
        if (c == t_current) return c;
    return NULL;
}

/* The current context's simulator, or NULL with *err set (its sticky
   error after a kernel fault). */
static ws_ctx *cur(CUresult *err)
{
    wsd_driver *d = drv();
    if (!d) { *err = CUDA_ERROR_NOT_INITIALIZED; return NULL; }
    struct CUctx_st *c = ctx_current(d);
    if (!c) { *err = CUDA_ERROR_INVALID_CONTEXT; return NULL; }
    if (c->sticky) { *err = c->sticky; return NULL; }
    return c->ctx;
}

/* ------------------------------------------------------------------ */
/* Init, device, errors                                                */
/* ------------------------------------------------------------------ */

WSD_API CUresult cuInit(unsigned int flags)
{
    WSC_LOCK();
    if (flags) return CUDA_ERROR_INVALID_VALUE;
    pthread_once(&g_once, drv_create);
    return g_drv ? CUDA_SUCCESS : CUDA_ERROR_OUT_OF_MEMORY;
}

WSD_API CUresult cuDriverGetVersion(int *v)
{
    if (!v) return CUDA_ERROR_INVALID_VALUE;
    *v = CUDA_VERSION;
    return CUDA_SUCCESS;
}

static void static_runtime_hint(void)
{
    wsc_msg("the program looks up driver entry points with cuGetProcAddress, as NVIDIA's "
            "static CUDA runtime (nvcc's default, -cudart static) does; the simulator "
            "replaces the runtime only in programs built with `nvcc -cudart shared`: "
            "rebuild it that way");
}

/*
** The static runtime finds every driver function through here.  This shim
** hands none out (its runtime is the shared libcudart.so.13), so it says
** what to do once, instead of leaving the program to report an old driver.
*/
WSD_API CUresult cuGetProcAddress_v2(const char *symbol, void **pfn, int version,
                                     cuuint64_t flags, CUdriverProcAddressQueryResult *status)
{
    static pthread_once_t hint_once = PTHREAD_ONCE_INIT;
    (void)symbol; (void)version; (void)flags;
    if (pfn) *pfn = NULL;
    if (status) *status = CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND;
    pthread_once(&hint_once, static_runtime_hint);
    return CUDA_ERROR_NOT_SUPPORTED;
}

WSD_API CUresult cuDeviceGetCount(int *n)
{
    WSC_LOCK();
    if (!drv()) return CUDA_ERROR_NOT_INITIALIZED;
    if (!n) return CUDA_ERROR_INVALID_VALUE;
    *n = 1;
    return CUDA_SUCCESS;
}

WSD_API CUresult cuDeviceGet(CUdevice *dev, int ordinal)
{
    WSC_LOCK();
    if (!drv()) return CUDA_ERROR_NOT_INITIALIZED;
    if (!dev) return CUDA_ERROR_INVALID_VALUE;
    if (ordinal != 0) return CUDA_ERROR_INVALID_DEVICE;
    *dev = 0;
    return CUDA_SUCCESS;
}

WSD_API CUresult cuDeviceGetName(char *name, int len, CUdevice dev)
{
    WSC_LOCK();
    if (!drv()) return CUDA_ERROR_NOT_INITIALIZED;
    if (!name || len <= 0) return CUDA_ERROR_INVALID_VALUE;
    if (dev != 0) return CUDA_ERROR_INVALID_DEVICE;
    wsc_device_name(&drv()->cfg, name, (size_t)len);
    return CUDA_SUCCESS;
}

WSD_API CUresult cuDeviceTotalMem(size_t *bytes, CUdevice dev)
{
    WSC_LOCK();
    if (!drv()) return CUDA_ERROR_NOT_INITIALIZED;
    if (!bytes) return CUDA_ERROR_INVALID_VALUE;
    if (dev != 0) return CUDA_ERROR_INVALID_DEVICE;
    *bytes = (size_t)WSC_TOTAL_GLOBAL_MEM;
    return CUDA_SUCCESS;
}

WSD_API CUresult cuDeviceGetAttribute(int *v, CUdevice_attribute a, CUdevice dev)
{
    WSC_LOCK();
    if (!drv()) return CUDA_ERROR_NOT_INITIALIZED;
    if (!v) return CUDA_ERROR_INVALID_VALUE;
    if (dev != 0) return CUDA_ERROR_INVALID_DEVICE;
    if (wsc_device_attr(&drv()->cfg, (int)a, v)) {
        wsc_msg("cuDeviceGetAttribute: attribute %d is not modelled by the simulator", (int)a);
        return CUDA_ERROR_INVALID_VALUE;
    }
    return CUDA_SUCCESS;
}

typedef struct drv_err { CUresult code; const char *name, *text; } drv_err;

static const drv_err drv_errs[] = {
    {CUDA_SUCCESS, "CUDA_SUCCESS", "no error"},
    {CUDA_ERROR_INVALID_VALUE, "CUDA_ERROR_INVALID_VALUE", "invalid argument"},
    {CUDA_ERROR_OUT_OF_MEMORY, "CUDA_ERROR_OUT_OF_MEMORY", "out of memory"},
    {CUDA_ERROR_NOT_INITIALIZED, "CUDA_ERROR_NOT_INITIALIZED", "initialization error"},
    {CUDA_ERROR_INVALID_DEVICE, "CUDA_ERROR_INVALID_DEVICE", "invalid device ordinal"},
    {CUDA_ERROR_INVALID_IMAGE, "CUDA_ERROR_INVALID_IMAGE", "device kernel image is invalid"},
    {CUDA_ERROR_INVALID_CONTEXT, "CUDA_ERROR_INVALID_CONTEXT", "invalid device context"},
    {CUDA_ERROR_NO_BINARY_FOR_GPU, "CUDA_ERROR_NO_BINARY_FOR_GPU",
     "no kernel image is available for execution on the device"},
    {CUDA_ERROR_INVALID_PTX, "CUDA_ERROR_INVALID_PTX", "a PTX JIT compilation failed"},
    {CUDA_ERROR_FILE_NOT_FOUND, "CUDA_ERROR_FILE_NOT_FOUND", "file not found"},
    {CUDA_ERROR_INVALID_HANDLE, "CUDA_ERROR_INVALID_HANDLE", "invalid resource handle"},
    {CUDA_ERROR_NOT_FOUND, "CUDA_ERROR_NOT_FOUND", "named symbol not found"},
    {CUDA_ERROR_ILLEGAL_ADDRESS, "CUDA_ERROR_ILLEGAL_ADDRESS",
     "an illegal memory access was encountered"},
    {CUDA_ERROR_LAUNCH_FAILED, "CUDA_ERROR_LAUNCH_FAILED", "unspecified launch failure"},
    {CUDA_ERROR_ASSERT, "CUDA_ERROR_ASSERT", "device-side assert triggered"},
    {CUDA_ERROR_NOT_SUPPORTED, "CUDA_ERROR_NOT_SUPPORTED", "operation not supported"},
    {CUDA_ERROR_UNKNOWN, "CUDA_ERROR_UNKNOWN", "unknown error"},
};

static const drv_err *drv_err_find(CUresult e)
{
    for (size_t i = 0; i < sizeof drv_errs / sizeof *drv_errs; i++)
        if (drv_errs[i].code == e) return &drv_errs[i];
    return NULL;
}

WSD_API CUresult cuGetErrorString(CUresult e, const char **s)
{
    const drv_err *t = drv_err_find(e);
    if (!s) return CUDA_ERROR_INVALID_VALUE;
    *s = t ? t->text : NULL;
    return t ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}

WSD_API CUresult cuGetErrorName(CUresult e, const char **s)
{
    const drv_err *t = drv_err_find(e);
    if (!s) return CUDA_ERROR_INVALID_VALUE;
    *s = t ? t->name : NULL;
    return t ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}

/* ------------------------------------------------------------------ */
/* Contexts                                                            */
/* ------------------------------------------------------------------ */

static CUresult ctx_new(CUcontext *out)
{
    wsd_driver *d = drv();
    if (!d) return CUDA_ERROR_NOT_INITIALIZED;
    if (!out) return CUDA_ERROR_INVALID_VALUE;
    struct CUctx_st *c = calloc(1, sizeof *c);
    ws_options o = wsc_config_options(&d->cfg);
    if (!c || !(c->ctx = ws_ctx_create(&o))) { free(c); return CUDA_ERROR_OUT_OF_MEMORY; }
    c->next = d->ctxs;
    d->ctxs = c;
    t_current = c;
    *out = c;
    return CUDA_SUCCESS;
}

WSD_API CUresult cuCtxCreate(CUcontext *out, CUctxCreateParams *params, unsigned int flags,
                             CUdevice dev)
{
    WSC_LOCK();
    (void)params; (void)flags;
    if (dev != 0) return CUDA_ERROR_INVALID_DEVICE;
    return ctx_new(out);
}

WSD_API CUresult cuCtxDestroy(CUcontext c)
{
    WSC_LOCK();
    wsd_driver *d = drv();
    if (!d) return CUDA_ERROR_NOT_INITIALIZED;
    for (struct CUctx_st **p = &d->ctxs; *p; p = &(*p)->next)
        if (*p == c) {
            *p = c->next;
            if (t_current == c) t_current = NULL;
            ctx_free(c);
            return CUDA_SUCCESS;
        }
    return CUDA_ERROR_INVALID_CONTEXT;
}

WSD_API CUresult cuCtxSetCurrent(CUcontext c)
{
    WSC_LOCK();
    if (!drv()) return CUDA_ERROR_NOT_INITIALIZED;
    t_current = c;
    return CUDA_SUCCESS;
}

WSD_API CUresult cuCtxGetCurrent(CUcontext *c)
{
    WSC_LOCK();
    if (!drv()) return CUDA_ERROR_NOT_INITIALIZED;
    if (!c) return CUDA_ERROR_INVALID_VALUE;
    *c = ctx_current(drv());
    return CUDA_SUCCESS;
}

WSD_API CUresult cuCtxGetDevice(CUdevice *dev)
{
    WSC_LOCK();
    CUresult e = CUDA_SUCCESS;
    if (!cur(&e)) return e;
    if (!dev) return CUDA_ERROR_INVALID_VALUE;
    *dev = 0;
    return CUDA_SUCCESS;
}

/* Launches finish before they return: synchronizing has nothing to wait for. */
WSD_API CUresult cuCtxSynchronize(void)
{
    WSC_LOCK();
    CUresult e = CUDA_SUCCESS;
    return cur(&e) ? CUDA_SUCCESS : e;
}

/* The primary context is the first context made (or one made now). */
WSD_API CUresult cuDevicePrimaryCtxRetain(CUcontext *out, CUdevice dev)
{
    WSC_LOCK();
    wsd_driver *d = drv();
    if (!d) return CUDA_ERROR_NOT_INITIALIZED;
    if (dev != 0) return CUDA_ERROR_INVALID_DEVICE;
    if (!out) return CUDA_ERROR_INVALID_VALUE;
    if (d->ctxs) { *out = d->ctxs; return CUDA_SUCCESS; }
    CUresult e = ctx_new(out);
    return e;
}

WSD_API CUresult cuDevicePrimaryCtxRelease(CUdevice dev)
{
    WSC_LOCK();
    return dev == 0 ? CUDA_SUCCESS : CUDA_ERROR_INVALID_DEVICE;
}

/* ------------------------------------------------------------------ */
/* Modules                                                             */
/* ------------------------------------------------------------------ */

static CUresult mod_wrap(ws_module *m, CUmodule *out)
{
    struct CUmod_st *h = calloc(1, sizeof *h);
    if (!h) { ws_module_unload(m); return CUDA_ERROR_OUT_OF_MEMORY; }
    h->mod = m;
    h->owner = ctx_current(drv());
    if (h->owner) {
        h->next = h->owner->mods;
        h->owner->mods = h;
    }
    *out = h;
    return CUDA_SUCCESS;
}

/* Write the PTX of `h` where its messages say it is, once. */
static void mod_write_ptx(struct CUmod_st *h)
{
    if (!h->ptx) return;
    wsc_ptx_write(h->path, h->ptx);
    free(h->ptx);
    h->ptx = NULL;
}

/*
** Load PTX text from memory as the file `what` names (ptx_file.c): written
** now with WARPSIM_KEEP_PTX, else if the load fails or a kernel faults
** (the module keeps a copy of the text until then).
*/
static CUresult load_text(ws_ctx *ctx, const char *ptx, const char *what, CUmodule *out)
{
    const wsc_config *c = &drv()->cfg;
    char path[1024];
    wsc_ptx_path(c, what, path, sizeof path);
    if (c->keep_ptx[0]) wsc_ptx_write(path, ptx);
    ws_module *m;
    ws_status st = ws_module_load_string(ctx, ptx, path, &m);
    if (st) {
        if (!c->keep_ptx[0]) wsc_ptx_write(path, ptx);
        return fail(ctx, st, "cuModuleLoadData");
    }
    CUresult e = mod_wrap(m, out);
    if (e) return e;
    if (!((*out)->path = strdup(path)) || (!c->keep_ptx[0] && !((*out)->ptx = strdup(ptx)))) {
        cuModuleUnload(*out);
        return CUDA_ERROR_OUT_OF_MEMORY;
    }
    return CUDA_SUCCESS;
}

WSD_API CUresult cuModuleLoad(CUmodule *out, const char *path)
{
    WSC_LOCK();
    CUresult e = CUDA_SUCCESS;
    ws_ctx *ctx = cur(&e);
    if (!ctx) return e;
    if (!out || !path) return CUDA_ERROR_INVALID_VALUE;
    ws_module *m;
    ws_status st = ws_module_load_file(ctx, path, &m);
    return st ? fail(ctx, st, "cuModuleLoad") : mod_wrap(m, out);
}

/* `image` is PTX text or an nvcc fatbinary (its newest suitable PTX). */
WSD_API CUresult cuModuleLoadData(CUmodule *out, const void *image)
{
    WSC_LOCK();
    CUresult e = CUDA_SUCCESS;
    ws_ctx *ctx = cur(&e);
    if (!ctx) return e;
    if (!out || !image) return CUDA_ERROR_INVALID_VALUE;
    uint32_t magic;
    memcpy(&magic, image, sizeof magic);
    char what[64];
    int n = drv()->nmodules++;
    if (magic == 0xba55ed50u || magic == 0x466243b1u) {
        char *ptx, err[640];
        int arch;
        if (wsc_fatbin_extract_ptx(image, drv()->cfg.cc_major, drv()->cfg.cc_minor, &ptx,
                                   &arch, err, sizeof err)) {
            wsc_msg("cuModuleLoadData: %s", err);
            return CUDA_ERROR_NO_BINARY_FOR_GPU;
        }
        snprintf(what, sizeof what, "fatbinary%d.sm_%d", n, arch);
        e = load_text(ctx, ptx, what, out);
        free(ptx);
        return e;
    }
    snprintf(what, sizeof what, "module%d", n);
    return load_text(ctx, image, what, out);
}

/* JIT options mean nothing to an interpreter of PTX. */
WSD_API CUresult cuModuleLoadDataEx(CUmodule *out, const void *image, unsigned int n,
                                    CUjit_option *opts, void **vals)
{
    WSC_LOCK();
    (void)n; (void)opts; (void)vals;
    return cuModuleLoadData(out, image);
}

WSD_API CUresult cuModuleUnload(CUmodule h)
{
    WSC_LOCK();
    wsd_driver *d = drv();
    if (!d || !h) return CUDA_ERROR_INVALID_HANDLE;
    /* only a handle a live context owns: a second unload, or one after
       its context was destroyed, is an error, not a double free */
    for (struct CUctx_st *c = d->ctxs; c; c = c->next)
        for (struct CUmod_st **p = &c->mods; *p; p = &(*p)->next)
            if (*p == h) {
                *p = h->next;
                mod_free(h, true);
                return CUDA_SUCCESS;
            }
    return CUDA_ERROR_INVALID_HANDLE;
}

WSD_API CUresult cuModuleGetFunction(CUfunction *out, CUmodule h, const char *name)
{
    WSC_LOCK();
    if (!out || !h || !name) return CUDA_ERROR_INVALID_VALUE;
    for (struct CUfunc_st *f = h->funcs; f; f = f->next)
        if (strcmp(f->name, name) == 0) { *out = f; return CUDA_SUCCESS; }
    ws_kernel *k;
    ws_status st = ws_module_get_kernel(h->mod, name, &k);
    if (st) return fail(h->owner ? h->owner->ctx : NULL, st, "cuModuleGetFunction");
    struct CUfunc_st *f = calloc(1, sizeof *f);
    if (!f || !(f->name = strdup(name))) { free(f); return CUDA_ERROR_OUT_OF_MEMORY; }
    f->k = k;
    f->mod = h;
    f->next = h->funcs;
    h->funcs = f;
    *out = f;
    return CUDA_SUCCESS;
}

WSD_API CUresult cuModuleGetGlobal(CUdeviceptr *dptr, size_t *bytes, CUmodule h,
                                   const char *name)
{
    WSC_LOCK();
    if (!h || !name) return CUDA_ERROR_INVALID_VALUE;
    ws_devptr a;
    size_t n;
    ws_status st = ws_module_get_global(h->mod, name, &a, &n);
    if (st) return fail(h->owner ? h->owner->ctx : NULL, st, "cuModuleGetGlobal");
    if (dptr) *dptr = a;
    if (bytes) *bytes = n;
    return CUDA_SUCCESS;
}

/* ------------------------------------------------------------------ */
/* Memory                                                              */
/* ------------------------------------------------------------------ */

WSD_API CUresult cuMemAlloc(CUdeviceptr *out, size_t bytes)
{
    WSC_LOCK();
    CUresult e = CUDA_SUCCESS;
    ws_ctx *ctx = cur(&e);
    if (!ctx) return e;
    if (!out || !bytes) return CUDA_ERROR_INVALID_VALUE;
    ws_devptr p;
    ws_status st = ws_malloc(ctx, bytes, &p);
    if (st) return fail(ctx, st, "cuMemAlloc");
    *out = p;
    return CUDA_SUCCESS;
}

WSD_API CUresult cuMemFree(CUdeviceptr p)
{
    WSC_LOCK();
    CUresult e = CUDA_SUCCESS;
    ws_ctx *ctx = cur(&e);
    if (!ctx) return e;
    ws_status st = ws_free(ctx, p);
    return st ? fail(ctx, st, "cuMemFree") : CUDA_SUCCESS;
}

/*
** Page-locked host memory is ordinary host memory to the simulator, but
** each block is remembered: cuMemFreeHost frees only what it gave out and
** answers anything else (device, stack, interior, freed, malloc'ed
** pointers) with CUDA_ERROR_INVALID_VALUE.  Mapping for the device
** (CU_MEMHOSTALLOC_DEVICEMAP) is the runtime's (cudaHostAlloc) only.
*/
WSD_API CUresult cuMemHostAlloc(void **out, size_t bytes, unsigned int flags)
{
    WSC_LOCK();
    wsd_driver *d = drv();
    if (!d) return CUDA_ERROR_NOT_INITIALIZED;
    if (!out || (flags & ~7u)) return CUDA_ERROR_INVALID_VALUE;
    if (flags & CU_MEMHOSTALLOC_DEVICEMAP) {
        wsc_msg("cuMemHostAlloc: CU_MEMHOSTALLOC_DEVICEMAP is not supported by warpsim's "
                "driver API (cudaHostAlloc with cudaHostAllocMapped is)");
        return CUDA_ERROR_NOT_SUPPORTED;
    }
    if (d->nhost == d->cap_host) {
        int cap = d->cap_host ? d->cap_host * 2 : 16;
        void **a = realloc(d->host, (size_t)cap * sizeof *a);
        if (!a) return CUDA_ERROR_OUT_OF_MEMORY;
        d->host = a;
        d->cap_host = cap;
    }
    void *p = malloc(bytes ? bytes : 1);
    if (!p) return CUDA_ERROR_OUT_OF_MEMORY;
    d->host[d->nhost++] = p;
    *out = p;
    return CUDA_SUCCESS;
}

WSD_API CUresult cuMemAllocHost_v2(void **out, size_t bytes)
{
    WSC_LOCK();
    return cuMemHostAlloc(out, bytes, 0);
}

WSD_API CUresult cuMemFreeHost(void *p)
{
    WSC_LOCK();
    wsd_driver *d = drv();
    if (!d) return CUDA_ERROR_NOT_INITIALIZED;
    for (int i = 0; i < d->nhost; i++)
        if (d->host[i] == p) {
            free(p);
            d->host[i] = d->host[--d->nhost];
            return CUDA_SUCCESS;
        }
    wsc_msg("cuMemFreeHost: %p is not from cuMemAllocHost/cuMemHostAlloc (or already "
            "freed); nothing freed", p);
    return CUDA_ERROR_INVALID_VALUE;
}

WSD_API CUresult cuMemGetInfo(size_t *free_bytes, size_t *total)
{
    WSC_LOCK();
    CUresult e = CUDA_SUCCESS;
    ws_ctx *ctx = cur(&e);
    if (!ctx) return e;
    ws_status st = ws_mem_info(ctx, free_bytes, total);
    return st ? fail(ctx, st, "cuMemGetInfo") : CUDA_SUCCESS;
}

WSD_API CUresult cuMemcpyHtoD(CUdeviceptr dst, const void *src, size_t n)
{
    WSC_LOCK();
    CUresult e = CUDA_SUCCESS;
    ws_ctx *ctx = cur(&e);
    if (!ctx) return e;
    ws_status st = ws_memcpy_htod(ctx, dst, src, n);
    return st ? fail(ctx, st, "cuMemcpyHtoD") : CUDA_SUCCESS;
}

WSD_API CUresult cuMemcpyDtoH(void *dst, CUdeviceptr src, size_t n)
{
    WSC_LOCK();
    CUresult e = CUDA_SUCCESS;
    ws_ctx *ctx = cur(&e);
    if (!ctx) return e;
    ws_status st = ws_memcpy_dtoh(ctx, dst, src, n);
    return st ? fail(ctx, st, "cuMemcpyDtoH") : CUDA_SUCCESS;
}

WSD_API CUresult cuMemcpyDtoD(CUdeviceptr dst, CUdeviceptr src, size_t n)
{
    WSC_LOCK();
    CUresult e = CUDA_SUCCESS;
    ws_ctx *ctx = cur(&e);
    if (!ctx) return e;
    ws_status st = ws_memcpy_dtod(ctx, dst, src, n);
    return st ? fail(ctx, st, "cuMemcpyDtoD") : CUDA_SUCCESS;
}

WSD_API CUresult cuMemsetD8(CUdeviceptr dst, unsigned char v, size_t n)
{
    WSC_LOCK();
    CUresult e = CUDA_SUCCESS;
    ws_ctx *ctx = cur(&e);
    if (!ctx) return e;
    ws_status st = ws_memset(ctx, dst, v, n);
    return st ? fail(ctx, st, "cuMemsetD8") : CUDA_SUCCESS;
}

/* 32-bit pattern: fill a host buffer in chunks and copy it down. */
WSD_API CUresult cuMemsetD32(CUdeviceptr dst, unsigned int v, size_t n)
{
    WSC_LOCK();
    CUresult e = CUDA_SUCCESS;
    ws_ctx *ctx = cur(&e);
    if (!ctx) return e;
    if (dst & 3) return CUDA_ERROR_INVALID_VALUE;
    uint32_t chunk[1024];
    for (size_t i = 0; i < 1024; i++) chunk[i] = v;
    for (size_t done = 0; done < n;) {
        size_t k = n - done < 1024 ? n - done : 1024;
        ws_status st = ws_memcpy_htod(ctx, dst + done * 4, chunk, k * 4);
        if (st) return fail(ctx, st, "cuMemsetD32");
        done += k;
    }
    return CUDA_SUCCESS;
}

/* ------------------------------------------------------------------ */
/* Launch                                                              */
/* ------------------------------------------------------------------ */

WSD_API CUresult cuLaunchKernel(CUfunction f, unsigned int gx, unsigned int gy,
                                unsigned int gz, unsigned int bx, unsigned int by,
                                unsigned int bz, unsigned int shared, CUstream stream,
                                void **params, void **extra)
{
    WSC_LOCK();
    (void)stream;   /* every launch completes in order */
    CUresult e = CUDA_SUCCESS;
    ws_ctx *ctx = cur(&e);
    if (!ctx) return e;
    if (!f) return CUDA_ERROR_INVALID_HANDLE;
    if (extra) {
        wsc_msg("cuLaunchKernel: the 'extra' argument (packed parameter buffer) is not "
                "supported; pass kernelParams");
        return CUDA_ERROR_NOT_SUPPORTED;
    }
    ws_dim3 g = {gx, gy, gz}, b = {bx, by, bz};
    ws_status st = wsc_launch_hints(ctx);
    if (st == WS_OK) st = ws_launch(ctx, f->k, g, b, params, shared);
    if (st == WS_ERR_LAUNCH || st == WS_ERR_INVALID || st == WS_ERR_NOMEM)
        return fail(ctx, st, "cuLaunchKernel");
    ws_stats s;
    ws_stats_last(ctx, &s);
    wsc_stats_add(&drv()->stats, &drv()->cfg, ctx, f->name, g, b, shared, &s, st != WS_OK);
    if (st == WS_OK) return CUDA_SUCCESS;
    mod_write_ptx(f->mod);   /* the message cites it */
    return ctx_current(drv())->sticky = fail(ctx, st, "cuLaunchKernel");
}
