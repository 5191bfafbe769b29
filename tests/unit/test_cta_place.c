/*
** test_cta_place.c -- CTA placement: the policy chooses (CTA, SM) pairs
** from the unplaced CTAs.  A test-local column-major policy places the
** CTAs of a 2-D grid column by column, dealing them round robin over the
** SMs; the kernel records %smid per CTA, which must be the SM chosen.
** A policy naming a CTA already placed is an error naming the policy.
*/
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "timing_harness.h"

static const char *hdr = ".version 7.0\n.target sm_70\n.address_size 64\n";

/* out[ctaid.y * nctaid.x + ctaid.x] = %smid + 1 (0 = never ran) */
static const char *smid_kernel =
    ".visible .entry where(.param .u64 p)\n{\n"
    "  .reg .b64 %rd<4>;\n  .reg .b32 %r<8>;\n  .reg .pred %p<2>;\n  ld.param.u64 %rd1, [p];\n"
    "  mov.u32 %r1, %ctaid.x;\n  mov.u32 %r2, %ctaid.y;\n  mov.u32 %r3, %nctaid.x;\n"
    "  mad.lo.u32 %r4, %r2, %r3, %r1;\n  mov.u32 %r5, %smid;\n  add.u32 %r5, %r5, 1;\n"
    "  mov.u32 %r6, %tid.x;\n  setp.ne.u32 %p1, %r6, 0;\n"
    "  mul.wide.u32 %rd2, %r4, 4;\n  add.s64 %rd3, %rd1, %rd2;\n"
    "  @!%p1 st.global.u32 [%rd3], %r5;\n  ret;\n}\n";

/* ---- column-major placement: i-th CTA placed = column i / gy, row i % gy ---- */

typedef struct colmaj {
    uint32_t placed;       /* placements made */
    uint32_t order[64];    /* CTA ids in placement order */
    bool     bad;          /* answer an already placed CTA once */
} colmaj;

/* the test's colmaj comes as parameter 0 */
static void *cm_init(const ws_param_values *p, const ws_policy_env *env)
{
    (void)env;
    return (void *)(intptr_t)p->v[0];
}

static bool cm_place(void *vst, const ws_cta_map_view *v, ws_cta_choice *out)
{
    colmaj *st = vst;
    uint32_t gx = v->kernel->grid[0], gy = v->kernel->grid[1];
    if (st->placed >= v->nctas) return false;
    uint32_t col = st->placed / gy, row = st->placed % gy;
    uint32_t cta = row * gx + col;
    if (st->bad && st->placed > 0) cta = st->order[0];
    uint32_t sm = st->placed % v->nsms;
    if (!v->sms[sm].fits) return false;       /* wait for that SM */
    assert_false(!st->bad && v->assigned[cta]);
    *out = (ws_cta_choice){ .cta = cta, .sm = sm };
    st->order[st->placed++] = cta;
    return true;
}

static const ws_cta_map_ops colmaj_ops = {
    .name = "test-colmajor", .init = cm_init, .place = cm_place,
};

static void run_colmaj(th_run *r, colmaj *cm, uint32_t *out, bool bad)
{
    memset(cm, 0, sizeof *cm);
    cm->bad = bad;
    r->cta_params = (ws_param_values){ .n = 1, .v = { (int64_t)(intptr_t)cm } };
    char ptx[2048];
    snprintf(ptx, sizeof ptx, "%s%s", hdr, smid_kernel);
    gpu_config cfg;
    th_config(&cfg);
    cfg.n_clusters = 3;                        /* 3 SMs */
    th_buf buf = { 4 * 4 * 4, NULL, out, 0 };
    r->cta_map = &colmaj_ops;
    r->grid_y = 4;
    th_run_kernel(ptx, "where", &cfg, ws_find_warp_sched("gto"), 4, 32, &buf, 1, NULL, 0, r);
}

static void test_cta_column_major(void **state)
{
    (void)state;
    th_run *r = calloc(1, sizeof *r);
    uint32_t out[16] = { 0 };
    colmaj cm;
    run_colmaj(r, &cm, out, false);
    if (r->rc) fail_msg("%s", r->err);
    /* placement order: column 0 top to bottom (0, 4, 8, 12), then column 1 */
    assert_int_equal(cm.placed, 16);
    const uint32_t want[16] = { 0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15 };
    for (uint32_t i = 0; i < 16; i++) {
        assert_int_equal(cm.order[i], want[i]);
        /* the i-th placed CTA ran on SM i % 3, and %smid says so */
        assert_int_equal(out[want[i]], i % 3 + 1);
    }
    free(r);
}

static void test_cta_place_refused(void **state)
{
    (void)state;
    th_run *r = calloc(1, sizeof *r);
    uint32_t out[16] = { 0 };
    colmaj cm;
    run_colmaj(r, &cm, out, true);
    assert_int_not_equal(r->rc, 0);
    assert_non_null(strstr(r->err, "test-colmajor"));
    assert_non_null(strstr(r->err, "not an unplaced CTA"));
    free(r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cta_column_major),
        cmocka_unit_test(test_cta_place_refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
