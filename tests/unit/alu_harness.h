/*
** alu_harness.h -- building single uops by hand and running one ALU
** handler on a bare warp (no launch, no CTA) for the test_exec_*.c files.
** Header-only (static inline) because each test executable links only its
** own test_*.c plus helpers.c.
*/
#ifndef WS_TEST_ALU_HARNESS_H
#define WS_TEST_ALU_HARNESS_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "emu/emu.h"
#include "emu/exec.h"

#define AH_NREGS 16
#define AH_NPREDS 8

/* A warp with AH_NREGS register slots and AH_NPREDS predicates, all 0. */
static inline emu_warp *ah_warp(void)
{
    emu_warp *w = calloc(1, sizeof *w);
    w->r = calloc((size_t)AH_NREGS * EMU_WARP_SIZE, sizeof(uint64_t));
    w->p = calloc(AH_NPREDS, sizeof(uint32_t));
    w->lanes = EMU_FULL_MASK;
    return w;
}

static inline void ah_free(emu_warp *w)
{
    free(w->r);
    free(w->p);
    free(w);
}

/* ---- operands ------------------------------------------------------ */

static inline ptx_operand ah_none(void)
{
    ptx_operand o = { .kind = PTX_OPD_NONE, .reg = -1, .reg2 = -1, .sym = -1 };
    return o;
}

static inline ptx_operand ah_reg(int slot)
{
    ptx_operand o = { .kind = PTX_OPD_REG, .reg = slot, .reg2 = -1, .sym = -1 };
    return o;
}

static inline ptx_operand ah_imm(int64_t v)
{
    ptx_operand o = { .kind = PTX_OPD_IMM, .reg = -1, .reg2 = -1, .sym = -1, .imm = v };
    return o;
}

static inline ptx_operand ah_pred(int slot)
{
    ptx_operand o = { .kind = PTX_OPD_PRED, .reg = slot, .reg2 = -1, .sym = -1 };
    return o;
}

static inline ptx_operand ah_npred(int slot)
{
    ptx_operand o = ah_pred(slot);
    o.flags = PTX_OPD_F_NEG;
    return o;
}

/* `p|q` destination of setp */
static inline ptx_operand ah_pq(int p, int q)
{
    ptx_operand o = ah_pred(p);
    o.reg2 = q;
    return o;
}

static inline ptx_operand ah_vec(int n, int r0, int r1, int r2, int r3)
{
    ptx_operand o = { .kind = PTX_OPD_VEC, .nvec = (uint8_t)n, .reg = -1, .reg2 = -1,
                      .sym = -1, .vreg = { r0, r1, r2, r3 } };
    return o;
}

/* ---- uops ---------------------------------------------------------- */

/* A uop with up to 5 operands (pass ah_none() for unused ones). */
static inline ptx_uop ah_uop(int op, int type, ptx_operand d, ptx_operand a, ptx_operand b,
                             ptx_operand c, ptx_operand e)
{
    ptx_uop u;
    memset(&u, 0, sizeof u);
    u.op = (uint16_t)op;
    u.type = (uint8_t)type;
    u.guard = -1;
    u.vec = 1;
    u.opd[0] = d; u.opd[1] = a; u.opd[2] = b; u.opd[3] = c; u.opd[4] = e;
    u.nopd = 0;
    for (int i = 0; i < PTX_MAX_OPDS; i++)
        if (u.opd[i].kind != PTX_OPD_NONE)
            u.nopd = (uint8_t)(i + 1);
    return u;
}

#define AH_U1(op, t, d, a) ah_uop(PTX_OP_##op, PTX_T_##t, d, a, ah_none(), ah_none(), ah_none())
#define AH_U2(op, t, d, a, b) ah_uop(PTX_OP_##op, PTX_T_##t, d, a, b, ah_none(), ah_none())
#define AH_U3(op, t, d, a, b, c) ah_uop(PTX_OP_##op, PTX_T_##t, d, a, b, c, ah_none())

/* ---- register access ----------------------------------------------- */

static inline void ah_set(emu_warp *w, int slot, int lane, uint64_t v)
{
    w->r[(size_t)slot * EMU_WARP_SIZE + lane] = v;
}

static inline void ah_set_all(emu_warp *w, int slot, uint64_t v)
{
    for (int l = 0; l < EMU_WARP_SIZE; l++)
        ah_set(w, slot, l, v);
}

static inline uint64_t ah_get(const emu_warp *w, int slot, int lane)
{
    return w->r[(size_t)slot * EMU_WARP_SIZE + lane];
}

/* Run `u` through the dispatch table on the lanes of `mask`. */
static inline int ah_run(emu_warp *w, const ptx_uop *u, uint32_t mask)
{
    return emu_dispatch[u->op](w, u, mask);
}

/* ---- float bit helpers --------------------------------------------- */

static inline uint64_t ah_f32(float f) { uint32_t b; memcpy(&b, &f, 4); return b; }
static inline float ah_as_f32(uint64_t b) { uint32_t x = (uint32_t)b; float f; memcpy(&f, &x, 4); return f; }
static inline uint64_t ah_f64(double d) { uint64_t b; memcpy(&b, &d, 8); return b; }
static inline double ah_as_f64(uint64_t b) { double d; memcpy(&d, &b, 8); return d; }

#endif /* WS_TEST_ALU_HARNESS_H */
