/*
** cmd_exec.c -- `warpsim exec [options] -- ./program args...`: run an
** unmodified CUDA program (built with `nvcc -cudart shared`, or a C program
** using the driver API) on the simulator.  The shim libraries (libcudart.so.13,
** libcuda.so.1) go first on LD_LIBRARY_PATH, the options become WARPSIM_*
** environment variables read by the shims, and the program replaces this
** process, so its output and exit status come through unchanged.
*/
#include "cli.h"
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define EXEC_CANNOT_RUN 127   /* like a shell: the program could not start */

static const char exec_usage[] =
    "usage: warpsim exec [options] [--] PROGRAM [ARGS...]\n"
    "  Run a CUDA program on the simulator.  Build it with `nvcc -cudart shared`\n"
    "  (CUDA 13); its fatbinary must contain PTX (the default, or add\n"
    "  -gencode arch=compute_XX,code=compute_XX).  Driver-API programs linked\n"
    "  with -lcuda work too.  A statistics report goes to stderr at exit.\n"
    "  --stats-json FILE   also write the statistics as JSON to FILE\n"
    "  --per-kernel        report every launch as it finishes (and list the\n"
    "                      launches in the JSON)\n"
    "  --quiet             no text report (the JSON file is still written)\n"
    "  --arch sm_NN[N]     compute capability of the simulated GPU (default sm_86);\n"
    "                      the newest PTX in the program not newer than it is used\n"
    "  --sms N             number of SMs (default 15)\n"
    "  --clock-mhz N       nominal clock for simulated time (default 1400); without\n"
    "                      the timing model a launch takes one cycle per warp\n"
    "                      instruction per SM it occupies.  With the timing model\n"
    "                      the machine decides both (its SMs and core_mhz)\n"
    "  --stack BYTES       per-thread local memory (default 1024)\n"
    "  --memcheck          like compute-sanitizer memcheck: any global access\n"
    "                      outside an allocation faults, use after free and\n"
    "                      double free are named (WARPSIM_MEMCHECK=1).  Without\n"
    "                      it an access outside the allocation but inside a\n"
    "                      mapped 2 MiB page proceeds as on a GPU and each such\n"
    "                      site is reported once at exit\n"
    "  --progress-limit N  a launch that executes N warp instructions with no warp\n"
    "                      finishing and no barrier completing is stopped as hung\n"
    "                      (cudaErrorLaunchTimeout) with where each warp is;\n"
    "                      0 = no limit (default 1000000000)\n"
    "  Timing model (cycle-level; without these kernels run functionally):\n"
    "  --timing            run every launch on the timing model (machine gtx480);\n"
    "                      cycles and L1D hit rate join the report, and the full\n"
    "                      timing report follows it\n"
    "  --config NAME|FILE  machine preset (warpsim config list) or config file\n"
    "                      (ours or a gpgpusim.config); implies --timing\n"
    "  --set key=value     override one parameter, repeatable (warpsim config\n"
    "                      show); implies --timing\n"
    "  --timing-from KERNEL[:N]  fast-forward: run launches functionally (device\n"
    "                      memory kept exactly) up to the N-th launch of KERNEL\n"
    "                      and time from there on (--set timing_from=...)\n"
    "  --timing-kernels K1,K2,...  time only launches of these kernels, run the\n"
    "                      others functionally (--set timing_kernels=...)\n"
    "  --timing-every K    sampling: time every K-th selected launch, run the others\n"
    "                      functionally (--set timing_every=K); the report gives\n"
    "                      the functional launches as functional_launches\n"
    "  --threads N         host threads ticking the SMs, 1-256 (--set threads=N;\n"
    "                      implies --timing); the statistics are the same for\n"
    "                      every N\n"
    "  --timing-report FILE  the full timing report as JSON\n"
    "  --timeseries FILE   the time series (with --set timeseries_interval=N;\n"
    "                      FILE ending .json: JSON, else CSV)\n"
    "  --plugin FILE.so    load a policy plug-in whose policies --set may name\n"
    "                      (repeatable; passed on as WARPSIM_PLUGINS, absolute\n"
    "                      paths separated by ':'; see warpsim policies --plugin)\n"
    "  --lib-dir DIR       where libcudart.so.13 and libcuda.so.1 are (default: the\n"
    "                      lib/ folder next to the warpsim binary, or ../lib)\n"
    "  --keep-ptx DIR      write the PTX of the program's fatbinaries to DIR (messages\n"
    "                      cite these files; without it they are written to\n"
    "                      $TMPDIR/warpsim-PID only when a load fails or a kernel faults)\n"
    "  Ctrl-C during a kernel prints where every resident warp is and exits 130.\n"
    "  Exit status: the program's own; 2 on a usage error (a bad configuration or\n"
    "  a plug-in that cannot be loaded included), 127 if it cannot start (a\n"
    "  program linked with the static CUDA runtime included).\n";

static const cli_opt exec_opts[] = {
    {"help", false}, {"stats-json", true}, {"per-kernel", false}, {"quiet", false},
    {"arch", true}, {"sms", true}, {"clock-mhz", true}, {"stack", true},
    {"lib-dir", true}, {"timing", false}, {"config", true}, {"set", true},
    {"timing-report", true}, {"timeseries", true}, {"plugin", true}, {"memcheck", false},
    {"keep-ptx", true}, {"timing-from", true}, {"timing-kernels", true}, {"timing-every", true},
    {"progress-limit", true}, {"threads", true}, {NULL, false}
};

#define EXEC_MAX_SETS 64

/* The timing options, gathered before they are checked and exported. */
typedef struct exec_timing {
    bool on;
    const char *config;
    const char *sets[EXEC_MAX_SETS + 1];
    int nsets;
    char plugins[CLI_PLUGINS_MAX];   /* colon-separated absolute paths */
    char ffwd[3][600];               /* --timing-from/-kernels/-every as key=value */
    char threads[CLI_THREADS_SET];   /* --threads N as threads=N (the last one given) */
} exec_timing;

/* --timing-from, --timing-kernels, --timing-every: the settings they stand
   for (checked with the rest of the configuration). */
static bool add_ffwd(exec_timing *t, const char *name, const char *v)
{
    static const char *const keys[3] = { "from", "kernels", "every" };
    for (int i = 0; i < 3; i++) {
        if (strcmp(name + 7, keys[i]) != 0) continue;
        if (t->nsets == EXEC_MAX_SETS || strchr(v, '\n')
            || snprintf(t->ffwd[i], sizeof t->ffwd[i], "timing_%s=%s", keys[i], v)
                   >= (int)sizeof t->ffwd[i]) {
            cli_error("exec", "bad --%s '%s'", name, v);
            return false;
        }
        t->on = true;
        t->sets[t->nsets++] = t->ffwd[i];
    }
    return true;
}

/* 1 if DIR holds the runtime shim. */
static int has_shim(const char *dir)
{
    char path[PATH_MAX];
    if (snprintf(path, sizeof path, "%s/libcudart.so.13", dir) >= (int)sizeof path) return 0;
    return access(path, R_OK) == 0;
}

/* The shim folder next to the running binary: <bin>/lib or <bin>/../lib. */
static int find_lib_dir(char *out, size_t len)
{
    char exe[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n <= 0) return -1;
    exe[n] = '\0';
    char *slash = strrchr(exe, '/');
    if (!slash) return -1;
    *slash = '\0';
    const char *tails[] = {"/lib", "/../lib"};
    for (size_t i = 0; i < 2; i++) {
        char cand[PATH_MAX];
        if (snprintf(cand, sizeof cand, "%s%s", exe, tails[i]) >= (int)sizeof cand) continue;
        if (has_shim(cand) && realpath(cand, out) && strlen(out) < len) return 0;
    }
    return -1;
}

/* Check an option value and export it as `env`; false on a bad value. */
static bool export_u64(const char *opt, const char *v, uint64_t lo, uint64_t hi,
                       const char *env)
{
    uint64_t x;
    if (!cli_parse_u64(v, hi, &x) || x < lo) {
        cli_error("exec", "--%s '%s': expected an integer in [%llu, %llu]", opt, v,
                  (unsigned long long)lo, (unsigned long long)hi);
        return false;
    }
    setenv(env, v, 1);
    return true;
}

/* --keep-ptx DIR: made (if missing) and exported absolute, so the program
   may change its working folder. */
static bool export_dir(const char *v)
{
    char abs[PATH_MAX];
    if ((mkdir(v, 0777) && errno != EEXIST) || !realpath(v, abs)) {
        cli_error("exec", "--keep-ptx '%s': %s", v, strerror(errno));
        return false;
    }
    setenv("WARPSIM_KEEP_PTX", abs, 1);
    return true;
}

/* Apply one option; returns false on a bad value. */
static bool apply_opt(const char *name, const char *v, const char **lib_dir, exec_timing *t)
{
    if (strcmp(name, "timing") == 0) t->on = true;
    else if (strcmp(name, "config") == 0) { t->on = true; t->config = v; }
    else if (strcmp(name, "set") == 0) {
        if (t->nsets == EXEC_MAX_SETS || !strchr(v, '=') || strchr(v, '\n')) {
            cli_error("exec", "bad --set '%s' (want key=value, at most %d)", v, EXEC_MAX_SETS);
            return false;
        }
        t->on = true;
        t->sets[t->nsets++] = v;
    } else if (strncmp(name, "timing-", 7) == 0 && strcmp(name, "timing-report") != 0)
        return add_ffwd(t, name, v);
    else if (strcmp(name, "plugin") == 0)
        return cli_plugin_add("exec", t->plugins, sizeof t->plugins, v);
    else if (strcmp(name, "threads") == 0) {
        if (!cli_threads_setting("exec", v, t->threads, NULL)) return false;
        if (t->nsets == EXEC_MAX_SETS) {
            cli_error("exec", "too many --set and --threads (at most %d)", EXEC_MAX_SETS);
            return false;
        }
        t->on = true;
        /* a later --threads rewrites the one buffer, so every slot of it
           reads the last value: as with --set, the last one given wins */
        t->sets[t->nsets++] = t->threads;
    } else if (strcmp(name, "timing-report") == 0) setenv("WARPSIM_TIMING_REPORT", v, 1);
    else if (strcmp(name, "timeseries") == 0) setenv("WARPSIM_TIMESERIES", v, 1);
    else if (strcmp(name, "stats-json") == 0) setenv("WARPSIM_STATS_JSON", v, 1);
    else if (strcmp(name, "per-kernel") == 0) setenv("WARPSIM_STATS_PER_KERNEL", "1", 1);
    else if (strcmp(name, "quiet") == 0) setenv("WARPSIM_QUIET", "1", 1);
    else if (strcmp(name, "memcheck") == 0) setenv("WARPSIM_MEMCHECK", "1", 1);
    else if (strcmp(name, "lib-dir") == 0) *lib_dir = v;
    else if (strcmp(name, "keep-ptx") == 0) return export_dir(v);
    else if (strcmp(name, "arch") == 0) {
        if (!cli_check_arch("exec", v)) return false;
        setenv("WARPSIM_ARCH", v, 1);
    } else if (strcmp(name, "sms") == 0)
        return export_u64(name, v, 1, 4096, "WARPSIM_SMS");
    else if (strcmp(name, "clock-mhz") == 0)
        return export_u64(name, v, 1, 100000, "WARPSIM_CLOCK_MHZ");
    else if (strcmp(name, "stack") == 0)
        return export_u64(name, v, 16, 1u << 24, "WARPSIM_STACK");
    else if (strcmp(name, "progress-limit") == 0)
        return export_u64(name, v, 0, UINT64_MAX - 1, "WARPSIM_PROGRESS_LIMIT");
    return true;
}

/* Check the plug-ins and the timing configuration here (a bad one is a
   usage error before the program starts) and export them for the shim:
   WARPSIM_PLUGINS the plug-in list, WARPSIM_SET the settings one per line. */
static bool export_timing(exec_timing *t)
{
    t->sets[t->nsets] = NULL;
    if (!t->on && !t->plugins[0]) return true;
    ws_options o = { .timing = t->on, .config = t->config, .settings = t->sets,
                     .plugins = t->plugins };
    char warn[16384], err[2048];   /* a GPGPU-Sim file names every option */
    if (ws_options_check(&o, NULL, NULL, warn, sizeof warn, err, sizeof err) != WS_OK) {
        cli_error("exec", "%s", err);
        return false;
    }
    if (t->plugins[0]) setenv("WARPSIM_PLUGINS", t->plugins, 1);
    if (!t->on) return true;
    size_t n = 1;
    for (int i = 0; i < t->nsets; i++) n += strlen(t->sets[i]) + 1;
    char *joined = calloc(1, n);
    if (!joined) return false;
    for (int i = 0; i < t->nsets; i++) {
        strcat(joined, t->sets[i]);
        strcat(joined, "\n");
    }
    setenv("WARPSIM_TIMING", "1", 1);
    if (t->config) setenv("WARPSIM_CONFIG", t->config, 1);
    else unsetenv("WARPSIM_CONFIG");
    setenv("WARPSIM_SET", joined, 1);
    free(joined);
    return true;
}

/* Put `dir` first on LD_LIBRARY_PATH. */
static bool prepend_lib_path(const char *dir)
{
    const char *old = getenv("LD_LIBRARY_PATH");
    size_t n = strlen(dir) + (old ? strlen(old) : 0) + 2;
    char *v = malloc(n);
    if (!v) return false;
    snprintf(v, n, "%s%s%s", dir, old && *old ? ":" : "", old && *old ? old : "");
    int rc = setenv("LD_LIBRARY_PATH", v, 1);
    free(v);
    return rc == 0;
}

int cli_cmd_exec(int argc, char **argv)
{
    cli_iter it;
    const char *name, *value, *lib_dir = NULL;
    int r, prog = -1;
    exec_timing timing = { 0 };
    cli_iter_init(&it, argc, argv, exec_opts);
    while (prog < 0 && (r = cli_iter_next(&it, &name, &value)) != CLI_ITER_END) {
        if (r == CLI_ITER_ERROR) return CLI_EXIT_USAGE;
        if (r == CLI_ITER_POSITIONAL) { prog = it.i - 1; break; }
        if (strcmp(name, "help") == 0) { fputs(exec_usage, stdout); return CLI_EXIT_OK; }
        if (!apply_opt(name, value, &lib_dir, &timing)) return CLI_EXIT_USAGE;
    }
    if (!export_timing(&timing)) return CLI_EXIT_USAGE;
    if (prog < 0) {
        cli_error("exec", "no program given");
        fputs(exec_usage, stderr);
        return CLI_EXIT_USAGE;
    }
    char dir[PATH_MAX];
    if (lib_dir) {
        if (!has_shim(lib_dir)) {
            cli_error("exec", "--lib-dir '%s' holds no libcudart.so.13", lib_dir);
            return CLI_EXIT_USAGE;
        }
        snprintf(dir, sizeof dir, "%s", lib_dir);
    } else if (getenv("WARPSIM_LIB_DIR") && has_shim(getenv("WARPSIM_LIB_DIR")))
        snprintf(dir, sizeof dir, "%s", getenv("WARPSIM_LIB_DIR"));
    else if (find_lib_dir(dir, sizeof dir)) {
        cli_error("exec", "cannot find the CUDA shim libraries (libcudart.so.13) in lib/ or "
                  "../lib next to the warpsim binary; were they built (they need the CUDA "
                  "13 headers and libzstd)? Use --lib-dir DIR");
        return EXEC_CANNOT_RUN;
    }
    if (cli_exec_static_cudart(argv[prog])) {
        cli_error("exec", "'%s' is linked with the static CUDA runtime (nvcc's default, "
                  "-cudart static), which the simulator cannot replace; rebuild it with "
                  "`nvcc -cudart shared` (libcudart.so.13, which warpsim exec swaps for "
                  "its own)", argv[prog]);
        return EXEC_CANNOT_RUN;
    }
    if (!prepend_lib_path(dir)) {
        cli_error("exec", "out of memory setting LD_LIBRARY_PATH");
        return EXEC_CANNOT_RUN;
    }
    fflush(NULL);
    execvp(argv[prog], argv + prog);
    cli_error("exec", "cannot run '%s': %s", argv[prog], strerror(errno));
    return EXEC_CANNOT_RUN;
}
