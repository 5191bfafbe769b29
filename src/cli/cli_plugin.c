/*
** cli_plugin.c -- `--plugin FILE` (repeatable) of the commands that run or
** list policies: the files gathered into one colon-separated list of
** absolute paths (the form of ws_options.plugins and WARPSIM_PLUGINS), and
** a registry with them loaded for the commands that look policies up.
*/
#include "cli.h"
#include "policy/policy.h"
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/*
** Absolute, because the list travels: `exec` hands it to a program that
** may change folders, and `bench`/`compare` run through `exec`.  Not
** resolved with realpath: a missing file is reported by the loader, with
** the name the user gave still recognisable in it.
*/
bool cli_plugin_add(const char *cmd, char *list, size_t len, const char *path)
{
    char cwd[PATH_MAX] = "";
    if (!*path || strchr(path, ':')) {
        cli_error(cmd, "--plugin '%s': expected a file name without ':'", path);
        return false;
    }
    if (path[0] != '/' && !getcwd(cwd, sizeof cwd)) {
        cli_error(cmd, "--plugin '%s': cannot read the current folder", path);
        return false;
    }
    size_t used = strlen(list);
    int n = snprintf(list + used, len - used, "%s%s%s%s", used ? ":" : "", cwd,
                     cwd[0] ? "/" : "", path);
    if (n < 0 || (size_t)n >= len - used) {
        list[used] = '\0';
        cli_error(cmd, "--plugin '%s': too many plug-ins (at most %zu characters of paths)",
                  path, len - 1);
        return false;
    }
    return true;
}

struct ws_registry *cli_registry_open(const char *cmd, const char *list)
{
    ws_registry *r = ws_registry_new();
    char *copy = strdup(list ? list : "");
    if (!r || !copy) {
        cli_error(cmd, "out of memory");
        ws_registry_free(r);
        free(copy);
        return NULL;
    }
    char err[2048];
    for (char *save = NULL, *p = strtok_r(copy, ":", &save); p; p = strtok_r(NULL, ":", &save))
        if (ws_registry_load(r, p, err, sizeof err) != 0) {
            cli_error(cmd, "%s", err);
            ws_registry_free(r);
            r = NULL;
            break;
        }
    free(copy);
    return r;
}
