/*
** decode.c -- instruction modifiers and operands to ptx_uop fields.
**
** Every modifier is looked up in one table of (name, group, field, value)
** rows; an opcode accepts only the groups listed for it, so `.lo` means
** "lower half" on mul but "unsigned <" on setp, and a modifier that no
** allowed group knows is reported by name.  Operand shapes are checked
** against a short pattern per instruction (see op_pattern()).
*/
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "ptx_internal.h"

/* modifier groups */
enum {
    G_RND = 1u << 0, G_RNDI = 1u << 1, G_FTZ = 1u << 2, G_SAT = 1u << 3,
    G_APPROX = 1u << 4, G_CC = 1u << 5, G_MUL = 1u << 6, G_SPACE = 1u << 7,
    G_VEC = 1u << 8, G_CACHE = 1u << 9, G_ORDER = 1u << 10, G_CMP = 1u << 11,
    G_ATOM = 1u << 12, G_SHFL = 1u << 13, G_VOTE = 1u << 14, G_TESTP = 1u << 15,
    G_BAR = 1u << 16, G_PRMT = 1u << 17, G_SHF = 1u << 18, G_UNI = 1u << 19,
    G_SYNC = 1u << 20, G_MINMAX = 1u << 21, G_SHIFTAMT = 1u << 22, G_RELU = 1u << 23,
    G_TO = 1u << 24, G_MATCH = 1u << 25, G_MEMBAR = 1u << 26, G_FENCE = 1u << 27,
    G_CLAMP = 1u << 28, G_NOFTZ = 1u << 29, G_BRX = 1u << 30
};

/* which uop field a modifier sets */
enum { M_RND = 1, M_CMP, M_BOP, M_SUB, M_FLAG, M_SPACE, M_VEC, M_IGNORE, M_HINT, M_BARRED };

typedef struct mod_row { const char *name; uint32_t group; uint8_t field; uint32_t value; } mod_row;

static const mod_row mod_rows[] = {
    {".rn", G_RND, M_RND, PTX_RND_RN}, {".rz", G_RND, M_RND, PTX_RND_RZ},
    {".rm", G_RND, M_RND, PTX_RND_RM}, {".rp", G_RND, M_RND, PTX_RND_RP},
    {".rna", G_RND, M_RND, PTX_RND_RNA},
    {".rni", G_RNDI, M_RND, PTX_RND_RNI}, {".rzi", G_RNDI, M_RND, PTX_RND_RZI},
    {".rmi", G_RNDI, M_RND, PTX_RND_RMI}, {".rpi", G_RNDI, M_RND, PTX_RND_RPI},
    {".ftz", G_FTZ, M_FLAG, PTX_F_FTZ},
    {".sat", G_SAT, M_FLAG, PTX_F_SAT}, {".satfinite", G_SAT, M_FLAG, PTX_F_SAT},
    {".approx", G_APPROX, M_FLAG, PTX_F_APPROX}, {".full", G_APPROX, M_FLAG, PTX_F_FULL},
    {".cc", G_CC, M_FLAG, PTX_F_CC},
    {".lo", G_MUL, M_SUB, PTX_MUL_LO}, {".hi", G_MUL, M_SUB, PTX_MUL_HI},
    {".wide", G_MUL, M_SUB, PTX_MUL_WIDE},
    {".global", G_SPACE, M_SPACE, PTX_SPACE_GLOBAL}, {".shared", G_SPACE, M_SPACE, PTX_SPACE_SHARED},
    {".shared::cta", G_SPACE, M_SPACE, PTX_SPACE_SHARED}, {".local", G_SPACE, M_SPACE, PTX_SPACE_LOCAL},
    {".const", G_SPACE, M_SPACE, PTX_SPACE_CONST}, {".param", G_SPACE, M_SPACE, PTX_SPACE_PARAM},
    {".param::entry", G_SPACE, M_SPACE, PTX_SPACE_PARAM},
    {".param::func", G_SPACE, M_SPACE, PTX_SPACE_PARAM}, {".tex", G_SPACE, M_SPACE, PTX_SPACE_TEX},
    {".v2", G_VEC, M_VEC, 2}, {".v4", G_VEC, M_VEC, 4},
    {".ca", G_CACHE, M_HINT, 0}, {".cg", G_CACHE, M_HINT, 0}, {".cs", G_CACHE, M_HINT, 0},
    {".lu", G_CACHE, M_HINT, 0}, {".cv", G_CACHE, M_HINT, 0}, {".wb", G_CACHE, M_HINT, 0},
    {".wt", G_CACHE, M_HINT, 0}, {".L1", G_CACHE, M_HINT, 0}, {".L2", G_CACHE, M_HINT, 0},
    {".nc", G_CACHE, M_FLAG, PTX_F_NC},
    {".volatile", G_ORDER, M_FLAG, PTX_F_VOLATILE}, {".relaxed", G_ORDER, M_IGNORE, 0},
    {".acquire", G_ORDER, M_IGNORE, 0}, {".release", G_ORDER, M_IGNORE, 0},
    {".acq_rel", G_ORDER, M_IGNORE, 0}, {".sc", G_ORDER, M_IGNORE, 0},
    {".weak", G_ORDER, M_IGNORE, 0}, {".mmio", G_ORDER, M_IGNORE, 0},
    {".cta", G_ORDER, M_IGNORE, 0}, {".gpu", G_ORDER, M_IGNORE, 0},
    {".sys", G_ORDER, M_IGNORE, 0}, {".cluster", G_ORDER, M_IGNORE, 0},
    {".eq", G_CMP, M_CMP, PTX_CMP_EQ}, {".ne", G_CMP, M_CMP, PTX_CMP_NE},
    {".lt", G_CMP, M_CMP, PTX_CMP_LT}, {".le", G_CMP, M_CMP, PTX_CMP_LE},
    {".gt", G_CMP, M_CMP, PTX_CMP_GT}, {".ge", G_CMP, M_CMP, PTX_CMP_GE},
    {".lo", G_CMP, M_CMP, PTX_CMP_LO}, {".ls", G_CMP, M_CMP, PTX_CMP_LS},
    {".hi", G_CMP, M_CMP, PTX_CMP_HI}, {".hs", G_CMP, M_CMP, PTX_CMP_HS},
    {".equ", G_CMP, M_CMP, PTX_CMP_EQU}, {".neu", G_CMP, M_CMP, PTX_CMP_NEU},
    {".ltu", G_CMP, M_CMP, PTX_CMP_LTU}, {".leu", G_CMP, M_CMP, PTX_CMP_LEU},
    {".gtu", G_CMP, M_CMP, PTX_CMP_GTU}, {".geu", G_CMP, M_CMP, PTX_CMP_GEU},
    {".num", G_CMP, M_CMP, PTX_CMP_NUM}, {".nan", G_CMP, M_CMP, PTX_CMP_NAN},
    {".and", G_CMP, M_BOP, PTX_BOP_AND}, {".or", G_CMP, M_BOP, PTX_BOP_OR},
    {".xor", G_CMP, M_BOP, PTX_BOP_XOR},
    {".add", G_ATOM, M_SUB, PTX_ATOM_ADD}, {".min", G_ATOM, M_SUB, PTX_ATOM_MIN},
    {".max", G_ATOM, M_SUB, PTX_ATOM_MAX}, {".inc", G_ATOM, M_SUB, PTX_ATOM_INC},
    {".dec", G_ATOM, M_SUB, PTX_ATOM_DEC}, {".and", G_ATOM, M_SUB, PTX_ATOM_AND},
    {".or", G_ATOM, M_SUB, PTX_ATOM_OR}, {".xor", G_ATOM, M_SUB, PTX_ATOM_XOR},
    {".exch", G_ATOM, M_SUB, PTX_ATOM_EXCH}, {".cas", G_ATOM, M_SUB, PTX_ATOM_CAS},
    {".up", G_SHFL, M_SUB, PTX_SHFL_UP}, {".down", G_SHFL, M_SUB, PTX_SHFL_DOWN},
    {".bfly", G_SHFL, M_SUB, PTX_SHFL_BFLY}, {".idx", G_SHFL, M_SUB, PTX_SHFL_IDX},
    {".all", G_VOTE, M_SUB, PTX_VOTE_ALL}, {".any", G_VOTE, M_SUB, PTX_VOTE_ANY},
    {".uni", G_VOTE, M_SUB, PTX_VOTE_UNI}, {".ballot", G_VOTE, M_SUB, PTX_VOTE_BALLOT},
    {".finite", G_TESTP, M_SUB, PTX_TESTP_FINITE}, {".infinite", G_TESTP, M_SUB, PTX_TESTP_INFINITE},
    {".number", G_TESTP, M_SUB, PTX_TESTP_NUMBER}, {".notanumber", G_TESTP, M_SUB, PTX_TESTP_NOTANUMBER},
    {".normal", G_TESTP, M_SUB, PTX_TESTP_NORMAL}, {".subnormal", G_TESTP, M_SUB, PTX_TESTP_SUBNORMAL},
    {".sync", G_BAR, M_SUB, PTX_BAR_SYNC}, {".arrive", G_BAR, M_SUB, PTX_BAR_ARRIVE},
    {".red", G_BAR, M_BARRED, 0}, {".popc", G_BAR, M_SUB, PTX_BAR_RED_POPC},
    {".and", G_BAR, M_SUB, PTX_BAR_RED_AND}, {".or", G_BAR, M_SUB, PTX_BAR_RED_OR},
    {".aligned", G_BAR, M_FLAG, PTX_F_ALIGNED}, {".cta", G_BAR, M_IGNORE, 0},
    {".f4e", G_PRMT, M_SUB, PTX_PRMT_F4E}, {".b4e", G_PRMT, M_SUB, PTX_PRMT_B4E},
    {".rc8", G_PRMT, M_SUB, PTX_PRMT_RC8}, {".ecl", G_PRMT, M_SUB, PTX_PRMT_ECL},
    {".ecr", G_PRMT, M_SUB, PTX_PRMT_ECR}, {".rc16", G_PRMT, M_SUB, PTX_PRMT_RC16},
    {".l", G_SHF, M_SUB, PTX_SHF_L}, {".r", G_SHF, M_SUB, PTX_SHF_R},
    {".wrap", G_CLAMP, M_IGNORE, 0}, {".clamp", G_CLAMP, M_FLAG, PTX_F_CLAMP},
    {".uni", G_UNI, M_FLAG, PTX_F_UNI},
    {".sync", G_SYNC, M_FLAG, PTX_F_SYNC},
    {".NaN", G_MINMAX, M_FLAG, PTX_F_NAN}, {".xorsign", G_MINMAX, M_FLAG, PTX_F_XORSIGN},
    {".abs", G_MINMAX, M_IGNORE, 0},
    {".shiftamt", G_SHIFTAMT, M_FLAG, PTX_F_SHIFTAMT},
    {".relu", G_RELU, M_FLAG, PTX_F_RELU},
    {".to", G_TO, M_SUB, PTX_CVTA_FROM_GENERIC},
    {".any", G_MATCH, M_SUB, PTX_MATCH_ANY}, {".all", G_MATCH, M_SUB, PTX_MATCH_ALL},
    {".cta", G_MEMBAR, M_IGNORE, 0}, {".gl", G_MEMBAR, M_IGNORE, 0}, {".sys", G_MEMBAR, M_IGNORE, 0},
    {".proxy", G_FENCE, M_IGNORE, 0}, {".alias", G_FENCE, M_IGNORE, 0}, {".async", G_FENCE, M_IGNORE, 0},
    {".noftz", G_NOFTZ, M_IGNORE, 0},
    {".idx", G_BRX, M_IGNORE, 0},
};

/* type use: T_REQ needs exactly the types listed below, T_OPT may have one, T_NO none */
enum { T_NO = 0, T_OPT, T_REQ };

typedef struct op_row { uint32_t groups; uint8_t types; } op_row;

static const op_row op_rows[PTX_OP_COUNT] = {
    [PTX_OP_MOV] = {0, T_REQ},
    [PTX_OP_LD] = {G_SPACE | G_VEC | G_CACHE | G_ORDER, T_REQ},
    [PTX_OP_LDU] = {G_SPACE | G_VEC, T_REQ},
    [PTX_OP_ST] = {G_SPACE | G_VEC | G_CACHE | G_ORDER, T_REQ},
    [PTX_OP_CVTA] = {G_TO | G_SPACE, T_REQ},
    [PTX_OP_CVT] = {G_RND | G_RNDI | G_FTZ | G_SAT | G_RELU, T_REQ},
    [PTX_OP_ISSPACEP] = {G_SPACE, T_NO},
    [PTX_OP_PREFETCH] = {G_SPACE | G_CACHE, T_NO}, [PTX_OP_PREFETCHU] = {G_CACHE, T_NO},
    [PTX_OP_ADD] = {G_RND | G_FTZ | G_SAT | G_CC, T_REQ},
    [PTX_OP_SUB] = {G_RND | G_FTZ | G_SAT | G_CC, T_REQ},
    [PTX_OP_ADDC] = {G_CC, T_REQ}, [PTX_OP_SUBC] = {G_CC, T_REQ},
    [PTX_OP_MUL] = {G_MUL | G_RND | G_FTZ | G_SAT, T_REQ},
    [PTX_OP_MAD] = {G_MUL | G_RND | G_FTZ | G_SAT | G_CC, T_REQ},
    [PTX_OP_MADC] = {G_MUL | G_CC, T_REQ},
    [PTX_OP_MUL24] = {G_MUL, T_REQ}, [PTX_OP_MAD24] = {G_MUL | G_SAT, T_REQ},
    [PTX_OP_SAD] = {0, T_REQ},
    [PTX_OP_DIV] = {G_RND | G_FTZ | G_APPROX, T_REQ}, [PTX_OP_REM] = {0, T_REQ},
    [PTX_OP_ABS] = {G_FTZ, T_REQ}, [PTX_OP_NEG] = {G_FTZ, T_REQ},
    [PTX_OP_MIN] = {G_FTZ | G_MINMAX | G_RELU, T_REQ}, [PTX_OP_MAX] = {G_FTZ | G_MINMAX | G_RELU, T_REQ},
    [PTX_OP_FMA] = {G_RND | G_FTZ | G_SAT | G_RELU, T_REQ},
    [PTX_OP_DP4A] = {0, T_REQ}, [PTX_OP_DP2A] = {G_MUL, T_REQ},
    [PTX_OP_POPC] = {0, T_REQ}, [PTX_OP_CLZ] = {0, T_REQ},
    [PTX_OP_BFIND] = {G_SHIFTAMT, T_REQ}, [PTX_OP_FNS] = {0, T_REQ},
    [PTX_OP_BREV] = {0, T_REQ}, [PTX_OP_BFE] = {0, T_REQ}, [PTX_OP_BFI] = {0, T_REQ},
    [PTX_OP_BMSK] = {G_CLAMP, T_REQ}, [PTX_OP_SZEXT] = {G_CLAMP, T_REQ},
    [PTX_OP_PRMT] = {G_PRMT, T_REQ}, [PTX_OP_LOP3] = {0, T_REQ},
    [PTX_OP_SHF] = {G_SHF | G_CLAMP, T_REQ},
    [PTX_OP_SHL] = {0, T_REQ}, [PTX_OP_SHR] = {0, T_REQ},
    [PTX_OP_AND] = {0, T_REQ}, [PTX_OP_OR] = {0, T_REQ}, [PTX_OP_XOR] = {0, T_REQ},
    [PTX_OP_NOT] = {0, T_REQ}, [PTX_OP_CNOT] = {0, T_REQ}, [PTX_OP_COPYSIGN] = {0, T_REQ},
    [PTX_OP_RCP] = {G_RND | G_FTZ | G_APPROX, T_REQ}, [PTX_OP_SQRT] = {G_RND | G_FTZ | G_APPROX, T_REQ},
    [PTX_OP_RSQRT] = {G_FTZ | G_APPROX, T_REQ}, [PTX_OP_SIN] = {G_FTZ | G_APPROX, T_REQ},
    [PTX_OP_COS] = {G_FTZ | G_APPROX, T_REQ}, [PTX_OP_LG2] = {G_FTZ | G_APPROX, T_REQ},
    [PTX_OP_EX2] = {G_FTZ | G_APPROX, T_REQ}, [PTX_OP_TANH] = {G_FTZ | G_APPROX, T_REQ},
    [PTX_OP_TESTP] = {G_TESTP, T_REQ},
    [PTX_OP_SETP] = {G_CMP | G_FTZ, T_REQ}, [PTX_OP_SET] = {G_CMP | G_FTZ, T_REQ},
    [PTX_OP_SELP] = {0, T_REQ}, [PTX_OP_SLCT] = {G_FTZ, T_REQ},
    [PTX_OP_BRA] = {G_UNI, T_NO}, [PTX_OP_BRX] = {G_UNI | G_BRX, T_NO},
    [PTX_OP_CALL] = {G_UNI, T_NO}, [PTX_OP_RET] = {G_UNI, T_NO},
    [PTX_OP_EXIT] = {0, T_NO}, [PTX_OP_TRAP] = {0, T_NO}, [PTX_OP_BRKPT] = {0, T_NO},
    [PTX_OP_NANOSLEEP] = {0, T_REQ}, [PTX_OP_PMEVENT] = {0, T_NO},
    [PTX_OP_BAR] = {G_BAR, T_OPT}, [PTX_OP_BARRIER] = {G_BAR, T_OPT},
    [PTX_OP_MEMBAR] = {G_MEMBAR, T_NO}, [PTX_OP_FENCE] = {G_ORDER | G_FENCE | G_SPACE, T_NO},
    [PTX_OP_ATOM] = {G_SPACE | G_ORDER | G_ATOM | G_CACHE | G_NOFTZ, T_REQ},
    [PTX_OP_RED] = {G_SPACE | G_ORDER | G_ATOM | G_CACHE | G_NOFTZ, T_REQ},
    [PTX_OP_SHFL] = {G_SYNC | G_SHFL, T_REQ}, [PTX_OP_VOTE] = {G_SYNC | G_VOTE, T_REQ},
    [PTX_OP_ACTIVEMASK] = {0, T_REQ}, [PTX_OP_MATCH] = {G_SYNC | G_MATCH, T_REQ},
    [PTX_OP_REDUX] = {G_SYNC | G_ATOM, T_REQ}, [PTX_OP_BARWARP] = {G_SYNC, T_NO},
};

/* Real PTX instructions warpsim does not implement (better messages). */
bool ptx_known_unsupported(const char *s, size_t len)
{
    static const char *const names[] = {
        "sured", "suq", "istypep", "mma", "wmma", "ldmatrix",
        "stmatrix", "movmatrix", "cp", "mbarrier", "griddepcontrol", "elect", "setmaxnreg",
        "tensormap", "multimem", "applypriority", "discard", "createpolicy", "alloca",
        "stacksave", "stackrestore", "getctarank", "mapa", "wgmma", "tcgen05", "vabsdiff",
        "vadd", "vsub", "vmin", "vmax", "vshl", "vshr", "vmad", "vset", "vabsdiff2", "vabsdiff4",
        "vadd2", "vadd4", "vsub2", "vsub4", "vmin2", "vmin4", "vmax2", "vmax4", "vavrg2",
        "vavrg4", "vset2", "vset4", "cvt.pack", "clusterlaunchcontrol", "st.async", "red.async",
    };
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (strlen(names[i]) == len && memcmp(names[i], s, len) == 0) return true;
    return false;
}

ptx_opcode ptx_opcode_lookup(const char *s, size_t len)
{
    for (int op = PTX_OP_NONE + 1; op < PTX_OP_COUNT; op++) {
        const char *n = ptx_opcode_names[op];
        if (op != PTX_OP_FUNC_END && strlen(n) == len && memcmp(n, s, len) == 0)
            return (ptx_opcode)op;
    }
    return PTX_OP_NONE;
}

/* ------------------------------------------------------------------ */
/* Modifiers                                                           */
/* ------------------------------------------------------------------ */

static const mod_row *find_mod(const ptx_parser *p, const ptx_token *t, uint32_t groups)
{
    static const mod_row hint = {".L?::", G_CACHE, M_HINT, 0};
    for (size_t i = 0; i < sizeof mod_rows / sizeof mod_rows[0]; i++)
        if ((mod_rows[i].group & groups) && ptx_tok_eq(p, t, mod_rows[i].name)) return &mod_rows[i];
    /* .L1::evict_last, .L2::cache_hint, .L2::256B, ... */
    const char *s = ptx_tok_text(p, t);
    if ((groups & G_CACHE) && t->len > 5 && (!memcmp(s, ".L1::", 5) || !memcmp(s, ".L2::", 5)))
        return &hint;
    return NULL;
}

/* Store a field value; a different value already there is a conflict. */
static int set_field(ptx_parser *p, const ptx_token *t, const ptx_token *mn, uint8_t *field, uint32_t v)
{
    if (*field && *field != v)
        return ptx_err_tok(p, t, "conflicting modifier '%.*s' on '%.*s'", (int)t->len, ptx_tok_text(p, t),
                           (int)mn->len, ptx_tok_text(p, mn));
    *field = (uint8_t)v;
    return 0;
}

static int apply_mod(ptx_parser *p, ptx_uop *u, const ptx_token *t, const ptx_token *mn,
                     const mod_row *r, bool *bar_red)
{
    uint8_t vec = u->vec == 1 ? 0 : u->vec;
    switch (r->field) {
    case M_RND:   return set_field(p, t, mn, &u->rnd, r->value);
    case M_CMP:   return set_field(p, t, mn, &u->cmp, r->value);
    case M_BOP:   return set_field(p, t, mn, &u->bop, r->value);
    case M_SUB:   return set_field(p, t, mn, &u->sub, r->value);
    case M_SPACE: return set_field(p, t, mn, &u->space, r->value);
    case M_VEC:
        if (set_field(p, t, mn, &vec, r->value) < 0) return -1;
        u->vec = vec;
        return 0;
    case M_FLAG:  u->flags |= r->value; return 0;
    case M_HINT:  u->flags |= PTX_F_CACHEHINT; return 0;
    case M_BARRED: *bar_red = true; return 0;
    default:      return 0;
    }
}

/* Give the collected type suffixes their meaning for this opcode. */
static int assign_types(ptx_parser *p, ptx_uop *u, const ptx_token *mn, const ptx_type *ty,
                        int nty, const uint32_t *ty_tok)
{
    const char *name = ptx_opcode_names[u->op];
    int want = 1;
    if (u->op == PTX_OP_CVT || u->op == PTX_OP_SET || u->op == PTX_OP_SLCT ||
        u->op == PTX_OP_DP4A || u->op == PTX_OP_DP2A)
        want = 2;
    uint8_t rule = op_rows[u->op].types;
    if (rule == T_NO && nty > 0) {
        const ptx_token *t = &p->tok[ty_tok[0]];
        return ptx_err_tok(p, t, "unsupported modifier '%.*s' on '%s'", (int)t->len, ptx_tok_text(p, t), name);
    }
    if (nty > want) {
        const ptx_token *t = &p->tok[ty_tok[want]];
        return ptx_err_tok(p, t, "too many types on '%s' ('%.*s')", name, (int)t->len, ptx_tok_text(p, t));
    }
    if (rule == T_REQ && nty < want)
        return ptx_err_tok(p, mn, want == 2 ? "'%s' needs two types (e.g. .f32.s32)"
                                            : "missing type on '%s' (e.g. .u32)", name);
    if (nty == 0) return 0;
    switch (u->op) {
    case PTX_OP_CVT: case PTX_OP_SET: case PTX_OP_SLCT:
        u->type = (uint8_t)ty[0];
        u->type2 = (uint8_t)ty[1];
        if (u->op == PTX_OP_SET && ty[0] == PTX_T_PRED) u->flags |= PTX_F_PRED_DST;
        break;
    case PTX_OP_DP4A: case PTX_OP_DP2A:
        u->type = (uint8_t)ty[1];
        u->type2 = (uint8_t)ty[0];
        break;
    case PTX_OP_SETP:
        u->type = u->type2 = (uint8_t)ty[0];
        break;
    default:
        u->type = (uint8_t)ty[0];
        break;
    }
    return 0;
}

static int missing(ptx_parser *p, const ptx_token *mn, const char *what)
{
    return ptx_err_tok(p, mn, "'%.*s' needs %s", (int)mn->len, ptx_tok_text(p, mn), what);
}

/* Defaults and required variants once all modifiers are known. */
static int finish_mods(ptx_parser *p, ptx_uop *u, const ptx_token *mn, bool bar_red)
{
    switch (u->op) {
    case PTX_OP_ATOM: case PTX_OP_RED:
        if (!u->sub) return missing(p, mn, "an operation such as .add or .cas");
        if (u->op == PTX_OP_RED && u->sub == PTX_ATOM_CAS) return missing(p, mn, "an operation other than .cas");
        break;
    case PTX_OP_REDUX:
        if (!u->sub || u->sub == PTX_ATOM_INC || u->sub == PTX_ATOM_DEC || u->sub >= PTX_ATOM_EXCH)
            return missing(p, mn, "one of .add .min .max .and .or .xor");
        break;
    case PTX_OP_SHFL:  if (!u->sub) return missing(p, mn, "a mode: .up .down .bfly or .idx"); break;
    case PTX_OP_VOTE:  if (!u->sub) return missing(p, mn, "a mode: .all .any .uni or .ballot"); break;
    case PTX_OP_TESTP: if (!u->sub) return missing(p, mn, "a test such as .finite"); break;
    case PTX_OP_MATCH: if (!u->sub) return missing(p, mn, ".any or .all"); break;
    case PTX_OP_SHF:   if (!u->sub) return missing(p, mn, ".l or .r"); break;
    case PTX_OP_SETP: case PTX_OP_SET:
        if (!u->cmp) return missing(p, mn, "a comparison such as .lt");
        break;
    case PTX_OP_CVTA:
        if (!u->space) return missing(p, mn, "a state space such as .global");
        if (!u->sub) u->sub = PTX_CVTA_TO_GENERIC;
        break;
    case PTX_OP_ISSPACEP:
        if (!u->space) return missing(p, mn, "a state space such as .global");
        break;
    case PTX_OP_MUL: case PTX_OP_MAD: case PTX_OP_MUL24: case PTX_OP_MAD24: case PTX_OP_MADC:
        if (!u->sub && !ptx_type_is_float((ptx_type)u->type)) u->sub = PTX_MUL_LO;
        break;
    case PTX_OP_BAR: case PTX_OP_BARRIER: {
        bool red_op = u->sub == PTX_BAR_RED_POPC || u->sub == PTX_BAR_RED_AND || u->sub == PTX_BAR_RED_OR;
        if (bar_red && !red_op) return missing(p, mn, ".popc, .and or .or after .red");
        if (red_op && !bar_red) return missing(p, mn, ".red before .popc/.and/.or");
        if (!u->sub) u->sub = PTX_BAR_SYNC;
        if (u->op == PTX_OP_BAR) u->flags |= PTX_F_ALIGNED;   /* bar.* = barrier.*.aligned */
        if (red_op && !u->type) return missing(p, mn, "a type (.u32 for .popc, .pred for .and/.or)");
        if (!red_op && u->type) return ptx_err_tok(p, mn, "type not allowed on this barrier");
        if (u->sub != PTX_BAR_ARRIVE) u->flags |= PTX_F_SYNC;
        break;
    }
    case PTX_OP_BRX:
        return ptx_err_tok(p, mn, "brx.idx (indirect branch through a table) is not supported");
    default:
        break;
    }
    if (u->vec != 1 && u->op != PTX_OP_LD && u->op != PTX_OP_ST && u->op != PTX_OP_LDU)
        return ptx_err_tok(p, mn, "vector modifiers are only supported on ld/st");
    return 0;
}

int ptx_decode_mods(ptx_parser *p, ptx_uop *u, const ptx_token *mn, const uint32_t *mods, uint32_t nmods)
{
    ptx_type ty[4];
    uint32_t ty_tok[4];
    int nty = 0;
    bool bar_red = false;
    uint32_t groups = op_rows[u->op].groups;
    if (ptx_op_is_tex(u->op)) return ptx_decode_tex_mods(p, u, mn, mods, nmods);
    for (uint32_t i = 0; i < nmods; i++) {
        const ptx_token *t = &p->tok[mods[i]];
        ptx_type tt = ptx_type_from_dir(p, t);
        if (tt != PTX_T_NONE) {
            if (nty == 4) return ptx_err_tok(p, t, "too many types");
            ty_tok[nty] = mods[i];
            ty[nty++] = tt;
            continue;
        }
        const mod_row *r = find_mod(p, t, groups);
        if (!r)
            return ptx_err_tok(p, t, "unsupported modifier '%.*s' on '%.*s'", (int)t->len, ptx_tok_text(p, t),
                               (int)mn->len, ptx_tok_text(p, mn));
        if (apply_mod(p, u, t, mn, r, &bar_red) < 0) return -1;
    }
    if (assign_types(p, u, mn, ty, nty, ty_tok) < 0) return -1;
    return finish_mods(p, u, mn, bar_red);
}

/* ------------------------------------------------------------------ */
/* Literals                                                            */
/* ------------------------------------------------------------------ */

static uint64_t f32_bits(float f) { uint32_t b; memcpy(&b, &f, 4); return b; }
static uint64_t f64_bits(double d) { uint64_t b; memcpy(&b, &d, 8); return b; }
static float bits_f32(uint64_t b) { uint32_t x = (uint32_t)b; float f; memcpy(&f, &x, 4); return f; }
static double bits_f64(uint64_t b) { double d; memcpy(&d, &b, 8); return d; }

/* IEEE half from float, round to nearest even. */
static uint16_t f16_bits(float f)
{
    uint32_t x = (uint32_t)f32_bits(f);
    uint32_t sign = (x >> 16) & 0x8000u;
    int32_t exp = (int32_t)((x >> 23) & 0xff) - 127 + 15;
    uint32_t mant = x & 0x7fffffu;
    if (((x >> 23) & 0xff) == 0xff) return (uint16_t)(sign | 0x7c00u | (mant ? 0x200u : 0));
    if (exp >= 31) return (uint16_t)(sign | 0x7c00u);
    if (exp <= 0) {
        if (exp < -10) return (uint16_t)sign;
        mant |= 0x800000u;
        uint32_t shift = (uint32_t)(14 - exp);
        uint32_t h = mant >> shift, rem = mant & ((1u << shift) - 1), half = 1u << (shift - 1);
        if (rem > half || (rem == half && (h & 1))) h++;
        return (uint16_t)(sign | h);
    }
    uint32_t h = ((uint32_t)exp << 10) | (mant >> 13), rem = mant & 0x1fffu;
    if (rem > 0x1000u || (rem == 0x1000u && (h & 1))) h++;
    return (uint16_t)(sign | h);
}

static uint16_t bf16_bits(float f)
{
    uint32_t x = (uint32_t)f32_bits(f);
    if ((x & 0x7fffffffu) > 0x7f800000u) return (uint16_t)((x >> 16) | 0x40);
    x += 0x7fffu + ((x >> 16) & 1);
    return (uint16_t)(x >> 16);
}

int ptx_literal_bits(ptx_parser *p, const ptx_literal *l, ptx_type t, const ptx_token *at, uint64_t *bits)
{
    bool is_float_type = ptx_type_is_float(t) && t != PTX_T_F16X2 && t != PTX_T_BF16X2;
    if (!is_float_type) {
        if (l->fkind == PTX_FLT_DEC)
            return ptx_err_tok(p, at, "floating-point constant used with non-float type .%s "
                               "(write its bits as 0f/0d or an integer)", ptx_type_names[t]);
        /* registers keep signed types sign-extended, others zero-extended */
        switch (ptx_type_size[t]) {
        case 1: *bits = ptx_type_is_signed(t) ? (uint64_t)(int64_t)(int8_t)l->bits : (uint8_t)l->bits; break;
        case 2: *bits = ptx_type_is_signed(t) ? (uint64_t)(int64_t)(int16_t)l->bits : (uint16_t)l->bits; break;
        case 4: *bits = ptx_type_is_signed(t) ? (uint64_t)(int64_t)(int32_t)l->bits : (uint32_t)l->bits; break;
        default: *bits = l->bits; break;
        }
        return 0;
    }
    double d;
    switch (l->fkind) {
    case 0:           d = (double)(int64_t)l->bits; break;
    case PTX_FLT_F32: d = bits_f32(l->bits); break;
    default:          d = bits_f64(l->bits); break;
    }
    switch (t) {
    case PTX_T_F64: *bits = l->fkind == PTX_FLT_F64 || l->fkind == PTX_FLT_DEC ? l->bits : f64_bits(d); break;
    case PTX_T_F16: *bits = f16_bits((float)d); break;
    case PTX_T_BF16: *bits = bf16_bits((float)d); break;
    default:        *bits = l->fkind == PTX_FLT_F32 ? (l->bits & 0xffffffffu) : f32_bits((float)d); break;
    }
    return 0;
}

/* ------------------------------------------------------------------ */
/* Operand shapes                                                      */
/* ------------------------------------------------------------------ */

/*
** Patterns, one letter per operand, alternatives separated by '|':
**   D destination register (or _ / vector)   Q destination predicate
**   S source value (register, constant, special register, symbol)
**   P predicate source (may be negated)      A memory address [..]
**   L label
*/
static const char *op_pattern(const ptx_uop *u)
{
    bool hint = u->flags & PTX_F_CACHEHINT;
    bool sync = u->flags & PTX_F_SYNC;
    switch (u->op) {
    case PTX_OP_MOV: case PTX_OP_CVTA: case PTX_OP_ABS: case PTX_OP_NEG: case PTX_OP_NOT:
    case PTX_OP_CNOT: case PTX_OP_POPC: case PTX_OP_CLZ: case PTX_OP_BFIND: case PTX_OP_BREV:
    case PTX_OP_RCP: case PTX_OP_SQRT: case PTX_OP_RSQRT: case PTX_OP_SIN: case PTX_OP_COS:
    case PTX_OP_LG2: case PTX_OP_EX2: case PTX_OP_TANH:
        return "DS";
    case PTX_OP_LD:  return hint ? "DA|DAS" : "DA";
    case PTX_OP_LDU: return "DA";
    case PTX_OP_ST:  return hint ? "AS|ASS" : "AS";
    case PTX_OP_CVT: return "DS|DSS";
    case PTX_OP_ISSPACEP: case PTX_OP_TESTP: return "QS";
    case PTX_OP_PREFETCH: case PTX_OP_PREFETCHU: return "A";
    case PTX_OP_MIN: case PTX_OP_MAX: return "DSS|DSSS";
    case PTX_OP_ADD: case PTX_OP_SUB: case PTX_OP_ADDC: case PTX_OP_SUBC: case PTX_OP_MUL:
    case PTX_OP_MUL24: case PTX_OP_DIV: case PTX_OP_REM: case PTX_OP_SHL: case PTX_OP_SHR:
    case PTX_OP_AND: case PTX_OP_OR: case PTX_OP_XOR: case PTX_OP_COPYSIGN: case PTX_OP_BMSK:
    case PTX_OP_SZEXT:
        return "DSS";
    case PTX_OP_MAD: case PTX_OP_MADC: case PTX_OP_MAD24: case PTX_OP_SAD: case PTX_OP_FMA:
    case PTX_OP_DP4A: case PTX_OP_DP2A: case PTX_OP_BFE: case PTX_OP_FNS: case PTX_OP_PRMT:
    case PTX_OP_SHF: case PTX_OP_SLCT:
        return "DSSS";
    case PTX_OP_BFI: case PTX_OP_LOP3: return "DSSSS";
    case PTX_OP_SETP: return "QSS|QSSP";
    case PTX_OP_SET:  return (u->flags & PTX_F_PRED_DST) ? "QSS|QSSP" : "DSS|DSSP";
    case PTX_OP_SELP: return "DSSP";
    case PTX_OP_BRA:  return "L";
    case PTX_OP_NANOSLEEP: case PTX_OP_PMEVENT: case PTX_OP_BARWARP: return "S";
    case PTX_OP_BAR: case PTX_OP_BARRIER:
        if (u->sub == PTX_BAR_RED_POPC) return "DSP|DSSP";
        if (u->sub == PTX_BAR_RED_AND || u->sub == PTX_BAR_RED_OR) return "QSP|QSSP";
        return "S|SS";
    case PTX_OP_ATOM:
        if (u->sub == PTX_ATOM_CAS) return hint ? "DASS|DASSS" : "DASS";
        return hint ? "DAS|DASS" : "DAS";
    case PTX_OP_RED: return hint ? "AS|ASS" : "AS";
    case PTX_OP_SHFL: return sync ? "DSSSS" : "DSSS";
    case PTX_OP_VOTE:
        if (u->sub == PTX_VOTE_BALLOT) return sync ? "DPS" : "DP";
        return sync ? "QPS" : "QP";
    case PTX_OP_ACTIVEMASK: return "D";
    case PTX_OP_MATCH: case PTX_OP_REDUX: return "DSS";
    default: return "";  /* ret, exit, trap, brkpt, membar, fence */
    }
}

/* Type an immediate in operand `i` is written in. */
static ptx_type imm_type(const ptx_uop *u, int i)
{
    switch (u->op) {
    case PTX_OP_CVT: return i >= 1 ? (ptx_type)u->type2 : (ptx_type)u->type;
    case PTX_OP_SETP: case PTX_OP_SET: return (ptx_type)u->type2;
    case PTX_OP_SLCT: return i == 3 ? (ptx_type)u->type2 : (ptx_type)u->type;
    case PTX_OP_SHL: case PTX_OP_SHR: return i == 2 ? PTX_T_U32 : (ptx_type)u->type;
    case PTX_OP_BFE: return i >= 2 ? PTX_T_U32 : (ptx_type)u->type;
    case PTX_OP_BFI: return i >= 3 ? PTX_T_U32 : (ptx_type)u->type;
    case PTX_OP_SHF: case PTX_OP_PRMT: case PTX_OP_LOP3: case PTX_OP_SHFL: case PTX_OP_VOTE:
    case PTX_OP_MATCH: case PTX_OP_BAR: case PTX_OP_BARRIER: case PTX_OP_BARWARP:
    case PTX_OP_NANOSLEEP: case PTX_OP_PMEVENT: case PTX_OP_TESTP:
        return (u->op == PTX_OP_TESTP || (u->op == PTX_OP_MATCH && i == 1)) ? (ptx_type)u->type : PTX_T_B32;
    case PTX_OP_REDUX: return i == 1 ? (ptx_type)u->type : PTX_T_B32;
    default: return (ptx_type)u->type;
    }
}

static bool vector_ok(const ptx_uop *u)
{
    return u->op == PTX_OP_MOV || u->op == PTX_OP_LD || u->op == PTX_OP_LDU || u->op == PTX_OP_ST;
}

static const char *kind_name(uint8_t k)
{
    static const char *const n[] = {"nothing", "a register", "a predicate", "a constant",
                                    "a special register", "an address", "a symbol", "a vector",
                                    "a label", "a function", "'_'"};
    return k < sizeof n / sizeof n[0] ? n[k] : "?";
}

/* Does operand `o` fit letter `c`?  Returns NULL or what was expected. */
static const char *fits(const ptx_uop *u, const ptx_operand *o, char c)
{
    bool pred_type = u->type == PTX_T_PRED;
    switch (c) {
    case 'D':
        if (o->kind == PTX_OPD_REG || o->kind == PTX_OPD_SINK || o->kind == PTX_OPD_VEC) return NULL;
        if (o->kind == PTX_OPD_PRED && pred_type) return NULL;
        return "a register destination";
    case 'Q':
        return o->kind == PTX_OPD_PRED || o->kind == PTX_OPD_SINK ? NULL : "a predicate destination";
    case 'S':
        if (o->kind == PTX_OPD_REG || o->kind == PTX_OPD_IMM || o->kind == PTX_OPD_SREG ||
            o->kind == PTX_OPD_SYM || o->kind == PTX_OPD_VEC) return NULL;
        if (o->kind == PTX_OPD_FUNC && u->op == PTX_OP_MOV) return NULL;
        if (o->kind == PTX_OPD_PRED && pred_type) return NULL;
        return "a register or constant";
    case 'P':
        return o->kind == PTX_OPD_PRED || o->kind == PTX_OPD_IMM ? NULL : "a predicate";
    case 'A':
        return o->kind == PTX_OPD_ADDR ? NULL : "an address in [ ]";
    case 'L':
        return o->kind == PTX_OPD_LABEL ? NULL : "a label";
    default:
        return "nothing";
    }
}

/* Extra rules: '|' and '!' placement, vectors. */
static int check_details(ptx_parser *p, const ptx_uop *u, const ptx_token *mn, const char *pat,
                         const uint32_t *opd_tok)
{
    const char *name = ptx_opcode_names[u->op];
    for (int i = 0; i < u->nopd; i++) {
        const ptx_operand *o = &u->opd[i];
        const ptx_token *t = &p->tok[opd_tok[i]];
        if ((o->kind == PTX_OPD_REG || o->kind == PTX_OPD_PRED) && o->reg2 >= 0 &&
            !(i == 0 && (u->op == PTX_OP_SHFL || u->op == PTX_OP_SETP || u->op == PTX_OP_MATCH ||
                         u->op == PTX_OP_SET)))
            return ptx_err_tok(p, t, "'|' is only allowed on the destination of shfl, setp and match");
        if ((o->flags & PTX_OPD_F_NEG) && pat[i] != 'P')
            return ptx_err_tok(p, t, "'!' is not allowed on operand %d of '%s'", i + 1, name);
        if (o->kind == PTX_OPD_VEC) {
            if (!vector_ok(u))
                return ptx_err_tok(p, t, "vector operand not allowed on '%s'", name);
            if (u->op != PTX_OP_MOV && o->nvec != u->vec)
                return ptx_err_tok(p, t, "vector operand has %u elements but '%.*s' moves %u",
                                   o->nvec, (int)mn->len, ptx_tok_text(p, mn), u->vec);
        } else if (u->vec > 1 && ((u->op == PTX_OP_ST && i == 1) || (u->op != PTX_OP_ST && i == 0))) {
            return ptx_err_tok(p, t, "'%.*s' needs a %u-element vector operand", (int)mn->len,
                               ptx_tok_text(p, mn), u->vec);
        }
    }
    return 0;
}

/* Pick the alternative of `pats` with `n` letters (NULL if none). */
static const char *pick_pattern(const char *pats, int n, char *buf, size_t len, int *expected)
{
    const char *s = pats;
    *expected = -1;
    for (;;) {
        const char *e = strchr(s, '|');
        size_t k = e ? (size_t)(e - s) : strlen(s);
        if (*expected < 0) *expected = (int)k;
        if ((int)k == n && k < len) {
            memcpy(buf, s, k);
            buf[k] = 0;
            return buf;
        }
        if (!e) return NULL;
        s = e + 1;
    }
}

int ptx_check_operands(ptx_parser *p, ptx_uop *u, const ptx_token *mn, const ptx_literal *lit,
                       const uint32_t *opd_tok)
{
    char buf[PTX_MAX_OPDS + 1];
    int expected;
    if (ptx_op_is_tex(u->op)) return ptx_check_tex_operands(p, u, mn, lit, opd_tok);
    const char *pats = op_pattern(u);
    const char *pat = pick_pattern(pats, u->nopd, buf, sizeof buf, &expected);
    if (!pat) {
        const char *bar = strchr(pats, '|');
        if (bar)
            return ptx_err_tok(p, mn, "wrong operand count for '%.*s': expected %d or %d, got %d",
                               (int)mn->len, ptx_tok_text(p, mn), expected,
                               (int)strlen(strrchr(pats, '|') + 1), u->nopd);
        return ptx_err_tok(p, mn, "wrong operand count for '%.*s': expected %d, got %d", (int)mn->len,
                           ptx_tok_text(p, mn), expected, u->nopd);
    }
    for (int i = 0; i < u->nopd; i++) {
        const char *want = fits(u, &u->opd[i], pat[i]);
        if (want) {
            const ptx_token *t = &p->tok[opd_tok[i]];
            return ptx_err_tok(p, t, "operand %d of '%.*s' must be %s, not %s", i + 1, (int)mn->len,
                               ptx_tok_text(p, mn), want, kind_name(u->opd[i].kind));
        }
    }
    if (check_details(p, u, mn, pat, opd_tok) < 0) return -1;
    for (int i = 0; i < u->nopd; i++) {
        if (u->opd[i].kind != PTX_OPD_IMM) continue;
        uint64_t bits;
        ptx_type t = pat[i] == 'P' ? PTX_T_PRED : imm_type(u, i);
        if (ptx_literal_bits(p, &lit[i], t, &p->tok[opd_tok[i]], &bits) < 0) return -1;
        u->opd[i].imm = (int64_t)bits;
    }
    return 0;
}
