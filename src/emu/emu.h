/*
** emu.h -- the functional emulator: executes decoded PTX (ptx_ir.h) on
** 32-lane warps, with no notion of time.
**
** Structure (one file each):
**   mem.c        sparse paged 64-bit global memory + allocation table
**   oob.c        global accesses outside every allocation (warn or fault)
**   operand.c    reading/writing operands for all 32 lanes
**   warp.c       warp state, SIMT reconvergence stack, call frames, step loop
**   cta.c        CTA state: shared memory, barriers; runs a grid functionally
**   exec_int.c, exec_float.c, exec_cvt.c, exec_bit.c   ALU semantics
**   exec_mem.c   ld/st/atom/red/cvta; address spaces and fault reports
**   exec_ctrl.c  bra/call/ret/exit/bar/membar; exec_warp.c shfl/vote/...
**   printf.c     device printf (vprintf) formatting
**   dispatch.c   opcode -> handler table
**
** The timing model (core/, later) drives the same warps one instruction at
** a time through emu_warp_step(); the functional runner in cta.c gives the
** resident CTAs' warps turns of bounded length (emu_run_grid).
*/
#ifndef WS_EMU_H
#define WS_EMU_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include "../ptx/ptx_ir.h"

#define EMU_WARP_SIZE 32
#define EMU_FULL_MASK 0xffffffffu

/*
** Generic address space layout.  Global memory is the identity window;
** the others are 4 GiB windows whose low 32 bits are the space's own
** address (what `cvta.to.<space>` yields).  Local and shared windows are
** per thread / per CTA: the same generic address names different storage
** in different threads / CTAs.
*/
#define EMU_GLOBAL_HEAP_BASE 0x0000000700000000ull /* first device allocation */
#define EMU_WINDOW_SIZE      0x0000000100000000ull
#define EMU_CONST_WINDOW     0x000000f000000000ull
#define EMU_PARAM_WINDOW     0x000000f100000000ull
#define EMU_LOCAL_WINDOW     0x000000f200000000ull
#define EMU_SHARED_WINDOW    0x000000f300000000ull
#define EMU_GLOBAL_LIMIT     EMU_CONST_WINDOW      /* global addresses end here */

/* ------------------------------------------------------------------ */
/* Global memory (mem.c)                                               */
/* ------------------------------------------------------------------ */

typedef struct emu_mem emu_mem;

/* what an allocation is, for fault messages */
typedef enum { EMU_ALLOC_DEVICE, EMU_ALLOC_MODULE_GLOBAL } emu_alloc_kind;

/*
** The mapped granularity of device memory: like a GPU's 2 MiB pages, an
** address is mapped when its 2 MiB-aligned page holds part of a live
** allocation.  Outside memcheck, a kernel access outside every allocation
** but inside mapped pages proceeds (reads what is there, writes land) and
** is reported once per site (oob.c); outside mapped pages it faults.
*/
#define EMU_MEM_MAP_BYTES (2ull << 20)

emu_mem *emu_mem_new(void);
void emu_mem_free(emu_mem *m);
/* Reserve `size` bytes (>0) aligned to `align`; 0 or -1 (out of space). */
int emu_mem_alloc(emu_mem *m, uint64_t size, uint64_t align, emu_alloc_kind kind,
                  const char *label, uint64_t *addr);
/* Release the allocation starting exactly at `addr`: 0, -1 (not one), or
   -2 (already freed: a double free, while the entry is still kept). */
int emu_mem_release(emu_mem *m, uint64_t addr);
/* 1 if [addr, addr+n) lies inside one live allocation, else 0. */
int emu_mem_valid(emu_mem *m, uint64_t addr, uint64_t n);
/* 1 if every byte of [addr, addr+n) lies in a mapped page (EMU_MEM_MAP_BYTES). */
int emu_mem_mapped(const emu_mem *m, uint64_t addr, uint64_t n);
/* Sum of the sizes of the live allocations. */
uint64_t emu_mem_live_bytes(const emu_mem *m);
/* At most `pages` 4 KiB host pages back device memory (0 = unlimited):
   beyond it writes fail as when the host is out of memory (a test hook). */
void emu_mem_set_page_limit(emu_mem *m, uint64_t pages);
/* Freed allocations kept (to name use after free and double free, and
   not to reuse their addresses) before they are dropped; default 4096. */
void emu_mem_set_quarantine(emu_mem *m, uint32_t entries);
/* Copy in/out; unchecked against allocations (callers check first).
   Unwritten memory reads as zero.  emu_mem_write returns -1 when a page
   could not be made (host out of memory): the bytes before it are
   written, the rest are not, and the caller must report it. */
int emu_mem_write(emu_mem *m, uint64_t addr, const void *src, uint64_t n);
void emu_mem_read(emu_mem *m, uint64_t addr, void *dst, uint64_t n);
/* Pointer to `n` bytes at `addr` when they sit in one page (creating the
   page), else NULL (crossing a page, or host out of memory); the fast
   path of stores.  emu_mem_peek is the read-only one of loads: never
   creates a page (never-written memory reads from a shared zero page). */
uint8_t *emu_mem_span(emu_mem *m, uint64_t addr, uint64_t n);
const uint8_t *emu_mem_peek(emu_mem *m, uint64_t addr, uint64_t n);
/* While frozen, reads (peek, read, valid, mapped, describe) write nothing,
   not even their one-entry caches, so threads may read at once; the
   parallel timing model freezes memory while its SMs tick (gpu/smpar.c),
   and nothing writes memory then (writes go to each SM's emu_wlog). */
void emu_mem_freeze(emu_mem *m, bool frozen);
/* Describe the allocation nearest to `addr` into buf (for fault messages);
   returns 1 when `addr` is inside a freed allocation (use after free). */
int emu_mem_describe(emu_mem *m, uint64_t addr, char *buf, size_t len);

/* ------------------------------------------------------------------ */
/* Out-of-allocation sites (oob.c)                                     */
/* ------------------------------------------------------------------ */

/* Global accesses outside every allocation that proceeded because their
   pages are mapped: one record per site (module, PTX instruction), the
   first access's report and a count, in order of first occurrence. */
typedef struct emu_oob_log emu_oob_log;

emu_oob_log *emu_oob_new(void);
void emu_oob_free(emu_oob_log *g);
/* Write one warning per site to `out`; returns the number of sites. */
uint32_t emu_oob_report(const emu_oob_log *g, FILE *out);
/* Move `src`'s sites into `dst` (counts added; new sites appended in
   `src`'s order) and empty `src`: per-SM logs joined in a fixed order. */
void emu_oob_merge(emu_oob_log *dst, emu_oob_log *src);
bool emu_oob_empty(const emu_oob_log *g);   /* nothing to merge */

/* ------------------------------------------------------------------ */
/* Deferred global writes (wlog.c)                                     */
/* ------------------------------------------------------------------ */

/* With a log in its launch (emu_launch.wlog), a warp's global stores and
   atomics do not write memory: each lane's access is recorded, with the
   bytes a store writes or the operands of an atomic, and emu_wlog_apply
   writes them later, in order.  An atomic returns the value memory held
   when it executed; apply redoes it on the value memory holds then and
   corrects the destination register where the two differ. */
typedef struct emu_wlog emu_wlog;

/* Each SM's logs (this one and emu_oob_log) are written on its SM's
   thread in the parallel timing model, so each is allocated on cache lines
   of its own (`bytes` rounded up to whole 64-byte lines, zeroed): logs
   sharing a line would pass it between the CPUs' caches every cycle.
   (common/lines.h does the same above this layer.) */
void *emu_lines_alloc(size_t bytes);
struct emu_warp;

emu_wlog *emu_wlog_new(void);
void emu_wlog_free(emu_wlog *g);
bool emu_wlog_empty(const emu_wlog *g);
/* Room for the `n` (<= 32) bytes lane `lane` of warp `w` writes at `addr`
   by `u`: prefilled from memory when `prefill` (an atomic reads them);
   valid until the next put.  NULL: host out of memory. */
uint8_t *emu_wlog_put(emu_wlog *g, emu_mem *m, struct emu_warp *w, const ptx_uop *u,
                      int lane, uint64_t addr, uint32_t n, bool prefill);
/* Is `p` the room the last put returned? */
bool emu_wlog_is_last(const emu_wlog *g, const uint8_t *p);
/* The last put is atomic `u` on `old` with operands b, c, its result
   going to register slot `dst` of the whole register stack (-1: none). */
void emu_wlog_atom(emu_wlog *g, uint64_t old, uint64_t b, uint64_t c, int64_t dst);
/* Write the log to memory in order and empty it; -1 after a fault (host
   out of memory for a page), reported on the access's warp. */
int emu_wlog_apply(emu_wlog *g, emu_mem *m);

/* ------------------------------------------------------------------ */
/* Launch, CTA and warp state                                          */
/* ------------------------------------------------------------------ */

typedef struct emu_warp emu_warp;
typedef struct emu_cta emu_cta;

/* Why a launch stopped early; filled by the first failing warp. */
typedef enum {
    EMU_OK = 0,
    EMU_FAULT_MEMORY,     /* access outside every allocation / window */
    EMU_FAULT_MISALIGNED, /* address not a multiple of the access size */
    EMU_FAULT_TRAP,       /* trap / brkpt */
    EMU_FAULT_STACK,      /* call frames exceeded the per-thread stack */
    EMU_FAULT_BARRIER,    /* barrier can never complete */
    EMU_FAULT_UNSUPPORTED,/* instruction/extern call not implemented */
    EMU_FAULT_ASSERT,     /* __assertfail (device assert): its own CUDA error */
    EMU_FAULT_HANG,       /* progress limit: the kernel never finishes */
    EMU_FAULT_INTERRUPT   /* the host asked to stop (SIGINT) */
} emu_fault_kind;

/* Room for a report plus a per-warp dump of where every resident warp
   is (a hang or an interrupt); longer dumps end in "... N more". */
#define EMU_FAULT_MSG 8192

typedef struct emu_fault {
    emu_fault_kind kind;
    char msg[EMU_FAULT_MSG]; /* complete human-readable report */
} emu_fault;

struct emu_profile;

/* Everything fixed for one kernel launch (shared by all its CTAs). */
typedef struct emu_launch {
    const ptx_module *mod;
    uint32_t func;            /* kernel's function index */
    uint32_t grid[3], block[3];
    uint32_t dyn_shared;      /* bytes of dynamic shared memory */
    uint32_t shared_bytes;    /* static + dynamic, per CTA */
    uint32_t dyn_shared_off;  /* where the .extern .shared array starts */
    const uint8_t *params;    /* kernel parameter buffer (func.param_size) */
    const uint64_t *sym_base; /* per module var: global address, const
                                 offset, or this kernel's shared offset */
    emu_mem *gmem;
    /* global accesses outside every allocation: NULL = strict (memcheck;
       each one faults); else those inside mapped pages proceed and are
       recorded here (see EMU_MEM_MAP_BYTES) */
    emu_oob_log *oob;
    uint8_t *cmem;            /* constant bank (module .const vars) */
    uint32_t cmem_size;
    uint32_t stack_bytes;     /* per-thread local memory (call frames) */
    uint32_t smid_count;      /* value of %nsmid */
    FILE *out;                /* where device printf goes */
    emu_fault fault;          /* first fault, kind EMU_OK if none */
    uint64_t warp_insns, thread_insns; /* counters, summed over warps */
    /* bytes of module-scope .local variables
       at the bottom of every thread's stack (their sym_base is the offset
       there); the kernel's frame starts above them, aligned to 16 */
    uint32_t local_static;
    /* for workload characterization (cta.c sums them from the
       warps): memory (class MEM) and barrier (class BAR) warp instructions,
       and the shortest and longest per-warp instruction count over all
       warps of all CTAs (warps that executed nothing are left out; 0 when
       no warp ran), and the sum over all warps of the square of each
       one's count, for the standard deviation of warp lengths (a double:
       exact while below 2^53, then rounded rather than wrapped) */
    uint64_t mem_insns, bar_insns;
    uint64_t warp_insns_min, warp_insns_max;
    double warp_insns_sq;
    /* the kernel frame's registers and predicates of every finished warp,
       hashed (emu_warp_reg_hash) and summed: the same for any order the
       warps ran in, so an out-of-order issue stream (HAWS) can be checked
       against in-order execution (specs/haws.md §9 item 1) */
    uint64_t reg_hash;
    /* the launch's oracle profile
       (profile.c), or NULL when none was asked for; set by the host side
       (api_timing.c) before the timing run, read-only to the model */
    const struct emu_profile *profile;
    /* texture and surface objects the kernel's handles name (emu_tex.h),
       owned by the host side; NULL = none */
    const struct emu_tex_table *tex;
    /* Hangs (cta.c's runner and the timing model's loop check these).
       A kernel makes progress when one of its warps finishes or a CTA
       barrier completes; `idle_insns` counts warp instructions executed
       since the last progress (emu_count_step adds, emu_warp_step and
       emu_cta_barrier_poll reset), and reaching `progress_limit` (0 = no
       limit) stops the launch with EMU_FAULT_HANG.  `interrupt` (NULL =
       none) points at the host's SIGINT flag; nonzero stops the launch
       with EMU_FAULT_INTERRUPT at the next check. */
    uint64_t progress_limit;
    uint64_t idle_insns;
    bool progressed;          /* set with every reset of idle_insns (emu_progress) */
    bool printed;             /* device printf wrote to `out` */
    /* NULL: global stores and atomics write memory at once; else they are
       logged here and applied later (the parallel timing model's per-SM
       launches, gpu/smpar.c) */
    struct emu_wlog *wlog;
    const volatile sig_atomic_t *interrupt;
    /* CTAs the functional runner keeps in flight and interleaves (what
       the simulated machine holds at once); 0 = 1 */
    uint32_t resident_ctas;
} emu_launch;

/* One SIMT reconvergence-stack entry. */
typedef struct emu_simt {
    uint32_t pc;    /* next uop of this path */
    uint32_t rpc;   /* pop when pc reaches this (UINT32_MAX: never) */
    uint32_t mask;  /* lanes on this path */
} emu_simt;

/* One call frame (the kernel body is frame 0). */
typedef struct emu_frame {
    uint32_t func;        /* function index */
    uint32_t call;        /* call-site index in mod->calls (unused in frame 0) */
    uint32_t reg_base;    /* first slot of this frame in the register stack */
    uint32_t pred_base;
    uint32_t local_base;  /* byte offset of the frame in each thread's stack */
    uint32_t simt_base;   /* SIMT depth when the call happened */
} emu_frame;

typedef enum { EMU_W_READY, EMU_W_BARRIER, EMU_W_DONE } emu_warp_state;

struct emu_warp {
    /* hot: touched by every instruction */
    uint64_t *r;          /* current frame's registers: r[slot*32 + lane] */
    uint32_t *p;          /* current frame's predicates: one lane mask each */
    uint32_t carry;       /* .cc carry-out, one bit per lane */
    const ptx_uop *uops;  /* the module's uop array */
    emu_launch *launch;
    emu_cta *cta;

    /* identity */
    uint32_t wid;         /* warp index in the CTA */
    uint32_t lanes;       /* mask of lanes holding a thread */
    uint32_t exited;      /* lanes that executed exit / finished */
    uint16_t tid[3][EMU_WARP_SIZE];

    /* control */
    emu_warp_state state;
    uint32_t bar_id;      /* barrier waited on when state == BARRIER */
    emu_simt *simt;  uint32_t simt_n, simt_cap;
    emu_frame *frames; uint32_t frame_n, frame_cap;
    uint64_t *regstack; uint32_t reg_cap;   /* slots * 32 lanes */
    uint32_t *predstack; uint32_t pred_cap; /* slots */
    uint8_t *local;       /* per-thread stacks: lane l at l*stack_bytes */
    uint32_t local_top;   /* bytes in use in every thread's stack */

    /* counters */
    uint64_t warp_insns, thread_insns;
    /* warp instructions per instruction class (ptx_class), one
       table-indexed increment per step */
    uint64_t class_insns[8];
};

struct emu_cta {
    uint32_t ctaid[3];
    uint32_t linear;      /* linear CTA index in the grid */
    uint32_t smid;        /* %smid: the SM it runs on (the timing model
                             sets it; functionally linear % smid_count) */
    uint8_t *shared;      /* launch->shared_bytes */
    uint32_t nwarps;
    emu_warp *warps;
    /* barriers 0..15: threads arrived so far and the count expected */
    uint32_t bar_arrived[16], bar_expected[16];
    uint32_t bar_red[16]; /* running value for bar.red */
};

/* ------------------------------------------------------------------ */
/* Operands (operand.c): the only way handlers touch registers         */
/* ------------------------------------------------------------------ */

/* Sign- or zero-extend the low bits of `v` per type `t` (see ptx_ir.h). */
static inline uint64_t emu_norm(uint64_t v, ptx_type t)
{
    switch (ptx_type_size[t]) {
    case 1: return ptx_type_is_signed(t) ? (uint64_t)(int64_t)(int8_t)v : (uint8_t)v;
    case 2: return ptx_type_is_signed(t) ? (uint64_t)(int64_t)(int16_t)v : (uint16_t)v;
    case 4: return ptx_type_is_signed(t) ? (uint64_t)(int64_t)(int32_t)v : (uint32_t)v;
    default: return v;
    }
}

/* Lanes of register slot `slot` in the current frame. */
static inline uint64_t *emu_reg(emu_warp *w, int32_t slot)
{
    return w->r + (size_t)slot * EMU_WARP_SIZE;
}

/* Value of source operand `o` in every lane (raw 64-bit; IMM broadcast;
   SREG and SYM computed). Inactive lanes may receive anything. */
void emu_src(const emu_warp *w, const ptx_operand *o, uint64_t v[EMU_WARP_SIZE]);

/* Address of a PTX_OPD_ADDR operand in every lane (see the address rule
   in ptx_ir.h): register base + symbol base + frame base + displacement. */
void emu_addr(const emu_warp *w, const ptx_operand *o, uint64_t v[EMU_WARP_SIZE]);

/* Predicate operand as a lane mask (PRED with negation, or IMM 0/1). */
uint32_t emu_src_pred(const emu_warp *w, const ptx_operand *o);

/* Write `v[lane]` (normalised per `t`) into register operand `o` for the
   lanes in `mask`. A SINK operand discards. */
void emu_dst(emu_warp *w, const ptx_operand *o, uint32_t mask,
             const uint64_t v[EMU_WARP_SIZE], ptx_type t);

/* Set predicate operand `o` to `bits` in the lanes in `mask`. */
void emu_dst_pred(emu_warp *w, const ptx_operand *o, uint32_t mask, uint32_t bits);

/* ------------------------------------------------------------------ */
/* Instruction handlers (dispatch.c)                                   */
/* ------------------------------------------------------------------ */

/* Execute `u` in the lanes of `mask` (guard already applied, non-empty).
   Return 0, or -1 after filling w->launch->fault.  Control-flow handlers
   also update the SIMT stack; all others leave the pc to the caller. */
typedef int (*emu_exec_fn)(emu_warp *w, const ptx_uop *u, uint32_t mask);

extern const emu_exec_fn emu_dispatch[PTX_OP_COUNT];

/* Fill w->launch->fault (if still empty) with a message naming kernel,
   CTA, warp/thread, PTX source line and then `fmt`. Returns -1. */
int emu_fault_at(emu_warp *w, const ptx_uop *u, int lane, emu_fault_kind kind,
                 const char *fmt, ...) __attribute__((format(printf, 5, 6)));
/* The place part of such a message ("kernel 'k' CTA (..) thread (..) at
   FILE line N") into buf; returns its length. */
int emu_fault_where(const emu_warp *w, const ptx_uop *u, int lane, char *buf, size_t cap);
/* A global access of `n` bytes at `addr` by `lane` that is not inside one
   live allocation (oob.c): a fault under memcheck (launch oob NULL) or
   outside mapped pages, else recorded once per site and the host pointer
   returned (`write`: a page is made; else read-only).  NULL after a fault.
   `what` names the access ("global load"). */
uint8_t *emu_oob_access(emu_warp *w, const ptx_uop *u, int lane, uint64_t addr,
                        uint32_t n, const char *what, bool write);

/* ------------------------------------------------------------------ */
/* Warps and grids (warp.c, cta.c)                                     */
/* ------------------------------------------------------------------ */

#define EMU_MAX_TEXELS (EMU_WARP_SIZE * 8)

/* What one step did, for the timing model and tracers (may be NULL). */
typedef struct emu_step_info {
    const ptx_uop *uop;   /* instruction executed */
    uint32_t mask;        /* lanes that executed it (guard applied) */
    uint32_t nbytes;      /* memory ops: bytes per lane access */
    uint64_t addr[EMU_WARP_SIZE]; /* memory ops: per-lane address in `space` */
    /* tex/tld4: device addresses of every texel read, all lanes (linear
       filtering reads 4 or 8 per lane), for the L1T; ntexel is set only
       for them */
    uint32_t ntexel;
    uint64_t texel[EMU_MAX_TEXELS];
} emu_step_info;

/* Initialise warp `wid` of `cta` (threads beyond the block are absent). */
int emu_warp_init(emu_warp *w, emu_launch *l, emu_cta *cta, uint32_t wid);
void emu_warp_release(emu_warp *w);
/* Next uop this warp will execute (NULL when done). */
const ptx_uop *emu_warp_next(const emu_warp *w);
/* Execute one instruction. 0, or -1 on a fault (see launch->fault). */
int emu_warp_step(emu_warp *w, emu_step_info *info);

/* Run a whole grid functionally: up to launch->resident_ctas CTAs at a
   time (started in linear order as others finish), their warps taking
   turns of at most EMU_QUANTUM instructions, so that a warp spinning on
   a flag another warp or CTA sets lets it run.  Deterministic.  Returns
   0 or -1 (launch->fault says why: a fault, a deadlock, a hang, an
   interrupt). */
#define EMU_QUANTUM 1024
int emu_run_grid(emu_launch *l);

/* Fill launch->fault (if still empty) with `kind`, the report `why` and
   where each warp of the `n` CTAs is (pc, PTX line, opcode, state).
   Returns -1.  (fault.c) */
int emu_fault_dump(emu_launch *l, emu_fault_kind kind, const emu_cta *ctas, uint32_t n,
                   const char *why);
/* 0, or -1 after emu_fault_dump when the launch was interrupted or
   reached its progress limit; `ctas`/`n` as for emu_fault_dump. */
int emu_check_progress(emu_launch *l, const emu_cta *ctas, uint32_t n);

/* ------------------------------------------------------------------ */
/* Internals shared by warp.c, cta.c, exec_*.c and printf.c            */
/* (the timing model uses the CTA functions to run CTAs itself)      */
/* ------------------------------------------------------------------ */

/* Set up CTA `linear` of the grid: ids, zeroed shared memory, warps.
   emu_cta_release frees what init allocated. 0 or -1 (out of memory). */
int emu_cta_init(emu_cta *cta, emu_launch *l, uint32_t linear);
void emu_cta_release(emu_cta *cta);
/* Release every barrier of `cta` whose arrivals are complete (warps go
   back to READY past their bar). Returns the number of warps released. */
int emu_cta_barrier_poll(emu_cta *cta);
/* One turn of an initialised CTA: each READY warp runs up to EMU_QUANTUM
   instructions, complete barriers are released, and this repeats while
   barriers release within a budget of a few quanta per warp.  1 when
   every warp is done, 0 when some still run, -1 on a fault or when no
   warp can move again (a barrier that never completes). */
int emu_cta_turn(emu_cta *cta);
/* Run all warps of an initialised CTA to completion (turns until done,
   without the launch's progress limit). 0 or -1 (fault). */
int emu_cta_run(emu_cta *cta);
/* Add finished warp `w`'s counters to launch `l`'s (instructions, lanes,
   memory and barrier instructions, shortest/longest warp, sum of squared
   lengths).  Called once per warp when its CTA finishes, by cta.c's
   runner and by the timing model. */
void emu_launch_count_warp(emu_launch *l, const emu_warp *w);
/* Add the warp counters of `src` (a per-SM copy of the launch) to `dst`'s
   and zero them in `src`. */
void emu_launch_merge_counts(emu_launch *dst, emu_launch *src);
/* Zero the warp counters emu_launch_count_warp adds to. */
void emu_launch_zero_counts(emu_launch *l);
/* A hash of warp `w`'s kernel-frame registers and predicates (every lane,
   live or not) and its place in the grid. */
uint64_t emu_warp_reg_hash(const emu_warp *w);

/* Each thread's stack (lane l at l*stack_bytes), allocated zeroed on the
   first use; NULL when the host is out of memory. */
uint8_t *emu_warp_local(emu_warp *w);
/* Lanes in `lanes` finish: they leave every SIMT entry; emptied entries
   and frames are dropped; the warp is DONE when no lane is left. */
void emu_warp_exit_lanes(emu_warp *w, uint32_t lanes);
/* Pop SIMT entries whose path reached its reconvergence point. */
void emu_warp_reconverge(emu_warp *w);
/* Apply the FUNC_END the warp's pc reached, if any (the lanes finish, or
   the call returns), without counting it: it is never an instruction. */
void emu_warp_settle(emu_warp *w);

/* Read `n` bytes at generic address `addr` as thread `lane` of `w` (for
   printf and extern calls). 0, or -1 after a fault report naming `u`. */
int emu_generic_read(emu_warp *w, const ptx_uop *u, int lane, uint64_t addr,
                     void *dst, uint32_t n);
/* Per-lane addresses and access size of memory op `u` (for tracers). */
void emu_mem_addrs(emu_warp *w, const ptx_uop *u, uint32_t mask, emu_step_info *info);
/* The same for texture and surface instructions (exec_tex.c): surface
   lanes' addresses, and the texels a tex/tld4 reads. */
void emu_tex_addrs(emu_warp *w, const ptx_uop *u, uint32_t mask, emu_step_info *info);

/* Device printf: `call vprintf` at `u` for the lanes of `mask` (printf.c). */
int emu_vprintf(emu_warp *w, const ptx_uop *u, uint32_t mask);
/* `call __assertfail`: a TRAP fault quoting the assertion (printf.c). */
int emu_assertfail(emu_warp *w, const ptx_uop *u, uint32_t mask);
/* Read a NUL-terminated string at generic address `addr` for `lane` into
   buf (truncated to cap-1 chars). 0, or -1 after a fault report. */
int emu_read_string(emu_warp *w, const ptx_uop *u, int lane, uint64_t addr,
                    char *buf, size_t cap);

/* ------------------------------------------------------------------ */
/* The alternate issue stream (altstream.c): out-of-order execution of  */
/* hinted uops for HAWS, leaving the in-order state untouched           */
/* ------------------------------------------------------------------ */

/*
** The seam the timing core drives for HAWS (specs/haws.md §3.1.3-3.1.6);
** mechanism only, the chain and its renaming come from the caller.
**
**   emu_alt_begin     shadow SIMT stack := copy of the real one
**   emu_alt_exec      run uop `pc` ahead under the shadow mask, sources
**                     and destinations renamed to hidden registers;
**                     a branch moves only the shadow stack
**   emu_alt_end       drop the shadow (hidden registers stay for copies)
**   emu_warp_copy_hidden[_pred]   in order: the COPY micro-op of a
**                     renamed result into its architectural register
**   emu_warp_skip     in order: pass a uop already run ahead
**
** Why counters are not touched ahead: a uop run ahead is counted once,
** by emu_warp_skip when program order reaches it, so warp_insns,
** thread_insns and class_insns equal a plain in-order run; the uops run
** ahead are counted separately in emu_alt.  The copy micro-op counts
** nothing (it is not a PTX instruction).  Branches run ahead are executed
** again in order (§3.1.6 [I]), so emu_warp_skip refuses them.  Nothing
** run ahead may have an effect other warps or the in-order stream could
** see besides registers, so stores, atomics, barriers, fences, calls,
** returns, exits, .cc and clock reads are refused with no side effect.
*/

#define EMU_HIDDEN_REGS 8     /* rename targets per warp (haws.md MAX_RENAME) */
#define EMU_ALT_MAX_SRC 4     /* renamed sources of one uop, per space */
#define EMU_ALT_MAX_DST 4     /* renamed destinations (ld.v4, setp p|q) */
#define EMU_ALT_REFUSED 1     /* the uop may not run ahead; nothing changed */
#define EMU_ALT_NO_PC   UINT32_MAX  /* the shadow stack is empty */

/* One warp's out-of-order state: hidden registers and predicates no PTX
   name reaches, and the shadow SIMT stack alternate branches move.
   Zero-initialised by the owner; emu_alt_free releases it. */
typedef struct emu_alt {
    uint64_t hidden[EMU_HIDDEN_REGS][EMU_WARP_SIZE];
    uint32_t hidden_p[EMU_HIDDEN_REGS];   /* hidden predicates: lane masks */
    emu_simt *shadow;
    uint32_t shadow_n, shadow_cap;
    bool     active;
    uint64_t ahead_insns, ahead_thread_insns;  /* uops run ahead (statistics) */
} emu_alt;

/* One renaming: register (or, with `pred`, predicate) slot `slot` of the
   current frame <-> hidden register (predicate) `hidden`. */
typedef struct emu_alt_ren {
    int32_t  slot;
    uint16_t hidden;
    bool     pred;
} emu_alt_ren;

/* The rename table's view for one alternate uop: sources read from their
   hidden register (the guard predicate included); destinations written
   into theirs.  A slot may appear once among the sources and once among
   the destinations (x = f(x) renamed is fine).  Zero-initialised = none. */
typedef struct emu_alt_remap {
    uint32_t    nsrc, ndst;
    emu_alt_ren src[EMU_ALT_MAX_SRC];
    emu_alt_ren dst[EMU_ALT_MAX_DST];
} emu_alt_remap;

/* Lanes of `mask` whose guard predicate lets `u` execute. */
static inline uint32_t emu_guard_mask(const emu_warp *w, const ptx_uop *u, uint32_t mask)
{
    if (u->guard >= 0) mask &= u->guard_neg ? ~w->p[u->guard] : w->p[u->guard];
    return mask;
}

/* The launch made progress: a warp finished or a barrier completed. */
static inline void emu_progress(emu_launch *l)
{
    l->idle_insns = 0;
    l->progressed = true;
}

/* Count `u` as executed by the lanes of `mask` (one warp instruction). */
static inline void emu_count_step(emu_warp *w, const ptx_uop *u, uint32_t mask)
{
    w->launch->idle_insns++;
    w->warp_insns++;
    w->thread_insns += (uint32_t)__builtin_popcount(mask);
    w->class_insns[ptx_opcode_class[u->op]]++;
}

/* Enter out-of-order mode: the shadow stack := a copy of the real one.
   0, or EMU_ALT_REFUSED (warp not ready, out of memory). */
int emu_alt_begin(emu_warp *w, emu_alt *a);
/* Execute uop `pc` (any pc of the current function, not necessarily the
   next) under the shadow stack's top mask and its guard, renamed by `rm`
   (NULL: none).  The shadow path then continues after it, or where a
   branch sends it (pushing/popping shadow entries, reconverging at rpc);
   *next_pc := the shadow's next pc (EMU_ALT_NO_PC if it emptied).  The
   real pc, SIMT stack, frames and counters are not touched.  `info` as
   for emu_warp_step (mask, and a load's lanes' addresses for the LSU).
   EMU_ALT_REFUSED with no effect at all for a uop that may not run ahead
   (see above), a bad remap, or no shadow; else the handler's result (a
   fault is reported as usual: the load is on the warp's real path). */
int emu_alt_exec(emu_warp *w, emu_alt *a, uint32_t pc, const emu_alt_remap *rm,
                 emu_step_info *info, uint32_t *next_pc);
/* Leave out-of-order mode: the shadow stack is dropped; the hidden
   registers keep their values for the copy micro-ops. */
void emu_alt_end(emu_alt *a);
void emu_alt_free(emu_alt *a);
/* In order again: pass the next uop, already executed out of order,
   without executing it: the pc advances as emu_warp_step would for a
   non-branch (reconverging at rpc) and the uop is counted as executed
   under its guard, so statistics equal the in-order run.  `info` gets
   uop and mask (no addresses: nothing is accessed).  EMU_ALT_REFUSED,
   nothing changed, for a branch (re-executed in order) and for a uop
   emu_alt_exec would refuse. */
int emu_warp_skip(emu_warp *w, emu_step_info *info);
/* The COPY micro-op of a renamed result: lanes `mask` (those the renamed
   uop wrote: its info.mask) of hidden register `hidden` into register
   slot `slot` of the current frame; not counted.  0, or EMU_ALT_REFUSED
   for an index out of range.  _pred: the same for a predicate. */
int emu_warp_copy_hidden(emu_warp *w, const emu_alt *a, uint32_t hidden, int32_t slot,
                         uint32_t mask);
int emu_warp_copy_hidden_pred(emu_warp *w, const emu_alt *a, uint32_t hidden, int32_t slot,
                              uint32_t mask);

/* ------------------------------------------------------------------ */
/* The oracle profile (profile.c) */
/* ------------------------------------------------------------------ */

/*
** A functional pre-run of a launch on a private copy of device memory,
** recording per warp what it will execute.  Warps are indexed by the
** launch-wide warp id (mem_req.warp_uid): cta_linear * warps_per_cta +
** warp index in the CTA.  A barrier interval is the instructions a warp
** executes from its start or its previous waiting barrier (bar.sync,
** bar.red, barrier) up to and including the next one; the last interval
** ends at the warp's exit.  "Memory" counts class MEM (every ld, st,
** atom, red, prefetch, any space), as emu_launch.mem_insns does.  Counts
** are exact for kernels whose control flow does not depend on the order
** in which warps run (atomics, inter-CTA communication).
*/
typedef struct emu_profile {
    uint32_t nwarps;            /* CTAs in the grid x warps_per_cta */
    uint32_t warps_per_cta;
    uint64_t *total;            /* [nwarps] warp instructions */
    uint64_t *mem;              /* [nwarps] of them memory instructions */
    uint32_t *ivl_start;        /* [nwarps + 1] warp w's intervals are
                                   ivl_*[ivl_start[w] .. ivl_start[w+1]) */
    uint64_t *ivl_insns;        /* instructions of each interval */
    uint64_t *ivl_mem;          /* memory instructions of each interval */
    uint64_t *ivl_dev;          /* of them, loads, stores and atomics of device
                                   memory (global, local, generic space) */
    uint32_t nivl;              /* intervals in all */
    uint64_t min_total, max_total;  /* over warps that executed anything */
    uint64_t insns;             /* sum of total[] */
} emu_profile;

/* Copy of `m`: its allocations and every page (private, independent).
   NULL when the host is out of memory. (mem.c) */
emu_mem *emu_mem_clone(const emu_mem *m);

/* Run launch `l` functionally on a clone of its device memory (printf
   output discarded, `l` itself untouched) and fill `p`.  0, or -1 with a
   message (the kernel faulted, or out of host memory); `p` is then empty. */
int emu_profile_build(const emu_launch *l, emu_profile *p, char *err, size_t errlen);
void emu_profile_free(emu_profile *p);
/* Instructions warp `uid` has left after retiring `retired`: total -
   retired, at least 0; -1 when `p` is NULL or `uid` is out of range. */
int64_t emu_profile_remaining(const emu_profile *p, uint64_t uid, uint64_t retired);
/* Warp `uid` at instruction position `pos` (instructions done so far):
   instructions left to the end of its current barrier interval (the
   barrier included) and memory instructions of that interval, into
   *insns_left / *mem_ivl (either may be NULL).  0, or -1 when unknown. */
int emu_profile_interval(const emu_profile *p, uint64_t uid, uint64_t pos,
                         uint64_t *insns_left, uint64_t *mem_ivl);
/* max_total / min_total (1.0 when no warp ran); <= 1.02 is "symmetric"
   in the fetch-dram paper's classification (spec §2.4). */
double emu_profile_asymmetry(const emu_profile *p);

#endif /* WS_EMU_H */
