/*
** cmd_config.c -- `warpsim config list | show` (the timing model's
** machine presets and the effective value of every parameter) and
** `warpsim policies` (every scheduling policy with its parameters).
*/
#include "cli.h"
#include "gpu/config.h"
#include "policy/policy.h"
#include <stdio.h>
#include <string.h>

#define CONFIG_MAX_SETS 64

static const char config_usage[] =
    "usage: warpsim config list\n"
    "       warpsim config show [PRESET|FILE] [--set key=value]... [--json]\n"
    "  list   the machine presets (the first, gtx480, is the default)\n"
    "  show   every parameter of the machine with its value and unit: the\n"
    "         default, a preset, or a config file (`key = value` lines and/or\n"
    "         GPGPU-Sim `-option value` lines), then --set overrides (a key\n"
    "         starting with '-' is a GPGPU-Sim option).  The text output is\n"
    "         itself a config file.  --json prints a JSON object instead.\n"
    "  Exit status: 0, or 2 on a usage or configuration error.\n";

static int config_list(void)
{
    for (const char *const *p = gpu_preset_names; *p; p++)
        printf("%-8s %s%s\n", *p, gpu_preset_summary(*p), p == gpu_preset_names ? " [default]" : "");
    return CLI_EXIT_OK;
}

static int config_show(int argc, char **argv)
{
    static const cli_opt opts[] = { {"set", true}, {"json", false}, {"help", false},
                                    {NULL, false} };
    const char *sets[CONFIG_MAX_SETS + 1], *name, *value, *source = NULL;
    int nsets = 0, kind;
    bool json = false;
    cli_iter it;
    cli_iter_init(&it, argc, argv, opts);
    while ((kind = cli_iter_next(&it, &name, &value)) != CLI_ITER_END) {
        if (kind == CLI_ITER_ERROR) return CLI_EXIT_USAGE;
        if (kind == CLI_ITER_POSITIONAL) {
            if (source) {
                cli_error("config show", "unexpected argument '%s' (one PRESET or FILE)", value);
                return CLI_EXIT_USAGE;
            }
            source = value;
        } else if (strcmp(name, "help") == 0) {
            fputs(config_usage, stdout);
            return CLI_EXIT_OK;
        } else if (strcmp(name, "json") == 0) {
            json = true;
        } else if (nsets == CONFIG_MAX_SETS) {
            cli_error("config show", "too many --set (at most %d)", CONFIG_MAX_SETS);
            return CLI_EXIT_USAGE;
        } else {
            sets[nsets++] = value;
        }
    }
    sets[nsets] = NULL;
    gpu_config c;
    static char warn[16384];   /* a GPGPU-Sim file's warning names every option */
    char err[2048];
    if (gpu_config_build(&c, source, sets, warn, sizeof warn, err, sizeof err)) {
        cli_error("config show", "%s", err);
        return CLI_EXIT_USAGE;
    }
    if (warn[0]) cli_error("config show", "warning: %s", warn);
    gpu_config_dump(&c, stdout, json);
    return CLI_EXIT_OK;
}

int cli_cmd_config(int argc, char **argv)
{
    if (argc < 2) {
        fputs(config_usage, stderr);
        return CLI_EXIT_USAGE;
    }
    if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
        fputs(config_usage, stdout);
        return CLI_EXIT_OK;
    }
    if (strcmp(argv[1], "list") == 0) {
        if (argc > 2) {
            cli_error("config list", "takes no arguments");
            return CLI_EXIT_USAGE;
        }
        return config_list();
    }
    if (strcmp(argv[1], "show") == 0) return config_show(argc - 1, argv + 1);
    cli_error("config", "unknown subcommand '%s' (valid: list, show)", argv[1]);
    return CLI_EXIT_USAGE;
}

static const char policies_usage[] =
    "usage: warpsim policies [--plugin FILE.so]...   (also: warpsim --list-policies)\n"
    "  every warp scheduler, fetch policy, CTA mapping, DRAM scheduler and DRAM\n"
    "  prefetcher with its parameters (default, bounds, unit); choose them with\n"
    "  --set warp_scheduler=NAME and --set warp_scheduler_params=k=v,k=v\n"
    "  --plugin FILE.so  also list the policies of this plug-in (built against\n"
    "                    include/warpsim_policy.h; see examples/plugins/), marked\n"
    "                    as such; repeatable\n"
    "  Exit status: 0, or 2 on a usage error or a plug-in that cannot be loaded.\n";

int cli_cmd_policies(int argc, char **argv)
{
    static const cli_opt opts[] = { {"help", false}, {"plugin", true}, {NULL, false} };
    char plugins[CLI_PLUGINS_MAX] = "";
    cli_iter it;
    const char *name, *value;
    int r;
    if (argc > 1 && strcmp(argv[1], "-h") == 0) {
        fputs(policies_usage, stdout);
        return CLI_EXIT_OK;
    }
    cli_iter_init(&it, argc, argv, opts);
    while ((r = cli_iter_next(&it, &name, &value)) != CLI_ITER_END) {
        if (r == CLI_ITER_ERROR) return CLI_EXIT_USAGE;
        if (r == CLI_ITER_POSITIONAL) {
            cli_error("policies", "unexpected argument '%s'", value);
            return CLI_EXIT_USAGE;
        }
        if (strcmp(name, "help") == 0) {
            fputs(policies_usage, stdout);
            return CLI_EXIT_OK;
        }
        if (!cli_plugin_add("policies", plugins, sizeof plugins, value)) return CLI_EXIT_USAGE;
    }
    ws_registry *reg = cli_registry_open("policies", plugins);
    if (!reg) return CLI_EXIT_USAGE;
    ws_registry_print(reg, stdout);
    ws_registry_free(reg);
    return CLI_EXIT_OK;
}
