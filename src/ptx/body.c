/*
** body.c -- function bodies: nested { } scopes, declarations, labels and
** instructions with their operands.  Names are resolved as they are read
** (PTX declares before use); labels may be used before they are defined,
** so their uses are patched when the body ends.
*/
#include <stdlib.h>
#include <string.h>
#include "ptx_internal.h"

#define MAX_SCOPE_DEPTH 64

/* ------------------------------------------------------------------ */
/* Special registers                                                   */
/* ------------------------------------------------------------------ */

static const struct { const char *name; uint8_t id; bool xyz; } sregs[] = {
    {"%tid", PTX_SREG_TID, true},       {"%ntid", PTX_SREG_NTID, true},
    {"%ctaid", PTX_SREG_CTAID, true},   {"%nctaid", PTX_SREG_NCTAID, true},
    {"%laneid", PTX_SREG_LANEID, false}, {"%warpid", PTX_SREG_WARPID, false},
    {"%nwarpid", PTX_SREG_NWARPID, false}, {"%smid", PTX_SREG_SMID, false},
    {"%nsmid", PTX_SREG_NSMID, false},  {"%gridid", PTX_SREG_GRIDID, false},
    {"%clock", PTX_SREG_CLOCK, false},  {"%clock_hi", PTX_SREG_CLOCK_HI, false},
    {"%clock64", PTX_SREG_CLOCK64, false}, {"%globaltimer", PTX_SREG_GLOBALTIMER, false},
    {"%globaltimer_lo", PTX_SREG_GLOBALTIMER_LO, false},
    {"%globaltimer_hi", PTX_SREG_GLOBALTIMER_HI, false},
    {"%lanemask_eq", PTX_SREG_LANEMASK_EQ, false}, {"%lanemask_lt", PTX_SREG_LANEMASK_LT, false},
    {"%lanemask_le", PTX_SREG_LANEMASK_LE, false}, {"%lanemask_gt", PTX_SREG_LANEMASK_GT, false},
    {"%lanemask_ge", PTX_SREG_LANEMASK_GE, false},
    {"%dynamic_smem_size", PTX_SREG_DYNAMIC_SMEM_SIZE, false},
    {"%total_smem_size", PTX_SREG_TOTAL_SMEM_SIZE, false},
    {"WARP_SZ", PTX_SREG_WARPSZ, false},
};

static int find_sreg(const ptx_parser *p, const ptx_token *t)
{
    for (size_t i = 0; i < sizeof sregs / sizeof sregs[0]; i++)
        if (ptx_tok_eq(p, t, sregs[i].name)) return (int)i;
    return -1;
}

static int parse_sreg(ptx_parser *p, const ptx_token *t, int si, ptx_operand *o)
{
    o->kind = PTX_OPD_SREG;
    o->reg = sregs[si].id;
    o->reg2 = -1;
    const ptx_token *c = ptx_peek(p);
    bool has_comp = c->kind == PTX_TK_DIRECTIVE && ptx_adjacent(t, c);
    if (!sregs[si].xyz) {
        if (has_comp)
            return ptx_err_tok(p, c, "special register '%s' has no component '%.*s'", sregs[si].name,
                               (int)c->len, ptx_tok_text(p, c));
        return 0;
    }
    if (!has_comp)
        return ptx_err_tok(p, t, "special register '%s' needs a component (.x, .y or .z)", sregs[si].name);
    ptx_next(p);
    if (ptx_tok_eq(p, c, ".x")) o->reg2 = 0;
    else if (ptx_tok_eq(p, c, ".y")) o->reg2 = 1;
    else if (ptx_tok_eq(p, c, ".z")) o->reg2 = 2;
    else return ptx_err_tok(p, c, "bad component '%.*s' of '%s' (expected .x, .y or .z)",
                            (int)c->len, ptx_tok_text(p, c), sregs[si].name);
    return 0;
}

/* ------------------------------------------------------------------ */
/* Names in operands                                                   */
/* ------------------------------------------------------------------ */

static ptx_sym *lookup(ptx_parser *p, const ptx_token *t)
{
    return ptx_symtab_find(&p->syms, ptx_tok_text(p, t), t->len);
}

/* special registers warpsim does not model (clusters, reserved shared
   memory, performance monitors, ...) */
static bool unsupported_sreg(const ptx_parser *p, const ptx_token *t)
{
    static const char *const prefixes[] = {"%reserved_smem", "%envreg", "%pm", "%aggr_smem",
        "%cluster", "%nclusterid", "%is_explicit_cluster", "%current_graph_exec"};
    for (size_t i = 0; i < sizeof prefixes / sizeof prefixes[0]; i++) {
        size_t n = strlen(prefixes[i]);
        if (t->len >= n && memcmp(ptx_tok_text(p, t), prefixes[i], n) == 0) return true;
    }
    return false;
}

static int undefined_name(ptx_parser *p, const ptx_token *t)
{
    if (unsupported_sreg(p, t))
        return ptx_err_tok(p, t, "special register '%.*s' is not supported", (int)t->len, ptx_tok_text(p, t));
    if (ptx_tok_text(p, t)[0] == '%')
        return ptx_err_tok(p, t, "undeclared register '%.*s'", (int)t->len, ptx_tok_text(p, t));
    return ptx_err_tok(p, t, "undefined symbol '%.*s'", (int)t->len, ptx_tok_text(p, t));
}

/* A variable or parameter name as a memory location (address or value). */
static int symbol_location(ptx_parser *p, const ptx_token *t, const ptx_sym *s, ptx_operand *o)
{
    switch (s->kind) {
    case PTX_SYM_KPARAM:
        o->space = PTX_SPACE_PARAM;
        o->imm = s->val;
        return 0;
    case PTX_SYM_FRAME:
        o->space = PTX_SPACE_LOCAL;
        o->flags |= PTX_OPD_F_FRAME;
        o->imm = s->val;
        return 0;
    case PTX_SYM_VAR:
        o->sym = (int32_t)s->val;
        o->space = p->m->vars[s->val].space;
        return 0;
    default:
        return ptx_err_tok(p, t, "'%.*s' is not a variable", (int)t->len, ptx_tok_text(p, t));
    }
}

static int parse_int_offset(ptx_parser *p, int64_t *acc)
{
    bool neg = false;
    while (ptx_is_punct(ptx_peek(p), '+') || ptx_is_punct(ptx_peek(p), '-')) {
        if (ptx_peek(p)->punct == '-') neg = !neg;
        ptx_next(p);
    }
    const ptx_token *t = ptx_peek(p);
    if (t->kind != PTX_TK_INT) {
        char buf[64];
        return ptx_err_tok(p, t, "expected an integer offset, found %s", ptx_tok_describe(p, t, buf, sizeof buf));
    }
    ptx_next(p);
    *acc = (int64_t)(neg ? (uint64_t)*acc - t->ival : (uint64_t)*acc + t->ival);
    return 0;
}

/* [reg], [reg+imm], [sym], [sym+imm], [imm] */
static int parse_address(ptx_parser *p, ptx_operand *o)
{
    ptx_next(p); /* '[' */
    o->kind = PTX_OPD_ADDR;
    const ptx_token *t = ptx_peek(p);
    if (t->kind == PTX_TK_IDENT) {
        ptx_next(p);
        ptx_sym *s = lookup(p, t);
        if (!s) return undefined_name(p, t);
        if (s->kind == PTX_SYM_REG) o->reg = (int32_t)s->val;
        else if (s->kind == PTX_SYM_PRED)
            return ptx_err_tok(p, t, "predicate '%.*s' cannot be used as an address", (int)t->len, ptx_tok_text(p, t));
        else if (symbol_location(p, t, s, o) < 0) return -1;
        while (ptx_is_punct(ptx_peek(p), '+') || ptx_is_punct(ptx_peek(p), '-'))
            if (parse_int_offset(p, &o->imm) < 0) return -1;
    } else if (t->kind == PTX_TK_INT || ptx_is_punct(t, '-')) {
        if (parse_int_offset(p, &o->imm) < 0) return -1;
    } else {
        char buf[64];
        return ptx_err_tok(p, t, "expected a register, variable or constant address, found %s",
                           ptx_tok_describe(p, t, buf, sizeof buf));
    }
    return ptx_expect(p, ']', "to close the address");
}

/*
** `%v.x` names one element of vector register `s` (a slot); `%v` alone
** names the whole vector. Returns the element's slot, or -2 for the whole
** vector, or -1 after an error.
*/
static int vreg_element(ptx_parser *p, const ptx_token *t, const ptx_sym *s)
{
    const ptx_token *c = ptx_peek(p);
    if (c->kind != PTX_TK_DIRECTIVE || !ptx_adjacent(t, c)) return -2;
    static const char *const comps[] = { ".x", ".y", ".z", ".w", ".r", ".g", ".b", ".a" };
    for (int i = 0; i < 8; i++)
        if (ptx_tok_eq(p, c, comps[i])) {
            if ((uint32_t)(i & 3) >= s->size) break;
            ptx_next(p);
            return (int)s->val + (i & 3);
        }
    return ptx_err_tok(p, c, "bad element '%.*s' of the %u-element vector register '%.*s'",
                       (int)c->len, ptx_tok_text(p, c), s->size, (int)t->len, ptx_tok_text(p, t));
}

/* {%r1, %r2, _, %r4} */
int ptx_parse_vector_operand(ptx_parser *p, ptx_operand *o)
{
    const ptx_token *lb = ptx_next(p);
    o->kind = PTX_OPD_VEC;
    int kind = 0;
    for (;;) {
        const ptx_token *t = ptx_peek(p);
        if (o->nvec == 4) return ptx_err_tok(p, t, "vector operand has more than 4 elements");
        if (t->kind != PTX_TK_IDENT) {
            char buf[64];
            return ptx_err_tok(p, t, "expected a register in the vector operand, found %s",
                               ptx_tok_describe(p, t, buf, sizeof buf));
        }
        ptx_next(p);
        if (ptx_tok_eq(p, t, "_")) {
            o->vreg[o->nvec++] = -1;
        } else {
            ptx_sym *s = lookup(p, t);
            if (!s) return undefined_name(p, t);
            if (s->kind == PTX_SYM_VREG) {
                int e = vreg_element(p, t, s);
                if (e == -1) return -1;
                if (e == -2)
                    return ptx_err_tok(p, t, "a vector register cannot be an element of a vector operand");
                if (kind && kind != PTX_SYM_REG)
                    return ptx_err_tok(p, t, "vector operand mixes predicates and registers");
                kind = PTX_SYM_REG;
                o->vreg[o->nvec++] = e;
                if (ptx_is_punct(ptx_peek(p), ',')) { ptx_next(p); continue; }
                if (ptx_expect(p, '}', "to close the vector operand") < 0) return -1;
                break;
            }
            if (s->kind != PTX_SYM_REG && s->kind != PTX_SYM_PRED)
                return ptx_err_tok(p, t, "vector elements must be registers ('%.*s' is not)", (int)t->len,
                                   ptx_tok_text(p, t));
            if (kind && kind != s->kind)
                return ptx_err_tok(p, t, "vector operand mixes predicates and registers");
            kind = s->kind;
            o->vreg[o->nvec++] = (int32_t)s->val;
        }
        if (ptx_is_punct(ptx_peek(p), ',')) { ptx_next(p); continue; }
        if (ptx_expect(p, '}', "to close the vector operand") < 0) return -1;
        break;
    }
    if (o->nvec == 3) return ptx_err_tok(p, lb, "vector operands have 1, 2 or 4 elements, not 3");
    if (kind == PTX_SYM_PRED) o->flags |= PTX_OPD_F_VECPRED;
    return 0;
}

static int add_fixup(ptx_parser *p, uint32_t uop, uint8_t opd, const ptx_token *t)
{
    if (p->nfixups == p->fixups_cap) {
        uint32_t c = p->fixups_cap ? p->fixups_cap * 2 : 64;
        ptx_fixup *v = realloc(p->fixups, c * sizeof *v);
        if (!v) return ptx_err_oom(p);
        p->fixups = v;
        p->fixups_cap = c;
    }
    p->fixups[p->nfixups++] = (ptx_fixup){ .uop = uop, .opd = opd, .tok = (uint32_t)(t - p->tok) };
    return 0;
}

/* `name`, `%r1`, `%r1|%p2`, `%tid.x`, `sym+4`, label */
static int parse_name_operand(ptx_parser *p, uint32_t ui, int i, ptx_operand *o)
{
    const ptx_token *t = ptx_next(p);
    if (ptx_tok_eq(p, t, "_")) { o->kind = PTX_OPD_SINK; return 0; }
    int si = find_sreg(p, t);
    if (si >= 0) return parse_sreg(p, t, si, o);
    ptx_sym *s = lookup(p, t);
    if (!s) {
        if (p->m->uops[ui].op == PTX_OP_BRA && ptx_tok_text(p, t)[0] != '%') {
            o->kind = PTX_OPD_LABEL;
            return add_fixup(p, ui, (uint8_t)i, t);
        }
        return undefined_name(p, t);
    }
    switch (s->kind) {
    case PTX_SYM_REG:
    case PTX_SYM_PRED:
        o->kind = s->kind == PTX_SYM_REG ? PTX_OPD_REG : PTX_OPD_PRED;
        o->reg = (int32_t)s->val;
        if (i < PTX_MAX_OPDS) p->opd_regtype[i] = s->type;
        if (ptx_is_punct(ptx_peek(p), '|')) {
            ptx_next(p);
            const ptx_token *q = ptx_next(p);
            ptx_sym *qs = q->kind == PTX_TK_IDENT ? lookup(p, q) : NULL;
            if (q->kind == PTX_TK_IDENT && !qs) return undefined_name(p, q);
            if (!qs || qs->kind != PTX_SYM_PRED)
                return ptx_err_tok(p, q, "expected a predicate register after '|'");
            o->reg2 = (int32_t)qs->val;
        }
        return 0;
    case PTX_SYM_FUNC:
        o->kind = PTX_OPD_FUNC;
        o->imm = s->val;
        return 0;
    case PTX_SYM_VREG: {
        int e = vreg_element(p, t, s);
        if (e == -1) return -1;
        if (e >= 0) {
            o->kind = PTX_OPD_REG;
            o->reg = e;
            return 0;
        }
        o->kind = PTX_OPD_VEC;
        o->nvec = (uint8_t)s->size;
        for (uint32_t k = 0; k < s->size; k++) o->vreg[k] = (int32_t)(s->val + k);
        return 0;
    }
    default:
        o->kind = PTX_OPD_SYM;
        if (symbol_location(p, t, s, o) < 0) return -1;
        if (ptx_is_punct(ptx_peek(p), '+') && ptx_peek_at(p, 1)->kind == PTX_TK_INT)
            return parse_int_offset(p, &o->imm);
        return 0;
    }
}

/* One operand of instruction uops[ui] into opd[i]; literals go to `lit`. */
static int parse_operand(ptx_parser *p, uint32_t ui, int i, ptx_literal *lit)
{
    ptx_operand *o = &p->m->uops[ui].opd[i];
    const ptx_token *t = ptx_peek(p);
    if (ptx_is_punct(t, '[')) return parse_address(p, o);
    if (ptx_is_punct(t, '{')) return ptx_parse_vector_operand(p, o);
    if (ptx_is_punct(t, '!')) {
        ptx_next(p);
        const ptx_token *n = ptx_peek(p);
        ptx_sym *s = n->kind == PTX_TK_IDENT ? lookup(p, n) : NULL;
        if (n->kind == PTX_TK_IDENT && !s) { ptx_next(p); return undefined_name(p, n); }
        if (!s || s->kind != PTX_SYM_PRED)
            return ptx_err_tok(p, n, "expected a predicate register after '!'");
        ptx_next(p);
        o->kind = PTX_OPD_PRED;
        o->flags |= PTX_OPD_F_NEG;
        o->reg = (int32_t)s->val;
        return 0;
    }
    bool neg = false;
    if (ptx_is_punct(t, '-')) {
        neg = true;
        ptx_next(p);
        t = ptx_peek(p);
    }
    if (t->kind == PTX_TK_INT || t->kind == PTX_TK_FLOAT) {
        ptx_next(p);
        o->kind = PTX_OPD_IMM;
        lit->present = true;
        lit->fkind = t->kind == PTX_TK_FLOAT ? t->fkind : 0;
        lit->bits = t->ival;
        if (neg && !lit->fkind) lit->bits = (uint64_t)0 - lit->bits;
        else if (neg) lit->bits ^= lit->fkind == PTX_FLT_F32 ? 0x80000000ull : 0x8000000000000000ull;
        return 0;
    }
    char buf[64];
    if (neg || t->kind != PTX_TK_IDENT)
        return ptx_err_tok(p, t, "expected an operand, found %s", ptx_tok_describe(p, t, buf, sizeof buf));
    return parse_name_operand(p, ui, i, o);
}

/* ------------------------------------------------------------------ */
/* Calls                                                               */
/* ------------------------------------------------------------------ */

/* ( name, name ) of call-sequence .params: frame offsets and sizes */
static int parse_call_list(ptx_parser *p, uint32_t *off, uint32_t *size, uint32_t max, uint32_t *n,
                           const char *what)
{
    ptx_next(p); /* '(' */
    *n = 0;
    if (ptx_is_punct(ptx_peek(p), ')')) { ptx_next(p); return 0; }
    for (;;) {
        const ptx_token *t = ptx_peek(p);
        if (*n == max) return ptx_err_tok(p, t, "too many %ss in call (at most %u)", what, max);
        if (t->kind != PTX_TK_IDENT) {
            char buf[64];
            return ptx_err_tok(p, t, "expected a .param name as call %s, found %s", what,
                               ptx_tok_describe(p, t, buf, sizeof buf));
        }
        ptx_next(p);
        ptx_sym *s = lookup(p, t);
        if (!s) return undefined_name(p, t);
        if (s->kind != PTX_SYM_FRAME)
            return ptx_err_tok(p, t, "call %ss must be .param variables declared in the call sequence "
                               "('%.*s' is not supported)", what, (int)t->len, ptx_tok_text(p, t));
        off[*n] = (uint32_t)s->val;
        size[*n] = s->size;
        (*n)++;
        if (ptx_is_punct(ptx_peek(p), ',')) { ptx_next(p); continue; }
        return ptx_expect(p, ')', "after the call list");
    }
}

static int check_call(ptx_parser *p, const ptx_call *c, const ptx_token *callee)
{
    const ptx_func *f = &p->m->funcs[c->callee];
    if (c->nargs != f->nparams || c->nrets != f->nrets)
        return ptx_err_tok(p, callee, "call to '%s' passes %u argument(s) and %u return value(s), "
                           "but it takes %u and %u", f->name, c->nargs, c->nrets, f->nparams, f->nrets);
    for (uint32_t i = 0; i < c->nargs; i++)
        if (c->arg_size[i] != f->params[i].size)
            return ptx_err_tok(p, callee, "argument %u of call to '%s' has %u bytes, the parameter has %u",
                               i + 1, f->name, c->arg_size[i], f->params[i].size);
    for (uint32_t i = 0; i < c->nrets; i++)
        if (c->ret_size[i] != f->rets[i].size)
            return ptx_err_tok(p, callee, "return value %u of call to '%s' has %u bytes, the function returns %u",
                               i + 1, f->name, c->ret_size[i], f->rets[i].size);
    return 0;
}

/* call{.uni} [(rets),] func [, (args)] ; */
static int parse_call(ptx_parser *p, uint32_t ui)
{
    ptx_call tmp;
    memset(&tmp, 0, sizeof tmp);
    if (ptx_is_punct(ptx_peek(p), '(')) {
        if (parse_call_list(p, tmp.ret_off, tmp.ret_size, PTX_MAX_CALL_RETS, &tmp.nrets, "return value") < 0)
            return -1;
        if (ptx_expect(p, ',', "after the call's return values") < 0) return -1;
    }
    const ptx_token *callee = ptx_peek(p);
    if (callee->kind != PTX_TK_IDENT) {
        char buf[64];
        return ptx_err_tok(p, callee, "expected a function name in call, found %s",
                           ptx_tok_describe(p, callee, buf, sizeof buf));
    }
    ptx_next(p);
    ptx_sym *s = lookup(p, callee);
    if (!s)
        return ptx_err_tok(p, callee, "call to undeclared function '%.*s'", (int)callee->len,
                           ptx_tok_text(p, callee));
    if (s->kind == PTX_SYM_REG)
        return ptx_err_tok(p, callee, "indirect calls through a register are not supported");
    if (s->kind != PTX_SYM_FUNC)
        return ptx_err_tok(p, callee, "'%.*s' is not a function", (int)callee->len, ptx_tok_text(p, callee));
    if (p->m->funcs[s->val].is_entry)
        return ptx_err_tok(p, callee, "cannot call kernel '%.*s' (.entry)", (int)callee->len,
                           ptx_tok_text(p, callee));
    tmp.callee = (uint32_t)s->val;
    if (ptx_is_punct(ptx_peek(p), ',')) {
        ptx_next(p);
        if (!ptx_is_punct(ptx_peek(p), '('))
            return ptx_err_tok(p, ptx_peek(p), "expected '(' to start the call arguments");
        if (parse_call_list(p, tmp.arg_off, tmp.arg_size, PTX_MAX_CALL_ARGS, &tmp.nargs, "argument") < 0)
            return -1;
        if (ptx_is_punct(ptx_peek(p), ','))
            return ptx_err_tok(p, ptx_peek(p), "call prototypes and target lists are not supported");
    }
    if (check_call(p, &tmp, callee) < 0) return -1;
    ptx_call *c = ptx_new_call(p);
    if (!c) return -1;
    *c = tmp;
    ptx_uop *u = &p->m->uops[ui];
    u->target = tmp.callee;
    u->aux = (uint16_t)(c - p->m->calls);
    u->nopd = 1;
    u->opd[0].kind = PTX_OPD_FUNC;
    u->opd[0].imm = tmp.callee;
    return 0;
}

/* ------------------------------------------------------------------ */
/* Instructions                                                        */
/* ------------------------------------------------------------------ */

static int parse_guard(ptx_parser *p, ptx_uop *u)
{
    ptx_next(p); /* '@' */
    if (ptx_is_punct(ptx_peek(p), '!')) { ptx_next(p); u->guard_neg = 1; }
    const ptx_token *t = ptx_peek(p);
    ptx_sym *s = t->kind == PTX_TK_IDENT ? lookup(p, t) : NULL;
    if (t->kind == PTX_TK_IDENT && !s) return undefined_name(p, t);
    if (!s || s->kind != PTX_SYM_PRED) {
        char buf[64];
        return ptx_err_tok(p, t, "expected a predicate register after '@', found %s",
                           ptx_tok_describe(p, t, buf, sizeof buf));
    }
    ptx_next(p);
    u->guard = (int32_t)s->val;
    return 0;
}

/* ld.param/st.param on frame variables, or anywhere in a .func, are
   call-frame accesses in the local space. */
static int fix_param_space(ptx_parser *p, ptx_uop *u, const ptx_token *mn)
{
    if (u->space != PTX_SPACE_PARAM) return 0;
    if (u->op != PTX_OP_LD && u->op != PTX_OP_ST) return 0;
    const ptx_operand *a = &u->opd[u->op == PTX_OP_LD ? 1 : 0];
    if (a->sym >= 0)
        return ptx_err_tok(p, mn, "%s.param needs a parameter, not variable '%s'",
                           ptx_opcode_names[u->op], p->m->vars[a->sym].name);
    if ((a->flags & PTX_OPD_F_FRAME) || !p->m->funcs[p->fn].is_entry)
        u->space = PTX_SPACE_LOCAL;
    return 0;
}

static int parse_instruction(ptx_parser *p)
{
    ptx_uop *u = ptx_new_uop(p);
    if (!u) return -1;
    uint32_t ui = (uint32_t)(u - p->m->uops);
    u->func = (uint32_t)p->fn;
    if (ptx_is_punct(ptx_peek(p), '@') && parse_guard(p, u) < 0) return -1;
    const ptx_token *mn = ptx_peek(p);
    if (mn->kind != PTX_TK_IDENT || ptx_tok_text(p, mn)[0] == '%') {
        char buf[64];
        return ptx_err_tok(p, mn, "expected an instruction, found %s", ptx_tok_describe(p, mn, buf, sizeof buf));
    }
    ptx_next(p);
    u->line = mn->line;
    u->col = (uint16_t)(mn->col > UINT16_MAX ? UINT16_MAX : mn->col);
    uint32_t mods[PTX_MAX_MODS], nmods = 0;
    for (const ptx_token *prev = mn; ptx_peek(p)->kind == PTX_TK_DIRECTIVE && ptx_adjacent(prev, ptx_peek(p));) {
        if (nmods == PTX_MAX_MODS) return ptx_err_tok(p, ptx_peek(p), "too many modifiers");
        prev = ptx_next(p);
        mods[nmods++] = (uint32_t)(prev - p->tok);
    }
    u->op = (uint16_t)ptx_opcode_lookup(ptx_tok_text(p, mn), mn->len);
    if (u->op == PTX_OP_BAR && nmods && ptx_is_dir(p, &p->tok[mods[0]], ".warp")) {
        u->op = PTX_OP_BARWARP;
        memmove(mods, mods + 1, --nmods * sizeof mods[0]);
    }
    if (u->op == PTX_OP_NONE)
        return ptx_err_tok(p, mn, "%s instruction '%.*s'",
                           ptx_known_unsupported(ptx_tok_text(p, mn), mn->len) ? "unsupported" : "unknown",
                           (int)mn->len, ptx_tok_text(p, mn));
    if (ptx_decode_mods(p, u, mn, mods, nmods) < 0) return -1;

    if (u->op == PTX_OP_CALL) {
        if (parse_call(p, ui) < 0) return -1;
        return ptx_expect(p, ';', "after instruction");
    }
    ptx_literal lit[PTX_MAX_OPDS];
    uint32_t opd_tok[PTX_MAX_OPDS];
    memset(lit, 0, sizeof lit);
    memset(p->opd_regtype, 0, sizeof p->opd_regtype);
    int n = 0;
    if (!ptx_is_punct(ptx_peek(p), ';')) {
        for (;;) {
            if (n == PTX_MAX_OPDS)
                return ptx_err_tok(p, ptx_peek(p), "too many operands for '%.*s' (at most %d)",
                                   (int)mn->len, ptx_tok_text(p, mn), PTX_MAX_OPDS);
            opd_tok[n] = (uint32_t)p->pos;
            if (ptx_op_is_tex(p->m->uops[ui].op) && ptx_is_punct(ptx_peek(p), '[')) {
                /* [handle, {coordinates}]: two operands (texinst.c) */
                int k = ptx_parse_tex_address(p, ui, n);
                if (k < 0) return -1;
                if (k == 2) opd_tok[n + 1] = opd_tok[n];
                n += k;
            } else {
                if (parse_operand(p, ui, n, &lit[n]) < 0) return -1;
                n++;
            }
            if (!ptx_is_punct(ptx_peek(p), ',')) break;
            ptx_next(p);
        }
    }
    if (ptx_expect(p, ';', "after instruction") < 0) return -1;
    u = &p->m->uops[ui];
    u->nopd = (uint8_t)n;
    if (ptx_check_operands(p, u, mn, lit, opd_tok) < 0) return -1;
    if (ptx_check_insn(p, u, mn, lit, opd_tok) < 0) return -1;
    return fix_param_space(p, u, mn);
}

/* ------------------------------------------------------------------ */
/* Labels and the body loop                                            */
/* ------------------------------------------------------------------ */

static int define_label(ptx_parser *p, const ptx_token *t)
{
    ptx_sym *s = ptx_symtab_find(&p->labels, ptx_tok_text(p, t), t->len);
    if (s)
        return ptx_err_tok(p, t, "duplicate label '%.*s' (first defined at %u:%u)", (int)t->len,
                           ptx_tok_text(p, t), s->line, s->col);
    s = ptx_symtab_add(&p->labels, ptx_tok_text(p, t), t->len, PTX_SYM_LABEL, p->m->nuops);
    if (!s) return ptx_err_oom(p);
    s->line = t->line;
    s->col = t->col;
    return 0;
}

static int resolve_fixups(ptx_parser *p)
{
    for (uint32_t i = 0; i < p->nfixups; i++) {
        const ptx_fixup *fx = &p->fixups[i];
        const ptx_token *t = &p->tok[fx->tok];
        ptx_sym *s = ptx_symtab_find(&p->labels, ptx_tok_text(p, t), t->len);
        if (!s) return ptx_err_tok(p, t, "undefined label '%.*s'", (int)t->len, ptx_tok_text(p, t));
        ptx_uop *u = &p->m->uops[fx->uop];
        u->opd[fx->opd].imm = s->val;
        if (u->op == PTX_OP_BRA) u->target = (uint32_t)s->val;
    }
    return 0;
}

static int parse_body_directive(ptx_parser *p)
{
    const ptx_token *t = ptx_peek(p);
    if (ptx_is_dir(p, t, ".reg")) return ptx_parse_reg_decl(p);
    if (ptx_is_dir(p, t, ".param")) return ptx_parse_body_param(p);
    if (ptx_is_dir(p, t, ".local") || ptx_is_dir(p, t, ".shared") || ptx_is_dir(p, t, ".global") ||
        ptx_is_dir(p, t, ".const") || ptx_is_dir(p, t, ".shared::cta"))
        return ptx_parse_var_decl(p, true, false);
    if (ptx_is_dir(p, t, ".extern")) {
        ptx_next(p);
        return ptx_parse_var_decl(p, true, true);
    }
    if (ptx_is_dir(p, t, ".loc") || ptx_is_dir(p, t, ".file")) {
        ptx_next(p);
        while (ptx_peek(p)->kind != PTX_TK_EOF && ptx_peek(p)->line == t->line) ptx_next(p);
        return 0;
    }
    if (ptx_is_dir(p, t, ".pragma")) {
        ptx_next(p);
        do {
            if (ptx_peek(p)->kind != PTX_TK_STRING)
                return ptx_err_tok(p, ptx_peek(p), "expected a string after .pragma");
            ptx_next(p);
        } while (ptx_is_punct(ptx_peek(p), ',') && ptx_next(p));
        return ptx_expect(p, ';', "after .pragma");
    }
    if (ptx_is_dir(p, t, ".callprototype") || ptx_is_dir(p, t, ".branchtargets") ||
        ptx_is_dir(p, t, ".calltargets"))
        return ptx_err_tok(p, t, "indirect branches and calls ('%.*s') are not supported", (int)t->len,
                           ptx_tok_text(p, t));
    return ptx_err_tok(p, t, "unsupported directive '%.*s' in a function body", (int)t->len,
                       ptx_tok_text(p, t));
}

/* Statements until the '}' that closes the body; { } blocks are scopes. */
static int parse_statements(ptx_parser *p)
{
    uint32_t marks[MAX_SCOPE_DEPTH], frames[MAX_SCOPE_DEPTH];
    int depth = 0;
    for (;;) {
        const ptx_token *t = ptx_peek(p);
        int rc = 0;
        if (t->kind == PTX_TK_EOF) {
            return ptx_err_tok(p, t, "unexpected end of file in the body of '%s' (missing '}')",
                               p->m->funcs[p->fn].name);
        } else if (ptx_is_punct(t, '}')) {
            ptx_next(p);
            if (depth == 0) return 0;
            ptx_symtab_pop(&p->syms, p->scope_mark);
            p->scope_mark = marks[--depth];
            /* the block's frame variables are dead: siblings reuse the space */
            p->frame_top = frames[depth];
        } else if (ptx_is_punct(t, '{')) {
            if (depth == MAX_SCOPE_DEPTH) return ptx_err_tok(p, t, "blocks are nested too deeply");
            ptx_next(p);
            frames[depth] = p->frame_top;
            marks[depth++] = p->scope_mark;
            p->scope_mark = p->syms.n;
        } else if (t->kind == PTX_TK_DIRECTIVE) {
            rc = parse_body_directive(p);
        } else if (t->kind == PTX_TK_IDENT && ptx_is_punct(ptx_peek_at(p, 1), ':')) {
            ptx_next(p);
            ptx_next(p);
            rc = define_label(p, t);
        } else if (t->kind == PTX_TK_IDENT || ptx_is_punct(t, '@')) {
            rc = parse_instruction(p);
        } else {
            char buf[64];
            rc = ptx_err_tok(p, t, "expected an instruction, label or directive, found %s",
                             ptx_tok_describe(p, t, buf, sizeof buf));
        }
        if (rc < 0) return -1;
    }
}

int ptx_parse_body(ptx_parser *p)
{
    ptx_func *f = &p->m->funcs[p->fn];
    ptx_next(p); /* '{' */
    ptx_symtab_pop(&p->labels, 0);
    p->nfixups = 0;
    p->regs_cap = p->preds_cap = 0;
    f->uop_begin = p->m->nuops;
    uint32_t mark = p->syms.n;
    int rc = parse_statements(p);
    /* parse errors can leave inner scopes open: unwind to the body scope */
    ptx_symtab_pop(&p->syms, mark);
    p->scope_mark = mark;
    if (rc < 0) return -1;
    const ptx_token *close = &p->tok[p->pos - 1];
    ptx_uop *end = ptx_new_uop(p);
    if (!end) return -1;
    f = &p->m->funcs[p->fn];
    end->op = PTX_OP_FUNC_END;
    end->func = (uint32_t)p->fn;
    end->line = close->line;
    end->col = (uint16_t)(close->col > UINT16_MAX ? UINT16_MAX : close->col);
    f->uop_end = p->m->nuops - 1;
    for (uint32_t i = f->uop_begin; i < f->uop_end; i++)
        if (p->m->uops[i].op == PTX_OP_RET) p->m->uops[i].target = f->uop_end;
    if (resolve_fixups(p) < 0) return -1;
    f->frame_size = (uint32_t)ptx_align_up(p->frame_max, 16);
    return ptx_build_cfg(p, (uint32_t)p->fn);
}
