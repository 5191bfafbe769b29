/*
** config_file.c -- reading a configuration file (`key = value` lines and
** GPGPU-Sim `-option value` lines, `#` comments) into a gpu_config, and
** remembering which line set which parameter so that a later cross-field
** check can name file:line.  Hostile files are refused with file:line:
** directories, files over GPU_CONFIG_FILE_MAX bytes (so /dev/zero and
** endless pipes stop), NUL bytes, quotes that never close.
*/
#include "config_int.h"
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* GPGPU-Sim's own configs are about 10 KB; 1 MiB leaves room for any
   hand-written file while bounding what a device or pipe can feed us. */
#define GPU_CONFIG_FILE_MAX (1u << 20)

static char *trim(char *s)
{
    while (isspace((unsigned char)*s)) s++;
    char *e = s + strlen(s);
    while (e > s && isspace((unsigned char)e[-1])) *--e = '\0';
    return s;
}

/* 1-based line number of offset `off` in `text`. */
static unsigned line_of(const char *text, size_t off)
{
    unsigned line = 1;
    for (size_t i = 0; i < off; i++) line += text[i] == '\n';
    return line;
}

/* Read all of `path` (at most GPU_CONFIG_FILE_MAX bytes) into a malloc'd,
   NUL-terminated buffer.  NULL with a message naming the file (and the
   line, for a NUL byte) on a directory, a read error, a file too large or
   a NUL byte: a binary file or a device is never taken as "no settings". */
static char *read_text(const char *path, char *err, size_t errlen)
{
    FILE *f = fopen(path, "r");
    struct stat st;
    if (!f || fstat(fileno(f), &st) != 0) {
        snprintf(err, errlen, "cannot open config file '%s': %s", path, strerror(errno));
        if (f) fclose(f);
        return NULL;
    }
    if (S_ISDIR(st.st_mode)) {
        snprintf(err, errlen, "config file '%s' is a directory", path);
        fclose(f);
        return NULL;
    }
    char *buf = malloc(GPU_CONFIG_FILE_MAX + 1);
    size_t n = buf ? fread(buf, 1, GPU_CONFIG_FILE_MAX + 1, f) : 0;
    bool rd_err = buf && ferror(f);
    fclose(f);
    if (!buf || rd_err) {
        snprintf(err, errlen, "cannot read config file '%s': %s", path,
                 buf ? strerror(errno) : "out of memory");
        free(buf);
        return NULL;
    }
    char *nul = memchr(buf, '\0', n);
    if (nul) {
        snprintf(err, errlen, "%s:%u: NUL byte in config file (not a text file?)", path,
                 line_of(buf, (size_t)(nul - buf)));
    } else if (n > GPU_CONFIG_FILE_MAX) {
        snprintf(err, errlen, "config file '%s' is larger than %u bytes (not a config file?)",
                 path, GPU_CONFIG_FILE_MAX);
    } else {
        buf[n] = '\0';
        return buf;
    }
    free(buf);
    return NULL;
}

/* What a config file's GPGPU-Sim lines did not use: options warpsim does
   not model (each with what it would have changed), options it does not
   know, and values it approximates.  Reported as one warning line. */
#define GS_MAX_IGNORED 256

typedef struct unused_lists {
    struct { char opt[64], why[1024]; } ign[GS_MAX_IGNORED];
    uint32_t n_ign;
    char unknown[4096], partial[8192];
    gpu_gs_state gs;              /* the file's GPGPU-Sim translation state */
} unused_lists;

/* One GPGPU-Sim line "-option value"; records what was not used. */
static int file_gpgpusim_line(gpu_config *c, char *line, unused_lists *u, char *err,
                              size_t errlen)
{
    char *v = line + strcspn(line, " \t");
    if (*v) *v++ = '\0';
    v = trim(v);
    int r = gpu_gpgpusim_apply(c, &u->gs, line, v, err, errlen);
    if (r == GPU_GS_IGNORED && u->n_ign < GS_MAX_IGNORED) {
        snprintf(u->ign[u->n_ign].opt, sizeof u->ign[0].opt, "%s", line);
        snprintf(u->ign[u->n_ign].why, sizeof u->ign[0].why, "%s", err);
        u->n_ign++;
    } else if (r == GPU_GS_UNKNOWN) {
        gpu_config_list_add(u->unknown, sizeof u->unknown, line);
    } else if (r == GPU_GS_PARTIAL) {
        gpu_config_list_add(u->partial, sizeof u->partial, err);
    }
    err[0] = r == GPU_GS_ERROR ? err[0] : '\0';
    return r == GPU_GS_ERROR ? -1 : 0;
}

static int file_line(gpu_config *c, char *line, unused_lists *u, char *err, size_t errlen)
{
    line[strcspn(line, "#")] = '\0';
    line = trim(line);
    if (!*line) return 0;
    if (line[0] == '-') return file_gpgpusim_line(c, line, u, err, errlen);
    char *eq = strchr(line, '=');
    if (!eq) {
        snprintf(err, errlen, "expected 'key = value' or '-gpgpusim_option value', got '%s'",
                 line);
        return -1;
    }
    *eq = '\0';
    return gpu_config_set(c, trim(line), trim(eq + 1), err, errlen);
}

static bool odd_quotes(const char *s, const char *end)
{
    int n = 0;
    for (; s < end && *s != '#'; s++) n += *s == '"';
    return n & 1;
}

/* The logical line starting at `*pos`: one physical line, or, for a
   GPGPU-Sim option whose quoted value (the DRAM timing string) is broken
   over lines, the lines up to the closing quote joined by spaces (in
   place).  Advances `*pos` past it.  -1 with a message when the quote does
   not close before the end of the file or before a line that starts
   another option (what an unterminated quote would otherwise swallow). */
static int next_line(char **pos, char **line, unsigned *lines, char *err, size_t errlen)
{
    char *s = *pos, *e = s + strcspn(s, "\n");
    *lines = 1;
    *line = s;
    bool open = s[strspn(s, " \t")] == '-' && odd_quotes(s, e);
    while (open) {
        char *next = *e ? e + 1 : e;
        const char *first = next + strspn(next, " \t");
        if (!*next || *first == '-') {
            snprintf(err, errlen, "unterminated '\"' in the value of %.*s (not closed %s)",
                     (int)strcspn(s + strspn(s, " \t"), " \t\n"), s + strspn(s, " \t"),
                     *next ? "before the next option" : "by the end of the file");
            return -1;
        }
        *e = ' ';                               /* join: the newline becomes a space */
        e = next + strcspn(next, "\n");
        open = !odd_quotes(next, e);             /* an odd count here closes it */
        (*lines)++;
    }
    *pos = *e ? e + 1 : e;
    *e = '\0';
    return 0;
}

/* Append to `out` the options not modelled, grouped by what they would
   have changed: "-a, -b (why); -c (why2)", each option named once. */
static void ignored_text(const unused_lists *u, char *out, size_t len)
{
    size_t n = strlen(out);
    bool done[GS_MAX_IGNORED] = { false };
    for (uint32_t i = 0; i < u->n_ign && n < len; i++) {
        if (done[i]) continue;
        n += (size_t)snprintf(out + n, len - n, "%s%s", i ? "; " : "", u->ign[i].opt);
        for (uint32_t j = i + 1; j < u->n_ign && n < len; j++) {
            if (done[j] || strcmp(u->ign[i].why, u->ign[j].why)) continue;
            bool dup = false;   /* an option given twice is named once */
            for (uint32_t k = i; k < j && !dup; k++)
                dup = (k == i || done[k]) && !strcmp(u->ign[k].opt, u->ign[j].opt);
            done[j] = true;
            if (!dup) n += (size_t)snprintf(out + n, len - n, ", %s", u->ign[j].opt);
        }
        if (n < len) n += (size_t)snprintf(out + n, len - n, " (%s)", u->ign[i].why);
    }
}

/* The one warning of what the file's GPGPU-Sim lines did not use. */
static void unused_warning(const char *path, const unused_lists *u, char *warn, size_t warnlen)
{
    if (!warn || !warnlen || !(u->n_ign || u->unknown[0] || u->partial[0])) return;
    snprintf(warn, warnlen, "%s: GPGPU-Sim options not used:", path);
    if (u->n_ign) {
        size_t n = strlen(warn);
        snprintf(warn + n, warnlen - n, " not modelled by warpsim (what each would change): ");
        ignored_text(u, warn, warnlen);
    }
    size_t n = strlen(warn);
    if (u->unknown[0])
        n += (size_t)snprintf(warn + n, warnlen - n, "%s unknown: %s", u->n_ign ? ";" : "",
                              u->unknown);
    if (u->partial[0] && n < warnlen)
        snprintf(warn + n, warnlen - n, "%s approximated: %s",
                 u->n_ign || u->unknown[0] ? ";" : "", u->partial);
}

int gpu_config_load_file_at(gpu_config *c, const char *path, gpu_origins *o, char *warn,
                            size_t warnlen, char *err, size_t errlen)
{
    if (warn && warnlen) warn[0] = '\0';
    char *text = read_text(path, err, errlen);
    if (!text) return -1;
    unused_lists *u = calloc(1, sizeof *u);
    gpu_config *before = malloc(sizeof *before);
    char e[1024], *pos = text, *line;
    unsigned lineno = 1, nlines;
    int rc = u && before ? 0 : -1;
    if (rc) snprintf(err, errlen, "%s: out of memory", path);
    else gpu_gs_state_init(&u->gs);
    while (rc == 0 && *pos) {
        *before = *c;
        if (next_line(&pos, &line, &nlines, e, sizeof e) != 0
            || file_line(c, line, u, e, sizeof e) != 0) {
            snprintf(err, errlen, "%s:%u: %s", path, lineno, e);
            rc = -1;
        } else if (o) {
            gpu_origins_mark(o, before, c, lineno, NULL);
        }
        lineno += nlines;
    }
    if (rc == 0) unused_warning(path, u, warn, warnlen);
    free(before);
    free(u);
    free(text);
    return rc;
}

int gpu_config_load_file(gpu_config *c, const char *path, char *warn, size_t warnlen,
                         char *err, size_t errlen)
{
    return gpu_config_load_file_at(c, path, NULL, warn, warnlen, err, errlen);
}
