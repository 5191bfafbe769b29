/*
** warpsim.h -- public C host API of libwarpsim.
**
** Load a PTX module, allocate and copy device memory, launch kernels and
** read back results, all on the simulated GPU.  Every call returns a
** ws_status; on failure ws_last_error() holds a message for people (for a
** kernel fault: kernel, CTA, thread, PTX line and address).  Launches run
** to completion before ws_launch() returns (the functional emulator has no
** asynchrony), so ws_synchronize() only reports a pending error.
*/
#ifndef WARPSIM_H
#define WARPSIM_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

#define WS_VERSION_STRING "0.1.0"

typedef enum ws_status {
    WS_OK = 0,
    WS_ERR_INVALID,     /* bad argument from the host program */
    WS_ERR_PARSE,       /* malformed or unsupported PTX */
    WS_ERR_NOT_FOUND,   /* no kernel / symbol of that name */
    WS_ERR_NOMEM,       /* device or host memory exhausted */
    WS_ERR_LAUNCH,      /* invalid launch configuration */
    WS_ERR_FAULT,       /* the kernel accessed memory it does not own */
    WS_ERR_TRAP,        /* the kernel trapped (trap, brkpt) */
    WS_ERR_DEADLOCK,    /* barrier that can never complete */
    WS_ERR_UNSUPPORTED, /* instruction or feature not implemented */
    WS_ERR_IO,          /* file could not be read */
    WS_ERR_ASSERT,      /* a device assert failed (__assertfail) */
    WS_ERR_TIMEOUT,     /* the kernel made no progress (ws_options.progress_limit) */
    WS_ERR_INTERRUPTED  /* stopped by ws_options.interrupt (SIGINT) */
} ws_status;

/* Default ws_options.progress_limit: warp instructions a launch may execute
   with no warp finishing and no CTA barrier completing before it is
   stopped as hung (see ws_options).  Why 1e9: a spinning kernel stops
   after minutes (about 3 functional, 11 on the timing model), while a
   kernel that finishes would need its resident warps to run over a
   million instructions each before the first finishes or meets a barrier. */
#define WS_DEFAULT_PROGRESS_LIMIT 1000000000ull

typedef struct ws_ctx ws_ctx;
typedef struct ws_module ws_module;
typedef struct ws_kernel ws_kernel;
typedef uint64_t ws_devptr;

typedef struct ws_dim3 { uint32_t x, y, z; } ws_dim3;

typedef struct ws_options {
    FILE *printf_out;      /* device printf destination; NULL = stdout */
    uint32_t stack_bytes;  /* per-thread local memory; 0 = default 1024 */
    uint32_t num_sms;      /* value reported as %nsmid; 0 = default 15 */
    uint32_t max_shared_bytes; /* static + dynamic shared memory allowed per
                                  CTA; 0 = default 48 KiB */
    /* the cycle-level timing model (all zero = functional only) */
    int timing;                 /* 1: launches run on the timing model */
    const char *config;         /* preset name (gtx480, fx5800, owl28, tesla8,
                                   k20x) or config-file path; NULL = gtx480 */
    const char *const *settings;/* NULL-terminated "key=value" overrides */
    FILE *report_out;           /* at ws_ctx_destroy: text timing report here */
    const char *report_json;    /* at ws_ctx_destroy: JSON timing report file */
    const char *timeseries;     /* at ws_ctx_destroy: time series file (name
                                   ending .json: JSON array, else CSV) */
    /* appended: policy plug-ins */
    const char *plugins;        /* colon-separated paths of policy plug-ins
                                   (shared objects built against
                                   warpsim_policy.h) whose policies the
                                   configuration may name; NULL or "" = none.
                                   A plug-in that cannot be loaded fails
                                   ws_ctx_create2 (WS_ERR_INVALID) */
    /* appended: device memory semantics */
    int memcheck;               /* 0: like a GPU, a kernel access outside
                                   every allocation but inside a mapped
                                   2 MiB page (one holding part of a live
                                   allocation) proceeds and is reported
                                   once per site at ws_ctx_destroy; 1: it
                                   faults (use after free named), and freed
                                   addresses are kept out of reuse */
    uint64_t device_mem_bytes;  /* device memory: ws_malloc beyond it fails
                                   with WS_ERR_NOMEM; 0 = the address space */
    uint64_t host_mem_limit;    /* host bytes backing device memory (4 KiB
                                   pages); 0 = unlimited.  A test hook: past
                                   it writes fail as when the host is out of
                                   memory (WS_ERR_NOMEM, a kernel fault) */
    FILE *warn_out;             /* at ws_ctx_destroy: the out-of-allocation
                                   warnings (ws_mem_warnings); NULL = stderr */
    /* appended: kernels that never finish.  A launch makes progress when
       a warp finishes or a CTA barrier completes; one that executes
       `progress_limit` warp instructions without progress (a busy loop, a
       spin-wait nothing ends, a warp spinning while the others wait at a
       barrier) stops with WS_ERR_TIMEOUT and a dump of where each
       resident warp is in ws_last_error().  0 = the default
       (WS_DEFAULT_PROGRESS_LIMIT, or the timing configuration's
       `progress_limit`), UINT64_MAX = no limit. */
    uint64_t progress_limit;
    /* a flag the host's SIGINT handler sets (NULL = none): a running
       launch checks it between turns / cycles and stops with
       WS_ERR_INTERRUPTED and the same dump */
    const volatile sig_atomic_t *interrupt;
} ws_options;

/* Per-launch and cumulative counters. */
typedef struct ws_stats {
    uint64_t launches;
    uint64_t ctas;
    uint64_t warps;
    uint64_t warp_insns;    /* warp-level dynamic instructions */
    uint64_t thread_insns;  /* sum of active lanes over those instructions */
    /* workload characterization */
    uint64_t mem_insns;     /* warp instructions of class memory (ld, st, atom, ...) */
    uint64_t bar_insns;     /* warp instructions of class barrier (bar, barrier) */
    uint64_t warp_insns_min;/* fewest / most warp instructions one warp executed, */
    uint64_t warp_insns_max;/* over all warps of the launch(es); 0 when none ran */
    /* sum over all warps of the square of each one's instruction count,
       for the spread of warp lengths: mean = warp_insns / warps, standard
       deviation = sqrt(warp_insns_sq / warps - mean^2).  A double, exact
       while below 2^53, so equal warps give exactly 0 */
    double warp_insns_sq;
    /* the kernel-frame registers and predicates of every warp at its
       exit, hashed per warp and summed (wrapping): equal for any issue
       order that computes the same values */
    uint64_t reg_hash;
    /* timing model (all 0 when functional only) */
    uint64_t cycles;        /* simulated core cycles (gpu_sim_cycle) */
    uint64_t l1d_accesses, l1d_hits, l1d_misses;
    uint64_t lsu_stall_cycles; /* LSU back-pressure: could not accept/proceed */
    /* launches a timing context ran functionally (fast-forward: the
       configuration keys timing_from, timing_kernels, timing_every); they
       leave the timing counters above at 0 */
    uint64_t untimed_launches;
} ws_stats;

/* Description of one kernel, for listings. */
typedef struct ws_kernel_info {
    const char *name;
    uint32_t nparams;
    uint32_t param_bytes;
    uint32_t static_shared_bytes;
    uint32_t regs;          /* virtual registers declared in PTX */
    uint32_t reqntid[3], maxntid[3], minnctapersm, maxnreg; /* 0 = unset */
} ws_kernel_info;

const char *ws_status_name(ws_status s);

/* opts may be NULL. Returns NULL when out of host memory, or when the
   timing configuration is invalid (ws_ctx_create2 says why). */
ws_ctx *ws_ctx_create(const ws_options *opts);
void ws_ctx_destroy(ws_ctx *ctx);
const char *ws_last_error(const ws_ctx *ctx);

ws_status ws_module_load_file(ws_ctx *ctx, const char *path, ws_module **out);
ws_status ws_module_load_string(ws_ctx *ctx, const char *ptx, const char *name,
                                ws_module **out);
void ws_module_unload(ws_module *mod);

int ws_module_kernel_count(const ws_module *mod);
ws_status ws_module_kernel_info(const ws_module *mod, int index, ws_kernel_info *out);
ws_status ws_module_get_kernel(ws_module *mod, const char *name, ws_kernel **out);
/* Device address and size of a module-scope .global or .const variable
   (a .const address is generic: usable with ws_memcpy_*). */
ws_status ws_module_get_global(ws_module *mod, const char *name, ws_devptr *addr,
                               size_t *bytes);

ws_status ws_malloc(ws_ctx *ctx, size_t bytes, ws_devptr *out);
ws_status ws_free(ws_ctx *ctx, ws_devptr ptr);
ws_status ws_memcpy_htod(ws_ctx *ctx, ws_devptr dst, const void *src, size_t bytes);
ws_status ws_memcpy_dtoh(ws_ctx *ctx, void *dst, ws_devptr src, size_t bytes);
ws_status ws_memcpy_dtod(ws_ctx *ctx, ws_devptr dst, ws_devptr src, size_t bytes);
ws_status ws_memset(ws_ctx *ctx, ws_devptr dst, int value, size_t bytes);
/* Device memory in use (sum of live allocations, module variables
   included) and in all (ws_options.device_mem_bytes, or the address
   space); either may be NULL.  What cudaMemGetInfo reports. */
ws_status ws_mem_info(const ws_ctx *ctx, size_t *free_bytes, size_t *total_bytes);
/* Write one warning per kernel access site that went outside every
   allocation but stayed inside mapped pages (kernel, thread, PTX line,
   address, count) to `out`; returns the number of sites.  ws_ctx_destroy
   writes them to ws_options.warn_out unless they were taken here (a caller
   that prints them its own way, e.g. with demangled names). */
unsigned ws_mem_warnings(ws_ctx *ctx, FILE *out);
/* 1 if `addr` lies in the range the simulator hands out device addresses
   from (global heap and constant bank), else 0: lets a runtime tell device
   pointers from host pointers (cudaMemcpyDefault). No allocation check. */
int ws_is_device_range(ws_devptr addr);

/* Launch like cuLaunchKernel: args[i] points at the value of parameter i
   (sizes from the PTX signature). */
ws_status ws_launch(ws_ctx *ctx, ws_kernel *k, ws_dim3 grid, ws_dim3 block,
                    void **args, size_t dyn_shared_bytes);
ws_status ws_synchronize(ws_ctx *ctx);
/* HALS launch hints (specs/haws.md 3.2.2) for the launches that follow:
   "KERNEL:N[,KERNEL:N...]", KERNEL the PTX name, its demangled base name
   or `*` for every kernel, N 0..3.  They override the configuration's
   hals_hint for the kernels they name; NULL or "" = none.  WS_ERR_INVALID
   (hints unchanged, message naming the bad entry) when malformed. */
ws_status ws_ctx_set_launch_hints(ws_ctx *ctx, const char *list);
/* Per-thread local memory (call stack) of the launches that follow, as
   cudaDeviceSetLimit(cudaLimitStackSize) sets it between launches: 0 = the
   default (1024), rounded up to 16 bytes; WS_ERR_INVALID above
   WS_MAX_STACK_BYTES. */
#define WS_MAX_STACK_BYTES (16u << 20)
ws_status ws_ctx_set_stack(ws_ctx *ctx, size_t bytes);

/* Counters of the last launch, and of all launches so far. */
void ws_stats_last(const ws_ctx *ctx, ws_stats *out);
void ws_stats_total(const ws_ctx *ctx, ws_stats *out);

/* ---- texture and surface objects --------------------------------- */

/*
** A texture or surface object is a 64-bit handle (never 0) that a kernel
** receives as a .u64 parameter and uses with tex/tld4/txq or suld/sust.
** Its texels live in device memory the caller allocated, laid out as
**     base + z * slice + y * pitch + x * element_bytes
** with, for WS_TEXRES_ARRAY (CUDA arrays), packed rows: pitch = width *
** element_bytes, slice = pitch * height; layered arrays keep layer i in
** z = i.  Linear resources are 1D (tex1Dfetch: element index, no
** filtering, 0 outside).  The memory must stay allocated while the object
** is used; a fetch from freed memory faults.
*/
typedef enum { WS_TEXRES_LINEAR = 1, WS_TEXRES_PITCH2D, WS_TEXRES_ARRAY } ws_texres_kind;
typedef enum { WS_CH_SIGNED = 0, WS_CH_UNSIGNED, WS_CH_FLOAT } ws_channel_kind;

typedef struct ws_tex_resource {
    int kind;                   /* ws_texres_kind */
    ws_devptr base;             /* first texel */
    uint32_t width, height, depth; /* texels; 0 counts as 1; depth = layers
                                      when layered */
    int layered;                /* arrays: z is the layer */
    size_t pitch;               /* PITCH2D: bytes per row; else ignored */
    uint32_t channels;          /* 1, 2 or 4 */
    uint32_t channel_bits;      /* 8, 16 or 32 (float: 16 = half, 32) */
    int channel_kind;           /* ws_channel_kind */
} ws_tex_resource;

typedef struct ws_tex_sampler {
    int addr_mode[3];           /* per dimension: 0 wrap, 1 clamp, 2 mirror,
                                   3 border (CUDA's values); wrap and mirror
                                   need normalized_coords, else act as clamp */
    int filter;                 /* 0 point, 1 linear (float results only) */
    int read_normalized;        /* 8/16-bit integers read as floats in
                                   [0,1] (unsigned) or [-1,1] (signed) */
    int normalized_coords;      /* coordinates in [0,1) instead of texels */
    float border[4];            /* border colour */
} ws_tex_sampler;

ws_status ws_texture_create(ws_ctx *ctx, const ws_tex_resource *res, const ws_tex_sampler *smp,
                            uint64_t *handle);
/* A surface over an array or pitched resource (x in bytes in the kernel). */
ws_status ws_surface_create(ws_ctx *ctx, const ws_tex_resource *res, uint64_t *handle);
/* Destroy a texture or surface object; WS_ERR_INVALID if `handle` names
   no live one. */
ws_status ws_texture_destroy(ws_ctx *ctx, uint64_t handle);
/* What a live object was created with (`smp` may be NULL; a surface's
   sampler reads all zero). */
ws_status ws_texture_get(ws_ctx *ctx, uint64_t handle, ws_tex_resource *res, ws_tex_sampler *smp,
                         int *is_surface);

/* ---- the timing model -------------------------------------------- */

/* Like ws_ctx_create, but a bad timing configuration (unknown preset or
   key, value out of range, unreadable file) gives WS_ERR_INVALID with a
   message for people in `err` (file, key, value, bounds) instead of NULL.
   On success *out is the new context. */
ws_status ws_ctx_create2(const ws_options *opts, ws_ctx **out, char *err, size_t errlen);
/* Check a timing configuration (as in ws_options.config/.settings)
   without creating a context: WS_OK, or WS_ERR_INVALID with `err`.
   Warnings (GPGPU-Sim options not used) go to `warn`, "" if none. */
ws_status ws_config_check(const char *config, const char *const *settings, char *warn,
                          size_t warnlen, char *err, size_t errlen);
/* Check what ws_ctx_create2 would refuse in `opts` without creating a
   context: its plug-ins (opts->plugins) and, with opts->timing, the timing
   configuration with those plug-ins' policies.  WS_OK, or WS_ERR_INVALID
   with `err` (naming the plug-in file, or the key).  With timing, the
   machine's SM count and core clock go to *num_sms and *core_mhz (either
   may be NULL), warnings to `warn` ("" if none). */
ws_status ws_options_check(const ws_options *opts, uint32_t *num_sms, double *core_mhz,
                           char *warn, size_t warnlen, char *err, size_t errlen);
/* Warnings from building the context's configuration, "" if none. */
const char *ws_config_warnings(const ws_ctx *ctx);
/* The simulated machine a timing configuration describes: its SM count
   and core clock (MHz), so a runtime can report the device and convert
   simulated cycles to time. Same errors as ws_config_check. */
ws_status ws_config_machine(const char *config, const char *const *settings,
                            uint32_t *num_sms, double *core_mhz);
/* The full timing report of every launch so far (configuration, each
   launch, totals), as text or JSON. WS_ERR_INVALID when timing is off. */
ws_status ws_report(const ws_ctx *ctx, FILE *out, int json);
/* The time series (timeseries_interval > 0) of every launch: CSV or JSON. */
ws_status ws_timeseries(const ws_ctx *ctx, FILE *out, int json);

/* The timing model's counters of some launches, summed and kept by value
   (the context may be gone when they are reported), with the machine they
   ran on: the CUDA shims keep one per kernel, per launch and in total. */
typedef struct ws_tstats ws_tstats;
ws_tstats *ws_tstats_new(void);          /* NULL: out of host memory */
void ws_tstats_free(ws_tstats *t);
/* Add the last launch of timing context `ctx` (no timing: no change). */
void ws_tstats_add_last(ws_tstats *t, const ws_ctx *ctx);
/* Add what `o` holds to `t`. */
void ws_tstats_add(ws_tstats *t, const ws_tstats *o);
/* Launches added so far (0: nothing to report). */
uint64_t ws_tstats_launches(const ws_tstats *t);
/* The statistics under GPGPU-Sim's names (gpu_sim_cycle, gpu_sim_insn,
   gpu_ipc, or gpu_tot_* when `total`; L1D_total_cache_*, L2_total_cache_*)
   plus the issue slots and the memory system below L1 ("memsys"), as JSON
   members of an object the caller has open: each is written as ",", a
   newline, 2 x `depth` spaces and the member. */
void ws_tstats_json(const ws_tstats *t, FILE *out, int depth, int total);
/* The simulated machine they ran on: its name (the preset, or the
   configuration file's name), SM count and core clock (MHz); "" and 0
   before any launch. */
const char *ws_tstats_machine(const ws_tstats *t, uint32_t *num_sms, double *core_mhz);

#ifdef __cplusplus
}
#endif
#endif /* WARPSIM_H */
