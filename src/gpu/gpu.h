/*
** gpu.h -- the timing model's top level: a GPU of SMs and a memory
** backend, driven one core cycle at a time.
**
** The host side (api/) prepares a functional launch (emu_launch: module,
** parameters, memory, symbol bases) exactly as for pure emulation and hands
** it to gpu_run_kernel(), which places CTAs on SMs (CTA-mapping policy),
** runs the SM pipelines until the grid is done, and fills the kernel's
** statistics.  Instructions execute functionally at issue (emu_warp_step);
** timing decides when.  The GPU object keeps its cycle count across
** launches.
*/
#ifndef WS_GPU_H
#define WS_GPU_H

#include <stddef.h>
#include "config.h"
#include "../common/stats.h"
#include "../emu/emu.h"

typedef struct gpu gpu;

/* `cfg` must have passed gpu_config_check(); it is copied. NULL + err on a
   policy that fails to initialise or out of memory. */
gpu *gpu_new(const gpu_config *cfg, char *err, size_t errlen);
void gpu_free(gpu *g);

/* Run launch `l` on the model. `regs_per_thread` is what the occupancy
   calculation uses (the caller decides where it comes from and names the
   source in `regs_source`). 0 on success; -1 when the kernel faulted
   (l->fault) or could not run (err: e.g. one CTA does not fit on an SM,
   or the deadlock watchdog fired, with its dump). `st` is filled in both
   cases (free its samples with gpu_stats_release). */
int gpu_run_kernel(gpu *g, emu_launch *l, const char *kernel_name,
                   uint32_t regs_per_thread, const char *regs_source,
                   gpu_kernel_stats *st, char *err, size_t errlen);

void gpu_stats_release(gpu_kernel_stats *st);

/* The host copied to or from device range [addr, addr + bytes) between
   kernels.  With l2.warm_on_copy the memory system installs those lines
   in the L2 (GPGPU-Sim's -gpgpu_perf_sim_memcpy); otherwise nothing. */
void gpu_host_copy(gpu *g, uint64_t addr, uint64_t bytes);

/* GPU cycles simulated so far (core clock). */
uint64_t gpu_cycle(const gpu *g);
const gpu_config *gpu_get_config(const gpu *g);
/* HALS launch hints ("KERNEL:N,...", gpu/hint.h, already checked) that
   override the configuration's hals_hint for the kernels they name, for
   the launches that follow; NULL = none.  The string is borrowed: it must
   live until the next call. */
void gpu_set_launch_hints(gpu *g, const char *list);


#include "../policy/policy.h"

/* gpu_new with the policies given directly instead of resolved from the
   configured names (tests, and gpu_new itself).  `rp->fetch` and
   `rp->cta_map` may be NULL (built-in round robin); `rp->dram` is needed
   with the full memory system. */
gpu *gpu_new_with(const gpu_config *cfg, const ws_resolved_policies *rp,
                  char *err, size_t errlen);
/* WS_NEED_* of the policies the GPU runs (the host builds the oracle
   profile when WS_NEED_ORACLE is set). */
uint32_t gpu_policy_needs(const gpu *g);

/* CTAs of a kernel with this shape that fit on one SM at once, and the
   resource that limits them ("threads", "warps", "ctas", "registers",
   "shared memory"); 0 when one CTA does not fit. */
uint32_t gpu_ctas_per_sm(const gpu_config *cfg, uint32_t threads_per_cta,
                         uint32_t regs_per_thread, uint32_t shmem_per_cta,
                         const char **limiter);

/* The policies' program view of every uop of `m` (ws_program_view.uops;
   caller frees), for tools that analyse a module without a GPU (`warpsim
   hints`).  It does not depend on the machine.  NULL when out of memory. */
ws_prog_uop *gpu_program_view(const ptx_module *m);

#endif /* WS_GPU_H */
