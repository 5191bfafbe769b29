/*
** cmd_hints.c -- `warpsim hints FILE.ptx [KERNEL] [--v2] [--json]`: run
** the HAWS hint pass (policy/haws_hints.c) over a module's kernels and show
** each static stall point, the long-latency loads it waits for and the
** chain of instructions a blocked warp may run ahead, with renames; then
** the kernels that get no hints (specs/haws.md §8 C5).  The program view
** comes from gpu_program_view, the one the timing model gives policies.
*/
#include "cli.h"
#include "gpu/gpu.h"
#include "policy/haws_hints.h"
#include "ptx/ptx.h"
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char hints_usage[] =
    "usage: warpsim hints FILE.ptx [KERNEL] [--v2] [--json]\n"
    "  Run the HAWS hint pass over every kernel of FILE.ptx (or KERNEL) and\n"
    "  print, per static stall point (an instruction that reads a long-latency\n"
    "  load's result): its PTX line and text, the loads it waits for, and the\n"
    "  chain of independent instructions a blocked warp may issue out of order\n"
    "  (`rename %rN -> hK`: the result goes to hidden register K).  The last\n"
    "  line names the kernels without hints.\n"
    "  --v2    follow both sides of independent conditional branches (default\n"
    "          v1: a conditional branch ends the chain)\n"
    "  --json  the same as one JSON object\n"
    "  Exit 0 on success, 2 if the file does not parse or KERNEL is not in it.\n";

typedef struct hints_out {
    const ptx_module *m;
    const ws_prog_uop *u;
    bool v2;
} hints_out;

/* The uop's disassembly (ptx_print_uop), malloc'ed. */
static char *uop_text(const ptx_module *m, uint32_t pc)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (!f) return NULL;
    ptx_print_uop(f, m, &m->uops[pc]);
    fclose(f);
    return buf;
}

static const char *reg_name(const ptx_module *m, uint32_t pc, int32_t reg)
{
    const ptx_func *f = &m->funcs[m->uops[pc].func];
    uint32_t slot = (uint32_t)reg & ~(uint32_t)WS_PROG_PRED_BIT;
    if (reg & WS_PROG_PRED_BIT) return slot < f->npreds ? f->pred_names[slot] : "?";
    return slot < f->nregs ? f->reg_names[slot] : "?";
}

/* ------------------------------------------------------------------ */
/* Text                                                                */
/* ------------------------------------------------------------------ */

static void text_entries(const hints_out *o, const haws_chain *c, int32_t i, int depth)
{
    for (; i >= 0; i = c->e[i].succ[0]) {
        const haws_chain_entry *e = &c->e[i];
        char *t = uop_text(o->m, e->pc);
        printf("%*sline %-5u %s", 4 + 2 * depth, "", o->u[e->pc].line, t ? t : "?");
        free(t);
        if (e->rename) printf("   rename %s -> h%u", reg_name(o->m, e->pc, e->reg), e->hidden);
        printf("\n");
        if (e->branch && o->u[e->pc].guarded) {     /* v2: both sides */
            printf("%*staken:%s\n", 6 + 2 * depth, "", e->succ[0] < 0 ? " (nothing)" : "");
            text_entries(o, c, e->succ[0], depth + 2);
            printf("%*sfall-through:%s\n", 6 + 2 * depth, "", e->succ[1] < 0 ? " (nothing)" : "");
            text_entries(o, c, e->succ[1], depth + 2);
            return;
        }
    }
}

static void text_kernel(const hints_out *o, const char *name, const haws_hints *h)
{
    printf("kernel %s: %u stall point%s, %u chain entr%s, %u rename%s (%s)\n", name,
           h->nchains, h->nchains == 1 ? "" : "s", h->nentries, h->nentries == 1 ? "y" : "ies",
           h->nrenames, h->nrenames == 1 ? "" : "s", o->v2 ? "v2" : "v1");
    for (uint32_t k = 0; k < h->nchains; k++) {
        const haws_chain *c = &h->chains[k];
        char *t = uop_text(o->m, c->stall_pc);
        printf("  stall line %u (pc %u): %s\n    waits for:", o->u[c->stall_pc].line,
               c->stall_pc, t ? t : "?");
        free(t);
        for (uint32_t j = 0; j < c->ntrig; j++)
            printf("%s line %u (pc %u)", j ? "," : "", o->u[c->trig[j]].line, c->trig[j]);
        printf("\n%s", c->n ? "" : "    (empty chain)\n");
        text_entries(o, c, c->n ? 0 : -1, 0);
    }
}

/* ------------------------------------------------------------------ */
/* JSON                                                                */
/* ------------------------------------------------------------------ */

static json_t *json_entries(const hints_out *o, const haws_chain *c, int32_t i)
{
    json_t *a = json_array();
    for (; i >= 0; i = c->e[i].succ[0]) {
        const haws_chain_entry *e = &c->e[i];
        char *t = uop_text(o->m, e->pc);
        json_t *j = json_pack("{s:i, s:i, s:s, s:s}", "pc", (json_int_t)e->pc,
                              "line", (json_int_t)o->u[e->pc].line, "op", o->u[e->pc].opname,
                              "text", t ? t : "?");
        free(t);
        if (e->rename)
            json_object_set_new(j, "rename", json_pack("{s:s, s:i}", "reg",
                                reg_name(o->m, e->pc, e->reg), "hidden", (json_int_t)e->hidden));
        json_array_append_new(a, j);
        if (e->branch && o->u[e->pc].guarded) {
            json_object_set_new(j, "taken", json_entries(o, c, e->succ[0]));
            json_object_set_new(j, "fallthrough", json_entries(o, c, e->succ[1]));
            break;
        }
    }
    return a;
}

static json_t *json_kernel(const hints_out *o, const char *name, const haws_hints *h)
{
    json_t *stalls = json_array();
    for (uint32_t k = 0; k < h->nchains; k++) {
        const haws_chain *c = &h->chains[k];
        json_t *trig = json_array();
        for (uint32_t j = 0; j < c->ntrig; j++)
            json_array_append_new(trig, json_pack("{s:i, s:i}", "pc", (json_int_t)c->trig[j],
                                                  "line", (json_int_t)o->u[c->trig[j]].line));
        char *t = uop_text(o->m, c->stall_pc);
        json_array_append_new(stalls, json_pack("{s:i, s:i, s:s, s:o, s:o}",
            "pc", (json_int_t)c->stall_pc, "line", (json_int_t)o->u[c->stall_pc].line,
            "text", t ? t : "?", "waits_for", trig,
            "chain", json_entries(o, c, c->n ? 0 : -1)));
        free(t);
    }
    return json_pack("{s:s, s:i, s:i, s:o}", "name", name, "entries", (json_int_t)h->nentries,
                     "renames", (json_int_t)h->nrenames, "stalls", stalls);
}

/* ------------------------------------------------------------------ */
/* The command                                                         */
/* ------------------------------------------------------------------ */

/* Why kernel `h` gets no hints, or NULL if it gets some. */
static const char *no_hints(const haws_hints *h)
{
    if (h->nchains == 0) return "no stall point";
    return h->nentries == 0 ? "every chain empty" : NULL;
}

/* Run the pass on every selected kernel and print; an exit status. */
static int hints_run(const char *cmd, const hints_out *o, const char *kernel, bool json)
{
    haws_hint_params p = HAWS_HINT_PARAMS_DEFAULT;
    p.branches = o->v2 ? 2 : 1;
    json_t *kernels = json_array(), *none = json_array();
    char line[4096] = "";
    for (uint32_t f = 0; f < o->m->nfuncs; f++) {
        const ptx_func *fn = &o->m->funcs[f];
        if (!fn->is_entry || (kernel && strcmp(kernel, fn->name) != 0)) continue;
        ws_program_view pv = { .nuops = o->m->nuops, .uops = o->u,
                               .entry_pc = fn->uop_begin, .end_pc = fn->uop_end };
        haws_hints *h = haws_hints_build(&pv, pv.entry_pc, pv.end_pc, &p);
        if (!h) {
            cli_error(cmd, "%s: kernel %s: out of memory", o->m->filename, fn->name);
            json_decref(kernels); json_decref(none);
            return CLI_EXIT_FAIL;
        }
        const char *why = no_hints(h);
        if (json) json_array_append_new(kernels, json_kernel(o, fn->name, h));
        else text_kernel(o, fn->name, h);
        if (why) {
            json_array_append_new(none, json_pack("{s:s, s:s}", "name", fn->name, "why", why));
            size_t n = strlen(line);
            snprintf(line + n, sizeof line - n, "%s%s (%s)", n ? ", " : "", fn->name, why);
        }
        haws_hints_free(h);
    }
    if (json) {
        json_t *root = json_pack("{s:s, s:s, s:o, s:o}", "file", o->m->filename, "variant",
                                 o->v2 ? "v2" : "v1", "kernels", kernels, "no_hints", none);
        json_dumpf(root, stdout, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
        printf("\n");
        json_decref(root);
    } else {
        printf("no hints: %s\n", line[0] ? line : "none");
        json_decref(kernels);
        json_decref(none);
    }
    return CLI_EXIT_OK;
}

static bool has_kernel(const ptx_module *m, const char *name)
{
    for (uint32_t f = 0; f < m->nfuncs; f++)
        if (m->funcs[f].is_entry && strcmp(m->funcs[f].name, name) == 0) return true;
    return false;
}

int cli_cmd_hints(int argc, char **argv)
{
    static const cli_opt opts[] = {{"v2", false}, {"json", false}, {"help", false},
                                   {NULL, false}};
    cli_iter it;
    const char *name, *value, *path = NULL, *kernel = NULL;
    bool v2 = false, json = false;
    int kind;
    cli_iter_init(&it, argc, argv, opts);
    while ((kind = cli_iter_next(&it, &name, &value)) != CLI_ITER_END) {
        if (kind == CLI_ITER_ERROR) return CLI_EXIT_USAGE;
        if (kind == CLI_ITER_POSITIONAL) {
            if (!path) path = value;
            else if (!kernel) kernel = value;
            else {
                cli_error(argv[0], "unexpected argument '%s' (FILE.ptx [KERNEL])", value);
                return CLI_EXIT_USAGE;
            }
        } else if (strcmp(name, "help") == 0) {
            fputs(hints_usage, stdout);
            return CLI_EXIT_OK;
        } else if (strcmp(name, "v2") == 0) {
            v2 = true;
        } else {
            json = true;
        }
    }
    if (!path) {
        cli_error(argv[0], "missing FILE.ptx");
        fputs(hints_usage, stderr);
        return CLI_EXIT_USAGE;
    }
    ptx_error err;
    memset(&err, 0, sizeof err);
    ptx_module *m = ptx_parse_file(path, &err);
    if (!m) {
        fprintf(stderr, "%s\n", err.msg[0] ? err.msg : "error: PTX parse failed");
        return CLI_EXIT_USAGE;
    }
    int rc = CLI_EXIT_USAGE;
    if (kernel && !has_kernel(m, kernel)) {
        cli_error(argv[0], "%s: no kernel '%s' (warpsim kernels %s lists them)", path, kernel,
                  path);
    } else {
        ws_prog_uop *u = gpu_program_view(m);
        hints_out o = { .m = m, .u = u, .v2 = v2 };
        if (u) rc = hints_run(argv[0], &o, kernel, json);
        else { cli_error(argv[0], "out of memory"); rc = CLI_EXIT_FAIL; }
        free(u);
    }
    ptx_module_free(m);
    return rc;
}
