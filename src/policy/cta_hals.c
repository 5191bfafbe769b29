/*
** cta_hals.c -- HALS block (CTA) scheduling (`hals`): with a launch hint
** of 1-3, adjacent blocks go to the same SM.  Source: Gong, "Hint-Assisted
** Scheduling on Modern GPUs" (thesis 2020) Sec. 6.3 and Fig. 6.8;
** specs/haws.md 3.2.3 and 8 D (the mapping itself is our choice: the
** thesis gives none).
** Interpretations:
**  - hint 0 (or a grid of one CTA): exactly `rr` (this file calls its
**    table, with its own rotation state);
**  - order: row-major linear block id (x fastest) for hints 1 and 3;
**    for hint 2 column-major (y fastest, then x, then z) so vertically
**    adjacent blocks, which share boundary lines, are co-resident;
**    param order2=1 makes hint 2 row-major too;
**  - chunk = min(ctas_per_sm, ceil(nctas / nsms)); param chunk > 0
**    overrides it;
**  - initial wave: SM s owns positions [s*chunk, (s+1)*chunk) of the
**    order and receives them, in order, whenever it has room (with
**    chunk > ctas_per_sm the rest of its chunk waits for its own slots);
**  - where those chunks would leave an SM without a block although there
**    are enough blocks ((nsms-1) * chunk >= nctas, chunk param 0: 6 blocks
**    on 4 SMs give 2, 2, 2, 0) the grid is split evenly instead: SM s gets
**    floor(nctas/nsms) blocks, one more for s < nctas mod nsms (2, 2, 1, 1),
**    consecutive in the order, as spec 8 D asks ("must not idle SMs on
**    small grids");
**  - refill: the positions past the initial wave go, in order, to the SMs
**    that have room and no initial positions left; when several have room
**    the search starts after the SM refilled last (as `rr` rotates), so
**    no SM is favoured;
**  - a CTA already placed (never expected) is skipped.
*/
#include <stdlib.h>

#include "warpsim_policy.h"

extern const ws_cta_map_ops ws_cta_map_rr;

enum { P_ORDER2 = 0, P_CHUNK };

static const ws_param_desc hals_cta_params[] = {
    { "order2", 0, 0, 1, "", "block order for hint 2: 0 = column-major (y fastest), 1 = row-major" },
    { "chunk", 0, 0, 1024, "CTAs",
      "blocks per SM in the initial wave: 0 = min(ctas_per_sm, ceil(nctas/nsms))" },
    { NULL, 0, 0, 0, NULL, NULL }
};

typedef struct hals_cta {
    void *rr;              /* the rr instance hint 0 runs */
    uint32_t order2, chunk_param, nsms;
    uint32_t hint, n, chunk;
    uint32_t *order;       /* [n] CTA ids in placement order */
    uint32_t *wave;        /* [nsms] SM s's next position in its initial chunk */
    uint32_t *wend;        /* [nsms] the end of SM s's initial chunk */
    uint32_t next;         /* next refill position (past the initial wave) */
    uint32_t last;         /* SM refilled last */
} hals_cta;

static void hals_cta_destroy(void *vst)
{
    hals_cta *st = vst;
    if (!st) return;
    if (st->rr) ws_cta_map_rr.destroy(st->rr);
    free(st->order);
    free(st->wave);
    free(st->wend);
    free(st);
}

static void *hals_cta_init(const ws_param_values *p, const ws_policy_env *env)
{
    hals_cta *st = calloc(1, sizeof *st);
    if (!st) return NULL;
    st->order2 = (uint32_t)p->v[P_ORDER2];
    st->chunk_param = (uint32_t)p->v[P_CHUNK];
    st->nsms = env->nsms ? env->nsms : 1;
    st->last = st->nsms - 1;
    ws_param_values none = { 0 };   /* rr has no parameters */
    st->rr = ws_cta_map_rr.init(&none, env);
    st->wave = calloc(st->nsms, sizeof *st->wave);
    st->wend = calloc(st->nsms, sizeof *st->wend);
    if (!st->rr || !st->wave || !st->wend) {
        hals_cta_destroy(st);
        return NULL;
    }
    return st;
}

/* Fill st->order for grid `g`: row-major, or column-major (y fastest). */
static void hals_cta_fill_order(hals_cta *st, const uint32_t g[3], bool col)
{
    uint32_t i = 0;
    for (uint32_t z = 0; z < g[2]; z++) {
        uint64_t zb = (uint64_t)z * g[0] * g[1];
        if (!col) {
            for (uint32_t yx = 0; yx < g[0] * g[1]; yx++) st->order[i++] = (uint32_t)(zb + yx);
            continue;
        }
        for (uint32_t x = 0; x < g[0]; x++)
            for (uint32_t y = 0; y < g[1]; y++)
                st->order[i++] = (uint32_t)(zb + (uint64_t)y * g[0] + x);
    }
}

/* The initial wave: SM s's positions [wave[s], wend[s]), and where the
   refill starts.  `occ` = CTAs that fit on one SM. */
static void hals_cta_chunks(hals_cta *st, uint32_t occ)
{
    uint32_t n = st->n, m = st->nsms, pos = 0;
    uint32_t ceil_n = (n + m - 1) / m;
    st->chunk = st->chunk_param ? st->chunk_param : occ < ceil_n ? occ : ceil_n;
    bool even = st->chunk_param == 0 && (uint64_t)(m - 1) * st->chunk >= n;
    for (uint32_t s = 0; s < m; s++) {
        uint64_t size = even ? n / m + (s < n % m) : st->chunk;
        st->wave[s] = pos;
        pos = pos + size < n ? (uint32_t)(pos + size) : n;
        st->wend[s] = pos;
    }
    st->next = pos;
}

static void hals_cta_kernel_begin(void *vst, const ws_launch_info *k)
{
    hals_cta *st = vst;
    free(st->order);
    st->order = NULL;
    st->hint = k->hint;
    st->n = k->nctas;
    if (st->hint == 0 || st->n == 0) return;
    st->order = malloc(st->n * sizeof *st->order);
    if (!st->order) {           /* out of memory: fall back to rr */
        st->hint = 0;
        return;
    }
    hals_cta_fill_order(st, k->grid, k->hint == 2 && st->order2 == 0);
    hals_cta_chunks(st, k->ctas_per_sm ? k->ctas_per_sm : 1);
}

/* The first unplaced position in SM s's initial chunk, or UINT32_MAX. */
static uint32_t hals_cta_wave_pos(hals_cta *st, const ws_cta_map_view *v, uint32_t s)
{
    while (st->wave[s] < st->wend[s] && v->assigned[st->order[st->wave[s]]]) st->wave[s]++;
    return st->wave[s] < st->wend[s] ? st->wave[s] : UINT32_MAX;
}

static bool hals_cta_place(void *vst, const ws_cta_map_view *v, ws_cta_choice *out)
{
    hals_cta *st = vst;
    if (st->hint == 0 || !st->order || v->nsms != st->nsms || v->nctas != st->n)
        return ws_cta_map_rr.place(st->rr, v, out);
    bool wave_left = false;
    for (uint32_t s = 0; s < st->nsms; s++) {
        uint32_t pos = hals_cta_wave_pos(st, v, s);
        if (pos == UINT32_MAX) continue;
        wave_left = true;
        if (!v->sms[s].fits) continue;
        *out = (ws_cta_choice){ .cta = st->order[pos], .sm = s };
        st->wave[s]++;
        return true;
    }
    while (st->next < st->n && v->assigned[st->order[st->next]]) st->next++;
    if (st->next >= st->n) return false;
    uint32_t s = st->last;
    for (uint32_t i = 0; i < st->nsms; i++) {
        s = s + 1 == st->nsms ? 0 : s + 1;
        /* an SM still owed initial blocks keeps its room for them */
        if (!v->sms[s].fits || (wave_left && hals_cta_wave_pos(st, v, s) != UINT32_MAX))
            continue;
        st->last = s;
        *out = (ws_cta_choice){ .cta = st->order[st->next++], .sm = s };
        return true;
    }
    return false;
}

const ws_cta_map_ops ws_cta_map_hals = {
    .name = "hals",
    .summary = "HALS (thesis 6.3): hint 0 = rr; hints 1-3 give adjacent blocks (chunks of the "
               "row-major order, column-major for hint 2) to the same SM",
    .params = hals_cta_params,
    .init = hals_cta_init,
    .destroy = hals_cta_destroy,
    .kernel_begin = hals_cta_kernel_begin,
    .place = hals_cta_place,
};
