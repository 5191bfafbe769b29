/*
** gpgpusim_int.h -- private to the GPGPU-Sim translation (gpgpusim.c: the
** value parsers; gpgpusim_map.c: the table of every option, one row each).
** A row names the option, the handler that maps its value onto warpsim
** parameters (NULL: not modelled) and, for what is not modelled, what the
** option would have changed.
*/
#ifndef WS_GPU_GPGPUSIM_INT_H
#define WS_GPU_GPGPUSIM_INT_H

#include "config_int.h"

typedef struct gs_row gs_row;

/* Map `v` for `row`; GPU_GS_* as gpu_gpgpusim_apply.  GPU_GS_IGNORED with
   err = what the value would have changed (a value warpsim does not
   model); GPU_GS_PARTIAL with err = "opt [what is approximated]...". */
typedef int gs_fn(gpu_config *c, gpu_gs_state *st, const gs_row *row, const char *v,
                  char *err, size_t errlen);

struct gs_row {
    const char *opt;     /* GPGPU-Sim's name, with its '-' */
    gs_fn *fn;           /* NULL: not modelled (or no effect on timing) */
    const char *arg;     /* the handler's argument: a warpsim key, a cache, a class */
    const char *why;     /* not modelled: what it would have changed */
};

/* ---- helpers (gpgpusim.c) ---- */
bool gs_num(const char *s, uint32_t *out);
int gs_split(const char *v, char sep, char *buf, size_t len, char **f, int max);
int gs_setf(gpu_config *c, const char *key, const char *opt, uint32_t x, char *err,
            size_t errlen);
int gs_bad(const char *opt, const char *v, const char *want, char *err, size_t errlen);

/* ---- handlers of composite values (gpgpusim.c) ---- */
gs_fn gs_cache;          /* arg: l1d, l1c, l1t, l1i or l2 */
gs_fn gs_icache;         /* -gpgpu_cache:il1: gs_cache into l1i, l1i.model on */
gs_fn gs_perfect_icache; /* -gpgpu_perfect_inst_const_cache */
gs_fn gs_scheduler;
gs_fn gs_opcode_latency; /* arg: int, fp, dp or sfu */
gs_fn gs_opcode_interval;
gs_fn gs_clock;
gs_fn gs_pipeline;
gs_fn gs_timing;
gs_fn gs_addr_map;
gs_fn gs_dram_scheduler;
gs_fn gs_dram_buswidth;
gs_fn gs_dram_chips;
gs_fn gs_dram_queue;
gs_fn gs_partition_queues;

#endif /* WS_GPU_GPGPUSIM_INT_H */
