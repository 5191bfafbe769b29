/*
** warp_haws.c -- HAWS, the hint-assisted warp scheduler (`haws`).
** Source: X. Gong, "Hint-Assisted Scheduling on Modern GPUs", PhD thesis,
** Northeastern University 2020, Ch. 5 (§5.2 the compiler pass, §5.3 the
** hardware and its operation); specs/haws.md §3.1, §8 B and C.
**
** The issue order is a base policy's (GTO, the thesis's AMD baseline, or
** LRR, its Kepler one), untouched.  At each kernel's begin the hint pass
** (haws_hints.c) runs over the kernel's PTX; when a warp blocks at a stall
** point on a long-latency load the core asks alt_chain for that stall
** point's chain and runs it on its alternate issue stream
** (core/altissue.c: result collection unit, rename table over hidden
** registers, shadow SIMT stack, the return in order with skips and COPY
** micro-ops).
** Interpretations (each a parameter, defaults as the spec recommends):
**  - priority: a hinted instruction issues only in a cycle in which the
**    warp's scheduler unit has no warp ready in program order (`after`,
**    §3.1.5 [I], "when all warps are stalled"); `equal` tries it at the
**    warp's place in the base order;
**  - branches = 1 (v1, §8 B): chains stop at conditional branches and an
**    episode starts only in an undiverged warp; 2 (v2): both successors
**    are chained and followed on the shadow stack, an episode ends when a
**    branch splits the warp;
**  - max_sel = 8 (RCU depth; at most 8 instructions an episode), renames
**    at most 8 per chain (hidden registers);
**  - stop_at_next_stall = 1: a reader of another long-latency load ends
**    the chain (the end of the hint group);
**  - alias = 1: only a skipped store of the same space (or generic) keeps
**    a later load out of the chain; 0: any skipped store does;
**  - hints are per static stall pc (a side table, §8 C1), computed from
**    PTX at every kernel begin; distance limits (9/11-bit offsets) applied.
*/
#include <stdlib.h>

#include "warpsim_policy.h"
#include "haws_hints.h"

extern const ws_warp_sched_ops ws_warp_sched_gto;
extern const ws_warp_sched_ops ws_warp_sched_lrr;

enum { P_BASE = 0, P_PRIORITY, P_BRANCHES, P_MAX_SEL, P_STOP_NEXT, P_ALIAS, P_NPARAMS };

static const ws_param_desc haws_params[] = {
    { "base", 0, 0, 1, "", "base issue order: 0 = gto, 1 = lrr" },
    { "priority", 0, 0, 1, "", "hinted instructions issue 0 = only when no warp is ready "
      "in order, 1 = at the warp's place in the base order" },
    { "branches", 1, 1, 2, "", "1 = chains stop at conditional branches (v1), "
      "2 = follow both successors (v2)" },
    { "max_sel", 8, 1, 8, "insns", "instructions per chain path and per episode (RCU entries)" },
    { "stop_at_next_stall", 1, 0, 1, "", "a reader of another long-latency load ends the chain" },
    { "alias", 1, 0, 1, "", "skipped stores that keep a later load out: 0 = any, "
      "1 = same space or generic" },
    { NULL, 0, 0, 0, NULL, NULL }
};

static const char *const haws_counter_names[] = { "stall_points", "chains", "chain_entries",
                                                   "asked", "given", NULL };

typedef struct haws_state {
    const ws_warp_sched_ops *base;
    void *base_st;
    haws_hint_params hp;
    uint8_t priority;
    haws_hints *h;
    ws_alt_entry *alt;       /* every chain's entries in the ABI's form */
    uint32_t *off;           /* [nchains] where each chain starts in alt */
    uint64_t cnt[5];
} haws_state;

static void haws_drop_hints(haws_state *st)
{
    haws_hints_free(st->h);
    free(st->alt);
    free(st->off);
    st->h = NULL;
    st->alt = NULL;
    st->off = NULL;
}

static void haws_destroy(void *p)
{
    haws_state *st = p;
    if (!st) return;
    haws_drop_hints(st);
    if (st->base_st && st->base->destroy) st->base->destroy(st->base_st);
    free(st);
}

static void *haws_init(const ws_param_values *p, const ws_policy_env *env)
{
    haws_state *st = calloc(1, sizeof *st);
    if (!st) return NULL;
    st->base = p->v[P_BASE] ? &ws_warp_sched_lrr : &ws_warp_sched_gto;
    st->priority = p->v[P_PRIORITY] ? WS_ALT_EQUAL : WS_ALT_AFTER_INORDER;
    st->hp = HAWS_HINT_PARAMS_DEFAULT;
    st->hp.branches = (int)p->v[P_BRANCHES];
    st->hp.max_sel = (uint32_t)p->v[P_MAX_SEL];
    st->hp.stop_at_next_stall = p->v[P_STOP_NEXT] != 0;
    st->hp.alias = (int)p->v[P_ALIAS];
    ws_param_values none = { 0 };
    st->base_st = st->base->init(&none, env);
    if (!st->base_st) { haws_destroy(st); return NULL; }
    return st;
}

/* The pass's chains in the ABI's form, one array for all. */
static bool haws_convert(haws_state *st)
{
    const haws_hints *h = st->h;
    st->alt = calloc(h->nentries ? h->nentries : 1, sizeof *st->alt);
    st->off = calloc(h->nchains ? h->nchains : 1, sizeof *st->off);
    if (!st->alt || !st->off) return false;
    uint32_t k = 0;
    for (uint32_t c = 0; c < h->nchains; c++) {
        const haws_chain *ch = &h->chains[c];
        st->off[c] = k;
        for (uint32_t i = 0; i < ch->n && k < h->nentries; i++, k++) {
            const haws_chain_entry *e = &ch->e[i];
            st->alt[k] = (ws_alt_entry){ .pc = e->pc, .reg = e->rename ? e->reg : -1,
                                         .hidden = e->hidden,
                                         .next = { e->succ[0], e->succ[1] } };
        }
        st->cnt[1] += ch->n > 0;
        st->cnt[2] += ch->n;
    }
    st->cnt[0] += h->nchains;
    return true;
}

static void haws_kernel_begin(void *p, const ws_launch_info *k)
{
    haws_state *st = p;
    haws_drop_hints(st);
    for (int i = 0; i < 5; i++) st->cnt[i] = 0;
    if (st->base->kernel_begin) st->base->kernel_begin(st->base_st, k);
    if (!k->prog) return;
    st->h = haws_hints_build(k->prog, k->prog->entry_pc, k->prog->end_pc, &st->hp);
    if (st->h && !haws_convert(st)) haws_drop_hints(st);
}

static void haws_kernel_end(void *p, const ws_launch_info *k)
{
    haws_state *st = p;
    if (st->base->kernel_end) st->base->kernel_end(st->base_st, k);
}

static uint32_t haws_order(void *p, const ws_sched_view *v, uint32_t *out)
{
    haws_state *st = p;
    return st->base->order(st->base_st, v, out);
}

static void haws_on_issue(void *p, const ws_sched_view *v, uint32_t slot)
{
    haws_state *st = p;
    if (st->base->on_issue) st->base->on_issue(st->base_st, v, slot);
}

static void haws_on_event(void *p, const ws_sched_view *v, const ws_sched_event *e)
{
    haws_state *st = p;
    if (st->base->on_event) st->base->on_event(st->base_st, v, e);
}

static bool haws_alt_chain(void *p, const ws_sched_view *v, uint32_t slot, uint32_t stall_pc,
                           ws_alt_chain *out)
{
    haws_state *st = p;
    (void)v;
    (void)slot;
    st->cnt[3]++;
    const haws_chain *c = st->h ? haws_hints_find(st->h, stall_pc) : NULL;
    if (!c || !c->n) return false;
    *out = (ws_alt_chain){ .n = c->n, .e = &st->alt[st->off[c - st->h->chains]],
                           .priority = st->priority, .max_issue = (uint8_t)st->hp.max_sel,
                           .diverged_ok = st->hp.branches == 2 };
    st->cnt[4]++;
    return true;
}

static void haws_counters(void *p, uint64_t *out)
{
    haws_state *st = p;
    for (int i = 0; i < 5; i++) out[i] = st->cnt[i];
}

const ws_warp_sched_ops ws_warp_sched_haws = {
    .name = "haws",
    .summary = "HAWS (Gong 2020 Ch. 5): GTO/LRR order; a warp blocked on a long-latency "
               "load issues its hint chain out of order (RCU, renaming)",
    .params = haws_params,
    .needs = WS_NEED_PROGRAM,
    .init = haws_init,
    .destroy = haws_destroy,
    .kernel_begin = haws_kernel_begin,
    .kernel_end = haws_kernel_end,
    .order = haws_order,
    .on_issue = haws_on_issue,
    .on_event = haws_on_event,
    .counter_names = haws_counter_names,
    .counters = haws_counters,
    .alt_chain = haws_alt_chain,
};
