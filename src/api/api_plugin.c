/*
** api_plugin.c -- policy plug-ins in the host API: the registry a context
** resolves policy names in (ws_options.plugins, a colon-separated list of
** shared objects), and ws_options_check, which refuses before anything
** runs what ws_ctx_create2 would refuse.
*/
#include "api_internal.h"
#include "policy/policy.h"
#include <stdlib.h>
#include <string.h>

ws_status ws__registry_open(const char *plugins, ws_registry **out, char *err, size_t errlen)
{
    *out = NULL;
    if (!plugins || !plugins[strspn(plugins, ":")]) return WS_OK;
    char *list = strdup(plugins);
    ws_registry *r = list ? ws_registry_new() : NULL;
    if (!r) {
        free(list);
        snprintf(err, errlen, "out of host memory loading plug-ins");
        return WS_ERR_NOMEM;
    }
    /* empty items ("a::b", a trailing ':') name nothing, as in PATH-like
       lists assembled by scripts */
    for (char *save = NULL, *p = strtok_r(list, ":", &save); p; p = strtok_r(NULL, ":", &save))
        if (ws_registry_load(r, p, err, errlen) != 0) {
            free(list);
            ws_registry_free(r);
            return WS_ERR_INVALID;
        }
    free(list);
    *out = r;
    return WS_OK;
}

/*
** The checks of ws_ctx_create2 and ws__timing_init on a scratch
** configuration: the plug-ins are loaded into a registry of their own,
** closed again before returning.
*/
ws_status ws_options_check(const ws_options *opts, uint32_t *num_sms, double *core_mhz,
                           char *warn, size_t warnlen, char *err, size_t errlen)
{
    char e[1024] = "";
    const char *what = "";
    if (warn && warnlen) warn[0] = '\0';
    if (err && errlen) err[0] = '\0';
    if (!opts) return WS_OK;
    ws_registry *reg = NULL;
    ws_status st = ws__registry_open(opts->plugins, &reg, e, sizeof e);
    if (st == WS_OK && opts->timing) {
        gpu_config c;
        char w[16384];   /* a GPGPU-Sim file names every option */
        if (gpu_config_build_in(&c, reg, opts->config, opts->settings, w, sizeof w, e, sizeof e)) {
            what = "timing configuration: ";   /* as ws_ctx_create2 says it */
            st = WS_ERR_INVALID;
        } else {
            if (warn && warnlen) snprintf(warn, warnlen, "%s", w);
            if (num_sms) *num_sms = gpu_config_n_sm(&c);
            if (core_mhz) *core_mhz = c.core_mhz;
        }
    }
    ws_registry_free(reg);
    if (st != WS_OK && err && errlen) snprintf(err, errlen, "%s%s", what, e);
    return st;
}
