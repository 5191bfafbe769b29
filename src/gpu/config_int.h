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
    GPU_GS_IGNORED,       /* a GPGPU-Sim option warpsim knows but does not model */
    GPU_GS_UNKNOWN,       /* not a GPGPU-Sim option we know */
    GPU_GS_ERROR,         /* known, but the value is bad: message in err */
    GPU_GS_PARTIAL        /* applied, but parts of the value (cache letters) have no
                             counterpart: err names them, for the one warning */
};

/* Apply GPGPU-Sim option `opt` (with its leading '-') = `value`. */
int gpu_gpgpusim_apply(gpu_config *c, const char *opt, const char *value,
                       char *err, size_t errlen);

#endif /* WS_GPU_CONFIG_INT_H */
