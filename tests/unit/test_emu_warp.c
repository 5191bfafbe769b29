/*
** test_emu_warp.c -- the emulator's warp interface as the timing model
** will drive it: emu_cta_init, emu_warp_step one instruction at a time,
** emu_step_info (mask, per-lane addresses), the SIMT stack depth under
** divergence, instruction counting, and emu_warp_next at the end.
*/
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "ptx/ptx.h"
#include "emu/emu.h"

static const char warp_ptx[] =
    ".version 7.0\n"
    ".target sm_75\n"
    ".address_size 64\n"
    "\n"
    ".visible .entry k(.param .u64 p)\n"
    "{\n"
    "    .reg .b32 %r<4>;\n"
    "    .reg .b64 %rd<4>;\n"
    "    .reg .pred %p<2>;\n"
    "    ld.param.u64 %rd1, [p];\n"                /* 0 */
    "    mov.u32 %r1, %tid.x;\n"                    /* 1 */
    "    mul.wide.u32 %rd2, %r1, 4;\n"              /* 2 */
    "    add.s64 %rd3, %rd1, %rd2;\n"               /* 3 */
    "    ld.global.u32 %r2, [%rd3];\n"              /* 4 */
    "    setp.lt.u32 %p1, %r1, 10;\n"               /* 5 */
    "    @%p1 bra SMALL;\n"                         /* 6 */
    "    add.u32 %r2, %r2, 100;\n"                  /* 7 */
    "    bra.uni JOIN;\n"                           /* 8 */
    "SMALL:\n"
    "    add.u32 %r2, %r2, 1;\n"                    /* 9 */
    "JOIN:\n"
    "    st.global.u32 [%rd3], %r2;\n"              /* 10 */
    "    ret;\n"                                    /* 11 */
    "}\n";

typedef struct wfx {
    ptx_module *m;
    emu_mem *mem;
    emu_launch l;
    emu_cta cta;
    uint8_t params[8];
    uint64_t buf;
} wfx;

static void wfx_open(wfx *f, uint32_t threads)
{
    memset(f, 0, sizeof *f);
    ptx_error err;
    f->m = ptx_parse(warp_ptx, sizeof warp_ptx - 1, "warp.ptx", &err);
    if (!f->m) fail_msg("%s", err.msg);
    f->mem = emu_mem_new();
    assert_int_equal(emu_mem_alloc(f->mem, 4 * 64, 256, EMU_ALLOC_DEVICE, NULL, &f->buf), 0);
    uint32_t init[64];
    for (int i = 0; i < 64; i++) init[i] = (uint32_t)i * 1000;
    emu_mem_write(f->mem, f->buf, init, sizeof init);
    memcpy(f->params, &f->buf, 8);
    f->l.mod = f->m;
    f->l.func = (uint32_t)ptx_find_func(f->m, "k");
    f->l.grid[0] = f->l.grid[1] = f->l.grid[2] = 1;
    f->l.block[0] = threads; f->l.block[1] = f->l.block[2] = 1;
    f->l.params = f->params;
    f->l.gmem = f->mem;
    f->l.stack_bytes = 256;
    static const uint64_t no_syms[1];
    f->l.sym_base = no_syms;
    assert_int_equal(emu_cta_init(&f->cta, &f->l, 0), 0);
}

static void wfx_close(wfx *f)
{
    emu_cta_release(&f->cta);
    emu_mem_free(f->mem);
    ptx_module_free(f->m);
}

static void test_step_info_and_divergence(void **state)
{
    (void)state;
    wfx f;
    wfx_open(&f, 20);                 /* one partial warp: lanes 0..19 */
    emu_warp *w = &f.cta.warps[0];
    assert_int_equal(f.cta.nwarps, 1);
    assert_int_equal(w->lanes, 0xfffff);
    const ptx_func *k = &f.m->funcs[f.l.func];
    assert_ptr_equal(emu_warp_next(w), &f.m->uops[k->uop_begin]);
    emu_step_info info;
    for (int i = 0; i < 4; i++) assert_int_equal(emu_warp_step(w, &info), 0);
    /* the global load: full mask, 4 bytes per lane, consecutive addresses */
    assert_int_equal(emu_warp_step(w, &info), 0);
    assert_int_equal(info.uop->op, PTX_OP_LD);
    assert_int_equal(info.mask, 0xfffff);
    assert_int_equal(info.nbytes, 4);
    for (int l = 0; l < 20; l++) assert_true(info.addr[l] == f.buf + 4 * (uint64_t)l);
    assert_int_equal(emu_warp_step(w, &info), 0);    /* setp */
    assert_int_equal(emu_warp_step(w, &info), 0);    /* @p bra: diverges */
    assert_int_equal(info.uop->op, PTX_OP_BRA);
    assert_int_equal(info.mask, 0x3ff);
    assert_int_equal(w->simt_n, 3);
    /* the taken path (lanes 0..9) runs first */
    assert_int_equal(emu_warp_step(w, &info), 0);
    assert_int_equal(info.mask, 0x3ff);
    assert_int_equal(w->simt_n, 2);                  /* reached JOIN: popped */
    assert_int_equal(emu_warp_step(w, &info), 0);
    assert_int_equal(info.mask, 0xffc00);
    assert_int_equal(emu_warp_step(w, &info), 0);    /* bra.uni JOIN */
    assert_int_equal(w->simt_n, 1);                  /* reconverged */
    assert_int_equal(emu_warp_step(w, &info), 0);    /* st */
    assert_int_equal(info.uop->op, PTX_OP_ST);
    assert_int_equal(info.mask, 0xfffff);
    while (emu_warp_next(w)) assert_int_equal(emu_warp_step(w, NULL), 0);
    assert_int_equal(w->state, EMU_W_DONE);
    /* 13 issued instructions: 6 + the branch (its guard holds in 10 lanes)
       + 3 on the two paths + st, ret (the function's end is no instruction:
       the warp is done after ret); thread counts follow masks */
    assert_int_equal(w->warp_insns, 12);
    assert_int_equal(w->thread_insns, 6 * 20 + 10 + 10 + 10 + 10 + 20 + 20);
    uint32_t out[20];
    emu_mem_read(f.mem, f.buf, out, sizeof out);
    for (int i = 0; i < 20; i++) assert_int_equal(out[i], i * 1000 + (i < 10 ? 1 : 100));
    wfx_close(&f);
}

static void test_guard_false_everywhere(void **state)
{
    (void)state;
    wfx f;
    wfx_open(&f, 64);
    emu_warp *w = &f.cta.warps[1];   /* threads 32..63: nobody takes SMALL */
    emu_step_info info;
    for (int i = 0; i < 6; i++) assert_int_equal(emu_warp_step(w, &info), 0);
    assert_int_equal(emu_warp_step(w, &info), 0);    /* @p bra with p false */
    assert_int_equal(info.mask, 0);
    assert_int_equal(w->simt_n, 1);
    assert_int_equal(emu_warp_next(w)->op, PTX_OP_ADD);
    assert_int_equal(emu_cta_run(&f.cta), 0);
    uint32_t out[64];
    emu_mem_read(f.mem, f.buf, out, sizeof out);
    for (int i = 0; i < 64; i++) assert_int_equal(out[i], i * 1000 + (i < 10 ? 1 : 100));
    wfx_close(&f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_step_info_and_divergence),
        cmocka_unit_test(test_guard_false_everywhere),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
