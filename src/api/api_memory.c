/*
** api_memory.c -- device memory from the host: ws_malloc/ws_free and the
** copies.  Every device range must lie inside one live allocation (or in
** the constant bank, addressed through EMU_CONST_WINDOW); otherwise the
** call fails with a message naming the address and nearest allocation.
** Live allocations are counted against ws_options.device_mem_bytes, and a
** copy the host cannot back with memory fails (WS_ERR_NOMEM): written data
** is never dropped silently.  With the timing model, host-to-device and
** device-to-host copies of global memory tell it which lines they touched
** (l2.warm_on_copy, GPGPU-Sim's -gpgpu_perf_sim_memcpy: its memcpy_to_gpu
** and memcpy_from_gpu do, its device-to-device copy and memset do not).
*/
#include "api_internal.h"
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

bool ws__in_const(const ws_ctx *ctx, uint64_t addr, uint64_t n)
{
    return addr >= EMU_CONST_WINDOW && addr - EMU_CONST_WINDOW <= ctx->cmem_size &&
           n <= ctx->cmem_size - (addr - EMU_CONST_WINDOW);
}

/* 0 if [addr, addr+n) is device memory the host may copy to/from. */
static ws_status check_range(ws_ctx *ctx, const char *fn, const char *which,
                             uint64_t addr, uint64_t n)
{
    if (ws__in_const(ctx, addr, n)) return WS_OK;
    if (addr + n >= addr && emu_mem_valid(ctx->mem, addr, n)) return WS_OK;
    char desc[256];
    if (addr >= EMU_CONST_WINDOW && addr < EMU_CONST_WINDOW + EMU_WINDOW_SIZE)
        snprintf(desc, sizeof desc, "the constant bank holds %u bytes", ctx->cmem_size);
    else if (emu_mem_valid(ctx->mem, addr, 1)) {
        uint64_t lo = 1, hi = n;   /* longest valid prefix, by bisection */
        while (lo < hi) {
            uint64_t mid = lo + (hi - lo + 1) / 2;
            if (emu_mem_valid(ctx->mem, addr, mid)) lo = mid; else hi = mid - 1;
        }
        char d2[200];
        emu_mem_describe(ctx->mem, addr + lo, d2, sizeof d2);
        snprintf(desc, sizeof desc, "it runs past the end: %s", d2);
    } else
        emu_mem_describe(ctx->mem, addr, desc, sizeof desc);
    return ws__error(ctx, WS_ERR_INVALID, "%s: %s range [0x%" PRIx64 ", +%" PRIu64
                     ") is not inside one device allocation: %s", fn, which, addr, n, desc);
}

ws_status ws_malloc(ws_ctx *ctx, size_t bytes, ws_devptr *out)
{
    if (!ctx) return WS_ERR_INVALID;
    if (!out) return ws__error(ctx, WS_ERR_INVALID, "ws_malloc: the output pointer is NULL");
    *out = 0;
    if (bytes == 0) return ws__error(ctx, WS_ERR_INVALID, "ws_malloc: size 0");
    uint64_t used = emu_mem_live_bytes(ctx->mem), total = ctx->opts.device_mem_bytes;
    if (total && (bytes > total || used > total - bytes))
        return ws__error(ctx, WS_ERR_NOMEM, "ws_malloc: %zu bytes do not fit: %" PRIu64
                         " of the device's %" PRIu64 " bytes are allocated", bytes, used,
                         total);
    if (emu_mem_alloc(ctx->mem, bytes, 256, EMU_ALLOC_DEVICE, NULL, out))
        return ws__error(ctx, WS_ERR_NOMEM, "ws_malloc: cannot allocate %zu bytes of device "
                         "memory", bytes);
    return WS_OK;
}

static bool is_module_global(const ws_ctx *ctx, uint64_t addr, const char **name)
{
    for (int m = 0; m < ctx->nmods; m++) {
        const ws_module *mod = ctx->mods[m];
        for (uint32_t i = 0; i < mod->pm->nvars; i++)
            if (mod->pm->vars[i].space == PTX_SPACE_GLOBAL && mod->var_addr[i] == addr) {
                *name = mod->pm->vars[i].name;
                return true;
            }
    }
    return false;
}

ws_status ws_free(ws_ctx *ctx, ws_devptr ptr)
{
    if (!ctx) return WS_ERR_INVALID;
    if (ptr == 0) return WS_OK;   /* like cudaFree(NULL) */
    const char *name;
    if (is_module_global(ctx, ptr, &name))
        return ws__error(ctx, WS_ERR_INVALID, "ws_free: 0x%" PRIx64 " is module variable "
                         "'%s', which belongs to its module", ptr, name);
    int rc = emu_mem_release(ctx->mem, ptr);
    if (rc == 0) return WS_OK;
    char desc[256];
    emu_mem_describe(ctx->mem, ptr, desc, sizeof desc);
    if (rc == -2)
        return ws__error(ctx, WS_ERR_INVALID, "ws_free: double free: 0x%" PRIx64 " was "
                         "already freed (%s)", ptr, desc);
    return ws__error(ctx, WS_ERR_INVALID, "ws_free: 0x%" PRIx64 " is not the start of a "
                     "live allocation (%s)", ptr, desc);
}

ws_status ws_mem_info(const ws_ctx *ctx, size_t *free_bytes, size_t *total_bytes)
{
    if (!ctx) return WS_ERR_INVALID;
    uint64_t total = ctx->opts.device_mem_bytes ? ctx->opts.device_mem_bytes
                                                : EMU_GLOBAL_LIMIT - EMU_GLOBAL_HEAP_BASE;
    uint64_t used = emu_mem_live_bytes(ctx->mem);
    if (free_bytes) *free_bytes = (size_t)(used < total ? total - used : 0);
    if (total_bytes) *total_bytes = (size_t)total;
    return WS_OK;
}

unsigned ws_mem_warnings(ws_ctx *ctx, FILE *out)
{
    if (!ctx) return 0;
    ctx->oob_taken = true;
    return emu_oob_report(ctx->oob, out);
}

/* A write into device memory that the host could not back with pages. */
static ws_status nomem(ws_ctx *ctx, const char *fn, ws_devptr dst, size_t bytes)
{
    return ws__error(ctx, WS_ERR_NOMEM, "%s: host out of memory backing device memory: "
                     "[0x%" PRIx64 ", +%zu) was not completely written", fn, dst, bytes);
}

/* Write host bytes into device memory, or fail naming what was lost. */
static ws_status write_dev(ws_ctx *ctx, const char *fn, ws_devptr dst, const void *src,
                           size_t bytes)
{
    return emu_mem_write(ctx->mem, dst, src, bytes) ? nomem(ctx, fn, dst, bytes) : WS_OK;
}

/* Host pointer into the constant bank, or NULL for global memory. */
static uint8_t *const_ptr(ws_ctx *ctx, uint64_t addr, uint64_t n)
{
    return (n && ws__in_const(ctx, addr, n)) ? ctx->cmem + (addr - EMU_CONST_WINDOW) : NULL;
}

ws_status ws_memcpy_htod(ws_ctx *ctx, ws_devptr dst, const void *src, size_t bytes)
{
    if (!ctx) return WS_ERR_INVALID;
    if (!bytes) return WS_OK;
    if (!src) return ws__error(ctx, WS_ERR_INVALID, "ws_memcpy_htod: the host source is NULL");
    ws_status st = check_range(ctx, "ws_memcpy_htod", "destination", dst, bytes);
    if (st) return st;
    uint8_t *c = const_ptr(ctx, dst, bytes);
    if (c) {
        memcpy(c, src, bytes);
        return WS_OK;
    }
    st = write_dev(ctx, "ws_memcpy_htod", dst, src, bytes);
    if (!st) ws__timing_copy(ctx, dst, bytes);
    return st;
}

ws_status ws_memcpy_dtoh(ws_ctx *ctx, void *dst, ws_devptr src, size_t bytes)
{
    if (!ctx) return WS_ERR_INVALID;
    if (!bytes) return WS_OK;
    if (!dst) return ws__error(ctx, WS_ERR_INVALID, "ws_memcpy_dtoh: the host destination is NULL");
    ws_status st = check_range(ctx, "ws_memcpy_dtoh", "source", src, bytes);
    if (st) return st;
    uint8_t *c = const_ptr(ctx, src, bytes);
    if (c) {
        memcpy(dst, c, bytes);
        return WS_OK;
    }
    emu_mem_read(ctx->mem, src, dst, bytes);
    ws__timing_copy(ctx, src, bytes);   /* GPGPU-Sim's memcpy_from_gpu warms too */
    return WS_OK;
}

ws_status ws_memcpy_dtod(ws_ctx *ctx, ws_devptr dst, ws_devptr src, size_t bytes)
{
    if (!ctx) return WS_ERR_INVALID;
    if (!bytes) return WS_OK;
    ws_status st = check_range(ctx, "ws_memcpy_dtod", "source", src, bytes);
    if (!st) st = check_range(ctx, "ws_memcpy_dtod", "destination", dst, bytes);
    if (st) return st;
    uint8_t *tmp = malloc(bytes);
    if (!tmp) return ws__error(ctx, WS_ERR_NOMEM, "ws_memcpy_dtod: out of host memory");
    uint8_t *c = const_ptr(ctx, src, bytes);
    if (c) memcpy(tmp, c, bytes);
    else emu_mem_read(ctx->mem, src, tmp, bytes);
    c = const_ptr(ctx, dst, bytes);
    st = WS_OK;
    if (c) memcpy(c, tmp, bytes);
    else st = write_dev(ctx, "ws_memcpy_dtod", dst, tmp, bytes);
    free(tmp);
    return st;
}

ws_status ws_memset(ws_ctx *ctx, ws_devptr dst, int value, size_t bytes)
{
    if (!ctx) return WS_ERR_INVALID;
    if (!bytes) return WS_OK;
    ws_status st = check_range(ctx, "ws_memset", "destination", dst, bytes);
    if (st) return st;
    uint8_t *c = const_ptr(ctx, dst, bytes);
    if (c) { memset(c, value, bytes); return WS_OK; }
    uint8_t chunk[4096];
    memset(chunk, value, sizeof chunk);
    for (size_t off = 0; off < bytes; off += sizeof chunk)
        if (emu_mem_write(ctx->mem, dst + off, chunk,
                          bytes - off < sizeof chunk ? bytes - off : sizeof chunk))
            return nomem(ctx, "ws_memset", dst, bytes);
    return WS_OK;
}

int ws_is_device_range(ws_devptr addr)
{
    return addr >= EMU_GLOBAL_HEAP_BASE && addr < EMU_CONST_WINDOW + EMU_WINDOW_SIZE;
}
