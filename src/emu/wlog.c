/*
** wlog.c -- global writes recorded now and applied later.
**
** The parallel timing model (gpu/smpar.c) ticks its SMs on several
** threads; while they tick, device memory is only read.  Each SM's warps
** write through their own log instead: a store's bytes, or an atomic's
** operands and the value it read.  After the tick the logs are applied
** one SM after the other in the order the serial model ticks them, so
** memory ends as if each SM's writes had happened in turn.
**
** An atomic executes at once on the value memory held at the start of
** the cycle (its destination register gets that old value); when the log
** is applied it is redone on the value memory holds then, which differs
** only if another SM's write of the same cycle came first (or an earlier
** lane of the same instruction hit the same word), and then the register
** is corrected too.  Nothing reads the register before that: the
** scoreboard holds an atomic's destination until its reply comes back.
*/
#include "emu.h"
#include "exec.h"
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#define WLOG_MAX_BYTES 32          /* a v4 of 64-bit elements */

typedef struct wlog_ent {
    uint64_t addr;
    emu_warp *w;
    const ptx_uop *u;
    uint64_t old, b, c;            /* atomics: value read, operands */
    int64_t dst;                   /* atomics: register-stack slot, -1 none */
    uint32_t n;
    int lane;
    bool atom;
    uint8_t data[WLOG_MAX_BYTES];
} wlog_ent;

struct emu_wlog {
    wlog_ent *e;
    uint32_t n, cap;
};

void *emu_lines_alloc(size_t bytes)
{
    size_t size = (bytes + 63) / 64 * 64;
    void *p = aligned_alloc(64, size ? size : 64);
    if (p) memset(p, 0, size);
    return p;
}

emu_wlog *emu_wlog_new(void) { return emu_lines_alloc(sizeof(emu_wlog)); }

void emu_wlog_free(emu_wlog *g)
{
    if (!g) return;
    free(g->e);
    free(g);
}

bool emu_wlog_empty(const emu_wlog *g) { return g->n == 0; }

uint8_t *emu_wlog_put(emu_wlog *g, emu_mem *m, emu_warp *w, const ptx_uop *u,
                      int lane, uint64_t addr, uint32_t n, bool prefill)
{
    if (n > WLOG_MAX_BYTES) return NULL;
    if (g->n == g->cap) {
        uint32_t cap = g->cap ? g->cap * 2 : 64;
        wlog_ent *e = realloc(g->e, cap * sizeof *e);
        if (!e) return NULL;
        g->e = e;
        g->cap = cap;
    }
    wlog_ent *e = &g->e[g->n++];
    *e = (wlog_ent){ .addr = addr, .w = w, .u = u, .n = n, .lane = lane, .dst = -1 };
    if (prefill) emu_mem_read(m, addr, e->data, n);
    return e->data;
}

bool emu_wlog_is_last(const emu_wlog *g, const uint8_t *p)
{
    return g->n && p == g->e[g->n - 1].data;
}

void emu_wlog_atom(emu_wlog *g, uint64_t old, uint64_t b, uint64_t c, int64_t dst)
{
    wlog_ent *e = &g->e[g->n - 1];
    e->atom = true;
    e->old = old;
    e->b = b;
    e->c = c;
    e->dst = dst;
}

/* Redo atomic `e` on what memory at `p` holds now. */
static int wlog_atom_apply(wlog_ent *e, uint8_t *p)
{
    uint64_t cur = 0, nv = 0;
    memcpy(&cur, p, e->n);
    if (cur == e->old) {
        memcpy(p, e->data, e->n);      /* what it computed stands */
        return 0;
    }
    if (!emu_atom_value(e->u->sub, e->u->type, e->n, cur, e->b, e->c, &nv))
        return emu_fault_at(e->w, e->u, e->lane, EMU_FAULT_UNSUPPORTED, "atomic operation %u "
                            "on .%s is not supported", e->u->sub, ptx_type_names[e->u->type]);
    memcpy(p, &nv, e->n);
    if (e->dst >= 0)
        e->w->regstack[(size_t)e->dst * EMU_WARP_SIZE + (size_t)e->lane] = emu_norm(cur, e->u->type);
    return 0;
}

int emu_wlog_apply(emu_wlog *g, emu_mem *m)
{
    int rc = 0;
    for (uint32_t i = 0; i < g->n && rc == 0; i++) {
        wlog_ent *e = &g->e[i];
        if (!e->atom) {
            if (emu_mem_write(m, e->addr, e->data, e->n) == 0) continue;
        } else {
            uint8_t *p = emu_mem_span(m, e->addr, e->n);   /* aligned: one page */
            if (p) {
                rc = wlog_atom_apply(e, p);
                continue;
            }
        }
        rc = emu_fault_at(e->w, e->u, e->lane, EMU_FAULT_MEMORY, "global write of %u bytes at "
                          "address 0x%" PRIx64 ": host out of memory for the page backing it",
                          e->n, e->addr);
    }
    g->n = 0;
    return rc;
}
