/*
** hint.c -- parsing and lookup of HALS launch-hint lists (hint.h).  The
** list is scanned at each lookup (once per launch), so nothing is kept.
*/
#include "hint.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

/* One entry [s, e) of a list split into name [s, colon) and value. */
typedef struct hint_entry {
    const char *name;
    size_t nlen;
    int value;         /* -1 when malformed */
} hint_entry;

static hint_entry hint_parse_entry(const char *s, const char *e)
{
    hint_entry h = { s, 0, -1 };
    const char *colon = memchr(s, ':', (size_t)(e - s));
    if (!colon) return h;
    h.nlen = (size_t)(colon - s);
    /* exactly one digit 0..3 after the colon */
    if (h.nlen > 0 && e - colon == 2 && colon[1] >= '0' && colon[1] <= '0' + GPU_HINT_MAX)
        h.value = colon[1] - '0';
    return h;
}

/* The end of the entry starting at `s` (the next comma or the end). */
static const char *hint_entry_end(const char *s)
{
    const char *c = strchr(s, ',');
    return c ? c : s + strlen(s);
}

int gpu_hint_check(const char *list, char *err, size_t errlen)
{
    if (!list || !*list) return 0;
    for (const char *s = list;; s++) {   /* an empty entry (",,", trailing ",") is bad too */
        const char *e = hint_entry_end(s);
        hint_entry h = hint_parse_entry(s, e);
        if (h.value < 0) {
            snprintf(err, errlen, "entry '%.*s' is not KERNEL:N with KERNEL a kernel name "
                     "or '*' and N one of 0, 1, 2, 3", (int)(e - s), s);
            return -1;
        }
        if (!*e) return 0;
        s = e;
    }
}

bool gpu_hint_lookup(const char *list, const char *name, uint32_t *hint)
{
    char base[256];
    gpu_hint_base_name(name ? name : "", base, sizeof base);
    int named = -1, star = -1;
    for (const char *s = list ? list : ""; *s;) {
        const char *e = hint_entry_end(s);
        hint_entry h = hint_parse_entry(s, e);
        if (h.value >= 0) {
            if (h.nlen == 1 && h.name[0] == '*')
                star = h.value;
            else if ((name && strlen(name) == h.nlen && !strncmp(name, h.name, h.nlen))
                     || (strlen(base) == h.nlen && !strncmp(base, h.name, h.nlen)))
                named = h.value;
        }
        s = *e ? e + 1 : e;
    }
    int v = named >= 0 ? named : star;
    if (v < 0) return false;
    *hint = (uint32_t)v;
    return true;
}

/* Read one <source-name> (decimal length, then that many characters) at
   *p into buf; false when there is none. */
static bool source_name(const char **p, const char *end, char *buf, size_t len)
{
    if (!isdigit((unsigned char)**p)) return false;
    size_t n = 0;
    while (isdigit((unsigned char)**p)) n = n * 10 + (size_t)(*(*p)++ - '0');
    if (n == 0 || n > (size_t)(end - *p)) return false;
    snprintf(buf, len, "%.*s", (int)n, *p);
    *p += n;
    return true;
}

const char *gpu_hint_base_name(const char *name, char *buf, size_t len)
{
    snprintf(buf, len, "%s", name);
    if (strncmp(name, "_Z", 2) != 0) return buf;
    const char *p = name + 2, *end = name + strlen(name);
    if (*p == 'L') p++;                       /* internal linkage */
    if (*p != 'N') {
        char tmp[256];
        if (source_name(&p, end, tmp, sizeof tmp)) snprintf(buf, len, "%s", tmp);
        return buf;
    }
    /* nested name: N [CV-qualifiers] <prefix>... E; the base is its last
       <source-name> (a template argument list after it is ignored) */
    p++;
    while (*p == 'r' || *p == 'V' || *p == 'K') p++;
    if (p[0] == 'S' && p[1] == 't') p += 2;   /* std:: */
    char tmp[256];
    while (source_name(&p, end, tmp, sizeof tmp)) snprintf(buf, len, "%s", tmp);
    return buf;
}
