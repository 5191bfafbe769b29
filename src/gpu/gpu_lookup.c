/*
** gpu_lookup.c -- gpu_new: resolve the configured policies (one path,
** gpu_config_policies over the registry) and build the GPU with
** gpu_new_with.  Kept apart from gpu.c so code that passes its own policy
** tables (unit tests) does not need the registry.
*/
#include "gpu.h"

gpu *gpu_new(const gpu_config *cfg, char *err, size_t errlen)
{
    ws_resolved_policies rp;
    if (gpu_config_policies(cfg, &rp, err, errlen)) return NULL;
    return gpu_new_with(cfg, &rp, err, errlen);
}
