/*
** hint.h -- the HALS launch hint of a kernel (specs/haws.md 3.2.2, Table
** 6.1) from a hint list "KERNEL:N[,KERNEL:N...]": the configuration key
** hals_hint and the CUDA shim's WARPSIM_LAUNCH_HINT share this syntax.
** KERNEL is the PTX (mangled) name, its demangled base name, or `*` for
** every kernel; N is 0..3.  Pure functions, no state.
*/
#ifndef WS_GPU_HINT_H
#define WS_GPU_HINT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define GPU_HINT_MAX 3

/* 0 when `list` is well formed (NULL and "" are: they name nothing), else
   -1 with a message in `err` naming the bad entry. */
int gpu_hint_check(const char *list, char *err, size_t errlen);

/* The hint `list` gives kernel `name` in *hint: true when an entry names
   it.  An entry naming the kernel beats `*`; among entries of the same
   kind the last one wins (a later setting overrides an earlier one).
   Malformed entries are skipped (gpu_hint_check rejects them first). */
bool gpu_hint_lookup(const char *list, const char *name, uint32_t *hint);

/* The base name of an Itanium-mangled C++ name into `buf` (the last
   component, no namespace, no arguments): "_Z4gemmPfi" -> "gemm",
   "_ZN2ns4gemmEv" -> "gemm"; a name that is not mangled is copied as it
   is.  Returns `buf`. */
const char *gpu_hint_base_name(const char *name, char *buf, size_t len);

#endif /* WS_GPU_HINT_H */
