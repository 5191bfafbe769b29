/*
** test_ptx_errors.c -- malformed PTX must give a precise message.
**
** Every tests/ptx_bad/<name>.ptx starts with `// EXPECT: <text>`; parsing
** it must fail and the message must contain `<name>.ptx:<text>`, i.e. the
** file, line and column as well as the words.
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

static void check_bad_file(const char *name)
{
    char rel[512];
    snprintf(rel, sizeof rel, "tests/ptx_bad/%s", name);
    size_t len;
    char *text = th_read_source_file(rel, &len);
    assert_non_null(text);
    const char *tag = "// EXPECT: ";
    if (strncmp(text, tag, strlen(tag)) != 0) fail_msg("%s: first line must be '// EXPECT: ...'", name);
    const char *s = text + strlen(tag), *e = strchr(s, '\n');
    assert_non_null(e);
    char want[700];
    snprintf(want, sizeof want, "%s:%.*s", name, (int)(e - s), s);

    ptx_error err;
    ptx_module *m = ptx_parse(text, len, name, &err);
    if (m) {
        ptx_module_free(m);
        free(text);
        fail_msg("%s: parsed, expected an error", name);
    }
    if (!strstr(err.msg, want)) {
        fprintf(stderr, "want: %s\ngot:  %s\n", want, err.msg);
        free(text);
        fail_msg("%s: wrong error", name);
    }
    assert_true(err.line > 0 && err.col > 0);
    free(text);
}

static void test_bad_files(void **state)
{
    (void)state;
    DIR *d = opendir(th_source_path("tests/ptx_bad"));
    assert_non_null(d);
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        size_t len = strlen(e->d_name);
        if (len < 5 || strcmp(e->d_name + len - 4, ".ptx") != 0) continue;
        check_bad_file(e->d_name);
        n++;
    }
    closedir(d);
    assert_true(n >= 25);
}

/* No text / empty text: errors, not crashes. */
static void test_degenerate_inputs(void **state)
{
    (void)state;
    ptx_error err;
    assert_null(ptx_parse(NULL, 0, "x.ptx", &err));
    assert_non_null(strstr(err.msg, "x.ptx"));
    assert_null(ptx_parse("", 0, "empty.ptx", &err));
    assert_non_null(strstr(err.msg, "empty.ptx:1:1: error:"));
    const char nul[] = ".version 8.0\n\0junk";
    assert_null(ptx_parse(nul, sizeof nul - 1, "nul.ptx", &err));
    assert_non_null(strstr(err.msg, "nul.ptx:2:1: error: unexpected byte 0x00"));
    /* a NULL error pointer is allowed */
    assert_null(ptx_parse("garbage", 7, NULL, NULL));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bad_files),
        cmocka_unit_test(test_degenerate_inputs),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
