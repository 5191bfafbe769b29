/*
** stats.h -- what the timing model counts, per kernel launch.
**
** Units fill these counters as they work (no unit prints anything);
** report.c turns them into the text and JSON reports.  Names follow
** GPGPU-Sim where the meaning is the same (gpu_sim_cycle, gpu_sim_insn =
** thread instructions as GPGPU-Sim counts them, gpu_ipc).  Sums "per cycle" (occupancy, active
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
    uint64_t mshr_allocs;       /* L1: misses that took a new MSHR */
    uint64_t merges_inter;      /* of them (L2), into one another SM's request
                                   opened: the fetch-dram study's inter-core merges */
    uint64_t reservation_fails; /* no MSHR / merge slot / miss-queue slot / way */
    uint64_t reservation_fails_set; /* of those: every way of the set reserved by an
                                   outstanding miss (L1 allocate = miss; GPGPU-Sim's
                                   LINE_ALLOC_FAIL) */
    uint64_t evictions, writebacks;
    uint64_t mshr_occupancy_sum;/* sum over cycles of MSHRs in use */
    /* l1d_classify (L1D only): read accesses by what they found (CCWS
       spec Sec. 6): a hit on a line the requesting warp owns with a lane
       that touched it before (intra-thread) or with other lanes only
       (inter-thread, intra-warp), a hit on another warp's line
       (inter-warp), a miss (new MSHR or merge) */
    uint64_t cls_intra_thread, cls_inter_thread, cls_inter_warp, cls_miss;
} gpu_cache_stats;

/* the warp scheduler's own counters a kernel reports (core/sm.c checks
   they equal the ABI's limits) */
#define GPU_POLICY_COUNTERS 8        /* = WS_MAX_COUNTERS */
#define GPU_POLICY_COUNTER_NAME 32   /* = WS_COUNTER_NAME */

/* one sample of the optional time series */
typedef struct gpu_sample {
    uint64_t cycle;
    uint64_t warp_insns, thread_insns;   /* cumulative */
    uint32_t active_warps;               /* at that cycle, all SMs */
    uint64_t l1d_misses;                 /* cumulative */
    uint64_t lsu_stall_cycles;           /* cumulative */
    uint64_t l1d_accesses;               /* cumulative (miss rate per interval) */
    /* the warp scheduler's own counters, cumulative, summed over SMs
       (names and count: the kernel's npolicy_counters; zero without) */
    uint64_t policy[GPU_POLICY_COUNTERS];
} gpu_sample;

/* why a warp could not fetch (fetch_queue's warp-cycle counts) */
enum { GPU_FSTALL_BARRIER = 0, GPU_FSTALL_MEM, GPU_FSTALL_BRANCH, GPU_FSTALL_IMISS,
       GPU_FSTALL_COUNT };

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
    uint64_t thread_insns;        /* lanes whose guard held, over every warp instruction */
    /* GPGPU-Sim's gpu_sim_insn is thread_insns + vec_hit_insns: it counts a
       load that completes on L1D hits once per destination register, so a
       vector load of n registers adds (n - 1) x its lanes (the README of
       the correlation data set; only such loads differ) */
    uint64_t vec_hit_insns;
    uint64_t mem_insns, bar_insns;

    uint64_t slots[GPU_SLOT_COUNT];  /* summed over all schedulers */
    uint64_t lsu_stall_cycles;       /* LSU could not accept/proceed (back-pressure) */
    /* the LSU re-execution queue and L1 admission (lsu.reexec_queue, l1_admit) */
    uint64_t reexec_parked;          /* requests parked in the queue */
    uint64_t reexec_retries;         /* retries of parked requests that failed again */
    uint64_t reexec_full_cycles;     /* queue full: the LSU served only the queue */
    uint64_t l1_nacks;               /* misses the policy refused (l1_admit) */
    /* HALS statistics (HAWS spec 7; dup_mshr_window > 0): L1D MSHR
       allocations seen by the GPU-wide record, and of them duplicates (the
       line had an MSHR from another SM within the window) */
    uint64_t dup_mshr_allocs, dup_mshr_dups;
    uint64_t shmem_accesses, shmem_conflict_cycles;
    /* events only the energy model (gpu/energy.c) reads: warp
       instructions fetched into a buffer, register-file accesses of one
       lane (source / destination register operands x lanes executed), and
       lanes executed per pipe kind (GPU_UNIT_*, then branches/barriers) */
#define GPU_STATS_PIPES 6            /* = GPU_UNIT_COUNT + 1 */
    uint64_t fetched_insns;
    uint64_t rf_reads, rf_writes;
    uint64_t pipe_lanes[GPU_STATS_PIPES];
    uint64_t gmem_transactions;      /* global/local transactions after coalescing */
    gpu_cache_stats l1d, l1c, l1t;
    /* l1d_belady: the kernel's L1D access stream replayed with instant
       fills (gpu/l1_replay.c); loads and stores, as l1d.accesses */
    uint64_t l1d_replay_accesses;
    uint64_t l1d_lru_hits, l1d_lru_misses, l1d_belady_hits, l1d_belady_misses;
    gpu_cache_stats l1i;             /* instruction cache (l1i.model; zero without) */
    uint64_t mem_requests, mem_reply_bytes, mem_queue_full_cycles;
    uint64_t active_warps_sum;       /* sum over cycles of live warps, all SMs */
    /* SM activity (OWL spec §6), summed over SMs; SM-cycles = cycles x SMs:
       active cycles, in which an instruction issued or an ALU pipe is still
       within an issued instruction's initiation interval (CINV = 1 - this /
       SM-cycles), cycles with at least one live warp (NoWarpCycles =
       SM-cycles - this), and MemoryBlockCycles: cycles with live warps,
       none issuing, each waiting on a load with an L1 miss outstanding */
    uint64_t sm_active_cycles, sm_warp_cycles, mem_block_cycles;
    /* Mascar §7 (Fig. 5): SM-cycles with no issue and a stalled LSU while
       a warp waiting for the LSU has a global load next with a line in
       the L1D (core/hum.c) */
    uint64_t missed_hum_cycles;
    uint64_t skipped_cycles;         /* cycles jumped over (nothing could change) */
    /* the fetch-dram study's statistics (spec §6), summed over SMs.
       Fetch: SM-cycles with a fetch, with none because the issue queue was
       full (fetch_queue), with none because no warp could fetch; warp-cycles
       a live warp could not fetch while the queue had room, by reason
       (GPU_FSTALL_*; fetch_queue only); issue-queue entries summed over SM-cycles (fetch_queue only) */
    uint64_t fetch_cycles, fetch_queue_full_cycles, fetch_none_cycles;
    uint64_t fetch_warp_stalls[GPU_FSTALL_COUNT];
    uint64_t iq_occupancy_sum;
    /* barrier wait: cycles from a warp's arrival at a barrier to its
       release, summed over warps and barriers, and the arrivals */
    uint64_t barrier_wait_cycles, barrier_arrivals;
    uint64_t warps_run;              /* totals only: warps of the launches summed */
    /* device-memory (global, local) instructions: cycles from issue to
       the return of the last transaction (loads) or acknowledgement
       (stores, with fetch_stall_mem), summed, and their count */
    uint64_t devmem_lat_sum, devmem_lat_count;

    /* the alternate issue stream (core/altissue.c; HAWS, specs/haws.md
       §7): episodes entered; instructions issued in them (ALU,
       long-latency loads of those); COPY micro-ops and instructions passed
       back in order; uops the emulator refused (the chain named one it may
       not run ahead: 0 for a correct chain); the most one episode issued;
       episodes ended by the stalled load's return; order errors (an
       instruction issued in order while its pc waits in the RCU, or a warp
       leaving with a non-empty RCU: 0 by design).  Always counted: ALU
       instructions and long-latency loads issued in program order, and
       scheduler-cycles in which no warp issued and every live warp waited
       on a long-latency load (the thesis's Long Latency Stall). */
    struct gpu_alt_stats {
        uint64_t switches, issued, issued_alu, issued_ll, copies, skips, refused;
        uint64_t max_episode, ended_load_back, order_errors;
        uint64_t alu_insns, ll_insns, ll_stall_slots;
    } alt;

    /* the warp scheduler's own counters (its ops->counters, read at the
       kernel's end on every SM and summed), reported as "policy" */
    uint32_t npolicy_counters;
    char     policy_counter_names[GPU_POLICY_COUNTERS][GPU_POLICY_COUNTER_NAME];
    uint64_t policy_counters[GPU_POLICY_COUNTERS];

    uint32_t nsamples;
    gpu_sample *samples;             /* owned; time series when enabled */

    /* ---- the memory system below L1 (memory_model "full";
       all zero with the simple backend) ---- */
    struct gpu_mem_stats {
        /* clock edges of each domain during the kernel */
        uint64_t icnt_cycles, l2_cycles, dram_cycles;

        /* L2 slices, summed; mshr_occupancy_sum is over L2 cycles */
        gpu_cache_stats l2;
        uint64_t l2_input_full_cycles;  /* L2 cycles x slices whose input queue was full:
                                           the slice refuses the interconnect */
        uint64_t l2_dram_stall_cycles;  /* L2 cycles x slices whose request toward DRAM
                                           waited: the controller's queue was full */
        uint64_t l2_reply_stall_cycles; /* L2 cycles x slices whose reply waited: the
                                           reply network's input buffer was full */

        /* interconnect: req = SMs -> L2 slices, rep = L2 slices -> SMs */
        uint64_t icnt_req_packets, icnt_req_flits, icnt_rep_packets, icnt_rep_flits;
        uint64_t icnt_req_inject_stalls;/* core cycles x L1 queues whose send was refused
                                           (input buffer full): back-pressure on the L1 */
        uint64_t icnt_req_credit_stalls;/* icnt cycles x inputs whose head packet could
                                           not move: no credits at its output */
        uint64_t icnt_req_eject_stalls; /* icnt cycles x outputs holding an arrived packet
                                           the L2 slice refused */
        uint64_t icnt_rep_credit_stalls, icnt_rep_eject_stalls;

        /* round trip of reads and atomics, L1 send (mem_req.sent) to fill
           at the SM, core cycles; rt_hist[b] counts latencies in
           [2^b, 2^(b+1)) (bucket 0 also holds 0; the last bucket is open) */
#define GPU_RT_BUCKETS 20
        /* MLP (fetch-dram spec §6): at each request the SMs hand to the
           memory system, the requests in flight from all SMs, itself
           included, summed, and the requests */
        uint64_t mlp_sum, mlp_count;
        uint64_t rt_count, rt_sum, rt_max;
        uint64_t rt_hist[GPU_RT_BUCKETS];

        /* DRAM controllers, summed (mem_dram_stats; see mem/dram.h):
           bandwidth utilisation = dram_bus_busy_cycles / (dram_cycles x
           n_channels), bank-level parallelism = dram_bank_busy_sum /
           dram_any_bank_busy_cycles, row-buffer hit rate = row_hits /
           (row_hits + row_misses + row_conflicts) */
        uint64_t dram_reads, dram_writes, dram_bytes;
        uint64_t dram_rd_bytes;         /* of dram_bytes, those of reads */
        uint64_t dram_row_hits, dram_row_misses, dram_row_conflicts;
        uint64_t dram_activates, dram_precharges, dram_col_cmds;
        uint64_t dram_bank_busy_sum, dram_any_bank_busy_cycles, dram_bus_busy_cycles;
        uint64_t dram_queue_lat_sum, dram_queue_lat_count, dram_service_lat_sum;
        /* memory-side prefetching (dram_prefetch): reads issued, lines
           installed in L2, demand misses merged into them in flight,
           demand hits on prefetched lines (each line once) */
        uint64_t dram_prefetch_reads, l2_prefetch_fills, l2_prefetch_merges, l2_prefetch_hits;
        uint64_t dram_max_queue;        /* sum over channels of the most requests queued
                                           at once since the GPU was built (not per kernel) */

        /* per channel (the first GPU_STATS_CHANNELS; none recorded when the
           machine has more): column accesses and row hits (row-buffer
           locality), banks busy summed over DRAM cycles and cycles with
           any bank busy (bank-level parallelism), as the sums above */
#define GPU_STATS_CHANNELS 64
        uint64_t ch_col_accesses[GPU_STATS_CHANNELS], ch_row_hits[GPU_STATS_CHANNELS];
        uint64_t ch_bank_busy_sum[GPU_STATS_CHANNELS], ch_any_bank_busy[GPU_STATS_CHANNELS];

        /* dram_cta_rows (mem/rowshare.h): DRAM rows the kernel's demand
           reads reached, the sum over them of distinct CTAs, of the
           consecutive-CTA score in millionths, and reads not recorded */
        uint64_t cta_rows, cta_row_ctas_sum, cta_row_score_ppm_sum, cta_row_lost;

        /* machine constants, for the report's ratios */
        uint64_t n_channels, n_slices;
        uint64_t dram_peak_bytes_per_cycle;   /* per channel, per DRAM cycle */
    } mem;
} gpu_kernel_stats;

typedef struct gpu_mem_stats gpu_mem_stats;

#endif /* WS_GPU_STATS_H */
