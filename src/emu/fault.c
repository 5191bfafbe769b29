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
#include <string.h>

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

/* ------------------------------------------------------------------ */
/* Where every warp is: the dump of a hang or an interrupt             */
/* ------------------------------------------------------------------ */

static const char *warp_state(const emu_warp *w, char *buf, size_t len)
{
    if (w->state == EMU_W_DONE) return "finished";
    if (w->state == EMU_W_BARRIER) {
        snprintf(buf, len, "waits at barrier %u", w->bar_id);
        return buf;
    }
    return "ready";
}

/* Append one line per warp of the `n` CTAs to `buf` (holding `used`
   bytes); what does not fit is counted in a last "... N more" line. */
static void dump_warps(const emu_cta *ctas, uint32_t n, char *buf,
                       size_t cap, size_t used)
{
    const size_t tail = 64;   /* room kept for the "... more" line */
    uint64_t left = 0;
    for (uint32_t c = 0; c < n; c++) {
        const emu_cta *cta = &ctas[c];
        for (uint32_t i = 0; cta->warps && i < cta->nwarps; i++) {
            const emu_warp *w = &cta->warps[i];
            const ptx_uop *u = emu_warp_next(w);
            char line[256], st[32];
            int k = snprintf(line, sizeof line, "  CTA %u (%u,%u,%u), warp %u: ", cta->linear,
                             cta->ctaid[0], cta->ctaid[1], cta->ctaid[2], w->wid);
            if (u)
                k += snprintf(line + k, sizeof line - (size_t)k, "pc %u, PTX line %u (%s), ",
                              (uint32_t)(u - w->uops), u->line, ptx_opcode_names[u->op]);
            snprintf(line + k, sizeof line - (size_t)k, "%s, %llu instructions\n",
                     warp_state(w, st, sizeof st), (unsigned long long)w->warp_insns);
            size_t ln = strlen(line);
            if (left || used + ln + tail >= cap) {
                left++;
                continue;
            }
            memcpy(buf + used, line, ln + 1);
            used += ln;
        }
    }
    if (left) snprintf(buf + used, cap - used, "  ... %llu more warps\n",
                       (unsigned long long)left);
}

int emu_fault_dump(emu_launch *l, emu_fault_kind kind, const emu_cta *ctas, uint32_t n,
                   const char *why)
{
    if (l->fault.kind != EMU_OK) return -1;
    l->fault.kind = kind;
    int k = snprintf(l->fault.msg, sizeof l->fault.msg, "kernel '%s': %s\n",
                     l->mod->funcs[l->func].name, why);
    if (k > 0 && (size_t)k < sizeof l->fault.msg)
        dump_warps(ctas, n, l->fault.msg, sizeof l->fault.msg, (size_t)k);
    return -1;
}

int emu_check_progress(emu_launch *l, const emu_cta *ctas, uint32_t n)
{
    char why[256];
    if (l->interrupt && *l->interrupt)
        return emu_fault_dump(l, EMU_FAULT_INTERRUPT, ctas, n,
                              "interrupted (SIGINT); where each resident warp is:");
    if (!l->progress_limit || l->idle_insns < l->progress_limit) return 0;
    snprintf(why, sizeof why, "no progress: %llu warp instructions executed with no warp "
             "finishing and no barrier completing (progress limit %llu); the kernel never "
             "finishes (a busy loop, or a spin-wait nothing will end). Where each resident "
             "warp is:", (unsigned long long)l->idle_insns,
             (unsigned long long)l->progress_limit);
    return emu_fault_dump(l, EMU_FAULT_HANG, ctas, n, why);
}
