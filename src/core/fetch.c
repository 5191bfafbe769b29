/*
** fetch.c -- the fetch and decode stage: fills per-warp instruction
** buffers.  By default the instruction cache is perfect (every fetch
** hits), so fetch bandwidth and the fetch policy are all that limit
** supply.  With l1i.model (GPGPU-Sim's -gpgpu_cache:il1) each line the
** fetch enters is looked up in the SM's L1I: a miss goes to the L2 like a
** data read and the warp fetches nothing more until the line returns
** (GPGPU-Sim's imiss_pending; shader_core_ctx::fetch).  Instruction pc i
** of a module sits at CORE_CODE_BASE + 8 i, GPGPU-Sim's PROGRAM_MEM_START
** and 8-byte PTX instruction slots.
**
** Each cycle the fetch policy picks up to `fetch_width` warps; a picked
** warp gets as many sequential instructions as its buffer has room for
** (one I-cache line's worth), each usable one cycle later (decode).  Fetch
** stops after a control instruction or barrier: the issue stage flushes
** the buffer when it executes one, and the next fetch starts from the
** warp's real next pc (emu_warp_next), which also covers SIMT
** reconvergence jumps.  A function's end (FUNC_END) is never fetched.
*/
#include "core_int.h"

#define CORE_CODE_BASE  0xF0000000ull   /* GPGPU-Sim's PROGRAM_MEM_START */
#define CORE_INSN_BYTES 8u              /* its slot per PTX instruction */

void core_ib_flush(core_warp *w)
{
    w->ib_n = 0;
    w->fetch_pc = CORE_NO_PC;
}

static bool fetch_can(const core_sm *sm, const core_warp *w)
{
    /* the warp's own fields first: most cycles most buffers are full */
    return w->ew && !w->finished && !w->imiss && w->ib_n < sm->cfg->ibuffer_size
        && (w->ib_n == 0 || w->fetch_pc != CORE_NO_PC) && w->ew->state == EMU_W_READY;
}

/*
** May `w` take instruction `pc` now?  Always without an instruction cache;
** with one, when pc's line is `*line_ok` (looked up already in this fetch)
** or hits now.  A miss, new or merged into an outstanding one, leaves the
** warp waiting (imiss) until core_fetch_reply; a reservation fail leaves
** it free to try again on a later cycle.
*/
static bool fetch_line_ready(core_sm *sm, core_warp *w, uint32_t pc, uint64_t *line_ok)
{
    if (!sm->l1i) return true;
    uint64_t addr = CORE_CODE_BASE + (uint64_t)pc * CORE_INSN_BYTES;
    uint64_t line = addr & ~(uint64_t)(mem_l1_line_bytes(sm->l1i) - 1);
    if (line == *line_ok) return true;
    mem_l1_evict ev;
    int r = mem_l1_access(sm->l1i, MEM_READ, line, w->slot, w->slot, &ev);
    if (r == MEM_L1_HIT) {
        *line_ok = line;
        return true;
    }
    if (r != MEM_L1_FAIL) w->imiss = true;
    return false;
}

/* An instruction-cache line is back: the warps waiting for it fetch again. */
void core_fetch_reply(core_sm *sm, const mem_req *rep, uint64_t cycle)
{
    mem_l1_evict ev;
    uint32_t n = mem_l1_fill(sm->l1i, rep, sm->tokbuf, &ev);
    (void)cycle;
    for (uint32_t i = 0; i < n; i++) {
        if (sm->tokbuf[i] >= sm->nwarps) continue;
        core_warp *w = &sm->warps[sm->tokbuf[i]];
        w->imiss = false;
        core_warp_poke(sm, w);
    }
    sm->active = true;
}

static void fetch_warp(core_sm *sm, core_warp *w, uint64_t cycle)
{
    uint32_t size = sm->cfg->ibuffer_size;
    uint64_t line_ok = UINT64_MAX;
    if (w->ib_n == 0) {
        const ptx_uop *u = emu_warp_next(w->ew);
        if (!u) return;
        w->fetch_pc = (uint32_t)(u - w->ew->uops);
        w->ib_head = 0;
    }
    while (w->ib_n < size && w->fetch_pc != CORE_NO_PC) {
        uint32_t i = (w->ib_head + w->ib_n) % size;
        uint32_t pc = w->fetch_pc;
        if (w->ew->uops[pc].op == PTX_OP_FUNC_END) {
            /* not an instruction: the emulator applies it when the pc
               gets there (emu_warp_settle), the buffer is refetched */
            w->fetch_pc = CORE_NO_PC;
            break;
        }
        if (!fetch_line_ready(sm, w, pc, &line_ok)) break;
        w->ib_pc[i] = pc;
        w->ib_ready[i] = cycle + 1;
        w->ib_n++;
        w->fetched++;
        uint8_t k = sm->ui[pc].kind;
        w->fetch_pc = (k == CORE_K_CTRL || k == CORE_K_BAR) ? CORE_NO_PC : pc + 1;
    }
    w->last_fetch = cycle;
    core_warp_poke(sm, w);
    sm->active = true;
}

/* The oracle profile's counts for warp `w` (fetch policies that declare
   WS_NEED_ORACLE): what is left of the warp and of its barrier interval. */
static void fetch_oracle(const core_sm *sm, const core_warp *w, ws_fetch_warp_view *v)
{
    v->oracle_remaining = v->oracle_to_barrier = v->oracle_mem_to_barrier = -1;
    const ws_oracle_view *o = sm->kinfo ? sm->kinfo->oracle : NULL;
    if (!o || w->uid >= o->nwarps) return;
    const emu_warp *ew = w->ew;
    uint64_t total = o->total[w->uid];
    v->oracle_remaining = total > ew->warp_insns ? (int64_t)(total - ew->warp_insns) : 0;
    uint32_t i = o->ivl_start[w->uid] + w->ivl;
    if (i >= o->ivl_start[w->uid + 1]) return;
    uint64_t done = ew->warp_insns - w->ivl_base;
    uint64_t mem_done = ew->class_insns[PTX_CLS_MEM] - w->ivl_mem_base;
    v->oracle_to_barrier = o->ivl_insns[i] > done ? (int64_t)(o->ivl_insns[i] - done) : 0;
    v->oracle_mem_to_barrier = o->ivl_mem[i] > mem_done ? (int64_t)(o->ivl_mem[i] - mem_done) : 0;
}

/* Fetch through the configured policy: it sees every slot.  false when
   no warp could fetch. */
static bool fetch_by_policy(core_sm *sm, uint64_t cycle)
{
    uint32_t first = 0;
    while (first < sm->nwarps && !fetch_can(sm, &sm->warps[first])) first++;
    if (first == sm->nwarps) return false;   /* the common case: every buffer is full */
    for (uint32_t i = 0; i < first; i++) sm->fview[i].can_fetch = false;
    bool any = false;
    for (uint32_t i = first; i < sm->nwarps; i++) {
        const core_warp *w = &sm->warps[i];
        ws_fetch_warp_view *v = &sm->fview[i];
        v->can_fetch = fetch_can(sm, w);
        any |= v->can_fetch;
        v->slot = i;
        v->uid = w->uid;
        v->age = w->age;
        v->at_barrier = w->ew && w->ew->state == EMU_W_BARRIER;
        v->ibuf_count = w->ib_n;
        v->fetched = w->fetched;
        v->issued = w->issued;
        v->last_fetch = w->last_fetch;
        v->pending_loads = w->pending_loads;
        v->pending_stores = w->pending_stores;
        if (w->ew) fetch_oracle(sm, w, v);
        else v->oracle_remaining = v->oracle_to_barrier = v->oracle_mem_to_barrier = -1;
    }
    if (!any) return false;
    ws_fetch_view view = { .cycle = cycle, .sm = sm->id, .nwarps = sm->nwarps,
                           .warps = sm->fview, .kernel = sm->kinfo };
    for (uint32_t k = 0; k < sm->cfg->fetch_width; k++) {
        int i = sm->fetch_ops->pick(sm->fetch_st, &view);
        if (i < 0 || (uint32_t)i >= sm->nwarps || !sm->fview[i].can_fetch) break;
        fetch_warp(sm, &sm->warps[i], cycle);
        sm->fview[i].can_fetch = false;
    }
    return true;
}

/* Built-in round robin, used when no fetch policy is configured; false
   when no warp could fetch. */
static bool fetch_round_robin(core_sm *sm, uint64_t cycle)
{
    uint32_t done = 0, n = sm->nwarps;
    for (uint32_t k = 0; k < n && done < sm->cfg->fetch_width; k++) {
        uint32_t i = (sm->fetch_rr + k) % n;
        core_warp *w = &sm->warps[i];
        if (!fetch_can(sm, w)) continue;
        fetch_warp(sm, w, cycle);
        done++;
        sm->fetch_rr = (i + 1) % n;
    }
    return done > 0;
}

/*
** Whether a warp can fetch changes only when it issues, is flushed, its
** instruction-cache line returns, a barrier releases it (all poke it:
** core_warp_poke) or it starts; until then a fruitless scan is not
** repeated.
*/
void core_fetch_tick(core_sm *sm, uint64_t cycle)
{
    if (!sm->live_warps || sm->fetch_quiet) return;
    bool found = sm->fetch_ops && sm->fetch_ops->pick ? fetch_by_policy(sm, cycle)
                                                      : fetch_round_robin(sm, cycle);
    sm->fetch_quiet = !found;
}
