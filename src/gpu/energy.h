/*
** energy.h -- the event energy model (GPUWattch-style): energy per event
** of each unit times the events the timing model counted, plus each unit's
** static power times the simulated time, grouped in per-technology tables
** (energy_tech.c) that every `energy.<key>` config value may override.
** docs/energy.md describes the model, the tables and their sources.
*/
#ifndef WS_GPU_ENERGY_H
#define WS_GPU_ENERGY_H

#include <stddef.h>
#include "config.h"
#include "../common/stats.h"

/* The parts of the breakdown, each reported as energy_<name>_j: the
   dynamic ones first, then the static ones (their sum is energy_leak_j). */
enum {
    ENERGY_PART_FRONTEND = 0, ENERGY_PART_RF, ENERGY_PART_SP, ENERGY_PART_SFU,
    ENERGY_PART_DP, ENERGY_PART_INT, ENERGY_PART_LDST, ENERGY_PART_CTRL,
    ENERGY_PART_SMEM, ENERGY_PART_L1D, ENERGY_PART_L1C, ENERGY_PART_L1T,
    ENERGY_PART_REEXEC, ENERGY_PART_ICNT, ENERGY_PART_L2, ENERGY_PART_DRAM,
    ENERGY_PART_LEAK_SM, ENERGY_PART_LEAK_L2, ENERGY_PART_LEAK_ICNT,
    ENERGY_PART_DRAM_BG, ENERGY_PART_LEAK_OTHER,
    ENERGY_NPART
};
#define ENERGY_NPART_DYN ENERGY_PART_LEAK_SM

/* A resolved table: every parameter's value in its unit (pJ, pJ/B, W). */
typedef struct energy_table {
    char   tech[GPU_NAME_MAX];
    double v[ENERGY_NPARAM];
} energy_table;

/* What the values multiply: per dynamic parameter its events (bytes for a
   per-byte value), per static parameter its instances (SMs, slices, ...). */
typedef struct energy_counts {
    double n[ENERGY_NPARAM];
} energy_counts;

typedef struct energy_breakdown {
    double part_j[ENERGY_NPART];
    double dynamic_j, static_j, total_j;
    double seconds, avg_power_w;
} energy_breakdown;

/* One technology table (energy_tech.c): a value and its source per
   parameter; a source starting "[I]" is our interpretation. */
typedef struct energy_tech {
    const char *name;
    const char *about;
    double v[ENERGY_NPARAM];
    const char *src[ENERGY_NPARAM];
} energy_tech;

/* The table named `name`, or NULL; the NULL-terminated list of names. */
const energy_tech *energy_tech_find(const char *name);
const char *const *energy_tech_names(void);

/* Key (after "energy."), unit, part and help of parameter `p`; name of
   breakdown part `part` (as in energy_<name>_j). */
const char *energy_param_key(int p);
const char *energy_param_unit(int p);
int energy_param_part(int p);
const char *energy_param_help(int p);
const char *energy_part_name(int part);

/* The pure model: per part, the sum over its parameters of count x value
   (pJ -> J) for dynamic ones and instances x W x `seconds` for static
   ones; totals and average power. */
void energy_compute(const energy_counts *c, const energy_table *t, double seconds,
                    energy_breakdown *out);

/* cfg's table: energy_tech's values with every energy.<key> >= 0 put over
   them.  0, or -1 with a message naming the key and value in `err`. */
int energy_table_resolve(const gpu_config *cfg, energy_table *t, char *err, size_t errlen);

/* The events and instances of a launch (or of totals) under `cfg`, and its
   simulated time in seconds (core cycles / core clock). */
void energy_counts_of(const gpu_config *cfg, const gpu_kernel_stats *k, energy_counts *c);
double energy_seconds(const gpu_config *cfg, const gpu_kernel_stats *k);

/* Both: energy_table_resolve + energy_counts_of + energy_compute; -1 when
   the table does not resolve (the configuration check refuses that first). */
int energy_of_kernel(const gpu_config *cfg, const gpu_kernel_stats *k, energy_breakdown *out);

#endif /* WS_GPU_ENERGY_H */
