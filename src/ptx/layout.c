/*
** layout.c -- whole-module work after parsing: the call graph, which
** functions reach vprintf, and each kernel's static shared-memory layout
** (every module-scope .shared variable used by a function the kernel can
** call gets an offset; .extern .shared arrays start after them).
*/
#include <stdlib.h>
#include <string.h>
#include "ptx_internal.h"

/* reach[f] = true for every function callable from `root` (root included).
   The calls of a module are grouped by caller (uops are in function order). */
static void reachable(const ptx_module *m, const uint32_t *first_call, const uint32_t *callee,
                      uint32_t root, bool *reach, uint32_t *stack)
{
    memset(reach, 0, m->nfuncs * sizeof *reach);
    uint32_t sp = 0;
    stack[sp++] = root;
    reach[root] = true;
    while (sp) {
        uint32_t f = stack[--sp];
        for (uint32_t c = first_call[f]; c < first_call[f + 1]; c++) {
            if (reach[callee[c]]) continue;
            reach[callee[c]] = true;
            stack[sp++] = callee[c];
        }
    }
}

/* CSR call graph: callees of function f are callee[first_call[f] ..
   first_call[f+1]). */
static int call_graph(const ptx_module *m, uint32_t **first_call, uint32_t **callee)
{
    *first_call = calloc(m->nfuncs + 1, sizeof **first_call);
    *callee = malloc((m->ncalls ? m->ncalls : 1) * sizeof **callee);
    if (!*first_call || !*callee) return -1;
    uint32_t n = 0;
    for (uint32_t f = 0; f < m->nfuncs; f++) {
        (*first_call)[f] = n;
        const ptx_func *fn = &m->funcs[f];
        if (fn->is_extern) continue;
        for (uint32_t i = fn->uop_begin; i < fn->uop_end && n < m->ncalls; i++)
            if (m->uops[i].op == PTX_OP_CALL) (*callee)[n++] = m->uops[i].target;
    }
    (*first_call)[m->nfuncs] = n;
    return 0;
}

static void mark_used_shared(const ptx_module *m, const ptx_func *f, bool *used)
{
    for (uint32_t i = f->uop_begin; i < f->uop_end; i++) {
        const ptx_uop *u = &m->uops[i];
        for (int k = 0; k < u->nopd; k++) {
            const ptx_operand *o = &u->opd[k];
            if ((o->kind == PTX_OPD_ADDR || o->kind == PTX_OPD_SYM) && o->sym >= 0 &&
                m->vars[o->sym].space == PTX_SPACE_SHARED)
                used[o->sym] = true;
        }
    }
}

static int layout_shared(ptx_parser *p, ptx_func *k, const bool *reach, bool *used)
{
    const ptx_module *m = p->m;
    memset(used, 0, m->nvars * sizeof *used);
    for (uint32_t i = 0; i < m->nfuncs; i++)
        if (reach[i] && !m->funcs[i].is_extern) mark_used_shared(m, &m->funcs[i], used);
    k->shared_off = malloc((m->nvars ? m->nvars : 1) * sizeof *k->shared_off);
    if (!k->shared_off) return ptx_err_oom(p);
    uint64_t off = 0, max_align = 1, dyn_align = 16;
    for (uint32_t v = 0; v < m->nvars; v++) {
        const ptx_var *x = &m->vars[v];
        k->shared_off[v] = -1;
        if (!used[v]) continue;
        if (x->is_extern) {
            if (x->align > dyn_align) dyn_align = x->align;
            continue;
        }
        off = ptx_align_up(off, x->align);
        k->shared_off[v] = (int64_t)off;
        off += x->size;
        if (x->align > max_align) max_align = x->align;
        if (off > UINT32_MAX)
            return ptx_err_at(p, k->line, k->col, "kernel '%s' uses more than 4 GiB of shared memory", k->name);
    }
    off = ptx_align_up(off, max_align);
    if (ptx_align_up(off, dyn_align) > UINT32_MAX)
        return ptx_err_at(p, k->line, k->col, "kernel '%s' uses more than 4 GiB of shared memory", k->name);
    k->shared_size = (uint32_t)off;
    k->dyn_shared_align = (uint32_t)dyn_align;
    for (uint32_t v = 0; v < m->nvars; v++)
        if (used[v] && m->vars[v].is_extern) k->shared_off[v] = (int64_t)ptx_align_up(off, dyn_align);
    return 0;
}

int ptx_finish_module(ptx_parser *p)
{
    ptx_module *m = p->m;
    if (m->nfuncs == 0) return 0;
    bool *reach = malloc(m->nfuncs * sizeof *reach);
    uint32_t *stack = malloc(m->nfuncs * sizeof *stack);
    bool *used = malloc((m->nvars ? m->nvars : 1) * sizeof *used);
    uint32_t *first_call = NULL, *callee = NULL;
    int vprintf = ptx_find_func(m, "vprintf");
    int rc = 0;
    if (!reach || !stack || !used || call_graph(m, &first_call, &callee) < 0) rc = ptx_err_oom(p);
    for (uint32_t i = 0; rc == 0 && i < m->nfuncs; i++) {
        ptx_func *f = &m->funcs[i];
        reachable(m, first_call, callee, i, reach, stack);
        f->uses_printf = vprintf >= 0 && reach[vprintf] && m->funcs[vprintf].is_extern;
        if (f->is_entry && !f->is_extern) rc = layout_shared(p, f, reach, used);
    }
    free(reach);
    free(stack);
    free(used);
    free(first_call);
    free(callee);
    return rc;
}
