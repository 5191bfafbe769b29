/*
** test_mem.c -- the emulator's sparse global memory and allocation table:
** alignment, red zones, validity edges, zero-filled pages, release.
*/
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>
#include "emu/emu.h"

static void test_alloc_alignment_and_redzone(void **state)
{
    (void)state;
    emu_mem *m = emu_mem_new();
    uint64_t a, b, c;
    assert_int_equal(emu_mem_alloc(m, 400, 1, EMU_ALLOC_DEVICE, NULL, &a), 0);
    assert_int_equal(emu_mem_alloc(m, 1, 1, EMU_ALLOC_DEVICE, NULL, &b), 0);
    assert_int_equal(emu_mem_alloc(m, 100, 4096, EMU_ALLOC_DEVICE, "big", &c), 0);
    assert_true(a >= EMU_GLOBAL_HEAP_BASE);
    assert_int_equal(a % 256, 0);
    assert_int_equal(b % 256, 0);
    assert_int_equal(c % 4096, 0);
    assert_true(b >= a + 400 + 64);       /* a red zone separates them */
    assert_true(c > b);
    /* just past the end is not valid: the red zone is unmapped */
    assert_int_equal(emu_mem_valid(m, a + 400, 1), 0);
    assert_int_equal(emu_mem_valid(m, a + 404, 4), 0);
    assert_int_equal(emu_mem_valid(m, b - 1, 1), 0);
    emu_mem_free(m);
}

static void test_valid_edges(void **state)
{
    (void)state;
    emu_mem *m = emu_mem_new();
    uint64_t a, b;
    assert_int_equal(emu_mem_alloc(m, 400, 256, EMU_ALLOC_DEVICE, NULL, &a), 0);
    assert_int_equal(emu_mem_alloc(m, 64, 256, EMU_ALLOC_DEVICE, NULL, &b), 0);
    assert_int_equal(emu_mem_valid(m, a, 400), 1);
    assert_int_equal(emu_mem_valid(m, a + 396, 4), 1);
    assert_int_equal(emu_mem_valid(m, a + 397, 4), 0);   /* straddles the end */
    assert_int_equal(emu_mem_valid(m, a - 1, 1), 0);
    assert_int_equal(emu_mem_valid(m, b, 64), 1);
    assert_int_equal(emu_mem_valid(m, a, 401), 0);
    assert_int_equal(emu_mem_valid(m, 0, 4), 0);
    assert_int_equal(emu_mem_valid(m, UINT64_MAX - 2, 4), 0);
    /* alternate between allocations (exercises the one-entry cache) */
    assert_int_equal(emu_mem_valid(m, b + 8, 8), 1);
    assert_int_equal(emu_mem_valid(m, a + 8, 8), 1);
    assert_int_equal(emu_mem_valid(m, b + 60, 8), 0);
    emu_mem_free(m);
}

static void test_sparse_pages_read_zero(void **state)
{
    (void)state;
    emu_mem *m = emu_mem_new();
    uint8_t buf[10000];
    memset(buf, 0xab, sizeof buf);
    emu_mem_read(m, 0x123456789ull, buf, sizeof buf);
    for (size_t i = 0; i < sizeof buf; i++) assert_int_equal(buf[i], 0);
    /* a write spanning three pages reads back, with zeros around it */
    uint8_t src[9000];
    for (size_t i = 0; i < sizeof src; i++) src[i] = (uint8_t)(i * 7 + 1);
    emu_mem_write(m, 0x700000ffdull, src, sizeof src);
    emu_mem_read(m, 0x700000ffdull - 500, buf, sizeof src + 1000);
    for (size_t i = 0; i < 500; i++) assert_int_equal(buf[i], 0);
    assert_memory_equal(buf + 500, src, sizeof src);
    for (size_t i = 0; i < 500; i++) assert_int_equal(buf[500 + sizeof src + i], 0);
    /* span: same page yes, across a page boundary no */
    uint8_t *p = emu_mem_span(m, 0x700001000ull, 16);
    assert_non_null(p);
    assert_memory_equal(p, src + 3, 16);
    assert_null(emu_mem_span(m, 0x700001ffcull, 8));
    emu_mem_free(m);
}

static void test_many_pages_and_large_addresses(void **state)
{
    (void)state;
    emu_mem *m = emu_mem_new();
    /* enough pages to force the hash table to grow several times */
    for (uint64_t i = 0; i < 5000; i++) {
        uint64_t v = i * 0x9e3779b97f4a7c15ull;
        emu_mem_write(m, 0x700000000ull + i * 4096 * 3, &v, 8);
    }
    uint64_t hi = 0xeffffffff0ull, v = 0x1122334455667788ull, r = 0;
    emu_mem_write(m, hi, &v, 8);
    for (uint64_t i = 0; i < 5000; i++) {
        emu_mem_read(m, 0x700000000ull + i * 4096 * 3, &r, 8);
        assert_true(r == i * 0x9e3779b97f4a7c15ull);
    }
    emu_mem_read(m, hi, &r, 8);
    assert_true(r == v);
    /* a huge allocation is fine: nothing is touched until written */
    uint64_t a;
    assert_int_equal(emu_mem_alloc(m, 1ull << 36, 256, EMU_ALLOC_DEVICE, NULL, &a), 0);
    assert_int_equal(emu_mem_valid(m, a + (1ull << 36) - 4, 4), 1);
    /* an allocation larger than the global window fails */
    assert_int_equal(emu_mem_alloc(m, EMU_GLOBAL_LIMIT, 256, EMU_ALLOC_DEVICE, NULL, &a), -1);
    assert_int_equal(emu_mem_alloc(m, 0, 256, EMU_ALLOC_DEVICE, NULL, &a), -1);
    emu_mem_free(m);
}

static void test_release(void **state)
{
    (void)state;
    emu_mem *m = emu_mem_new();
    uint64_t a, b, c;
    assert_int_equal(emu_mem_alloc(m, 3 * 4096, 4096, EMU_ALLOC_DEVICE, NULL, &a), 0);
    assert_int_equal(emu_mem_alloc(m, 100, 256, EMU_ALLOC_DEVICE, NULL, &b), 0);
    uint8_t ones[3 * 4096];
    memset(ones, 1, sizeof ones);
    emu_mem_write(m, a, ones, sizeof ones);
    assert_int_equal(emu_mem_release(m, a + 4), -1);    /* not a start */
    assert_int_equal(emu_mem_release(m, a), 0);
    assert_int_equal(emu_mem_release(m, a), -2);        /* double free */
    assert_int_equal(emu_mem_valid(m, a, 4), 0);
    assert_int_equal(emu_mem_valid(m, b, 100), 1);
    /* addresses are not reused, and released memory reads zero */
    assert_int_equal(emu_mem_alloc(m, 3 * 4096, 4096, EMU_ALLOC_DEVICE, NULL, &c), 0);
    assert_true(c != a);
    uint8_t back[16];
    emu_mem_read(m, a + 4096, back, sizeof back);
    for (int i = 0; i < 16; i++) assert_int_equal(back[i], 0);
    emu_mem_free(m);
}

/* A page budget: writes past it fail (and say so), reads of never-written
   memory need no page, and freed pages are given back. */
static void test_page_limit_and_peek(void **state)
{
    (void)state;
    emu_mem *m = emu_mem_new();
    emu_mem_set_page_limit(m, 2);
    uint64_t a;
    assert_int_equal(emu_mem_alloc(m, 4 * 4096, 4096, EMU_ALLOC_DEVICE, NULL, &a), 0);
    uint8_t buf[3 * 4096];
    memset(buf, 7, sizeof buf);
    assert_int_equal(emu_mem_write(m, a, buf, 2 * 4096), 0);
    assert_int_equal(emu_mem_write(m, a + 2 * 4096, buf, 4096), -1);
    assert_null(emu_mem_span(m, a + 3 * 4096, 4));
    const uint8_t *z = emu_mem_peek(m, a + 3 * 4096 + 8, 8);
    assert_non_null(z);
    for (int i = 0; i < 8; i++) assert_int_equal(z[i], 0);
    assert_int_equal(emu_mem_peek(m, a + 8, 4)[0], 7);
    assert_null(emu_mem_peek(m, a + 4094, 4));   /* crosses a page */
    assert_int_equal(emu_mem_release(m, a), 0);
    assert_int_equal(emu_mem_write(m, a + 2 * 4096, buf, 2 * 4096), 0);
    emu_mem_free(m);
}

/* Mapped 2 MiB pages: those holding part of a live allocation, plus the
   one below the heap; freed allocations unmap theirs. */
static void test_mapped_pages(void **state)
{
    (void)state;
    emu_mem *m = emu_mem_new();
    uint64_t a, b;
    assert_int_equal(emu_mem_mapped(m, EMU_GLOBAL_HEAP_BASE, 4), 0);
    assert_int_equal(emu_mem_alloc(m, 64, 256, EMU_ALLOC_DEVICE, NULL, &a), 0);
    assert_int_equal(emu_mem_alloc(m, 3 << 20, 256, EMU_ALLOC_DEVICE, NULL, &b), 0);
    assert_int_equal(emu_mem_mapped(m, a - 4, 4), 1);           /* below the heap */
    assert_int_equal(emu_mem_mapped(m, a + 64, 4), 1);
    assert_int_equal(emu_mem_mapped(m, b + (3 << 20) + 100, 4), 1); /* b's last page */
    assert_int_equal(emu_mem_mapped(m, EMU_GLOBAL_HEAP_BASE + (6 << 20), 4), 0);
    assert_int_equal(emu_mem_mapped(m, EMU_GLOBAL_HEAP_BASE - (2 << 20) - 4, 4), 0);
    assert_int_equal(emu_mem_live_bytes(m), 64 + (3 << 20));
    assert_int_equal(emu_mem_release(m, b), 0);
    assert_int_equal(emu_mem_live_bytes(m), 64);
    assert_int_equal(emu_mem_mapped(m, b + (3 << 20) - 4, 4), 0);
    assert_int_equal(emu_mem_mapped(m, b + 4, 4), 1);           /* shares a's page */
    assert_int_equal(emu_mem_release(m, a), 0);
    assert_int_equal(emu_mem_mapped(m, a + 4, 4), 0);
    emu_mem_free(m);
}

/* When the heap's address space runs out, freed ranges are reused; the
   quarantine bounds how many freed entries are kept. */
static void test_reuse_when_heap_ends(void **state)
{
    (void)state;
    emu_mem *m = emu_mem_new();
    uint64_t big = (EMU_GLOBAL_LIMIT - EMU_GLOBAL_HEAP_BASE) / 2, a, b, c;
    assert_int_equal(emu_mem_alloc(m, big, 256, EMU_ALLOC_DEVICE, NULL, &a), 0);
    assert_int_equal(emu_mem_alloc(m, big - 4096, 256, EMU_ALLOC_DEVICE, NULL, &b), 0);
    assert_int_equal(emu_mem_alloc(m, big, 256, EMU_ALLOC_DEVICE, NULL, &c), -1);
    assert_int_equal(emu_mem_release(m, a), 0);
    assert_int_equal(emu_mem_alloc(m, big, 256, EMU_ALLOC_DEVICE, NULL, &c), 0);
    assert_int_equal(c, a);
    assert_int_equal(emu_mem_valid(m, c + 8, 8), 1);
    assert_int_equal(emu_mem_valid(m, b + 8, 8), 1);
    emu_mem_set_quarantine(m, 1);
    assert_int_equal(emu_mem_release(m, b), 0);
    assert_int_equal(emu_mem_release(m, b), -2);   /* kept: named a double free */
    assert_int_equal(emu_mem_release(m, c), 0);
    assert_int_equal(emu_mem_release(m, b), -1);   /* dropped past the quarantine */
    emu_mem_free(m);
}

static void test_describe(void **state)
{
    (void)state;
    emu_mem *m = emu_mem_new();
    char buf[256];
    emu_mem_describe(m, 0x1000, buf, sizeof buf);
    assert_non_null(strstr(buf, "no device memory"));
    uint64_t a, b;
    assert_int_equal(emu_mem_alloc(m, 400, 256, EMU_ALLOC_DEVICE, NULL, &a), 0);
    assert_int_equal(emu_mem_alloc(m, 64, 256, EMU_ALLOC_MODULE_GLOBAL, "table", &b), 0);
    emu_mem_describe(m, a + 404, buf, sizeof buf);
    char want[128];
    snprintf(want, sizeof want, "is 4 bytes past the end of the 400-byte allocation at 0x%llx",
             (unsigned long long)a);
    assert_non_null(strstr(buf, want));
    emu_mem_describe(m, b - 8, buf, sizeof buf);
    assert_non_null(strstr(buf, "8 bytes before the 64-byte module variable 'table'"));
    emu_mem_describe(m, a + 10, buf, sizeof buf);
    assert_non_null(strstr(buf, "10 bytes inside"));
    emu_mem_free(m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_alloc_alignment_and_redzone),
        cmocka_unit_test(test_valid_edges),
        cmocka_unit_test(test_sparse_pages_read_zero),
        cmocka_unit_test(test_many_pages_and_large_addresses),
        cmocka_unit_test(test_release),
        cmocka_unit_test(test_page_limit_and_peek),
        cmocka_unit_test(test_mapped_pages),
        cmocka_unit_test(test_reuse_when_heap_ends),
        cmocka_unit_test(test_describe),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
