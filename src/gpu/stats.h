/*
** stats.h -- what the timing model counts, per kernel launch.
**
** Units fill these counters as they work (no unit prints anything);
** report.c turns them into the text and JSON reports.  Names follow
** GPGPU-Sim where the meaning is the same (gpu_sim_cycle, gpu_sim_insn =
** thread instructions, gpu_ipc).  Sums "per cycle" (occupancy, active
** warps) are divided by cycles when reported.
*/
#ifndef WS_GPU_STATS_H
#define WS_GPU_STATS_H

#include <stdint.h>

/* Why a scheduler's issue slot went unused, or that it issued. One of
   these is counted per scheduler per cycle. */
enum {
    GPU_SLOT_ISSUED = 0,  /* at least one instruction issued */
    GPU_SLOT_IDLE,        /* no live warp, or all warps' buffers empty */
    GPU_SLOT_SCOREBOARD,  /* best candidate waited on a register */
    GPU_SLOT_UNIT_BUSY,   /* best candidate's execution unit was busy */
    GPU_SLOT_MEM_VETO,    /* the policy vetoed every ready memory op */
    GPU_SLOT_BARRIER,     /* warps waited at barriers */
    GPU_SLOT_COUNT
};
extern const char *const gpu_slot_names[GPU_SLOT_COUNT];

typedef struct gpu_cache_stats {
    uint64_t accesses, hits, misses;
    uint64_t merges;            /* miss merged into an outstanding MSHR */
    uint64_t reservation_fails; /* no MSHR / merge slot / miss-queue slot */
    uint64_t evictions, writebacks;
    uint64_t mshr_occupancy_sum;/* sum over cycles of MSHRs in use */
} gpu_cache_stats;

/* one sample of the optional time series */
typedef struct gpu_sample {
    uint64_t cycle;
    uint64_t warp_insns, thread_insns;   /* cumulative */
    uint32_t active_warps;               /* at that cycle, all SMs */
    uint64_t l1d_misses;                 /* cumulative */
    uint64_t lsu_stall_cycles;           /* cumulative */
} gpu_sample;

typedef struct gpu_kernel_stats {
    char     name[256];
    uint32_t grid[3], block[3];
    uint32_t regs_per_thread;
    const char *regs_source;      /* "ptxas", ".maxnreg", "config", "ptx" */
    uint32_t shmem_per_cta;
    uint32_t ctas_per_sm;         /* occupancy limit */
    const char *occupancy_limiter;/* "threads", "warps", "ctas", "registers", "shared memory" */

    uint64_t start_cycle;         /* GPU cycle at launch */
    uint64_t cycles;              /* gpu_sim_cycle (core clock) */
    uint64_t warp_insns;
    uint64_t thread_insns;        /* gpu_sim_insn */
    uint64_t mem_insns, bar_insns;

    uint64_t slots[GPU_SLOT_COUNT];  /* summed over all schedulers */
    uint64_t lsu_stall_cycles;       /* LSU could not accept/proceed (back-pressure) */
    uint64_t shmem_accesses, shmem_conflict_cycles;
    uint64_t gmem_transactions;      /* global/local transactions after coalescing */
    gpu_cache_stats l1d, l1c, l1t;
    uint64_t mem_requests, mem_reply_bytes, mem_queue_full_cycles;
    uint64_t active_warps_sum;       /* sum over cycles of live warps, all SMs */
    uint64_t skipped_cycles;         /* cycles jumped over (nothing could change) */

    uint32_t nsamples;
    gpu_sample *samples;             /* owned; time series when enabled */
} gpu_kernel_stats;

#endif /* WS_GPU_STATS_H */
