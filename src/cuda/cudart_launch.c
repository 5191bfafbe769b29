/*
** cudart_launch.c -- kernel launches from nvcc host code: the nvcc 13 path
** (__cudaGetKernel + __cudaLaunchKernel), the legacy path
** (__cudaPush/PopCallConfiguration + cudaLaunchKernel, -D__NV_LEGACY_LAUNCH),
** and kernel queries (attributes, occupancy).  A launch runs to the end
** before returning; a kernel fault is printed (kernel demangled, its PTX
** written where the message says) and poisons the context (sticky), as
** on a real GPU; a kernel whose PTX cannot be loaded did not run: the
** launch and the next synchronize return the error, which is not sticky.
*/
#include "cudart_internal.h"
#include <string.h>

/* Streams the runtime knows without creating them. */
static bool stream_ok(const wsc_runtime *rt, cudaStream_t s)
{
    return s == NULL || s == cudaStreamLegacy || s == cudaStreamPerThread ||
           wsc_handle_live(rt, s);
}

static cudaError_t launch(wsc_runtime *rt, const char *fn, wsc_func *f, dim3 g, dim3 b,
                          void **args, size_t shared, cudaStream_t stream)
{
    if (rt->sticky) return wsc_sticky(rt);
    if (!f) return wsc_fail(cudaErrorInvalidDeviceFunction, fn, "the function is not a "
                            "registered __global__ kernel");
    if (!stream_ok(rt, stream))
        return wsc_fail(cudaErrorInvalidResourceHandle, fn, "unknown stream %p",
                        (void *)stream);
    ws_kernel *k;
    cudaError_t e = wsc_func_kernel(rt, f, fn, &k);
    if (e) {   /* the kernel did not run: the next synchronize says so too */
        wsc_launch_error(e);
        return e;
    }
    if ((e = wsc_managed_push(rt))) return e;
    ws_dim3 grid = {g.x, g.y, g.z}, block = {b.x, b.y, b.z};
    ws_status st = wsc_launch_hints(rt->ctx);
    if (st == WS_OK) st = ws_launch(rt->ctx, k, grid, block, args, shared);
    if (st == WS_ERR_LAUNCH || st == WS_ERR_INVALID || st == WS_ERR_NOMEM)
        return wsc_ws_fail(rt, st, fn);   /* nothing ran */
    ws_stats s;
    ws_stats_last(rt->ctx, &s);
    uint64_t before = rt->stats.cycles;
    wsc_stats_add(&rt->stats, &rt->cfg, rt->ctx, f->name, grid, block, shared, &s, st != WS_OK);
    wsc_timeline_kernel(rt, stream, rt->stats.cycles - before);
    wsc_managed_pull(rt);
    if (st == WS_OK) return cudaSuccess;
    wsc_fatbin_write_ptx(f->fb);   /* the message cites it */
    e = wsc_ws_fail(rt, st, fn);
    rt->sticky = e;
    return e;
}

/* The legacy launch path's configuration stack is per host thread: a push
   and its pop are two calls, and another thread's launch may come
   between them. */
static __thread wsc_launch_cfg t_cfgs[WSC_CFG_DEPTH];
static __thread int t_ncfg;

WSC_API unsigned __cudaPushCallConfiguration(dim3 grid, dim3 block, size_t shared,
                                             struct CUstream_st *stream)
{
    WSC_LOCK();
    if (t_ncfg == WSC_CFG_DEPTH) {
        wsc_msg("__cudaPushCallConfiguration: more than %d nested launch configurations",
                WSC_CFG_DEPTH);
        return 1;
    }
    t_cfgs[t_ncfg++] = (wsc_launch_cfg){ grid, block, shared, stream };
    return 0;
}

WSC_API cudaError_t __cudaPopCallConfiguration(dim3 *grid, dim3 *block, size_t *shared,
                                               void *stream)
{
    WSC_LOCK();
    if (t_ncfg == 0) return wsc_err(cudaErrorMissingConfiguration);
    wsc_launch_cfg *c = &t_cfgs[--t_ncfg];
    *grid = c->grid;
    *block = c->block;
    *shared = c->shared;
    memcpy(stream, &c->stream, sizeof c->stream);
    return cudaSuccess;
}

WSC_API cudaError_t cudaLaunchKernel(const void *func, dim3 g, dim3 b, void **args,
                                     size_t shared, cudaStream_t stream)
{
    WSC_LOCK();
    wsc_runtime *rt = wsc_rt();
    return launch(rt, "cudaLaunchKernel", wsc_func_find(rt, func), g, b, args, shared, stream);
}

WSC_API cudaError_t cudaLaunchKernel_ptsz(const void *func, dim3 g, dim3 b, void **args,
                                          size_t shared, cudaStream_t stream)
{
    WSC_LOCK();
    return cudaLaunchKernel(func, g, b, args, shared, stream);
}

WSC_API cudaError_t __cudaGetKernel(cudaKernel_t *out, const void *host_fun)
{
    WSC_LOCK();
    wsc_runtime *rt = wsc_rt();
    wsc_func *f = wsc_func_find(rt, host_fun);
    if (!out) return wsc_err(cudaErrorInvalidValue);
    *out = (cudaKernel_t)f;
    return f ? cudaSuccess : wsc_err(cudaErrorInvalidDeviceFunction);
}

WSC_API cudaError_t __cudaLaunchKernel(cudaKernel_t kernel, dim3 g, dim3 b, void **args,
                                       size_t shared, cudaStream_t stream)
{
    WSC_LOCK();
    wsc_runtime *rt = wsc_rt();
    return launch(rt, "kernel launch", wsc_func_find(rt, kernel), g, b, args, shared, stream);
}

WSC_API cudaError_t __cudaLaunchKernel_ptsz(cudaKernel_t kernel, dim3 g, dim3 b, void **args,
                                            size_t shared, cudaStream_t stream)
{
    WSC_LOCK();
    return __cudaLaunchKernel(kernel, g, b, args, shared, stream);
}

/* ------------------------------------------------------------------ */
/* Kernel queries                                                      */
/* ------------------------------------------------------------------ */

static cudaError_t kernel_info(wsc_runtime *rt, const char *fn, const void *func,
                               ws_kernel_info *info)
{
    wsc_func *f = wsc_func_find(rt, func);
    if (!f) return wsc_fail(cudaErrorInvalidDeviceFunction, fn, "%p is not a registered "
                            "__global__ kernel", func);
    ws_kernel *k;
    cudaError_t e = wsc_func_kernel(rt, f, fn, &k);
    if (e) return e;
    ws_module *mod = f->fb->mod;
    for (int i = 0; i < ws_module_kernel_count(mod); i++)
        if (ws_module_kernel_info(mod, i, info) == WS_OK && strcmp(info->name, f->name) == 0)
            return cudaSuccess;
    return wsc_fail(cudaErrorInvalidDeviceFunction, fn, "kernel '%s' not found", f->name);
}

static int max_threads(const ws_kernel_info *in)
{
    if (!in->maxntid[0]) return WSC_MAX_THREADS_PER_BLOCK;
    uint64_t n = (uint64_t)in->maxntid[0] * (in->maxntid[1] ? in->maxntid[1] : 1) *
                 (in->maxntid[2] ? in->maxntid[2] : 1);
    return n < WSC_MAX_THREADS_PER_BLOCK ? (int)n : WSC_MAX_THREADS_PER_BLOCK;
}

WSC_API cudaError_t cudaFuncGetAttributes(struct cudaFuncAttributes *attr, const void *func)
{
    WSC_LOCK();
    wsc_runtime *rt = wsc_rt();
    ws_kernel_info in;
    if (!attr) return wsc_err(cudaErrorInvalidValue);
    cudaError_t e = kernel_info(rt, "cudaFuncGetAttributes", func, &in);
    if (e) return e;
    memset(attr, 0, sizeof *attr);
    attr->sharedSizeBytes = in.static_shared_bytes;
    attr->maxThreadsPerBlock = max_threads(&in);
    attr->numRegs = (int)(in.regs < 255 ? in.regs : 255);   /* PTX virtual registers */
    attr->ptxVersion = rt->cfg.cc_major * 10 + rt->cfg.cc_minor;
    attr->binaryVersion = attr->ptxVersion;
    attr->maxDynamicSharedSizeBytes = WSC_SHARED_PER_BLOCK - (int)in.static_shared_bytes;
    attr->preferredShmemCarveout = -1;
    return cudaSuccess;
}

WSC_API cudaError_t cudaFuncGetName(const char **name, const void *func)
{
    WSC_LOCK();
    wsc_func *f = wsc_func_find(wsc_rt(), func);
    if (!name || !f) return wsc_err(cudaErrorInvalidDeviceFunction);
    *name = f->name;
    return cudaSuccess;
}

/* Cache preferences do not exist in the functional model. */
WSC_API cudaError_t cudaFuncSetCacheConfig(const void *func, enum cudaFuncCache c)
{
    WSC_LOCK();
    (void)c;
    return wsc_func_find(wsc_rt(), func) ? cudaSuccess : wsc_err(cudaErrorInvalidDeviceFunction);
}

WSC_API cudaError_t cudaFuncSetAttribute(const void *func, enum cudaFuncAttribute a, int value)
{
    WSC_LOCK();
    wsc_runtime *rt = wsc_rt();
    if (!wsc_func_find(rt, func)) return wsc_err(cudaErrorInvalidDeviceFunction);
    if (a == cudaFuncAttributeMaxDynamicSharedMemorySize && value > WSC_SHARED_PER_BLOCK)
        return wsc_fail(cudaErrorInvalidValue, "cudaFuncSetAttribute", "%d bytes of dynamic "
                        "shared memory requested; the simulated GPU allows %d per block",
                        value, WSC_SHARED_PER_BLOCK);
    return cudaSuccess;
}

/*
** Resident CTAs per SM from the simulated GPU's limits: threads (whole
** warps), CTA slots and shared memory.  Registers are not limited: PTX
** virtual registers say nothing about the real allocation.
*/
WSC_API cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(
    int *num, const void *func, int block, size_t dyn_shared, unsigned int flags)
{
    WSC_LOCK();
    (void)flags;
    wsc_runtime *rt = wsc_rt();
    ws_kernel_info in;
    if (!num || block <= 0) return wsc_err(cudaErrorInvalidValue);
    cudaError_t e = kernel_info(rt, "cudaOccupancyMaxActiveBlocksPerMultiprocessor", func, &in);
    if (e) return e;
    if (block > max_threads(&in)) { *num = 0; return cudaSuccess; }
    int warps = (block + 31) / 32;
    int n = WSC_MAX_THREADS_PER_SM / (warps * 32);
    if (n > WSC_MAX_BLOCKS_PER_SM) n = WSC_MAX_BLOCKS_PER_SM;
    size_t shared = in.static_shared_bytes + dyn_shared;
    if (shared > WSC_SHARED_PER_BLOCK) n = 0;
    else if (shared && (size_t)n > WSC_SHARED_PER_SM / shared)
        n = (int)(WSC_SHARED_PER_SM / shared);
    *num = n;
    return cudaSuccess;
}

WSC_API cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int *num, const void *func,
                                                                  int block, size_t dyn_shared)
{
    WSC_LOCK();
    return cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(num, func, block,
                                                                  dyn_shared, 0);
}
