/*
** oob.c -- global accesses outside every allocation.
**
** A GPU maps device memory in 2 MiB pages (EMU_MEM_MAP_BYTES) and does not
** fault on an access that misses the allocation but hits a mapped page:
** real programs read a halo element at index -1 or n and discard it.  So
** by default such an access proceeds (a load reads what is there, zero
** if never written; a store lands) and is recorded once per site (the PTX
** instruction), with the first access's report and a count, for a warning
** at exit.  An access outside every mapped page faults as on a GPU (an
** illegal address); under memcheck (no log) every such access faults,
** and one into a freed allocation is named "use after free".
*/
#include "emu.h"
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#define OOB_MAX_SITES 256   /* sites kept with a report; more are only counted */

typedef struct oob_site {
    const ptx_uop *uop;       /* the key: one PTX instruction of one module */
    uint64_t count;           /* lane accesses outside every allocation */
    char first[672];          /* report of the first of them (where: what) */
} oob_site;

struct emu_oob_log {
    oob_site *sites;
    uint32_t nsites, cap;
    uint32_t last;            /* index of the last site hit */
    uint64_t more;            /* accesses at sites beyond OOB_MAX_SITES */
};

emu_oob_log *emu_oob_new(void) { return emu_lines_alloc(sizeof(emu_oob_log)); }

void emu_oob_free(emu_oob_log *g)
{
    if (!g) return;
    free(g->sites);
    free(g);
}

/* The site of `u`, or NULL when it has none yet. */
static oob_site *oob_find(emu_oob_log *g, const ptx_uop *u)
{
    if (g->last < g->nsites && g->sites[g->last].uop == u) return &g->sites[g->last];
    for (uint32_t i = 0; i < g->nsites; i++)
        if (g->sites[i].uop == u) return &g->sites[g->last = i];
    return NULL;
}

/* Room for one more site; false when the host is out of memory. */
static bool oob_room(emu_oob_log *g)
{
    if (g->nsites < g->cap) return true;
    uint32_t cap = g->cap ? g->cap * 2 : 8;
    oob_site *s = realloc(g->sites, cap * sizeof *s);
    if (!s) return false;
    g->sites = s;
    g->cap = cap;
    return true;
}

/* A new site for `u` with its first report; NULL when the table is full
   or the host is out of memory (the access is then only counted). */
static oob_site *oob_add(emu_oob_log *g, const ptx_uop *u, const char *where,
                         const char *what)
{
    if (g->nsites == OOB_MAX_SITES || !oob_room(g)) return NULL;
    oob_site *s = &g->sites[g->last = g->nsites++];
    s->uop = u;
    s->count = 0;
    snprintf(s->first, sizeof s->first, "%s: %s", where, what);
    return s;
}

uint32_t emu_oob_report(const emu_oob_log *g, FILE *out)
{
    if (!g || !out) return 0;
    for (uint32_t i = 0; i < g->nsites; i++) {
        const oob_site *s = &g->sites[i];
        fprintf(out, "warpsim: warning: %s; %" PRIu64 " access%s by this instruction "
                "fell outside every allocation but inside a mapped %llu MiB page, and "
                "proceeded as on a GPU (--memcheck makes them faults)\n", s->first,
                s->count, s->count == 1 ? "" : "es",
                (unsigned long long)(EMU_MEM_MAP_BYTES >> 20));
    }
    if (g->more)
        fprintf(out, "warpsim: warning: %" PRIu64 " more accesses outside every allocation "
                "at further sites (only the first %d sites are listed)\n", g->more,
                OOB_MAX_SITES);
    return g->nsites;
}

/* What is wrong with the access, naming the first byte outside the
   allocation (clearer for overruns) and a freed allocation it hits. */
static void oob_text(emu_mem *m, uint64_t addr, uint32_t n, const char *what, bool mapped,
                     char *text, size_t len)
{
    char desc[256];
    uint64_t bad = addr;
    while (bad < addr + n - 1 && emu_mem_valid(m, bad, 1)) bad++;
    int freed = emu_mem_describe(m, bad, desc, sizeof desc);
    snprintf(text, len, "%s%s of %u bytes at address 0x%" PRIx64 ": %s%s",
             freed ? "use after free: " : "out-of-bounds ", what, n, addr, desc,
             mapped ? "" : " (outside every mapped page: an illegal address)");
}

bool emu_oob_empty(const emu_oob_log *g) { return !g->nsites && !g->more; }

void emu_oob_merge(emu_oob_log *dst, emu_oob_log *src)
{
    /* the usual case, each cycle for each SM: nothing to merge (and no
       write, so the SM's thread keeps the line) */
    if (emu_oob_empty(src)) return;
    for (uint32_t i = 0; i < src->nsites; i++) {
        const oob_site *s = &src->sites[i];
        oob_site *d = oob_find(dst, s->uop);
        if (!d && dst->nsites < OOB_MAX_SITES && oob_room(dst)) {
            d = &dst->sites[dst->nsites++];
            *d = *s;
            continue;
        }
        if (d) d->count += s->count;
        else dst->more += s->count;
    }
    dst->more += src->more;
    src->nsites = 0;
    src->more = 0;
    src->last = 0;
}

uint8_t *emu_oob_access(emu_warp *w, const ptx_uop *u, int lane, uint64_t addr,
                        uint32_t n, const char *what, bool write)
{
    emu_launch *l = w->launch;
    char text[400];
    bool mapped = emu_mem_mapped(l->gmem, addr, n);
    if (!l->oob || !mapped) {
        oob_text(l->gmem, addr, n, what, mapped, text, sizeof text);
        return emu_fault_at(w, u, lane, EMU_FAULT_MEMORY, "%s", text), NULL;
    }
    uint8_t *p;
    if (write && l->wlog)
        p = (addr & 4095) + n > 4096 ? NULL
          : emu_wlog_put(l->wlog, l->gmem, w, u, lane, addr, n, true);
    else
        p = write ? emu_mem_span(l->gmem, addr, n)
                  : (uint8_t *)(uintptr_t)emu_mem_peek(l->gmem, addr, n);
    if (!p)
        return emu_fault_at(w, u, lane, EMU_FAULT_MEMORY, "%s of %u bytes at address 0x%"
                            PRIx64 ": host out of memory for the page backing it", what,
                            n, addr), NULL;
    oob_site *s = oob_find(l->oob, u);
    if (!s) {
        char where[256];
        emu_fault_where(w, u, lane, where, sizeof where);
        oob_text(l->gmem, addr, n, what, true, text, sizeof text);
        s = oob_add(l->oob, u, where, text);
    }
    if (s) s->count++;
    else l->oob->more++;
    return p;
}
