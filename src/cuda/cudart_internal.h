/*
** cudart_internal.h -- state of the replacement CUDA runtime (cudart_*.c).
**
** The CUDA runtime API is process-global by definition, so this layer has
** the project's one piece of global state: the runtime, created on the
** first call (wsc_rt) and torn down after the exit report.  The simulator
** below it (ws_ctx) keeps no globals.  Types and enums come from the real
** CUDA 13 headers so the ABI (cudaDeviceProp layout, error codes) matches.
*/
#ifndef WS_CUDART_INTERNAL_H
#define WS_CUDART_INTERNAL_H

#include <cuda_runtime_api.h>
#include "cuda_internal.h"

/* Exported API: everything else in the library is hidden by the linker
   version script; this only documents intent. */
#define WSC_API __attribute__((visibility("default")))

/* A fatbinary registered by the program's static constructor. */
typedef struct wsc_fatbin {
    void *handle_self;      /* the handle given out is &handle_self */
    const void *wrapper;
    char *ptx;              /* NULL when extraction failed (err says why) */
    int arch;
    int index;              /* registration order, for names */
    ws_module *mod;         /* loaded at first use */
    bool tried;             /* a load was attempted in the current context */
    bool ptx_written;       /* the PTX file at `path` was written (or tried) */
    char err[640];
    char path[1024];        /* the PTX's file name in messages (ptx_file.c) */
} wsc_fatbin;

/* A __global__ function: the host stub's address names it. */
typedef struct wsc_func {
    const void *host_fun;
    wsc_fatbin *fb;
    char *name;             /* mangled device name */
    ws_kernel *k;           /* resolved lazily */
} wsc_func;

/* A __device__ or __constant__ variable: its host shadow names it. */
typedef struct wsc_var {
    const void *host_var;
    wsc_fatbin *fb;
    char *name;
    size_t size;
    bool constant;
    void **managed_slot;    /* __managed__: where the host pointer goes */
} wsc_var;

/* Managed memory: the host copy is pushed to the device before and
   pulled back after every launch.  cudaMallocManaged maps the host copy
   at the device address itself (mapped), so one pointer works on both
   sides; a __managed__ variable's host copy is a plain buffer. */
typedef struct wsc_managed {
    void *host;
    ws_devptr dev;          /* device address of the data */
    size_t bytes;
    ws_devptr dev_base;     /* the device allocation (mapped only) */
    size_t map_len;         /* 0: host is a malloc'ed mirror */
    bool pinned;            /* page-locked mapped host memory (cudart_host.c) */
    bool borrowed;          /* host memory is the program's (cudaHostRegister) */
} wsc_managed;

/* Page-locked host memory given out or registered (cudart_host.c). */
typedef struct wsc_pinned {
    void *host;
    size_t bytes;
    unsigned flags;         /* cudaHostAlloc* / cudaHostRegister* */
    bool registered;        /* cudaHostRegister, else ours to free */
} wsc_pinned;

/* The simulated order of streams (cudart_stream.c), in core cycles. */
typedef enum { WSC_ENGINE_COMPUTE, WSC_ENGINE_H2D, WSC_ENGINE_D2H, WSC_ENGINES } wsc_engine;
typedef struct wsc_timeline {
    uint64_t engine_free[WSC_ENGINES];  /* when each engine finishes its last work */
    uint64_t legacy_end;    /* end of the last work on the legacy default stream */
    uint64_t blocking_end;  /* latest end of work on any blocking stream */
    uint64_t device_end;    /* latest end of any work */
    uint64_t host;          /* how far the host has waited for the device */
} wsc_timeline;

typedef struct wsc_launch_cfg {
    dim3 grid, block;
    size_t shared;
    cudaStream_t stream;
} wsc_launch_cfg;

#define WSC_CFG_DEPTH 32

typedef struct wsc_runtime {
    wsc_config cfg;
    ws_ctx *ctx;            /* NULL after cudaDeviceReset until next use */
    wsc_fatbin **fbs;   int nfbs, cap_fbs;
    wsc_func **funcs;   int nfuncs, cap_funcs;
    wsc_var **vars;     int nvars, cap_vars;
    wsc_managed *managed; int nmanaged, cap_managed;
    wsc_pinned *pinned; int npinned, cap_pinned;
    unsigned device_flags;  /* cudaSetDeviceFlags */
    wsc_timeline tl;
    void **handles;     int nhandles, cap_handles;  /* live streams and events */
    cudaError_t sticky;     /* a kernel fault poisons the context, like CUDA */
    wsc_stats stats;
    const char **unsupported; int nunsupported, cap_unsupported;
    size_t limit_stack, limit_printf, limit_heap;
} wsc_runtime;

/* cudart_state.c */
wsc_runtime *wsc_rt(void);
/* The simulator context, created on demand; NULL (and an error recorded)
   if it cannot be made. */
ws_ctx *wsc_ctx(wsc_runtime *rt);
/* Record `e` as this thread's last error and return it. */
cudaError_t wsc_err(cudaError_t e);
/* Same, printing "warpsim: FN: message" first. */
cudaError_t wsc_fail(cudaError_t e, const char *fn, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* cudaError_t for a ws_status, printing the library's message. */
cudaError_t wsc_ws_fail(wsc_runtime *rt, ws_status st, const char *fn);
/* The error a synchronize reports: the sticky one (after a kernel fault),
   else this thread's launch error not yet reported by a synchronize
   (reported once), else cudaSuccess. */
cudaError_t wsc_sticky(wsc_runtime *rt);
/* A launch on this thread could not start (its PTX cannot be loaded):
   the next synchronize reports `e` (not sticky: CUDA reports a JIT
   failure per launch and the context stays usable). */
void wsc_launch_error(cudaError_t e);
/* Remember `p` as a live stream or event; forget it; test it. */
int wsc_handle_add(wsc_runtime *rt, void *p);
void wsc_handle_del(wsc_runtime *rt, void *p);
bool wsc_handle_live(const wsc_runtime *rt, const void *p);
/* Nominal simulated clock in cycles (sum over launches). */
uint64_t wsc_now_cycles(const wsc_runtime *rt);

/* cudart_stream.c: place finished work on the simulated timeline.
   `s` is the stream as the program named it (NULL: legacy default);
   `sync` makes the host wait for it (cudaMemcpy). */
void wsc_timeline_kernel(wsc_runtime *rt, cudaStream_t s, uint64_t cycles);
void wsc_timeline_copy(wsc_runtime *rt, cudaStream_t s, const void *dst, const void *src,
                       size_t n, enum cudaMemcpyKind kind, bool sync);
void wsc_timeline_memset(wsc_runtime *rt, cudaStream_t s, size_t n);
/* cudaSuccess if `s` is a default stream or a live one, else an error. */
cudaError_t wsc_stream_check(wsc_runtime *rt, cudaStream_t s, const char *fn);
/* The host waits until simulated cycle `t`. */
void wsc_timeline_wait(wsc_runtime *rt, uint64_t t);

/* cudart_register.c */
wsc_func *wsc_func_find(wsc_runtime *rt, const void *host_fun_or_handle);
/* Resolve the ws_kernel of `f` (loading its module); error recorded. */
cudaError_t wsc_func_kernel(wsc_runtime *rt, wsc_func *f, const char *fn, ws_kernel **out);
wsc_var *wsc_var_find(wsc_runtime *rt, const void *host_var);
/* Device address and size of `v` (loading its module). */
cudaError_t wsc_var_addr(wsc_runtime *rt, wsc_var *v, const char *fn, ws_devptr *addr,
                         size_t *bytes);
/* Load the module of `fb` now (gives __managed__ variables their memory). */
cudaError_t wsc_fatbin_load(wsc_runtime *rt, wsc_fatbin *fb, const char *fn);
/* Write the PTX of `fb` where messages say it is (once). */
void wsc_fatbin_write_ptx(wsc_fatbin *fb);
/* Same for every loaded fatbinary (warnings at exit cite them). */
void wsc_fatbin_write_all(wsc_runtime *rt);
/* Forget every module and kernel (cudaDeviceReset). */
void wsc_register_reset(wsc_runtime *rt);
void wsc_register_free(wsc_runtime *rt);

/* cudart_memory.c */
wsc_managed *wsc_managed_find(wsc_runtime *rt, const void *p, size_t n);
/* Before / after a launch: push host copies of managed memory to the
   device, pull them back. */
cudaError_t wsc_managed_push(wsc_runtime *rt);
void wsc_managed_pull(wsc_runtime *rt);
/* Host memory mapped at a device allocation (cudaMallocManaged; with
   `anywhere` and `pinned`, mapped page-locked memory): see cudart_memory.c. */
cudaError_t wsc_managed_alloc(wsc_runtime *rt, size_t bytes, bool anywhere, bool pinned,
                              void **out, const char *fn);
/* Give a __managed__ variable at device address `dev` a host mirror. */
cudaError_t wsc_managed_mirror(wsc_runtime *rt, ws_devptr dev, size_t bytes, void **out);
void wsc_managed_free_all(wsc_runtime *rt);
int wsc_managed_add(wsc_runtime *rt, const wsc_managed *m);
/* Free what `m` owns (host and/or device side); the entry stays. */
void wsc_managed_release(wsc_runtime *rt, wsc_managed *m);
/* The host address behind a device address of mapped memory whose host
   copy is elsewhere, else `p` itself. */
void *wsc_mapped_host(wsc_runtime *rt, const void *p, size_t n);

/* cudart_host.c */
/* Free every page-locked allocation (exit, cudaDeviceReset). */
void wsc_pinned_free_all(wsc_runtime *rt);

#endif /* WS_CUDART_INTERNAL_H */
