/*
** test_emu_altstream.c -- the alternate issue stream (emu/altstream.c) as
** HAWS will drive it: uops run ahead of a stall point (renamed registers
** and predicates, a load, both paths of a divergent branch), then skipped
** in order: memory and counters bit-identical to an in-order run.
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

static void afx_open_src(afx *f, const char *src)
{
    memset(f, 0, sizeof *f);
    ptx_error err;
    f->m = ptx_parse(src, strlen(src), "alt.ptx", &err);
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

static void afx_open(afx *f) { afx_open_src(f, alt_ptx); }

static void afx_close(afx *f)
{
    emu_cta_release(&f->cta);
    emu_mem_free(f->mem);
    ptx_module_free(f->m);
}

static uint32_t pc_of(const emu_warp *w) { return (uint32_t)(emu_warp_next(w) - w->uops); }

/* The warp's counters, and its end state and exited lanes. */
static void afx_counters(const afx *f, uint64_t cnt[3 + 8])
{
    const emu_warp *w = &f->cta.warps[0];
    cnt[0] = w->warp_insns;
    cnt[1] = w->thread_insns;
    cnt[2] = (uint64_t)w->state << 32 | w->exited;
    memcpy(cnt + 3, w->class_insns, sizeof w->class_insns);
}

/* (a): plain program order of `src`; the 32 output words and the counters */
static void run_in_order_src(const char *src, uint32_t out[32], uint64_t cnt[3 + 8])
{
    afx f;
    afx_open_src(&f, src);
    emu_warp *w = &f.cta.warps[0];
    while (emu_warp_next(w)) assert_int_equal(emu_warp_step(w, NULL), 0);
    emu_mem_read(f.mem, f.buf, out, 32 * 4);
    afx_counters(&f, cnt);
    afx_close(&f);
}

static void run_in_order(uint32_t out[32], uint64_t cnt[3 + 8])
{
    run_in_order_src(alt_ptx, out, cnt);
}

/* Lanes of register slot `slot` (32-bit values). */
static void reg32(const emu_warp *w, int32_t slot, uint32_t v[32])
{
    for (int l = 0; l < 32; l++) v[l] = (uint32_t)w->r[(size_t)slot * 32 + l];
}

/* (b), ahead of the stall point S: the hint chain 8, 9 (r5 -> hidden 0),
   10, 11, 12, then both paths of 12 in the shadow stack's order: 15, 13,
   14.  Checks the real state stays put; returns the mask 9 wrote. */
static uint32_t chain_ahead(afx *f, emu_alt *a)
{
    emu_warp *w = &f->cta.warps[0];
    const ptx_uop *u = f->m->uops;
    uint32_t b = f->begin, next, mask9, real_n = w->simt_n;
    emu_simt real_top = w->simt[w->simt_n - 1];
    uint64_t insns_at_s = w->warp_insns;
    assert_int_equal(emu_alt_begin(w, a), 0);
    int32_t r5 = u[b + RENAMED].opd[0].reg;
    emu_alt_remap ren = { .ndst = 1, .dst = { { .slot = r5, .hidden = 0 } } };
    emu_step_info info;
    assert_int_equal(emu_alt_exec(w, a, b + 8, NULL, &info, &next), 0);
    assert_int_equal(next, b + 9);
    assert_int_equal(emu_alt_exec(w, a, b + RENAMED, &ren, &info, &next), 0);
    mask9 = info.mask;
    assert_int_equal(mask9, 0xffffffffu);
    /* the architectural r5 still holds 7 (S reads it); the new value is hidden */
    for (int l = 0; l < 32; l++) {
        assert_int_equal((uint32_t)w->r[(size_t)r5 * 32 + l], 7);
        assert_int_equal((uint32_t)a->hidden[0][l], (uint32_t)l + 2);
    }
    assert_int_equal(emu_alt_exec(w, a, b + 10, NULL, &info, &next), 0);
    assert_int_equal(info.nbytes, 4);                 /* a load: addresses for the LSU */
    for (int l = 0; l < 32; l++) assert_true(info.addr[l] == f->buf + 256 + 4 * (uint64_t)l);
    assert_int_equal(emu_alt_exec(w, a, b + 11, NULL, &info, &next), 0);
    assert_int_equal(emu_alt_exec(w, a, b + BRANCH, NULL, &info, &next), 0);
    /* the branch diverged on the shadow stack only */
    assert_int_equal(next, b + 15);
    assert_int_equal(a->shadow[a->shadow_n - 1].mask, 0xffff);
    assert_true(a->shadow_n > real_n);
    assert_int_equal(w->simt_n, real_n);
    assert_memory_equal(&w->simt[w->simt_n - 1], &real_top, sizeof real_top);
    /* the taken path reaches JOIN: the shadow pops to the other path */
    assert_int_equal(emu_alt_exec(w, a, b + 15, NULL, &info, &next), 0);
    assert_int_equal(info.mask, 0xffff);
    assert_int_equal(next, b + 13);
    assert_int_equal(emu_alt_exec(w, a, b + 13, NULL, &info, &next), 0);
    assert_int_equal(info.mask, 0xffff0000u);
    assert_int_equal(emu_alt_exec(w, a, b + 14, NULL, &info, &next), 0);
    assert_int_equal(next, b + 16);                   /* reconverged at JOIN */
    assert_int_equal(a->shadow_n, real_n);
    assert_int_equal(a->shadow[a->shadow_n - 1].mask, real_top.mask);
    /* a store may not run ahead: refused, nothing changed */
    uint32_t before[32], after[32];
    emu_mem_read(f->mem, f->buf, before, sizeof before);
    assert_int_equal(emu_alt_exec(w, a, b + STORE, NULL, &info, &next), EMU_ALT_REFUSED);
    emu_mem_read(f->mem, f->buf, after, sizeof after);
    assert_memory_equal(before, after, sizeof after);
    /* nothing counted in order yet: the uops count when program order passes them */
    assert_int_equal(w->warp_insns, insns_at_s);
    assert_int_equal(a->ahead_insns, 8);
    assert_int_equal(w->simt_n, real_n);
    assert_memory_equal(&w->simt[w->simt_n - 1], &real_top, sizeof real_top);
    emu_alt_end(a);
    return mask9;
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
    /* in order up to the stall point, then the chain ahead */
    while (pc_of(w) != b + S) assert_int_equal(emu_warp_step(w, NULL), 0);
    emu_alt a = { 0 };
    uint32_t mask9 = chain_ahead(&f, &a);

    /* program order again: S executes, 8..11 are skipped (9 after its copy),
       the branch runs again, 15 and 13 are skipped, 14 runs again */
    emu_step_info info;
    assert_int_equal(emu_warp_step(w, NULL), 0);                  /* S */
    assert_int_equal(emu_warp_skip(w, &info), 0);                 /* 8 */
    assert_ptr_equal(info.uop, &u[b + 8]);
    assert_int_equal(pc_of(w), b + RENAMED);
    assert_int_equal(emu_warp_copy_hidden(w, &a, 0, u[b + RENAMED].opd[0].reg, mask9), 0);
    assert_int_equal(emu_warp_skip(w, NULL), 0);                  /* 9 */
    assert_int_equal(emu_warp_skip(w, NULL), 0);                  /* 10 */
    assert_int_equal(emu_warp_skip(w, NULL), 0);                  /* 11 */
    assert_int_equal(pc_of(w), b + BRANCH);
    uint64_t n = w->warp_insns;
    assert_int_equal(emu_warp_skip(w, NULL), EMU_ALT_REFUSED);    /* branches run again */
    assert_int_equal(w->warp_insns, n);
    assert_int_equal(pc_of(w), b + BRANCH);
    assert_int_equal(emu_warp_step(w, NULL), 0);                  /* 12, in order */
    assert_int_equal(pc_of(w), b + 15);
    assert_int_equal(emu_warp_skip(w, NULL), 0);                  /* 15: reconverges */
    assert_int_equal(pc_of(w), b + 13);
    assert_int_equal(emu_warp_skip(w, NULL), 0);                  /* 13 */
    assert_int_equal(pc_of(w), b + 14);
    while (emu_warp_next(w)) assert_int_equal(emu_warp_step(w, NULL), 0);
    emu_mem_read(f.mem, f.buf, got, sizeof got);
    afx_counters(&f, got_cnt);
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
    emu_alt_remap ren = { .ndst = 1,
                          .dst = { { .slot = f.m->uops[b + RENAMED].opd[0].reg, .hidden = 1 } } };
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

/* Predicate renaming (a renamed guard and selp operand), a renamed
   x = f(x), and a guarded write to a renamed register whose other lanes
   must keep the value the alternate stream saw (read-modify-write). */
static const char pred_ptx[] =
    ".version 7.0\n.target sm_75\n.address_size 64\n\n"
    ".visible .entry k(.param .u64 p)\n{\n"
    "    .reg .b32 %r<10>;\n    .reg .b64 %rd<6>;\n    .reg .pred %p<2>;\n"
    "    ld.param.u64 %rd1, [p];\n"              /*  0 */
    "    mov.u32 %r1, %tid.x;\n"                  /*  1 */
    "    mul.wide.u32 %rd2, %r1, 4;\n"            /*  2 */
    "    add.s64 %rd3, %rd1, %rd2;\n"             /*  3 */
    "    setp.lt.u32 %p1, %r1, 8;\n"              /*  4 */
    "    mov.u32 %r4, 5;\n"                       /*  5 */
    "    ld.global.u32 %r2, [%rd3];\n"            /*  6  long-latency load */
    "    @%p1 add.u32 %r3, %r2, %r4;\n"           /*  7  S: reads r2, r4, p1 */
    "    setp.lt.u32 %p1, %r1, 20;\n"             /*  8  p1 -> hidden pred 0 */
    "    add.u32 %r4, %r4, %r1;\n"                /*  9  r4 -> hidden 0 (x = f(x)) */
    "    @%p1 add.u32 %r5, %r4, 1;\n"             /* 10  reads p1', r4' */
    "    @!%p1 mov.u32 %r4, 99;\n"                /* 11  r4 -> hidden 1, lanes >= 20 */
    "    selp.u32 %r6, %r4, 3, %p1;\n"            /* 12  reads r4'', p1' */
    "    add.u32 %r7, %r3, %r5;\n"                /* 13 */
    "    add.u32 %r7, %r7, %r6;\n"                /* 14 */
    "    add.u32 %r7, %r7, %r4;\n"                /* 15 */
    "    st.global.u32 [%rd3], %r7;\n"            /* 16 */
    "    ret;\n"                                  /* 17 */
    "}\n";

static void test_alt_pred_rename(void **state)
{
    (void)state;
    uint32_t want[32], got[32], v[32];
    uint64_t want_cnt[11], got_cnt[11];
    run_in_order_src(pred_ptx, want, want_cnt);
    afx f;
    afx_open_src(&f, pred_ptx);
    emu_warp *w = &f.cta.warps[0];
    const ptx_uop *u = f.m->uops;
    uint32_t b = f.begin, next, m8, m9, m11;
    while (pc_of(w) != b + 7) assert_int_equal(emu_warp_step(w, NULL), 0);
    int32_t p1 = u[b + 8].opd[0].reg, r4 = u[b + 9].opd[0].reg;
    assert_int_equal(u[b + 8].opd[0].kind, PTX_OPD_PRED);
    uint32_t p1_arch = w->p[p1];
    emu_alt a = { 0 };
    emu_step_info info;
    assert_int_equal(emu_alt_begin(w, &a), 0);
    emu_alt_remap r8 = { .ndst = 1, .dst = { { .slot = p1, .hidden = 0, .pred = true } } };
    emu_alt_remap r9 = { .ndst = 1, .dst = { { .slot = r4, .hidden = 0 } } };
    emu_alt_remap r10 = { .nsrc = 2, .src = { { .slot = p1, .hidden = 0, .pred = true },
                                              { .slot = r4, .hidden = 0 } } };
    emu_alt_remap r11 = { .nsrc = 2, .src = { { .slot = p1, .hidden = 0, .pred = true },
                                              { .slot = r4, .hidden = 0 } },
                          .ndst = 1, .dst = { { .slot = r4, .hidden = 1 } } };
    emu_alt_remap r12 = { .nsrc = 2, .src = { { .slot = p1, .hidden = 0, .pred = true },
                                              { .slot = r4, .hidden = 1 } } };
    assert_int_equal(emu_alt_exec(w, &a, b + 8, &r8, &info, &next), 0);
    m8 = info.mask;
    assert_int_equal(emu_alt_exec(w, &a, b + 9, &r9, &info, &next), 0);
    m9 = info.mask;
    assert_int_equal(emu_alt_exec(w, &a, b + 10, &r10, &info, &next), 0);
    assert_int_equal(info.mask, 0x000fffffu);         /* the renamed guard decided */
    assert_int_equal(emu_alt_exec(w, &a, b + 11, &r11, &info, &next), 0);
    m11 = info.mask;
    assert_int_equal(m11, 0xfff00000u);
    assert_int_equal(emu_alt_exec(w, &a, b + 12, &r12, &info, &next), 0);
    assert_int_equal(next, b + 13);
    /* architectural p1 and r4 untouched (S reads them); the hidden hold the new values */
    assert_int_equal(w->p[p1], p1_arch);
    assert_int_equal(a.hidden_p[0], 0x000fffffu);
    reg32(w, r4, v);
    for (int l = 0; l < 32; l++) {
        assert_int_equal(v[l], 5);
        assert_int_equal((uint32_t)a.hidden[0][l], 5u + (uint32_t)l);
        assert_int_equal((uint32_t)a.hidden[1][l], l < 20 ? 5u + (uint32_t)l : 99u);
    }
    emu_alt_end(&a);
    assert_int_equal(emu_warp_step(w, NULL), 0);                            /* S */
    assert_int_equal(emu_warp_copy_hidden_pred(w, &a, 0, p1, m8), 0);
    assert_int_equal(emu_warp_skip(w, NULL), 0);                            /* 8 */
    assert_int_equal(emu_warp_copy_hidden(w, &a, 0, r4, m9), 0);
    assert_int_equal(emu_warp_skip(w, NULL), 0);                            /* 9 */
    assert_int_equal(emu_warp_skip(w, NULL), 0);                            /* 10 */
    assert_int_equal(emu_warp_copy_hidden(w, &a, 1, r4, m11), 0);
    assert_int_equal(emu_warp_skip(w, NULL), 0);                            /* 11 */
    assert_int_equal(emu_warp_skip(w, NULL), 0);                            /* 12 */
    while (emu_warp_next(w)) assert_int_equal(emu_warp_step(w, NULL), 0);
    emu_mem_read(f.mem, f.buf, got, sizeof got);
    afx_counters(&f, got_cnt);
    assert_memory_equal(want, got, sizeof got);
    assert_memory_equal(want_cnt, got_cnt, sizeof got_cnt);
    for (uint32_t l = 0; l < 32; l++) {
        uint32_t r3 = l < 8 ? l * 1000 + 3 + 5 : 0, r4b = l < 20 ? 5 + l : 99;
        uint32_t r5 = l < 20 ? 5 + l + 1 : 0, r6 = l < 20 ? r4b : 3;
        assert_int_equal(got[l], r3 + r5 + r6 + r4b);
    }
    emu_alt_free(&a);
    afx_close(&f);
}

/* Uops with effects beyond registers, and bad remaps: refused, and
   neither registers, predicates, memory, the real stack, the shadow
   stack nor any counter changes. */
static const char refuse_ptx[] =
    ".version 7.0\n.target sm_75\n.address_size 64\n\n"
    ".func f()\n{\n    ret;\n}\n\n"
    ".visible .entry k(.param .u64 p)\n{\n"
    "    .reg .b32 %r<6>;\n    .reg .b64 %rd<3>;\n    .reg .pred %p<2>;\n"
    "    ld.param.u64 %rd1, [p];\n"              /*  0 */
    "    mov.u32 %r1, %tid.x;\n"                  /*  1 */
    "    st.global.u32 [%rd1], %r1;\n"            /*  2 */
    "    atom.global.add.u32 %r2, [%rd1], 1;\n"   /*  3 */
    "    red.global.add.u32 [%rd1], 1;\n"         /*  4 */
    "    bar.sync 0;\n"                           /*  5 */
    "    membar.gl;\n"                            /*  6 */
    "    mov.u32 %r3, %clock;\n"                  /*  7 */
    "    call f;\n"                               /*  8 */
    "    add.cc.u32 %r4, %r1, 1;\n"               /*  9 */
    "    add.u32 %r4, %r1, 1;\n"                  /* 10  allowed */
    "    exit;\n"                                 /* 11 */
    "    ret;\n"                                  /* 12 */
    "}\n";

typedef struct snap {
    uint64_t r[16 * 32];
    uint32_t p[4], mem[32];
    emu_simt real[4], shadow[4];
    uint32_t real_n, shadow_n;
    uint64_t insns, ahead;
} snap;

static void take_snap(const afx *f, const emu_alt *a, snap *s)
{
    const emu_warp *w = &f->cta.warps[0];
    const ptx_func *k = &f->m->funcs[f->l.func];
    assert_true(k->nregs <= 16 && k->npreds <= 4);
    memset(s, 0, sizeof *s);
    memcpy(s->r, w->r, k->nregs * 32 * sizeof *w->r);
    memcpy(s->p, w->p, k->npreds * sizeof *w->p);
    emu_mem_read(f->mem, f->buf, s->mem, sizeof s->mem);
    s->real_n = w->simt_n;
    memcpy(s->real, w->simt, w->simt_n * sizeof *w->simt);
    s->shadow_n = a->shadow_n;
    memcpy(s->shadow, a->shadow, a->shadow_n * sizeof *a->shadow);
    s->insns = w->warp_insns + w->thread_insns;
    s->ahead = a->ahead_insns;
}

static void test_alt_refusals(void **state)
{
    (void)state;
    afx f;
    afx_open_src(&f, refuse_ptx);
    emu_warp *w = &f.cta.warps[0];
    const ptx_uop *u = f.m->uops;
    uint32_t b = f.begin, next = 12345;
    while (pc_of(w) != b + 2) assert_int_equal(emu_warp_step(w, NULL), 0);
    emu_alt a = { 0 };
    assert_int_equal(emu_alt_exec(w, &a, b + 10, NULL, NULL, &next), EMU_ALT_REFUSED);
    assert_int_equal(emu_alt_begin(w, &a), 0);
    snap s0, s1;
    take_snap(&f, &a, &s0);
    for (uint32_t i = 2; i <= 12; i++) {
        if (i == 10) continue;
        emu_step_info info;
        if (emu_alt_exec(w, &a, b + i, NULL, &info, &next) != EMU_ALT_REFUSED)
            fail_msg("uop %u (%s) ran ahead", i, ptx_opcode_names[u[b + i].op]);
    }
    uint32_t fret = f.m->funcs[ptx_find_func(f.m, "f")].uop_begin;
    assert_int_equal(emu_alt_exec(w, &a, fret, NULL, NULL, &next), EMU_ALT_REFUSED);
    /* bad remaps of an allowed uop */
    int32_t r1 = u[b + 10].opd[1].reg, r4 = u[b + 10].opd[0].reg;
    const ptx_func *k = &f.m->funcs[f.l.func];
    int32_t nregs = (int32_t)k->nregs, npreds = (int32_t)k->npreds;
    emu_alt_remap bad[] = {
        { .nsrc = 1, .src = { { .slot = r1, .hidden = EMU_HIDDEN_REGS } } },
        { .ndst = 1, .dst = { { .slot = nregs, .hidden = 0 } } },        /* no such slot */
        { .ndst = 1, .dst = { { .slot = npreds, .hidden = 0, .pred = true } } },
        { .nsrc = 2, .src = { { .slot = r1, .hidden = 0 }, { .slot = r1, .hidden = 1 } } },
        { .ndst = 2, .dst = { { .slot = r4, .hidden = 0 }, { .slot = r4, .hidden = 1 } } },
        { .nsrc = EMU_ALT_MAX_SRC + 1 },
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        if (emu_alt_exec(w, &a, b + 10, &bad[i], NULL, &next) != EMU_ALT_REFUSED)
            fail_msg("bad remap %zu accepted", i);
    assert_int_equal(next, 12345);
    take_snap(&f, &a, &s1);
    assert_memory_equal(&s0, &s1, sizeof s0);
    /* in order: a store cannot be skipped; copies out of range are refused */
    assert_int_equal(emu_warp_skip(w, NULL), EMU_ALT_REFUSED);
    assert_int_equal(emu_warp_copy_hidden(w, &a, EMU_HIDDEN_REGS, r4, ~0u), EMU_ALT_REFUSED);
    assert_int_equal(emu_warp_copy_hidden(w, &a, 0, nregs, ~0u), EMU_ALT_REFUSED);
    assert_int_equal(emu_warp_copy_hidden_pred(w, &a, 0, npreds, ~0u), EMU_ALT_REFUSED);
    take_snap(&f, &a, &s1);
    assert_memory_equal(&s0, &s1, sizeof s0);
    /* the allowed uop does run */
    assert_int_equal(emu_alt_exec(w, &a, b + 10, NULL, NULL, &next), 0);
    assert_int_equal(next, b + 11);
    assert_int_equal(a.ahead_insns, 1);
    emu_alt_free(&a);
    afx_close(&f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_alt_bit_identical),
        cmocka_unit_test(test_alt_missing_copy_differs),
        cmocka_unit_test(test_alt_pred_rename),
        cmocka_unit_test(test_alt_refusals),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
