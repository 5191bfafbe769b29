/*
** warp_youngest.c -- an example policy plug-in: the warp scheduler
** `youngest`, which tries the warp launched last on the SM first (largest
** age), ties by slot.  It is not meant to be a good scheduler: it shows a
** whole plug-in (one file, only <warpsim_policy.h>, one exported function)
** and issues in an order no built-in scheduler uses.  See README.md.
*/
#include <warpsim_policy.h>

/* true if the warp in slot `a` goes before the warp in slot `b` */
static bool youngest_before(const ws_sched_view *v, uint32_t a, uint32_t b)
{
    uint64_t age_a = v->warps[a].age, age_b = v->warps[b].age;
    return age_a != age_b ? age_a > age_b : a < b;
}

/*
** The asking unit's live candidates, youngest first, into `out`.  An
** insertion sort: a unit holds a few dozen warps at most, and a plug-in
** that needs nothing but the policy header is the simplest to build.
** Finished slots (valid = false) are left out: they cannot issue.
*/
static uint32_t youngest_order(void *st, const ws_sched_view *v, uint32_t *out)
{
    (void)st;   /* stateless: no init, so no state */
    uint32_t n = 0;
    for (uint32_t i = 0; i < v->ncand; i++) {
        uint32_t slot = v->cand[i], j = n;
        if (!v->warps[slot].valid)
            continue;
        n++;
        for (; j > 0 && youngest_before(v, slot, out[j - 1]); j--)
            out[j] = out[j - 1];
        out[j] = slot;
    }
    return n;
}

static const ws_warp_sched_ops youngest = {
    .name = "youngest",
    .summary = "youngest first: the warp launched last on the SM first (example plug-in)",
    .order = youngest_order,
};

static const ws_warp_sched_ops *const warp_list[] = { &youngest, NULL };

static const ws_plugin plugin = {
    .abi_version = WS_POLICY_ABI_VERSION,
    .name = "warp_youngest",
    .warp = warp_list,
};

/* The one symbol warpsim looks for (WS_PLUGIN_ENTRY). */
const ws_plugin *warpsim_policy_plugin(void)
{
    return &plugin;
}
