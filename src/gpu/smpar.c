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
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
    bool ok = p->sl && p->wlog && p->oob && p->out && p->obuf && p->olen && p->st && p->replied;
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

/* Part `part` of the tick: every nparts-th SM.  Interleaved rather than
   in blocks, because the busy SMs are usually neighbours (CTAs are placed
   round the SMs in order, and a small grid fills only the first ones);
   fixed, so that an SM stays in one thread's caches. */
static void smpar_part(void *ctx, uint32_t part, uint32_t nparts)
{
    smpar *p = ctx;
    bool got = false;
    for (uint32_t i = part; i < p->nsm; i += nparts) got |= smpar_sm(p, i);
    p->replied[part].on = got;
}

bool smpar_tick(smpar *p, core_sm **sms, mem_port *ports, const mem_lower *mem, emu_mem *gmem,
                uint64_t now)
{
    p->sms = sms;
    p->ports = ports;
    p->mem = mem;
    p->now = now;
    bool replied = false;
    emu_mem_freeze(gmem, true);
    /* threads only pay when each gets two SMs with warps: a cycle of one
       or two busy SMs costs less than waking a thread (the result is the
       same either way) */
    if (p->pool && p->live >= 2 * wk_threads(p->pool) && now >= p->solo_until) {
        /* each SM takes its replies on its own thread (accounted at the
           join).  A late thread means the host's CPUs are taken: waiting
           for it each cycle would cost far more than one thread, so the
           SMs stay on one for a while, longer each time (wall-clock
           scheduling: the statistics are the same either way) */
        if (wk_run(p->pool, smpar_part, p)) {
            p->backoff = p->backoff ? (p->backoff < (1u << 20) ? p->backoff * 2 : p->backoff) : 1024;
            p->solo_until = now + p->backoff;
        } else if (p->backoff) {
            p->backoff--;
        }
        for (uint32_t k = 0; k < wk_parts(p->pool); k++) replied |= p->replied[k].on;
    } else {
        /* one thread: all replies first, then the SMs in the rotating order,
           as the serial loop always ran (the GPU-wide L1D stream and MSHR
           record, which keep one thread, see the SMs in this order); the
           replies are counted at once (mem_lower.recv) */
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
