/*
** lexer.c -- PTX text to tokens.
**
** Comments (// and C-style) and white space vanish; every token keeps its
** 1-based line and column.  Signs are not part of numbers: the parser
** applies a leading '-' so that `[%rd1+-8]` and `-1` share one path.
*/
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "lexer.h"

typedef struct lexer {
    const char *s;
    size_t len, pos;
    uint32_t line, col;
    char *msg;
    size_t msglen;
} lexer;

static int peekc(const lexer *lx, size_t ahead)
{
    return lx->pos + ahead < lx->len ? (unsigned char)lx->s[lx->pos + ahead] : -1;
}

static void advance(lexer *lx)
{
    if (lx->s[lx->pos] == '\n') { lx->line++; lx->col = 1; }
    else lx->col++;
    lx->pos++;
}

static int is_ident_start(int c) { return c >= 0 && (isalpha(c) || c == '_' || c == '$' || c == '%'); }
static int is_ident_char(int c) { return c >= 0 && (isalnum(c) || c == '_' || c == '$'); }
static int hexval(int c)
{
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

static int push(ptx_tokens *out, const ptx_token *t)
{
    if (out->n == out->cap) {
        size_t cap = out->cap ? out->cap * 2 : 1024;
        ptx_token *v = realloc(out->v, cap * sizeof *v);
        if (!v) return -1;
        out->v = v;
        out->cap = cap;
    }
    out->v[out->n++] = *t;
    return 0;
}

/* Skip white space and comments; -1 on an unterminated comment. */
static int skip_space(lexer *lx)
{
    for (;;) {
        int c = peekc(lx, 0);
        if (c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f' || c == '\v') {
            advance(lx);
        } else if (c == '/' && peekc(lx, 1) == '/') {
            while (lx->pos < lx->len && lx->s[lx->pos] != '\n') advance(lx);
        } else if (c == '/' && peekc(lx, 1) == '*') {
            uint32_t line = lx->line, col = lx->col;
            advance(lx); advance(lx);
            while (lx->pos < lx->len && !(lx->s[lx->pos] == '*' && peekc(lx, 1) == '/'))
                advance(lx);
            if (lx->pos >= lx->len) {
                lx->line = line; lx->col = col;
                snprintf(lx->msg, lx->msglen, "unterminated comment");
                return -1;
            }
            advance(lx); advance(lx);
        } else {
            return 0;
        }
    }
}

/* 0fXXXXXXXX or 0dXXXXXXXXXXXXXXXX */
static int lex_hex_float(lexer *lx, ptx_token *t, int ndigits)
{
    uint64_t v = 0;
    advance(lx); advance(lx);
    for (int i = 0; i < ndigits; i++) {
        int h = hexval(peekc(lx, 0));
        if (h < 0) {
            snprintf(lx->msg, lx->msglen, "malformed floating-point literal (0%c needs %d hex digits)",
                     ndigits == 8 ? 'f' : 'd', ndigits);
            return -1;
        }
        v = v << 4 | (uint64_t)h;
        advance(lx);
    }
    t->kind = PTX_TK_FLOAT;
    t->fkind = ndigits == 8 ? PTX_FLT_F32 : PTX_FLT_F64;
    t->ival = v;
    return 0;
}

/* Digits in `base` into t->ival with overflow detection. */
static int lex_digits(lexer *lx, ptx_token *t, unsigned base)
{
    uint64_t v = 0;
    int n = 0;
    for (;;) {
        int c = peekc(lx, 0), d = hexval(c);
        if (d < 0 || (unsigned)d >= base) break;
        if (v > (UINT64_MAX - (uint64_t)d) / base) {
            snprintf(lx->msg, lx->msglen, "integer literal is too large for 64 bits");
            return -1;
        }
        v = v * base + (uint64_t)d;
        advance(lx);
        n++;
    }
    if (n == 0) {
        snprintf(lx->msg, lx->msglen, "malformed integer literal");
        return -1;
    }
    t->ival = v;
    return 0;
}

/* A decimal floating-point literal: digits '.' digits [e[+-]digits] */
static int lex_decimal_float(lexer *lx, ptx_token *t)
{
    size_t start = lx->pos;
    while (isdigit(peekc(lx, 0))) advance(lx);
    if (peekc(lx, 0) == '.') { advance(lx); while (isdigit(peekc(lx, 0))) advance(lx); }
    if (peekc(lx, 0) == 'e' || peekc(lx, 0) == 'E') {
        advance(lx);
        if (peekc(lx, 0) == '+' || peekc(lx, 0) == '-') advance(lx);
        if (!isdigit(peekc(lx, 0))) {
            snprintf(lx->msg, lx->msglen, "malformed floating-point literal (exponent has no digits)");
            return -1;
        }
        while (isdigit(peekc(lx, 0))) advance(lx);
    }
    char buf[128];
    size_t n = lx->pos - start;
    if (n >= sizeof buf) {
        snprintf(lx->msg, lx->msglen, "floating-point literal is too long");
        return -1;
    }
    memcpy(buf, lx->s + start, n);
    buf[n] = 0;
    double d = strtod(buf, NULL);
    memcpy(&t->ival, &d, sizeof d);
    t->kind = PTX_TK_FLOAT;
    t->fkind = PTX_FLT_DEC;
    return 0;
}

static int lex_number(lexer *lx, ptx_token *t)
{
    int c1 = peekc(lx, 1);
    t->kind = PTX_TK_INT;
    if (peekc(lx, 0) == '0' && (c1 == 'f' || c1 == 'F')) {
        if (lex_hex_float(lx, t, 8) < 0) return -1;
    } else if (peekc(lx, 0) == '0' && (c1 == 'd' || c1 == 'D')) {
        if (lex_hex_float(lx, t, 16) < 0) return -1;
    } else if (peekc(lx, 0) == '0' && (c1 == 'x' || c1 == 'X')) {
        advance(lx); advance(lx);
        if (lex_digits(lx, t, 16) < 0) return -1;
    } else if (peekc(lx, 0) == '0' && (c1 == 'b' || c1 == 'B')) {
        advance(lx); advance(lx);
        if (lex_digits(lx, t, 2) < 0) return -1;
    } else {
        size_t p = lx->pos;
        while (p < lx->len && isdigit((unsigned char)lx->s[p])) p++;
        int after = p < lx->len ? (unsigned char)lx->s[p] : -1;
        if (after == '.' || after == 'e' || after == 'E') {
            if (lex_decimal_float(lx, t) < 0) return -1;
        } else if (peekc(lx, 0) == '0' && c1 >= '0' && c1 <= '9') {
            advance(lx);
            if (lex_digits(lx, t, 8) < 0) return -1;
        } else if (lex_digits(lx, t, 10) < 0) {
            return -1;
        }
    }
    if (t->kind == PTX_TK_INT && (peekc(lx, 0) == 'U' || peekc(lx, 0) == 'u')) {
        t->is_unsigned = true;
        advance(lx);
    }
    if (is_ident_char(peekc(lx, 0)) || peekc(lx, 0) == '.') {
        snprintf(lx->msg, lx->msglen, "malformed number: unexpected '%c' after it", peekc(lx, 0));
        return -1;
    }
    return 0;
}

static int lex_string(lexer *lx, ptx_token *t)
{
    advance(lx);
    for (;;) {
        int c = peekc(lx, 0);
        if (c < 0 || c == '\n') {
            snprintf(lx->msg, lx->msglen, "unterminated string literal");
            return -1;
        }
        if (c == '\\' && peekc(lx, 1) >= 0 && peekc(lx, 1) != '\n') advance(lx);
        else if (c == '"') { advance(lx); break; }
        advance(lx);
    }
    t->kind = PTX_TK_STRING;
    return 0;
}

/* .name or .name::sub::sub (.L1::evict_last, .shared::cta) */
static int lex_directive(lexer *lx, ptx_token *t)
{
    advance(lx);
    if (!is_ident_char(peekc(lx, 0)) || peekc(lx, 0) == '$') {
        snprintf(lx->msg, lx->msglen, "expected a name after '.'");
        return -1;
    }
    while (is_ident_char(peekc(lx, 0))) advance(lx);
    while (peekc(lx, 0) == ':' && peekc(lx, 1) == ':' && is_ident_char(peekc(lx, 2))) {
        advance(lx); advance(lx);
        while (is_ident_char(peekc(lx, 0))) advance(lx);
    }
    t->kind = PTX_TK_DIRECTIVE;
    return 0;
}

static int lex_one(lexer *lx, ptx_token *t)
{
    int c = peekc(lx, 0);
    if (is_ident_start(c)) {
        advance(lx);
        if (c == '%' && !is_ident_char(peekc(lx, 0))) {
            snprintf(lx->msg, lx->msglen, "expected a register name after '%%'");
            return -1;
        }
        while (is_ident_char(peekc(lx, 0))) advance(lx);
        t->kind = PTX_TK_IDENT;
        return 0;
    }
    if (c >= '0' && c <= '9') return lex_number(lx, t);
    if (c == '"') return lex_string(lx, t);
    if (c == '.') return lex_directive(lx, t);
    if (c >= 0 && strchr(",;:[]{}()+-!|<>=@*/", c) && c != 0) {
        t->kind = PTX_TK_PUNCT;
        t->punct = (char)c;
        advance(lx);
        return 0;
    }
    if (c >= 0x20 && c < 0x7f)
        snprintf(lx->msg, lx->msglen, "unexpected character '%c'", c);
    else
        snprintf(lx->msg, lx->msglen, "unexpected byte 0x%02x", (unsigned)c & 0xff);
    return -1;
}

int ptx_lex(const char *src, size_t len, ptx_tokens *out,
            char *msg, size_t msglen, uint32_t *line, uint32_t *col)
{
    lexer lx = { .s = src, .len = len, .line = 1, .col = 1, .msg = msg, .msglen = msglen };
    for (;;) {
        if (skip_space(&lx) < 0) goto fail;
        ptx_token t = { .line = lx.line, .col = lx.col, .off = (uint32_t)lx.pos };
        if (lx.pos >= lx.len) {
            t.kind = PTX_TK_EOF;
            if (push(out, &t) < 0) goto oom;
            return 0;
        }
        if (lex_one(&lx, &t) < 0) {
            *line = t.line;
            *col = t.col;
            return -1;
        }
        t.len = (uint32_t)(lx.pos - t.off);
        if (push(out, &t) < 0) goto oom;
    }
oom:
    snprintf(msg, msglen, "out of memory");
fail:
    *line = lx.line;
    *col = lx.col;
    return -1;
}
