/*
** claims_table.c -- a sweep's tables read back for the claims: every
** collected cell of DIR/results.csv (with its run's status) and every row
** of DIR/derived.csv become rows of one long table (claims.h), so a claim
** selects a statistic and a derived metric the same way.  Reading the
** files, not the sweep's memory, lets a report be rebuilt from any DIR.
*/
#include "claims.h"
#include "cli.h"
#include "cli_bench.h"
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAXCOL 256

static char *keep(claims_table *t, char *s)
{
    char **n = realloc(t->strs, (size_t)(t->nstrs + 1) * sizeof *n);
    if (!n) { free(s); return NULL; }
    t->strs = n;
    return t->strs[t->nstrs++] = s;
}

/* Split a CSV line in place; double quotes protect commas and are removed
   from a quoted field. */
static int split(char *s, char **out, int max)
{
    int n = 0;
    while (n < max) {
        bool q = false;
        out[n++] = s;
        char *w = s;
        for (; *s && (q || *s != ','); s++) {
            if (*s == '"') q = !q;
            else *w++ = *s;
        }
        char end = *s;
        *w = 0;
        if (!end) break;
        s++;
    }
    return n;
}

static double number(const char *s)
{
    char *e;
    if (!*s) return NAN;
    double v = strtod(s, &e);
    return *e ? NAN : v;
}

/* Rows of one line of results.csv (results) or derived.csv. */
static int add_line(claims_table *t, char **h, int nh, char **c, int nc, bool results)
{
    if (!results)
        return nc < 6 ? 0 : claims_table_add(t, c[0], c[1], c[2], c[3], c[4], NULL, number(c[5]));
    for (int k = 7; k < nh; k++)
        if (claims_table_add(t, h[k], c[0], c[1], c[2], c[3], c[5], k < nc ? number(c[k]) : NAN))
            return -1;
    return 0;
}

static int read_csv(claims_table *t, const char *path, bool results)
{
    char *line = NULL, *h[MAXCOL], *c[MAXCOL];
    size_t cap = 0;
    int nh = 0, rc = 0;
    FILE *f = fopen(path, "r");
    if (!f) {
        cli_error("reproduce", "cannot read %s: %s", path, strerror(errno));
        return -1;
    }
    while (rc == 0 && getline(&line, &cap, f) > 0) {
        line[strcspn(line, "\r\n")] = 0;
        char *s = keep(t, line);
        line = NULL;
        cap = 0;
        if (!s) { rc = -1; break; }
        if (!nh) { nh = split(s, h, MAXCOL); continue; }
        rc = add_line(t, h, nh, c, split(s, c, MAXCOL), results);
    }
    free(line);
    fclose(f);
    return rc;
}

/* Each benchmark of the tables with its manifest class tags. */
static int add_benches(claims_table *t, const bench_manifest *m)
{
    t->benches = calloc((size_t)m->n + 1, sizeof *t->benches);
    if (!t->benches) return -1;
    for (int i = 0; i < m->n; i++) {
        const bench_entry *e = &m->entries[i];
        size_t len = 1;
        for (int k = 0; k < e->nclasses; k++) len += strlen(e->classes[k]) + 1;
        char *cls = keep(t, calloc(len, 1));
        if (!cls) return -1;
        for (int k = 0; k < e->nclasses; k++) {
            if (k) strcat(cls, " ");
            strcat(cls, e->classes[k]);
        }
        t->benches[t->nbenches++] = (claims_bench){e->name, cls};
    }
    return 0;
}

int claims_table_read(claims_table *t, const char *dir, const bench_manifest *m)
{
    char path[4200];
    memset(t, 0, sizeof *t);
    snprintf(path, sizeof path, "%s/results.csv", dir);
    if (read_csv(t, path, true)) return -1;
    snprintf(path, sizeof path, "%s/derived.csv", dir);
    FILE *f = fopen(path, "r");
    if (f) {
        fclose(f);
        if (read_csv(t, path, false)) return -1;
    }
    return add_benches(t, m);
}

void claims_table_free(claims_table *t)
{
    for (int i = 0; i < t->nstrs; i++) free(t->strs[i]);
    free(t->strs);
    free(t->rows);
    free(t->benches);
    memset(t, 0, sizeof *t);
}
