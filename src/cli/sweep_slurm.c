/*
** sweep_slurm.c -- the Slurm backend of `warpsim sweep`: the tasks become
** one job array, written as a plain job script (OUT/slurm/job.sh, for
** people to read, edit and resubmit) whose every array task runs
** `warpsim run-point`, the local sweep's own code; sbatch submits it,
** squeue follows it, and sacct (or, where accounting is off, scontrol)
** says how a task that left no result ended.
*/
#include "cli.h"
#include "sweep.h"
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* The #SBATCH header: name, array (with %N), one CPU per task, output
   files beside the logs, and the site options only when given. */
static void script_header(FILE *f, const sweep_remote *r, const sweep_exp *x, int ntasks)
{
    char name[64];
    size_t k = 0;
    for (const char *s = x->name; *s && k < sizeof name - 1; s++)
        name[k++] = isalnum((unsigned char)*s) || *s == '-' || *s == '.' ? *s : '_';
    name[k] = '\0';
    fprintf(f, "#!/bin/bash\n"
               "# job.sh -- written by `warpsim sweep --backend slurm` for the experiment\n"
               "# %s: array task K runs the points listed for K below (0-based, in the\n"
               "# order of `warpsim sweep --dry-run`) through `warpsim run-point`, the code\n"
               "# of a local sweep, each point's record into %s/points/.\n"
               "# It may be edited and resubmitted with sbatch; `warpsim sweep-collect DIR`\n"
               "# gathers the results.\n", r->exp_path, r->shared_dir);
    fprintf(f, "#SBATCH --job-name=warpsim-%s\n", name);
    fprintf(f, "#SBATCH --array=1-%d", ntasks);
    if (r->max_parallel) fprintf(f, "%%%d", r->max_parallel);
    fprintf(f, "\n#SBATCH --ntasks=1\n#SBATCH --cpus-per-task=1\n");
    fprintf(f, "#SBATCH --output=%s/logs/slurm-%%A_%%a.out\n", r->shared_dir);
    if (r->partition) fprintf(f, "#SBATCH --partition=%s\n", r->partition);
    if (r->account) fprintf(f, "#SBATCH --account=%s\n", r->account);
    if (r->time) fprintf(f, "#SBATCH --time=%s\n", r->time);
}

/* The body: task number -> point list, then run-point. */
static void script_body(FILE *f, const sweep_opts *o, const sweep_remote *r,
                        const sweep_tasks *t, const char *exe)
{
    fprintf(f, "\ncase \"$SLURM_ARRAY_TASK_ID\" in\n");
    for (int k = 0; k < t->ntasks; k++) fprintf(f, "%d) points=%s ;;\n", k + 1, t->tasks[k]);
    fprintf(f, "*) echo \"job.sh: no task '$SLURM_ARRAY_TASK_ID'\" >&2; exit 2 ;;\nesac\n");
    fputs("exec ", f);
    sweep_shell_quote(f, exe);
    fputs(" run-point ", f);
    sweep_shell_quote(f, r->exp_path);
    fputs(" \"$points\" --out ", f);
    sweep_shell_quote(f, r->shared_dir);
    if (r->bench_dir) { fputs(" --bench-dir ", f); sweep_shell_quote(f, r->bench_dir); }
    if (o->bin_dir) { fputs(" --bin-dir ", f); sweep_shell_quote(f, o->bin_dir); }
    fputc('\n', f);
}

/* OUT/slurm/job.sh into path. */
static int write_script(const sweep_opts *o, const sweep_remote *r, const sweep_exp *x,
                        const sweep_tasks *t, char *path, size_t len)
{
    char exe[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    exe[n > 0 ? n : 0] = '\0';
    snprintf(path, len, "%s/slurm", o->out_dir);
    if (mkdir(path, 0777) != 0 && errno != EEXIST) {
        cli_error("sweep", "cannot create %s: %s", path, strerror(errno));
        return -1;
    }
    snprintf(path, len, "%s/slurm/job.sh", o->out_dir);
    FILE *f = fopen(path, "w");
    if (!f) {
        cli_error("sweep", "cannot write %s: %s", path, strerror(errno));
        return -1;
    }
    script_header(f, r, x, t->ntasks);
    script_body(f, o, r, t, exe);
    return fclose(f) == 0 ? 0 : -1;
}

int sweep_slurm_submit(const sweep_opts *o, const sweep_remote *r, const sweep_exp *x,
                       sweep_tasks *t)
{
    char path[4200], out[256];
    if (write_script(o, r, x, t, path, sizeof path)) return -1;
    char *argv[] = {"sbatch", "--parsable", path, NULL};
    int rc = sweep_capture(argv, out, sizeof out, false);
    /* --parsable: "JOBID" or "JOBID;CLUSTER" */
    size_t k = strspn(out, "0123456789");
    if (rc != 0 || k == 0 || k >= sizeof t->job) {
        cli_error("sweep", "sbatch %s failed (exit %d)%s: the script is kept for a look", path,
                  rc, rc == 127 ? ": sbatch not found" : "");
        return -1;
    }
    memcpy(t->job, out, k);
    t->job[k] = '\0';
    return 0;
}

/* "JOB_K" (K the array index) -> task K-1, or -1. */
static int task_of(const sweep_tasks *t, const char *id)
{
    size_t jl = strlen(t->job);
    if (strncmp(id, t->job, jl) != 0 || id[jl] != '_') return -1;
    int k = atoi(id + jl + 1);
    return k >= 1 && k <= t->ntasks ? k - 1 : -1;
}

/* Final states of the gone tasks: sacct where accounting is kept, else
   scontrol (which knows a job until MinJobAge after it ends). */
static void final_states(sweep_tasks *t)
{
    /* scontrol -o: about 1.5 KB a task */
    size_t len = 2048 * (size_t)t->ntasks + 4096;
    char *buf = malloc(len), *save = NULL;
    if (!buf) return;
    char *sacct[] = {"sacct", "-n", "-P", "-X", "-j", t->job, "-o", "JobID,State", NULL};
    char *scontrol[] = {"scontrol", "-o", "show", "job", t->job, NULL};
    bool acct = sweep_capture(sacct, buf, len, true) == 0 && buf[0];
    if (!acct && sweep_capture(scontrol, buf, len, true) != 0) { free(buf); return; }
    for (char *line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        char id[96] = "", st[32] = "";
        if (acct) sscanf(line, "%95[^|]|%31[A-Z_]", id, st);
        else {
            const char *a = strstr(line, "ArrayTaskId="), *s = strstr(line, "JobState=");
            if (a && s) snprintf(id, sizeof id, "%s_%d", t->job, atoi(a + 12));
            if (s) sscanf(s + 9, "%31[A-Z_]", st);
        }
        int k = task_of(t, id);
        if (k >= 0 && t->state[k] == 'G') snprintf(t->why[k], sizeof t->why[k], "%s", st);
    }
    free(buf);
}

int sweep_slurm_poll(sweep_tasks *t)
{
    /* a line per array task: room for the largest arrays */
    size_t len = 64 * (size_t)t->ntasks + 4096;
    char *buf = malloc(len), *save = NULL;
    char *argv[] = {"squeue", "-h", "-r", "-j", t->job, "-o", "%i|%T", NULL};
    int rc = buf ? sweep_capture(argv, buf, len, true) : 127;
    /* a job purged from slurmctld's memory is an invalid id: gone too */
    if (rc != 0 && rc != 1) { free(buf); return -1; }
    if (rc == 1) buf[0] = '\0';
    for (int k = 0; k < t->ntasks; k++) t->state[k] = 'G';
    for (char *line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        char *bar = strchr(line, '|');
        if (!bar) continue;
        *bar = '\0';
        int k = task_of(t, line);
        if (k >= 0) t->state[k] = strcmp(bar + 1, "PENDING") == 0 ? 'P' : 'R';
    }
    /* sacct and scontrol only while a gone task's end is unknown */
    for (int k = 0; k < t->ntasks; k++)
        if (t->state[k] == 'G' && !t->why[k][0]) { final_states(t); break; }
    free(buf);
    return 0;
}

/* Points of each kind: [0] done, [1] running, [2] pending, [3] failed,
   and [4] of the failed, those whose task Slurm says completed or does
   not say how it ended (their record may yet show up). */
static void count(const sweep_remote *r, const sweep_tasks *t, const sweep_point *pts, int n,
                  int *c)
{
    c[0] = c[1] = c[2] = c[3] = c[4] = 0;
    for (int k = 0; k < t->ntasks; k++)
        for (const char *s = t->tasks[k]; *s; s += strcspn(s, ",") + (s[strcspn(s, ",")] == ',')) {
            int i = atoi(s);
            char f[4200];
            if (i < 0 || i >= n) continue;
            sweep_point_file(r->shared_dir, pts[i].hash, f, sizeof f);
            if (access(f, R_OK) == 0) { c[0]++; continue; }
            c[t->state[k] == 'R' ? 1 : t->state[k] == 'P' ? 2 : 3]++;
            c[4] += t->state[k] == 'G' && (!t->why[k][0] || strcmp(t->why[k], "COMPLETED") == 0);
        }
}

static void nap(double s)
{
    struct timespec ts = { (time_t)s, (long)((s - (time_t)s) * 1e9) };
    nanosleep(&ts, NULL);
}

void sweep_slurm_follow(const sweep_remote *r, sweep_tasks *t, const sweep_point *pts, int n)
{
    /* poll often at first (small sweeps, tests), then back off to 30 s so
       a long array does not load slurmctld */
    double wait = 0.5;
    int c[5], last[4] = {-1, -1, -1, -1}, fails = 0, live = 1;
    fprintf(stderr, "sweep: following job %s (Ctrl-C leaves it running; `warpsim "
            "sweep-collect` gathers it later)\n", t->job);
    while (live) {
        nap(wait);
        wait = wait * 1.25 > 30 ? 30 : wait * 1.25;
        if (sweep_slurm_poll(t) != 0) {
            if (++fails < 5) continue;
            cli_error("sweep", "squeue fails: giving up following job %s", t->job);
            break;
        }
        fails = live = 0;
        for (int k = 0; k < t->ntasks; k++) live += t->state[k] != 'G';
        count(r, t, pts, n, c);
        if (memcmp(c, last, sizeof last) == 0) continue;
        memcpy(last, c, sizeof last);
        fprintf(stderr, "sweep: job %s: %d/%d points done, %d running, %d pending, %d failed\n",
                t->job, c[0], c[0] + c[1] + c[2] + c[3], c[1], c[2], c[3]);
    }
    /* a result written on a compute node can take a moment to show on a
       network file system: look again before calling its point failed */
    for (int tries = 0; tries < 5; tries++) {
        count(r, t, pts, n, c);
        if (!c[4]) break;
        nap(1);
    }
}
