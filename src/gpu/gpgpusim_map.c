/*
** gpgpusim_map.c -- every GPGPU-Sim 4.2 option warpsim knows, one table row
** each: the handler that maps it onto warpsim parameters with GPGPU-Sim's
** meaning (gpu-sim.cc's option registrations, shader.cc, dram.cc), or, for
** an option warpsim does not model, what it would have changed.  A file's
** options that are not modelled are named once, with that phrase, in one
** warning (config_file.c); an option in no row is "unknown" there.
** Adding a mechanism behind an option = giving its row a handler.
*/
#include "gpgpusim_int.h"
#include <string.h>

/* ------------------------------------------------------------------ */
/* Handlers of plain values                                            */
/* ------------------------------------------------------------------ */

/* A non-negative integer into warpsim key `arg` (bounds checked there). */
static int gs_u32(gpu_config *c, gpu_gs_state *st, const gs_row *row, const char *v,
                  char *err, size_t errlen)
{
    uint32_t x;
    (void)st;
    if (!gs_num(v, &x)) return gs_bad(row->opt, v, "a non-negative integer", err, errlen);
    if (gs_setf(c, row->arg, row->opt, x, err, errlen)) return GPU_GS_ERROR;
    if (!row->why) return GPU_GS_APPLIED;
    snprintf(err, errlen, "%s [%s]", row->opt, row->why);   /* mapped, approximated */
    return GPU_GS_PARTIAL;
}

/* An option whose value `arg` is what warpsim always does (so it maps);
   any other value is named with `why`, what it would have changed. */
static int gs_match(gpu_config *c, gpu_gs_state *st, const gs_row *row, const char *v,
                    char *err, size_t errlen)
{
    uint32_t x, want;
    (void)c; (void)st;
    if (!gs_num(v, &x)) return gs_bad(row->opt, v, "a non-negative integer", err, errlen);
    if (gs_num(row->arg, &want) && x == want) return GPU_GS_APPLIED;
    snprintf(err, errlen, "%s", row->why);
    return GPU_GS_IGNORED;
}

static int gs_skip_l1d(gpu_config *c, gpu_gs_state *st, const gs_row *row, const char *v,
                       char *err, size_t errlen)
{
    uint32_t x;
    (void)st;
    if (!gs_num(v, &x) || x > 1) return gs_bad(row->opt, v, "0 or 1", err, errlen);
    return gpu_config_set(c, "l1d.enabled", x ? "false" : "true", err, errlen)
           ? GPU_GS_ERROR : GPU_GS_APPLIED;
}

/* 0 or 1 into boolean warpsim key `arg`. */
static int gs_flag(gpu_config *c, gpu_gs_state *st, const gs_row *row, const char *v,
                   char *err, size_t errlen)
{
    uint32_t x;
    (void)st;
    if (!gs_num(v, &x) || x > 1) return gs_bad(row->opt, v, "0 or 1", err, errlen);
    return gpu_config_set(c, row->arg, x ? "true" : "false", err, errlen)
           ? GPU_GS_ERROR : GPU_GS_APPLIED;
}

/* 20 and later: 128 B segments per warp (GPGPU-Sim's
   memory_coalescing_arch), warpsim's coalesce_bytes = 128.  13 is the
   compute 1.3 half-warp rule set, which warpsim does not have. */
static int gs_coalesce(gpu_config *c, gpu_gs_state *st, const gs_row *row, const char *v,
                       char *err, size_t errlen)
{
    uint32_t x;
    (void)st;
    if (!gs_num(v, &x)) return gs_bad(row->opt, v, "an architecture number (13, 20, ...)", err, errlen);
    /* GPGPU-Sim also shrinks every transaction to the 64/32 B its lanes
       touch (abstract_hardware_model.cc, reduce_and_send); it matters where
       the transaction's own bytes travel: write-through stores */
    if (x >= 20) {
        if (gs_setf(c, "coalesce_bytes", row->opt, 128, err, errlen)) return GPU_GS_ERROR;
        return gpu_config_apply(c, "coalesce_reduce=true", err, errlen) ? GPU_GS_ERROR
                                                                        : GPU_GS_APPLIED;
    }
    snprintf(err, errlen, "compute 1.x half-warp coalescing rules");
    return GPU_GS_IGNORED;
}

/* GPGPU-Sim: instructions one warp may issue in a cycle (the scheduler
   issues from one warp).  1 is warpsim's issue_width = 1; 2 (dual issue
   from one warp) becomes two instructions from different warps. */
static int gs_issue(gpu_config *c, gpu_gs_state *st, const gs_row *row, const char *v,
                    char *err, size_t errlen)
{
    uint32_t x;
    (void)st;
    if (!gs_num(v, &x) || !x) return gs_bad(row->opt, v, "1 or 2", err, errlen);
    if (gs_setf(c, "issue_width", row->opt, x, err, errlen)) return GPU_GS_ERROR;
    if (x == 1) return GPU_GS_APPLIED;
    snprintf(err, errlen, "%s [%u: the second instruction comes from another warp]", row->opt, x);
    return GPU_GS_PARTIAL;
}

/* 1 = booksim from -inter_config_file, 2 = GPGPU-Sim's own crossbar
   (local_interconnect), which warpsim's crossbar models. */
static int gs_network(gpu_config *c, gpu_gs_state *st, const gs_row *row, const char *v,
                      char *err, size_t errlen)
{
    uint32_t x;
    (void)c; (void)st;
    if (!gs_num(v, &x) || x < 1 || x > 4) return gs_bad(row->opt, v, "1 to 4", err, errlen);
    if (x == 2) return GPU_GS_APPLIED;
    snprintf(err, errlen, "booksim network of the .icnt file (iSLIP, virtual channels); "
             "warpsim's crossbar is used");
    return GPU_GS_IGNORED;
}

/* ------------------------------------------------------------------ */
/* The table                                                           */
/* ------------------------------------------------------------------ */

#define MAP(o, fn, arg)  { o, fn, arg, NULL }
#define NUM(o, key)      { o, gs_u32, key, NULL }
#define NUMA(o, key, why) { o, gs_u32, key, why }   /* mapped, approximated: why */
#define SAME(o, v, why)  { o, gs_match, v, why }
#define NONE(o, why)     { o, NULL, NULL, why }

/* phrases shared by several rows */
#define OUTPUT_ONLY  "statistics, trace or power output only (no timing effect)"
#define FUNC_ONLY    "functional-simulation setting (no timing effect)"
#define OC           "operand collector: register-bank conflicts and collector units delay " \
                     "operands between issue and execution"
#define TENSOR       "tensor-core unit count and mma timing"
#define CARVE        "cudaFuncSetCacheConfig L1/shared carve-outs"
#define ADAPTIVE     "per-kernel L1D size = unified size minus the shared-memory carve-out " \
                     "the kernel needs (warpsim keeps the -gpgpu_cache:dl1 geometry)"

static const gs_row rows[] = {
    /* SM array, per-SM limits, front end and issue */
    NUM("-gpgpu_n_clusters", "n_clusters"),
    NUM("-gpgpu_n_cores_per_cluster", "cores_per_cluster"),
    MAP("-gpgpu_shader_core_pipeline", gs_pipeline, NULL),
    NUM("-gpgpu_shader_cta", "max_ctas_per_sm"),
    NUM("-gpgpu_shader_registers", "regs_per_sm"),
    NUM("-gpgpu_shmem_size", "shmem_per_sm"),
    /* the size a launch uses when no carve-out is asked for (shader.cc) */
    NUM("-gpgpu_shmem_sizeDefault", "shmem_per_sm"),
    NONE("-gpgpu_shmem_size_PrefL1", CARVE),
    NONE("-gpgpu_shmem_size_PrefShared", CARVE),
    NONE("-gpgpu_cache:dl1PrefL1", CARVE),
    NONE("-gpgpu_cache:dl1PrefShared", CARVE),
    NONE("-gpgpu_adaptive_cache_config", ADAPTIVE),
    NONE("-gpgpu_shmem_option", ADAPTIVE),
    NONE("-gpgpu_unified_l1d_size", ADAPTIVE),
    NONE("-gpgpu_shmem_per_block", "per-CTA shared-memory limit checked at launch"),
    NONE("-gpgpu_registers_per_block", "per-CTA register limit checked at launch"),
    NONE("-gpgpu_ignore_resources_limitation", "CTAs placed beyond register/shared limits"),
    NONE("-gpgpu_occupancy_sm_number", "sm version ptxas is asked for register counts "
                                       "(warpsim asks for --arch)"),
    NUM("-gpgpu_num_sched_per_core", "n_schedulers"),
    MAP("-gpgpu_scheduler", gs_scheduler, NULL),
    MAP("-gpgpu_max_insn_issue_per_warp", gs_issue, NULL),
    NONE("-gpgpu_dual_issue_diff_exec_units", "dual issue from one warp needs two unit kinds"),
    NONE("-gpgpu_sub_core_model", "execution units and register banks split among the "
                                  "schedulers (warpsim shares them)"),
    SAME("-gpgpu_simd_model", "1", "a divergence model other than post-dominator "
                                   "reconvergence"),
    MAP("-gpgpu_cache:il1", gs_icache, "l1i"),
    NONE("-gpgpu_inst_fetch_throughput", "instructions fetched per warp per fetch"),
    MAP("-gpgpu_perfect_inst_const_cache", gs_perfect_icache, NULL),
    NONE("-gpgpu_pipeline_widths", "widths of the issue/operand/execute/writeback stages"),
    NONE("-gpgpu_reg_file_port_throughput", "register-file port count"),
    NUM("-gpgpu_num_reg_banks", "opcoll.reg_banks"),
    NONE("-gpgpu_reg_bank_use_warp_id", OC),
    NONE("-gpgpu_enable_specialized_operand_collector", OC),
    NUM("-gpgpu_operand_collector_num_units_sp", "opcoll.units_sp"),
    NONE("-gpgpu_operand_collector_num_units_dp", OC),
    NUM("-gpgpu_operand_collector_num_units_sfu", "opcoll.units_sfu"),
    NONE("-gpgpu_operand_collector_num_units_int", OC),
    NONE("-gpgpu_operand_collector_num_units_tensor_core", OC),
    NONE("-gpgpu_operand_collector_num_units_mem", OC),
    NONE("-gpgpu_operand_collector_num_units_gen", OC),
    NONE("-gpgpu_operand_collector_num_in_ports_sp", OC),
    NONE("-gpgpu_operand_collector_num_in_ports_dp", OC),
    NONE("-gpgpu_operand_collector_num_in_ports_sfu", OC),
    NONE("-gpgpu_operand_collector_num_in_ports_int", OC),
    NONE("-gpgpu_operand_collector_num_in_ports_tensor_core", OC),
    NONE("-gpgpu_operand_collector_num_in_ports_mem", OC),
    NONE("-gpgpu_operand_collector_num_in_ports_gen", OC),
    NONE("-gpgpu_operand_collector_num_out_ports_sp", OC),
    NONE("-gpgpu_operand_collector_num_out_ports_dp", OC),
    NONE("-gpgpu_operand_collector_num_out_ports_sfu", OC),
    NONE("-gpgpu_operand_collector_num_out_ports_int", OC),
    NONE("-gpgpu_operand_collector_num_out_ports_tensor_core", OC),
    NONE("-gpgpu_operand_collector_num_out_ports_mem", OC),
    NONE("-gpgpu_operand_collector_num_out_ports_gen", OC),

    /* execution units and operation timing; 0 DP units = DP on the SFU
       pipes, 0 INT units = integer ops on the SP pipes (shader.cc) */
    NUM("-gpgpu_num_sp_units", "units.sp"),
    NUM("-gpgpu_num_sfu_units", "units.sfu"),
    NUM("-gpgpu_num_dp_units", "units.dp"),
    NUM("-gpgpu_num_int_units", "units.int"),
    NONE("-gpgpu_num_mem_units", "nothing (GPGPU-Sim: not hooked up to anything)"),
    NONE("-gpgpu_tensor_core_avail", TENSOR),
    NONE("-gpgpu_num_tensor_core_units", TENSOR),
    NONE("-ptx_opcode_latency_tesnor", TENSOR),   /* sic: GPGPU-Sim's spelling */
    NONE("-ptx_opcode_latency_tensor", TENSOR),
    NONE("-ptx_opcode_initiation_tensor", TENSOR),
    MAP("-ptx_opcode_latency_int", gs_opcode_latency, "int"),
    MAP("-ptx_opcode_initiation_int", gs_opcode_interval, "int"),
    MAP("-ptx_opcode_latency_fp", gs_opcode_latency, "fp"),
    MAP("-ptx_opcode_initiation_fp", gs_opcode_interval, "fp"),
    MAP("-ptx_opcode_latency_dp", gs_opcode_latency, "dp"),
    MAP("-ptx_opcode_initiation_dp", gs_opcode_interval, "dp"),
    MAP("-ptx_opcode_latency_sfu", gs_opcode_latency, "sfu"),
    MAP("-ptx_opcode_initiation_sfu", gs_opcode_interval, "sfu"),

    /* load/store unit, shared memory, L1 caches */
    MAP("-gpgpu_cache:dl1", gs_cache, "l1d"),
    MAP("-gpgpu_const_cache:l1", gs_cache, "l1c"),
    MAP("-gpgpu_cache:const", gs_cache, "l1c"),
    MAP("-gpgpu_tex_cache:l1", gs_cache, "l1t"),
    MAP("-gpgpu_cache:tex", gs_cache, "l1t"),
    MAP("-gpgpu_gmem_skip_L1D", gs_skip_l1d, NULL),
    NUM("-gpgpu_l1_latency", "l1d.hit_latency"),
    NONE("-gpgpu_l1_banks", "L1D bank conflicts"),
    NONE("-gpgpu_l1_banks_byte_interleaving", "L1D bank conflicts"),
    NONE("-gpgpu_l1_banks_hashing_function", "L1D bank conflicts"),
    NONE("-gpgpu_l1_cache_write_ratio", "share of the unified L1 open to writes"),
    /* warpsim's L1s are empty at every kernel start (core_sm_begin_kernel) */
    SAME("-gpgpu_flush_l1_cache", "1", "L1 contents kept from one kernel to the next"),
    SAME("-gpgpu_flush_l2_cache", "0", "L2 flushed after every kernel"),
    NUM("-gpgpu_shmem_num_banks", "shmem_banks"),
    NUM("-gpgpu_smem_latency", "shmem_latency"),
    NUM("-smem_latency", "shmem_latency"),
    /* warpsim: any number of lanes share a word's broadcast, and the whole
       warp is checked for conflicts at once (core/smem_banks.c) */
    SAME("-gpgpu_shmem_limited_broadcast", "0", "one shared-memory broadcast per cycle"),
    SAME("-gpgpu_shmem_warp_parts", "1", "shared-memory conflicts checked per part of a warp"),
    MAP("-gpgpu_coalesce_arch", gs_coalesce, NULL),
    NONE("-gpgpu_mem_unit_ports", "memory transactions the LSU sends per cycle"),
    NONE("-gpgpu_n_ldst_response_buffer_size", "LSU response buffer size"),
    NONE("-gpgpu_n_cluster_ejection_buffer_size", "replies an SM cluster buffers from the "
                                                  "interconnect"),
    SAME("-gpgpu_local_mem_map", "1", "local memory at unmapped addresses"),
    NONE("-gpgpu_perfect_mem", "every access hits (no memory stalls)"),

    /* interconnect */
    MAP("-network_mode", gs_network, NULL),
    NONE("-inter_config_file", "booksim network configuration (.icnt file)"),
    NUM("-icnt_flit_size", "icnt_flit_bytes"),
    NUMA("-icnt_in_buffer_limit", "icnt_in_buffer", "packets there, flits here"),
    NUMA("-icnt_out_buffer_limit", "icnt_out_buffer", "packets there, flits here"),
    /* warpsim has a request and a reply network */
    SAME("-icnt_subnets", "2", "requests and replies sharing one network"),
    /* 0 round robin, 1 iSLIP (local_interconnect.cc); warpsim is round robin */
    SAME("-icnt_arbiter_algo", "0", "iSLIP crossbar allocation"),

    /* L2 and memory partitions */
    MAP("-gpgpu_cache:dl2", gs_cache, "l2"),
    NONE("-gpgpu_cache:dl2_texture_only", "an L2 that caches texture data only when 1"),
    NUM("-gpgpu_n_mem", "n_mem"),
    NUM("-gpgpu_n_sub_partition_per_mchannel", "n_sub_per_mem"),
    MAP("-gpgpu_dram_partition_queues", gs_partition_queues, NULL),
    /* ROP latency: the fixed delay of a request entering the L2 [I] */
    NUMA("-gpgpu_l2_rop_latency", "l2.hit_latency", "a delay before each L2 lookup "
         "there, before each L2 reply here"),
    NUMA("-rop_latency", "l2.hit_latency", "a delay before each L2 lookup there, "
         "before each L2 reply here"),
    /* gpu-sim.cc perf_memcpy_to_gpu: host copies fill the L2 (mem/memsys.c) */
    MAP("-gpgpu_perf_sim_memcpy", gs_flag, "l2.warm_on_copy"),
    SAME("-gpgpu_memory_partition_indexing", "0", "hashed address-to-partition mapping"),
    NONE("-l2_ideal", "every L2 access hits"),

    /* DRAM */
    MAP("-gpgpu_dram_scheduler", gs_dram_scheduler, NULL),
    MAP("-gpgpu_frfcfs_dram_sched_queue_size", gs_dram_queue, NULL),
    NONE("-gpgpu_dram_return_queue_size", "replies a DRAM channel holds before the L2 takes them"),
    NUM("-dram_latency", "dram_latency"),
    MAP("-gpgpu_dram_buswidth", gs_dram_buswidth, NULL),
    MAP("-gpgpu_n_mem_per_ctrlr", gs_dram_chips, NULL),
    NUM("-gpgpu_dram_burst_length", "dram_burst"),
    NUM("-dram_data_command_freq_ratio", "dram_data_rate"),
    MAP("-gpgpu_dram_timing_opt", gs_timing, NULL),
    MAP("-gpgpu_mem_addr_mapping", gs_addr_map, NULL),
    /* the address map of -gpgpu_mem_addr_mapping applies to every bit */
    SAME("-gpgpu_mem_address_mask", "1", "the older address-mask variant of the mapping"),
    SAME("-dram_dual_bus_interface", "0", "separate row and column command buses"),
    SAME("-dram_bnk_indexing_policy", "0", "bank index XORed with row bits"),
    /* warpsim: bank b is in group b mod groups, the lower bits (mem/dram.c) */
    SAME("-dram_bnkgrp_indexing_policy", "1", "bank group from the bank's higher bits"),
    SAME("-dram_seperate_write_queue_enable", "0", "a separate DRAM write queue"),
    NONE("-dram_write_queue_size", "the separate DRAM write queue's size and watermarks"),
    SAME("-dram_elimnate_rw_turnaround", "0", "tWTR and tRTW set to 0"),
    SAME("-gpgpu_simple_dram_model", "0", "fixed-latency DRAM"),

    /* clocks and run control */
    MAP("-gpgpu_clock_domains", gs_clock, NULL),
    NUM("-gpgpu_max_cycle", "max_cycles"),
    NONE("-gpgpu_kernel_launch_latency", "cycles before each kernel's first CTA starts"),
    NONE("-gpgpu_TB_launch_latency", "cycles to launch each CTA"),
    NONE("-gpgpu_max_concurrent_kernel", "kernels of different streams running together"),
    NONE("-gpgpu_concurrent_kernel_sm", "kernels of different streams sharing an SM"),
    NONE("-gpgpu_max_insn", "simulation stopped after this many instructions"),
    NONE("-gpgpu_max_cta", "simulation stopped after this many CTAs"),
    NONE("-gpgpu_max_completed_cta", "simulation stopped after this many CTAs"),
    NONE("-gpgpu_deadlock_detect", OUTPUT_ONLY),

    /* no effect on simulated time, in GPGPU-Sim either */
    NONE("-gpgpu_ptx_sim_mode", FUNC_ONLY),
    NONE("-gpgpu_ptx_instruction_classification", OUTPUT_ONLY),
    NONE("-gpgpu_ptx_force_max_capability", FUNC_ONLY),
    NONE("-gpgpu_ptx_convert_to_ptxplus", FUNC_ONLY),
    NONE("-gpgpu_ptx_save_converted_ptxplus", FUNC_ONLY),
    NONE("-gpgpu_compute_capability_major", FUNC_ONLY),
    NONE("-gpgpu_compute_capability_minor", FUNC_ONLY),
    NONE("-gpgpu_stack_size_limit", FUNC_ONLY),
    NONE("-gpgpu_heap_size_limit", FUNC_ONLY),
    NONE("-gpgpu_runtime_sync_depth_limit", FUNC_ONLY),
    NONE("-gpgpu_runtime_pending_launch_count_limit", FUNC_ONLY),
    NONE("-gpgpu_cdp_enabled", FUNC_ONLY),
    NONE("-save_embedded_ptx", FUNC_ONLY),
    NONE("-gpgpu_memlatency_stat", OUTPUT_ONLY),
    NONE("-gpgpu_runtime_stat", OUTPUT_ONLY),
    NONE("-gpgpu_cflog_interval", OUTPUT_ONLY),
    NONE("-gpgpu_stat_sampling_freq", OUTPUT_ONLY),
    NONE("-gpgpu_warpdistro_shader", OUTPUT_ONLY),
    NONE("-gpgpu_warp_issue_shader", OUTPUT_ONLY),
    NONE("-enable_ptx_file_line_stats", OUTPUT_ONLY),
    NONE("-visualizer_enabled", OUTPUT_ONLY),
    NONE("-liveness_message_freq", OUTPUT_ONLY),
    NONE("-power_simulation_enabled", OUTPUT_ONLY),
    NONE("-gpuwattch_xml_file", OUTPUT_ONLY),
    NONE("-accelwattch_xml_file", OUTPUT_ONLY),
    NONE("-power_trace_enabled", OUTPUT_ONLY),
    NONE("-power_per_cycle_dump", OUTPUT_ONLY),
    NONE("-gpgpu_clock_gated_lanes", OUTPUT_ONLY),
    NONE("-gpgpu_clock_gated_reg_file", OUTPUT_ONLY),
    NONE("-trace_enabled", OUTPUT_ONLY),
    NONE("-trace_components", OUTPUT_ONLY),
    NONE("-trace_sampling_core", OUTPUT_ONLY),
    { NULL, NULL, NULL, NULL }
};

const char *gpu_gpgpusim_option(uint32_t i)
{
    return i < sizeof rows / sizeof rows[0] - 1 ? rows[i].opt : NULL;
}

void gpu_gs_state_init(gpu_gs_state *st)
{
    st->dram_chip_bytes = 4;   /* gpu-sim.cc defaults */
    st->dram_chips = 1;
    st->il1_given = st->perfect_icache = false;
}

int gpu_gpgpusim_apply(gpu_config *c, gpu_gs_state *st, const char *opt, const char *v,
                       char *err, size_t errlen)
{
    /* values lose their quotes (squeeze): an unbalanced one would otherwise
       pass unnoticed and take whatever follows as part of the value */
    size_t quotes = 0;
    for (const char *q = v; *q; q++) quotes += *q == '"';
    if (quotes & 1) {
        snprintf(err, errlen, "%s '%s': unterminated '\"' in the value", opt, v);
        return GPU_GS_ERROR;
    }
    gpu_gs_state local;
    if (!st) {
        gpu_gs_state_init(&local);
        st = &local;
    }
    for (const gs_row *r = rows; r->opt; r++) {
        if (strcmp(opt, r->opt)) continue;
        if (r->fn) return r->fn(c, st, r, v, err, errlen);
        snprintf(err, errlen, "%s", r->why);
        return GPU_GS_IGNORED;
    }
    return GPU_GS_UNKNOWN;
}
