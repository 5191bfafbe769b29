/*
** presets.c -- the machines of the papers, as overrides of the parameter
** table's defaults (config.c, which are the gtx480 machine).  Each value
** cites the spec section it comes from (the project's specs/<paper>.md);
** "[I]" marks our interpretation where a spec gives no value.
*/
#include "config_int.h"

/*
** gtx480: Mascar spec §3 (Table I + the GPGPU-Sim 3.2.2 GTX480 defaults
** [G]).  It is exactly the table's defaults; config.c cites each value.
** Interpretations there: instruction buffer 2 and fetch width 1 (GPGPU-Sim
** behaviour); 1 DP and 1 INT unit (GPGPU-Sim runs both on the SP pipes);
** initiation intervals, SFU timing and all hit latencies; the simple memory
** backend's 200-cycle latency (Table I's L2 latency: every L1 miss is an L2
** hit until the memory system exists) and 253 B/cycle (177.4 GB/s / 700 MHz).
** Memory system (full model, config.c cites each value): [G] L2 and DRAM;
** [I] crossbar latency and buffers, and an L2 hit latency that brings the
** unloaded L2-hit round trip to about Table I's 200 core cycles.
** GPGPU-Sim's extra fixed -dram_latency (100) has no counterpart, so an
** unloaded DRAM access is shorter than Table I's 440 cycles [I].
*/
static const char *const gtx480[] = { NULL };

/* fx5800: CCWS spec §3 (GPGPU-Sim 3.1.0 QuadroFX5800-CCWS config). */
static const char *const fx5800[] = {
    "core_mhz=325", "icnt_mhz=650", "l2_mhz=650", "dram_mhz=800", /* §3 clocks */
    "n_clusters=10", "cores_per_cluster=3",                        /* §3: 30 SMs */
    "max_threads_per_sm=1024", "max_ctas_per_sm=8",                /* §3: 32 warps */
    "regs_per_sm=16384", "shmem_per_sm=16384",
    /* §2.0/§3: the scheduler issues 2 instructions per cycle from one warp;
       the model issues at most one instruction per warp per cycle, so
       issue_width=2 takes the second from another warp [I] */
    "n_schedulers=1", "issue_width=2",
    /* §3: the 8-wide SIMD at 1300 MHz is encoded as 32-wide at 325 MHz
       [ASSUMED in the spec]: one SP unit, one warp instruction per cycle */
    "units.sp=1", "units.sfu=1", "units.dp=1", "units.int=1",     /* [I] */
    /* §3 L1D: 32 KB, 8-way, 128 B (32 sets), 16 MSHRs x 4 merges, queue 4,
       hit latency 20; write-evict/no-allocate for global stores; §2.3/§3
       allocate-on-miss, each line owned by the warp whose miss allocated it */
    "l1d.sets=32", "l1d.ways=8", "l1d.line_bytes=128", "l1d.write_back=false",
    "l1d.mshr_entries=16", "l1d.mshr_merge=4", "l1d.miss_queue=4", "l1d.hit_latency=20",
    "l1d.write_evict=true", "l1d.allocate=miss", "l1d.owner=alloc",
    "l1t.sets=8", "l1t.ways=20", "l1t.line_bytes=32",             /* §3 texture L1 */
    "l1c.sets=64", "l1c.ways=2", "l1c.line_bytes=64",             /* §3 const L1 */
    "n_mem=8",                                                     /* §3: 8 channels */
    /* §3: 16 requests per chip x 2 chips x 8 channels */
    "mem_queue=256",
    /* [I] GDDR3 double data rate, 8 channels x 16 B x 800 MHz = 102.4 GB/s,
       / 325 MHz core = 315 B per core cycle */
    "mem_bytes_per_cycle=315",
    /* §3 L2: per channel 64 sets x 8 ways x 256 B (1 MB total), one slice
       per channel (GPGPU-Sim 3.1.0 has no sub-partitions); §3 32 B flits
       with input speedup 2 = our 64 B flits, as for gtx480 [I] */
    "n_sub_per_mem=1", "l2.sets=64", "l2.ways=8", "l2.line_bytes=256",
    /* §3 DRAM: GDDR3, 2 chips x 4 B bus, burst 4, DDR; 16 requests per chip
       x 2; nbk=8 tCCD=2 tRRD=8 tRCD=12 tRAS=25 tRP=10 tRC=35 CL=10 WL=7
       tCDLR=6 tWR=13, so tWTR = WL + BL/2 + tCDLR = 15 and tRTW = CL + BL/2
       + 2 - WL = 7 (GPGPU-Sim's derivation); tRTP [I] */
    "dram_banks=8", "dram_bank_groups=1", "dram_queue=32", "dram_bus_bytes=8",
    "dram_burst=4", "dram_data_rate=2", "tCL=10", "tRCD=12", "tRP=10", "tRAS=25",
    "tRC=35", "tRRD=8", "tCCD=2", "tCCDL=2", "tWTR=15", "tWR=13", "tRTW=7", "tRTP=2",
    /* §3 address map (leading zeros [I]): 256 B channel interleave */
    "dram_addr_map=dramid@8;00000000.00000000.00000000.00000000.0000RRRR.RRRRRRRR."
    "RRBBBCCC.CCCSSSSS",
    NULL
};

/* owl28: OWL spec §3 (Table 1, GPGPU-Sim 2.1.2b). */
static const char *const owl28[] = {
    "core_mhz=1300", "icnt_mhz=650", "dram_mhz=800",              /* §3 */
    "l2_mhz=650",                          /* §3 [REC]: L2 at the interconnect clock */
    "n_clusters=28", "cores_per_cluster=1",                        /* §3: 28 SMs */
    "max_threads_per_sm=1024", "shmem_per_sm=32768",               /* §3 */
    "regs_per_sm=32768",                   /* §3 prints "32684": read as 32768 [I] */
    "max_ctas_per_sm=8",                   /* §3 [REC]: GPGPU-Sim's CTA cap */
    "n_schedulers=1", "issue_width=1",                             /* §3 */
    "warp_scheduler=lrr",                  /* §3: round-robin baseline */
    /* §3: SIMT width 8 = one 32-thread warp instruction every 4 cycles [I:
       expressed as a 4-cycle initiation interval on one SP unit] */
    "units.sp=1", "op.int.interval=4", "op.fp32.interval=4", "op.int_mul.interval=4",
    /* §3 L1D: 32 KB, 8-way, 64 B lines (64 sets), write-back; MSHRs 32 per
       core; merge and miss queue [I] (the defaults) */
    "l1d.sets=64", "l1d.ways=8", "l1d.line_bytes=64", "l1d.write_back=true",
    "l1d.mshr_entries=32",
    "l1t.sets=32", "l1t.ways=4", "l1t.line_bytes=64",             /* §3: 8 KB 4-way 64 B */
    "l1c.sets=32", "l1c.ways=4", "l1c.line_bytes=64",             /* §3: 8 KB 4-way 64 B */
    "coalesce_bytes=64",                   /* §3 [REC]: unique 64 B line requests */
    "mem_latency=120",                     /* §3: minimum L2 miss latency, core cycles */
    "n_mem=8",                                                     /* §3: 8 MCs */
    "mem_queue=1024",                      /* §3: 128 requests per MC x 8 */
    /* §3 [REC]: 102.4 GB/s total / 1300 MHz = 79 B per core cycle */
    "mem_bytes_per_cycle=79",
    /* §3: one L2 slice per MC, 512 KB, 16-way, 64 B lines (512 sets),
       write-back; §3 [REC] 256 B channel interleave.  The 6x6 mesh is
       modelled as a crossbar with 32 B flits [I].  L2 hit latency [I]: the
       unloaded L2-miss round trip comes to about §3's 120 core cycles */
    "n_sub_per_mem=1", "l2.sets=512", "l2.ways=16", "l2.line_bytes=64",
    "l2.hit_latency=10", "l2_interleave_bytes=256", "icnt_flit_bytes=32",
    /* §3: 4 banks per MC, 128 requests per MC, GDDR3 64-bit DDR channel
       (burst 8 = one 64 B line in 4 DRAM cycles); tCL=10 tRP=10 tRC=35
       tRAS=25 tRCD=12 tRRD=8 tCDLR=6 tWR=11, [REC] tCCD=2 WL=7, so tWTR =
       WL + BL/2 + tCDLR = 17, tRTW = CL + BL/2 + 2 - WL = 9; tRTP [I] */
    "dram_banks=4", "dram_bank_groups=1", "dram_queue=128", "dram_bus_bytes=8",
    "dram_burst=8", "dram_data_rate=2", "tCL=10", "tRCD=12", "tRP=10", "tRAS=25",
    "tRC=35", "tRRD=8", "tCCD=2", "tCCDL=2", "tWTR=17", "tWR=11", "tRTW=9", "tRTP=2",
    /* §3 [REC]: channel [10:8] (removed by dramid@8), column [13:11] and
       [7:0], bank [15:14], row [31:16]: a 2 KB row per bank per channel */
    "dram_addr_map=dramid@8;00000000.00000000.00000000.00000000.000RRRRR.RRRRRRRR."
    "RRRBBCCC.CCSSSSSS",
    NULL
};

/* tesla8: fetch-dram spec §3 (Table 1 + [R] fill-ins), a GeForce 8-series. */
static const char *const tesla8[] = {
    /* core clock not given [I]: 1350 MHz (8800-class shader clock); the
       bus runs at 2.5:1 (§3), used for the interconnect and DRAM clocks */
    "core_mhz=1350", "icnt_mhz=540", "l2_mhz=540", "dram_mhz=540",
    "n_clusters=8", "cores_per_cluster=1",                         /* §3: 8 cores */
    /* §3 [R]: caps of 32 warps and 8 blocks, register and shared-memory
       limits ignored (registers set to the table's maximum) */
    "max_threads_per_sm=1024", "max_ctas_per_sm=8", "regs_per_sm=1048576",
    "shmem_per_sm=65536",                  /* §3: 64 KB software-managed cache */
    /* §2.0/§3: the common fetch framework: one instruction per cycle for
       one warp, RR base, 5-cycle decode into a common issue queue ([R] 64
       entries = 2 x 32 warps), in-order dispatch, oldest-ready first
       across warps ([R] §7 item 9), one per cycle; stall on branch ([R]:
       resolved when executed, 4 cycles) and on global/local accesses
       until they complete (stores: acknowledged, §7 item 16) */
    "fetch_width=1", "fetch_policy=rr", "fetch_queue=64", "decode_latency=5",
    "branch_resolve=4", "fetch_stall_mem=true",
    "n_schedulers=1", "issue_width=1", "warp_scheduler=fifo",
    /* §3: 1 KB I-cache; [R] 64 B lines, 4-way, a miss filled in 100
       cycles, later misses to the line merge ([I] 8 outstanding lines) */
    "l1i.model=true", "l1i.sets=4", "l1i.ways=4", "l1i.line_bytes=64", "l1i.hit_latency=1",
    "l1i.mshr_entries=8", "l1i.mshr_merge=32", "l1i.miss_latency=100",
    /* §3: one 8-wide SIMD unit for every instruction, 4-cycle latency
       except FP-DIV 32 and FP-Mul 8 [R: a new warp instruction every 4
       cycles]; [I] FP32 keeps 4 (add and mul share one class) */
    "units.sp=1", "units.sfu=0", "units.dp=0", "units.int=0",
    "op.int.latency=4", "op.int.interval=4", "op.int_mul.latency=4", "op.int_mul.interval=4",
    "op.int_div.latency=32", "op.int_div.interval=4", "op.fp32.latency=4",
    "op.fp32.interval=4", "op.fp32_div.latency=32", "op.fp32_div.interval=4",
    "op.fp64.latency=8", "op.fp64.interval=4", "op.fp64_div.latency=32",
    "op.fp64_div.interval=4", "op.sfu.latency=8", "op.sfu.interval=4",
    "shmem_latency=1", "shmem_banks=16",   /* §3: 1-cycle shared memory; 16 banks [I] */
    /* §3: global and local data uncached; §2.5 [R]: the uncached L1D's
       MSHRs are the SM's Memory Request Queue, 256 entries of 64 B
       transactions, loads merged into one in flight (intra-core merging;
       [I] up to 32 per entry) */
    "l1d.enabled=false", "l1d.line_bytes=64", "l1d.mshr_entries=256", "l1d.mshr_merge=32",
    "l1d.miss_queue=32",
    /* §3 [R]: constant and texture caches always hit, 1 cycle [I: large
       and 1-cycle, so misses are rare, not impossible] */
    "l1c.hit_latency=1", "l1c.sets=256", "l1c.ways=8",
    "l1t.hit_latency=1", "l1t.sets=64", "l1t.ways=32",
    "coalesce_bytes=64",                   /* §3 [R]: cc 1.x half-warp 64 B */
    "mem_latency=100",                     /* §3: row closed = 100 core cycles [I] */
    "mem_bytes_per_cycle=13",              /* §3: 32 B bus at 2.5:1 = 12.8 B/cycle */
    "mem_queue=1024",                      /* §3: 128 outstanding per bank x 8 banks */
    "n_mem=1",                             /* §3 [R]: one controller */
    /* §3: global and local data uncached: no L2 (every access bypasses);
       [R] a fixed few-cycle interconnect, the 32 B bus being the contended
       resource (32 B flits at the 540 MHz bus clock) */
    "n_sub_per_mem=1", "l2.enabled=false", "icnt_latency=4", "icnt_flit_bytes=32",
    /* §2.5 [R]: the uncached L2 slice's MSHRs are the controller's Memory
       Request Buffer: 128 outstanding per bank x 8, entries held until the
       data returns, a read merged into another SM's (inter-core merging) */
    "l2.line_bytes=64", "l2.mshr_entries=1024", "l2.mshr_merge=32", "l2.hit_latency=1",
    "l2_queue=64",
    /* §3: 8 banks, 2 KB rows, 128 outstanding per bank; a 32 B bus at the
       540 MHz bus clock, one beat per cycle, 64 B transactions [R] */
    "dram_banks=8", "dram_bank_groups=1", "dram_queue=1024", "dram_bus_bytes=32",
    "dram_burst=2", "dram_data_rate=1",
    /* §3 open/closed/conflict = 70/100/140 core cycles = 28/40/56 DRAM
       cycles at 2.5:1: tCL 28, tRCD 12, tRP 16 [R]; tRAS [I] and tRC =
       tRAS + tRP; the paper models no turnarounds [I: 0] */
    "tCL=28", "tRCD=12", "tRP=16", "tRAS=20", "tRC=36", "tRRD=2", "tCCD=2", "tCCDL=2",
    "tWTR=0", "tWR=0", "tRTW=0", "tRTP=0",
    "dram_bank_hold=true",                 /* §3 [R]: the bank is busy for the whole access */
    /* §3 [R]: bank = (addr / 2048) mod 8, row = addr / 16384 */
    "dram_addr_map=00000000.00000000.00000000.00000000.00RRRRRR.RRRRRRRR.RRBBBCCC.CCCSSSSS",
    "dram_scheduler=frfcfs",               /* §3: FR-FCFS base */
    NULL
};

/* k20x: HAWS spec §2.2 / §4.1 (Kepler K20X-like, Table 4.1), gaps from the
   public Multi2Sim Kepler source [M] (§2.10) and HALS Table 6.3 (§4.4). */
static const char *const k20x[] = {
    "core_mhz=732",                                                /* §2.2 */
    "icnt_mhz=732", "l2_mhz=732", "dram_mhz=1300",                 /* [I] not given */
    "n_clusters=14", "cores_per_cluster=1",                        /* §2.2: 14 SMs */
    "max_threads_per_sm=2048", "max_ctas_per_sm=16",               /* §2.2 */
    "regs_per_sm=65536", "shmem_per_sm=16384",                     /* §2.2 */
    "n_schedulers=4", "issue_width=2",     /* §2.2: 4 schedulers, 2 dispatch units each */
    "fetch_width=4",                       /* §2.3: each of 4 pools fetches [I] */
    "warp_scheduler=lrr",                  /* §4.3: round-robin baseline */
    /* §2.2: 6 SPUs (4 private + 2 shared), 2 DPUs, 1 IMU, 1 SFU, 1 LSU */
    "units.sp=6", "units.dp=2", "units.int=1", "units.sfu=1", "units.ldst=1",
    /* §2.5 [M]: shared units are split evenly among the 4 schedulers, a
       warp instruction holds its quarter for 4 cycles */
    "op.fp64.interval=4", "op.int_mul.interval=4", "op.sfu.interval=4",
    /* §2.2: L1 16 KB, 4-way, 128 B (32 sets); §4.4: 16 MSHRs x 8 merges;
       §2.10 [M]: hit latency 6 */
    "l1d.sets=32", "l1d.ways=4", "l1d.line_bytes=128", "l1d.mshr_entries=16",
    "l1d.mshr_merge=8", "l1d.hit_latency=6",
    /* §2.10 [M]: main memory latency 300.  mem_latency is the simple
       backend's (memory_model=simple); the full model's nearest key is
       dram_latency, [I] added to the GDDR5 bank and bus timing below (about
       15-20 core cycles unloaded), as Multi2Sim's memory module has no DRAM
       timing of its own */
    "mem_latency=300", "dram_latency=300",
    "n_mem=6",                                                     /* §2.10 [M] */
    /* [I] K20X 250 GB/s / 732 MHz = 341 B per core cycle */
    "mem_bytes_per_cycle=341",
    /* §2.2: L2 1536 KB, 16-way, 128 B; §2.10 [M]: 6 banks interleaved on
       ADDR DIV 128 MOD 6, latency 20: one 256 KB slice per channel (128
       sets) */
    "n_sub_per_mem=1", "l2.sets=128", "l2.ways=16", "l2.line_bytes=128",
    "l2.hit_latency=20", "l2_interleave_bytes=128",
    /* [I] GDDR5 like the gtx480 defaults (timing, 16 banks in 4 groups,
       8 B bus, data:command 4) at 1300 MHz: 6 x 8 x 4 x 1300 = 249.6 GB/s;
       channel bits from bit 7 to match the 128 B interleave */
    "dram_addr_map=dramid@7;00000000.00000000.00000000.00000000.0000RRRR.RRRRRRRR."
    "RBBBCCCC.BCCSSSSS",
    NULL
};

/*
** qv100: GPGPU-Sim 4.2's Quadro GV100 (Volta) configuration,
** configs/gpgpusim/SM7_QV100/gpgpusim.config; each value cites its option.
** It is what `--config` of that file maps to (test_gpgpusim_cfg checks the
** two are equal key by key); the options warpsim does not model (sub-core
** model, adaptive L1/shared carve-out, sectored caches, operand collector,
** -dram_latency, ...) are listed in the README.
*/
static const char *const qv100[] = {
    "core_mhz=1132", "icnt_mhz=1132", "l2_mhz=1132", "dram_mhz=850", /* -gpgpu_clock_domains */
    "n_clusters=80", "cores_per_cluster=1",          /* -gpgpu_n_clusters 80 */
    "n_mem=32", "n_sub_per_mem=2",                   /* -gpgpu_n_mem 32, ..._per_mchannel 2 */
    "regs_per_sm=65536",                             /* -gpgpu_shader_registers */
    "max_threads_per_sm=2048",                       /* -gpgpu_shader_core_pipeline 2048:32 */
    "max_ctas_per_sm=32",                            /* -gpgpu_shader_cta 32 */
    "shmem_per_sm=98304",                            /* -gpgpu_shmem_size 98304 */
    "n_schedulers=4", "warp_scheduler=lrr",          /* -gpgpu_num_sched_per_core, _scheduler */
    "issue_width=1",                                 /* -gpgpu_max_insn_issue_per_warp 1 */
    "units.sp=4", "units.sfu=4", "units.dp=4", "units.int=4",    /* -gpgpu_num_*_units 4 */
    /* -ptx_opcode_latency_int 4,13,4,5,145,21, -ptx_opcode_initiation_int 2,2,2,2,8,4 */
    "op.int.latency=4", "op.int.interval=2", "op.int_mul.latency=5", "op.int_mul.interval=2",
    "op.int_div.latency=145", "op.int_div.interval=8",
    /* GPGPU-Sim's 1-cycle default class; -gpgpu_num_reg_banks 16 (its
       collector units are general ones, not mapped: unlimited) */
    "op.other.latency=1", "opcoll.reg_banks=16",
    /* -ptx_opcode_latency_fp 4,13,4,5,39, -ptx_opcode_initiation_fp 2,2,2,2,4 */
    "op.fp32.latency=4", "op.fp32.interval=2", "op.fp32_div.latency=39",
    "op.fp32_div.interval=4",
    /* -ptx_opcode_latency_dp 8,19,8,8,330, -ptx_opcode_initiation_dp 4,4,4,4,130 */
    "op.fp64.latency=8", "op.fp64.interval=4", "op.fp64_div.latency=330",
    "op.fp64_div.interval=130",
    "op.sfu.latency=100", "op.sfu.interval=8",      /* -ptx_opcode_latency/initiation_sfu */
    /* -gpgpu_cache:dl1 S:4:128:64,L:T:m:L:L,A:512:8,16:0,32 (32 KB), -gpgpu_l1_latency 20 */
    "l1d.sets=4", "l1d.ways=64", "l1d.line_bytes=128", "l1d.write_back=false",
    "l1d.allocate=miss", "l1d.mshr_entries=512", "l1d.mshr_merge=8", "l1d.miss_queue=16",
    "l1d.hit_latency=20",
    "shmem_latency=20", "shmem_banks=32",           /* -gpgpu_smem_latency, _shmem_num_banks */
    "coalesce_reduce=true",                         /* GPGPU-Sim shrinks every transaction */
    /* -gpgpu_tex_cache:l1 N:4:128:256,L:R:m:N:L,T:512:8,128:2 */
    "l1t.sets=4", "l1t.ways=256", "l1t.line_bytes=128", "l1t.allocate=miss",
    "l1t.mshr_entries=512", "l1t.mshr_merge=8", "l1t.miss_queue=128",
    /* -gpgpu_const_cache:l1 N:128:64:8,L:R:f:N:L,S:2:64,4 */
    "l1c.sets=128", "l1c.ways=8", "l1c.line_bytes=64", "l1c.mshr_entries=2",
    "l1c.mshr_merge=64", "l1c.miss_queue=4",
    /* -gpgpu_cache:il1 N:64:128:16,L:R:f:N:L,S:2:48,4; not used, as
       -gpgpu_perfect_inst_const_cache 1 keeps l1i.model off */
    "l1i.sets=64", "l1i.ways=16", "l1i.mshr_entries=2", "l1i.mshr_merge=48",
    /* -network_mode 2 (crossbar), -icnt_flit_size 40, -icnt_in/out_buffer_limit 512 */
    "icnt_flit_bytes=40", "icnt_in_buffer=512", "icnt_out_buffer=512",
    /* -gpgpu_cache:dl2 S:32:128:24,L:B:m:L:P,A:192:4,32:0,32 (96 KB per slice),
       -gpgpu_l2_rop_latency 160, -gpgpu_dram_partition_queues 64:64:64:64 */
    "l2.sets=32", "l2.ways=24", "l2.line_bytes=128", "l2.write_back=true",
    "l2.mshr_entries=192", "l2.mshr_merge=4", "l2.miss_queue=32", "l2.hit_latency=160",
    "l2_queue=64", "l2.warm_on_copy=true",   /* -gpgpu_perf_sim_memcpy 1 */
    "l2.set_index_local=true",               /* GPGPU-Sim's L2 set index */
    "l2.sector_bytes=32",                    /* dl2 S: 32 B sectors */
    "dram_latency=100",                      /* -dram_latency 100 */
    /* -gpgpu_frfcfs_dram_sched_queue_size 64; HBM: -gpgpu_dram_buswidth 16 x
       -gpgpu_n_mem_per_ctrlr 1, -gpgpu_dram_burst_length 2,
       -dram_data_command_freq_ratio 2 */
    "dram_queue=64", "dram_bus_bytes=16", "dram_burst=2", "dram_data_rate=2",
    /* -gpgpu_dram_timing_opt "nbk=16:CCD=1:RRD=3:RCD=12:RAS=28:RP=12:RC=40:
       CL=12:WL=2:CDLR=3:WR=10:nbkgrp=4:CCDL=2:RTPL=3": tWTR = WL + BL/ratio +
       CDLR = 6, tRTW = CL + BL/ratio + 2 - WL = 13 (GPGPU-Sim's derivation) */
    "dram_banks=16", "dram_bank_groups=4", "tCCD=1", "tRRD=3", "tRCD=12", "tRAS=28",
    "tRP=12", "tRC=40", "tCL=12", "tWR=10", "tCCDL=2", "tRTP=3", "tWTR=6", "tRTW=13",
    "dram_addr_map=dramid@8;00000000.00000000.00000000.00000000.0000RRRR.RRRRRRRR."
    "RBBBCCCB.CCCSSSSS",                            /* -gpgpu_mem_addr_mapping */
    "dram_scheduler=frfcfs",                         /* -gpgpu_dram_scheduler 1 */
    NULL
};

/*
** rtx3070: GPGPU-Sim 4.2's RTX 3070 (Ampere) configuration,
** configs/gpgpusim/SM86_RTX3070/gpgpusim.config, as qv100 above.
*/
static const char *const rtx3070[] = {
    "core_mhz=1132", "icnt_mhz=1132", "l2_mhz=1132", "dram_mhz=3500.5",  /* -gpgpu_clock_domains */
    "n_clusters=46", "cores_per_cluster=1",          /* -gpgpu_n_clusters 46 */
    "n_mem=16", "n_sub_per_mem=2",                   /* -gpgpu_n_mem 16, ..._per_mchannel 2 */
    "regs_per_sm=65536",                             /* -gpgpu_shader_registers */
    "max_threads_per_sm=1536",                       /* -gpgpu_shader_core_pipeline 1536:32 */
    "max_ctas_per_sm=32",                            /* -gpgpu_shader_cta 32 */
    "shmem_per_sm=102400",                           /* -gpgpu_shmem_size 102400 */
    "n_schedulers=4", "warp_scheduler=lrr",          /* -gpgpu_num_sched_per_core, _scheduler */
    "issue_width=1",                                 /* -gpgpu_max_insn_issue_per_warp 1 */
    "units.sp=4", "units.sfu=4", "units.dp=4", "units.int=4",    /* -gpgpu_num_*_units 4 */
    /* -ptx_opcode_latency_int 4,4,4,4,21, -ptx_opcode_initiation_int 2,2,2,2,2 */
    "op.int.latency=4", "op.int.interval=2", "op.int_mul.latency=4", "op.int_mul.interval=2",
    "op.int_div.latency=21", "op.int_div.interval=2",
    /* GPGPU-Sim's 1-cycle default class; -gpgpu_num_reg_banks 8 */
    "op.other.latency=1", "opcoll.reg_banks=8",
    /* -ptx_opcode_latency_fp 4,4,4,4,39, -ptx_opcode_initiation_fp 1,1,1,1,2 */
    "op.fp32.latency=4", "op.fp32.interval=1", "op.fp32_div.latency=39",
    "op.fp32_div.interval=2",
    /* -ptx_opcode_latency_dp 64,64,64,64,330, -ptx_opcode_initiation_dp 64,...,130 */
    "op.fp64.latency=64", "op.fp64.interval=64", "op.fp64_div.latency=330",
    "op.fp64_div.interval=130",
    "op.sfu.latency=21", "op.sfu.interval=8",       /* -ptx_opcode_latency/initiation_sfu */
    /* -gpgpu_cache:dl1 S:4:128:256,L:T:m:L:L,A:384:48,16:0,32 (128 KB),
       -gpgpu_l1_latency 39 */
    "l1d.sets=4", "l1d.ways=256", "l1d.line_bytes=128", "l1d.write_back=false",
    "l1d.allocate=miss", "l1d.mshr_entries=384", "l1d.mshr_merge=48", "l1d.miss_queue=16",
    "l1d.hit_latency=39",
    "shmem_latency=29", "shmem_banks=32",           /* -gpgpu_smem_latency, _shmem_num_banks */
    "coalesce_reduce=true",                         /* GPGPU-Sim shrinks every transaction */
    /* -gpgpu_tex_cache:l1 N:4:128:256,L:R:m:N:L,T:512:8,128:2 */
    "l1t.sets=4", "l1t.ways=256", "l1t.line_bytes=128", "l1t.allocate=miss",
    "l1t.mshr_entries=512", "l1t.mshr_merge=8", "l1t.miss_queue=128",
    /* -gpgpu_const_cache:l1 N:128:64:8,L:R:f:N:L,S:2:64,4 */
    "l1c.sets=128", "l1c.ways=8", "l1c.line_bytes=64", "l1c.mshr_entries=2",
    "l1c.mshr_merge=64", "l1c.miss_queue=4",
    /* -gpgpu_cache:il1 N:64:128:16,L:R:f:N:L,S:2:48,4; not used, as
       -gpgpu_perfect_inst_const_cache 1 keeps l1i.model off */
    "l1i.sets=64", "l1i.ways=16", "l1i.mshr_entries=2", "l1i.mshr_merge=48",
    /* -network_mode 2 (crossbar), -icnt_flit_size 40, -icnt_in/out_buffer_limit 512 */
    "icnt_flit_bytes=40", "icnt_in_buffer=512", "icnt_out_buffer=512",
    /* -gpgpu_cache:dl2 S:64:128:16,L:B:m:L:P,A:192:4,32:0,32 (128 KB per slice),
       -gpgpu_l2_rop_latency 187, -gpgpu_dram_partition_queues 64:64:64:64 */
    "l2.sets=64", "l2.ways=16", "l2.line_bytes=128", "l2.write_back=true",
    "l2.mshr_entries=192", "l2.mshr_merge=4", "l2.miss_queue=32", "l2.hit_latency=187",
    "l2_queue=64", "l2.warm_on_copy=true",   /* -gpgpu_perf_sim_memcpy 1 */
    "l2.set_index_local=true",               /* GPGPU-Sim's L2 set index */
    "l2.sector_bytes=32",                    /* dl2 S: 32 B sectors */
    "dram_latency=254",                      /* -dram_latency 254 */
    /* -gpgpu_frfcfs_dram_sched_queue_size 64; GDDR6: -gpgpu_dram_buswidth 2 x
       -gpgpu_n_mem_per_ctrlr 1, -gpgpu_dram_burst_length 16,
       -dram_data_command_freq_ratio 4 */
    "dram_queue=64", "dram_bus_bytes=2", "dram_burst=16", "dram_data_rate=4",
    /* -gpgpu_dram_timing_opt nbk=16:CCD=4:RRD=12:RCD=24:RAS=55:RP=24:RC=78:CL=24:
       WL=8:CDLR=10:WR=24:nbkgrp=4:CCDL=6:RTPL=4: tWTR = 8 + 16/4 + 10 = 22,
       tRTW = 24 + 16/4 + 2 - 8 = 22 */
    "dram_banks=16", "dram_bank_groups=4", "tCCD=4", "tRRD=12", "tRCD=24", "tRAS=55",
    "tRP=24", "tRC=78", "tCL=24", "tWR=24", "tCCDL=6", "tRTP=4", "tWTR=22", "tRTW=22",
    "dram_addr_map=dramid@8;00000000.00000000.00000000.00000000.0000RRRR.RRRRRRRR."
    "RBBBCCCC.BCCSSSSS",                            /* -gpgpu_mem_addr_mapping */
    "dram_scheduler=frfcfs",                         /* -gpgpu_dram_scheduler 1 */
    NULL
};

const gpu_preset gpu_presets[] = {
    { "gtx480", "Fermi GTX 480, 15 SMs (Mascar Table I, GPGPU-Sim 3.2.2 defaults)", gtx480 },
    { "fx5800", "Quadro FX5800 + Fermi-like L1D, 30 SMs (CCWS, GPGPU-Sim 3.1.0)", fx5800 },
    { "owl28", "28-SM GPGPU-Sim 2.1.2b machine, SIMT width 8 (OWL Table 1)", owl28 },
    { "tesla8", "8-core Tesla, uncached global memory (fetch-dram Table 1)", tesla8 },
    { "k20x", "Kepler K20X-like, 14 SMs, 4 schedulers (HAWS Table 4.1)", k20x },
    { "qv100", "Volta Quadro GV100, 80 SMs (GPGPU-Sim 4.2 SM7_QV100 config)", qv100 },
    { "rtx3070", "Ampere RTX 3070, 46 SMs (GPGPU-Sim 4.2 SM86_RTX3070 config)", rtx3070 },
    { NULL, NULL, NULL }
};

const char *const gpu_preset_names[] = { "gtx480", "fx5800", "owl28", "tesla8", "k20x", "qv100",
                                         "rtx3070", NULL };
