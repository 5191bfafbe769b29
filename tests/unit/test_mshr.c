/*
** test_mshr.c -- the MSHR table and its line index (mshr.c, linehash.c):
** against a plain model under a long random run of allocations, merges,
** finds and frees, with lines chosen to collide in the index.
*/
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>
#include "mem/linehash.h"
#include "mem/mshr.h"

#define N 24

/* a deterministic generator (the same run every time) */
static uint64_t rnd(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

/* The model: entry i holds line[i] when live[i]; find is a scan, alloc
   takes the lowest free entry (as mshr.c must, entries being the ids the
   requests carry). */
static int model_find(const bool *live, const uint64_t *line, uint64_t l)
{
    for (int i = 0; i < N; i++)
        if (live[i] && line[i] == l) return i;
    return -1;
}

static void test_mshr_matches_model(void **state)
{
    (void)state;
    mem_mshr m;
    assert_int_equal(mem_mshr_init(&m, N, 2), 0);
    bool live[N] = { false };
    uint64_t line[N] = { 0 };
    uint64_t s = 88172645463325252ull;
    uint32_t tokens[2];
    for (int step = 0; step < 200000; step++) {
        /* few distinct lines, many sharing index slots: probe runs,
           wrap-around and backward shifts all happen */
        uint64_t l = (rnd(&s) % 64) * 128;
        int want = model_find(live, line, l);
        assert_int_equal(mem_mshr_find(&m, l), want);
        if (want < 0 && rnd(&s) % 2) {
            int free_i = -1;
            for (int i = 0; i < N && free_i < 0; i++)
                if (!live[i]) free_i = i;
            int got = mem_mshr_alloc(&m, l);
            assert_int_equal(got, free_i);
            if (got >= 0) {
                live[got] = true;
                line[got] = l;
                mem_mshr_add(&m, got, (uint32_t)step);
            }
        } else if (want >= 0) {
            if (mem_mshr_can_merge(&m, want) && rnd(&s) % 2) {
                mem_mshr_add(&m, want, (uint32_t)step);
            } else {
                assert_true(mem_mshr_free(&m, want, tokens) >= 1);
                live[want] = false;
            }
        }
    }
    mem_mshr_clear(&m);
    for (uint64_t l = 0; l < 64 * 128; l += 128) assert_int_equal(mem_mshr_find(&m, l), -1);
    mem_mshr_release(&m);
}

/* Deleting from the middle of a run that wraps round the table's end
   keeps the later lines of the run findable. */
static void test_linehash_wrapping_run(void **state)
{
    (void)state;
    mem_linehash h;
    assert_int_equal(mem_linehash_init(&h, 8), 0);     /* 16 slots */
    /* lines whose home is the last slot: found by trying line numbers */
    uint64_t same[5];
    uint32_t n = 0;
    for (uint64_t l = 1; n < 5; l++)
        if ((uint32_t)((l * 0x9E3779B97F4A7C15ull) >> 32 & h.mask) == h.mask) same[n++] = l;
    for (uint32_t i = 0; i < 5; i++) mem_linehash_put(&h, same[i], i);
    mem_linehash_del(&h, same[1]);
    mem_linehash_del(&h, same[3]);
    assert_int_equal(mem_linehash_find(&h, same[0]), 0);
    assert_int_equal(mem_linehash_find(&h, same[1]), -1);
    assert_int_equal(mem_linehash_find(&h, same[2]), 2);
    assert_int_equal(mem_linehash_find(&h, same[3]), -1);
    assert_int_equal(mem_linehash_find(&h, same[4]), 4);
    mem_linehash_release(&h);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_mshr_matches_model),
        cmocka_unit_test(test_linehash_wrapping_run),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
