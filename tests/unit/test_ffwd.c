/*
** test_ffwd.c -- fast-forward selection (gpu/ffwd.h): which launches of a
** program the timing model runs under timing_from, timing_kernels and
** timing_every, and the checks of their values.
*/
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "gpu/ffwd.h"

/* The launches of `seq` (kernel names) that are timed, as a string of
   'T' (timed) and 'f' (functional). */
static void pattern(const char *from, const char *kernels, uint32_t every,
                    const char *const *seq, size_t n, char *out)
{
    gpu_ffwd f;
    memset(&f, 0, sizeof f);
    for (size_t i = 0; i < n; i++)
        out[i] = gpu_ffwd_select(&f, from, kernels, every, seq[i]) ? 'T' : 'f';
    out[n] = '\0';
}

static void test_select(void **state)
{
    (void)state;
    /* a program: init, then three (step, reduce) pairs; step is mangled */
    const char *seq[] = { "init", "_Z4stepPfi", "reduce", "_Z4stepPfi", "reduce",
                          "_Z4stepPfi", "reduce" };
    size_t n = sizeof seq / sizeof *seq;
    char p[16];
    pattern("", "", 1, seq, n, p);
    assert_string_equal(p, "TTTTTTT");
    pattern("step", "", 1, seq, n, p);           /* demangled base name */
    assert_string_equal(p, "fTTTTTT");
    pattern("_Z4stepPfi:2", "", 1, seq, n, p);   /* the 2nd launch of step */
    assert_string_equal(p, "fffTTTT");
    pattern("step:4", "", 1, seq, n, p);         /* never reached: nothing timed */
    assert_string_equal(p, "fffffff");
    pattern("", "reduce", 1, seq, n, p);
    assert_string_equal(p, "ffTfTfT");
    pattern("", "init,step", 1, seq, n, p);
    assert_string_equal(p, "TTfTfTf");
    pattern("", "", 3, seq, n, p);               /* sampling: 1st, 4th, 7th */
    assert_string_equal(p, "TffTffT");
    pattern("step:2", "reduce", 2, seq, n, p);   /* all three together */
    assert_string_equal(p, "ffffTff");
}

static void test_active(void **state)
{
    (void)state;
    assert_false(gpu_ffwd_active("", "", 1));
    assert_false(gpu_ffwd_active(NULL, NULL, 1));
    assert_true(gpu_ffwd_active("k", "", 1));
    assert_true(gpu_ffwd_active("", "k", 1));
    assert_true(gpu_ffwd_active("", "", 2));
}

static void test_check(void **state)
{
    (void)state;
    char err[256];
    assert_int_equal(gpu_ffwd_check("", "", 1, err, sizeof err), 0);
    assert_int_equal(gpu_ffwd_check("k", "a,b", 5, err, sizeof err), 0);
    assert_int_equal(gpu_ffwd_check("_Z1kv:12", "", 1, err, sizeof err), 0);
    const char *bad_from[] = { "k:", "k:0", "k:x", ":3", "a b", "k:3:4" };
    for (size_t i = 0; i < sizeof bad_from / sizeof *bad_from; i++) {
        assert_int_equal(gpu_ffwd_check(bad_from[i], "", 1, err, sizeof err), -1);
        assert_non_null(strstr(err, "timing_from"));
    }
    const char *bad_list[] = { ",", "a,", ",a", "a,,b", "a b" };
    for (size_t i = 0; i < sizeof bad_list / sizeof *bad_list; i++) {
        assert_int_equal(gpu_ffwd_check("", bad_list[i], 1, err, sizeof err), -1);
        assert_non_null(strstr(err, "timing_kernels"));
    }
    assert_int_equal(gpu_ffwd_check("", "", 0, err, sizeof err), -1);
    assert_non_null(strstr(err, "timing_every"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_select),
        cmocka_unit_test(test_active),
        cmocka_unit_test(test_check),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
