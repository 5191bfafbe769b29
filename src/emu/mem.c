/*
** mem.c -- sparse paged global memory and the device allocation table.
**
** Storage is a hash table from page number to a 4 KiB page, created on
** first write (or first emu_mem_span); untouched memory reads as zero.
** An optional page budget (emu_mem_set_page_limit) makes host exhaustion
** testable: a write that cannot get a page reports it, never drops data.
**
** Allocations come from a bump pointer above EMU_GLOBAL_HEAP_BASE with a
** red zone after each, so a small overrun lands outside every allocation
** rather than silently in a neighbour (what is "outside" means is the
** caller's: a fault under memcheck, a warning inside a mapped page,
** EMU_MEM_MAP_BYTES, otherwise).  Freed allocations stay in the table,
** flagged, so a later access or a second free can be named as such; they
** are dropped in bulk once more than the quarantine are kept.  Addresses
** are reused only when the bump pointer reaches the end of the heap (the
** first gap between live allocations that fits).  A one-entry cache on
** both tables keeps the per-lane path short.
*/
#include "emu.h"
#include <stdlib.h>
#include <string.h>
#include <inttypes.h>

#define MEM_PAGE_BITS 12
#define MEM_PAGE_SIZE (1ull << MEM_PAGE_BITS)
#define MEM_PAGE_MASK (MEM_PAGE_SIZE - 1)
#define MEM_NO_PAGE   UINT64_MAX
#define MEM_REDZONE   512          /* unmapped bytes after every allocation */
#define MEM_MIN_ALIGN 256

typedef struct mem_slot {
    uint64_t pn;                   /* page number, MEM_NO_PAGE when empty */
    uint8_t *data;
} mem_slot;

typedef struct mem_alloc {
    uint64_t base, size;
    emu_alloc_kind kind;
    bool freed;                    /* released; kept to name use after free */
    char label[48];
} mem_alloc;

/* freed entries kept by default before they are dropped (memcheck keeps
   emu_mem_set_quarantine's number) */
#define MEM_DEFAULT_QUARANTINE 4096u

/* zeros that loads of never-written memory read (no page is made) */
static const uint8_t mem_zero_page[MEM_PAGE_SIZE];

struct emu_mem {
    /* pages: open addressing, linear probing, power-of-two capacity */
    mem_slot *slots;
    uint64_t nslots, npages;
    uint64_t cache_pn;             /* last page looked up */
    uint8_t *cache_data;
    /* allocations, sorted by base */
    mem_alloc *allocs;
    uint32_t nallocs, cap_allocs;
    uint32_t cache_alloc;          /* index of the last allocation hit */
    uint32_t nfreed;               /* entries flagged freed */
    uint32_t quarantine;           /* freed entries kept before dropping */
    uint64_t next;                 /* bump pointer */
    uint64_t live_bytes;           /* sum of live allocation sizes */
    uint64_t page_limit;           /* most backing pages; 0 = unlimited */
    bool frozen;                   /* reads leave the caches alone (emu_mem_freeze) */
};

/* ------------------------------------------------------------------ */
/* Pages                                                               */
/* ------------------------------------------------------------------ */

static inline uint64_t mem_hash(uint64_t pn, uint64_t nslots)
{
    return (pn * 0x9E3779B97F4A7C15ull >> 17) & (nslots - 1);
}

emu_mem *emu_mem_new(void)
{
    emu_mem *m = calloc(1, sizeof *m);
    if (!m) return NULL;
    m->nslots = 256;
    m->slots = malloc(m->nslots * sizeof *m->slots);
    if (!m->slots) { free(m); return NULL; }
    for (uint64_t i = 0; i < m->nslots; i++) m->slots[i].pn = MEM_NO_PAGE;
    m->cache_pn = MEM_NO_PAGE;
    m->next = EMU_GLOBAL_HEAP_BASE;
    m->quarantine = MEM_DEFAULT_QUARANTINE;
    return m;
}

void emu_mem_set_page_limit(emu_mem *m, uint64_t pages) { m->page_limit = pages; }

void emu_mem_set_quarantine(emu_mem *m, uint32_t entries) { m->quarantine = entries; }

void emu_mem_freeze(emu_mem *m, bool frozen) { m->frozen = frozen; }

uint64_t emu_mem_live_bytes(const emu_mem *m) { return m->live_bytes; }

void emu_mem_free(emu_mem *m)
{
    if (!m) return;
    for (uint64_t i = 0; i < m->nslots; i++)
        if (m->slots[i].pn != MEM_NO_PAGE) free(m->slots[i].data);
    free(m->slots);
    free(m->allocs);
    free(m);
}

static uint8_t *mem_find_page(emu_mem *m, uint64_t pn)
{
    if (pn == m->cache_pn) return m->cache_data;
    for (uint64_t i = mem_hash(pn, m->nslots);; i = (i + 1) & (m->nslots - 1)) {
        if (m->slots[i].pn == pn) {
            if (!m->frozen) {
                m->cache_pn = pn;
                m->cache_data = m->slots[i].data;
            }
            return m->slots[i].data;
        }
        if (m->slots[i].pn == MEM_NO_PAGE) return NULL;
    }
}

static void mem_insert_slot(mem_slot *slots, uint64_t nslots, uint64_t pn, uint8_t *data)
{
    uint64_t i = mem_hash(pn, nslots);
    while (slots[i].pn != MEM_NO_PAGE) i = (i + 1) & (nslots - 1);
    slots[i].pn = pn;
    slots[i].data = data;
}

static int mem_grow(emu_mem *m)
{
    uint64_t n = m->nslots * 2;
    mem_slot *s = malloc(n * sizeof *s);
    if (!s) return -1;
    for (uint64_t i = 0; i < n; i++) s[i].pn = MEM_NO_PAGE;
    for (uint64_t i = 0; i < m->nslots; i++)
        if (m->slots[i].pn != MEM_NO_PAGE)
            mem_insert_slot(s, n, m->slots[i].pn, m->slots[i].data);
    free(m->slots);
    m->slots = s;
    m->nslots = n;
    return 0;
}

/* The page holding `pn`, created zeroed when missing; NULL only when the
   host is out of memory. */
static uint8_t *mem_page(emu_mem *m, uint64_t pn)
{
    uint8_t *p = mem_find_page(m, pn);
    if (p) return p;
    if (m->page_limit && m->npages >= m->page_limit) return NULL;
    if ((m->npages + 1) * 2 > m->nslots && mem_grow(m) != 0) return NULL;
    p = calloc(1, MEM_PAGE_SIZE);
    if (!p) return NULL;
    mem_insert_slot(m->slots, m->nslots, pn, p);
    m->npages++;
    m->cache_pn = pn;
    m->cache_data = p;
    return p;
}

/* Drop page `pn` (backward-shift deletion keeps probe chains intact). */
static void mem_drop_page(emu_mem *m, uint64_t pn)
{
    uint64_t mask = m->nslots - 1, i = mem_hash(pn, m->nslots);
    while (m->slots[i].pn != pn) {
        if (m->slots[i].pn == MEM_NO_PAGE) return;
        i = (i + 1) & mask;
    }
    free(m->slots[i].data);
    m->npages--;
    if (m->cache_pn == pn) m->cache_pn = MEM_NO_PAGE;
    for (uint64_t j = (i + 1) & mask;; j = (j + 1) & mask) {
        if (m->slots[j].pn == MEM_NO_PAGE) break;
        uint64_t h = mem_hash(m->slots[j].pn, m->nslots);
        /* move j into the hole at i unless its home lies cyclically in (i, j] */
        bool stays = (i <= j) ? (i < h && h <= j) : (i < h || h <= j);
        if (!stays) {
            m->slots[i] = m->slots[j];
            i = j;
        }
    }
    m->slots[i].pn = MEM_NO_PAGE;
    m->slots[i].data = NULL;
}

uint8_t *emu_mem_span(emu_mem *m, uint64_t addr, uint64_t n)
{
    if ((addr & MEM_PAGE_MASK) + n > MEM_PAGE_SIZE) return NULL;
    uint8_t *p = mem_page(m, addr >> MEM_PAGE_BITS);
    return p ? p + (addr & MEM_PAGE_MASK) : NULL;
}

const uint8_t *emu_mem_peek(emu_mem *m, uint64_t addr, uint64_t n)
{
    if ((addr & MEM_PAGE_MASK) + n > MEM_PAGE_SIZE) return NULL;
    uint8_t *p = mem_find_page(m, addr >> MEM_PAGE_BITS);
    return (p ? p : mem_zero_page) + (addr & MEM_PAGE_MASK);
}

int emu_mem_write(emu_mem *m, uint64_t addr, const void *src, uint64_t n)
{
    const uint8_t *s = src;
    while (n) {
        uint64_t off = addr & MEM_PAGE_MASK, k = MEM_PAGE_SIZE - off;
        if (k > n) k = n;
        uint8_t *p = mem_page(m, addr >> MEM_PAGE_BITS);
        if (!p) return -1;   /* the caller reports it: nothing is dropped silently */
        memcpy(p + off, s, k);
        addr += k; s += k; n -= k;
    }
    return 0;
}

void emu_mem_read(emu_mem *m, uint64_t addr, void *dst, uint64_t n)
{
    uint8_t *d = dst;
    while (n) {
        uint64_t off = addr & MEM_PAGE_MASK, k = MEM_PAGE_SIZE - off;
        if (k > n) k = n;
        uint8_t *p = mem_find_page(m, addr >> MEM_PAGE_BITS);
        if (p) memcpy(d, p + off, k);
        else memset(d, 0, k);
        addr += k; d += k; n -= k;
    }
}

/* ------------------------------------------------------------------ */
/* Allocation table                                                    */
/* ------------------------------------------------------------------ */

/* Index of the last allocation (live or freed) whose base is <= addr, or -1. */
static int64_t mem_floor(const emu_mem *m, uint64_t addr)
{
    int64_t lo = 0, hi = (int64_t)m->nallocs - 1, best = -1;
    while (lo <= hi) {
        int64_t mid = (lo + hi) / 2;
        if (m->allocs[mid].base <= addr) { best = mid; lo = mid + 1; }
        else hi = mid - 1;
    }
    return best;
}

/* Drop every freed entry (their addresses become reusable). */
static void mem_compact(emu_mem *m)
{
    uint32_t k = 0;
    for (uint32_t i = 0; i < m->nallocs; i++)
        if (!m->allocs[i].freed) m->allocs[k++] = m->allocs[i];
    m->nallocs = k;
    m->nfreed = 0;
    m->cache_alloc = 0;
}

/*
** Where `size` bytes (plus the red zone) aligned to `align` fit: at the
** bump pointer while the heap lasts, then in the first gap between live
** allocations (freed entries dropped first).  0, or -1 when nothing fits.
*/
static int mem_place(emu_mem *m, uint64_t size, uint64_t align, uint64_t *base)
{
    uint64_t need = size + MEM_REDZONE, b = (m->next + align - 1) & ~(align - 1);
    if (b < EMU_GLOBAL_LIMIT && EMU_GLOBAL_LIMIT - b >= need) { *base = b; return 0; }
    mem_compact(m);
    uint64_t lo = EMU_GLOBAL_HEAP_BASE;
    for (uint32_t i = 0; i <= m->nallocs; i++) {
        uint64_t hi = i < m->nallocs ? m->allocs[i].base : EMU_GLOBAL_LIMIT;
        b = (lo + align - 1) & ~(align - 1);
        if (b >= lo && b < hi && hi - b >= need) { *base = b; return 0; }
        if (i < m->nallocs) lo = m->allocs[i].base + m->allocs[i].size + MEM_REDZONE;
    }
    return -1;
}

int emu_mem_alloc(emu_mem *m, uint64_t size, uint64_t align, emu_alloc_kind kind,
                  const char *label, uint64_t *addr)
{
    if (size == 0 || size > EMU_GLOBAL_LIMIT) return -1;
    if (align < MEM_MIN_ALIGN) align = MEM_MIN_ALIGN;
    if (align & (align - 1)) return -1;
    uint64_t base;
    if (mem_place(m, size, align, &base)) return -1;
    if (m->nallocs == m->cap_allocs) {
        uint32_t cap = m->cap_allocs ? m->cap_allocs * 2 : 16;
        mem_alloc *a = realloc(m->allocs, cap * sizeof *a);
        if (!a) return -1;
        m->allocs = a;
        m->cap_allocs = cap;
    }
    /* keep the table sorted by base (an append, unless a gap is reused) */
    uint32_t at = (uint32_t)(mem_floor(m, base) + 1);
    memmove(&m->allocs[at + 1], &m->allocs[at], (m->nallocs - at) * sizeof *m->allocs);
    m->nallocs++;
    mem_alloc *a = &m->allocs[at];
    a->base = base;
    a->size = size;
    a->kind = kind;
    a->freed = false;
    snprintf(a->label, sizeof a->label, "%s", label ? label : "");
    if (base + size + MEM_REDZONE > m->next) m->next = base + size + MEM_REDZONE;
    m->live_bytes += size;
    m->cache_alloc = 0;
    *addr = base;
    return 0;
}

/* Zero or drop the backing pages of [addr, end) so a later reader never
   sees stale data; partial edge pages stay (shared with a neighbour). */
static void mem_clear_range(emu_mem *m, uint64_t addr, uint64_t end)
{
    for (uint64_t pn = addr >> MEM_PAGE_BITS; pn <= (end - 1) >> MEM_PAGE_BITS; pn++) {
        uint64_t ps = pn << MEM_PAGE_BITS;
        if (ps >= addr && ps + MEM_PAGE_SIZE <= end) mem_drop_page(m, pn);
        else {
            uint8_t *p = mem_find_page(m, pn);
            if (p) {
                uint64_t s = ps < addr ? addr : ps;
                uint64_t e = ps + MEM_PAGE_SIZE > end ? end : ps + MEM_PAGE_SIZE;
                memset(p + (s - ps), 0, e - s);
            }
        }
    }
}

int emu_mem_release(emu_mem *m, uint64_t addr)
{
    int64_t i = mem_floor(m, addr);
    if (i < 0 || m->allocs[i].base != addr) return -1;
    mem_alloc *a = &m->allocs[i];
    if (a->freed) return -2;
    mem_clear_range(m, addr, addr + a->size);
    a->freed = true;
    m->live_bytes -= a->size;
    m->nfreed++;
    if (m->nfreed > m->quarantine) mem_compact(m);
    return 0;
}

int emu_mem_valid(emu_mem *m, uint64_t addr, uint64_t n)
{
    if (m->cache_alloc < m->nallocs) {
        const mem_alloc *a = &m->allocs[m->cache_alloc];
        if (addr - a->base < a->size && n <= a->size - (addr - a->base) && !a->freed)
            return 1;
    }
    int64_t i = mem_floor(m, addr);
    if (i < 0) return 0;
    const mem_alloc *a = &m->allocs[i];
    if (addr - a->base >= a->size || n > a->size - (addr - a->base) || a->freed) return 0;
    if (!m->frozen) m->cache_alloc = (uint32_t)i;
    return 1;
}

/* 1 if the EMU_MEM_MAP_BYTES page numbered `mp` holds part of a live
   allocation.  Entries never overlap, so their ends are sorted like their
   bases: walking down from the last one starting in the page, the first
   that ends at or before the page start ends the search. */
static int mem_map_page_live(const emu_mem *m, uint64_t mp)
{
    uint64_t start = mp * EMU_MEM_MAP_BYTES, last = start + EMU_MEM_MAP_BYTES - 1;
    for (int64_t i = mem_floor(m, last); i >= 0; i--) {
        const mem_alloc *a = &m->allocs[i];
        if (a->base + a->size <= start) return 0;
        if (!a->freed) return 1;
    }
    return 0;
}

/*
** The page just below the heap counts as mapped: a GPU context allocates
** its own device memory (printf buffer, local-memory stacks) before the
** program's, so the first buffer's element -1 is mapped there too.  The
** heap cannot simply start inside a page instead: every device address,
** and with it the timing model's DRAM mapping, would move.
*/
int emu_mem_mapped(const emu_mem *m, uint64_t addr, uint64_t n)
{
    if (n == 0 || addr + n < addr || addr >= EMU_GLOBAL_LIMIT) return 0;
    const uint64_t below_heap = EMU_GLOBAL_HEAP_BASE / EMU_MEM_MAP_BYTES - 1;
    for (uint64_t mp = addr / EMU_MEM_MAP_BYTES; mp <= (addr + n - 1) / EMU_MEM_MAP_BYTES; mp++)
        if (mp != below_heap && !mem_map_page_live(m, mp)) return 0;
    return 1;
}

static const char *mem_kind_name(const mem_alloc *a)
{
    return a->kind == EMU_ALLOC_MODULE_GLOBAL ? "module variable" : "allocation";
}

static int mem_name(const mem_alloc *a, char *buf, size_t len)
{
    const char *freed = a->freed ? "freed " : "";
    if (a->label[0])
        return snprintf(buf, len, "%s%" PRIu64 "-byte %s '%s' at 0x%" PRIx64, freed,
                        a->size, mem_kind_name(a), a->label, a->base);
    return snprintf(buf, len, "%s%" PRIu64 "-byte %s at 0x%" PRIx64,
                    freed, a->size, mem_kind_name(a), a->base);
}

int emu_mem_describe(emu_mem *m, uint64_t addr, char *buf, size_t len)
{
    if (!len) return 0;
    int64_t i = mem_floor(m, addr);
    const mem_alloc *below = i >= 0 ? &m->allocs[i] : NULL;
    const mem_alloc *above = (uint64_t)(i + 1) < m->nallocs ? &m->allocs[i + 1] : NULL;
    char name[128];
    if (below && addr - below->base < below->size) {
        mem_name(below, name, sizeof name);
        snprintf(buf, len, "0x%" PRIx64 " is %" PRIu64 " bytes inside the %s",
                 addr, addr - below->base, name);
        return below->freed;
    }
    uint64_t dist_below = below ? addr - (below->base + below->size) : UINT64_MAX;
    uint64_t dist_above = above ? above->base - addr : UINT64_MAX;
    if (!below && !above) {
        snprintf(buf, len, "0x%" PRIx64 " is not in any allocation (no device memory "
                 "is allocated)", addr);
    } else if (dist_below <= dist_above) {
        mem_name(below, name, sizeof name);
        snprintf(buf, len, "0x%" PRIx64 " is %" PRIu64 " bytes past the end of the %s",
                 addr, dist_below, name);
    } else {
        mem_name(above, name, sizeof name);
        snprintf(buf, len, "0x%" PRIx64 " is %" PRIu64 " bytes before the %s",
                 addr, dist_above, name);
    }
    return 0;
}

/* ------------------------------------------------------------------ */
/* Copies (the oracle profile's private memory)                        */
/* ------------------------------------------------------------------ */

emu_mem *emu_mem_clone(const emu_mem *m)
{
    emu_mem *c = calloc(1, sizeof *c);
    if (!c) return NULL;
    *c = *m;
    c->slots = malloc(m->nslots * sizeof *c->slots);
    c->allocs = m->cap_allocs ? malloc(m->cap_allocs * sizeof *c->allocs) : NULL;
    c->npages = 0;
    c->cache_pn = MEM_NO_PAGE;
    c->cache_data = NULL;
    if (!c->slots || (m->cap_allocs && !c->allocs)) {
        free(c->slots);
        free(c->allocs);
        free(c);
        return NULL;
    }
    if (m->nallocs) memcpy(c->allocs, m->allocs, m->nallocs * sizeof *c->allocs);
    for (uint64_t i = 0; i < m->nslots; i++) c->slots[i] = (mem_slot){ MEM_NO_PAGE, NULL };
    /* same capacity, same hash: every page keeps its slot */
    for (uint64_t i = 0; i < m->nslots; i++) {
        if (m->slots[i].pn == MEM_NO_PAGE) continue;
        c->slots[i].data = malloc(MEM_PAGE_SIZE);
        if (!c->slots[i].data) {
            emu_mem_free(c);
            return NULL;
        }
        c->slots[i].pn = m->slots[i].pn;
        memcpy(c->slots[i].data, m->slots[i].data, MEM_PAGE_SIZE);
        c->npages++;
    }
    return c;
}
