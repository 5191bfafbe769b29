/*
** bench_exec.c -- building a benchmark program with nvcc (only when the
** binary is missing or older than its sources) and running it through the
** `warpsim exec` machinery in a child process, with the program's stdout
** read back to find its PASS/FAIL line.
*/
#include "cli.h"
#include "cli_bench.h"
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define BENCH_MAX_ARGS 64

int bench_bin_path(const char *bin_dir, const char *name, char *out, size_t len)
{
    char dir[PATH_MAX];
    if (bin_dir) {
        snprintf(dir, sizeof dir, "%s", bin_dir);
    } else {
        /* next to the warpsim binary: <build>/bench-bin */
        ssize_t n = readlink("/proc/self/exe", dir, sizeof dir - 1);
        if (n <= 0) return -1;
        dir[n] = '\0';
        char *slash = strrchr(dir, '/');
        if (!slash) return -1;
        snprintf(slash, sizeof dir - (size_t)(slash - dir), "/bench-bin");
    }
    if (mkdir(dir, 0777) != 0 && errno != EEXIST) return -1;
    return snprintf(out, len, "%s/%s", dir, name) < (int)len ? 0 : -1;
}

/* $WARPSIM_NVCC when set, else nvcc on PATH, else under $CUDA_HOME or
   /usr/local/cuda; NULL if none. */
static const char *find_nvcc(char *buf, size_t len)
{
    const char *forced = getenv("WARPSIM_NVCC");
    if (forced && *forced)
        return snprintf(buf, len, "%s", forced) < (int)len && access(buf, X_OK) == 0
               ? buf : NULL;
    const char *path = getenv("PATH");
    while (path && *path) {
        size_t n = strcspn(path, ":");
        if (n && snprintf(buf, len, "%.*s/nvcc", (int)n, path) < (int)len
            && access(buf, X_OK) == 0)
            return buf;
        path += n + (path[n] == ':');
    }
    const char *home = getenv("CUDA_HOME");
    if (home && snprintf(buf, len, "%s/bin/nvcc", home) < (int)len && access(buf, X_OK) == 0)
        return buf;
    if (access("/usr/local/cuda/bin/nvcc", X_OK) == 0)
        return snprintf(buf, len, "/usr/local/cuda/bin/nvcc") < (int)len ? buf : NULL;
    return NULL;
}

/* Modification time of `path`, or -1. */
static double mtime(const char *path)
{
    struct stat st;
    if (stat(path, &st) != 0) return -1;
    return (double)st.st_mtim.tv_sec + st.st_mtim.tv_nsec * 1e-9;
}

/* Split `tmpl` at spaces into argv, replacing {source} and {bin}. */
static int split_command(const char *tmpl, const char *source, const char *bin,
                         char *store, size_t cap, char **argv, int max)
{
    int argc = 0;
    size_t used = 0;
    for (const char *p = tmpl; *p;) {
        while (*p == ' ') p++;
        if (!*p) break;
        size_t n = strcspn(p, " ");
        const char *word = p;
        int wlen = (int)n;
        if (n == 8 && strncmp(p, "{source}", 8) == 0) { word = source; wlen = (int)strlen(source); }
        else if (n == 5 && strncmp(p, "{bin}", 5) == 0) { word = bin; wlen = (int)strlen(bin); }
        if (argc + 1 >= max || used + (size_t)wlen + 1 > cap) return -1;
        argv[argc++] = memcpy(store + used, word, (size_t)wlen);
        store[used + (size_t)wlen] = '\0';
        used += (size_t)wlen + 1;
        p += n;
    }
    argv[argc] = NULL;
    return argc;
}

/* fork + exec the compiler argv in folder `cwd`; the exit status, 127 if
   it could not start.  LD_PRELOAD is meant for the benchmark program (the
   test suite preloads the ASan runtime that way), not for the compiler. */
static int spawn_wait(char *const *argv, const char *cwd)
{
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0) return 127;
    if (pid == 0) {
        unsetenv("LD_PRELOAD");
        if (cwd && chdir(cwd) != 0) _exit(127);
        execv(argv[0], argv);
        _exit(127);
    }
    int st;
    while (waitpid(pid, &st, 0) < 0)
        if (errno != EINTR) return 127;
    return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

int bench_build(const bench_manifest *m, const bench_entry *e, const char *bin, bool force,
                const char *cmd)
{
    char src[PATH_MAX], hdr[PATH_MAX], tmp[PATH_MAX + 32];
    if (snprintf(src, sizeof src, "%s/%s", m->root, e->source) >= (int)sizeof src
        || snprintf(hdr, sizeof hdr, "%s/bench/common/bench.h", m->root) >= (int)sizeof hdr) {
        cli_error(cmd, "%s: path of '%s' too long", e->name, e->source);
        return -1;
    }
    double t_src = mtime(src), t_bin = mtime(bin), t_hdr = mtime(hdr);
    if (t_src < 0) {
        cli_error(cmd, "%s: source '%s' not found", e->name, src);
        return -1;
    }
    if (!force && t_bin >= t_src && t_bin >= t_hdr) return 0;
    char nvcc[PATH_MAX];
    if (!find_nvcc(nvcc, sizeof nvcc)) {
        cli_error(cmd, "%s must be built, but nvcc was not found ($WARPSIM_NVCC, PATH, "
                  "$CUDA_HOME/bin or /usr/local/cuda/bin): building the benchmarks needs "
                  "the CUDA 13 toolkit (no GPU needed)", e->name);
        return -1;
    }
    /* build to a private name and rename: concurrent builds never see a
       half-written binary */
    snprintf(tmp, sizeof tmp, "%s.tmp%ld", bin, (long)getpid());
    char store[8192], *argv[BENCH_MAX_ARGS];
    if (split_command(m->build, e->source, tmp, store, sizeof store, argv,
                      BENCH_MAX_ARGS) < 1) {
        cli_error(cmd, "%s: the manifest's build command is empty or too long", m->path);
        return -1;
    }
    if (strcmp(argv[0], "nvcc") == 0) argv[0] = nvcc;
    fprintf(stderr, "warpsim bench: building %s\n", e->name);
    int rc = spawn_wait(argv, m->root);
    if (rc != 0 || rename(tmp, bin) != 0) {
        unlink(tmp);
        cli_error(cmd, "building %s failed (%s exited with %d)", e->name, argv[0], rc);
        return -1;
    }
    return 0;
}

/* Child: stdout into the pipe, then `warpsim exec OPTS -- BIN ARGS`. */
static void run_child(int fd, char **argv, int argc)
{
    if (dup2(fd, STDOUT_FILENO) < 0) _exit(127);
    close(fd);
    _exit(cli_cmd_exec(argc, argv));
}

/* Echo the program's stdout, keeping its last PASS/FAIL line. */
static void read_output(int fd, bool echo, bench_outcome *out)
{
    FILE *f = fdopen(fd, "r");
    if (!f) { close(fd); return; }
    char *line = NULL;
    size_t cap = 0;
    ssize_t n;
    while ((n = getline(&line, &cap, f)) > 0) {
        if (echo) fputs(line, stdout);
        if (strncmp(line, "PASS ", 5) == 0 || strncmp(line, "FAIL ", 5) == 0) {
            if (line[n - 1] == '\n') line[n - 1] = '\0';
            snprintf(out->verdict, sizeof out->verdict, "%s", line);
        }
    }
    if (echo) fflush(stdout);
    free(line);
    fclose(f);
}

int bench_run_program(const bench_entry *e, const char *bin, int size, const char *seed_arg,
                      char *const *exec_opts, bool echo, bench_outcome *out)
{
    memset(out, 0, sizeof *out);
    char store[4096], *args[BENCH_MAX_ARGS];
    int nargs = split_command(e->commands[size], "", bin, store, sizeof store, args,
                              BENCH_MAX_ARGS - 2);
    if (nargs < 1) return -1;
    /* every exec option goes on: none is dropped for want of room */
    size_t nopts = 0;
    while (exec_opts && exec_opts[nopts]) nopts++;
    char **argv = malloc((nopts + (size_t)nargs + 6) * sizeof *argv);
    if (!argv) return -1;
    int argc = 0;
    argv[argc++] = "exec";
    for (size_t i = 0; i < nopts; i++) argv[argc++] = exec_opts[i];
    argv[argc++] = "--";
    for (int i = 0; i < nargs; i++) argv[argc++] = args[i];
    if (seed_arg) { argv[argc++] = "--seed"; argv[argc++] = (char *)seed_arg; }
    argv[argc] = NULL;

    int fds[2];
    if (pipe(fds) != 0) { free(argv); return -1; }
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0) { close(fds[0]); close(fds[1]); free(argv); return -1; }
    if (pid == 0) { close(fds[0]); run_child(fds[1], argv, argc); }
    free(argv);
    close(fds[1]);
    read_output(fds[0], echo, out);
    int st;
    while (waitpid(pid, &st, 0) < 0)
        if (errno != EINTR) return -1;
    out->exit_status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
    return 0;
}
