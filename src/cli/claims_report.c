/*
** claims_report.c -- the verdict of `warpsim reproduce`: each claim's line
** ("PASS id: measured vs paper (band)") and DIR/report.md, which adds what
** a reader needs to trust or rerun it: the command, the simulator version,
** the machine, the wall time, the figures (relative links) and the failed
** runs.
*/
#include "claims.h"
#include "cli.h"
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

void claims_line(char *buf, size_t len, const claim *c, const claims_result *r)
{
    const char *v = claims_verdict_names[r->verdict];
    if (r->verdict == CLAIMS_ERROR)
        snprintf(buf, len, "%s %s: %s", v, c->id, r->why);
    else
        snprintf(buf, len, "%s %s: %s vs %s (%s)", v, c->id,
                 r->verdict == CLAIMS_SKIP ? r->why : r->measured, c->paper, r->band);
}

void claims_summary(char *buf, size_t len, const int cnt[4])
{
    int n = snprintf(buf, len, "claims: %d passed, %d failed, %d skipped", cnt[CLAIMS_PASS],
                     cnt[CLAIMS_FAIL], cnt[CLAIMS_SKIP]);
    /* only a wrong claims file has errors: the usual line stays as documented */
    if (cnt[CLAIMS_ERROR] && n > 0 && (size_t)n < len)
        snprintf(buf + n, len - (size_t)n, ", %d in error (the claims file)", cnt[CLAIMS_ERROR]);
}

/* A table cell: '|' would end it, a newline the row. */
static void cell(FILE *f, const char *s)
{
    fputs("| ", f);
    for (; s && *s; s++) {
        if (*s == '|') fputs("\\|", f);
        else fputc(*s == '\n' ? ' ' : *s, f);
    }
    fputc(' ', f);
}

static void claims_table_md(FILE *f, const claims_file *cf, const claims_result *res)
{
    int cnt[4] = {0};
    fprintf(f, "## Claims\n\n| verdict | id | section | claim | measured | paper | band |\n"
               "|---|---|---|---|---|---|---|\n");
    for (int i = 0; i < cf->n; i++) {
        const claim *c = &cf->claims[i];
        const claims_result *r = &res[i];
        cnt[r->verdict]++;
        cell(f, claims_verdict_names[r->verdict]);
        cell(f, c->id);
        cell(f, c->section);
        cell(f, c->text);
        cell(f, r->verdict == CLAIMS_PASS || r->verdict == CLAIMS_FAIL ? r->measured : r->why);
        cell(f, c->paper);
        cell(f, r->band);
        fputs("|\n", f);
    }
    fprintf(f, "\n```\n");
    for (int i = 0; i < cf->n; i++) {
        char line[1400];
        claims_line(line, sizeof line, &cf->claims[i], &res[i]);
        fprintf(f, "%s\n", line);
    }
    char sum[160];
    claims_summary(sum, sizeof sum, cnt);
    fprintf(f, "%s\n```\n\n", sum);
}

/* Each failed point once: the rows of the first statistic column. */
static void failed_runs(FILE *f, const claims_table *t)
{
    int nf = 0;
    fprintf(f, "## Failed runs\n\n");
    for (int i = 0; i < t->n; i++) {
        const claims_row *r = &t->rows[i];
        if (!r->status || strcmp(r->metric, t->rows[0].metric) || !strcmp(r->status, "ok"))
            continue;
        fprintf(f, "- %s %s %s%s%s: %s (its stderr: logs/, its record: runs.jsonl)\n", r->bench,
                r->size, r->config, *r->seed ? " seed " : "", r->seed, r->status);
        nf++;
    }
    fprintf(f, "%s\n", nf ? "" : "None: every run printed its benchmark's PASS line.\n");
}

static void header(FILE *f, const claims_report_info *in)
{
    struct utsname u;
    char host[256] = "?";
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    if (uname(&u) != 0) memset(&u, 0, sizeof u);
    gethostname(host, sizeof host - 1);
    fprintf(f, "# Reproduction: %s\n\n", in->title);
    fprintf(f, "- command: `%s`\n", in->command);
    fprintf(f, "- files: `experiments/%s.json` (the experiment), `experiments/%s.claims.json` "
               "(the claims)\n", in->paper_id, in->paper_id);
    fprintf(f, "- simulator: warpsim %s\n", in->version);
    fprintf(f, "- machine: %s %s %s (%s), %ld CPU%s online\n", u.sysname, u.release, u.machine,
            host, cpus, cpus == 1 ? "" : "s");
    fprintf(f, "- wall time: %.1f s\n", in->wall_s);
    fprintf(f, "- tables: [results.csv](results.csv), [derived.csv](derived.csv), "
               "[runs.jsonl](runs.jsonl)\n\n");
}

int claims_write_report(const claims_report_info *in, const claims_file *cf,
                        const claims_result *res, const claims_table *t)
{
    char path[4200], tmp[4300];
    snprintf(path, sizeof path, "%s/report.md", in->out_dir);
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    FILE *f = fopen(tmp, "w");
    if (!f) {
        cli_error("reproduce", "cannot write %s: %s", tmp, strerror(errno));
        return -1;
    }
    header(f, in);
    claims_table_md(f, cf, res);
    fprintf(f, "## Figures\n\n");
    for (int i = 0; i < in->nfigures; i++)
        fprintf(f, "![%s](figures/%s.png)\n\n[SVG](figures/%s.svg), "
                   "[data](figures/%s.csv)\n\n", in->figures[i], in->figures[i], in->figures[i],
                in->figures[i]);
    if (!in->nfigures) fprintf(f, "The experiment draws no figures.\n\n");
    failed_runs(f, t);
    if (fclose(f) != 0 || rename(tmp, path) != 0) {
        cli_error("reproduce", "cannot write %s", path);
        return -1;
    }
    return 0;
}
