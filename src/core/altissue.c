/*
** altissue.c -- the alternate issue stream: a warp blocked on a
** long-latency load issues instructions of a chain its warp-scheduler
** policy names (ws_warp_sched_ops.alt_chain), out of program order, then
** passes them in order (specs/haws.md §3.1.4-3.1.6; the thesis's HAWS,
** Gong 2020 §5.3).  The policy decides what may run ahead (its hint
** pass); this file is the hardware that runs it, for any policy:
**
**   enter    the warp's next instruction S waits (scoreboard) on a
**            device-memory or texture load; its result-collection unit
**            (RCU) is empty; no episode ran for this instance of S; the
**            warp is not diverged unless the chain allows it.  The fetch
**            buffer is flushed; the first chain instruction is fetched and
**            decoded (1 + decode_latency cycles), the next one a cycle
**            after each issue ("one by one").
**   issue    the current chain entry, its sources read through the
**            episode's renamings (the rename table), its renamed result
**            into a hidden register; it waits for the scoreboard (which
**            covers "an earlier RCU entry not ready") and its unit, and
**            allocates an RCU entry at issue (spec §8 A8).  With priority
**            WS_ALT_AFTER_INORDER only in a cycle in which the scheduler
**            unit issued nothing in program order and had no ready warp.
**   leave    (a) S's load is back: the warp fetches from S again;
**            (b) the chain ends, the episode issued max_issue, the RCU is
**            full, or the emulator refuses the uop: back to S, waiting.
**   return   in program order, the RCU head's pc at the buffer's head is
**            passed at no cost when its result is in its own register,
**            becomes a COPY micro-op (one issue slot, register read and
**            write: 2 cycles, no unit) when it was renamed, and is
**            executed again when it is a branch (§3.1.6 [I]).
**
** In-order instructions always read architectural registers; the
** scoreboard knows hidden registers under CORE_HID_BIT.  The emulator's
** seam (emu/altstream.c) keeps the in-order state untouched, so program
** results and counters equal an in-order run.  Two invariants are counted
** rather than assumed (both stay 0 for a correct chain): an instruction
** issued in order while its pc waits in the RCU, and a warp leaving with
** its RCU not empty.
*/
#include "core_int.h"
#include <stdlib.h>

#define ALT_COPY_LATENCY 2   /* register read + write (spec §8 B costs) */

int core_alt_init(core_sm *sm)
{
    if (!sm->wp || !sm->wp->alt_chain) return 0;
    sm->alts = calloc(sm->nwarps, sizeof *sm->alts);
    if (!sm->alts) return -1;
    for (uint32_t i = 0; i < sm->nwarps; i++) sm->warps[i].alt = &sm->alts[i];
    return 0;
}

void core_alt_free(core_sm *sm)
{
    if (!sm->alts) return;
    for (uint32_t i = 0; i < sm->nwarps; i++) emu_alt_free(&sm->alts[i].ea);
    free(sm->alts);
    sm->alts = NULL;
}

/* A warp (re)starts in its slot: nothing of the last one's state stays. */
void core_alt_reset(core_warp *w)
{
    core_alt *a = w->alt;
    if (!a) return;
    emu_alt_end(&a->ea);
    a->on = a->used = false;
    a->rcu_n = a->rcu_head = 0;
    for (uint32_t i = 0; i < WS_ALT_HIDDEN; i++) a->rt[i].live = false;
}

/* A long-latency load: device memory or texture (spec §8 B). */
bool core_alt_ll_pc(const core_sm *sm, uint32_t pc)
{
    if (pc == CORE_NO_PC || pc >= sm->launch->mod->nuops) return false;
    const core_uinfo *ui = &sm->ui[pc];
    return ui->kind == CORE_K_MEM && ui->is_load
        && (core_uinfo_devmem(ui) || ui->space == WS_SPACE_TEX);
}

bool core_alt_ll_load(const core_sm *sm, uint32_t load)
{
    return load != CORE_NONE && core_alt_ll_pc(sm, sm->loads[load].pc);
}

static void alt_leave(core_sm *sm, core_warp *w, bool load_back)
{
    core_alt *a = w->alt;
    a->on = false;
    emu_alt_end(&a->ea);
    if (a->n_ep > sm->st->alt.max_episode) sm->st->alt.max_episode = a->n_ep;
    sm->st->alt.ended_load_back += load_back;
    core_warp_poke(sm, w);
    sm->active = true;
}

/*
** Warp `w` was just found waiting (scoreboard) on load record `load` with
** S = its buffered head: enter an episode if everything allows it.
*/
void core_alt_try_enter(core_sm *sm, core_warp *w, uint32_t load, uint64_t cycle)
{
    core_alt *a = w->alt;
    if (!a || a->on || a->rcu_n || !w->ib_n || !core_alt_ll_load(sm, load)) return;
    if (a->used && a->stall_issued == w->issued) return;   /* one per stall instance */
    uint32_t s = w->ib_pc[w->ib_head];
    a->used = true;
    a->stall_issued = w->issued;
    ws_sched_view v = core_sm_view(sm, cycle);
    v.sched = w->sched;
    ws_alt_chain ch = { 0 };
    if (!sm->wp->alt_chain(sm->wst, &v, w->slot, s, &ch) || !ch.n || !ch.e) return;
    if (w->ew->simt_n > 1 && !ch.diverged_ok) return;
    if (emu_alt_begin(w->ew, &a->ea)) return;
    a->ch = ch;
    if (!a->ch.max_issue || a->ch.max_issue > WS_ALT_MAX) a->ch.max_issue = WS_ALT_MAX;
    for (uint32_t i = 0; i < WS_ALT_HIDDEN; i++) a->rt[i].live = false;   /* RCU empty: no copy pending */
    a->on = true;
    a->stall_pc = s;
    a->cur = 0;
    a->n_ep = 0;
    a->next_at = cycle + 1 + sm->cfg->decode_latency;
    core_ib_flush(sm, w);
    sm->st->alt.switches++;
    sm->active = true;
}

/*
** The stall of a warp in an episode, as the scheduler and its policy see
** it: S's (the scoreboard, waiting on its load).  S ready: case (a), the
** episode ends and the warp fetches S again.
*/
uint8_t core_alt_stall(core_sm *sm, core_warp *w, uint64_t cycle, uint64_t *wake)
{
    core_alt *a = w->alt;
    uint64_t t = CORE_NEVER;
    if (core_sb_ready(w, &sm->ui[a->stall_pc], cycle, &t)) {
        alt_leave(sm, w, true);
        return WS_STALL_IBUFFER;
    }
    (void)wake;   /* rechecked every cycle while in an episode (issue_refresh) */
    return WS_STALL_SCOREBOARD;
}

/* The hidden register the rename table maps `reg` to, or -1. */
static int alt_rt_find(const core_alt *a, int32_t reg)
{
    for (int i = 0; i < WS_ALT_HIDDEN; i++)
        if (a->rt[i].live && a->rt[i].reg == reg) return i;
    return -1;
}

/*
** Chain entry `e` as the scoreboard and the emulator see it: sources
** through the rename table, a renamed destination into its hidden
** register.  False when the renaming does not fit the emulator's limits.
*/
static bool alt_remap(const core_alt *a, const core_uinfo *ui, const ws_alt_entry *e,
                      core_uinfo *x, emu_alt_remap *rm)
{
    *x = *ui;
    rm->nsrc = rm->ndst = 0;
    for (uint32_t i = 0; i < ui->nsrc; i++) {
        int h = alt_rt_find(a, ui->src[i]);
        if (h < 0) continue;
        if (rm->nsrc == EMU_ALT_MAX_SRC) return false;
        bool pred = (ui->src[i] & CORE_PRED_BIT) != 0;
        rm->src[rm->nsrc++] = (emu_alt_ren){ .slot = ui->src[i] & ~CORE_PRED_BIT,
                                             .hidden = (uint16_t)a->rt[h].hidden, .pred = pred };
        x->src[i] = CORE_HID_BIT | (pred ? CORE_PRED_BIT : 0) | a->rt[h].hidden;
    }
    if (e->reg < 0) return true;
    bool pred = (e->reg & WS_PROG_PRED_BIT) != 0;
    for (uint32_t i = 0; i < ui->ndst; i++) {
        if (ui->dst[i] != e->reg) continue;
        x->dst[i] = CORE_HID_BIT | (pred ? CORE_PRED_BIT : 0) | e->hidden;
    }
    rm->dst[rm->ndst++] = (emu_alt_ren){ .slot = e->reg & ~WS_PROG_PRED_BIT,
                                         .hidden = e->hidden, .pred = pred };
    return true;
}

/* May `x` go to its unit now (the LSU, or a free ALU instance)? */
static bool alt_unit_free(core_sm *sm, core_warp *w, const core_uinfo *x, uint64_t cycle)
{
    uint64_t t = CORE_NEVER;
    if (x->kind == CORE_K_MEM)
        return !sm->lsu.busy && !w->reexec_n && (!x->is_load || core_lsu_can_take_load(sm, w));
    return core_issue_unit_free(sm, x, cycle, &t);
}

/* Claim the pipe, reserve the results, hand a load to the LSU. */
static void alt_dispatch(core_sm *sm, core_warp *w, const core_uinfo *x, uint32_t pc,
                         const emu_step_info *info, uint64_t cycle)
{
    if (x->kind == CORE_K_MEM) {
        uint32_t load = core_load_alloc(sm, w);
        sm->loads[load].pc = pc;
        core_sb_reserve(w, x, CORE_NEVER, load);
        core_lsu_accept(sm, w, info, load, cycle);
        sm->st->alt.issued_ll += core_alt_ll_pc(sm, pc);
        return;
    }
    uint64_t ready = core_issue_claim(sm, w, x, cycle);
    if (x->ndst) core_sb_reserve(w, x, ready, CORE_NONE);
    sm->st->alt.issued_alu += x->kind == CORE_K_ALU;
}

/* The entry after branch `e` (uop `u`) once the shadow path went on at
   `next_pc`: an unconditional branch has one successor; a conditional one
   the side it took; -1 ends the episode (the branch split the warp). */
static int32_t alt_successor(const core_alt *a, const ptx_uop *u, const ws_alt_entry *e,
                             uint32_t next_pc, uint32_t shadow_before)
{
    if (a->ea.shadow_n != shadow_before) return -1;
    if (u->guard < 0) return e->next[0];
    return next_pc == u->target ? e->next[0] : e->next[1];
}

/*
** Issue the current chain instruction of warp `w` (in an episode) if it
** can go now; false when it waits (the fetch, the scoreboard, its unit).
*/
bool core_alt_issue(core_sm *sm, core_warp *w, uint64_t cycle)
{
    core_alt *a = w->alt;
    if (!a || !a->on || cycle < a->next_at) return false;
    if (a->cur < 0 || (uint32_t)a->cur >= a->ch.n || a->rcu_n >= WS_ALT_MAX
        || a->n_ep >= a->ch.max_issue) {
        alt_leave(sm, w, false);
        return false;
    }
    const ws_alt_entry *e = &a->ch.e[a->cur];
    const core_uinfo *ui = &sm->ui[e->pc];
    core_uinfo x;
    emu_alt_remap rm;
    uint64_t t = CORE_NEVER;
    if (!alt_remap(a, ui, e, &x, &rm)) {
        alt_leave(sm, w, false);
        return false;
    }
    if (!core_sb_ready(w, &x, cycle, &t) || !alt_unit_free(sm, w, &x, cycle)) return false;
    emu_step_info info;
    uint32_t next_pc, before = a->ea.shadow_n;
    int rc = emu_alt_exec(w->ew, &a->ea, e->pc, rm.nsrc || rm.ndst ? &rm : NULL, &info, &next_pc);
    if (rc == EMU_ALT_REFUSED) {
        sm->st->alt.refused++;
        alt_leave(sm, w, false);
        return false;
    }
    if (rc) { sm->fault = true; return true; }
    core_issue_count_energy(sm, &x, info.mask);
    alt_dispatch(sm, w, &x, e->pc, &info, cycle);
    core_alt_rcu *r = &a->rcu[(a->rcu_head + a->rcu_n++) % WS_ALT_MAX];
    *r = (core_alt_rcu){ .pc = e->pc, .reg = e->reg, .hidden = e->hidden,
                         .control = ui->kind == CORE_K_CTRL, .mask = info.mask };
    if (e->reg >= 0) {
        int old = alt_rt_find(a, e->reg);
        if (old >= 0) a->rt[old].live = false;
        a->rt[e->hidden] = (core_alt_rt){ .reg = e->reg, .hidden = e->hidden, .live = true };
    }
    a->cur = ui->kind == CORE_K_CTRL ? alt_successor(a, &w->ew->uops[e->pc], e, next_pc, before)
                                     : e->next[0];
    a->n_ep++;
    a->next_at = cycle + 1;
    sm->st->alt.issued++;
    sm->last_progress = cycle;
    sm->active = true;
    return true;
}

/* ------------------------------------------------------------------ */
/* Back in program order (spec §3.1.6)                                 */
/* ------------------------------------------------------------------ */

static inline core_alt_rcu *alt_head(core_alt *a) { return &a->rcu[a->rcu_head]; }

static void alt_pop(core_alt *a)
{
    a->rcu_head = (a->rcu_head + 1) % WS_ALT_MAX;
    a->rcu_n--;
    if (a->fetch_n) a->fetch_n--;
}

bool core_alt_fetch_pass(core_warp *w, uint32_t pc)
{
    core_alt *a = w->alt;
    if (a->on || a->fetch_n >= a->rcu_n) return false;
    const core_alt_rcu *r = &a->rcu[(a->rcu_head + a->fetch_n) % WS_ALT_MAX];
    if (r->pc != pc) return false;
    a->fetch_n++;
    return !r->control && r->reg < 0;
}

/* Is the buffered head of `w` the RCU head (the emulator agreeing)? */
static bool alt_at_head(core_warp *w)
{
    core_alt *a = w->alt;
    if (!a || a->on || !a->rcu_n || !w->ib_n) return false;
    const ptx_uop *next = emu_warp_next(w->ew);
    uint32_t pc = w->ib_pc[w->ib_head];
    return pc == alt_head(a)->pc && next && (uint32_t)(next - w->ew->uops) == pc;
}

/*
** Pass the buffered instructions that ran ahead with their result in
** their own register: not issued, no cost (the fetch logic's skip).  The
** buffer goes on at the warp's next pc, or is flushed when that is not
** what it holds (a reconvergence jump).
*/
void core_alt_settle(core_sm *sm, core_warp *w)
{
    core_alt *a = w->alt;
    while (alt_at_head(w) && !alt_head(a)->control && alt_head(a)->reg < 0) {
        emu_step_info info;
        if (emu_warp_skip(w->ew, &info)) { sm->fault = true; return; }
        alt_pop(a);
        /* a passed entry held no buffer or queue room */
        if (w->ib_free) { w->ib_free--; sm->iq_used++; }
        core_ib_pop(sm, w);
        sm->st->alt.skips++;
        /* its buffer has room now: fetch looks again, no cycle is skipped */
        core_fetch_may(sm, w);
        sm->active = true;
        const ptx_uop *next = emu_warp_next(w->ew);
        if (w->ib_n && (!next || w->ib_pc[w->ib_head] != (uint32_t)(next - w->ew->uops)))
            core_ib_flush(sm, w);
    }
    if (alt_at_head(w) && alt_head(a)->reg >= 0) {
        /* the COPY micro-op: hidden register -> the architectural one */
        const core_alt_rcu *r = alt_head(a);
        bool pred = (r->reg & WS_PROG_PRED_BIT) != 0;
        core_uinfo *c = &a->copy_ui;
        *c = (core_uinfo){ .kind = CORE_K_ALU, .unit = CORE_UNIT_NONE,
                           .next_class = WS_NEXT_COMPUTE, .nsrc = 1, .ndst = 1,
                           .latency = ALT_COPY_LATENCY, .interval = 1 };
        c->src[0] = CORE_HID_BIT | (pred ? CORE_PRED_BIT : 0) | r->hidden;
        c->dst[0] = r->reg;
    }
}

/* The head's timing facts: its COPY micro-op where it is one, else NULL. */
const core_uinfo *core_alt_head_copy(core_warp *w)
{
    return alt_at_head(w) && alt_head(w->alt)->reg >= 0 ? &w->alt->copy_ui : NULL;
}

/* Issue the COPY at the head of `w` (core_alt_head_copy said so) and
   pass the instruction it stands for. */
bool core_alt_copy(core_sm *sm, core_warp *w, uint64_t cycle)
{
    core_alt *a = w->alt;
    const core_alt_rcu *r = alt_head(a);
    int32_t slot = r->reg & ~WS_PROG_PRED_BIT;
    int rc = (r->reg & WS_PROG_PRED_BIT)
             ? emu_warp_copy_hidden_pred(w->ew, &a->ea, r->hidden, slot, r->mask)
             : emu_warp_copy_hidden(w->ew, &a->ea, r->hidden, slot, r->mask);
    emu_step_info info;
    if (rc || emu_warp_skip(w->ew, &info)) { sm->fault = true; return true; }
    core_sb_reserve(w, &a->copy_ui, core_issue_claim(sm, w, &a->copy_ui, cycle), CORE_NONE);
    if (a->rt[r->hidden].live && a->rt[r->hidden].reg == r->reg) a->rt[r->hidden].live = false;
    alt_pop(a);
    sm->st->alt.copies++;
    return false;
}

/* Warp `w` issued `pc` in program order: a branch that ran ahead leaves
   the RCU now; any other pc waiting there breaks the order (counted). */
void core_alt_in_order(core_sm *sm, core_warp *w, uint32_t pc)
{
    core_alt *a = w->alt;
    if (!a || !a->rcu_n) return;
    if (alt_head(a)->pc == pc && alt_head(a)->control) { alt_pop(a); return; }
    for (uint32_t i = 0; i < a->rcu_n; i++)
        if (a->rcu[(a->rcu_head + i) % WS_ALT_MAX].pc == pc) sm->st->alt.order_errors++;
}

/* Warp `w` is leaving: its RCU must be empty. */
void core_alt_warp_done(core_sm *sm, core_warp *w)
{
    if (!w->alt) return;
    if (w->alt->rcu_n || w->alt->on) sm->st->alt.order_errors++;
    core_alt_reset(w);
}
