/*
** dupmshr.h -- the GPU-wide record behind the duplicate-MSHR statistic of
** HALS (specs/haws.md 3.2.1 and 7; thesis Ch. 6, Fig. 6.1): an L1D MSHR
** allocation is a *duplicate* when another SM allocated an L1D MSHR for
** the same line at most `window` cycles before.  One record per line: the
** last allocation (cycle, SM) and the last one by any other SM, which is
** enough to answer exactly.  Open addressing, deterministic; entries older
** than the window are dropped when the table fills, so it stops growing
** once it holds a window's worth of lines (no allocation in steady state).
*/
#ifndef WS_MEM_DUPMSHR_H
#define WS_MEM_DUPMSHR_H

#include <stdbool.h>
#include <stdint.h>

typedef struct mem_dup_line {
    uint64_t line;        /* line address + 1; 0 = empty */
    uint64_t last;        /* cycle of the last allocation */
    uint64_t other;       /* cycle of the last one by an SM other than `sm` */
    uint32_t sm;          /* SM of the last allocation */
    bool     has_other;
} mem_dup_line;

typedef struct mem_dup_mshr {
    uint64_t window;
    uint32_t cap, used;   /* cap: a power of two */
    mem_dup_line *e, *spare;   /* spare: same size, for rebuilding */
    uint64_t allocs, dups;
} mem_dup_mshr;

/* 0, or -1 when out of memory. */
int mem_dup_mshr_init(mem_dup_mshr *d, uint64_t window);
void mem_dup_mshr_release(mem_dup_mshr *d);
/* Forget every line and zero the counts (kernel begin). */
void mem_dup_mshr_clear(mem_dup_mshr *d);
/* SM `sm` allocated an L1D MSHR for `line` at `cycle` (cycles never go
   back): counts it, and returns whether it was a duplicate.  When the
   table cannot grow (out of memory) the allocation is counted but the
   line is not remembered. */
bool mem_dup_mshr_note(mem_dup_mshr *d, uint64_t line, uint32_t sm, uint64_t cycle);

#endif /* WS_MEM_DUPMSHR_H */
