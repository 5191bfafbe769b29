/*
** ffwd.h -- fast-forward: which launches of a program run on the timing
** model when only some should (configuration keys timing_from,
** timing_kernels, timing_every; `warpsim exec --timing-from` ...).  The
** others run on the functional emulator, which keeps the program's state
** (device memory) exactly; the timing model's own state (caches, DRAM
** rows, the cycle count) is what the last timed launch left.
**
**   timing_from    = KERNEL[:N]  nothing is timed before the N-th launch
**                                (1-based, default 1) of KERNEL
**   timing_kernels = K1,K2,...   only launches of these kernels are timed
**   timing_every   = k           of the launches the two keys select, the
**                                1st, (k+1)-th, ... are timed (sampling)
**
** KERNEL is the PTX (mangled) name or its demangled base name, as for
** hals_hint.  Pure functions over the caller's state; no globals.
*/
#ifndef WS_GPU_FFWD_H
#define WS_GPU_FFWD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* What the selection has seen of the program's launches so far. */
typedef struct gpu_ffwd {
    bool started;            /* timing_from's launch has been reached */
    uint64_t from_seen;      /* launches of timing_from's kernel so far */
    uint64_t selected;       /* launches both keys selected (timing_every counts these) */
    /* the launches run functionally: the report says so */
    uint64_t launches, warp_insns, thread_insns;
} gpu_ffwd;

/* 0 when the three values are well formed, else -1 and `err` names the
   key and what is wrong. */
int gpu_ffwd_check(const char *from, const char *kernels, uint32_t every, char *err,
                   size_t errlen);

/* True when any of the keys restricts timing (else every launch is timed). */
bool gpu_ffwd_active(const char *from, const char *kernels, uint32_t every);

/* Is the next launch, of kernel `name`, timed?  Updates `f`. */
bool gpu_ffwd_select(gpu_ffwd *f, const char *from, const char *kernels, uint32_t every,
                     const char *name);

#endif /* WS_GPU_FFWD_H */
