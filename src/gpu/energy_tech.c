/*
** energy_tech.c -- the energy model's technology tables (data only): per
** parameter of common/energy.def a value and where it comes from.  "[I]"
** marks our interpretation: a value chosen by us at the magnitude the
** cited work gives, not read from it.  The values were fixed before any
** run was looked at (docs/energy.md) and are not fitted to any result.
*/
#include "energy.h"
#include <string.h>

/* Sources, abbreviated in the entries:
   [K11]  S. W. Keckler, W. J. Dally, B. Khailany, M. Garland, D. Glasco,
          "GPUs and the future of parallel computing", IEEE Micro 31(5),
          2011: 40 nm energies (64-bit read of an 8 KB SRAM ~14 pJ, 64-bit
          DFMA ~50 pJ, on-chip wires ~0.1-0.2 pJ/bit/mm).
   [GW13] J. Leng et al., "GPUWattch", ISCA 2013: GTX480 (40 nm) modelled
          with McPAT; static power a large share of the total.
   [AW21] V. Kandiah et al., "AccelWattch", MICRO 2021.
   [M15]  Mascar (Sethia et al., HPCA 2015) §IV: a re-execution queue
          access costs 3 % of an L1 access (CACTI 5.3).
   [GD5]  GDDR5 figures: ~14 pJ/bit at the interface for a whole access
          (O'Connor et al., "Fine-grained DRAM", MICRO 2017), 1 Gb x32
          chips (Hynix H5GQ1H24AFR class, two per 64-bit channel).
   None of these documents was at hand when the table was written: every
   value below is [I] except the ratio taken from [M15]. */
static const energy_tech techs[] = {
    { "40nm", "GTX480-class Fermi (40 nm, 700 MHz core, GDDR5), the gtx480 preset",
      .v = {
          [ENERGY_P_FETCH] = 60, [ENERGY_P_ISSUE] = 40,
          [ENERGY_P_RF_READ] = 7, [ENERGY_P_RF_WRITE] = 8,
          [ENERGY_P_SP] = 15, [ENERGY_P_SFU] = 40, [ENERGY_P_DP] = 50,
          [ENERGY_P_INT] = 5, [ENERGY_P_LDST] = 5, [ENERGY_P_CTRL] = 2,
          [ENERGY_P_SMEM] = 220, [ENERGY_P_L1D] = 250, [ENERGY_P_L1C] = 120,
          [ENERGY_P_L1T] = 250, [ENERGY_P_REEXEC] = 7.5, [ENERGY_P_ICNT] = 10,
          [ENERGY_P_L2] = 500, [ENERGY_P_DRAM_ACT] = 3000, [ENERGY_P_DRAM_PRE] = 1000,
          [ENERGY_P_DRAM_RD] = 60, [ENERGY_P_DRAM_WR] = 65,
          [ENERGY_P_LEAK_SM] = 2.0, [ENERGY_P_LEAK_L2] = 0.25, [ENERGY_P_LEAK_ICNT] = 1.5,
          [ENERGY_P_DRAM_BG] = 1.5, [ENERGY_P_LEAK_OTHER] = 10,
      },
      .src = {
          [ENERGY_P_FETCH] = "[I] an 8 B read of a small I-cache plus decode, [K11] SRAM scale",
          [ENERGY_P_ISSUE] = "[I] scheduler, scoreboard and i-buffer read, below a fetch",
          [ENERGY_P_RF_READ] = "[I] half of [K11]'s 14 pJ per 64-bit 8 KB SRAM read, per 32-bit lane",
          [ENERGY_P_RF_WRITE] = "[I] a read's energy plus the write driver",
          [ENERGY_P_SP] = "[I] about a third of [K11]'s 50 pJ DFMA for an FP32 FMA",
          [ENERGY_P_SFU] = "[I] a transcendental's table read and polynomial, ~3 FP32 ops",
          [ENERGY_P_DP] = "[I] [K11]'s 64-bit DFMA at 40 nm",
          [ENERGY_P_INT] = "[I] an integer add/logic op, a third of an FP32 FMA",
          [ENERGY_P_LDST] = "[I] address add and coalescer compare per lane",
          [ENERGY_P_CTRL] = "[I] SIMT stack and predicate handling per lane",
          [ENERGY_P_SMEM] = "[I] 32 banks x 32 bit = 16 x [K11]'s 14 pJ 64-bit SRAM read",
          [ENERGY_P_L1D] = "[I] a 128 B line (16 x [K11]'s 14 pJ) plus a 4-way tag read",
          [ENERGY_P_L1C] = "[I] a 64 B line of a small array, half an L1D access",
          [ENERGY_P_L1T] = "[I] as an L1D access (128 B line)",
          [ENERGY_P_REEXEC] = "[M15] 3 % of an L1 access (CACTI 5.3); of our L1D value",
          [ENERGY_P_ICNT] = "[I] ~1.2 pJ/bit: ~10 mm of 40 nm wire at [K11]'s per-mm energy, plus switch",
          [ENERGY_P_L2] = "[I] a 128 B line of a larger (64 KB) slice, twice an L1D access",
          [ENERGY_P_DRAM_ACT] = "[I] row activate of two GDDR5 chips, [GD5] magnitude",
          [ENERGY_P_DRAM_PRE] = "[I] a third of an activate",
          [ENERGY_P_DRAM_RD] = "[I] 7.5 pJ/bit column + I/O: [GD5]'s ~14 pJ/bit less activation and background",
          [ENERGY_P_DRAM_WR] = "[I] a read's plus write termination",
          [ENERGY_P_LEAK_SM] = "[I] 15 SMs = 30 W: [GW13] finds 40 nm static power a large share",
          [ENERGY_P_LEAK_L2] = "[I] 12 slices of 64 KB = 3 W",
          [ENERGY_P_LEAK_ICNT] = "[I] the crossbar's buffers and wires",
          [ENERGY_P_DRAM_BG] = "[I] standby of two 1 Gb GDDR5 chips and the channel's PHY, [GD5] class",
          [ENERGY_P_LEAK_OTHER] = "[I] memory controllers, PHYs, clock tree, PCIe: chip static ~54 W, ~21 % of the 250 W TDP",
      } },
};

static const char *const tech_names[] = { "40nm", NULL };

const energy_tech *energy_tech_find(const char *name)
{
    for (size_t i = 0; i < sizeof techs / sizeof techs[0]; i++)
        if (strcmp(techs[i].name, name) == 0) return &techs[i];
    return NULL;
}

const char *const *energy_tech_names(void) { return tech_names; }
