/*
** ptx_file.c -- what a person needs to find the code a message talks about:
** the PTX a program carries in memory (fatbinary, cuModuleLoadData) gets a
** file name that messages use, and the file is written where the name
** says (always with WARPSIM_KEEP_PTX, else when a load fails or a kernel
** faults); mangled C++ kernel names in messages are demangled.
*/
#include "cuda_internal.h"
#include <dlfcn.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The running program's file name, for PTX file names ("prog"). */
static void prog_name(char *out, size_t len)
{
    char exe[1024];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n <= 0) { snprintf(out, len, "program"); return; }
    exe[n] = '\0';
    const char *slash = strrchr(exe, '/'), *base = slash ? slash + 1 : exe;
    size_t k = strlen(base) < len ? strlen(base) : len - 1;
    memcpy(out, base, k);
    out[k] = '\0';
}

/*
** Folder of WARPSIM_KEEP_PTX, else a per-process folder under $TMPDIR (the
** process id keeps two runs from overwriting each other's files; it shows
** only in messages, never in statistics).
*/
void wsc_ptx_path(const wsc_config *c, const char *what, char *out, size_t len)
{
    char prog[256];
    prog_name(prog, sizeof prog);
    if (c->keep_ptx[0]) {
        snprintf(out, len, "%s/%s.%s.ptx", c->keep_ptx, prog, what);
        return;
    }
    const char *tmp = getenv("TMPDIR");
    snprintf(out, len, "%s/warpsim-%ld/%s.%s.ptx", tmp && *tmp ? tmp : "/tmp",
             (long)getpid(), prog, what);
}

int wsc_ptx_write(const char *path, const char *ptx)
{
    char dir[1024];
    snprintf(dir, sizeof dir, "%s", path);
    char *slash = strrchr(dir, '/');
    if (slash && slash != dir) {
        *slash = '\0';
        if (mkdir(dir, 0777) && errno != EEXIST) {
            wsc_msg("cannot create '%s' for the program's PTX: %s", dir, strerror(errno));
            return -1;
        }
    }
    FILE *f = fopen(path, "w");
    size_t n = strlen(ptx);
    if (!f || fwrite(ptx, 1, n, f) != n || fclose(f)) {
        wsc_msg("cannot write the program's PTX to '%s': %s", path, strerror(errno));
        if (f) fclose(f);
        return -1;
    }
    return 0;
}

/* Demangled C++ name, through the program's own C++ runtime when it has
   one (nvcc programs do); NULL otherwise. */
char *wsc_demangle(const char *name)
{
    typedef char *(*demangle_fn)(const char *, char *, size_t *, int *);
    if (strncmp(name, "_Z", 2) != 0) return NULL;
    demangle_fn fn = (demangle_fn)dlsym(RTLD_DEFAULT, "__cxa_demangle");
    if (!fn) return NULL;
    int status = -1;
    char *d = fn(name, NULL, NULL, &status);
    if (status == 0) return d;
    free(d);
    return NULL;
}

/*
** Copy `msg` to `out`, each quoted mangled name ('_Z...') written as the
** programmer spelt it followed by the PTX name, which is what the PTX file
** holds: 'void img::poke<int>(int*, int)' (PTX: _ZN3img4pokeIiEEvPT_i).
*/
void wsc_demangle_msg(const char *msg, char *out, size_t len)
{
    size_t o = 0;
    if (!len) return;
    while (*msg && o + 1 < len) {
        const char *end;
        if (msg[0] == '\'' && msg[1] == '_' && msg[2] == 'Z' && (end = strchr(msg + 1, '\''))) {
            char name[512];
            size_t n = (size_t)(end - msg - 1);
            if (n < sizeof name) {
                memcpy(name, msg + 1, n);
                name[n] = '\0';
                char *d = wsc_demangle(name);
                if (d) {
                    int w = snprintf(out + o, len - o, "'%s' (PTX: %s)", d, name);
                    free(d);
                    o = w < 0 || (size_t)w >= len - o ? len - 1 : o + (size_t)w;
                    msg = end + 1;
                    continue;
                }
            }
        }
        out[o++] = *msg++;
    }
    out[o] = '\0';
}
