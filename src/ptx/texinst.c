/*
** texinst.c -- the texture and surface instructions of the front end:
** tex, tld4, txq, suld.b and sust.b in unified mode (the texture or
** surface is a .u64 object handle in a register, which is what nvcc emits
** for cudaTextureObject_t / cudaSurfaceObject_t).  Their modifiers and
** their `[handle, {coordinates}]` operand differ from every other
** instruction's, so they are decoded here; the uop layout is described
** with PTX_GEOM_* in ptx_ir.h.
*/
#include <string.h>
#include "ptx_internal.h"

typedef struct tex_mod { const char *name; uint8_t what; uint8_t value; } tex_mod;

/* what a modifier sets */
enum { TM_GEOM = 1, TM_VEC, TM_LEVEL, TM_COMP, TM_QUERY, TM_SURF, TM_FORMAT, TM_IGNORE };

static const tex_mod tex_mods[] = {
    {".1d", TM_GEOM, PTX_GEOM_1D}, {".2d", TM_GEOM, PTX_GEOM_2D}, {".3d", TM_GEOM, PTX_GEOM_3D},
    {".a1d", TM_GEOM, PTX_GEOM_A1D}, {".a2d", TM_GEOM, PTX_GEOM_A2D},
    {".v2", TM_VEC, 2}, {".v4", TM_VEC, 4},
    {".level", TM_LEVEL, PTX_TEXL_LEVEL}, {".grad", TM_LEVEL, PTX_TEXL_GRAD},
    {".base", TM_LEVEL, PTX_TEXL_NONE},
    {".r", TM_COMP, 0}, {".g", TM_COMP, 1}, {".b", TM_COMP, 2}, {".a", TM_COMP, 3},
    {".width", TM_QUERY, PTX_TXQ_WIDTH}, {".height", TM_QUERY, PTX_TXQ_HEIGHT},
    {".depth", TM_QUERY, PTX_TXQ_DEPTH},
    {".channel_data_type", TM_QUERY, PTX_TXQ_CHANNEL_DATA_TYPE},
    {".channel_order", TM_QUERY, PTX_TXQ_CHANNEL_ORDER},
    {".normalized_coords", TM_QUERY, PTX_TXQ_NORMALIZED_COORDS},
    {".filter_mode", TM_QUERY, PTX_TXQ_FILTER_MODE},
    {".addr_mode_0", TM_QUERY, PTX_TXQ_ADDR_MODE_0}, {".addr_mode_1", TM_QUERY, PTX_TXQ_ADDR_MODE_1},
    {".addr_mode_2", TM_QUERY, PTX_TXQ_ADDR_MODE_2}, {".array_size", TM_QUERY, PTX_TXQ_ARRAY_SIZE},
    {".num_mipmap_levels", TM_QUERY, PTX_TXQ_NUM_MIPMAP_LEVELS},
    {".num_samples", TM_QUERY, PTX_TXQ_NUM_SAMPLES},
    {".trap", TM_SURF, PTX_SURF_TRAP}, {".clamp", TM_SURF, PTX_SURF_CLAMP},
    {".zero", TM_SURF, PTX_SURF_ZERO},
    {".b", TM_FORMAT, 0}, {".p", TM_FORMAT, 1},
    {".tex", TM_IGNORE, 0}, {".global", TM_IGNORE, 0},
};

/* The modifier kinds each opcode takes. */
static uint32_t tex_allowed(int op)
{
    switch (op) {
    case PTX_OP_TEX:  return 1u << TM_GEOM | 1u << TM_VEC | 1u << TM_LEVEL;
    case PTX_OP_TLD4: return 1u << TM_GEOM | 1u << TM_VEC | 1u << TM_COMP;
    case PTX_OP_TXQ:  return 1u << TM_QUERY | 1u << TM_LEVEL;
    default:          return 1u << TM_GEOM | 1u << TM_VEC | 1u << TM_SURF | 1u << TM_FORMAT |
                             1u << TM_IGNORE;
    }
}

static const tex_mod *find_tex_mod(const ptx_parser *p, const ptx_token *t, int op)
{
    uint32_t allowed = tex_allowed(op);
    for (size_t i = 0; i < sizeof tex_mods / sizeof tex_mods[0]; i++)
        if ((allowed & (1u << tex_mods[i].what)) && ptx_tok_eq(p, t, tex_mods[i].name))
            return &tex_mods[i];
    return NULL;
}

/* Each modifier kind at most once. */
static int tex_set(ptx_parser *p, const ptx_token *t, const ptx_token *mn, uint32_t *seen,
                   const tex_mod *m, uint8_t *field)
{
    if (*seen & (1u << m->what))
        return ptx_err_tok(p, t, "conflicting modifier '%.*s' on '%.*s'", (int)t->len,
                           ptx_tok_text(p, t), (int)mn->len, ptx_tok_text(p, mn));
    *seen |= 1u << m->what;
    *field = m->value;
    return 0;
}

static int tex_apply(ptx_parser *p, ptx_uop *u, const ptx_token *t, const ptx_token *mn,
                     const tex_mod *m, uint32_t *seen, uint8_t *format)
{
    uint8_t tmp;
    switch (m->what) {
    case TM_GEOM:  return tex_set(p, t, mn, seen, m, &u->sub);
    case TM_QUERY: return tex_set(p, t, mn, seen, m, &u->sub);
    case TM_VEC:   return tex_set(p, t, mn, seen, m, &u->vec);
    case TM_SURF:  return tex_set(p, t, mn, seen, m, &u->cmp);
    case TM_FORMAT: return tex_set(p, t, mn, seen, m, format);
    case TM_LEVEL: case TM_COMP:
        if (tex_set(p, t, mn, seen, m, &tmp) < 0) return -1;
        u->aux = u->op == PTX_OP_TXQ ? 1 : tmp;
        return 0;
    default: return 0;
    }
}

/* Types: tex/tld4 take a result and a coordinate type, suld/sust/txq one. */
static int tex_types(ptx_parser *p, ptx_uop *u, const ptx_token *mn, const ptx_type *ty, int nty)
{
    const char *name = ptx_opcode_names[u->op];
    bool two = u->op == PTX_OP_TEX || u->op == PTX_OP_TLD4;
    if (nty != (two ? 2 : 1))
        return ptx_err_tok(p, mn, two ? "'%s' needs a result and a coordinate type (e.g. .f32.f32)"
                                      : "'%s' needs one type (e.g. .b32)", name);
    u->type = (uint8_t)ty[0];
    if (two) {
        u->type2 = (uint8_t)ty[1];
        if (ty[0] != PTX_T_F32 && ty[0] != PTX_T_S32 && ty[0] != PTX_T_U32)
            return ptx_err_tok(p, mn, "'%s' results must be .f32, .s32 or .u32, not .%s", name,
                               ptx_type_names[ty[0]]);
        if (ty[1] != PTX_T_F32 && ty[1] != PTX_T_S32)
            return ptx_err_tok(p, mn, "'%s' coordinates must be .f32 or .s32, not .%s", name,
                               ptx_type_names[ty[1]]);
    } else if (u->op == PTX_OP_TXQ ? ty[0] != PTX_T_B32
               : (ty[0] < PTX_T_B8 || ty[0] > PTX_T_B64)) {
        return ptx_err_tok(p, mn, "'%s' takes %s, not .%s", name,
                           u->op == PTX_OP_TXQ ? ".b32" : ".b8, .b16, .b32 or .b64",
                           ptx_type_names[ty[0]]);
    }
    return 0;
}

/* Required modifiers and the combinations warpsim implements. */
static int tex_finish(ptx_parser *p, ptx_uop *u, const ptx_token *mn, uint32_t seen, uint8_t format)
{
    const char *name = ptx_opcode_names[u->op];
    if (u->op == PTX_OP_TXQ) {
        if (!u->sub) return ptx_err_tok(p, mn, "'txq' needs a query such as .width");
        return 0;
    }
    if (!u->sub)
        return ptx_err_tok(p, mn, "'%s' needs a geometry (.1d .2d .3d .a1d .a2d)", name);
    if (!u->vec) u->vec = 1;
    if ((u->op == PTX_OP_TEX || u->op == PTX_OP_TLD4) && u->vec != 4)
        return ptx_err_tok(p, mn, "'%s' returns four elements: .v4 is required", name);
    if (u->op == PTX_OP_TLD4 && (u->sub != PTX_GEOM_2D || !(seen & (1u << TM_COMP))))
        return ptx_err_tok(p, mn, "'tld4' needs a component (.r .g .b .a) and geometry .2d");
    if (u->op == PTX_OP_SULD || u->op == PTX_OP_SUST) {
        if (!(seen & (1u << TM_FORMAT)))
            return ptx_err_tok(p, mn, "'%s' needs .b (unformatted access)", name);
        if (format)
            return ptx_err_tok(p, mn, "'%s.p' (formatted surface access) is not supported", name);
        u->aux = u->cmp;
        u->cmp = 0;
        u->space = PTX_SPACE_GLOBAL;   /* surfaces are data in global memory */
    } else {
        u->space = PTX_SPACE_TEX;
    }
    return 0;
}

int ptx_decode_tex_mods(ptx_parser *p, ptx_uop *u, const ptx_token *mn, const uint32_t *mods,
                        uint32_t nmods)
{
    ptx_type ty[4];
    int nty = 0;
    uint32_t seen = 0;
    uint8_t format = 0;
    u->vec = 0;
    for (uint32_t i = 0; i < nmods; i++) {
        const ptx_token *t = &p->tok[mods[i]];
        ptx_type tt = ptx_type_from_dir(p, t);
        if (tt != PTX_T_NONE) {
            if (nty == 4) return ptx_err_tok(p, t, "too many types");
            ty[nty++] = tt;
            continue;
        }
        if (ptx_tok_eq(p, t, ".cube") || ptx_tok_eq(p, t, ".acube") || ptx_tok_eq(p, t, ".2dms") ||
            ptx_tok_eq(p, t, ".a2dms"))
            return ptx_err_tok(p, t, "texture geometry '%.*s' is not supported", (int)t->len,
                               ptx_tok_text(p, t));
        const tex_mod *m = find_tex_mod(p, t, u->op);
        if (!m)
            return ptx_err_tok(p, t, "unsupported modifier '%.*s' on '%.*s'", (int)t->len,
                               ptx_tok_text(p, t), (int)mn->len, ptx_tok_text(p, mn));
        if (tex_apply(p, u, t, mn, m, &seen, &format) < 0) return -1;
    }
    if (tex_types(p, u, mn, ty, nty) < 0) return -1;
    return tex_finish(p, u, mn, seen, format);
}

/* ------------------------------------------------------------------ */
/* The [handle, {coordinates}] operand                                 */
/* ------------------------------------------------------------------ */

int ptx_parse_tex_address(ptx_parser *p, uint32_t ui, int i)
{
    ptx_operand *o = &p->m->uops[ui].opd[i];
    ptx_next(p); /* '[' */
    o->kind = PTX_OPD_ADDR;
    const ptx_token *t = ptx_peek(p);
    ptx_sym *s = t->kind == PTX_TK_IDENT ? ptx_symtab_find(&p->syms, ptx_tok_text(p, t), t->len)
                                         : NULL;
    if (!s || s->kind != PTX_SYM_REG) {
        if (s && s->kind == PTX_SYM_VAR)
            return ptx_err_tok(p, t, "texture and surface references ('%.*s') are not supported: "
                               "use texture/surface objects (a .u64 handle)", (int)t->len,
                               ptx_tok_text(p, t));
        char buf[64];
        return ptx_err_tok(p, t, "expected a .u64 texture or surface handle register, found %s",
                           ptx_tok_describe(p, t, buf, sizeof buf));
    }
    if (ptx_type_size[s->type] != 8)
        return ptx_err_tok(p, t, "handle '%.*s' must be a 64-bit register (.u64/.b64)", (int)t->len,
                           ptx_tok_text(p, t));
    ptx_next(p);
    o->reg = (int32_t)s->val;
    if (ptx_is_punct(ptx_peek(p), ']')) {
        ptx_next(p);
        return 1;
    }
    if (ptx_expect(p, ',', "after the texture handle") < 0) return -1;
    if (i + 1 >= PTX_MAX_OPDS) return ptx_err_tok(p, ptx_peek(p), "too many operands");
    if (!ptx_is_punct(ptx_peek(p), '{'))
        return ptx_err_tok(p, ptx_peek(p), "expected a coordinate vector {..} after the handle");
    if (ptx_parse_vector_operand(p, &p->m->uops[ui].opd[i + 1]) < 0) return -1;
    if (ptx_expect(p, ']', "to close the texture operand") < 0) return -1;
    return 2;
}

/* ------------------------------------------------------------------ */
/* Operand checks                                                      */
/* ------------------------------------------------------------------ */

/* Coordinate elements a geometry needs (PTX pads 3 to 4). */
static uint32_t geom_coords(int g)
{
    switch (g) {
    case PTX_GEOM_1D: return 1;
    case PTX_GEOM_2D: case PTX_GEOM_A1D: return 2;
    default: return 4;
    }
}

static int want_vec(ptx_parser *p, const ptx_uop *u, int i, uint32_t n, const char *what,
                    const uint32_t *opd_tok)
{
    const ptx_operand *o = &u->opd[i];
    const ptx_token *t = &p->tok[opd_tok[i]];
    if (n == 1 && o->kind == PTX_OPD_REG) return 0;
    if (o->kind != PTX_OPD_VEC || (o->flags & PTX_OPD_F_VECPRED))
        return ptx_err_tok(p, t, "operand %d of '%s' must be %s", i + 1, ptx_opcode_names[u->op], what);
    if (o->nvec != n)
        return ptx_err_tok(p, t, "%s of '%s' has %u elements; %u expected", what,
                           ptx_opcode_names[u->op], o->nvec, n);
    return 0;
}

int ptx_check_tex_operands(ptx_parser *p, ptx_uop *u, const ptx_token *mn, const ptx_literal *lit,
                           const uint32_t *opd_tok)
{
    const char *name = ptx_opcode_names[u->op];
    int a = u->op == PTX_OP_SUST ? 0 : 1;   /* the [handle] operand */
    int want;
    if (u->op == PTX_OP_TXQ) want = u->aux ? 3 : 2;
    else if (u->op == PTX_OP_TEX && u->aux == PTX_TEXL_LEVEL) want = 4;
    else if (u->op == PTX_OP_TEX && u->aux == PTX_TEXL_GRAD) want = 5;
    else want = 3;
    if (u->nopd != want)
        return ptx_err_tok(p, mn, "wrong operand count for '%.*s': expected %d, got %d "
                           "(the [handle, {coordinates}] pair counts as two)", (int)mn->len,
                           ptx_tok_text(p, mn), want, u->nopd);
    if (u->opd[a].kind != PTX_OPD_ADDR || u->opd[a].sym >= 0 || u->opd[a].reg < 0)
        return ptx_err_tok(p, &p->tok[opd_tok[a]], "operand %d of '%s' must be [handle, {..}]",
                           a + 1, name);
    if (u->op == PTX_OP_TXQ) {
        if (u->opd[0].kind != PTX_OPD_REG)
            return ptx_err_tok(p, &p->tok[opd_tok[0]], "txq needs a register destination");
        if (u->aux && u->opd[2].kind != PTX_OPD_REG && u->opd[2].kind != PTX_OPD_IMM)
            return ptx_err_tok(p, &p->tok[opd_tok[2]], "txq.level needs a level operand");
        if (u->aux && u->opd[2].kind == PTX_OPD_IMM) {
            uint64_t bits;
            if (ptx_literal_bits(p, &lit[2], PTX_T_S32, &p->tok[opd_tok[2]], &bits) < 0) return -1;
            u->opd[2].imm = (int64_t)bits;
        }
        return 0;
    }
    if (want_vec(p, u, a + 1, geom_coords(u->sub), "the coordinate vector", opd_tok) < 0) return -1;
    int data = u->op == PTX_OP_SUST ? 2 : 0;
    if (want_vec(p, u, data, u->vec, u->op == PTX_OP_SUST ? "the value" : "the destination",
                 opd_tok) < 0)
        return -1;
    if (u->op == PTX_OP_TEX && u->aux == PTX_TEXL_LEVEL) {
        const ptx_operand *o = &u->opd[3];
        if (o->kind == PTX_OPD_IMM) {
            uint64_t bits;
            if (ptx_literal_bits(p, &lit[3], PTX_T_F32, &p->tok[opd_tok[3]], &bits) < 0) return -1;
            u->opd[3].imm = (int64_t)bits;
        } else if (o->kind != PTX_OPD_REG) {
            return ptx_err_tok(p, &p->tok[opd_tok[3]], "the level of '%s' must be a register or "
                               "constant", name);
        }
    }
    if (u->op == PTX_OP_TEX && u->aux == PTX_TEXL_GRAD) {
        uint32_t n = u->sub == PTX_GEOM_3D ? 4 : u->sub == PTX_GEOM_2D || u->sub == PTX_GEOM_A2D ? 2 : 1;
        if (want_vec(p, u, 3, n, "the gradient", opd_tok) < 0 ||
            want_vec(p, u, 4, n, "the gradient", opd_tok) < 0)
            return -1;
    }
    return 0;
}
