/*
** hum.c -- Mascar's missed hit-under-miss opportunity (spec §7, Fig. 5):
** an SM-cycle in which the SM issued nothing, the LSU was stalled by
** memory back-pressure (a reservation fail or policy NACK at its head, or
** a full re-execution queue), and some warp waiting for the LSU with its
** operands ready has a global load next of which at least one line is
** already in the L1D.  Policy-agnostic: any scheduler gets the count.
** Interpretations: only global-space loads are looked at (generic, local
** and texture addresses would need the LSU's translation, and the paper's
** kernels are global-load bound); the lanes are the warp's current SIMT
** mask under the guard; a line present with its fill not yet validated
** (allocate = miss reservations) does not count.  The addresses are
** computed without side effects (emu_mem_addrs, the tracers' hook), so
** counting changes no other number.
*/
#include "core_int.h"

/* The distinct L1D lines of the global load at `pc` next in `w`, into
   `h` (none when no lane is active or it reads nothing).  The warp has
   not issued since, so its mask and address registers are unchanged. */
static void hum_lines(const core_sm *sm, const core_warp *w, core_hum *h, uint32_t pc)
{
    emu_warp *ew = w->ew;
    h->insns_at = ew->warp_insns + 1;
    h->epoch = UINT64_MAX;
    h->n = 0;
    if (!ew->simt_n || ew->simt[ew->simt_n - 1].pc != pc) return;
    const ptx_uop *u = &ew->uops[pc];
    uint32_t mask = emu_guard_mask(ew, u, ew->simt[ew->simt_n - 1].mask);
    if (!mask) return;
    emu_step_info info;
    info.nbytes = 0;
    emu_mem_addrs(ew, u, mask, &info);
    if (!info.nbytes) return;
    uint32_t lb = mem_l1_line_bytes(sm->l1[CORE_C_L1D]);
    for (uint32_t lane = 0; lane < EMU_WARP_SIZE; lane++) {
        if (!(mask >> lane & 1)) continue;
        uint64_t line = info.addr[lane] / lb * lb;
        uint32_t k = 0;
        while (k < h->n && h->line[k] != line) k++;
        if (k == h->n) h->line[h->n++] = line;
    }
}

/* Is `w` waiting for the LSU with a global load next? */
static bool hum_candidate(const core_sm *sm, const core_warp *w)
{
    if (!w->ew || w->finished || w->stall != WS_STALL_UNIT || !w->ib_n) return false;
    const core_uinfo *ui = &sm->ui[w->ib_pc[w->ib_head]];
    return ui->kind == CORE_K_MEM && ui->is_load && ui->space == WS_SPACE_GLOBAL;
}

/*
** Keep the candidate set: a warp's stall is written only where it is
** looked at (issue_refresh, which calls this), and a warp issues only
** after a look found it ready, so a set bit means "still waiting with
** the same load next" (hum_warp re-checks the cheap part regardless).
*/
void core_hum_note(core_sm *sm, const core_warp *w)
{
    uint64_t bit = 1ull << (w->slot % 64), *word = &sm->humc.cand[w->slot / 64];
    bool was = *word & bit, is = hum_candidate(sm, w);
    if (was == is) return;
    *word ^= bit;
    sm->humc.gen++;
}

/* Does warp `w`, waiting for the LSU, have a global load next with a
   line already in the L1D?  Memoised: the lines per instruction, the
   answer per L1D presence count. */
static bool hum_warp(const core_sm *sm, const core_warp *w, core_hum *h)
{
    if (!hum_candidate(sm, w)) return false;
    if (h->insns_at != w->ew->warp_insns + 1) hum_lines(sm, w, h, w->ib_pc[w->ib_head]);
    const mem_l1 *l1 = sm->l1[CORE_C_L1D];
    uint64_t epoch = mem_l1_presence(l1);
    if (h->epoch != epoch) {
        h->epoch = epoch;
        h->any = false;
        for (uint32_t k = 0; k < h->n && !h->any; k++)
            h->any = mem_l1_present(l1, h->line[k]);
    }
    return h->any;
}

/* Only the candidates are looked at, and not at all while neither they
   nor the L1D's contents changed since the last answer. */
bool core_hum_missed(core_sm *sm)
{
    if (!sm->lsu_stalled || sm->issued_last) return false;
    uint64_t epoch = mem_l1_presence(sm->l1[CORE_C_L1D]);
    if (sm->humc.memo && sm->humc.memo_gen == sm->humc.gen && sm->humc.memo_epoch == epoch)
        return sm->humc.memo_any;
    bool any = false;
    for (uint32_t wd = 0; wd < (sm->nwarps + 63) / 64 && !any; wd++)
        for (uint64_t m = sm->humc.cand[wd]; m && !any; m &= m - 1) {
            uint32_t i = wd * 64 + (uint32_t)__builtin_ctzll(m);
            any = hum_warp(sm, &sm->warps[i], &sm->hum[i]);
        }
    sm->humc.memo = true;
    sm->humc.memo_gen = sm->humc.gen;
    sm->humc.memo_epoch = epoch;
    sm->humc.memo_any = any;
    return any;
}
