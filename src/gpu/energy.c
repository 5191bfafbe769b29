/*
** energy.c -- the event energy model: which counters are whose events
** (energy_counts_of), the technology table with the config's overrides
** (energy_table_resolve) and the pure sum (energy_compute).  The model
** is linear, so the energy of the totals is the sum over launches.
** docs/energy.md gives the model, the tables and the sanity check.
*/
#include "energy.h"
#include <math.h>
#include <stdio.h>
#include <string.h>

typedef struct energy_param_desc {
    const char *key, *unit, *help;
    int part;
} energy_param_desc;

static const energy_param_desc params[ENERGY_NPARAM] = {
#define EN(id, k, u, p, w) [ENERGY_P_##id] = { k, u, w, ENERGY_PART_##p },
#include "../common/energy.def"
#undef EN
};

static const char *const part_names[ENERGY_NPART] = {
    [ENERGY_PART_FRONTEND] = "frontend", [ENERGY_PART_RF] = "rf",
    [ENERGY_PART_SP] = "sp", [ENERGY_PART_SFU] = "sfu", [ENERGY_PART_DP] = "dp",
    [ENERGY_PART_INT] = "int", [ENERGY_PART_LDST] = "ldst", [ENERGY_PART_CTRL] = "ctrl",
    [ENERGY_PART_SMEM] = "smem", [ENERGY_PART_L1D] = "l1d", [ENERGY_PART_L1C] = "l1c",
    [ENERGY_PART_L1T] = "l1t", [ENERGY_PART_REEXEC] = "reexec", [ENERGY_PART_ICNT] = "icnt",
    [ENERGY_PART_L2] = "l2", [ENERGY_PART_DRAM] = "dram",
    [ENERGY_PART_LEAK_SM] = "leak_sm", [ENERGY_PART_LEAK_L2] = "leak_l2",
    [ENERGY_PART_LEAK_ICNT] = "leak_icnt", [ENERGY_PART_DRAM_BG] = "dram_bg",
    [ENERGY_PART_LEAK_OTHER] = "leak_other",
};

const char *energy_param_key(int p) { return params[p].key; }
const char *energy_param_unit(int p) { return params[p].unit; }
int energy_param_part(int p) { return params[p].part; }
const char *energy_param_help(int p) { return params[p].help; }
const char *energy_part_name(int part) { return part_names[part]; }

/*
** The pure model.  A dynamic parameter's value is in pJ (per event or per
** byte), so count x value x 1e-12 J; a static one's in W per instance, so
** instances x value x `seconds`.  Each is charged to its part (energy.def).
*/
void energy_compute(const energy_counts *c, const energy_table *t, double seconds,
                    energy_breakdown *out)
{
    memset(out, 0, sizeof *out);
    for (int p = 0; p < ENERGY_NPARAM; p++) {
        double e = p < ENERGY_NDYN ? c->n[p] * t->v[p] * 1e-12 : c->n[p] * t->v[p] * seconds;
        out->part_j[params[p].part] += e;
    }
    for (int q = 0; q < ENERGY_NPART; q++) {
        if (q < ENERGY_NPART_DYN) out->dynamic_j += out->part_j[q];
        else out->static_j += out->part_j[q];
    }
    out->total_j = out->dynamic_j + out->static_j;
    out->seconds = seconds;
    out->avg_power_w = seconds > 0 ? out->total_j / seconds : 0.0;
}

int energy_table_resolve(const gpu_config *cfg, energy_table *t, char *err, size_t errlen)
{
    const energy_tech *tech = energy_tech_find(cfg->energy_tech);
    if (!tech) {
        char names[256] = "";
        for (const char *const *n = energy_tech_names(); *n; n++) {
            strncat(names, n == energy_tech_names() ? "" : ", ", sizeof names - strlen(names) - 1);
            strncat(names, *n, sizeof names - strlen(names) - 1);
        }
        snprintf(err, errlen, "energy_tech = '%s' names no technology table (tables: %s)",
                 cfg->energy_tech, names);
        return -1;
    }
    memset(t, 0, sizeof *t);
    snprintf(t->tech, sizeof t->tech, "%s", tech->name);
    for (int p = 0; p < ENERGY_NPARAM; p++) {
        double v = cfg->energy[p];
        if (v != -1.0 && !(v >= 0.0 && isfinite(v))) {
            snprintf(err, errlen, "energy.%s = %g must be -1 (the energy_tech table's value) "
                     "or a number >= 0 (%s)", params[p].key, v, params[p].unit);
            return -1;
        }
        t->v[p] = v >= 0.0 ? v : tech->v[p];
    }
    return 0;
}

/*
** Which counters are the events (stats.h).  [I] where a choice was made:
** a refused L1 access (reservation fail: it looked the tags up and is
** retried) costs a whole access, as Mascar §6 counts failed attempts in
** L1D energy; a shared-memory bank conflict costs one more pass; DRAM
** reads and writes are charged for their payload bytes (a 32 B sector
** read in a 64 B burst is charged 32 B); the static instances are the
** machine's (SMs, L2 slices, channels) whatever the memory model.
*/
void energy_counts_of(const gpu_config *cfg, const gpu_kernel_stats *k, energy_counts *c)
{
    const gpu_mem_stats *m = &k->mem;
    double *n = c->n;
    memset(c, 0, sizeof *c);
    n[ENERGY_P_FETCH] = (double)k->fetched_insns;
    n[ENERGY_P_ISSUE] = (double)k->warp_insns;
    n[ENERGY_P_RF_READ] = (double)k->rf_reads;
    n[ENERGY_P_RF_WRITE] = (double)k->rf_writes;
    n[ENERGY_P_SP] = (double)k->pipe_lanes[GPU_UNIT_SP];
    n[ENERGY_P_SFU] = (double)k->pipe_lanes[GPU_UNIT_SFU];
    n[ENERGY_P_DP] = (double)k->pipe_lanes[GPU_UNIT_DP];
    n[ENERGY_P_INT] = (double)k->pipe_lanes[GPU_UNIT_INT];
    n[ENERGY_P_LDST] = (double)k->pipe_lanes[GPU_UNIT_LDST];
    n[ENERGY_P_CTRL] = (double)k->pipe_lanes[GPU_UNIT_COUNT];
    n[ENERGY_P_SMEM] = (double)(k->shmem_accesses + k->shmem_conflict_cycles);
    n[ENERGY_P_L1D] = (double)(k->l1d.accesses + k->l1d.reservation_fails);
    n[ENERGY_P_L1C] = (double)(k->l1c.accesses + k->l1c.reservation_fails);
    n[ENERGY_P_L1T] = (double)(k->l1t.accesses + k->l1t.reservation_fails);
    n[ENERGY_P_REEXEC] = (double)(k->reexec_parked + k->reexec_retries);
    n[ENERGY_P_ICNT] = (double)(m->icnt_req_flits + m->icnt_rep_flits) * cfg->icnt_flit_bytes;
    n[ENERGY_P_L2] = (double)m->l2.accesses;
    n[ENERGY_P_DRAM_ACT] = (double)m->dram_activates;
    n[ENERGY_P_DRAM_PRE] = (double)m->dram_precharges;
    n[ENERGY_P_DRAM_RD] = (double)m->dram_rd_bytes;
    n[ENERGY_P_DRAM_WR] = (double)(m->dram_bytes - m->dram_rd_bytes);
    n[ENERGY_P_LEAK_SM] = gpu_config_n_sm(cfg);
    n[ENERGY_P_LEAK_L2] = (double)cfg->n_mem * cfg->n_sub_per_mem;
    n[ENERGY_P_LEAK_ICNT] = 1;
    n[ENERGY_P_DRAM_BG] = cfg->n_mem;
    n[ENERGY_P_LEAK_OTHER] = 1;
}

double energy_seconds(const gpu_config *cfg, const gpu_kernel_stats *k)
{
    return cfg->core_mhz > 0 ? (double)k->cycles / (cfg->core_mhz * 1e6) : 0.0;
}

int energy_of_kernel(const gpu_config *cfg, const gpu_kernel_stats *k, energy_breakdown *out)
{
    energy_table t;
    energy_counts c;
    char err[256];
    memset(out, 0, sizeof *out);
    if (energy_table_resolve(cfg, &t, err, sizeof err)) return -1;
    energy_counts_of(cfg, k, &c);
    energy_compute(&c, &t, energy_seconds(cfg, k), out);
    return 0;
}
