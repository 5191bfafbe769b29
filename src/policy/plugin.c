/*
** plugin.c -- loading policy plug-ins (shared objects built outside the
** tree against include/warpsim_policy.h) into a registry.  Every refusal
** names the file and says what the file lacks, so a user who built the
** plug-in knows what to change; nothing of a refused plug-in stays loaded.
*/
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

#include "policy/plugin.h"

/* The entry point of a loaded object, NULL when it exports none.  Through
   a void * copy: ISO C has no cast between object and function pointers,
   POSIX guarantees this representation for dlsym's result. */
static ws_plugin_entry_fn plugin_entry(void *handle)
{
    void *sym = dlsym(handle, WS_PLUGIN_ENTRY);
    ws_plugin_entry_fn fn = NULL;
    if (sym) memcpy(&fn, &sym, sizeof fn);
    return fn;
}

/*
** Check what the entry point of "path" returned; 0, or -1 with the reason.
** The ABI version is checked before any other field is read: a table of
** another version may have another layout.
*/
static int plugin_check(const char *path, const ws_plugin *p, char *err, size_t errlen)
{
    if (!p) {
        snprintf(err, errlen, "plug-in %s: its %s() returned NULL instead of its policy table",
                 path, WS_PLUGIN_ENTRY);
        return -1;
    }
    if (p->abi_version != WS_POLICY_ABI_VERSION) {
        snprintf(err, errlen, "%s was built against policy ABI %u; this warpsim has ABI %u: "
                 "rebuild it against this warpsim's include/warpsim_policy.h", path,
                 (unsigned)p->abi_version, (unsigned)WS_POLICY_ABI_VERSION);
        return -1;
    }
    return 0;
}

/*
** dlopen "path" (RTLD_LOCAL: two plug-ins may use the same static names),
** call its WS_PLUGIN_ENTRY, check the table and add it to "r", which then
** owns the handle and closes it in ws_registry_free.  A name without a '/'
** is taken as a file in the current folder ("x.so" = "./x.so"): dlopen
** would otherwise search the library path and could load some other file.
*/
int ws_registry_load(ws_registry *r, const char *path, char *err, size_t errlen)
{
    char file[4096];
    if (!path || !*path) {
        snprintf(err, errlen, "plug-in: empty file name");
        return -1;
    }
    if ((size_t)snprintf(file, sizeof file, "%s%s", strchr(path, '/') ? "" : "./", path)
        >= sizeof file) {
        snprintf(err, errlen, "plug-in %.200s...: file name too long", path);
        return -1;
    }
    dlerror();
    void *h = dlopen(file, RTLD_NOW | RTLD_LOCAL);
    if (!h) {
        const char *why = dlerror();
        snprintf(err, errlen, "plug-in %s: cannot load it: %s", path, why ? why : "unknown error");
        return -1;
    }
    ws_plugin_entry_fn entry = plugin_entry(h);
    const ws_plugin *p = entry ? entry() : NULL;
    char e[512];
    if (!entry) {
        snprintf(err, errlen, "plug-in %s is not a warpsim policy plug-in: it must export "
                 "`const ws_plugin *%s(void)` (see examples/plugins/)", path, WS_PLUGIN_ENTRY);
    } else if (plugin_check(path, p, err, errlen) != 0) {
        /* err says why */
    } else if (ws_registry_add(r, p, e, sizeof e) != 0) {
        snprintf(err, errlen, "plug-in %s: %s", path, e);
    } else if (ws_registry_add_handle(r, h) != 0) {
        /* its tables are registered: closing it would leave the registry
           pointing into unmapped memory, so it stays open */
        snprintf(err, errlen, "plug-in %s: out of host memory", path);
        return -1;
    } else {
        return 0;
    }
    dlclose(h);
    return -1;
}

void ws_plugin_close_all(void **handles, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++) dlclose(handles[i]);
}
