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
**  - CTAs are placed in the order the dispatcher offers them (by cta_id).
*/
#include <stdlib.h>

#include "policy/policy.h"

typedef struct cta_rr_state {
    uint32_t last;      /* SM that received the last CTA */
} cta_rr_state;

static void *cta_rr_init(const ws_param_values *p, uint32_t nsms)
{
    (void)p;
    cta_rr_state *st = malloc(sizeof *st);
    if (st)
        st->last = nsms ? nsms - 1 : 0;
    return st;
}

static void cta_rr_destroy(void *st)
{
    free(st);
}

static int cta_rr_select_sm(void *vst, const ws_cta_map_view *v)
{
    cta_rr_state *st = vst;
    uint32_t n = v->nsms;
    if (n == 0)
        return -1;
    uint32_t s = st->last < n ? st->last : n - 1;
    for (uint32_t i = 0; i < n; i++) {
        s = s + 1 == n ? 0 : s + 1;
        if (v->sms[s].fits) {
            st->last = s;
            return (int)s;
        }
    }
    return -1;
}

const ws_cta_map_ops ws_cta_map_rr = {
    .name = "rr",
    .summary = "round-robin: the next SM after the last one chosen on which the CTA fits",
    .params = NULL,
    .init = cta_rr_init,
    .destroy = cta_rr_destroy,
    .select_sm = cta_rr_select_sm,
};
