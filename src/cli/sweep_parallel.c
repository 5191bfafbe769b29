/*
** sweep_parallel.c -- the GNU parallel backend of `warpsim sweep`, for a
** handful of machines without a batch system: one parallel job per task,
** over ssh to the hosts of --hosts (GNU parallel's --sshloginfile; ":" is
** this machine), each running `warpsim run-point` like a Slurm task.  Its
** --joblog (OUT/parallel/joblog) says how each task ended.  The hosts must
** see the same paths (warpsim, the experiment, the shared folder).
*/
#include "cli.h"
#include "sweep.h"
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

/* OUT/parallel/tasks.txt: one task's point list per line, parallel's
   input. */
static int write_tasks(const sweep_opts *o, const sweep_tasks *t, char *path, size_t len)
{
    snprintf(path, len, "%s/parallel", o->out_dir);
    if (mkdir(path, 0777) != 0 && errno != EEXIST) {
        cli_error("sweep", "cannot create %s: %s", path, strerror(errno));
        return -1;
    }
    snprintf(path, len, "%s/parallel/tasks.txt", o->out_dir);
    FILE *f = fopen(path, "w");
    if (!f) {
        cli_error("sweep", "cannot write %s: %s", path, strerror(errno));
        return -1;
    }
    for (int k = 0; k < t->ntasks; k++) fprintf(f, "%s\n", t->tasks[k]);
    return fclose(f) == 0 ? 0 : -1;
}

/* Run parallel; its exit status (the number of failed jobs, up to 100),
   127 when it did not start. -q: every word of the command is quoted for
   the remote shell, so paths may hold spaces. */
static int run_parallel(const sweep_opts *o, const sweep_remote *r, const char *tasks,
                        const char *joblog, const char *exe)
{
    char jobs[32];
    char *argv[40];
    int n = 0;
    argv[n++] = "parallel";
    argv[n++] = "--will-cite";
    argv[n++] = "-q";
    argv[n++] = "--joblog";
    argv[n++] = (char *)joblog;
    argv[n++] = r->hosts ? "--sshloginfile" : "-S";
    argv[n++] = (char *)(r->hosts ? r->hosts : ":");
    if (r->max_parallel) {
        snprintf(jobs, sizeof jobs, "%d", r->max_parallel);
        argv[n++] = "-j";
        argv[n++] = jobs;
    }
    argv[n++] = "--arg-file";
    argv[n++] = (char *)tasks;
    argv[n++] = (char *)exe;
    argv[n++] = "run-point";
    argv[n++] = (char *)r->exp_path;
    argv[n++] = "{}";
    argv[n++] = "--out";
    argv[n++] = (char *)r->shared_dir;
    if (r->bench_dir) { argv[n++] = "--bench-dir"; argv[n++] = (char *)r->bench_dir; }
    if (o->bin_dir) { argv[n++] = "--bin-dir"; argv[n++] = (char *)o->bin_dir; }
    argv[n] = NULL;
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0) return 127;
    if (pid == 0) {
        execvp(argv[0], argv);
        _exit(127);
    }
    int st;
    while (waitpid(pid, &st, 0) < 0)
        if (errno != EINTR) return 127;
    return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

/* The joblog (tab-separated: Seq Host Starttime JobRuntime Send Receive
   Exitval Signal Command; Seq = the task's line in tasks.txt): a task that
   exited non-zero or died by a signal. */
static void read_joblog(const char *joblog, sweep_tasks *t)
{
    FILE *f = fopen(joblog, "r");
    char line[8192];
    while (f && fgets(line, sizeof line, f)) {
        int seq, ex, sig;
        if (sscanf(line, "%d\t%*s\t%*s\t%*s\t%*s\t%*s\t%d\t%d", &seq, &ex, &sig) != 3
            || seq < 1 || seq > t->ntasks)
            continue;
        if (sig) snprintf(t->why[seq - 1], sizeof t->why[seq - 1], "by signal %d", sig);
        else if (ex) snprintf(t->why[seq - 1], sizeof t->why[seq - 1], "with exit %d", ex);
    }
    if (f) fclose(f);
}

int sweep_parallel_run(const sweep_opts *o, const sweep_remote *r, sweep_tasks *t)
{
    char tasks[4200], joblog[4200], exe[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    exe[n > 0 ? n : 0] = '\0';
    if (write_tasks(o, t, tasks, sizeof tasks)) return -1;
    snprintf(joblog, sizeof joblog, "%s/parallel/joblog", o->out_dir);
    /* a fresh log: --resume has already chosen what runs */
    unlink(joblog);
    fprintf(stderr, "sweep: GNU parallel on %s: %d task%s; joblog %s\n",
            r->hosts ? r->hosts : "this machine", t->ntasks, t->ntasks == 1 ? "" : "s", joblog);
    int rc = run_parallel(o, r, tasks, joblog, exe);
    if (rc == 127 || rc >= 128) {
        cli_error("sweep", "GNU parallel %s", rc == 127 ? "could not start" : "was killed");
        return -1;
    }
    for (int k = 0; k < t->ntasks; k++) t->state[k] = 'G';
    read_joblog(joblog, t);
    return 0;
}
