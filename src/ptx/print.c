/*
** print.c -- one-line disassembly of a decoded uop (for traces, dumps and
** error reports).  The output reads like PTX, with resolved names: branch
** targets are uop indices and frame/parameter locations show offsets.
*/
#include <inttypes.h>
#include <string.h>
#include "ptx_internal.h"

static const char *const rnd_names[] = {"", ".rn", ".rz", ".rm", ".rp", ".rna", ".rni", ".rzi", ".rmi", ".rpi"};
static const char *const cmp_names[] = {"", ".eq", ".ne", ".lt", ".le", ".gt", ".ge", ".lo", ".ls", ".hi",
                                        ".hs", ".equ", ".neu", ".ltu", ".leu", ".gtu", ".geu", ".num", ".nan"};
static const char *const bop_names[] = {"", ".and", ".or", ".xor"};
static const char *const space_names[] = {"", ".global", ".shared", ".local", ".const", ".param", ".tex", ".reg"};
static const char *const atom_names[] = {"", ".add", ".min", ".max", ".inc", ".dec", ".and", ".or", ".xor",
                                         ".exch", ".cas"};
static const char *const sreg_names[] = {"", "%tid", "%ntid", "%ctaid", "%nctaid", "%laneid", "%warpid",
    "%nwarpid", "%smid", "%nsmid", "%gridid", "%clock", "%clock_hi", "%clock64", "%globaltimer",
    "%globaltimer_lo", "%globaltimer_hi", "%lanemask_eq", "%lanemask_lt", "%lanemask_le", "%lanemask_gt",
    "%lanemask_ge", "%dynamic_smem_size", "%total_smem_size", "WARP_SZ"};

#define NAME_OF(tab, i) ((unsigned)(i) < sizeof(tab) / sizeof(tab[0]) ? tab[i] : "?")

static const char *sub_name(const ptx_uop *u)
{
    static const char *const shfl[] = {"", ".up", ".down", ".bfly", ".idx"};
    static const char *const vote[] = {"", ".all", ".any", ".uni", ".ballot"};
    static const char *const testp[] = {"", ".finite", ".infinite", ".number", ".notanumber", ".normal", ".subnormal"};
    static const char *const bar[] = {"", ".sync", ".arrive", ".red.popc", ".red.and", ".red.or"};
    static const char *const prmt[] = {"", ".f4e", ".b4e", ".rc8", ".ecl", ".ecr", ".rc16"};
    static const char *const mul[] = {"", ".lo", ".hi", ".wide"};
    static const char *const shf[] = {"", ".l", ".r"};
    static const char *const match[] = {"", ".any", ".all"};
    static const char *const cvta[] = {"", "", ".to"};
    switch (u->op) {
    case PTX_OP_ATOM: case PTX_OP_RED: case PTX_OP_REDUX: return NAME_OF(atom_names, u->sub);
    case PTX_OP_SHFL: return NAME_OF(shfl, u->sub);
    case PTX_OP_VOTE: return NAME_OF(vote, u->sub);
    case PTX_OP_TESTP: return NAME_OF(testp, u->sub);
    case PTX_OP_BAR: case PTX_OP_BARRIER: return NAME_OF(bar, u->sub);
    case PTX_OP_PRMT: return NAME_OF(prmt, u->sub);
    case PTX_OP_MUL: case PTX_OP_MAD: case PTX_OP_MUL24: case PTX_OP_MAD24: case PTX_OP_MADC:
    case PTX_OP_DP2A:
        return NAME_OF(mul, u->sub);
    case PTX_OP_SHF: return NAME_OF(shf, u->sub);
    case PTX_OP_MATCH: return NAME_OF(match, u->sub);
    case PTX_OP_CVTA: return NAME_OF(cvta, u->sub);
    default: return "";
    }
}

static void print_flags(FILE *out, uint32_t fl)
{
    static const char *const names[] = {".ftz", ".sat", ".approx", ".full", ".cc", ".uni", ".nc",
                                        ".volatile", ".clamp", ".NaN", ".xorsign.abs", ".shiftamt",
                                        ".aligned", ".relu", "", ".sync", ""};
    for (unsigned i = 0; i < sizeof names / sizeof names[0]; i++)
        if (fl & (1u << i)) fputs(names[i], out);
}

static const char *reg_name(const ptx_func *f, int32_t r, bool pred, char *buf, size_t n)
{
    char **names = pred ? f->pred_names : f->reg_names;
    uint32_t count = pred ? f->npreds : f->nregs;
    if (r >= 0 && (uint32_t)r < count && names) return names[r];
    snprintf(buf, n, "%s%d", pred ? "%%p?" : "%%r?", r);
    return buf;
}

static void print_location(FILE *out, const ptx_module *m, const ptx_operand *o)
{
    bool any = false;
    if (o->sym >= 0 && (uint32_t)o->sym < m->nvars) { fputs(m->vars[o->sym].name, out); any = true; }
    if (o->flags & PTX_OPD_F_FRAME) { fputs(any ? "+frame" : "frame", out); any = true; }
    if (o->space == PTX_SPACE_PARAM && o->sym < 0) { fputs(any ? "+param" : "param", out); any = true; }
    if (o->imm || !any) fprintf(out, any ? "%+" PRId64 : "%" PRId64, o->imm);
}

static void print_operand(FILE *out, const ptx_module *m, const ptx_func *f, const ptx_uop *u,
                          const ptx_operand *o)
{
    char buf[32];
    switch (o->kind) {
    case PTX_OPD_REG:
        fputs(reg_name(f, o->reg, false, buf, sizeof buf), out);
        if (o->reg2 >= 0) fprintf(out, "|%s", reg_name(f, o->reg2, true, buf, sizeof buf));
        break;
    case PTX_OPD_PRED:
        fprintf(out, "%s%s", (o->flags & PTX_OPD_F_NEG) ? "!" : "", reg_name(f, o->reg, true, buf, sizeof buf));
        if (o->reg2 >= 0) fprintf(out, "|%s", reg_name(f, o->reg2, true, buf, sizeof buf));
        break;
    case PTX_OPD_IMM:
        if (u->type == PTX_T_F32 && u->op != PTX_OP_CVT) fprintf(out, "0f%08" PRIX32, (uint32_t)o->imm);
        else if (u->type == PTX_T_F64 && u->op != PTX_OP_CVT) fprintf(out, "0d%016" PRIX64, (uint64_t)o->imm);
        else fprintf(out, "%" PRId64, o->imm);
        break;
    case PTX_OPD_SREG:
        fputs(NAME_OF(sreg_names, o->reg), out);
        if (o->reg2 >= 0 && o->reg2 <= 2) fprintf(out, ".%c", "xyz"[o->reg2]);
        break;
    case PTX_OPD_ADDR:
        fputc('[', out);
        if (o->reg >= 0) {
            fputs(reg_name(f, o->reg, false, buf, sizeof buf), out);
            if (o->sym >= 0 || (o->flags & PTX_OPD_F_FRAME) || o->imm) fputc('+', out);
            if (o->sym >= 0 || (o->flags & PTX_OPD_F_FRAME)) print_location(out, m, o);
            else if (o->imm) fprintf(out, "%" PRId64, o->imm);
        } else {
            print_location(out, m, o);
        }
        fputc(']', out);
        break;
    case PTX_OPD_SYM:
        print_location(out, m, o);
        break;
    case PTX_OPD_VEC:
        fputc('{', out);
        for (int i = 0; i < o->nvec && i < 4; i++) {
            if (i) fputs(", ", out);
            if (o->vreg[i] < 0) fputc('_', out);
            else fputs(reg_name(f, o->vreg[i], o->flags & PTX_OPD_F_VECPRED, buf, sizeof buf), out);
        }
        fputc('}', out);
        break;
    case PTX_OPD_LABEL:
        fprintf(out, "@%" PRId64, o->imm);
        break;
    case PTX_OPD_FUNC:
        if (o->imm >= 0 && (uint64_t)o->imm < m->nfuncs) fputs(m->funcs[o->imm].name, out);
        else fputs("?", out);
        break;
    case PTX_OPD_SINK:
        fputc('_', out);
        break;
    default:
        fputs("?", out);
        break;
    }
}

void ptx_print_uop(FILE *out, const ptx_module *m, const ptx_uop *u)
{
    const ptx_func *f = u->func < m->nfuncs ? &m->funcs[u->func] : NULL;
    char buf[32];
    if (u->guard >= 0 && f)
        fprintf(out, "@%s%s ", u->guard_neg ? "!" : "", reg_name(f, u->guard, true, buf, sizeof buf));
    fputs(u->op < PTX_OP_COUNT ? ptx_opcode_names[u->op] : "?", out);
    if (u->op == PTX_OP_BARWARP) fputs(".sync", out);
    fputs(sub_name(u), out);
    fputs(NAME_OF(cmp_names, u->cmp), out);
    fputs(NAME_OF(bop_names, u->bop), out);
    fputs(NAME_OF(rnd_names, u->rnd), out);
    bool sync_in_name = u->op == PTX_OP_BARWARP || u->op == PTX_OP_BAR || u->op == PTX_OP_BARRIER;
    print_flags(out, sync_in_name ? u->flags & ~(uint32_t)PTX_F_SYNC : u->flags);
    fputs(NAME_OF(space_names, u->space), out);
    if (u->vec > 1) fprintf(out, ".v%u", u->vec);
    if (u->type2 && u->op == PTX_OP_DP4A) fprintf(out, ".%s", ptx_type_names[u->type2]);
    if (u->type) fprintf(out, ".%s", NAME_OF(ptx_type_names, u->type));
    if (u->type2 && u->op != PTX_OP_SETP && u->op != PTX_OP_DP4A && u->op != PTX_OP_DP2A)
        fprintf(out, ".%s", NAME_OF(ptx_type_names, u->type2));
    if (u->op == PTX_OP_CALL && u->aux < m->ncalls) {
        const ptx_call *c = &m->calls[u->aux];
        fprintf(out, " %s (%u args, %u rets)", c->callee < m->nfuncs ? m->funcs[c->callee].name : "?",
                c->nargs, c->nrets);
        return;
    }
    for (int i = 0; i < u->nopd && i < PTX_MAX_OPDS; i++) {
        fputs(i ? ", " : " ", out);
        if (f) print_operand(out, m, f, u, &u->opd[i]);
    }
    if (u->op == PTX_OP_RET) fprintf(out, " (-> %u)", u->target);
}
