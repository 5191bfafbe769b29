/*
** l1_trace.c -- recording the L1D access stream of a run: per-SM packed
** streams for the kernel-end replay (l1d_belady) and the trace file
** (l1d_trace); the format is in l1_trace.h.  The sink only appends; the
** replay and the writes of a kernel's end happen outside the cycle loop.
*/
#include "l1_trace.h"
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct l1_trace {
    uint32_t nsm;
    bool belady;
    l1_replay_geom geom;
    l1_replay_buf *bufs;        /* per SM, the running kernel (belady only) */
    uint64_t *insns;            /* per SM, warp instructions at the last kernel end */
    FILE *f;                    /* NULL: no file */
    char path[1024], tmp[1040];
    uint64_t *prev_line;        /* per SM, the last record's line number */
    uint64_t prev_cycle, records;
    bool oom;                   /* a push failed: reported at the kernel's end */
};

static void put_varint(FILE *f, uint64_t v)
{
    while (v >= 0x80) {
        putc((int)(v & 0x7f) | 0x80, f);
        v >>= 7;
    }
    putc((int)v, f);
}

static uint64_t zigzag(uint64_t d) { return (d << 1) ^ (uint64_t)((int64_t)d >> 63); }

static void put_u32(unsigned char *p, uint32_t v)
{
    for (int i = 0; i < 4; i++) p[i] = (unsigned char)(v >> (8 * i));
}

static int write_header(l1_trace *t, const gpu_config *cfg)
{
    unsigned char h[40] = { 0 };
    memcpy(h, L1_TRACE_MAGIC, 8);
    uint32_t flags = (cfg->l1d.write_back ? L1_TRACE_F_WRITE_BACK : 0)
                   | (cfg->l1d.write_evict ? L1_TRACE_F_WRITE_EVICT : 0)
                   | (cfg->l1d.unbounded ? L1_TRACE_F_UNBOUNDED : 0);
    const uint32_t v[7] = { L1_TRACE_VERSION, cfg->l1d.line_bytes, cfg->l1d.sets,
                            cfg->l1d.ways, t->nsm, cfg->l1d.set_index, flags };
    for (int i = 0; i < 7; i++) put_u32(h + 8 + 4 * i, v[i]);
    return fwrite(h, 1, sizeof h, t->f) == sizeof h ? 0 : -1;
}

static void l1_trace_free(l1_trace *t)
{
    if (!t) return;
    for (uint32_t i = 0; t->bufs && i < t->nsm; i++) l1_replay_buf_free(&t->bufs[i]);
    free(t->bufs);
    free(t->insns);
    free(t->prev_line);
    if (t->f) fclose(t->f);
    free(t);
}

l1_trace *l1_trace_new(const gpu_config *cfg, uint32_t nsm, char *err, size_t errlen)
{
    if (errlen) err[0] = '\0';
    if (!cfg->l1d_trace[0] && !cfg->l1d_belady) return NULL;
    l1_trace *t = calloc(1, sizeof *t);
    if (!t || !(t->insns = calloc(nsm, sizeof *t->insns))
        || !(t->prev_line = calloc(nsm, sizeof *t->prev_line))
        || (cfg->l1d_belady && !(t->bufs = calloc(nsm, sizeof *t->bufs)))) {
        snprintf(err, errlen, "out of host memory for the L1D access stream");
        l1_trace_free(t);
        return NULL;
    }
    t->nsm = nsm;
    t->belady = cfg->l1d_belady;
    t->geom = (l1_replay_geom){ .sets = cfg->l1d.sets, .ways = cfg->l1d.ways,
                                .line_bytes = cfg->l1d.line_bytes,
                                .set_index = cfg->l1d.set_index,
                                .write_back = cfg->l1d.write_back,
                                .write_evict = cfg->l1d.write_evict };
    if (cfg->l1d_trace[0]) {
        snprintf(t->path, sizeof t->path, "%s", cfg->l1d_trace);
        snprintf(t->tmp, sizeof t->tmp, "%s.tmp", cfg->l1d_trace);
        if (!(t->f = fopen(t->tmp, "wb")) || write_header(t, cfg)) {
            snprintf(err, errlen, "l1d_trace: cannot create '%s': %s", t->tmp, strerror(errno));
            l1_trace_free(t);
            return NULL;
        }
    }
    return t;
}

static void trace_access(void *ctx, const l1_access *a)
{
    l1_trace *t = ctx;
    uint64_t lineno = a->line / t->geom.line_bytes;
    if (t->bufs && l1_replay_push(&t->bufs[a->sm], L1_REPLAY_PACK(lineno, a->kind)))
        t->oom = true;
    if (!t->f) return;
    put_varint(t->f, (uint64_t)a->kind | (uint64_t)a->sm << 3);
    put_varint(t->f, a->uid);
    put_varint(t->f, zigzag(lineno - t->prev_line[a->sm]));
    put_varint(t->f, zigzag(a->cycle - t->prev_cycle));
    t->prev_line[a->sm] = lineno;
    t->prev_cycle = a->cycle;
    t->records++;
}

l1_access_sink l1_trace_sink(l1_trace *t)
{
    return (l1_access_sink){ .fn = t ? trace_access : NULL, .ctx = t };
}

int l1_trace_kernel_end(l1_trace *t, const uint64_t *sm_insns, gpu_kernel_stats *st,
                        char *err, size_t errlen)
{
    if (t->oom) {
        snprintf(err, errlen, "out of host memory recording the L1D access stream");
        return -1;
    }
    for (uint32_t i = 0; t->bufs && i < t->nsm; i++) {
        l1_replay_result r = { 0 };
        if (l1_replay_stream(t->bufs[i].a, t->bufs[i].n, &t->geom, &r)) {
            snprintf(err, errlen, "out of host memory replaying the L1D access stream");
            return -1;
        }
        st->l1d_replay_accesses += r.lru.accesses;
        st->l1d_lru_hits += r.lru.hits;
        st->l1d_lru_misses += r.lru.misses;
        st->l1d_belady_hits += r.belady.hits;
        st->l1d_belady_misses += r.belady.misses;
        t->bufs[i].n = 0;
    }
    if (t->f) {
        put_varint(t->f, L1_TRACE_KERNEL_END);
        for (uint32_t i = 0; i < t->nsm; i++) put_varint(t->f, sm_insns[i] - t->insns[i]);
        if (fflush(t->f) || ferror(t->f)) {
            snprintf(err, errlen, "l1d_trace: writing '%s': %s", t->tmp, strerror(errno));
            return -1;
        }
    }
    memcpy(t->insns, sm_insns, t->nsm * sizeof *t->insns);
    return 0;
}

int l1_trace_close(l1_trace *t, char *err, size_t errlen)
{
    int rc = 0;
    if (t && t->f) {
        put_varint(t->f, L1_TRACE_END);
        put_varint(t->f, t->records);
        bool bad = ferror(t->f) != 0;
        bad |= fclose(t->f) != 0;
        t->f = NULL;
        if (bad || rename(t->tmp, t->path)) {
            snprintf(err, errlen, "l1d_trace: finishing '%s': %s", t->path, strerror(errno));
            rc = -1;
        }
    }
    l1_trace_free(t);
    return rc;
}
