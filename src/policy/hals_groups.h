/*
** hals_groups.h -- the warp groups of HALS's two-level warp scheduler
** (thesis 2020 Sec. 6.3, Fig. 6.9; specs/haws.md 3.2.4 and 8 D) as pure
** functions, so the unit tests can check which warps share a group
** without a model.  Used by warp_hals.c; policy files only.
*/
#ifndef WS_POLICY_HALS_GROUPS_H
#define WS_POLICY_HALS_GROUPS_H

#include <stdint.h>

/* The group key of warp `warp_in_cta` of CTA `cta_id` (linear, x fastest)
   in grid `grid` with `wpc` warps per CTA; warps with equal keys form one
   group.  Hint 1: (blockIdx.z, blockIdx.y, warp_in_block), the same warp
   of the blocks of one row, which read the same rows of A.  Hint 2: with
   g = blockIdx.y*wpc + warp_in_block, (blockIdx.z, blockIdx.x,
   floor((g+1)/wpc)): one block's worth of warps shifted by one, so a
   block's last warp joins warp 0 of the block below (boundary lines).
   Hint 3: `arrival` (the warp's arrival index on the SM) mod `ngroups`.
   Hint 0 (no groups): 0. */
uint64_t hals_group_key(uint32_t hint, const uint32_t grid[3], uint32_t wpc,
                        uint32_t cta_id, uint32_t warp_in_cta, uint64_t arrival,
                        uint32_t ngroups);

/* Hint 3's group count NG = ceil(resident / g_size), at least 1. */
uint32_t hals_ngroups(uint32_t resident, uint32_t g_size);

#endif /* WS_POLICY_HALS_GROUPS_H */
