/*
** exec_mem.c -- ld/st/atom/red/cvta/isspacep: the state spaces as seen by
** one thread, bounds and alignment checks, and their fault reports.
**
** Every access is resolved per lane to a host pointer by mem_ptr(): global
** addresses outside one live allocation go to oob.c (a fault, or a
** recorded access inside a mapped page), shared/local/const/param
** offsets inside their space; generic addresses are routed by window (see
** EMU_*_WINDOW in emu.h).  Atomics run lane by lane in lane order, so
** contention has one deterministic outcome.
*/
#include "exec.h"
#include "fpu.h"
#include <inttypes.h>
#include <string.h>

enum { ACC_LOAD, ACC_STORE, ACC_ATOMIC, ACC_READ };

static const char *const acc_names[] = { "load", "store", "atomic", "read" };
static const char *const space_names[PTX_SPACE_COUNT] = {
    "generic", "global", "shared", "local", "const", "param", "tex", "reg"
};

/* ------------------------------------------------------------------ */
/* Resolving addresses                                                 */
/* ------------------------------------------------------------------ */

/* Route a generic address to its space; *off gets the space address. */
static int generic_space(uint64_t addr, uint64_t *off)
{
    if (addr < EMU_GLOBAL_LIMIT) { *off = addr; return PTX_SPACE_GLOBAL; }
    *off = addr & (EMU_WINDOW_SIZE - 1);
    switch (addr & ~(EMU_WINDOW_SIZE - 1)) {
    case EMU_SHARED_WINDOW: return PTX_SPACE_SHARED;
    case EMU_LOCAL_WINDOW:  return PTX_SPACE_LOCAL;
    case EMU_CONST_WINDOW:  return PTX_SPACE_CONST;
    case EMU_PARAM_WINDOW:  return PTX_SPACE_PARAM;
    default:                return PTX_SPACE_NONE;
    }
}

static uint64_t window_of(int space);   /* below, with cvta */

static uint8_t *space_fault(emu_warp *w, const ptx_uop *u, int lane, int acc, int space,
                            uint64_t addr, uint32_t n, uint64_t limit, bool generic)
{
    char where[64] = "";
    if (generic)
        snprintf(where, sizeof where, " (generic address 0x%" PRIx64 ")",
                 (uint64_t)(addr + window_of(space)));
    const char *what = space == PTX_SPACE_SHARED ? "bytes of shared memory of the CTA"
                     : space == PTX_SPACE_LOCAL ? "bytes of local memory (stack) per thread"
                     : space == PTX_SPACE_CONST ? "bytes of constant memory"
                     : "bytes of kernel parameters";
    emu_fault_at(w, u, lane, EMU_FAULT_MEMORY,
                 "%s %s of %u bytes at address 0x%" PRIx64 "%s is outside the %" PRIu64 " %s",
                 space_names[space], acc_names[acc], n, addr, where, limit, what);
    return NULL;
}

/*
** Host pointer to the `n` bytes at `addr` in `space` for thread `lane`,
** or NULL after a fault report.  `align` is the required alignment (0:
** none).  Const and param spaces are read-only.
*/
static uint8_t *mem_ptr(emu_warp *w, const ptx_uop *u, int lane, int space, uint64_t addr,
                        uint32_t n, uint32_t align, int acc)
{
    emu_launch *l = w->launch;
    bool generic = false;
    uint64_t orig = addr;
    if (align > 1 && (addr & (align - 1)))
        return emu_fault_at(w, u, lane, EMU_FAULT_MISALIGNED,
                            "misaligned %s %s of %u bytes at address 0x%" PRIx64
                            " (must be a multiple of %u)", space_names[space],
                            acc_names[acc], n, addr, align), NULL;
    if (space == PTX_SPACE_NONE) {
        generic = true;
        space = generic_space(orig, &addr);
        if (space == PTX_SPACE_NONE)
            return emu_fault_at(w, u, lane, EMU_FAULT_MEMORY,
                                "generic %s of %u bytes at address 0x%" PRIx64
                                " is in no state space", acc_names[acc], n, orig), NULL;
    }
    switch (space) {
    case PTX_SPACE_GLOBAL: {
        bool write = acc == ACC_STORE || acc == ACC_ATOMIC;
        if (!emu_mem_valid(l->gmem, addr, n)) {
            char what[32];
            snprintf(what, sizeof what, "global %s", acc_names[acc]);
            return emu_oob_access(w, u, lane, addr, n, what, write);
        }
        /* loads read never-written memory without making a page; with a
           log, writes go there (wlog.c) */
        uint8_t *p;
        if (write && l->wlog)
            p = (addr & 4095) + n > 4096 ? NULL
              : emu_wlog_put(l->wlog, l->gmem, w, u, lane, addr, n, acc == ACC_ATOMIC);
        else
            p = write ? emu_mem_span(l->gmem, addr, n)
                      : (uint8_t *)(uintptr_t)emu_mem_peek(l->gmem, addr, n);
        if (!p)
            emu_fault_at(w, u, lane, EMU_FAULT_MEMORY,
                         "global %s of %u bytes at address 0x%" PRIx64 ": %s",
                         acc_names[acc], n, addr,
                         (addr & 4095) + n > 4096 ? "crosses a 4 KiB page boundary unaligned"
                                                  : "host out of memory for the page backing it");
        return p;
    }
    case PTX_SPACE_SHARED:
        if (addr > l->shared_bytes || n > l->shared_bytes - addr)
            return space_fault(w, u, lane, acc, space, addr, n, l->shared_bytes, generic);
        return w->cta->shared + addr;
    case PTX_SPACE_LOCAL: {
        if (addr > l->stack_bytes || n > l->stack_bytes - addr)
            return space_fault(w, u, lane, acc, space, addr, n, l->stack_bytes, generic);
        uint8_t *loc = emu_warp_local(w);
        if (!loc)
            return emu_fault_at(w, u, lane, EMU_FAULT_MEMORY,
                                "host out of memory for local memory"), NULL;
        return loc + (size_t)lane * l->stack_bytes + addr;
    }
    case PTX_SPACE_CONST:
        if (addr > l->cmem_size || n > l->cmem_size - addr)
            return space_fault(w, u, lane, acc, space, addr, n, l->cmem_size, generic);
        if (acc == ACC_STORE || acc == ACC_ATOMIC)
            return emu_fault_at(w, u, lane, EMU_FAULT_MEMORY,
                                "%s to constant memory at 0x%" PRIx64 " (read-only)",
                                acc_names[acc], orig), NULL;
        return l->cmem + addr;
    case PTX_SPACE_PARAM: {
        uint32_t size = l->mod->funcs[l->func].param_size;
        if (addr > size || n > size - addr)
            return space_fault(w, u, lane, acc, space, addr, n, size, generic);
        if (acc == ACC_STORE || acc == ACC_ATOMIC)
            return emu_fault_at(w, u, lane, EMU_FAULT_MEMORY,
                                "%s to kernel parameter space at 0x%" PRIx64 " (read-only)",
                                acc_names[acc], orig), NULL;
        return (uint8_t *)l->params + addr;
    }
    default:
        return emu_fault_at(w, u, lane, EMU_FAULT_UNSUPPORTED,
                            "%s %s is not supported", space_names[space], acc_names[acc]), NULL;
    }
}

int emu_generic_read(emu_warp *w, const ptx_uop *u, int lane, uint64_t addr,
                     void *dst, uint32_t n)
{
    uint8_t *p = mem_ptr(w, u, lane, PTX_SPACE_NONE, addr, n, 0, ACC_READ);
    if (!p) return -1;
    memcpy(dst, p, n);
    return 0;
}

static inline uint64_t load_le(const uint8_t *p, uint32_t n)
{
    uint64_t v = 0;
    memcpy(&v, p, n);          /* the host is little-endian like the GPU */
    return v;
}

static inline void store_le(uint8_t *p, uint64_t v, uint32_t n) { memcpy(p, &v, n); }

/* Operand index of the address of memory op `u`. */
static int addr_opd(const ptx_uop *u)
{
    return (u->op == PTX_OP_LD || u->op == PTX_OP_LDU || u->op == PTX_OP_ATOM) ? 1 : 0;
}

void emu_mem_addrs(emu_warp *w, const ptx_uop *u, uint32_t mask, emu_step_info *info)
{
    if (ptx_op_is_tex(u->op)) {
        emu_tex_addrs(w, u, mask, info);
        return;
    }
    const ptx_operand *o = &u->opd[addr_opd(u)];
    if (o->kind != PTX_OPD_ADDR) return;
    emu_addr(w, o, info->addr);
    info->nbytes = (uint32_t)ptx_type_size[u->type] * (u->vec ? u->vec : 1);
}

static int bad_type(emu_warp *w, const ptx_uop *u, uint32_t mask)
{
    return emu_fault_at(w, u, __builtin_ctz(mask), EMU_FAULT_UNSUPPORTED,
                        "%s.%s is not supported", ptx_opcode_names[u->op],
                        ptx_type_names[u->type]);
}

/* ------------------------------------------------------------------ */
/* Loads and stores                                                    */
/* ------------------------------------------------------------------ */

EMU_HANDLER(ld)
{
    uint32_t esz = ptx_type_size[u->type], vec = u->vec ? u->vec : 1, n = esz * vec;
    if (esz == 0 || esz > 8) return bad_type(w, u, mask);
    uint64_t addr[EMU_WARP_SIZE];
    emu_addr(w, &u->opd[1], addr);
    const ptx_operand *d = &u->opd[0];
    int32_t slot[4] = { -1, -1, -1, -1 };
    if (d->kind == PTX_OPD_VEC)
        for (uint32_t e = 0; e < vec && e < d->nvec; e++) slot[e] = d->vreg[e];
    else if (d->kind == PTX_OPD_REG)
        slot[0] = d->reg;
    for (uint32_t m = mask; m; m &= m - 1) {
        int lane = __builtin_ctz(m);
        const uint8_t *p = mem_ptr(w, u, lane, u->space, addr[lane], n, n, ACC_LOAD);
        if (!p) return -1;
        for (uint32_t e = 0; e < vec; e++)
            if (slot[e] >= 0)
                w->r[(size_t)slot[e] * EMU_WARP_SIZE + lane] =
                    emu_norm(load_le(p + e * esz, esz), u->type);
    }
    return 0;
}

EMU_HANDLER(ldu) { return emu_op_ld(w, u, mask); }

EMU_HANDLER(st)
{
    uint32_t esz = ptx_type_size[u->type], vec = u->vec ? u->vec : 1, n = esz * vec;
    if (esz == 0 || esz > 8) return bad_type(w, u, mask);
    uint64_t addr[EMU_WARP_SIZE], val[EMU_WARP_SIZE];
    emu_addr(w, &u->opd[0], addr);
    const ptx_operand *s = &u->opd[1];
    bool is_vec = s->kind == PTX_OPD_VEC;
    if (!is_vec) emu_src(w, s, val);
    for (uint32_t m = mask; m; m &= m - 1) {
        int lane = __builtin_ctz(m);
        uint8_t *p = mem_ptr(w, u, lane, u->space, addr[lane], n, n, ACC_STORE);
        if (!p) return -1;
        if (!is_vec) {
            store_le(p, val[lane], esz);
            continue;
        }
        for (uint32_t e = 0; e < vec; e++) {
            int32_t r = e < s->nvec ? s->vreg[e] : -1;
            uint64_t v = r >= 0 ? w->r[(size_t)r * EMU_WARP_SIZE + lane] : 0;
            store_le(p + e * esz, v, esz);
        }
    }
    return 0;
}

EMU_HANDLER(prefetch) { (void)w; (void)u; (void)mask; return 0; }

/* ------------------------------------------------------------------ */
/* Address conversion                                                  */
/* ------------------------------------------------------------------ */

/* Generic base address of a non-global space's window (0 for global). */
static uint64_t window_of(int space)
{
    switch (space) {
    case PTX_SPACE_SHARED: return EMU_SHARED_WINDOW;
    case PTX_SPACE_LOCAL:  return EMU_LOCAL_WINDOW;
    case PTX_SPACE_CONST:  return EMU_CONST_WINDOW;
    case PTX_SPACE_PARAM:  return EMU_PARAM_WINDOW;
    default:               return 0;
    }
}

EMU_HANDLER(cvta)
{
    uint64_t v[EMU_WARP_SIZE];
    emu_src(w, &u->opd[1], v);
    uint64_t win = window_of(u->space);
    if (win) {
        bool to_generic = u->sub != PTX_CVTA_FROM_GENERIC;
        for (int l = 0; l < EMU_WARP_SIZE; l++)
            v[l] = to_generic ? win + (uint32_t)v[l] : (v[l] & (EMU_WINDOW_SIZE - 1));
    }
    emu_dst(w, &u->opd[0], mask, v, u->type);
    return 0;
}

EMU_HANDLER(isspacep)
{
    uint64_t v[EMU_WARP_SIZE], off;
    emu_src(w, &u->opd[1], v);
    uint32_t bits = 0;
    for (int l = 0; l < EMU_WARP_SIZE; l++) {
        int sp = generic_space(v[l], &off);
        bits |= (uint32_t)(sp == u->space && sp != PTX_SPACE_NONE) << l;
    }
    emu_dst_pred(w, &u->opd[0], mask, bits);
    return 0;
}

/* ------------------------------------------------------------------ */
/* Atomics                                                             */
/* ------------------------------------------------------------------ */

static uint64_t atom_fadd16(uint64_t a, uint64_t b, bool bf)
{
    double s = bf ? fpu_bf2d(a) + fpu_bf2d(b) : fpu_h2d(a) + fpu_h2d(b);
    return bf ? fpu_d2bf(s, PTX_RND_RN) : fpu_d2h(s, PTX_RND_RN);
}

/* New memory value for atomic op `op` of type `t` (size in bytes `n`);
   returns false for a combination that does not exist. */
bool emu_atom_value(int op, ptx_type t, uint32_t n, uint64_t old, uint64_t b, uint64_t c,
                    uint64_t *out)
{
    bool sgn = ptx_type_is_signed(t);
    uint64_t mask = n == 8 ? UINT64_MAX : ((1ull << (8 * n)) - 1);
    old &= mask;
    switch (op) {
    case PTX_ATOM_ADD:
        if (t == PTX_T_F32) *out = fpu_bits32(fpu_ftz32(fpu_ftz32(fpu_f32(old)) + fpu_ftz32(fpu_f32(b))));
        else if (t == PTX_T_F64) *out = fpu_bits64(fpu_f64(old) + fpu_f64(b));
        else if (t == PTX_T_F16 || t == PTX_T_BF16) *out = atom_fadd16(old, b, t == PTX_T_BF16);
        else if (t == PTX_T_F16X2 || t == PTX_T_BF16X2) {
            bool bf = t == PTX_T_BF16X2;
            *out = atom_fadd16(old, b, bf) | atom_fadd16(old >> 16, b >> 16, bf) << 16;
        } else *out = old + b;
        break;
    case PTX_ATOM_MIN: case PTX_ATOM_MAX: {
        bool less;
        if (t == PTX_T_F32) less = fpu_f32(b) < fpu_f32(old);
        else if (t == PTX_T_F64) less = fpu_f64(b) < fpu_f64(old);
        else if (sgn) less = (int64_t)emu_norm(b, t) < (int64_t)emu_norm(old, t);
        else less = (b & mask) < old;
        bool take = op == PTX_ATOM_MIN ? less
                  : (t == PTX_T_F32 ? fpu_f32(b) > fpu_f32(old)
                     : t == PTX_T_F64 ? fpu_f64(b) > fpu_f64(old)
                     : sgn ? (int64_t)emu_norm(b, t) > (int64_t)emu_norm(old, t)
                     : (b & mask) > old);
        *out = take ? b : old;
        break;
    }
    case PTX_ATOM_INC: *out = old >= (b & mask) ? 0 : old + 1; break;
    case PTX_ATOM_DEC: *out = (old == 0 || old > (b & mask)) ? b : old - 1; break;
    case PTX_ATOM_AND: *out = old & b; break;
    case PTX_ATOM_OR:  *out = old | b; break;
    case PTX_ATOM_XOR: *out = old ^ b; break;
    case PTX_ATOM_EXCH: *out = b; break;
    case PTX_ATOM_CAS: *out = old == (b & mask) ? c : old; break;
    default: return false;
    }
    *out &= mask;
    return true;
}

/* The register-stack slot atom's destination is in (-1: none or a sink). */
static int64_t atom_dst_slot(const emu_warp *w, const ptx_uop *u, bool has_dst)
{
    const ptx_operand *d = &u->opd[0];
    if (!has_dst || d->kind != PTX_OPD_REG) return -1;
    return (int64_t)((w->r - w->regstack) / EMU_WARP_SIZE) + d->reg;
}

/* atom (dst, addr, b[, c]) and red (addr, b): `ab` is the address operand. */
static int atom_run(emu_warp *w, const ptx_uop *u, uint32_t mask, int ab, bool has_dst)
{
    uint32_t n = ptx_type_size[u->type];
    if (n != 2 && n != 4 && n != 8) return bad_type(w, u, mask);
    uint64_t addr[EMU_WARP_SIZE], b[EMU_WARP_SIZE], c[EMU_WARP_SIZE], old[EMU_WARP_SIZE];
    emu_addr(w, &u->opd[ab], addr);
    emu_src(w, &u->opd[ab + 1], b);
    if (u->sub == PTX_ATOM_CAS) emu_src(w, &u->opd[ab + 2], c);
    for (uint32_t m = mask; m; m &= m - 1) {
        int lane = __builtin_ctz(m);
        uint8_t *p = mem_ptr(w, u, lane, u->space, addr[lane], n, n, ACC_ATOMIC);
        if (!p) return -1;
        uint64_t nv;
        old[lane] = load_le(p, n);
        if (!emu_atom_value(u->sub, u->type, n, old[lane], b[lane], c[lane], &nv))
            return emu_fault_at(w, u, lane, EMU_FAULT_UNSUPPORTED,
                                "%s operation %u on .%s is not supported",
                                ptx_opcode_names[u->op], u->sub, ptx_type_names[u->type]);
        store_le(p, nv, n);
        /* a logged global atomic is redone when the log is applied (wlog.c) */
        if (w->launch->wlog && emu_wlog_is_last(w->launch->wlog, p))
            emu_wlog_atom(w->launch->wlog, old[lane], b[lane], c[lane],
                          atom_dst_slot(w, u, has_dst));
    }
    if (has_dst) emu_dst(w, &u->opd[0], mask, old, u->type);
    return 0;
}

EMU_HANDLER(atom) { return atom_run(w, u, mask, 1, true); }
EMU_HANDLER(red)  { return atom_run(w, u, mask, 0, false); }
