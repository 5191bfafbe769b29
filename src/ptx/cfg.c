/*
** cfg.c -- basic blocks, immediate post-dominators and reconvergence
** points of one function.
**
** Post-dominators are dominators of the reverse CFG rooted at a virtual
** exit node, computed with the iterative algorithm of Cooper, Harvey and
** Kennedy ("A Simple, Fast Dominance Algorithm", 2001).  Blocks that can
** never reach the exit (infinite loops) are given an edge to it, so they
** and the branches leading into them reconverge at FUNC_END -- the only
** choice that cannot make a path wait for lanes that never arrive.
*/
#include <stdlib.h>
#include <string.h>
#include "ptx_internal.h"

typedef struct cfg_work {
    uint32_t nb, exit;      /* blocks; the virtual exit node is nb */
    bool *to_exit;          /* block has an edge to the virtual exit */
    uint32_t *pred_start, *pred; /* CFG predecessors (CSR) */
    int32_t *po;            /* postorder number in the reverse CFG, -1 unreached */
    uint32_t *rpo;          /* nodes by reverse postorder */
    uint32_t nrpo;
    int32_t *idom;
} cfg_work;

static bool ends_block(const ptx_uop *u)
{
    return u->op == PTX_OP_BRA || u->op == PTX_OP_RET || u->op == PTX_OP_EXIT ||
           u->op == PTX_OP_TRAP || u->op == PTX_OP_BRX;
}

/* Split [uop_begin, uop_end] into blocks; FUNC_END is always alone. */
static int make_blocks(ptx_module *m, ptx_func *f, uint32_t *block_of)
{
    uint32_t n = f->uop_end - f->uop_begin + 1;
    bool *leader = calloc(n, sizeof *leader);
    if (!leader) return -1;
    leader[0] = leader[n - 1] = true;
    for (uint32_t i = 0; i + 1 < n; i++) {
        const ptx_uop *u = &m->uops[f->uop_begin + i];
        if (u->op == PTX_OP_BRA && u->target >= f->uop_begin && u->target <= f->uop_end)
            leader[u->target - f->uop_begin] = true;
        if (ends_block(u)) leader[i + 1] = true;
    }
    uint32_t nb = 0;
    for (uint32_t i = 0; i < n; i++) nb += leader[i];
    f->blocks = calloc(nb, sizeof *f->blocks);
    if (!f->blocks) { free(leader); return -1; }
    f->nblocks = nb;
    int32_t b = -1;
    for (uint32_t i = 0; i < n; i++) {
        if (leader[i]) {
            b++;
            f->blocks[b].first = f->uop_begin + i;
            f->blocks[b].succ[0] = f->blocks[b].succ[1] = -1;
        }
        f->blocks[b].last = f->uop_begin + i;
        block_of[i] = (uint32_t)b;
    }
    free(leader);
    return 0;
}

static void add_succ(ptx_block *bl, int32_t s)
{
    if (bl->succ[0] == s || bl->succ[1] == s) return;
    if (bl->succ[0] < 0) bl->succ[0] = s;
    else bl->succ[1] = s;
}

static void link_blocks(ptx_module *m, ptx_func *f, const uint32_t *block_of, bool *to_exit)
{
    for (uint32_t b = 0; b < f->nblocks; b++) {
        ptx_block *bl = &f->blocks[b];
        const ptx_uop *u = &m->uops[bl->last];
        int32_t next = b + 1 < f->nblocks ? (int32_t)b + 1 : -1;
        bool guarded = u->guard >= 0;
        switch (u->op) {
        case PTX_OP_BRA:
            add_succ(bl, (int32_t)block_of[u->target - f->uop_begin]);
            if (guarded) add_succ(bl, next);
            break;
        case PTX_OP_RET:
            add_succ(bl, (int32_t)f->nblocks - 1);
            if (guarded) add_succ(bl, next);
            break;
        case PTX_OP_EXIT: case PTX_OP_TRAP: case PTX_OP_FUNC_END:
            to_exit[b] = true;
            if (guarded && next >= 0) add_succ(bl, next);
            break;
        default:
            if (next >= 0) add_succ(bl, next);
            else to_exit[b] = true;
            break;
        }
    }
}

static int build_preds(const ptx_func *f, cfg_work *w)
{
    uint32_t nb = w->nb;
    w->pred_start = calloc(nb + 2, sizeof *w->pred_start);
    w->pred = calloc(2 * nb + 1, sizeof *w->pred);
    if (!w->pred_start || !w->pred) return -1;
    for (uint32_t b = 0; b < nb; b++)
        for (int k = 0; k < 2; k++)
            if (f->blocks[b].succ[k] >= 0) w->pred_start[f->blocks[b].succ[k] + 1]++;
    for (uint32_t b = 0; b < nb + 1; b++) w->pred_start[b + 1] += w->pred_start[b];
    uint32_t *fill = calloc(nb + 1, sizeof *fill);
    if (!fill) return -1;
    for (uint32_t b = 0; b < nb; b++)
        for (int k = 0; k < 2; k++) {
            int32_t s = f->blocks[b].succ[k];
            if (s >= 0) w->pred[w->pred_start[s] + fill[s]++] = b;
        }
    free(fill);
    return 0;
}

/* Iterative DFS from the exit along reversed edges; fills po and rpo. */
static int reverse_postorder(cfg_work *w)
{
    uint32_t n = w->nb + 1;
    uint32_t *stack = malloc(n * sizeof *stack), *next = calloc(n, sizeof *next);
    uint32_t *order = malloc(n * sizeof *order);
    if (!stack || !next || !order) { free(stack); free(next); free(order); return -1; }
    bool *seen = (bool *)w->rpo;   /* scratch: rpo is filled only at the end */
    memset(seen, 0, n * sizeof *w->rpo);
    uint32_t sp = 0, npo = 0;
    stack[sp++] = w->exit;
    seen[w->exit] = true;
    while (sp) {
        uint32_t v = stack[sp - 1];
        /* reverse-graph successors of v: exit -> blocks with to_exit; b -> CFG preds */
        int32_t child = -1;
        if (v == w->exit) {
            while (next[v] < w->nb && child < 0) {
                uint32_t b = next[v]++;
                if (w->to_exit[b] && !seen[b]) child = (int32_t)b;
            }
        } else {
            uint32_t lo = w->pred_start[v], hi = w->pred_start[v + 1];
            while (lo + next[v] < hi && child < 0) {
                uint32_t b = w->pred[lo + next[v]++];
                if (!seen[b]) child = (int32_t)b;
            }
        }
        if (child >= 0) {
            seen[child] = true;
            stack[sp++] = (uint32_t)child;
        } else {
            w->po[v] = (int32_t)npo;
            order[npo++] = v;
            sp--;
        }
    }
    for (uint32_t i = 0; i < npo; i++) w->rpo[i] = order[npo - 1 - i];
    w->nrpo = npo;
    free(stack);
    free(next);
    free(order);
    return 0;
}

static int32_t intersect(const cfg_work *w, int32_t a, int32_t b)
{
    while (a != b) {
        while (w->po[a] < w->po[b]) a = w->idom[a];
        while (w->po[b] < w->po[a]) b = w->idom[b];
    }
    return a;
}

static void compute_idom(const ptx_func *f, cfg_work *w)
{
    for (uint32_t i = 0; i <= w->nb; i++) w->idom[i] = -1;
    w->idom[w->exit] = (int32_t)w->exit;
    for (bool changed = true; changed;) {
        changed = false;
        for (uint32_t i = 0; i < w->nrpo; i++) {
            uint32_t b = w->rpo[i];
            if (b == w->exit) continue;
            int32_t nd = -1;
            /* reverse-graph predecessors of b = CFG successors (+ exit) */
            int32_t cand[3] = { f->blocks[b].succ[0], f->blocks[b].succ[1],
                                w->to_exit[b] ? (int32_t)w->exit : -1 };
            for (int k = 0; k < 3; k++) {
                int32_t s = cand[k];
                if (s < 0 || w->po[s] < 0 || w->idom[s] < 0) continue;
                nd = nd < 0 ? s : intersect(w, s, nd);
            }
            if (nd >= 0 && w->idom[b] != nd) {
                w->idom[b] = nd;
                changed = true;
            }
        }
    }
}

static void set_rpcs(ptx_module *m, ptx_func *f, const cfg_work *w)
{
    for (uint32_t b = 0; b < f->nblocks; b++) {
        int32_t d = w->idom[b];
        f->blocks[b].ipdom = (d < 0 || (uint32_t)d == w->exit) ? -1 : d;
        ptx_uop *u = &m->uops[f->blocks[b].last];
        if (u->op == PTX_OP_BRA || u->op == PTX_OP_BRX || u->op == PTX_OP_RET)
            u->rpc = f->blocks[b].ipdom < 0 ? f->uop_end : f->blocks[f->blocks[b].ipdom].first;
    }
}

int ptx_build_cfg(ptx_parser *p, uint32_t fi)
{
    ptx_module *m = p->m;
    ptx_func *f = &m->funcs[fi];
    uint32_t n = f->uop_end - f->uop_begin + 1;
    uint32_t *block_of = malloc(n * sizeof *block_of);
    cfg_work w;
    memset(&w, 0, sizeof w);
    int rc = -1;
    if (!block_of || make_blocks(m, f, block_of) < 0) goto out;
    w.nb = f->nblocks;
    w.exit = w.nb;
    w.to_exit = calloc(w.nb + 1, sizeof *w.to_exit);
    w.po = malloc((w.nb + 1) * sizeof *w.po);
    w.rpo = calloc(w.nb + 1, sizeof *w.rpo);
    w.idom = malloc((w.nb + 1) * sizeof *w.idom);
    if (!w.to_exit || !w.po || !w.rpo || !w.idom) goto out;
    for (uint32_t i = 0; i <= w.nb; i++) w.po[i] = -1;
    link_blocks(m, f, block_of, w.to_exit);
    if (build_preds(f, &w) < 0 || reverse_postorder(&w) < 0) goto out;
    if (w.nrpo < w.nb + 1) {
        /* Blocks that never reach the exit (infinite loops) get an edge to
           it, so a branch into such a loop reconverges at FUNC_END instead
           of making the other path wait for lanes that never come. */
        for (uint32_t b = 0; b < w.nb; b++)
            if (w.po[b] < 0) w.to_exit[b] = true;
        for (uint32_t i = 0; i <= w.nb; i++) w.po[i] = -1;
        if (reverse_postorder(&w) < 0) goto out;
    }
    compute_idom(f, &w);
    set_rpcs(m, f, &w);
    rc = 0;
out:
    free(block_of);
    free(w.to_exit);
    free(w.pred_start);
    free(w.pred);
    free(w.po);
    free(w.rpo);
    free(w.idom);
    if (rc < 0) return ptx_err_oom(p);
    return 0;
}
