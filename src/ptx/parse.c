/*
** parse.c -- module-level PTX grammar: .version/.target/.address_size,
** debug directives that are skipped, variable declarations and function
** headers (.entry/.func with parameters, return values and performance
** directives).  Bodies are parsed by body.c.  Also the token and error
** helpers shared by all parser files.
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "ptx_internal.h"

/* ------------------------------------------------------------------ */
/* Errors and tokens                                                   */
/* ------------------------------------------------------------------ */

static int verr(ptx_parser *p, uint32_t line, uint32_t col, const char *fmt, va_list ap)
{
    if (p->failed) return -1;   /* keep the first error */
    char what[480];
    vsnprintf(what, sizeof what, fmt, ap);
    p->failed = true;
    p->err->line = line;
    p->err->col = col;
    snprintf(p->err->msg, sizeof p->err->msg, "%s:%u:%u: error: %s",
             p->filename, line, col, what);
    return -1;
}

int ptx_err_at(ptx_parser *p, uint32_t line, uint32_t col, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    verr(p, line, col, fmt, ap);
    va_end(ap);
    return -1;
}

int ptx_err_tok(ptx_parser *p, const ptx_token *t, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    verr(p, t->line, t->col, fmt, ap);
    va_end(ap);
    return -1;
}

int ptx_err_oom(ptx_parser *p)
{
    return ptx_err_tok(p, ptx_peek(p), "out of memory");
}

bool ptx_tok_eq(const ptx_parser *p, const ptx_token *t, const char *s)
{
    size_t n = strlen(s);
    return t->len == n && memcmp(p->src + t->off, s, n) == 0;
}

bool ptx_is_dir(const ptx_parser *p, const ptx_token *t, const char *s)
{
    return t->kind == PTX_TK_DIRECTIVE && ptx_tok_eq(p, t, s);
}

const char *ptx_tok_text(const ptx_parser *p, const ptx_token *t)
{
    return p->src + t->off;
}

char *ptx_tok_dup(const ptx_parser *p, const ptx_token *t)
{
    char *s = malloc(t->len + 1);
    if (!s) return NULL;
    memcpy(s, p->src + t->off, t->len);
    s[t->len] = 0;
    return s;
}

const char *ptx_tok_describe(const ptx_parser *p, const ptx_token *t, char *buf, size_t n)
{
    if (t->kind == PTX_TK_EOF) return "end of file";
    int len = t->len > 40 ? 40 : (int)t->len;
    snprintf(buf, n, "'%.*s'", len, p->src + t->off);
    return buf;
}

int ptx_expect(ptx_parser *p, char c, const char *context)
{
    const ptx_token *t = ptx_peek(p);
    if (ptx_is_punct(t, c)) {
        ptx_next(p);
        return 0;
    }
    char buf[64];
    return ptx_err_tok(p, t, "expected '%c' %s, found %s", c, context,
                       ptx_tok_describe(p, t, buf, sizeof buf));
}

int ptx_parse_int(ptx_parser *p, int64_t *v, const char *what)
{
    bool neg = false;
    if (ptx_is_punct(ptx_peek(p), '-')) {
        neg = true;
        ptx_next(p);
    }
    const ptx_token *t = ptx_peek(p);
    if (t->kind != PTX_TK_INT) {
        char buf[64];
        return ptx_err_tok(p, t, "expected %s, found %s", what, ptx_tok_describe(p, t, buf, sizeof buf));
    }
    ptx_next(p);
    *v = (int64_t)(neg ? (uint64_t)0 - t->ival : t->ival);
    return 0;
}

ptx_type ptx_type_from_name(const char *s, size_t len)
{
    for (int t = PTX_T_PRED; t < PTX_T_COUNT; t++) {
        const char *n = ptx_type_names[t];
        if (strlen(n) == len && memcmp(n, s, len) == 0) return (ptx_type)t;
    }
    return PTX_T_NONE;
}

ptx_type ptx_type_from_dir(const ptx_parser *p, const ptx_token *t)
{
    if (t->kind != PTX_TK_DIRECTIVE || t->len < 2) return PTX_T_NONE;
    return ptx_type_from_name(p->src + t->off + 1, t->len - 1);
}

/* ------------------------------------------------------------------ */
/* Growing the module arrays                                           */
/* ------------------------------------------------------------------ */

static void *grow(void *v, uint32_t *cap, uint32_t n, size_t elem)
{
    if (n < *cap) return v;
    uint32_t c = *cap ? *cap * 2 : 16;
    void *nv = realloc(v, (size_t)c * elem);
    if (!nv) return NULL;
    memset((char *)nv + (size_t)*cap * elem, 0, (size_t)(c - *cap) * elem);
    *cap = c;
    return nv;
}

ptx_uop *ptx_new_uop(ptx_parser *p)
{
    ptx_module *m = p->m;
    if (m->nuops >= PTX_MAX_UOPS) {
        ptx_err_tok(p, ptx_peek(p), "too many instructions in one module");
        return NULL;
    }
    ptx_uop *v = grow(m->uops, &p->uops_cap, m->nuops, sizeof *v);
    if (!v) { ptx_err_oom(p); return NULL; }
    m->uops = v;
    ptx_uop *u = &v[m->nuops++];
    memset(u, 0, sizeof *u);
    u->guard = -1;
    u->vec = 1;
    for (int i = 0; i < PTX_MAX_OPDS; i++) {
        ptx_operand *o = &u->opd[i];
        o->reg = o->reg2 = o->sym = -1;
        for (int k = 0; k < 4; k++) o->vreg[k] = -1;
    }
    return u;
}

ptx_var *ptx_new_var(ptx_parser *p)
{
    ptx_module *m = p->m;
    ptx_var *v = grow(m->vars, &p->vars_cap, m->nvars, sizeof *v);
    if (!v) { ptx_err_oom(p); return NULL; }
    m->vars = v;
    ptx_var *x = &v[m->nvars++];
    memset(x, 0, sizeof *x);
    x->func = -1;
    return x;
}

ptx_call *ptx_new_call(ptx_parser *p)
{
    ptx_module *m = p->m;
    if (m->ncalls >= UINT16_MAX) {
        ptx_err_tok(p, ptx_peek(p), "too many call sites in one module (at most %u)", UINT16_MAX);
        return NULL;
    }
    ptx_call *v = grow(m->calls, &p->calls_cap, m->ncalls, sizeof *v);
    if (!v) { ptx_err_oom(p); return NULL; }
    m->calls = v;
    ptx_call *c = &v[m->ncalls++];
    memset(c, 0, sizeof *c);
    return c;
}

static ptx_func *new_func(ptx_parser *p)
{
    ptx_module *m = p->m;
    ptx_func *v = grow(m->funcs, &p->funcs_cap, m->nfuncs, sizeof *v);
    if (!v) { ptx_err_oom(p); return NULL; }
    m->funcs = v;
    ptx_func *f = &v[m->nfuncs++];
    memset(f, 0, sizeof *f);
    return f;
}

/* ------------------------------------------------------------------ */
/* Module header and skipped directives                                */
/* ------------------------------------------------------------------ */

static int parse_version(ptx_parser *p, const ptx_token *dir)
{
    const ptx_token *t = ptx_peek(p);
    unsigned major = 0, minor = 0;
    char buf[32];
    int n = t->len < sizeof buf ? (int)t->len : (int)sizeof buf - 1;
    memcpy(buf, ptx_tok_text(p, t), (size_t)n);
    buf[n] = 0;
    int used = 0;
    if ((t->kind != PTX_TK_FLOAT && t->kind != PTX_TK_INT) ||
        sscanf(buf, "%3u.%3u%n", &major, &minor, &used) != 2 || used != n)
        return ptx_err_tok(p, t, "expected a version number such as 8.0 after .version");
    ptx_next(p);
    if (major < 6)
        return ptx_err_tok(p, dir, ".version %u.%u is not supported (need 6.0 or later)", major, minor);
    if (ptx_check_version(p, dir, major, minor) < 0) return -1;
    p->m->version_major = major;
    p->m->version_minor = minor;
    return 0;
}

static int parse_target(ptx_parser *p)
{
    const ptx_token *t = ptx_peek(p);
    if (t->kind != PTX_TK_IDENT)
        return ptx_err_tok(p, t, "expected a target name such as sm_80 after .target");
    if (ptx_check_target(p, t) < 0) return -1;
    ptx_next(p);
    free(p->m->target);
    p->m->target = ptx_tok_dup(p, t);
    if (!p->m->target) return ptx_err_oom(p);
    while (ptx_is_punct(ptx_peek(p), ',')) {   /* sm_75, debug / texmode_* */
        ptx_next(p);
        if (ptx_peek(p)->kind != PTX_TK_IDENT)
            return ptx_err_tok(p, ptx_peek(p), "expected a target option after ','");
        ptx_next(p);
    }
    return 0;
}

static int parse_address_size(ptx_parser *p)
{
    int64_t v;
    const ptx_token *t = ptx_peek(p);
    if (ptx_parse_int(p, &v, "32 or 64 after .address_size") < 0) return -1;
    if (v != 32 && v != 64)
        return ptx_err_tok(p, t, ".address_size must be 32 or 64, not %lld", (long long)v);
    if (ptx_check_address_size(p, t, v) < 0) return -1;
    p->m->address_size = (uint32_t)v;
    return 0;
}

/* .loc/.file have no ';': their operands end with the line. */
static void skip_rest_of_line(ptx_parser *p, const ptx_token *dir)
{
    while (ptx_peek(p)->kind != PTX_TK_EOF && ptx_peek(p)->line == dir->line)
        ptx_next(p);
}

/* .section .debug_xxx { ... } with nested braces (DWARF from nvcc -G) */
static int skip_section(ptx_parser *p, const ptx_token *dir)
{
    while (!ptx_is_punct(ptx_peek(p), '{')) {
        if (ptx_peek(p)->kind == PTX_TK_EOF || ptx_is_punct(ptx_peek(p), ';'))
            return ptx_err_tok(p, ptx_peek(p), "expected '{' after .section name");
        ptx_next(p);
    }
    int depth = 0;
    do {
        const ptx_token *t = ptx_next(p);
        if (t->kind == PTX_TK_EOF)
            return ptx_err_tok(p, dir, "unterminated .section (missing '}')");
        if (ptx_is_punct(t, '{')) depth++;
        else if (ptx_is_punct(t, '}')) depth--;
    } while (depth > 0);
    return 0;
}

/* .pragma "..." [, "..."]* ; */
static int skip_pragma(ptx_parser *p)
{
    do {
        if (ptx_peek(p)->kind != PTX_TK_STRING)
            return ptx_err_tok(p, ptx_peek(p), "expected a string after .pragma");
        ptx_next(p);
    } while (ptx_is_punct(ptx_peek(p), ',') && ptx_next(p));
    return ptx_expect(p, ';', "after .pragma");
}

/* ------------------------------------------------------------------ */
/* Function headers                                                    */
/* ------------------------------------------------------------------ */

static void free_params(ptx_param *v, uint32_t n)
{
    for (uint32_t i = 0; v && i < n; i++) free(v[i].name);
    free(v);
}

/* ( .param ..., .param ... ) into a fresh array */
static int parse_param_list(ptx_parser *p, bool is_kernel, ptx_param **out, uint32_t *nout)
{
    ptx_param *v = NULL;
    uint32_t n = 0, cap = 0;
    *out = NULL;
    *nout = 0;
    if (ptx_expect(p, '(', "to start the parameter list") < 0) return -1;
    if (ptx_is_punct(ptx_peek(p), ')')) { ptx_next(p); return 0; }
    for (;;) {
        if (n == cap) {
            cap = cap ? cap * 2 : 8;
            ptx_param *nv = realloc(v, cap * sizeof *nv);
            if (!nv) { free_params(v, n); return ptx_err_oom(p); }
            v = nv;
        }
        const ptx_token *name;
        if (ptx_parse_param(p, &v[n], is_kernel, &name) < 0) { free_params(v, n); return -1; }
        for (uint32_t i = 0; i < n; i++)
            if (strcmp(v[i].name, v[n].name) == 0) {
                free(v[n].name);
                free_params(v, n);
                return ptx_err_tok(p, name, "duplicate parameter name '%.*s'", (int)name->len,
                                   ptx_tok_text(p, name));
            }
        n++;
        if (n > 4096) { free_params(v, n); return ptx_err_tok(p, name, "too many parameters"); }
        if (ptx_is_punct(ptx_peek(p), ',')) { ptx_next(p); continue; }
        if (ptx_expect(p, ')', "after the parameter list") < 0) { free_params(v, n); return -1; }
        break;
    }
    *out = v;
    *nout = n;
    return 0;
}

static int parse_dims(ptx_parser *p, uint32_t *out, int maxn, const char *dir)
{
    int n = 0;
    for (;;) {
        int64_t v;
        const ptx_token *t = ptx_peek(p);
        if (ptx_parse_int(p, &v, "a number") < 0) return -1;
        if (v < 0 || v > 0x7fffffff || n == maxn)
            return ptx_err_tok(p, t, "bad value for %s", dir);
        out[n++] = (uint32_t)v;
        if (!ptx_is_punct(ptx_peek(p), ',')) return 0;
        ptx_next(p);
    }
}

/* .maxntid/.reqntid/... between the header and the body */
static int parse_perf_directives(ptx_parser *p, ptx_func *f)
{
    const ptx_token *maxntid = NULL, *reqntid = NULL;
    for (;;) {
        const ptx_token *t = ptx_peek(p);
        if (t->kind != PTX_TK_DIRECTIVE) return ptx_check_ntid(p, maxntid, reqntid);
        uint32_t tmp[3] = {0, 0, 0};
        ptx_next(p);
        if (ptx_tok_eq(p, t, ".maxntid")) maxntid = t;
        if (ptx_tok_eq(p, t, ".reqntid")) reqntid = t;
        if (ptx_tok_eq(p, t, ".maxntid") || ptx_tok_eq(p, t, ".reqntid")) {
            if (parse_dims(p, tmp, 3, ".maxntid/.reqntid") < 0) return -1;
            uint32_t *d = ptx_tok_eq(p, t, ".maxntid") ? f->maxntid : f->reqntid;
            for (int i = 0; i < 3; i++) d[i] = tmp[i] ? tmp[i] : 1;
        } else if (ptx_tok_eq(p, t, ".minnctapersm")) {
            if (parse_dims(p, &f->minnctapersm, 1, ".minnctapersm") < 0) return -1;
        } else if (ptx_tok_eq(p, t, ".maxnctapersm")) {
            if (parse_dims(p, &f->maxnctapersm, 1, ".maxnctapersm") < 0) return -1;
        } else if (ptx_tok_eq(p, t, ".maxnreg")) {
            if (parse_dims(p, &f->maxnreg, 1, ".maxnreg") < 0) return -1;
        } else if (ptx_tok_eq(p, t, ".reqnctapercluster")) {
            if (parse_dims(p, tmp, 3, ".reqnctapercluster") < 0) return -1;
        } else if (ptx_tok_eq(p, t, ".maxclusterrank")) {
            if (parse_dims(p, tmp, 1, ".maxclusterrank") < 0) return -1;
        } else if (ptx_tok_eq(p, t, ".noreturn") || ptx_tok_eq(p, t, ".explicitcluster") ||
                   ptx_tok_eq(p, t, ".blocksareclusters")) {
            /* no effect on a functional or timing model */
        } else if (ptx_tok_eq(p, t, ".pragma")) {
            if (skip_pragma(p) < 0) return -1;
        } else {
            return ptx_err_tok(p, t, "unsupported directive '%.*s' in a function header",
                               (int)t->len, ptx_tok_text(p, t));
        }
    }
}

static bool same_signature(const ptx_param *a, uint32_t na, const ptx_param *b, uint32_t nb)
{
    if (na != nb) return false;
    for (uint32_t i = 0; i < na; i++)
        if (a[i].size != b[i].size) return false;
    return true;
}

/* Kernel parameters live in the launch's parameter buffer. */
static void layout_kernel_params(ptx_func *f)
{
    uint64_t off = 0;
    for (uint32_t i = 0; i < f->nparams; i++) {
        off = ptx_align_up(off, f->params[i].align);
        f->params[i].offset = (uint32_t)off;
        off += f->params[i].size;
    }
    f->param_size = (uint32_t)off;
}

/* Return values then parameters at the bottom of a .func's call frame. */
static int layout_func_params(ptx_parser *p, ptx_func *f, const ptx_token *at)
{
    p->frame_top = p->frame_max = 0;
    for (uint32_t i = 0; i < f->nrets; i++)
        if (ptx_frame_alloc(p, f->rets[i].size, f->rets[i].align, at, &f->rets[i].offset) < 0)
            return -1;
    for (uint32_t i = 0; i < f->nparams; i++)
        if (ptx_frame_alloc(p, f->params[i].size, f->params[i].align, at, &f->params[i].offset) < 0)
            return -1;
    return 0;
}

/* Declare the parameters of function `fi` in the (new) function scope. */
static int declare_params(ptx_parser *p, uint32_t fi)
{
    ptx_func *f = &p->m->funcs[fi];
    for (int pass = 0; pass < 2; pass++) {
        ptx_param *v = pass ? f->params : f->rets;
        uint32_t n = pass ? f->nparams : f->nrets;
        for (uint32_t i = 0; i < n; i++) {
            ptx_sym *s = ptx_symtab_add(&p->syms, v[i].name, strlen(v[i].name),
                                        f->is_entry ? PTX_SYM_KPARAM : PTX_SYM_FRAME, v[i].offset);
            if (!s) return ptx_err_oom(p);
            s->size = v[i].size;
            s->type = v[i].type;
        }
    }
    return 0;
}

static int parse_function_body(ptx_parser *p, uint32_t fi, const ptx_token *name)
{
    ptx_func *f = &p->m->funcs[fi];
    if (!f->is_entry) {
        if (layout_func_params(p, f, name) < 0) return -1;
    } else {
        p->frame_top = p->frame_max = 0;
    }
    uint32_t mark = p->syms.n;
    p->fn = (int32_t)fi;
    p->scope_mark = mark;
    int rc = declare_params(p, fi);
    if (rc == 0) rc = ptx_parse_body(p);
    ptx_symtab_pop(&p->syms, mark);
    p->scope_mark = 0;
    p->fn = -1;
    return rc;
}

/*
** [.visible|.weak|.extern] .entry|.func [(rets)] name [(params)] perf* ; | { body }
** A declaration followed later by the definition is one function; the
** definition's parameter names are the ones its body uses.
*/
static int parse_function(ptx_parser *p, bool is_entry, bool is_extern, bool is_visible)
{
    ptx_param *rets = NULL, *params = NULL;
    uint32_t nrets = 0, nparams = 0;
    if (!is_entry && ptx_is_punct(ptx_peek(p), '(')) {
        if (parse_param_list(p, false, &rets, &nrets) < 0) return -1;
        if (nrets > PTX_MAX_CALL_RETS) {
            free_params(rets, nrets);
            return ptx_err_tok(p, ptx_peek(p), "too many return values (at most %d)", PTX_MAX_CALL_RETS);
        }
    }
    const ptx_token *name = ptx_peek(p);
    if (name->kind != PTX_TK_IDENT || ptx_tok_text(p, name)[0] == '%') {
        free_params(rets, nrets);
        char buf[64];
        return ptx_err_tok(p, name, "expected a function name, found %s", ptx_tok_describe(p, name, buf, sizeof buf));
    }
    ptx_next(p);
    if (ptx_is_punct(ptx_peek(p), '(') &&
        parse_param_list(p, is_entry, &params, &nparams) < 0) {
        free_params(rets, nrets);
        return -1;
    }
    if (!is_entry && nparams > PTX_MAX_CALL_ARGS) {
        free_params(rets, nrets);
        free_params(params, nparams);
        return ptx_err_tok(p, name, "too many parameters for a .func (at most %d)", PTX_MAX_CALL_ARGS);
    }

    ptx_sym *s = ptx_symtab_find(&p->syms, ptx_tok_text(p, name), name->len);
    int32_t fi;
    if (s && s->kind == PTX_SYM_FUNC) {
        ptx_func *f = &p->m->funcs[s->val];
        if (f->is_entry != is_entry || !same_signature(f->params, f->nparams, params, nparams) ||
            !same_signature(f->rets, f->nrets, rets, nrets)) {
            free_params(rets, nrets);
            free_params(params, nparams);
            return ptx_err_tok(p, name, "conflicting declaration of function '%s'", f->name);
        }
        fi = (int32_t)s->val;
        free_params(f->rets, f->nrets);
        free_params(f->params, f->nparams);
    } else if (s) {
        free_params(rets, nrets);
        free_params(params, nparams);
        return ptx_err_tok(p, name, "'%.*s' is already declared as a variable", (int)name->len,
                           ptx_tok_text(p, name));
    } else {
        ptx_func *f = new_func(p);
        if (!f) { free_params(rets, nrets); free_params(params, nparams); return -1; }
        fi = (int32_t)(f - p->m->funcs);
        f->name = ptx_tok_dup(p, name);
        f->is_entry = is_entry;
        f->is_extern = true;    /* until a body is seen */
        f->line = name->line;
        f->col = name->col;
        if (!f->name || !ptx_symtab_add(&p->syms, f->name, name->len, PTX_SYM_FUNC, fi)) {
            free_params(rets, nrets);
            free_params(params, nparams);
            return ptx_err_oom(p);
        }
    }
    ptx_func *f = &p->m->funcs[fi];
    f->rets = rets;   f->nrets = nrets;
    f->params = params; f->nparams = nparams;
    f->is_visible |= is_visible;
    if (is_entry) layout_kernel_params(f);
    if (parse_perf_directives(p, f) < 0) return -1;

    if (ptx_is_punct(ptx_peek(p), ';')) {
        ptx_next(p);
        if (!is_entry && layout_func_params(p, f, name) < 0) return -1;
        if (f->is_extern)   /* a declaration after the definition keeps its frame */
            f->frame_size = (uint32_t)ptx_align_up(p->frame_max, 16);
        return 0;
    }
    if (!ptx_is_punct(ptx_peek(p), '{')) {
        char buf[64];
        return ptx_err_tok(p, ptx_peek(p), "expected '{' or ';' after the header of '%s', found %s",
                           f->name, ptx_tok_describe(p, ptx_peek(p), buf, sizeof buf));
    }
    if (is_extern)
        return ptx_err_tok(p, ptx_peek(p), ".extern function '%s' cannot have a body", f->name);
    if (!f->is_extern)
        return ptx_err_tok(p, name, "redefinition of function '%s'", f->name);
    f->is_extern = false;
    f->line = name->line;
    f->col = name->col;
    return parse_function_body(p, (uint32_t)fi, name);
}

/* ------------------------------------------------------------------ */
/* Module scope                                                        */
/* ------------------------------------------------------------------ */

static int parse_linkage_decl(ptx_parser *p)
{
    bool is_extern = false, is_visible = false;
    for (;;) {
        const ptx_token *t = ptx_peek(p);
        if (ptx_is_dir(p, t, ".extern")) is_extern = true;
        else if (ptx_is_dir(p, t, ".visible") || ptx_is_dir(p, t, ".weak") ||
                 ptx_is_dir(p, t, ".common")) is_visible = true;
        else break;
        ptx_next(p);
    }
    const ptx_token *t = ptx_peek(p);
    if (ptx_is_dir(p, t, ".entry") || ptx_is_dir(p, t, ".func")) {
        ptx_next(p);
        return parse_function(p, ptx_tok_eq(p, t, ".entry"), is_extern, is_visible);
    }
    if (ptx_is_dir(p, t, ".global") || ptx_is_dir(p, t, ".shared") || ptx_is_dir(p, t, ".const") ||
        ptx_is_dir(p, t, ".local") || ptx_is_dir(p, t, ".shared::cta"))
        return ptx_parse_var_decl(p, false, is_extern);
    if (ptx_is_dir(p, t, ".texref") || ptx_is_dir(p, t, ".samplerref") ||
        ptx_is_dir(p, t, ".surfref") || ptx_is_dir(p, t, ".tex"))
        return ptx_err_tok(p, t, "texture/surface declarations ('%.*s') are not supported",
                           (int)t->len, ptx_tok_text(p, t));
    char buf[64];
    return ptx_err_tok(p, t, "expected .entry, .func or a variable declaration, found %s",
                       ptx_tok_describe(p, t, buf, sizeof buf));
}

static int parse_module_item(ptx_parser *p)
{
    const ptx_token *t = ptx_peek(p);
    char buf[64];
    if (t->kind != PTX_TK_DIRECTIVE)
        return ptx_err_tok(p, t, "expected a directive at module scope, found %s",
                           ptx_tok_describe(p, t, buf, sizeof buf));
    if (ptx_tok_eq(p, t, ".version")) {
        if (p->m->version_major)
            return ptx_err_tok(p, t, "duplicate .version directive");
        ptx_next(p);
        return parse_version(p, t);
    }
    if (!p->m->version_major)
        return ptx_err_tok(p, t, "expected '.version' at the start of the module, found %s",
                           ptx_tok_describe(p, t, buf, sizeof buf));
    if (ptx_tok_eq(p, t, ".target")) { ptx_next(p); return parse_target(p); }
    if (ptx_tok_eq(p, t, ".address_size")) { ptx_next(p); return parse_address_size(p); }
    if (ptx_tok_eq(p, t, ".file") || ptx_tok_eq(p, t, ".loc")) {
        ptx_next(p);
        skip_rest_of_line(p, t);
        return 0;
    }
    if (ptx_tok_eq(p, t, ".section")) { ptx_next(p); return skip_section(p, t); }
    if (ptx_tok_eq(p, t, ".pragma")) { ptx_next(p); return skip_pragma(p); }
    return parse_linkage_decl(p);
}

int ptx_parse_module_items(ptx_parser *p)
{
    p->fn = -1;
    while (ptx_peek(p)->kind != PTX_TK_EOF)
        if (parse_module_item(p) < 0) return -1;
    if (!p->m->version_major)
        return ptx_err_tok(p, ptx_peek(p), "empty module: expected a '.version' directive");
    return 0;
}
