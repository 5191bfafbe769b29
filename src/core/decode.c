/*
** decode.c -- what the timing model needs to know about each uop, worked
** out once per launch: which registers it reads and writes (for the
** scoreboard), which execution unit and operation class it uses (latency,
** initiation interval from the configuration) and its class as policies
** see it.  The issue stage then never looks at operands.
*/
#include "core_int.h"
#include <stdlib.h>

/* opcodes whose first operand is not a destination */
static bool decode_has_dst(const ptx_uop *u)
{
    switch (u->op) {
    case PTX_OP_ST: case PTX_OP_RED: case PTX_OP_PREFETCH: case PTX_OP_PREFETCHU:
    case PTX_OP_SUST: case PTX_OP_BRA: case PTX_OP_BRX: case PTX_OP_CALL: case PTX_OP_RET:
    case PTX_OP_EXIT: case PTX_OP_TRAP: case PTX_OP_BRKPT: case PTX_OP_NANOSLEEP:
    case PTX_OP_PMEVENT: case PTX_OP_MEMBAR: case PTX_OP_FENCE: case PTX_OP_BARWARP:
    case PTX_OP_FUNC_END: case PTX_OP_NONE:
        return false;
    case PTX_OP_BAR: case PTX_OP_BARRIER:
        return u->sub >= PTX_BAR_RED_POPC;
    default:
        return u->nopd > 0;
    }
}

static void decode_add(core_uinfo *ui, bool dst, int32_t id)
{
    if (dst) {
        if (ui->ndst < CORE_MAX_DST) ui->dst[ui->ndst++] = id;
    } else if (ui->nsrc < CORE_MAX_SRC) {
        ui->src[ui->nsrc++] = id;
    }
}

/* Register and predicate slots read and written by `u`. */
static void decode_regs(const ptx_uop *u, core_uinfo *ui)
{
    bool has_dst = decode_has_dst(u);
    for (uint32_t i = 0; i < u->nopd && i < PTX_MAX_OPDS; i++) {
        const ptx_operand *o = &u->opd[i];
        bool dst = has_dst && i == 0;
        switch (o->kind) {
        case PTX_OPD_REG:
            decode_add(ui, dst, o->reg);
            if (dst && o->reg2 >= 0) decode_add(ui, true, CORE_PRED_BIT | o->reg2);
            break;
        case PTX_OPD_PRED:
            decode_add(ui, dst, CORE_PRED_BIT | o->reg);
            if (dst && o->reg2 >= 0) decode_add(ui, true, CORE_PRED_BIT | o->reg2);
            break;
        case PTX_OPD_ADDR:
            if (o->reg >= 0) decode_add(ui, false, o->reg);
            break;
        case PTX_OPD_VEC:
            for (uint32_t e = 0; e < o->nvec && e < 4; e++)
                if (o->vreg[e] >= 0)
                    decode_add(ui, dst, (o->flags & PTX_OPD_F_VECPRED)
                                        ? (CORE_PRED_BIT | o->vreg[e]) : o->vreg[e]);
            break;
        default:
            break;
        }
    }
    if (u->guard >= 0) decode_add(ui, false, CORE_PRED_BIT | u->guard);
}

static bool decode_is_int_mul(int op)
{
    return op == PTX_OP_MUL || op == PTX_OP_MAD || op == PTX_OP_MADC || op == PTX_OP_MUL24
        || op == PTX_OP_MAD24 || op == PTX_OP_SAD || op == PTX_OP_DP4A || op == PTX_OP_DP2A;
}

/* Ops GPGPU-Sim times by a latency list (ptx_instruction::
   set_opcode_and_latency); every other ALU op takes its default class. */
static bool decode_gs_classed(int op)
{
    switch (op) {
    case PTX_OP_ADD: case PTX_OP_SUB: case PTX_OP_ADDC: case PTX_OP_SUBC:
    case PTX_OP_MIN: case PTX_OP_MAX: case PTX_OP_MUL: case PTX_OP_MAD: case PTX_OP_MADC:
    case PTX_OP_MUL24: case PTX_OP_MAD24: case PTX_OP_FMA: case PTX_OP_DIV: case PTX_OP_REM:
    case PTX_OP_SHFL:
        return true;
    default:
        return false;
    }
}

/* Operation class (GPU_OPC_*) and unit of an ALU-type uop. */
static void decode_alu(const ptx_uop *u, const gpu_config *cfg, core_uinfo *ui)
{
    int cls = ptx_opcode_class[u->op];
    ptx_type t = (ptx_type)u->type, t2 = (ptx_type)u->type2;
    bool f64 = t == PTX_T_F64 || t2 == PTX_T_F64;
    bool flt = ptx_type_is_float(t) || ptx_type_is_float(t2) || cls == PTX_CLS_FP;
    bool is_div = u->op == PTX_OP_DIV || u->op == PTX_OP_REM;
    int opc, unit;
    if (cls == PTX_CLS_SFU) {
        opc = f64 ? GPU_OPC_FP64_DIV : GPU_OPC_SFU;
        unit = f64 ? GPU_UNIT_DP : GPU_UNIT_SFU;
    } else if (flt && f64) {
        opc = is_div ? GPU_OPC_FP64_DIV : GPU_OPC_FP64;
        unit = GPU_UNIT_DP;
    } else if (flt) {
        opc = is_div && !(u->flags & PTX_F_APPROX) ? GPU_OPC_FP32_DIV : GPU_OPC_FP32;
        unit = GPU_UNIT_SP;
    } else {
        opc = is_div ? GPU_OPC_INT_DIV : decode_is_int_mul(u->op) ? GPU_OPC_INT_MUL : GPU_OPC_INT;
        unit = GPU_UNIT_INT;
    }
    /* a unit kind the machine lacks is done by the SP pipes, except FP64,
       which GPGPU-Sim's Fermi configs (no DP units) run on the SFUs */
    if (cfg->units[unit] == 0)
        unit = unit == GPU_UNIT_DP && cfg->units[GPU_UNIT_SFU] ? GPU_UNIT_SFU : GPU_UNIT_SP;
    ui->unit = (uint8_t)unit;
    ui->latency = (uint16_t)(cfg->op[opc].latency ? cfg->op[opc].latency : 1);
    ui->interval = (uint16_t)(cfg->op[opc].interval ? cfg->op[opc].interval : 1);
    if (cfg->op_other_latency && cls != PTX_CLS_SFU && !decode_gs_classed(u->op)) {
        /* GPGPU-Sim's ALU_OP default: on the SP pipes, initiation 1 */
        ui->unit = GPU_UNIT_SP;
        ui->latency = (uint16_t)cfg->op_other_latency;
        ui->interval = 1;
    }
}

/* The policies' name of a PTX state space (no space = generic). */
static uint8_t decode_space(uint8_t space)
{
    switch (space) {
    case PTX_SPACE_GLOBAL: return WS_SPACE_GLOBAL;
    case PTX_SPACE_SHARED: return WS_SPACE_SHARED;
    case PTX_SPACE_LOCAL:  return WS_SPACE_LOCAL;
    case PTX_SPACE_CONST:  return WS_SPACE_CONST;
    case PTX_SPACE_PARAM:  return WS_SPACE_PARAM;
    case PTX_SPACE_TEX:    return WS_SPACE_TEX;
    default:               return WS_SPACE_GENERIC;
    }
}

core_uinfo *core_decode_module(const ptx_module *m, const gpu_config *cfg)
{
    core_uinfo *t = calloc(m->nuops ? m->nuops : 1, sizeof *t);
    if (!t) return NULL;
    for (uint32_t i = 0; i < m->nuops; i++) {
        const ptx_uop *u = &m->uops[i];
        core_uinfo *ui = &t[i];
        int cls = u->op < PTX_OP_COUNT ? ptx_opcode_class[u->op] : PTX_CLS_CTRL;
        decode_regs(u, ui);
        ui->unit = CORE_UNIT_NONE;
        ui->latency = 1;
        ui->interval = 1;
        if (cls == PTX_CLS_MEM) {
            ui->kind = CORE_K_MEM;
            ui->unit = GPU_UNIT_LDST;
            ui->next_class = WS_NEXT_MEM;
            /* texture fetches and surface loads return data like ld */
            bool tex_load = u->op == PTX_OP_TEX || u->op == PTX_OP_TLD4 || u->op == PTX_OP_SULD;
            ui->is_load = u->op == PTX_OP_LD || u->op == PTX_OP_LDU || u->op == PTX_OP_ATOM || tex_load;
            ui->space = decode_space(u->space);
            ui->mem = (u->op == PTX_OP_ST || u->op == PTX_OP_SUST) ? WS_MEM_STORE
                    : (u->op == PTX_OP_ATOM || u->op == PTX_OP_RED) ? WS_MEM_ATOMIC
                    : (u->op == PTX_OP_LD || u->op == PTX_OP_LDU || tex_load) ? WS_MEM_LOAD
                    : WS_MEM_NONE;
        } else if (cls == PTX_CLS_BAR) {
            ui->kind = CORE_K_BAR;
            ui->next_class = WS_NEXT_BARRIER;
        } else if (cls == PTX_CLS_CTRL) {
            ui->kind = CORE_K_CTRL;
            ui->next_class = WS_NEXT_CTRL;
        } else {
            ui->kind = CORE_K_ALU;
            ui->next_class = WS_NEXT_COMPUTE;
            decode_alu(u, cfg, ui);
        }
    }
    return t;
}

/* Built only for policies that declare WS_NEED_PROGRAM: the same facts
   the core schedules by, plus branch targets and source lines. */
ws_prog_uop *core_program_view(const ptx_module *m, const core_uinfo *ui)
{
    ws_prog_uop *t = calloc(m->nuops ? m->nuops : 1, sizeof *t);
    if (!t) return NULL;
    for (uint32_t i = 0; i < m->nuops; i++) {
        const ptx_uop *u = &m->uops[i];
        const core_uinfo *c = &ui[i];
        ws_prog_uop *p = &t[i];
        p->opname = u->op < PTX_OP_COUNT ? ptx_opcode_names[u->op] : "?";
        p->cls = c->next_class;
        p->space = c->kind == CORE_K_MEM ? c->space : WS_SPACE_NONE;
        p->mem = c->mem;
        p->branch = u->op == PTX_OP_BRA;
        p->guarded = u->guard >= 0;
        p->nsrc = c->nsrc < WS_PROG_MAX_SRC ? c->nsrc : WS_PROG_MAX_SRC;
        p->ndst = c->ndst < WS_PROG_MAX_DST ? c->ndst : WS_PROG_MAX_DST;
        for (uint32_t k = 0; k < p->nsrc; k++) p->src[k] = c->src[k];
        for (uint32_t k = 0; k < p->ndst; k++) p->dst[k] = c->dst[k];
        p->target = p->branch ? u->target : WS_NO_PC;
        p->rpc = u->rpc;
        p->func = u->func;
        p->line = u->line;
    }
    return t;
}
