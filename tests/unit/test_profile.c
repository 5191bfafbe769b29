/*
** test_profile.c -- the oracle profile (emu/profile.c): exact per-warp
** total, memory and per-barrier-interval instruction counts of a small
** hand-written kernel whose warps loop a different number of times
** between two barriers; the pre-run leaves device memory untouched (the
** real run then gives the results of one run); faults are reported; and
** a timing run through the host API with oracle_profile gives the same
** results as without.
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
#include "emu/emu.h"
#include "warpsim.h"

/*
** Warp w of CTA c (64 threads, 2 warps per CTA) loops n = w + c times.
** Interval 0: 9 instructions up to and including the first bar.sync, two
** loads (ld.param counts: class MEM is every ld/st of any space).  Interval 1: 3 (add, setp, branch) + 4 per iteration + the second
** bar.sync.  Interval 2: the store and ret (2: the function's end that
** ret reaches is no instruction), one store.
*/
static const char prof_ptx[] =
    ".version 7.0\n"
    ".target sm_75\n"
    ".address_size 64\n"
    "\n"
    ".visible .entry k(.param .u64 p)\n"
    "{\n"
    "    .reg .b32 %r<8>;\n"
    "    .reg .b64 %rd<4>;\n"
    "    .reg .pred %p<2>;\n"
    "    ld.param.u64 %rd1, [p];\n"                 /* interval 0 */
    "    mov.u32 %r1, %tid.x;\n"
    "    shr.u32 %r2, %r1, 5;\n"
    "    mov.u32 %r3, %ctaid.x;\n"
    "    mad.lo.u32 %r6, %r3, 64, %r1;\n"
    "    mul.wide.u32 %rd2, %r6, 4;\n"
    "    add.s64 %rd3, %rd1, %rd2;\n"
    "    ld.global.u32 %r4, [%rd3];\n"
    "    bar.sync 0;\n"                              /* 9 */
    "    add.u32 %r5, %r2, %r3;\n"                  /* interval 1 */
    "    setp.eq.u32 %p1, %r5, 0;\n"
    "    @%p1 bra DONE;\n"
    "LOOP:\n"
    "    add.u32 %r4, %r4, 1;\n"
    "    sub.u32 %r5, %r5, 1;\n"
    "    setp.ne.u32 %p1, %r5, 0;\n"
    "    @%p1 bra LOOP;\n"
    "DONE:\n"
    "    bar.sync 0;\n"
    "    st.global.u32 [%rd3], %r4;\n"              /* interval 2 */
    "    ret;\n"
    "}\n";

#define NCTA 3
#define NTHR (NCTA * 64)

typedef struct pfx {
    ptx_module *m;
    emu_mem *mem;
    emu_launch l;
    uint8_t params[8];
    uint64_t buf;
} pfx;

static const uint64_t no_syms[1];

static void pfx_open(pfx *f, const char *ptx, size_t len)
{
    memset(f, 0, sizeof *f);
    ptx_error err;
    f->m = ptx_parse(ptx, len, "prof.ptx", &err);
    if (!f->m) fail_msg("%s", err.msg);
    f->mem = emu_mem_new();
    assert_int_equal(emu_mem_alloc(f->mem, 4 * NTHR, 256, EMU_ALLOC_DEVICE, "buf", &f->buf), 0);
    uint32_t init[NTHR];
    for (int i = 0; i < NTHR; i++) init[i] = (uint32_t)i * 1000;
    emu_mem_write(f->mem, f->buf, init, sizeof init);
    memcpy(f->params, &f->buf, 8);
    f->l.mod = f->m;
    f->l.func = (uint32_t)ptx_find_func(f->m, "k");
    f->l.grid[0] = NCTA;
    f->l.grid[1] = f->l.grid[2] = 1;
    f->l.block[0] = 64;
    f->l.block[1] = f->l.block[2] = 1;
    f->l.params = f->params;
    f->l.gmem = f->mem;
    f->l.stack_bytes = 256;
    f->l.sym_base = no_syms;
}

static void pfx_close(pfx *f)
{
    emu_mem_free(f->mem);
    ptx_module_free(f->m);
}

static void test_exact_counts(void **state)
{
    (void)state;
    pfx f;
    pfx_open(&f, prof_ptx, sizeof prof_ptx - 1);
    emu_profile p;
    char err[1024] = "";
    int rc = emu_profile_build(&f.l, &p, err, sizeof err);
    if (rc) fail_msg("%s", err);
    assert_int_equal(p.nwarps, NCTA * 2);
    assert_int_equal(p.warps_per_cta, 2);
    assert_int_equal(p.nivl, 3 * NCTA * 2);
    uint64_t sum = 0, lo = UINT64_MAX, hi = 0;
    for (uint32_t uid = 0; uid < p.nwarps; uid++) {
        uint32_t cta = uid / 2, w = uid % 2, n = w + cta;
        uint64_t i1 = 3 + 4 * n + 1;
        assert_int_equal(p.ivl_start[uid + 1] - p.ivl_start[uid], 3);
        const uint64_t *ins = p.ivl_insns + p.ivl_start[uid];
        const uint64_t *mem = p.ivl_mem + p.ivl_start[uid];
        assert_int_equal(ins[0], 9);
        assert_int_equal(ins[1], i1);
        assert_int_equal(ins[2], 2);
        assert_int_equal(mem[0], 2);
        assert_int_equal(mem[1], 0);
        assert_int_equal(mem[2], 1);
        assert_int_equal(p.total[uid], 9 + i1 + 2);
        assert_int_equal(p.mem[uid], 3);
        sum += p.total[uid];
        if (p.total[uid] < lo) lo = p.total[uid];
        if (p.total[uid] > hi) hi = p.total[uid];
    }
    assert_int_equal(p.insns, sum);
    assert_int_equal(p.min_total, lo);
    assert_int_equal(p.max_total, hi);
    assert_true(emu_profile_asymmetry(&p) > 1.02);     /* asymmetric by design */
    /* remaining and interval queries; warp uid 5 (CTA 2, warp 1) loops 3 times */
    assert_int_equal(emu_profile_remaining(&p, 5, 0), 9 + 16 + 2);
    assert_int_equal(emu_profile_remaining(&p, 5, 10), 9 + 16 + 2 - 10);
    assert_int_equal(emu_profile_remaining(&p, 5, 1000), 0);
    assert_int_equal(emu_profile_remaining(&p, 6, 0), -1);
    assert_int_equal(emu_profile_remaining(NULL, 0, 0), -1);
    uint64_t left, m;
    assert_int_equal(emu_profile_interval(&p, 5, 0, &left, &m), 0);
    assert_int_equal(left, 9);
    assert_int_equal(m, 2);
    assert_int_equal(emu_profile_interval(&p, 5, 9, &left, &m), 0);
    assert_int_equal(left, 16);
    assert_int_equal(m, 0);
    assert_int_equal(emu_profile_interval(&p, 5, 26, &left, &m), 0);
    assert_int_equal(left, 1);
    assert_int_equal(m, 1);
    assert_int_equal(emu_profile_interval(&p, 5, 27, &left, NULL), 0);
    assert_int_equal(left, 0);
    assert_int_equal(emu_profile_interval(&p, 99, 0, &left, NULL), -1);

    /* the pre-run left device memory as it was ... */
    uint32_t out[NTHR];
    emu_mem_read(f.mem, f.buf, out, sizeof out);
    for (int i = 0; i < NTHR; i++) assert_int_equal(out[i], (uint32_t)i * 1000);
    /* ... so the real run adds each warp's n exactly once, and counts what
       the profile predicted */
    assert_int_equal(emu_run_grid(&f.l), 0);
    emu_mem_read(f.mem, f.buf, out, sizeof out);
    for (int i = 0; i < NTHR; i++) {
        uint32_t n = (uint32_t)(i % 64 / 32 + i / 64);
        assert_int_equal(out[i], (uint32_t)i * 1000 + n);
    }
    assert_int_equal(f.l.warp_insns, p.insns);
    assert_int_equal(f.l.warp_insns_min, p.min_total);
    assert_int_equal(f.l.warp_insns_max, p.max_total);
    emu_profile_free(&p);
    assert_null(p.total);
    emu_profile_free(&p);   /* twice is harmless */
    pfx_close(&f);
}

/* The clone is a deep copy: writes to either side stay there. */
static void test_mem_clone_independent(void **state)
{
    (void)state;
    emu_mem *m = emu_mem_new();
    uint64_t a, b;
    assert_int_equal(emu_mem_alloc(m, 3 * 4096 + 100, 256, EMU_ALLOC_DEVICE, "a", &a), 0);
    for (uint64_t i = 0; i < 3 * 4096 + 100; i += 97) emu_mem_write(m, a + i, &i, 1);
    emu_mem *c = emu_mem_clone(m);
    assert_non_null(c);
    for (uint64_t i = 0; i < 3 * 4096 + 100; i += 97) {
        uint8_t x = 0;
        emu_mem_read(c, a + i, &x, 1);
        assert_int_equal(x, (uint8_t)i);
    }
    assert_int_equal(emu_mem_valid(c, a, 3 * 4096 + 100), 1);
    assert_int_equal(emu_mem_valid(c, a + 3 * 4096 + 100, 1), 0);
    uint32_t v = 0xdeadbeef, r = 0;
    emu_mem_write(c, a + 8, &v, 4);
    emu_mem_read(m, a + 8, &r, 4);
    assert_int_not_equal(r, v);
    /* allocations made later on one side are not seen on the other */
    assert_int_equal(emu_mem_alloc(c, 64, 256, EMU_ALLOC_DEVICE, "b", &b), 0);
    assert_int_equal(emu_mem_valid(m, b, 64), 0);
    assert_int_equal(emu_mem_valid(c, b, 64), 1);
    emu_mem_free(c);
    emu_mem_free(m);
}

/* A kernel that faults: no profile, a message naming the pre-run. */
static void test_fault_reported(void **state)
{
    (void)state;
    static const char bad_ptx[] =
        ".version 7.0\n.target sm_75\n.address_size 64\n"
        ".visible .entry k(.param .u64 p)\n{\n"
        "    .reg .b32 %r<2>;\n    .reg .b64 %rd<2>;\n"
        "    mov.u64 %rd1, 16;\n"
        "    ld.global.u32 %r1, [%rd1];\n"
        "    ret;\n}\n";
    pfx f;
    pfx_open(&f, bad_ptx, sizeof bad_ptx - 1);
    emu_profile p;
    char err[1024] = "";
    assert_int_equal(emu_profile_build(&f.l, &p, err, sizeof err), -1);
    assert_non_null(strstr(err, "oracle profile"));
    assert_null(p.total);
    assert_int_equal(f.l.fault.kind, EMU_OK);   /* the launch itself is untouched */
    pfx_close(&f);
}

/* Through the host API on the timing model: same results with and without
   the profile (the pre-run does not leak into the real run). */
static void run_api(const char *const *settings, uint32_t out[NTHR])
{
    ws_options o;
    memset(&o, 0, sizeof o);
    o.timing = 1;
    o.settings = settings;
    ws_ctx *ctx = ws_ctx_create(&o);
    assert_non_null(ctx);
    ws_module *mod;
    if (ws_module_load_string(ctx, prof_ptx, "prof.ptx", &mod) != WS_OK)
        fail_msg("%s", ws_last_error(ctx));
    uint32_t init[NTHR];
    for (int i = 0; i < NTHR; i++) init[i] = (uint32_t)i * 1000;
    ws_devptr d;
    assert_int_equal(ws_malloc(ctx, sizeof init, &d), WS_OK);
    assert_int_equal(ws_memcpy_htod(ctx, d, init, sizeof init), WS_OK);
    ws_kernel *k;
    assert_int_equal(ws_module_get_kernel(mod, "k", &k), WS_OK);
    void *args[] = { &d };
    ws_dim3 g = { NCTA, 1, 1 }, b = { 64, 1, 1 };
    ws_status st = ws_launch(ctx, k, g, b, args, 0);
    if (st != WS_OK) fail_msg("%s", ws_last_error(ctx));
    assert_int_equal(ws_memcpy_dtoh(ctx, out, d, 4 * NTHR), WS_OK);
    ws_ctx_destroy(ctx);
}

static void test_api_with_profile(void **state)
{
    (void)state;
    static const char *const with[] = { "oracle_profile=true", "use_ptxas=false", NULL };
    static const char *const without[] = { "use_ptxas=false", NULL };
    uint32_t a[NTHR], b[NTHR];
    run_api(with, a);
    run_api(without, b);
    for (int i = 0; i < NTHR; i++) {
        uint32_t n = (uint32_t)(i % 64 / 32 + i / 64);
        assert_int_equal(a[i], (uint32_t)i * 1000 + n);
    }
    assert_memory_equal(a, b, sizeof a);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_exact_counts),
        cmocka_unit_test(test_mem_clone_independent),
        cmocka_unit_test(test_fault_reported),
        cmocka_unit_test(test_api_with_profile),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
