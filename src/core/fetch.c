/*
** fetch.c -- the fetch and decode stage.  Two front ends:
**
** Per-warp instruction buffers (the default, GPGPU-Sim-like).  Each cycle
** the fetch policy picks up to `fetch_width` warps; a picked warp gets as
** many sequential instructions as its buffer has room for (one I-cache
** line's worth), each usable `decode_latency` cycles later.
**
** The common fetch framework of the fetch-dram study (fetch_queue > 0,
** specs/fetch-dram.md §2.0): each pick brings ONE instruction of one warp
** into an issue queue of `fetch_queue` entries that the SM's warps share
** (an entry is taken from fetch, through decode, to dispatch: [R] the
** queue bounds everything fetched and not dispatched); dispatch order is
** the warp scheduler's (each buffered instruction carries its fetch order,
** ws_warp_view.next_seq, for a scheduler that dispatches oldest first).  A warp may fetch unless it waits at a barrier (from the fetch
** of the bar), for an unresolved branch (from its fetch until
** `branch_resolve` cycles after it issues), for its device-memory access
** (fetch_stall_mem: from the fetch of a global/local/generic load, store
** or atomic until every transaction is back or acknowledged) or for an
** instruction-cache line, or is finished.  Warp-cycles lost to each
** reason while the queue has room, queue-full and no-warp cycles and the
** queue's occupancy are counted (stats.h).
**
** Instruction cache.  By default it is perfect.  With l1i.model
** (GPGPU-Sim's -gpgpu_cache:il1) each line the fetch enters is looked up
** in the SM's L1I: a miss goes to the L2 like a data read, or is filled
** after l1i.miss_latency cycles, and the warp fetches nothing more until
** the line is there (GPGPU-Sim's imiss_pending; shader_core_ctx::fetch).
** Instruction pc i of a module sits at CORE_CODE_BASE + 8 i, GPGPU-Sim's
** PROGRAM_MEM_START and 8-byte PTX instruction slots.
**
** Either way fetch stops after a control instruction or barrier: the
** issue stage flushes the buffer when it executes one, and the next fetch
** starts from the warp's real next pc (emu_warp_next), which also covers
** SIMT reconvergence jumps.  A function's end (FUNC_END) is never fetched.
*/
#include "core_int.h"
#include <stdlib.h>
#include <string.h>

#define CORE_CODE_BASE  0xF0000000ull   /* GPGPU-Sim's PROGRAM_MEM_START */
#define CORE_INSN_BYTES 8u              /* its slot per PTX instruction */

void core_ib_flush(core_sm *sm, core_warp *w)
{
    sm->iq_used -= w->ib_n - w->ib_free;
    w->ib_n = 0;
    w->ib_free = 0;
    if (w->alt) w->alt->fetch_n = 0;
    w->ib_mem = 0;
    w->fetch_pc = CORE_NO_PC;
}

void core_ib_pop(core_sm *sm, core_warp *w)
{
    if (core_uinfo_devmem(&sm->ui[w->ib_pc[w->ib_head]]) && w->ib_mem) w->ib_mem--;
    w->ib_head = (w->ib_head + 1) % sm->ib_ring;
    w->ib_n--;
    sm->iq_used--;
}

/* Is there room for one more instruction of `w`: in its buffer, and with
   a common issue queue, in the queue? */
static inline bool fetch_room(const core_sm *sm, const core_warp *w)
{
    return w->ib_n - w->ib_free < sm->ibuf_cap && w->ib_n < sm->ib_ring
        && (!sm->cfg->fetch_queue || sm->iq_used < sm->cfg->fetch_queue);
}

/*
** Why `w` may not fetch under the framework's rules (fetch_stall_mem,
** branch_resolve; the barrier and I-cache waits hold in every mode):
** GPU_FSTALL_*, or -1 when it may.  A branch's resolution time is noted
** in sm->fetch_due, the cycle a quiet fetch must look again.
*/
static int fetch_block(core_sm *sm, const core_warp *w, uint64_t cycle)
{
    if (w->ew->state == EMU_W_BARRIER) return GPU_FSTALL_BARRIER;
    if (w->imiss) return GPU_FSTALL_IMISS;
    if (w->ib_n && w->fetch_pc == CORE_NO_PC) {
        /* stopped after a control instruction or a barrier until it issues */
        uint32_t last = w->ib_pc[(w->ib_head + w->ib_n - 1) % sm->ib_ring];
        return sm->ui[last].kind == CORE_K_BAR ? GPU_FSTALL_BARRIER : GPU_FSTALL_BRANCH;
    }
    if (cycle < w->fetch_resume) {
        if (w->fetch_resume < sm->fetch_due) sm->fetch_due = w->fetch_resume;
        return GPU_FSTALL_BRANCH;
    }
    if (sm->cfg->fetch_stall_mem && (w->ib_mem || w->dev_loads || w->store_at))
        return GPU_FSTALL_MEM;
    return -1;
}

/* What keeps `w` from fetching in every mode: no warp, finished, an
   I-cache wait, no room, stopped until a control instruction or barrier
   issues, not ready to run.  The warp's own fields first: most cycles
   most buffers are full. */
static bool fetch_open(const core_sm *sm, const core_warp *w)
{
    return w->ew && !w->finished && !w->imiss && !(w->alt && w->alt->on) && fetch_room(sm, w)
        && (w->ib_n == 0 || w->fetch_pc != CORE_NO_PC) && w->ew->state == EMU_W_READY;
}

/* May slot i, whose fetch_may bit is set, fetch now?  A look that finds
   it closed (fetch_open false, which holds until a poke sets the bit
   again) clears the bit: a warp with a clear bit is not touched.  The
   rules' blocks end with time, so they leave the bit set. */
static inline bool fetch_look_may(core_sm *sm, uint32_t i, uint64_t cycle)
{
    const core_warp *w = &sm->warps[i];
    if (!fetch_open(sm, w)) {
        sm->fetch_may[i / 64] &= ~(1ull << (i % 64));
        return false;
    }
    return !sm->fetch_rules || fetch_block(sm, w, cycle) < 0;
}

/* fetch_look_may for any slot. */
static bool fetch_look(core_sm *sm, uint32_t i, uint64_t cycle)
{
    return (sm->fetch_may[i / 64] >> (i % 64) & 1) && fetch_look_may(sm, i, cycle);
}

/* The set fetch_may bits of slots [lo, hi), as word `wd`'s mask. */
static inline uint64_t fetch_may_in(const core_sm *sm, uint32_t wd, uint32_t lo, uint32_t hi)
{
    uint64_t m = sm->fetch_may[wd];
    uint32_t base = wd * 64;
    if (lo > base) m &= ~0ull << (lo - base);
    if (hi < base + 64) m &= (1ull << (hi - base)) - 1;
    return m;
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

/* Buffer instruction `pc` of `w` (fetched at `cycle`). */
static void fetch_put(core_sm *sm, core_warp *w, uint32_t pc, uint64_t cycle)
{
    uint32_t i = (w->ib_head + w->ib_n) % sm->ib_ring;
    const core_uinfo *ui = &sm->ui[pc];
    w->ib_pc[i] = pc;
    if (w->alt && core_alt_fetch_pass(w, pc)) {
        /* ran ahead: passed at issue at no cost, never decoded */
        w->ib_ready[i] = cycle;
        w->ib_seq[i] = sm->fetch_seq++;
        w->ib_n++;
        w->ib_free++;
        w->fetch_pc = pc + 1;
        return;
    }
    w->ib_ready[i] = cycle + sm->cfg->decode_latency;
    w->ib_seq[i] = sm->fetch_seq++;
    w->ib_n++;
    sm->iq_used++;
    w->fetched++;
    sm->st->fetched_insns++;
    if (core_uinfo_devmem(ui)) {
        w->ib_mem++;
        w->fetched_dev++;
    }
    w->fetch_pc = (ui->kind == CORE_K_CTRL || ui->kind == CORE_K_BAR) ? CORE_NO_PC : pc + 1;
}

/* ---- l1i.miss_latency: misses filled after a fixed time, never sent
   below (the fetch-dram spec §3 [R]: the paper gives no miss latency) -- */

static bool imiss_can_send(void *impl)
{
    const core_sm *sm = impl;
    return sm->imiss_n < sm->imiss_cap;
}

static bool imiss_send(void *impl, const mem_req *r, uint64_t cycle)
{
    core_sm *sm = impl;
    if (sm->imiss_n == sm->imiss_cap) return false;
    uint32_t i = (sm->imiss_head + sm->imiss_n++) % sm->imiss_cap;
    sm->imiss_q[i] = *r;
    sm->imiss_due[i] = cycle + sm->cfg->l1i_miss_latency;
    return true;
}

int core_fetch_imiss_init(core_sm *sm)
{
    /* every miss the L1I can have outstanding, and its queue toward below */
    sm->imiss_cap = sm->cfg->l1i.mshr_entries + sm->cfg->l1i.miss_queue + 1;
    sm->imiss_q = calloc(sm->imiss_cap, sizeof *sm->imiss_q);
    sm->imiss_due = calloc(sm->imiss_cap, sizeof *sm->imiss_due);
    sm->imiss_port = (mem_port){ .impl = sm, .can_send = imiss_can_send, .send = imiss_send };
    return sm->imiss_q && sm->imiss_due ? 0 : -1;
}

void core_fetch_imiss_tick(core_sm *sm, uint64_t cycle)
{
    while (sm->imiss_n && sm->imiss_due[sm->imiss_head] <= cycle) {
        mem_req r = sm->imiss_q[sm->imiss_head];
        sm->imiss_head = (sm->imiss_head + 1) % sm->imiss_cap;
        sm->imiss_n--;
        core_fetch_reply(sm, &r, cycle);
    }
    if (sm->imiss_n && sm->imiss_due[sm->imiss_head] < sm->wake)
        sm->wake = sm->imiss_due[sm->imiss_head];
}

static void fetch_warp(core_sm *sm, core_warp *w, uint64_t cycle)
{
    uint64_t line_ok = UINT64_MAX;
    /* the common queue takes one instruction per pick (spec §2.0) */
    uint32_t most = sm->cfg->fetch_queue ? 1 : UINT32_MAX;
    if (w->ib_n == 0) {
        const ptx_uop *u = emu_warp_next(w->ew);
        if (!u) return;
        w->fetch_pc = (uint32_t)(u - w->ew->uops);
        w->ib_head = 0;
    }
    for (uint32_t n = 0; n < most && fetch_room(sm, w) && w->fetch_pc != CORE_NO_PC; n++) {
        uint32_t pc = w->fetch_pc;
        if (w->ew->uops[pc].op == PTX_OP_FUNC_END) {
            /* not an instruction: the emulator applies it when the pc
               gets there (emu_warp_settle), the buffer is refetched */
            w->fetch_pc = CORE_NO_PC;
            break;
        }
        if (!fetch_line_ready(sm, w, pc, &line_ok)) break;
        fetch_put(sm, w, pc, cycle);
        /* nothing after a device-memory access until it completes */
        if (sm->cfg->fetch_stall_mem && w->ib_mem) break;
    }
    w->last_fetch = cycle;
    core_warp_poke(sm, w);
    sm->active = true;
}

/* The oracle profile's counts for warp `w` (fetch policies that declare
   WS_NEED_ORACLE), from its fetch point (spec §7 item 3): what is left of
   the warp, and of its barrier interval (the last interval runs to the
   end), with the interval's device-memory instructions. */
static void fetch_oracle(const core_sm *sm, const core_warp *w, ws_fetch_warp_view *v)
{
    v->oracle_remaining = v->oracle_to_barrier = v->oracle_mem_to_barrier = -1;
    const ws_oracle_view *o = sm->kinfo ? sm->kinfo->oracle : NULL;
    if (!o || w->uid >= o->nwarps) return;
    uint64_t total = o->total[w->uid];
    v->oracle_remaining = total > w->fetched ? (int64_t)(total - w->fetched) : 0;
    uint32_t i = o->ivl_start[w->uid] + w->ivl;
    if (i >= o->ivl_start[w->uid + 1]) return;
    uint64_t done = w->fetched - w->ivl_fetched;
    uint64_t dev_done = w->fetched_dev - w->ivl_fetched_dev;
    v->oracle_to_barrier = o->ivl_insns[i] > done ? (int64_t)(o->ivl_insns[i] - done) : 0;
    v->oracle_mem_to_barrier = o->ivl_dev[i] > dev_done ? (int64_t)(o->ivl_dev[i] - dev_done) : 0;
}

/* Slot i's view for the fetch policy. */
static void fetch_view_fill(const core_sm *sm, uint32_t i, bool can)
{
    const core_warp *w = &sm->warps[i];
    ws_fetch_warp_view *v = &sm->fview[i];
    v->can_fetch = can;
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

/* Ask the policy for up to fetch_width warps among the views' can_fetch
   ones and fetch for them. */
static void fetch_picks(core_sm *sm, uint64_t cycle)
{
    ws_fetch_view view = { .cycle = cycle, .sm = sm->id, .nwarps = sm->nwarps,
                           .warps = sm->fview, .kernel = sm->kinfo };
    for (uint32_t k = 0; k < sm->cfg->fetch_width; k++) {
        int i = sm->fetch_ops->pick(sm->fetch_st, &view);
        if (i < 0 || (uint32_t)i >= sm->nwarps || !sm->fview[i].can_fetch) break;
        fetch_warp(sm, &sm->warps[i], cycle);
        sm->fview[i].can_fetch = false;
        if (sm->cfg->fetch_queue && sm->iq_used >= sm->cfg->fetch_queue) break;
    }
}

/* Fetch through the configured policy: it sees every slot.  false when
   no warp could fetch. */
static bool fetch_by_policy(core_sm *sm, uint64_t cycle)
{
    if (sm->fetch_ops->needs & WS_FETCH_CAN_ONLY) {
        /* only can_fetch is read, and a warp's bit is cleared only here, in
           the pass that sets its can_fetch false: a clear bit has it false */
        bool any = false;
        for (uint32_t wd = 0; wd < (sm->nwarps + 63) / 64; wd++)
            for (uint64_t m = sm->fetch_may[wd]; m; m &= m - 1) {
                uint32_t i = wd * 64 + (uint32_t)__builtin_ctzll(m);
                bool can = fetch_look_may(sm, i, cycle);
                sm->fview[i].can_fetch = can;
                any |= can;
            }
        if (!any) return false;   /* the common case: every buffer is full */
        fetch_picks(sm, cycle);
        return true;
    }
    uint32_t first = 0;
    while (first < sm->nwarps && !fetch_look(sm, first, cycle)) first++;
    if (first == sm->nwarps) return false;
    for (uint32_t i = 0; i < first; i++) sm->fview[i].can_fetch = false;
    for (uint32_t i = first; i < sm->nwarps; i++)
        fetch_view_fill(sm, i, fetch_look(sm, i, cycle));
    fetch_picks(sm, cycle);
    return true;
}

/* Built-in round robin, used when no fetch policy is configured; false
   when no warp could fetch. */
static bool fetch_round_robin(core_sm *sm, uint64_t cycle)
{
    /* the slots from fetch_rr to the end, then from 0 to fetch_rr: only
       those with a fetch_may bit (a fetch sets its warp's bit again, behind
       the walk) */
    uint32_t done = 0, n = sm->nwarps, start = sm->fetch_rr % n;
    for (int pass = 0; pass < 2; pass++) {
        uint32_t lo = pass ? 0 : start, hi = pass ? start : n;
        for (uint32_t wd = lo / 64; lo < hi && wd <= (hi - 1) / 64; wd++)
            for (uint64_t m = fetch_may_in(sm, wd, lo, hi); m; m &= m - 1) {
                uint32_t i = wd * 64 + (uint32_t)__builtin_ctzll(m);
                if (!fetch_look_may(sm, i, cycle)) continue;
                fetch_warp(sm, &sm->warps[i], cycle);
                sm->fetch_rr = (i + 1) % n;
                if (++done == sm->cfg->fetch_width
                    || (sm->cfg->fetch_queue && sm->iq_used >= sm->cfg->fetch_queue))
                    return true;
            }
    }
    return done > 0;
}

/*
** The common queue's look (fetch_queue > 0): with room in the queue,
** every live warp is sorted into "may fetch" or a stall reason (counted),
** then the policy (or the built-in round robin) picks among those that
** may.  false when nothing could be fetched (the fetch goes quiet).
*/
static bool fetch_queue_look(core_sm *sm, uint64_t cycle)
{
    memset(sm->fstall_last, 0, sizeof sm->fstall_last);
    sm->fetch_due = CORE_NEVER;
    if (sm->iq_used >= sm->cfg->fetch_queue) {
        /* nothing can fetch until an issue frees an entry (and pokes): the
           warps' own reasons are counted only while the queue has room */
        sm->fetch_last = CORE_FETCH_FULL;
        return false;
    }
    bool any = false;
    for (uint32_t i = 0; i < sm->nwarps; i++) {
        core_warp *w = &sm->warps[i];
        bool can = false;
        if (w->ew && !w->finished) {
            int b = fetch_block(sm, w, cycle);
            if (b >= 0) sm->fstall_last[b]++;
            else can = fetch_open(sm, w);
        }
        any |= can;
        /* a policy reads only the warps that can fetch */
        if (sm->fetch_ops && sm->fetch_ops->pick) {
            if (can) fetch_view_fill(sm, i, true);
            else sm->fview[i].can_fetch = false;
        }
    }
    if (!any) { sm->fetch_last = CORE_FETCH_NONE; return false; }
    uint32_t before = sm->iq_used;
    if (sm->fetch_ops && sm->fetch_ops->pick) fetch_picks(sm, cycle);
    else fetch_round_robin(sm, cycle);
    /* a pick may bring nothing (a function's end, an I-cache miss) */
    sm->fetch_last = sm->iq_used != before ? CORE_FETCHED : CORE_FETCH_NONE;
    return true;
}

static void fetch_count(core_sm *sm, uint64_t n)
{
    gpu_kernel_stats *st = sm->st;
    st->iq_occupancy_sum += (uint64_t)sm->iq_used * n;
    uint64_t *slot[] = { [CORE_FETCHED] = &st->fetch_cycles,
                         [CORE_FETCH_FULL] = &st->fetch_queue_full_cycles,
                         [CORE_FETCH_NONE] = &st->fetch_none_cycles };
    *slot[sm->fetch_last] += n;
    for (int r = 0; r < GPU_FSTALL_COUNT; r++) st->fetch_warp_stalls[r] += sm->fstall_last[r] * n;
}

void core_fetch_account_skip(core_sm *sm, uint64_t n)
{
    /* a skipped cycle fetches nothing (a fetch keeps the SM active) */
    if (sm->cfg->fetch_queue && sm->live_warps) fetch_count(sm, n);
}

/*
** Whether a warp can fetch changes only when it issues, is flushed, its
** instruction-cache line returns, a barrier releases it, its memory access
** completes (all poke it: core_warp_poke), it starts, or a branch's
** resolution time comes (fetch_due); until then a fruitless look is not
** repeated, and what it found is counted again.
*/
void core_fetch_tick(core_sm *sm, uint64_t cycle)
{
    if (sm->cfg->fetch_queue && !sm->live_warps) {
        /* the last warp left in this cycle's issue: a cycle with no fetch */
        sm->fetch_last = CORE_FETCH_NONE;
        memset(sm->fstall_last, 0, sizeof sm->fstall_last);
        fetch_count(sm, 1);
        return;
    }
    if (!sm->live_warps) return;
    if (sm->cfg->fetch_queue) {
        /* quiet: no warp could fetch, or no room (not: a pick brought nothing) */
        if (!sm->fetch_quiet || cycle >= sm->fetch_due)
            sm->fetch_quiet = !fetch_queue_look(sm, cycle);
        if (sm->fetch_due < sm->wake) sm->wake = sm->fetch_due;
        fetch_count(sm, 1);
        return;
    }
    /* a branch's resolution time (branch_resolve) ends a quiet fetch by
       itself, nothing pokes it: fetch_block notes the earliest in fetch_due */
    if (sm->fetch_quiet && cycle < sm->fetch_due) {
        if (sm->fetch_due < sm->wake) sm->wake = sm->fetch_due;
        return;
    }
    sm->fetch_due = CORE_NEVER;
    bool found = sm->fetch_ops && sm->fetch_ops->pick ? fetch_by_policy(sm, cycle)
                                                      : fetch_round_robin(sm, cycle);
    sm->fetch_quiet = !found;
    if (sm->fetch_due < sm->wake) sm->wake = sm->fetch_due;
}
