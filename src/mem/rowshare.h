/*
** rowshare.h -- which CTAs' requests reached each DRAM row: OWL's
** consecutive-CTA row sharing and CTAs per row (specs/owl.md §5.3 Table 4,
** §6).  Opt-in (`dram_cta_rows`): the memory system records every demand
** read it hands to a DRAM controller, so a run without it pays nothing.
**
**   row score = |{c in S : c-1 in S or c+1 in S}| / |S|   (S: the row's CTAs)
**   sharing   = mean score over rows;  CTAs/row = mean |S| over rows
*/
#ifndef WS_MEM_ROWSHARE_H
#define WS_MEM_ROWSHARE_H

#include <stdint.h>

typedef struct mem_rowshare mem_rowshare;

typedef struct mem_rowshare_sum {
    uint64_t rows;           /* rows reached by at least one recorded read */
    uint64_t ctas_sum;       /* sum over rows of |S| */
    uint64_t score_ppm_sum;  /* sum over rows of the score in millionths (rounded down) */
    uint64_t lost;           /* reads not recorded: out of host memory */
} mem_rowshare_sum;

mem_rowshare *mem_rowshare_new(void);            /* NULL: out of memory */
void mem_rowshare_free(mem_rowshare *t);
void mem_rowshare_clear(mem_rowshare *t);        /* a new kernel: no rows */
/* CTA `cta` (linear id in the grid) read from row `row_key` (channel,
   bank and row folded into one number by the caller). */
void mem_rowshare_add(mem_rowshare *t, uint64_t row_key, uint32_t cta);
void mem_rowshare_summary(const mem_rowshare *t, mem_rowshare_sum *out);

#endif /* WS_MEM_ROWSHARE_H */
