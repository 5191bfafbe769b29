/*
** helpers.c -- utilities shared by the cmocka unit tests.
*/
#include "helpers.h"
#include <stdio.h>
#include <stdlib.h>

const char *th_source_path(const char *relpath)
{
    static char buf[4096];
    snprintf(buf, sizeof buf, "%s/%s", WS_SOURCE_DIR, relpath);
    return buf;
}

char *th_read_source_file(const char *relpath, size_t *len)
{
    FILE *f = fopen(th_source_path(relpath), "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *buf = malloc((size_t)n + 1);
    if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) { free(buf); buf = NULL; }
    fclose(f);
    if (buf) { buf[n] = 0; if (len) *len = (size_t)n; }
    return buf;
}
