/*
** addrmap.c -- parsing and decoding of the DRAM address-map bit string
** (format and example in addrmap.h).  Decoding is a handful of bit
** gathers, done once per request when it enters a controller.
*/
#include "addrmap.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void set_err(char *err, size_t errlen, const char *fmt, ...)
{
    if (!err || errlen == 0)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
}

static int field_of_letter(char c)
{
    switch (c) {
    case 'D': case 'd': return MEM_AF_CHANNEL;
    case 'B': case 'b': return MEM_AF_BANK;
    case 'R': case 'r': return MEM_AF_ROW;
    case 'C': case 'c': return MEM_AF_COL;
    case 'S': case 's': return MEM_AF_BURST;
    case '0':           return -1;
    default:            return -2;
    }
}

/* "dramid@N;" prefix: position N into *pos, the rest of the text into *rest.
   No prefix: *pos = -1. */
static int parse_prefix(const char *text, int *pos, const char **rest, char *err, size_t errlen)
{
    *pos = -1;
    *rest = text;
    const char *semi = strchr(text, ';');
    if (!semi)
        return 0;
    if (strncmp(text, "dramid@", 7) != 0) {
        set_err(err, errlen, "dram_addr_map '%s': the part before ';' must be dramid@N", text);
        return -1;
    }
    char *end;
    long n = strtol(text + 7, &end, 10);
    if (end == text + 7 || end != semi || n < 0 || n > 63) {
        set_err(err, errlen, "dram_addr_map '%s': dramid@N needs a bit position N in 0..63", text);
        return -1;
    }
    *pos = (int)n;
    *rest = semi + 1;
    return 0;
}

int mem_addrmap_parse(mem_addrmap *m, const char *text, uint32_t n_channels, uint32_t n_sub,
                      char *err, size_t errlen)
{
    char letters[64];
    uint32_t n = 0;
    const char *bits;

    memset(m, 0, sizeof *m);
    if (!text || !*text)
        text = MEM_ADDRMAP_DEFAULT;
    if (n_channels == 0 || n_sub == 0) {
        set_err(err, errlen, "dram_addr_map: need at least one channel and sub-partition");
        return -1;
    }
    if (parse_prefix(text, &m->dramid_pos, &bits, err, errlen) < 0)
        return -1;
    for (const char *p = bits; *p; p++) {
        if (*p == '.' || *p == ' ' || *p == '\t')
            continue;
        if (field_of_letter(*p) == -2) {
            set_err(err, errlen, "dram_addr_map '%s': '%c' is not one of D B R C S 0 . "
                    "(see addrmap.h)", text, *p);
            return -1;
        }
        if (n == 64) {
            set_err(err, errlen, "dram_addr_map '%s': more than 64 address bits", text);
            return -1;
        }
        letters[n++] = *p;
    }
    /* letters[0] is bit n-1, letters[n-1] is bit 0 */
    for (uint32_t i = 0; i < n; i++) {
        int f = field_of_letter(letters[i]);
        if (f >= 0)
            m->mask[f] |= 1ull << (n - 1 - i);
    }
    for (int f = 0; f < MEM_AF_COUNT; f++)
        m->bits[f] = (uint32_t)__builtin_popcountll(m->mask[f]);
    m->n_channels = n_channels;
    m->n_sub = n_sub;

    if (m->bits[MEM_AF_CHANNEL] > 0 && m->dramid_pos >= 0) {
        set_err(err, errlen, "dram_addr_map '%s': give the channel either as D bits or as "
                "dramid@N, not both", text);
        return -1;
    }
    if (m->bits[MEM_AF_CHANNEL] > 0 && m->bits[MEM_AF_CHANNEL] < 32
        && (1u << m->bits[MEM_AF_CHANNEL]) < n_channels) {
        set_err(err, errlen, "dram_addr_map '%s': %u D bits cannot name %u channels",
                text, m->bits[MEM_AF_CHANNEL], n_channels);
        return -1;
    }
    if (m->bits[MEM_AF_CHANNEL] == 0 && m->dramid_pos < 0 && n_channels > 1) {
        set_err(err, errlen, "dram_addr_map '%s': %u channels but no D bits and no dramid@N",
                text, n_channels);
        return -1;
    }
    if (m->bits[MEM_AF_ROW] == 0 || m->bits[MEM_AF_ROW] > 32) {
        set_err(err, errlen, "dram_addr_map '%s': needs 1..32 R (row) bits, has %u",
                text, m->bits[MEM_AF_ROW]);
        return -1;
    }
    if (m->bits[MEM_AF_BANK] > 16) {
        set_err(err, errlen, "dram_addr_map '%s': at most 16 B (bank) bits, has %u",
                text, m->bits[MEM_AF_BANK]);
        return -1;
    }
    return 0;
}

/* Gather the bits of `addr` under `mask` into a packed value, keeping
   their order (lowest masked bit -> bit 0). */
static uint64_t gather(uint64_t addr, uint64_t mask)
{
    uint64_t v = 0;
    uint32_t k = 0;
    while (mask) {
        uint64_t low = mask & -mask;
        if (addr & low)
            v |= 1ull << k;
        k++;
        mask &= mask - 1;
    }
    return v;
}

/* The inverse of gather: the low bits of `v` put at `mask`'s bits, the
   first (most significant) mask bit taking v's top bit. */
static uint64_t scatter(uint64_t v, uint64_t mask)
{
    /* bit k of v goes to the k-th lowest set bit of mask (gather's inverse);
       one step per set bit, not per address bit */
    uint64_t out = 0;
    for (uint32_t k = 0; mask; k++, mask &= mask - 1)
        if (v >> k & 1) out |= mask & -mask;
    return out;
}

uint64_t mem_addrmap_compose(const mem_addrmap *m, const mem_addr_loc *loc)
{
    uint64_t a = scatter(loc->bank, m->mask[MEM_AF_BANK]) | scatter(loc->row, m->mask[MEM_AF_ROW])
               | scatter(loc->col, m->mask[MEM_AF_COL])
               | scatter(loc->col_byte, m->mask[MEM_AF_BURST]) | loc->unmapped;
    if (m->dramid_pos >= 0) {
        uint32_t pos = (uint32_t)m->dramid_pos;
        uint64_t low = pos ? a & ((1ull << pos) - 1) : 0;
        return (((a >> pos) * m->n_channels + loc->channel) << pos) | low;
    }
    if (m->bits[MEM_AF_CHANNEL] > 0) a |= scatter(loc->channel, m->mask[MEM_AF_CHANNEL]);
    return a;
}

void mem_addrmap_decode(const mem_addrmap *m, uint64_t addr, mem_addr_loc *out)
{
    uint64_t a = addr;
    uint32_t ch = 0;

    if (m->dramid_pos >= 0) {
        /* take the channel digit (base n_channels) out at bit dramid_pos */
        uint32_t pos = (uint32_t)m->dramid_pos;
        uint64_t high = addr >> pos;
        uint64_t low = pos ? addr & ((1ull << pos) - 1) : 0;
        ch = (uint32_t)(high % m->n_channels);
        a = ((high / m->n_channels) << pos) | low;
    } else if (m->bits[MEM_AF_CHANNEL] > 0) {
        ch = (uint32_t)(gather(addr, m->mask[MEM_AF_CHANNEL]) % m->n_channels);
    }
    out->channel = ch;
    out->bank = (uint32_t)gather(a, m->mask[MEM_AF_BANK]);
    out->row = gather(a, m->mask[MEM_AF_ROW]);
    out->col = gather(a, m->mask[MEM_AF_COL]);
    out->col_byte = (uint32_t)gather(a, m->mask[MEM_AF_BURST]);
    out->unmapped = a & ~(m->mask[MEM_AF_CHANNEL] | m->mask[MEM_AF_BANK] | m->mask[MEM_AF_ROW]
                          | m->mask[MEM_AF_COL] | m->mask[MEM_AF_BURST]);
    out->sub = ch * m->n_sub + out->bank % m->n_sub;
}
