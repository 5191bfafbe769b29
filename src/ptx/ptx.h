/*
** ptx.h -- the PTX front end's API: text in, ptx_module out.
**
** ptx_parse() lexes and parses a whole module, resolves names, lays out
** call frames and kernel shared memory, builds each function's CFG with
** immediate post-dominators, and decodes every instruction into a ptx_uop
** (ptx_ir.h).  On bad input it returns NULL and fills a ptx_error whose
** text reads `file:line:col: error: what was expected or is unsupported`.
*/
#ifndef WS_PTX_H
#define WS_PTX_H

#include <stdio.h>
#include "ptx_ir.h"

typedef struct ptx_error {
    uint32_t line, col;   /* 1-based; 0 when the error has no position */
    char msg[600];        /* full text: "file:line:col: error: ..." */
} ptx_error;

/* Parse `len` bytes of PTX `text`; `filename` is used in messages only.
   Returns a module owned by the caller (ptx_module_free), or NULL with
   `err` filled. Never aborts on malformed input. */
ptx_module *ptx_parse(const char *text, size_t len, const char *filename,
                      ptx_error *err);

/* Read and parse a file; I/O failures are reported through `err` too. */
ptx_module *ptx_parse_file(const char *path, ptx_error *err);

void ptx_module_free(ptx_module *m);

/* Index of the function called `name`, or -1. */
int ptx_find_func(const ptx_module *m, const char *name);

/* Index of the module-scope variable called `name`, or -1. */
int ptx_find_var(const ptx_module *m, const char *name);

/* Write a readable one-line disassembly of `u` (for traces and dumps). */
void ptx_print_uop(FILE *out, const ptx_module *m, const ptx_uop *u);

#endif /* WS_PTX_H */
