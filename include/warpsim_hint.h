/*
** warpsim_hint.h -- the HALS launch hint from a CUDA program (specs/haws.md
** 3.2.2; thesis Ch. 6: kernel<<<grid, block, hint>>>).  The hint is not a
** launch argument here: warpsim_launch_hint("gemm", 1) appends "gemm:1" to
** the environment variable WARPSIM_LAUNCH_HINT, which warpsim's runtime
** reads at every launch (KERNEL:N[,KERNEL:N...]; KERNEL the PTX name, its
** demangled base name or *, N 0..3: 0 none, 1 many lines shared among
** blocks, 2 boundary lines, 3 some common data; a later entry for the same
** kernel wins).  On a real GPU nothing reads the variable, so the call is
** harmless.  Header only, C and C++; POSIX setenv.
*/
#ifndef WARPSIM_HINT_H
#define WARPSIM_HINT_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef __cplusplus
/* POSIX; declared again so that a strict -std=c11 build sees it too */
int setenv(const char *name, const char *value, int overwrite);
#endif

/* 0 on success, -1 when `hint` is out of range or the variable cannot be
   set (the program can ignore it: the run is only less hinted). */
static inline int warpsim_launch_hint(const char *kernel, int hint)
{
    if (!kernel || !*kernel || hint < 0 || hint > 3) return -1;
    const char *old = getenv("WARPSIM_LAUNCH_HINT");
    size_t n = (old ? strlen(old) : 0) + strlen(kernel) + 4;
    char *v = (char *)malloc(n);
    if (!v) return -1;
    if (old && *old) snprintf(v, n, "%s,%s:%d", old, kernel, hint);
    else snprintf(v, n, "%s:%d", kernel, hint);
    int rc = setenv("WARPSIM_LAUNCH_HINT", v, 1);
    free(v);
    return rc == 0 ? 0 : -1;
}

#endif /* WARPSIM_HINT_H */
