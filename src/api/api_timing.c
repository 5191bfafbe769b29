/*
** api_timing.c -- the timing switch of the host API: a context with
** ws_options.timing builds and checks its machine configuration before
** anything runs, launches go to gpu_run_kernel instead of the functional
** runner, every launch's statistics are kept for ws_report, and the
** registers per thread come from `ptxas -v`, .maxnreg, the config or PTX.
*/
#include "api_internal.h"
#include "gpu/hint.h"
#include "gpu/report.h"
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* ------------------------------------------------------------------ */
/* Context lifetime                                                    */
/* ------------------------------------------------------------------ */

static char *dup_or_null(const char *s)
{
    return s && *s ? strdup(s) : NULL;
}

ws_status ws__timing_init(ws_ctx *ctx, const ws_options *opts, char *err, size_t errlen)
{
    char e[1024];
    if (gpu_config_build_in(&ctx->cfg, ctx->registry, opts->config, opts->settings, ctx->warn,
                            sizeof ctx->warn, e, sizeof e)) {
        snprintf(err, errlen, "timing configuration: %s", e);
        return WS_ERR_INVALID;
    }
    ctx->gpu = gpu_new(&ctx->cfg, e, sizeof e);
    if (!ctx->gpu) {
        snprintf(err, errlen, "timing model: %s", e[0] ? e : "out of host memory");
        return WS_ERR_INVALID;
    }
    ctx->report_json = dup_or_null(opts->report_json);
    ctx->timeseries = dup_or_null(opts->timeseries);
    /* %nsmid reports the simulated machine */
    ctx->opts.num_sms = gpu_config_n_sm(&ctx->cfg);
    return WS_OK;
}

static bool ends_with(const char *s, const char *tail)
{
    size_t n = strlen(s), t = strlen(tail);
    return n >= t && strcmp(s + n - t, tail) == 0;
}

/* Write what the options asked for at the end of the context's life. */
static void write_outputs(ws_ctx *ctx)
{
    if (ctx->opts.report_out) {
        gpu_report(ctx->opts.report_out, &ctx->cfg, ctx->kstats, ctx->nkstats, &ctx->ffwd, false);
        fflush(ctx->opts.report_out);
    }
    const char *paths[2] = { ctx->report_json, ctx->timeseries };
    for (int i = 0; i < 2; i++) {
        if (!paths[i]) continue;
        FILE *f = fopen(paths[i], "w");
        if (!f) {
            fprintf(stderr, "warpsim: cannot write '%s': %s\n", paths[i], strerror(errno));
            continue;
        }
        if (i == 0) gpu_report(f, &ctx->cfg, ctx->kstats, ctx->nkstats, &ctx->ffwd, true);
        else gpu_report_timeseries(f, ctx->kstats, ctx->nkstats, ends_with(paths[i], ".json"));
        if (fclose(f) != 0) fprintf(stderr, "warpsim: error writing '%s'\n", paths[i]);
    }
}

void ws__timing_fini(ws_ctx *ctx)
{
    if (!ctx->gpu) return;
    write_outputs(ctx);
    for (uint32_t i = 0; i < ctx->nkstats; i++) gpu_stats_release(&ctx->kstats[i]);
    free(ctx->kstats);
    free(ctx->report_json);
    free(ctx->timeseries);
    gpu_free(ctx->gpu);
    ctx->gpu = NULL;
}

ws_status ws_ctx_set_launch_hints(ws_ctx *ctx, const char *list)
{
    if (!ctx) return WS_ERR_INVALID;
    char e[400];
    if (gpu_hint_check(list, e, sizeof e))
        return ws__error(ctx, WS_ERR_INVALID, "launch hints '%s': %s", list, e);
    char *copy = NULL;
    if (list && *list && !(copy = strdup(list)))
        return ws__error(ctx, WS_ERR_NOMEM, "out of host memory for launch hints");
    free(ctx->hints);
    ctx->hints = copy;
    return WS_OK;
}

void ws__timing_copy(ws_ctx *ctx, uint64_t addr, uint64_t bytes)
{
    if (ctx->gpu) gpu_host_copy(ctx->gpu, addr, bytes);
}

/* ------------------------------------------------------------------ */
/* Registers per thread from `ptxas -v`                                */
/* ------------------------------------------------------------------ */

/* ptxas on PATH, else under $CUDA_HOME/bin; false if none. */
static bool find_ptxas(char *buf, size_t len)
{
    const char *path = getenv("PATH");
    while (path && *path) {
        size_t n = strcspn(path, ":");
        if (n && snprintf(buf, len, "%.*s/ptxas", (int)n, path) < (int)len
            && access(buf, X_OK) == 0)
            return true;
        path += n + (path[n] == ':');
    }
    const char *home = getenv("CUDA_HOME");
    return home && snprintf(buf, len, "%s/bin/ptxas", home) < (int)len && access(buf, X_OK) == 0;
}

/* The architecture to ask ptxas for: the PTX's own target, or sm_75, the
   oldest one current ptxas compiles for. */
static void ptxas_arch(const ptx_module *pm, char *buf, size_t len)
{
    int t = 0;
    if (pm->target && sscanf(pm->target, "sm_%d", &t) == 1 && t >= 75)
        snprintf(buf, len, "sm_%d", t);
    else
        snprintf(buf, len, "sm_75");
}

/* Read ptxas's report ("Compiling entry function 'K'", then "Used N
   registers") and store N in each kernel it names. */
static void parse_ptxas(ws_module *mod, FILE *f)
{
    char line[1024];
    ws_kernel *cur = NULL;
    while (fgets(line, sizeof line, f)) {
        char *p = strstr(line, "Compiling entry function '");
        if (p) {
            p += strlen("Compiling entry function '");
            p[strcspn(p, "'")] = '\0';
            cur = NULL;
            for (int i = 0; i < mod->nkernels; i++)
                if (strcmp(mod->pm->funcs[mod->kernels[i].func].name, p) == 0)
                    cur = &mod->kernels[i];
            continue;
        }
        int regs;
        if (cur && (p = strstr(line, "Used ")) && sscanf(p, "Used %d registers", &regs) == 1) {
            cur->ptxas_regs = regs;
            cur = NULL;
        }
    }
}

/* Run ptxas once for the module; kernels it reports get ptxas_regs. */
static void run_ptxas(ws_module *mod)
{
    char ptxas[1024], arch[32], tmp[] = "/tmp/warpsim-ptxas-XXXXXX";
    mod->ptxas_done = true;
    if (!mod->ptx_text || !find_ptxas(ptxas, sizeof ptxas)) return;
    int fd = mkstemp(tmp);
    if (fd < 0) return;
    size_t n = strlen(mod->ptx_text);
    bool ok = write(fd, mod->ptx_text, n) == (ssize_t)n;
    close(fd);
    int pfd[2];
    if (!ok || pipe(pfd) != 0) { unlink(tmp); return; }
    ptxas_arch(mod->pm, arch, sizeof arch);
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        /* the report goes to stdout and stderr; LD_PRELOAD is the
           simulated program's business, not ptxas's */
        dup2(pfd[1], STDOUT_FILENO);
        dup2(pfd[1], STDERR_FILENO);
        close(pfd[0]);
        close(pfd[1]);
        unsetenv("LD_PRELOAD");
        execl(ptxas, "ptxas", "-v", "-c", "--gpu-name", arch, tmp, "-o", "/dev/null",
              (char *)NULL);
        _exit(127);
    }
    close(pfd[1]);
    FILE *f = pid > 0 ? fdopen(pfd[0], "r") : NULL;
    if (f) {
        parse_ptxas(mod, f);
        fclose(f);
    } else {
        close(pfd[0]);
    }
    int st;
    while (pid > 0 && waitpid(pid, &st, 0) < 0 && errno == EINTR) {}
    unlink(tmp);
}

/* Registers per thread for the occupancy calculation, and where they come
   from: ptxas (when enabled and available), .maxnreg, the configuration,
   or the PTX's own register count. */
static uint32_t kernel_regs(ws_ctx *ctx, ws_kernel *k, const char **source)
{
    const ptx_func *f = &k->mod->pm->funcs[k->func];
    if (ctx->cfg.use_ptxas) {
        if (!k->mod->ptxas_done) run_ptxas(k->mod);
        if (k->ptxas_regs > 0) { *source = "ptxas"; return (uint32_t)k->ptxas_regs; }
    }
    if (f->maxnreg) { *source = ".maxnreg"; return f->maxnreg; }
    if (ctx->cfg.regs_per_thread) { *source = "config"; return ctx->cfg.regs_per_thread; }
    *source = "ptx";
    return f->nregs ? (f->nregs < 255 ? f->nregs : 255) : 1;
}

/* ------------------------------------------------------------------ */
/* Launch                                                              */
/* ------------------------------------------------------------------ */

static gpu_kernel_stats *new_kstats(ws_ctx *ctx)
{
    if (ctx->nkstats == ctx->cap_kstats) {
        uint32_t cap = ctx->cap_kstats ? ctx->cap_kstats * 2 : 8;
        gpu_kernel_stats *k = realloc(ctx->kstats, cap * sizeof *k);
        if (!k) return NULL;
        ctx->kstats = k;
        ctx->cap_kstats = cap;
    }
    gpu_kernel_stats *st = &ctx->kstats[ctx->nkstats];
    memset(st, 0, sizeof *st);
    return st;
}

/* The oracle profile is computed when the configuration asks for it or
   a policy the GPU runs declares that it reads it. */
static bool wants_profile(const ws_ctx *ctx)
{
    return ctx->cfg.oracle_profile || (gpu_policy_needs(ctx->gpu) & WS_NEED_ORACLE);
}

/* A launch fast-forward leaves untimed: the functional emulator runs it
   (device memory kept exactly), and it leaves no timing counters. */
static int ffwd_launch(ws_ctx *ctx, emu_launch *l)
{
    ctx->last.cycles = ctx->last.l1d_accesses = ctx->last.l1d_hits = 0;
    ctx->last.l1d_misses = ctx->last.lsu_stall_cycles = 0;
    int rc = emu_run_grid(l);
    ctx->last_untimed = true;
    ctx->ffwd.launches++;
    ctx->ffwd.warp_insns += l->warp_insns;
    ctx->ffwd.thread_insns += l->thread_insns;
    return rc;
}

int ws__timing_launch(ws_ctx *ctx, ws_kernel *k, emu_launch *l)
{
    const gpu_config *c = &ctx->cfg;
    ctx->last_untimed = false;
    if (!gpu_ffwd_select(&ctx->ffwd, c->timing_from, c->timing_kernels, c->timing_every,
                         k->mod->pm->funcs[k->func].name))
        return ffwd_launch(ctx, l);
    gpu_kernel_stats *st = new_kstats(ctx);
    if (!st) {
        ws__error(ctx, WS_ERR_NOMEM, "out of host memory for launch statistics");
        return -1;
    }
    const char *src = "ptx";
    uint32_t regs = kernel_regs(ctx, k, &src);
    const char *name = k->mod->pm->funcs[k->func].name;
    char err[EMU_FAULT_MSG] = "";
    /* computed once per launch, before it runs, on a copy of device memory;
       a pre-run that faults leaves no profile (the real run reports the
       fault itself) */
    emu_profile prof;
    memset(&prof, 0, sizeof prof);
    if (wants_profile(ctx) && emu_profile_build(l, &prof, err, sizeof err) == 0)
        l->profile = &prof;
    else if (strstr(err, "out of host memory"))
        fprintf(stderr, "warpsim: %s; running without it\n", err);
    err[0] = '\0';
    gpu_set_launch_hints(ctx->gpu, ctx->hints);
    int rc = gpu_run_kernel(ctx->gpu, l, name, regs, src, st, err, sizeof err);
    l->profile = NULL;
    emu_profile_free(&prof);
    ctx->nkstats++;    /* kept also when it failed: the report shows how far it got */
    ctx->last.cycles = st->cycles;
    ctx->last.l1d_accesses = st->l1d.accesses;
    ctx->last.l1d_hits = st->l1d.hits;
    ctx->last.l1d_misses = st->l1d.misses;
    ctx->last.lsu_stall_cycles = st->lsu_stall_cycles;
    if (!l->warp_insns) {   /* the model counts what the functional runner would */
        l->warp_insns = st->warp_insns;
        l->thread_insns = st->thread_insns;
        l->mem_insns = st->mem_insns;
        l->bar_insns = st->bar_insns;
    }
    if (rc != 0 && l->fault.kind == EMU_OK)
        ws__error(ctx, WS_ERR_LAUNCH, "kernel '%s' on the timing model: %s", name,
                  err[0] ? err : "failed");
    return rc;
}
