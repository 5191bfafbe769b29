/*
** warp_badabi.c -- a plug-in that claims the wrong policy ABI version (the
** one after this warpsim's), as one built against another warpsim would:
** warpsim must refuse to load it, with a message saying to rebuild it.
** Used by tests/cli/plugin.sh; not an example to copy.
*/
#include <warpsim_policy.h>

static const ws_warp_sched_ops badabi = {
    .name = "badabi",
    .summary = "never loaded: built against another policy ABI",
};

static const ws_warp_sched_ops *const warp_list[] = { &badabi, NULL };

static const ws_plugin plugin = {
    .abi_version = WS_POLICY_ABI_VERSION + 1,
    .name = "warp_badabi",
    .warp = warp_list,
};

const ws_plugin *warpsim_policy_plugin(void)
{
    return &plugin;
}
