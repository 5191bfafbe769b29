/*
** owl_groups.c -- OWL's FORM_GROUPS (Jog et al., ASPLOS 2013, Algorithm 1;
** specs/owl.md Sec. 2.1) and the group priority arithmetic of its
** schemes (Sec. 2.2-2.4).  Pure functions; see owl_groups.h.
*/
#include "policy/owl_groups.h"

owl_groups owl_form_groups(uint32_t N, uint32_t k, uint32_t g_size)
{
    if (N == 0) N = 1;
    if (k == 0) k = 1;
    uint32_t n = 1;
    /* the smallest CTA count whose warps reach g_size, in closed form
       (the paper's loop "while n*k < g_size: n++") */
    if ((uint64_t)k < g_size) n = (g_size + k - 1) / k;
    uint32_t g = N / n;
    return (owl_groups){ .n = n, .g_core = g ? g : 1, .nctas = N };
}

uint32_t owl_group_size(const owl_groups *gr, uint32_t g)
{
    if (g >= gr->g_core) return 0;
    if (g + 1 < gr->g_core) return gr->n;
    /* the last group: n plus the remainder, or all N when n > N */
    return gr->nctas - (gr->g_core - 1) * gr->n;
}

uint32_t owl_group_of_slot(const owl_groups *gr, uint32_t slot)
{
    uint32_t g = slot / gr->n;
    return g < gr->g_core ? g : gr->g_core - 1;
}

uint32_t owl_initial_top(owl_scheme s, uint32_t core, uint32_t g_core)
{
    return s == OWL_BLP && g_core ? core % g_core : 0;
}

uint32_t owl_group_priority(uint32_t g, uint32_t top, uint32_t g_core)
{
    if (g_core == 0) return 0;
    /* unsigned arithmetic: add g_core before subtracting so that
       (g - top) mod g_core stays non-negative */
    return (g % g_core + g_core - top % g_core) % g_core;
}
