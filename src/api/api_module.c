/*
** api_module.c -- loading PTX modules: parsing, placing module-scope
** variables (.global in device memory, .const in the context's constant
** bank, .local at the bottom of each thread's stack), kernel lookup.
*/
#include "api_internal.h"
#include <errno.h>
#include <stdlib.h>
#include <string.h>

static uint64_t align_up(uint64_t x, uint64_t a) { return a > 1 ? (x + a - 1) / a * a : x; }

/* Append `mod`'s .const variables to the context's constant bank. */
static ws_status place_const(ws_ctx *ctx, ws_module *mod)
{
    const ptx_module *pm = mod->pm;
    uint64_t end = ctx->cmem_size;
    mod->cmem_begin = ctx->cmem_size;
    for (uint32_t i = 0; i < pm->nvars; i++) {
        const ptx_var *v = &pm->vars[i];
        if (v->space != PTX_SPACE_CONST || v->is_func_scope) continue;
        end = align_up(end, v->align ? v->align : 4);
        mod->var_addr[i] = end;
        end += v->size;
    }
    if (end > EMU_WINDOW_SIZE / 2)
        return ws__error(ctx, WS_ERR_NOMEM, "module '%s': constant memory exhausted",
                         pm->filename ? pm->filename : "");
    if (end > ctx->cmem_cap) {
        uint64_t cap = ctx->cmem_cap ? ctx->cmem_cap : 4096;
        while (cap < end) cap *= 2;
        uint8_t *c = realloc(ctx->cmem, cap);
        if (!c) return ws__error(ctx, WS_ERR_NOMEM, "out of host memory for constant memory");
        memset(c + ctx->cmem_cap, 0, cap - ctx->cmem_cap);
        ctx->cmem = c;
        ctx->cmem_cap = (uint32_t)cap;
    }
    for (uint32_t i = 0; i < pm->nvars; i++) {
        const ptx_var *v = &pm->vars[i];
        if (v->space == PTX_SPACE_CONST && !v->is_func_scope && v->init)
            memcpy(ctx->cmem + mod->var_addr[i], v->init, v->size);
    }
    ctx->cmem_size = (uint32_t)end;
    mod->cmem_end = (uint32_t)end;
    return WS_OK;
}

/* Allocate `mod`'s .global variables (initialised) and lay out .local ones. */
static ws_status place_vars(ws_ctx *ctx, ws_module *mod)
{
    const ptx_module *pm = mod->pm;
    uint64_t local = 0;
    for (uint32_t i = 0; i < pm->nvars; i++) {
        const ptx_var *v = &pm->vars[i];
        if (v->is_func_scope) continue;
        if (v->space == PTX_SPACE_GLOBAL) {
            uint64_t addr;
            if (emu_mem_alloc(ctx->mem, v->size ? v->size : 1, v->align ? v->align : 1,
                              EMU_ALLOC_MODULE_GLOBAL, v->name, &addr))
                return ws__error(ctx, WS_ERR_NOMEM, "no device memory for variable '%s' "
                                 "(%llu bytes)", v->name, (unsigned long long)v->size);
            mod->var_addr[i] = addr;
            if (v->init && emu_mem_write(ctx->mem, addr, v->init, v->size))
                return ws__error(ctx, WS_ERR_NOMEM, "host out of memory for the initial "
                                 "value of variable '%s' (%llu bytes)", v->name,
                                 (unsigned long long)v->size);
        } else if (v->space == PTX_SPACE_LOCAL) {
            local = align_up(local, v->align ? v->align : 4);
            mod->var_addr[i] = local;
            local += v->size;
        }
    }
    mod->local_static = (uint32_t)align_up(local, 16);
    return place_const(ctx, mod);
}

/* Per-kernel symbol table for emu_launch.sym_base. */
static ws_status build_kernel(ws_module *mod, ws_kernel *k, uint32_t f)
{
    const ptx_module *pm = mod->pm;
    const ptx_func *fn = &pm->funcs[f];
    k->mod = mod;
    k->func = f;
    k->sym_base = calloc(pm->nvars ? pm->nvars : 1, sizeof *k->sym_base);
    if (!k->sym_base) return WS_ERR_NOMEM;
    uint32_t al = fn->dyn_shared_align ? fn->dyn_shared_align : 16;
    uint64_t dyn_off = align_up(fn->shared_size, al);
    for (uint32_t i = 0; i < pm->nvars; i++) {
        const ptx_var *v = &pm->vars[i];
        if (v->space == PTX_SPACE_SHARED)
            k->sym_base[i] = v->is_extern ? dyn_off
                           : (fn->shared_off && fn->shared_off[i] >= 0) ? (uint64_t)fn->shared_off[i]
                           : 0;
        else
            k->sym_base[i] = mod->var_addr[i];
    }
    return WS_OK;
}

static int add_to_ctx(ws_ctx *ctx, ws_module *mod)
{
    if (ctx->nmods == ctx->cap_mods) {
        int cap = ctx->cap_mods ? ctx->cap_mods * 2 : 4;
        ws_module **m = realloc(ctx->mods, (size_t)cap * sizeof *m);
        if (!m) return -1;
        ctx->mods = m;
        ctx->cap_mods = cap;
    }
    ctx->mods[ctx->nmods++] = mod;
    return 0;
}

/* `text` (may be NULL) is kept for `ptxas -v` when the timing model will
   ask for register counts. */
static ws_status load_parsed(ws_ctx *ctx, ptx_module *pm, const char *text, ws_module **out)
{
    ws_module *mod = calloc(1, sizeof *mod);
    if (!mod) { ptx_module_free(pm); return ws__error(ctx, WS_ERR_NOMEM, "out of host memory"); }
    mod->ctx = ctx;
    mod->pm = pm;
    mod->cmem_begin = mod->cmem_end = ctx->cmem_size;
    mod->var_addr = calloc(pm->nvars ? pm->nvars : 1, sizeof *mod->var_addr);
    int nk = 0;
    for (uint32_t i = 0; i < pm->nfuncs; i++) nk += pm->funcs[i].is_entry && !pm->funcs[i].is_extern;
    mod->kernels = calloc(nk ? (size_t)nk : 1, sizeof *mod->kernels);
    if (text && ctx->gpu && ctx->cfg.use_ptxas) mod->ptx_text = strdup(text);
    if (!mod->var_addr || !mod->kernels || add_to_ctx(ctx, mod)) {
        free(mod->var_addr); free(mod->kernels); free(mod->ptx_text); free(mod);
        ptx_module_free(pm);
        return ws__error(ctx, WS_ERR_NOMEM, "out of host memory");
    }
    ws_status st = place_vars(ctx, mod);
    for (uint32_t i = 0; st == WS_OK && i < pm->nfuncs; i++)
        if (pm->funcs[i].is_entry && !pm->funcs[i].is_extern)
            if ((st = build_kernel(mod, &mod->kernels[mod->nkernels++], i)) != WS_OK)
                ws__error(ctx, st, "out of host memory");
    if (st != WS_OK) {
        ws_module_unload(mod);
        return st;
    }
    *out = mod;
    return WS_OK;
}

ws_status ws_module_load_string(ws_ctx *ctx, const char *ptx, const char *name,
                                ws_module **out)
{
    if (!ctx) return WS_ERR_INVALID;
    if (!ptx || !out)
        return ws__error(ctx, WS_ERR_INVALID, "ws_module_load_string: %s is NULL",
                         !ptx ? "the PTX text" : "the output pointer");
    *out = NULL;
    ptx_error err;
    memset(&err, 0, sizeof err);
    ptx_module *pm = ptx_parse(ptx, strlen(ptx), name ? name : "<string>", &err);
    if (!pm) return ws__error(ctx, WS_ERR_PARSE, "%s", err.msg[0] ? err.msg : "parse error");
    return load_parsed(ctx, pm, ptx, out);
}

ws_status ws_module_load_file(ws_ctx *ctx, const char *path, ws_module **out)
{
    if (!ctx) return WS_ERR_INVALID;
    if (!path || !out)
        return ws__error(ctx, WS_ERR_INVALID, "ws_module_load_file: %s is NULL",
                         !path ? "the path" : "the output pointer");
    *out = NULL;
    FILE *f = fopen(path, "rb");
    if (!f) return ws__error(ctx, WS_ERR_IO, "cannot open '%s': %s", path, strerror(errno));
    char *text = NULL;
    size_t len = 0, cap = 0;
    for (;;) {
        if (len + 65536 + 1 > cap) {
            cap = cap ? cap * 2 : 131072;
            char *t = realloc(text, cap);
            if (!t) { free(text); fclose(f); return ws__error(ctx, WS_ERR_NOMEM, "out of host memory reading '%s'", path); }
            text = t;
        }
        size_t n = fread(text + len, 1, cap - len - 1, f);
        len += n;
        if (n == 0) break;
    }
    int bad = ferror(f);
    fclose(f);
    if (bad) { free(text); return ws__error(ctx, WS_ERR_IO, "cannot read '%s'", path); }
    text[len] = 0;
    ptx_error err;
    memset(&err, 0, sizeof err);
    ptx_module *pm = ptx_parse(text, len, path, &err);
    if (!pm) {
        free(text);
        return ws__error(ctx, WS_ERR_PARSE, "%s", err.msg[0] ? err.msg : "parse error");
    }
    ws_status st = load_parsed(ctx, pm, text, out);
    free(text);
    return st;
}

void ws_module_unload(ws_module *mod)
{
    if (!mod) return;
    ws_ctx *ctx = mod->ctx;
    const ptx_module *pm = mod->pm;
    for (uint32_t i = 0; i < pm->nvars; i++)
        if (pm->vars[i].space == PTX_SPACE_GLOBAL && !pm->vars[i].is_func_scope &&
            mod->var_addr[i])
            emu_mem_release(ctx->mem, mod->var_addr[i]);
    if (mod->cmem_end == ctx->cmem_size && mod->cmem_end > mod->cmem_begin)
        ctx->cmem_size = mod->cmem_begin;   /* the bank's tail is reusable */
    for (int i = 0; i < mod->nkernels; i++) free(mod->kernels[i].sym_base);
    for (int i = 0; i < ctx->nmods; i++)
        if (ctx->mods[i] == mod) {
            memmove(&ctx->mods[i], &ctx->mods[i + 1], (size_t)(ctx->nmods - i - 1) * sizeof *ctx->mods);
            ctx->nmods--;
            break;
        }
    free(mod->kernels);
    free(mod->var_addr);
    free(mod->ptx_text);
    ptx_module_free(mod->pm);
    free(mod);
}

int ws_module_kernel_count(const ws_module *mod)
{
    return mod ? mod->nkernels : 0;
}

ws_status ws_module_kernel_info(const ws_module *mod, int index, ws_kernel_info *out)
{
    if (!mod) return WS_ERR_INVALID;
    if (!out || index < 0 || index >= mod->nkernels)
        return ws__error(mod->ctx, WS_ERR_INVALID, "ws_module_kernel_info: %s",
                         !out ? "output pointer is NULL" : "kernel index out of range");
    const ptx_func *f = &mod->pm->funcs[mod->kernels[index].func];
    memset(out, 0, sizeof *out);
    out->name = f->name;
    out->nparams = f->nparams;
    out->param_bytes = f->param_size;
    out->static_shared_bytes = f->shared_size;
    out->regs = f->nregs;
    memcpy(out->reqntid, f->reqntid, sizeof out->reqntid);
    memcpy(out->maxntid, f->maxntid, sizeof out->maxntid);
    out->minnctapersm = f->minnctapersm;
    out->maxnreg = f->maxnreg;
    return WS_OK;
}

ws_status ws_module_get_kernel(ws_module *mod, const char *name, ws_kernel **out)
{
    if (!mod) return WS_ERR_INVALID;
    if (!name || !out)
        return ws__error(mod->ctx, WS_ERR_INVALID, "ws_module_get_kernel: %s is NULL",
                         !name ? "the name" : "the output pointer");
    *out = NULL;
    for (int i = 0; i < mod->nkernels; i++)
        if (!strcmp(mod->pm->funcs[mod->kernels[i].func].name, name)) {
            *out = &mod->kernels[i];
            return WS_OK;
        }
    int fi = ptx_find_func(mod->pm, name);
    if (fi >= 0)
        return ws__error(mod->ctx, WS_ERR_NOT_FOUND, "'%s' in module '%s' is a .func, "
                         "not a kernel (.entry)", name, mod->pm->filename ? mod->pm->filename : "");
    return ws__error(mod->ctx, WS_ERR_NOT_FOUND, "no kernel named '%s' in module '%s'",
                     name, mod->pm->filename ? mod->pm->filename : "");
}

ws_status ws_module_get_global(ws_module *mod, const char *name, ws_devptr *addr,
                               size_t *bytes)
{
    if (!mod) return WS_ERR_INVALID;
    if (!name)
        return ws__error(mod->ctx, WS_ERR_INVALID, "ws_module_get_global: the name is NULL");
    int i = ptx_find_var(mod->pm, name);
    const ptx_var *v = i >= 0 ? &mod->pm->vars[i] : NULL;
    if (!v || v->is_func_scope || (v->space != PTX_SPACE_GLOBAL && v->space != PTX_SPACE_CONST))
        return ws__error(mod->ctx, WS_ERR_NOT_FOUND, "no .global or .const variable named "
                         "'%s' in module '%s'", name, mod->pm->filename ? mod->pm->filename : "");
    if (addr)
        *addr = v->space == PTX_SPACE_CONST ? EMU_CONST_WINDOW + mod->var_addr[i]
                                            : mod->var_addr[i];
    if (bytes) *bytes = v->size;
    return WS_OK;
}
