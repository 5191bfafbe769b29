/*
** workloads.c -- the bundled-kernel workloads shared by `warpsim demo` and
** `warpsim emu-bench`: vector add, shared-memory reduction and a divergent
** frontier BFS on a random CSR graph.  Each generates its inputs from a
** fixed seed, runs on the emulator, and checks the result against a CPU
** reference; only the time spent inside ws_launch() is counted.
*/
#include "cli.h"
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct wl_sizes {
    uint32_t vec_n;        /* vector add elements */
    uint32_t red_n;        /* reduction elements */
    uint32_t red_blocks;   /* reduction CTAs (grid-stride loop) */
    uint32_t bfs_nodes;    /* graph nodes; about 8 edges per node */
} wl_sizes;

static const wl_sizes wl_size_table[] = {
    [CLI_SIZE_SMALL] = {10000, 1u << 16, 16, 2000},
    [CLI_SIZE_DEFAULT] = {1u << 20, 1u << 22, 120, 1u << 17},
};

#define WL_BLOCK 256
#define BFS_BLOCK 128

/* Record the first failure; `what` names the call, for people. */
static void wl_note(cli_result *r, ws_ctx *ctx, const char *what, ws_status st)
{
    if (r->detail[0])
        return;
    snprintf(r->detail, sizeof r->detail, "%s: %s: %s", what, ws_status_name(st),
             ws_last_error(ctx));
}

#define WL_CHECK(expr)                                  \
    do {                                                \
        if ((st = (expr)) != WS_OK) {                   \
            wl_note(r, ctx, #expr, st);                 \
            goto out;                                   \
        }                                               \
    } while (0)

#define WL_ALLOC(p, n)                                  \
    do {                                                \
        if (!((p) = calloc((n) ? (n) : 1, sizeof *(p)))) { \
            st = WS_ERR_NOMEM;                          \
            snprintf(r->detail, sizeof r->detail, "host out of memory"); \
            goto out;                                   \
        }                                               \
    } while (0)

static ws_status wl_upload(ws_ctx *ctx, const void *src, size_t bytes, ws_devptr *out)
{
    ws_status st = ws_malloc(ctx, bytes, out);
    return st != WS_OK ? st : ws_memcpy_htod(ctx, *out, src, bytes);
}

/* ws_launch, timed, with its counters added to `r`. */
static ws_status wl_launch(ws_ctx *ctx, ws_kernel *k, uint32_t grid, uint32_t block,
                           void **args, cli_result *r)
{
    ws_stats s;
    double t0 = cli_now();
    ws_status st = ws_launch(ctx, k, (ws_dim3){grid, 1, 1}, (ws_dim3){block, 1, 1}, args, 0);
    r->seconds += cli_now() - t0;
    if (st != WS_OK)
        return st;
    ws_stats_last(ctx, &s);
    r->stats.launches += 1;
    r->stats.ctas += s.ctas;
    r->stats.warps += s.warps;
    r->stats.warp_insns += s.warp_insns;
    r->stats.thread_insns += s.thread_insns;
    return WS_OK;
}

/* ------------------------------------------------------------------ */
/* Vector add                                                          */
/* ------------------------------------------------------------------ */

static ws_status wl_vector_add(ws_ctx *ctx, ws_module *mod, cli_size size, cli_result *r)
{
    int n = (int)wl_size_table[size].vec_n;
    uint32_t grid = ((uint32_t)n + WL_BLOCK - 1) / WL_BLOCK;
    uint64_t seed = 1;
    float *a = NULL, *b = NULL, *c = NULL;
    ws_devptr da, db, dc;
    ws_kernel *k;
    ws_status st;
    WL_ALLOC(a, (size_t)n);
    WL_ALLOC(b, (size_t)n);
    WL_ALLOC(c, (size_t)n);
    for (int i = 0; i < n; i++) {       /* multiples of 1/1024: exact sums */
        a[i] = (float)((int)(cli_rand32(&seed) % 2000001) - 1000000) / 1024.0f;
        b[i] = (float)((int)(cli_rand32(&seed) % 2000001) - 1000000) / 1024.0f;
    }
    snprintf(r->config, sizeof r->config, "%ux%u", grid, WL_BLOCK);
    WL_CHECK(ws_module_get_kernel(mod, "vector_add", &k));
    WL_CHECK(wl_upload(ctx, a, (size_t)n * 4, &da));
    WL_CHECK(wl_upload(ctx, b, (size_t)n * 4, &db));
    WL_CHECK(ws_malloc(ctx, (size_t)n * 4, &dc));
    void *args[] = {&da, &db, &dc, &n};
    WL_CHECK(wl_launch(ctx, k, grid, WL_BLOCK, args, r));
    WL_CHECK(ws_memcpy_dtoh(ctx, c, dc, (size_t)n * 4));
    r->pass = true;
    for (int i = 0; i < n && r->pass; i++) {
        if (c[i] != a[i] + b[i]) {
            r->pass = false;
            snprintf(r->detail, sizeof r->detail, "c[%d] = %.9g, expected %.9g",
                     i, (double)c[i], (double)(a[i] + b[i]));
        }
    }
out:
    free(a);
    free(b);
    free(c);
    return st;
}

/* ------------------------------------------------------------------ */
/* Reduction                                                           */
/* ------------------------------------------------------------------ */

/* CPU reference: block `blk` of the grid-stride loop sums elements i with
   (i / WL_BLOCK) % nblocks == blk. */
static bool check_reduction(const uint32_t *in, uint32_t n, const uint32_t *partial,
                            uint32_t nblocks, uint32_t total, cli_result *r)
{
    uint32_t *want = calloc(nblocks, 4), sum = 0;
    if (!want) {
        snprintf(r->detail, sizeof r->detail, "host out of memory");
        return false;
    }
    for (uint32_t i = 0; i < n; i++) {
        want[(i / WL_BLOCK) % nblocks] += in[i];
        sum += in[i];
    }
    bool ok = true;
    for (uint32_t b = 0; b < nblocks && ok; b++)
        if (partial[b] != want[b]) {
            ok = false;
            snprintf(r->detail, sizeof r->detail, "partial[%u] = %u, expected %u",
                     b, partial[b], want[b]);
        }
    if (ok && total != sum) {
        ok = false;
        snprintf(r->detail, sizeof r->detail, "total = %u, expected %u", total, sum);
    }
    free(want);
    return ok;
}

static ws_status wl_reduction(ws_ctx *ctx, ws_module *mod, cli_size size, cli_result *r)
{
    int n = (int)wl_size_table[size].red_n, nb = (int)wl_size_table[size].red_blocks;
    uint64_t seed = 2;
    uint32_t *in = NULL, *partial = NULL, total = 0;
    ws_devptr din, dpart, dtotal;
    ws_kernel *ksum, *ktotal;
    ws_status st;
    WL_ALLOC(in, (size_t)n);
    WL_ALLOC(partial, (size_t)nb);
    for (int i = 0; i < n; i++)
        in[i] = cli_rand32(&seed) % 1000;
    snprintf(r->config, sizeof r->config, "%dx%d +1", nb, WL_BLOCK);
    WL_CHECK(ws_module_get_kernel(mod, "reduce_sum", &ksum));
    WL_CHECK(ws_module_get_kernel(mod, "reduce_total", &ktotal));
    WL_CHECK(wl_upload(ctx, in, (size_t)n * 4, &din));
    WL_CHECK(ws_malloc(ctx, (size_t)nb * 4, &dpart));
    WL_CHECK(ws_malloc(ctx, 4, &dtotal));
    WL_CHECK(ws_memset(ctx, dtotal, 0, 4));
    void *sum_args[] = {&din, &dpart, &n};
    void *total_args[] = {&dpart, &dtotal, &nb};
    WL_CHECK(wl_launch(ctx, ksum, (uint32_t)nb, WL_BLOCK, sum_args, r));
    WL_CHECK(wl_launch(ctx, ktotal, ((uint32_t)nb + WL_BLOCK - 1) / WL_BLOCK, WL_BLOCK,
                       total_args, r));
    WL_CHECK(ws_memcpy_dtoh(ctx, partial, dpart, (size_t)nb * 4));
    WL_CHECK(ws_memcpy_dtoh(ctx, &total, dtotal, 4));
    r->pass = check_reduction(in, (uint32_t)n, partial, (uint32_t)nb, total, r);
out:
    free(in);
    free(partial);
    return st;
}

/* ------------------------------------------------------------------ */
/* BFS                                                                 */
/* ------------------------------------------------------------------ */

typedef struct wl_graph {
    int n, m;
    int *row_ptr;   /* n + 1 */
    int *col_idx;   /* m */
} wl_graph;

/* Skewed random out-degrees (most 0..5, one node in 8 a hub of 16..63),
   so threads of one warp loop over very different edge counts. */
static bool make_graph(wl_graph *g, int n)
{
    uint64_t seed = 3;
    g->n = n;
    g->row_ptr = malloc(((size_t)n + 1) * sizeof(int));
    if (!g->row_ptr)
        return false;
    g->row_ptr[0] = 0;
    for (int v = 0; v < n; v++) {
        uint32_t x = cli_rand32(&seed);
        int deg = (x & 7) == 0 ? 16 + (int)(x >> 8) % 48 : (int)(x >> 8) % 6;
        g->row_ptr[v + 1] = g->row_ptr[v] + deg;
    }
    g->m = g->row_ptr[n];
    g->col_idx = malloc(((size_t)g->m + 1) * sizeof(int));
    if (!g->col_idx)
        return false;
    for (int e = 0; e < g->m; e++)
        g->col_idx[e] = (int)(cli_rand32(&seed) % (uint32_t)n);
    return true;
}

static bool cpu_bfs(const wl_graph *g, int *dist)
{
    int *queue = malloc((size_t)g->n * sizeof(int)), head = 0, tail = 0;
    if (!queue)
        return false;
    for (int v = 0; v < g->n; v++)
        dist[v] = -1;
    dist[0] = 0;
    queue[tail++] = 0;
    while (head < tail) {
        int v = queue[head++];
        for (int e = g->row_ptr[v]; e < g->row_ptr[v + 1]; e++)
            if (dist[g->col_idx[e]] < 0) {
                dist[g->col_idx[e]] = dist[v] + 1;
                queue[tail++] = g->col_idx[e];
            }
    }
    free(queue);
    return true;
}

typedef struct wl_bfs_dev {
    ws_devptr row, col, dist, front[2], size;
} wl_bfs_dev;

static ws_status bfs_upload(ws_ctx *ctx, const wl_graph *g, int *dist, wl_bfs_dev *d)
{
    ws_status st;
    int source = 0;
    for (int v = 0; v < g->n; v++)
        dist[v] = v == source ? 0 : -1;
    if ((st = wl_upload(ctx, g->row_ptr, ((size_t)g->n + 1) * 4, &d->row)) != WS_OK ||
        (st = wl_upload(ctx, g->col_idx, ((size_t)g->m + 1) * 4, &d->col)) != WS_OK ||
        (st = wl_upload(ctx, dist, (size_t)g->n * 4, &d->dist)) != WS_OK ||
        (st = ws_malloc(ctx, (size_t)g->n * 4, &d->front[0])) != WS_OK ||
        (st = ws_memcpy_htod(ctx, d->front[0], &source, 4)) != WS_OK ||
        (st = ws_malloc(ctx, (size_t)g->n * 4, &d->front[1])) != WS_OK)
        return st;
    return ws_malloc(ctx, 4, &d->size);
}

/* Level-synchronous loop: launch over the frontier until it is empty. */
static ws_status bfs_levels(ws_ctx *ctx, ws_kernel *k, wl_bfs_dev *d, int *levels,
                            cli_result *r)
{
    int fsize = 1, level = 0;
    ws_status st = WS_OK;
    while (fsize > 0 && st == WS_OK) {
        void *args[] = {&d->row, &d->col, &d->front[level & 1], &fsize, &d->dist,
                        &d->front[(level + 1) & 1], &d->size, &level};
        if ((st = ws_memset(ctx, d->size, 0, 4)) != WS_OK ||
            (st = wl_launch(ctx, k, ((uint32_t)fsize + BFS_BLOCK - 1) / BFS_BLOCK,
                            BFS_BLOCK, args, r)) != WS_OK ||
            (st = ws_memcpy_dtoh(ctx, &fsize, d->size, 4)) != WS_OK)
            break;
        level++;
    }
    *levels = level;
    return st;
}

static ws_status wl_bfs(ws_ctx *ctx, ws_module *mod, cli_size size, cli_result *r)
{
    wl_graph g = {0, 0, NULL, NULL};
    int *dist = NULL, *want = NULL, levels = 0, n = (int)wl_size_table[size].bfs_nodes;
    wl_bfs_dev d;
    ws_kernel *k;
    ws_status st = WS_ERR_NOMEM;
    WL_ALLOC(dist, (size_t)n);
    WL_ALLOC(want, (size_t)n);
    if (!make_graph(&g, n) || !cpu_bfs(&g, want)) {
        snprintf(r->detail, sizeof r->detail, "host out of memory");
        goto out;
    }
    WL_CHECK(ws_module_get_kernel(mod, "bfs_step", &k));
    WL_CHECK(bfs_upload(ctx, &g, dist, &d));
    WL_CHECK(bfs_levels(ctx, k, &d, &levels, r));
    WL_CHECK(ws_memcpy_dtoh(ctx, dist, d.dist, (size_t)n * 4));
    snprintf(r->config, sizeof r->config, "%d lv x%d", levels, BFS_BLOCK);
    r->pass = true;
    for (int v = 0; v < n && r->pass; v++)
        if (dist[v] != want[v]) {
            r->pass = false;
            snprintf(r->detail, sizeof r->detail, "dist[%d] = %d, expected %d",
                     v, dist[v], want[v]);
        }
out:
    free(g.row_ptr);
    free(g.col_idx);
    free(dist);
    free(want);
    return st;
}

/* ------------------------------------------------------------------ */
/* Table and driver                                                    */
/* ------------------------------------------------------------------ */

const cli_workload cli_workloads[] = {
    {"vector_add", "vector_add.ptx", wl_vector_add},
    {"reduce_sum", "reduce.ptx", wl_reduction},
    {"bfs_step", "bfs.ptx", wl_bfs},
    {NULL, NULL, NULL}
};

void cli_workload_exec(const cli_workload *w, cli_size size, cli_result *r)
{
    ws_module *mod = NULL;
    memset(r, 0, sizeof *r);
    snprintf(r->config, sizeof r->config, "-");
    const char *text = cli_bundled_ptx(w->ptx);
    ws_ctx *ctx = ws_ctx_create(NULL);
    if (!text || !ctx) {
        snprintf(r->detail, sizeof r->detail, "%s", !text ? "bundled PTX missing"
                                                          : "cannot create a context");
    } else {
        ws_status st = ws_module_load_string(ctx, text, w->ptx, &mod);
        if (st != WS_OK)
            wl_note(r, ctx, "loading the PTX", st);
        else
            w->run(ctx, mod, size, r);
    }
    if (r->detail[0])
        r->pass = false;
    if (mod)
        ws_module_unload(mod);
    if (ctx)
        ws_ctx_destroy(ctx);
}
