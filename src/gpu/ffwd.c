/*
** ffwd.c -- fast-forward selection (ffwd.h).  The lists are scanned at
** each launch (a few names), so nothing is parsed ahead or kept.
*/
#include "ffwd.h"
#include "hint.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Does [s, s+n) name kernel `name` (its PTX name or demangled base name)? */
static bool names(const char *s, size_t n, const char *name)
{
    char base[256];
    gpu_hint_base_name(name, base, sizeof base);
    return (strlen(name) == n && !strncmp(name, s, n)) || (strlen(base) == n && !strncmp(base, s, n));
}

/* A kernel name as PTX spells one: letters, digits, _ and $, not empty. */
static bool ident(const char *s, size_t n)
{
    if (n == 0) return false;
    for (size_t i = 0; i < n; i++)
        if (!isalnum((unsigned char)s[i]) && s[i] != '_' && s[i] != '$') return false;
    return true;
}

/* timing_from split: the kernel name's length and N (0 when malformed). */
static uint64_t from_split(const char *from, size_t *nlen)
{
    const char *colon = strchr(from, ':');
    *nlen = colon ? (size_t)(colon - from) : strlen(from);
    if (!colon) return 1;
    char *end;
    if (!isdigit((unsigned char)colon[1])) return 0;
    unsigned long long n = strtoull(colon + 1, &end, 10);
    return *end ? 0 : (uint64_t)n;
}

static bool list_has(const char *list, const char *name)
{
    for (const char *s = list; *s;) {
        const char *c = strchr(s, ',');
        size_t n = c ? (size_t)(c - s) : strlen(s);
        if (names(s, n, name)) return true;
        s += n + (c != NULL);
    }
    return false;
}

int gpu_ffwd_check(const char *from, const char *kernels, uint32_t every, char *err,
                   size_t errlen)
{
    size_t nlen = 0;
    uint64_t n = from && *from ? from_split(from, &nlen) : 1;
    if (!n || (from && *from && !ident(from, nlen))) {
        snprintf(err, errlen, "parameter 'timing_from': value '%s' is not KERNEL[:N] with "
                 "KERNEL a kernel name and N >= 1 (the N-th launch of KERNEL)", from);
        return -1;
    }
    for (const char *s = kernels ? kernels : ""; *s;) {
        const char *c = strchr(s, ',');
        size_t n = c ? (size_t)(c - s) : strlen(s);
        if (!ident(s, n) || (c && !c[1])) {
            snprintf(err, errlen, "parameter 'timing_kernels': entry '%.*s' of '%s' is not a "
                     "kernel name (a comma-separated list of kernel names)", (int)n, s, kernels);
            return -1;
        }
        s += n + (c != NULL);
    }
    if (every == 0) {
        snprintf(err, errlen, "parameter 'timing_every': 0 (1 times every selected launch)");
        return -1;
    }
    return 0;
}

bool gpu_ffwd_active(const char *from, const char *kernels, uint32_t every)
{
    return (from && *from) || (kernels && *kernels) || every > 1;
}

bool gpu_ffwd_select(gpu_ffwd *f, const char *from, const char *kernels, uint32_t every,
                     const char *name)
{
    if (!f->started) {
        size_t nlen;
        uint64_t n = from && *from ? from_split(from, &nlen) : 0;
        if (!n) f->started = true;   /* no timing_from: timed from the start */
        else if (names(from, nlen, name) && ++f->from_seen >= n) f->started = true;
    }
    if (!f->started) return false;
    if (kernels && *kernels && !list_has(kernels, name)) return false;
    return f->selected++ % (every ? every : 1) == 0;
}
