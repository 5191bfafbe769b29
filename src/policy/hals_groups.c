/*
** hals_groups.c -- the group keys of HALS's warp scheduler (hals_groups.h;
** specs/haws.md 3.2.4).  Pure functions.
*/
#include "policy/hals_groups.h"

uint64_t hals_group_key(uint32_t hint, const uint32_t grid[3], uint32_t wpc,
                        uint32_t cta_id, uint32_t warp_in_cta, uint64_t arrival,
                        uint32_t ngroups)
{
    uint64_t gx = grid[0] ? grid[0] : 1, gy = grid[1] ? grid[1] : 1;
    uint64_t x = cta_id % gx, y = cta_id / gx % gy, z = cta_id / (gx * gy);
    uint64_t w = wpc ? wpc : 1;
    switch (hint) {
    case 1:
        return (z * gy + y) * w + warp_in_cta;
    case 2: {
        uint64_t g = y * w + warp_in_cta;
        /* (g+1)/w runs 0..gy: gy+1 values per column */
        return (z * gx + x) * (gy + 1) + (g + 1) / w;
    }
    case 3:
        return arrival % (ngroups ? ngroups : 1);
    default:
        return 0;
    }
}

uint32_t hals_ngroups(uint32_t resident, uint32_t g_size)
{
    if (g_size == 0) g_size = 1;
    uint32_t n = (resident + g_size - 1) / g_size;
    return n ? n : 1;
}
