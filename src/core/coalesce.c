/*
** coalesce.c -- turn a warp's per-lane addresses into memory
** transactions, Fermi style: one transaction per distinct aligned segment
** of `seg` bytes that any active lane touches (an access straddling a
** segment boundary touches both).  The 32/64/128-byte size reduction of
** compute capability 1.2/1.3 is not modelled: every transaction is a whole
** segment.
*/
#include "core_int.h"

uint32_t core_coalesce(const uint64_t *addr, uint32_t mask, uint32_t nbytes, uint32_t seg,
                       uint64_t *out, uint32_t max)
{
    uint32_t n = 0;
    if (!seg) seg = 128;
    if (!nbytes) nbytes = 1;
    for (uint32_t m = mask; m; m &= m - 1) {
        int lane = __builtin_ctz(m);
        uint64_t first = addr[lane] / seg, last = (addr[lane] + nbytes - 1) / seg;
        for (uint64_t s = first; s <= last; s++) {
            uint64_t a = s * seg;
            uint32_t i = 0;
            /* the last few found are the likeliest matches: search backwards */
            for (i = n; i > 0 && out[i - 1] != a; i--) {}
            if (i == 0 && n < max) out[n++] = a;
        }
    }
    return n;
}
