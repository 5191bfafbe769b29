/*
** cli_pool.c -- a pool of worker processes for commands that run many
** simulations (`warpsim sweep`): task i runs in its own process (its own
** process group, so a timeout ends the programs it started too), at most
** `jobs` at once, and sends a fixed-size result back through a pipe.  A
** worker that dies or runs out of time is reported as such, never stops the
** others.  Results are handed over by task index, so what a command writes
** does not depend on the order the workers finish in.
*/
#include "cli.h"
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

typedef struct slot {
    pid_t pid;
    int fd, task;
    double start;
    bool killed;
} slot;

/* Start task i; -1 when no process could be made. */
static int start(const cli_pool *p, int i, slot *s)
{
    int fds[2];
    if (pipe(fds) != 0) return -1;
    fflush(NULL);
    s->pid = fork();
    if (s->pid < 0) { close(fds[0]); close(fds[1]); return -1; }
    if (s->pid == 0) {
        setpgid(0, 0);
        close(fds[0]);
        char *out = calloc(1, p->out_size);
        if (!out) _exit(1);
        p->run(p->ctx, i, out);
        /* at most PIPE_BUF: one write, never blocks on an empty pipe */
        ssize_t w = write(fds[1], out, p->out_size);
        fflush(NULL);
        _exit(w == (ssize_t)p->out_size ? 0 : 1);
    }
    setpgid(s->pid, s->pid);   /* both sides: no race with the kill below */
    close(fds[1]);
    s->fd = fds[0];
    s->task = i;
    s->start = cli_now();
    s->killed = false;
    return 0;
}

/* Worker `s` ended with wait status `st`: read its result, report it. */
static void finish(const cli_pool *p, slot *s, int st, void *buf)
{
    int how = CLI_POOL_OK;
    memset(buf, 0, p->out_size);
    if (s->killed) how = CLI_POOL_TIMEOUT;
    else if (read(s->fd, buf, p->out_size) != (ssize_t)p->out_size || !WIFEXITED(st)
             || WEXITSTATUS(st) != 0)
        how = CLI_POOL_DIED;
    close(s->fd);
    p->finished(p->ctx, s->task, how == CLI_POOL_OK ? buf : NULL, how, cli_now() - s->start);
}

/* Kill the process group of every worker past its time. */
static void enforce_timeout(const cli_pool *p, slot *sl, int live)
{
    if (p->timeout_s <= 0) return;
    double now = cli_now();
    for (int k = 0; k < live; k++)
        if (!sl[k].killed && now - sl[k].start > p->timeout_s) {
            kill(-sl[k].pid, SIGKILL);
            sl[k].killed = true;
        }
}

int cli_pool_run(const cli_pool *p, const int *idx, int n, int jobs)
{
    slot sl[CLI_POOL_MAX_JOBS];
    int live = 0, next = 0;
    char *buf = malloc(p->out_size);
    if (!buf) return -1;
    if (jobs > CLI_POOL_MAX_JOBS) jobs = CLI_POOL_MAX_JOBS;
    if (jobs < 1) jobs = 1;
    while (next < n || live) {
        while (live < jobs && next < n) {
            int i = idx[next++];
            if (p->started) p->started(p->ctx, i, next, n);
            if (start(p, i, &sl[live]) == 0) live++;
            else p->finished(p->ctx, i, NULL, CLI_POOL_DIED, 0);
        }
        int st;
        pid_t pid = waitpid(-1, &st, p->timeout_s > 0 ? WNOHANG : 0);
        if (pid == 0) {
            struct timespec ts = { 0, 20 * 1000 * 1000 };
            nanosleep(&ts, NULL);
            enforce_timeout(p, sl, live);
            continue;
        }
        if (pid < 0) { if (errno == EINTR) continue; break; }
        for (int k = 0; k < live; k++) {
            if (sl[k].pid != pid) continue;
            if (sl[k].killed) kill(-pid, SIGKILL);   /* what the worker left behind */
            finish(p, &sl[k], st, buf);
            sl[k] = sl[--live];
            break;
        }
    }
    free(buf);
    return 0;
}
