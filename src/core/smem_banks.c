/*
** smem_banks.c -- shared-memory bank conflicts.  Each `bank_bytes`-wide
** word belongs to bank (word % banks).  Lanes reading the same word are
** served together (broadcast); distinct words in one bank are served one
** per cycle, so the access takes as many cycles as the busiest bank has
** distinct words (the conflict degree; 1 when conflict-free).
*/
#include "core_int.h"
#include <string.h>

#define SMEM_MAX_WORDS (EMU_WARP_SIZE * 8)   /* 32 lanes x up to 32-byte accesses */

uint32_t core_smem_cycles(const uint64_t *addr, uint32_t mask, uint32_t nbytes,
                          uint32_t banks, uint32_t bank_bytes)
{
    uint64_t words[SMEM_MAX_WORDS];
    uint32_t nw = 0;
    if (!banks) banks = 32;
    if (!bank_bytes) bank_bytes = 4;
    if (!nbytes) nbytes = 1;
    /* distinct words touched */
    for (uint32_t m = mask; m; m &= m - 1) {
        int lane = __builtin_ctz(m);
        uint64_t first = addr[lane] / bank_bytes, last = (addr[lane] + nbytes - 1) / bank_bytes;
        for (uint64_t wd = first; wd <= last && nw < SMEM_MAX_WORDS; wd++) {
            uint32_t i;
            for (i = 0; i < nw && words[i] != wd; i++) {}
            if (i == nw) words[nw++] = wd;
        }
    }
    if (!nw) return 1;
    /* busiest bank */
    uint32_t per_bank[256];
    uint32_t nb = banks < 256 ? banks : 256;
    memset(per_bank, 0, nb * sizeof *per_bank);
    uint32_t degree = 1;
    for (uint32_t i = 0; i < nw; i++) {
        uint32_t b = (uint32_t)(words[i] % banks) % nb;
        if (++per_bank[b] > degree) degree = per_bank[b];
    }
    return degree;
}
