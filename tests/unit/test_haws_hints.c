/*
** test_haws_hints.c -- the HAWS hint pass (src/policy/haws_hints.c) on
** small PTX kernels: the Fig. 5.1 MM inner loop (specs/haws.md §9 item 5),
** the selection rules of §3.1.3/§3.1.7 (barriers, stores, atomics, loads
** past a barrier or needing a rename, taint), stop at the next stall, and
** v1/v2 branches.  Instructions are found by a `// NAME` marker on their
** PTX line.
*/
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "ptx/ptx.h"
#include "gpu/gpu.h"
#include "policy/haws_hints.h"

typedef struct tk {
    const char *src;
    ptx_module *m;
    ws_prog_uop *u;
    ws_program_view pv;
    haws_hints *h;
} tk;

static void tk_load(tk *t, const char *src, const haws_hint_params *p)
{
    ptx_error err;
    memset(t, 0, sizeof *t);
    t->src = src;
    t->m = ptx_parse(src, strlen(src), "test.ptx", &err);
    if (!t->m) fail_msg("PTX does not parse: %s", err.msg);
    int f = ptx_find_func(t->m, "k");
    assert_true(f >= 0);
    t->u = gpu_program_view(t->m);
    assert_non_null(t->u);
    t->pv = (ws_program_view){ .nuops = t->m->nuops, .uops = t->u,
                               .entry_pc = t->m->funcs[f].uop_begin,
                               .end_pc = t->m->funcs[f].uop_end };
    t->h = haws_hints_build(&t->pv, t->pv.entry_pc, t->pv.end_pc, p);
    assert_non_null(t->h);
}

static void tk_free(tk *t)
{
    haws_hints_free(t->h);
    free(t->u);
    ptx_module_free(t->m);
}

/* pc of the instruction on the line that carries "// name" */
static uint32_t tk_pc(const tk *t, const char *name)
{
    char mark[64];
    snprintf(mark, sizeof mark, "// %s\n", name);
    const char *at = strstr(t->src, mark);
    if (!at) fail_msg("no marker %s", name);
    uint32_t line = 1;
    for (const char *s = t->src; s < at; s++) line += *s == '\n';
    for (uint32_t pc = t->pv.entry_pc; pc <= t->pv.end_pc; pc++)
        if (t->u[pc].line == line) return pc;
    fail_msg("no uop on line %u", line);
    return 0;
}

static const haws_chain *tk_chain(const tk *t, const char *stall)
{
    const haws_chain *c = haws_hints_find(t->h, tk_pc(t, stall));
    if (!c) fail_msg("%s is not a stall point", stall);
    return c;
}

/* Next entry after `i` on a path that takes `side` (0 taken, 1 fall-through)
   at each conditional branch. */
static int32_t tk_next(const tk *t, const haws_chain *c, int32_t i, int side)
{
    const haws_chain_entry *e = &c->e[i];
    return e->succ[e->branch && t->u[e->pc].guarded ? side : 0];
}

/* The chain along `side` at each conditional branch, as pcs. */
static uint32_t tk_path(const tk *t, const haws_chain *c, int side, uint32_t *pcs, uint32_t cap)
{
    uint32_t n = 0;
    for (int32_t i = c->n ? 0 : -1; i >= 0 && n < cap; i = tk_next(t, c, i, side))
        pcs[n++] = c->e[i].pc;
    return n;
}

/* Entries on the longest path from entry `i` (every side of every branch). */
static uint32_t tk_longest(const tk *t, const haws_chain *c, int32_t i)
{
    if (i < 0) return 0;
    const haws_chain_entry *e = &c->e[i];
    uint32_t a = tk_longest(t, c, e->succ[0]);
    uint32_t b = e->branch && t->u[e->pc].guarded ? tk_longest(t, c, e->succ[1]) : 0;
    return 1 + (a > b ? a : b);
}

static void expect_path(const tk *t, const haws_chain *c, int side, const char *const *names,
                        uint32_t n)
{
    uint32_t pcs[128];
    uint32_t got = tk_path(t, c, side, pcs, 128);
    for (uint32_t i = 0; i < n && i < got; i++)
        if (pcs[i] != tk_pc(t, names[i]))
            fail_msg("entry %u: pc %u, want %s (pc %u)", i, pcs[i], names[i], tk_pc(t, names[i]));
    assert_int_equal(got, n);
}

#define HEAD \
    ".version 7.0\n.target sm_70\n.address_size 64\n" \
    ".visible .entry k(.param .u64 a, .param .u64 b)\n{\n" \
    "  .reg .pred %p<8>;\n  .reg .b32 %r<32>;\n  .reg .f32 %f<16>;\n  .reg .b64 %rd<16>;\n" \
    "  ld.param.u64 %rd1, [a];\n  ld.param.u64 %rd2, [b];\n"

/* ---- §9 item 5: Fig. 5.1 ----
   The thesis's SASS, instruction for instruction, with its register
   allocation (R9 reused for the index, the address and the loaded value:
   the source of the hazards), all registers 64-bit (warpsim runs 64-bit
   code only, and an address must be one register as in the SASS), the
   data f64.  Fig. 5.1 numbers are the markers:
   I1 ISETP -> setp, I2 @P0 BRA I22 -> @%p0 bra DONE, I3/I6 IMUL -> mul.lo,
   I4/I7/I12 IADD -> add, I5/I8/I13 SHL -> shl, I9/I14 IADD base -> add,
   I10/I16 LD -> ld.global, I11 IMUL -> mul.lo, I15 MOV -> mov,
   I17 FMUL -> mul.f64 (the stall point), I18 FADD -> add.f64,
   I19 IADD R7 -> add (k++), I20 BRA I1 -> bra LOOP; DONE stands for I22. */
static const char fig51_ptx[] =
    ".version 7.0\n.target sm_70\n.address_size 64\n"
    ".visible .entry k(.param .u64 md, .param .u64 nd, .param .u64 pd, .param .u64 w)\n{\n"
    "  .reg .pred %p<2>;\n  .reg .b32 %r<2>;\n  .reg .b64 %rd<12>;\n"
    "  ld.param.u64 %rd0, [md];\n  ld.param.u64 %rd2, [nd];\n  ld.param.u64 %rd3, [pd];\n"
    "  ld.param.u64 %rd4, [w];\n  mov.u32 %r0, %tid.y;\n  cvt.u64.u32 %rd5, %r0;\n"
    "  mov.u32 %r1, %tid.x;\n  cvt.u64.u32 %rd6, %r1;\n"
    "  mov.u64 %rd7, 0;\n  mov.b64 %rd8, 0d0000000000000000;\n"
    "LOOP:\n"
    "  setp.ge.s64 %p0, %rd7, %rd4; // I1\n"
    "  @%p0 bra DONE; // I2\n"
    "  mul.lo.s64 %rd9, %rd5, %rd4; // I3\n"
    "  add.s64 %rd9, %rd9, %rd7; // I4\n"
    "  shl.b64 %rd9, %rd9, 2; // I5\n"
    "  mul.lo.s64 %rd9, %rd5, %rd4; // I6\n"
    "  add.s64 %rd9, %rd9, %rd7; // I7\n"
    "  shl.b64 %rd9, %rd9, 2; // I8\n"
    "  add.s64 %rd9, %rd0, %rd9; // I9\n"
    "  ld.global.f64 %rd10, [%rd9]; // I10\n"
    "  mul.lo.s64 %rd9, %rd7, %rd4; // I11\n"
    "  add.s64 %rd9, %rd9, %rd6; // I12\n"
    "  shl.b64 %rd9, %rd9, 2; // I13\n"
    "  add.s64 %rd9, %rd2, %rd9; // I14\n"
    "  mov.b64 %rd9, %rd9; // I15\n"
    "  ld.global.f64 %rd9, [%rd9]; // I16\n"
    "  mul.f64 %rd9, %rd10, %rd9; // I17\n"
    "  add.f64 %rd8, %rd8, %rd9; // I18\n"
    "  add.s64 %rd7, %rd7, 1; // I19\n"
    "  bra LOOP; // I20\n"
    "DONE:\n"
    "  mul.lo.s64 %rd11, %rd5, %rd4; // I22\n"
    "  add.s64 %rd11, %rd11, %rd6; // I23\n"
    "  shl.b64 %rd11, %rd11, 2; // I24\n"
    "  add.s64 %rd11, %rd3, %rd11; // I25\n"
    "  st.global.f64 [%rd11], %rd8; // I26\n"
    "  exit; // I27\n"
    "}\n";

static void test_fig51_v1(void **state)
{
    (void)state;
    tk t;
    tk_load(&t, fig51_ptx, NULL);
    assert_int_equal(t.h->nchains, 1);            /* I17 is the only stall point */
    const haws_chain *c = tk_chain(&t, "I17");
    assert_int_equal(c->ntrig, 2);
    assert_int_equal(c->trig[0], tk_pc(&t, "I10"));
    assert_int_equal(c->trig[1], tk_pc(&t, "I16"));
    /* I18 depends; I19, I20 (followed to I1); I2 is conditional: v1 stops */
    static const char *const want[] = {"I19", "I20", "I1"};
    expect_path(&t, c, 0, want, 3);
    for (uint32_t i = 0; i < c->n; i++) assert_false(c->e[i].rename);
    tk_free(&t);
}

static void test_fig51_v2(void **state)
{
    (void)state;
    haws_hint_params p = HAWS_HINT_PARAMS_DEFAULT;
    p.branches = 2;
    tk t;
    tk_load(&t, fig51_ptx, &p);
    const haws_chain *c = tk_chain(&t, "I17");
    /* §9 item 5: 19, 20, 1, 2, 3, 4, 5, 6 with R9 renamed from 3 on */
    static const char *const fall[] = {"I19", "I20", "I1", "I2", "I3", "I4", "I5", "I6"};
    expect_path(&t, c, 1, fall, 8);
    int32_t i = 0;
    uint32_t r9 = t.u[tk_pc(&t, "I3")].dst[0];
    for (uint32_t k = 0; k < 8; k++) {
        const haws_chain_entry *e = &c->e[i];
        assert_int_equal(e->rename, k >= 4);
        if (k >= 4) {
            assert_int_equal(e->reg, (int32_t)r9);
            assert_int_equal(e->hidden, k - 4);      /* a fresh hidden register each */
        }
        i = tk_next(&t, c, i, 1);
    }
    assert_int_equal(i, -1);                          /* RCU full after 8 */
    /* the taken side (I2 to DONE): the address arithmetic, not the store */
    static const char *const taken[] = {"I19", "I20", "I1", "I2", "I22", "I23", "I24", "I25"};
    expect_path(&t, c, 0, taken, 8);
    assert_int_equal(tk_longest(&t, c, 0), 8);
    /* a smaller RCU bounds every path of the tree */
    tk_free(&t);
    p.max_sel = 5;
    tk_load(&t, fig51_ptx, &p);
    c = tk_chain(&t, "I17");
    assert_int_equal(tk_longest(&t, c, 0), 5);
    assert_int_equal(c->n, 6);                        /* 19, 20, 1, 2, then 22 or 3 */
    tk_free(&t);
}

/* ---- max_sel ---- */
static const char many_ptx[] = HEAD
    "  ld.global.u32 %r1, [%rd1]; // L\n"
    "  add.s32 %r2, %r1, 1; // S\n"
    "  add.s32 %r3, %r20, 1;\n  add.s32 %r4, %r20, 2;\n  add.s32 %r5, %r20, 3;\n"
    "  add.s32 %r6, %r20, 4;\n  add.s32 %r7, %r20, 5;\n  add.s32 %r8, %r20, 6;\n"
    "  add.s32 %r9, %r20, 7;\n  add.s32 %r10, %r20, 8;\n  add.s32 %r11, %r20, 9;\n"
    "  add.s32 %r12, %r20, 10;\n  add.s32 %r13, %r20, 11;\n"
    "  st.global.u32 [%rd2], %r2;\n  exit;\n}\n";

static void test_max_sel(void **state)
{
    (void)state;
    tk t;
    tk_load(&t, many_ptx, NULL);
    assert_int_equal(tk_chain(&t, "S")->n, 8);
    tk_free(&t);
    haws_hint_params p = HAWS_HINT_PARAMS_DEFAULT;
    p.max_sel = 3;
    tk_load(&t, many_ptx, &p);
    const haws_chain *c = tk_chain(&t, "S");
    assert_int_equal(c->n, 3);
    assert_int_equal(c->e[0].pc, tk_pc(&t, "S") + 1);
    p.max_sel = 0;
    assert_null(haws_hints_build(&t.pv, t.pv.entry_pc, t.pv.end_pc, &p));   /* refused */
    tk_free(&t);
}

/* ---- barriers, stores, atomics, exit; loads past a barrier ---- */
static const char bar_ptx[] = HEAD
    "  ld.global.u32 %r1, [%rd1]; // L\n"
    "  add.s32 %r2, %r1, 1; // S\n"
    "  st.global.u32 [%rd2], %r20; // ST\n"
    "  atom.global.add.u32 %r3, [%rd2], 1; // ATOM\n"
    "  membar.gl; // MB\n"
    "  add.s32 %r4, %r20, 1; // A1\n"
    "  bar.sync 0; // BAR\n"
    "  ld.shared.u32 %r5, [%rd3]; // LD\n"
    "  add.s32 %r6, %r20, 2; // A2\n"
    "  exit; // EXIT\n"
    "  add.s32 %r7, %r20, 3; // DEAD\n"
    "}\n";

static void test_barriers_stores(void **state)
{
    (void)state;
    tk t;
    tk_load(&t, bar_ptx, NULL);
    static const char *const want[] = {"A1", "A2"};
    expect_path(&t, tk_chain(&t, "S"), 0, want, 2);
    tk_free(&t);
}

/* A load is selected before the barrier when nothing aliases, and not
   after a skipped store to its space (alias = 1) or any store (alias = 0). */
static const char load_ptx[] = HEAD
    "  ld.global.u32 %r1, [%rd1]; // L\n"
    "  add.s32 %r2, %r1, 1; // S\n"
    "  ld.global.u32 %r3, [%rd3]; // G1\n"
    "  st.shared.u32 [%rd4], %r20; // SS\n"
    "  ld.global.u32 %r4, [%rd3+4]; // G2\n"
    "  st.global.u32 [%rd4], %r20; // SG\n"
    "  ld.global.u32 %r5, [%rd3+8]; // G3\n"
    "  exit;\n}\n";

static void test_load_alias(void **state)
{
    (void)state;
    tk t;
    tk_load(&t, load_ptx, NULL);
    static const char *const want1[] = {"G1", "G2"};
    expect_path(&t, tk_chain(&t, "S"), 0, want1, 2);
    tk_free(&t);
    haws_hint_params p = HAWS_HINT_PARAMS_DEFAULT;
    p.alias = 0;
    tk_load(&t, load_ptx, &p);
    static const char *const want0[] = {"G1"};
    expect_path(&t, tk_chain(&t, "S"), 0, want0, 1);
    tk_free(&t);
}

/* ---- a load needing a rename is skipped; an ALU op is renamed ---- */
static const char ren_ptx[] = HEAD
    "  ld.global.u32 %r1, [%rd1]; // L\n"
    "  add.s32 %r2, %r1, %r9; // S\n"
    "  ld.global.u32 %r9, [%rd3]; // LR\n"
    "  add.s32 %r10, %r11, 1; // A\n"
    "  add.s32 %r9, %r11, 2; // AR\n"
    "  exit;\n}\n";

static void test_rename_load(void **state)
{
    (void)state;
    tk t;
    tk_load(&t, ren_ptx, NULL);
    const haws_chain *c = tk_chain(&t, "S");
    static const char *const want[] = {"A", "AR"};
    expect_path(&t, c, 0, want, 2);
    assert_false(c->e[0].rename);
    assert_true(c->e[1].rename);
    assert_int_equal(c->e[1].reg, t.u[tk_pc(&t, "AR")].dst[0]);
    assert_int_equal(c->e[1].hidden, 0);
    assert_int_equal(t.h->nrenames, 1);
    tk_free(&t);
}

/* ---- taint: readers of S's result, of skipped results, of the load ---- */
static const char taint_ptx[] = HEAD
    "  ld.global.u32 %r1, [%rd1]; // L\n"
    "  add.s32 %r2, %r1, 1; // S\n"
    "  add.s32 %r3, %r2, 1; // D1\n"
    "  add.s32 %r4, %r3, 1; // D2\n"
    "  add.s32 %r5, %r1, 2; // D3\n"
    "  setp.lt.s32 %p1, %r20, 4; // P\n"
    "  @%p1 add.s32 %r4, %r20, 1; // D4\n"
    "  add.s32 %r6, %r7, 1; // I\n"
    "  exit;\n}\n";

static void test_taint(void **state)
{
    (void)state;
    tk t;
    tk_load(&t, taint_ptx, NULL);
    /* D4 is guarded: it reads the skipped D2's %r4 (masked write) */
    static const char *const want[] = {"P", "I"};
    expect_path(&t, tk_chain(&t, "S"), 0, want, 2);
    assert_null(haws_hints_find(t.h, tk_pc(&t, "D1")));   /* no LL load reaches it */
    tk_free(&t);
}

/* ---- stop at the next stall point ---- */
static const char next_ptx[] = HEAD
    "  ld.global.u32 %r1, [%rd1]; // L1\n"
    "  ld.global.u32 %r2, [%rd2]; // L2\n"
    "  add.s32 %r3, %r1, 1; // S1\n"
    "  add.s32 %r4, %r20, 1; // A\n"
    "  add.s32 %r5, %r2, 1; // S2\n"
    "  add.s32 %r6, %r20, 2; // B\n"
    "  exit;\n}\n";

static void test_next_stall(void **state)
{
    (void)state;
    tk t;
    tk_load(&t, next_ptx, NULL);
    static const char *const want[] = {"A"};
    expect_path(&t, tk_chain(&t, "S1"), 0, want, 1);
    assert_int_equal(t.h->nchains, 2);
    tk_free(&t);
    haws_hint_params p = HAWS_HINT_PARAMS_DEFAULT;
    p.stop_at_next_stall = false;
    tk_load(&t, next_ptx, &p);
    static const char *const all[] = {"A", "S2", "B"};
    expect_path(&t, tk_chain(&t, "S1"), 0, all, 3);
    tk_free(&t);
}

/* ---- v1 stops at a conditional branch, v2 splits ---- */
static const char br_ptx[] = HEAD
    "  ld.global.u32 %r1, [%rd1]; // L\n"
    "  add.s32 %r2, %r1, 1; // S\n"
    "  setp.lt.s32 %p1, %r20, 5; // P\n"
    "  @%p1 bra T; // BR\n"
    "  add.s32 %r3, %r20, 1; // F1\n"
    "  exit;\n"
    "T:\n"
    "  add.s32 %r4, %r20, 2; // T1\n"
    "  setp.lt.s32 %p2, %r2, 5; // TD\n"
    "  @%p2 bra T; // TB\n"
    "  exit;\n}\n";

static void test_branches(void **state)
{
    (void)state;
    tk t;
    tk_load(&t, br_ptx, NULL);
    const haws_chain *c = tk_chain(&t, "S");
    assert_int_equal(c->n, 1);                        /* v1: P, not the bra */
    assert_int_equal(c->e[0].pc, tk_pc(&t, "P"));
    tk_free(&t);
    haws_hint_params p = HAWS_HINT_PARAMS_DEFAULT;
    p.branches = 2;
    tk_load(&t, br_ptx, &p);
    c = tk_chain(&t, "S");
    assert_int_equal(c->n, 4);
    assert_int_equal(c->e[1].pc, tk_pc(&t, "BR"));
    assert_true(c->e[1].branch);
    /* taken: T1, then TD depends on S and the bra on it: the side ends */
    assert_int_equal(c->e[c->e[1].succ[0]].pc, tk_pc(&t, "T1"));
    assert_int_equal(c->e[c->e[1].succ[0]].succ[0], -1);
    assert_int_equal(c->e[c->e[1].succ[1]].pc, tk_pc(&t, "F1"));
    tk_free(&t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fig51_v1),
        cmocka_unit_test(test_fig51_v2),
        cmocka_unit_test(test_max_sel),
        cmocka_unit_test(test_barriers_stores),
        cmocka_unit_test(test_load_alias),
        cmocka_unit_test(test_rename_load),
        cmocka_unit_test(test_taint),
        cmocka_unit_test(test_next_stall),
        cmocka_unit_test(test_branches),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
