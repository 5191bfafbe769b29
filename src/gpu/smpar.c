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
#include "../common/lines.h"
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

/*
** What the cycle loop asks of the SMs after their tick, gathered per part
** by the thread that ticked them, where their lines are (the loop reading
** each SM's state would move its lines to the caller's CPU every cycle):
** whether any SM was active, had a CTA freed or faulted, how many have
** live warps, their latest progress and earliest wake-up; which SMs
** the join must visit (bit i of `need`: a reply taken, sends, global
** stores, printf, out-of-allocation sites, a fault); and the progress
** counts the SMs made (bit i of `moved`: SM i's in prog[i], taken from
** its launch copy).  Lines of its own per part.
*/
typedef struct smpar_prog { uint64_t idle_insns; bool progressed; } smpar_prog;
typedef struct smpar_sum {
    _Alignas(64) bool active, freed, fault, replied;
    uint32_t live;
    uint64_t progress, wake;
    uint64_t *need, *moved;     /* nwords words each, on lines of their own */
    smpar_prog *prog;           /* per SM, on lines of their own */
} smpar_sum;
/* An SM's launch copy on lines of its own: every instruction counts in it. */
typedef struct smpar_launch_slot { _Alignas(64) emu_launch l; } smpar_launch_slot;
/* An SM's counters, likewise. */
typedef struct smpar_stats_slot { _Alignas(64) gpu_kernel_stats s; } smpar_stats_slot;

struct smpar {
    uint32_t nsm;
    wk_pool *pool;              /* NULL: one thread */
    smpar_launch_slot *sl;      /* per SM: its copy of the running launch */
    emu_wlog **wlog;
    emu_oob_log **oob;
    FILE **out;                 /* per SM: device printf, until the join */
    char **obuf;
    size_t *olen;
    smpar_stats_slot *st;       /* per SM: its counters since the last fold */
    uint32_t nparts, nwords;    /* parts of a tick; words of an SM bit set */
    uint32_t used;              /* parts the last tick ran (1: one thread) */
    smpar_sum *sum;             /* per part; sum[nparts]: the parts' joined */
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
    p->nparts = threads > 1 ? (threads < nsm ? threads : nsm) : 1;
    p->nwords = (nsm + 63) / 64;
    p->sl = ws_lines_alloc(nsm * sizeof *p->sl);
    p->wlog = calloc(nsm, sizeof *p->wlog);
    p->oob = calloc(nsm, sizeof *p->oob);
    p->out = calloc(nsm, sizeof *p->out);
    p->obuf = calloc(nsm, sizeof *p->obuf);
    p->olen = calloc(nsm, sizeof *p->olen);
    p->st = ws_lines_alloc(nsm * sizeof *p->st);
    p->dq = ws_lines_alloc(p->nparts * sizeof *p->dq);
    p->sum = ws_lines_alloc((p->nparts + 1) * sizeof *p->sum);
    bool ok = p->sl && p->wlog && p->oob && p->out && p->obuf && p->olen && p->st && p->dq
              && p->sum;
    for (uint32_t k = 0; ok && k <= p->nparts; k++) {
        smpar_sum *u = &p->sum[k];
        ok = (u->need = ws_lines_alloc(p->nwords * sizeof *u->need))
             && (u->moved = ws_lines_alloc(p->nwords * sizeof *u->moved))
             && (u->prog = ws_lines_alloc(nsm * sizeof *u->prog));
    }
    for (uint32_t i = 0; ok && i < nsm; i++)
        ok = (p->wlog[i] = emu_wlog_new()) && (p->oob[i] = emu_oob_new())
             && (p->out[i] = open_memstream(&p->obuf[i], &p->olen[i]));
    if (ok && p->nparts > 1) ok = (p->pool = wk_new(p->nparts)) != NULL;
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
    for (uint32_t k = 0; p->sum && k <= p->nparts; k++) {
        free(p->sum[k].need);
        free(p->sum[k].moved);
        free(p->sum[k].prog);
    }
    free(p->sum);
    free(p->dq);
    free(p);
}

emu_launch *smpar_launch(smpar *p, uint32_t sm) { return &p->sl[sm].l; }
gpu_kernel_stats *smpar_stats(smpar *p, uint32_t sm) { return &p->st[sm].s; }

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
        smpar_stats_reset(&p->st[i].s, st->regs_per_thread);
    }
}

/* What the loop asks of SM `sm`, added into `s`. */
static void smpar_gather(smpar_sum *s, const core_sm *sm)
{
    s->active |= core_sm_active(sm);
    s->freed |= core_sm_cta_freed(sm);
    s->fault |= core_sm_faulted(sm);
    s->live += core_sm_live_warps(sm) > 0;
    if (core_sm_last_progress(sm) > s->progress) s->progress = core_sm_last_progress(sm);
    if (core_sm_wake(sm) < s->wake) s->wake = core_sm_wake(sm);
}

/* Part `s` ticked SM `i` (`got`: it took a reply): what the loop and the
   join need of it, into the part's summary. */
static void smpar_note(smpar *p, smpar_sum *s, uint32_t i, bool got)
{
    emu_launch *l = &p->sl[i].l;
    smpar_gather(s, p->sms[i]);
    if (l->idle_insns || l->progressed) {     /* taken here, where the line is */
        s->prog[i] = (smpar_prog){ l->idle_insns, l->progressed };
        s->moved[i / 64] |= 1ull << (i % 64);
        l->idle_insns = 0;
        l->progressed = false;
    }
    const mem_lower *m = p->mem;
    if (got || l->printed || l->fault.kind != EMU_OK || !emu_wlog_empty(p->wlog[i])
        || (l->oob && !emu_oob_empty(l->oob))
        || (m->pending ? m->pending(m->impl, i) : m->commit != NULL))
        s->need[i / 64] |= 1ull << (i % 64);
}

static void smpar_sum_reset(smpar *p, smpar_sum *s)
{
    s->active = s->freed = s->fault = s->replied = false;
    s->live = 0;
    s->progress = 0;
    s->wake = CORE_NEVER;
    memset(s->need, 0, p->nwords * sizeof *s->need);
    memset(s->moved, 0, p->nwords * sizeof *s->moved);
}

/* SM `i`'s replies due now, then its tick, noted in part `s`. */
static void smpar_sm(smpar *p, smpar_sum *s, uint32_t i)
{
    mem_req rep;
    bool got = false;
    while (p->mem->recv_sm(p->mem->impl, i, p->now, &rep)) {
        core_sm_reply(p->sms[i], &rep, p->now);
        got = true;
    }
    core_sm_tick(p->sms[i], &p->ports[i], p->now);
    s->replied |= got;
    smpar_note(p, s, i, got);
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
    smpar_sum *s = &p->sum[part];
    uint32_t k;
    smpar_sum_reset(p, s);
    if (part == 0 && p->side) p->side(p->side_ctx);
    while (smpar_take(&p->dq[part], false, &k)) smpar_sm(p, s, part + k * nparts);
    for (uint32_t j = 1; j < nparts; j++) {
        uint32_t q = part + j < nparts ? part + j : part + j - nparts;
        while (smpar_take(&p->dq[q], true, &k)) smpar_sm(p, s, q + k * nparts);
    }
}

/* The parts' summaries (the first `n`) joined into sum[nparts] (but for
   the progress counts, which stay in the parts'). */
static void smpar_sum_join(smpar *p, uint32_t n)
{
    smpar_sum *t = &p->sum[p->nparts];
    smpar_sum_reset(p, t);
    p->used = n;
    for (uint32_t k = 0; k < n; k++) {
        const smpar_sum *s = &p->sum[k];
        t->active |= s->active;
        t->freed |= s->freed;
        t->fault |= s->fault;
        t->replied |= s->replied;
        t->live += s->live;
        if (s->progress > t->progress) t->progress = s->progress;
        if (s->wake < t->wake) t->wake = s->wake;
        for (uint32_t w = 0; w < p->nwords; w++) t->need[w] |= s->need[w];
    }
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
    bool replied = false, pool;
    emu_mem_freeze(gmem, true);
    /* threads pay only when each gets an SM with warps, or one SM runs
       beside the memory's span (a cycle of one busy SM costs less than a
       meeting), and when the governor finds they do */
    uint32_t want = !p->pool ? 0 : side ? 1 : wk_threads(p->pool);
    if ((pool = p->pool && p->sum[p->nparts].live >= want && now >= p->solo_until
                && smpar_gov(p))) {
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
    } else {
        /* one thread: the memory's span, all replies, then the SMs in the
           rotating order, as the serial loop always ran (the GPU-wide L1D
           stream and MSHR record, which keep one thread, see the SMs in
           this order); the replies are counted at once (mem_lower.recv) */
        if (side) side(side_ctx);
        smpar_sum_reset(p, &p->sum[0]);
        mem_req rep;
        while (mem->recv(mem->impl, now, &rep)) {
            if (rep.sm < p->nsm) core_sm_reply(sms[rep.sm], &rep, now);
            replied = true;
        }
        for (uint32_t k = 0; k < p->nsm; k++) {
            uint32_t i = (uint32_t)((now + k) % p->nsm);
            core_sm_tick(sms[i], &ports[i], now);
            smpar_note(p, &p->sum[0], i, false);
        }
    }
    emu_mem_freeze(gmem, false);
    smpar_sum_join(p, pool ? p->nparts : 1);
    return replied || p->sum[p->nparts].replied;
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
    int rc = emu_wlog_empty(p->wlog[i]) ? 0 : emu_wlog_apply(p->wlog[i], l->gmem);
    smpar_join_records(p, i, l);
    return rc;
}

/* SM `i`'s progress count of the tick into `l`: counted since this SM's
   last reset, or on top of the rest. */
static void smpar_join_progress(smpar *p, uint32_t i, emu_launch *l)
{
    for (uint32_t k = 0; k < p->used; k++) {
        const smpar_sum *s = &p->sum[k];
        if (!(s->moved[i / 64] >> (i % 64) & 1)) continue;
        const smpar_prog *g = &s->prog[i];
        l->idle_insns = g->progressed ? g->idle_insns : l->idle_insns + g->idle_insns;
        if (g->progressed) l->progressed = true;
        return;
    }
}

/* Join and commit only the SMs the tick noted (smpar_note): for the
   others both do nothing. */
int smpar_commit(smpar *p, emu_launch *l, const mem_lower *mem, uint64_t now)
{
    smpar_sum *t = &p->sum[p->nparts];
    int rc = 0;
    if (t->replied)          /* before any send, as serially */
        for (uint32_t i = 0; i < p->nsm; i++)
            if (t->need[i / 64] >> (i % 64) & 1) mem->commit_replies(mem->impl, i);
    for (uint32_t k = 0; k < p->nsm; k++) {
        uint32_t i = (uint32_t)((now + k) % p->nsm);
        smpar_join_progress(p, i, l);
        if (!(t->need[i / 64] >> (i % 64) & 1)) continue;
        if (smpar_join(p, i, l)) {
            core_sm_set_fault(p->sms[i]);
            t->fault = true;
        }
        if (mem->commit && mem->commit(mem->impl, i)) rc = -1;
    }
    return rc;
}

void smpar_scan(smpar *p, core_sm **sms)
{
    smpar_sum *t = &p->sum[p->nparts];
    smpar_sum_reset(p, t);
    for (uint32_t i = 0; i < p->nsm; i++) smpar_gather(t, sms[i]);
}

bool smpar_active(const smpar *p) { return p->sum[p->nparts].active; }
bool smpar_freed(const smpar *p) { return p->sum[p->nparts].freed; }
bool smpar_faulted(const smpar *p) { return p->sum[p->nparts].fault; }
uint64_t smpar_progress(const smpar *p) { return p->sum[p->nparts].progress; }
uint64_t smpar_wake(const smpar *p) { return p->sum[p->nparts].wake; }

void smpar_fold(smpar *p, gpu_kernel_stats *st)
{
    for (uint32_t i = 0; i < p->nsm; i++) {
        gpu_stats_accumulate(st, &p->st[i].s);
        smpar_stats_reset(&p->st[i].s, st->regs_per_thread);
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
