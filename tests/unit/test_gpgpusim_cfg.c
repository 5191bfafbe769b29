/*
** test_gpgpusim_cfg.c -- GPGPU-Sim's own configuration files, unchanged
** (configs/gpgpusim/): the correlation GTX480 file loads and every option
** it maps has the file's value, value by value; every option of it that is
** not mapped is named exactly once in the warning; each of GPGPU-Sim 4.2's
** nine tested configs loads, passes the checks and leaves nothing unknown.
*/
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "gpu/config_int.h"
#include "helpers.h"

#define GTX480 "configs/gpgpusim/gtx480/gpgpusim.config"
#define WARN_MAX 32768

static const char *const tested[] = {
    "SM2_GTX480", "SM3_KEPLER_TITAN", "SM6_TITANX", "SM75_RTX2060", "SM75_RTX2060_S",
    "SM7_GV100", "SM7_QV100", "SM7_TITANV", "SM86_RTX3070", NULL
};

/* Build the machine of `rel` (a path under the source tree). */
static void build(gpu_config *c, const char *rel, char *warn)
{
    char err[2048] = "";
    int rc = gpu_config_build(c, th_source_path(rel), NULL, warn, WARN_MAX, err, sizeof err);
    if (rc) fprintf(stderr, "%s: %s\n", rel, err);
    assert_int_equal(rc, 0);
}

static void test_gtx480_values(void **state)
{
    (void)state;
    gpu_config c;
    char *warn = malloc(WARN_MAX);
    build(&c, GTX480, warn);
    /* -gpgpu_n_clusters 15, -gpgpu_n_cores_per_cluster 1, -gpgpu_n_mem 6,
       -gpgpu_n_sub_partition_per_mchannel 2 */
    assert_int_equal(c.n_clusters, 15);
    assert_int_equal(c.cores_per_cluster, 1);
    assert_int_equal(c.n_mem, 6);
    assert_int_equal(c.n_sub_per_mem, 2);
    /* -gpgpu_clock_domains 700.0:700.0:700.0:924.0 */
    assert_true(c.core_mhz == 700.0 && c.icnt_mhz == 700.0 && c.l2_mhz == 700.0);
    assert_true(c.dram_mhz == 924.0);
    /* -gpgpu_shader_registers 32768, -gpgpu_shader_core_pipeline 1536:32,
       -gpgpu_shader_cta 8, -gpgpu_shmem_size(Default) 49152 */
    assert_int_equal(c.regs_per_sm, 32768);
    assert_int_equal(c.max_threads_per_sm, 1536);
    assert_int_equal(c.max_ctas_per_sm, 8);
    assert_int_equal(c.shmem_per_sm, 49152);
    /* -gpgpu_num_sp_units 2, -gpgpu_num_sfu_units 1, -gpgpu_num_dp_units 0 */
    assert_int_equal(c.units[GPU_UNIT_SP], 2);
    assert_int_equal(c.units[GPU_UNIT_SFU], 1);
    assert_int_equal(c.units[GPU_UNIT_DP], 0);
    /* -ptx_opcode_latency_int 4,13,4,5,145,32 / initiation 1,2,2,1,8,4 */
    assert_int_equal(c.op[GPU_OPC_INT].latency, 4);
    assert_int_equal(c.op[GPU_OPC_INT_MUL].latency, 5);
    assert_int_equal(c.op[GPU_OPC_INT_DIV].latency, 145);
    assert_int_equal(c.op[GPU_OPC_INT].interval, 1);
    assert_int_equal(c.op[GPU_OPC_INT_MUL].interval, 2);
    assert_int_equal(c.op[GPU_OPC_INT_DIV].interval, 8);
    /* -ptx_opcode_latency_fp 4,13,4,5,39 / initiation 1,2,1,1,4 */
    assert_int_equal(c.op[GPU_OPC_FP32].latency, 4);
    assert_int_equal(c.op[GPU_OPC_FP32_DIV].latency, 39);
    assert_int_equal(c.op[GPU_OPC_FP32].interval, 1);
    assert_int_equal(c.op[GPU_OPC_FP32_DIV].interval, 4);
    /* -ptx_opcode_latency_dp 8,19,8,8,330 / initiation 8,16,8,8,130 */
    assert_int_equal(c.op[GPU_OPC_FP64].latency, 8);
    assert_int_equal(c.op[GPU_OPC_FP64_DIV].latency, 330);
    assert_int_equal(c.op[GPU_OPC_FP64].interval, 8);
    assert_int_equal(c.op[GPU_OPC_FP64_DIV].interval, 130);
    /* -gpgpu_cache:dl1 N:32:128:4,L:L:m:N:H,S:64:8,8; -gpgpu_l1_latency 35;
       -gpgpu_gmem_skip_L1D 0 */
    assert_int_equal(c.l1d.sets, 32);
    assert_int_equal(c.l1d.line_bytes, 128);
    assert_int_equal(c.l1d.ways, 4);
    assert_int_equal(c.l1d.allocate, GPU_L1_ALLOC_MISS);
    assert_int_equal(c.l1d.set_index, GPU_SET_INDEX_FERMI);     /* the 'H' */
    assert_false(c.l1d.write_back);
    assert_false(c.l1d.write_evict);
    assert_int_equal(c.l1d.mshr_entries, 64);
    assert_int_equal(c.l1d.mshr_merge, 8);
    assert_int_equal(c.l1d.miss_queue, 8);
    assert_int_equal(c.l1d.hit_latency, 35);
    assert_true(c.l1d.enabled);
    /* -gpgpu_smem_latency 26, -gpgpu_shmem_num_banks 32, -gpgpu_coalesce_arch 20 */
    assert_int_equal(c.shmem_latency, 26);
    assert_int_equal(c.shmem_banks, 32);
    assert_int_equal(c.coalesce_bytes, 128);
    assert_true(c.coalesce_reduce);        /* GPGPU-Sim's reduce_and_send */
    /* -gpgpu_tex_cache:l1 N:4:128:24,L:R:m:N:L,T:128:4,128:2 */
    assert_int_equal(c.l1t.sets, 4);
    assert_int_equal(c.l1t.line_bytes, 128);
    assert_int_equal(c.l1t.ways, 24);
    assert_int_equal(c.l1t.mshr_entries, 128);
    assert_int_equal(c.l1t.mshr_merge, 4);
    assert_int_equal(c.l1t.miss_queue, 128);
    assert_int_equal(c.l1t.allocate, GPU_L1_ALLOC_MISS);
    /* -gpgpu_const_cache:l1 N:64:64:2,L:R:f:N:L,S:2:32,4 */
    assert_int_equal(c.l1c.sets, 64);
    assert_int_equal(c.l1c.line_bytes, 64);
    assert_int_equal(c.l1c.ways, 2);
    assert_int_equal(c.l1c.mshr_entries, 2);
    assert_int_equal(c.l1c.mshr_merge, 32);
    assert_int_equal(c.l1c.miss_queue, 4);
    assert_int_equal(c.l1c.allocate, GPU_L1_ALLOC_FILL);
    /* -gpgpu_num_sched_per_core 2, -gpgpu_scheduler gto,
       -gpgpu_max_insn_issue_per_warp 1 */
    assert_int_equal(c.n_schedulers, 2);
    assert_string_equal(c.warp_scheduler, "gto");
    assert_int_equal(c.issue_width, 1);
    /* -icnt_flit_size 40 */
    assert_int_equal(c.icnt_flit_bytes, 40);
    /* -gpgpu_cache:dl2 S:64:128:8,L:B:m:L:L,A:256:4,4:0,32 */
    assert_int_equal(c.l2.sets, 64);
    assert_int_equal(c.l2.line_bytes, 128);
    assert_int_equal(c.l2.ways, 8);
    assert_true(c.l2.write_back);
    assert_int_equal(c.l2.mshr_entries, 256);
    assert_int_equal(c.l2.mshr_merge, 4);
    assert_int_equal(c.l2.miss_queue, 4);
    assert_int_equal(c.l2_sector_bytes, 32);       /* S: 32 B sectors */
    assert_int_equal(c.dram_latency, 100);         /* -dram_latency 100 */
    /* -gpgpu_dram_partition_queues 64:64:64:64, -gpgpu_l2_rop_latency 120 */
    assert_int_equal(c.l2_queue, 64);
    assert_int_equal(c.l2.hit_latency, 120);
    /* -gpgpu_perf_sim_memcpy 1: host copies leave their lines in the L2 */
    assert_true(c.l2_warm_on_copy);
    /* its L2 indexes sets with the partition address (l2_cache_config) */
    assert_true(c.l2_set_index_local);
    /* -gpgpu_dram_scheduler 1, -gpgpu_frfcfs_dram_sched_queue_size 64 (per
       controller), -gpgpu_n_mem_per_ctrlr 2 x -gpgpu_dram_buswidth 4,
       -gpgpu_dram_burst_length 8, -dram_data_command_freq_ratio 4 */
    assert_string_equal(c.dram_scheduler, "frfcfs");
    assert_int_equal(c.dram_queue, 64);
    assert_int_equal(c.dram_bus_bytes, 8);
    assert_int_equal(c.dram_burst, 8);
    assert_int_equal(c.dram_data_rate, 4);
    /* -gpgpu_dram_timing_opt "nbk=16:CCD=2:RRD=6:RCD=12:RAS=28:RP=12:RC=40:
       CL=12:WL=4:CDLR=5:WR=12:nbkgrp=4:CCDL=3:RTPL=2" */
    assert_int_equal(c.dram_banks, 16);
    assert_int_equal(c.tCCD, 2);
    assert_int_equal(c.tRRD, 6);
    assert_int_equal(c.tRCD, 12);
    assert_int_equal(c.tRAS, 28);
    assert_int_equal(c.tRP, 12);
    assert_int_equal(c.tRC, 40);
    assert_int_equal(c.tCL, 12);
    assert_int_equal(c.tWR, 12);
    assert_int_equal(c.dram_bank_groups, 4);
    assert_int_equal(c.tCCDL, 3);
    assert_int_equal(c.tRTP, 2);
    assert_int_equal(c.tWTR, 4 + 8 / 4 + 5);       /* WL + BL/ratio + CDLR */
    assert_int_equal(c.tRTW, 12 + 8 / 4 + 2 - 4);  /* CL + BL/ratio + 2 - WL */
    assert_string_equal(c.dram_addr_map, "dramid@8;00000000.00000000.00000000.00000000."
                        "0000RRRR.RRRRRRRR.BBBCCCCB.CCSSSSSS");
    /* -gpgpu_cache:il1 N:4:128:4,L:R:f:N:L,S:2:32,4: fetch through it */
    assert_true(c.l1i_model);
    assert_int_equal(c.l1i.sets, 4);
    assert_int_equal(c.l1i.line_bytes, 128);
    assert_int_equal(c.l1i.ways, 4);
    assert_false(c.l1i.write_back);
    assert_int_equal(c.l1i.allocate, GPU_L1_ALLOC_FILL);
    assert_int_equal(c.l1i.set_index, GPU_SET_INDEX_LINEAR);
    assert_int_equal(c.l1i.mshr_entries, 2);
    assert_int_equal(c.l1i.mshr_merge, 32);
    assert_int_equal(c.l1i.miss_queue, 4);
    assert_null(strstr(warn, "-gpgpu_cache:il1"));
    /* the machine is named after the file */
    assert_string_equal(c.preset, "gtx480/gpgpusim.config");
    free(warn);
}

/* Occurrences of option `opt` as a whole name in `s` (not as the start of
   a longer one: -gpgpu_shmem_size in -gpgpu_shmem_sizeDefault). */
static int count_opt(const char *s, const char *opt)
{
    int n = 0;
    size_t len = strlen(opt);
    for (const char *p = strstr(s, opt); p; p = strstr(p + 1, opt)) {
        char next = p[len];
        bool word = !(next == '_' || next == ':' || (next >= 'a' && next <= 'z')
                      || (next >= 'A' && next <= 'Z') || (next >= '0' && next <= '9'));
        n += word;
    }
    return n;
}

/* Every option of the file: mapped ones are not in the warning, the others
   are named exactly once (not modelled, with a reason, or approximated). */
static void test_gtx480_every_option_named_once(void **state)
{
    (void)state;
    gpu_config c, scratch;
    char *warn = malloc(WARN_MAX), line[1024], err[1024];
    build(&c, GTX480, warn);
    FILE *f = fopen(th_source_path(GTX480), "r");
    assert_non_null(f);
    int options = 0, mapped = 0, named = 0;
    while (fgets(line, sizeof line, f)) {
        line[strcspn(line, "#\n")] = '\0';
        char *opt = line + strspn(line, " \t");
        if (*opt != '-') continue;
        char *v = opt + strcspn(opt, " \t");
        if (*v) *v++ = '\0';
        v += strspn(v, " \t");
        gpu_config_defaults(&scratch);
        int r = gpu_gpgpusim_apply(&scratch, NULL, opt, v, err, sizeof err);
        options++;
        if (r == GPU_GS_ERROR && strchr(v, '"')) continue;   /* the quoted timing string
                                                                 spans lines: checked above */
        assert_int_not_equal(r, GPU_GS_UNKNOWN);
        if (r == GPU_GS_APPLIED) {
            mapped++;
            if (count_opt(warn, opt) != 0) fprintf(stderr, "mapped but named: %s\n", opt);
            assert_int_equal(count_opt(warn, opt), 0);
        } else {
            named++;
            if (count_opt(warn, opt) != 1) fprintf(stderr, "named %d times: %s\n",
                                                   count_opt(warn, opt), opt);
            assert_int_equal(count_opt(warn, opt), 1);
            if (r == GPU_GS_IGNORED) {   /* with what it would have changed */
                char with[1200];
                snprintf(with, sizeof with, "(%s)", err);
                assert_non_null(strstr(warn, with));
            }
        }
    }
    fclose(f);
    fprintf(stderr, "%d options: %d mapped, %d named\n", options, mapped, named);
    assert_true(options == 79 && mapped >= 40 && named >= 30);   /* 79 lines in the file */
    assert_null(strstr(warn, "unknown:"));
    assert_null(strchr(warn, '\n'));
    /* GPGPU-Sim 4.x's six-value integer list: SHFL named as approximated */
    assert_non_null(strstr(warn, "[SHFL 32: "));
    free(warn);
}

static void test_tested_configs_load(void **state)
{
    (void)state;
    gpu_config c;
    char *warn = malloc(WARN_MAX), rel[256], err[1024];
    for (int i = 0; tested[i]; i++) {
        snprintf(rel, sizeof rel, "configs/gpgpusim/%s/gpgpusim.config", tested[i]);
        build(&c, rel, warn);
        if (strstr(warn, "unknown:")) fprintf(stderr, "%s: %s\n", tested[i], warn);
        assert_null(strstr(warn, "unknown:"));
        assert_int_equal(gpu_config_check(&c, err, sizeof err), 0);
        assert_non_null(strstr(c.preset, tested[i]));
    }
    /* spot checks: Volta's sub-core machine and Ampere's GDDR6 */
    build(&c, "configs/gpgpusim/SM7_QV100/gpgpusim.config", warn);
    assert_int_equal(gpu_config_n_sm(&c), 80);
    assert_int_equal(c.n_schedulers, 4);
    assert_int_equal(c.units[GPU_UNIT_DP], 4);
    assert_int_equal(c.l1d.sets * c.l1d.ways * c.l1d.line_bytes, 32 * 1024);
    assert_int_equal(c.dram_bus_bytes, 16);          /* 16 B x 1 chip */
    assert_int_equal(c.dram_queue, 64);
    assert_non_null(strstr(warn, "-gpgpu_sub_core_model"));
    assert_non_null(strstr(warn, "-gpgpu_adaptive_cache_config"));
    assert_non_null(strstr(warn, "[SHFL 21: "));
    build(&c, "configs/gpgpusim/SM86_RTX3070/gpgpusim.config", warn);
    assert_int_equal(gpu_config_n_sm(&c), 46);
    assert_int_equal(c.dram_bus_bytes, 2);           /* 2 B x 1 chip */
    assert_int_equal(c.dram_burst, 16);
    free(warn);
}

/* A value warpsim does not model is named with what it would change;
   the value it does model maps silently. */
static void test_value_dependent_options(void **state)
{
    (void)state;
    gpu_config c;
    char err[1024];
    gpu_config_defaults(&c);
    assert_int_equal(gpu_gpgpusim_apply(&c, NULL, "-gpgpu_flush_l1_cache", "1", err, sizeof err),
                     GPU_GS_APPLIED);
    assert_int_equal(gpu_gpgpusim_apply(&c, NULL, "-gpgpu_flush_l1_cache", "0", err, sizeof err),
                     GPU_GS_IGNORED);
    assert_non_null(strstr(err, "kept"));
    assert_int_equal(gpu_gpgpusim_apply(&c, NULL, "-dram_dual_bus_interface", "1", err,
                                        sizeof err), GPU_GS_IGNORED);
    assert_int_equal(gpu_gpgpusim_apply(&c, NULL, "-network_mode", "2", err, sizeof err),
                     GPU_GS_APPLIED);
    /* --set of a not-modelled option is an error saying what it would change */
    assert_int_equal(gpu_config_apply(&c, "-gpgpu_dram_return_queue_size=116", err, sizeof err),
                     -1);
    assert_non_null(strstr(err, "replies a DRAM channel holds"));
    /* 0 DP units: DP executes on the SFUs (a machine that checks) */
    assert_int_equal(gpu_config_apply(&c, "-gpgpu_num_dp_units=0", err, sizeof err), 0);
    assert_int_equal(c.units[GPU_UNIT_DP], 0);
    assert_int_equal(gpu_config_check(&c, err, sizeof err), 0);
    /* the bus is width x chips whatever their order */
    gpu_gs_state st;
    gpu_gs_state_init(&st);
    assert_int_equal(gpu_gpgpusim_apply(&c, &st, "-gpgpu_n_mem_per_ctrlr", "2", err, sizeof err),
                     GPU_GS_APPLIED);
    assert_int_equal(gpu_gpgpusim_apply(&c, &st, "-gpgpu_dram_buswidth", "4", err, sizeof err),
                     GPU_GS_APPLIED);
    assert_int_equal(c.dram_bus_bytes, 8);
    /* the instruction cache is modelled when il1 is given and the perfect
       one is not asked for, in either order */
    const char *il1 = "N:4:128:4,L:R:f:N:L,S:2:32,4";
    for (int order = 0; order < 2; order++) {
        gpu_config_defaults(&c);
        gpu_gs_state_init(&st);
        assert_false(c.l1i_model);
        if (order)
            assert_int_equal(gpu_gpgpusim_apply(&c, &st, "-gpgpu_perfect_inst_const_cache", "1",
                                                err, sizeof err), GPU_GS_PARTIAL);
        assert_int_equal(gpu_gpgpusim_apply(&c, &st, "-gpgpu_cache:il1", il1, err, sizeof err),
                         GPU_GS_APPLIED);
        assert_true(c.l1i_model == !order);
        if (!order)
            assert_int_equal(gpu_gpgpusim_apply(&c, &st, "-gpgpu_perfect_inst_const_cache", "1",
                                                err, sizeof err), GPU_GS_PARTIAL);
        assert_false(c.l1i_model);
        assert_int_equal(gpu_gpgpusim_apply(&c, &st, "-gpgpu_perfect_inst_const_cache", "0",
                                            err, sizeof err), GPU_GS_APPLIED);
        assert_true(c.l1i_model);
    }
    /* a six-value list only for int */
    assert_int_equal(gpu_gpgpusim_apply(&c, NULL, "-ptx_opcode_latency_fp", "4,13,4,5,39,7",
                                        err, sizeof err), GPU_GS_ERROR);
    assert_int_equal(gpu_gpgpusim_apply(&c, NULL, "-ptx_opcode_latency_int", "4,13,4,5,145,21",
                                        err, sizeof err), GPU_GS_PARTIAL);
    /* every row of the table has a name starting with '-' and no duplicate */
    for (uint32_t i = 0; gpu_gpgpusim_option(i); i++) {
        assert_int_equal(gpu_gpgpusim_option(i)[0], '-');
        for (uint32_t j = i + 1; gpu_gpgpusim_option(j); j++)
            assert_string_not_equal(gpu_gpgpusim_option(i), gpu_gpgpusim_option(j));
    }
}

/* The Volta and Ampere presets are what their GPGPU-Sim files map to,
   every parameter. */
static void test_presets_equal_their_files(void **state)
{
    (void)state;
    static const char *const pairs[][2] = {
        { "qv100", "configs/gpgpusim/SM7_QV100/gpgpusim.config" },
        { "rtx3070", "configs/gpgpusim/SM86_RTX3070/gpgpusim.config" },
    };
    gpu_config p, f;
    char *warn = malloc(WARN_MAX), err[1024], a[512], b[512];
    for (int i = 0; i < 2; i++) {
        assert_int_equal(gpu_config_build(&p, pairs[i][0], NULL, warn, WARN_MAX, err,
                                          sizeof err), 0);
        build(&f, pairs[i][1], warn);
        for (uint32_t k = 0; gpu_config_key(k); k++) {
            gpu_config_get(&p, gpu_config_key(k), a, sizeof a);
            gpu_config_get(&f, gpu_config_key(k), b, sizeof b);
            if (strcmp(a, b)) fprintf(stderr, "%s: %s = %s, file %s\n", pairs[i][0],
                                      gpu_config_key(k), a, b);
            assert_string_equal(a, b);
        }
    }
    free(warn);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_gtx480_values),
        cmocka_unit_test(test_gtx480_every_option_named_once),
        cmocka_unit_test(test_tested_configs_load),
        cmocka_unit_test(test_value_dependent_options),
        cmocka_unit_test(test_presets_equal_their_files),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
