/*
** api_texture.c -- texture and surface objects of a context: checking a
** resource and sampler description, keeping them in the context's table
** (emu_tex.h) that every launch hands to the emulator, and handles.
**
** A description the hardware would refuse is refused here with a message
** naming the field: formats other than 1/2/4 channels of 8/16/32 bits,
** linear filtering of integer results, normalised-float reads of 32-bit
** integers, a resource outside one device allocation.
*/
#include "api_internal.h"
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

static ws_status check_format(ws_ctx *ctx, const char *fn, const ws_tex_resource *r)
{
    if (r->kind < WS_TEXRES_LINEAR || r->kind > WS_TEXRES_ARRAY)
        return ws__error(ctx, WS_ERR_INVALID, "%s: resource kind %d is not linear, pitch2D or array",
                         fn, r->kind);
    if (r->channels != 1 && r->channels != 2 && r->channels != 4)
        return ws__error(ctx, WS_ERR_INVALID, "%s: %u channels (1, 2 or 4 are supported)", fn,
                         r->channels);
    if (r->channel_bits != 8 && r->channel_bits != 16 && r->channel_bits != 32)
        return ws__error(ctx, WS_ERR_INVALID, "%s: %u bits per channel (8, 16 or 32 are supported)",
                         fn, r->channel_bits);
    if (r->channel_kind < WS_CH_SIGNED || r->channel_kind > WS_CH_FLOAT)
        return ws__error(ctx, WS_ERR_INVALID, "%s: channel kind %d is not signed, unsigned or float",
                         fn, r->channel_kind);
    if (r->channel_kind == WS_CH_FLOAT && r->channel_bits == 8)
        return ws__error(ctx, WS_ERR_INVALID, "%s: 8-bit float channels do not exist", fn);
    if (r->width == 0) return ws__error(ctx, WS_ERR_INVALID, "%s: width 0", fn);
    return WS_OK;
}

/* Fill the geometry of `t` from `r` and check it lies in device memory. */
static ws_status fill_resource(ws_ctx *ctx, const char *fn, const ws_tex_resource *r, emu_tex_obj *t)
{
    ws_status st = check_format(ctx, fn, r);
    if (st) return st;
    t->res = (uint8_t)r->kind;
    t->nch = (uint8_t)r->channels;
    t->chbits = (uint8_t)r->channel_bits;
    t->kind = (uint8_t)r->channel_kind;
    t->base = r->base;
    t->width = r->width;
    t->height = r->height ? r->height : 1;
    t->depth = r->depth ? r->depth : 1;
    t->layered = r->layered != 0;
    uint64_t eb = emu_tex_elem_bytes(t);
    if (r->kind == WS_TEXRES_LINEAR && (t->height > 1 || t->depth > 1))
        return ws__error(ctx, WS_ERR_INVALID, "%s: a linear resource is 1D (height and depth 1)", fn);
    if (r->kind == WS_TEXRES_PITCH2D && (r->pitch < t->width * eb || t->depth > 1))
        return ws__error(ctx, WS_ERR_INVALID, "%s: pitch %zu is less than a row (%" PRIu64
                         " bytes), or depth > 1", fn, r->pitch, t->width * eb);
    t->pitch = r->kind == WS_TEXRES_PITCH2D ? r->pitch : r->kind == WS_TEXRES_ARRAY ? t->width * eb : 0;
    t->slice = r->kind == WS_TEXRES_ARRAY ? t->pitch * t->height : 0;
    t->bytes = r->kind == WS_TEXRES_LINEAR ? t->width * eb
             : (uint64_t)(t->depth - 1) * t->slice + (uint64_t)(t->height - 1) * t->pitch + t->width * eb;
    if (!emu_mem_valid(ctx->mem, t->base, t->bytes))
        return ws__error(ctx, WS_ERR_INVALID, "%s: the resource [0x%" PRIx64 ", +%" PRIu64 ") is not "
                         "inside one device allocation", fn, t->base, t->bytes);
    return WS_OK;
}

static ws_status check_sampler(ws_ctx *ctx, const char *fn, const ws_tex_sampler *s, emu_tex_obj *t)
{
    for (int d = 0; d < 3; d++) {
        if (s->addr_mode[d] < EMU_ADDR_WRAP || s->addr_mode[d] > EMU_ADDR_BORDER)
            return ws__error(ctx, WS_ERR_INVALID, "%s: address mode %d of dimension %d is not wrap, "
                             "clamp, mirror or border", fn, s->addr_mode[d], d);
        t->addr[d] = (uint8_t)s->addr_mode[d];
    }
    if (s->filter != EMU_FILTER_POINT && s->filter != EMU_FILTER_LINEAR)
        return ws__error(ctx, WS_ERR_INVALID, "%s: filter mode %d is not point or linear", fn, s->filter);
    if (s->read_normalized && t->kind != EMU_CH_FLOAT && t->chbits == 32)
        return ws__error(ctx, WS_ERR_INVALID, "%s: normalized-float reads need 8- or 16-bit integer "
                         "channels, not 32-bit", fn);
    bool flt = t->kind == EMU_CH_FLOAT || s->read_normalized;
    if (s->filter == EMU_FILTER_LINEAR && !flt)
        return ws__error(ctx, WS_ERR_INVALID, "%s: linear filtering needs float results (float "
                         "channels or normalized-float reads of 8/16-bit integers)", fn);
    t->filter = (uint8_t)s->filter;
    t->read_norm = s->read_normalized != 0 && t->kind != EMU_CH_FLOAT;
    t->norm_coords = s->normalized_coords != 0;
    memcpy(t->border, s->border, sizeof t->border);
    return WS_OK;
}

/* A free slot of the table (grown as needed); NULL when out of memory. */
static emu_tex_obj *new_slot(ws_ctx *ctx)
{
    emu_tex_table *tab = &ctx->tex;
    for (uint32_t i = 0; i < tab->n; i++)
        if (!tab->obj[i].gen) return &tab->obj[i];
    if (tab->n == tab->cap) {
        uint32_t cap = tab->cap ? tab->cap * 2 : 16;
        emu_tex_obj *o = realloc(tab->obj, cap * sizeof *o);
        if (!o) return NULL;
        tab->obj = o;
        tab->cap = cap;
    }
    emu_tex_obj *t = &tab->obj[tab->n++];
    t->gen = 0;
    return t;
}

static ws_status create(ws_ctx *ctx, const char *fn, const ws_tex_resource *res,
                        const ws_tex_sampler *smp, uint64_t *handle)
{
    if (!ctx) return WS_ERR_INVALID;
    if (!res || !handle)
        return ws__error(ctx, WS_ERR_INVALID, "%s: the resource or the output handle is NULL", fn);
    *handle = 0;
    emu_tex_obj t;
    memset(&t, 0, sizeof t);
    t.surface = smp == NULL;
    t.addr[0] = t.addr[1] = t.addr[2] = EMU_ADDR_CLAMP;
    ws_status st = fill_resource(ctx, fn, res, &t);
    if (!st && smp) st = check_sampler(ctx, fn, smp, &t);
    if (st) return st;
    emu_tex_obj *slot = new_slot(ctx);
    if (!slot) return ws__error(ctx, WS_ERR_NOMEM, "%s: out of host memory", fn);
    /* generations count up per context: a stale handle never matches */
    if (++ctx->tex.next_gen == 0) ctx->tex.next_gen = 1;
    t.gen = ctx->tex.next_gen;
    *slot = t;
    *handle = ((uint64_t)t.gen << 32) | (uint64_t)(slot - ctx->tex.obj + 1);
    return WS_OK;
}

ws_status ws_texture_create(ws_ctx *ctx, const ws_tex_resource *res, const ws_tex_sampler *smp,
                            uint64_t *handle)
{
    if (ctx && !smp)
        return ws__error(ctx, WS_ERR_INVALID, "ws_texture_create: the sampler description is NULL");
    return create(ctx, "ws_texture_create", res, smp, handle);
}

ws_status ws_surface_create(ws_ctx *ctx, const ws_tex_resource *res, uint64_t *handle)
{
    if (ctx && res && res->kind == WS_TEXRES_LINEAR)
        return ws__error(ctx, WS_ERR_INVALID, "ws_surface_create: surfaces need an array or "
                         "pitched resource, not linear memory");
    return create(ctx, "ws_surface_create", res, NULL, handle);
}

ws_status ws_texture_destroy(ws_ctx *ctx, uint64_t handle)
{
    if (!ctx) return WS_ERR_INVALID;
    emu_tex_obj *t = (emu_tex_obj *)emu_tex_lookup(&ctx->tex, handle);
    if (!t)
        return ws__error(ctx, WS_ERR_INVALID, "ws_texture_destroy: 0x%" PRIx64 " is not a live "
                         "texture or surface object", handle);
    t->gen = 0;
    return WS_OK;
}

ws_status ws_texture_get(ws_ctx *ctx, uint64_t handle, ws_tex_resource *res, ws_tex_sampler *smp,
                         int *is_surface)
{
    if (!ctx) return WS_ERR_INVALID;
    const emu_tex_obj *t = emu_tex_lookup(&ctx->tex, handle);
    if (!t)
        return ws__error(ctx, WS_ERR_INVALID, "ws_texture_get: 0x%" PRIx64 " is not a live texture "
                         "or surface object", handle);
    if (res)
        *res = (ws_tex_resource){ .kind = t->res, .base = t->base, .width = t->width,
                                  .height = t->height, .depth = t->depth, .layered = t->layered,
                                  .pitch = t->res == EMU_TEXRES_PITCH2D ? t->pitch : 0,
                                  .channels = t->nch, .channel_bits = t->chbits,
                                  .channel_kind = t->kind };
    if (smp) {
        memset(smp, 0, sizeof *smp);
        if (!t->surface) {
            for (int d = 0; d < 3; d++) smp->addr_mode[d] = t->addr[d];
            smp->filter = t->filter;
            smp->read_normalized = t->read_norm;
            smp->normalized_coords = t->norm_coords;
            memcpy(smp->border, t->border, sizeof smp->border);
        }
    }
    if (is_surface) *is_surface = t->surface;
    return WS_OK;
}
