/*
** exec_tex.c -- tex, tld4, txq, suld.b and sust.b: the handle in each
** lane names a texture or surface object of the launch's table
** (emu_launch.tex, filled by the host API); sampling is tex_sample.c's.
**
** Surfaces address bytes in x (as CUDA's surf*read/write do) and rows,
** slices or layers in y and z.  Out-of-range accesses follow the
** instruction's boundary mode: .trap faults with the coordinates, .clamp
** moves them to the nearest element, .zero reads zeros and drops stores.
** A handle that names no live object (never created, destroyed, or a
** surface used as a texture) faults with the handle's value.
*/
#include "exec.h"
#include "emu_tex.h"
#include <inttypes.h>
#include <string.h>

static const char *const geom_names[] = { "", "1d", "2d", "3d", "a1d", "a2d" };

static int mem_read_cb(void *ctx, uint64_t addr, void *dst, uint32_t n)
{
    emu_mem *m = ctx;
    if (!emu_mem_valid(m, addr, n)) return -1;
    emu_mem_read(m, addr, dst, n);
    return 0;
}

static inline uint64_t lane_reg(const emu_warp *w, int32_t slot, int lane)
{
    return slot >= 0 ? w->r[(size_t)slot * EMU_WARP_SIZE + lane] : 0;
}

/* The object lane `lane` names, or NULL after a fault (quiet: no report,
   for the address pass of the timing model). */
static const emu_tex_obj *lane_obj(emu_warp *w, const ptx_uop *u, int lane, bool quiet)
{
    bool surf = u->op == PTX_OP_SULD || u->op == PTX_OP_SUST;
    int a = u->op == PTX_OP_SUST ? 0 : 1;
    uint64_t h = lane_reg(w, u->opd[a].reg, lane);
    const emu_tex_obj *t = emu_tex_lookup(w->launch->tex, h);
    if (t && (u->op == PTX_OP_TXQ || t->surface == surf)) return t;
    if (quiet) return NULL;
    if (t)
        emu_fault_at(w, u, lane, EMU_FAULT_MEMORY, "%s: handle 0x%" PRIx64 " is a %s object, not a %s "
                     "object", ptx_opcode_names[u->op], h, t->surface ? "surface" : "texture",
                     surf ? "surface" : "texture");
    else
        emu_fault_at(w, u, lane, EMU_FAULT_MEMORY, "%s: handle 0x%" PRIx64 " is not a live %s object "
                     "(never created, or destroyed)", ptx_opcode_names[u->op], h,
                     surf ? "surface" : "texture");
    return NULL;
}

/* Lane `lane`'s coordinates of tex/tld4 `u` into f. */
static void fetch_input(const emu_warp *w, const ptx_uop *u, int lane, emu_tex_fetch *f)
{
    const ptx_operand *c = &u->opd[2];
    int k = 0;
    memset(f, 0, sizeof *f);
    f->geom = u->sub;
    f->int_coords = u->type2 == PTX_T_S32;
    f->comp = u->op == PTX_OP_TLD4 ? (int)u->aux : -1;
    if (u->sub == PTX_GEOM_A1D || u->sub == PTX_GEOM_A2D)
        f->layer = (int32_t)lane_reg(w, c->vreg[k++], lane);
    for (int d = 0; d < 3 && k < c->nvec; d++, k++) {
        uint32_t v = (uint32_t)lane_reg(w, c->vreg[k], lane);
        f->ic[d] = (int32_t)v;
        memcpy(&f->c[d], &v, 4);
    }
}

/* tex and tld4 */
static int tex_common(emu_warp *w, const ptx_uop *u, uint32_t mask)
{
    const ptx_operand *d = &u->opd[0];
    for (uint32_t m = mask; m; m &= m - 1) {
        int lane = __builtin_ctz(m);
        const emu_tex_obj *t = lane_obj(w, u, lane, false);
        if (!t) return -1;
        emu_tex_fetch f;
        fetch_input(w, u, lane, &f);
        if (emu_tex_sample(t, &f, mem_read_cb, w->launch->gmem) < 0)
            return emu_fault_at(w, u, lane, EMU_FAULT_MEMORY, "%s.%s reads texel at 0x%" PRIx64
                                " outside device memory (the texture's memory was freed?)",
                                ptx_opcode_names[u->op], geom_names[u->sub], f.addr[f.naddr - 1]);
        for (uint32_t e = 0; e < d->nvec && e < 4; e++)
            if (d->vreg[e] >= 0)
                w->r[(size_t)d->vreg[e] * EMU_WARP_SIZE + lane] = emu_norm(f.out[e], (ptx_type)u->type);
    }
    return 0;
}

EMU_HANDLER(tex) { return tex_common(w, u, mask); }
EMU_HANDLER(tld4) { return tex_common(w, u, mask); }

/* OpenCL-style channel codes PTX's txq reports */
static uint32_t txq_value(const emu_tex_obj *t, int q)
{
    switch (q) {
    case PTX_TXQ_WIDTH: return t->width;
    case PTX_TXQ_HEIGHT: return t->height ? t->height : 1;
    case PTX_TXQ_DEPTH: return t->layered ? 1 : (t->depth ? t->depth : 1);
    case PTX_TXQ_ARRAY_SIZE: return t->layered ? t->depth : 0;
    case PTX_TXQ_CHANNEL_DATA_TYPE:   /* CL_SNORM_INT8.. = 0x10D0.. */
        return t->kind == EMU_CH_FLOAT ? (t->chbits == 16 ? 0x10DDu : 0x10DEu)
             : 0x10D7u + (t->kind == EMU_CH_UNSIGNED ? 3u : 0u) + (t->chbits == 16) + 2u * (t->chbits == 32);
    case PTX_TXQ_CHANNEL_ORDER: return t->nch == 1 ? 0x10B0u : t->nch == 2 ? 0x10B2u : 0x10B5u;
    case PTX_TXQ_NORMALIZED_COORDS: return t->norm_coords;
    case PTX_TXQ_FILTER_MODE: return t->filter;
    case PTX_TXQ_ADDR_MODE_0: return t->addr[0];
    case PTX_TXQ_ADDR_MODE_1: return t->addr[1];
    case PTX_TXQ_ADDR_MODE_2: return t->addr[2];
    case PTX_TXQ_NUM_MIPMAP_LEVELS: return 1;
    default: return 0;   /* num_samples: no multisampling */
    }
}

EMU_HANDLER(txq)
{
    uint64_t v[EMU_WARP_SIZE] = { 0 };
    for (uint32_t m = mask; m; m &= m - 1) {
        int lane = __builtin_ctz(m);
        const emu_tex_obj *t = lane_obj(w, u, lane, false);
        if (!t) return -1;
        v[lane] = txq_value(t, u->sub);
    }
    emu_dst(w, &u->opd[0], mask, v, PTX_T_B32);
    return 0;
}

/* ------------------------------------------------------------------ */
/* Surfaces                                                            */
/* ------------------------------------------------------------------ */

/* Device address of lane `lane`'s surface access of `n` bytes; *zero when
   .zero mode drops it.  0, or -1 after a fault (none when `quiet`). */
static int surf_addr(emu_warp *w, const ptx_uop *u, int lane, const emu_tex_obj *t, uint32_t n,
                     uint64_t *addr, bool *zero, bool quiet)
{
    const ptx_operand *c = &u->opd[u->op == PTX_OP_SUST ? 1 : 2];
    int64_t x[3] = { 0, 0, 0 }, lim[3];
    int k = 0;
    bool layered = u->sub == PTX_GEOM_A1D || u->sub == PTX_GEOM_A2D;
    int nd = u->sub == PTX_GEOM_3D ? 3 : (u->sub == PTX_GEOM_2D || u->sub == PTX_GEOM_A2D) ? 2 : 1;
    if (layered) x[2] = (int32_t)lane_reg(w, c->vreg[k++], lane);
    for (int d = 0; d < nd; d++) x[d] = (int32_t)lane_reg(w, c->vreg[k++], lane);
    lim[0] = (int64_t)t->width * emu_tex_elem_bytes(t) - n;
    lim[1] = (int64_t)(t->height ? t->height : 1) - 1;
    lim[2] = (int64_t)(t->depth ? t->depth : 1) - 1;
    *zero = false;
    bool out = false;
    for (int d = 0; d < 3; d++) out |= x[d] < 0 || x[d] > lim[d];
    if (out && u->aux == PTX_SURF_TRAP) {
        if (quiet) return -1;
        return emu_fault_at(w, u, lane, EMU_FAULT_MEMORY, "%s.%s.trap out of bounds: byte x %" PRId64
                            ", y %" PRId64 ", z/layer %" PRId64 " on a surface of %u x %u x %u "
                            "elements of %u bytes", ptx_opcode_names[u->op], geom_names[u->sub],
                            x[0], x[1], x[2], t->width, t->height ? t->height : 1,
                            t->depth ? t->depth : 1, emu_tex_elem_bytes(t));
    }
    if (out && u->aux == PTX_SURF_ZERO) *zero = true;
    for (int d = 0; d < 3; d++) x[d] = x[d] < 0 ? 0 : x[d] > lim[d] ? lim[d] : x[d];
    if (x[0] % n) {
        if (quiet) return -1;
        return emu_fault_at(w, u, lane, EMU_FAULT_MISALIGNED, "%s: byte x %" PRId64 " is not a "
                            "multiple of the access size %u", ptx_opcode_names[u->op], x[0], n);
    }
    *addr = t->base + (uint64_t)x[2] * t->slice + (uint64_t)x[1] * t->pitch + (uint64_t)x[0];
    return 0;
}

/* Value slots of suld's destination / sust's source. */
static void data_slots(const ptx_operand *o, uint32_t vec, int32_t slot[4])
{
    for (int e = 0; e < 4; e++) slot[e] = -1;
    if (o->kind == PTX_OPD_REG) slot[0] = o->reg;
    else if (o->kind == PTX_OPD_VEC)
        for (uint32_t e = 0; e < vec && e < o->nvec; e++) slot[e] = o->vreg[e];
}

static int surf_access(emu_warp *w, const ptx_uop *u, uint32_t mask, bool store)
{
    uint32_t esz = ptx_type_size[u->type], vec = u->vec ? u->vec : 1, n = esz * vec;
    int32_t slot[4];
    data_slots(&u->opd[store ? 2 : 0], vec, slot);
    for (uint32_t m = mask; m; m &= m - 1) {
        int lane = __builtin_ctz(m);
        const emu_tex_obj *t = lane_obj(w, u, lane, false);
        uint64_t a;
        bool zero;
        if (!t || surf_addr(w, u, lane, t, n, &a, &zero, false) < 0) return -1;
        uint8_t buf[32] = { 0 };
        if (!zero && !emu_mem_valid(w->launch->gmem, a, n))
            return emu_fault_at(w, u, lane, EMU_FAULT_MEMORY, "%s at 0x%" PRIx64 " is outside device "
                                "memory (the surface's memory was freed?)", ptx_opcode_names[u->op], a);
        if (store) {
            for (uint32_t e = 0; e < vec; e++) {
                uint64_t v = lane_reg(w, slot[e], lane);
                memcpy(buf + e * esz, &v, esz);
            }
            if (zero) continue;
            emu_wlog *lg = w->launch->wlog;      /* logged: wlog.c */
            uint8_t *p = lg ? emu_wlog_put(lg, w->launch->gmem, w, u, lane, a, n, false) : NULL;
            if (p) memcpy(p, buf, n);
            else if (lg || emu_mem_write(w->launch->gmem, a, buf, n) != 0)
                return emu_fault_at(w, u, lane, EMU_FAULT_MEMORY, "%s at 0x%" PRIx64 ": host out "
                                    "of memory", ptx_opcode_names[u->op], a);
            continue;
        }
        if (!zero) emu_mem_read(w->launch->gmem, a, buf, n);
        for (uint32_t e = 0; e < vec; e++) {
            uint64_t v = 0;
            memcpy(&v, buf + e * esz, esz);
            if (slot[e] >= 0) w->r[(size_t)slot[e] * EMU_WARP_SIZE + lane] = v;
        }
    }
    return 0;
}

EMU_HANDLER(suld) { return surf_access(w, u, mask, false); }
EMU_HANDLER(sust) { return surf_access(w, u, mask, true); }

/* ------------------------------------------------------------------ */
/* Addresses for the timing model                                      */
/* ------------------------------------------------------------------ */

void emu_tex_addrs(emu_warp *w, const ptx_uop *u, uint32_t mask, emu_step_info *info)
{
    info->ntexel = 0;
    if (u->op == PTX_OP_TXQ) return;
    bool surf = u->op == PTX_OP_SULD || u->op == PTX_OP_SUST;
    uint32_t n = ptx_type_size[u->type] * (u->vec ? u->vec : 1);
    for (uint32_t m = mask; m; m &= m - 1) {
        int lane = __builtin_ctz(m);
        const emu_tex_obj *t = lane_obj(w, u, lane, true);
        info->addr[lane] = 0;
        if (!t) continue;   /* the handler reports it */
        if (surf) {
            bool zero;
            uint64_t a;
            if (surf_addr(w, u, lane, t, n, &a, &zero, true) == 0) info->addr[lane] = a;
            info->nbytes = n;
            continue;
        }
        emu_tex_fetch f;
        fetch_input(w, u, lane, &f);
        emu_tex_sample(t, &f, NULL, NULL);
        for (uint32_t i = 0; i < f.naddr && info->ntexel < EMU_MAX_TEXELS; i++)
            info->texel[info->ntexel++] = f.addr[i];
        if (f.naddr) info->addr[lane] = f.addr[0];
        info->nbytes = emu_tex_elem_bytes(t);
    }
}
