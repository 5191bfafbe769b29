/*
** config.h -- building, checking, dumping and querying the machine
** configuration (config.c, presets.c, gpgpusim.c).  The gpu_config type
** itself is in common/config.h.
*/
#ifndef WS_GPU_CONFIG_H
#define WS_GPU_CONFIG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include "../common/config.h"

/* ---- building a configuration (config.c, presets.c, gpgpusim.c) ---- */

/* Defaults of every parameter (the gtx480 machine). */
void gpu_config_defaults(gpu_config *c);
/* Start from preset `name`; -1 and a message listing presets if unknown. */
int gpu_config_preset(gpu_config *c, const char *name, char *err, size_t errlen);
/* Set one parameter from text; -1 with a message naming key and value. */
int gpu_config_set(gpu_config *c, const char *key, const char *value, char *err, size_t errlen);
/* Read a config file: `key = value` lines and/or GPGPU-Sim `-option value`
   lines; `#` comments. Unknown GPGPU-Sim options, and cache-string
   letters without a counterpart, are collected in `warn` (one line naming
   them all), never dropped silently. 0 / -1. */
int gpu_config_load_file(gpu_config *c, const char *path, char *warn, size_t warnlen,
                         char *err, size_t errlen);
/* Cross-field checks (e.g. warps divisible among schedulers, policy names
   exist); -1 with a message. Run before cycle 0. */
int gpu_config_check(const gpu_config *c, char *err, size_t errlen);
/* The one resolution of the configured policies (every kind's name and
   parameters, against c->registry): 0, or -1 with a message naming the
   key. */
struct ws_resolved_policies;
int gpu_config_policies(const gpu_config *c, struct ws_resolved_policies *out,
                        char *err, size_t errlen);
/* Every parameter with its value, unit and help, as text or JSON object. */
void gpu_config_dump(const gpu_config *c, FILE *out, bool json);
/* The JSON dump without the keys that only say how the host simulates
   (`threads`): what a statistics report carries. */
void gpu_config_dump_machine(const gpu_config *c, FILE *out);
/* Names of the presets, NULL-terminated. */
extern const char *const gpu_preset_names[];

/* ---- the parameter table (config.c) ---- */

/* One-stop construction: defaults, then `config` (NULL = defaults; a
   preset name, else a config file path), then each "key=value" of the
   NULL-terminated `settings` (a key starting with '-' is a GPGPU-Sim
   option), then gpu_config_check.  Warnings (GPGPU-Sim options not
   understood, cache-string letters without a counterpart) go to `warn`
   ("" when none).  0 / -1 with a message. */
int gpu_config_build(gpu_config *c, const char *config, const char *const *settings,
                     char *warn, size_t warnlen, char *err, size_t errlen);
/* The same, with policy names resolved in `registry` (built-ins plus
   loaded plug-ins; NULL = built-ins only), which c->registry then points
   to: it must outlive `c` and anything built from it. */
int gpu_config_build_in(gpu_config *c, const struct ws_registry *registry, const char *config,
                        const char *const *settings, char *warn, size_t warnlen, char *err,
                        size_t errlen);
/* Apply one "key=value" (or "-gpgpusim_option=value") setting.  Letters
   of a GPGPU-Sim cache string without a counterpart are accepted here;
   gpu_config_build and config files name them in their warning. */
int gpu_config_apply(gpu_config *c, const char *setting, char *err, size_t errlen);
/* Value of parameter `key` as text (what the dump prints); -1 if unknown. */
int gpu_config_get(const gpu_config *c, const char *key, char *buf, size_t len);
/* Key of the i-th parameter of the table, NULL past the end. */
const char *gpu_config_key(uint32_t i);
/* One-line description of a preset, NULL if there is no such preset. */
const char *gpu_preset_summary(const char *name);

#endif /* WS_GPU_CONFIG_H */
