/*
** cudart_state.c -- the runtime singleton (created on the first CUDA call,
** reported and torn down at exit), per-thread last error, error names and
** strings, versions, profiler markers, and the message for entry points
** the simulator does not implement.
*/
#include "cudart_internal.h"
#include <pthread.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* The process-global runtime (see cudart_internal.h for why). */
static wsc_runtime *g_rt;
static pthread_once_t g_once = PTHREAD_ONCE_INIT;
static __thread cudaError_t t_last_error;
static __thread cudaError_t t_launch_error;   /* for the next synchronize */

/* The library's out-of-allocation warnings, with kernel names as the
   programmer wrote them; the PTX files they cite are written first. */
static void rt_warnings(wsc_runtime *rt)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&buf, &len);
    if (!m) return;   /* ws_ctx_destroy prints them as they are */
    unsigned n = ws_mem_warnings(rt->ctx, m);
    fclose(m);
    if (n) wsc_fatbin_write_all(rt);
    for (char *line = buf, *nl; line && *line; line = nl + 1) {
        char out[2048];
        nl = strchr(line, '\n');
        if (nl) *nl = '\0';
        wsc_demangle_msg(line, out, sizeof out);
        fprintf(stderr, "%s\n", out);
        if (!nl) break;
    }
    free(buf);
}

static void rt_exit(void)
{
    WSC_LOCK();
    wsc_runtime *rt = g_rt;
    if (!rt) return;
    fflush(stdout);
    wsc_stats_report(&rt->stats, &rt->cfg, "cudart", stderr);
    wsc_pinned_free_all(rt);
    wsc_managed_free_all(rt);
    if (rt->ctx) rt_warnings(rt);
    wsc_register_free(rt);
    if (rt->ctx) ws_ctx_destroy(rt->ctx);
    for (int i = 0; i < rt->nhandles; i++) free(rt->handles[i]);
    free(rt->handles);
    free(rt->unsupported);
    wsc_stats_free(&rt->stats);
    free(rt);
    g_rt = NULL;
}

static void rt_create(void)
{
    wsc_runtime *rt = calloc(1, sizeof *rt);
    if (!rt) {
        wsc_msg("out of host memory starting the CUDA runtime");
        return;
    }
    wsc_config_read(&rt->cfg);
    rt->limit_stack = rt->cfg.stack_bytes ? rt->cfg.stack_bytes : 1024;
    rt->limit_printf = 1 << 20;
    rt->limit_heap = 8 << 20;
    g_rt = rt;
    atexit(rt_exit);
}

wsc_runtime *wsc_rt(void)
{
    pthread_once(&g_once, rt_create);
    if (!g_rt) {   /* out of memory at start: nothing can work */
        wsc_msg("fatal: the CUDA runtime could not start");
        exit(1);
    }
    return g_rt;
}

ws_ctx *wsc_ctx(wsc_runtime *rt)
{
    if (!rt->ctx) {
        ws_options o = wsc_config_options(&rt->cfg);
        rt->ctx = ws_ctx_create(&o);
        if (!rt->ctx) wsc_fail(cudaErrorMemoryAllocation, "cuda", "out of host memory "
                               "creating the simulated device");
    }
    return rt->ctx;
}

uint64_t wsc_now_cycles(const wsc_runtime *rt) { return rt->stats.cycles; }

/* ------------------------------------------------------------------ */
/* Errors                                                              */
/* ------------------------------------------------------------------ */

cudaError_t wsc_err(cudaError_t e)
{
    if (e != cudaSuccess) t_last_error = e;
    return e;
}

cudaError_t wsc_fail(cudaError_t e, const char *fn, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "warpsim: %s: ", fn);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    return wsc_err(e);
}

cudaError_t wsc_ws_fail(wsc_runtime *rt, ws_status st, const char *fn)
{
    cudaError_t e;
    wsc_interrupted(rt->ctx, st);
    switch (st) {
    case WS_OK:              return cudaSuccess;
    case WS_ERR_NOMEM:       e = cudaErrorMemoryAllocation; break;
    case WS_ERR_LAUNCH:      e = cudaErrorInvalidConfiguration; break;
    case WS_ERR_PARSE:       e = cudaErrorInvalidPtx; break;
    case WS_ERR_NOT_FOUND:   e = cudaErrorInvalidDeviceFunction; break;
    case WS_ERR_FAULT:       e = cudaErrorIllegalAddress; break;
    case WS_ERR_TRAP:        e = cudaErrorLaunchFailure; break;
    case WS_ERR_ASSERT:      e = cudaErrorAssert; break;
    case WS_ERR_DEADLOCK:    e = cudaErrorLaunchFailure; break;
    case WS_ERR_UNSUPPORTED: e = cudaErrorLaunchFailure; break;
    case WS_ERR_TIMEOUT:     e = cudaErrorLaunchTimeout; break;
    default:                 e = cudaErrorInvalidValue; break;
    }
    if (!rt->ctx) return wsc_fail(e, fn, "%s", ws_status_name(st));
    char msg[2048];   /* kernels named as in the source, not mangled */
    wsc_demangle_msg(ws_last_error(rt->ctx), msg, sizeof msg);
    return wsc_fail(e, fn, "%s", msg);
}

cudaError_t wsc_sticky(wsc_runtime *rt)
{
    if (rt->sticky) return wsc_err(rt->sticky);
    cudaError_t e = t_launch_error;
    t_launch_error = cudaSuccess;
    return wsc_err(e);
}

void wsc_launch_error(cudaError_t e) { t_launch_error = e; }

WSC_API cudaError_t cudaGetLastError(void)
{
    WSC_LOCK();
    cudaError_t e = t_last_error;
    t_last_error = g_rt && g_rt->sticky ? g_rt->sticky : cudaSuccess;
    return e;
}

WSC_API cudaError_t cudaPeekAtLastError(void) { return t_last_error; }

typedef struct err_text { int code; const char *name, *text; } err_text;

/* The codes this runtime produces, plus common ones programs test for. */
static const err_text err_table[] = {
    {0, "cudaSuccess", "no error"},
    {1, "cudaErrorInvalidValue", "invalid argument"},
    {2, "cudaErrorMemoryAllocation", "out of memory"},
    {3, "cudaErrorInitializationError", "initialization error"},
    {4, "cudaErrorCudartUnloading", "driver shutting down"},
    {9, "cudaErrorInvalidConfiguration", "invalid configuration argument"},
    {12, "cudaErrorInvalidPitchValue", "invalid pitch argument"},
    {13, "cudaErrorInvalidSymbol", "invalid device symbol"},
    {17, "cudaErrorInvalidDevicePointer", "invalid device pointer"},
    {21, "cudaErrorInvalidMemcpyDirection", "invalid copy direction for memcpy"},
    {98, "cudaErrorInvalidDeviceFunction", "invalid device function"},
    {100, "cudaErrorNoDevice", "no CUDA-capable device is detected"},
    {101, "cudaErrorInvalidDevice", "invalid device ordinal"},
    {200, "cudaErrorInvalidKernelImage", "device kernel image is invalid"},
    {209, "cudaErrorNoKernelImageForDevice", "no kernel image is available for execution on the device"},
    {218, "cudaErrorInvalidPtx", "a PTX JIT compilation failed"},
    {400, "cudaErrorInvalidResourceHandle", "invalid resource handle"},
    {600, "cudaErrorNotReady", "device not ready"},
    {700, "cudaErrorIllegalAddress", "an illegal memory access was encountered"},
    {701, "cudaErrorLaunchOutOfResources", "too many resources requested for launch"},
    {702, "cudaErrorLaunchTimeout", "the launch timed out and was terminated"},
    {710, "cudaErrorAssert", "device-side assert triggered"},
    {719, "cudaErrorLaunchFailure", "unspecified launch failure"},
    {801, "cudaErrorNotSupported", "operation not supported"},
    {999, "cudaErrorUnknown", "unknown error"},
};

static const err_text *err_lookup(cudaError_t e)
{
    for (size_t i = 0; i < sizeof err_table / sizeof *err_table; i++)
        if (err_table[i].code == (int)e) return &err_table[i];
    return NULL;
}

WSC_API const char *cudaGetErrorName(cudaError_t e)
{
    const err_text *t = err_lookup(e);
    return t ? t->name : "cudaErrorUnknown";
}

WSC_API const char *cudaGetErrorString(cudaError_t e)
{
    const err_text *t = err_lookup(e);
    return t ? t->text : "unrecognized error code";
}

/* ------------------------------------------------------------------ */
/* Unsupported entry points                                            */
/* ------------------------------------------------------------------ */

int wsc_cudart_unsupported(const char *name)
{
    WSC_LOCK();
    wsc_runtime *rt = wsc_rt();
    for (int i = 0; i < rt->nunsupported; i++)
        if (rt->unsupported[i] == name) return wsc_err(cudaErrorNotSupported);
    if (rt->nunsupported == rt->cap_unsupported) {
        int cap = rt->cap_unsupported ? rt->cap_unsupported * 2 : 16;
        const char **u = realloc(rt->unsupported, (size_t)cap * sizeof *u);
        if (u) { rt->unsupported = u; rt->cap_unsupported = cap; }
    }
    if (rt->nunsupported < rt->cap_unsupported) rt->unsupported[rt->nunsupported++] = name;
    wsc_msg("%s is not supported by warpsim's CUDA runtime; it returns "
            "cudaErrorNotSupported", name);
    return wsc_err(cudaErrorNotSupported);
}

/* ------------------------------------------------------------------ */
/* Versions and profiler markers                                       */
/* ------------------------------------------------------------------ */

WSC_API cudaError_t cudaRuntimeGetVersion(int *v)
{
    if (!v) return wsc_err(cudaErrorInvalidValue);
    *v = CUDART_VERSION;
    return cudaSuccess;
}

WSC_API cudaError_t cudaDriverGetVersion(int *v)
{
    if (!v) return wsc_err(cudaErrorInvalidValue);
    *v = CUDART_VERSION;
    return cudaSuccess;
}

/* The simulator always "profiles": the markers are accepted and ignored. */
WSC_API cudaError_t cudaProfilerStart(void) { return cudaSuccess; }
WSC_API cudaError_t cudaProfilerStop(void) { return cudaSuccess; }

/* Returns a struct, so it cannot be left to the int-returning stubs. */
WSC_API struct cudaChannelFormatDesc cudaCreateChannelDesc(int x, int y, int z, int w,
                                                           enum cudaChannelFormatKind f)
{
    struct cudaChannelFormatDesc d = { x, y, z, w, f };
    return d;
}
