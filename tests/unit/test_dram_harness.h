/*
** test_dram_harness.h -- shared by the test_dram_*.c unit tests: a small
** DRAM configuration with distinct timing values, request builders, and a
** driver that ticks a controller cycle by cycle recording when each
** request comes back.
*/
#ifndef WS_TEST_DRAM_HARNESS_H
#define WS_TEST_DRAM_HARNESS_H

#include <stdint.h>
#include <string.h>

#include "gpu/config.h"
#include "mem/dram.h"
#include "policy/policy.h"

/* 16 row bits, 8 banks (3 bits), 64 columns of 32-byte bursts:
   addr = row << 14 | bank << 11 | col << 5 */
#define TD_MAP "RRRRRRRR.RRRRRRRR.BBB.CCCCCC.SSSSS"

static inline uint64_t td_addr(uint32_t bank, uint32_t row, uint32_t col)
{
    return (uint64_t)row << 14 | (uint64_t)bank << 11 | (uint64_t)col << 5;
}

/* One channel, 8 banks, 4-byte bus, burst 8, DDR: one 32-byte column
   command moves its data in 4 cycles.  Timing values all differ so that
   a wrong rule gives a wrong number. */
static inline gpu_config td_cfg(void)
{
    gpu_config c;
    memset(&c, 0, sizeof c);
    c.n_mem = 1;
    c.n_sub_per_mem = 1;
    c.dram_banks = 8;
    c.dram_bank_groups = 1;
    c.dram_queue = 32;
    c.dram_bus_bytes = 4;
    c.dram_burst = 8;
    c.dram_data_rate = 2;
    c.tCL = 11;  c.tRCD = 13; c.tRP = 9;  c.tRAS = 30; c.tRC = 43; c.tRRD = 7;
    c.tCCD = 3;  c.tWTR = 5;  c.tWR = 12; c.tRTW = 9;  c.tCCDL = 0; c.tRTP = 6;
    strcpy(c.dram_addr_map, TD_MAP);
    strcpy(c.dram_scheduler, "frfcfs");
    return c;
}

/* burst time in DRAM cycles */
static inline uint64_t td_bt(const gpu_config *c)
{
    return (c->dram_burst + c->dram_data_rate - 1) / c->dram_data_rate;
}

static inline uint64_t td_max(uint64_t a, uint64_t b) { return a > b ? a : b; }

static inline mem_req td_req(uint64_t addr, int kind, uint32_t bytes, uint32_t id)
{
    mem_req r;
    memset(&r, 0, sizeof r);
    r.addr = addr;
    r.bytes = bytes;
    r.kind = (uint8_t)kind;
    r.id = id;
    r.seq = id;
    r.warp = id;
    r.warp_uid = id;
    return r;
}

#define TD_MAXREQ 4096

/* A controller and the cycle each request id came back (UINT64_MAX: not yet). */
typedef struct td_drv {
    mem_dram *d;
    uint64_t now;
    uint64_t done[TD_MAXREQ];
    uint32_t ndone;
    int      kind[TD_MAXREQ];
} td_drv;

static inline void td_init(td_drv *t, mem_dram *d)
{
    t->d = d;
    t->now = 0;
    t->ndone = 0;
    for (uint32_t i = 0; i < TD_MAXREQ; i++)
        t->done[i] = UINT64_MAX;
}

static inline void td_step(td_drv *t)
{
    mem_req r;
    mem_dram_tick(t->d, t->now);
    while (mem_dram_pop(t->d, t->now, &r)) {
        if (r.id < TD_MAXREQ) {
            t->done[r.id] = t->now;
            t->kind[r.id] = r.kind;
        }
        t->ndone++;
    }
    t->now++;
}

/* Tick every cycle up to (not including) `until`. */
static inline void td_run_to(td_drv *t, uint64_t until)
{
    while (t->now < until)
        td_step(t);
}

static inline void td_push(td_drv *t, uint64_t addr, int kind, uint32_t bytes, uint32_t id)
{
    mem_req r = td_req(addr, kind, bytes, id);
    mem_dram_push(t->d, &r, t->now);
}

/* Tick until nothing is held (at most `limit` more cycles). */
static inline void td_drain(td_drv *t, uint64_t limit)
{
    uint64_t end = t->now + limit;
    while (mem_dram_pending(t->d) > 0 && t->now < end)
        td_step(t);
}

static inline mem_dram *td_new(const gpu_config *c)
{
    mem_warp_info none = { 0 };
    /* the schedulers have no state: none needs init */
    return mem_dram_new(c, 0, ws_find_dram_sched(c->dram_scheduler[0] ? c->dram_scheduler : "frfcfs"),
                        NULL, none);
}

#endif /* WS_TEST_DRAM_HARNESS_H */
