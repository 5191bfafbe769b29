/*
** cuda_internal.h -- private header of the CUDA shims (src/cuda/): the
** replacement runtime libcudart.so.13 (cudart_*.c) and the driver-API
** subset libcuda.so.1 (driver.c).  Both sit on the public host API
** (warpsim.h); fatbin.c, stats.c and config.c are compiled into each.
*/
#ifndef WS_CUDA_INTERNAL_H
#define WS_CUDA_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "warpsim.h"

/* ------------------------------------------------------------------ */
/* Configuration (config.c), read once from the environment            */
/* ------------------------------------------------------------------ */

/* `warpsim exec` sets these; a program can also be run with them by hand. */
#define WSC_ENV_STATS_JSON  "WARPSIM_STATS_JSON"       /* write JSON report here */
#define WSC_ENV_PER_KERNEL  "WARPSIM_STATS_PER_KERNEL" /* 1: a line per launch */
#define WSC_ENV_QUIET       "WARPSIM_QUIET"            /* 1: no text report */
#define WSC_ENV_CONFIG_WARNED "WARPSIM_CONFIG_WARNED"  /* 1: the caller printed the
                                                          configuration's warning */
#define WSC_ENV_ARCH        "WARPSIM_ARCH"             /* simulated GPU, e.g. sm_86 */
#define WSC_ENV_SMS         "WARPSIM_SMS"              /* number of SMs */
#define WSC_ENV_CLOCK_MHZ   "WARPSIM_CLOCK_MHZ"        /* nominal core clock */
#define WSC_ENV_STACK       "WARPSIM_STACK"            /* per-thread local bytes */
#define WSC_ENV_MEMCHECK    "WARPSIM_MEMCHECK"         /* 1: strict global accesses */
#define WSC_ENV_HOST_MEM    "WARPSIM_HOST_MEM_LIMIT"   /* bytes backing device memory
                                                          (a test hook; 0 = unlimited) */
/* the timing model */
#define WSC_ENV_TIMING      "WARPSIM_TIMING"           /* 1: cycle-level timing model */
#define WSC_ENV_CONFIG      "WARPSIM_CONFIG"           /* preset name or config file */
#define WSC_ENV_SET         "WARPSIM_SET"              /* key=value lines (newline-separated) */
#define WSC_ENV_TIMESERIES  "WARPSIM_TIMESERIES"       /* time series file (.json or CSV) */
#define WSC_ENV_REPORT_JSON "WARPSIM_TIMING_REPORT"    /* full timing report (JSON) file */
#define WSC_ENV_LAUNCH_HINT "WARPSIM_LAUNCH_HINT"      /* HALS hints KERNEL:N,... (warpsim_hint.h) */
#define WSC_ENV_PLUGINS     "WARPSIM_PLUGINS"          /* policy plug-ins, ':'-separated */
#define WSC_ENV_KEEP_PTX    "WARPSIM_KEEP_PTX"         /* write the program's PTX here */
#define WSC_ENV_PROGRESS    "WARPSIM_PROGRESS_LIMIT"   /* hang limit, warp insns; 0 = none */

typedef struct wsc_config {
    char stats_json[1024];  /* "" = no JSON file */
    bool per_kernel;
    bool quiet;
    int cc_major, cc_minor; /* compute capability of the simulated GPU */
    uint32_t num_sms;
    uint32_t clock_mhz;
    uint32_t stack_bytes;   /* 0 = library default */
    bool memcheck;          /* ws_options.memcheck */
    uint64_t host_mem_limit;/* ws_options.host_mem_limit, 0 = unlimited */
    /* the timing model (config.c fills these; settings points
       into set_buf, so a wsc_config is not copied once read) */
    bool timing;
    char timing_config[1024];   /* "" = default preset */
    char set_buf[4096];
    const char *settings[65];   /* NULL-terminated, into set_buf */
    char timeseries[1024];      /* "" = none */
    char timing_report[1024];   /* "" = none */
    /* appended: policy plug-ins (ws_options.plugins), "" = none */
    char plugins[4096];
    /* appended: folder for the program's PTX files, "" = a temporary one
       written only when a load fails or a kernel faults (ptx_file.c) */
    char keep_ptx[1024];
    /* appended: ws_options.progress_limit (0 = library default) */
    uint64_t progress_limit;
} wsc_config;

/* Fill `c` from the environment; a bad value is reported on stderr and
   the default kept (the program still runs). */
void wsc_config_read(wsc_config *c);
/* ws_options matching `c`; installs the shim's SIGINT handler (once). */
ws_options wsc_config_options(const wsc_config *c);
/* A launch stopped by SIGINT (WS_ERR_INTERRUPTED): print where every
   warp was (the library's message) and exit with status 130, running
   the exit-time report; otherwise return. */
void wsc_interrupted(ws_ctx *ctx, ws_status st);

/* Device limits shared by props, attributes, occupancy and cuDevice*. */
#define WSC_MAX_THREADS_PER_BLOCK 1024
#define WSC_MAX_THREADS_PER_SM    2048
#define WSC_MAX_BLOCKS_PER_SM     32
#define WSC_SHARED_PER_BLOCK      (48 * 1024)
#define WSC_SHARED_PER_SM         (64 * 1024)
#define WSC_REGS_PER_SM           65536
#define WSC_TOTAL_GLOBAL_MEM      (16ull << 30)
#define WSC_TOTAL_CONST_MEM       (64 * 1024)
#define WSC_L2_BYTES              (4 * 1024 * 1024)
/* copy engines: one host-to-device and one device-to-host, as on GPUs
   from sm_35 on (the runtime's stream timeline models both) */
#define WSC_COPY_ENGINES          2

/* The simulated GPU as the APIs describe it (device.c).  Attribute
   numbers are cudaDevAttr* = CU_DEVICE_ATTRIBUTE_*; -1 if unknown. */
int wsc_device_attr(const wsc_config *c, int attr, int *value);
void wsc_device_name(const wsc_config *c, char *buf, size_t len);
void wsc_device_props(const wsc_config *c, void *cuda_device_prop);

/* ------------------------------------------------------------------ */
/* Fatbinary (fatbin.c)                                                */
/* ------------------------------------------------------------------ */

/* Find the PTX in the fatbinary behind `wrapper` (what nvcc hands to
   __cudaRegisterFatBinary; a bare fatbin header is accepted too), choose
   the newest entry whose architecture is <= cc_major*10+cc_minor and
   return it as a NUL-terminated malloc'ed string in *ptx, with its
   architecture in *arch.  On failure returns -1 with a message for people
   in `err` (e.g. no PTX: which -gencode to add). */
int wsc_fatbin_extract_ptx(const void *wrapper, int cc_major, int cc_minor,
                           char **ptx, int *arch, char *err, size_t errlen);

/* LZ4 block decompression (the fatbinary's older compression); returns
   the number of bytes written or -1 on malformed input. */
long wsc_lz4_decompress(const uint8_t *src, size_t srclen, uint8_t *dst, size_t dstcap);

/* ------------------------------------------------------------------ */
/* PTX files and names for messages (ptx_file.c)                       */
/* ------------------------------------------------------------------ */

/* Where the PTX of a module loaded from memory is (or will be) written:
   <keep_ptx or $TMPDIR/warpsim-PID>/<program>.<what>.ptx; messages about
   the module use this name. */
void wsc_ptx_path(const wsc_config *c, const char *what, char *out, size_t len);
/* Write `ptx` to `path`, creating its folder; -1 (and a message) if not. */
int wsc_ptx_write(const char *path, const char *ptx);
/* Demangled C++ name (malloc'ed), NULL if `name` is not one. */
char *wsc_demangle(const char *name);
/* `msg` with each quoted mangled name ('_Z...') demangled. */
void wsc_demangle_msg(const char *msg, char *out, size_t len);

/* ------------------------------------------------------------------ */
/* Statistics report (stats.c)                                         */
/* ------------------------------------------------------------------ */

typedef struct wsc_kstats {
    char *name;              /* as in the PTX (mangled) */
    char *pretty;            /* demangled when the C++ runtime can, else NULL */
    uint64_t launches, ctas, warps, warp_insns, thread_insns, cycles;
    /* for characterization: memory and barrier warp instructions,
       shortest and longest warp over all launches (0 = no warp ran), and
       the sum of squared warp lengths (ws_stats.warp_insns_sq) */
    uint64_t mem_insns, bar_insns, warp_insns_min, warp_insns_max;
    double warp_insns_sq;
    uint64_t reg_hash;       /* ws_stats.reg_hash, summed (wrapping) */
    /* timing model counters, summed over launches */
    uint64_t l1d_accesses, l1d_hits, l1d_misses, lsu_stall_cycles;
    uint64_t untimed;        /* launches fast-forward ran functionally */
    ws_tstats *t;            /* the library's full counters (timing only) */
} wsc_kstats;

typedef struct wsc_launch_rec {
    uint32_t kernel;         /* index into wsc_stats.kernels */
    ws_dim3 grid, block;
    uint64_t shared;         /* dynamic shared bytes */
    ws_stats s;
    uint64_t cycles;         /* nominal simulated cycles */
    bool failed;
    ws_tstats *t;            /* the library's full counters (timing only) */
} wsc_launch_rec;

typedef struct wsc_stats {
    wsc_kstats *kernels;     /* in order of first launch */
    uint32_t nkernels, cap_kernels;
    wsc_launch_rec *launches;  /* kept only when per_kernel */
    uint64_t nlaunches, cap_launches;
    uint64_t total_launches;
    uint64_t cycles;         /* simulated clock: sum over launches */
    ws_tstats *t;            /* timing: every launch's full counters, summed */
} wsc_stats;

/* Nominal simulated cycles of a launch: one warp instruction per SM per
   cycle over the SMs the grid can occupy (see stats.c). */
uint64_t wsc_launch_cycles(const ws_stats *s, uint32_t num_sms);
/* Record a finished (or faulted) launch, the last one `ctx` ran; prints
   its line when per_kernel. */
void wsc_stats_add(wsc_stats *st, const wsc_config *c, const ws_ctx *ctx, const char *kernel,
                   ws_dim3 grid, ws_dim3 block, size_t shared, const ws_stats *s, bool failed);
/* Text summary on `out` unless quiet, and the JSON file if configured. */
void wsc_stats_report(const wsc_stats *st, const wsc_config *c, const char *api, FILE *out);
void wsc_stats_free(wsc_stats *st);

/* ------------------------------------------------------------------ */
/* Calls the shim does not implement (stubs generated by cmake/cuda.cmake)*/
/* ------------------------------------------------------------------ */

/* Print once per name that `name` is not supported; return 801
   (cudaErrorNotSupported / CUDA_ERROR_NOT_SUPPORTED). */
int wsc_cudart_unsupported(const char *name);
int wsc_driver_unsupported(const char *name);

/* ------------------------------------------------------------------ */
/* Thread safety (lock.c)                                              */
/* ------------------------------------------------------------------ */

/* Take the shim's recursive lock until the enclosing block ends: the
   first statement of every exported entry point that touches state.
   The cleanup attribute releases it on every return path. */
int wsc_lock(void);
void wsc_unlock_guard(int *guard);
#define WSC_LOCK() \
    __attribute__((cleanup(wsc_unlock_guard), unused)) int wsc_guard_ = wsc_lock()

/* Make room for element n of the array *arr of *cap elements of `elem`
   bytes (doubling, from 16); 0, or -1 with the array unchanged. */
int wsc_grow(void **arr, int *cap, int n, size_t elem);

/* "warpsim: " + message on stderr. */
void wsc_msg(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Hand WARPSIM_LAUNCH_HINT, as it is now, to `ctx` before a launch (a
   program may change it between launches: warpsim_hint.h).  WS_OK, or
   the error of a malformed value, which is printed naming the variable. */
ws_status wsc_launch_hints(ws_ctx *ctx);

#endif /* WS_CUDA_INTERNAL_H */
