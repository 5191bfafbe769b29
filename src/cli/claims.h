/*
** claims.h -- private header of the claims of `warpsim reproduce`
** (src/cli/): a claims file (claims_file.c, JSON read with libjansson;
** schema in docs/experiments.md), the tables a sweep wrote read back as one
** long table of values (claims_table.c), the evaluation of a claim over that
** table (claims_eval.c: pure, no I/O, so a unit test drives it with
** in-memory tables) and report.md (claims_report.c).
*/
#ifndef WS_CLI_CLAIMS_H
#define WS_CLI_CLAIMS_H

#include <stdbool.h>
#include <stddef.h>

#define CLAIMS_MAX_ORDER 8      /* configs or values of one ordering */
#define CLAIMS_MAX_BENCHES 32   /* names of a benchmark list */

enum { CLAIMS_AGG_NONE, CLAIMS_AGG_GEOMEAN, CLAIMS_AGG_HMEAN, CLAIMS_AGG_MEAN, CLAIMS_AGG_MIN,
       CLAIMS_AGG_MAX };

/* Selects values of the tables: rows of `metric` (a column of results.csv
   or a metric of derived.csv), of `config` (NULL: any), of the size (NULL:
   the tables' first), of some benchmarks (one name, a list, a class tag, or
   any); several seeds of a benchmark are averaged; `agg` folds the
   benchmarks into one value (NONE: exactly one benchmark must match). */
typedef struct claims_sel {
    const char *metric, *config, *size;
    const char *benches[CLAIMS_MAX_BENCHES];
    int nbenches;               /* 0 = no name filter */
    const char *cls;            /* a class tag, or NULL */
    int agg;                    /* CLAIMS_AGG_* */
} claims_sel;

enum { CLAIMS_E_SEL, CLAIMS_E_RATIO, CLAIMS_E_DIFF };

/* A scalar: a selection, or the ratio / difference of two scalars. */
typedef struct claims_expr {
    int op;                     /* CLAIMS_E_* */
    claims_sel sel;             /* op == SEL */
    struct claims_expr *a, *b;  /* RATIO: a / b; DIFF: a - b */
} claims_expr;

enum { CLAIMS_K_BAND, CLAIMS_K_EACH, CLAIMS_K_ORDER, CLAIMS_K_NONE };

typedef struct claim {
    const char *id, *section, *text;
    char paper[128];            /* the paper's value, as text */
    /* "skip": the claim is always SKIP with this reason (what it needs does
       not exist yet, e.g. an energy model); its computation, if given, is
       checked at load but never evaluated; NULL = evaluate */
    const char *skip;
    int kind;                   /* CLAIMS_K_*; NONE: a skip without a computation */
    claims_expr value;          /* BAND: the scalar; EACH/ORDER: value.sel */
    double lo, hi;              /* the band; +-INFINITY = open */
    int at_least;               /* EACH / per-benchmark ORDER: how many must hold; 0 = all */
    /* ORDER: item i is a config name (order_cfg[i]) or a scalar (order_expr[i]);
       rel[i] relates item i and i + 1: "<", "<=", ">", ">=", "~" */
    const char *order_cfg[CLAIMS_MAX_ORDER];
    claims_expr *order_expr[CLAIMS_MAX_ORDER];
    char rel[CLAIMS_MAX_ORDER][3];
    int norder;
    double tolerance;           /* ORDER: relative margin */
    bool per_benchmark;         /* ORDER: on each benchmark instead of on scalars */
} claim;

typedef struct claims_file {
    void *json;                 /* the parsed document (json_t *): owns the strings */
    char path[4096];
    claim *claims;
    int n;
    claims_expr **owned;        /* expression nodes the loader allocated */
    int nowned;
} claims_file;

/* ---- claims_file.c ---- */

/* Load and check `path`. 0, or -1 after a message naming the file, the
   claim's id (or index) and the bad member. */
int claims_load(claims_file *cf, const char *path);
/* The same from a string (`name` stands for the file in messages). */
int claims_load_string(claims_file *cf, const char *name, const char *text);
void claims_free(claims_file *cf);
/* The number of claims in a file, -1 when it cannot be read (no message). */
int claims_count(const char *path);

/* ---- the tables (claims_table.c fills, claims_eval.c reads) ---- */

/* One value: a statistic of a point (results.csv) or a derived metric's
   row (derived.csv). status: the point's run status for results.csv rows
   ("ok", "fail", ...), NULL for derived rows. value: NAN = an empty cell. */
typedef struct claims_row {
    const char *metric, *bench, *size, *config, *seed, *status;
    double value;
} claims_row;

/* A benchmark of the tables and its class tags (space-separated). */
typedef struct claims_bench {
    const char *name, *classes;
} claims_bench;

typedef struct claims_table {
    claims_row *rows;
    int n, cap;
    claims_bench *benches;
    int nbenches;
    char **strs;                /* the strings rows point into */
    int nstrs;
} claims_table;

struct bench_manifest;
/* Read DIR/results.csv and DIR/derived.csv (when it exists); the classes
   of each benchmark from the manifest. 0, or -1 (printed). */
int claims_table_read(claims_table *t, const char *dir, const struct bench_manifest *m);
int claims_table_add(claims_table *t, const char *metric, const char *bench, const char *size,
                     const char *config, const char *seed, const char *status, double value);
void claims_table_free(claims_table *t);

/* ---- claims_eval.c ---- */

enum { CLAIMS_PASS, CLAIMS_FAIL, CLAIMS_SKIP, CLAIMS_ERROR };
extern const char *const claims_verdict_names[4];

typedef struct claims_result {
    int verdict;                /* CLAIMS_* */
    char measured[512];         /* what was measured, as text */
    char band[128];             /* the acceptance band, as text */
    char why[512];              /* SKIP / ERROR: the reason */
} claims_result;

/* Evaluate claim `c` over table `t`. ERROR when the claim cannot be
   computed because it names what the tables do not have (a metric or
   config: a wrong file); SKIP when a value it needs is missing (a failed
   run, a benchmark the size omits). */
void claims_eval(const claim *c, const claims_table *t, claims_result *r);

/* ---- claims_report.c ---- */

typedef struct claims_report_info {
    const char *title, *paper_id, *command, *version, *out_dir;
    double wall_s;
    const char *const *figures; /* figure name stems (DIR/figures/NAME.png) */
    int nfigures;
} claims_report_info;

/* The claim's line: "PASS id: measured vs paper (band)". */
void claims_line(char *buf, size_t len, const claim *c, const claims_result *r);
/* "claims: N passed, M failed, K skipped" (", E in error" when E > 0);
   cnt indexed by CLAIMS_*. */
void claims_summary(char *buf, size_t len, const int cnt[4]);
/* DIR/report.md. 0, or -1 (printed). */
int claims_write_report(const claims_report_info *info, const claims_file *cf,
                        const claims_result *res, const claims_table *t);

#endif /* WS_CLI_CLAIMS_H */
