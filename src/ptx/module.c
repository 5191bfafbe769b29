/*
** module.c -- the front end's entry points (ptx.h): parse text or a file
** into a ptx_module, free it, and look up functions and variables.
*/
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "ptx_internal.h"

#define PTX_MAX_TEXT (1u << 30)

void ptx_module_free(ptx_module *m)
{
    if (!m) return;
    for (uint32_t i = 0; i < m->nfuncs; i++) {
        ptx_func *f = &m->funcs[i];
        free(f->name);
        for (uint32_t k = 0; k < f->nparams; k++) free(f->params[k].name);
        for (uint32_t k = 0; k < f->nrets; k++) free(f->rets[k].name);
        free(f->params);
        free(f->rets);
        for (uint32_t k = 0; k < f->nregs; k++) free(f->reg_names[k]);
        for (uint32_t k = 0; k < f->npreds; k++) free(f->pred_names[k]);
        free(f->reg_names);
        free(f->pred_names);
        free(f->shared_off);
        free(f->blocks);
    }
    for (uint32_t i = 0; i < m->nvars; i++) {
        free(m->vars[i].name);
        free(m->vars[i].init);
    }
    free(m->funcs);
    free(m->vars);
    free(m->uops);
    free(m->calls);
    free(m->filename);
    free(m->target);
    free(m);
}

static void set_error(ptx_error *err, const char *file, uint32_t line, uint32_t col, const char *what)
{
    err->line = line;
    err->col = col;
    if (line)
        snprintf(err->msg, sizeof err->msg, "%s:%u:%u: error: %s", file, line, col, what);
    else
        snprintf(err->msg, sizeof err->msg, "%s: error: %s", file, what);
}

ptx_module *ptx_parse(const char *text, size_t len, const char *filename, ptx_error *err)
{
    ptx_error scratch;
    if (!err) err = &scratch;
    memset(err, 0, sizeof *err);
    if (!filename) filename = "<input>";
    if (!text) { set_error(err, filename, 0, 0, "no text to parse"); return NULL; }
    if (len > PTX_MAX_TEXT) { set_error(err, filename, 0, 0, "PTX text is too large"); return NULL; }

    ptx_parser p;
    memset(&p, 0, sizeof p);
    p.src = text;
    p.filename = filename;
    p.err = err;
    p.fn = -1;
    ptx_tokens toks = {0};
    char msg[400];
    uint32_t line = 0, col = 0;
    if (ptx_lex(text, len, &toks, msg, sizeof msg, &line, &col) < 0) {
        set_error(err, filename, line, col, msg);
        free(toks.v);
        return NULL;
    }
    p.tok = toks.v;
    p.ntok = toks.n;
    p.m = calloc(1, sizeof *p.m);
    if (!p.m || !(p.m->filename = strdup(filename))) {
        set_error(err, filename, 0, 0, "out of memory");
    } else {
        p.m->address_size = 64;
        if (ptx_parse_module_items(&p) == 0) ptx_finish_module(&p);
    }
    ptx_symtab_free(&p.syms);
    ptx_symtab_free(&p.labels);
    free(p.fixups);
    free(toks.v);
    if (p.failed || !p.m || !p.m->filename) {
        ptx_module_free(p.m);
        return NULL;
    }
    return p.m;
}

ptx_module *ptx_parse_file(const char *path, ptx_error *err)
{
    ptx_error scratch;
    if (!err) err = &scratch;
    memset(err, 0, sizeof *err);
    FILE *f = fopen(path, "rb");
    if (!f) {
        snprintf(err->msg, sizeof err->msg, "%s: error: cannot open: %s", path, strerror(errno));
        return NULL;
    }
    char *buf = NULL;
    size_t len = 0, cap = 0;
    for (;;) {
        if (len == cap) {
            cap = cap ? cap * 2 : 1 << 16;
            char *nb = cap <= PTX_MAX_TEXT ? realloc(buf, cap) : NULL;
            if (!nb) {
                snprintf(err->msg, sizeof err->msg, "%s: error: file is too large or out of memory", path);
                free(buf);
                fclose(f);
                return NULL;
            }
            buf = nb;
        }
        size_t n = fread(buf + len, 1, cap - len, f);
        len += n;
        if (n == 0) break;
    }
    if (ferror(f)) {
        snprintf(err->msg, sizeof err->msg, "%s: error: cannot read: %s", path, strerror(errno));
        free(buf);
        fclose(f);
        return NULL;
    }
    fclose(f);
    ptx_module *m = ptx_parse(buf, len, path, err);
    free(buf);
    return m;
}

int ptx_find_func(const ptx_module *m, const char *name)
{
    for (uint32_t i = 0; m && name && i < m->nfuncs; i++)
        if (strcmp(m->funcs[i].name, name) == 0) return (int)i;
    return -1;
}

int ptx_find_var(const ptx_module *m, const char *name)
{
    for (uint32_t i = 0; m && name && i < m->nvars; i++)
        if (!m->vars[i].is_func_scope && strcmp(m->vars[i].name, name) == 0) return (int)i;
    return -1;
}
