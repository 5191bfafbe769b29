/*
** config.c -- the ONE parameter table of the simulated machine: every
** field of gpu_config with its key, type, default, unit, bounds and help.
** Defaults, `--set key=value`, config files, the dump (`warpsim config
** show`, the report) and the range checks are all driven by this table.
** The defaults are the gtx480 machine (Mascar spec §3, Table I + [G]).
*/
#include "config_int.h"
#include "energy.h"
#include "ffwd.h"
#include "hint.h"
#include "mem/addrmap.h"
#include "policy/policy.h"
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

/* P_ENUM: a uint32_t field holding an index into the parameter's `choices`
   (set and shown by name). */
enum { P_U32, P_U64, P_DBL, P_BOOL, P_STR, P_ENUM };

typedef struct cfg_param {
    const char *key;
    uint8_t type;
    size_t offset;        /* in gpu_config */
    size_t size;          /* P_STR: buffer size */
    const char *def;      /* default, as text (parsed by the same code as --set) */
    const char *unit;
    double min, max;      /* numbers only */
    const char *help;
    const char *const *choices;   /* P_ENUM: names, NULL-terminated */
} cfg_param;

#define OFF(f) offsetof(gpu_config, f)
#define U32(k, f, d, u, lo, hi, h) { k, P_U32, OFF(f), 0, d, u, lo, hi, h, NULL }
#define U64(k, f, d, u, lo, hi, h) { k, P_U64, OFF(f), 0, d, u, lo, hi, h, NULL }
#define DBL(k, f, d, u, lo, hi, h) { k, P_DBL, OFF(f), 0, d, u, lo, hi, h, NULL }
#define BOOL(k, f, d, h)           { k, P_BOOL, OFF(f), 0, d, "", 0, 1, h, NULL }
#define STR(k, f, d, h)            { k, P_STR, OFF(f), sizeof(((gpu_config *)0)->f), d, "name", 0, 0, h, NULL }
#define ENUM(k, f, d, ch, h)       { k, P_ENUM, OFF(f), 0, d, "choice", 0, 0, h, ch }

/* names of the GPU_L1_ALLOC_* and GPU_L1_OWNER_* values, in enum order */
static const char *const l1_alloc_names[] = { "fill", "miss", "streaming", NULL };
static const char *const l1_owner_names[] = { "last", "alloc", NULL };
static const char *const set_index_names[] = { "linear", "fermi", "xor", NULL };

#define OP(cls, IDX, lat, ii, what)                                                      \
    U32("op." cls ".latency", op[IDX].latency, lat, "cycles", 1, 10000,                  \
        "result latency of " what),                                                      \
    U32("op." cls ".interval", op[IDX].interval, ii, "cycles", 1, 10000,                 \
        "initiation interval of " what " (cycles between issues to one unit)")

#define CACHE(c, fld, S, W, L, WB, M, MG, MQ, LAT, what)                                \
    U32(c ".sets", fld.sets, S, "sets", 1, 65536, what ": number of sets"),             \
    U32(c ".ways", fld.ways, W, "ways", 1, 4096, what ": associativity"),                \
    U32(c ".line_bytes", fld.line_bytes, L, "bytes", 16, 4096,                          \
        what ": line size (power of two)"),                                              \
    BOOL(c ".write_back", fld.write_back, WB,                                            \
         what ": write-back + write-allocate (false: write-through, no write-allocate)"), \
    BOOL(c ".enabled", fld.enabled, "true", what ": false = every access misses (bypass)"), \
    U32(c ".mshr_entries", fld.mshr_entries, M, "entries", 1, 65536,                    \
        what ": MSHRs (distinct outstanding lines)"),                                    \
    U32(c ".mshr_merge", fld.mshr_merge, MG, "requests", 1, 1024,                       \
        what ": requests merged into one MSHR, at most"),                                \
    U32(c ".miss_queue", fld.miss_queue, MQ, "entries", 1, 65536,                       \
        what ": miss queue toward the interconnect"),                                    \
    U32(c ".hit_latency", fld.hit_latency, LAT, "cycles", 1, 10000,                     \
        what ": core cycles from access to data on a hit")

/* Options only the L1 caches have (mem/l1.c); the defaults are the
   behaviour the L1 had before they existed. */
#define L1OPTS(c, fld, what)                                                              \
    ENUM(c ".allocate", fld.allocate, "fill", l1_alloc_names,                            \
         what ": when a read miss takes a way: fill (when the data returns; the "        \
         "displaced line is reported then), miss (a way is reserved and its line "       \
         "evicted when the miss is sent; all ways reserved = reservation fail; CCWS), "  \
         "streaming (as fill, with at least one MSHR per line; GPGPU-Sim 's')"),         \
    ENUM(c ".owner", fld.owner, "last", l1_owner_names,                                  \
         what ": warp named as owner of an evicted line: last (the last warp that "      \
         "touched it) or alloc (the warp whose miss allocated it; CCWS)"),              \
    BOOL(c ".write_evict", fld.write_evict, "false",                                     \
         what ": a store hit invalidates the line (write-through only; GPGPU-Sim "       \
         "write policy E) instead of refreshing it"),                                    \
    BOOL(c ".unbounded", fld.unbounded, "false",                                         \
         what ": never evict: when a line finds its set full the cache doubles its "     \
         "sets (line number mod sets) and rehashes, so only first touches miss "         \
         "(CCWS Fig. 2's unbounded L1; needs set_index = linear)"),                      \
    ENUM(c ".set_index", fld.set_index, "linear", set_index_names,                       \
         what ": set of a line: linear (line number mod sets), fermi (GPGPU-Sim 'H': "   \
         "line bits 7-11 XOR address bits 13-15,17,19; 32 or 64 sets) or xor "           \
         "(GPGPU-Sim 'X': set bits XOR the next higher bits)")

/*
** Sources of the defaults (the gtx480 machine): [T] Mascar spec §3 Table I,
** [G] the GPGPU-Sim 3.2.2 GTX480 defaults listed in the same section,
** [I] our interpretation where neither gives a value (see presets.c).
*/
static const cfg_param params[] = {
    /* clocks: [G] -gpgpu_clock_domains 700:700:700:924 */
    DBL("core_mhz", core_mhz, "700", "MHz", 1, 100000, "SM (core) clock"),
    DBL("icnt_mhz", icnt_mhz, "700", "MHz", 1, 100000, "interconnect clock"),
    DBL("l2_mhz", l2_mhz, "700", "MHz", 1, 100000, "L2 clock"),
    DBL("dram_mhz", dram_mhz, "924", "MHz", 1, 100000, "DRAM command clock"),

    /* SM array and per-SM limits: [T] 15 SMs, [G] 1536 threads, 8 CTAs,
       32768 registers, 48 KB shared memory */
    U32("n_clusters", n_clusters, "15", "clusters", 1, 1024, "SM clusters"),
    U32("cores_per_cluster", cores_per_cluster, "1", "SMs", 1, 64, "SMs per cluster"),
    U32("max_threads_per_sm", max_threads_per_sm, "1536", "threads", 32, 4096,
        "resident threads per SM (a multiple of 32)"),
    U32("max_ctas_per_sm", max_ctas_per_sm, "8", "CTAs", 1, 64, "resident CTAs per SM"),
    U32("regs_per_sm", regs_per_sm, "32768", "registers", 1024, 1u << 20,
        "32-bit registers per SM"),
    U32("shmem_per_sm", shmem_per_sm, "49152", "bytes", 0, 1u << 20, "shared memory per SM"),
    U32("regs_per_thread", regs_per_thread, "0", "registers", 0, 255,
        "registers per thread when PTX has no .maxnreg and ptxas is not used; "
        "0 = the PTX register count"),
    BOOL("use_ptxas", use_ptxas, "true",
         "take registers per thread from `ptxas -v` when ptxas is on PATH"),

    /* front end: [I] one warp fetched per cycle, 2-entry buffer as GPGPU-Sim */
    U32("fetch_width", fetch_width, "1", "warps", 1, 64, "warps fetched per cycle per SM"),
    U32("ibuffer_size", ibuffer_size, "2", "instructions", 1, 64,
        "instruction buffer entries per warp"),
    STR("fetch_policy", fetch_policy, "rr", "fetch policy (warpsim policies)"),
    /* the fetch-dram spec §2.0 framework; off by default (GPGPU-Sim-like
       per-warp buffers) */
    U32("fetch_queue", fetch_queue, "0", "instructions", 0, 1024,
        "common issue queue shared by an SM's warps: each fetch brings one instruction of "
        "one warp into it, dispatch takes them out (fetch-dram spec 2.0); 0 = per-warp "
        "instruction buffers of ibuffer_size"),
    U32("decode_latency", decode_latency, "1", "cycles", 1, 64,
        "cycles from an instruction's fetch until it can issue"),
    BOOL("fetch_stall_mem", fetch_stall_mem, "false",
         "a warp fetches nothing from the fetch of a global or local load or store until "
         "all its transactions are complete (stores: acknowledged)"),
    U32("branch_resolve", branch_resolve, "0", "cycles", 0, 1000,
        "a warp fetches nothing past a branch until this many cycles after the branch "
        "issues (it resolves when it has executed; no prediction); 0 = from the next cycle"),
    { "fetch_policy_params", P_STR, OFF(fetch_policy_params),
      sizeof(((gpu_config *)0)->fetch_policy_params), "", "k=v,...", 0, 0,
      "parameters of the fetch policy (see warpsim policies)", NULL },

    /* issue: [G] 2 schedulers per SM; [T] LRR baseline */
    U32("n_schedulers", n_schedulers, "2", "schedulers", 1, 16, "warp schedulers per SM"),
    U32("issue_width", issue_width, "1", "instructions", 1, 8,
        "instructions one scheduler issues per cycle, each from a different warp"),
    STR("warp_scheduler", warp_scheduler, "lrr", "warp scheduling policy (warpsim policies)"),
    { "warp_scheduler_params", P_STR, OFF(warp_scheduler_params),
      sizeof(((gpu_config *)0)->warp_scheduler_params), "", "k=v,...", 0, 0,
      "parameters of the warp scheduler, e.g. warp_limit=8 (see warpsim policies)", NULL },
    STR("cta_map", cta_map, "rr", "CTA placement policy: which CTA goes to which SM "
        "(warpsim policies)"),
    { "cta_map_params", P_STR, OFF(cta_map_params),
      sizeof(((gpu_config *)0)->cta_map_params), "", "k=v,...", 0, 0,
      "parameters of the CTA placement policy (see warpsim policies)", NULL },
    /* HAWS spec 3.2.2: the launch hint, a per-kernel attribute here */
    { "hals_hint", P_STR, OFF(hals_hint), sizeof(((gpu_config *)0)->hals_hint), "",
      "KERNEL:N,...", 0, 0,
      "HALS launch hint per kernel (HAWS spec 3.2.2): KERNEL:N[,KERNEL:N...], KERNEL the "
      "PTX name, its demangled base name or * for every kernel, N 0..3 (0 none, 1 many "
      "lines shared among blocks, 2 boundary lines, 3 some common data); policies see it "
      "as ws_launch_info.hint (cta_map/warp_scheduler hals)", NULL },
    /* fast-forward (gpu/ffwd.h): the other launches run functionally */
    { "timing_from", P_STR, OFF(timing_from), sizeof(((gpu_config *)0)->timing_from), "",
      "KERNEL[:N]", 0, 0,
      "fast-forward: run launches functionally (device memory kept exactly) until the N-th "
      "launch (default 1) of KERNEL (PTX name or demangled base name), time from there on", NULL },
    { "timing_kernels", P_STR, OFF(timing_kernels), sizeof(((gpu_config *)0)->timing_kernels),
      "", "KERNEL,...", 0, 0,
      "fast-forward: time only launches of these kernels, run the others functionally "
      "(\"\" = every kernel)", NULL },
    U32("timing_every", timing_every, "1", "launches", 1, 1000000000,
        "sampling: of the launches timing_from/timing_kernels select, time the 1st, (k+1)-th, "
        "... and run the others functionally"),
    U32("dup_mshr_window", dup_mshr_window, "0", "cycles", 0, 100000000,
        "duplicate-MSHR statistic (HAWS spec 7, thesis 2000): an L1D MSHR allocation is a "
        "duplicate when another SM allocated one for the same line at most this many cycles "
        "before; reported as dup_mshr_pct; 0 = not computed"),

    U32("op.other.latency", op_other_latency, "0", "cycles", 0, 10000,
        "latency of ALU ops outside add/sub/min/max/mul/mad/fma/div/rem/shfl and the SFU ops "
        "(logic, move, compare, convert, ...), initiation interval 1, as GPGPU-Sim's default "
        "class; 0 = they are timed as the int/fp32/fp64 add class"),
    /* operand collector [I]: off by default (operands read at issue); the
       GPGPU-Sim files set it (-gpgpu_num_reg_banks, _num_units_sp/_sfu) */
    U32("opcoll.reg_banks", opc_reg_banks, "0", "banks", 0, 64,
        "register-file banks of the operand collector: an ALU instruction takes a collector "
        "unit the cycle after issue, reads each source register from bank (reg + warp) % banks, "
        "one read per bank and per unit a cycle, goes to its pipe the cycle after its last "
        "read and is written back 2 cycles after its latency; 0 = operands read at issue"),
    U32("opcoll.units_sp", opc_units_sp, "0", "units", 0, 64,
        "collector units for the SP/INT/DP pipes; none free the cycle after issue stalls the "
        "issue; 0 = unlimited (only with opcoll.reg_banks > 0)"),
    U32("opcoll.units_sfu", opc_units_sfu, "0", "units", 0, 64,
        "collector units for the SFU pipes (as opcoll.units_sp)"),

    /* execution units: [G] 2 SP, 1 SFU, 1 LD/ST; DP and INT [I] */
    U32("units.sp", units[GPU_UNIT_SP], "2", "units", 1, 64, "SP (FP32/ALU) units per SM"),
    U32("units.sfu", units[GPU_UNIT_SFU], "1", "units", 0, 64,
        "SFU units per SM (0 = SFU ops, and FP64 when units.dp = 0, run on the SP units)"),
    /* 0 as in GPGPU-Sim's Fermi configs: FP64 on the SFU pipes, integer
       ops on the SP pipes (shader.cc's issue rules) */
    U32("units.dp", units[GPU_UNIT_DP], "1", "units", 0, 64,
        "FP64 units per SM (0 = FP64 runs on the SFU units, at the FP64 timing)"),
    U32("units.int", units[GPU_UNIT_INT], "1", "units", 0, 64,
        "integer units per SM (0 = integer ops run on the SP units)"),
    U32("units.ldst", units[GPU_UNIT_LDST], "1", "units", 1, 64, "load/store units per SM"),

    /* operation timing: [G] latencies int 4,13,4,5,145 fp 4,13,4,5,39
       dp 8,19,8,8,330 (ADD,MAX,MUL,MAD,DIV); intervals and SFU [I] */
    OP("int", GPU_OPC_INT, "4", "1", "integer add/logic/move/compare"),
    OP("int_mul", GPU_OPC_INT_MUL, "5", "2", "integer mul/mad"),
    OP("int_div", GPU_OPC_INT_DIV, "145", "8", "integer div/rem"),
    OP("fp32", GPU_OPC_FP32, "4", "1", "f32/f16 add/mul/fma/min/max/cvt"),
    OP("fp32_div", GPU_OPC_FP32_DIV, "39", "4", "f32 division"),
    OP("fp64", GPU_OPC_FP64, "8", "8", "f64 add/mul/fma"),
    OP("fp64_div", GPU_OPC_FP64_DIV, "330", "130", "f64 division"),
    OP("sfu", GPU_OPC_SFU, "20", "8", "SFU operations (rcp, sqrt, sin, ex2, ...)"),

    /* LSU and memories inside the SM: Fermi 128-byte segments, 32 banks */
    U32("coalesce_bytes", coalesce_bytes, "128", "bytes", 4, 4096,
        "segment size for coalescing global/local accesses (power of two)"),
    BOOL("coalesce_reduce", coalesce_reduce, "false",
         "a store that the L1 writes through, and an atomic, moves only the aligned 64- "
         "or 32-byte part of its 128-byte segment that its lanes touch (GPGPU-Sim's "
         "transaction-size reduction; false: each carries the whole segment)"),
    BOOL("l1d_classify", l1d_classify, "false",
         "the L1D classifies every read access as an intra-thread, inter-thread (same "
         "warp) or inter-warp hit, or a miss, by the line's owner warp and the lanes of "
         "that warp that touched it (CCWS spec Sec. 6; statistics L1D_cls_*)"),
    U32("shmem_banks", shmem_banks, "32", "banks", 1, 64, "shared-memory banks"),
    U32("shmem_bank_bytes", shmem_bank_bytes, "4", "bytes", 1, 16, "bank width"),
    U32("shmem_latency", shmem_latency, "24", "cycles", 1, 10000,
        "shared-memory access latency without conflicts"),
    /* [T] 32 KB, 64 sets, 4-way, 128 B, 64 MSHRs; [G] merge 8, miss queue 8,
       write-through no-allocate for global; hit latency [I] */
    CACHE("l1d", l1d, "64", "4", "128", "false", "64", "8", "8", "20", "L1 data cache"),
    L1OPTS("l1d", l1d, "L1 data cache"),
    /* [G] L1C 64:64:2 (MSHR 2 x 32 merges, queue 4 [I]) */
    CACHE("l1c", l1c, "64", "2", "64", "false", "2", "32", "4", "20", "L1 constant cache"),
    L1OPTS("l1c", l1c, "L1 constant cache"),
    /* [G] L1T 4:128:24 with a 128-entry MSHR / fragment queue */
    CACHE("l1t", l1t, "4", "24", "128", "false", "128", "4", "128", "20", "L1 texture cache"),
    L1OPTS("l1t", l1t, "L1 texture cache"),
    /* GPGPU-Sim's GTX480 il1 4:128:4 with 2 MSHRs x 32 merges, queue 4;
       only read when l1i.model is true (the presets keep a perfect I-cache) */
    BOOL("l1i.model", l1i_model, "false",
         "model the instruction cache (GPGPU-Sim's -gpgpu_cache:il1): a fetch whose line "
         "misses in l1i waits until the L2 returns it; false = every fetch hits"),
    CACHE("l1i", l1i, "4", "4", "128", "false", "2", "32", "4", "1", "L1 instruction cache"),
    U32("l1i.miss_latency", l1i_miss_latency, "0", "cycles", 0, 100000,
        "with l1i.model: an instruction-cache miss is filled this many core cycles after it "
        "is sent, without going below the SM; 0 = the miss goes to the L2 like a data read"),
    L1OPTS("l1i", l1i, "L1 instruction cache"),
    /* Mascar spec §2.2 [I]: flag at 60/64 MSHRs or 7/8 miss-queue entries */
    U32("l1d_sat_mshr_slack", l1d_sat_mshr_slack, "4", "entries", 0, 65535,
        "L1 reports saturation when free MSHRs <= this"),
    U32("l1d_sat_missq_slack", l1d_sat_missq_slack, "1", "entries", 0, 65535,
        "L1 reports saturation when free miss-queue entries <= this"),
    { "l1d_trace", P_STR, OFF(l1d_trace), sizeof(((gpu_config *)0)->l1d_trace), "", "path", 0, 0,
      "record every L1D access (SM, warp uid, line, load/store/atomic, cycle) to this file "
      "(docs/l1-trace.md; replay it with warpsim belady); empty = off", NULL },
    BOOL("l1d_belady", l1d_belady, "false",
         "at each kernel's end replay its L1D access stream with LRU and with Belady-optimal "
         "replacement (same geometry) and report l1d_lru_* and l1d_belady_* (CCWS §2.9)"),
    /* Mascar §2.7 / mascar.md: 32 entries there; 0 keeps the blocking LSU */
    U32("lsu.reexec_queue", lsu_reexec_queue, "0", "entries", 0, 1024,
        "LSU re-execution queue: a request the L1 refuses (reservation fail or policy NACK) "
        "is parked and retried later while other requests proceed; a full queue stalls the "
        "LSU, which then serves only the queue (Mascar); 0 = the LSU blocks"),

    /* memory below L1 (simple backend): [T] 200-cycle L2 latency [I: every
       miss an L2 hit until the memory system exists]; 177.4 GB/s at 700 MHz
       = 253 B/cycle [G-derived]; 32 requests x 6 partitions [T] */
    U32("mem_latency", mem_latency, "200", "cycles", 1, 100000,
        "core cycles from an L1 miss leaving to its reply (simple backend)"),
    U32("mem_bytes_per_cycle", mem_bytes_per_cycle, "253", "bytes/cycle", 1, 1u << 20,
        "bandwidth of the memory backend"),
    U32("mem_queue", mem_queue, "192", "requests", 1, 1u << 20,
        "requests the memory backend holds (back-pressure when full)"),
    U32("n_mem", n_mem, "6", "channels", 1, 1024,
        "memory channels: DRAM controllers (full memory model)"),

    /* memory system below L1 (memory_model = full).  Sources: [G] the
       GPGPU-Sim 3.2.2 GTX480 config in Mascar spec §3 (L2 64:128:8 per
       sub-partition, 6 channels x 2 sub-partitions, MSHR 32 x 4 merges,
       partition queues 8, GDDR5 timing opt, 16 requests per chip x 2 chips,
       4-byte bus per chip x 2 chips, burst 8, data:command ratio 4, address
       map dramid@8), [T] Mascar Table I, [I] our interpretation. */
    STR("memory_model", memory_model, "full",
        "memory below L1: simple (fixed latency + bandwidth backend) or full "
        "(interconnect, L2 slices, DRAM controllers)"),
    /* [G] config_fermi_islip.icnt: 32 B flits, iSLIP allocation with input
       speedup 2, VC buffer 8.  [I] our crossbar (mem/icnt.c: input speedup 2,
       no head-of-line blocking, round-robin outputs, no virtual channels)
       sustains about 81% of peak DRAM bandwidth on a streaming kernel with
       32 B flits and about 86% with 64 B flits (test_memsys_e2e's stream;
       `WS_E2E_SET=icnt_flit_bytes=32 build/tests/test_memsys_e2e`); we take
       64 B so the interconnect is not a bottleneck the GTX480 does not have.
       16 flits per port [I]; crossbar latency [I] */
    U32("icnt_flit_bytes", icnt_flit_bytes, "64", "bytes", 4, 4096,
        "interconnect flit size (a packet is ceil(bytes / flit) flits, header included)"),
    U32("icnt_latency", icnt_latency, "8", "icnt cycles", 1, 10000,
        "cycles a flit takes through the crossbar (each network)"),
    U32("icnt_in_buffer", icnt_in_buffer, "16", "flits", 1, 1u << 20,
        "flits buffered per input port (credits toward the sender)"),
    U32("icnt_out_buffer", icnt_out_buffer, "16", "flits", 1, 1u << 20,
        "flits buffered per output port (ejection)"),
    U32("n_sub_per_mem", n_sub_per_mem, "2", "sub-partitions", 1, 64,
        "memory sub-partitions (L2 slices) per channel"),
    /* [G] L2 64:128:8 write-back + allocate, MSHR A:32:4, miss queue 4 per
       sub-partition (12 x 64 KB = 768 KB, [T]); hit latency [I]: with the
       crossbar and L1 it makes the unloaded L1-miss/L2-hit round trip about
       the 200 core cycles of [T] */
    CACHE("l2", l2, "64", "8", "128", "true", "32", "4", "4", "150",
          "L2 slice (per sub-partition; latency in L2 cycles)"),
    U32("l2_queue", l2_queue, "8", "requests", 1, 1u << 20,
        "requests queued at an L2 slice's input, and toward DRAM ([G] partition queues)"),
    BOOL("l2.set_index_local", l2_set_index_local, "false",
         "an L2 slice picks a line's set from the address with the channel and "
         "sub-partition digits taken out (GPGPU-Sim's l2_cache_config::set_index on the "
         "partition address); false: from the whole line number, so a slice may use "
         "only some of its sets"),
    BOOL("l2.warm_on_copy", l2_warm_on_copy, "false",
         "host-to-device and device-to-host copies leave their lines valid and clean in "
         "the L2 slices that own them (GPGPU-Sim's -gpgpu_perf_sim_memcpy)"),
    U32("l2_interleave_bytes", l2_interleave_bytes, "256", "bytes", 32, 1u << 30,
        "address interleaving granule across L2 slices (power of two, >= l2.line_bytes)"),
    /* 0 keeps whole lines (the presets); GPGPU-Sim 4's 'S:' L2 has 32 B sectors */
    U32("l2.sector_bytes", l2_sector_bytes, "0", "bytes", 0, 4096,
        "L2 sector size: 0 = whole lines; else a power of two dividing l2.line_bytes "
        "(at most 32 sectors a line): each sector is valid, dirty, missed and fetched "
        "from DRAM on its own, and a request is split into one L2 access per sector "
        "(GPGPU-Sim 'S:' caches, 32 B)"),
    /* [G] nbk=16 nbkgrp=4; queue 16 per chip x 2 chips = 32 ([T] 32 requests
       per partition); bus 4 B per chip x 2 chips; BL 8; GDDR5 data:command 4:
       6 x 8 B x 4 x 924 MHz = 177.4 GB/s */
    U32("dram_banks", dram_banks, "16", "banks", 1, 1024, "DRAM banks per channel"),
    U32("dram_bank_groups", dram_bank_groups, "4", "groups", 1, 1024,
        "bank groups per channel (1 = none; must divide dram_banks)"),
    U32("dram_queue", dram_queue, "32", "requests", 1, 1u << 20,
        "requests a DRAM controller holds for scheduling"),
    /* 0 keeps the presets' timing; GPGPU-Sim's GTX480 file has 100 */
    U32("dram_latency", dram_latency, "0", "core cycles", 0, 100000,
        "fixed delay added to every DRAM access besides its bank and bus timing "
        "(GPGPU-Sim -dram_latency: a request waits this long between the L2 and the DRAM "
        "queue; here its completion is delayed, which keeps the queue's occupancy)"),
    U32("dram_bus_bytes", dram_bus_bytes, "8", "bytes", 1, 1024,
        "data bus width per channel"),
    U32("dram_burst", dram_burst, "8", "beats", 1, 1024,
        "burst length: beats one column command moves (dram_bus_bytes each)"),
    U32("dram_data_rate", dram_data_rate, "4", "beats/cycle", 1, 16,
        "data beats per DRAM command-clock cycle (2 = DDR, 4 = GDDR5)"),
    /* [G] -gpgpu_dram_timing_opt "nbk=16:CCD=2:RRD=6:RCD=12:RAS=28:RP=12:
       RC=40:CL=12:WL=4:CDLR=5:WR=12:nbkgrp=4:CCDL=3:RTPL=2", with tWTR =
       WL + BL/ratio + CDLR and tRTW = CL + BL/ratio + 2 - WL as GPGPU-Sim
       derives them */
    U32("tCL", tCL, "12", "DRAM cycles", 0, 10000, "CAS latency: read command to first data"),
    U32("tRCD", tRCD, "12", "DRAM cycles", 0, 10000, "activate to read/write command, same bank"),
    U32("tRP", tRP, "12", "DRAM cycles", 0, 10000, "precharge to activate, same bank"),
    U32("tRAS", tRAS, "28", "DRAM cycles", 0, 10000, "activate to precharge, same bank"),
    U32("tRC", tRC, "40", "DRAM cycles", 0, 10000, "activate to activate, same bank"),
    U32("tRRD", tRRD, "6", "DRAM cycles", 0, 10000, "activate to activate, different banks"),
    U32("tCCD", tCCD, "2", "DRAM cycles", 0, 10000,
        "column command to column command (different bank groups)"),
    U32("tWTR", tWTR, "11", "DRAM cycles", 0, 10000,
        "write command to read command (write-to-read turnaround)"),
    U32("tWR", tWR, "12", "DRAM cycles", 0, 10000, "write recovery: write to precharge, same bank"),
    U32("tRTW", tRTW, "12", "DRAM cycles", 0, 10000,
        "read command to write command (read-to-write turnaround)"),
    U32("tCCDL", tCCDL, "3", "DRAM cycles", 0, 10000,
        "column command to column command in the same bank group"),
    U32("tRTP", tRTP, "2", "DRAM cycles", 0, 10000, "read command to precharge, same bank"),
    { "dram_addr_map", P_STR, OFF(dram_addr_map), sizeof(((gpu_config *)0)->dram_addr_map),
      "dramid@8;00000000.00000000.00000000.00000000.0000RRRR.RRRRRRRR.RBBBCCCC.BCCSSSSS",
      "bit string", 0, 0,
      "DRAM address mapping in GPGPU-Sim -gpgpu_mem_addr_mapping form: optional "
      "dramid@BIT; then 64 bit letters, most significant first (R row, B bank, "
      "C column, S burst offset, 0 unused; dots ignored)", NULL },
    STR("dram_scheduler", dram_scheduler, "frfcfs",
        "DRAM scheduling policy (warpsim policies lists them)"),
    { "dram_scheduler_params", P_STR, OFF(dram_scheduler_params),
      sizeof(((gpu_config *)0)->dram_scheduler_params), "", "k=v,...", 0, 0,
      "parameters of the DRAM scheduler (see warpsim policies)", NULL },
    STR("dram_prefetch", dram_prefetch, "none",
        "memory-side prefetcher in each DRAM controller, none = off (warpsim policies)"),
    { "dram_prefetch_params", P_STR, OFF(dram_prefetch_params),
      sizeof(((gpu_config *)0)->dram_prefetch_params), "", "k=v,...", 0, 0,
      "parameters of the DRAM prefetcher (see warpsim policies)", NULL },
    /* idealised modes for bounds and sanity checks */
    BOOL("perfect_l2", perfect_l2, "false", "every L2 access hits (no DRAM traffic for reads)"),
    BOOL("perfect_l1", perfect_l1, "false",
         "every L1 data, constant and texture access hits, stores and atomics included "
         "(no traffic below L1; OWL's PMEM bound)"),
    BOOL("dram_cta_rows", dram_cta_rows, "false",
         "record per DRAM row the CTAs whose demand reads reach it: consecutive-CTA row "
         "sharing and CTAs per row in the memsys report (OWL Table 4; costs time and memory)"),
    BOOL("unlimited_mem", unlimited_mem, "false",
         "unlimited MSHRs and queues at L1, interconnect, L2 and DRAM (no back-pressure)"),
    BOOL("dram_bank_hold", dram_bank_hold, "false",
         "a bank starts its next access only when the last one's data has crossed the bus "
         "(fetch-dram spec 3 [R]: the bank is busy for the whole access); false: column "
         "accesses to an open row pipeline as the timing allows"),
    U32("dram_fixed_latency", dram_fixed_latency, "0", "DRAM cycles", 0, 1000000,
        "> 0: DRAM answers every request after this many cycles (no banks, no timing)"),
    BOOL("oracle_profile", oracle_profile, "false",
         "functional pre-run of each launch recording per-warp instruction counts "
         "(also on whenever a configured policy declares it needs the profile)"),

    /* run control */
    U64("watchdog_cycles", watchdog_cycles, "100000", "cycles", 1, 1e15,
        "no instruction retired for this long = deadlock, stop with a dump"),
    U64("max_cycles", max_cycles, "0", "cycles", 0, 1e18, "stop a kernel after this many; 0 = no limit"),
    /* the default equals WS_DEFAULT_PROGRESS_LIMIT (warpsim.h) */
    U64("progress_limit", progress_limit, "1000000000", "warp insns", 0, 1e18,
        "warp instructions with no warp finishing and no barrier completing = hang, stop "
        "with a dump; 0 = no limit"),
    U64("timeseries_interval", timeseries_interval, "0", "cycles", 0, 1e15,
        "sample the time series every this many cycles; 0 = off"),
    BOOL("skip_idle_cycles", skip_idle_cycles, "true",
         "jump over cycles in which nothing can change (results are identical)"),
    U32("threads", threads, "1", "threads", 1, 256,
        "host threads ticking the SMs (docs/parallel-timing.md); statistics are "
        "byte-identical for every value"),

    /* energy model (gpu/energy.c, docs/energy.md): a technology table and
       each of its values as a key of its own (common/energy.def) */
    STR("energy_tech", energy_tech, "40nm",
        "technology table of the energy model (docs/energy.md): 40nm"),
#define EN(id, k, u, part, what)                                                         \
    DBL("energy." k, energy[ENERGY_P_##id], "-1", u, -1, 1e12,                           \
        "energy model: " what "; -1 = the energy_tech table's value"),
#include "../common/energy.def"
#undef EN
};

#define NPARAMS (sizeof params / sizeof params[0])

/* ------------------------------------------------------------------ */
/* Lookup and messages                                                 */
/* ------------------------------------------------------------------ */

static const cfg_param *find_param(const char *key)
{
    for (size_t i = 0; i < NPARAMS; i++)
        if (strcmp(params[i].key, key) == 0) return &params[i];
    return NULL;
}

const char *gpu_config_key(uint32_t i)
{
    return i < NPARAMS ? params[i].key : NULL;
}

/* Levenshtein distance of two short strings (capped at 63 characters). */
static unsigned edit_distance(const char *a, const char *b)
{
    unsigned row[64], la = (unsigned)strlen(a), lb = (unsigned)strlen(b);
    if (la > 63) la = 63;
    if (lb > 63) lb = 63;
    for (unsigned j = 0; j <= lb; j++) row[j] = j;
    for (unsigned i = 1; i <= la; i++) {
        unsigned diag = row[0];
        row[0] = i;
        for (unsigned j = 1; j <= lb; j++) {
            unsigned up = row[j];
            unsigned best = diag + (a[i - 1] != b[j - 1]);
            if (up + 1 < best) best = up + 1;
            if (row[j - 1] + 1 < best) best = row[j - 1] + 1;
            row[j] = best;
            diag = up;
        }
    }
    return row[lb];
}

/* "unknown parameter 'k'; did you mean: a, b?" or the list of all keys. */
static void unknown_key(const char *key, char *err, size_t errlen)
{
    size_t n = (size_t)snprintf(err, errlen, "unknown parameter '%s'", key);
    int close = 0;
    for (size_t i = 0; i < NPARAMS && n < errlen; i++) {
        const char *k = params[i].key;
        bool near = edit_distance(key, k) <= 2 || (strlen(key) >= 3 && strstr(k, key));
        if (!near) continue;
        n += (size_t)snprintf(err + n, errlen - n, "%s%s", close++ ? ", " : "; did you mean: ", k);
    }
    if (close) {
        if (n < errlen) snprintf(err + n, errlen - n, "?");
        return;
    }
    for (size_t i = 0; i < NPARAMS && n < errlen; i++)
        n += (size_t)snprintf(err + n, errlen - n, "%s%s", i ? " " : "; valid parameters: ",
                              params[i].key);
}

/* ------------------------------------------------------------------ */
/* Setting and reading one parameter                                   */
/* ------------------------------------------------------------------ */

static bool parse_bool(const char *v, bool *out)
{
    static const char *const yes[] = { "1", "true", "yes", "on" };
    static const char *const no[] = { "0", "false", "no", "off" };
    for (int i = 0; i < 4; i++) {
        if (strcasecmp(v, yes[i]) == 0) { *out = true; return true; }
        if (strcasecmp(v, no[i]) == 0) { *out = false; return true; }
    }
    return false;
}

static void range_text(const cfg_param *p, char *buf, size_t len)
{
    if (p->type == P_DBL) snprintf(buf, len, "[%g, %g] %s", p->min, p->max, p->unit);
    else snprintf(buf, len, "[%.0f, %.0f] %s", p->min, p->max, p->unit);
}

/* Parse `v` as a number for `p` and check its bounds. */
static int set_number(gpu_config *c, const cfg_param *p, const char *v, char *err, size_t errlen)
{
    char range[96], *end;
    range_text(p, range, sizeof range);
    errno = 0;
    double d = 0;
    unsigned long long u = 0;
    if (p->type == P_DBL) d = strtod(v, &end);
    else {
        /* decimal, or 0x hex; never octal ("010" is ten) */
        bool hex = v[0] == '0' && (v[1] == 'x' || v[1] == 'X');
        u = strtoull(v, &end, hex ? 16 : 10);
        d = (double)u;
    }
    bool junk = end == v || *end || errno || (p->type != P_DBL && strchr(v, '-'))
                || (p->type == P_DBL && !isfinite(d));
    if (junk) {
        snprintf(err, errlen, "parameter '%s': value '%s' is not %s (valid: %s)", p->key, v,
                 p->type == P_DBL ? "a number" : "an unsigned integer", range);
        return -1;
    }
    if (d < p->min || d > p->max) {
        snprintf(err, errlen, "parameter '%s': value %s is out of range (valid: %s)", p->key,
                 v, range);
        return -1;
    }
    void *f = (char *)c + p->offset;
    if (p->type == P_U32) *(uint32_t *)f = (uint32_t)u;
    else if (p->type == P_U64) *(uint64_t *)f = (uint64_t)u;
    else *(double *)f = d;
    return 0;
}

/* "a, b, c": the names of an enum parameter. */
static void choice_text(const cfg_param *p, char *buf, size_t len)
{
    size_t n = 0;
    buf[0] = '\0';
    for (uint32_t i = 0; p->choices[i] && n < len; i++)
        n += (size_t)snprintf(buf + n, len - n, "%s%s", i ? ", " : "", p->choices[i]);
}

/* Exact-name lookup of `v` among the choices (no prefixes: a typo is an
   error, never another choice). */
static int set_choice(const cfg_param *p, uint32_t *f, const char *v, char *err, size_t errlen)
{
    for (uint32_t i = 0; p->choices[i]; i++)
        if (strcmp(v, p->choices[i]) == 0) {
            *f = i;
            return 0;
        }
    char names[128];
    choice_text(p, names, sizeof names);
    snprintf(err, errlen, "parameter '%s': value '%s' is not one of: %s", p->key, v, names);
    return -1;
}

static int set_param(gpu_config *c, const cfg_param *p, const char *v, char *err, size_t errlen)
{
    void *f = (char *)c + p->offset;
    switch (p->type) {
    case P_BOOL:
        if (parse_bool(v, (bool *)f)) return 0;
        snprintf(err, errlen, "parameter '%s': value '%s' is not a boolean (valid: true, "
                 "false, 1, 0, yes, no, on, off)", p->key, v);
        return -1;
    case P_STR:
        if (strlen(v) >= p->size) {
            snprintf(err, errlen, "parameter '%s': value '%s' is longer than %zu characters",
                     p->key, v, p->size - 1);
            return -1;
        }
        snprintf((char *)f, p->size, "%s", v);
        return 0;
    case P_ENUM:
        return set_choice(p, (uint32_t *)f, v, err, errlen);
    default:
        return set_number(c, p, v, err, errlen);
    }
}

int gpu_config_set(gpu_config *c, const char *key, const char *value, char *err, size_t errlen)
{
    const cfg_param *p = find_param(key);
    if (!p) {
        unknown_key(key, err, errlen);
        return -1;
    }
    return set_param(c, p, value, err, errlen);
}

static void format_value(const gpu_config *c, const cfg_param *p, char *buf, size_t len)
{
    const void *f = (const char *)c + p->offset;
    switch (p->type) {
    case P_U32:  snprintf(buf, len, "%u", *(const uint32_t *)f); break;
    case P_U64:  snprintf(buf, len, "%llu", (unsigned long long)*(const uint64_t *)f); break;
    case P_DBL:  snprintf(buf, len, "%.17g", *(const double *)f); break;
    case P_BOOL: snprintf(buf, len, "%s", *(const bool *)f ? "true" : "false"); break;
    case P_ENUM: {
        /* an index past the names (a struct filled by hand) shows as "?",
           which the check then rejects */
        uint32_t v = *(const uint32_t *)f, n = 0;
        while (p->choices[n]) n++;
        snprintf(buf, len, "%s", v < n ? p->choices[v] : "?");
        break;
    }
    default:     snprintf(buf, len, "%s", (const char *)f); break;
    }
    /* %.17g of 700 is "700"; of 0.1 it is long but exact: round-trips */
}

int gpu_config_get(const gpu_config *c, const char *key, char *buf, size_t len)
{
    const cfg_param *p = find_param(key);
    if (!p) return -1;
    format_value(c, p, buf, len);
    return 0;
}

void gpu_config_defaults(gpu_config *c)
{
    char err[256];
    memset(c, 0, sizeof *c);
    snprintf(c->preset, sizeof c->preset, "gtx480");
    for (size_t i = 0; i < NPARAMS; i++)
        if (set_param(c, &params[i], params[i].def, err, sizeof err) != 0)
            fprintf(stderr, "warpsim: internal error: default of %s: %s\n", params[i].key, err);
}

/* Append `name` to the comma list in `list` (bounded; "..." when full). */
void gpu_config_list_add(char *list, size_t len, const char *name)
{
    size_t n = strlen(list);
    if (n + strlen(name) + 8 >= len) {
        if (n + 4 < len && (n < 3 || strcmp(list + n - 3, "...") != 0))
            snprintf(list + n, len - n, "%s...", n ? ", " : "");
        return;
    }
    snprintf(list + n, len - n, "%s%s", n ? ", " : "", name);
}

/* gpu_config_apply, collecting in `notes` (when not NULL) the parts of a
   GPGPU-Sim value that have no counterpart. */
static int apply_setting(gpu_config *c, const char *setting, char *notes, size_t noteslen,
                         char *err, size_t errlen)
{
    const char *eq = strchr(setting, '=');
    char key[128];
    if (!eq || eq == setting || (size_t)(eq - setting) >= sizeof key) {
        snprintf(err, errlen, "'%s': expected key=value", setting);
        return -1;
    }
    memcpy(key, setting, (size_t)(eq - setting));
    key[eq - setting] = '\0';
    if (key[0] != '-') return gpu_config_set(c, key, eq + 1, err, errlen);
    int r = gpu_gpgpusim_apply(c, NULL, key, eq + 1, err, errlen);
    if (r == GPU_GS_ERROR) return -1;
    if (r == GPU_GS_PARTIAL) {
        if (notes) gpu_config_list_add(notes, noteslen, err);
        err[0] = '\0';
        return 0;
    }
    if (r == GPU_GS_IGNORED) {
        char why[512];
        snprintf(why, sizeof why, "%s", err);
        snprintf(err, errlen, "GPGPU-Sim option %s is not modelled by warpsim (it would "
                 "change: %s)", key, why);
        return -1;
    }
    if (r != GPU_GS_APPLIED) {
        snprintf(err, errlen, "GPGPU-Sim option %s is not known by warpsim", key);
        return -1;
    }
    return 0;
}

int gpu_config_apply(gpu_config *c, const char *setting, char *err, size_t errlen)
{
    return apply_setting(c, setting, NULL, 0, err, errlen);
}

/* ------------------------------------------------------------------ */
/* Presets                                                             */
/* ------------------------------------------------------------------ */

static const gpu_preset *find_preset(const char *name)
{
    for (const gpu_preset *p = gpu_presets; p->name; p++)
        if (strcmp(p->name, name) == 0) return p;
    return NULL;
}

const char *gpu_preset_summary(const char *name)
{
    const gpu_preset *p = find_preset(name);
    return p ? p->summary : NULL;
}

static void list_presets(char *buf, size_t len)
{
    size_t n = 0;
    buf[0] = '\0';
    for (const gpu_preset *p = gpu_presets; p->name && n < len; p++)
        n += (size_t)snprintf(buf + n, len - n, "%s%s", n ? ", " : "", p->name);
}

int gpu_config_preset(gpu_config *c, const char *name, char *err, size_t errlen)
{
    const gpu_preset *p = find_preset(name);
    if (!p) {
        char names[256];
        list_presets(names, sizeof names);
        snprintf(err, errlen, "unknown preset '%s' (presets: %s)", name, names);
        return -1;
    }
    gpu_config_defaults(c);
    for (const char *const *s = p->settings; s && *s; s++) {
        char e[512];
        if (gpu_config_apply(c, *s, e, sizeof e) != 0) {
            snprintf(err, errlen, "preset %s: %s", name, e);
            return -1;
        }
    }
    snprintf(c->preset, sizeof c->preset, "%s", name);
    return 0;
}

int gpu_config_build(gpu_config *c, const char *config, const char *const *settings,
                     char *warn, size_t warnlen, char *err, size_t errlen)
{
    return gpu_config_build_in(c, NULL, config, settings, warn, warnlen, err, errlen);
}

/* ------------------------------------------------------------------ */
/* Where each parameter was set                                        */
/* ------------------------------------------------------------------ */

_Static_assert(NPARAMS <= GPU_CFG_MAX_PARAMS, "raise GPU_CFG_MAX_PARAMS");

/* Bytes of parameter `p`'s field in gpu_config. */
static size_t field_size(const cfg_param *p)
{
    switch (p->type) {
    case P_U64: case P_DBL: return 8;
    case P_BOOL: return sizeof(bool);
    case P_STR: return p->size;
    default: return 4;
    }
}

void gpu_origins_mark(gpu_origins *o, const gpu_config *before, const gpu_config *after,
                      uint32_t line, const char *setting)
{
    for (size_t i = 0; i < NPARAMS; i++) {
        size_t off = params[i].offset;
        if (memcmp((const char *)before + off, (const char *)after + off,
                   field_size(&params[i])) == 0)
            continue;
        o->file_line[i] = setting ? o->file_line[i] : line;
        o->setting[i] = setting;
    }
}

/* Does `msg` name `key` as a whole word (not "tRC" inside "tRCD")? */
static bool names_key(const char *msg, const char *key)
{
    size_t n = strlen(key);
    for (const char *s = strstr(msg, key); s; s = strstr(s + 1, key)) {
        bool left = s == msg || !(isalnum((unsigned char)s[-1]) || s[-1] == '_'
                                  || s[-1] == '.');
        bool right = !(isalnum((unsigned char)s[n]) || s[n] == '_');
        if (left && right) return true;
    }
    return false;
}

void gpu_origins_explain(const gpu_origins *o, char *err, size_t errlen)
{
    size_t n = strlen(err);
    int k = 0;
    char msg[1024];
    snprintf(msg, sizeof msg, "%s", err);
    for (size_t i = 0; i < NPARAMS && n < errlen; i++) {
        if (!names_key(msg, params[i].key) || !(o->setting[i] || o->file_line[i])) continue;
        const char *sep = k++ ? "; " : " (";
        if (o->setting[i])
            n += (size_t)snprintf(err + n, errlen - n, "%s%s set by --set %s", sep,
                                  params[i].key, o->setting[i]);
        else
            n += (size_t)snprintf(err + n, errlen - n, "%s%s set at %s:%u", sep,
                                  params[i].key, o->file ? o->file : "?", o->file_line[i]);
    }
    if (k && n < errlen) snprintf(err + n, errlen - n, ")");
    else if (!k && o->file && n < errlen)
        snprintf(err + n, errlen - n, " (configuration from %s)", o->file);
}

/* Defaults, then the preset or file `config`. */
static int build_base(gpu_config *c, const char *config, gpu_origins *o, char *warn,
                      size_t warnlen, char *err, size_t errlen)
{
    gpu_config_defaults(c);
    if (!config || !*config) return 0;
    if (find_preset(config)) return gpu_config_preset(c, config, err, errlen);
    if (strchr(config, '/') || strchr(config, '.')) {
        o->file = config;
        if (gpu_config_load_file_at(c, config, o, warn, warnlen, err, errlen)) return -1;
        /* the file and its folder: GPGPU-Sim's configs are all called
           gpgpusim.config, their folder names the machine */
        const char *base = config + strlen(config);
        for (int slashes = 0; base > config; base--)
            if (base[-1] == '/' && ++slashes == 2) break;
        snprintf(c->preset, sizeof c->preset, "%s", base);
        return 0;
    }
    char names[256];
    list_presets(names, sizeof names);
    snprintf(err, errlen, "unknown preset '%s' (presets: %s; a config file is "
             "given by its path, e.g. ./%s)", config, names, config);
    return -1;
}

int gpu_config_build_in(gpu_config *c, const struct ws_registry *registry, const char *config,
                        const char *const *settings, char *warn, size_t warnlen, char *err,
                        size_t errlen)
{
    if (warn && warnlen) warn[0] = '\0';
    gpu_origins *o = calloc(1, sizeof *o);
    gpu_config *before = malloc(sizeof *before);
    int rc = o && before ? build_base(c, config, o, warn, warnlen, err, errlen) : -1;
    if (!o || !before) snprintf(err, errlen, "out of memory building the configuration");
    char notes[1024] = "", e[1024];
    for (const char *const *s = settings; rc == 0 && s && *s; s++) {
        *before = *c;
        /* name --set: the same key may also be in the file */
        if (apply_setting(c, *s, notes, sizeof notes, e, sizeof e)) {
            snprintf(err, errlen, "--set %s: %s", *s, e);
            rc = -1;
        } else {
            gpu_origins_mark(o, before, c, 0, *s);
        }
    }
    if (rc == 0 && notes[0] && warn && warnlen) {
        size_t n = strlen(warn);
        snprintf(warn + n, warnlen - n, "%sGPGPU-Sim values approximated: %s",
                 n ? "; " : "", notes);
    }
    /* set last: the defaults and a preset start from a cleared struct */
    c->registry = registry;
    if (rc == 0 && gpu_config_check(c, err, errlen)) {
        gpu_origins_explain(o, err, errlen);
        rc = -1;
    }
    free(before);
    free(o);
    return rc;
}

/* ------------------------------------------------------------------ */
/* Cross-field checks                                                  */
/* ------------------------------------------------------------------ */

static bool pow2(uint32_t x) { return x && !(x & (x - 1)); }

static int check_cache(const gpu_cache_config *k, const char *name, char *err, size_t errlen)
{
    if (!pow2(k->line_bytes)) {
        snprintf(err, errlen, "%s.line_bytes = %u is not a power of two", name, k->line_bytes);
        return -1;
    }
    /* write-evict is a write-through policy: a write-back hit must keep
       the line it has just dirtied */
    if (k->set_index == GPU_SET_INDEX_FERMI && k->sets != 32 && k->sets != 64) {
        snprintf(err, errlen, "%s.set_index = fermi needs 32 or 64 sets (%s.sets = %u): "
                 "the hash defines only those", name, name, k->sets);
        return -1;
    }
    if (k->unbounded && k->set_index != GPU_SET_INDEX_LINEAR) {
        snprintf(err, errlen, "%s.unbounded = true needs %s.set_index = linear (it grows the "
                 "sets by doubling)", name, name);
        return -1;
    }
    if (k->write_evict && k->write_back) {
        snprintf(err, errlen, "%s.write_evict = true needs %s.write_back = false "
                 "(write-evict is a write-through policy)", name, name);
        return -1;
    }
    return 0;
}

int gpu_config_policies(const gpu_config *c, ws_resolved_policies *out, char *err,
                        size_t errlen)
{
    const char *const names[WS_KIND_COUNT] = {
        [WS_KIND_WARP] = c->warp_scheduler, [WS_KIND_FETCH] = c->fetch_policy,
        [WS_KIND_CTA_MAP] = c->cta_map, [WS_KIND_DRAM] = c->dram_scheduler,
        [WS_KIND_DRAM_PREFETCH] = c->dram_prefetch };
    const char *const params[WS_KIND_COUNT] = {
        [WS_KIND_WARP] = c->warp_scheduler_params, [WS_KIND_FETCH] = c->fetch_policy_params,
        [WS_KIND_CTA_MAP] = c->cta_map_params, [WS_KIND_DRAM] = c->dram_scheduler_params,
        [WS_KIND_DRAM_PREFETCH] = c->dram_prefetch_params };
    return ws_policies_resolve(c->registry, names, params, out, err, errlen);
}

static int check_policies(const gpu_config *c, char *err, size_t errlen)
{
    ws_resolved_policies rp;
    return gpu_config_policies(c, &rp, err, errlen);
}

/* The memory system below L1: model name, geometry that must divide. */
static int check_memsys(const gpu_config *c, char *err, size_t errlen)
{
    if (strcmp(c->memory_model, "simple") && strcmp(c->memory_model, "full")) {
        snprintf(err, errlen, "memory_model '%s' does not exist (valid: simple, full)",
                 c->memory_model);
        return -1;
    }
    if (check_cache(&c->l2, "l2", err, errlen)) return -1;
    if (!pow2(c->l2_interleave_bytes) || c->l2_interleave_bytes < c->l2.line_bytes) {
        snprintf(err, errlen, "l2_interleave_bytes = %u must be a power of two and at least "
                 "l2.line_bytes (%u), so that a line lives in one slice",
                 c->l2_interleave_bytes, c->l2.line_bytes);
        return -1;
    }
    uint32_t sb = c->l2_sector_bytes;
    if (sb && (!pow2(sb) || sb > c->l2.line_bytes || c->l2.line_bytes / sb > 32)) {
        snprintf(err, errlen, "l2.sector_bytes = %u must be 0 or a power of two dividing "
                 "l2.line_bytes (%u) into at most 32 sectors", sb, c->l2.line_bytes);
        return -1;
    }
    if (c->dram_banks % c->dram_bank_groups) {
        snprintf(err, errlen, "dram_bank_groups = %u does not divide dram_banks = %u",
                 c->dram_bank_groups, c->dram_banks);
        return -1;
    }
    mem_addrmap map;
    char e[512];
    if (mem_addrmap_parse(&map, c->dram_addr_map, c->n_mem, c->n_sub_per_mem, e, sizeof e)) {
        snprintf(err, errlen, "dram_addr_map: %s", e);
        return -1;
    }
    if (mem_addrmap_banks(&map) < c->dram_banks) {
        snprintf(err, errlen, "dram_addr_map has bank bits for %u banks, fewer than "
                 "dram_banks = %u (banks it cannot name would never be used)",
                 mem_addrmap_banks(&map), c->dram_banks);
        return -1;
    }
    if (c->tRAS > c->tRC) {
        snprintf(err, errlen, "tRAS = %u is longer than tRC = %u (activate to activate "
                 "includes activate to precharge)", c->tRAS, c->tRC);
        return -1;
    }
    return 0;
}

int gpu_config_check(const gpu_config *c, char *err, size_t errlen)
{
    /* every field within the table's bounds (a struct filled by hand) */
    for (size_t i = 0; i < NPARAMS; i++) {
        char v[320], e[768];
        gpu_config tmp = *c;
        format_value(c, &params[i], v, sizeof v);
        if (params[i].type != P_STR && set_param(&tmp, &params[i], v, e, sizeof e)) {
            snprintf(err, errlen, "%s", e);
            return -1;
        }
    }
    uint32_t warps = gpu_config_max_warps(c);
    if (c->max_threads_per_sm % 32) {
        snprintf(err, errlen, "max_threads_per_sm = %u is not a multiple of the warp size 32",
                 c->max_threads_per_sm);
        return -1;
    }
    if (warps % c->n_schedulers) {
        snprintf(err, errlen, "max_threads_per_sm = %u gives %u warps per SM, which cannot "
                 "be divided evenly among n_schedulers = %u", c->max_threads_per_sm, warps,
                 c->n_schedulers);
        return -1;
    }
    if (!pow2(c->coalesce_bytes) || !pow2(c->shmem_bank_bytes)) {
        snprintf(err, errlen, "%s = %u is not a power of two",
                 pow2(c->coalesce_bytes) ? "shmem_bank_bytes" : "coalesce_bytes",
                 pow2(c->coalesce_bytes) ? c->shmem_bank_bytes : c->coalesce_bytes);
        return -1;
    }
    if (check_cache(&c->l1d, "l1d", err, errlen) || check_cache(&c->l1c, "l1c", err, errlen)
        || check_cache(&c->l1t, "l1t", err, errlen)
        || (c->l1i_model && check_cache(&c->l1i, "l1i", err, errlen)))
        return -1;
    /* a bypassing L1I would never hold the line a fetch waits for */
    if (c->l1i_model && !c->l1i.enabled) {
        snprintf(err, errlen, "l1i.model = true needs l1i.enabled = true (a fetch waits for "
                 "its line to be in the L1I)");
        return -1;
    }
    if (c->l1d_sat_mshr_slack >= c->l1d.mshr_entries
        || c->l1d_sat_missq_slack >= c->l1d.miss_queue) {
        snprintf(err, errlen, "l1d_sat_mshr_slack (%u) and l1d_sat_missq_slack (%u) must be "
                 "smaller than l1d.mshr_entries (%u) and l1d.miss_queue (%u)",
                 c->l1d_sat_mshr_slack, c->l1d_sat_missq_slack, c->l1d.mshr_entries,
                 c->l1d.miss_queue);
        return -1;
    }
    if (check_memsys(c, err, errlen)) return -1;
    energy_table et;
    if (energy_table_resolve(c, &et, err, errlen)) return -1;
    char e[400];
    if (gpu_ffwd_check(c->timing_from, c->timing_kernels, c->timing_every, err, errlen))
        return -1;
    if (gpu_hint_check(c->hals_hint, e, sizeof e)) {
        snprintf(err, errlen, "parameter 'hals_hint': value '%s': %s", c->hals_hint, e);
        return -1;
    }
    return check_policies(c, err, errlen);
}

/* ------------------------------------------------------------------ */
/* Dump                                                                */
/* ------------------------------------------------------------------ */

static void json_string(FILE *out, const char *s)
{
    fputc('"', out);
    for (; *s; s++) {
        unsigned char ch = (unsigned char)*s;
        if (ch == '"' || ch == '\\') fprintf(out, "\\%c", ch);
        else if (ch < 0x20) fprintf(out, "\\u%04x", ch);
        else fputc(ch, out);
    }
    fputc('"', out);
}

/* The text dump is itself a valid config file (`key = value`). */
static void dump_text(const gpu_config *c, FILE *out)
{
    fprintf(out, "# warpsim machine configuration (preset: %s; %u SMs)\n", c->preset,
            gpu_config_n_sm(c));
    for (size_t i = 0; i < NPARAMS; i++) {
        const cfg_param *p = &params[i];
        char v[320], unit[128];
        format_value(c, p, v, sizeof v);
        if (p->type == P_ENUM) choice_text(p, unit, sizeof unit);
        else snprintf(unit, sizeof unit, "%s", p->unit);
        bool bare = p->type == P_BOOL || p->type == P_STR;
        fprintf(out, "%-24s = %-12s # %s%s%s\n", p->key, v, bare ? "" : unit, bare ? "" : ": ",
                p->help);
    }
}

/* Keys that say how the host simulates, not what is simulated: a
   statistics report leaves them out, so that it is the same for any value
   (threads: docs/parallel-timing.md). */
static bool host_only(const cfg_param *p) { return p->offset == OFF(threads); }

static void dump_json(const gpu_config *c, FILE *out, bool machine)
{
    fprintf(out, "{\"preset\": ");
    json_string(out, c->preset);
    fprintf(out, ", \"n_sm\": %u, \"params\": {", gpu_config_n_sm(c));
    bool first = true;
    for (size_t i = 0; i < NPARAMS; i++) {
        const cfg_param *p = &params[i];
        if (machine && host_only(p)) continue;
        char v[320];
        format_value(c, p, v, sizeof v);
        fprintf(out, "%s\n  ", first ? "" : ",");
        first = false;
        json_string(out, p->key);
        fprintf(out, ": {\"value\": ");
        if (p->type == P_STR || p->type == P_ENUM) json_string(out, v);
        else fputs(v, out);
        fprintf(out, ", \"unit\": ");
        json_string(out, p->type == P_BOOL || p->type == P_ENUM ? "" : p->unit);
        fputc('}', out);
    }
    fprintf(out, "\n}}\n");
}

void gpu_config_dump(const gpu_config *c, FILE *out, bool json)
{
    if (json) dump_json(c, out, false);
    else dump_text(c, out);
}

void gpu_config_dump_machine(const gpu_config *c, FILE *out)
{
    dump_json(c, out, true);
}
