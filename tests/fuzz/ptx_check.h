/*
** ptx_check.h -- structural invariants of a parsed ptx_module that the
** emulator relies on (slots, targets, indices in range).  Shared by the
** fuzz target and the regression test; header-only so both can use it.
*/
#ifndef WS_PTX_CHECK_H
#define WS_PTX_CHECK_H

#include <stdio.h>
#include "ptx/ptx.h"

/* NULL if `m` is consistent, else a description of the first problem. */
static const char *ptx_check_module(const ptx_module *m, char *buf, size_t n)
{
#define BAD(...) do { snprintf(buf, n, __VA_ARGS__); return buf; } while (0)
    for (uint32_t fi = 0; fi < m->nfuncs; fi++) {
        const ptx_func *f = &m->funcs[fi];
        if (!f->name) BAD("func %u has no name", fi);
        if (f->is_extern) continue;
        if (f->uop_begin > f->uop_end || f->uop_end >= m->nuops) BAD("func %s: bad uop range", f->name);
        if (m->uops[f->uop_end].op != PTX_OP_FUNC_END) BAD("func %s: no FUNC_END", f->name);
        if (f->nblocks == 0 || !f->blocks) BAD("func %s: no blocks", f->name);
        if (f->blocks[0].first != f->uop_begin || f->blocks[f->nblocks - 1].last != f->uop_end)
            BAD("func %s: blocks do not cover the body", f->name);
        for (uint32_t b = 0; b < f->nblocks; b++) {
            const ptx_block *bl = &f->blocks[b];
            if (bl->first > bl->last) BAD("func %s: empty block %u", f->name, b);
            if (b && bl->first != f->blocks[b - 1].last + 1) BAD("func %s: gap before block %u", f->name, b);
            for (int k = 0; k < 2; k++)
                if (bl->succ[k] >= (int32_t)f->nblocks) BAD("func %s: bad successor", f->name);
            if (bl->ipdom >= (int32_t)f->nblocks || bl->ipdom == (int32_t)b) BAD("func %s: bad ipdom", f->name);
        }
        if (f->is_entry && m->nvars && !f->shared_off) BAD("kernel %s: no shared layout", f->name);
        for (uint32_t i = f->uop_begin; i <= f->uop_end; i++) {
            const ptx_uop *u = &m->uops[i];
            if (u->func != fi) BAD("uop %u: wrong func", i);
            if (u->op >= PTX_OP_COUNT || u->op == PTX_OP_NONE) BAD("uop %u: bad opcode", i);
            if (u->nopd > PTX_MAX_OPDS) BAD("uop %u: too many operands", i);
            if (u->guard >= (int32_t)f->npreds) BAD("uop %u: bad guard", i);
            if (u->type >= PTX_T_COUNT || u->type2 >= PTX_T_COUNT) BAD("uop %u: bad type", i);
            if (u->vec != 1 && u->vec != 2 && u->vec != 4) BAD("uop %u: bad vec", i);
            if (u->op == PTX_OP_BRA && (u->target < f->uop_begin || u->target > f->uop_end))
                BAD("uop %u: branch target out of function", i);
            if ((u->op == PTX_OP_BRA || u->op == PTX_OP_RET) && (u->rpc < f->uop_begin || u->rpc > f->uop_end))
                BAD("uop %u: rpc out of function", i);
            if (u->op == PTX_OP_RET && u->target != f->uop_end) BAD("uop %u: ret target", i);
            if (u->op == PTX_OP_CALL) {
                if (u->target >= m->nfuncs || u->aux >= m->ncalls) BAD("uop %u: bad call", i);
                const ptx_call *c = &m->calls[u->aux];
                if (c->callee != u->target || c->nargs > 16 || c->nrets > 4) BAD("uop %u: bad call record", i);
                for (uint32_t a = 0; a < c->nargs; a++)
                    if (c->arg_off[a] + c->arg_size[a] > f->frame_size) BAD("uop %u: arg outside frame", i);
                for (uint32_t a = 0; a < c->nrets; a++)
                    if (c->ret_off[a] + c->ret_size[a] > f->frame_size) BAD("uop %u: ret outside frame", i);
            }
            for (int k = 0; k < u->nopd; k++) {
                const ptx_operand *o = &u->opd[k];
                switch (o->kind) {
                case PTX_OPD_REG:
                    if (o->reg < 0 || o->reg >= (int32_t)f->nregs || o->reg2 >= (int32_t)f->npreds)
                        BAD("uop %u: bad register", i);
                    break;
                case PTX_OPD_PRED:
                    if (o->reg < 0 || o->reg >= (int32_t)f->npreds || o->reg2 >= (int32_t)f->npreds)
                        BAD("uop %u: bad predicate", i);
                    break;
                case PTX_OPD_VEC:
                    if (o->nvec < 1 || o->nvec > 4) BAD("uop %u: bad vector width", i);
                    for (int e = 0; e < o->nvec; e++) {
                        int32_t lim = (int32_t)((o->flags & PTX_OPD_F_VECPRED) ? f->npreds : f->nregs);
                        if (o->vreg[e] >= lim) BAD("uop %u: bad vector element", i);
                    }
                    break;
                case PTX_OPD_ADDR: case PTX_OPD_SYM:
                    if (o->reg >= (int32_t)f->nregs || o->sym >= (int32_t)m->nvars) BAD("uop %u: bad address", i);
                    if ((o->flags & PTX_OPD_F_FRAME) && o->sym >= 0) BAD("uop %u: frame operand with a symbol", i);
                    break;
                case PTX_OPD_SREG:
                    if (o->reg < 1 || o->reg >= PTX_SREG_COUNT || o->reg2 > 2) BAD("uop %u: bad special register", i);
                    break;
                case PTX_OPD_LABEL:
                    if (o->imm < f->uop_begin || o->imm > f->uop_end) BAD("uop %u: bad label", i);
                    break;
                case PTX_OPD_FUNC:
                    if (o->imm < 0 || o->imm >= m->nfuncs) BAD("uop %u: bad function", i);
                    break;
                case PTX_OPD_IMM: case PTX_OPD_SINK:
                    break;
                default:
                    BAD("uop %u: operand %d has no kind", i, k);
                }
            }
        }
    }
    for (uint32_t v = 0; v < m->nvars; v++)
        if (!m->vars[v].name || m->vars[v].align == 0) BAD("var %u: no name or alignment", v);
    return NULL;
#undef BAD
}

#endif /* WS_PTX_CHECK_H */
