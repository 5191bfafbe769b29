/*
** fuzz_ptx.c -- libFuzzer target for the PTX front end: parse, check the
** module's invariants (ptx_check.h), print every uop, free.  A failed
** parse must come with a message.  Run it with scripts/fuzz.sh.
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "ptx/ptx.h"
#include "ptx_check.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    ptx_error err;
    ptx_module *m = ptx_parse((const char *)data, size, "fuzz.ptx", &err);
    if (!m) {
        if (!strstr(err.msg, "fuzz.ptx") || !strstr(err.msg, "error:")) abort();
        return 0;
    }
    char buf[256];
    const char *bad = ptx_check_module(m, buf, sizeof buf);
    if (bad) {
        fprintf(stderr, "invariant broken: %s\n", bad);
        abort();
    }
    FILE *null = fopen("/dev/null", "w");
    if (null) {
        for (uint32_t i = 0; i < m->nuops; i++) ptx_print_uop(null, m, &m->uops[i]);
        fclose(null);
    }
    ptx_module_free(m);
    return 0;
}
