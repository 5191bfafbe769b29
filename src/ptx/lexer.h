/*
** lexer.h -- PTX tokens.  The lexer turns the whole text into an array of
** tokens up front (the parser needs a little lookahead and adjacency
** tests such as `%tid` immediately followed by `.x`).
*/
#ifndef WS_PTX_LEXER_H
#define WS_PTX_LEXER_H

#include <stddef.h>
#include <stdint.h>
#include <stdbool.h>

typedef enum ptx_tok_kind {
    PTX_TK_EOF = 0,
    PTX_TK_IDENT,     /* foo, %r1, $L__BB0_2, _ */
    PTX_TK_DIRECTIVE, /* .reg, .u32, .L1::evict_last (text includes the dot) */
    PTX_TK_INT,       /* 42, 0x2A, 052, 0b101, 42U (value in ival) */
    PTX_TK_FLOAT,     /* 0f3F800000, 0d3FF0..., 1.5, 1e-3 */
    PTX_TK_STRING,    /* "..." (text includes the quotes) */
    PTX_TK_PUNCT      /* one character: , ; : [ ] { } ( ) + - ! | < > = @ */
} ptx_tok_kind;

/* how a PTX_TK_FLOAT was written: its bits in ival mean different things */
enum {
    PTX_FLT_F32 = 1, /* 0fXXXXXXXX: ival = IEEE single bits */
    PTX_FLT_F64,     /* 0dXXXXXXXXXXXXXXXX: ival = IEEE double bits */
    PTX_FLT_DEC      /* 1.5 / 1e-3: ival = IEEE double bits of the value */
};

typedef struct ptx_token {
    uint8_t  kind;      /* ptx_tok_kind */
    uint8_t  fkind;     /* PTX_FLT_* for floats */
    bool     is_unsigned; /* integer with a U suffix */
    char     punct;     /* PTX_TK_PUNCT: the character */
    uint32_t line, col; /* 1-based */
    uint32_t off, len;  /* where the text is in the source */
    uint64_t ival;      /* integer value or float bits */
} ptx_token;

typedef struct ptx_tokens {
    ptx_token *v;
    size_t n, cap;
} ptx_tokens;

/* Tokenize `len` bytes of `src` into `out` (always ending with EOF).
   Returns 0, or -1 with `msg` (no position prefix) and `line`/`col` set.
   The caller frees out->v in either case. */
int ptx_lex(const char *src, size_t len, ptx_tokens *out,
            char *msg, size_t msglen, uint32_t *line, uint32_t *col);

#endif /* WS_PTX_LEXER_H */
