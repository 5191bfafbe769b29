/*
** coalesce.c -- turn a warp's per-lane addresses into memory
** transactions, Fermi style: one transaction per distinct aligned segment
** of `seg` bytes that any active lane touches (an access straddling a
** segment boundary touches both).  core_coalesce_reduce shrinks one
** such transaction to the 64- or 32-byte half its lanes touch, as the
** compute capability 1.2+ rules (and GPGPU-Sim) do; the caller decides when
** (`coalesce_reduce`: write-through stores).
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

/* The 32-byte chunks of the `seg`-byte segment at `base` that the lanes of
   `mask` touch, as a bit mask (bit k = bytes 32k..32k+31). */
static uint32_t seg_chunks(const uint64_t *addr, uint32_t mask, uint32_t nbytes, uint64_t base,
                           uint32_t seg)
{
    uint32_t chunks = 0;
    for (uint32_t m = mask; m; m &= m - 1) {
        int lane = __builtin_ctz(m);
        uint64_t lo = addr[lane], hi = addr[lane] + nbytes - 1;
        if (hi < base || lo >= base + seg) continue;
        if (lo < base) lo = base;
        if (hi >= base + seg) hi = base + seg - 1;
        for (uint64_t c = (lo - base) / 32; c <= (hi - base) / 32; c++) chunks |= 1u << c;
    }
    return chunks;
}

uint32_t core_coalesce_reduce(const uint64_t *addr, uint32_t mask, uint32_t nbytes,
                              uint32_t seg, uint64_t *base)
{
    if (!nbytes) nbytes = 1;
    if (seg != 128 && seg != 64) return seg;
    uint32_t ch = seg_chunks(addr, mask, nbytes, *base, seg), size = seg;
    /* halve while all touched chunks sit in one half: 128 -> 64 -> 32 */
    while (size > 32) {
        uint32_t half = size / 2, nch = half / 32, lo = (1u << nch) - 1;
        if (ch & ~lo && ch & lo) break;
        if (!(ch & lo)) { *base += half; ch >>= nch; }
        size = half;
    }
    return size;
}

uint32_t core_coalesce_lanes(const uint64_t *addr, uint32_t mask, uint32_t nbytes,
                             uint32_t seg, uint64_t base)
{
    uint32_t lanes = 0;
    if (!nbytes) nbytes = 1;
    for (uint32_t m = mask; m; m &= m - 1) {
        int lane = __builtin_ctz(m);
        if (addr[lane] < base + seg && addr[lane] + nbytes > base) lanes |= 1u << lane;
    }
    return lanes;
}
