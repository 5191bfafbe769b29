/*
** gpgpusim.c -- the values of GPGPU-Sim options (gpgpusim.config): cache
** strings, schedulers, latency lists, clocks, the DRAM timing string, and
** how each becomes warpsim parameters.  Which option goes to which handler,
** and what the options warpsim does not model would have changed, is the
** table in gpgpusim_map.c.
*/
#include "gpgpusim_int.h"
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

/* Parse a whole unsigned decimal number; false on junk. */
bool gs_num(const char *s, uint32_t *out)
{
    char *end;
    while (isspace((unsigned char)*s)) s++;
    if (!isdigit((unsigned char)*s)) return false;
    unsigned long long v = strtoull(s, &end, 10);
    while (isspace((unsigned char)*end)) end++;
    if (*end || v > 0xffffffffull) return false;
    *out = (uint32_t)v;
    return true;
}

/* Split `v` at `sep` into at most `max` fields (copied into `buf`). */
int gs_split(const char *v, char sep, char *buf, size_t len, char **f, int max)
{
    snprintf(buf, len, "%s", v);
    int n = 0;
    for (char *p = buf; n < max;) {
        f[n++] = p;
        char *s = strchr(p, sep);
        if (!s) break;
        *s = '\0';
        p = s + 1;
    }
    return n;
}

/* set("key", "%u", x) through the table, so bounds are checked there. */
int gs_setf(gpu_config *c, const char *key, const char *opt, uint32_t x, char *err,
            size_t errlen)
{
    char v[32], e[512];
    snprintf(v, sizeof v, "%u", x);
    if (gpu_config_set(c, key, v, e, sizeof e) == 0) return GPU_GS_APPLIED;
    snprintf(err, errlen, "%s: %s", opt, e);
    return GPU_GS_ERROR;
}

int gs_bad(const char *opt, const char *v, const char *want, char *err, size_t errlen)
{
    snprintf(err, errlen, "%s '%s': expected %s", opt, v, want);
    return GPU_GS_ERROR;
}

/* ------------------------------------------------------------------ */
/* Cache strings                                                       */
/* ------------------------------------------------------------------ */

/*
** "[N|S:]sets:line:ways,rep:write:alloc:write_alloc[:index],mshr:entries:merge,mq[:...]..."
**   e.g. "N:64:128:6,L:L:m:N:H,A:128:8,16:0,32"   (GPGPU-Sim 4.x)
**        "32:128:4,L:L:m:N,A:32:8,8"               (GPGPU-Sim 3.x)
** "none" disables the cache.  The policy letters, and what they become:
**   write:  B write-back (write_back = true); T write-through; E write-evict
**           (write-through + write_evict = true); R read-only (write-through:
**           it never holds dirty data); L local write-back / global
**           write-through: write-through for both, since the L1 does not tell
**           local from global stores (named in the warning).
**   alloc:  m, f, s -> <l1>.allocate = miss, fill, streaming.  The L2
**           allocates at fill: m and s are named in the warning there.
**   write_alloc: N (no write-allocate) is our write-through; W and F are our
**           write-back, which fetches the line on a store miss (F exactly; W,
**           GPGPU-Sim 3.x's write-allocate, as fetch-on-write); L (lazy
**           fetch-on-read) has no counterpart.
**   rep L (LRU) and index L (linear) are ours; rep F (FIFO) and index H, P,
**   C, X (hashed) have no counterpart.
** A letter without a counterpart is accepted and named in the one warning
** of unused options (GPU_GS_PARTIAL); a letter that is not GPGPU-Sim's is
** an error naming the option and the letter.
*/

/* One policy field: its position's name, its valid letters. */
static const struct { const char *name, *valid; } cache_fields[] = {
    { "replacement", "LF" }, { "write", "RBTEL" }, { "allocation", "mfs" },
    { "write-allocate", "NWFL" }, { "set-index", "HPCLX" },
};

/* Append "[X: why]" to the note in `note`. */
static void note_add(char *note, size_t len, char letter, const char *why)
{
    size_t n = strlen(note);
    snprintf(note + n, len - n, " [%c: %s]", letter, why);
}

/* The "rep:write:alloc:write_alloc[:index]" group for `cache` (l1d, l1c,
   l1t or l2): check every letter, apply those with a counterpart, note the
   others in `note`.  GPU_GS_APPLIED or GPU_GS_ERROR. */
static int cache_letters(gpu_config *c, const char *cache, const char *opt, const char *grp,
                         char *note, size_t notelen, char *err, size_t errlen)
{
    char buf[64], *f[6], set[96];
    int n = gs_split(grp, ':', buf, sizeof buf, f, 6);
    if (n < 4 || n > 5) {
        snprintf(err, errlen, "%s: policy group '%s': expected rep:write:alloc:write_alloc"
                 "[:index] (e.g. L:T:m:N)", opt, grp);
        return GPU_GS_ERROR;
    }
    for (int i = 0; i < n; i++)
        if (strlen(f[i]) != 1 || !strchr(cache_fields[i].valid, f[i][0])) {
            snprintf(err, errlen, "%s: invalid %s policy letter '%s' in '%s' (valid: %s)", opt,
                     cache_fields[i].name, f[i], grp, cache_fields[i].valid);
            return GPU_GS_ERROR;
        }
    char rep = f[0][0], wr = f[1][0], al = f[2][0], wa = f[3][0], idx = n == 5 ? f[4][0] : 'L';
    bool l1 = strcmp(cache, "l2") != 0;
    if (rep == 'F') note_add(note, notelen, rep, "FIFO replacement, modelled as LRU");
    if (wr == 'L') note_add(note, notelen, wr, "local write-back, modelled as write-through");
    if (wr == 'E' && !l1) note_add(note, notelen, wr, "write-evict, not modelled at the L2");
    if (al != 'f' && !l1) note_add(note, notelen, al, "allocation at miss, the L2 allocates at fill");
    if (wa == 'L') note_add(note, notelen, wa, "lazy fetch-on-read, not modelled");
    if (wa == 'N' && wr == 'B')
        note_add(note, notelen, wa, "no write-allocate, write-back allocates on store misses");
    if ((wa == 'W' || wa == 'F') && wr != 'B')
        note_add(note, notelen, wa, "write-allocate, write-through never allocates");
    /* H and X are mem/cache.c's fermi and xor on the L1s; the rest is linear */
    bool idx_mapped = idx == 'L' || (l1 && (idx == 'H' || idx == 'X'));
    if (!idx_mapped) note_add(note, notelen, idx, "hashed set index, modelled as linear");
    snprintf(set, sizeof set, "%s.write_back=%s", cache, wr == 'B' ? "true" : "false");
    if (gpu_config_apply(c, set, err, errlen)) return GPU_GS_ERROR;
    if (!l1) return GPU_GS_APPLIED;
    snprintf(set, sizeof set, "%s.write_evict=%s", cache, wr == 'E' ? "true" : "false");
    if (gpu_config_apply(c, set, err, errlen)) return GPU_GS_ERROR;
    snprintf(set, sizeof set, "%s.set_index=%s", cache,
             idx == 'H' ? "fermi" : idx == 'X' ? "xor" : "linear");
    if (gpu_config_apply(c, set, err, errlen)) return GPU_GS_ERROR;
    snprintf(set, sizeof set, "%s.allocate=%s", cache,
             al == 'm' ? "miss" : al == 's' ? "streaming" : "fill");
    return gpu_config_apply(c, set, err, errlen) ? GPU_GS_ERROR : GPU_GS_APPLIED;
}

int gs_cache(gpu_config *c, gpu_gs_state *st, const gs_row *row, const char *v, char *err,
             size_t errlen)
{
    const char *cache = row->arg, *opt = row->opt;
    (void)st;
    char buf[256], gbuf[256], *grp[8], *geo[4], key[64], note[512] = "";
    if (strcmp(v, "none") == 0) {
        snprintf(key, sizeof key, "%s.enabled=false", cache);
        return gpu_config_apply(c, key, err, errlen) ? GPU_GS_ERROR : GPU_GS_APPLIED;
    }
    int ng = gs_split(v, ',', buf, sizeof buf, grp, 8);
    int nf = gs_split(grp[0], ':', gbuf, sizeof gbuf, geo, 4);
    int g0 = nf == 4 && isalpha((unsigned char)geo[0][0]) ? 1 : 0;   /* N: / S: prefix */
    if (g0 && strcmp(geo[0], "N") && strcmp(geo[0], "S"))
        return gs_bad(opt, v, "N: (normal) or S: (sectored) before the geometry", err, errlen);
    /* GPGPU-Sim 4's sectored caches move 32 B sectors (SECTOR_SIZE): a miss
       fetches only the sectors it needs.  The L2 models them (mem/l2.c);
       warpsim's L1 lines are whole */
    bool l2 = strcmp(cache, "l2") == 0, sectored = g0 && geo[0][0] == 'S';
    if (sectored && !l2) note_add(note, sizeof note, 'S', "sectored, modelled as whole lines");
    if (l2 && gpu_config_apply(c, sectored ? "l2.sector_bytes=32" : "l2.sector_bytes=0", err,
                               errlen))
        return GPU_GS_ERROR;
    uint32_t sets, line, ways, mshr = 0, merge = 0, mq = 0;
    if (nf - g0 != 3 || !gs_num(geo[g0], &sets) || !gs_num(geo[g0 + 1], &line)
        || !gs_num(geo[g0 + 2], &ways))
        return gs_bad(opt, v, "[N:]sets:line:ways,... (e.g. 32:128:4,L:L:m:N,A:32:8,8)", err, errlen);
    if (ng >= 3) {
        char mbuf[64], *m[4];
        if (gs_split(grp[2], ':', mbuf, sizeof mbuf, m, 4) < 3 || !gs_num(m[1], &mshr)
            || !gs_num(m[2], &merge))
            return gs_bad(opt, v, "an MSHR group like A:32:8 (type:entries:merge)", err, errlen);
    }
    if (ng >= 4) {
        char qbuf[64], *q[4];
        gs_split(grp[3], ':', qbuf, sizeof qbuf, q, 4);
        if (!gs_num(q[0], &mq)) return gs_bad(opt, v, "a miss-queue size after the MSHR group", err, errlen);
    }
    const char *fields[] = { "sets", "line_bytes", "ways", "mshr_entries", "mshr_merge",
                             "miss_queue" };
    uint32_t vals[] = { sets, line, ways, mshr, merge, mq };
    for (int i = 0; i < 6; i++) {
        if (i >= 3 && !vals[i]) continue;   /* group absent: keep ours */
        snprintf(key, sizeof key, "%s.%s", cache, fields[i]);
        if (gs_setf(c, key, opt, vals[i], err, errlen) != GPU_GS_APPLIED) return GPU_GS_ERROR;
    }
    snprintf(key, sizeof key, "%s.enabled=true", cache);
    gpu_config_apply(c, key, err, errlen);
    /* GPGPU-Sim's L2 always indexes its sets with the partition address */
    if (strcmp(cache, "l2") == 0) gpu_config_apply(c, "l2.set_index_local=true", err, errlen);
    if (ng >= 2 && cache_letters(c, cache, opt, grp[1], note, sizeof note, err, errlen))
        return GPU_GS_ERROR;
    if (!note[0]) return GPU_GS_APPLIED;
    snprintf(err, errlen, "%s%s", opt, note);
    return GPU_GS_PARTIAL;
}

/* The file's instruction-cache state into l1i.model (gpu_gs_state). */
static int icache_model(gpu_config *c, const gpu_gs_state *st, char *err, size_t errlen)
{
    bool on = st->il1_given && !st->perfect_icache;
    return gpu_config_apply(c, on ? "l1i.model=true" : "l1i.model=false", err, errlen)
           ? GPU_GS_ERROR : GPU_GS_APPLIED;
}

/* -gpgpu_cache:il1: the geometry into l1i, and GPGPU-Sim's fetch through it
   (core/fetch.c) unless the file also asks for a perfect one. */
int gs_icache(gpu_config *c, gpu_gs_state *st, const gs_row *row, const char *v, char *err,
              size_t errlen)
{
    int r = gs_cache(c, st, row, v, err, errlen);
    if (r == GPU_GS_ERROR || !st || strcmp(v, "none") == 0) return r;
    st->il1_given = true;
    char e[256];
    if (icache_model(c, st, e, sizeof e) == GPU_GS_ERROR) {
        snprintf(err, errlen, "%s: %s", row->opt, e);
        return GPU_GS_ERROR;
    }
    return r;
}

/* -gpgpu_perfect_inst_const_cache: 1 = every instruction fetch hits (and
   every constant access, which warpsim still times: named). */
int gs_perfect_icache(gpu_config *c, gpu_gs_state *st, const gs_row *row, const char *v,
                      char *err, size_t errlen)
{
    uint32_t x;
    if (!gs_num(v, &x) || x > 1) return gs_bad(row->opt, v, "0 or 1", err, errlen);
    if (!st) return GPU_GS_APPLIED;
    st->perfect_icache = x == 1;
    char e[256];
    if (icache_model(c, st, e, sizeof e) == GPU_GS_ERROR) {
        snprintf(err, errlen, "%s: %s", row->opt, e);
        return GPU_GS_ERROR;
    }
    if (!x) return GPU_GS_APPLIED;
    snprintf(err, errlen, "%s [1: constant-cache misses removed, warpsim times them]", row->opt);
    return GPU_GS_PARTIAL;
}

/* ------------------------------------------------------------------ */
/* Composite options                                                   */
/* ------------------------------------------------------------------ */

/* lrr | gto | old | two_level_active:N:inner:outer | warp_limiting:type:N */
int gs_scheduler(gpu_config *c, gpu_gs_state *st, const gs_row *row, const char *v, char *err,
                 size_t errlen)
{
    const char *opt = row->opt;
    (void)st;
    char buf[128], *f[5], params[128] = "";
    const char *name = NULL;
    int n = gs_split(v, ':', buf, sizeof buf, f, 5);
    uint32_t a, b, d;
    if (n == 1 && (strcmp(f[0], "lrr") == 0 || strcmp(f[0], "gto") == 0)) name = f[0];
    else if (n == 1 && strcmp(f[0], "old") == 0) name = "oldest";
    else if (strcmp(f[0], "two_level_active") == 0) {
        if (n != 4 || !gs_num(f[1], &a) || !gs_num(f[2], &b) || !gs_num(f[3], &d))
            return gs_bad(opt, v, "two_level_active:ACTIVE:INNER:OUTER", err, errlen);
        name = "two-level";
        /* GPGPU-Sim's inner/outer codes: 0 = LRR / SRR, 1 = GTO / oldest */
        snprintf(params, sizeof params, "active_warps=%u,inner=%u,outer=%u", a, b ? 1 : 0,
                 d ? 1 : 0);
    } else if (strcmp(f[0], "warp_limiting") == 0) {
        if (n != 3 || !gs_num(f[1], &a) || !gs_num(f[2], &b))
            return gs_bad(opt, v, "warp_limiting:TYPE:LIMIT", err, errlen);
        name = "swl";
        snprintf(params, sizeof params, "warp_limit=%u", b);
    }
    if (!name)
        return gs_bad(opt, v, "lrr, gto, old, two_level_active:N:I:O or warp_limiting:T:N", err,
                   errlen);
    char e[512];
    if (gpu_config_set(c, "warp_scheduler", name, e, sizeof e)
        || gpu_config_set(c, "warp_scheduler_params", params, e, sizeof e)) {
        snprintf(err, errlen, "%s: %s", opt, e);
        return GPU_GS_ERROR;
    }
    return GPU_GS_APPLIED;
}

/*
** "-ptx_opcode_latency_<cls>" / "-ptx_opcode_initiation_<cls>": per class
** int, fp, dp the list ADD,MAX,MUL,MAD,DIV, and for int in GPGPU-Sim 4.x a
** sixth value, SHFL (ptx_instruction::set_opcode_and_latency: [0] add/sub,
** [1] min/max, [2] mul, [3] mad, [4] div, [5] shfl; every other ALU op
** takes 1 cycle there); sfu one value.  warpsim has fewer classes:
**   ADD -> op.<int|fp32|fp64>   (logic, move, compare, convert: op.other,
**                                1 cycle as there)
**   MUL, MAD -> op.int_mul the larger of the two; f32/f64 mul and fma take
**               ADD's value (named when they differ)
**   MAX -> min/max take ADD's (named when it differs)
**   DIV -> op.<..>_div      SHFL -> shfl takes int ADD's (named)
*/
static void op_note(char *note, size_t len, const char *what, uint32_t x, const char *why)
{
    size_t n = strlen(note);
    snprintf(note + n, len - n, " [%s %u: %s]", what, x, why);
}

static int opcode_list(gpu_config *c, const gs_row *row, const char *v, const char *what,
                       char *err, size_t errlen)
{
    const char *opt = row->opt, *cls = row->arg;
    char buf[128], *f[7], key[64], note[512] = "";
    uint32_t x[6];
    int n = gs_split(v, ',', buf, sizeof buf, f, 7);
    bool is_int = strcmp(cls, "int") == 0;
    if (strcmp(cls, "sfu") == 0) {
        if (n != 1 || !gs_num(f[0], &x[0])) return gs_bad(opt, v, "one cycle count", err, errlen);
        snprintf(key, sizeof key, "op.sfu.%s", what);
        return gs_setf(c, key, opt, x[0], err, errlen);
    }
    const char *want = is_int ? "ADD,MAX,MUL,MAD,DIV[,SHFL] (5 or 6 cycle counts)"
                              : "ADD,MAX,MUL,MAD,DIV (5 cycle counts)";
    if (n != 5 && !(is_int && n == 6)) return gs_bad(opt, v, want, err, errlen);
    for (int i = 0; i < n; i++)
        if (!gs_num(f[i], &x[i])) return gs_bad(opt, v, want, err, errlen);
    const char *base = is_int ? "int" : strcmp(cls, "fp") == 0 ? "fp32" : "fp64";
    snprintf(key, sizeof key, "op.%s.%s", base, what);
    if (gs_setf(c, key, opt, x[0], err, errlen)) return GPU_GS_ERROR;
    /* every op outside the lists takes 1 cycle there (op.other) */
    if (gpu_config_apply(c, "op.other.latency=1", err, errlen)) return GPU_GS_ERROR;
    if (x[1] != x[0]) op_note(note, sizeof note, "MAX", x[1], "min/max use ADD's value");
    if (is_int) {
        snprintf(key, sizeof key, "op.int_mul.%s", what);
        if (gs_setf(c, key, opt, x[2] > x[3] ? x[2] : x[3], err, errlen)) return GPU_GS_ERROR;
        if (x[2] != x[3]) op_note(note, sizeof note, x[2] < x[3] ? "MUL" : "MAD",
                                  x[2] < x[3] ? x[2] : x[3], "mul and mad share the larger value");
    } else if (x[2] != x[0] || x[3] != x[0]) {
        op_note(note, sizeof note, x[2] != x[0] ? "MUL" : "MAD", x[2] != x[0] ? x[2] : x[3],
                "mul and fma use ADD's value");
    }
    if (n == 6 && x[5] != x[0]) op_note(note, sizeof note, "SHFL", x[5], "shfl uses ADD's value");
    snprintf(key, sizeof key, "op.%s_div.%s", base, what);
    if (gs_setf(c, key, opt, x[4], err, errlen)) return GPU_GS_ERROR;
    if (!note[0]) return GPU_GS_APPLIED;
    snprintf(err, errlen, "%s%s", opt, note);
    return GPU_GS_PARTIAL;
}

int gs_opcode_latency(gpu_config *c, gpu_gs_state *st, const gs_row *row, const char *v,
                      char *err, size_t errlen)
{
    (void)st;
    return opcode_list(c, row, v, "latency", err, errlen);
}

int gs_opcode_interval(gpu_config *c, gpu_gs_state *st, const gs_row *row, const char *v,
                       char *err, size_t errlen)
{
    (void)st;
    return opcode_list(c, row, v, "interval", err, errlen);
}

int gs_clock(gpu_config *c, gpu_gs_state *st, const gs_row *row, const char *v, char *err,
             size_t errlen)
{
    const char *opt = row->opt;
    (void)st;
    char buf[128], *f[5];
    static const char *const keys[] = { "core_mhz", "icnt_mhz", "l2_mhz", "dram_mhz" };
    if (gs_split(v, ':', buf, sizeof buf, f, 5) != 4)
        return gs_bad(opt, v, "CORE:ICNT:L2:DRAM in MHz", err, errlen);
    for (int i = 0; i < 4; i++) {
        char e[512];
        if (gpu_config_set(c, keys[i], f[i], e, sizeof e)) {
            snprintf(err, errlen, "%s: %s", opt, e);
            return GPU_GS_ERROR;
        }
    }
    return GPU_GS_APPLIED;
}

int gs_pipeline(gpu_config *c, gpu_gs_state *st, const gs_row *row, const char *v, char *err,
                size_t errlen)
{
    const char *opt = row->opt;
    (void)st;
    char buf[64], *f[3];
    uint32_t threads, warp;
    if (gs_split(v, ':', buf, sizeof buf, f, 3) != 2 || !gs_num(f[0], &threads) || !gs_num(f[1], &warp))
        return gs_bad(opt, v, "THREADS:WARP_SIZE", err, errlen);
    if (warp != 32) return gs_bad(opt, v, "warp size 32 (the only one warpsim models)", err, errlen);
    return gs_setf(c, "max_threads_per_sm", opt, threads, err, errlen);
}

/* ------------------------------------------------------------------ */
/* Memory-system options                                               */
/* ------------------------------------------------------------------ */

/* Copy `v` without double quotes and white space (GPGPU-Sim quotes the
   timing string and config files break it over lines). */
static void squeeze(const char *v, char *buf, size_t len)
{
    size_t n = 0;
    for (; *v && n + 1 < len; v++)
        if (*v != '"' && !isspace((unsigned char)*v)) buf[n++] = *v;
    buf[n] = '\0';
}

/*
** "nbk=16:CCD=2:RRD=6:RCD=12:RAS=28:RP=12:RC=40:CL=12:WL=4:CDLR=5:WR=12:
**  nbkgrp=4:CCDL=3:RTPL=2".  Write-to-read and read-to-write turnarounds
** are derived the way GPGPU-Sim derives them, from the burst length and
** data:command ratio set so far: tWTR = WL + BL/ratio + CDLR, tRTW = CL +
** BL/ratio + 2 - WL (so give -gpgpu_dram_burst_length and
** -dram_data_command_freq_ratio first, as GPGPU-Sim's own configs do).
*/
int gs_timing(gpu_config *c, gpu_gs_state *st, const gs_row *row, const char *v, char *err,
              size_t errlen)
{
    const char *opt = row->opt;
    (void)st;
    static const struct { const char *name, *key; } direct[] = {
        { "nbk", "dram_banks" }, { "CCD", "tCCD" }, { "RRD", "tRRD" }, { "RCD", "tRCD" },
        { "RAS", "tRAS" }, { "RP", "tRP" }, { "RC", "tRC" }, { "CL", "tCL" }, { "WR", "tWR" },
        { "nbkgrp", "dram_bank_groups" }, { "CCDL", "tCCDL" }, { "RTPL", "tRTP" },
        { NULL, NULL }
    };
    char buf[512], *f[32];
    squeeze(v, buf, sizeof buf);
    char copy[512];
    snprintf(copy, sizeof copy, "%s", buf);
    int n = gs_split(copy, ':', buf, sizeof buf, f, 32);
    uint32_t wl = 0, cdlr = 0, x;
    bool have_wl = false, have_cdlr = false, have_ccdl = false;
    for (int i = 0; i < n; i++) {
        char *eq = strchr(f[i], '=');
        if (!*f[i]) continue;                      /* trailing ':' */
        if (!eq || !gs_num(eq + 1, &x))
            return gs_bad(opt, v, "name=value fields separated by ':' (e.g. nbk=16:CCD=2:...)",
                       err, errlen);
        *eq = '\0';
        if (strcmp(f[i], "WL") == 0) { wl = x; have_wl = true; continue; }
        if (strcmp(f[i], "CDLR") == 0) { cdlr = x; have_cdlr = true; continue; }
        int k = 0;
        while (direct[k].name && strcmp(direct[k].name, f[i])) k++;
        if (!direct[k].name) {
            snprintf(err, errlen, "%s: unknown timing field '%s' (known: nbk, CCD, RRD, RCD, "
                     "RAS, RP, RC, CL, WL, CDLR, WR, nbkgrp, CCDL, RTPL)", opt, f[i]);
            return GPU_GS_ERROR;
        }
        if (strcmp(f[i], "CCDL") == 0) have_ccdl = true;
        if (gs_setf(c, direct[k].key, opt, x, err, errlen)) return GPU_GS_ERROR;
    }
    /* no bank groups given: column commands space like tCCD everywhere */
    if (!have_ccdl && gs_setf(c, "tCCDL", opt, c->tCCD, err, errlen)) return GPU_GS_ERROR;
    uint32_t bl = c->dram_burst / (c->dram_data_rate ? c->dram_data_rate : 1);
    if (have_wl || have_cdlr) {
        if (gs_setf(c, "tWTR", opt, wl + bl + cdlr, err, errlen)) return GPU_GS_ERROR;
        uint32_t rtw = c->tCL + bl + 2 > wl ? c->tCL + bl + 2 - wl : 0;
        if (gs_setf(c, "tRTW", opt, rtw, err, errlen)) return GPU_GS_ERROR;
    }
    return GPU_GS_APPLIED;
}

static int set_text(gpu_config *c, const char *key, const char *opt, const char *v, char *err,
                    size_t errlen)
{
    char e[512];
    if (gpu_config_set(c, key, v, e, sizeof e) == 0) return GPU_GS_APPLIED;
    snprintf(err, errlen, "%s: %s", opt, e);
    return GPU_GS_ERROR;
}

int gs_addr_map(gpu_config *c, gpu_gs_state *st, const gs_row *row, const char *v, char *err,
                size_t errlen)
{
    char buf[512];
    (void)st;
    squeeze(v, buf, sizeof buf);
    return set_text(c, "dram_addr_map", row->opt, buf, err, errlen);
}

int gs_dram_scheduler(gpu_config *c, gpu_gs_state *st, const gs_row *row, const char *v,
                      char *err, size_t errlen)
{
    uint32_t x;
    (void)st;
    if (!gs_num(v, &x) || x > 1) return gs_bad(row->opt, v, "0 (FIFO) or 1 (FR-FCFS)", err, errlen);
    return set_text(c, "dram_scheduler", row->opt, x ? "frfcfs" : "fcfs", err, errlen);
}

/* The channel's data bus: GPGPU-Sim's bytes per chip times its chips per
   controller (dram.cc: an atom is BL x busW x chips), whichever of the two
   options comes first. */
static int dram_bus(gpu_config *c, const gpu_gs_state *st, const char *opt, char *err,
                    size_t errlen)
{
    return gs_setf(c, "dram_bus_bytes", opt, st->dram_chip_bytes * st->dram_chips, err, errlen);
}

int gs_dram_buswidth(gpu_config *c, gpu_gs_state *st, const gs_row *row, const char *v,
                     char *err, size_t errlen)
{
    uint32_t x;
    if (!gs_num(v, &x) || !x || x > 1024) return gs_bad(row->opt, v, "bytes per chip", err, errlen);
    st->dram_chip_bytes = x;
    return dram_bus(c, st, row->opt, err, errlen);
}

int gs_dram_chips(gpu_config *c, gpu_gs_state *st, const gs_row *row, const char *v,
                  char *err, size_t errlen)
{
    uint32_t x;
    if (!gs_num(v, &x) || !x || x > 64) return gs_bad(row->opt, v, "chips per controller", err, errlen);
    st->dram_chips = x;
    return dram_bus(c, st, row->opt, err, errlen);
}

/* GPGPU-Sim's help says "entries per chip", but dram_t::full() compares
   the scheduler's pending count with the value itself: per controller. */
int gs_dram_queue(gpu_config *c, gpu_gs_state *st, const gs_row *row, const char *v,
                  char *err, size_t errlen)
{
    uint32_t x;
    (void)st;
    if (!gs_num(v, &x)) return gs_bad(row->opt, v, "entries per controller (0 = unlimited)", err, errlen);
    return gs_setf(c, "dram_queue", row->opt, x ? x : 1u << 20, err, errlen);
}

/* icnt->L2 : L2->DRAM : DRAM->L2 : L2->icnt; warpsim has one size (the
   largest), named in the warning when they differ */
int gs_partition_queues(gpu_config *c, gpu_gs_state *st, const gs_row *row, const char *v,
                        char *err, size_t errlen)
{
    char buf[128], *f[4];
    uint32_t q[4], m = 0;
    bool same = true;
    (void)st;
    if (gs_split(v, ':', buf, sizeof buf, f, 4) != 4)
        return gs_bad(row->opt, v, "four queue sizes A:B:C:D", err, errlen);
    for (int i = 0; i < 4; i++) {
        if (!gs_num(f[i], &q[i])) return gs_bad(row->opt, v, "four queue sizes A:B:C:D", err, errlen);
        if (q[i] > m) m = q[i];
        same = same && q[i] == q[0];
    }
    if (gs_setf(c, "l2_queue", row->opt, m, err, errlen)) return GPU_GS_ERROR;
    if (same) return GPU_GS_APPLIED;
    snprintf(err, errlen, "%s [%s: one size for all four L2 queues, the largest (%u)]",
             row->opt, v, m);
    return GPU_GS_PARTIAL;
}
