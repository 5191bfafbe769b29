/*
** test_ptx_fuzz_regress.c -- every input the fuzzer ever broke the parser
** with (tests/fuzz/regressions) and every seed (tests/fuzz/corpus) must
** parse into a consistent module or fail with a positioned message.
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
#include "../fuzz/ptx_check.h"

static int check_dir(const char *dir)
{
    DIR *d = opendir(th_source_path(dir));
    if (!d) fail_msg("cannot open %s", dir);
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (e->d_name[0] == '.') continue;
        char rel[512];
        snprintf(rel, sizeof rel, "%s/%s", dir, e->d_name);
        size_t len;
        char *text = th_read_source_file(rel, &len);
        assert_non_null(text);
        ptx_error err;
        ptx_module *m = ptx_parse(text, len, e->d_name, &err);
        free(text);
        if (m) {
            char buf[256];
            const char *bad = ptx_check_module(m, buf, sizeof buf);
            ptx_module_free(m);
            if (bad) fail_msg("%s: %s", rel, bad);
        } else {
            char prefix[300];
            snprintf(prefix, sizeof prefix, "%s:%u:%u: error: ", e->d_name, err.line, err.col);
            if (err.line == 0 || strncmp(err.msg, prefix, strlen(prefix)) != 0)
                fail_msg("%s: error without a position: %s", rel, err.msg);
        }
        n++;
    }
    closedir(d);
    return n;
}

static void test_regressions(void **state)
{
    (void)state;
    check_dir("tests/fuzz/regressions");
}

static void test_corpus(void **state)
{
    (void)state;
    assert_true(check_dir("tests/fuzz/corpus") >= 3);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_regressions),
        cmocka_unit_test(test_corpus),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
