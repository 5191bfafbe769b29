/*
** config.h -- the simulated machine's configuration: one const struct built
** once before cycle 0 and never changed during a run.  The type lives in
** common/ so the layers that read it (core/, mem/) need nothing above
** them; building, checking and dumping it is gpu/config.h's.
**
** Every field is named exactly once, with its default, unit, bounds and
** help, in the parameter table of config.c (the single source of truth for
** `warpsim config show`, config files, --set overrides and the report).
** Presets (presets.c) are sets of key=value pairs over that table.
** GPGPU-Sim option names for the overlapping subset are translated to these
** keys by gpgpusim.c.
*/
#ifndef WS_COMMON_CONFIG_H
#define WS_COMMON_CONFIG_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#define GPU_NAME_MAX 64

/* When an L1 read miss takes a way of its set (`<l1>.allocate`). */
enum {
    GPU_L1_ALLOC_FILL = 0,    /* when the fill returns; victim chosen and reported then */
    GPU_L1_ALLOC_MISS,        /* a way is reserved (its line evicted) when the miss is
                                 sent; every way reserved = reservation fail (CCWS) */
    GPU_L1_ALLOC_STREAMING,   /* as FILL, with at least one MSHR per line (GPGPU-Sim 's') */
    GPU_L1_ALLOC_COUNT
};

/* Which warp an eviction names as the line's owner (`<l1>.owner`). */
enum {
    GPU_L1_OWNER_LAST = 0,    /* the last warp that touched the line */
    GPU_L1_OWNER_ALLOC,       /* the warp whose miss allocated it (CCWS) */
    GPU_L1_OWNER_COUNT
};

/* How a cache turns a line address into a set (`<l1>.set_index`; the
   GPGPU-Sim set-index letter, mem/cache.c has the functions). */
enum {
    GPU_SET_INDEX_LINEAR = 0, /* line number mod sets ('L') */
    GPU_SET_INDEX_FERMI,      /* Fermi's XOR hash of address bits 7-19, 32 or 64 sets ('H') */
    GPU_SET_INDEX_XOR,        /* set bits XOR the tag's low bits ('X') */
    GPU_SET_INDEX_COUNT
};

/* L1-style cache geometry and behaviour.  The L2 shares the type; it
   reads neither `allocate`, `owner` nor `write_evict` (they stay 0). */
typedef struct gpu_cache_config {
    uint32_t sets, ways, line_bytes;
    bool     write_back;      /* false: write-through, no write-allocate (Fermi L1D) */
    bool     enabled;         /* false: every access bypasses (misses) */
    uint32_t mshr_entries;    /* distinct outstanding lines */
    uint32_t mshr_merge;      /* requests merged into one MSHR entry, max */
    uint32_t miss_queue;      /* entries toward the interconnect */
    uint32_t hit_latency;     /* core cycles from access to data */
    uint32_t allocate;        /* GPU_L1_ALLOC_* (L1 caches only) */
    uint32_t owner;           /* GPU_L1_OWNER_* (L1 caches only) */
    bool     write_evict;     /* write-through store hit invalidates (L1 caches only) */
    bool     unbounded;       /* never evicts: a full set doubles the sets (L1 caches only) */
    uint32_t set_index;       /* GPU_SET_INDEX_* (L1 caches only) */
} gpu_cache_config;

/* latency (cycles to result) and initiation interval (cycles between
   issues to one unit) of an operation class */
typedef struct gpu_op_timing {
    uint32_t latency, interval;
} gpu_op_timing;

/* operation classes with their own timing (core/ maps uops to these) */
enum {
    GPU_OPC_INT = 0,   /* integer add/logic/move/compare */
    GPU_OPC_INT_MUL,   /* integer multiply, mad */
    GPU_OPC_INT_DIV,   /* integer divide / remainder */
    GPU_OPC_FP32,      /* f32/f16 add/mul/fma/min/max/cvt */
    GPU_OPC_FP32_DIV,  /* f32 div (non-approx) */
    GPU_OPC_FP64,      /* f64 add/mul/fma */
    GPU_OPC_FP64_DIV,
    GPU_OPC_SFU,       /* rcp, sqrt, rsqrt, sin, cos, lg2, ex2, tanh */
    GPU_OPC_COUNT
};

/* execution unit kinds */
enum { GPU_UNIT_SP = 0, GPU_UNIT_SFU, GPU_UNIT_DP, GPU_UNIT_INT, GPU_UNIT_LDST, GPU_UNIT_COUNT };

/* the energy model's parameters (common/energy.def; gpu/energy.h) */
enum {
#define EN(id, key, unit, part, what) ENERGY_P_##id,
#include "energy.def"
#undef EN
    ENERGY_NPARAM
};
#define ENERGY_NDYN ENERGY_P_LEAK_SM   /* dynamic parameters come first */

typedef struct gpu_config {
    char     preset[GPU_NAME_MAX];      /* name of the preset it started from */

    /* clocks (MHz) */
    double   core_mhz, icnt_mhz, l2_mhz, dram_mhz;

    /* SM array and resources per SM */
    uint32_t n_clusters, cores_per_cluster;   /* n_sm = product */
    uint32_t max_threads_per_sm;
    uint32_t max_ctas_per_sm;
    uint32_t regs_per_sm;                     /* 32-bit registers */
    uint32_t shmem_per_sm;                    /* bytes */
    uint32_t regs_per_thread;                 /* used when PTX gives no .maxnreg
                                                 and ptxas is not consulted; 0 = from PTX register count */
    bool     use_ptxas;                       /* ask `ptxas -v` for register counts when available */

    /* front end */
    uint32_t fetch_width;                     /* warps fetched per cycle */
    uint32_t ibuffer_size;                    /* instructions per warp */
    /* the common fetch framework of the fetch-dram study (fetch.c): one
       instruction per fetch into an issue queue the SM's warps share;
       0 = per-warp instruction buffers (ibuffer_size each) */
    uint32_t fetch_queue;                     /* issue-queue entries */
    uint32_t decode_latency;                  /* cycles from fetch to dispatchable */
    bool     fetch_stall_mem;                 /* no fetch while a device-memory access of
                                                 the warp is fetched and not complete */
    uint32_t branch_resolve;                  /* a warp fetches again this many cycles
                                                 after its branch issues (0: at once) */
    uint32_t l1i_miss_latency;                /* l1i.model: a miss is filled after this
                                                 many cycles; 0 = through the L2 */
    char     fetch_policy[GPU_NAME_MAX];

    /* issue */
    uint32_t n_schedulers;                    /* per SM */
    uint32_t issue_width;                     /* instructions per scheduler per cycle */
    char     warp_scheduler[GPU_NAME_MAX];    /* registry name */
    char     warp_scheduler_params[256];      /* "k=v,k=v" for the policy */
    char     fetch_policy_params[256];        /* "k=v,k=v" for each policy kind */
    char     cta_map[GPU_NAME_MAX];
    char     cta_map_params[256];
    /* HALS launch hints "KERNEL:N,..." (gpu/hint.h): ws_launch_info.hint */
    char     hals_hint[512];
    /* fast-forward (gpu/ffwd.h): which launches the timing model runs */
    char     timing_from[256];
    char     timing_kernels[512];
    uint32_t timing_every;
    /* duplicate-MSHR statistic (HAWS spec 7): window in cycles, 0 = off */
    uint32_t dup_mshr_window;

    /* execution */
    uint32_t units[GPU_UNIT_COUNT];           /* count of each unit kind */
    gpu_op_timing op[GPU_OPC_COUNT];
    /* ALU ops outside GPGPU-Sim's latency classes (logic, move, compare,
       convert, ...): their latency, initiation 1; 0 = the ADD class times them */
    uint32_t op_other_latency;
    /* operand collector (GPGPU-Sim's opndcoll_rfu_t): 0 banks = operands
       are read at issue and a result is readable `latency` after it */
    uint32_t opc_reg_banks;                   /* register-file banks */
    uint32_t opc_units_sp;                    /* collector units of the SP/INT/DP pipes */
    uint32_t opc_units_sfu;                   /* collector units of the SFU pipes */

    /* load/store unit and memories inside the SM */
    uint32_t coalesce_bytes;                  /* segment size for global coalescing */
    bool     coalesce_reduce;                 /* write-through stores move only the 32/64 B
                                                 part of a segment they touch */
    bool     l1d_classify;                    /* the L1D classifies its read hits (stats) */
    uint32_t shmem_banks, shmem_bank_bytes, shmem_latency;
    gpu_cache_config l1d, l1c, l1t;
    gpu_cache_config l1i;                     /* instruction cache, read with l1i_model */
    bool     l1i_model;                       /* false: every fetch hits (perfect I-cache) */
    uint32_t l1d_sat_mshr_slack;              /* "nearly full" margins for the saturation signal */
    uint32_t l1d_sat_missq_slack;
    uint32_t lsu_reexec_queue;                /* re-execution queue entries, 0 = blocking LSU */
    /* the L1D access stream (gpu/l1_trace.c, CCWS spec §2.9) */
    char     l1d_trace[1024];                 /* file to record it to; "" = off */
    bool     l1d_belady;                      /* replay it with LRU and Belady at each kernel's end */

    /* memory below L1 (simple backend until the memory-system stage) */
    uint32_t mem_latency;                     /* core cycles, request to reply */
    uint32_t mem_bytes_per_cycle;             /* bandwidth, bytes per core cycle */
    uint32_t mem_queue;                       /* requests the backend can hold */
    uint32_t n_mem;                           /* memory channels (reported; used later) */

    /* memory system below L1 (memory-system stage); memory_model "simple"
       keeps the fixed-latency backend above, "full" uses what follows */
    char     memory_model[GPU_NAME_MAX];
    /* interconnect: crossbar, request and reply networks, icnt clock */
    uint32_t icnt_flit_bytes;                 /* bytes per flit */
    uint32_t icnt_latency;                    /* icnt cycles through the crossbar */
    uint32_t icnt_in_buffer;                  /* flits buffered per input port (credits) */
    uint32_t icnt_out_buffer;                 /* flits buffered per output port */
    /* L2: one slice per memory sub-partition, l2 clock */
    uint32_t n_sub_per_mem;                   /* sub-partitions (L2 slices) per channel */
    gpu_cache_config l2;                      /* per slice; write_back = write-back + allocate */
    uint32_t l2_queue;                        /* requests queued at a slice's input and
                                                 toward DRAM */
    uint32_t l2_interleave_bytes;             /* address interleaving granule across slices */
    uint32_t l2_sector_bytes;                 /* 0: whole lines; else the L2 keeps, misses
                                                 on and fetches sectors of this size */
    /* DRAM: one controller per channel (n_mem), dram clock (command clock) */
    uint32_t dram_banks, dram_bank_groups;    /* per channel */
    uint32_t dram_queue;                      /* requests per controller */
    uint32_t dram_latency;                    /* core cycles added to every DRAM access
                                                 (GPGPU-Sim -dram_latency), 0 = none */
    uint32_t dram_bus_bytes;                  /* data bus width per channel, bytes */
    uint32_t dram_burst;                      /* burst length (beats) */
    uint32_t dram_data_rate;                  /* beats per command clock (2 = DDR) */
    uint32_t tCL, tRCD, tRP, tRAS, tRC, tRRD, tCCD, tWTR, tWR, tRTW, tCCDL, tRTP;
    char     dram_addr_map[128];              /* bit-field string as -gpgpu_mem_addr_mapping */
    char     dram_scheduler[GPU_NAME_MAX];    /* registry name (policy/registry.c) */
    char     dram_scheduler_params[256];
    char     dram_prefetch[GPU_NAME_MAX];     /* memory-side prefetcher, "none" */
    char     dram_prefetch_params[256];
    bool     l2_set_index_local;              /* L2 sets indexed without the slice digits */
    bool     l2_warm_on_copy;                 /* host copies install their lines in the L2
                                                 (-gpgpu_perf_sim_memcpy) */
    /* idealised modes */
    bool     perfect_l2;                      /* every L2 access hits */
    bool     perfect_l1;                      /* every L1D/L1C/L1T access hits (PMEM) */
    bool     dram_cta_rows;                   /* record the CTAs reading each DRAM row */
    bool     unlimited_mem;                   /* unlimited MSHRs and queues at L1, icnt, L2, DRAM */
    bool     dram_bank_hold;                  /* a bank's next access starts when the
                                                 last one's data has crossed the bus */
    uint32_t dram_fixed_latency;              /* > 0: DRAM answers after this many DRAM cycles,
                                                 no banks or timing */
    bool     oracle_profile;                  /* run the functional pre-run (REMINST, ALL, ...) */

    /* run control and statistics */
    uint64_t watchdog_cycles;                 /* no instruction retired for this long = deadlock */
    uint64_t max_cycles;                      /* 0 = unlimited */
    uint64_t progress_limit;                  /* warp insns without a warp finishing or a
                                                 barrier completing = hang; 0 = none */
    uint64_t timeseries_interval;             /* 0 = off */
    bool     skip_idle_cycles;
    uint32_t threads;                         /* host threads ticking the SMs (gpu/par.c) */

    /* energy model (gpu/energy.c): the technology table the values come
       from, and each value overriding it (-1 = the table's) */
    char     energy_tech[GPU_NAME_MAX];
    double   energy[ENERGY_NPARAM];

    /* Not a parameter (not set by keys, not dumped): the policy registry
       names are resolved in, with any loaded plug-ins; set by whoever owns
       the configuration (the API context). NULL = the built-in policies. */
    const struct ws_registry *registry;
} gpu_config;

static inline uint32_t gpu_config_n_sm(const gpu_config *c) { return c->n_clusters * c->cores_per_cluster; }
static inline uint32_t gpu_config_max_warps(const gpu_config *c) { return c->max_threads_per_sm / 32; }

#endif /* WS_COMMON_CONFIG_H */
