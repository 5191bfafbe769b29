/*
** report.h -- the timing model's statistics report: per kernel launch and
** in total, as text (GPGPU-Sim style "name = value" lines) or JSON, plus
** the optional time series as CSV or a JSON array.  Output is a pure
** function of the counters and the configuration (deterministic).
*/
#ifndef WS_GPU_REPORT_H
#define WS_GPU_REPORT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include "config.h"
#include "ffwd.h"
#include "../common/stats.h"

/* The full report of `n` launches `ks` run on machine `cfg`: the
   configuration (JSON only; text gives the preset line), every launch and
   the totals; with a fast-forward key set, what `ff` ran functionally. */
void gpu_report(FILE *out, const gpu_config *cfg, const gpu_kernel_stats *ks, uint32_t n,
                const gpu_ffwd *ff, bool json);
/* The statistics that have a GPGPU-Sim counterpart, under its names, as
   JSON members of an object the caller has open (each written as a comma,
   a newline and 2 x `depth` spaces, then the member): gpu_sim_cycle,
   gpu_sim_insn (thread instructions as GPGPU-Sim counts them), gpu_ipc
   (gpu_tot_* when `tot`), the L1D and L2 totals (L1D_total_cache_*,
   L2_total_cache_*), the issue slots and the memory system below L1 (the
   `memsys` object of the timing report). */
void gpu_report_gpgpusim_json(FILE *out, const gpu_config *cfg, const gpu_kernel_stats *k,
                              int depth, bool tot);
/* One launch only (text), e.g. printed as it finishes. */
void gpu_report_kernel(FILE *out, const gpu_config *cfg, const gpu_kernel_stats *k);
/* The samples of every launch: CSV with a header line, or a JSON array. */
void gpu_report_timeseries(FILE *out, const gpu_kernel_stats *ks, uint32_t n, bool json);
/* Add the counters of `k` to `sum` (names, shapes and samples are not
   summed; cycles are, since launches run one after another). */
void gpu_stats_accumulate(gpu_kernel_stats *sum, const gpu_kernel_stats *k);

#endif /* WS_GPU_REPORT_H */
