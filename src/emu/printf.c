/*
** printf.c -- the device library calls the emulator provides: vprintf
** (CUDA's printf) and __assertfail (assert).
**
** vprintf(fmt, args): `fmt` is a generic pointer to the format string and
** `args` a generic pointer to a local buffer holding the arguments, each
** at its natural alignment (int 4; long, pointer, double 8).  Lanes print
** in lane order; each conversion is formatted by the host's snprintf.
*/
#include "emu.h"
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#define PRINTF_MAX_STR 4096

/* A growable output line. */
typedef struct pbuf { char *s; size_t n, cap; } pbuf;

static void pb_add(pbuf *b, const char *s, size_t n)
{
    if (b->n + n + 1 > b->cap) {
        size_t cap = (b->cap ? b->cap * 2 : 256);
        while (cap < b->n + n + 1) cap *= 2;
        char *t = realloc(b->s, cap);
        if (!t) return;
        b->s = t;
        b->cap = cap;
    }
    memcpy(b->s + b->n, s, n);
    b->n += n;
}

int emu_read_string(emu_warp *w, const ptx_uop *u, int lane, uint64_t addr,
                    char *buf, size_t cap)
{
    size_t i = 0;
    for (; i + 1 < cap; i++) {
        char c;
        if (emu_generic_read(w, u, lane, addr + i, &c, 1)) { buf[i] = 0; return -1; }
        if (!c) break;
        buf[i] = c;
    }
    buf[i] = 0;
    return 0;
}

/* Bytes of the call's `i`th argument in the caller's frame of `lane`. */
static uint64_t call_arg(emu_warp *w, const ptx_call *c, int lane, uint32_t i)
{
    uint64_t v = 0;
    uint32_t off = w->frames[w->frame_n - 1].local_base + c->arg_off[i];
    uint32_t n = c->arg_size[i] > 8 ? 8 : c->arg_size[i];
    uint8_t *loc = emu_warp_local(w);
    if (loc && off + n <= w->launch->stack_bytes)
        memcpy(&v, loc + (size_t)lane * w->launch->stack_bytes + off, n);
    return v;
}

static void call_ret(emu_warp *w, const ptx_call *c, int lane, uint64_t v)
{
    if (!c->nrets) return;
    uint32_t off = w->frames[w->frame_n - 1].local_base + c->ret_off[0];
    uint32_t n = c->ret_size[0] > 8 ? 8 : c->ret_size[0];
    uint8_t *loc = emu_warp_local(w);
    if (loc && off + n <= w->launch->stack_bytes)
        memcpy(loc + (size_t)lane * w->launch->stack_bytes + off, &v, n);
}

/* One conversion spec, parsed. */
typedef struct pspec {
    char flags[8];
    int width, prec;          /* -1 when absent */
    int len;                  /* 0 none, 1 h, 2 hh, 3 l, 4 ll, 5 L/z/j/t (8 bytes) */
    char conv;
} pspec;

/* Parse the spec after '%' at `f`; return its length, or 0 if malformed. */
static size_t parse_spec(const char *f, pspec *s)
{
    const char *p = f;
    size_t nf = 0;
    memset(s, 0, sizeof *s);
    s->width = s->prec = -1;
    while (*p && strchr("-+ #0", *p)) {
        if (nf + 1 < sizeof s->flags) s->flags[nf++] = *p;
        p++;
    }
    if (*p >= '0' && *p <= '9') {
        s->width = 0;
        while (*p >= '0' && *p <= '9' && s->width < 100000) s->width = s->width * 10 + (*p++ - '0');
    }
    if (*p == '.') {
        p++;
        s->prec = 0;
        while (*p >= '0' && *p <= '9' && s->prec < 100000) s->prec = s->prec * 10 + (*p++ - '0');
    }
    if (p[0] == 'h' && p[1] == 'h') { s->len = 2; p += 2; }
    else if (p[0] == 'h') { s->len = 1; p++; }
    else if (p[0] == 'l' && p[1] == 'l') { s->len = 4; p += 2; }
    else if (p[0] == 'l') { s->len = 3; p++; }
    else if (*p && strchr("Lzjt", *p)) { s->len = 5; p++; }
    if (!*p || !strchr("diuxXocsfFeEgGaAp", *p)) return 0;
    s->conv = *p++;
    return (size_t)(p - f);
}

/* Host format string for `s` with host length modifier `hl`. */
static void host_fmt(const pspec *s, const char *hl, char conv, char *out, size_t cap)
{
    int n = snprintf(out, cap, "%%%s", s->flags);
    if (s->width >= 0) n += snprintf(out + n, cap - (size_t)n, "%d", s->width);
    if (s->prec >= 0) n += snprintf(out + n, cap - (size_t)n, ".%d", s->prec);
    snprintf(out + n, cap - (size_t)n, "%s%c", hl, conv);
}

/* snprintf into a pbuf (the format comes from host_fmt, never from PTX). */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
static void pb_fmt_int(pbuf *b, const char *fmt, long long v, bool sgn)
{
    char tmp[256];
    int n = sgn ? snprintf(tmp, sizeof tmp, fmt, v) : snprintf(tmp, sizeof tmp, fmt, (unsigned long long)v);
    if (n > 0) pb_add(b, tmp, (size_t)n < sizeof tmp ? (size_t)n : sizeof tmp - 1);
}

static void pb_fmt_dbl(pbuf *b, const char *fmt, double v)
{
    char tmp[512];
    int n = snprintf(tmp, sizeof tmp, fmt, v);
    if (n > 0) pb_add(b, tmp, (size_t)n < sizeof tmp ? (size_t)n : sizeof tmp - 1);
}

static void pb_fmt_str(pbuf *b, const char *fmt, const char *v)
{
    int n = snprintf(NULL, 0, fmt, v);
    if (n <= 0) return;
    char *tmp = malloc((size_t)n + 1);
    if (!tmp) return;
    snprintf(tmp, (size_t)n + 1, fmt, v);
    pb_add(b, tmp, (size_t)n);
    free(tmp);
}
#pragma GCC diagnostic pop

/* Read the next argument of `size` bytes from the args buffer. */
static int next_arg(emu_warp *w, const ptx_uop *u, int lane, uint64_t args, uint32_t *off,
                    uint32_t size, uint64_t *v)
{
    *off = (*off + size - 1) & ~(size - 1);
    *v = 0;
    if (emu_generic_read(w, u, lane, args + *off, v, size)) return -1;
    *off += size;
    return 0;
}

/* Format one lane's output; returns the number of arguments consumed or -1. */
static int format_lane(emu_warp *w, const ptx_uop *u, int lane, const char *fmt,
                       uint64_t args, pbuf *out)
{
    uint32_t off = 0;
    int nargs = 0;
    char hf[64];
    for (const char *f = fmt; *f;) {
        if (*f != '%') {
            const char *e = strchr(f, '%');
            size_t n = e ? (size_t)(e - f) : strlen(f);
            pb_add(out, f, n);
            f += n;
            continue;
        }
        if (f[1] == '%') { pb_add(out, "%", 1); f += 2; continue; }
        pspec s;
        size_t n = parse_spec(f + 1, &s);
        if (!n) { pb_add(out, f, 1); f++; continue; }   /* print it literally */
        f += 1 + n;
        uint64_t v;
        switch (s.conv) {
        case 'd': case 'i': case 'u': case 'x': case 'X': case 'o': case 'c': {
            bool wide = s.len >= 3, sgn = s.conv == 'd' || s.conv == 'i';
            if (next_arg(w, u, lane, args, &off, wide ? 8 : 4, &v)) return -1;
            long long x = wide ? (long long)v : sgn ? (long long)(int32_t)v : (long long)(uint32_t)v;
            if (s.len == 1) x = sgn ? (long long)(short)x : (long long)(unsigned short)x;
            if (s.len == 2) x = sgn ? (long long)(signed char)x : (long long)(unsigned char)x;
            if (s.conv == 'c') {
                host_fmt(&s, "", 'c', hf, sizeof hf);
                pb_fmt_int(out, hf, (int)(unsigned char)x, true);
            } else {
                host_fmt(&s, "ll", s.conv, hf, sizeof hf);
                pb_fmt_int(out, hf, x, sgn);
            }
            break;
        }
        case 'f': case 'F': case 'e': case 'E': case 'g': case 'G': case 'a': case 'A': {
            if (next_arg(w, u, lane, args, &off, 8, &v)) return -1;
            double d;
            memcpy(&d, &v, 8);
            host_fmt(&s, "", s.conv, hf, sizeof hf);
            pb_fmt_dbl(out, hf, d);
            break;
        }
        case 'p': {
            if (next_arg(w, u, lane, args, &off, 8, &v)) return -1;
            char tmp[32];
            snprintf(tmp, sizeof tmp, "0x%" PRIx64, v);
            pspec ps = s;
            ps.prec = -1;
            host_fmt(&ps, "", 's', hf, sizeof hf);
            pb_fmt_str(out, hf, tmp);
            break;
        }
        case 's': {
            if (next_arg(w, u, lane, args, &off, 8, &v)) return -1;
            char *str = malloc(PRINTF_MAX_STR);
            if (!str) return -1;
            if (!v) strcpy(str, "(null)");
            else if (emu_read_string(w, u, lane, v, str, PRINTF_MAX_STR)) { free(str); return -1; }
            host_fmt(&s, "", 's', hf, sizeof hf);
            pb_fmt_str(out, hf, str);
            free(str);
            break;
        }
        }
        nargs++;
    }
    return nargs;
}

int emu_vprintf(emu_warp *w, const ptx_uop *u, uint32_t mask)
{
    const ptx_call *c = &w->launch->mod->calls[u->aux];
    FILE *out = w->launch->out ? w->launch->out : stdout;
    w->launch->printed = true;
    char *fmt = malloc(PRINTF_MAX_STR);
    pbuf b = { 0 };
    int rc = 0;
    if (!fmt) return emu_fault_at(w, u, -1, EMU_FAULT_MEMORY, "host out of memory in printf");
    for (uint32_t m = mask; m && rc == 0; m &= m - 1) {
        int lane = __builtin_ctz(m);
        uint64_t fp = c->nargs > 0 ? call_arg(w, c, lane, 0) : 0;
        uint64_t ap = c->nargs > 1 ? call_arg(w, c, lane, 1) : 0;
        if (!fp || emu_read_string(w, u, lane, fp, fmt, PRINTF_MAX_STR)) {
            if (!fp) emu_fault_at(w, u, lane, EMU_FAULT_MEMORY, "printf with a NULL format");
            rc = -1;
            break;
        }
        b.n = 0;
        int n = format_lane(w, u, lane, fmt, ap, &b);
        if (n < 0) { rc = -1; break; }
        if (b.n) fwrite(b.s, 1, b.n, out);
        call_ret(w, c, lane, (uint64_t)(int64_t)n);
    }
    free(fmt);
    free(b.s);
    return rc;
}

/*
** __assertfail(message, file, line, function, charSize): report the first
** failing lane like the CUDA runtime does, as an assert fault (CUDA tells
** it from a trap: cudaErrorAssert, not cudaErrorLaunchFailure).
*/
int emu_assertfail(emu_warp *w, const ptx_uop *u, uint32_t mask)
{
    const ptx_call *c = &w->launch->mod->calls[u->aux];
    int lane = __builtin_ctz(mask);
    char msg[256] = "?", file[256] = "?", func[256] = "?";
    uint64_t line = c->nargs > 2 ? call_arg(w, c, lane, 2) : 0;
    if (c->nargs > 0) emu_read_string(w, u, lane, call_arg(w, c, lane, 0), msg, sizeof msg);
    if (c->nargs > 1) emu_read_string(w, u, lane, call_arg(w, c, lane, 1), file, sizeof file);
    if (c->nargs > 3) emu_read_string(w, u, lane, call_arg(w, c, lane, 3), func, sizeof func);
    if (w->launch->fault.kind != EMU_OK) {
        /* a string pointer was bad: report the assertion, not the pointer */
        w->launch->fault.kind = EMU_OK;
    }
    return emu_fault_at(w, u, lane, EMU_FAULT_ASSERT,
                        "assertion `%s' failed at %s:%u in %s", msg, file,
                        (uint32_t)line, func);
}
