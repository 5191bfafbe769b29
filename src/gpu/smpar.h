/*
** smpar.h -- the SMs' tick on several host threads (smpar.c).
*/
#ifndef WS_GPU_SMPAR_H
#define WS_GPU_SMPAR_H

#include "../common/stats.h"
#include "../core/core.h"
#include "../emu/emu.h"
#include "../mem/memsys.h"

typedef struct smpar smpar;

/* Per-SM state for `nsm` SMs ticked on `threads` host threads (1: on the
   caller); NULL when threads or memory could not be had. */
smpar *smpar_new(uint32_t nsm, uint32_t threads);
void smpar_free(smpar *p);

/* A kernel starts: SM i runs on smpar_launch(p, i) (a copy of `l` with
   its own counters, write log and printf stream) and counts into
   smpar_stats(p, i) (zero but for what cores read of `st`). */
void smpar_kernel_begin(smpar *p, const emu_launch *l, const gpu_kernel_stats *st);
emu_launch *smpar_launch(smpar *p, uint32_t sm);
gpu_kernel_stats *smpar_stats(smpar *p, uint32_t sm);

/* Give every SM its replies due at `now` from `mem` and tick it (device
   memory `gmem` frozen meanwhile); true when an SM took a reply.  Then join
   them into `l` and commit their sends in the serial loop's order; commit
   returns -1 when the host ran out of memory for a send.  Several threads
   need `mem` to defer (mem_lower.defer, recv_sm, commit_replies).
   `side` (NULL: none) runs once, beside the SMs' ticks: the memory
   system's span before `now`, which reads and writes nothing they do
   (mem_lower.prepare); on one thread it runs first. */
typedef void (*smpar_side)(void *ctx);
bool smpar_tick(smpar *p, core_sm **sms, mem_port *ports, const mem_lower *mem, emu_mem *gmem,
                uint64_t now, smpar_side side, void *side_ctx);
int smpar_commit(smpar *p, emu_launch *l, const mem_lower *mem, uint64_t now);

/* What the last tick (or smpar_scan of `sms`, before the first) left
   in the SMs, as the cycle loop asks it: whether any SM is active (no
   skipping), has a CTA freed or has faulted; their latest progress
   (core_sm_last_progress) and earliest wake-up (core_sm_wake).  The
   tick's threads gather it where the SMs' state is. */
void smpar_scan(smpar *p, core_sm **sms);
bool smpar_active(const smpar *p);
bool smpar_freed(const smpar *p);
bool smpar_faulted(const smpar *p);
uint64_t smpar_progress(const smpar *p);
uint64_t smpar_wake(const smpar *p);

/* Add the SMs' counters to `st` (before anything reads it). */
void smpar_fold(smpar *p, gpu_kernel_stats *st);
/* The kernel ended: fold, and join what is left into `l`. */
void smpar_kernel_end(smpar *p, emu_launch *l, gpu_kernel_stats *st);

#endif /* WS_GPU_SMPAR_H */
