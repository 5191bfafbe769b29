/*
** dram_pf_owl.c -- OWL's opportunistic memory-side prefetcher: per bank, a
** bitmap of the open row's lines already sent to L2; once no demand to
** the open row is left, read C of its unsent lines, lowest first, into the
** local L2 slice before the row closes; C = pf_higher when the queue holds
** fewer demands than its average (or pf_threshold), else pf_lower.
** Paper: Jog et al., "OWL", ASPLOS 2013, Sec. 4.4; specs/owl.md 2.5, 2.7, 7.
*/
#include <stdlib.h>

#include "warpsim_policy.h"

/*
** Interpretations (specs/owl.md Sec. 2.5 and 7, [REC] items):
**  - One instance per memory controller (the platform's), one bitmap of
**    env->row_lines bits per bank (8 MCs x 4 banks x 32 lines = 1024 bits
**    on owl28).  Bits clear on ACTIVATE; a demand READ or WRITE and a
**    prefetch READ of the open row set the line's bit (7.8).
**  - Trigger: row open, no demand to it queued (the platform offers the
**    bank only then; prefetch() checks it again).  Lines are named lowest
**    index first (sequential, ascending column order).
**  - pf_mode 0 EXACT_DEGREE (default, 7.6): exactly min(C, unsent) reads
**    per activation, not interruptible: hold() keeps a row-conflict demand
**    from precharging the bank until they are issued (7.9).  1
**    EXTEND_WHEN_IDLE: then more while no demand to another row of the
**    bank waits.  2 STOP_ON_DEMAND (scheme 1): none once such a demand
**    waits, no hold.  A demand row hit arriving meanwhile goes first: the
**    bank is offered again after it (a conflict request the bank already
**    committed to is let go then, so such a burst may end short of C).
**  - C is re-evaluated at every line (7.7): queue_used < threshold ?
**    pf_higher : pf_lower, threshold = the platform's per-DRAM-cycle EMA of
**    the demand queue (queue_avg_x64 >> 6, alpha 1/64, 7-bit in hardware),
**    or pf_threshold when >= 0.  C = 0 prefetches nothing and holds no row:
**    pf_lower = pf_higher = 0 is the controller without a prefetcher.
**  - A line the L2 slice holds or fetches already is refused by the
**    platform without a DRAM command (7.8, 7.10): its bit stays set and it
**    does not count toward C, which counts the prefetch READ events.
*/

enum { PF_EXACT = 0, PF_EXTEND = 1, PF_STOP = 2 };

static const ws_param_desc owl_pf_params[] = {
    { "pf_lower", 8, 0, 4096, "lines", "prefetch degree C while the queue is at or above the threshold" },
    { "pf_higher", 16, 0, 4096, "lines", "prefetch degree C while the queue is below the threshold" },
    { "pf_threshold", -1, -1, 1 << 24, "requests",
      "queued demands below which C = pf_higher; -1 = the MC's average queue occupancy" },
    { "pf_mode", PF_EXACT, PF_EXACT, PF_STOP, "",
      "0 = exactly C per activation, 1 = C then more while idle, 2 = stop on a demand to another row" },
    { NULL, 0, 0, 0, NULL, NULL }
};

typedef struct owl_bank {
    uint32_t issued;      /* prefetch reads since the activate */
    bool     done;        /* declined this activation */
} owl_bank;

typedef struct owl_pf {
    uint32_t lower, higher, mode;
    int64_t  threshold;
    uint32_t nbanks, row_lines, words;
    owl_bank *bank;
    uint64_t *sent;       /* nbanks x words: lines of the open row sent to L2 */
} owl_pf;

static void *owl_init(const ws_param_values *p, const ws_policy_env *env)
{
    if (!env->banks || !env->row_lines) return NULL;
    owl_pf *s = calloc(1, sizeof *s);
    if (!s) return NULL;
    s->lower = (uint32_t)p->v[0];
    s->higher = (uint32_t)p->v[1];
    s->threshold = p->v[2];
    s->mode = (uint32_t)p->v[3];
    s->nbanks = env->banks;
    s->row_lines = env->row_lines;
    s->words = (env->row_lines + 63) / 64;
    s->bank = calloc(s->nbanks, sizeof *s->bank);
    s->sent = calloc((size_t)s->nbanks * s->words, sizeof *s->sent);
    if (!s->bank || !s->sent) {
        free(s->bank);
        free(s->sent);
        free(s);
        return NULL;
    }
    return s;
}

static void owl_destroy(void *st)
{
    owl_pf *s = st;
    free(s->bank);
    free(s->sent);
    free(s);
}

/* The degree C now (re-evaluated at every line). */
static uint32_t owl_degree(const owl_pf *s, const ws_dram_view *v)
{
    uint64_t thr = s->threshold >= 0 ? (uint64_t)s->threshold : v->queue_avg_x64 >> 6;
    return v->queue_used < thr ? s->higher : s->lower;
}

/* The lowest line of bank `b`'s open row not sent yet, -1 when none. */
static int owl_unsent(const owl_pf *s, uint32_t b, uint32_t lines)
{
    const uint64_t *w = &s->sent[(size_t)b * s->words];
    for (uint32_t i = 0; i < s->words; i++) {
        if (w[i] == UINT64_MAX) continue;
        uint32_t l = i * 64 + (uint32_t)__builtin_ctzll(~w[i]);
        return l < lines ? (int)l : -1;
    }
    return -1;
}

static void owl_event(void *st, const ws_dram_view *v, const ws_dram_event *e)
{
    owl_pf *s = st;
    (void)v;
    if (e->bank >= s->nbanks) return;
    uint64_t *w = &s->sent[(size_t)e->bank * s->words];
    if (e->kind == WS_DRAM_EV_ACTIVATE) {
        for (uint32_t i = 0; i < s->words; i++) w[i] = 0;
        s->bank[e->bank] = (owl_bank){ 0 };
    } else if ((e->kind == WS_DRAM_EV_READ || e->kind == WS_DRAM_EV_WRITE)
               && e->line < s->row_lines) {
        w[e->line / 64] |= 1ull << (e->line % 64);
        s->bank[e->bank].issued += e->prefetch;
    }
}

/* Would the prefetcher read a line of bank `b` now (mode rules, C, an
   unsent line)?  The row is open with no demand to it. */
static bool owl_wants(const owl_pf *s, const ws_dram_view *v, uint32_t b)
{
    const ws_dram_bank_view *bv = &v->banks[b];
    bool other_row = bv->demand > bv->demand_open_row;
    uint32_t lines = v->row_lines < s->row_lines ? v->row_lines : s->row_lines;
    if (s->bank[b].done || owl_unsent(s, b, lines) < 0) return false;
    if (s->mode == PF_STOP && other_row) return false;
    if (s->bank[b].issued < owl_degree(s, v)) return true;
    return s->mode == PF_EXTEND && !other_row && owl_degree(s, v) > 0;
}

/*
** The next line to read from bank `bank`'s open row, or -1: none while a
** demand to the open row is queued (without ending the activation's
** burst: the platform offers the bank again once they are served), else
** -1 ends this activation's prefetching.  The line's bit is set at once,
** so a line the L2 refuses is never named again.
*/
static int owl_prefetch(void *st, const ws_dram_view *v, uint32_t bank)
{
    owl_pf *s = st;
    if (bank >= s->nbanks || bank >= v->nbanks) return -1;
    const ws_dram_bank_view *bv = &v->banks[bank];
    if (!bv->open || bv->demand_open_row) return -1;
    if (!owl_wants(s, v, bank)) {
        s->bank[bank].done = true;
        return -1;
    }
    uint32_t lines = v->row_lines < s->row_lines ? v->row_lines : s->row_lines;
    int l = owl_unsent(s, bank, lines);
    s->sent[(size_t)bank * s->words + (uint32_t)l / 64] |= 1ull << ((uint32_t)l % 64);
    return l;
}

/* Keep the open row while the burst is not over (EXACT_DEGREE and the
   first C of EXTEND_WHEN_IDLE); never once a demand to it is queued. */
static bool owl_hold(void *st, const ws_dram_view *v, uint32_t bank)
{
    owl_pf *s = st;
    if (bank >= s->nbanks || bank >= v->nbanks || s->mode == PF_STOP) return false;
    const ws_dram_bank_view *bv = &v->banks[bank];
    if (!bv->open || bv->demand_open_row) return false;
    return !s->bank[bank].done && s->bank[bank].issued < owl_degree(s, v)
           && owl_unsent(s, bank, v->row_lines < s->row_lines ? v->row_lines : s->row_lines) >= 0;
}

const ws_dram_prefetch_ops ws_dram_pf_owl = {
    .name = "owl",
    .summary = "OWL opportunistic prefetch: C unsent lines of an open row with no demand left, into the local L2",
    .params = owl_pf_params,
    .init = owl_init,
    .destroy = owl_destroy,
    .on_event = owl_event,
    .prefetch = owl_prefetch,
    .hold = owl_hold,
};
