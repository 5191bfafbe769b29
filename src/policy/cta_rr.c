/*
** cta_rr.c -- round-robin CTA-to-SM mapping (`rr`).
** Source: GPGPU-Sim's CTA issue loop (issue_block2core), which visits the
** SMs round-robin starting after the one that received the last CTA; the
** baseline of the OWL paper (specs/owl.md).
** Interpretations:
**  - the CTA goes to the first SM after the last chosen one on which it
**    fits; the very first CTA tries SM 0 first;
**  - when it fits nowhere the answer is -1 (wait) and the rotation point
**    does not move;
**  - CTAs are placed in cta_id order: the lowest unplaced one goes next.
*/
#include <stdlib.h>

#include "warpsim_policy.h"

typedef struct cta_rr_state {
    uint32_t last;      /* SM that received the last CTA */
} cta_rr_state;

static void *cta_rr_init(const ws_param_values *p, const ws_policy_env *env)
{
    (void)p;
    cta_rr_state *st = malloc(sizeof *st);
    if (st)
        st->last = env->nsms ? env->nsms - 1 : 0;
    return st;
}

static void cta_rr_destroy(void *st)
{
    free(st);
}

static bool cta_rr_place(void *vst, const ws_cta_map_view *v, ws_cta_choice *out)
{
    cta_rr_state *st = vst;
    uint32_t n = v->nsms;
    if (n == 0 || v->next_cta >= v->nctas)
        return false;
    uint32_t s = st->last < n ? st->last : n - 1;
    for (uint32_t i = 0; i < n; i++) {
        s = s + 1 == n ? 0 : s + 1;
        if (v->sms[s].fits) {
            st->last = s;
            *out = (ws_cta_choice){ .cta = v->next_cta, .sm = s };
            return true;
        }
    }
    return false;
}

const ws_cta_map_ops ws_cta_map_rr = {
    .name = "rr",
    .summary = "round-robin: the next SM after the last one chosen on which the CTA fits",
    .params = NULL,
    .init = cta_rr_init,
    .destroy = cta_rr_destroy,
    .place = cta_rr_place,
};
