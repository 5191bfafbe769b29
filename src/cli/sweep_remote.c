/*
** sweep_remote.c -- a sweep run by a cluster's engine (`warpsim sweep
** --backend slurm|parallel`): choose the points that need running, build
** their benchmarks here (compute nodes need no nvcc), group the points
** into tasks of --chunk points, hand them to Slurm (sweep_slurm.c) or GNU
** parallel (sweep_parallel.c), and collect (sweep_collect.c).  What was
** submitted is kept in OUT/remote.json for `warpsim sweep-collect OUT`.
*/
#include "cli.h"
#include "cli_bench.h"
#include "sweep.h"
#include <errno.h>
#include <inttypes.h>
#include <jansson.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

void sweep_shell_quote(void *fp, const char *s)
{
    FILE *f = fp;
    fputc('\'', f);
    for (; *s; s++) {
        if (*s == '\'') fputs("'\\''", f);
        else fputc(*s, f);
    }
    fputc('\'', f);
}

int sweep_capture(char *const *argv, char *buf, size_t len, bool quiet)
{
    int fds[2];
    buf[0] = '\0';
    if (pipe(fds) != 0) return 127;
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0) { close(fds[0]); close(fds[1]); return 127; }
    if (pid == 0) {
        dup2(fds[1], STDOUT_FILENO);
        if (quiet) freopen("/dev/null", "w", stderr);
        close(fds[0]);
        close(fds[1]);
        execvp(argv[0], argv);
        _exit(127);
    }
    close(fds[1]);
    size_t used = 0;
    ssize_t k;
    char sink[4096];
    /* read to the end even past len: a child never blocks on a full pipe */
    while ((k = read(fds[0], used + 1 < len ? buf + used : sink,
                     used + 1 < len ? len - 1 - used : sizeof sink)) != 0) {
        if (k < 0) { if (errno == EINTR) continue; break; }
        if (used + 1 < len) used += (size_t)k;
    }
    buf[used] = '\0';
    close(fds[0]);
    int st;
    while (waitpid(pid, &st, 0) < 0)
        if (errno != EINTR) return 127;
    return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

void sweep_tasks_free(sweep_tasks *t)
{
    for (int k = 0; t->tasks && k < t->ntasks; k++) free(t->tasks[k]);
    free(t->tasks);
    free(t->state);
    free(t->why);
    memset(t, 0, sizeof *t);
}

/* Room for n tasks, their states unknown. */
static int tasks_alloc(sweep_tasks *t, int n)
{
    memset(t, 0, sizeof *t);
    t->tasks = calloc((size_t)n + 1, sizeof *t->tasks);
    t->state = calloc((size_t)n + 1, 1);
    t->why = calloc((size_t)n + 1, sizeof *t->why);
    if (!t->tasks || !t->state || !t->why) { sweep_tasks_free(t); return -1; }
    memset(t->state, '?', (size_t)n);
    return 0;
}

/* Pending points idx[0..nidx) into tasks of `chunk` points. */
static int make_tasks(sweep_tasks *t, const int *idx, int nidx, int chunk)
{
    int nt = (nidx + chunk - 1) / chunk;
    if (tasks_alloc(t, nt)) return -1;
    for (int k = 0; k < nt; k++) {
        size_t cap = (size_t)chunk * 12 + 1, used = 0;
        char *s = malloc(cap);
        if (!s) return -1;
        s[0] = '\0';
        for (int j = k * chunk; j < nidx && j < (k + 1) * chunk; j++)
            used += (size_t)snprintf(s + used, cap - used, "%s%d", used ? "," : "", idx[j]);
        t->tasks[t->ntasks++] = s;
    }
    return 0;
}

int sweep_remote_save(const sweep_opts *o, const sweep_remote *r, const sweep_tasks *t)
{
    char path[4200], tmp[4300];
    json_t *tasks = json_array();
    for (int k = 0; k < t->ntasks; k++) json_array_append_new(tasks, json_string(t->tasks[k]));
    json_t *doc = json_pack("{s:s, s:s, s:s, s:s*, s:s*, s:s, s:o}", "backend", r->backend,
                            "experiment", r->exp_path, "shared_dir", r->shared_dir,
                            "bench_dir", r->bench_dir, "bin_dir", o->bin_dir, "job", t->job,
                            "tasks", tasks);
    snprintf(path, sizeof path, "%s/remote.json", o->out_dir);
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    int rc = doc && json_dump_file(doc, tmp, JSON_INDENT(1)) == 0 && rename(tmp, path) == 0
             ? 0 : -1;
    json_decref(doc);
    if (rc) cli_error("sweep", "cannot write %s: %s", path, strerror(errno));
    return rc;
}

int sweep_remote_load(const char *out, sweep_opts *o, sweep_remote *r, sweep_tasks *t,
                      void **docp)
{
    char path[4200];
    json_error_t err;
    const char *exp = NULL, *job = NULL;
    json_t *tasks = NULL;
    memset(r, 0, sizeof *r);
    memset(t, 0, sizeof *t);
    snprintf(path, sizeof path, "%s/remote.json", out);
    json_t *doc = json_load_file(path, 0, &err);
    *docp = doc;
    if (!doc || json_unpack_ex(doc, &err, 0, "{s:s, s:s, s:s, s?s, s?s, s:s, s:o}",
                               "backend", &r->backend, "experiment", &exp, "shared_dir",
                               &r->shared_dir, "bench_dir", &r->bench_dir, "bin_dir",
                               &o->bin_dir, "job", &job, "tasks", &tasks)
        || !json_is_array(tasks) || tasks_alloc(t, (int)json_array_size(tasks))) {
        cli_error("sweep-collect", "%s: not the record of a remote sweep (%s)", path,
                  err.text[0] ? err.text : "bad tasks");
        return -1;
    }
    snprintf(r->exp_path, sizeof r->exp_path, "%s", exp);
    snprintf(t->job, sizeof t->job, "%s", job);
    for (size_t k = 0; k < json_array_size(tasks); k++)
        t->tasks[t->ntasks++] = strdup(json_string_value(json_array_get(tasks, k)) ?: "");
    return 0;
}

/* A point without a result, in task k, as its task's state says. */
static void mark_one(const sweep_remote *r, const sweep_tasks *t, int k, sweep_result *res)
{
    char who[96];
    if (t->job[0]) snprintf(who, sizeof who, "Slurm task %s_%d", t->job, k + 1);
    else snprintf(who, sizeof who, "%s task %d", r->backend, k + 1);
    if (t->state[k] == 'P' || t->state[k] == 'R') {
        snprintf(res->verdict, sizeof res->verdict, "%s: %s", who,
                 t->state[k] == 'P' ? "pending" : "running");
        return;
    }
    if (t->state[k] != 'G') {
        snprintf(res->verdict, sizeof res->verdict, "%s: no result", who);
        return;
    }
    res->status = strcmp(t->why[k], "TIMEOUT") == 0 ? SWEEP_TIMEOUT : SWEEP_CRASH;
    res->exit_status = -1;
    if (t->why[k][0])
        snprintf(res->verdict, sizeof res->verdict, "%s ended %s without a result", who,
                 t->why[k]);
    else
        snprintf(res->verdict, sizeof res->verdict, "%s %s without a result", who,
                 t->job[0] ? "left the queue" : "ended");
}

void sweep_remote_mark(const sweep_remote *r, const sweep_tasks *t, int n, sweep_result *res)
{
    for (int k = 0; k < t->ntasks; k++)
        for (const char *s = t->tasks[k]; *s; s += strcspn(s, ",") + (s[strcspn(s, ",")] == ',')) {
            int i = atoi(s);
            if (i >= 0 && i < n && res[i].status == SWEEP_NOTRUN) mark_one(r, t, k, &res[i]);
        }
}

/* The folders: OUT, and SHARED with what the tasks write into. */
static int make_dirs(const sweep_opts *o, const sweep_remote *r, const sweep_exp *x)
{
    static const char *const sub[] = {"", "/logs", "/tmp", "/points", "/runs"};
    char d[4200];
    if (mkdir(o->out_dir, 0777) != 0 && errno != EEXIST) {
        cli_error("sweep", "cannot create %s: %s", o->out_dir, strerror(errno));
        return -1;
    }
    for (int k = 0; k < 5; k++) {
        snprintf(d, sizeof d, "%s%s", r->shared_dir, sub[k]);
        if (k == 4 && !x->ts_interval) break;
        if (mkdir(d, 0777) != 0 && errno != EEXIST) {
            cli_error("sweep", "cannot create %s: %s", d, strerror(errno));
            return -1;
        }
    }
    snprintf(d, sizeof d, "%s/runs", o->out_dir);
    if (x->ts_interval && mkdir(d, 0777) != 0 && errno != EEXIST) return -1;
    return 0;
}

/* Build every benchmark a pending point needs, here, before any task
   starts: compute nodes then need no CUDA toolkit, and a thousand tasks do
   not race to compile. -1 when one cannot be built. */
static int build_needed(const sweep_opts *o, const sweep_exp *x, const bench_manifest *m,
                        const sweep_point *pts, const int *idx, int nidx)
{
    for (int b = 0; b < x->nbenches; b++) {
        const bench_entry *e = x->benches[b].entry;
        char bin[PATH_MAX];
        bool need = false;
        for (int j = 0; j < nidx && !need; j++) need = pts[idx[j]].bench == b;
        if (need && (bench_bin_path(o->bin_dir, e->name, bin, sizeof bin) != 0
                     || bench_build(m, e, bin, false, "sweep") != 0))
            return -1;
    }
    return 0;
}

/* The points to run: all, or with --resume those without a successful
   record of this simulator. Their old point files go first, so a task that
   dies is never mistaken for an earlier run. Returns how many. */
static int pending(const sweep_opts *o, const sweep_remote *r, const sweep_point *pts, int n,
                   sweep_result *res, int *idx)
{
    int nidx = 0;
    if (o->resume) sweep_collect_load(r->shared_dir, o->version, pts, n, res);
    for (int i = 0; i < n; i++) {
        char f[4200];
        if (res[i].status != SWEEP_NOTRUN) continue;
        sweep_point_file(r->shared_dir, pts[i].hash, f, sizeof f);
        unlink(f);
        idx[nidx++] = i;
    }
    return nidx;
}

/* Submit (and unless --submit-only, follow and collect) the pending points. */
static int dispatch(const sweep_opts *o, sweep_remote *r, const sweep_exp *x,
                    const sweep_point *pts, int n, sweep_result *res, sweep_tasks *t)
{
    bool slurm = strcmp(r->backend, "slurm") == 0;
    if (slurm) {
        if (sweep_slurm_submit(o, r, x, t) || sweep_remote_save(o, r, t)) return CLI_EXIT_FAIL;
        fprintf(stderr, "sweep: Slurm job %s: %d task%s, script %s/slurm/job.sh, logs in "
                "%s/logs/\n", t->job, t->ntasks, t->ntasks == 1 ? "" : "s", o->out_dir,
                r->shared_dir);
        if (r->submit_only) {
            printf("sweep: submitted job %s; gather the results with: warpsim sweep-collect %s\n",
                   t->job, o->out_dir);
            return CLI_EXIT_OK;
        }
        sweep_slurm_follow(r, t, pts, n);
    } else if (sweep_remote_save(o, r, t) || sweep_parallel_run(o, r, t)) {
        return CLI_EXIT_FAIL;
    }
    sweep_collect_load(r->shared_dir, NULL, pts, n, res);
    sweep_remote_mark(r, t, n, res);
    return sweep_collect_write(o, x, pts, n, res, r->shared_dir);
}

int sweep_remote_execute(const sweep_opts *o, sweep_remote *r, const sweep_exp *x,
                         const bench_manifest *m)
{
    sweep_point *pts = NULL;
    sweep_tasks t = {0};
    int n = sweep_points(x, &pts), rc = CLI_EXIT_FAIL;
    if (n < 0) return CLI_EXIT_FAIL;
    sweep_result *res = calloc((size_t)n + 1, sizeof *res);
    int *idx = calloc((size_t)n + 1, sizeof *idx);
    if (!res || !idx || make_dirs(o, r, x)) goto out;
    for (int i = 0; i < n; i++) res[i].status = SWEEP_NOTRUN;
    int nidx = pending(o, r, pts, n, res, idx);
    fprintf(stderr, "sweep: %s: %d point%s, %d to run (%d kept), %d per task, backend %s\n",
            x->name, n, n == 1 ? "" : "s", nidx, n - nidx, r->chunk, r->backend);
    if (build_needed(o, x, m, pts, idx, nidx) || make_tasks(&t, idx, nidx, r->chunk)) goto out;
    if (nidx == 0) {
        if (sweep_remote_save(o, r, &t) == 0)
            rc = sweep_collect_write(o, x, pts, n, res, r->shared_dir);
    } else rc = dispatch(o, r, x, pts, n, res, &t);
out:
    for (int i = 0; res && i < n; i++) { json_decref(res[i].stats); json_decref(res[i].report); }
    sweep_tasks_free(&t);
    free(res);
    free(idx);
    free(pts);
    return rc;
}

bool sweep_on_path(const char *prog)
{
    const char *path = getenv("PATH");
    char f[PATH_MAX];
    while (path && *path) {
        size_t n = strcspn(path, ":");
        if (n && snprintf(f, sizeof f, "%.*s/%s", (int)n, path, prog) < (int)sizeof f
            && access(f, X_OK) == 0)
            return true;
        path += n + (path[n] == ':');
    }
    return false;
}
