/*
** plugin.c -- loading policy plug-ins (shared objects built outside the
** tree against include/warpsim_policy.h) into a registry.
*/
#include <dlfcn.h>
#include <stdio.h>

#include "policy/plugin.h"

int ws_registry_load(ws_registry *r, const char *path, char *err, size_t errlen)
{
    void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!h) {
        snprintf(err, errlen, "plug-in %s: %s", path, dlerror());
        return -1;
    }
    ws_plugin_entry_fn entry = (ws_plugin_entry_fn)dlsym(h, WS_PLUGIN_ENTRY);
    const ws_plugin *p = entry ? entry() : NULL;
    char e[400];
    if (!p) {
        snprintf(err, errlen, "plug-in %s: exports no function %s returning its table", path,
                 WS_PLUGIN_ENTRY);
    } else if (ws_registry_add(r, p, e, sizeof e) == 0 && ws_registry_add_handle(r, h) == 0) {
        return 0;
    } else {
        snprintf(err, errlen, "plug-in %s: %s", path, e);
    }
    dlclose(h);
    return -1;
}

void ws_plugin_close_all(void **handles, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++) dlclose(handles[i]);
}
