/*
** cmd_check.c -- `warpsim check FILE.ptx` and `warpsim kernels FILE.ptx`:
** run the PTX front end on a file and describe its kernels (parameters,
** virtual registers, static shared memory, performance directives).  A
** file that does not parse prints the parser's `file:line:col: error:`
** message and exits 2.  This is a front-end tool, so it uses ptx.h.
*/
#include "cli.h"
#include "ptx/ptx.h"
#include <stdio.h>
#include <string.h>

static const char check_usage[] =
    "usage: warpsim check FILE.ptx [--list]\n"
    "  Parse FILE.ptx and print \"FILE: OK, N kernels\", then one line per kernel:\n"
    "  parameters (PTX types), virtual registers, static shared bytes and any\n"
    "  performance directives (.maxntid, .reqntid, .minnctapersm, .maxnreg, ...).\n"
    "  --list   print only the kernel names (same as `warpsim kernels FILE.ptx`)\n"
    "  Exit 0 if the file parses, 2 (with file:line:col: error: ...) if not.\n";

static const char kernels_usage[] =
    "usage: warpsim kernels FILE.ptx\n"
    "  Print the names of the kernels (.entry) in FILE.ptx, one per line.\n";

static int count_kernels(const ptx_module *m)
{
    int n = 0;
    for (uint32_t i = 0; i < m->nfuncs; i++)
        n += m->funcs[i].is_entry;
    return n;
}

static const char *type_name(uint8_t t)
{
    return t < PTX_T_COUNT && ptx_type_names[t] ? ptx_type_names[t] : "?";
}

static void print_params(const ptx_func *f)
{
    printf("(");
    for (uint32_t i = 0; i < f->nparams; i++) {
        const ptx_param *p = &f->params[i];
        uint32_t elem = p->type < PTX_T_COUNT ? ptx_type_size[p->type] : 0;
        printf("%s.%s", i ? ", " : "", type_name(p->type));
        if (elem && p->size > elem)       /* .param .b8 x[16]: an array */
            printf("[%u]", p->size / elem);
    }
    printf(")");
}

/* Only the directives that were given; nothing when none were. */
static void print_directives(const ptx_func *f)
{
    if (f->maxntid[0])
        printf(", .maxntid %u,%u,%u", f->maxntid[0], f->maxntid[1], f->maxntid[2]);
    if (f->reqntid[0])
        printf(", .reqntid %u,%u,%u", f->reqntid[0], f->reqntid[1], f->reqntid[2]);
    if (f->minnctapersm)
        printf(", .minnctapersm %u", f->minnctapersm);
    if (f->maxnctapersm)
        printf(", .maxnctapersm %u", f->maxnctapersm);
    if (f->maxnreg)
        printf(", .maxnreg %u", f->maxnreg);
}

static void print_kernel(const ptx_func *f)
{
    printf("  %s", f->name);
    print_params(f);
    printf(": %u params (%u bytes), %u regs + %u preds, static shared %u bytes",
           f->nparams, f->param_size, f->nregs, f->npreds, f->shared_size);
    if (f->frame_size)
        printf(", local frame %u bytes", f->frame_size);
    if (f->uses_printf)
        printf(", printf");
    print_directives(f);
    printf("\n");
}

static void print_names(const ptx_module *m)
{
    for (uint32_t i = 0; i < m->nfuncs; i++)
        if (m->funcs[i].is_entry)
            printf("%s\n", m->funcs[i].name);
}

/* Parse `path`; on failure print the parser's message and return NULL. */
static ptx_module *parse_or_report(const char *path)
{
    ptx_error err;
    memset(&err, 0, sizeof err);
    ptx_module *m = ptx_parse_file(path, &err);
    if (!m)
        fprintf(stderr, "%s\n", err.msg[0] ? err.msg : "error: PTX parse failed");
    return m;
}

/* Shared by check and kernels: one positional FILE, optional --list. */
static int check_main(int argc, char **argv, const char *usage, bool list_only)
{
    static const cli_opt opts[] = {{"list", false}, {"help", false}, {NULL, false}};
    cli_iter it;
    const char *name, *value, *path = NULL;
    int kind;
    cli_iter_init(&it, argc, argv, opts);
    while ((kind = cli_iter_next(&it, &name, &value)) != CLI_ITER_END) {
        if (kind == CLI_ITER_ERROR)
            return CLI_EXIT_USAGE;
        if (kind == CLI_ITER_POSITIONAL && !path) {
            path = value;
        } else if (kind == CLI_ITER_POSITIONAL) {
            cli_error(argv[0], "unexpected argument '%s' (one FILE.ptx only)", value);
            return CLI_EXIT_USAGE;
        } else if (strcmp(name, "help") == 0) {
            fputs(usage, stdout);
            return CLI_EXIT_OK;
        } else {
            list_only = true;
        }
    }
    if (!path) {
        cli_error(argv[0], "missing FILE.ptx");
        fputs(usage, stderr);
        return CLI_EXIT_USAGE;
    }
    ptx_module *m = parse_or_report(path);
    if (!m)
        return CLI_EXIT_USAGE;
    if (list_only) {
        print_names(m);
    } else {
        int n = count_kernels(m);
        printf("%s: OK, %d kernel%s\n", path, n, n == 1 ? "" : "s");
        for (uint32_t i = 0; i < m->nfuncs; i++)
            if (m->funcs[i].is_entry)
                print_kernel(&m->funcs[i]);
    }
    ptx_module_free(m);
    return CLI_EXIT_OK;
}

int cli_cmd_check(int argc, char **argv)
{
    return check_main(argc, argv, check_usage, false);
}

int cli_cmd_kernels(int argc, char **argv)
{
    return check_main(argc, argv, kernels_usage, true);
}
