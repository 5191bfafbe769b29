/*
** lines.h -- zeroed memory on cache lines of its own, for state that one
** host thread writes while another writes its neighbours' (the parallel
** timing model, gpu/smpar.c): sharing a line, the two threads' writes
** would pass it between the CPUs' caches every cycle.
*/
#ifndef WS_COMMON_LINES_H
#define WS_COMMON_LINES_H

#include <stdlib.h>
#include <string.h>

#define WS_LINE_BYTES 64

/* `bytes` rounded up to whole lines, zeroed, line-aligned (free() it);
   NULL when out of host memory.  Enough alignment for any type declared
   _Alignas(WS_LINE_BYTES). */
static inline void *ws_lines_alloc(size_t bytes)
{
    size_t size = (bytes + WS_LINE_BYTES - 1) / WS_LINE_BYTES * WS_LINE_BYTES;
    void *p = aligned_alloc(WS_LINE_BYTES, size ? size : WS_LINE_BYTES);
    if (p) memset(p, 0, size);
    return p;
}

#endif /* WS_COMMON_LINES_H */
