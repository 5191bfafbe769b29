/*
** cudart_register.c -- what nvcc's static constructors tell the runtime:
** fatbinaries (__cudaRegisterFatBinary), kernels (__cudaRegisterFunction)
** and device variables (__cudaRegisterVar, __cudaRegisterManagedVar).
** The PTX is extracted at registration; a module is parsed and loaded
** into the simulator the first time one of its kernels or variables is
** used, so PTX a program never uses cannot stop it.
*/
#include "cudart_internal.h"
#include <stdlib.h>
#include <string.h>

/* Append `p` to a growable pointer array. */
static int push_ptr(void ***arr, int *n, int *cap, void *p)
{
    if (*n == *cap) {
        int c = *cap ? *cap * 2 : 16;
        void **a = realloc(*arr, (size_t)c * sizeof *a);
        if (!a) return -1;
        *arr = a;
        *cap = c;
    }
    (*arr)[(*n)++] = p;
    return 0;
}

static wsc_fatbin *fb_from_handle(wsc_runtime *rt, void **handle)
{
    for (int i = 0; i < rt->nfbs; i++)
        if (&rt->fbs[i]->handle_self == handle) return rt->fbs[i];
    return NULL;
}

WSC_API void **__cudaRegisterFatBinary(void *fatCubin)
{
    WSC_LOCK();
    wsc_runtime *rt = wsc_rt();
    wsc_fatbin *fb = calloc(1, sizeof *fb);
    if (!fb || push_ptr((void ***)&rt->fbs, &rt->nfbs, &rt->cap_fbs, fb)) {
        free(fb);
        wsc_msg("out of host memory registering a fatbinary");
        return NULL;
    }
    fb->handle_self = fb;
    fb->wrapper = fatCubin;
    fb->index = rt->nfbs - 1;
    if (wsc_fatbin_extract_ptx(fatCubin, rt->cfg.cc_major, rt->cfg.cc_minor, &fb->ptx,
                               &fb->arch, fb->err, sizeof fb->err))
        fb->ptx = NULL;   /* reported when one of its kernels is used */
    return &fb->handle_self;
}

WSC_API void __cudaRegisterFatBinaryEnd(void **handle) { (void)handle; }


/* Nothing is freed here: the exit report still needs the names, and the
   runtime frees everything after it (atexit order runs us later). */
WSC_API void __cudaUnregisterFatBinary(void **handle) { (void)handle; }

WSC_API void __cudaRegisterFunction(void **handle, const char *hostFun, char *deviceFun,
                                    const char *deviceName, int thread_limit, uint3 *tid,
                                    uint3 *bid, dim3 *bDim, dim3 *gDim, int *wSize)
{
    WSC_LOCK();
    (void)deviceFun; (void)thread_limit; (void)tid; (void)bid; (void)bDim; (void)gDim;
    (void)wSize;
    wsc_runtime *rt = wsc_rt();
    wsc_func *f = calloc(1, sizeof *f);
    if (!f || !deviceName || !(f->name = strdup(deviceName)) ||
        push_ptr((void ***)&rt->funcs, &rt->nfuncs, &rt->cap_funcs, f)) {
        if (f) free(f->name);
        free(f);
        wsc_msg("cannot register kernel '%s'", deviceName ? deviceName : "(null)");
        return;
    }
    f->host_fun = hostFun;
    f->fb = fb_from_handle(rt, handle);
}

static wsc_var *var_register(void **handle, const void *host, const char *name, size_t size,
                             int constant)
{
    wsc_runtime *rt = wsc_rt();
    wsc_var *v = calloc(1, sizeof *v);
    if (!v || !name || !(v->name = strdup(name)) ||
        push_ptr((void ***)&rt->vars, &rt->nvars, &rt->cap_vars, v)) {
        if (v) free(v->name);
        free(v);
        wsc_msg("cannot register device variable '%s'", name ? name : "(null)");
        return NULL;
    }
    v->host_var = host;
    v->fb = fb_from_handle(rt, handle);
    v->size = size;
    v->constant = constant != 0;
    return v;
}

WSC_API void __cudaRegisterVar(void **handle, char *hostVar, char *deviceAddress,
                               const char *deviceName, int ext, size_t size, int constant,
                               int global)
{
    WSC_LOCK();
    (void)deviceAddress; (void)ext; (void)global;
    var_register(handle, hostVar, deviceName, size, constant);
}

/* A __managed__ variable: the host reaches it through *hostVarPtrAddress,
   which must point at managed memory before main runs. */
WSC_API void __cudaRegisterManagedVar(void **handle, void **hostVarPtrAddress,
                                      char *deviceAddress, const char *deviceName, int ext,
                                      size_t size, int constant, int global)
{
    WSC_LOCK();
    (void)deviceAddress; (void)ext; (void)global;
    wsc_var *v = var_register(handle, hostVarPtrAddress, deviceName, size, constant);
    if (v) v->managed_slot = hostVarPtrAddress;
}

/* ------------------------------------------------------------------ */
/* Lookup and lazy loading                                             */
/* ------------------------------------------------------------------ */

wsc_func *wsc_func_find(wsc_runtime *rt, const void *p)
{
    for (int i = 0; i < rt->nfuncs; i++)
        if (rt->funcs[i]->host_fun == p || (const void *)rt->funcs[i] == p)
            return rt->funcs[i];
    return NULL;
}

wsc_var *wsc_var_find(wsc_runtime *rt, const void *host_var)
{
    for (int i = 0; i < rt->nvars; i++)
        if (rt->vars[i]->host_var == host_var) return rt->vars[i];
    return NULL;
}

void wsc_fatbin_write_all(wsc_runtime *rt)
{
    for (int i = 0; i < rt->nfbs; i++)
        if (rt->fbs[i]->mod) wsc_fatbin_write_ptx(rt->fbs[i]);
}

void wsc_fatbin_write_ptx(wsc_fatbin *fb)
{
    if (fb->ptx_written || !fb->ptx || !fb->path[0]) return;
    fb->ptx_written = true;
    wsc_ptx_write(fb->path, fb->ptx);
}

/*
** Load `fb`'s PTX into the simulator once per context.  The module is
** named by the file its PTX is written to (ptx_file.c), so a parse error
** or a kernel fault cites a file the user can open: written now with
** --keep-ptx, else when the load fails or a kernel faults.
*/
cudaError_t wsc_fatbin_load(wsc_runtime *rt, wsc_fatbin *fb, const char *fn)
{
    if (fb->mod) return cudaSuccess;
    if (!fb->ptx) return wsc_fail(cudaErrorNoKernelImageForDevice, fn, "%s", fb->err);
    if (fb->tried) return wsc_err(cudaErrorInvalidPtx);   /* reported already */
    ws_ctx *ctx = wsc_ctx(rt);
    if (!ctx) return cudaErrorMemoryAllocation;
    fb->tried = true;
    if (!fb->path[0]) {
        char what[64];
        snprintf(what, sizeof what, "fatbin%d.sm_%d", fb->index, fb->arch);
        wsc_ptx_path(&rt->cfg, what, fb->path, sizeof fb->path);
    }
    if (rt->cfg.keep_ptx[0]) wsc_fatbin_write_ptx(fb);
    ws_status st = ws_module_load_string(ctx, fb->ptx, fb->path, &fb->mod);
    if (st) {
        fb->mod = NULL;
        wsc_fatbin_write_ptx(fb);
        wsc_fail(cudaErrorInvalidPtx, fn, "the program's PTX (%s) cannot be loaded:\n%s",
                 fb->path, ws_last_error(ctx));
        return cudaErrorInvalidPtx;
    }
    /* __managed__ variables of this module get their host copy now */
    for (int i = 0; i < rt->nvars; i++) {
        wsc_var *v = rt->vars[i];
        ws_devptr addr;
        size_t bytes;
        if (v->fb != fb || !v->managed_slot) continue;
        if (ws_module_get_global(fb->mod, v->name, &addr, &bytes) ||
            wsc_managed_mirror(rt, addr, bytes, v->managed_slot))
            wsc_fail(cudaErrorMemoryAllocation, fn, "cannot set up __managed__ variable "
                     "'%s'", v->name);
    }
    return cudaSuccess;
}

/* Host code reaches __managed__ variables only after this returns. */
WSC_API char __cudaInitModule(void **handle)
{
    WSC_LOCK();
    wsc_runtime *rt = wsc_rt();
    wsc_fatbin *fb = fb_from_handle(rt, handle);
    return fb && wsc_fatbin_load(rt, fb, "__cudaInitModule") == cudaSuccess;
}

cudaError_t wsc_func_kernel(wsc_runtime *rt, wsc_func *f, const char *fn, ws_kernel **out)
{
    if (f->k) { *out = f->k; return cudaSuccess; }
    if (!f->fb) return wsc_fail(cudaErrorInvalidDeviceFunction, fn, "kernel '%s' was "
                                "registered without a fatbinary", f->name);
    cudaError_t e = wsc_fatbin_load(rt, f->fb, fn);
    if (e) return e;
    if (ws_module_get_kernel(f->fb->mod, f->name, &f->k))
        return wsc_fail(cudaErrorInvalidDeviceFunction, fn, "%s", ws_last_error(rt->ctx));
    *out = f->k;
    return cudaSuccess;
}

cudaError_t wsc_var_addr(wsc_runtime *rt, wsc_var *v, const char *fn, ws_devptr *addr,
                         size_t *bytes)
{
    if (!v->fb) return wsc_fail(cudaErrorInvalidSymbol, fn, "variable '%s' was registered "
                                "without a fatbinary", v->name);
    cudaError_t e = wsc_fatbin_load(rt, v->fb, fn);
    if (e) return e;
    if (ws_module_get_global(v->fb->mod, v->name, addr, bytes))
        return wsc_fail(cudaErrorInvalidSymbol, fn, "%s", ws_last_error(rt->ctx));
    return cudaSuccess;
}

void wsc_register_reset(wsc_runtime *rt)
{
    for (int i = 0; i < rt->nfbs; i++) {
        rt->fbs[i]->mod = NULL;   /* owned by the context being destroyed */
        rt->fbs[i]->tried = false;
    }
    for (int i = 0; i < rt->nfuncs; i++) rt->funcs[i]->k = NULL;
}

void wsc_register_free(wsc_runtime *rt)
{
    for (int i = 0; i < rt->nfbs; i++) free(rt->fbs[i]->ptx), free(rt->fbs[i]);
    for (int i = 0; i < rt->nfuncs; i++) free(rt->funcs[i]->name), free(rt->funcs[i]);
    for (int i = 0; i < rt->nvars; i++) free(rt->vars[i]->name), free(rt->vars[i]);
    free(rt->fbs);
    free(rt->funcs);
    free(rt->vars);
    rt->fbs = NULL; rt->funcs = NULL; rt->vars = NULL;
    rt->nfbs = rt->nfuncs = rt->nvars = 0;
}
