/*
** gpu_lookup.c -- gpu_new: find the configured policies in the registry
** (policy/registry.c), resolve the warp scheduler's "k=v,k=v" parameters,
** and build the GPU with gpu_new_with.  Kept apart from gpu.c so code that
** passes its own policy tables (unit tests) does not need the registry.
*/
#include "gpu.h"
#include <stdio.h>
#include <string.h>

#define LOOKUP_MAX_KV 16

/* Split "k=v,k=v" (in a copy held by `buf`) into key and value arrays. */
static int lookup_split(char *buf, const char **keys, const char **vals, uint32_t *n,
                        const char *policy, char *err, size_t errlen)
{
    *n = 0;
    for (char *save = NULL, *tok = strtok_r(buf, ",", &save); tok;
         tok = strtok_r(NULL, ",", &save)) {
        char *eq = strchr(tok, '=');
        if (!eq || eq == tok || *n >= LOOKUP_MAX_KV) {
            snprintf(err, errlen, "warp scheduler '%s': parameter '%s' is not key=value",
                     policy, tok);
            return -1;
        }
        *eq = '\0';
        keys[*n] = tok;
        vals[(*n)++] = eq + 1;
    }
    return 0;
}

gpu *gpu_new(const gpu_config *cfg, char *err, size_t errlen)
{
    const ws_warp_sched_ops *ws = ws_find_warp_sched(cfg->warp_scheduler);
    if (!ws) {
        snprintf(err, errlen, "unknown warp scheduler '%s'", cfg->warp_scheduler);
        return NULL;
    }
    const ws_fetch_ops *fo = NULL;
    if (cfg->fetch_policy[0] && !(fo = ws_find_fetch(cfg->fetch_policy))) {
        snprintf(err, errlen, "unknown fetch policy '%s'", cfg->fetch_policy);
        return NULL;
    }
    const ws_cta_map_ops *cm = NULL;
    if (cfg->cta_map[0] && !(cm = ws_find_cta_map(cfg->cta_map))) {
        snprintf(err, errlen, "unknown CTA mapping policy '%s'", cfg->cta_map);
        return NULL;
    }
    char buf[sizeof cfg->warp_scheduler_params];
    snprintf(buf, sizeof buf, "%s", cfg->warp_scheduler_params);
    const char *keys[LOOKUP_MAX_KV], *vals[LOOKUP_MAX_KV];
    uint32_t n;
    if (lookup_split(buf, keys, vals, &n, ws->name, err, errlen)) return NULL;
    ws_param_values pv = { 0 };
    if (ws_params_resolve(ws->name, ws->params, n, keys, vals, &pv, err, errlen)) return NULL;
    return gpu_new_with(cfg, ws, &pv, fo, cm, err, errlen);
}
