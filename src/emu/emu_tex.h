/*
** emu_tex.h -- texture and surface objects as the emulator sees them: a
** table of descriptors indexed by the 64-bit handle a kernel receives,
** and the sampling arithmetic (tex_sample.c) the handlers (exec_tex.c)
** and the unit tests share.
**
** Resources live in device memory.  Texel (x, y, z) of a resource is at
**     base + z * slice + y * pitch + x * elem_bytes
** linear: pitch = slice = 0 (1D);  pitch2D: the user's pitch, slice = 0;
** CUDA arrays (1D/2D/3D/layered): packed rows, pitch = width * elem,
** slice = pitch * height; a layered array keeps its layers in z.  (Real
** GPUs tile arrays; the tiling is opaque to programs, so row-major is a
** documented simplification that only changes which L1T lines a fetch
** touches.)
**
** Handles: (generation << 32) | (slot + 1), so 0 is never a handle and a
** destroyed handle is recognised even after its slot is reused.
*/
#ifndef WS_EMU_TEX_H
#define WS_EMU_TEX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* resource kinds */
enum { EMU_TEXRES_LINEAR = 1, EMU_TEXRES_PITCH2D, EMU_TEXRES_ARRAY };
/* channel kinds */
enum { EMU_CH_SIGNED = 0, EMU_CH_UNSIGNED, EMU_CH_FLOAT };
/* address modes: CUDA's cudaTextureAddressMode values */
enum { EMU_ADDR_WRAP = 0, EMU_ADDR_CLAMP, EMU_ADDR_MIRROR, EMU_ADDR_BORDER };
/* filter modes: CUDA's cudaTextureFilterMode values */
enum { EMU_FILTER_POINT = 0, EMU_FILTER_LINEAR };

typedef struct emu_tex_obj {
    uint32_t gen;           /* 0: free slot */
    bool surface;           /* a surface object (suld/sust), else a texture */
    uint8_t res;            /* EMU_TEXRES_* */
    uint8_t nch;            /* channels: 1, 2 or 4 */
    uint8_t chbits;         /* bits per channel: 8, 16 or 32 (all equal) */
    uint8_t kind;           /* EMU_CH_* */
    uint8_t addr[3];        /* EMU_ADDR_* per dimension */
    uint8_t filter;         /* EMU_FILTER_* */
    bool read_norm;         /* 8/16-bit integers read as [0,1] / [-1,1] floats */
    bool norm_coords;       /* coordinates in [0,1) */
    bool layered;           /* z is the layer */
    uint64_t base, pitch, slice;   /* bytes, see the file header */
    uint64_t bytes;         /* size of the resource in device memory */
    uint32_t width, height, depth; /* texels (depth = layers when layered) */
    float border[4];        /* border colour (EMU_ADDR_BORDER) */
} emu_tex_obj;

typedef struct emu_tex_table {
    emu_tex_obj *obj;
    uint32_t n, cap;
    uint32_t next_gen;
} emu_tex_table;

static inline uint32_t emu_tex_elem_bytes(const emu_tex_obj *t)
{
    return (uint32_t)t->nch * t->chbits / 8;
}

/* The live object named by `handle`, or NULL. */
const emu_tex_obj *emu_tex_lookup(const emu_tex_table *tab, uint64_t handle);

/* One lane's fetch: inputs, then the result and the texels read. */
#define EMU_TEX_MAX_TEXELS 8
typedef struct emu_tex_fetch {
    int geom;               /* PTX_GEOM_* */
    bool int_coords;        /* .s32 coordinates: texel indices, no filtering */
    int comp;               /* -1: tex; 0..3: tld4 component */
    float c[3];             /* f32 coordinates (x, y, z) */
    int32_t ic[3];          /* s32 coordinates */
    int32_t layer;          /* layered geometries */
    uint32_t out[4];        /* result bits: floats or 32-bit integers */
    uint32_t naddr;         /* texels read and their device addresses */
    uint64_t addr[EMU_TEX_MAX_TEXELS];
} emu_tex_fetch;

/* Reads `n` bytes of device memory at `addr`; 0, or -1 if not readable. */
typedef int (*emu_tex_read_fn)(void *ctx, uint64_t addr, void *dst, uint32_t n);

/* Sample texture `t` for `f` (addressing, filtering, format conversion).
   `read` NULL: only the texel addresses are worked out (out is zero).
   0, or -1 when a texel could not be read (its address in f->addr[naddr-1]). */
int emu_tex_sample(const emu_tex_obj *t, emu_tex_fetch *f, emu_tex_read_fn read, void *rctx);

/* The linear-filter weight of fraction `a` in [0,1): GPUs keep it in 1.8
   fixed point (8 fraction bits), so weights are multiples of 1/256. */
float emu_tex_weight(float a);

/* Index `i` of a dimension of `n` texels under address mode `mode`
   (wrap, mirror, clamp); -1 for border when outside. */
int64_t emu_tex_address(int64_t i, uint32_t n, int mode);

/* IEEE half to float. */
float emu_half_to_float(uint16_t h);

#endif /* WS_EMU_TEX_H */
