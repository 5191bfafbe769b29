/*
** smpar.c -- the SMs' tick on several host threads, with statistics
** byte-identical for any number of them (docs/parallel-timing.md).
**
** A cycle's SM ticks touch one another only through what this file keeps
** per SM and joins after the tick, SM by SM in the order the serial loop
** ticked them ((cycle + k) mod nsm):
**   - device memory: it is frozen (read-only) during the tick; each SM's
**     global stores and atomics go to its write log (emu/wlog.c), applied
**     at the join;
**   - the launch's counters, its progress count, faults, device printf
**     and out-of-allocation records: each SM runs on its own copy of the
**     emu_launch, joined into the real one;
**   - the kernel's statistics: each SM counts into its own
**     gpu_kernel_stats, added up (smpar_fold) before anything reads them;
**   - requests sent below the L1s, replies taken: the memory system
**     defers sends (mem_lower.defer) and injects them at the join
**     (mem_lower.commit); an SM pops its own replies (recv_sm), counted
**     as delivered at the join (commit_replies).
** The same code runs with one thread, so one thread and N give the same
** result by construction.  The one visible rule: a global store becomes
** visible to other SMs at the end of the cycle it executes in.
*/
#include "smpar.h"
#include "report.h"
#include "workers.h"
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* The speed governor's epoch and its two probes, in ticks (smpar_gov). */
#define SMPAR_EPOCH 8192
#define SMPAR_PROBE 256

/* A part's SMs still to tick, positions [front, back) of its list (SM
   part + k * nparts at position k) in one word, front | back << 32: its
   own thread takes from the front, a thread that ran out takes from the
   back.  A line of its own. */
typedef struct smpar_deque { _Alignas(64) atomic_uint_fast64_t fb; } smpar_deque;

/* A flag of its own cache line: written by one thread, read by the caller
   (sharing a line, the threads' writes would pass it back and forth). */
typedef struct smpar_flag { _Alignas(64) bool on; } smpar_flag;
/* An SM's launch copy on lines of its own: every instruction counts in it. */
typedef struct smpar_launch_slot { _Alignas(64) emu_launch l; } smpar_launch_slot;

struct smpar {
    uint32_t nsm;
    wk_pool *pool;              /* NULL: one thread */
    smpar_launch_slot *sl;      /* per SM: its copy of the running launch */
    emu_wlog **wlog;
    emu_oob_log **oob;
    FILE **out;                 /* per SM: device printf, until the join */
    char **obuf;
    size_t *olen;
    gpu_kernel_stats *st;       /* per SM: its counters since the last fold */
    smpar_flag *replied;        /* per part: one of its SMs took a reply */
    uint32_t live;              /* SMs with live warps after the last cycle */
    uint64_t solo_until;        /* one thread until this cycle: threads were late */
    uint64_t backoff;           /* cycles of the next such wait */
    /* the phase being run */
    core_sm **sms;
    mem_port *ports;
    const mem_lower *mem;
    uint64_t now;
    smpar_side side;            /* NULL: none this cycle; part 0 runs it */
    void *side_ctx;
    smpar_deque *dq;            /* per part */
    /* speed governor: ticks so far, the current probe's start (ns), the
       pool probe's time, and whether the epoch's rest runs on one thread */
    uint64_t gov_ticks, gov_t0, gov_pool_ns;
    bool gov_solo;
};

smpar *smpar_new(uint32_t nsm, uint32_t threads)
{
    smpar *p = calloc(1, sizeof *p);
    if (!p) return NULL;
    p->nsm = nsm;
    p->sl = aligned_alloc(_Alignof(smpar_launch_slot), nsm * sizeof *p->sl);
    p->wlog = calloc(nsm, sizeof *p->wlog);
    p->oob = calloc(nsm, sizeof *p->oob);
    p->out = calloc(nsm, sizeof *p->out);
    p->obuf = calloc(nsm, sizeof *p->obuf);
    p->olen = calloc(nsm, sizeof *p->olen);
    p->st = calloc(nsm, sizeof *p->st);
    p->replied = aligned_alloc(_Alignof(smpar_flag), nsm * sizeof *p->replied);
    p->dq = aligned_alloc(_Alignof(smpar_deque), nsm * sizeof *p->dq);
    bool ok = p->sl && p->wlog && p->oob && p->out && p->obuf && p->olen && p->st && p->replied
              && p->dq;
    if (ok) {
        memset(p->sl, 0, nsm * sizeof *p->sl);
        memset(p->replied, 0, nsm * sizeof *p->replied);
    }
    for (uint32_t i = 0; ok && i < nsm; i++)
        ok = (p->wlog[i] = emu_wlog_new()) && (p->oob[i] = emu_oob_new())
             && (p->out[i] = open_memstream(&p->obuf[i], &p->olen[i]));
    if (ok && threads > 1) ok = (p->pool = wk_new(threads < nsm ? threads : nsm)) != NULL;
    if (!ok) {
        smpar_free(p);
        return NULL;
    }
    return p;
}

void smpar_free(smpar *p)
{
    if (!p) return;
    wk_free(p->pool);
    for (uint32_t i = 0; i < p->nsm; i++) {
        if (p->wlog) emu_wlog_free(p->wlog[i]);
        if (p->oob) emu_oob_free(p->oob[i]);
        if (p->out && p->out[i]) fclose(p->out[i]);
        if (p->obuf) free(p->obuf[i]);
    }
    free(p->sl);
    free(p->wlog);
    free(p->oob);
    free(p->out);
    free(p->obuf);
    free(p->olen);
    free(p->st);
    free(p->replied);
    free(p->dq);
    free(p);
}

emu_launch *smpar_launch(smpar *p, uint32_t sm) { return &p->sl[sm].l; }
gpu_kernel_stats *smpar_stats(smpar *p, uint32_t sm) { return &p->st[sm]; }

/* The per-SM statistics start from nothing but what the cores read. */
static void smpar_stats_reset(gpu_kernel_stats *s, uint32_t regs_per_thread)
{
    memset(s, 0, sizeof *s);
    s->regs_per_thread = regs_per_thread;
}

void smpar_kernel_begin(smpar *p, const emu_launch *l, const gpu_kernel_stats *st)
{
    p->solo_until = 0;
    p->gov_ticks = 0;
    for (uint32_t i = 0; i < p->nsm; i++) {
        emu_launch *s = &p->sl[i].l;
        *s = *l;
        emu_launch_zero_counts(s);
        s->idle_insns = 0;
        s->progressed = s->printed = false;
        s->fault = (emu_fault){ .kind = EMU_OK };
        s->wlog = p->wlog[i];
        s->oob = l->oob ? p->oob[i] : NULL;
        s->out = p->out[i];
        smpar_stats_reset(&p->st[i], st->regs_per_thread);
    }
}

/* SM `i`'s replies due now, then its tick; true when it took a reply. */
static bool smpar_sm(smpar *p, uint32_t i)
{
    mem_req rep;
    bool got = false;
    while (p->mem->recv_sm(p->mem->impl, i, p->now, &rep)) {
        core_sm_reply(p->sms[i], &rep, p->now);
        got = true;
    }
    core_sm_tick(p->sms[i], &p->ports[i], p->now);
    return got;
}

/* Take the SM at the front (or back) of deque `d`: its position, or
   false when none is left. */
static bool smpar_take(smpar_deque *d, bool back, uint32_t *pos)
{
    uint64_t v = atomic_load_explicit(&d->fb, memory_order_relaxed);
    for (;;) {
        uint32_t f = (uint32_t)v, b = (uint32_t)(v >> 32);
        if (f >= b) return false;
        uint64_t nv = back ? (uint64_t)(b - 1) << 32 | f : (uint64_t)b << 32 | (f + 1);
        if (atomic_compare_exchange_weak_explicit(&d->fb, &v, nv, memory_order_relaxed,
                                                  memory_order_relaxed)) {
            *pos = back ? b - 1 : f;
            return true;
        }
    }
}

/* Part `part` of the tick: the memory's span (part 0), its own SMs
   (every nparts-th, interleaved rather than in blocks because the busy
   SMs are usually neighbours: CTAs are placed round the SMs in order, and
   a small grid fills only the first ones), then, from the back, the SMs
   other parts have not reached (the part that ran the span gives some
   away).  Mostly the same SMs each cycle, so an SM stays in one thread's
   caches; which thread ticks an SM changes nothing but the speed. */
static void smpar_part(void *ctx, uint32_t part, uint32_t nparts)
{
    smpar *p = ctx;
    bool got = false;
    uint32_t k;
    if (part == 0 && p->side) p->side(p->side_ctx);
    while (smpar_take(&p->dq[part], false, &k)) got |= smpar_sm(p, part + k * nparts);
    for (uint32_t j = 1; j < nparts; j++) {
        uint32_t q = part + j < nparts ? part + j : part + j - nparts;
        while (smpar_take(&p->dq[q], true, &k)) got |= smpar_sm(p, q + k * nparts);
    }
    p->replied[part].on = got;
}

static uint64_t smpar_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/*
** May this tick use the pool, as far as speed goes?  Whether threads pay
** depends on how much an SM's tick and the memory's span cost against a
** meeting of the threads, which differs by program and phase and host.
** So each epoch of SMPAR_EPOCH ticks begins with two probes, SMPAR_PROBE
** ticks with the pool and as many without, timed by the wall clock (the
** whole cycle, join and all), and the rest of the epoch runs the faster
** way.  Wall-clock choices change nothing but the speed.
*/
static bool smpar_gov(smpar *p)
{
    uint64_t phase = p->gov_ticks++ % SMPAR_EPOCH;
    if (phase == 0) {
        p->gov_t0 = smpar_ns();
    } else if (phase == SMPAR_PROBE) {
        uint64_t t = smpar_ns();
        p->gov_pool_ns = t - p->gov_t0;
        p->gov_t0 = t;
    } else if (phase == 2 * SMPAR_PROBE) {
        p->gov_solo = smpar_ns() - p->gov_t0 < p->gov_pool_ns;
    }
    return phase < SMPAR_PROBE || (phase >= 2 * SMPAR_PROBE && !p->gov_solo);
}

bool smpar_tick(smpar *p, core_sm **sms, mem_port *ports, const mem_lower *mem, emu_mem *gmem,
                uint64_t now, smpar_side side, void *side_ctx)
{
    p->sms = sms;
    p->ports = ports;
    p->mem = mem;
    p->now = now;
    p->side = side;
    p->side_ctx = side_ctx;
    bool replied = false;
    emu_mem_freeze(gmem, true);
    /* threads pay only when each gets an SM with warps, or one SM runs
       beside the memory's span (a cycle of one busy SM costs less than a
       meeting), and when the governor finds they do */
    uint32_t want = !p->pool ? 0 : side ? 1 : wk_threads(p->pool);
    if (p->pool && p->live >= want && now >= p->solo_until && smpar_gov(p)) {
        /* each SM takes its replies on its own thread (accounted at the
           join).  A late thread means the host's CPUs are taken: waiting
           for it each cycle would cost far more than one thread, so the
           SMs stay on one for a while, longer each time up to 16384
           cycles (a longer wait would also sit out a passing hiccup of a
           shared host; wall-clock scheduling: the statistics are the same
           either way) */
        uint32_t np = wk_parts(p->pool);
        for (uint32_t q = 0; q < np; q++)
            atomic_store_explicit(&p->dq[q].fb, (uint64_t)((p->nsm - q + np - 1) / np) << 32,
                                  memory_order_relaxed);
        if (wk_run(p->pool, smpar_part, p)) {
            p->backoff = p->backoff ? (p->backoff < (1u << 14) ? p->backoff * 2 : p->backoff) : 1024;
            p->solo_until = now + p->backoff;
        } else if (p->backoff) {
            p->backoff--;
        }
        for (uint32_t k = 0; k < wk_parts(p->pool); k++) replied |= p->replied[k].on;
    } else {
        /* one thread: the memory's span, all replies, then the SMs in the
           rotating order, as the serial loop always ran (the GPU-wide L1D
           stream and MSHR record, which keep one thread, see the SMs in
           this order); the replies are counted at once (mem_lower.recv) */
        if (side) side(side_ctx);
        mem_req rep;
        while (mem->recv(mem->impl, now, &rep)) {
            if (rep.sm < p->nsm) core_sm_reply(sms[rep.sm], &rep, now);
            replied = true;
        }
        for (uint32_t k = 0; k < p->nsm; k++) {
            uint32_t i = (uint32_t)((now + k) % p->nsm);
            core_sm_tick(sms[i], &ports[i], now);
        }
    }
    emu_mem_freeze(gmem, false);
    return replied;
}

/* Device printf of SM `i` so far, to the launch's stream (closing the
   memory stream is what makes its buffer final; printf is rare). */
static void smpar_flush_printf(smpar *p, uint32_t i, emu_launch *l)
{
    emu_launch *s = &p->sl[i].l;
    if (!s->printed) return;
    s->printed = false;
    fclose(p->out[i]);
    fwrite(p->obuf[i], 1, p->olen[i], l->out ? l->out : stdout);
    free(p->obuf[i]);
    p->obuf[i] = NULL;
    p->out[i] = open_memstream(&p->obuf[i], &p->olen[i]);
    /* out of host memory: the SM's printf goes straight to the stream */
    s->out = p->out[i] ? p->out[i] : l->out;
}

/* SM `i`'s printf text, out-of-allocation sites and fault, into `l`. */
static void smpar_join_records(smpar *p, uint32_t i, emu_launch *l)
{
    emu_launch *s = &p->sl[i].l;
    smpar_flush_printf(p, i, l);
    if (s->oob) emu_oob_merge(l->oob, s->oob);
    if (s->fault.kind != EMU_OK && l->fault.kind == EMU_OK) l->fault = s->fault;
}

/* Join SM `i`'s launch copy into `l`: what the serial loop would have
   done to `l` had this SM ticked now. */
static int smpar_join(smpar *p, uint32_t i, emu_launch *l)
{
    emu_launch *s = &p->sl[i].l;
    int rc = emu_wlog_empty(p->wlog[i]) ? 0 : emu_wlog_apply(p->wlog[i], l->gmem);
    /* progress: counted since this SM's last reset, or on top of the rest */
    l->idle_insns = s->progressed ? s->idle_insns : l->idle_insns + s->idle_insns;
    if (s->progressed) l->progressed = true;
    s->idle_insns = 0;
    s->progressed = false;
    smpar_join_records(p, i, l);
    return rc;
}

int smpar_commit(smpar *p, emu_launch *l, const mem_lower *mem, uint64_t now)
{
    int rc = 0;
    if (p->pool) mem->commit_replies(mem->impl);   /* before any send, as serially */
    p->live = 0;
    for (uint32_t k = 0; k < p->nsm; k++) {
        uint32_t i = (uint32_t)((now + k) % p->nsm);
        p->live += core_sm_live_warps(p->sms[i]) > 0;
        if (smpar_join(p, i, l)) core_sm_set_fault(p->sms[i]);
        if (mem->commit && mem->commit(mem->impl, i)) rc = -1;
    }
    return rc;
}

void smpar_fold(smpar *p, gpu_kernel_stats *st)
{
    for (uint32_t i = 0; i < p->nsm; i++) {
        gpu_stats_accumulate(st, &p->st[i]);
        smpar_stats_reset(&p->st[i], st->regs_per_thread);
    }
}

void smpar_kernel_end(smpar *p, emu_launch *l, gpu_kernel_stats *st)
{
    smpar_fold(p, st);
    for (uint32_t i = 0; i < p->nsm; i++) {
        /* what the cycle loop did not join: CTA set-up, an early stop */
        smpar_join_records(p, i, l);
        emu_launch_merge_counts(l, &p->sl[i].l);
    }
}
