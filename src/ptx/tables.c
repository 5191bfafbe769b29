/*
** tables.c -- constant tables of the PTX IR: opcode names and classes
** (expanded from opcodes.def so the list exists once), type sizes and
** type names.
*/
#include "ptx_ir.h"

const char *const ptx_opcode_names[PTX_OP_COUNT] = {
#define OP(e, name, cls) [PTX_OP_##e] = name,
#include "opcodes.def"
};

const uint8_t ptx_opcode_class[PTX_OP_COUNT] = {
#define OP(e, name, cls) [PTX_OP_##e] = PTX_CLS_##cls,
#include "opcodes.def"
};

const uint8_t ptx_type_size[PTX_T_COUNT] = {
    [PTX_T_NONE] = 0, [PTX_T_PRED] = 0,
    [PTX_T_B8] = 1, [PTX_T_B16] = 2, [PTX_T_B32] = 4, [PTX_T_B64] = 8, [PTX_T_B128] = 16,
    [PTX_T_U8] = 1, [PTX_T_U16] = 2, [PTX_T_U32] = 4, [PTX_T_U64] = 8,
    [PTX_T_S8] = 1, [PTX_T_S16] = 2, [PTX_T_S32] = 4, [PTX_T_S64] = 8,
    [PTX_T_F16] = 2, [PTX_T_F16X2] = 4, [PTX_T_BF16] = 2, [PTX_T_BF16X2] = 4,
    [PTX_T_TF32] = 4, [PTX_T_F32] = 4, [PTX_T_F64] = 8,
};

const char *const ptx_type_names[PTX_T_COUNT] = {
    [PTX_T_NONE] = "", [PTX_T_PRED] = "pred",
    [PTX_T_B8] = "b8", [PTX_T_B16] = "b16", [PTX_T_B32] = "b32", [PTX_T_B64] = "b64",
    [PTX_T_B128] = "b128",
    [PTX_T_U8] = "u8", [PTX_T_U16] = "u16", [PTX_T_U32] = "u32", [PTX_T_U64] = "u64",
    [PTX_T_S8] = "s8", [PTX_T_S16] = "s16", [PTX_T_S32] = "s32", [PTX_T_S64] = "s64",
    [PTX_T_F16] = "f16", [PTX_T_F16X2] = "f16x2", [PTX_T_BF16] = "bf16",
    [PTX_T_BF16X2] = "bf16x2", [PTX_T_TF32] = "tf32", [PTX_T_F32] = "f32",
    [PTX_T_F64] = "f64",
};
