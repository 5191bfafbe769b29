/*
** addrmap.h -- physical address -> DRAM channel, sub-partition, bank, row
** and column, from a GPGPU-Sim-style bit string (-gpgpu_mem_addr_mapping).
**
** Accepted format:   [dramid@N;]BITS
**   BITS   64 letters, most significant address bit first; '.' and spaces
**          are ignored; fewer than 64 letters = the missing high bits are
**          '0'.  One letter per address bit:
**            D  channel (DRAM chip id)      B  bank
**            R  row                         C  column
**            S  byte within a burst (kept in `col_byte`, not in col)
**            0  not used
**          A field's bits need not be contiguous: they are gathered from
**          most to least significant and packed (the first letter found is
**          the field's top bit).
**   dramid@N  only when BITS has no D: the channel is
**          (addr >> N) mod n_channels, and the remaining fields are decoded
**          from the address with that channel digit taken out:
**            compact = ((addr >> N) / n_channels) << N | (addr mod 2^N)
**          This also serves channel counts that are not a power of two
**          (GTX480: 6).  Neither D nor dramid@: channel 0 when there is one
**          channel, otherwise an error.
**   With D bits, channel = D value mod n_channels (error if D gives fewer
**   than n_channels values).
**   sub-partition (global) = channel * n_sub + bank mod n_sub.
**
** Example (GTX480):
**   dramid@8;00000000.00000000.00000000.00000000.0000RRRR.RRRRRRRR.RBBBCCCC.BCCSSSSS
**   bit  31..0 of compact:  ....RRRR RRRRRRRR RBBBCCCC BCCSSSSS
**   -> 32-byte bursts (S), 2 KB rows (6 C + 5 S bits), 16 banks (B at
**      bits 14..12 and 7), channel = (addr >> 8) mod 6.
*/
#ifndef WS_MEM_ADDRMAP_H
#define WS_MEM_ADDRMAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* the map every machine uses when dram_addr_map is empty */
#define MEM_ADDRMAP_DEFAULT \
    "dramid@8;00000000.00000000.00000000.00000000.0000RRRR.RRRRRRRR.RBBBCCCC.BCCSSSSS"

enum { MEM_AF_CHANNEL = 0, MEM_AF_BANK, MEM_AF_ROW, MEM_AF_COL, MEM_AF_BURST, MEM_AF_COUNT };

typedef struct mem_addrmap {
    uint64_t mask[MEM_AF_COUNT];   /* address bits of each field */
    uint32_t bits[MEM_AF_COUNT];   /* popcount of each mask */
    int      dramid_pos;           /* N of dramid@N, -1 when D bits are used or none */
    uint32_t n_channels, n_sub;
} mem_addrmap;

typedef struct mem_addr_loc {
    uint32_t channel;     /* 0 .. n_channels-1 */
    uint32_t sub;         /* global sub-partition: channel * n_sub + bank mod n_sub */
    uint32_t bank;        /* as decoded (callers with fewer banks take it mod theirs) */
    uint64_t row, col;    /* col = the C bits; col_byte = the S bits */
    uint32_t col_byte;
    uint64_t unmapped;    /* the ('0') bits no field holds, in place (of the
                             compact address under dramid@N): addresses that
                             differ only here share a DRAM location */
} mem_addr_loc;

/* Parse `text` ("" or NULL = MEM_ADDRMAP_DEFAULT) for `n_channels` channels
   of `n_sub` sub-partitions each; 0, or -1 with a message quoting it. */
int mem_addrmap_parse(mem_addrmap *m, const char *text, uint32_t n_channels, uint32_t n_sub,
                      char *err, size_t errlen);
void mem_addrmap_decode(const mem_addrmap *m, uint64_t addr, mem_addr_loc *out);
/* The inverse: the address of `loc`'s channel, bank, row, col, col_byte
   and unmapped bits; compose(decode(a)) == a for every address (with D
   bits: when they name exactly n_channels values), decode(compose(l)) == l
   for every field the map can hold.  Memory-side prefetchers name lines
   this way, taking `unmapped` from a demand request to the same row. */
uint64_t mem_addrmap_compose(const mem_addrmap *m, const mem_addr_loc *loc);
/* Bytes of one DRAM row as the map lays it out: 2^(C + S bits). */
static inline uint64_t mem_addrmap_row_bytes(const mem_addrmap *m)
{
    return 1ull << (m->bits[MEM_AF_COL] + m->bits[MEM_AF_BURST]);
}
/* Banks the map can name (2^bits of B). */
static inline uint32_t mem_addrmap_banks(const mem_addrmap *m)
{
    return m->bits[MEM_AF_BANK] >= 31 ? 0x80000000u : 1u << m->bits[MEM_AF_BANK];
}

#endif /* WS_MEM_ADDRMAP_H */
