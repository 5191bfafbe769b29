/*
** plugin.h -- between the registry (registry.c) and plug-in loading
** (plugin.c): the registry keeps the dlopen handles of the plug-ins whose
** tables it holds and closes them when it is freed.
*/
#ifndef WS_POLICY_PLUGIN_H
#define WS_POLICY_PLUGIN_H

#include <stdint.h>
#include "policy/policy.h"

/* Keep `handle` until ws_registry_free. 0, or -1 when out of memory. */
int ws_registry_add_handle(ws_registry *r, void *handle);
/* dlclose each of `n` handles (plugin.c). */
void ws_plugin_close_all(void **handles, uint32_t n);

#endif /* WS_POLICY_PLUGIN_H */
