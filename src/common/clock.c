/*
** clock.c -- clock-domain bookkeeping.  Domain d has had
** floor(core_cycles * f_d / f_core) edges after `core_cycles` core edges;
** computing it from the running core count (not by adding fractions)
** keeps the result exact and identical whatever the cycle skipping does.
*/
#include "clock.h"
#include <string.h>

void gpu_clocks_init(gpu_clocks *c, double core, double icnt, double l2, double dram)
{
    memset(c, 0, sizeof *c);
    c->mhz[GPU_CLK_CORE] = core > 0 ? core : 1.0;
    double f[GPU_CLK_COUNT] = { core, icnt, l2, dram };
    for (int d = 1; d < GPU_CLK_COUNT; d++) c->mhz[d] = f[d] > 0 ? f[d] : c->mhz[GPU_CLK_CORE];
}

/* Edges of domain d after `core` core edges. */
static uint64_t clk_edges(const gpu_clocks *c, int d, uint64_t core)
{
    return (uint64_t)((double)core * c->mhz[d] / c->mhz[GPU_CLK_CORE]);
}

void gpu_clocks_advance(gpu_clocks *c, uint64_t n, uint64_t ticks[GPU_CLK_COUNT])
{
    uint64_t core = c->cycles[GPU_CLK_CORE] + n;
    c->cycles[GPU_CLK_CORE] = core;
    if (ticks) ticks[GPU_CLK_CORE] = n;
    for (int d = 1; d < GPU_CLK_COUNT; d++) {
        uint64_t total = clk_edges(c, d, core);
        if (ticks) ticks[d] = total - c->cycles[d];
        c->cycles[d] = total;
    }
}

uint64_t gpu_clocks_next(const gpu_clocks *c, int d)
{
    return clk_edges(c, d, c->cycles[GPU_CLK_CORE] + 1) - c->cycles[d];
}
