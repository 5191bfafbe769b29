/*
** config_int.h -- private to the configuration files of gpu/ (config.c,
** presets.c, gpgpusim.c): the preset table and the translator of
** GPGPU-Sim option names.  Everything else goes through config.h.
*/
#ifndef WS_GPU_CONFIG_INT_H
#define WS_GPU_CONFIG_INT_H

#include "config.h"

/* A preset: overrides of the parameter table's defaults (which are the
   gtx480 machine), as "key=value" strings, NULL-terminated. */
typedef struct gpu_preset {
    const char *name;
    const char *summary;          /* one line for `warpsim config list` */
    const char *const *settings;
} gpu_preset;

/* NULL-name-terminated table (presets.c). */
extern const gpu_preset gpu_presets[];

/* Outcome of translating one GPGPU-Sim option. */
enum {
    GPU_GS_APPLIED = 0,   /* translated into our parameters */
    GPU_GS_IGNORED,       /* a GPGPU-Sim option (or value) warpsim knows but does not
                             model: err says what it would have changed */
    GPU_GS_UNKNOWN,       /* not a GPGPU-Sim option we know */
    GPU_GS_ERROR,         /* known, but the value is bad: message in err */
    GPU_GS_PARTIAL        /* applied, but parts of the value (cache letters) have no
                             counterpart: err names them, for the one warning */
};

/* What the translation of one file remembers between its lines: GPGPU-Sim
   combines some options after reading them all, so their order in a file
   does not matter (the DRAM bus is -gpgpu_dram_buswidth per chip times
   -gpgpu_n_mem_per_ctrlr chips).  Starts at GPGPU-Sim's own defaults. */
typedef struct gpu_gs_state {
    uint32_t dram_chip_bytes;   /* -gpgpu_dram_buswidth (default 4) */
    uint32_t dram_chips;        /* -gpgpu_n_mem_per_ctrlr (default 1) */
    /* -gpgpu_cache:il1 given, -gpgpu_perfect_inst_const_cache 1 given: the
       instruction cache is modelled when the first holds and not the second,
       in whichever order the file gives them */
    bool     il1_given, perfect_icache;
} gpu_gs_state;

void gpu_gs_state_init(gpu_gs_state *st);

/* Apply GPGPU-Sim option `opt` (with its leading '-') = `value` (gpgpusim_map.c).
   `st` is the file's state (NULL: GPGPU-Sim's defaults).  GPU_GS_IGNORED
   leaves in `err` what the option would have changed. */
int gpu_gpgpusim_apply(gpu_config *c, gpu_gs_state *st, const char *opt, const char *value,
                       char *err, size_t errlen);
/* Name of the i-th GPGPU-Sim option of the table, NULL past the end. */
const char *gpu_gpgpusim_option(uint32_t i);

/* ---- where each parameter got its value (config.c, config_file.c) ---- */

/* At least the number of parameters in config.c's table (checked there). */
#define GPU_CFG_MAX_PARAMS 512

/* Per parameter (table order): the config-file line or the --set setting
   that set it last, so a cross-field check failing later names them. */
typedef struct gpu_origins {
    const char *file;                          /* the config file, or NULL */
    uint32_t file_line[GPU_CFG_MAX_PARAMS];    /* 0: not from the file */
    const char *setting[GPU_CFG_MAX_PARAMS];   /* NULL: not from --set */
} gpu_origins;

/* Record `line` of the file (setting NULL) or `setting` as the origin of
   every parameter whose value differs between `before` and `after`. */
void gpu_origins_mark(gpu_origins *o, const gpu_config *before, const gpu_config *after,
                      uint32_t line, const char *setting);
/* Append to `err` where the parameters it names were set:
   " (l1d.line_bytes set at FILE:3; n_schedulers set by --set n_schedulers=5)". */
void gpu_origins_explain(const gpu_origins *o, char *err, size_t errlen);
/* gpu_config_load_file, recording origins in `o` (NULL: none). */
int gpu_config_load_file_at(gpu_config *c, const char *path, gpu_origins *o, char *warn,
                            size_t warnlen, char *err, size_t errlen);
/* Append `name` to the comma list in `list` (bounded; "..." when full). */
void gpu_config_list_add(char *list, size_t len, const char *name);

#endif /* WS_GPU_CONFIG_INT_H */
