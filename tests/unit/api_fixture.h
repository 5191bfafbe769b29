/*
** api_fixture.h -- a test fixture over the public host API: a context whose
** device printf goes to a memory buffer, one module loaded from a string,
** and short helpers to allocate, launch and check. Include after cmocka.h.
*/
#ifndef WS_TEST_API_FIXTURE_H
#define WS_TEST_API_FIXTURE_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "warpsim.h"

typedef struct fx {
    ws_ctx *ctx;
    ws_module *mod;
    FILE *out;
    char *outbuf;
    size_t outlen;
} fx;

/* Like fx_open with the options `o` (printf_out is set to the buffer). */
static inline void fx_open_opts(fx *f, const char *ptx, const char *name, ws_options o)
{
    memset(f, 0, sizeof *f);
    f->out = open_memstream(&f->outbuf, &f->outlen);
    assert_non_null(f->out);
    o.printf_out = f->out;
    f->ctx = ws_ctx_create(&o);
    assert_non_null(f->ctx);
    ws_status st = ws_module_load_string(f->ctx, ptx, name, &f->mod);
    if (st != WS_OK) fail_msg("load: %s: %s", ws_status_name(st), ws_last_error(f->ctx));
}

static inline void fx_open(fx *f, const char *ptx, const char *name, uint32_t stack)
{
    memset(f, 0, sizeof *f);
    f->out = open_memstream(&f->outbuf, &f->outlen);
    assert_non_null(f->out);
    ws_options o;
    memset(&o, 0, sizeof o);
    o.printf_out = f->out;
    o.stack_bytes = stack;
    f->ctx = ws_ctx_create(&o);
    assert_non_null(f->ctx);
    ws_status st = ws_module_load_string(f->ctx, ptx, name, &f->mod);
    if (st != WS_OK) fail_msg("load: %s: %s", ws_status_name(st), ws_last_error(f->ctx));
}

static inline void fx_close(fx *f)
{
    ws_ctx_destroy(f->ctx);
    fclose(f->out);
    free(f->outbuf);
}

static inline ws_devptr fx_alloc(fx *f, const void *init, size_t bytes)
{
    ws_devptr p;
    assert_int_equal(ws_malloc(f->ctx, bytes, &p), WS_OK);
    if (init) assert_int_equal(ws_memcpy_htod(f->ctx, p, init, bytes), WS_OK);
    else assert_int_equal(ws_memset(f->ctx, p, 0, bytes), WS_OK);
    return p;
}

static inline ws_status fx_launch(fx *f, const char *kernel, ws_dim3 g, ws_dim3 b, void **args)
{
    ws_kernel *k;
    ws_status st = ws_module_get_kernel(f->mod, kernel, &k);
    if (st != WS_OK) fail_msg("%s: %s", kernel, ws_last_error(f->ctx));
    return ws_launch(f->ctx, k, g, b, args, 0);
}

#define FX_OK(f, call)                                                        \
    do {                                                                      \
        ws_status st_ = (call);                                               \
        if (st_ != WS_OK)                                                     \
            fail_msg("%s -> %s: %s", #call, ws_status_name(st_),              \
                     ws_last_error((f)->ctx));                                \
    } while (0)

static const ws_dim3 D1 = { 1, 1, 1 };
static inline ws_dim3 dim(uint32_t x) { ws_dim3 d = { x, 1, 1 }; return d; }

#endif /* WS_TEST_API_FIXTURE_H */
