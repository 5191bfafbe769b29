/*
** fault.c -- the report written when a kernel does something it must not.
**
** Every fault names the kernel, the CTA, the thread (or the warp when no
** single lane is to blame), the function when inside a call, and the PTX
** source line, followed by what went wrong.  Only the first fault of a
** launch is kept: later ones are usually consequences.
*/
#include "emu.h"
#include <stdarg.h>
#include <stdio.h>

int emu_fault_where(const emu_warp *w, const ptx_uop *u, int lane, char *buf, size_t cap)
{
    const emu_launch *l = w->launch;
    const ptx_module *m = l->mod;
    const emu_cta *c = w->cta;
    int n = snprintf(buf, cap, "kernel '%s' CTA (%u,%u,%u) ", m->funcs[l->func].name,
                     c ? c->ctaid[0] : 0, c ? c->ctaid[1] : 0, c ? c->ctaid[2] : 0);
    if (lane >= 0 && lane < EMU_WARP_SIZE)
        n += snprintf(buf + n, cap - (size_t)n, "thread (%u,%u,%u)", w->tid[0][lane],
                      w->tid[1][lane], w->tid[2][lane]);
    else
        n += snprintf(buf + n, cap - (size_t)n, "warp %u", w->wid);
    if ((size_t)n < cap && u && u->func != l->func && u->func < m->nfuncs)
        n += snprintf(buf + n, cap - (size_t)n, " in function '%s'", m->funcs[u->func].name);
    if ((size_t)n < cap && u)
        n += snprintf(buf + n, cap - (size_t)n, " at %s line %u",
                      m->filename ? m->filename : "<ptx>", u->line);
    return (size_t)n < cap ? n : (int)cap - 1;
}

int emu_fault_at(emu_warp *w, const ptx_uop *u, int lane, emu_fault_kind kind,
                 const char *fmt, ...)
{
    emu_launch *l = w->launch;
    if (l->fault.kind != EMU_OK) return -1;
    l->fault.kind = kind;
    char *buf = l->fault.msg;
    size_t cap = sizeof l->fault.msg;
    int n = emu_fault_where(w, u, lane, buf, cap);
    if ((size_t)n < cap)
        n += snprintf(buf + n, cap - (size_t)n, ": ");
    if ((size_t)n < cap) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(buf + n, cap - (size_t)n, fmt, ap);
        va_end(ap);
    }
    return -1;
}
