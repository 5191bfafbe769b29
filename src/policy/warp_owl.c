/*
** warp_owl.c -- OWL's CTA-aware warp schedulers (`owl-cta`, `owl-locality`,
** `owl-blp`).  Source: Jog et al., "OWL: Cooperative Thread Array Aware
** Scheduling Techniques for Improving GPGPU Performance" (ASPLOS 2013),
** Sec. 4.1 (CTA-aware two-level), 4.2 (locality-aware), 4.3 (BLP-aware),
** Algorithm 1; specs/owl.md Sec. 2.1-2.4, 2.7 and 7.  One instance per SM.
** The CTA slots of the SM form groups (owl_groups.c, FORM_GROUPS over the
** kernel's occupancy N and warps per CTA k, at least g_size warps each);
** inside a group the warps are picked round-robin (level 1), the groups by
** the scheme's rule (level 2):
**  - owl-cta (a): the current group first, then the next ones round-robin;
**    the group of the warp issued becomes current, so the scheduler leaves
**    a group only when none of its warps can issue;
**  - owl-locality (b): strict priority from the `top` group: top, top+1, ..
**    (mod g_core), so top issues whenever one of its warps is ready, e.g.
**    as soon as its data returns; top starts at 0 on every core;
**  - owl-blp (c): as (b), top starting at core mod g_core, i.e. Algorithm
**    1's g_pri[g][core] = (g - core) mod g_core.
** Scheme (d), OWL, is owl-blp with the `owl` dram_prefetch policy (the
** opportunistic prefetcher, another file): warp_scheduler=owl-blp plus
** dram_prefetch=owl; nothing of it lives here.
** Interpretations (spec Sec. 7 numbers):
**  - 7.1 priority rotation: slot-based groups with cohorts.  When a group
**    becomes top, the CTAs then in its slots are its cohort; when the last
**    of them finishes, top moves to the next group (cyclic) holding a
**    resident CTA, whose CTAs form the new cohort.  At kernel begin the
**    cohort is the CTAs that start in top's slots before the SM's first
**    CTA finishes (the initial dispatch).  The check runs at the next
**    `order`, after the dispatcher refilled freed slots.  A top group with
**    no resident CTA simply yields (strict priority falls through).
**    priority_rotation=1 (STATIC) never moves top (Algorithm 1 read
**    literally).  owl-cta has no top and ignores the parameter;
**  - 7.2 "ready" = valid and stall NONE in the view (the core issues the
**    first such warp of the order); a group is left when none of its warps
**    is ready this slot, whatever the reason;
**  - 7.3 g_size defaults to 8 warps;
**  - 7.4 N = the kernel's occupancy (ws_launch_info.ctas_per_sm, which
**    includes the CTA-slot cap), not the CTAs resident; k = warps_per_cta;
**  - 7.5 n > N: one group of all N CTAs, and then each scheme orders the
**    warps exactly as `lrr` does (same round-robin pointer, same start),
**    hence cycle-identical to it;
**  - level 1 round-robin: per group and scheduler unit, from the position
**    after the group's last issuer (initially the unit's last position,
**    so the first turn is position 0, as in `lrr`);
**  - core = the SM index (env->sm), all SMs of the GPU counted;
**  - with several scheduler units per SM each unit keeps its own current
**    group (owl-cta) and pointers; top and cohorts are per SM.
** Counters: groups (g_core, summed over SMs), group_switches (an issue
** from another group than the unit's previous issue), top_rotations.
*/
#include <stdlib.h>
#include <string.h>

#include "policy/owl_groups.h"
#include "policy/warp_order.h"

enum { P_GSIZE = 0, P_ROTATION };
enum { ROT_COHORT = 0, ROT_STATIC };

static const ws_param_desc owl_params[] = {
    { "g_size", 8, 1, 1024, "warps", "minimum warps per CTA group (spec 2.7: 8)" },
    { "priority_rotation", ROT_COHORT, ROT_COHORT, ROT_STATIC, "",
      "0 = cohort: top moves on when its CTAs finish; 1 = static (locality/blp)" },
    { NULL, 0, 0, 0, NULL, NULL }
};

static const char *const owl_counter_names[] = {
    "groups", "group_switches", "top_rotations", NULL
};

/* one scheduler unit: current group (owl-cta), last issued group and the
   round-robin pointer (a position) of each group; the last order it
   returned, reused while nothing it depends on moved (`order` runs every
   cycle, and in memory-bound phases its inputs rarely change) */
typedef struct owl_unit {
    uint32_t cur, last_group;
    uint32_t *rr;               /* [nslots] */
    bool     memo;              /* memo_out holds the order for memo_n/memo_valid */
    uint32_t memo_n, memo_k;
    uint64_t memo_valid;        /* bit i: candidate position i was valid */
    uint32_t *memo_out;         /* [unit_warps] */
} owl_unit;

typedef struct owl_state {
    owl_scheme scheme;
    uint32_t g_size, rotation;
    uint32_t core, nslots;      /* SM index; CTA slots */
    uint32_t unit_warps, nunits;
    owl_groups gr;
    uint32_t top;               /* locality / blp: the highest-priority group */
    bool     filling;           /* initial dispatch: starters in top join the cohort */
    uint32_t ncohort;
    bool     *live, *cohort;    /* per CTA slot */
    uint32_t *slot_grp;         /* group of each CTA slot (this kernel's groups) */
    uint32_t *grp;              /* scratch: group of each position */
    uint32_t *gofs, *gcur;      /* scratch [nslots + 1]: each group's start in byg */
    uint32_t *byg;              /* scratch: positions sorted by group, ascending */
    uint64_t ctr[3];
    owl_unit unit[];
} owl_state;

static void owl_destroy(void *vst)
{
    owl_state *st = vst;
    if (!st) return;
    for (uint32_t u = 0; u < st->nunits; u++) {
        free(st->unit[u].rr);
        free(st->unit[u].memo_out);
    }
    free(st->live);
    free(st->cohort);
    free(st->slot_grp);
    free(st->grp);
    free(st->gofs);
    free(st->gcur);
    free(st->byg);
    free(st);
}

static void *owl_init_scheme(const ws_param_values *p, const ws_policy_env *env, owl_scheme s)
{
    uint32_t nunits = env->nsched ? env->nsched : 1;
    owl_state *st = calloc(1, sizeof *st + nunits * sizeof st->unit[0]);
    if (!st) return NULL;
    st->scheme = s;
    st->g_size = (uint32_t)p->v[P_GSIZE];
    st->rotation = (uint32_t)p->v[P_ROTATION];
    st->core = env->sm;
    st->nslots = env->max_ctas ? env->max_ctas : 1;
    st->unit_warps = ws_unit_warps(env);
    st->nunits = nunits;
    st->gr = owl_form_groups(1, 1, 1);
    st->live = calloc(st->nslots, sizeof *st->live);
    st->cohort = calloc(st->nslots, sizeof *st->cohort);
    uint32_t nw = st->unit_warps ? st->unit_warps : 1;
    st->grp = calloc(nw, sizeof *st->grp);
    st->byg = calloc(nw, sizeof *st->byg);
    st->slot_grp = calloc(st->nslots, sizeof *st->slot_grp);
    st->gofs = calloc(st->nslots + 1, sizeof *st->gofs);
    st->gcur = calloc(st->nslots + 1, sizeof *st->gcur);
    bool ok = st->live && st->cohort && st->grp && st->byg && st->slot_grp && st->gofs
              && st->gcur;
    for (uint32_t u = 0; u < nunits && ok; u++)
        ok = (st->unit[u].rr = calloc(st->nslots, sizeof *st->unit[u].rr)) != NULL
             && (st->unit[u].memo_out = calloc(nw, sizeof *st->unit[u].memo_out)) != NULL;
    if (!ok) {
        st->nunits = nunits;
        owl_destroy(st);
        return NULL;
    }
    return st;
}

static void *owl_init_cta(const ws_param_values *p, const ws_policy_env *env)
{
    return owl_init_scheme(p, env, OWL_CTA);
}

static void *owl_init_locality(const ws_param_values *p, const ws_policy_env *env)
{
    return owl_init_scheme(p, env, OWL_LOCALITY);
}

static void *owl_init_blp(const ws_param_values *p, const ws_policy_env *env)
{
    return owl_init_scheme(p, env, OWL_BLP);
}

/* Groups for the kernel (FORM_GROUPS on its occupancy), fresh pointers
   and the scheme's starting top; counters restart. */
static void owl_kernel_begin(void *vst, const ws_launch_info *k)
{
    owl_state *st = vst;
    uint32_t N = k->ctas_per_sm < st->nslots ? k->ctas_per_sm : st->nslots;
    st->gr = owl_form_groups(N, k->warps_per_cta, st->g_size);
    for (uint32_t s = 0; s < st->nslots; s++)
        st->slot_grp[s] = owl_group_of_slot(&st->gr, s);
    st->top = owl_initial_top(st->scheme, st->core, st->gr.g_core);
    st->filling = true;
    st->ncohort = 0;
    memset(st->live, 0, st->nslots * sizeof *st->live);
    memset(st->cohort, 0, st->nslots * sizeof *st->cohort);
    for (uint32_t u = 0; u < st->nunits; u++) {
        owl_unit *un = &st->unit[u];
        un->cur = un->last_group = 0;
        un->memo = false;
        /* the unit's last position, so the first turn is position 0 (lrr) */
        for (uint32_t g = 0; g < st->nslots; g++)
            un->rr[g] = st->unit_warps ? st->unit_warps - 1 : 0;
    }
    memset(st->ctr, 0, sizeof st->ctr);
    st->ctr[0] = st->gr.g_core;
}

static uint32_t owl_slot_group(const owl_state *st, uint32_t cta_slot)
{
    return cta_slot < st->nslots ? st->slot_grp[cta_slot] : owl_group_of_slot(&st->gr, cta_slot);
}

/* Every unit's memoised order is stale. */
static void owl_forget(owl_state *st)
{
    for (uint32_t u = 0; u < st->nunits; u++) st->unit[u].memo = false;
}

/* CTA residency and the cohort of the top group (interpretation 7.1). */
static void owl_on_event(void *vst, const ws_sched_view *v, const ws_sched_event *e)
{
    (void)v;
    owl_state *st = vst;
    if (e->cta >= st->nslots) return;
    if (e->kind == WS_EV_CTA_START || e->kind == WS_EV_CTA_DONE) owl_forget(st);
    if (e->kind == WS_EV_CTA_START) {
        st->live[e->cta] = true;
        if (st->filling && owl_slot_group(st, e->cta) == st->top && !st->cohort[e->cta]) {
            st->cohort[e->cta] = true;
            st->ncohort++;
        }
    } else if (e->kind == WS_EV_CTA_DONE) {
        st->live[e->cta] = false;
        st->filling = false;
        if (st->cohort[e->cta]) {
            st->cohort[e->cta] = false;
            st->ncohort--;
        }
    }
}

/* When the top cohort has finished, make the next group (cyclic, top
   itself last) holding a resident CTA the top, its CTAs the cohort. */
static void owl_rotate(owl_state *st)
{
    if (st->scheme == OWL_CTA || st->rotation == ROT_STATIC || st->filling || st->ncohort)
        return;
    uint32_t G = st->gr.g_core;
    for (uint32_t i = 1; i <= G; i++) {
        uint32_t g = (st->top + i) % G;
        bool any = false;
        for (uint32_t s = 0; s < st->nslots; s++)
            if (st->live[s] && owl_slot_group(st, s) == g) {
                st->cohort[s] = true;
                st->ncohort++;
                any = true;
            }
        if (any) {
            st->ctr[2] += g != st->top;
            st->top = g;
            owl_forget(st);
            return;
        }
    }
}

/* Emit the valid positions of one group, `list` (m positions, ascending),
   round-robin from the one after `start`: those above it, then the rest. */
static uint32_t owl_emit_group(const ws_sched_view *v, const uint32_t *list, uint32_t m,
                               uint32_t start, uint32_t *out, uint32_t k)
{
    uint32_t f = 0;
    while (f < m && list[f] <= start) f++;
    for (uint32_t j = 0; j < m; j++) {
        uint32_t w = list[f + j < m ? f + j : f + j - m];
        if (ws_cand_warp(v, w)->valid) out[k++] = w;
    }
    return k;
}

/* Groups in priority order from `base` (the current group for owl-cta,
   top otherwise); inside each, live positions round-robin from the one
   after the group's last issuer.  Runs every cycle on every SM, so the
   positions are bucketed by group once (a counting sort, O(n + G))
   instead of scanning all n positions for each of the G groups. */
static uint32_t owl_order_compute(owl_state *st, owl_unit *un, const ws_sched_view *v,
                                  uint32_t n, uint32_t *out)
{
    uint32_t G = st->gr.g_core, base = st->scheme == OWL_CTA ? un->cur : st->top, k = 0;
    memset(st->gofs, 0, (G + 1) * sizeof *st->gofs);
    for (uint32_t i = 0; i < n; i++) {
        st->grp[i] = owl_slot_group(st, ws_cand_warp(v, i)->cta_slot);
        st->gofs[st->grp[i] + 1]++;
    }
    for (uint32_t g = 0; g < G; g++) st->gofs[g + 1] += st->gofs[g];
    for (uint32_t g = 0; g < G; g++) st->gcur[g] = st->gofs[g];
    for (uint32_t i = 0; i < n; i++) st->byg[st->gcur[st->grp[i]]++] = i;
    for (uint32_t r = 0; r < G; r++) {
        uint32_t g = (base + r) % G;
        uint32_t start = un->rr[g] < n ? un->rr[g] : n - 1;
        k = owl_emit_group(v, st->byg + st->gofs[g], st->gofs[g + 1] - st->gofs[g], start,
                           out, k);
    }
    return ws_cand_to_slots(v, out, k);
}

/* The order depends on the candidates' validity and CTA slots, the unit's
   pointers and current group, top and the groups: a warp's CTA slot
   changes only with a CTA start, and the rest only in on_issue, on_event
   and owl_rotate, which drop the memo; validity is compared here. */
static uint32_t owl_order(void *vst, const ws_sched_view *v, uint32_t *out)
{
    owl_state *st = vst;
    owl_unit *un = &st->unit[v->sched < st->nunits ? v->sched : 0];
    uint32_t n = v->ncand < st->unit_warps ? v->ncand : st->unit_warps;
    if (n == 0) return 0;
    owl_rotate(st);
    if (n > 64) return owl_order_compute(st, un, v, n, out);
    uint64_t valid = 0;
    for (uint32_t i = 0; i < n; i++) valid |= (uint64_t)ws_cand_warp(v, i)->valid << i;
    if (un->memo && un->memo_n == n && un->memo_valid == valid) {
        memcpy(out, un->memo_out, un->memo_k * sizeof *out);
        return un->memo_k;
    }
    uint32_t k = owl_order_compute(st, un, v, n, out);
    un->memo = true;
    un->memo_n = n;
    un->memo_valid = valid;
    un->memo_k = k;
    memcpy(un->memo_out, out, k * sizeof *out);
    return k;
}

static void owl_on_issue(void *vst, const ws_sched_view *v, uint32_t slot)
{
    owl_state *st = vst;
    owl_unit *un = &st->unit[v->sched < st->nunits ? v->sched : 0];
    uint32_t pos = ws_cand_pos(v, slot);
    if (slot >= v->nwarps) return;
    uint32_t g = owl_slot_group(st, v->warps[slot].cta_slot);
    un->rr[g] = pos;
    un->memo = false;
    st->ctr[1] += g != un->last_group;
    un->last_group = g;
    un->cur = g;
}

static void owl_counters(void *vst, uint64_t *out)
{
    const owl_state *st = vst;
    memcpy(out, st->ctr, sizeof st->ctr);
}

#define OWL_OPS(NAME, INIT, SUMMARY)                                             \
    { .name = NAME, .summary = SUMMARY, .params = owl_params, .init = INIT,      \
      .destroy = owl_destroy, .kernel_begin = owl_kernel_begin,                  \
      .order = owl_order, .on_issue = owl_on_issue, .on_event = owl_on_event,    \
      .counter_names = owl_counter_names, .counters = owl_counters }

const ws_warp_sched_ops ws_warp_sched_owl_cta = OWL_OPS(
    "owl-cta", owl_init_cta,
    "OWL (a) CTA-aware two-level: CTA groups of >= g_size warps, switched round-robin");
const ws_warp_sched_ops ws_warp_sched_owl_locality = OWL_OPS(
    "owl-locality", owl_init_locality,
    "OWL (b) CTA-aware-locality: strict group priority, top group until its CTAs finish");
const ws_warp_sched_ops ws_warp_sched_owl_blp = OWL_OPS(
    "owl-blp", owl_init_blp,
    "OWL (c) CTA-aware-locality-BLP: top group (g - core) mod g_core per core; "
    "OWL = this + dram_prefetch=owl");
