/*
** decl.c -- declarations: .reg registers (with %r<N> ranges), parameters,
** .param inside bodies and call sequences, and .global/.shared/.const/
** .local variables with alignment, array sizes and initializers.
**
** Layout decisions made here: registers get slots as they are declared;
** .func parameters, .local variables and call-sequence .params get
** call-frame offsets; everything else becomes a module variable.
*/
#include <stdlib.h>
#include <string.h>
#include "ptx_internal.h"

/* ------------------------------------------------------------------ */
/* Call frames                                                         */
/* ------------------------------------------------------------------ */

int ptx_frame_alloc(ptx_parser *p, uint32_t size, uint32_t align, const ptx_token *at, uint32_t *off)
{
    uint64_t o = ptx_align_up(p->frame_top, align ? align : 1);
    if (o + size > PTX_MAX_FRAME_BYTES)
        return ptx_err_tok(p, at, "call frame is too large (more than %u bytes)", PTX_MAX_FRAME_BYTES);
    *off = (uint32_t)o;
    p->frame_top = (uint32_t)(o + size);
    if (p->frame_top > p->frame_max) p->frame_max = p->frame_top;
    return 0;
}

/* ------------------------------------------------------------------ */
/* Attributes shared by parameters and variables                       */
/* ------------------------------------------------------------------ */

typedef struct decl_attrs {
    ptx_type type;
    uint32_t align;     /* 0 = natural */
    uint32_t vec;       /* 1, 2, 4 */
    uint8_t  ptr_space; /* .ptr.<space> on a kernel parameter */
} decl_attrs;

static int parse_align(ptx_parser *p, uint32_t *align)
{
    int64_t v;
    const ptx_token *t = ptx_peek(p);
    if (ptx_parse_int(p, &v, "an alignment after .align") < 0) return -1;
    if (v <= 0 || v > (1 << 16) || (v & (v - 1)))
        return ptx_err_tok(p, t, ".align must be a power of two up to 65536, not %lld", (long long)v);
    *align = (uint32_t)v;
    return 0;
}

static ptx_space space_from_dir(const ptx_parser *p, const ptx_token *t)
{
    if (ptx_is_dir(p, t, ".global")) return PTX_SPACE_GLOBAL;
    if (ptx_is_dir(p, t, ".shared") || ptx_is_dir(p, t, ".shared::cta")) return PTX_SPACE_SHARED;
    if (ptx_is_dir(p, t, ".const")) return PTX_SPACE_CONST;
    if (ptx_is_dir(p, t, ".local")) return PTX_SPACE_LOCAL;
    return PTX_SPACE_NONE;
}

/* .attribute( .managed ) and friends: accepted, no effect here */
static int skip_attribute(ptx_parser *p)
{
    if (ptx_expect(p, '(', "after .attribute") < 0) return -1;
    int depth = 1;
    while (depth > 0) {
        const ptx_token *t = ptx_next(p);
        if (t->kind == PTX_TK_EOF || ptx_is_punct(t, ';'))
            return ptx_err_tok(p, t, "unterminated .attribute(...)");
        if (ptx_is_punct(t, '(')) depth++;
        if (ptx_is_punct(t, ')')) depth--;
    }
    return 0;
}

/* Directives between the state space and the name, in any order. */
static int parse_attrs(ptx_parser *p, decl_attrs *a, bool allow_ptr)
{
    memset(a, 0, sizeof *a);
    a->vec = 1;
    for (;;) {
        const ptx_token *t = ptx_peek(p);
        if (t->kind != PTX_TK_DIRECTIVE) break;
        ptx_type ty = ptx_type_from_dir(p, t);
        ptx_next(p);
        if (ty != PTX_T_NONE) {
            if (a->type != PTX_T_NONE)
                return ptx_err_tok(p, t, "more than one type in a declaration");
            a->type = ty;
        } else if (ptx_tok_eq(p, t, ".align")) {
            if (parse_align(p, &a->align) < 0) return -1;
        } else if (ptx_tok_eq(p, t, ".v2") || ptx_tok_eq(p, t, ".v4")) {
            a->vec = ptx_tok_eq(p, t, ".v2") ? 2 : 4;
        } else if (ptx_tok_eq(p, t, ".attribute")) {
            if (skip_attribute(p) < 0) return -1;
        } else if (allow_ptr && ptx_tok_eq(p, t, ".ptr")) {
            a->ptr_space = PTX_SPACE_GLOBAL;
            const ptx_token *sp = ptx_peek(p);
            if (space_from_dir(p, sp) != PTX_SPACE_NONE) {
                a->ptr_space = (uint8_t)space_from_dir(p, sp);
                ptx_next(p);
            }
        } else if (ptx_tok_eq(p, t, ".texref") || ptx_tok_eq(p, t, ".samplerref") ||
                   ptx_tok_eq(p, t, ".surfref")) {
            return ptx_err_tok(p, t, "texture/surface declarations ('%.*s') are not supported",
                               (int)t->len, ptx_tok_text(p, t));
        } else {
            return ptx_err_tok(p, t, "unexpected '%.*s' in a declaration", (int)t->len, ptx_tok_text(p, t));
        }
    }
    if (a->type == PTX_T_NONE) {
        char buf[64];
        return ptx_err_tok(p, ptx_peek(p), "expected a type such as .u32 in the declaration, found %s",
                           ptx_tok_describe(p, ptx_peek(p), buf, sizeof buf));
    }
    return 0;
}

static int expect_name(ptx_parser *p, const ptx_token **name, const char *what)
{
    const ptx_token *t = ptx_peek(p);
    if (t->kind != PTX_TK_IDENT) {
        char buf[64];
        return ptx_err_tok(p, t, "expected %s name, found %s", what, ptx_tok_describe(p, t, buf, sizeof buf));
    }
    *name = t;
    ptx_next(p);
    return 0;
}

/* A new name in the innermost scope; duplicates there are errors. */
static ptx_sym *declare(ptx_parser *p, const ptx_token *name, ptx_sym_kind kind, int64_t val)
{
    ptx_sym *s = ptx_symtab_find(&p->syms, ptx_tok_text(p, name), name->len);
    if (s && (uint32_t)(s - p->syms.e) >= p->scope_mark) {
        ptx_err_tok(p, name, "redeclaration of '%.*s' (first declared at %u:%u)",
                    (int)name->len, ptx_tok_text(p, name), s->line, s->col);
        return NULL;
    }
    s = ptx_symtab_add(&p->syms, ptx_tok_text(p, name), name->len, kind, val);
    if (!s) { ptx_err_oom(p); return NULL; }
    s->line = name->line;
    s->col = name->col;
    return s;
}

/* ------------------------------------------------------------------ */
/* Parameters                                                          */
/* ------------------------------------------------------------------ */

/* optional [N] after a parameter name */
static int parse_param_array(ptx_parser *p, uint64_t *count)
{
    *count = 1;
    if (!ptx_is_punct(ptx_peek(p), '[')) return 0;
    ptx_next(p);
    int64_t v;
    const ptx_token *t = ptx_peek(p);
    if (ptx_parse_int(p, &v, "an array size") < 0) return -1;
    if (v <= 0 || v > (1 << 24))
        return ptx_err_tok(p, t, "bad parameter array size %lld", (long long)v);
    *count = (uint64_t)v;
    return ptx_expect(p, ']', "after the array size");
}

int ptx_parse_param(ptx_parser *p, ptx_param *out, bool is_kernel, const ptx_token **name_tok)
{
    const ptx_token *t = ptx_peek(p);
    memset(out, 0, sizeof *out);
    if (ptx_is_dir(p, t, ".reg"))
        return ptx_err_tok(p, t, ".reg parameters are not supported (use .param)");
    if (!ptx_is_dir(p, t, ".param")) {
        char buf[64];
        return ptx_err_tok(p, t, "expected '.param', found %s", ptx_tok_describe(p, t, buf, sizeof buf));
    }
    ptx_next(p);
    decl_attrs a;
    if (parse_attrs(p, &a, is_kernel) < 0) return -1;
    if (a.type == PTX_T_PRED || ptx_type_size[a.type] == 0)
        return ptx_err_tok(p, t, "parameters of type .%s are not supported", ptx_type_names[a.type]);
    const ptx_token *name;
    if (expect_name(p, &name, "a parameter") < 0) return -1;
    uint64_t count;
    if (parse_param_array(p, &count) < 0) return -1;
    uint32_t elem = ptx_type_size[a.type] * a.vec;
    out->name = ptx_tok_dup(p, name);
    if (!out->name) return ptx_err_oom(p);
    out->type = (uint8_t)a.type;
    out->is_ptr_space = a.ptr_space;
    out->align = a.align ? a.align : elem;
    out->size = (uint32_t)(elem * count);
    *name_tok = name;
    return 0;
}

int ptx_parse_body_param(ptx_parser *p)
{
    ptx_param prm;
    const ptx_token *name;
    if (ptx_parse_param(p, &prm, false, &name) < 0) return -1;
    uint32_t off;
    int rc = ptx_frame_alloc(p, prm.size, prm.align, name, &off);
    if (rc == 0) {
        ptx_sym *s = declare(p, name, PTX_SYM_FRAME, off);
        if (!s) rc = -1;
        else { s->size = prm.size; s->type = prm.type; }
    }
    free(prm.name);
    if (rc < 0) return -1;
    return ptx_expect(p, ';', "after the .param declaration");
}

/* ------------------------------------------------------------------ */
/* Registers                                                           */
/* ------------------------------------------------------------------ */

static int add_reg(ptx_parser *p, const char *name, size_t len, bool pred, const ptx_token *at, ptx_type ty)
{
    ptx_func *f = &p->m->funcs[p->fn];
    uint32_t *n = pred ? &f->npreds : &f->nregs;
    uint32_t *cap = pred ? &p->preds_cap : &p->regs_cap;
    char ***names = pred ? &f->pred_names : &f->reg_names;
    if (f->nregs + f->npreds >= PTX_MAX_REGS_PER_FUNC)
        return ptx_err_tok(p, at, "too many registers in function '%s' (at most %u)",
                           f->name, PTX_MAX_REGS_PER_FUNC);
    if (++p->total_regs > PTX_MAX_REGS_PER_MODULE)
        return ptx_err_tok(p, at, "too many registers in the module (at most %u)", PTX_MAX_REGS_PER_MODULE);
    if (*n == *cap) {
        uint32_t c = *cap ? *cap * 2 : 32;
        char **v = realloc(*names, c * sizeof *v);
        if (!v) return ptx_err_oom(p);
        *names = v;
        *cap = c;
    }
    ptx_sym *s = ptx_symtab_find(&p->syms, name, len);
    if (s && (uint32_t)(s - p->syms.e) >= p->scope_mark)
        return ptx_err_tok(p, at, "redeclaration of '%.*s'", (int)len, name);
    char *copy = malloc(len + 1);
    if (!copy) return ptx_err_oom(p);
    memcpy(copy, name, len);
    copy[len] = 0;
    s = ptx_symtab_add(&p->syms, name, len, pred ? PTX_SYM_PRED : PTX_SYM_REG, *n);
    if (!s) { free(copy); return ptx_err_oom(p); }
    s->type = (uint8_t)ty;
    s->line = at->line;
    s->col = at->col;
    (*names)[(*n)++] = copy;
    return 0;
}

/*
** A vector register `%v` of `vec` elements is `vec` consecutive slots named
** %v.x %v.y %v.z %v.w (names usable in messages and dumps) plus a symbol
** for the whole vector.
*/
static int add_vreg(ptx_parser *p, const char *name, size_t len, const ptx_token *at,
                    ptx_type ty, unsigned vec)
{
    static const char comp[] = "xyzw";
    char buf[160];
    if (len > 120) return ptx_err_tok(p, at, "register name is too long");
    uint32_t first = p->m->funcs[p->fn].nregs;
    for (unsigned i = 0; i < vec; i++) {
        int n = snprintf(buf, sizeof buf, "%.*s.%c", (int)len, name, comp[i]);
        if (add_reg(p, buf, (size_t)n, false, at, ty) < 0) return -1;
    }
    ptx_sym *s = ptx_symtab_find(&p->syms, name, len);
    if (s && (uint32_t)(s - p->syms.e) >= p->scope_mark)
        return ptx_err_tok(p, at, "redeclaration of '%.*s'", (int)len, name);
    s = ptx_symtab_add(&p->syms, name, len, PTX_SYM_VREG, first);
    if (!s) return ptx_err_oom(p);
    s->type = (uint8_t)ty;
    s->size = vec;
    s->line = at->line;
    s->col = at->col;
    return 0;
}

/* One declared name: a scalar or, when vec > 1, a vector register. */
static int add_one_reg(ptx_parser *p, const char *name, size_t len, bool pred,
                       const ptx_token *at, ptx_type ty, unsigned vec)
{
    return vec > 1 ? add_vreg(p, name, len, at, ty, vec) : add_reg(p, name, len, pred, at, ty);
}

/* %r<9> declares %r0 .. %r8 */
static int add_reg_range(ptx_parser *p, const ptx_token *name, bool pred, ptx_type ty, unsigned vec)
{
    ptx_next(p); /* '<' */
    const ptx_token *t = ptx_peek(p);
    if (t->kind != PTX_TK_INT || t->ival > PTX_MAX_REGS_PER_FUNC)
        return ptx_err_tok(p, t, "expected a register count (at most %u) after '<'", PTX_MAX_REGS_PER_FUNC);
    ptx_next(p);
    if (ptx_expect(p, '>', "after the register count") < 0) return -1;
    char buf[160];
    if (name->len > 120) return ptx_err_tok(p, name, "register name is too long");
    for (uint64_t i = 0; i < t->ival; i++) {
        int n = snprintf(buf, sizeof buf, "%.*s%llu", (int)name->len, ptx_tok_text(p, name),
                         (unsigned long long)i);
        if (add_one_reg(p, buf, (size_t)n, pred, name, ty, vec) < 0) return -1;
    }
    return 0;
}

int ptx_parse_reg_decl(ptx_parser *p)
{
    const ptx_token *dir = ptx_next(p); /* .reg */
    decl_attrs a;
    if (parse_attrs(p, &a, false) < 0) return -1;
    if (a.vec != 1 && a.type == PTX_T_PRED)
        return ptx_err_tok(p, dir, "predicate registers cannot be vectors");
    if (ptx_type_size[a.type] > 8)
        return ptx_err_tok(p, dir, "registers of type .%s are not supported", ptx_type_names[a.type]);
    bool pred = a.type == PTX_T_PRED;
    for (;;) {
        const ptx_token *name;
        if (expect_name(p, &name, "a register") < 0) return -1;
        if (ptx_is_punct(ptx_peek(p), '<')) {
            if (add_reg_range(p, name, pred, a.type, a.vec) < 0) return -1;
        } else if (add_one_reg(p, ptx_tok_text(p, name), name->len, pred, name, a.type, a.vec) < 0) {
            return -1;
        }
        if (!ptx_is_punct(ptx_peek(p), ',')) break;
        ptx_next(p);
    }
    return ptx_expect(p, ';', "after the .reg declaration");
}

/* ------------------------------------------------------------------ */
/* Variables and initializers                                          */
/* ------------------------------------------------------------------ */

typedef struct init_list {
    ptx_literal *v;
    const ptx_token **at;
    uint64_t n, cap, max;   /* max: element count when known, else limit */
} init_list;

static int init_push(ptx_parser *p, init_list *il, const ptx_literal *l, const ptx_token *at)
{
    if (il->n >= il->max)
        return ptx_err_tok(p, at, "too many initializers (the variable has %llu elements)",
                           (unsigned long long)il->max);
    if (il->n == il->cap) {
        uint64_t c = il->cap ? il->cap * 2 : 64;
        ptx_literal *v = realloc(il->v, c * sizeof *v);
        if (!v) return ptx_err_oom(p);
        il->v = v;
        const ptx_token **a = realloc(il->at, c * sizeof *a);
        if (!a) return ptx_err_oom(p);
        il->at = a;
        il->cap = c;
    }
    il->v[il->n] = *l;
    il->at[il->n] = at;
    il->n++;
    return 0;
}

static int parse_init_scalar(ptx_parser *p, init_list *il)
{
    bool neg = false;
    const ptx_token *start = ptx_peek(p);
    if (ptx_is_punct(start, '-')) { neg = true; ptx_next(p); }
    const ptx_token *t = ptx_peek(p);
    ptx_literal l = { .present = true };
    if (t->kind == PTX_TK_INT) {
        l.bits = neg ? (uint64_t)0 - t->ival : t->ival;
    } else if (t->kind == PTX_TK_FLOAT) {
        l.fkind = t->fkind;
        l.bits = t->ival;
        if (neg) l.bits ^= t->fkind == PTX_FLT_F32 ? 0x80000000ull : 0x8000000000000000ull;
    } else if (t->kind == PTX_TK_IDENT) {
        return ptx_err_tok(p, t, "initializers that take the address of a symbol ('%.*s') are not supported",
                           (int)t->len, ptx_tok_text(p, t));
    } else {
        char buf[64];
        return ptx_err_tok(p, t, "expected a constant in the initializer, found %s",
                           ptx_tok_describe(p, t, buf, sizeof buf));
    }
    ptx_next(p);
    return init_push(p, il, &l, start);
}

/* value | { item, item, ... } with nested lists flattened */
static int parse_init_item(ptx_parser *p, init_list *il, int depth)
{
    if (!ptx_is_punct(ptx_peek(p), '{')) return parse_init_scalar(p, il);
    if (depth > 8) return ptx_err_tok(p, ptx_peek(p), "initializer lists are nested too deeply");
    ptx_next(p);
    if (ptx_is_punct(ptx_peek(p), '}')) { ptx_next(p); return 0; }
    for (;;) {
        if (parse_init_item(p, il, depth + 1) < 0) return -1;
        if (ptx_is_punct(ptx_peek(p), ',')) { ptx_next(p); continue; }
        return ptx_expect(p, '}', "to close the initializer list");
    }
}

/* Encode the literals as `size` bytes of `elem_type` values. */
static int encode_init(ptx_parser *p, ptx_var *v, const init_list *il, uint32_t elem)
{
    p->init_bytes += v->size;
    if (v->size > PTX_MAX_INIT_BYTES || p->init_bytes > PTX_MAX_INIT_BYTES)
        return ptx_err_at(p, v->line, v->col, "initialized variable '%s' is too large "
                          "(at most %u bytes of initializers)", v->name, PTX_MAX_INIT_BYTES);
    v->init = calloc(1, v->size ? v->size : 1);
    if (!v->init) return ptx_err_oom(p);
    for (uint64_t i = 0; i < il->n; i++) {
        uint64_t bits;
        if (ptx_literal_bits(p, &il->v[i], (ptx_type)v->type, il->at[i], &bits) < 0) return -1;
        for (uint32_t b = 0; b < elem && i * elem + b < v->size; b++)
            v->init[i * elem + b] = (uint8_t)(bits >> (8 * b));
    }
    return 0;
}

typedef struct var_shape {
    uint64_t count;      /* elements, 0 when the first dimension is [] */
    uint64_t inner;      /* elements per first-dimension step */
    bool unsized;
} var_shape;

static int parse_dims(ptx_parser *p, var_shape *sh)
{
    sh->count = 1;
    sh->inner = 1;
    sh->unsized = false;
    for (int dim = 0; ptx_is_punct(ptx_peek(p), '['); dim++) {
        const ptx_token *lb = ptx_next(p);
        if (ptx_is_punct(ptx_peek(p), ']')) {
            if (dim != 0) return ptx_err_tok(p, lb, "only the first array dimension may be empty");
            sh->unsized = true;
            ptx_next(p);
            continue;
        }
        int64_t v;
        const ptx_token *t = ptx_peek(p);
        if (ptx_parse_int(p, &v, "an array size") < 0) return -1;
        if (v <= 0 || (uint64_t)v > PTX_MAX_VAR_BYTES || sh->count > PTX_MAX_VAR_BYTES / (uint64_t)v)
            return ptx_err_tok(p, t, "bad array size %lld", (long long)v);
        sh->count *= (uint64_t)v;
        if (dim > 0) sh->inner *= (uint64_t)v;
        if (ptx_expect(p, ']', "after the array size") < 0) return -1;
    }
    if (sh->unsized) sh->count = 0;
    return 0;
}

/* Record the variable in the module, or (function .local) in the frame. */
static int define_var(ptx_parser *p, ptx_space space, const decl_attrs *a, const ptx_token *name,
                      bool is_extern, bool in_func, ptx_var **out)
{
    ptx_var *v = ptx_new_var(p);
    if (!v) return -1;
    int32_t vi = (int32_t)(v - p->m->vars);
    v->name = ptx_tok_dup(p, name);
    if (!v->name) return ptx_err_oom(p);
    v->space = (uint8_t)space;
    v->type = (uint8_t)a->type;
    v->is_extern = is_extern;
    v->is_func_scope = in_func;
    v->func = in_func ? p->fn : -1;
    v->align = a->align ? a->align : ptx_type_size[a->type] * a->vec;
    if (!v->align) v->align = 1;
    v->line = name->line;
    v->col = name->col;
    ptx_sym *s = declare(p, name, space == PTX_SPACE_LOCAL ? PTX_SYM_FRAME : PTX_SYM_VAR, vi);
    if (!s) return -1;
    s->type = (uint8_t)a->type;
    *out = v;
    return 0;
}

static int parse_one_var(ptx_parser *p, ptx_space space, const decl_attrs *a, bool is_extern, bool in_func)
{
    const ptx_token *name;
    if (expect_name(p, &name, "a variable") < 0) return -1;
    if (ptx_tok_text(p, name)[0] == '%')
        return ptx_err_tok(p, name, "variable names cannot start with '%%'");
    var_shape sh;
    if (parse_dims(p, &sh) < 0) return -1;
    uint32_t elem = ptx_type_size[a->type] * a->vec;
    if (elem == 0) return ptx_err_tok(p, name, "variables of type .pred are not supported");
    ptx_var *v = NULL;
    if (define_var(p, space, a, name, is_extern, in_func, &v) < 0) return -1;
    uint32_t vi = (uint32_t)(v - p->m->vars);

    /* initializers list scalars: a .v4 element takes four */
    init_list il = { .max = sh.unsized ? PTX_MAX_INIT_BYTES / elem * a->vec : sh.count * a->vec };
    int rc = 0;
    if (ptx_is_punct(ptx_peek(p), '=')) {
        const ptx_token *eq = ptx_next(p);
        if (is_extern || space == PTX_SPACE_SHARED || space == PTX_SPACE_LOCAL)
            rc = ptx_err_tok(p, eq, "%s variables cannot have an initializer",
                             is_extern ? ".extern" : space == PTX_SPACE_SHARED ? ".shared" : ".local");
        if (rc == 0) rc = parse_init_item(p, &il, 0);
        if (rc == 0 && sh.unsized) {
            uint64_t step = sh.inner * a->vec;
            sh.count = (il.n + step - 1) / step * sh.inner;
        }
    } else if (sh.unsized && !is_extern) {
        rc = ptx_err_tok(p, name, "array '%.*s' needs a size or an initializer", (int)name->len,
                         ptx_tok_text(p, name));
    }
    v = &p->m->vars[vi];
    if (rc == 0 && sh.count * elem > PTX_MAX_VAR_BYTES)
        rc = ptx_err_tok(p, name, "variable '%s' is too large", v->name);
    if (rc == 0) {
        v->size = sh.count * elem;
        if (!sh.unsized && v->size == 0) rc = ptx_err_tok(p, name, "variable '%s' has size 0", v->name);
    }
    if (rc == 0 && il.n) rc = encode_init(p, v, &il, ptx_type_size[a->type]);
    free(il.v);
    free(il.at);
    if (rc < 0) return -1;
    if (space == PTX_SPACE_LOCAL) {
        uint32_t off;
        if (v->size > PTX_MAX_FRAME_BYTES) return ptx_err_tok(p, name, "local variable '%s' is too large", v->name);
        if (ptx_frame_alloc(p, (uint32_t)v->size, v->align, name, &off) < 0) return -1;
        v->frame_off = off;
        ptx_sym *s = ptx_symtab_find(&p->syms, v->name, strlen(v->name));
        s->val = off;
        s->size = (uint32_t)v->size;
    }
    return 0;
}

int ptx_parse_var_decl(ptx_parser *p, bool in_func, bool is_extern)
{
    const ptx_token *sp = ptx_next(p);
    ptx_space space = space_from_dir(p, sp);
    if (space == PTX_SPACE_NONE)
        return ptx_err_tok(p, sp, "expected a state space, found '%.*s'", (int)sp->len, ptx_tok_text(p, sp));
    if (space == PTX_SPACE_LOCAL && !in_func)
        return ptx_err_tok(p, sp, "module-scope .local variables are not supported");
    if (space == PTX_SPACE_LOCAL && is_extern)
        return ptx_err_tok(p, sp, ".extern .local variables are not supported");
    decl_attrs a;
    if (parse_attrs(p, &a, false) < 0) return -1;
    for (;;) {
        if (parse_one_var(p, space, &a, is_extern, in_func) < 0) return -1;
        if (!ptx_is_punct(ptx_peek(p), ',')) break;
        ptx_next(p);
    }
    return ptx_expect(p, ';', "after the variable declaration");
}
