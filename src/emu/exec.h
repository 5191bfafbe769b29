/*
** exec.h -- every instruction handler of the emulator, by family.
**
** Each handler has the emu_exec_fn signature (emu.h): it executes uop `u`
** in the lanes of `mask` and returns 0, or -1 after emu_fault_at().
** dispatch.c maps opcodes to these names; a handler serves one opcode
** unless noted.
*/
#ifndef WS_EMU_EXEC_H
#define WS_EMU_EXEC_H

#include "emu.h"

#define EMU_HANDLER(name) int emu_op_##name(emu_warp *w, const ptx_uop *u, uint32_t mask)

/* exec_int.c: integer arithmetic (and float/f16 variants where the opcode
   is shared: add/sub/mul/mad/div/abs/neg/min/max dispatch on u->type) */
EMU_HANDLER(mov);
EMU_HANDLER(add); EMU_HANDLER(sub); EMU_HANDLER(addc); EMU_HANDLER(subc);
EMU_HANDLER(mul); EMU_HANDLER(mad); EMU_HANDLER(madc);
EMU_HANDLER(mul24); EMU_HANDLER(mad24); EMU_HANDLER(sad);
EMU_HANDLER(div); EMU_HANDLER(rem); EMU_HANDLER(abs); EMU_HANDLER(neg);
EMU_HANDLER(min); EMU_HANDLER(max); EMU_HANDLER(dp4a); EMU_HANDLER(dp2a);
/* exec_float.c: float-only ops */
EMU_HANDLER(fma); EMU_HANDLER(copysign); EMU_HANDLER(rcp); EMU_HANDLER(sqrt);
EMU_HANDLER(rsqrt); EMU_HANDLER(sin); EMU_HANDLER(cos); EMU_HANDLER(lg2);
EMU_HANDLER(ex2); EMU_HANDLER(tanh); EMU_HANDLER(testp);
/* exec_cvt.c: conversions */
EMU_HANDLER(cvt);
/* exec_bit.c: bit manipulation and logic */
EMU_HANDLER(popc); EMU_HANDLER(clz); EMU_HANDLER(bfind); EMU_HANDLER(fns);
EMU_HANDLER(brev); EMU_HANDLER(bfe); EMU_HANDLER(bfi); EMU_HANDLER(bmsk);
EMU_HANDLER(szext); EMU_HANDLER(prmt); EMU_HANDLER(lop3); EMU_HANDLER(shf);
EMU_HANDLER(shl); EMU_HANDLER(shr); EMU_HANDLER(and); EMU_HANDLER(or);
EMU_HANDLER(xor); EMU_HANDLER(not); EMU_HANDLER(cnot);
/* exec_cmp.c: comparison and selection */
EMU_HANDLER(setp); EMU_HANDLER(set); EMU_HANDLER(selp); EMU_HANDLER(slct);

/* exec_mem.c: memory */
EMU_HANDLER(ld); EMU_HANDLER(ldu); EMU_HANDLER(st); EMU_HANDLER(cvta);
EMU_HANDLER(isspacep); EMU_HANDLER(prefetch); EMU_HANDLER(atom); EMU_HANDLER(red);
/* The new memory value of atomic op `op` (ptx_atom_op) of type `t`, `n`
   bytes, on `old` with operands b, c; false for a combination PTX lacks. */
bool emu_atom_value(int op, ptx_type t, uint32_t n, uint64_t old, uint64_t b, uint64_t c,
                    uint64_t *out);
/* exec_tex.c: textures and surfaces */
EMU_HANDLER(tex); EMU_HANDLER(tld4); EMU_HANDLER(txq); EMU_HANDLER(suld); EMU_HANDLER(sust);
/* exec_ctrl.c: control flow and synchronisation */
EMU_HANDLER(bra); EMU_HANDLER(brx); EMU_HANDLER(call); EMU_HANDLER(ret);
EMU_HANDLER(exit); EMU_HANDLER(trap); EMU_HANDLER(nop); /* brkpt traps too */
EMU_HANDLER(bar); EMU_HANDLER(barwarp); EMU_HANDLER(func_end);
/* exec_warp.c: warp-level */
EMU_HANDLER(shfl); EMU_HANDLER(vote); EMU_HANDLER(activemask);
EMU_HANDLER(match); EMU_HANDLER(redux);

#endif /* WS_EMU_EXEC_H */
