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
    /* the distinct words, chained per bank: a new word is compared only
       with the words already in its bank (none or one when conflict-free),
       not with every word so far */
    uint64_t words[SMEM_MAX_WORDS];
    uint16_t next[SMEM_MAX_WORDS], head[256], count[256];
    uint32_t nw = 0, degree = 1;
    if (!banks) banks = 32;
    if (!bank_bytes) bank_bytes = 4;
    if (!nbytes) nbytes = 1;
    uint32_t nb = banks < 256 ? banks : 256;
    memset(count, 0, nb * sizeof *count);
    for (uint32_t m = mask; m; m &= m - 1) {
        int lane = __builtin_ctz(m);
        uint64_t first = addr[lane] / bank_bytes, last = (addr[lane] + nbytes - 1) / bank_bytes;
        for (uint64_t wd = first; wd <= last && nw < SMEM_MAX_WORDS; wd++) {
            uint32_t b = (uint32_t)(wd % banks) % nb, k = 0, i = count[b] ? head[b] : 0;
            while (k < count[b] && words[i] != wd) { i = next[i]; k++; }
            if (k < count[b]) continue;                 /* a broadcast */
            words[nw] = wd;
            next[nw] = count[b] ? head[b] : 0;
            head[b] = (uint16_t)nw++;
            if (++count[b] > degree) degree = count[b];
        }
    }
    return degree;
}
