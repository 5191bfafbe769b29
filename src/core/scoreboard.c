/*
** scoreboard.c -- per-warp pending register writes (RAW and WAW hazards
** on registers and predicates).
**
** Register ids are absolute in the warp's register stack (frame reg_base
** + slot; predicates likewise with CORE_PRED_BIT), so calls need no
** special case.  Each entry says when its value becomes readable: ALU
** results get issue + latency at issue, so their "writeback" is implicit
** and an entry is dropped lazily once its time has passed; loads start at
** CORE_NEVER and get their time when the last transaction returns.
*/
#include "core_int.h"

void core_sb_clear(core_warp *w) { w->sb_n = 0; }

/* Drop entries whose value is readable at `cycle`. */
static void sb_retire(core_warp *w, uint64_t cycle)
{
    uint32_t k = 0;
    for (uint32_t i = 0; i < w->sb_n; i++)
        if (w->sb[i].ready > cycle) w->sb[k++] = w->sb[i];
    w->sb_n = k;
}

static inline int32_t sb_abs(const emu_warp *ew, int32_t id)
{
    if (id & CORE_HID_BIT) return id;
    const emu_frame *f = &ew->frames[ew->frame_n - 1];
    return (id & CORE_PRED_BIT) ? (int32_t)(CORE_PRED_BIT | (f->pred_base + (id & ~CORE_PRED_BIT)))
                                : (int32_t)(f->reg_base + id);
}

/* Earliest-ready pending entry for absolute id `r`, or NULL. */
static inline const core_sb_entry *sb_find(const core_warp *w, int32_t r)
{
    for (uint32_t i = 0; i < w->sb_n; i++)
        if (w->sb[i].reg == r) return &w->sb[i];
    return NULL;
}

bool core_sb_ready(core_warp *w, const core_uinfo *ui, uint64_t cycle, uint64_t *wake)
{
    if (!w->sb_n) return true;
    sb_retire(w, cycle);
    if (!w->sb_n) return true;
    uint64_t when = 0;
    bool ready = true;
    for (uint32_t i = 0; i < ui->nsrc + ui->ndst; i++) {
        int32_t id = i < ui->nsrc ? ui->src[i] : ui->dst[i - ui->nsrc];
        const core_sb_entry *e = sb_find(w, sb_abs(w->ew, id));
        if (e) {
            ready = false;
            if (e->ready > when) when = e->ready;
        }
    }
    if (ready && w->sb_n + ui->ndst > CORE_SB_CAP) {
        /* table full: wait for the oldest entry to drain */
        ready = false;
        when = CORE_NEVER;
        for (uint32_t i = 0; i < w->sb_n; i++)
            if (w->sb[i].ready < when) when = w->sb[i].ready;
    }
    if (!ready) *wake = when;
    return ready;
}

void core_sb_reserve(core_warp *w, const core_uinfo *ui, uint64_t ready, uint32_t load)
{
    for (uint32_t i = 0; i < ui->ndst && w->sb_n < CORE_SB_CAP; i++)
        w->sb[w->sb_n++] = (core_sb_entry){ .reg = sb_abs(w->ew, ui->dst[i]),
                                            .load = load, .ready = ready };
}

void core_sb_release_load(core_warp *w, uint32_t load, uint64_t ready)
{
    for (uint32_t i = 0; i < w->sb_n; i++)
        if (w->sb[i].load == load && w->sb[i].ready == CORE_NEVER) {
            w->sb[i].ready = ready;
            w->sb[i].load = CORE_NONE;
        }
}

uint32_t core_sb_blocking_load(const core_warp *w, const core_uinfo *ui)
{
    for (uint32_t i = 0; i < ui->nsrc + ui->ndst; i++) {
        int32_t id = i < ui->nsrc ? ui->src[i] : ui->dst[i - ui->nsrc];
        const core_sb_entry *e = sb_find(w, sb_abs(w->ew, id));
        if (e && e->load != CORE_NONE) return e->load;
    }
    return CORE_NONE;
}
