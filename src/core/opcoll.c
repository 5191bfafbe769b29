/*
** opcoll.c -- the operand collector between issue and the ALU pipes, as
** GPGPU-Sim models it (opndcoll_rfu_t), behind opcoll.reg_banks (0: off,
** operands are read at issue and a result is readable `latency` cycles
** after it).
**
** GPGPU-Sim's SM cycle runs its stages back to front (writeback, execute,
** read operands, issue), so an instruction moves one stage a cycle:
**   t        issue into the ID_OC register
**   t+1      a collector unit of its pipe kind takes it and queues one
**            read per distinct source register in that register's bank
**   t+2 ...  reads: each bank serves one read a cycle, in arrival order;
**            each unit receives one operand a cycle
**   d        dispatch (the cycle after its last read; t+2 with none)
**   d+1      into the pipe; its result leaves the pipe `latency` cycles
**            later and is written back (scoreboard released) the cycle after
** so the result is readable at d + latency + 3 (t + latency + 5 + reads
** when no read waits).  Reads are reserved at issue: a bank's next free
** cycle is its FIFO.  A collector unit is busy from t+1 to d; none free
** at t+1 stalls the issue (GPGPU-Sim's ID_OC register stays full).
** Bank writes of the writeback are not modelled (see the ARCHITECTURE row).
*/
#include "core_int.h"
#include <stdlib.h>

/* the collector-unit pool of an ALU pipe kind: SFU or the rest */
static uint32_t opc_pool(const core_uinfo *ui) { return ui->unit == GPU_UNIT_SFU ? 1 : 0; }

int core_opc_init(core_sm *sm)
{
    const gpu_config *cfg = sm->cfg;
    sm->opc_banks = cfg->opc_reg_banks;
    if (!sm->opc_banks) return 0;
    sm->opc_bank_free = calloc(sm->opc_banks, sizeof *sm->opc_bank_free);
    sm->opc_nunits[0] = cfg->opc_units_sp;
    sm->opc_nunits[1] = cfg->opc_units_sfu;
    for (int p = 0; p < 2; p++) {
        sm->opc_unit_free[p] = calloc(sm->opc_nunits[p] ? sm->opc_nunits[p] : 1,
                                      sizeof **sm->opc_unit_free);
        if (!sm->opc_unit_free[p]) return -1;
    }
    return sm->opc_bank_free ? 0 : -1;
}

void core_opc_free(core_sm *sm)
{
    free(sm->opc_bank_free);
    for (int p = 0; p < 2; p++) free(sm->opc_unit_free[p]);
}

void core_opc_reset(core_sm *sm)
{
    if (!sm->opc_banks) return;
    for (uint32_t b = 0; b < sm->opc_banks; b++) sm->opc_bank_free[b] = 0;
    for (int p = 0; p < 2; p++)
        for (uint32_t i = 0; i < sm->opc_nunits[p]; i++) sm->opc_unit_free[p][i] = 0;
}

/* A collector unit of `ui`'s pool free at `cycle` + 1, or -1 (and *wake:
   the issue cycle at which one is).  Unlimited pools always have one. */
static int opc_unit(const core_sm *sm, const core_uinfo *ui, uint64_t cycle, uint64_t *wake)
{
    uint32_t p = opc_pool(ui);
    uint64_t soonest = CORE_NEVER;
    if (!sm->opc_nunits[p]) return 0;
    for (uint32_t i = 0; i < sm->opc_nunits[p]; i++) {
        uint64_t f = sm->opc_unit_free[p][i];
        if (f <= cycle + 1) return (int)i;
        if (f < soonest) soonest = f;
    }
    if (wake && soonest - 1 < *wake) *wake = soonest - 1;
    return -1;
}

bool core_opc_can_issue(const core_sm *sm, const core_uinfo *ui, uint64_t cycle, uint64_t *wake)
{
    if (!sm->opc_banks || ui->kind != CORE_K_ALU) return true;
    return opc_unit(sm, ui, cycle, wake) >= 0;
}

uint64_t core_opc_issue(core_sm *sm, const core_warp *w, const core_uinfo *ui, uint64_t cycle)
{
    if (!sm->opc_banks || ui->kind != CORE_K_ALU) return cycle + ui->latency;
    int u = opc_unit(sm, ui, cycle, NULL);
    uint64_t next = cycle + 2;          /* first read: the cycle after allocation */
    for (uint32_t i = 0; i < ui->nsrc; i++) {
        int32_t r = ui->src[i];
        if (r & CORE_PRED_BIT) continue;        /* predicates are not in the banks */
        bool dup = false;
        for (uint32_t k = 0; k < i && !dup; k++) dup = ui->src[k] == r;
        if (dup) continue;                      /* one read per distinct register */
        uint32_t b = (uint32_t)(r + (int32_t)w->slot) % sm->opc_banks;
        uint64_t at = sm->opc_bank_free[b] > next ? sm->opc_bank_free[b] : next;
        sm->opc_bank_free[b] = at + 1;
        next = at + 1;
    }
    uint64_t dispatch = next;
    uint32_t p = opc_pool(ui);
    if (u >= 0 && sm->opc_nunits[p]) sm->opc_unit_free[p][u] = dispatch;
    return dispatch + ui->latency + 3;
}
