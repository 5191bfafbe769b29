/*
** ptx_internal.h -- what the files of the PTX front end share: the parser
** state, the scoped symbol table and helpers for tokens and errors.
** Nothing outside src/ptx/ includes this.
*/
#ifndef WS_PTX_INTERNAL_H
#define WS_PTX_INTERNAL_H

#include <stdarg.h>
#include "ptx.h"
#include "lexer.h"

/* ------------------------------------------------------------------ */
/* Limits (bad input gets an error instead of a huge allocation)      */
/* ------------------------------------------------------------------ */
#define PTX_MAX_REGS_PER_FUNC   (1u << 20)
#define PTX_MAX_REGS_PER_MODULE (1u << 22)
#define PTX_MAX_VAR_BYTES       (1ull << 40)
#define PTX_MAX_INIT_BYTES      (64u << 20)  /* per variable and per module */
#define PTX_MAX_FRAME_BYTES     (1u << 30)
#define PTX_MAX_MODS            24
#define PTX_MAX_CALL_ARGS       16
#define PTX_MAX_CALL_RETS       4
#define PTX_MAX_UOPS            (1u << 26)

/* ------------------------------------------------------------------ */
/* Scoped symbol table                                                 */
/* ------------------------------------------------------------------ */

typedef enum ptx_sym_kind {
    PTX_SYM_REG = 1,  /* val = register slot */
    PTX_SYM_PRED,     /* val = predicate slot */
    PTX_SYM_KPARAM,   /* kernel parameter: val = offset in the param buffer */
    PTX_SYM_FRAME,    /* .func param/retval, callseq .param, .local var:
                         val = call-frame offset */
    PTX_SYM_VAR,      /* module variable (also hoisted .shared/.global/.const
                         declared in a body): val = index in module vars */
    PTX_SYM_FUNC,     /* val = function index */
    PTX_SYM_LABEL,    /* val = uop index, -1 while only referenced */
    PTX_SYM_VREG      /* vector register (.reg .v2/.v4): val = slot of
                         element 0, size = element count; the elements
                         are consecutive slots named %v.x, %v.y, ... */
} ptx_sym_kind;

typedef struct ptx_sym {
    char    *name;
    uint32_t hash;
    int32_t  next;    /* next entry in the same bucket (older), -1 */
    uint8_t  kind;    /* ptx_sym_kind */
    uint8_t  type;    /* declared type (registers, params) */
    int64_t  val;
    uint32_t size;    /* bytes: params and frame variables */
    uint32_t line, col;
} ptx_sym;

typedef struct ptx_symtab {
    ptx_sym *e;
    uint32_t n, cap;
    int32_t *bucket;
    uint32_t nbucket;     /* power of two */
} ptx_symtab;

void ptx_symtab_free(ptx_symtab *t);
/* Most recent entry called `name` (length `len`), or NULL. */
ptx_sym *ptx_symtab_find(ptx_symtab *t, const char *name, size_t len);
/* Add an entry (name copied); NULL when out of memory. */
ptx_sym *ptx_symtab_add(ptx_symtab *t, const char *name, size_t len, ptx_sym_kind kind, int64_t val);
/* Drop entries added after the table had `mark` entries (end of a scope). */
void ptx_symtab_pop(ptx_symtab *t, uint32_t mark);

/* ------------------------------------------------------------------ */
/* Parser state                                                        */
/* ------------------------------------------------------------------ */

/* a label use waiting for the label's definition */
typedef struct ptx_fixup {
    uint32_t uop;
    uint8_t  opd;        /* operand index, 0xff: only uop.target */
    uint32_t tok;        /* token of the label name (for messages) */
} ptx_fixup;

typedef struct ptx_parser {
    const char *src;
    const char *filename;
    ptx_token *tok;
    size_t ntok, pos;
    ptx_error *err;
    bool failed;
    ptx_module *m;
    uint32_t funcs_cap, vars_cap, uops_cap, calls_cap;
    ptx_symtab syms;     /* module scope, then function and block scopes */
    uint32_t scope_mark; /* first entry of the innermost scope */

    /* the function whose body is being parsed */
    int32_t  fn;
    uint32_t regs_cap, preds_cap;
    uint32_t frame_top;  /* next free call-frame byte */
    uint32_t frame_max;  /* high-water mark of frame_top (scopes reuse space) */
    uint64_t total_regs; /* registers declared in the whole module */
    uint64_t init_bytes; /* bytes of initializers in the whole module */
    ptx_symtab labels;
    ptx_fixup *fixups;
    uint32_t nfixups, fixups_cap;
    /* declared type of each register operand of the instruction being
       parsed (PTX_T_NONE: not a plain register), for check.c */
    uint8_t opd_regtype[PTX_MAX_OPDS];
} ptx_parser;

/* ---- tokens and errors (parse.c) ---- */
int ptx_err_at(ptx_parser *p, uint32_t line, uint32_t col, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
int ptx_err_tok(ptx_parser *p, const ptx_token *t, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
int ptx_err_oom(ptx_parser *p);
static inline const ptx_token *ptx_peek(const ptx_parser *p) { return &p->tok[p->pos]; }
static inline const ptx_token *ptx_peek_at(const ptx_parser *p, size_t k)
{
    return p->pos + k < p->ntok ? &p->tok[p->pos + k] : &p->tok[p->ntok - 1];
}
static inline const ptx_token *ptx_next(ptx_parser *p)
{
    const ptx_token *t = &p->tok[p->pos];
    if (t->kind != PTX_TK_EOF) p->pos++;
    return t;
}
static inline bool ptx_is_punct(const ptx_token *t, char c)
{
    return t->kind == PTX_TK_PUNCT && t->punct == c;
}
/* true if `b` starts right where `a` ends (no space between) */
static inline bool ptx_adjacent(const ptx_token *a, const ptx_token *b)
{
    return a->off + a->len == b->off;
}
bool ptx_tok_eq(const ptx_parser *p, const ptx_token *t, const char *s);
bool ptx_is_dir(const ptx_parser *p, const ptx_token *t, const char *s);
const char *ptx_tok_text(const ptx_parser *p, const ptx_token *t);
/* Copy of the token text (NULL when out of memory). */
char *ptx_tok_dup(const ptx_parser *p, const ptx_token *t);
/* Consume punctuation `c` or fail with "expected 'c' <context>". */
int ptx_expect(ptx_parser *p, char c, const char *context);
/* Describe token `t` for "expected X, found Y" messages. */
const char *ptx_tok_describe(const ptx_parser *p, const ptx_token *t, char *buf, size_t n);
/* Parse an optionally negative integer literal into *v. */
int ptx_parse_int(ptx_parser *p, int64_t *v, const char *what);
/* Type directive (.u32 ...) to ptx_type, PTX_T_NONE if it is not one. */
ptx_type ptx_type_from_dir(const ptx_parser *p, const ptx_token *t);
ptx_type ptx_type_from_name(const char *s, size_t len);

/* ---- module arrays (parse.c) ---- */
ptx_uop  *ptx_new_uop(ptx_parser *p);
ptx_var  *ptx_new_var(ptx_parser *p);
ptx_call *ptx_new_call(ptx_parser *p);

/* ---- declarations (decl.c) ---- */
/* .reg declaration inside a body (the .reg token is current). */
int ptx_parse_reg_decl(ptx_parser *p);
/* .global/.shared/.const/.local variable; `in_func` for body scope;
   `first` is the token of the first attribute (.extern/.visible/space). */
int ptx_parse_var_decl(ptx_parser *p, bool in_func, bool is_extern);
/* One `.param [attrs] .type name[N]` in a parameter list or body.
   Fills `out` (name owned by caller on success). */
int ptx_parse_param(ptx_parser *p, ptx_param *out, bool is_kernel, const ptx_token **name_tok);
/* `.param` declared inside a body or call sequence (token is current). */
int ptx_parse_body_param(ptx_parser *p);
/* Reserve `size` bytes aligned to `align` in the current call frame. */
int ptx_frame_alloc(ptx_parser *p, uint32_t size, uint32_t align, const ptx_token *at, uint32_t *off);

/* ---- function bodies (body.c) ---- */
int ptx_parse_body(ptx_parser *p);

/* ---- instruction decoding (decode.c) ---- */
typedef struct ptx_literal {
    bool     present;
    uint8_t  fkind;      /* 0 = integer, else PTX_FLT_* */
    uint64_t bits;       /* integer value (negated if written with '-') or float bits */
} ptx_literal;

/* Bits of literal `l` as a value of type `t` (float conversions etc). */
int ptx_literal_bits(ptx_parser *p, const ptx_literal *l, ptx_type t,
                     const ptx_token *at, uint64_t *bits);
/* A real PTX mnemonic that warpsim does not implement? */
bool ptx_known_unsupported(const char *s, size_t len);
/* Mnemonic to opcode (PTX_OP_NONE when unknown). */
ptx_opcode ptx_opcode_lookup(const char *s, size_t len);
/* Apply the modifier tokens `mods` to `u` (u->op set). */
int ptx_decode_mods(ptx_parser *p, ptx_uop *u, const ptx_token *mnem,
                    const uint32_t *mods, uint32_t nmods);
/* Check operand count/kinds and turn literals into bits of their type. */
int ptx_check_operands(ptx_parser *p, ptx_uop *u, const ptx_token *mnem,
                       const ptx_literal *lit, const uint32_t *opd_tok);

/* ---- what ptxas rejects beyond the grammar (check.c) ---- */
/* .version newer than the front end knows. */
int ptx_check_version(ptx_parser *p, const ptx_token *dir, unsigned major, unsigned minor);
/* .target that names no known GPU architecture (token `t`). */
int ptx_check_target(ptx_parser *p, const ptx_token *t);
/* .address_size `v` (32 or 64) that warpsim cannot run. */
int ptx_check_address_size(ptx_parser *p, const ptx_token *t, int64_t v);
/* A function header with both .maxntid and .reqntid (tokens, NULL: absent). */
int ptx_check_ntid(ptx_parser *p, const ptx_token *maxntid, const ptx_token *reqntid);
/* One parsed instruction: barrier ids, vector widths for the target,
   register sizes against the instruction type. */
int ptx_check_insn(ptx_parser *p, const ptx_uop *u, const ptx_token *mn, const ptx_literal *lit,
                   const uint32_t *opd_tok);

/* `{a, b, ..}` into `o` (the '{' is current) (body.c). */
int ptx_parse_vector_operand(ptx_parser *p, ptx_operand *o);

/* ---- textures and surfaces (texinst.c) ---- */
/* Modifiers and types of tex/tld4/txq/suld/sust. */
int ptx_decode_tex_mods(ptx_parser *p, ptx_uop *u, const ptx_token *mn, const uint32_t *mods,
                        uint32_t nmods);
/* `[handle]` or `[handle, {coords}]` into opd[i] (and opd[i+1]): the
   number of operands filled (1 or 2), or -1 after an error. */
int ptx_parse_tex_address(ptx_parser *p, uint32_t ui, int i);
/* Operand count and shapes of a texture or surface instruction. */
int ptx_check_tex_operands(ptx_parser *p, ptx_uop *u, const ptx_token *mn, const ptx_literal *lit,
                           const uint32_t *opd_tok);

/* ---- module items (parse.c) ---- */
int ptx_parse_module_items(ptx_parser *p);

/* ---- after parsing (layout.c, cfg.c) ---- */
int ptx_finish_module(ptx_parser *p);
int ptx_build_cfg(ptx_parser *p, uint32_t func);

static inline uint64_t ptx_align_up(uint64_t x, uint64_t a) { return a ? (x + a - 1) / a * a : x; }

#endif /* WS_PTX_INTERNAL_H */
