/*
** test_dram_addrmap.c -- decoding addresses with GPGPU-Sim-style address
** map strings (mem/addrmap.h): the GTX480 map with its dramid@8 channel
** digit over 6 channels, a map with explicit D bits, and the errors.
*/
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "mem/addrmap.h"

static mem_addr_loc dec(const mem_addrmap *m, uint64_t a)
{
    mem_addr_loc l;
    mem_addrmap_decode(m, a, &l);
    return l;
}

#define GTX480_MAP \
    "dramid@8;00000000.00000000.00000000.00000000.0000RRRR.RRRRRRRR.RBBBCCCC.BCCSSSSS"

/* Expected values worked out by hand from the layout in addrmap.h:
   channel = (addr >> 8) mod 6, compact = (addr >> 8) / 6 << 8 | addr & 0xff,
   compact bits: R 27..15, B 14..12 and 7, C 11..8 and 6..5, S 4..0. */
static void test_dram_addrmap_gtx480(void **state)
{
    (void)state;
    mem_addrmap m;
    char err[256];
    assert_int_equal(mem_addrmap_parse(&m, GTX480_MAP, 6, 2, err, sizeof err), 0);
    assert_int_equal(mem_addrmap_banks(&m), 16);
    assert_int_equal(m.bits[MEM_AF_ROW], 13);
    assert_int_equal(m.bits[MEM_AF_COL], 6);
    assert_int_equal(m.bits[MEM_AF_BURST], 5);

    mem_addr_loc l = dec(&m, 0x0);
    assert_int_equal(l.channel, 0); assert_int_equal(l.bank, 0);
    assert_int_equal(l.row, 0);     assert_int_equal(l.col, 0);

    l = dec(&m, 0x100);                  /* next 256-byte chunk: next channel */
    assert_int_equal(l.channel, 1); assert_int_equal(l.bank, 0);
    assert_int_equal(l.sub, 2);     assert_int_equal(l.col, 0);

    l = dec(&m, 0x600);                  /* 6 chunks on: channel 0 again, compact 0x100 */
    assert_int_equal(l.channel, 0); assert_int_equal(l.col, 4);
    assert_int_equal(l.bank, 0);    assert_int_equal(l.row, 0);

    l = dec(&m, 0x80);                   /* bit 7 is the lowest bank bit */
    assert_int_equal(l.channel, 0); assert_int_equal(l.bank, 1);
    assert_int_equal(l.sub, 1);

    l = dec(&m, 0x1f);
    assert_int_equal(l.col_byte, 31); assert_int_equal(l.col, 0);

    l = dec(&m, 0x6000);                 /* compact 0x1000: bank bit 1 */
    assert_int_equal(l.channel, 0); assert_int_equal(l.bank, 2);
    assert_int_equal(l.sub, 0);

    l = dec(&m, 0x30000);                /* compact 0x8000: lowest row bit */
    assert_int_equal(l.channel, 0); assert_int_equal(l.row, 1);
    assert_int_equal(l.bank, 0);

    l = dec(&m, 0x305C7);                /* (0x305 = 773) mod 6 = 5; compact 0x80C7 */
    assert_int_equal(l.channel, 5); assert_int_equal(l.row, 1);
    assert_int_equal(l.bank, 1);    assert_int_equal(l.col, 2);
    assert_int_equal(l.col_byte, 7); assert_int_equal(l.sub, 11);
}

/* Explicit D bits, fewer than 64 letters (the high bits are 0). */
static void test_dram_addrmap_dbits(void **state)
{
    (void)state;
    mem_addrmap m;
    char err[256];
    assert_int_equal(mem_addrmap_parse(&m, "DD.RRRRRR.BBB.CC.SSS", 4, 2, err, sizeof err), 0);
    /* 0xB5AF = 10 110101 101 01 111 */
    mem_addr_loc l = dec(&m, 0xB5AF);
    assert_int_equal(l.channel, 2); assert_int_equal(l.row, 53);
    assert_int_equal(l.bank, 5);    assert_int_equal(l.col, 1);
    assert_int_equal(l.col_byte, 7); assert_int_equal(l.sub, 5);
    /* bits above the string are ignored */
    l = dec(&m, 0xFFFF0000ull | 0xB5AF);
    assert_int_equal(l.row, 53); assert_int_equal(l.channel, 2);
}

static void test_dram_addrmap_default_and_one_channel(void **state)
{
    (void)state;
    mem_addrmap m;
    char err[256];
    assert_int_equal(mem_addrmap_parse(&m, "", 6, 2, err, sizeof err), 0);
    assert_int_equal(dec(&m, 0x305C7).channel, 5);
    assert_int_equal(mem_addrmap_parse(&m, NULL, 1, 1, err, sizeof err), 0);
    assert_int_equal(dec(&m, 0x100).channel, 0);
    /* one channel needs no channel field */
    assert_int_equal(mem_addrmap_parse(&m, "RRRR.BB.CC", 1, 1, err, sizeof err), 0);
    mem_addr_loc l = dec(&m, 0x2D);     /* 0010 11 01 */
    assert_int_equal(l.channel, 0); assert_int_equal(l.row, 2);
    assert_int_equal(l.bank, 3);    assert_int_equal(l.col, 1);
}

static void expect_error(const char *text, uint32_t nch, const char *needle)
{
    mem_addrmap m;
    char err[256] = "";
    assert_int_equal(mem_addrmap_parse(&m, text, nch, 1, err, sizeof err), -1);
    assert_non_null(strstr(err, needle));
}

static void test_dram_addrmap_errors(void **state)
{
    (void)state;
    expect_error("RRRRZBB", 1, "'Z'");
    expect_error("dramid@8;RRRRDBBB", 2, "not both");
    expect_error("RRRRBBBCC", 2, "no D bits");
    expect_error("DRRRRBBB", 4, "cannot name 4");
    expect_error("dramid@x;RRRRBB", 2, "dramid@N");
    expect_error("dramid@70;RRRRBB", 2, "dramid@N");
    expect_error("foo;RRRR", 2, "dramid@N");
    expect_error("BBBCCC", 1, "R (row)");
    expect_error("RRRRRRRR.RRRRRRRR.RRRRRRRR.RRRRRRRR.RRRRRRRR.RRRRRRRR.RRRRRRRR.RRRRRRRR.R", 1,
                 "more than 64");
}


/* compose is decode's inverse: every field survives a round trip, and
   every line address comes back unchanged, bits above the map included
   (device memory starts at 0x7_0000_0000) */
static void test_dram_addrmap_compose(void **state)
{
    (void)state;
    static const struct { const char *map; uint32_t nch, nsub; uint64_t span; } maps[] = {
        { NULL, 6, 2, 1ull << 28 },                               /* gtx480, dramid@8 */
        { "dramid@8;00000000.00000000.00000000.00000000.0000RRRR.RRRRRRRR.RBBBCCCC.BCCSSSSS",
          8, 1, 1ull << 28 },
        { "00000000.00000000.00000000.00000000.0000RRRR.RRRRRRRR.RRDDBBBB.CCCCCSSS", 4, 2,
          1ull << 28 },
    };
    for (size_t m = 0; m < sizeof maps / sizeof maps[0]; m++) {
        mem_addrmap map;
        char err[256];
        assert_int_equal(mem_addrmap_parse(&map, maps[m].map, maps[m].nch, maps[m].nsub, err,
                                           sizeof err), 0);
        uint64_t x = 0x9E3779B97F4A7C15ull;
        for (int i = 0; i < 2000; i++) {
            x ^= x << 13; x ^= x >> 7; x ^= x << 17;
            uint64_t a = (i & 1 ? x : x % maps[m].span) / 128 * 128;
            mem_addr_loc l, back;
            mem_addrmap_decode(&map, a, &l);
            uint64_t b = mem_addrmap_compose(&map, &l);
            mem_addrmap_decode(&map, b, &back);
            assert_int_equal(back.channel, l.channel);
            assert_int_equal(back.bank, l.bank);
            assert_int_equal(back.row, l.row);
            assert_int_equal(back.col, l.col);
            assert_int_equal(back.col_byte, l.col_byte);
            assert_int_equal(back.unmapped, l.unmapped);
            assert_int_equal(b, a);
        }
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_dram_addrmap_gtx480),
        cmocka_unit_test(test_dram_addrmap_dbits),
        cmocka_unit_test(test_dram_addrmap_default_and_one_channel),
        cmocka_unit_test(test_dram_addrmap_errors),
        cmocka_unit_test(test_dram_addrmap_compose),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
