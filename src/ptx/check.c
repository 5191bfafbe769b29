/*
** check.c -- checks of the PTX front end that mirror what ptxas (CUDA 13)
** rejects although the grammar accepts it: module header (.version newer
** than this front end knows, unknown .target, .address_size 32), function
** header (.maxntid together with .reqntid), and per instruction (barrier
** ids outside 0..15, 256-bit loads/stores before sm_100, register operands
** of another size than the instruction type).  Each error is located at
** file:line:col like every parse error.  Kept apart from the grammar so
** that new instructions add their own rules here.
*/
#include "ptx_internal.h"
#include <stdlib.h>
#include <string.h>

/* The newest PTX ISA this front end knows: the one nvcc/ptxas 13.0 writes. */
#define PTX_VERSION_MAX_MAJOR 9
#define PTX_VERSION_MAX_MINOR 0

int ptx_check_version(ptx_parser *p, const ptx_token *dir, unsigned major, unsigned minor)
{
    if (major > PTX_VERSION_MAX_MAJOR
        || (major == PTX_VERSION_MAX_MAJOR && minor > PTX_VERSION_MAX_MINOR))
        return ptx_err_tok(p, dir, ".version %u.%u is newer than this front end knows "
                           "(up to %d.%d)", major, minor, PTX_VERSION_MAX_MAJOR,
                           PTX_VERSION_MAX_MINOR);
    return 0;
}

/* Compute capability x10 of the module's .target ("sm_86" -> 86), 0 when
   the module has none. */
static unsigned target_sm(const ptx_parser *p)
{
    const char *t = p->m->target;
    return t && strncmp(t, "sm_", 3) == 0 ? (unsigned)strtoul(t + 3, NULL, 10) : 0;
}

/*
** The real architectures ptxas has known (sm_20 .. sm_121), optionally
** with the architecture-specific 'a' or family 'f' suffix.  ptxas 13
** itself only assembles sm_75 and newer, but older PTX still parses and
** runs here.
*/
int ptx_check_target(ptx_parser *p, const ptx_token *t)
{
    static const unsigned known[] = { 20, 21, 30, 32, 35, 37, 50, 52, 53, 60, 61, 62, 70, 72,
                                      75, 80, 86, 87, 88, 89, 90, 100, 101, 103, 110, 120,
                                      121 };
    const char *s = ptx_tok_text(p, t);
    size_t n = t->len;
    if (n > 4 && strncmp(s, "sm_", 3) == 0) {
        size_t d = 3;
        unsigned v = 0;
        while (d < n && d < 7 && s[d] >= '0' && s[d] <= '9') v = v * 10 + (unsigned)(s[d++] - '0');
        bool suffix_ok = d == n || (d + 1 == n && (s[d] == 'a' || s[d] == 'f'));
        for (size_t i = 0; suffix_ok && d > 3 && i < sizeof known / sizeof *known; i++)
            if (known[i] == v) return 0;
    }
    return ptx_err_tok(p, t, "unknown .target '%.*s' (expected a GPU architecture such as "
                       "sm_75, sm_86 or sm_90a)", (int)n, s);
}

int ptx_check_address_size(ptx_parser *p, const ptx_token *t, int64_t v)
{
    if (v == 32)
        return ptx_err_tok(p, t, ".address_size 32 is not supported: warpsim (like ptxas "
                           "since CUDA 12) runs 64-bit code only");
    return 0;
}

int ptx_check_ntid(ptx_parser *p, const ptx_token *maxntid, const ptx_token *reqntid)
{
    if (maxntid && reqntid) {
        const ptx_token *later = maxntid > reqntid ? maxntid : reqntid;
        return ptx_err_tok(p, later, "conflicting directives: .maxntid and .reqntid cannot "
                           "both be given");
    }
    return 0;
}

/* ------------------------------------------------------------------ */
/* Per instruction                                                     */
/* ------------------------------------------------------------------ */

/* bar{.cta}.sync/.arrive a{, b}, bar.red... d, a, ...: the id `a` when it
   is an immediate. */
static int check_barrier(ptx_parser *p, const ptx_uop *u, const ptx_literal *lit,
                         const uint32_t *opd_tok)
{
    if (u->op != PTX_OP_BAR && u->op != PTX_OP_BARRIER) return 0;
    bool red = u->sub == PTX_BAR_RED_POPC || u->sub == PTX_BAR_RED_AND
               || u->sub == PTX_BAR_RED_OR;
    int i = red ? 1 : 0;
    if (i >= u->nopd || !lit[i].present || lit[i].fkind) return 0;
    if (lit[i].bits > 15)
        return ptx_err_tok(p, &p->tok[opd_tok[i]], "barrier number %lld is out of range "
                           "(0..15)", (long long)lit[i].bits);
    return 0;
}

/* ld/st/ldu of more than 128 bits (.v4 of 64-bit elements): sm_100 on. */
static int check_vector_width(ptx_parser *p, const ptx_uop *u, const ptx_token *mn)
{
    if (u->op != PTX_OP_LD && u->op != PTX_OP_ST && u->op != PTX_OP_LDU) return 0;
    unsigned bits = 8u * u->vec * ptx_type_size[u->type];
    unsigned sm = target_sm(p);
    if (bits > 128 && sm && sm < 100)
        return ptx_err_tok(p, mn, "%u-bit wide %s (.v%u of %u-bit elements) needs .target "
                           "sm_100 or newer, not %s", bits, u->op == PTX_OP_ST ? "store" : "load",
                           u->vec, 8u * ptx_type_size[u->type], p->m->target);
    return 0;
}

/*
** Register operands of another size than the instruction type, for the
** instructions whose every operand has that type (ptxas: "Arguments
** mismatch"): add, sub, min, max, and, or, xor, not, neg, abs, and the
** sources of setp; and the data register of ld/ldu/st, which may be wider
** than the type but not narrower.  cvt, mov, mul/mad (.wide, .hi) and the
** shifts (a u32 amount) follow other rules and are not checked here.
*/
static int check_reg_sizes(ptx_parser *p, const ptx_uop *u, const ptx_token *mn,
                           const uint32_t *opd_tok)
{
    static const uint16_t same[] = { PTX_OP_ADD, PTX_OP_SUB, PTX_OP_MIN, PTX_OP_MAX,
                                     PTX_OP_AND, PTX_OP_OR, PTX_OP_XOR, PTX_OP_NOT,
                                     PTX_OP_NEG, PTX_OP_ABS, PTX_OP_SETP };
    bool checked = false;
    for (size_t i = 0; i < sizeof same / sizeof *same; i++) checked |= u->op == same[i];
    /* ld/ldu/st: the data register may be wider than the type, never narrower */
    int data = u->op == PTX_OP_LD || u->op == PTX_OP_LDU ? 0 : u->op == PTX_OP_ST ? 1 : -1;
    if (data >= 0 && data < u->nopd && u->opd[data].kind == PTX_OPD_REG
        && p->opd_regtype[data] && ptx_type_size[p->opd_regtype[data]] < ptx_type_size[u->type])
        return ptx_err_tok(p, &p->tok[opd_tok[data]], "operand %d of '%.*s' is a %u-bit "
                           "register, narrower than the %u-bit instruction type", data + 1,
                           (int)mn->len, ptx_tok_text(p, mn),
                           8u * ptx_type_size[p->opd_regtype[data]], 8u * ptx_type_size[u->type]);
    ptx_type t = u->op == PTX_OP_SETP ? (ptx_type)u->type2 : (ptx_type)u->type;
    if (!checked || !ptx_type_size[t] || (u->flags & PTX_F_CC)) return 0;
    for (int i = u->op == PTX_OP_SETP ? 1 : 0; i < u->nopd && i < PTX_MAX_OPDS; i++) {
        uint8_t rt = p->opd_regtype[i];
        if (u->opd[i].kind != PTX_OPD_REG || !rt || ptx_type_size[rt] == ptx_type_size[t])
            continue;
        return ptx_err_tok(p, &p->tok[opd_tok[i]], "operand %d of '%.*s' is a %u-bit register, "
                           "but the instruction type is %u-bit", i + 1, (int)mn->len,
                           ptx_tok_text(p, mn), 8u * ptx_type_size[rt], 8u * ptx_type_size[t]);
    }
    return 0;
}

int ptx_check_insn(ptx_parser *p, const ptx_uop *u, const ptx_token *mn, const ptx_literal *lit,
                   const uint32_t *opd_tok)
{
    if (check_barrier(p, u, lit, opd_tok) < 0) return -1;
    if (check_vector_width(p, u, mn) < 0) return -1;
    return check_reg_sizes(p, u, mn, opd_tok);
}
