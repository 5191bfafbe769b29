/*
** test_emu_altstream.c -- the alternate issue stream (emu/altstream.c),
** as HAWS will drive it: a warp stalled at a use of a long-latency load
** runs independent uops ahead (one of them renamed because a skipped
** earlier uop still reads its destination, a load, a predicate, a
** divergent branch on the shadow stack), then returns to program order,
** skipping what ran ahead and copying the renamed result.  Memory and
** every counter must equal a plain in-order run, bit for bit.
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

static const char alt_ptx[] =
    ".version 7.0\n.target sm_75\n.address_size 64\n\n"
    ".visible .entry k(.param .u64 p)\n{\n"
    "    .reg .b32 %r<10>;\n    .reg .b64 %rd<6>;\n    .reg .pred %p<2>;\n"
    "    ld.param.u64 %rd1, [p];\n"              /*  0 */
    "    mov.u32 %r1, %tid.x;\n"                  /*  1 */
    "    mov.u32 %r5, 7;\n"                       /*  2 */
    "    mul.wide.u32 %rd2, %r1, 4;\n"            /*  3 */
    "    add.s64 %rd3, %rd1, %rd2;\n"             /*  4 */
    "    add.s64 %rd4, %rd3, 256;\n"              /*  5 */
    "    ld.global.u32 %r2, [%rd3];\n"            /*  6  long-latency load */
    "    add.u32 %r3, %r2, %r5;\n"                /*  7  stall point S: reads r2, r5 */
    "    mul.lo.u32 %r4, %r1, 3;\n"               /*  8  independent */
    "    add.u32 %r5, %r1, 2;\n"                  /*  9  independent, WAR on r5: renamed */
    "    ld.global.u32 %r6, [%rd4];\n"            /* 10  independent load */
    "    setp.lt.u32 %p1, %r1, 16;\n"             /* 11  independent */
    "    @%p1 bra SMALL;\n"                       /* 12  divergent, on the shadow stack */
    "    add.u32 %r7, %r4, 100;\n"                /* 13 */
    "    bra.uni JOIN;\n"                         /* 14 */
    "SMALL:\n"
    "    add.u32 %r7, %r4, 1;\n"                  /* 15 */
    "JOIN:\n"
    "    add.u32 %r8, %r3, %r7;\n"                /* 16 */
    "    add.u32 %r8, %r8, %r5;\n"                /* 17 */
    "    add.u32 %r8, %r8, %r6;\n"                /* 18 */
    "    st.global.u32 [%rd3], %r8;\n"            /* 19 */
    "    ret;\n"                                  /* 20 */
    "}\n";

enum { S = 7, RENAMED = 9, BRANCH = 12, STORE = 19 };

typedef struct afx {
    ptx_module *m;
    emu_mem *mem;
    emu_launch l;
    emu_cta cta;
    uint8_t params[8];
    uint64_t buf;
    uint32_t begin;          /* the kernel's first uop */
} afx;

static void afx_open(afx *f)
{
    memset(f, 0, sizeof *f);
    ptx_error err;
    f->m = ptx_parse(alt_ptx, sizeof alt_ptx - 1, "alt.ptx", &err);
    if (!f->m) fail_msg("%s", err.msg);
    f->mem = emu_mem_new();
    assert_int_equal(emu_mem_alloc(f->mem, 4 * 128, 256, EMU_ALLOC_DEVICE, NULL, &f->buf), 0);
    uint32_t init[128];
    for (int i = 0; i < 128; i++) init[i] = (uint32_t)i * 1000 + 3;
    emu_mem_write(f->mem, f->buf, init, sizeof init);
    memcpy(f->params, &f->buf, 8);
    f->l.mod = f->m;
    f->l.func = (uint32_t)ptx_find_func(f->m, "k");
    f->l.grid[0] = f->l.grid[1] = f->l.grid[2] = 1;
    f->l.block[0] = 32; f->l.block[1] = f->l.block[2] = 1;
    f->l.params = f->params;
    f->l.gmem = f->mem;
    f->l.stack_bytes = 256;
    static const uint64_t no_syms[1];
    f->l.sym_base = no_syms;
    f->begin = f->m->funcs[f->l.func].uop_begin;
    assert_int_equal(emu_cta_init(&f->cta, &f->l, 0), 0);
}

static void afx_close(afx *f)
{
    emu_cta_release(&f->cta);
    emu_mem_free(f->mem);
    ptx_module_free(f->m);
}

static uint32_t pc_of(const emu_warp *w) { return (uint32_t)(emu_warp_next(w) - w->uops); }

/* (a): plain program order; the 32 output words and the counters */
static void run_in_order(uint32_t out[32], uint64_t cnt[3 + 8])
{
    afx f;
    afx_open(&f);
    emu_warp *w = &f.cta.warps[0];
    while (emu_warp_next(w)) assert_int_equal(emu_warp_step(w, NULL), 0);
    emu_mem_read(f.mem, f.buf, out, 32 * 4);
    cnt[0] = w->warp_insns;
    cnt[1] = w->thread_insns;
    cnt[2] = f.l.warp_insns;
    memcpy(cnt + 3, w->class_insns, sizeof w->class_insns);
    afx_close(&f);
}

static void test_alt_bit_identical(void **state)
{
    (void)state;
    uint32_t want[32], got[32];
    uint64_t want_cnt[11], got_cnt[11];
    run_in_order(want, want_cnt);

    afx f;
    afx_open(&f);
    emu_warp *w = &f.cta.warps[0];
    const ptx_uop *u = f.m->uops;
    uint32_t b = f.begin;
    assert_int_equal(u[b + S].op, PTX_OP_ADD);
    assert_int_equal(u[b + RENAMED].op, PTX_OP_ADD);
    assert_int_equal(u[b + BRANCH].op, PTX_OP_BRA);
    /* in order up to the stall point */
    while (pc_of(w) != b + S) assert_int_equal(emu_warp_step(w, NULL), 0);
    uint32_t real_n = w->simt_n;
    emu_simt real_top = w->simt[w->simt_n - 1];

    /* (b): the hint chain ahead of S: 8, 9 (r5 -> hidden 0), 10, 11, 12 */
    emu_alt a = { 0 };
    assert_int_equal(emu_alt_begin(w, &a), 0);
    int32_t r5 = u[b + RENAMED].opd[0].reg;
    emu_alt_remap ren = { .nsrc = 0, .dst_slot = r5, .dst_hidden = 0 };
    uint32_t next, mask9 = 0;
    emu_step_info info;
    assert_int_equal(emu_alt_exec(w, &a, b + 8, NULL, &info, &next), 0);
    assert_int_equal(next, b + 9);
    assert_int_equal(emu_alt_exec(w, &a, b + RENAMED, &ren, &info, &next), 0);
    mask9 = info.mask;
    /* the architectural r5 still holds 7 (S reads it); the new value is hidden */
    for (int l = 0; l < 32; l++) {
        assert_int_equal((uint32_t)w->r[(size_t)r5 * 32 + l], 7);
        assert_int_equal((uint32_t)a.hidden[0][l], (uint32_t)l + 2);
    }
    assert_int_equal(emu_alt_exec(w, &a, b + 10, NULL, &info, &next), 0);
    assert_int_equal(info.nbytes, 4);                 /* a load: addresses for the LSU */
    assert_true(info.addr[0] == f.buf + 256);
    assert_int_equal(emu_alt_exec(w, &a, b + 11, NULL, &info, &next), 0);
    assert_int_equal(emu_alt_exec(w, &a, b + BRANCH, NULL, &info, &next), 0);
    /* the branch diverged on the shadow stack only */
    assert_int_equal(next, b + 15);
    assert_int_equal(a.shadow[a.shadow_n - 1].mask, 0xffff);
    assert_true(a.shadow_n > real_n);
    assert_int_equal(w->simt_n, real_n);
    assert_int_equal(w->simt[w->simt_n - 1].pc, real_top.pc);
    assert_int_equal(w->simt[w->simt_n - 1].mask, real_top.mask);
    /* a store may not run ahead: refused, nothing changed */
    uint32_t before[32];
    emu_mem_read(f.mem, f.buf, before, sizeof before);
    assert_int_equal(emu_alt_exec(w, &a, b + STORE, NULL, &info, &next), EMU_ALT_REFUSED);
    emu_mem_read(f.mem, f.buf, got, sizeof got);
    assert_memory_equal(before, got, sizeof got);
    /* nothing counted yet: the uops count when program order passes them */
    emu_alt_end(&a);

    /* program order again: S executes, 8..11 are skipped (9 after its copy),
       the branch runs again, the rest executes */
    assert_int_equal(emu_warp_step(w, NULL), 0);                  /* S */
    assert_int_equal(emu_warp_skip(w, NULL), 0);                  /* 8 */
    emu_warp_copy_hidden(w, &a, 0, r5, mask9);
    assert_int_equal(emu_warp_skip(w, NULL), 0);                  /* 9 */
    assert_int_equal(emu_warp_skip(w, NULL), 0);                  /* 10 */
    assert_int_equal(emu_warp_skip(w, NULL), 0);                  /* 11 */
    assert_int_equal(pc_of(w), b + BRANCH);
    assert_int_equal(emu_warp_skip(w, NULL), EMU_ALT_REFUSED);    /* branches run again */
    while (emu_warp_next(w)) assert_int_equal(emu_warp_step(w, NULL), 0);
    emu_mem_read(f.mem, f.buf, got, sizeof got);
    got_cnt[0] = w->warp_insns;
    got_cnt[1] = w->thread_insns;
    got_cnt[2] = f.l.warp_insns;
    memcpy(got_cnt + 3, w->class_insns, sizeof w->class_insns);
    assert_memory_equal(want, got, sizeof got);
    assert_memory_equal(want_cnt, got_cnt, sizeof got_cnt);
    for (int l = 0; l < 32; l++)   /* and the values are what the kernel computes */
        assert_int_equal(got[l], (l * 1000 + 3 + 7) + (3 * l + (l < 16 ? 1 : 100)) + (l + 2)
                                 + ((64 + l) * 1000 + 3));
    emu_alt_free(&a);
    afx_close(&f);
}

/* Without the copy of the renamed result the run differs: the test can fail. */
static void test_alt_missing_copy_differs(void **state)
{
    (void)state;
    uint32_t want[32], got[32];
    uint64_t cnt[11];
    run_in_order(want, cnt);
    afx f;
    afx_open(&f);
    emu_warp *w = &f.cta.warps[0];
    uint32_t b = f.begin, next;
    while (pc_of(w) != b + S) assert_int_equal(emu_warp_step(w, NULL), 0);
    emu_alt a = { 0 };
    assert_int_equal(emu_alt_begin(w, &a), 0);
    emu_alt_remap ren = { .dst_slot = f.m->uops[b + RENAMED].opd[0].reg, .dst_hidden = 1 };
    assert_int_equal(emu_alt_exec(w, &a, b + 8, NULL, NULL, &next), 0);
    assert_int_equal(emu_alt_exec(w, &a, b + RENAMED, &ren, NULL, &next), 0);
    emu_alt_end(&a);
    assert_int_equal(emu_warp_step(w, NULL), 0);
    assert_int_equal(emu_warp_skip(w, NULL), 0);
    assert_int_equal(emu_warp_skip(w, NULL), 0);      /* skipped without the copy */
    while (emu_warp_next(w)) assert_int_equal(emu_warp_step(w, NULL), 0);
    emu_mem_read(f.mem, f.buf, got, sizeof got);
    assert_true(memcmp(want, got, sizeof got) != 0);
    emu_alt_free(&a);
    afx_close(&f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_alt_bit_identical),
        cmocka_unit_test(test_alt_missing_copy_differs),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
