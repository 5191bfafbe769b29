/*
** l1_trace_read.c -- reading an L1D access trace (format in l1_trace.h)
** and replaying it per SM and kernel with l1_replay.c, as the run's own
** l1d_belady replay does: `warpsim belady`.  Memory: 8 bytes per access
** of the largest kernel, plus the replay's next-use table.
*/
#include "l1_trace.h"
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct reader {
    FILE *f;
    const char *path;
    uint64_t off;            /* bytes consumed */
    char *err;
    size_t errlen;
} reader;

static int bad(reader *r, const char *what)
{
    snprintf(r->err, r->errlen, "%s: offset %llu: %s", r->path, (unsigned long long)r->off,
             what);
    return -1;
}

static int get_varint(reader *r, uint64_t *v)
{
    *v = 0;
    for (int shift = 0; shift < 64; shift += 7) {
        int c = getc(r->f);
        if (c == EOF) return bad(r, "truncated trace (no end record: did the run finish?)");
        r->off++;
        *v |= (uint64_t)(c & 0x7f) << shift;
        if (!(c & 0x80)) return 0;
    }
    return bad(r, "bad varint (more than 10 bytes)");
}

static uint64_t unzigzag(uint64_t z) { return (z >> 1) ^ (uint64_t)-(int64_t)(z & 1); }

static uint32_t get_u32(const unsigned char *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static int read_header(reader *r, l1_trace_info *in)
{
    unsigned char h[40];
    size_t got = fread(h, 1, sizeof h, r->f);
    if (got < 8 || memcmp(h, L1_TRACE_MAGIC, 8))
        return bad(r, "not an L1D trace (no WSL1TRC magic; record one with --set l1d_trace=FILE)");
    if (got < sizeof h) return bad(r, "truncated header");
    r->off = sizeof h;
    uint32_t *v[7] = { &in->version, &in->line_bytes, &in->sets, &in->ways, &in->nsms,
                       &in->set_index, &in->flags };
    for (int i = 0; i < 7; i++) *v[i] = get_u32(h + 8 + 4 * i);
    if (in->version != L1_TRACE_VERSION) return bad(r, "unsupported trace version");
    if (!in->line_bytes || !in->sets || !in->ways || !in->nsms || in->nsms > 65536
        || in->set_index > 2)
        return bad(r, "bad geometry in the header");
    return 0;
}

/* Replay and empty every SM's stream of the kernel just read. */
static int replay_kernel(reader *r, l1_replay_buf *bufs, const l1_trace_info *in,
                         const l1_replay_geom *g, l1_trace_sm *per_sm)
{
    for (uint32_t i = 0; i < in->nsms; i++) {
        uint64_t ni;
        if (get_varint(r, &ni)) return -1;
        per_sm[i].warp_insns += ni;
        if (l1_replay_stream(bufs[i].a, bufs[i].n, g, &per_sm[i].r))
            return bad(r, "out of host memory replaying a kernel");
        bufs[i].n = 0;
    }
    return 0;
}

/* The records after the header, up to the end record. */
static int read_records(reader *r, l1_trace_info *in, const l1_replay_geom *g,
                        l1_replay_buf *bufs, uint64_t *prev_line, l1_trace_sm *per_sm)
{
    for (;;) {
        uint64_t tag, uid, dl, dc;
        if (get_varint(r, &tag)) return -1;
        uint32_t kind = (uint32_t)(tag & 7);
        uint64_t sm = tag >> 3;
        if (kind == L1_TRACE_END) {
            uint64_t n;
            if (get_varint(r, &n)) return -1;
            if (n != in->records) return bad(r, "end record's count differs from the records");
            return getc(r->f) == EOF ? 0 : bad(r, "data after the end record");
        }
        if (kind == L1_TRACE_KERNEL_END) {
            in->kernels++;
            if (replay_kernel(r, bufs, in, g, per_sm)) return -1;
            continue;
        }
        if (kind > L1A_ATOMIC || sm >= in->nsms) return bad(r, "bad record (kind or SM)");
        if (get_varint(r, &uid) || get_varint(r, &dl) || get_varint(r, &dc)) return -1;
        prev_line[sm] += unzigzag(dl);
        if (prev_line[sm] >> 62) return bad(r, "line number out of range");
        if (l1_replay_push(&bufs[sm], L1_REPLAY_PACK(prev_line[sm], kind)))
            return bad(r, "out of host memory");
        in->records++;
    }
}

int l1_trace_replay_file(const char *path, uint32_t sets, uint32_t ways, l1_trace_info *info,
                         l1_trace_sm **per_sm, l1_trace_sm *total, char *err, size_t errlen)
{
    reader r = { .path = path, .err = err, .errlen = errlen };
    *info = (l1_trace_info){ 0 };
    *per_sm = NULL;
    *total = (l1_trace_sm){ 0 };
    if (!(r.f = fopen(path, "rb"))) {
        snprintf(err, errlen, "%s: cannot open: %s", path, strerror(errno));
        return -1;
    }
    int rc = read_header(&r, info);
    l1_replay_buf *bufs = NULL;
    uint64_t *prev = NULL;
    l1_trace_sm *sms = NULL;
    if (!rc && (!(bufs = calloc(info->nsms, sizeof *bufs))
                || !(prev = calloc(info->nsms, sizeof *prev))
                || !(sms = calloc(info->nsms, sizeof *sms))))
        rc = bad(&r, "out of host memory");
    l1_replay_geom g = { .sets = sets ? sets : info->sets, .ways = ways ? ways : info->ways,
                         .line_bytes = info->line_bytes, .set_index = info->set_index,
                         .write_back = info->flags & L1_TRACE_F_WRITE_BACK,
                         .write_evict = info->flags & L1_TRACE_F_WRITE_EVICT };
    if (!rc && g.set_index == 1 && g.sets != 32 && g.sets != 64) {
        snprintf(err, errlen, "%s: the trace's cache uses the fermi set index, which needs "
                 "32 or 64 sets (--sets %u)", path, g.sets);
        rc = -1;
    }
    if (!rc) rc = read_records(&r, info, &g, bufs, prev, sms);
    for (uint32_t i = 0; bufs && i < info->nsms; i++) {
        l1_replay_buf_free(&bufs[i]);
        if (rc) continue;
        l1_replay_counts *t[2] = { &total->r.lru, &total->r.belady };
        const l1_replay_counts *s[2] = { &sms[i].r.lru, &sms[i].r.belady };
        for (int k = 0; k < 2; k++) {
            t[k]->accesses += s[k]->accesses;
            t[k]->hits += s[k]->hits;
            t[k]->misses += s[k]->misses;
            t[k]->load_misses += s[k]->load_misses;
        }
        total->warp_insns += sms[i].warp_insns;
    }
    free(bufs);
    free(prev);
    fclose(r.f);
    if (rc) free(sms);
    else *per_sm = sms;
    return rc;
}
