/*
** haws_hints.c -- the HAWS hint pass: static stall points by reaching
** definitions, then one chain per stall point by the spec's BuildChain.
** Source: Gong, "Hint-Assisted Scheduling on Modern GPUs", PhD thesis,
** Northeastern 2020, Ch. 5 (§5.2 hint groups, §5.3.1-5.3.3 hint format,
** compiler work, instruction classes); specs/haws.md §3.1.3 (the pass's
** pseudo-code), §3.1.7, §8 B/C.  Interpretations (parameters where cheap):
**  - LL(I): ld/ldu/tex/tld4/suld of global, local, generic or texture
**    space, and atom with a destination, except in shared space (short
**    latency, like shared/const/param loads, spec §8 B).
**  - Reaching definitions over the kernel's CFG (fall-through, bra target,
**    both for a guarded bra; exit, ret, trap, brx and FUNC_END end a path;
**    call falls through).  A guarded write does not kill (some lanes keep
**    the old value).  brx's targets are not in the view: its paths are
**    lost, which can only hide stall points, never make a chain wrong.
**  - uses(I) = sources (the view's src includes the guard) plus the
**    destinations of a guarded I (a masked write is read-modify-write).
**  - The stall point S is treated as the first skipped instruction: a store
**    S counts as a skipped memory write, a barrier S as a barrier seen.
**  - Barriers (bar, barrier, bar.warp, membar, fence) are skipped, not
**    passed over blind: their registers enter skR/skW/taint like any skip.
**  - Never selected, skipped: st, sust, atom, red (and they block later
**    loads, `alias`), prefetch, tex/tld4/suld (the runtime runs only
**    ld/ldu ahead), addc/subc/madc (they read a carry).  `.cc` producers
**    and %clock reads are not visible in the view; the runtime refuses them.
**  - Ends the chain: exit, ret, call, trap, brkpt, brx, nanosleep, pmevent,
**    FUNC_END, a dependent branch, a reader of another LL load
**    (`stop_at_next_stall`), the rename table full.
**  - v1: an independent conditional bra ends the chain and is not
**    selected: run ahead with nothing after it, it would only cost an issue
**    slot and a re-execution in order, and leaving it out keeps v1 free of
**    shadow-stack divergence.  For the same reason a bra (v1 or v2) whose
**    successors select nothing is dropped from the end of a chain.
**  - v2: a selected conditional bra splits the chain; each side gets a copy
**    of the state, so max_sel, max_rename and hidden indices count per
**    path.  A tree is capped at HH_MAX_TREE entries.
**  - An instruction whose two destinations both need a rename is skipped
**    (an entry names one renamed register).  Hidden indices count
**    registers and predicates together (one 8-entry table, thesis §5.3.3).
**  - Distances (enforce_dist): the entry after a bra is at most max_br_dist
**    static instructions from S (its format-2 hint), any other at most
**    max_dist (format 1); the first entry's offset sits in S's hint.
*/
#include <stdlib.h>
#include <string.h>
#include "policy/haws_hints.h"

#define HH_MAX_TREE 1024

/* What the chain builder does with an instruction, fixed per pc. */
enum { HK_ALU = 0, HK_BRANCH, HK_LOAD, HK_NOSEL, HK_WRITE, HK_BARRIER, HK_STOP };

/* ------------------------------------------------------------------ */
/* Bit sets over registers: regs at [0, nreg), predicates after        */
/* ------------------------------------------------------------------ */

static inline bool bs_get(const uint64_t *b, uint32_t i) { return b[i >> 6] >> (i & 63) & 1; }
static inline void bs_set(uint64_t *b, uint32_t i) { b[i >> 6] |= 1ull << (i & 63); }
static inline void bs_clr(uint64_t *b, uint32_t i) { b[i >> 6] &= ~(1ull << (i & 63)); }

typedef struct hh_ctx {
    const ws_program_view *pv;
    haws_hint_params p;
    uint32_t lo, hi, n;        /* uops [lo, hi], n = hi - lo + 1 */
    uint32_t nreg, nbits, words;
    uint8_t *kind;             /* [n] HK_* */
    bool *ll;                  /* [n] LL load */
    uint32_t *trig_at;         /* [n + 1] CSR of each pc's triggering LL pcs */
    uint32_t *trig;
} hh_ctx;

/* Bit of register id `id`, or -1 for an id the view should not hold. */
static int32_t hh_bit(const hh_ctx *c, int32_t id)
{
    if (id < 0) return -1;
    if (id & WS_PROG_PRED_BIT) return (int32_t)(c->nreg + (uint32_t)(id & ~WS_PROG_PRED_BIT));
    return id;
}

static const ws_prog_uop *hh_uop(const hh_ctx *c, uint32_t pc) { return &c->pv->uops[pc]; }

static bool hh_is(const ws_prog_uop *u, const char *name)
{
    return u->opname && strcmp(u->opname, name) == 0;
}

static uint8_t hh_classify(const ws_prog_uop *u)
{
    if (u->branch) return HK_BRANCH;
    if (u->cls == WS_NEXT_BARRIER || hh_is(u, "membar") || hh_is(u, "fence")
        || hh_is(u, "bar.warp"))
        return HK_BARRIER;
    if (u->cls == WS_NEXT_CTRL) return HK_STOP;
    if (u->mem == WS_MEM_STORE || u->mem == WS_MEM_ATOMIC) return HK_WRITE;
    if (u->mem == WS_MEM_LOAD) return hh_is(u, "ld") || hh_is(u, "ldu") ? HK_LOAD : HK_NOSEL;
    if (u->cls == WS_NEXT_MEM) return HK_NOSEL;             /* prefetch */
    if (hh_is(u, "addc") || hh_is(u, "subc") || hh_is(u, "madc")) return HK_NOSEL;
    return HK_ALU;
}

static bool hh_is_ll(const ws_prog_uop *u)
{
    if (u->space == WS_SPACE_SHARED || u->space == WS_SPACE_CONST || u->space == WS_SPACE_PARAM)
        return false;
    return u->mem == WS_MEM_LOAD || (u->mem == WS_MEM_ATOMIC && u->ndst > 0);
}

/* Kinds, LL flags and the register bit count of the kernel's uops. */
static bool hh_ctx_init(hh_ctx *c)
{
    uint32_t maxr = 0, maxp = 0;
    c->kind = calloc(c->n, 1);
    c->ll = calloc(c->n, sizeof *c->ll);
    if (!c->kind || !c->ll) return false;
    for (uint32_t i = 0; i < c->n; i++) {
        const ws_prog_uop *u = hh_uop(c, c->lo + i);
        c->kind[i] = hh_classify(u);
        c->ll[i] = hh_is_ll(u);
        for (uint32_t k = 0; k < (uint32_t)u->nsrc + u->ndst; k++) {
            int32_t id = k < u->nsrc ? u->src[k] : u->dst[k - u->nsrc];
            if (id < 0) continue;
            uint32_t v = (uint32_t)(id & ~WS_PROG_PRED_BIT) + 1;
            if (id & WS_PROG_PRED_BIT) maxp = v > maxp ? v : maxp;
            else maxr = v > maxr ? v : maxr;
        }
    }
    c->nreg = maxr;
    c->nbits = maxr + maxp;
    c->words = (c->nbits + 63) / 64 + 1;
    return true;
}

/* Registers `u` reads: sources and guard, plus destinations when guarded. */
static void hh_uses(const hh_ctx *c, const ws_prog_uop *u, uint64_t *out)
{
    for (uint32_t k = 0; k < u->nsrc; k++) {
        int32_t b = hh_bit(c, u->src[k]);
        if (b >= 0) bs_set(out, (uint32_t)b);
    }
    if (u->guarded)
        for (uint32_t k = 0; k < u->ndst; k++) {
            int32_t b = hh_bit(c, u->dst[k]);
            if (b >= 0) bs_set(out, (uint32_t)b);
        }
}

static void hh_defs(const hh_ctx *c, const ws_prog_uop *u, uint64_t *out)
{
    for (uint32_t k = 0; k < u->ndst; k++) {
        int32_t b = hh_bit(c, u->dst[k]);
        if (b >= 0) bs_set(out, (uint32_t)b);
    }
}

/* ------------------------------------------------------------------ */
/* Control flow and reaching LL definitions                            */
/* ------------------------------------------------------------------ */

/* Successors of `pc` inside the kernel: up to two, returns how many. */
static uint32_t hh_succ(const hh_ctx *c, uint32_t pc, uint32_t out[2])
{
    const ws_prog_uop *u = hh_uop(c, pc);
    uint32_t k = 0;
    if (u->branch) {
        if (u->target >= c->lo && u->target <= c->hi) out[k++] = u->target;
        if (u->guarded && pc < c->hi) out[k++] = pc + 1;
        return k;
    }
    if (hh_is(u, "exit") || hh_is(u, "ret") || hh_is(u, "trap") || hh_is(u, "brx")
        || pc == c->hi)
        return 0;
    out[k++] = pc + 1;
    return k;
}

/* The definitions the dataflow tracks: (LL load, register) pairs. */
typedef struct hh_rd {
    uint32_t ndef, dwords;
    uint32_t *def_pc;          /* [ndef] */
    uint32_t *reg_at, *reg_def;/* CSR: register bit -> its defs */
    uint32_t *blk_of;          /* [n] block of each pc */
    uint32_t *blk_first;       /* [nblk + 1] */
    uint32_t nblk;
    uint64_t *in;              /* [nblk][dwords] */
} hh_rd;

/* Effect of `pc` on the running set `s`: kill the unguarded defs, gen the LL ones. */
static void hh_rd_apply(const hh_ctx *c, const hh_rd *rd, uint32_t pc, uint64_t *s)
{
    const ws_prog_uop *u = hh_uop(c, pc);
    for (uint32_t k = 0; k < u->ndst; k++) {
        int32_t b = hh_bit(c, u->dst[k]);
        if (b < 0) continue;
        for (uint32_t j = rd->reg_at[b]; j < rd->reg_at[b + 1]; j++) {
            uint32_t d = rd->reg_def[j];
            if (rd->def_pc[d] == pc) bs_set(s, d);
            else if (!u->guarded) bs_clr(s, d);
        }
    }
}

/* Defs: every (LL pc, dst) pair, indexed per register bit. */
static bool hh_rd_defs(const hh_ctx *c, hh_rd *rd)
{
    rd->reg_at = calloc(c->nbits + 2, sizeof *rd->reg_at);
    if (!rd->reg_at) return false;
    for (int pass = 0; pass < 2; pass++) {
        rd->ndef = 0;
        for (uint32_t i = 0; i < c->n; i++) {
            const ws_prog_uop *u = hh_uop(c, c->lo + i);
            for (uint32_t k = 0; c->ll[i] && k < u->ndst; k++) {
                int32_t b = hh_bit(c, u->dst[k]);
                if (b < 0) continue;
                if (pass == 0) { rd->reg_at[b + 1]++; rd->ndef++; continue; }
                rd->def_pc[rd->ndef] = c->lo + i;
                rd->reg_def[rd->reg_at[b]++] = rd->ndef++;
            }
        }
        if (pass == 0) {
            for (uint32_t b = 0; b < c->nbits; b++) rd->reg_at[b + 1] += rd->reg_at[b];
            rd->def_pc = malloc((rd->ndef + 1) * sizeof *rd->def_pc);
            rd->reg_def = malloc((rd->ndef + 1) * sizeof *rd->reg_def);
            if (!rd->def_pc || !rd->reg_def) return false;
        }
    }
    /* the second pass advanced reg_at[b] to the end of b's run: shift back */
    memmove(rd->reg_at + 1, rd->reg_at, c->nbits * sizeof *rd->reg_at);
    rd->reg_at[0] = 0;
    rd->dwords = (rd->ndef + 63) / 64 + 1;
    return true;
}

/* Basic blocks: leaders are the entry, branch targets and what follows a
   branch or an instruction without a fall-through. */
static bool hh_rd_blocks(const hh_ctx *c, hh_rd *rd)
{
    bool *lead = calloc(c->n + 1, sizeof *lead);
    rd->blk_of = malloc(c->n * sizeof *rd->blk_of);
    rd->blk_first = malloc((c->n + 1) * sizeof *rd->blk_first);
    if (!lead || !rd->blk_of || !rd->blk_first) { free(lead); return false; }
    lead[0] = true;
    for (uint32_t i = 0; i < c->n; i++) {
        uint32_t s[2], ns = hh_succ(c, c->lo + i, s);
        const ws_prog_uop *u = hh_uop(c, c->lo + i);
        if (u->branch || ns == 0) lead[i + 1] = true;
        for (uint32_t k = 0; k < ns; k++) lead[s[k] - c->lo] = true;
    }
    rd->nblk = 0;
    for (uint32_t i = 0; i < c->n; i++) {
        if (lead[i]) rd->blk_first[rd->nblk++] = i;
        rd->blk_of[i] = rd->nblk - 1;
    }
    rd->blk_first[rd->nblk] = c->n;
    free(lead);
    return true;
}

/* IN of every block, by round-robin passes until nothing grows (IN only
   grows from empty, so this is the least fixed point). */
static bool hh_rd_solve(const hh_ctx *c, hh_rd *rd)
{
    size_t W = rd->dwords;
    rd->in = calloc((size_t)rd->nblk * W, sizeof *rd->in);
    uint64_t *s = malloc(W * sizeof *s);
    if (!rd->in || !s) { free(s); return false; }
    for (bool changed = true; changed; ) {
        changed = false;
        for (uint32_t b = 0; b < rd->nblk; b++) {
            memcpy(s, rd->in + b * W, W * sizeof *s);
            uint32_t last = rd->blk_first[b + 1] - 1;
            for (uint32_t i = rd->blk_first[b]; i <= last; i++) hh_rd_apply(c, rd, c->lo + i, s);
            uint32_t succ[2], ns = hh_succ(c, c->lo + last, succ);
            for (uint32_t k = 0; k < ns; k++) {
                uint64_t *in = rd->in + rd->blk_of[succ[k] - c->lo] * W;
                for (size_t w = 0; w < W; w++)
                    if (s[w] & ~in[w]) { in[w] |= s[w]; changed = true; }
            }
        }
    }
    free(s);
    return true;
}

/* Append to `c->trig` the LL pcs in `s` that define a register `pc` uses. */
static uint32_t hh_rd_trig(hh_ctx *c, const hh_rd *rd, uint32_t pc, const uint64_t *s,
                           uint32_t at)
{
    const ws_prog_uop *u = hh_uop(c, pc);
    uint32_t start = at;
    for (uint32_t k = 0; k < (uint32_t)u->nsrc + (u->guarded ? u->ndst : 0); k++) {
        int32_t b = hh_bit(c, k < u->nsrc ? u->src[k] : u->dst[k - u->nsrc]);
        if (b < 0) continue;
        for (uint32_t j = rd->reg_at[b]; j < rd->reg_at[b + 1]; j++) {
            uint32_t d = rd->reg_def[j], lp = rd->def_pc[d];
            if (!bs_get(s, d)) continue;
            uint32_t q = start;                 /* insert sorted, once */
            while (q < at && c->trig[q] < lp) q++;
            if (q < at && c->trig[q] == lp) continue;
            memmove(c->trig + q + 1, c->trig + q, (at - q) * sizeof *c->trig);
            c->trig[q] = lp;
            at++;
        }
    }
    return at;
}

/* Per pc, the LL loads whose definitions reach one of its uses. */
static bool hh_stall_points(hh_ctx *c)
{
    hh_rd rd = {0};
    bool ok = hh_rd_defs(c, &rd) && hh_rd_blocks(c, &rd) && hh_rd_solve(c, &rd);
    uint64_t *s = ok ? malloc(rd.dwords * sizeof *s) : NULL;
    c->trig_at = ok ? calloc(c->n + 1, sizeof *c->trig_at) : NULL;
    /* at most one trigger per (use, def) pair; a def is one (pc, reg) */
    size_t cap = 16;
    c->trig = ok ? malloc(cap * sizeof *c->trig) : NULL;
    ok = ok && s && c->trig_at && c->trig;
    uint32_t at = 0;
    for (uint32_t b = 0; ok && b < rd.nblk; b++) {
        memcpy(s, rd.in + (size_t)b * rd.dwords, rd.dwords * sizeof *s);
        for (uint32_t i = rd.blk_first[b]; ok && i < rd.blk_first[b + 1]; i++) {
            if (cap < (size_t)at + rd.ndef + 1) {
                cap = ((size_t)at + rd.ndef + 1) * 2;
                uint32_t *t = realloc(c->trig, cap * sizeof *t);
                if (!t) { ok = false; break; }
                c->trig = t;
            }
            c->trig_at[i] = at;
            at = hh_rd_trig(c, &rd, c->lo + i, s, at);
            hh_rd_apply(c, &rd, c->lo + i, s);
        }
    }
    if (ok) c->trig_at[c->n] = at;
    free(s); free(rd.def_pc); free(rd.reg_at); free(rd.reg_def);
    free(rd.blk_of); free(rd.blk_first); free(rd.in);
    return ok;
}

/* ------------------------------------------------------------------ */
/* BuildChain (spec §3.1.3)                                            */
/* ------------------------------------------------------------------ */

/* What the walk knows at one point of one path from S. */
typedef struct hh_state {
    uint64_t *taint, *skr, *skw;   /* [words] each, one allocation */
    bool barrier;                  /* a barrier or fence skipped since S */
    uint32_t wspaces;              /* 1 << WS_SPACE_* of skipped stores/atomics */
    uint32_t sel, ren;
} hh_state;

/* The chain being built for S, entries in preorder. */
typedef struct hh_build {
    uint32_t S;
    uint32_t ts, te;               /* S's triggers: c->trig[ts, te) */
    haws_chain_entry *e;
    uint32_t n, cap;
    bool oom;
    uint64_t *tmp;                 /* [words] scratch */
} hh_build;

static bool hh_state_init(hh_state *st, uint32_t words)
{
    memset(st, 0, sizeof *st);
    st->taint = calloc(3 * (size_t)words, sizeof *st->taint);
    if (!st->taint) return false;
    st->skr = st->taint + words;
    st->skw = st->skr + words;
    return true;
}

static bool hh_state_copy(hh_state *dst, const hh_state *src, uint32_t words)
{
    if (!hh_state_init(dst, words)) return false;
    uint64_t *t = dst->taint;
    *dst = *src;
    dst->taint = t;
    dst->skr = t + words;
    dst->skw = dst->skr + words;
    memcpy(t, src->taint, 3 * (size_t)words * sizeof *t);
    return true;
}

/* SKIP(X): its results are unavailable in hint mode, its reads and writes
   are still to come in order (WAR / WAW hazards for later selections). */
static void hh_skip(const hh_ctx *c, hh_state *st, uint32_t pc)
{
    const ws_prog_uop *u = hh_uop(c, pc);
    hh_defs(c, u, st->taint);
    hh_defs(c, u, st->skw);
    hh_uses(c, u, st->skr);
    uint8_t k = c->kind[pc - c->lo];
    if (k == HK_WRITE) st->wspaces |= 1u << (u->space & 31);
    if (k == HK_BARRIER) st->barrier = true;
}

static bool hh_meets(const uint64_t *a, const uint64_t *b, uint32_t words)
{
    for (uint32_t w = 0; w < words; w++)
        if (a[w] & b[w]) return true;
    return false;
}

/* Does X read a value not available in hint mode? */
static bool hh_dependent(const hh_ctx *c, hh_build *b, const hh_state *st, const ws_prog_uop *u)
{
    memset(b->tmp, 0, c->words * sizeof *b->tmp);
    hh_uses(c, u, b->tmp);
    return hh_meets(b->tmp, st->taint, c->words);
}

/* Destinations of X that an in-order instruction still to come reads or
   writes (WAR with skR, WAW with skW): how many, and the first in *reg. */
static uint32_t hh_need_ren(const hh_ctx *c, const hh_state *st, const ws_prog_uop *u,
                            int32_t *reg)
{
    uint32_t n = 0;
    *reg = -1;
    for (uint32_t k = 0; k < u->ndst; k++) {
        int32_t b = hh_bit(c, u->dst[k]);
        if (b < 0 || !(bs_get(st->skr, (uint32_t)b) || bs_get(st->skw, (uint32_t)b))) continue;
        if (n++ == 0) *reg = u->dst[k];
    }
    return n;
}

/* May a skipped store/atomic write what load `u` reads? (`alias`) */
static bool hh_may_alias(const hh_ctx *c, const hh_state *st, const ws_prog_uop *u)
{
    if (!st->wspaces) return false;
    if (c->p.alias == 0) return true;
    if (u->space == WS_SPACE_CONST || u->space == WS_SPACE_PARAM) return false;
    if (u->space == WS_SPACE_GENERIC || (st->wspaces & (1u << WS_SPACE_GENERIC))) return true;
    return (st->wspaces >> (u->space & 31)) & 1;
}

/* Does `pc` wait for an LL load S does not (the next hint group)? */
static bool hh_new_stall(const hh_ctx *c, const hh_build *b, uint32_t pc)
{
    uint32_t i = b->ts;
    for (uint32_t j = c->trig_at[pc - c->lo]; j < c->trig_at[pc - c->lo + 1]; j++) {
        while (i < b->te && c->trig[i] < c->trig[j]) i++;
        if (i == b->te || c->trig[i] != c->trig[j]) return true;
    }
    return false;
}

static int32_t hh_emit(hh_build *b, uint32_t pc, bool branch, int32_t reg, uint32_t hidden)
{
    if (b->n == b->cap) {
        uint32_t cap = b->cap ? 2 * b->cap : 16;
        haws_chain_entry *e = realloc(b->e, cap * sizeof *e);
        if (!e) { b->oom = true; return -1; }
        b->e = e;
        b->cap = cap;
    }
    b->e[b->n] = (haws_chain_entry){ .pc = pc, .rename = reg >= 0, .branch = branch,
                                     .hidden = (uint8_t)(reg >= 0 ? hidden : 0), .reg = reg,
                                     .succ = { -1, -1 } };
    return (int32_t)b->n++;
}

enum { HA_SKIP, HA_STOP, HA_SELECT };

static uint32_t hh_dist(uint32_t S, uint32_t pc) { return pc > S ? pc - S : S - pc; }

/* The spec's decision for X at `pc`, in its order; `lim` is the offset
   limit of the next entry.  *reg: the destination to rename, -1 none. */
static int hh_decide(const hh_ctx *c, hh_build *b, const hh_state *st, uint32_t pc,
                     uint32_t lim, int32_t *reg)
{
    const ws_prog_uop *u = hh_uop(c, pc);
    uint8_t k = c->kind[pc - c->lo];
    *reg = -1;
    if (k == HK_STOP) return HA_STOP;
    if (c->p.stop_at_next_stall && hh_new_stall(c, b, pc)) return HA_STOP;
    if (k == HK_BARRIER) return HA_SKIP;          /* never selected, passed [T] */
    if (hh_dependent(c, b, st, u)) return k == HK_BRANCH ? HA_STOP : HA_SKIP;
    if (k == HK_WRITE || k == HK_NOSEL) return HA_SKIP;
    uint32_t nren = hh_need_ren(c, st, u, reg);
    if (nren > 1) return HA_SKIP;
    if (k == HK_LOAD && (st->barrier || nren || hh_may_alias(c, st, u))) return HA_SKIP;
    if (nren && st->ren >= c->p.max_rename) return HA_STOP;
    if (k == HK_BRANCH && u->guarded && c->p.branches == 1) return HA_STOP;   /* v1 */
    if (c->p.enforce_dist && hh_dist(b->S, pc) > lim) return HA_STOP;
    return HA_SELECT;
}

static int32_t hh_walk(const hh_ctx *c, hh_build *b, hh_state *st, uint32_t p, uint32_t lim);

/* v2: a selected conditional bra at entry `i` (pc `pc`): both successors,
   each with the state as it is here. */
static void hh_split(const hh_ctx *c, hh_build *b, hh_state *st, int32_t i, uint32_t pc)
{
    hh_state taken;
    if (!hh_state_copy(&taken, st, c->words)) { b->oom = true; return; }
    int32_t t = hh_walk(c, b, &taken, hh_uop(c, pc)->target, c->p.max_br_dist);
    free(taken.taint);
    int32_t f = hh_walk(c, b, st, pc + 1, c->p.max_br_dist);
    b->e[i].succ[0] = t;
    b->e[i].succ[1] = f;
}

/* Drop branches that lead to nothing from the end of the segment
   [first, *prev]: they are contiguous, sub-chains of a split come after. */
static int32_t hh_trim(hh_build *b, int32_t first, int32_t prev)
{
    while (first >= 0 && prev >= first && b->e[prev].branch && b->e[prev].succ[0] < 0
           && b->e[prev].succ[1] < 0 && b->n == (uint32_t)prev + 1) {
        b->n = (uint32_t)prev--;
        if (prev >= first) b->e[prev].succ[0] = -1;
        else first = -1;
    }
    return first;
}

/* BuildChain's loop from `p` on one path; returns the index of the first
   entry it emitted, -1 if none. */
static int32_t hh_walk(const hh_ctx *c, hh_build *b, hh_state *st, uint32_t p, uint32_t lim)
{
    int32_t first = -1, prev = -1;
    while (st->sel < c->p.max_sel && !b->oom && b->n < HH_MAX_TREE) {
        if (p < c->lo || p > c->hi) break;
        /* scanning only moves forward until a bra is selected */
        if (c->p.enforce_dist && p > b->S && p - b->S > lim) break;
        int32_t reg;
        int a = hh_decide(c, b, st, p, lim, &reg);
        if (a == HA_STOP) break;
        if (a == HA_SKIP) { hh_skip(c, st, p++); continue; }
        const ws_prog_uop *u = hh_uop(c, p);
        int32_t i = hh_emit(b, p, u->branch, reg, st->ren);
        if (i < 0) break;
        if (prev >= 0) b->e[prev].succ[0] = i;
        else first = i;
        prev = i;
        st->sel++;
        if (reg >= 0) st->ren++;
        for (uint32_t k = 0; k < u->ndst; k++) {      /* later readers get X's value */
            int32_t bit = hh_bit(c, u->dst[k]);
            if (bit >= 0) bs_clr(st->taint, (uint32_t)bit);
        }
        if (!u->branch) { p++; lim = c->p.max_dist; continue; }
        if (!u->guarded) { p = u->target; lim = c->p.max_br_dist; continue; }
        hh_split(c, b, st, i, p);
        break;
    }
    return hh_trim(b, first, prev);
}

/* chain[S] into b->e[0, b->n). */
static bool hh_chain(const hh_ctx *c, hh_build *b, uint32_t S)
{
    hh_state st;
    b->S = S;
    b->n = 0;
    b->ts = c->trig_at[S - c->lo];
    b->te = c->trig_at[S - c->lo + 1];
    if (!hh_state_init(&st, c->words)) return false;
    hh_skip(c, &st, S);               /* S has not issued: it is skipped too */
    for (uint32_t j = b->ts; j < b->te; j++) {
        hh_defs(c, hh_uop(c, c->trig[j]), st.taint);
        hh_defs(c, hh_uop(c, c->trig[j]), st.skw);
    }
    uint8_t k = c->kind[S - c->lo];
    if (k != HK_BRANCH && k != HK_STOP) hh_walk(c, b, &st, S + 1, c->p.max_dist);
    free(st.taint);
    return !b->oom;
}

/* ------------------------------------------------------------------ */
/* The table                                                           */
/* ------------------------------------------------------------------ */

static bool hh_params_ok(const haws_hint_params *p)
{
    return p->max_sel >= 1 && p->max_sel <= 64 && p->max_rename <= 255
        && (p->branches == 1 || p->branches == 2) && (p->alias == 0 || p->alias == 1);
}

/* Append b's entries to the pool (moved by realloc: pointers come last). */
static bool hh_store(haws_hints *h, const hh_build *b, haws_chain *ch, uint32_t *cap)
{
    if (h->nentries + b->n > *cap) {
        uint32_t nc = (h->nentries + b->n) * 2 + 16;
        haws_chain_entry *e = realloc(h->mem_[1], nc * sizeof *e);
        if (!e) return false;
        h->mem_[1] = e;
        *cap = nc;
    }
    haws_chain_entry *pool = h->mem_[1];
    for (uint32_t i = 0; i < b->n; i++) {
        pool[h->nentries + i] = b->e[i];
        h->nrenames += b->e[i].rename;
    }
    ch->n = b->n;
    h->nentries += b->n;
    return true;
}

static bool hh_build_all(const hh_ctx *c, haws_hints *h)
{
    uint32_t ns = 0, cap = 0;
    for (uint32_t i = 0; i < c->n; i++) ns += c->trig_at[i + 1] > c->trig_at[i];
    haws_chain *chains = calloc(ns ? ns : 1, sizeof *chains);
    uint32_t *trig = malloc((c->trig_at[c->n] + 1) * sizeof *trig);
    h->mem_[0] = chains;
    h->mem_[2] = trig;
    hh_build b = { .tmp = malloc(c->words * sizeof *b.tmp) };
    bool ok = chains && trig && b.tmp;
    if (ok) memcpy(trig, c->trig, c->trig_at[c->n] * sizeof *trig);
    for (uint32_t i = 0; ok && i < c->n; i++) {
        h->index_[i] = -1;
        if (c->trig_at[i + 1] == c->trig_at[i]) continue;
        haws_chain *ch = &chains[h->nchains];
        *ch = (haws_chain){ .stall_pc = c->lo + i, .ntrig = c->trig_at[i + 1] - c->trig_at[i],
                            .trig = trig + c->trig_at[i] };
        ok = hh_chain(c, &b, c->lo + i) && hh_store(h, &b, ch, &cap);
        h->index_[i] = (int32_t)h->nchains++;
    }
    for (uint32_t i = 0, off = 0; ok && i < h->nchains; off += chains[i++].n)
        chains[i].e = chains[i].n ? (haws_chain_entry *)h->mem_[1] + off : NULL;
    h->chains = chains;
    free(b.e);
    free(b.tmp);
    return ok;
}

haws_hints *haws_hints_build(const ws_program_view *pv, uint32_t entry_pc, uint32_t end_pc,
                             const haws_hint_params *p)
{
    haws_hint_params def = HAWS_HINT_PARAMS_DEFAULT;
    if (!p) p = &def;
    if (!pv || !pv->uops || entry_pc > end_pc || end_pc >= pv->nuops || !hh_params_ok(p))
        return NULL;
    hh_ctx c = { .pv = pv, .p = *p, .lo = entry_pc, .hi = end_pc, .n = end_pc - entry_pc + 1 };
    haws_hints *h = calloc(1, sizeof *h);
    bool ok = h && hh_ctx_init(&c) && hh_stall_points(&c);
    if (ok) {
        h->entry_pc = entry_pc;
        h->end_pc = end_pc;
        h->index_ = malloc(c.n * sizeof *h->index_);
        ok = h->index_ && hh_build_all(&c, h);
    }
    free(c.kind); free(c.ll); free(c.trig_at); free(c.trig);
    if (!ok) { haws_hints_free(h); return NULL; }
    return h;
}

const haws_chain *haws_hints_find(const haws_hints *h, uint32_t stall_pc)
{
    if (!h || stall_pc < h->entry_pc || stall_pc > h->end_pc) return NULL;
    int32_t i = h->index_[stall_pc - h->entry_pc];
    return i < 0 ? NULL : &h->chains[i];
}

void haws_hints_free(haws_hints *h)
{
    if (!h) return;
    for (int i = 0; i < 3; i++) free(h->mem_[i]);
    free(h->index_);
    free(h);
}
