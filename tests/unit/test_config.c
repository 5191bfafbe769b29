/*
** test_config.c -- the machine configuration (gpu/config.c, presets.c,
** gpgpusim.c): defaults and presets pass the checks, set/get round trips,
** errors name key, value and bounds, GPGPU-Sim config files load with
** the expected values and one warning, and the dump lists every key.
*/
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "gpu/config.h"
#include "helpers.h"

static void test_defaults_pass_check(void **state)
{
    (void)state;
    gpu_config c;
    char err[512] = "";
    gpu_config_defaults(&c);
    assert_int_equal(gpu_config_check(&c, err, sizeof err), 0);
    assert_string_equal(c.preset, "gtx480");
    /* Mascar Table I */
    assert_int_equal(gpu_config_n_sm(&c), 15);
    assert_int_equal(c.l1d.sets, 64);
    assert_int_equal(c.l1d.ways, 4);
    assert_int_equal(c.l1d.line_bytes, 128);
    assert_int_equal(c.l1d.mshr_entries, 64);
    assert_int_equal(gpu_config_max_warps(&c), 48);
    assert_false(c.l1d.write_back);
    assert_string_equal(c.warp_scheduler, "lrr");
}

static void test_every_preset_loads(void **state)
{
    (void)state;
    int n = 0;
    for (const char *const *p = gpu_preset_names; *p; p++, n++) {
        gpu_config c;
        char err[512] = "";
        int rc = gpu_config_preset(&c, *p, err, sizeof err);
        if (rc) fprintf(stderr, "preset %s: %s\n", *p, err);
        assert_int_equal(rc, 0);
        assert_string_equal(c.preset, *p);
        rc = gpu_config_check(&c, err, sizeof err);
        if (rc) fprintf(stderr, "preset %s: %s\n", *p, err);
        assert_int_equal(rc, 0);
        assert_non_null(gpu_preset_summary(*p));
    }
    assert_int_equal(n, 7);   /* the five papers' machines, qv100, rtx3070 */
    gpu_config c;
    char err[512];
    assert_int_equal(gpu_config_preset(&c, "fx5800", err, sizeof err), 0);
    assert_int_equal(gpu_config_n_sm(&c), 30);        /* CCWS: 10 x 3 */
    assert_int_equal(c.l1d.mshr_entries, 16);
    assert_int_equal(c.issue_width, 2);
    assert_int_equal(gpu_config_preset(&c, "owl28", err, sizeof err), 0);
    assert_int_equal(gpu_config_n_sm(&c), 28);
    assert_int_equal(c.l1d.line_bytes, 64);
    assert_int_equal(gpu_config_preset(&c, "k20x", err, sizeof err), 0);
    assert_int_equal(c.n_schedulers, 4);
    assert_int_equal(gpu_config_max_warps(&c), 64);
    assert_int_equal(gpu_config_preset(&c, "tesla8", err, sizeof err), 0);
    assert_false(c.l1d.enabled);
    assert_int_equal(gpu_config_preset(&c, "gtx48", err, sizeof err), -1);
    assert_non_null(strstr(err, "gtx480"));   /* lists the presets */
}

static void test_set_get(void **state)
{
    (void)state;
    gpu_config c;
    char err[512], v[64];
    gpu_config_defaults(&c);
    assert_int_equal(gpu_config_set(&c, "l1d.sets", "32", err, sizeof err), 0);
    assert_int_equal(c.l1d.sets, 32);
    assert_int_equal(gpu_config_get(&c, "l1d.sets", v, sizeof v), 0);
    assert_string_equal(v, "32");
    assert_int_equal(gpu_config_set(&c, "core_mhz", "1400.5", err, sizeof err), 0);
    assert_int_equal(gpu_config_get(&c, "core_mhz", v, sizeof v), 0);
    assert_string_equal(v, "1400.5");
    assert_int_equal(gpu_config_set(&c, "l1d.write_back", "yes", err, sizeof err), 0);
    assert_true(c.l1d.write_back);
    assert_int_equal(gpu_config_set(&c, "warp_scheduler", "gto", err, sizeof err), 0);
    assert_string_equal(c.warp_scheduler, "gto");
    assert_int_equal(gpu_config_apply(&c, "op.sfu.latency=33", err, sizeof err), 0);
    assert_int_equal(c.op[GPU_OPC_SFU].latency, 33);
    assert_int_equal(gpu_config_set(&c, "units.sp", "010", err, sizeof err), 0);
    assert_int_equal(c.units[GPU_UNIT_SP], 10);          /* decimal, not octal */
    assert_int_equal(gpu_config_get(&c, "no_such", v, sizeof v), -1);
    /* GPGPU-Sim names through --set */
    assert_int_equal(gpu_config_apply(&c, "-gpgpu_scheduler=two_level_active:6:0:1", err,
                                      sizeof err), 0);
    assert_string_equal(c.warp_scheduler, "two-level");
    assert_non_null(strstr(c.warp_scheduler_params, "active_warps=6"));
    assert_int_equal(gpu_config_check(&c, err, sizeof err), 0);
}

static void test_bad_key_suggests(void **state)
{
    (void)state;
    gpu_config c;
    char err[4096];
    gpu_config_defaults(&c);
    assert_int_equal(gpu_config_set(&c, "l1d.set", "4", err, sizeof err), -1);
    assert_non_null(strstr(err, "'l1d.set'"));
    assert_non_null(strstr(err, "did you mean"));
    assert_non_null(strstr(err, "l1d.sets"));
    /* nothing close: every valid key is listed */
    assert_int_equal(gpu_config_set(&c, "zzzzzzzzzzzz", "4", err, sizeof err), -1);
    assert_non_null(strstr(err, "valid parameters"));
    assert_non_null(strstr(err, "warp_scheduler"));
    assert_non_null(strstr(err, "skip_idle_cycles"));
}

static void test_bad_value_names_bounds(void **state)
{
    (void)state;
    gpu_config c;
    char err[512];
    gpu_config_defaults(&c);
    assert_int_equal(gpu_config_set(&c, "l1d.ways", "0", err, sizeof err), -1);
    assert_non_null(strstr(err, "l1d.ways"));
    assert_non_null(strstr(err, "0"));
    assert_non_null(strstr(err, "[1, 4096]"));
    assert_int_equal(gpu_config_set(&c, "n_clusters", "many", err, sizeof err), -1);
    assert_non_null(strstr(err, "'many'"));
    assert_non_null(strstr(err, "n_clusters"));
    assert_int_equal(gpu_config_set(&c, "n_clusters", "-3", err, sizeof err), -1);
    assert_int_equal(gpu_config_set(&c, "use_ptxas", "maybe", err, sizeof err), -1);
    assert_non_null(strstr(err, "boolean"));
    assert_int_equal(c.n_clusters, 15);      /* failed sets change nothing */
    /* cross-field checks */
    gpu_config_defaults(&c);
    assert_int_equal(gpu_config_set(&c, "n_schedulers", "5", err, sizeof err), 0);
    assert_int_equal(gpu_config_check(&c, err, sizeof err), -1);
    assert_non_null(strstr(err, "n_schedulers"));
    gpu_config_defaults(&c);
    assert_int_equal(gpu_config_set(&c, "warp_scheduler", "gtoo", err, sizeof err), 0);
    assert_int_equal(gpu_config_check(&c, err, sizeof err), -1);
    assert_non_null(strstr(err, "gtoo"));
    assert_non_null(strstr(err, "gto"));
    gpu_config_defaults(&c);
    assert_int_equal(gpu_config_set(&c, "warp_scheduler", "swl", err, sizeof err), 0);
    assert_int_equal(gpu_config_set(&c, "warp_scheduler_params", "warp_limit=0", err,
                                    sizeof err), 0);
    assert_int_equal(gpu_config_check(&c, err, sizeof err), -1);
    assert_non_null(strstr(err, "warp_limit"));
    gpu_config_defaults(&c);
    assert_int_equal(gpu_config_set(&c, "l1d.line_bytes", "100", err, sizeof err), 0);
    assert_int_equal(gpu_config_check(&c, err, sizeof err), -1);
    assert_non_null(strstr(err, "power of two"));
}

static void test_gpgpusim_file(void **state)
{
    (void)state;
    gpu_config c;
    char warn[4096], err[512] = "";
    gpu_config_defaults(&c);
    /* start from a different machine: the file must set the values */
    assert_int_equal(gpu_config_preset(&c, "k20x", err, sizeof err), 0);
    int rc = gpu_config_load_file(&c, th_source_path("tests/data/gtx480.gpgpusim.config"),
                                  warn, sizeof warn, err, sizeof err);
    if (rc) fprintf(stderr, "%s\n", err);
    assert_int_equal(rc, 0);
    assert_int_equal(gpu_config_check(&c, err, sizeof err), 0);
    assert_int_equal(gpu_config_n_sm(&c), 15);
    assert_int_equal(c.max_threads_per_sm, 1536);
    assert_int_equal(c.regs_per_sm, 32768);
    assert_int_equal(c.max_ctas_per_sm, 8);
    assert_int_equal(c.n_schedulers, 2);
    assert_int_equal(c.shmem_per_sm, 49152);
    assert_int_equal(c.n_mem, 6);
    assert_true(c.core_mhz == 700.0 && c.dram_mhz == 924.0);
    assert_int_equal(c.l1d.sets, 64);
    assert_int_equal(c.l1d.ways, 4);
    assert_int_equal(c.l1d.line_bytes, 128);
    assert_int_equal(c.l1d.mshr_entries, 64);
    assert_int_equal(c.l1d.mshr_merge, 8);
    assert_int_equal(c.l1d.miss_queue, 8);
    assert_int_equal(c.l1t.sets, 4);
    assert_int_equal(c.l1t.ways, 24);
    assert_int_equal(c.l1c.line_bytes, 64);
    /* policy letters: dl1 L:L:m:N:H, tex L:R:m:N, const L:R:f:N */
    assert_int_equal(c.l1d.allocate, GPU_L1_ALLOC_MISS);
    assert_int_equal(c.l1t.allocate, GPU_L1_ALLOC_MISS);
    assert_int_equal(c.l1c.allocate, GPU_L1_ALLOC_FILL);
    assert_false(c.l1d.write_back || c.l1d.write_evict);
    assert_non_null(strstr(warn, "-gpgpu_cache:dl1 [L: local write-back"));
    assert_int_equal(c.op[GPU_OPC_INT_DIV].latency, 145);
    assert_int_equal(c.op[GPU_OPC_INT_MUL].latency, 5);
    assert_int_equal(c.op[GPU_OPC_FP64_DIV].interval, 130);
    assert_int_equal(c.units[GPU_UNIT_SP], 2);
    assert_string_equal(c.warp_scheduler, "lrr");
    /* one warning naming the ignored and the unknown options */
    assert_null(strchr(warn, '\n'));
    assert_non_null(strstr(warn, "-gpgpu_operand_collector_num_units_mem"));
    /* the operand collector and the 1-cycle default op class are mapped */
    assert_null(strstr(warn, "-gpgpu_operand_collector_num_units_sp"));
    assert_null(strstr(warn, "-gpgpu_num_reg_banks"));
    assert_null(strstr(warn, "logic, move, compare"));
    assert_int_equal(c.opc_reg_banks, 16);
    assert_int_equal(c.opc_units_sp, 6);
    assert_int_equal(c.opc_units_sfu, 8);
    assert_int_equal(c.op_other_latency, 1);
    assert_non_null(strstr(warn, "-gpgpu_dram_return_queue_size"));   /* no counterpart */
    assert_null(strstr(warn, "-dram_latency"));            /* dram_latency now */
    assert_null(strstr(warn, "-gpgpu_dram_timing_opt"));   /* translated now */
    /* every not-modelled option with what it would have changed */
    assert_non_null(strstr(warn, "-gpgpu_dram_return_queue_size (replies a DRAM channel holds"));
    assert_non_null(strstr(warn, "-gpgpu_cflog_interval (statistics"));
    assert_non_null(strstr(warn, "unknown: -gpgpu_no_such_option, -gpgpu_nor_this_one"));
    /* not in the file: kept from the k20x start */
    assert_int_equal(c.l1d.hit_latency, 6);
    /* the memory system of the file (k20x had other values) */
    assert_int_equal(c.n_sub_per_mem, 2);
    assert_int_equal(c.l2.sets, 64);
    assert_int_equal(c.l2.ways, 8);
    assert_int_equal(c.l2.line_bytes, 128);
    assert_int_equal(c.l2.mshr_entries, 32);
    assert_int_equal(c.l2.mshr_merge, 4);
    assert_true(c.l2.write_back);
    assert_int_equal(c.l2.hit_latency, 120);      /* -rop_latency */
    assert_int_equal(c.dram_banks, 16);
    assert_int_equal(c.dram_bank_groups, 4);
    assert_int_equal(c.dram_queue, 16);           /* per controller (dram_t::full) */
    assert_int_equal(c.dram_bus_bytes, 4);        /* 4 per chip x 1 chip (GPGPU-Sim default) */
    assert_int_equal(c.dram_burst, 8);
    assert_int_equal(c.dram_data_rate, 4);
    assert_int_equal(c.tRCD, 12);
    assert_int_equal(c.tRAS, 28);
    assert_int_equal(c.tCCDL, 3);
    assert_int_equal(c.tWTR, 4 + 8 / 4 + 5);      /* WL + BL/ratio + CDLR */
    assert_int_equal(c.tRTW, 12 + 8 / 4 + 2 - 4); /* CL + BL/ratio + 2 - WL */
    assert_string_equal(c.dram_scheduler, "frfcfs");
    assert_string_equal(c.dram_addr_map, "dramid@8;00000000.00000000.00000000.00000000."
                        "0000RRRR.RRRRRRRR.RBBBCCCC.BCCSSSSS");
}

/* GTX480 memory system (Mascar spec §3): geometry and peak bandwidth */
static void test_memsys_defaults(void **state)
{
    (void)state;
    gpu_config c;
    char err[512];
    gpu_config_defaults(&c);
    assert_true(strcmp(c.memory_model, "simple") == 0 || strcmp(c.memory_model, "full") == 0);
    uint32_t slices = c.n_mem * c.n_sub_per_mem;
    assert_int_equal(slices, 12);
    assert_int_equal(slices * c.l2.sets * c.l2.ways * c.l2.line_bytes, 768 * 1024);
    assert_int_equal(slices * c.l2.mshr_entries / c.n_mem, 64);    /* 64 per partition */
    assert_true(c.l2.write_back && c.l2.enabled);
    assert_int_equal(c.dram_queue, 32);
    double gbs = c.n_mem * c.dram_bus_bytes * c.dram_data_rate * c.dram_mhz / 1000.0;
    assert_true(gbs > 177.3 && gbs < 177.5);
    assert_int_equal(c.tCL, 12);
    assert_int_equal(c.tRP, 12);
    assert_int_equal(c.tRC, 40);
    assert_int_equal(c.tRRD, 6);
    assert_int_equal(c.tCCD, 2);
    assert_int_equal(c.tRTP, 2);
    assert_int_equal(c.tWR, 12);
    assert_false(c.perfect_l2 || c.unlimited_mem || c.oracle_profile);
    assert_int_equal(c.dram_fixed_latency, 0);
    /* every preset: peak bandwidth and L2 capacity of its paper */
    static const struct { const char *name; double gbs; uint32_t l2_kb; } m[] = {
        { "gtx480", 177.408, 768 }, { "fx5800", 102.4, 1024 }, { "owl28", 102.4, 4096 },
        { "tesla8", 17.28, 0 }, { "k20x", 249.6, 1536 },
    };
    for (unsigned i = 0; i < sizeof m / sizeof m[0]; i++) {
        assert_int_equal(gpu_config_preset(&c, m[i].name, err, sizeof err), 0);
        double bw = c.n_mem * c.dram_bus_bytes * c.dram_data_rate * c.dram_mhz / 1000.0;
        if (bw < m[i].gbs * 0.999 || bw > m[i].gbs * 1.001)
            fprintf(stderr, "%s: %.3f GB/s, expected %.3f\n", m[i].name, bw, m[i].gbs);
        assert_true(bw >= m[i].gbs * 0.999 && bw <= m[i].gbs * 1.001);
        uint32_t kb = c.l2.enabled ? c.n_mem * c.n_sub_per_mem * c.l2.sets * c.l2.ways
                                     * c.l2.line_bytes / 1024 : 0;
        assert_int_equal(kb, m[i].l2_kb);
        assert_true(c.tRAS <= c.tRC);
    }
    /* fetch-dram Table 1: hit / closed / conflict = 70 / 100 / 140 core
       cycles at 2.5 core cycles per DRAM cycle */
    gpu_config_preset(&c, "tesla8", err, sizeof err);
    assert_int_equal(c.tCL * 5 / 2, 70);
    assert_int_equal((c.tRCD + c.tCL) * 5 / 2, 100);
    assert_int_equal((c.tRP + c.tRCD + c.tCL) * 5 / 2, 140);
    /* OWL Table 1: row hit 10, closed 22, conflict 32 DRAM cycles */
    gpu_config_preset(&c, "owl28", err, sizeof err);
    assert_int_equal(c.tCL, 10);
    assert_int_equal(c.tRCD + c.tCL, 22);
    assert_int_equal(c.tRP + c.tRCD + c.tCL, 32);
    assert_int_equal(c.dram_banks, 4);
    assert_int_equal(c.dram_queue, 128);
}

static void test_memsys_checks(void **state)
{
    (void)state;
    gpu_config c;
    char err[512];
    gpu_config_defaults(&c);
    assert_int_equal(gpu_config_set(&c, "memory_model", "fancy", err, sizeof err), 0);
    assert_int_equal(gpu_config_check(&c, err, sizeof err), -1);
    assert_non_null(strstr(err, "memory_model 'fancy'"));
    assert_non_null(strstr(err, "simple, full"));
    gpu_config_defaults(&c);
    assert_int_equal(gpu_config_set(&c, "l2_interleave_bytes", "64", err, sizeof err), 0);
    assert_int_equal(gpu_config_check(&c, err, sizeof err), -1);
    assert_non_null(strstr(err, "l2_interleave_bytes"));
    gpu_config_defaults(&c);
    assert_int_equal(gpu_config_set(&c, "dram_bank_groups", "3", err, sizeof err), 0);
    assert_int_equal(gpu_config_check(&c, err, sizeof err), -1);
    assert_non_null(strstr(err, "does not divide dram_banks"));
    gpu_config_defaults(&c);
    assert_int_equal(gpu_config_set(&c, "tRAS", "41", err, sizeof err), 0);
    assert_int_equal(gpu_config_check(&c, err, sizeof err), -1);
    assert_non_null(strstr(err, "tRC"));
    gpu_config_defaults(&c);
    assert_int_equal(gpu_config_set(&c, "l2.line_bytes", "96", err, sizeof err), 0);
    assert_int_equal(gpu_config_check(&c, err, sizeof err), -1);
    assert_non_null(strstr(err, "l2.line_bytes"));
    gpu_config_defaults(&c);   /* Fermi's hash is defined for 32 or 64 sets only */
    assert_int_equal(gpu_config_set(&c, "l1d.set_index", "fermi", err, sizeof err), 0);
    assert_int_equal(gpu_config_set(&c, "l1d.sets", "16", err, sizeof err), 0);
    assert_int_equal(gpu_config_check(&c, err, sizeof err), -1);
    assert_non_null(strstr(err, "l1d.set_index = fermi needs 32 or 64 sets"));
    assert_int_equal(gpu_config_set(&c, "l1d.sets", "64", err, sizeof err), 0);
    assert_int_equal(gpu_config_check(&c, err, sizeof err), 0);
    gpu_config_defaults(&c);
    assert_int_equal(gpu_config_set(&c, "dram_addr_map", "dramid@8;RRRRXBBB", err, sizeof err),
                     0);
    assert_int_equal(gpu_config_check(&c, err, sizeof err), -1);
    assert_non_null(strstr(err, "dram_addr_map"));
    gpu_config_defaults(&c);
    assert_int_equal(gpu_config_set(&c, "dram_addr_map", "dramid@8;RRRRRRRRRRRRBBBCCCCCCCSSSSS",
                                    err, sizeof err), 0);
    assert_int_equal(gpu_config_check(&c, err, sizeof err), -1);
    assert_non_null(strstr(err, "fewer than dram_banks = 16"));
    gpu_config_defaults(&c);
    assert_int_equal(gpu_config_set(&c, "dram_scheduler", "frfcf", err, sizeof err), 0);
    assert_int_equal(gpu_config_check(&c, err, sizeof err), -1);
    assert_non_null(strstr(err, "dram_scheduler 'frfcf'"));
    assert_non_null(strstr(err, "reminst"));                 /* lists the valid ones */
    gpu_config_defaults(&c);
    assert_int_equal(gpu_config_set(&c, "dram_scheduler_params", "nosuch=1", err, sizeof err), 0);
    assert_int_equal(gpu_config_check(&c, err, sizeof err), -1);
    assert_non_null(strstr(err, "dram_scheduler_params"));
    static const char *const scheds[] = { "fcfs", "frfcfs", "frfair", "reminst" };
    for (int i = 0; i < 4; i++) {
        gpu_config_defaults(&c);
        assert_int_equal(gpu_config_set(&c, "dram_scheduler", scheds[i], err, sizeof err), 0);
        assert_int_equal(gpu_config_check(&c, err, sizeof err), 0);
    }
    gpu_config_defaults(&c);
    assert_int_equal(gpu_config_set(&c, "dram_data_rate", "0", err, sizeof err), -1);
    assert_non_null(strstr(err, "out of range"));
    /* the idealised modes are plain switches */
    assert_int_equal(gpu_config_set(&c, "perfect_l2", "on", err, sizeof err), 0);
    assert_int_equal(gpu_config_set(&c, "unlimited_mem", "yes", err, sizeof err), 0);
    assert_int_equal(gpu_config_set(&c, "dram_fixed_latency", "100", err, sizeof err), 0);
    assert_int_equal(gpu_config_set(&c, "oracle_profile", "1", err, sizeof err), 0);
    assert_true(c.perfect_l2 && c.unlimited_mem && c.oracle_profile);
    assert_int_equal(c.dram_fixed_latency, 100);
    assert_int_equal(gpu_config_check(&c, err, sizeof err), 0);
}

static void test_gpgpusim_memsys_options(void **state)
{
    (void)state;
    gpu_config c;
    char err[512], warn[1024];
    gpu_config_defaults(&c);
    /* quoted, spaced, no CCDL: tCCDL follows tCCD */
    assert_int_equal(gpu_config_apply(&c, "-dram_data_command_freq_ratio=2", err, sizeof err), 0);
    assert_int_equal(gpu_config_apply(&c, "-gpgpu_dram_burst_length=4", err, sizeof err), 0);
    assert_int_equal(gpu_config_apply(&c, "-gpgpu_dram_timing_opt=\"nbk=8:CCD=2:RRD=8:RCD=12:"
                                      "RAS=25:RP=10:RC=35: CL=10:WL=7:CDLR=6:WR=13\"", err,
                                      sizeof err), 0);
    assert_int_equal(c.dram_banks, 8);
    assert_int_equal(c.tCCDL, 2);
    assert_int_equal(c.tWTR, 7 + 2 + 6);
    assert_int_equal(c.tRTW, 10 + 2 + 2 - 7);
    assert_int_equal(c.tWR, 13);
    assert_int_equal(gpu_config_apply(&c, "-gpgpu_dram_timing_opt=nbk=8:XYZ=3", err, sizeof err),
                     -1);
    assert_non_null(strstr(err, "XYZ"));
    assert_int_equal(gpu_config_apply(&c, "-gpgpu_dram_timing_opt=nbk=lots", err, sizeof err),
                     -1);
    assert_int_equal(gpu_config_apply(&c, "-gpgpu_dram_scheduler=0", err, sizeof err), 0);
    assert_string_equal(c.dram_scheduler, "fcfs");
    assert_int_equal(gpu_config_apply(&c, "-gpgpu_dram_scheduler=1", err, sizeof err), 0);
    assert_string_equal(c.dram_scheduler, "frfcfs");
    assert_int_equal(gpu_config_apply(&c, "-gpgpu_dram_scheduler=2", err, sizeof err), -1);
    assert_int_equal(gpu_config_apply(&c, "-gpgpu_frfcfs_dram_sched_queue_size=64", err,
                                      sizeof err), 0);
    assert_int_equal(c.dram_queue, 64);           /* per controller, not per chip */
    assert_int_equal(gpu_config_apply(&c, "-gpgpu_dram_partition_queues=8:16:8:4", err,
                                      sizeof err), 0);
    assert_int_equal(c.l2_queue, 16);
    assert_int_equal(gpu_config_apply(&c, "-gpgpu_n_sub_partition_per_mchannel=1", err,
                                      sizeof err), 0);
    assert_int_equal(c.n_sub_per_mem, 1);
    assert_int_equal(gpu_config_apply(&c, "-gpgpu_cache:dl2=N:32:128:16,L:B:m:W:L,A:256:4,32:0,32",
                                      err, sizeof err), 0);
    assert_int_equal(c.l2.sets, 32);
    assert_int_equal(c.l2.ways, 16);
    assert_int_equal(c.l2.mshr_entries, 256);
    assert_int_equal(c.l2.miss_queue, 32);
    assert_int_equal(gpu_config_apply(&c, "-icnt_flit_size=40", err, sizeof err), 0);
    assert_int_equal(c.icnt_flit_bytes, 40);
    assert_int_equal(gpu_config_apply(&c, "-gpgpu_l2_rop_latency=160", err, sizeof err), 0);
    assert_int_equal(c.l2.hit_latency, 160);
    /* a file that breaks the quoted timing string over two lines */
    char path[] = "/tmp/ws_gs_XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    FILE *f = fdopen(fd, "w");
    fprintf(f, "-gpgpu_dram_timing_opt \"nbk=16:CCD=4:RRD=10:RCD=20:RAS=50:RP=20:RC=62:\n"
               "                        CL=20:WL=8:CDLR=9:WR=20:nbkgrp=4:CCDL=4:RTPL=4\"\n"
               "-gpgpu_mem_addr_mapping dramid@8;00000000.00000000.00000000.00000000."
               "0000RRRR.RRRRRRRR.RBBBCCCC.BCCSSSSS\n"
               "-gpgpu_n_mem_per_ctrlr 2\n"
               "-dram_latency 100\n");
    fclose(f);
    gpu_config_defaults(&c);
    int rc = gpu_config_load_file(&c, path, warn, sizeof warn, err, sizeof err);
    unlink(path);
    if (rc) fprintf(stderr, "%s\n", err);
    assert_int_equal(rc, 0);
    assert_int_equal(c.tRCD, 20);
    assert_int_equal(c.tCL, 20);
    assert_int_equal(c.tRC, 62);
    assert_int_equal(c.tCCDL, 4);
    assert_int_equal(c.tRTP, 4);
    assert_null(strstr(warn, "-dram_latency"));            /* mapped: dram_latency */
    assert_int_equal(c.dram_latency, 100);
    assert_null(strstr(warn, "-gpgpu_n_mem_per_ctrlr"));
    assert_int_equal(gpu_config_check(&c, err, sizeof err), 0);
}

static void test_cache_string_formats(void **state)
{
    (void)state;
    gpu_config c;
    char err[512];
    gpu_config_defaults(&c);
    assert_int_equal(gpu_config_apply(&c, "-gpgpu_cache:dl1=32:128:4,L:L:m:N,A:32:8,8", err,
                                      sizeof err), 0);
    assert_int_equal(c.l1d.sets, 32);
    assert_int_equal(c.l1d.mshr_entries, 32);
    assert_int_equal(gpu_config_apply(&c, "-gpgpu_cache:dl1=N:64:128:6,L:B:m:N:H,A:128:8,16:0,32",
                                      err, sizeof err), 0);
    assert_int_equal(c.l1d.ways, 6);
    assert_int_equal(c.l1d.mshr_entries, 128);
    assert_int_equal(c.l1d.miss_queue, 16);
    assert_true(c.l1d.write_back);
    assert_int_equal(gpu_config_apply(&c, "-gpgpu_cache:dl1=12:x:4", err, sizeof err), -1);
    assert_non_null(strstr(err, "-gpgpu_cache:dl1"));
    assert_int_equal(gpu_config_apply(&c, "-gpgpu_gmem_skip_L1D=1", err, sizeof err), 0);
    assert_false(c.l1d.enabled);
    assert_int_equal(gpu_config_apply(&c, "-gpgpu_shader_core_pipeline=1024:16", err,
                                      sizeof err), -1);
    assert_non_null(strstr(err, "warp size"));
    assert_int_equal(gpu_config_apply(&c, "-gpgpu_clock_domains=1:2:3:4", err, sizeof err), 0);
    assert_true(c.l2_mhz == 3.0);
}

/* The L1 options: choices by name, defaults = the behaviour before them,
   write-evict only with write-through; GPGPU-Sim's policy letters map to
   them, letters without a counterpart are named in the one warning, and a
   letter GPGPU-Sim does not have is an error naming option and letter. */
static void test_l1_options_and_letters(void **state)
{
    (void)state;
    gpu_config c;
    char err[512], warn[2048], v[64];
    gpu_config_defaults(&c);
    assert_int_equal(c.l1d.allocate, GPU_L1_ALLOC_FILL);
    assert_int_equal(c.l1d.owner, GPU_L1_OWNER_LAST);
    assert_false(c.l1d.write_evict);
    assert_int_equal(gpu_config_set(&c, "l1t.allocate", "streaming", err, sizeof err), 0);
    assert_int_equal(c.l1t.allocate, GPU_L1_ALLOC_STREAMING);
    assert_int_equal(gpu_config_get(&c, "l1t.allocate", v, sizeof v), 0);
    assert_string_equal(v, "streaming");
    assert_int_equal(gpu_config_set(&c, "l1d.owner", "first", err, sizeof err), -1);
    assert_non_null(strstr(err, "l1d.owner"));
    assert_non_null(strstr(err, "last, alloc"));
    assert_int_equal(gpu_config_set(&c, "l1d.write_evict", "true", err, sizeof err), 0);
    assert_int_equal(gpu_config_set(&c, "l1d.write_back", "true", err, sizeof err), 0);
    assert_int_equal(gpu_config_check(&c, err, sizeof err), -1);
    assert_non_null(strstr(err, "l1d.write_evict"));

    /* letters with a counterpart: applied, no warning */
    gpu_config_defaults(&c);
    assert_int_equal(gpu_config_apply(&c, "-gpgpu_cache:dl1=32:128:4,L:E:m:N,A:32:8,8", err,
                                      sizeof err), 0);
    assert_int_equal(c.l1d.allocate, GPU_L1_ALLOC_MISS);
    assert_true(c.l1d.write_evict && !c.l1d.write_back);
    assert_int_equal(gpu_config_apply(&c, "-gpgpu_cache:dl1=N:32:128:4,L:B:s:F:L,A:32:8,8",
                                      err, sizeof err), 0);
    assert_int_equal(c.l1d.allocate, GPU_L1_ALLOC_STREAMING);
    assert_true(c.l1d.write_back && !c.l1d.write_evict);
    assert_int_equal(gpu_config_apply(&c, "-gpgpu_cache:dl1=32:128:4,L:T:f:N,A:32:8,8", err,
                                      sizeof err), 0);
    assert_int_equal(c.l1d.allocate, GPU_L1_ALLOC_FILL);
    assert_false(c.l1d.write_back || c.l1d.write_evict);
    const char *ok[] = { "-gpgpu_cache:dl1=32:128:4,L:R:m:N,A:32:8,8", NULL };
    assert_int_equal(gpu_config_build(&c, NULL, ok, warn, sizeof warn, err, sizeof err), 0);
    assert_string_equal(warn, "");

    /* letters without one: applied where possible, named in the warning */
    const char *part[] = { "-gpgpu_cache:dl1=32:128:4,F:L:m:L:P,A:32:8,8",
                           "-gpgpu_cache:dl2=64:128:8,L:B:m:W,A:32:4,4", NULL };
    assert_int_equal(gpu_config_build(&c, NULL, part, warn, sizeof warn, err, sizeof err), 0);
    assert_int_equal(c.l1d.allocate, GPU_L1_ALLOC_MISS);
    assert_false(c.l1d.write_back);
    assert_null(strchr(warn, '\n'));
    assert_non_null(strstr(warn, "-gpgpu_cache:dl1 [F: "));
    assert_non_null(strstr(warn, "[L: local write-back"));
    assert_non_null(strstr(warn, "[L: lazy fetch-on-read"));
    assert_non_null(strstr(warn, "[P: hashed set index"));   /* IPOLY: linear here */
    assert_int_equal(c.l1d.set_index, GPU_SET_INDEX_LINEAR);
    assert_non_null(strstr(warn, "-gpgpu_cache:dl2 [m: "));   /* the L2 allocates at fill */
    assert_true(c.l2.write_back);
    /* H and X are modelled on the L1s (mem/cache.c), so no note for them */
    const char *hx[] = { "-gpgpu_cache:dl1=32:128:4,L:T:m:N:H,A:32:8,8",
                         "-gpgpu_tex_cache:l1=4:128:24,L:R:m:N:X,T:128:4,128:2", NULL };
    assert_int_equal(gpu_config_build(&c, NULL, hx, warn, sizeof warn, err, sizeof err), 0);
    assert_string_equal(warn, "");
    assert_int_equal(c.l1d.set_index, GPU_SET_INDEX_FERMI);
    assert_int_equal(c.l1t.set_index, GPU_SET_INDEX_XOR);

    /* letters GPGPU-Sim does not have */
    static const char *const bad[] = {
        "-gpgpu_cache:dl1=32:128:4,L:T:x:N,A:32:8,8",  "-gpgpu_cache:dl1=32:128:4,L:Q:m:N",
        "-gpgpu_cache:dl1=32:128:4,L:T:m:Z",           "-gpgpu_cache:dl1=32:128:4,R:T:m:N",
        "-gpgpu_cache:dl1=32:128:4,L:T:m:N:Y",         "-gpgpu_cache:dl1=32:128:4,L:T:mm:N",
    };
    static const char *const letter[] = { "'x'", "'Q'", "'Z'", "'R'", "'Y'", "'mm'" };
    for (int i = 0; i < 6; i++) {
        gpu_config_defaults(&c);
        assert_int_equal(gpu_config_apply(&c, bad[i], err, sizeof err), -1);
        assert_non_null(strstr(err, "-gpgpu_cache:dl1"));
        assert_non_null(strstr(err, letter[i]));
    }
    assert_int_equal(gpu_config_apply(&c, "-gpgpu_cache:dl1=32:128:4,L:T:m", err, sizeof err), -1);
    assert_non_null(strstr(err, "rep:write:alloc:write_alloc"));
}

static void test_build_file_and_errors(void **state)
{
    (void)state;
    gpu_config c;
    char warn[2048], err[1024];
    const char *sets[] = { "warp_scheduler=gto", "l1d.sets=32", NULL };
    assert_int_equal(gpu_config_build(&c, "fx5800", sets, warn, sizeof warn, err, sizeof err), 0);
    assert_string_equal(c.warp_scheduler, "gto");
    assert_int_equal(c.l1d.sets, 32);
    assert_int_equal(gpu_config_n_sm(&c), 30);
    assert_string_equal(warn, "");
    assert_int_equal(gpu_config_build(&c, "nosuch", NULL, warn, sizeof warn, err, sizeof err), -1);
    assert_non_null(strstr(err, "nosuch"));
    assert_int_equal(gpu_config_build(&c, "/nonexistent/x.cfg", NULL, warn, sizeof warn, err,
                                      sizeof err), -1);
    assert_non_null(strstr(err, "/nonexistent/x.cfg"));
    const char *bad[] = { "l1d.sets", NULL };
    assert_int_equal(gpu_config_build(&c, NULL, bad, warn, sizeof warn, err, sizeof err), -1);
    assert_non_null(strstr(err, "key=value"));
    /* a file in our own format, with an error on line 3 */
    char path[] = "/tmp/ws_cfg_XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    FILE *f = fdopen(fd, "w");
    fprintf(f, "# comment\nl1d.sets = 16   # sets\nl1d.ways = lots\n");
    fclose(f);
    assert_int_equal(gpu_config_build(&c, path, NULL, warn, sizeof warn, err, sizeof err), -1);
    assert_non_null(strstr(err, ":3:"));
    assert_non_null(strstr(err, "'lots'"));
    unlink(path);
}

/* Write `len` bytes of `text` to a fresh temporary file; its path in `path`. */
static void write_tmp(char *path, const char *text, size_t len)
{
    strcpy(path, "/tmp/ws_cfg_XXXXXX");
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    assert_int_equal(write(fd, text, len), (ssize_t)len);
    close(fd);
}

/* Build from file `text`; -1 expected, with every string of `want` in the
   error. */
static void build_fails(const char *text, size_t len, const char *const *sets,
                        const char *const *want)
{
    gpu_config c;
    char path[32], warn[2048], err[2048];
    write_tmp(path, text, len);
    int rc = gpu_config_build(&c, path, sets, warn, sizeof warn, err, sizeof err);
    unlink(path);
    if (rc != -1) fail_msg("accepted: %.*s", (int)len, text);
    for (; *want; want++)
        if (!strstr(err, *want)) fail_msg("error '%s' lacks '%s'", err, *want);
}

/* Hostile files: never "no settings", never a hang; each error names
   file:line.  Cross-field errors name where the keys involved were set. */
static void test_hostile_files(void **state)
{
    (void)state;
    gpu_config c;
    char warn[2048], err[2048];
    /* a directory: fopen succeeds, reading fails */
    assert_int_equal(gpu_config_build(&c, "/tmp", NULL, warn, sizeof warn, err, sizeof err), -1);
    assert_non_null(strstr(err, "is a directory"));
    /* /dev/zero never ends: bounded, and its first byte is a NUL */
    assert_int_equal(gpu_config_build(&c, "/dev/zero", NULL, warn, sizeof warn, err,
                                      sizeof err), -1);
    assert_non_null(strstr(err, "/dev/zero:1: NUL byte"));
    build_fails("l1d.sets = 16\n\nl1d\0.ways = 2\n", 29, NULL,
                (const char *const[]){ ":3: NUL byte", NULL });
    build_fails("\0\0\0\0", 4, NULL, (const char *const[]){ ":1: NUL byte", NULL });
    /* quotes that never close: at the end of the file, or before another option */
    const char *eof = "l1d.sets = 16\n-gpgpu_dram_timing_opt \"nbk=16:CCD=3:RRD=6\n";
    build_fails(eof, strlen(eof), NULL,
                (const char *const[]){ ":2: unterminated", "end of the file", NULL });
    const char *next = "-gpgpu_dram_timing_opt \"nbk=16:CCD=3\n  RRD=6\n-gpgpu_n_mem 6\n";
    build_fails(next, strlen(next), NULL,
                (const char *const[]){ ":1: unterminated", "next option", NULL });
    /* a quoted value over two lines still works, and line numbers go on */
    const char *two = "-gpgpu_dram_timing_opt \"nbk=16:CCD=3:\n   RRD=7\"\nl1d.ways = x\n";
    build_fails(two, strlen(two), NULL, (const char *const[]){ ":3: ", "'x'", NULL });
    /* --set: named, quote checked */
    const char *q[] = { "-gpgpu_dram_timing_opt=\"nbk=16:CCD=3", NULL };
    assert_int_equal(gpu_config_build(&c, NULL, q, warn, sizeof warn, err, sizeof err), -1);
    assert_non_null(strstr(err, "--set -gpgpu_dram_timing_opt"));
    assert_non_null(strstr(err, "unterminated"));
    const char *k[] = { "l1d.ways=0", NULL };
    assert_int_equal(gpu_config_build(&c, NULL, k, warn, sizeof warn, err, sizeof err), -1);
    assert_non_null(strstr(err, "--set l1d.ways=0"));
    /* cross-field: each key named with where it was set */
    const char *sched = "# c\nn_schedulers = 3\n";
    build_fails(sched, strlen(sched), (const char *const[]){ "max_threads_per_sm=1024", NULL },
                (const char *const[]){ "n_schedulers set at /tmp/ws_cfg_", ":2",
                                       "max_threads_per_sm set by --set", NULL });
    const char *line = "\n\nl1d.line_bytes = 100\n";
    build_fails(line, strlen(line), NULL,
                (const char *const[]){ "not a power of two", "l1d.line_bytes set at", ":3)",
                                       NULL });
}

static void test_dump_has_every_key(void **state)
{
    (void)state;
    gpu_config c, back;
    char err[512], warn[512];
    gpu_config_defaults(&c);
    for (int json = 0; json < 2; json++) {
        char *buf = NULL;
        size_t len = 0;
        FILE *m = open_memstream(&buf, &len);
        gpu_config_dump(&c, m, json);
        fclose(m);
        uint32_t i = 0;
        for (const char *k; (k = gpu_config_key(i)); i++) {
            char pat[128];
            snprintf(pat, sizeof pat, json ? "\"%s\": {\"value\"" : "\n%s ", k);
            if (!strstr(buf, pat)) fprintf(stderr, "missing %s\n", k);
            assert_non_null(strstr(buf, pat));
        }
        assert_true(i > 60);
        if (json) assert_non_null(strstr(buf, "\"unit\": \"bytes\""));
        else assert_non_null(strstr(buf, "# sets"));
        free(buf);
    }
    /* the text dump is a config file that reproduces the machine */
    char path[] = "/tmp/ws_dump_XXXXXX";
    int fd = mkstemp(path);
    FILE *f = fdopen(fd, "w");
    gpu_config_preset(&c, "owl28", err, sizeof err);
    gpu_config_dump(&c, f, false);
    fclose(f);
    assert_int_equal(gpu_config_load_file(&back, path, warn, sizeof warn, err, sizeof err), 0);
    gpu_config_defaults(&back);
    assert_int_equal(gpu_config_load_file(&back, path, warn, sizeof warn, err, sizeof err), 0);
    unlink(path);
    for (uint32_t i = 0; gpu_config_key(i); i++) {
        char a[320], b[320];
        gpu_config_get(&c, gpu_config_key(i), a, sizeof a);
        gpu_config_get(&back, gpu_config_key(i), b, sizeof b);
        assert_string_equal(a, b);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_defaults_pass_check),
        cmocka_unit_test(test_every_preset_loads),
        cmocka_unit_test(test_set_get),
        cmocka_unit_test(test_bad_key_suggests),
        cmocka_unit_test(test_bad_value_names_bounds),
        cmocka_unit_test(test_gpgpusim_file),
        cmocka_unit_test(test_cache_string_formats),
        cmocka_unit_test(test_l1_options_and_letters),
        cmocka_unit_test(test_build_file_and_errors),
        cmocka_unit_test(test_hostile_files),
        cmocka_unit_test(test_dump_has_every_key),
        cmocka_unit_test(test_memsys_defaults),
        cmocka_unit_test(test_memsys_checks),
        cmocka_unit_test(test_gpgpusim_memsys_options),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
