/*
** tex_sample.c -- the texture unit's arithmetic: handle lookup, address
** modes, point and linear filtering, tld4 gathers and texel formats.
**
** Follows the CUDA programming guide's "Texture Fetching" appendix:
**  - normalised coordinates are scaled by the size first; wrap and mirror
**    exist only for normalised coordinates (otherwise they act as clamp,
**    as on the hardware);
**  - point filtering reads texel floor(x); linear filtering reads texels
**    floor(x - 0.5) and the next, weighted by the fraction of x - 0.5 held
**    in 1.8 fixed point (emu_tex_weight), per dimension;
**  - an address mode is applied to each texel index, so the neighbours of
**    linear filtering wrap, mirror, clamp or take the border colour too;
**  - a fetch from linear memory (tex1Dfetch) outside the buffer reads 0;
**  - a 1D array filtered linearly is a 2D texture one texel high sampled at
**    y = 0 (one_d_as_2d: what the hardware does; the guide is silent).
** Checked on an H200 (tests/cuda/texture.cu runs unchanged on a GPU): the
** weights match round-to-nearest 1.8 fixed point except in about one
** sample in 2000 per dimension, where the hardware's weight is one step
** (1/256) lower at a fraction that lies within 2^-11 of a rounding tie.
** Results are four 32-bit lanes: floats when the texture returns floats
** (float channels, or 8/16-bit integers in normalised-float read mode),
** else integers; channels the format lacks read 0, except the fourth,
** which reads 1.
*/
#include "emu_tex.h"
#include "../ptx/ptx_ir.h"
#include <math.h>
#include <string.h>

const emu_tex_obj *emu_tex_lookup(const emu_tex_table *tab, uint64_t handle)
{
    uint64_t slot = (handle & 0xffffffffu);
    uint32_t gen = (uint32_t)(handle >> 32);
    if (!tab || slot == 0 || slot > tab->n || gen == 0) return NULL;
    const emu_tex_obj *t = &tab->obj[slot - 1];
    return t->gen == gen ? t : NULL;
}

float emu_tex_weight(float a)
{
    return floorf(a * 256.0f + 0.5f) / 256.0f;
}

int64_t emu_tex_address(int64_t i, uint32_t n, int mode)
{
    int64_t N = n ? (int64_t)n : 1;
    switch (mode) {
    case EMU_ADDR_WRAP:
        return ((i % N) + N) % N;
    case EMU_ADDR_MIRROR: {
        int64_t m = ((i % (2 * N)) + 2 * N) % (2 * N);
        return m < N ? m : 2 * N - 1 - m;
    }
    case EMU_ADDR_BORDER:
        return i < 0 || i >= N ? -1 : i;
    default:
        return i < 0 ? 0 : i >= N ? N - 1 : i;
    }
}

float emu_half_to_float(uint16_t h)
{
    uint32_t sign = (uint32_t)(h & 0x8000u) << 16, exp = (h >> 10) & 0x1f, mant = h & 0x3ffu, bits;
    if (exp == 0x1f) {
        bits = sign | 0x7f800000u | (mant << 13);
    } else if (exp) {
        bits = sign | ((exp + 112) << 23) | (mant << 13);
    } else if (!mant) {
        bits = sign;
    } else {                       /* subnormal: normalise */
        int e = -1;
        do { mant <<= 1; e++; } while (!(mant & 0x400u));
        bits = sign | ((uint32_t)(112 - e) << 23) | ((mant & 0x3ffu) << 13);
    }
    float f;
    memcpy(&f, &bits, 4);
    return f;
}

static uint32_t fbits(float f) { uint32_t b; memcpy(&b, &f, 4); return b; }

/* Does `t` return floats (else integers)? */
static bool returns_float(const emu_tex_obj *t)
{
    return t->kind == EMU_CH_FLOAT || (t->read_norm && t->chbits <= 16);
}

/* One channel of the texel at `p` as a float (float result) or integer. */
static float channel_float(const emu_tex_obj *t, const uint8_t *p)
{
    if (t->kind == EMU_CH_FLOAT) {
        if (t->chbits == 16) { uint16_t h; memcpy(&h, p, 2); return emu_half_to_float(h); }
        float f; memcpy(&f, p, 4); return f;
    }
    bool s = t->kind == EMU_CH_SIGNED;
    if (t->chbits == 8) return s ? fmaxf((float)(int8_t)p[0] / 127.0f, -1.0f) : (float)p[0] / 255.0f;
    uint16_t v; memcpy(&v, p, 2);
    return s ? fmaxf((float)(int16_t)v / 32767.0f, -1.0f) : (float)v / 65535.0f;
}

static uint32_t channel_int(const emu_tex_obj *t, const uint8_t *p)
{
    bool s = t->kind == EMU_CH_SIGNED;
    switch (t->chbits) {
    case 8:  return s ? (uint32_t)(int32_t)(int8_t)p[0] : p[0];
    case 16: { uint16_t v; memcpy(&v, p, 2); return s ? (uint32_t)(int32_t)(int16_t)v : v; }
    default: { uint32_t v; memcpy(&v, p, 4); return v; }
    }
}

/* Texel at indices idx (any -1: border) into out[4] as floats in `fv`
   or as result bits in `bits`.  0, or -1 when memory could not be read. */
static int texel(const emu_tex_obj *t, const int64_t idx[3], emu_tex_fetch *f,
                 emu_tex_read_fn read, void *rctx, float fv[4], uint32_t bits[4])
{
    bool flt = returns_float(t);
    float one = 1.0f;
    for (int c = 0; c < 4; c++) {
        fv[c] = c == 3 ? one : 0.0f;
        bits[c] = c == 3 ? (flt ? fbits(one) : 1u) : 0u;
    }
    if (idx[0] < 0 || idx[1] < 0 || idx[2] < 0) {
        bool zero = t->res == EMU_TEXRES_LINEAR;   /* tex1Dfetch outside: 0 */
        for (int c = 0; c < 4; c++) {
            fv[c] = zero ? 0.0f : t->border[c];
            bits[c] = flt ? fbits(fv[c]) : (uint32_t)(int32_t)fv[c];
        }
        return 0;
    }
    uint32_t eb = emu_tex_elem_bytes(t);
    uint64_t a = t->base + (uint64_t)idx[2] * t->slice + (uint64_t)idx[1] * t->pitch + (uint64_t)idx[0] * eb;
    if (f->naddr < EMU_TEX_MAX_TEXELS) f->addr[f->naddr++] = a;
    if (!read) return 0;
    uint8_t buf[16];
    if (read(rctx, a, buf, eb) < 0) return -1;
    for (int c = 0; c < t->nch; c++) {
        const uint8_t *p = buf + c * (t->chbits / 8);
        if (flt) { fv[c] = channel_float(t, p); bits[c] = fbits(fv[c]); }
        else bits[c] = channel_int(t, p);
    }
    return 0;
}

/* Dimensions a geometry filters over (the layer is not one). */
static int geom_dims(int g)
{
    return g == PTX_GEOM_3D ? 3 : (g == PTX_GEOM_2D || g == PTX_GEOM_A2D) ? 2 : 1;
}

typedef struct tex_setup {
    int nd;
    uint32_t size[3];
    int mode[3];
    int64_t i0[3], i1[3];  /* first and second texel index per dimension */
    float a[3];            /* linear weight of the second */
} tex_setup;

/* The hardware filters a 1D array linearly as a 2D texture one texel high
   sampled at y = 0 (measured on an H200, sm_90): rows -1 and 0, weight 0.5
   each, row -1 taken by addressMode[1].  Only border addressing shows it
   (the result is halfway to the border colour); clamp, wrap and mirror map
   row -1 onto row 0. */
static void one_d_as_2d(const emu_tex_obj *t, tex_setup *s)
{
    int m = t->addr[1];
    if (!t->norm_coords && (m == EMU_ADDR_WRAP || m == EMU_ADDR_MIRROR)) m = EMU_ADDR_CLAMP;
    s->nd = 2;
    s->size[1] = 1;
    s->mode[1] = m;
    s->i0[1] = -1;
    s->i1[1] = 0;
    s->a[1] = 0.5f;
}

/* Texel-space positions of f's coordinates: indices for point sampling
   (linear: false) or the two neighbours and their weight (linear: true). */
static void setup(const emu_tex_obj *t, const emu_tex_fetch *f, bool linear, tex_setup *s)
{
    s->nd = geom_dims(f->geom);
    s->size[0] = t->width; s->size[1] = t->height ? t->height : 1; s->size[2] = t->depth ? t->depth : 1;
    for (int d = 0; d < 3; d++) {
        int m = t->addr[d];
        if (!t->norm_coords && (m == EMU_ADDR_WRAP || m == EMU_ADDR_MIRROR)) m = EMU_ADDR_CLAMP;
        if (t->res == EMU_TEXRES_LINEAR) m = EMU_ADDR_BORDER;
        s->mode[d] = m;
        s->i0[d] = s->i1[d] = 0;
        s->a[d] = 0.0f;
        if (d >= s->nd) continue;
        if (f->int_coords) {
            s->i0[d] = s->i1[d] = f->ic[d];
            continue;
        }
        float u = t->norm_coords ? f->c[d] * (float)s->size[d] : f->c[d];
        if (linear) u -= 0.5f;
        float fl = floorf(u);
        s->i0[d] = (int64_t)fl;
        s->i1[d] = s->i0[d] + 1;
        s->a[d] = linear ? emu_tex_weight(u - fl) : 0.0f;
    }
    if (linear && s->nd == 1 && t->res != EMU_TEXRES_LINEAR) one_d_as_2d(t, s);
    if (f->geom == PTX_GEOM_A1D || f->geom == PTX_GEOM_A2D) {
        int64_t L = f->layer, n = s->size[2];
        s->i0[2] = s->i1[2] = L < 0 ? 0 : L >= n ? n - 1 : L;
        s->mode[2] = EMU_ADDR_CLAMP;
    }
}

/* Corner `k` (bit d set: second texel in dimension d) to texel indices. */
static void corner(const tex_setup *s, unsigned k, int64_t idx[3])
{
    for (int d = 0; d < 3; d++) {
        int64_t i = (d < s->nd && (k >> d & 1)) ? s->i1[d] : s->i0[d];
        idx[d] = emu_tex_address(i, s->size[d], s->mode[d]);
    }
}

static int gather(const emu_tex_obj *t, emu_tex_fetch *f, emu_tex_read_fn read, void *rctx)
{
    tex_setup s;
    setup(t, f, true, &s);
    static const unsigned order[4] = { 2, 3, 1, 0 };   /* (i0,j1) (i1,j1) (i1,j0) (i0,j0) */
    for (int q = 0; q < 4; q++) {
        int64_t idx[3];
        float fv[4];
        uint32_t bits[4];
        corner(&s, order[q], idx);
        if (texel(t, idx, f, read, rctx, fv, bits) < 0) return -1;
        f->out[q] = bits[f->comp & 3];
    }
    return 0;
}

int emu_tex_sample(const emu_tex_obj *t, emu_tex_fetch *f, emu_tex_read_fn read, void *rctx)
{
    f->naddr = 0;
    memset(f->out, 0, sizeof f->out);
    if (f->comp >= 0) return gather(t, f, read, rctx);
    bool linear = t->filter == EMU_FILTER_LINEAR && !f->int_coords && returns_float(t);
    tex_setup s;
    setup(t, f, linear, &s);
    float fv[4], bits_f[4] = { 0, 0, 0, 0 };
    uint32_t bits[4];
    int64_t idx[3];
    if (!linear) {
        corner(&s, 0, idx);
        if (texel(t, idx, f, read, rctx, fv, bits) < 0) return -1;
        memcpy(f->out, bits, sizeof bits);
        return 0;
    }
    /* weighted sum over the 2^nd corners, in corner order */
    for (unsigned k = 0; k < (1u << s.nd); k++) {
        float wgt = 1.0f;
        for (int d = 0; d < s.nd; d++) wgt *= (k >> d & 1) ? s.a[d] : 1.0f - s.a[d];
        corner(&s, k, idx);
        if (texel(t, idx, f, read, rctx, fv, bits) < 0) return -1;
        for (int c = 0; c < 4; c++) bits_f[c] += wgt * fv[c];
    }
    for (int c = 0; c < 4; c++) f->out[c] = fbits(bits_f[c]);
    return 0;
}
