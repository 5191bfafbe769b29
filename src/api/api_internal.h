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

#define WS_DEFAULT_STACK     1024u
#define WS_DEFAULT_SMS       15u
#define WS_DEFAULT_MAX_SHARED (48u * 1024u)

struct ws_kernel {
    ws_module *mod;
    uint32_t func;             /* function index in mod->pm */
    uint64_t *sym_base;        /* per module variable, for emu_launch */
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
};

struct ws_ctx {
    ws_options opts;           /* with defaults filled in */
    emu_mem *mem;
    uint8_t *cmem;             /* constant bank */
    uint32_t cmem_size, cmem_cap;
    ws_module **mods;
    int nmods, cap_mods;
    ws_status pending;         /* last launch failure, for ws_synchronize */
    ws_stats last, total;
    char err[1024];
};

/* Record `fmt` as the last error and return `st`. */
ws_status ws__error(ws_ctx *ctx, ws_status st, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* 1 if [addr, addr+n) lies in the constant bank window of `ctx`. */
bool ws__in_const(const ws_ctx *ctx, uint64_t addr, uint64_t n);

#endif /* WS_API_INTERNAL_H */
