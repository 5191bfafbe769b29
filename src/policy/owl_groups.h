/*
** owl_groups.h -- OWL's CTA groups (Jog et al., ASPLOS 2013, Sec. 4.1,
** Algorithm 1 FORM_GROUPS; specs/owl.md Sec. 2.1) and the group priority
** rules of its schemes (Sec. 2.2-2.4), as pure functions so the unit tests
** can check them without a model.  Used by warp_owl.c; policy files only.
*/
#ifndef WS_POLICY_OWL_GROUPS_H
#define WS_POLICY_OWL_GROUPS_H

#include <stdint.h>

/* The three OWL warp-scheduling schemes (spec Sec. 2.2-2.4). */
typedef enum owl_scheme {
    OWL_CTA = 0,      /* (a) CTA-aware two-level: groups equal, switch round-robin */
    OWL_LOCALITY,     /* (b) + strict group priority, group 0 first on every core */
    OWL_BLP           /* (c) + per-core starting priority (g - core) mod g_core */
} owl_scheme;

/* What FORM_GROUPS decides for one kernel on one core. */
typedef struct owl_groups {
    uint32_t n;        /* CTAs per group (the last group may hold more) */
    uint32_t g_core;   /* number of groups, >= 1 */
    uint32_t nctas;    /* N, the CTAs per core the groups cover */
} owl_groups;

/* Algorithm 1: `N` CTAs per core, `k` warps per CTA, at least `g_size`
   warps per group.  n = the smallest CTA count with n*k >= g_size,
   g_core = max(1, floor(N/n)) (spec Sec. 2.1 edge case: when n > N all N
   CTAs form one group), the remainder joins the last group.  N = 0 or
   k = 0 are treated as 1. */
owl_groups owl_form_groups(uint32_t N, uint32_t k, uint32_t g_size);

/* CTAs in group `g` (0 when g >= g_core). */
uint32_t owl_group_size(const owl_groups *gr, uint32_t g);

/* Group of CTA slot `slot`: slots [g*n, (g+1)*n) form group g; slots past
   the last full group (the remainder, or slots >= N that the model should
   not use) belong to the last group. */
uint32_t owl_group_of_slot(const owl_groups *gr, uint32_t slot);

/* The group core `core` starts with at the top of its priority order:
   0 for CTA-aware and Locality, core mod g_core for BLP (Algorithm 1's
   g_pri[g][core] = (g - core) mod g_core: the group with priority 0). */
uint32_t owl_initial_top(owl_scheme s, uint32_t core, uint32_t g_core);

/* Priority of group `g` when `top` leads (0 = highest):
   (g - top) mod g_core, non-negative. */
uint32_t owl_group_priority(uint32_t g, uint32_t top, uint32_t g_core);

#endif /* WS_POLICY_OWL_GROUPS_H */
