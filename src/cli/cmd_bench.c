/*
** cmd_bench.c -- `warpsim bench list | run | characterize | pmem`: the bundled
** benchmark suite (bench/manifest.json).  run builds a program with nvcc
** when needed and runs it on the simulator; characterize runs each one and
** prints the workload table the scheduling papers classify by (the
** fetch-dram paper's Table 2: warp length avg/std and max/min, arithmetic
** intensity; plus divergence and barriers), optionally as JSON.
*/
#include "cli.h"
#include "cli_bench.h"
#include "policy/policy.h"
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <jansson.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The fetch-dram spec calls a kernel symmetric when its longest warp is at
   most 2% longer than its shortest. */
#define BENCH_SYMMETRIC_SPREAD 1.02
/* Kernels below this share of a benchmark's warp instructions do not
   decide its symmetric/asymmetric verdict (a one-warp cleanup kernel says
   nothing about the workload). */
#define BENCH_VERDICT_SHARE 0.10

static const char bench_usage[] =
    "usage: warpsim bench list [--bench-dir DIR]\n"
    "       warpsim bench run NAME [--size tiny|small|default] [--seed N] [--rebuild]\n"
    "                              [--bench-dir DIR] [--bin-dir DIR] [--threads N]\n"
    "                              [exec options]\n"
    "       warpsim bench characterize [--size tiny|small|default] [--seed N] [--rebuild]\n"
    "                              [--bench-dir DIR] [--bin-dir DIR] [--json FILE] [NAME...]\n"
    "       warpsim bench pmem [--config P] [--size S] [--json FILE] [NAME...]\n"
    "  The bundled benchmark programs (bench/manifest.json in the source tree, or\n"
    "  DIR/manifest.json).  Each is one CUDA program that checks its results\n"
    "  against a CPU reference and prints PASS or FAIL.\n"
    "  list          name, class tags, the paper benchmark it stands in for, kernels\n"
    "  run           build with nvcc (CUDA 13) into <build>/bench-bin/NAME when missing\n"
    "                or older than its source, run it on the simulator (size default:\n"
    "                small), report the verification line and statistics.  Exec\n"
    "                options: --stats-json FILE --per-kernel --quiet --arch sm_XX --sms N\n"
    "                --clock-mhz N --stack BYTES --lib-dir DIR --memcheck, and for the timing\n"
    "                model --timing --config PRESET|FILE --set KEY=VALUE --threads N\n"
    "                --timing-report FILE --timeseries FILE --plugin FILE.so (see\n"
    "                warpsim exec --help; --threads N is --set threads=N)\n"
    "  characterize  run each named benchmark (default: all) at the size (default\n"
    "                small) and print per benchmark and kernel the fetch-dram paper's\n"
    "                Table 2 columns: warps, warp instructions, memory instructions,\n"
    "                avg/std of the instructions per warp, max/min (longest/shortest\n"
    "                warp; <= 1.02 is symmetric), arithmetic intensity (non-memory per\n"
    "                memory instruction), plus average active lanes, barrier\n"
    "                instructions, and whether the verdict matches the manifest's\n"
    "                tag.  --json FILE also writes the table as JSON\n"
    "  pmem          OWL's PMEM classification: IPC with perfect_l1 / IPC on the\n"
    "                timing model (default owl28, tiny), Type-1 when >= 1.4\n"
    "                (warpsim bench pmem --help)\n"
    "  --bin-dir DIR  where built programs go (default <build>/bench-bin)\n"
    "  --rebuild      build even when the program is up to date\n"
    "  Exit status: 0 all ran and passed verification, 1 a build, run or\n"
    "  verification failed, 2 usage error.\n";

static const cli_opt bench_opts[] = {
    {"help", false}, {"bench-dir", true}, {"bin-dir", true}, {"size", true},
    {"seed", true}, {"rebuild", false}, {"json", true},
    /* passed on to warpsim exec */
    {"stats-json", true}, {"per-kernel", false}, {"quiet", false}, {"arch", true},
    {"sms", true}, {"clock-mhz", true}, {"stack", true}, {"lib-dir", true},
    {"timing", false}, {"config", true}, {"set", true}, {"timing-report", true},
    {"timeseries", true}, {"plugin", true}, {"memcheck", false}, {"threads", true},
    {NULL, false}
};

#define BENCH_MAX_NAMES 64

typedef struct bench_cli {
    const char *cmd;           /* "bench run", ... for messages */
    const char *bench_dir, *bin_dir, *seed, *stats_json;
    const char *json;          /* characterize --json FILE, or NULL */
    int size;
    bool rebuild;
    char **exec_opts;          /* "--name", value pairs for exec; grown as needed */
    int nexec, capexec;
    const char *names[BENCH_MAX_NAMES];
    int nnames;
    char plugins[CLI_PLUGINS_MAX];          /* --plugin files, ':'-separated */
    char threads[CLI_THREADS_SET];          /* --threads N as threads=N (the last one) */
} bench_cli;

/* Append one word to the options passed to exec; false after a message
   when out of memory (there is no fixed limit: any number of --set). */
static bool push_exec(bench_cli *c, const char *word)
{
    if (c->nexec + 1 >= c->capexec) {
        int cap = c->capexec ? 2 * c->capexec : 32;
        char **p = realloc(c->exec_opts, (size_t)cap * sizeof *p);
        if (!p) {
            cli_error(c->cmd, "out of memory storing the options");
            return false;
        }
        c->exec_opts = p;
        c->capexec = cap;
    }
    c->exec_opts[c->nexec++] = (char *)word;
    c->exec_opts[c->nexec] = NULL;
    return true;
}

/* Store one option; false (after a message) on a bad value. */
static bool bench_opt(bench_cli *c, const char *name, const char *value)
{
    if (strcmp(name, "bench-dir") == 0) c->bench_dir = value;
    else if (strcmp(name, "bin-dir") == 0) c->bin_dir = value;
    else if (strcmp(name, "rebuild") == 0) c->rebuild = true;
    else if (strcmp(name, "json") == 0) c->json = value;
    else if (strcmp(name, "size") == 0) {
        if ((c->size = bench_size_index(value)) < 0) {
            cli_error(c->cmd, "--size '%s': expected tiny, small or default", value);
            return false;
        }
    } else if (strcmp(name, "seed") == 0) {
        uint64_t s;
        if (!cli_parse_u64(value, UINT64_MAX, &s)) {
            cli_error(c->cmd, "--seed '%s': expected a non-negative integer", value);
            return false;
        }
        c->seed = value;
    } else if (strcmp(name, "plugin") == 0) {
        return cli_plugin_add(c->cmd, c->plugins, sizeof c->plugins, value);
    } else if (strcmp(name, "threads") == 0) {
        /* passed on as --set threads=N (checked with the rest by
           bench_check_exec); every slot reads the last --threads */
        return cli_threads_setting(c->cmd, value, c->threads, NULL) && push_exec(c, "--set")
               && push_exec(c, c->threads);
    } else {
        /* an exec option: checked by warpsim exec itself, and --arch and the
           timing configuration here too (bench_check_exec), before any build */
        if (strcmp(name, "stats-json") == 0) { c->stats_json = value; return true; }
        if (strcmp(name, "arch") == 0 && !cli_check_arch(c->cmd, value)) return false;
        static const char *const flags[] = { "--per-kernel", "--quiet", "--arch", "--sms",
                                             "--clock-mhz", "--stack", "--lib-dir",
                                             "--timing", "--config", "--set",
                                             "--timing-report", "--timeseries",
                                             "--memcheck" };
        const char *flag = NULL;
        for (size_t i = 0; i < sizeof flags / sizeof *flags; i++)
            if (strcmp(flags[i] + 2, name) == 0) flag = flags[i];
        if (!flag) {
            cli_error(c->cmd, "--%s is not an option of bench", name);
            return false;
        }
        return push_exec(c, flag) && (!value || push_exec(c, value));
    }
    return true;
}

/*
** The --plugin files, loaded once here so that one that cannot be loaded is
** a usage error before anything is built or run, then passed on to exec as
** one "--plugin FILE" pair each (split in place: c->plugins stays alive).
*/
static int bench_plugins(bench_cli *c)
{
    if (!c->plugins[0]) return 0;
    struct ws_registry *reg = cli_registry_open(c->cmd, c->plugins);
    if (!reg) return -1;
    ws_registry_free(reg);
    for (char *save = NULL, *p = strtok_r(c->plugins, ":", &save); p;
         p = strtok_r(NULL, ":", &save)) {
        if (!push_exec(c, "--plugin") || !push_exec(c, p)) return -1;
    }
    return 0;
}

/*
** The timing configuration the exec options describe (--timing, --config,
** --set, --plugin), built and checked once here as warpsim exec would:
** a bad --set is a usage error naming it before anything is built or run,
** not a failed run followed by an unreadable statistics file.
*/
static int bench_check_exec(const bench_cli *c)
{
    ws_options o = { .plugins = c->plugins };
    const char **sets = calloc((size_t)c->nexec + 1, sizeof *sets);
    int n = 0;
    if (!sets) return -1;
    for (int i = 0; i < c->nexec; i++) {
        const char *f = c->exec_opts[i];
        if (strcmp(f, "--timing") == 0) o.timing = true;
        else if (strcmp(f, "--config") == 0) { o.timing = true; o.config = c->exec_opts[++i]; }
        else if (strcmp(f, "--set") == 0) { o.timing = true; sets[n++] = c->exec_opts[++i]; }
    }
    o.settings = sets;
    char warn[16384], err[2048];   /* a GPGPU-Sim file names every option */
    int rc = 0;
    if ((o.timing || o.plugins[0])
        && ws_options_check(&o, NULL, NULL, warn, sizeof warn, err, sizeof err) != WS_OK) {
        cli_error(c->cmd, "%s", err);
        rc = -1;
    }
    free(sets);
    return rc;
}

/* Parse argv (argv[0] = "list" | "run" | "characterize"); 0, 1 = --help
   printed, or -1 after a message. */
static int bench_parse(bench_cli *c, int argc, char **argv)
{
    cli_iter it;
    const char *name, *value;
    int r;
    cli_iter_init(&it, argc, argv, bench_opts);
    while ((r = cli_iter_next(&it, &name, &value)) != CLI_ITER_END) {
        if (r == CLI_ITER_ERROR) return -1;
        if (r == CLI_ITER_POSITIONAL) {
            if (c->nnames == BENCH_MAX_NAMES) {
                cli_error(c->cmd, "too many benchmark names");
                return -1;
            }
            c->names[c->nnames++] = value;
        } else if (strcmp(name, "help") == 0) {
            fputs(bench_usage, stdout);
            return 1;
        } else if (!bench_opt(c, name, value)) {
            return -1;
        }
    }
    if (bench_plugins(c)) return -1;
    return bench_check_exec(c);
}

/* ------------------------------------------------------------------ */
/* list                                                                */
/* ------------------------------------------------------------------ */

static void join(char *out, size_t len, const char *const *items, int n, const char *sep)
{
    size_t used = 0;
    out[0] = '\0';
    for (int i = 0; i < n && used < len; i++)
        used += (size_t)snprintf(out + used, len - used, "%s%s", i ? sep : "", items[i]);
}

static int bench_list(const bench_manifest *m)
{
    printf("%-15s %-36s %s\n", "NAME", "CLASSES", "STANDS IN FOR / KERNELS");
    for (int i = 0; i < m->n; i++) {
        const bench_entry *e = &m->entries[i];
        char classes[256], kernels[1024];
        join(classes, sizeof classes, e->classes, e->nclasses, ",");
        join(kernels, sizeof kernels, e->kernels, e->nkernels, " ");
        printf("%-15s %-36s %s\n%-15s %-36s kernels: %s\n", e->name, classes,
               e->stands_in_for, "", "", kernels);
    }
    printf("%d benchmarks (%s)\n", m->n, m->path);
    return CLI_EXIT_OK;
}

/* ------------------------------------------------------------------ */
/* Running one benchmark                                               */
/* ------------------------------------------------------------------ */

static double spread_of(const bench_kstats *k)
{
    return k->warp_insns_min ? (double)k->warp_insns_max / (double)k->warp_insns_min : 0.0;
}

static double ratio(uint64_t a, uint64_t b) { return b ? (double)a / (double)b : 0.0; }

/* Build if needed and run `e`; the statistics land in `json`. */
static int bench_one(const bench_cli *c, const bench_manifest *m, const bench_entry *e,
                     const char *json, bool echo, bench_outcome *out)
{
    char bin[PATH_MAX];
    if (bench_bin_path(c->bin_dir, e->name, bin, sizeof bin)) {
        cli_error(c->cmd, "cannot create the folder for built benchmarks (--bin-dir DIR)");
        return -1;
    }
    if (bench_build(m, e, bin, c->rebuild, c->cmd)) return -1;
    char **opts = malloc(((size_t)c->nexec + 4) * sizeof *opts);
    int n = 0;
    if (!opts) return -1;
    for (int i = 0; i < c->nexec; i++) opts[n++] = c->exec_opts[i];
    opts[n++] = "--stats-json";
    opts[n++] = (char *)json;
    if (!echo) opts[n++] = "--quiet";
    opts[n] = NULL;
    int rc = bench_run_program(e, bin, c->size, c->seed, opts, echo, out);
    free(opts);
    if (rc) {
        cli_error(c->cmd, "%s: could not start the program", e->name);
        return -1;
    }
    /* exit status 2 without a verdict: exec refused its options (it said
       why); the statistics file was never written */
    if (out->exit_status == CLI_EXIT_USAGE && !out->verdict[0]) {
        cli_error(c->cmd, "%s: warpsim exec refused the options (see above)", e->name);
        return -1;
    }
    return 0;
}

/* Does launched kernel `k` (demangled, parameters dropped) have manifest
   name `want`?  Ignores a return type, template arguments and namespaces. */
static bool kernel_is(const char *k, const char *want)
{
    char base[256];
    snprintf(base, sizeof base, "%s", k);
    base[strcspn(base, "<")] = '\0';
    const char *b = strrchr(base, ' ') ? strrchr(base, ' ') + 1 : base;
    const char *colon = strstr(b, "::");
    while (colon && strstr(colon + 2, "::")) colon = strstr(colon + 2, "::");
    size_t wl = strcspn(want, "<");
    return (strlen(b) == wl && strncmp(b, want, wl) == 0)
        || (colon && strlen(colon + 2) == wl && strncmp(colon + 2, want, wl) == 0);
}

/* Warn about manifest kernels that never ran and kernels it does not list;
   returns the number of differences. */
static int check_kernels(const bench_entry *e, const bench_stats *s, const char *cmd)
{
    int diff = 0;
    for (int i = 0; i < e->nkernels; i++) {
        bool seen = false;
        for (int j = 0; j < s->nkernels && !seen; j++)
            seen = kernel_is(s->kernels[j].name, e->kernels[i]);
        if (!seen) {
            cli_error(cmd, "%s: the manifest lists kernel '%s', which was not launched",
                      e->name, e->kernels[i]);
            diff++;
        }
    }
    for (int j = 0; j < s->nkernels; j++) {
        bool listed = false;
        for (int i = 0; i < e->nkernels && !listed; i++)
            listed = kernel_is(s->kernels[j].name, e->kernels[i]);
        if (!listed) {
            cli_error(cmd, "%s: kernel '%s' ran but is not in the manifest", e->name,
                      s->kernels[j].name);
            diff++;
        }
    }
    return diff;
}

static bool passed(const bench_outcome *o)
{
    return o->exit_status == 0 && strncmp(o->verdict, "PASS ", 5) == 0;
}

/* A temporary file name for statistics; "" on failure. */
static void temp_json(char *buf, size_t len)
{
    const char *dir = getenv("TMPDIR");
    snprintf(buf, len, "%s/warpsim-bench-XXXXXX", dir && *dir ? dir : "/tmp");
    int fd = mkstemp(buf);
    if (fd < 0) buf[0] = '\0';
    else close(fd);
}

/*
** Can `path` be written?  Checked before a run that may take minutes, by
** opening it for writing without truncating (a file made only for the
** check is removed again).  false after a message naming the path.
*/
static bool writable(const char *cmd, const char *opt, const char *path)
{
    bool existed = access(path, F_OK) == 0;
    int fd = open(path, O_WRONLY | O_CREAT, 0666);
    if (fd < 0) {
        cli_error(cmd, "%s '%s': cannot write there: %s", opt, path, strerror(errno));
        return false;
    }
    close(fd);
    if (!existed) unlink(path);
    return true;
}

static int bench_run(bench_cli *c, const bench_manifest *m)
{
    if (c->nnames != 1) {
        cli_error(c->cmd, "expected one benchmark name (warpsim bench list shows them)");
        return CLI_EXIT_USAGE;
    }
    const bench_entry *e = bench_find(m, c->names[0], c->cmd);
    if (!e) return CLI_EXIT_USAGE;
    if (c->stats_json && !writable(c->cmd, "--stats-json", c->stats_json))
        return CLI_EXIT_USAGE;
    char json[PATH_MAX];
    if (c->stats_json) snprintf(json, sizeof json, "%s", c->stats_json);
    else temp_json(json, sizeof json);
    bench_outcome o;
    int rc = json[0] ? bench_one(c, m, e, json, true, &o) : -1;
    if (rc == 0) {
        printf("warpsim bench: %s (size %s): %s, exit status %d\n", e->name,
               bench_size_names[c->size], passed(&o) ? "PASS" : o.verdict[0] ? "FAIL"
               : "no PASS/FAIL line", o.exit_status);
        bench_stats s;
        if (bench_stats_read(json, &s, c->cmd) != 0) {
            rc = -1;   /* a PASS whose statistics were lost is no success */
        } else {
            const bench_kstats *t = &s.total;
            printf("warpsim bench: %s: %" PRIu64 " launches, %" PRIu64 " warp instructions, "
                   "%" PRIu64 " memory (%.2f instructions per memory instruction), %.2f "
                   "active lanes, %" PRIu64 " barrier, warp length %" PRIu64 "..%" PRIu64
                   "\n", e->name, t->launches, t->warp_insns, t->mem_insns,
                   ratio(t->warp_insns, t->mem_insns), ratio(t->thread_insns, t->warp_insns),
                   t->bar_insns, t->warp_insns_min, t->warp_insns_max);
            check_kernels(e, &s, c->cmd);
            bench_stats_free(&s);
        }
    }
    if (!c->stats_json && json[0]) unlink(json);
    return rc == 0 && passed(&o) ? CLI_EXIT_OK : CLI_EXIT_FAIL;
}

/* ------------------------------------------------------------------ */
/* characterize                                                        */
/* ------------------------------------------------------------------ */

/* Spread that decides a benchmark's verdict: the largest among kernels
   holding at least BENCH_VERDICT_SHARE of its warp instructions. */
static double bench_spread(const bench_stats *s)
{
    double worst = 0.0;
    for (int i = 0; i < s->nkernels; i++) {
        const bench_kstats *k = &s->kernels[i];
        if (ratio(k->warp_insns, s->total.warp_insns) < BENCH_VERDICT_SHARE) continue;
        if (spread_of(k) > worst) worst = spread_of(k);
    }
    return worst;
}

static const char *verdict_of(double spread)
{
    return spread <= BENCH_SYMMETRIC_SPREAD ? "sym" : "asym";
}

/* Mean and (population) standard deviation of the instructions per warp,
   over every warp of `k`'s launches. */
static double avg_of(const bench_kstats *k) { return ratio(k->warp_insns, k->warps); }

static double std_of(const bench_kstats *k)
{
    if (!k->warps) return 0.0;
    double m = avg_of(k), var = k->warp_insns_sq / (double)k->warps - m * m;
    return var > 0.0 ? sqrt(var) : 0.0;
}

/* Arithmetic intensity as the paper defines it: non-memory warp
   instructions per memory warp instruction; NAN without memory ones. */
static double ai_of(const bench_kstats *k)
{
    return k->mem_insns ? (double)(k->warp_insns - k->mem_insns) / (double)k->mem_insns
                        : NAN;
}

static void char_row(const char *bench, const bench_kstats *k, double spread,
                     const char *tail)
{
    char ai[32];
    if (isnan(ai_of(k))) snprintf(ai, sizeof ai, "-");
    else snprintf(ai, sizeof ai, "%.2f", ai_of(k));
    printf("%-14s %-22.22s %7" PRIu64 " %12" PRIu64 " %11" PRIu64 " %10.1f %9.1f %8.3f "
           "%8s %6.2f %9" PRIu64 " %-*s%s\n", bench, k->name, k->warps, k->warp_insns,
           k->mem_insns, avg_of(k), std_of(k), spread, ai,
           ratio(k->thread_insns, k->warp_insns), k->bar_insns, tail[0] ? 5 : 0,
           verdict_of(spread), tail);
}

static const char *tag_of(const bench_entry *e)
{
    return bench_has_class(e, "symmetric") ? "symmetric"
         : bench_has_class(e, "asymmetric") ? "asymmetric" : "untagged";
}

/* The manifest check: symmetric/asymmetric and barrier tags vs measured;
   false with the difference in `why` ("tagged symmetric", ...). */
static bool tags_match(const bench_entry *e, const bench_stats *s, double spread,
                       char *why, size_t len)
{
    bool sym = spread <= BENCH_SYMMETRIC_SPREAD;
    const char *tag = tag_of(e);
    bool barrier = s->total.bar_insns > 0;
    why[0] = '\0';
    if ((sym && strcmp(tag, "symmetric") != 0) || (!sym && strcmp(tag, "asymmetric") != 0))
        snprintf(why, len, "tagged %s", tag);
    else if (barrier != bench_has_class(e, "barrier"))
        snprintf(why, len, "barrier tag %s, %s measured",
                 barrier ? "missing" : "present", barrier ? "barriers" : "none");
    return why[0] == '\0';
}

/* ------------------------------------------------------------------ */
/* characterize --json                                                 */
/* ------------------------------------------------------------------ */

/* A number, or null when it is not one (ai without memory instructions). */
static json_t *jnum(double v) { return isnan(v) ? json_null() : json_real(v); }

/* One kernel's (or the benchmark total's) row; `spread` as printed. */
static json_t *kernel_json(const bench_kstats *k, double spread)
{
    return json_pack("{s:s, s:I, s:I, s:I, s:I, s:f, s:f, s:I, s:I, s:f, s:o, s:f, s:I, s:b}",
                     "name", k->name, "launches", (json_int_t)k->launches,
                     "warps", (json_int_t)k->warps, "warp_insns", (json_int_t)k->warp_insns,
                     "mem_insns", (json_int_t)k->mem_insns, "avg", avg_of(k),
                     "std", std_of(k), "max", (json_int_t)k->warp_insns_max,
                     "min", (json_int_t)k->warp_insns_min, "max_min", spread,
                     "ai", jnum(ai_of(k)), "lanes", ratio(k->thread_insns, k->warp_insns),
                     "barriers", (json_int_t)k->bar_insns,
                     "symmetric", spread <= BENCH_SYMMETRIC_SPREAD);
}

/* A measured benchmark: its verdict (from `spread`, see bench_spread), the
   manifest check, the total over its kernels (max_min: pooled, longest
   over shortest warp of any kernel) and every kernel. */
static json_t *bench_json(const bench_entry *e, const bench_stats *s, double spread,
                          bool match, const char *why)
{
    json_t *ks = json_array();
    for (int i = 0; ks && i < s->nkernels; i++)
        json_array_append_new(ks, kernel_json(&s->kernels[i], spread_of(&s->kernels[i])));
    return json_pack("{s:s, s:s, s:s, s:s, s:f, s:b, s:s, s:o, s:o}", "name", e->name,
                     "tag", tag_of(e), "status", "ok", "verdict", verdict_of(spread),
                     "verdict_max_min", spread, "match", match, "mismatch", why, "total",
                     kernel_json(&s->total, spread_of(&s->total)), "kernels", ks);
}

/* A benchmark that failed to build, run or verify. */
static json_t *bench_json_error(const bench_entry *e, const char *error)
{
    return json_pack("{s:s, s:s, s:s, s:s}", "name", e->name, "tag", tag_of(e),
                     "status", "error", "error", error);
}

/* Write the table: {size, thresholds, benchmarks: [...]}; 0 or -1 (said). */
static int write_char_json(const bench_cli *c, json_t *benches)
{
    json_t *root = json_pack("{s:s, s:f, s:f, s:s, s:o}", "size",
                             bench_size_names[c->size], "symmetric_max_min",
                             BENCH_SYMMETRIC_SPREAD, "verdict_share", BENCH_VERDICT_SHARE,
                             "memory_instructions", "warp instructions of class memory: "
                             "every ld/st/atom/red/prefetch, any space (param and shared "
                             "included)", "benchmarks", benches);
    int rc = root ? json_dump_file(root, c->json, JSON_INDENT(2) | JSON_REAL_PRECISION(10))
                  : -1;
    json_decref(root);
    if (rc) cli_error(c->cmd, "--json '%s': write failed", c->json);
    return rc ? -1 : 0;
}

/* ------------------------------------------------------------------ */
/* characterize                                                        */
/* ------------------------------------------------------------------ */

/* Print benchmark `e`'s rows from its statistics `s` (and add its JSON
   to `jb` unless NULL); 1 when it matches its tags, else 0. */
static int char_print(const bench_cli *c, const bench_entry *e, const bench_stats *s,
                      json_t *jb)
{
    double spread = bench_spread(s);
    char why[128], tail[160];
    int match = tags_match(e, s, spread, why, sizeof why);
    check_kernels(e, s, c->cmd);
    if (match) snprintf(tail, sizeof tail, " yes");
    else snprintf(tail, sizeof tail, " NO (%s)", why);
    char_row(e->name, &s->total, spread, tail);
    for (int i = 0; i < s->nkernels; i++)
        char_row("", &s->kernels[i], spread_of(&s->kernels[i]), "");
    if (jb) json_array_append_new(jb, bench_json(e, s, spread, match, why));
    return match;
}

/* Characterize one benchmark; returns 1 when it matches its tags, 0 when
   not, -1 when it failed to build, run or verify.  Its JSON goes to `jb`
   (NULL: none). */
static int characterize_one(bench_cli *c, const bench_manifest *m, const bench_entry *e,
                            json_t *jb)
{
    char json[PATH_MAX], error[600] = "";
    temp_json(json, sizeof json);
    bench_outcome o;
    bench_stats s = { 0 };
    int rc = -1;
    if (!json[0] || bench_one(c, m, e, json, false, &o)) {
        snprintf(error, sizeof error, "could not build or run (see above)");
    } else if (!passed(&o)) {
        snprintf(error, sizeof error, "%s (exit status %d)",
                 o.verdict[0] ? o.verdict : "no PASS/FAIL line", o.exit_status);
    } else if (bench_stats_read(json, &s, c->cmd) == 0) {
        rc = char_print(c, e, &s, jb);
        bench_stats_free(&s);
    } else {
        snprintf(error, sizeof error, "unreadable statistics (see above)");
    }
    if (error[0]) {
        printf("%-14s error: %s\n", e->name, error);
        if (jb) json_array_append_new(jb, bench_json_error(e, error));
    }
    if (json[0]) unlink(json);
    fflush(stdout);
    return rc;
}

static void char_header(const bench_cli *c)
{
    printf("characterization at size %s (avg/std: mean and standard deviation of the "
           "instructions per warp, over all warps; max/min: longest/shortest warp, on "
           "benchmark rows the largest among kernels with >= %.0f%% of its warp "
           "instructions, <= %.2f is symmetric; ai: non-memory per memory warp "
           "instruction; lanes: active lanes per warp instruction)\n",
           bench_size_names[c->size], BENCH_VERDICT_SHARE * 100, BENCH_SYMMETRIC_SPREAD);
    printf("%-14s %-22s %7s %12s %11s %10s %9s %8s %8s %6s %9s %-5s %s\n", "benchmark",
           "kernel", "warps", "warp-insns", "mem-insns", "avg", "std", "max/min", "ai",
           "lanes", "barriers", "sym?", "matches manifest");
}

static int bench_characterize(bench_cli *c, const bench_manifest *m)
{
    const bench_entry *list[BENCH_MAX_NAMES * 2];
    int n = 0;
    for (int i = 0; i < c->nnames; i++)
        if (!(list[n++] = bench_find(m, c->names[i], c->cmd))) return CLI_EXIT_USAGE;
    for (int i = 0; !c->nnames && i < m->n && n < BENCH_MAX_NAMES * 2; i++)
        list[n++] = &m->entries[i];
    if (c->json && !writable(c->cmd, "--json", c->json)) return CLI_EXIT_USAGE;
    json_t *jb = c->json ? json_array() : NULL;
    char_header(c);
    int matched = 0, failed = 0;
    for (int i = 0; i < n; i++) {
        int r = characterize_one(c, m, list[i], jb);
        if (r < 0) failed++;
        else matched += r;
    }
    printf("%d benchmarks: %d match their manifest tags, %d differ, %d failed\n", n,
           matched, n - matched - failed, failed);
    if (c->json && (!jb || write_char_json(c, jb))) failed++;
    return failed ? CLI_EXIT_FAIL : CLI_EXIT_OK;
}

/* ------------------------------------------------------------------ */

int cli_cmd_bench(int argc, char **argv)
{
    if (argc < 2 || strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
        fputs(bench_usage, argc < 2 ? stderr : stdout);
        return argc < 2 ? CLI_EXIT_USAGE : CLI_EXIT_OK;
    }
    if (strcmp(argv[1], "pmem") == 0) return cli_bench_pmem(argc - 1, argv + 1);
    static const char *const subs[] = { "list", "run", "characterize" };
    static const char *const cmds[] = { "bench list", "bench run", "bench characterize" };
    int sub = -1;
    for (int i = 0; i < 3; i++)
        if (strcmp(argv[1], subs[i]) == 0) sub = i;
    if (sub < 0) {
        cli_error("bench", "unknown subcommand '%s' (valid: list, run, characterize, pmem)", argv[1]);
        return CLI_EXIT_USAGE;
    }
    bench_cli c = { .cmd = cmds[sub], .size = BENCH_SMALL };
    char *first = argv[1];
    argv[1] = (char *)cmds[sub];   /* option errors name "bench run" etc. */
    int pr = bench_parse(&c, argc - 1, argv + 1);
    argv[1] = first;
    if (pr == 0 && c.json && sub != 2) {
        cli_error(c.cmd, "--json is an option of bench characterize (bench run: --stats-json)");
        pr = -1;
    }
    if (pr != 0) {
        free(c.exec_opts);
        return pr > 0 ? CLI_EXIT_OK : CLI_EXIT_USAGE;
    }
    bench_manifest m;
    int rc = CLI_EXIT_FAIL;
    if (bench_manifest_load(&m, c.bench_dir, c.cmd) == 0) {
        if (sub == 0) rc = c.nnames ? (cli_error(c.cmd, "takes no names"), CLI_EXIT_USAGE)
                                    : bench_list(&m);
        else if (sub == 1) rc = bench_run(&c, &m);
        else rc = bench_characterize(&c, &m);
        bench_manifest_free(&m);
    }
    free(c.exec_opts);
    return rc;
}
