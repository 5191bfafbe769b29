/*
** test_kernels.h -- helpers for the end-to-end kernel tests
** (test_kernels*.c): load a bundled PTX file, move buffers, launch, and
** fail the cmocka test with ws_last_error() when an API call fails.
** Inputs come from a fixed-seed LCG so every run sees the same data.
*/
#ifndef WS_TEST_KERNELS_H
#define WS_TEST_KERNELS_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "helpers.h"
#include "warpsim.h"

/* Fail the test unless `call` returns WS_OK; print the library's message. */
#define TK_OK(ctx, call)                                                      \
    do {                                                                      \
        ws_status tk_st_ = (call);                                            \
        if (tk_st_ != WS_OK)                                                  \
            fail_msg("%s -> %s: %s", #call, ws_status_name(tk_st_),           \
                     ws_last_error(ctx));                                     \
    } while (0)

static inline uint32_t tk_rand(uint64_t *state)
{
    *state = *state * 6364136223846793005ull + 1442695040888963407ull;
    return (uint32_t)(*state >> 32);
}

/* Uniform integer in [lo, hi]. */
static inline int tk_rand_range(uint64_t *state, int lo, int hi)
{
    return lo + (int)(tk_rand(state) % (uint32_t)(hi - lo + 1));
}

static inline ws_ctx *tk_ctx(FILE *printf_out, uint32_t stack_bytes)
{
    ws_options o;
    memset(&o, 0, sizeof o);
    o.printf_out = printf_out;
    o.stack_bytes = stack_bytes;
    ws_ctx *ctx = ws_ctx_create(&o);
    assert_non_null(ctx);
    return ctx;
}

/* Load tests/kernels/<file> (the committed PTX). */
static inline ws_module *tk_load(ws_ctx *ctx, const char *file)
{
    char rel[256];
    ws_module *mod = NULL;
    snprintf(rel, sizeof rel, "tests/kernels/%s", file);
    TK_OK(ctx, ws_module_load_file(ctx, th_source_path(rel), &mod));
    assert_non_null(mod);
    return mod;
}

/* Kernel by exact name, else the one kernel whose (mangled) name contains
   `part` -- so tests of C++ kernels need not spell out the mangling. */
static inline ws_kernel *tk_kernel(ws_ctx *ctx, ws_module *mod, const char *part)
{
    ws_kernel *k = NULL;
    const char *found = NULL;
    if (ws_module_get_kernel(mod, part, &k) == WS_OK && k)
        return k;
    for (int i = 0; i < ws_module_kernel_count(mod); i++) {
        ws_kernel_info info;
        if (ws_module_kernel_info(mod, i, &info) == WS_OK && strstr(info.name, part)) {
            if (found)
                fail_msg("kernel name part '%s' matches %s and %s", part, found, info.name);
            found = info.name;
        }
    }
    if (!found)
        fail_msg("no kernel matching '%s'", part);
    TK_OK(ctx, ws_module_get_kernel(mod, found, &k));
    return k;
}

static inline ws_devptr tk_upload(ws_ctx *ctx, const void *src, size_t bytes)
{
    ws_devptr p = 0;
    TK_OK(ctx, ws_malloc(ctx, bytes, &p));
    TK_OK(ctx, ws_memcpy_htod(ctx, p, src, bytes));
    return p;
}

/* `bytes` of device memory, every byte set to `fill`. */
static inline ws_devptr tk_alloc(ws_ctx *ctx, size_t bytes, int fill)
{
    ws_devptr p = 0;
    TK_OK(ctx, ws_malloc(ctx, bytes, &p));
    TK_OK(ctx, ws_memset(ctx, p, fill, bytes));
    return p;
}

static inline void tk_download(ws_ctx *ctx, void *dst, ws_devptr src, size_t bytes)
{
    TK_OK(ctx, ws_memcpy_dtoh(ctx, dst, src, bytes));
}

static inline void tk_launch(ws_ctx *ctx, ws_kernel *k, ws_dim3 grid, ws_dim3 block,
                             void **args, size_t dyn_shared)
{
    TK_OK(ctx, ws_launch(ctx, k, grid, block, args, dyn_shared));
}

static inline ws_dim3 tk_dim(uint32_t x, uint32_t y, uint32_t z)
{
    ws_dim3 d = {x, y, z};
    return d;
}

/* Compare int arrays; the failure names the first differing index. */
static inline void tk_expect_ints(const char *what, const int32_t *got, const int32_t *want,
                                  size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (got[i] != want[i])
            fail_msg("%s[%zu] = %d (0x%08x), expected %d (0x%08x)", what, i, got[i],
                     (uint32_t)got[i], want[i], (uint32_t)want[i]);
}

static inline void tk_expect_u32s(const char *what, const uint32_t *got, const uint32_t *want,
                                  size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (got[i] != want[i])
            fail_msg("%s[%zu] = %u (0x%08x), expected %u (0x%08x)", what, i, got[i], got[i],
                     want[i], want[i]);
}

/* Bitwise float comparison: results the hardware rounds exactly. */
static inline void tk_expect_floats_exact(const char *what, const float *got, const float *want,
                                          size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (memcmp(&got[i], &want[i], 4) != 0)
            fail_msg("%s[%zu] = %.9g, expected %.9g", what, i, (double)got[i], (double)want[i]);
}

#endif /* WS_TEST_KERNELS_H */
