/*
** test_ptx_parse.c -- the PTX front end on real nvcc output
** (tests/ptx_samples, tests/kernels) and on small hand-written modules:
** declarations, layouts, calls, immediates, operands and modifiers.
*/
#include <dirent.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "helpers.h"
#include "ptx/ptx.h"

#define HDR ".version 8.0\n.target sm_80\n.address_size 64\n"

static ptx_module *parse_sample(const char *rel)
{
    ptx_error err;
    ptx_module *m = ptx_parse_file(th_source_path(rel), &err);
    if (!m) fail_msg("%s", err.msg);
    return m;
}

static ptx_module *parse_text(const char *text)
{
    ptx_error err;
    ptx_module *m = ptx_parse(text, strlen(text), "snippet.ptx", &err);
    if (!m) fail_msg("%s", err.msg);
    return m;
}

static const ptx_func *func(const ptx_module *m, const char *name)
{
    int i = ptx_find_func(m, name);
    assert_true(i >= 0);
    return &m->funcs[i];
}

/* k-th instruction of a function body */
static const ptx_uop *insn(const ptx_module *m, const ptx_func *f, uint32_t k)
{
    assert_true(f->uop_begin + k < f->uop_end);
    return &m->uops[f->uop_begin + k];
}

static int count_ptx_in(const char *dir, int (*fn)(const char *path))
{
    DIR *d = opendir(th_source_path(dir));
    if (!d) return 0;
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        size_t len = strlen(e->d_name);
        if (len < 5 || strcmp(e->d_name + len - 4, ".ptx") != 0) continue;
        char rel[512];
        snprintf(rel, sizeof rel, "%s/%s", dir, e->d_name);
        n += fn(rel);
    }
    closedir(d);
    return n;
}

static int parse_ok(const char *rel)
{
    ptx_module *m = parse_sample(rel);
    assert_true(m->nfuncs > 0);
    for (uint32_t i = 0; i < m->nfuncs; i++) {
        const ptx_func *f = &m->funcs[i];
        if (f->is_extern) continue;
        assert_int_equal(m->uops[f->uop_end].op, PTX_OP_FUNC_END);
        assert_true(f->nblocks >= 1);
    }
    ptx_module_free(m);
    return 1;
}

/* every committed sample and bundled kernel parses */
static void test_all_samples_parse(void **state)
{
    (void)state;
    assert_true(count_ptx_in("tests/ptx_samples", parse_ok) >= 4);
    count_ptx_in("tests/kernels", parse_ok);
}

static void test_module_header_and_functions(void **state)
{
    (void)state;
    ptx_module *m = parse_sample("tests/ptx_samples/basics.ptx");
    assert_int_equal(m->version_major, 9);
    assert_int_equal(m->version_minor, 0);
    assert_string_equal(m->target, "sm_80");
    assert_int_equal(m->address_size, 64);
    assert_int_equal(m->nfuncs, 10);
    const ptx_func *vp = func(m, "vprintf");
    assert_true(vp->is_extern);
    assert_int_equal(vp->nparams, 2);
    assert_int_equal(vp->nrets, 1);
    const ptx_func *fib = func(m, "_Z3fibi");
    assert_false(fib->is_entry);
    assert_false(fib->is_extern);
    const ptx_func *va = func(m, "vec_add");
    assert_true(va->is_entry);
    assert_true(va->is_visible);
    assert_int_equal(va->nparams, 4);
    assert_int_equal(va->params[0].offset, 0);
    assert_int_equal(va->params[2].offset, 16);
    assert_int_equal(va->params[3].offset, 24);
    assert_int_equal(va->params[3].size, 4);
    assert_int_equal(va->param_size, 28);
    /* %p<2> %f<5> %r<7> %rd<15> */
    assert_int_equal(va->npreds, 2);
    assert_int_equal(va->nregs, 5 + 7 + 15);
    assert_string_equal(va->reg_names[0], "%f0");
    assert_string_equal(va->pred_names[1], "%p1");
    assert_false(va->uses_printf);
    assert_true(func(m, "hello")->uses_printf);
    ptx_module_free(m);
}

static void test_struct_param_and_local_depot(void **state)
{
    (void)state;
    ptx_module *m = parse_sample("tests/ptx_samples/basics.ptx");
    const ptx_func *f = func(m, "struct_param");
    assert_int_equal(f->params[0].size, 24);
    assert_int_equal(f->params[0].align, 8);
    assert_int_equal(f->params[1].offset, 24);
    assert_int_equal(f->param_size, 32);
    /* .local .align 8 .b8 __local_depot4[24] */
    assert_int_equal(f->frame_size, 32);
    const ptx_uop *u = insn(m, f, 0);              /* mov.u64 %SPL, __local_depot4 */
    assert_int_equal(u->op, PTX_OP_MOV);
    assert_int_equal(u->opd[1].kind, PTX_OPD_SYM);
    assert_true(u->opd[1].flags & PTX_OPD_F_FRAME);
    assert_int_equal(u->opd[1].space, PTX_SPACE_LOCAL);
    assert_int_equal(u->opd[1].sym, -1);
    u = insn(m, f, 6);                             /* ld.param.u32 %r1, [..._param_0+12] */
    assert_int_equal(u->space, PTX_SPACE_PARAM);
    assert_int_equal(u->opd[1].kind, PTX_OPD_ADDR);
    assert_int_equal(u->opd[1].imm, 12);
    assert_int_equal(u->opd[1].reg, -1);
    u = insn(m, f, 9);                             /* ld.param.v2.f32 {%f1, %f2}, [p+16] */
    assert_int_equal(u->vec, 2);
    assert_int_equal(u->opd[0].kind, PTX_OPD_VEC);
    assert_int_equal(u->opd[0].nvec, 2);
    assert_int_equal(u->opd[1].imm, 16);
    ptx_module_free(m);
}

/* recursive .func: return value, parameter and two call sequences */
static void test_recursive_frame_and_callseq(void **state)
{
    (void)state;
    ptx_module *m = parse_sample("tests/ptx_samples/basics.ptx");
    int fi = ptx_find_func(m, "_Z3fibi");
    const ptx_func *f = &m->funcs[fi];
    assert_int_equal(f->nrets, 1);
    assert_int_equal(f->rets[0].offset, 0);
    assert_int_equal(f->params[0].offset, 4);
    /* ret 0..4, param 4..8, callseq 0: param0 8, retval0 12; callseq 1 reuses them */
    assert_int_equal(f->frame_size, 16);
    const ptx_uop *ld = insn(m, f, 0);              /* ld.param.u32 %r8, [_Z3fibi_param_0] */
    assert_int_equal(ld->space, PTX_SPACE_LOCAL);
    assert_true(ld->opd[1].flags & PTX_OPD_F_FRAME);
    assert_int_equal(ld->opd[1].imm, 4);
    const ptx_uop *st = insn(m, f, 4);              /* st.param.b32 [param0+0], %r4 */
    assert_int_equal(st->op, PTX_OP_ST);
    assert_int_equal(st->space, PTX_SPACE_LOCAL);
    assert_int_equal(st->opd[0].imm, 8);
    const ptx_uop *call = insn(m, f, 5);
    assert_int_equal(call->op, PTX_OP_CALL);
    assert_int_equal(call->target, (uint32_t)fi);
    assert_true(call->flags & PTX_F_UNI);
    const ptx_call *c = &m->calls[call->aux];
    assert_int_equal(c->callee, (uint32_t)fi);
    assert_int_equal(c->nargs, 1);
    assert_int_equal(c->nrets, 1);
    assert_int_equal(c->arg_off[0], 8);
    assert_int_equal(c->arg_size[0], 4);
    assert_int_equal(c->ret_off[0], 12);
    const ptx_call *c2 = &m->calls[insn(m, f, 9)->aux];
    assert_int_equal(c2->arg_off[0], 8);       /* a new scope: param0 is a new variable */
    assert_int_equal(c2->ret_off[0], 12);
    assert_int_equal(insn(m, f, 10)->opd[1].imm, 12);
    /* the store to func_retval0 and `ret` -> FUNC_END */
    const ptx_uop *sr = insn(m, f, 12);
    assert_int_equal(sr->opd[0].imm, 0);
    const ptx_uop *ret = insn(m, f, 13);
    assert_int_equal(ret->op, PTX_OP_RET);
    assert_int_equal(ret->target, f->uop_end);
    assert_int_equal(ret->rpc, f->uop_end);
    assert_int_equal(m->uops[f->uop_end].op, PTX_OP_FUNC_END);
    assert_int_equal(m->uops[f->uop_end].func, (uint32_t)fi);
    /* kernel calling it: its callseq lives in the kernel's frame */
    const ptx_func *k = func(m, "fib_kernel");
    assert_int_equal(k->frame_size, 16);
    ptx_module_free(m);
}

static void test_shared_layout(void **state)
{
    (void)state;
    ptx_module *m = parse_sample("tests/ptx_samples/basics.ptx");
    int tile = -1;
    for (uint32_t i = 0; i < m->nvars; i++)
        if (strcmp(m->vars[i].name, "_ZZ10reduce_sumE4tile") == 0) tile = (int)i;
    assert_true(tile >= 0);
    assert_true(m->vars[tile].is_func_scope);
    assert_int_equal(m->vars[tile].space, PTX_SPACE_SHARED);
    assert_int_equal(ptx_find_var(m, "_ZZ10reduce_sumE4tile"), -1);  /* not module scope */
    const ptx_func *rs = func(m, "reduce_sum");
    assert_int_equal(rs->shared_off[tile], 0);
    assert_int_equal(rs->shared_size, 1024);
    assert_int_equal(rs->maxntid[0], 256);
    assert_int_equal(rs->maxntid[1], 1);
    assert_int_equal(rs->minnctapersm, 2);
    const ptx_func *va = func(m, "vec_add");
    assert_int_equal(va->shared_off[tile], -1);
    assert_int_equal(va->shared_size, 0);
    int buf = ptx_find_var(m, "buf");
    assert_true(buf >= 0);
    assert_true(m->vars[buf].is_extern);
    assert_int_equal(m->vars[buf].size, 0);
    const ptx_func *ds = func(m, "dyn_shared");
    assert_int_equal(ds->shared_size, 0);
    assert_int_equal(ds->dyn_shared_align, 16);
    assert_int_equal(ds->shared_off[buf], 0);
    ptx_module_free(m);

    /* shared variables reached through a call */
    m = parse_sample("tests/ptx_samples/shared_calls.ptx");
    int common = -1, stage = -1, own = -1;
    for (uint32_t i = 0; i < m->nvars; i++) {
        if (!strcmp(m->vars[i].name, "s_common")) common = (int)i;
        if (!strcmp(m->vars[i].name, "_ZZ5stageiE7s_stage")) stage = (int)i;
        if (!strcmp(m->vars[i].name, "_ZZ10uses_stageE5s_own")) own = (int)i;
    }
    assert_true(common >= 0 && stage >= 0 && own >= 0);
    const ptx_func *us = func(m, "uses_stage");
    assert_int_equal(us->shared_off[common], 0);
    assert_int_equal(us->shared_off[stage], 256);
    assert_int_equal(us->shared_off[own], 512);
    assert_int_equal(us->shared_size, 576);
    const ptx_func *ns = func(m, "no_stage");
    assert_int_equal(ns->shared_off[common], -1);
    assert_int_equal(ns->shared_size, 0);
    ptx_module_free(m);
}

static void test_module_variables(void **state)
{
    (void)state;
    ptx_module *m = parse_sample("tests/ptx_samples/basics.ptx");
    int c = ptx_find_var(m, "c_coef");
    assert_true(c >= 0);
    const ptx_var *v = &m->vars[c];
    assert_int_equal(v->space, PTX_SPACE_CONST);
    assert_int_equal(v->size, 16);
    assert_int_equal(v->align, 4);
    float f[4];
    assert_non_null(v->init);
    memcpy(f, v->init, 16);
    assert_true(f[0] == 1.0f && f[1] == 0.5f && f[2] == -2.0f && f[3] == 3.25f);
    const ptx_var *g = &m->vars[ptx_find_var(m, "g_table")];
    assert_int_equal(g->size, 24);
    assert_int_equal(g->init[20], 6);
    assert_int_equal(g->init[23], 0);
    const ptx_var *cnt = &m->vars[ptx_find_var(m, "g_counter")];
    assert_int_equal(cnt->type, PTX_T_U32);
    assert_null(cnt->init);
    /* ld.global.u32 %r4, [g_table+20] */
    const ptx_func *h = func(m, "hello");
    bool found = false;
    for (uint32_t i = h->uop_begin; i < h->uop_end; i++) {
        const ptx_uop *u = &m->uops[i];
        if (u->op == PTX_OP_LD && u->space == PTX_SPACE_GLOBAL) {
            assert_int_equal(u->opd[1].sym, ptx_find_var(m, "g_table"));
            assert_int_equal(u->opd[1].imm, 20);
            assert_int_equal(u->opd[1].space, PTX_SPACE_GLOBAL);
            found = true;
        }
    }
    assert_true(found);
    ptx_module_free(m);
}

static void test_initializers(void **state)
{
    (void)state;
    ptx_module *m = parse_text(HDR
        ".global .align 8 .f64 d[2] = {1.5, 0d4000000000000000};\n"
        ".global .f32 f[2][2] = {{1, 2.5}, {0f40400000, -1}};\n"
        ".global .s16 h[] = {-1, 2, 3};\n"
        ".global .u32 one = 7;\n"
        ".const .v2 .u32 pair = {5, 6};\n");
    const ptx_var *d = &m->vars[ptx_find_var(m, "d")];
    double dv[2];
    memcpy(dv, d->init, 16);
    assert_true(dv[0] == 1.5 && dv[1] == 2.0);
    const ptx_var *f = &m->vars[ptx_find_var(m, "f")];
    float fv[4];
    assert_int_equal(f->size, 16);
    memcpy(fv, f->init, 16);
    assert_true(fv[0] == 1.0f && fv[1] == 2.5f && fv[2] == 3.0f && fv[3] == -1.0f);
    const ptx_var *h = &m->vars[ptx_find_var(m, "h")];
    assert_int_equal(h->size, 6);
    assert_int_equal(h->init[0], 0xff);
    assert_int_equal(h->init[1], 0xff);
    assert_int_equal(h->init[2], 2);
    assert_int_equal(m->vars[ptx_find_var(m, "one")].init[0], 7);
    const ptx_var *pair = &m->vars[ptx_find_var(m, "pair")];
    assert_int_equal(pair->size, 8);
    assert_int_equal(pair->align, 8);
    assert_int_equal(pair->init[4], 6);
    ptx_module_free(m);
}

static void test_immediates(void **state)
{
    (void)state;
    ptx_module *m = parse_text(HDR
        ".visible .entry k()\n{\n"
        " .reg .f32 %f<5>; .reg .f64 %fd<3>; .reg .b32 %r<8>; .reg .b64 %rd<2>;\n"
        " mov.f32 %f1, 0f3F800000;\n"            /* 0 */
        " mov.f64 %fd1, 0d3FF8000000000000;\n"   /* 1 */
        " mov.f32 %f2, 1.5;\n"                   /* 2 */
        " add.f64 %fd2, %fd1, 0f3F800000;\n"     /* 3 */
        " mov.u32 %r1, 0x10;\n"                  /* 4 */
        " add.s32 %r2, %r1, -8;\n"               /* 5 */
        " mov.u32 %r3, -1;\n"                    /* 6 */
        " mov.b32 %r4, 010;\n"                   /* 7 */
        " mov.b32 %r5, 0b101;\n"                 /* 8 */
        " mov.u64 %rd1, 42U;\n"                  /* 9 */
        " mul.f32 %f3, %f1, 2;\n"                /* 10 */
        " cvt.rn.f32.s32 %f4, -3;\n"             /* 11 */
        " mov.b32 %r6, 0fBF800000;\n"            /* 12 */
        " mov.f32 %f4, -0f3F800000;\n"           /* 13 */
        " ret;\n}\n");
    const ptx_func *f = func(m, "k");
    assert_int_equal(insn(m, f, 0)->opd[1].kind, PTX_OPD_IMM);
    assert_int_equal(insn(m, f, 0)->opd[1].imm, 0x3F800000);
    assert_int_equal((uint64_t)insn(m, f, 1)->opd[1].imm, 0x3FF8000000000000ull);
    assert_int_equal(insn(m, f, 2)->opd[1].imm, 0x3FC00000);
    assert_int_equal((uint64_t)insn(m, f, 3)->opd[2].imm, 0x3FF0000000000000ull);
    assert_int_equal(insn(m, f, 4)->opd[1].imm, 16);
    assert_int_equal(insn(m, f, 5)->opd[2].imm, -8);
    assert_int_equal(insn(m, f, 6)->opd[1].imm, 0xFFFFFFFFll);
    assert_int_equal(insn(m, f, 7)->opd[1].imm, 8);
    assert_int_equal(insn(m, f, 8)->opd[1].imm, 5);
    assert_int_equal(insn(m, f, 9)->opd[1].imm, 42);
    assert_int_equal(insn(m, f, 10)->opd[2].imm, 0x40000000);
    assert_int_equal(insn(m, f, 11)->type, PTX_T_F32);
    assert_int_equal(insn(m, f, 11)->type2, PTX_T_S32);
    assert_int_equal(insn(m, f, 11)->rnd, PTX_RND_RN);
    assert_int_equal(insn(m, f, 11)->opd[1].imm, -3);
    assert_int_equal(insn(m, f, 12)->opd[1].imm, 0xBF800000ll);
    assert_int_equal(insn(m, f, 13)->opd[1].imm, 0xBF800000ll);
    ptx_module_free(m);
}

static void test_operands_guards_addresses(void **state)
{
    (void)state;
    ptx_module *m = parse_text(HDR
        ".global .align 4 .u32 g[4];\n"
        ".visible .entry k(.param .u64 .ptr.global.align 16 k_p0)\n{\n"
        " .reg .pred %p<3>; .reg .f32 %f<4>; .reg .b32 %r<4>; .reg .b64 %rd<3>;\n"
        " ld.param.u64 %rd1, [k_p0];\n"                   /* 0 */
        " @%p1 ld.global.v4.f32 {%f0, _, %f2, %f3}, [%rd1+8];\n" /* 1 */
        " @!%p2 st.global.u32 [%rd1+-8], %r1;\n"          /* 2 */
        " ld.global.u32 %r2, [%rd1-4];\n"                 /* 3 */
        " ld.global.u32 %r2, [g];\n"                      /* 4 */
        " ld.global.u32 %r2, [g+4];\n"                    /* 5 */
        " ld.shared.u32 %r2, [%r1];\n"                    /* 6 */
        " ld.shared.u32 %r2, [8];\n"                      /* 7 */
        " mov.u64 %rd2, g;\n"                             /* 8 */
        " setp.lt.s32 %p1|%p2, %r1, %r2;\n"               /* 9 */
        " selp.b32 %r3, 1, 0, !%p1;\n"                    /* 10 */
        " mov.u64 %rd2, k_p0;\n"                          /* 11 */
        " ret;\n}\n");
    const ptx_func *f = func(m, "k");
    assert_int_equal(f->params[0].is_ptr_space, PTX_SPACE_GLOBAL);
    assert_int_equal(f->params[0].align, 16);
    const ptx_uop *u = insn(m, f, 1);
    assert_int_equal(u->guard, 1);
    assert_int_equal(u->guard_neg, 0);
    assert_int_equal(u->vec, 4);
    assert_int_equal(u->opd[0].kind, PTX_OPD_VEC);
    assert_int_equal(u->opd[0].nvec, 4);
    assert_int_equal(u->opd[0].vreg[0], 0);          /* %f0 is slot 0 */
    assert_int_equal(u->opd[0].vreg[1], -1);
    assert_int_equal(u->opd[1].imm, 8);
    u = insn(m, f, 2);
    assert_int_equal(u->guard, 2);
    assert_int_equal(u->guard_neg, 1);
    assert_int_equal(u->opd[0].imm, -8);
    assert_int_equal(insn(m, f, 3)->opd[1].imm, -4);
    int g = ptx_find_var(m, "g");
    assert_int_equal(insn(m, f, 4)->opd[1].sym, g);
    assert_int_equal(insn(m, f, 4)->opd[1].reg, -1);
    assert_int_equal(insn(m, f, 5)->opd[1].imm, 4);
    assert_int_equal(insn(m, f, 6)->opd[1].reg, 4 + 1);  /* %f<4> then %r1 */
    assert_int_equal(insn(m, f, 7)->opd[1].reg, -1);
    assert_int_equal(insn(m, f, 7)->opd[1].imm, 8);
    assert_int_equal(insn(m, f, 8)->opd[1].kind, PTX_OPD_SYM);
    assert_int_equal(insn(m, f, 8)->opd[1].sym, g);
    u = insn(m, f, 9);
    assert_int_equal(u->opd[0].kind, PTX_OPD_PRED);
    assert_int_equal(u->opd[0].reg, 1);
    assert_int_equal(u->opd[0].reg2, 2);
    assert_int_equal(u->cmp, PTX_CMP_LT);
    u = insn(m, f, 10);
    assert_int_equal(u->opd[3].kind, PTX_OPD_PRED);
    assert_true(u->opd[3].flags & PTX_OPD_F_NEG);
    u = insn(m, f, 11);
    assert_int_equal(u->opd[1].kind, PTX_OPD_SYM);
    assert_int_equal(u->opd[1].space, PTX_SPACE_PARAM);
    ptx_module_free(m);
}

static void test_special_registers(void **state)
{
    (void)state;
    ptx_module *m = parse_text(HDR
        ".visible .entry k()\n{\n .reg .b32 %r<2>; .reg .b64 %rd<2>;\n"
        " mov.u32 %r1, %tid.y;\n mov.u32 %r1, %nctaid.z;\n mov.u32 %r1, %laneid;\n"
        " mov.u64 %rd1, %clock64;\n mov.u32 %r1, %lanemask_lt;\n mov.u32 %r1, WARP_SZ;\n"
        " mov.u32 %r1, %dynamic_smem_size;\n exit;\n}\n");
    const ptx_func *f = func(m, "k");
    static const int want[][2] = {{PTX_SREG_TID, 1}, {PTX_SREG_NCTAID, 2}, {PTX_SREG_LANEID, -1},
                                  {PTX_SREG_CLOCK64, -1}, {PTX_SREG_LANEMASK_LT, -1},
                                  {PTX_SREG_WARPSZ, -1}, {PTX_SREG_DYNAMIC_SMEM_SIZE, -1}};
    for (int i = 0; i < 7; i++) {
        const ptx_operand *o = &insn(m, f, (uint32_t)i)->opd[1];
        assert_int_equal(o->kind, PTX_OPD_SREG);
        assert_int_equal(o->reg, want[i][0]);
        assert_int_equal(o->reg2, want[i][1]);
    }
    ptx_module_free(m);
}

static void test_perf_directives(void **state)
{
    (void)state;
    ptx_module *m = parse_text(HDR
        ".visible .entry k() .reqntid 32, 4 .maxnreg 64 .maxnctapersm 3\n{\n ret;\n}\n"
        ".entry k2() .maxntid 128 .noreturn\n{\n exit;\n}\n");
    const ptx_func *f = func(m, "k");
    assert_int_equal(f->reqntid[0], 32);
    assert_int_equal(f->reqntid[1], 4);
    assert_int_equal(f->reqntid[2], 1);
    assert_int_equal(f->maxnreg, 64);
    assert_int_equal(f->maxnctapersm, 3);
    assert_int_equal(func(m, "k2")->maxntid[0], 128);
    assert_int_equal(func(m, "k2")->maxntid[1], 1);
    ptx_module_free(m);
}

static void test_modifiers(void **state)
{
    (void)state;
    ptx_module *m = parse_text(HDR
        ".visible .entry k(.param .u64 k_p)\n{\n"
        " .reg .pred %p<4>; .reg .b32 %r<8>; .reg .b64 %rd<4>; .reg .f32 %f<4>;\n"
        " atom.global.cas.b32 %r1, [%rd1], %r2, %r3;\n"          /* 0 */
        " shfl.sync.bfly.b32 %r1|%p1, %r2, 1, 31, -1;\n"         /* 1 */
        " vote.sync.ballot.b32 %r1, %p1, -1;\n"                  /* 2 */
        " bar.red.popc.u32 %r1, 0, %p1;\n"                       /* 3 */
        " bar.warp.sync -1;\n"                                   /* 4 */
        " prmt.b32.f4e %r1, %r2, %r3, %r4;\n"                    /* 5 */
        " shf.l.clamp.b32 %r1, %r2, %r3, %r4;\n"                 /* 6 */
        " bfind.shiftamt.u32 %r1, %r2;\n"                        /* 7 */
        " min.NaN.f32 %f1, %f2, %f3;\n"                          /* 8 */
        " testp.notanumber.f32 %p2, %f1;\n"                      /* 9 */
        " cvta.to.global.u64 %rd1, %rd2;\n"                      /* 10 */
        " ld.global.nc.L1::evict_last.u32 %r1, [%rd1];\n"        /* 11 */
        " setp.gtu.and.ftz.f32 %p1, %f1, %f2, !%p3;\n"           /* 12 */
        " set.gt.u32.f32 %r1, %f1, %f2;\n"                       /* 13 */
        " mul.wide.u32 %rd1, %r1, %r2;\n"                        /* 14 */
        " red.global.add.u64 [%rd1], %rd2;\n"                    /* 15 */
        " redux.sync.max.s32 %r1, %r2, -1;\n"                    /* 16 */
        " match.any.sync.b32 %r1, %r2, -1;\n"                    /* 17 */
        " barrier.sync.aligned 1, 64;\n"                         /* 18 */
        " membar.gl;\n"                                          /* 19 */
        " fence.acq_rel.gpu;\n"                                  /* 20 */
        " dp4a.u32.s32 %r1, %r2, %r3, %r4;\n"                    /* 21 */
        " lop3.b32 %r1, %r2, %r3, %r4, 0x96;\n"                  /* 22 */
        " div.full.f32 %f1, %f2, %f3;\n"                         /* 23 */
        " cvt.rzi.ftz.sat.s32.f32 %r1, %f1;\n"                   /* 24 */
        " add.cc.u32 %r1, %r2, %r3;\n addc.u32 %r1, %r2, %r3;\n" /* 25, 26 */
        " ld.volatile.shared::cta.v2.u32 {%r1, %r2}, [%r3];\n"    /* 27 */
        " activemask.b32 %r1;\n nanosleep.u32 100;\n"             /* 28, 29 */
        " vote.any.pred %p1, !%p2;\n"                            /* 30 */
        " mov.b64 %rd1, {%r1, %r2};\n"                           /* 31 */
        " ret;\n}\n");
    const ptx_func *f = func(m, "k");
    const ptx_uop *u = insn(m, f, 0);
    assert_int_equal(u->op, PTX_OP_ATOM);
    assert_int_equal(u->sub, PTX_ATOM_CAS);
    assert_int_equal(u->space, PTX_SPACE_GLOBAL);
    assert_int_equal(u->type, PTX_T_B32);
    assert_int_equal(u->nopd, 4);
    u = insn(m, f, 1);
    assert_int_equal(u->sub, PTX_SHFL_BFLY);
    assert_true(u->flags & PTX_F_SYNC);
    assert_int_equal(u->opd[0].reg2, 1);
    assert_int_equal(u->opd[4].imm, 0xFFFFFFFFll);
    assert_int_equal(insn(m, f, 2)->sub, PTX_VOTE_BALLOT);
    u = insn(m, f, 3);
    assert_int_equal(u->op, PTX_OP_BAR);
    assert_int_equal(u->sub, PTX_BAR_RED_POPC);
    assert_int_equal(u->type, PTX_T_U32);
    u = insn(m, f, 4);
    assert_int_equal(u->op, PTX_OP_BARWARP);
    assert_true(u->flags & PTX_F_SYNC);
    assert_int_equal(insn(m, f, 5)->sub, PTX_PRMT_F4E);
    u = insn(m, f, 6);
    assert_int_equal(u->sub, PTX_SHF_L);
    assert_true(u->flags & PTX_F_CLAMP);
    assert_true(insn(m, f, 7)->flags & PTX_F_SHIFTAMT);
    assert_true(insn(m, f, 8)->flags & PTX_F_NAN);
    assert_int_equal(insn(m, f, 9)->sub, PTX_TESTP_NOTANUMBER);
    u = insn(m, f, 10);
    assert_int_equal(u->sub, PTX_CVTA_FROM_GENERIC);
    assert_int_equal(u->space, PTX_SPACE_GLOBAL);
    u = insn(m, f, 11);
    assert_true(u->flags & PTX_F_NC);
    assert_true(u->flags & PTX_F_CACHEHINT);
    u = insn(m, f, 12);
    assert_int_equal(u->cmp, PTX_CMP_GTU);
    assert_int_equal(u->bop, PTX_BOP_AND);
    assert_true(u->flags & PTX_F_FTZ);
    assert_int_equal(u->type2, PTX_T_F32);
    assert_int_equal(u->nopd, 4);
    u = insn(m, f, 13);
    assert_int_equal(u->type, PTX_T_U32);
    assert_int_equal(u->type2, PTX_T_F32);
    assert_int_equal(insn(m, f, 14)->sub, PTX_MUL_WIDE);
    assert_int_equal(insn(m, f, 15)->op, PTX_OP_RED);
    assert_int_equal(insn(m, f, 15)->sub, PTX_ATOM_ADD);
    assert_int_equal(insn(m, f, 16)->sub, PTX_ATOM_MAX);
    assert_int_equal(insn(m, f, 17)->sub, PTX_MATCH_ANY);
    u = insn(m, f, 18);
    assert_int_equal(u->op, PTX_OP_BARRIER);
    assert_int_equal(u->sub, PTX_BAR_SYNC);
    assert_true(u->flags & PTX_F_ALIGNED);
    assert_int_equal(u->nopd, 2);
    assert_int_equal(insn(m, f, 19)->op, PTX_OP_MEMBAR);
    assert_int_equal(insn(m, f, 20)->op, PTX_OP_FENCE);
    u = insn(m, f, 21);
    assert_int_equal(u->type2, PTX_T_U32);
    assert_int_equal(u->type, PTX_T_S32);
    assert_int_equal(insn(m, f, 22)->opd[4].imm, 0x96);
    assert_true(insn(m, f, 23)->flags & PTX_F_FULL);
    u = insn(m, f, 24);
    assert_int_equal(u->rnd, PTX_RND_RZI);
    assert_true((u->flags & (PTX_F_FTZ | PTX_F_SAT)) == (PTX_F_FTZ | PTX_F_SAT));
    assert_true(insn(m, f, 25)->flags & PTX_F_CC);
    assert_int_equal(insn(m, f, 26)->op, PTX_OP_ADDC);
    u = insn(m, f, 27);
    assert_true(u->flags & PTX_F_VOLATILE);
    assert_int_equal(u->space, PTX_SPACE_SHARED);
    assert_int_equal(u->vec, 2);
    assert_int_equal(insn(m, f, 28)->op, PTX_OP_ACTIVEMASK);
    assert_int_equal(insn(m, f, 29)->opd[0].imm, 100);
    u = insn(m, f, 30);
    assert_int_equal(u->sub, PTX_VOTE_ANY);
    assert_false(u->flags & PTX_F_SYNC);
    assert_int_equal(insn(m, f, 31)->opd[1].kind, PTX_OPD_VEC);
    ptx_module_free(m);
}

static void test_debug_sections_skipped(void **state)
{
    (void)state;
    ptx_module *m = parse_sample("tests/ptx_samples/control_debug_sm75.ptx");
    assert_string_equal(m->target, "sm_75");
    const ptx_func *sq = func(m, "sqrt");   /* declared first, defined later */
    assert_false(sq->is_extern);
    assert_true(sq->uop_end > sq->uop_begin);
    assert_int_equal(func(m, "calls")->is_entry, true);
    ptx_module_free(m);
}

/* a wide nvcc sample: atomics on doubles, block reductions, assert, trap */
static void test_features_sample(void **state)
{
    (void)state;
    ptx_module *m = parse_sample("tests/ptx_samples/features.ptx");
    const ptx_func *af = func(m, "__assertfail");
    assert_true(af->is_extern);
    assert_int_equal(af->nparams, 5);
    const ptx_func *k2 = func(m, "_Z2k2Pi");
    assert_true(k2->uses_printf);
    int seen_or = 0, seen_f64 = 0, seen_trap = 0, seen_clock = 0;
    for (uint32_t i = 0; i < m->nuops; i++) {
        const ptx_uop *u = &m->uops[i];
        if (u->op == PTX_OP_BAR && u->sub == PTX_BAR_RED_OR) {
            assert_int_equal(u->type, PTX_T_PRED);
            assert_int_equal(u->opd[0].kind, PTX_OPD_PRED);
            seen_or++;
        }
        if (u->op == PTX_OP_ATOM && u->type == PTX_T_F64 && u->sub == PTX_ATOM_ADD) seen_f64++;
        if (u->op == PTX_OP_TRAP) seen_trap++;
        if (u->op == PTX_OP_MOV && u->opd[1].kind == PTX_OPD_SREG && u->opd[1].reg == PTX_SREG_CLOCK64)
            seen_clock++;
    }
    assert_true(seen_or == 1 && seen_f64 == 1 && seen_trap == 1 && seen_clock == 2);
    ptx_module_free(m);
}

/* a declaration after the definition changes nothing; kernels cannot be called */
static void test_redeclaration(void **state)
{
    (void)state;
    ptx_module *m = parse_text(HDR
        ".func (.param .b32 r) f(.param .b32 a)\n{\n .local .align 4 .b8 d[32];\n ret;\n}\n"
        ".func (.param .b32 r) f(.param .b32 b);\n");
    const ptx_func *f = func(m, "f");
    assert_false(f->is_extern);
    assert_int_equal(f->frame_size, 48);          /* r 0..4, a 4..8, d 8..40 */
    assert_string_equal(f->params[0].name, "b");
    int d = -1;
    for (uint32_t i = 0; i < m->nvars; i++)
        if (!strcmp(m->vars[i].name, "d")) d = (int)i;
    assert_true(d >= 0);
    assert_int_equal(m->vars[d].space, PTX_SPACE_LOCAL);
    assert_int_equal(m->vars[d].frame_off, 8);
    assert_int_equal(m->vars[d].func, 0);
    ptx_module_free(m);
}

static void test_print_uop(void **state)
{
    (void)state;
    ptx_module *m = parse_sample("tests/ptx_samples/basics.ptx");
    const ptx_func *f = func(m, "vec_add");
    char *buf = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&buf, &len);
    for (uint32_t i = f->uop_begin; i <= f->uop_end; i++) {
        ptx_print_uop(out, m, &m->uops[i]);
        fputc('\n', out);
    }
    fclose(out);
    assert_non_null(strstr(buf, "mad.lo.s32 %r1, %r3, %r4, %r5"));
    assert_non_null(strstr(buf, "mov.u32 %r5, %tid.x"));
    assert_non_null(strstr(buf, "@%p1 bra"));
    assert_non_null(strstr(buf, "ld.const.f32 %f1, [%rd12]"));
    assert_non_null(strstr(buf, "<func-end>"));
    free(buf);
    ptx_module_free(m);
}

static void test_parse_file_io_error(void **state)
{
    (void)state;
    ptx_error err;
    assert_null(ptx_parse_file("/nonexistent/dir/x.ptx", &err));
    assert_non_null(strstr(err.msg, "/nonexistent/dir/x.ptx"));
    assert_non_null(strstr(err.msg, "No such file"));
}

/* .reg .v4 / .v2: elements are consecutive slots; %v.x (or .r) names one,
   %v alone is a vector operand, and elements can build vector operands. */
static void test_vector_registers(void **state)
{
    (void)state;
    ptx_module *m = parse_text(HDR
        ".visible .entry k(.param .u64 out)\n{\n"
        "\t.reg .v4 .f32 %v<2>;\n\t.reg .v2 .b32 %w;\n\t.reg .b64 %rd<2>;\n"
        "\tld.param.u64 %rd1, [out];\n"
        "\tmov.f32 %v1.z, 0f3F800000;\n"
        "\tadd.f32 %v0.r, %v1.b, %v1.a;\n"
        "\tst.global.v4.f32 [%rd1], %v1;\n"
        "\tst.global.v2.b32 [%rd1], {%w.y, %w.x};\n"
        "\tret;\n}\n");
    const ptx_func *f = func(m, "k");
    assert_int_equal(f->nregs, 4 + 4 + 2 + 2);
    assert_string_equal(f->reg_names[6], "%v1.z");
    const ptx_uop *u = insn(m, f, 1);             /* mov.f32 %v1.z */
    assert_int_equal(u->opd[0].kind, PTX_OPD_REG);
    assert_int_equal(u->opd[0].reg, 6);
    u = insn(m, f, 2);                             /* add.f32 %v0.r, %v1.b, %v1.a */
    assert_int_equal(u->opd[0].reg, 0);
    assert_int_equal(u->opd[1].reg, 6);
    assert_int_equal(u->opd[2].reg, 7);
    u = insn(m, f, 3);                             /* st.global.v4.f32 [..], %v1 */
    assert_int_equal(u->opd[1].kind, PTX_OPD_VEC);
    assert_int_equal(u->opd[1].nvec, 4);
    assert_int_equal(u->opd[1].vreg[0], 4);
    assert_int_equal(u->opd[1].vreg[3], 7);
    u = insn(m, f, 4);                             /* {%w.y, %w.x} */
    assert_int_equal(u->opd[1].nvec, 2);
    assert_int_equal(u->opd[1].vreg[0], 9);
    assert_int_equal(u->opd[1].vreg[1], 8);
    ptx_module_free(m);

    ptx_error err;
    const char *bad = HDR ".entry k()\n{\n\t.reg .v2 .f32 %v;\n\tmov.f32 %v.z, 0f00000000;\n\tret;\n}\n";
    assert_null(ptx_parse(bad, strlen(bad), "bad.ptx", &err));
    assert_non_null(strstr(err.msg, "bad.ptx:7:12: error: bad element '.z' of the 2-element vector register '%v'"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_all_samples_parse),
        cmocka_unit_test(test_module_header_and_functions),
        cmocka_unit_test(test_struct_param_and_local_depot),
        cmocka_unit_test(test_recursive_frame_and_callseq),
        cmocka_unit_test(test_shared_layout),
        cmocka_unit_test(test_module_variables),
        cmocka_unit_test(test_initializers),
        cmocka_unit_test(test_immediates),
        cmocka_unit_test(test_operands_guards_addresses),
        cmocka_unit_test(test_special_registers),
        cmocka_unit_test(test_perf_directives),
        cmocka_unit_test(test_modifiers),
        cmocka_unit_test(test_debug_sections_skipped),
        cmocka_unit_test(test_features_sample),
        cmocka_unit_test(test_redeclaration),
        cmocka_unit_test(test_print_uop),
        cmocka_unit_test(test_parse_file_io_error),
        cmocka_unit_test(test_vector_registers),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
