/*
** test_ptx_cfg.c -- basic blocks, immediate post-dominators and the
** reconvergence pc (rpc) of branches and returns, on hand-written PTX
** whose shapes are the ones nvcc produces for if/else, loops and returns.
*/
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "ptx/ptx.h"

#define HDR ".version 8.0\n.target sm_80\n.address_size 64\n"
#define DECLS " .reg .pred %p<5>; .reg .b32 %r<10>;\n"

static ptx_module *parse_text(const char *text)
{
    ptx_error err;
    ptx_module *m = ptx_parse(text, strlen(text), "cfg.ptx", &err);
    if (!m) fail_msg("%s", err.msg);
    return m;
}

/* uop index of the first instruction on source line `line` */
static uint32_t at_line(const ptx_module *m, uint32_t line)
{
    for (uint32_t i = 0; i < m->nuops; i++)
        if (m->uops[i].line == line && m->uops[i].op != PTX_OP_FUNC_END) return i;
    fail_msg("no instruction on line %u", line);
    return 0;
}

/*
**  7 setp  8 @p bra ELSE  9 then  10 bra.uni END  11 ELSE: 12 else  13 END: 14 add  15 ret
*/
static void test_if_else(void **state)
{
    (void)state;
    ptx_module *m = parse_text(HDR ".entry k()\n{\n" DECLS
        " setp.eq.s32 %p1, %r1, 0;\n"   /* 7 */
        " @%p1 bra ELSE;\n"             /* 8 */
        " add.s32 %r2, %r1, 1;\n"       /* 9 */
        " bra.uni END;\n"               /* 10 */
        "ELSE:\n"                       /* 11 */
        " add.s32 %r2, %r1, 2;\n"       /* 12 */
        "END:\n"                        /* 13 */
        " add.s32 %r3, %r2, %r2;\n"     /* 14 */
        " ret;\n}\n");                  /* 15 */
    const ptx_func *f = &m->funcs[0];
    uint32_t end = at_line(m, 14);
    assert_int_equal(m->uops[at_line(m, 8)].target, at_line(m, 12));
    assert_int_equal(m->uops[at_line(m, 8)].rpc, end);
    assert_int_equal(m->uops[at_line(m, 10)].rpc, end);
    assert_int_equal(m->uops[at_line(m, 15)].rpc, f->uop_end);
    /* blocks: [5,6] [7,8] [10] [12,13] [FUNC_END] */
    assert_int_equal(f->nblocks, 5);
    assert_int_equal(f->blocks[0].succ[0], 2);
    assert_int_equal(f->blocks[0].succ[1], 1);
    assert_int_equal(f->blocks[0].ipdom, 3);
    assert_int_equal(f->blocks[1].succ[0], 3);
    assert_int_equal(f->blocks[1].succ[1], -1);
    assert_int_equal(f->blocks[3].succ[0], 4);
    assert_int_equal(f->blocks[4].ipdom, -1);
    assert_int_equal(f->blocks[4].first, f->uop_end);
    ptx_module_free(m);
}

static void test_nested_if(void **state)
{
    (void)state;
    ptx_module *m = parse_text(HDR ".entry k()\n{\n" DECLS
        " setp.eq.s32 %p1, %r1, 0;\n"   /* 7 */
        " @%p1 bra OUT;\n"              /* 8 */
        " setp.eq.s32 %p2, %r2, 0;\n"   /* 9 */
        " @%p2 bra INNER_END;\n"        /* 10 */
        " add.s32 %r3, %r3, 1;\n"       /* 11 */
        "INNER_END:\n"                  /* 12 */
        " add.s32 %r4, %r4, 1;\n"       /* 13 */
        "OUT:\n"                        /* 14 */
        " add.s32 %r5, %r4, 1;\n"       /* 15 */
        " ret;\n}\n");
    assert_int_equal(m->uops[at_line(m, 8)].rpc, at_line(m, 15));
    assert_int_equal(m->uops[at_line(m, 10)].rpc, at_line(m, 13));
    ptx_module_free(m);
}

/* for (...) { if (a) continue; ...; if (b) break; } */
static void test_loop_break_continue(void **state)
{
    (void)state;
    ptx_module *m = parse_text(HDR ".entry k()\n{\n" DECLS
        " mov.u32 %r1, 0;\n"              /* 7 */
        "LOOP:\n"                         /* 8 */
        " setp.eq.s32 %p1, %r2, 0;\n"     /* 9 */
        " @%p1 bra CONT;\n"               /* 10: continue */
        " add.s32 %r3, %r3, 1;\n"         /* 11 */
        " setp.gt.s32 %p2, %r3, 9;\n"     /* 12 */
        " @%p2 bra EXIT_LOOP;\n"          /* 13: break */
        "CONT:\n"                         /* 14 */
        " add.s32 %r1, %r1, 1;\n"         /* 15 */
        " setp.lt.s32 %p3, %r1, 10;\n"    /* 16 */
        " @%p3 bra LOOP;\n"               /* 17: back edge */
        "EXIT_LOOP:\n"                    /* 18 */
        " add.s32 %r4, %r3, 1;\n"         /* 19 */
        " ret;\n}\n");
    uint32_t after = at_line(m, 19);
    /* a break leaves the loop, so the paths only meet after it */
    assert_int_equal(m->uops[at_line(m, 10)].rpc, after);
    assert_int_equal(m->uops[at_line(m, 13)].rpc, after);
    assert_int_equal(m->uops[at_line(m, 17)].rpc, after);
    ptx_module_free(m);
}

/* if (t >= n) return; ... -- both as a branch to `ret` and as @p ret */
static void test_early_and_conditional_return(void **state)
{
    (void)state;
    ptx_module *m = parse_text(HDR
        ".func f()\n{\n" DECLS
        " setp.ge.s32 %p1, %r1, %r2;\n"   /* 7 */
        " @%p1 bra DONE;\n"               /* 8 */
        " add.s32 %r3, %r1, 1;\n"         /* 9 */
        "DONE:\n"                         /* 10 */
        " ret;\n}\n"                      /* 11 */
        ".func g()\n{\n" DECLS
        " setp.ge.s32 %p1, %r1, %r2;\n"   /* 16 */
        " @%p1 ret;\n"                    /* 17 */
        " add.s32 %r3, %r1, 1;\n"         /* 18 */
        " setp.eq.s32 %p2, %r3, 5;\n"     /* 19 */
        " @%p2 bra SKIP;\n"               /* 20 */
        " add.s32 %r4, %r1, 1;\n"         /* 21 */
        "SKIP:\n"                         /* 22 */
        " ret;\n}\n");                    /* 23 */
    const ptx_func *f = &m->funcs[0], *g = &m->funcs[1];
    assert_int_equal(m->uops[at_line(m, 8)].rpc, at_line(m, 11));
    assert_int_equal(m->uops[at_line(m, 11)].rpc, f->uop_end);
    const ptx_uop *cr = &m->uops[at_line(m, 17)];
    assert_int_equal(cr->op, PTX_OP_RET);
    assert_int_equal(cr->guard, 1);
    assert_int_equal(cr->target, g->uop_end);
    assert_int_equal(cr->rpc, g->uop_end);
    assert_int_equal(m->uops[at_line(m, 20)].rpc, at_line(m, 23));
    ptx_module_free(m);
}

/* exit in one path: the paths meet only at the virtual exit -> FUNC_END */
static void test_exit_and_infinite_loop(void **state)
{
    (void)state;
    ptx_module *m = parse_text(HDR ".entry k()\n{\n" DECLS
        " setp.eq.s32 %p1, %r1, 0;\n"     /* 7 */
        " @%p1 bra SPIN;\n"               /* 8 */
        " setp.eq.s32 %p2, %r2, 0;\n"     /* 9 */
        " @%p2 bra QUIT;\n"               /* 10 */
        " add.s32 %r3, %r1, 1;\n"         /* 11 */
        " ret;\n"                         /* 12 */
        "QUIT:\n"                         /* 13 */
        " exit;\n"                        /* 14 */
        "SPIN:\n"                         /* 15 */
        " add.s32 %r4, %r4, 1;\n"         /* 16 */
        " bra.uni SPIN;\n}\n");           /* 17 */
    const ptx_func *f = &m->funcs[0];
    assert_int_equal(m->uops[at_line(m, 10)].rpc, f->uop_end);
    assert_int_equal(m->uops[at_line(m, 8)].rpc, f->uop_end);
    assert_int_equal(m->uops[at_line(m, 17)].rpc, f->uop_end);
    ptx_module_free(m);
}

/* nvcc output: rpcs of a real loop with break/continue */
static void test_nvcc_loop(void **state)
{
    (void)state;
    const char *path = WS_SOURCE_DIR "/tests/ptx_samples/control.ptx";
    ptx_error err;
    ptx_module *m = ptx_parse_file(path, &err);
    if (!m) fail_msg("%s", err.msg);
    const ptx_func *f = &m->funcs[ptx_find_func(m, "loop_break_continue")];
    uint32_t nbra = 0;
    for (uint32_t i = f->uop_begin; i < f->uop_end; i++) {
        const ptx_uop *u = &m->uops[i];
        if (u->op != PTX_OP_BRA) continue;
        nbra++;
        assert_true(u->rpc > i || u->rpc == u->target);
        assert_true(u->rpc <= f->uop_end);
        /* every branch of this loop reconverges at the store after it */
        assert_int_equal(m->uops[u->rpc].op, PTX_OP_MUL);
    }
    assert_true(nbra >= 4);
    ptx_module_free(m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_if_else),
        cmocka_unit_test(test_nested_if),
        cmocka_unit_test(test_loop_break_continue),
        cmocka_unit_test(test_early_and_conditional_return),
        cmocka_unit_test(test_exit_and_infinite_loop),
        cmocka_unit_test(test_nvcc_loop),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
