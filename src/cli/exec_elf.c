/*
** exec_elf.c -- what `warpsim exec` learns from the program's ELF file
** before running it: a program with device code (an .nv_fatbin or
** .nvFatBinSegment section) that does not list libcudart.so in its
** dynamic section carries NVIDIA's static runtime (nvcc's default,
** -cudart static), which never calls the shim; run anyway it only says
** "CUDA driver version is insufficient".  Only 64-bit little-endian ELF
** (x86-64, aarch64) is read; anything else is left to run as it is.
*/
#include "cli.h"
#include <elf.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define ELF_MAX_SECTIONS 4096
#define ELF_MAX_TABLE    (64u << 20)   /* section name / dynamic tables read */

/* `len` bytes at `off` of `fd` into a new buffer (NUL-terminated), or NULL. */
static char *read_at(int fd, uint64_t off, uint64_t len)
{
    if (len > ELF_MAX_TABLE) return NULL;
    char *b = malloc(len + 1);
    if (!b) return NULL;
    if (pread(fd, b, len, (off_t)off) != (ssize_t)len) { free(b); return NULL; }
    b[len] = '\0';
    return b;
}

/* 1 if a DT_NEEDED entry of `dyn` (entries) names libcudart.so*. */
static int needs_cudart(int fd, const Elf64_Shdr *dyn, const Elf64_Shdr *str)
{
    char *d = read_at(fd, dyn->sh_offset, dyn->sh_size);
    char *s = d ? read_at(fd, str->sh_offset, str->sh_size) : NULL;
    int found = 0;
    for (uint64_t i = 0; s && (i + 1) * sizeof(Elf64_Dyn) <= dyn->sh_size && !found; i++) {
        Elf64_Dyn e;
        memcpy(&e, d + i * sizeof e, sizeof e);
        if (e.d_tag == DT_NULL) break;
        if (e.d_tag == DT_NEEDED && e.d_un.d_val < str->sh_size &&
            strncmp(s + e.d_un.d_val, "libcudart.so", 12) == 0)
            found = 1;
    }
    free(d);
    free(s);
    return found;
}

/* Classify the open ELF file `fd`: 1 static cudart, 0 otherwise. */
static int classify(int fd)
{
    Elf64_Ehdr h;
    if (pread(fd, &h, sizeof h, 0) != (ssize_t)sizeof h || memcmp(h.e_ident, ELFMAG, SELFMAG) ||
        h.e_ident[EI_CLASS] != ELFCLASS64 || h.e_ident[EI_DATA] != ELFDATA2LSB ||
        h.e_shentsize != sizeof(Elf64_Shdr) || h.e_shnum == 0 ||
        h.e_shnum > ELF_MAX_SECTIONS || h.e_shstrndx >= h.e_shnum)
        return 0;
    Elf64_Shdr *sh = (Elf64_Shdr *)read_at(fd, h.e_shoff, (uint64_t)h.e_shnum * sizeof *sh);
    if (!sh) return 0;
    char *names = read_at(fd, sh[h.e_shstrndx].sh_offset, sh[h.e_shstrndx].sh_size);
    int fatbin = 0, cudart = 0;
    for (int i = 0; names && i < h.e_shnum; i++) {
        const char *n = sh[i].sh_name < sh[h.e_shstrndx].sh_size ? names + sh[i].sh_name : "";
        if (!strcmp(n, ".nv_fatbin") || !strcmp(n, ".nvFatBinSegment")) fatbin = 1;
        if (sh[i].sh_type == SHT_DYNAMIC && sh[i].sh_link < h.e_shnum &&
            needs_cudart(fd, &sh[i], &sh[sh[i].sh_link]))
            cudart = 1;
    }
    free(names);
    free(sh);
    return fatbin && !cudart;
}

/* The file execvp would run for `prog`: itself if it has a '/', else the
   first executable of that name on PATH. */
static int resolve(const char *prog, char *out, size_t len)
{
    if (strchr(prog, '/')) return snprintf(out, len, "%s", prog) < (int)len ? 0 : -1;
    const char *path = getenv("PATH");
    for (const char *p = path ? path : ""; *p;) {
        const char *colon = strchr(p, ':');
        size_t n = colon ? (size_t)(colon - p) : strlen(p);
        int w = n ? snprintf(out, len, "%.*s/%s", (int)n, p, prog)
                  : snprintf(out, len, "./%s", prog);   /* empty entry: here */
        if (w > 0 && w < (int)len && access(out, X_OK) == 0)
            return 0;
        p += n + (colon ? 1 : 0);
    }
    return -1;
}

int cli_exec_static_cudart(const char *prog)
{
    char path[PATH_MAX];
    if (resolve(prog, path, sizeof path)) return 0;
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return 0;   /* execvp reports why it cannot run */
    int r = classify(fd);
    close(fd);
    return r;
}
