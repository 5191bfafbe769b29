/*
** policy.h -- the registry of scheduling policies, for the model's upper
** layers (gpu/, api/, cli/).  The policy ABI itself (views, events, ops
** tables) is the public header include/warpsim_policy.h, the one thing a
** policy file or a plug-in includes.
**
** A registry holds the built-in policies (one const ops table per file in
** policy/, listed once in registry.c) plus those of loaded plug-ins.
** Every policy kind has a configuration key naming the policy and a
** `<key>_params` key with "k=v,k=v" parameters; ws_policies_resolve turns
** the five pairs into one const ws_resolved_policies that the model is
** built from.  Nothing outside policy/ names a policy.
*/
#ifndef WS_POLICY_H
#define WS_POLICY_H

#include <stdio.h>
#include "warpsim_policy.h"

/* policy kinds, in the order `warpsim policies` lists them */
enum {
    WS_KIND_WARP = 0,      /* key warp_scheduler */
    WS_KIND_FETCH,         /* key fetch_policy */
    WS_KIND_CTA_MAP,       /* key cta_map */
    WS_KIND_DRAM,          /* key dram_scheduler */
    WS_KIND_DRAM_PREFETCH, /* key dram_prefetch ("none": no prefetcher) */
    WS_KIND_COUNT
};

/* The policies a GPU is built from, with complete parameter values. */
typedef struct ws_resolved_policies {
    const ws_warp_sched_ops *warp;
    const ws_fetch_ops *fetch;
    const ws_cta_map_ops *cta_map;
    const ws_dram_sched_ops *dram;
    const ws_dram_prefetch_ops *dram_prefetch;   /* NULL: none */
    ws_param_values params[WS_KIND_COUNT];
    uint32_t needs;                              /* union of their WS_NEED_* */
} ws_resolved_policies;

typedef struct ws_registry ws_registry;

/* Built-in policies only. NULL when out of memory. */
ws_registry *ws_registry_new(void);
void ws_registry_free(ws_registry *r);
/* Load a plug-in (dlopen `path`, call WS_PLUGIN_ENTRY, check the ABI
   version and that its names are new). 0, or -1 with a message naming
   the file. */
int ws_registry_load(ws_registry *r, const char *path, char *err, size_t errlen);
/* Add a plug-in table directly (tests; ws_registry_load uses it). */
int ws_registry_add(ws_registry *r, const ws_plugin *p, char *err, size_t errlen);

/* The configuration key of a kind ("warp_scheduler", ...). */
const char *ws_kind_key(int kind);
/* Exact-name lookup of a policy of `kind` (an ops table pointer), NULL
   when unknown.  `r` NULL = the built-in policies. */
const void *ws_registry_find(const ws_registry *r, int kind, const char *name);
/* The i-th policy of `kind` (an ops table pointer; built-ins first, in
   registry order), NULL past the end. */
const void *ws_registry_nth(const ws_registry *r, int kind, size_t i);
/* Typed exact-name lookups among the built-in policies (tests). */
#define ws_find_warp_sched(n) ((const ws_warp_sched_ops *)ws_registry_find(NULL, WS_KIND_WARP, (n)))
#define ws_find_fetch(n)      ((const ws_fetch_ops *)ws_registry_find(NULL, WS_KIND_FETCH, (n)))
#define ws_find_cta_map(n)    ((const ws_cta_map_ops *)ws_registry_find(NULL, WS_KIND_CTA_MAP, (n)))
#define ws_find_dram_sched(n) ((const ws_dram_sched_ops *)ws_registry_find(NULL, WS_KIND_DRAM, (n)))
#define ws_warp_nth(i)  ((const ws_warp_sched_ops *)ws_registry_nth(NULL, WS_KIND_WARP, (i)))
#define ws_fetch_nth(i) ((const ws_fetch_ops *)ws_registry_nth(NULL, WS_KIND_FETCH, (i)))
#define ws_cta_map_nth(i) ((const ws_cta_map_ops *)ws_registry_nth(NULL, WS_KIND_CTA_MAP, (i)))
#define ws_dram_nth(i)  ((const ws_dram_sched_ops *)ws_registry_nth(NULL, WS_KIND_DRAM, (i)))
/* Registered names of `kind`, comma-separated, into buf. */
void ws_registry_names(const ws_registry *r, int kind, char *buf, size_t len);

/* Resolve names[kind] and params[kind] ("k=v,k=v", "" = defaults) of
   every kind.  0, or -1 with a message naming the key, the bad name or
   parameter and the valid ones. */
int ws_policies_resolve(const ws_registry *r, const char *const names[WS_KIND_COUNT],
                        const char *const params[WS_KIND_COUNT], ws_resolved_policies *out,
                        char *err, size_t errlen);
/* Parse "k=v,k=v" against one policy's declared table into `out`
   (defaults for keys not given; spaces around keys and values ignored). */
int ws_params_resolve(const char *policy, const ws_param_desc *params,
                      uint32_t nkv, const char *const *keys, const char *const *vals,
                      ws_param_values *out, char *err, size_t errlen);
int ws_params_parse(const char *policy, const ws_param_desc *params, const char *text,
                    ws_param_values *out, char *err, size_t errlen);
/* Defaults of a parameter table. */
void ws_params_defaults(const ws_param_desc *params, ws_param_values *out);

/* Every policy of every kind: name, what it declares it needs, summary,
   parameters with default, bounds, unit and help (`warpsim policies`). */
void ws_registry_print(const ws_registry *r, FILE *out);

#endif /* WS_POLICY_H */
