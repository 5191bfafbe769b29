/*
** bench_threads.c -- `warpsim timing-bench --threads N`: every benchmark on
** the timing model twice, with threads=1 and with threads=N, each with its
** statistics JSON in a temporary file.  Per benchmark and in total: both
** runs' speeds, the speed-up (wall at 1 / wall at N) and whether the two
** statistics files are byte-identical, which the `threads` key promises.
*/
#include "cli.h"
#include "cli_bench.h"
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* One benchmark's two runs. */
typedef struct bt_pair {
    bench_timing one, many;   /* threads=1, threads=N */
    bool same;                /* the statistics JSON files are byte-identical */
} bt_pair;

/* A fresh temporary file's name in $TMPDIR (or /tmp); -1 after a message. */
static int bt_tmp(const char *cmd, char *path, size_t len)
{
    const char *dir = getenv("TMPDIR");
    if (!dir || !*dir) dir = "/tmp";
    snprintf(path, len, "%s/warpsim-threads-XXXXXX", dir);
    int fd = mkstemp(path);
    if (fd < 0) {
        cli_error(cmd, "cannot create a temporary file in %s", dir);
        return -1;
    }
    close(fd);
    return 0;
}

/* 1 when files `a` and `b` hold the same bytes, 0 when they differ or one
   cannot be read (then they cannot be shown to be the same). */
static int bt_same_bytes(const char *a, const char *b)
{
    FILE *fa = fopen(a, "rb"), *fb = fopen(b, "rb");
    int same = fa && fb;
    while (same) {
        char ba[8192], bb[8192];
        size_t na = fread(ba, 1, sizeof ba, fa), nb = fread(bb, 1, sizeof bb, fb);
        if (na != nb || memcmp(ba, bb, na) != 0) same = 0;
        else if (na == 0) break;
    }
    if (fa) fclose(fa);
    if (fb) fclose(fb);
    return same;
}

/* Run `e` once more with `setting` ("threads=K") last, so that it wins over
   any --set threads= of the command line, its statistics JSON into `json`. */
static int bt_run(bench_timing_req *q, const bench_manifest *m, const bench_entry *e,
                  const char *setting, const char *json, bench_timing *t)
{
    q->sets[q->nsets++] = setting;
    q->stats_out = json;
    int rc = bench_timing_run(q, m, e, t);
    q->stats_out = NULL;
    q->nsets--;
    return rc;
}

/* Both runs of `e` and their comparison into `p`; -1 when a run failed. */
static int bt_pair_run(bench_timing_req *q, const bench_manifest *m, const bench_entry *e,
                       const char *set_n, uint32_t threads, bt_pair *p)
{
    char j1[4096], jn[4096];
    if (bt_tmp(q->cmd, j1, sizeof j1)) return -1;
    if (bt_tmp(q->cmd, jn, sizeof jn)) {
        unlink(j1);
        return -1;
    }
    int rc = bt_run(q, m, e, "threads=1", j1, &p->one);
    if (rc == 0) rc = bt_run(q, m, e, set_n, jn, &p->many);
    p->same = rc == 0 && bt_same_bytes(j1, jn);
    if (rc == 0 && !p->same) {
        /* kept for whoever looks into it */
        cli_error(q->cmd, "%s: the statistics differ between threads=1 and threads=%u "
                  "(cycles %" PRIu64 " and %" PRIu64 "); kept %s and %s (diff them)",
                  e->name, threads, p->one.cycles, p->many.cycles, j1, jn);
        return 0;
    }
    unlink(j1);
    unlink(jn);
    return rc;
}

/* Wall seconds, M thread-insns/s and M cycles/s of one run. */
static void bt_speed(const bench_timing *r)
{
    double s = r->seconds > 0 ? r->seconds : 1e-9;
    printf(" %10.3f %13.3f %12.3f", r->seconds, (double)r->thread_insns / s / 1e6,
           (double)r->cycles / s / 1e6);
}

/* One row: the counts of the threads=1 run (those of the threads=N run are
   the same unless `verdict` says DIFFER), both speeds, the speed-up. */
static void bt_row(const char *name, const bt_pair *p, const char *verdict)
{
    printf("%-15s %14" PRIu64 " %12" PRIu64, name, p->one.thread_insns, p->one.cycles);
    bt_speed(&p->one);
    bt_speed(&p->many);
    double sp = p->many.seconds > 0 ? p->one.seconds / p->many.seconds : 0.0;
    printf(" %8.2fx %s\n", sp, verdict);
}

static void bt_head(const bench_timing_req *q, uint32_t threads)
{
    char c[3][3][16];
    static const char *const what[3] = { "wall-s", "M-tinsn/s", "M-cycles/s" };
    for (int k = 0; k < 3; k++) {
        snprintf(c[k][0], sizeof c[k][0], "%s@1", what[k]);
        snprintf(c[k][1], sizeof c[k][1], "%s@%u", what[k], threads);
    }
    printf("timing model speed: config %s, size %s, one thread against %u threads\n",
           q->config ? q->config : "gtx480", bench_size_names[q->size], threads);
    printf("%-15s %14s %12s %10s %13s %12s %10s %13s %12s %9s %s\n", "benchmark",
           "thread-insns", "cycles", c[0][0], c[1][0], c[2][0], c[0][1], c[1][1], c[2][1],
           "speed-up", "stats");
}

static void bt_add(bench_timing *sum, const bench_timing *r)
{
    sum->thread_insns += r->thread_insns;
    sum->cycles += r->cycles;
    sum->seconds += r->seconds;
}

int bench_threads_compare(bench_timing_req *q, const bench_manifest *m,
                          const bench_entry *const *list, int n, uint32_t threads)
{
    char set_n[CLI_THREADS_SET];
    snprintf(set_n, sizeof set_n, "threads=%u", threads);
    bt_head(q, threads);
    bt_pair total = { .same = true };
    int failed = 0, differ = 0;
    for (int i = 0; i < n; i++) {
        bt_pair p;
        memset(&p, 0, sizeof p);
        if (bt_pair_run(q, m, list[i], set_n, threads, &p)) {
            failed++;
            fflush(stdout);
            continue;
        }
        differ += !p.same;
        bt_row(list[i]->name, &p, p.same ? "same" : "DIFFER");
        fflush(stdout);
        bt_add(&total.one, &p.one);
        bt_add(&total.many, &p.many);
    }
    char verdict[96];
    snprintf(verdict, sizeof verdict, "%d differ%s", differ,
             failed ? " (failed benchmarks left out)" : "");
    bt_row("total", &total, verdict);
    return failed || differ ? CLI_EXIT_FAIL : CLI_EXIT_OK;
}
