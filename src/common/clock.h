/*
** clock.h -- clock domains of the GPU (core, interconnect, L2, DRAM).
** The model advances in core cycles; this helper says, for each core
** cycle (or a run of skipped ones), how many edges every other domain
** has had, so units on other clocks can be ticked the right number of
** times when they arrive (the memory-system stage).
*/
#ifndef WS_GPU_CLOCK_H
#define WS_GPU_CLOCK_H

#include <stdint.h>

enum { GPU_CLK_CORE = 0, GPU_CLK_ICNT, GPU_CLK_L2, GPU_CLK_DRAM, GPU_CLK_COUNT };

typedef struct gpu_clocks {
    double   mhz[GPU_CLK_COUNT];
    uint64_t cycles[GPU_CLK_COUNT];   /* edges so far in each domain */
} gpu_clocks;

/* A zero or negative frequency runs that domain on the core clock. */
void gpu_clocks_init(gpu_clocks *c, double core, double icnt, double l2, double dram);
/* Advance by `n` core cycles; `ticks[d]` gets the edges domain d had in
   that span (ticks may be NULL).  Exact over any split of the span. */
void gpu_clocks_advance(gpu_clocks *c, uint64_t n, uint64_t ticks[GPU_CLK_COUNT]);
/* The edges domain `d` will have in the next core cycle (nothing moves). */
uint64_t gpu_clocks_next(const gpu_clocks *c, int d);

#endif /* WS_GPU_CLOCK_H */
