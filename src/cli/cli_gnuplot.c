/*
** cli_gnuplot.c -- finding and running gnuplot (Debian: gnuplot-nox,
** installed by scripts/bootstrap.sh), shared by the figures of `warpsim
** correlate --plot` (corr_plot.c) and of `warpsim sweep` (sweep_fig.c).
** gnuplot runs as a child process on a script file, never through a shell.
*/
#include "cli.h"
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

const char *cli_gnuplot_find(char *buf, size_t len, const char *cmd, const char *what)
{
    const char *path = getenv("PATH");
    while (path && *path) {
        size_t n = strcspn(path, ":");
        if (n && snprintf(buf, len, "%.*s/gnuplot", (int)n, path) < (int)len
            && access(buf, X_OK) == 0)
            return buf;
        path += n + (path[n] == ':');
    }
    cli_error(cmd, "%s needs gnuplot, which is not on PATH: install the Debian package "
              "gnuplot-nox (scripts/bootstrap.sh does)", what);
    return NULL;
}

int cli_gnuplot_run(const char *gnuplot, const char *script)
{
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0) return 127;
    if (pid == 0) {
        unsetenv("LD_PRELOAD");   /* meant for benchmark programs, not tools */
        execl(gnuplot, gnuplot, script, (char *)NULL);
        _exit(127);
    }
    int st;
    while (waitpid(pid, &st, 0) < 0)
        if (errno != EINTR) return 127;
    return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}
