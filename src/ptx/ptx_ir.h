/*
** ptx_ir.h -- the in-memory form of a PTX module after parsing and decoding.
**
** The front end (ptx/) turns PTX text into one ptx_module: functions,
** variables, and one flat array of pre-decoded micro-ops (ptx_uop) shared
** by all functions.  The emulator (emu/) executes uops and never looks at
** text again.  Nothing in here knows about timing or the memory system.
**
** Conventions every consumer relies on:
**  - Registers.  Every non-predicate register of a function is a 64-bit
**    "slot" numbered 0..nregs-1 in that function; predicates are numbered
**    0..npreds-1 in a separate space.  A value written with a signed type
**    is stored sign-extended to 64 bits, every other type zero-extended;
**    readers take the low bits their instruction type needs.
**  - Program counters are indices into ptx_module.uops.  Every function
**    owns [uop_begin, uop_end]; uops[uop_end] is a PTX_OP_FUNC_END
**    pseudo-op, the target of every `ret` (a ret is decoded as a branch to
**    it) and the immediate post-dominator of blocks that return.
**  - Addresses.  See ptx_operand below; all offsets are bytes.
*/
#ifndef WS_PTX_IR_H
#define WS_PTX_IR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* ------------------------------------------------------------------ */
/* Opcodes and instruction classes                                     */
/* ------------------------------------------------------------------ */

typedef enum ptx_opcode {
#define OP(e, name, cls) PTX_OP_##e,
#include "opcodes.def"
    PTX_OP_COUNT
} ptx_opcode;

typedef enum ptx_class {
    PTX_CLS_INT,  /* integer / logic / move: SP pipe */
    PTX_CLS_FP,   /* floating point: SP pipe (DP when type is f64) */
    PTX_CLS_SFU,  /* transcendental */
    PTX_CLS_MEM,  /* load/store/atomic: LD/ST unit */
    PTX_CLS_CTRL, /* branches, calls, fences */
    PTX_CLS_BAR   /* CTA barrier */
} ptx_class;

extern const char *const ptx_opcode_names[PTX_OP_COUNT];
extern const uint8_t ptx_opcode_class[PTX_OP_COUNT];

/* ------------------------------------------------------------------ */
/* Types, state spaces, modifiers                                      */
/* ------------------------------------------------------------------ */

typedef enum ptx_type {
    PTX_T_NONE = 0,
    PTX_T_PRED,
    PTX_T_B8, PTX_T_B16, PTX_T_B32, PTX_T_B64, PTX_T_B128,
    PTX_T_U8, PTX_T_U16, PTX_T_U32, PTX_T_U64,
    PTX_T_S8, PTX_T_S16, PTX_T_S32, PTX_T_S64,
    PTX_T_F16, PTX_T_F16X2, PTX_T_BF16, PTX_T_BF16X2, PTX_T_TF32,
    PTX_T_F32, PTX_T_F64,
    PTX_T_COUNT
} ptx_type;

/* size in bytes of a type (pred: 0, b128: 16) */
extern const uint8_t ptx_type_size[PTX_T_COUNT];
extern const char *const ptx_type_names[PTX_T_COUNT];
static inline bool ptx_type_is_signed(ptx_type t) { return t >= PTX_T_S8 && t <= PTX_T_S64; }
static inline bool ptx_type_is_float(ptx_type t) { return t >= PTX_T_F16 && t <= PTX_T_F64; }

typedef enum ptx_space {
    PTX_SPACE_NONE = 0, /* no space given: generic addressing */
    PTX_SPACE_GLOBAL,
    PTX_SPACE_SHARED,
    PTX_SPACE_LOCAL,
    PTX_SPACE_CONST,
    PTX_SPACE_PARAM, /* kernel parameters (uniform per launch) */
    PTX_SPACE_TEX,
    PTX_SPACE_REG,   /* only in declarations */
    PTX_SPACE_COUNT
} ptx_space;

/* rounding modifiers (ptx_uop.rnd) */
enum {
    PTX_RND_NONE = 0,
    PTX_RND_RN, PTX_RND_RZ, PTX_RND_RM, PTX_RND_RP, PTX_RND_RNA, /* float */
    PTX_RND_RNI, PTX_RND_RZI, PTX_RND_RMI, PTX_RND_RPI           /* to integral */
};

/* comparison operators (ptx_uop.cmp) for setp, set, slct-free compares */
enum {
    PTX_CMP_NONE = 0,
    PTX_CMP_EQ, PTX_CMP_NE, PTX_CMP_LT, PTX_CMP_LE, PTX_CMP_GT, PTX_CMP_GE,
    PTX_CMP_LO, PTX_CMP_LS, PTX_CMP_HI, PTX_CMP_HS,                  /* unsigned */
    PTX_CMP_EQU, PTX_CMP_NEU, PTX_CMP_LTU, PTX_CMP_LEU, PTX_CMP_GTU, PTX_CMP_GEU,
    PTX_CMP_NUM, PTX_CMP_NAN                                         /* float */
};

/* boolean combine for setp/set (ptx_uop.bop) */
enum { PTX_BOP_NONE = 0, PTX_BOP_AND, PTX_BOP_OR, PTX_BOP_XOR };

/*
** ptx_uop.sub -- the operation variant; its meaning depends on the opcode:
**   ATOM/RED : PTX_ATOM_*           SHFL  : PTX_SHFL_*
**   VOTE     : PTX_VOTE_*           TESTP : PTX_TESTP_*
**   BAR/BARRIER: PTX_BAR_*          PRMT  : PTX_PRMT_* (0 = default mode)
**   MUL/MAD  : PTX_MUL_LO/HI/WIDE   SHF   : PTX_SHF_L/R (clamp in flags)
**   MATCH    : PTX_MATCH_*          REDUX : PTX_ATOM_ADD/MIN/MAX/AND/OR/XOR
**   CVTA     : PTX_CVTA_TO_GENERIC or PTX_CVTA_FROM_GENERIC (.to)
**   TEX, TLD4, SULD, SUST: PTX_GEOM_*; TXQ: PTX_TXQ_* (see below)
*/
enum {
    PTX_ATOM_ADD = 1, PTX_ATOM_MIN, PTX_ATOM_MAX, PTX_ATOM_INC, PTX_ATOM_DEC,
    PTX_ATOM_AND, PTX_ATOM_OR, PTX_ATOM_XOR, PTX_ATOM_EXCH, PTX_ATOM_CAS
};
enum { PTX_SHFL_UP = 1, PTX_SHFL_DOWN, PTX_SHFL_BFLY, PTX_SHFL_IDX };
enum { PTX_VOTE_ALL = 1, PTX_VOTE_ANY, PTX_VOTE_UNI, PTX_VOTE_BALLOT };
enum {
    PTX_TESTP_FINITE = 1, PTX_TESTP_INFINITE, PTX_TESTP_NUMBER,
    PTX_TESTP_NOTANUMBER, PTX_TESTP_NORMAL, PTX_TESTP_SUBNORMAL
};
/* bar.sync / barrier.sync (wait), bar.arrive (no wait), bar.red.{popc,and,or} */
enum { PTX_BAR_SYNC = 1, PTX_BAR_ARRIVE, PTX_BAR_RED_POPC, PTX_BAR_RED_AND, PTX_BAR_RED_OR };
enum { PTX_PRMT_F4E = 1, PTX_PRMT_B4E, PTX_PRMT_RC8, PTX_PRMT_ECL, PTX_PRMT_ECR, PTX_PRMT_RC16 };
enum { PTX_MUL_LO = 1, PTX_MUL_HI, PTX_MUL_WIDE };
enum { PTX_SHF_L = 1, PTX_SHF_R };
enum { PTX_MATCH_ANY = 1, PTX_MATCH_ALL };
enum { PTX_CVTA_TO_GENERIC = 1, PTX_CVTA_FROM_GENERIC };

/*
** Textures and surfaces (TEX, TLD4, TXQ, SULD, SUST), unified mode only:
** the texture or surface is a .u64 object handle in a register.
**   sub  : geometry PTX_GEOM_* (TXQ: the query PTX_TXQ_*)
**   aux  : TEX: PTX_TEXL_* (explicit level / gradients, both ignored:
**          resources have one mip level); TLD4: component 0..3 (r g b a);
**          SULD/SUST: boundary mode PTX_SURF_*; TXQ: 1 for txq.level
**   type : TEX/TLD4 result type (.u32 .s32 .f32); SULD/SUST: .b8..b64
**   type2: TEX/TLD4 coordinate type (.s32 .f32)
**   vec  : elements moved (TEX/TLD4: 4)
** Operands: TEX/TLD4  d(VEC), [h](ADDR, reg = handle), coords(VEC) [, lod]
**           TEX.grad  d, [h], coords, dPdx(VEC), dPdy(VEC)
**           SULD      d(VEC or REG), [h], coords(VEC)
**           SUST      [h], coords(VEC), value(VEC or REG)
**           TXQ       d(REG), [h] [, lod]
** Layered geometries put the layer (an integer) first in coords, as PTX
** writes it; 3D and a2d coordinate vectors have 4 elements, the last
** unused.
*/
enum { PTX_GEOM_1D = 1, PTX_GEOM_2D, PTX_GEOM_3D, PTX_GEOM_A1D, PTX_GEOM_A2D };
enum { PTX_TEXL_NONE = 0, PTX_TEXL_LEVEL, PTX_TEXL_GRAD };
enum { PTX_SURF_TRAP = 0, PTX_SURF_CLAMP, PTX_SURF_ZERO };
enum {
    PTX_TXQ_WIDTH = 1, PTX_TXQ_HEIGHT, PTX_TXQ_DEPTH, PTX_TXQ_CHANNEL_DATA_TYPE,
    PTX_TXQ_CHANNEL_ORDER, PTX_TXQ_NORMALIZED_COORDS, PTX_TXQ_FILTER_MODE,
    PTX_TXQ_ADDR_MODE_0, PTX_TXQ_ADDR_MODE_1, PTX_TXQ_ADDR_MODE_2, PTX_TXQ_ARRAY_SIZE,
    PTX_TXQ_NUM_MIPMAP_LEVELS, PTX_TXQ_NUM_SAMPLES
};
static inline bool ptx_op_is_tex(int op)
{
    return op == PTX_OP_TEX || op == PTX_OP_TLD4 || op == PTX_OP_TXQ || op == PTX_OP_SULD ||
           op == PTX_OP_SUST;
}

/* ptx_uop.flags bits */
enum {
    PTX_F_FTZ     = 1u << 0,  /* flush subnormals to zero */
    PTX_F_SAT     = 1u << 1,  /* saturate (float: clamp to [0,1]; int: clamp to range) */
    PTX_F_APPROX  = 1u << 2,  /* .approx */
    PTX_F_FULL    = 1u << 3,  /* div.full */
    PTX_F_CC      = 1u << 4,  /* .cc: write the carry flag */
    PTX_F_UNI     = 1u << 5,  /* bra.uni / call.uni: non-divergent */
    PTX_F_NC      = 1u << 6,  /* ld.global.nc */
    PTX_F_VOLATILE= 1u << 7,
    PTX_F_CLAMP   = 1u << 8,  /* shf.clamp (else wrap) */
    PTX_F_NAN     = 1u << 9,  /* min/max .NaN */
    PTX_F_XORSIGN = 1u << 10, /* min/max .xorsign.abs */
    PTX_F_SHIFTAMT= 1u << 11, /* bfind.shiftamt */
    PTX_F_ALIGNED = 1u << 12, /* bar.warp / .aligned barriers */
    PTX_F_RELU    = 1u << 13, /* cvt/fma .relu */
    PTX_F_CACHEHINT = 1u << 14, /* a cache operator or eviction hint was given */
    PTX_F_SYNC    = 1u << 15, /* .sync variant of shfl/vote/bar */
    PTX_F_PRED_DST= 1u << 16  /* set: destination is a predicate (unused by setp) */
};

/* ------------------------------------------------------------------ */
/* Operands                                                            */
/* ------------------------------------------------------------------ */

typedef enum ptx_opd_kind {
    PTX_OPD_NONE = 0,
    PTX_OPD_REG,   /* register slot `reg`; if `reg2` >= 0 a `|%p` predicate follows */
    PTX_OPD_PRED,  /* predicate slot `reg`; OPD_F_NEG for `!%p`; `reg2`: setp's `|q` */
    PTX_OPD_IMM,   /* immediate: `imm` holds the bits in the instruction's type */
    PTX_OPD_SREG,  /* special register: `reg` = PTX_SREG_*, `reg2` = component 0..2 */
    PTX_OPD_ADDR,  /* memory operand [base + sym + imm], see address rule below */
    PTX_OPD_SYM,   /* address of a variable used as a value (mov r, sym) */
    PTX_OPD_VEC,   /* {a, b, c, d}: `nvec` slots in `vreg` (-1 = sink `_`) */
    PTX_OPD_LABEL, /* branch target: `imm` = uop index */
    PTX_OPD_FUNC,  /* callee: `imm` = function index */
    PTX_OPD_SINK   /* `_` as a whole operand */
} ptx_opd_kind;

enum {
    PTX_OPD_F_NEG   = 1u << 0, /* logical not of a predicate source */
    PTX_OPD_F_FRAME = 1u << 1, /* add the current call frame's local base */
    PTX_OPD_F_VECPRED = 1u << 2 /* VEC elements are predicates */
};

/*
** The address rule for PTX_OPD_ADDR and the value rule for PTX_OPD_SYM:
**
**     address = (reg >= 0 ? R[reg] : 0)
**             + (sym >= 0 ? symbol_base[sym] : 0)
**             + (flags & PTX_OPD_F_FRAME ? frame_local_base : 0)
**             + imm
**
**  - `sym` is an index into ptx_module.vars for module-scope variables; the
**    emulator supplies their base (global address, const offset, or shared
**    offset from the kernel's layout: ptx_func.shared_off).
**  - Function-scope variables -- .local arrays, a .func's own .param
**    parameters and return values, and the .param arguments declared inside
**    a call sequence -- live in the per-thread call frame in the LOCAL space.
**    They have sym = -1, PTX_OPD_F_FRAME set and their frame offset in imm;
**    a ld.param/st.param on them is decoded with space = PTX_SPACE_LOCAL.
**  - A kernel's own parameters are PTX_SPACE_PARAM with sym = -1 and imm =
**    byte offset in the launch's parameter buffer.
*/
typedef struct ptx_operand {
    uint8_t kind;   /* ptx_opd_kind */
    uint8_t flags;  /* PTX_OPD_F_* */
    uint8_t space;  /* ADDR/SYM: space of the variable named (NONE if only reg) */
    uint8_t nvec;   /* VEC: element count 1..4 */
    int32_t reg;    /* see kinds above; -1 when absent */
    int32_t reg2;   /* see kinds above; -1 when absent */
    int32_t sym;    /* ADDR/SYM: module variable index or -1 */
    int64_t imm;    /* IMM bits, ADDR/SYM offset, LABEL/FUNC index */
    int32_t vreg[4];
} ptx_operand;

/* special registers (PTX_OPD_SREG.reg) */
enum {
    PTX_SREG_TID = 1, PTX_SREG_NTID, PTX_SREG_CTAID, PTX_SREG_NCTAID,
    PTX_SREG_LANEID, PTX_SREG_WARPID, PTX_SREG_NWARPID, PTX_SREG_SMID,
    PTX_SREG_NSMID, PTX_SREG_GRIDID, PTX_SREG_CLOCK, PTX_SREG_CLOCK_HI,
    PTX_SREG_CLOCK64, PTX_SREG_GLOBALTIMER, PTX_SREG_GLOBALTIMER_LO,
    PTX_SREG_GLOBALTIMER_HI,
    PTX_SREG_LANEMASK_EQ, PTX_SREG_LANEMASK_LT, PTX_SREG_LANEMASK_LE,
    PTX_SREG_LANEMASK_GT, PTX_SREG_LANEMASK_GE,
    PTX_SREG_DYNAMIC_SMEM_SIZE, PTX_SREG_TOTAL_SMEM_SIZE,
    PTX_SREG_WARPSZ,
    PTX_SREG_COUNT
};

/* ------------------------------------------------------------------ */
/* Micro-ops                                                           */
/* ------------------------------------------------------------------ */

#define PTX_MAX_OPDS 5

/*
** One decoded instruction.  Operands are in PTX order, destination(s)
** first: e.g. `mad.lo.s32 d, a, b, c` has opd[0]=d .. opd[3]=c.
** Instructions with no destination (st, bra, bar, red) start with their
** first source (st: opd[0] = address, opd[1] = value).
**
**   guard >= 0       : executed only in lanes where predicate `guard` is
**                      true (false if guard_neg)
**   target           : BRA: taken uop index; CALL: callee function index
**   rpc              : BRA/BRX/RET: reconvergence point = uop index of the
**                      immediate post-dominator of this instruction's block
**                      (a FUNC_END index when the paths only meet on return)
*/
typedef struct ptx_uop {
    uint16_t op;        /* ptx_opcode */
    uint8_t  type;      /* ptx_type: the instruction type (last type suffix) */
    uint8_t  type2;     /* cvt: source type; setp/set: compare type; else NONE */
    uint32_t flags;     /* PTX_F_* */
    uint8_t  sub;       /* op variant, see PTX_ATOM_* etc. */
    uint8_t  cmp;       /* PTX_CMP_* */
    uint8_t  bop;       /* PTX_BOP_* */
    uint8_t  rnd;       /* PTX_RND_* */
    uint8_t  space;     /* ptx_space for ld/st/atom/red/cvta/isspacep/prefetch */
    uint8_t  vec;       /* 1, 2 or 4 for .v2/.v4 ld/st; 1 otherwise */
    uint8_t  nopd;      /* operands used */
    uint8_t  guard_neg;
    int32_t  guard;     /* guard predicate slot, -1 if none */
    uint32_t target;
    uint32_t rpc;
    uint32_t func;      /* index of the function this uop belongs to */
    uint32_t line;      /* source position of the instruction */
    uint16_t col;
    uint16_t aux;       /* CALL: index into ptx_module.calls; textures:
                           see PTX_GEOM_* */
    ptx_operand opd[PTX_MAX_OPDS];
} ptx_uop;

/* ------------------------------------------------------------------ */
/* Variables, functions, calls, module                                 */
/* ------------------------------------------------------------------ */

typedef struct ptx_var {
    char    *name;
    uint8_t  space;     /* ptx_space */
    uint8_t  type;      /* element type */
    bool     is_extern; /* `.extern .shared x[]`: dynamic shared memory */
    bool     is_func_scope; /* declared inside a function body */
    uint32_t align;     /* bytes */
    uint64_t size;      /* bytes (0 for unsized extern arrays) */
    uint8_t *init;      /* `size` bytes of initial value, or NULL (zero) */
    int32_t  func;      /* owning function for function scope, else -1 */
    uint64_t frame_off; /* function scope: offset in the call frame */
    uint32_t line, col;
} ptx_var;

/* a formal parameter or return value of a function */
typedef struct ptx_param {
    char    *name;
    uint8_t  type;
    uint8_t  is_ptr_space;   /* .ptr.<space> attribute given (kernels), else 0 */
    uint32_t align;
    uint32_t size;           /* bytes (arrays: .b8 x[16] has size 16) */
    uint32_t offset;         /* kernel: offset in param buffer; func: frame offset */
} ptx_param;

/* a call site: how to move arguments into the callee's frame and back */
typedef struct ptx_call {
    uint32_t callee;          /* function index */
    uint32_t nargs, nrets;
    uint32_t arg_off[16];     /* caller frame offsets of the arguments */
    uint32_t arg_size[16];
    uint32_t ret_off[4];      /* caller frame offsets for return values */
    uint32_t ret_size[4];
} ptx_call;

typedef struct ptx_block {
    uint32_t first, last;     /* uop indices, inclusive */
    int32_t  succ[2];         /* successor block indices, -1 if none */
    int32_t  ipdom;           /* immediate post-dominator block, -1 = exit */
} ptx_block;

typedef struct ptx_func {
    char    *name;
    bool     is_entry;        /* .entry (kernel) vs .func */
    bool     is_extern;       /* declared, no body (vprintf, malloc, ...) */
    bool     is_visible;
    uint32_t nparams, nrets;
    ptx_param *params;
    ptx_param *rets;
    uint32_t nregs, npreds;   /* slots, see file header */
    char   **reg_names;       /* slot -> name, for messages and dumps */
    char   **pred_names;
    uint32_t uop_begin, uop_end; /* uops[uop_end] is FUNC_END */
    uint32_t frame_size;      /* bytes of per-thread call frame (LOCAL space) */
    uint32_t param_size;      /* kernel: bytes of the parameter buffer */
    /* performance directives, 0 = not given */
    uint32_t maxntid[3], reqntid[3], minnctapersm, maxnreg, maxnctapersm;
    /* kernels: static shared-memory layout of everything reachable */
    uint32_t shared_size;     /* bytes of static .shared, aligned */
    uint32_t dyn_shared_align;/* where .extern .shared starts: shared_size
                                 rounded up to this */
    int64_t *shared_off;      /* per module var: offset, -1 if unused */
    bool     uses_printf;
    uint32_t nblocks;
    ptx_block *blocks;
    uint32_t line, col;
} ptx_func;

typedef struct ptx_module {
    char    *filename;        /* as given for messages */
    uint32_t version_major, version_minor;
    char    *target;          /* e.g. "sm_75" */
    uint32_t address_size;    /* 32 or 64 */
    uint32_t nfuncs, nvars, nuops, ncalls;
    ptx_func *funcs;
    ptx_var  *vars;
    ptx_uop  *uops;
    ptx_call *calls;
} ptx_module;

#endif /* WS_PTX_IR_H */
