/*
** layout.c -- whole-module work after parsing: the call graph, which
** functions reach vprintf, and each kernel's static shared-memory layout
** (every module-scope .shared variable used by a function the kernel can
** call gets an offset; .extern .shared arrays start after them).
*/
#include <stdlib.h>
#include <string.h>
#include "ptx_internal.h"

/* reach[f] = true for every function callable from `root` (root included) */
static int reachable(const ptx_module *m, uint32_t root, bool *reach, uint32_t *stack)
{
    memset(reach, 0, m->nfuncs * sizeof *reach);
    uint32_t sp = 0;
    stack[sp++] = root;
    reach[root] = true;
    while (sp) {
        const ptx_func *f = &m->funcs[stack[--sp]];
        if (f->is_extern) continue;
        for (uint32_t i = f->uop_begin; i < f->uop_end; i++) {
            const ptx_uop *u = &m->uops[i];
            if (u->op != PTX_OP_CALL || reach[u->target]) continue;
            reach[u->target] = true;
            stack[sp++] = u->target;
        }
    }
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
    int rc = 0;
    if (!reach || !stack || !used) rc = ptx_err_oom(p);
    for (uint32_t i = 0; rc == 0 && i < m->nfuncs; i++) {
        ptx_func *f = &m->funcs[i];
        reachable(m, i, reach, stack);
        for (uint32_t j = 0; j < m->nfuncs; j++)
            if (reach[j] && m->funcs[j].is_extern && strcmp(m->funcs[j].name, "vprintf") == 0)
                f->uses_printf = true;
        if (f->is_entry && !f->is_extern) rc = layout_shared(p, f, reach, used);
    }
    free(reach);
    free(stack);
    free(used);
    return rc;
}
