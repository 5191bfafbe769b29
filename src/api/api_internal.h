/*
** api_internal.h -- the structures behind the opaque handles of warpsim.h,
** shared by the api_*.c files only.
**
** A context owns the device memory, one constant bank shared by all its
** modules (each module's .const variables get their own range, so a
** generic constant address names one variable unambiguously), and the
** list of loaded modules.
*/
#ifndef WS_API_INTERNAL_H
#define WS_API_INTERNAL_H

#include <stdbool.h>
#include "warpsim.h"
#include "ptx/ptx.h"
#include "emu/emu.h"
#include "emu/emu_tex.h"
#include "gpu/gpu.h"
#include "gpu/ffwd.h"

#define WS_DEFAULT_STACK     1024u
#define WS_DEFAULT_SMS       15u
#define WS_DEFAULT_MAX_SHARED (48u * 1024u)
#define WS_MEMCHECK_QUARANTINE (1u << 20)  /* freed allocations memcheck keeps */

struct ws_kernel {
    ws_module *mod;
    uint32_t func;             /* function index in mod->pm */
    uint64_t *sym_base;        /* per module variable, for emu_launch */
    int ptxas_regs;            /* registers per thread from `ptxas -v`; 0 = none */
};

struct ws_module {
    ws_ctx *ctx;
    ptx_module *pm;
    uint64_t *var_addr;        /* global: device address; const: bank offset;
                                  local: offset in each thread's stack */
    uint32_t local_static;     /* bytes of module-scope .local variables */
    uint32_t cmem_begin, cmem_end; /* this module's range of the bank */
    ws_kernel *kernels;
    int nkernels;
    char *ptx_text;            /* kept for `ptxas -v` (timing + use_ptxas) */
    bool ptxas_done;           /* ptxas was run (or could not be) */
};

struct ws_ctx {
    ws_options opts;           /* with defaults filled in */
    emu_mem *mem;
    emu_oob_log *oob;          /* out-of-allocation sites; NULL under memcheck */
    bool oob_taken;            /* the caller took them (ws_mem_warnings): not
                                  written again at ws_ctx_destroy */
    uint8_t *cmem;             /* constant bank */
    uint32_t cmem_size, cmem_cap;
    ws_module **mods;
    int nmods, cap_mods;
    ws_status pending;         /* last launch failure, for ws_synchronize */
    ws_stats last, total;
    char err[EMU_FAULT_MSG];   /* room for a hang's per-warp dump */
    /* timing model (api_timing.c); gpu is NULL when functional only */
    gpu *gpu;
    gpu_config cfg;
    gpu_kernel_stats *kstats;  /* one per timed launch, in order */
    uint32_t nkstats, cap_kstats;
    /* fast-forward: which launches the timing model runs (gpu/ffwd.h) */
    gpu_ffwd ffwd;
    bool last_untimed;         /* the last launch was fast-forwarded */
    char *report_json, *timeseries;  /* copies of the options' paths */
    char warn[16384];
    /* the policies cfg names resolve in, when plug-ins were given (NULL =
       built-ins); freed last, after every policy instance of gpu */
    struct ws_registry *registry;
    /* texture and surface objects (api_texture.c), seen by launches */
    emu_tex_table tex;
    /* HALS launch hints over the configuration's (ws_ctx_set_launch_hints) */
    char *hints;
};

/* Record `fmt` as the last error and return `st`. */
ws_status ws__error(ws_ctx *ctx, ws_status st, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* 1 if [addr, addr+n) lies in the constant bank window of `ctx`. */
bool ws__in_const(const ws_ctx *ctx, uint64_t addr, uint64_t n);

/* ---- policy plug-ins (api_plugin.c) ---- */

/* A registry with the plug-ins of the colon-separated list `plugins`
   loaded, into *out; NULL (built-ins only) when the list names none.
   WS_OK, or WS_ERR_INVALID / WS_ERR_NOMEM with a message naming the file. */
ws_status ws__registry_open(const char *plugins, struct ws_registry **out, char *err,
                            size_t errlen);

/* ---- timing model glue (api_timing.c) ---- */

/* Build and check the configuration (policy names in ctx->registry),
   create the GPU. 0 or -1 with err. */
ws_status ws__timing_init(ws_ctx *ctx, const ws_options *opts, char *err, size_t errlen);
/* Write the reports the options asked for and free the timing state. */
void ws__timing_fini(ws_ctx *ctx);
/* Run launch `l` of kernel `k` on the model; fills ctx->last's counters
   and records the launch's statistics. 0, or -1 with the message in ctx. */
int ws__timing_launch(ws_ctx *ctx, ws_kernel *k, emu_launch *l);
/* The host copied to or from global range [addr, +bytes): the timing
   model's memory hears of it (l2.warm_on_copy); nothing without timing. */
void ws__timing_copy(ws_ctx *ctx, uint64_t addr, uint64_t bytes);

#endif /* WS_API_INTERNAL_H */
