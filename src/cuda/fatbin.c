/*
** fatbin.c -- reading the PTX out of an nvcc fatbinary at run time, with
** no NVIDIA tool: the wrapper handed to __cudaRegisterFatBinary points at
** one or more fatbin containers; each holds ELF (machine code) and PTX
** entries, stored plain, zstd-compressed (CUDA 13 default) or LZ4-block
** compressed (`--compress-mode=speed`, and older toolkits).
*/
#include "cuda_internal.h"
#include <stdlib.h>
#include <string.h>
#include <zstd.h>

/*
** Layout (little-endian), as observed on nvcc 13 output:
**
**   wrapper  { u32 magic 0x466243b1; u32 version; u64 *data; void *aux; }
**   container header (16 bytes)
**     +0  u32 magic 0xba55ed50   +4 u16 version   +6 u16 header_size
**     +8  u64 bytes of entries that follow the header
**   entry (header_size bytes, >= 64), followed by its payload
**     +0  u16 kind (1 PTX, 2 ELF)   +2 u16 version   +4 u32 header_size
**     +8  u64 payload bytes (padded)
**     +16 u32 compressed bytes (0 when stored plain)
**     +24 u16 PTX minor  +26 u16 PTX major   +28 u32 sm architecture (e.g. 75)
**     +40 u64 flags: 0x8000 zstd, 0x2000 LZ4 block
**     +56 u64 uncompressed bytes (when compressed)
*/
#define FATBINC_MAGIC      0x466243b1u
#define FATBIN_MAGIC       0xba55ed50u
#define FATBIN_KIND_PTX    1
#define FATBIN_KIND_ELF    2
#define FATBIN_FLAG_LZ4    0x2000ull
#define FATBIN_FLAG_ZSTD   0x8000ull
#define FATBIN_MIN_ENTRY   64
#define FATBIN_MAX_PTX     (512ull << 20)   /* refuse absurd sizes */

typedef struct fb_entry {
    const uint8_t *payload;
    uint64_t padded, compressed, uncompressed, flags;
    uint32_t kind, arch, ptx_major, ptx_minor;
} fb_entry;

static uint16_t rd16(const uint8_t *p) { uint16_t v; memcpy(&v, p, 2); return v; }
static uint32_t rd32(const uint8_t *p) { uint32_t v; memcpy(&v, p, 4); return v; }
static uint64_t rd64(const uint8_t *p) { uint64_t v; memcpy(&v, p, 8); return v; }

static void fb_read_entry(const uint8_t *e, fb_entry *out)
{
    uint32_t hs = rd32(e + 4);
    out->kind = rd16(e);
    out->padded = rd64(e + 8);
    out->compressed = rd32(e + 16);
    out->ptx_minor = rd16(e + 24);
    out->ptx_major = rd16(e + 26);
    out->arch = rd32(e + 28);
    out->flags = rd64(e + 40);
    out->uncompressed = rd64(e + 56);
    out->payload = e + hs;
}

/*
** Decode one PTX entry into a NUL-terminated string.  PTX stored plain
** may carry trailing NULs up to the padded size.
*/
static char *fb_decode(const fb_entry *en, char *err, size_t errlen)
{
    if (en->flags & (FATBIN_FLAG_ZSTD | FATBIN_FLAG_LZ4)) {
        uint64_t n = en->uncompressed;
        if (n == 0 || n > FATBIN_MAX_PTX || en->compressed > en->padded) {
            snprintf(err, errlen, "fatbinary PTX entry (sm_%u) has bad sizes "
                     "(compressed %llu, uncompressed %llu)", en->arch,
                     (unsigned long long)en->compressed, (unsigned long long)n);
            return NULL;
        }
        char *out = malloc(n + 1);
        if (!out) { snprintf(err, errlen, "out of host memory"); return NULL; }
        long got;
        if (en->flags & FATBIN_FLAG_ZSTD) {
            size_t r = ZSTD_decompress(out, n, en->payload, en->compressed);
            got = ZSTD_isError(r) ? -1 : (long)r;
            if (got < 0)
                snprintf(err, errlen, "cannot decompress the zstd-compressed PTX entry "
                         "(sm_%u, flag 0x8000): %s", en->arch, ZSTD_getErrorName(r));
        } else {
            got = wsc_lz4_decompress(en->payload, en->compressed, (uint8_t *)out, n);
            if (got < 0)
                snprintf(err, errlen, "cannot decompress the LZ4-compressed PTX entry "
                         "(sm_%u, flag 0x2000): malformed data", en->arch);
        }
        if (got < 0) { free(out); return NULL; }
        out[got] = '\0';
        return out;
    }
    if (en->padded > FATBIN_MAX_PTX) {
        snprintf(err, errlen, "fatbinary PTX entry (sm_%u) is too large", en->arch);
        return NULL;
    }
    char *out = malloc(en->padded + 1);
    if (!out) { snprintf(err, errlen, "out of host memory"); return NULL; }
    memcpy(out, en->payload, en->padded);
    out[en->padded] = '\0';
    return out;
}

/* Architectures of the entries of `kind`, for messages ("sm_75 sm_86"). */
static void fb_list(const fb_entry *es, int n, uint32_t kind, char *buf, size_t len)
{
    size_t used = 0;
    buf[0] = '\0';
    for (int i = 0; i < n && used + 12 < len; i++)
        if (es[i].kind == kind)
            used += (size_t)snprintf(buf + used, len - used, "%ssm_%u", used ? " " : "",
                                     es[i].arch);
}

#define FB_MAX_ENTRIES 256

/* Walk the containers starting at `data`; collect up to FB_MAX_ENTRIES. */
static int fb_collect(const uint8_t *data, fb_entry *es, char *err, size_t errlen)
{
    int n = 0;
    const uint8_t *c = data;
    if (rd32(c) != FATBIN_MAGIC) {
        snprintf(err, errlen, "no fatbinary at %p (magic 0x%08x, expected 0x%08x)",
                 (const void *)c, rd32(c), FATBIN_MAGIC);
        return -1;
    }
    /* a wrapper names one container; nvcc may place others right after
       it (device-link output) but they belong to other wrappers */
    uint16_t hs = rd16(c + 6);
    uint64_t size = rd64(c + 8);
    const uint8_t *e = c + hs, *end = c + hs + size;
    while (e + FATBIN_MIN_ENTRY <= end && n < FB_MAX_ENTRIES) {
        uint32_t ehs = rd32(e + 4);
        if (ehs < FATBIN_MIN_ENTRY) break;
        fb_read_entry(e, &es[n]);
        if (es[n].payload + es[n].padded > end) {
            snprintf(err, errlen, "fatbinary entry %d runs past its container", n);
            return -1;
        }
        e = es[n].payload + es[n].padded;
        n++;
    }
    return n;
}

int wsc_fatbin_extract_ptx(const void *wrapper, int cc_major, int cc_minor,
                           char **ptx, int *arch, char *err, size_t errlen)
{
    *ptx = NULL;
    if (!wrapper) { snprintf(err, errlen, "the fatbinary pointer is NULL"); return -1; }
    const uint8_t *w = wrapper, *data = w;
    if (rd32(w) == FATBINC_MAGIC) {
        const void *d;
        memcpy(&d, w + 8, sizeof d);
        data = d;
        if (!data) { snprintf(err, errlen, "the fatbinary wrapper has no data"); return -1; }
    }
    fb_entry *es = malloc(FB_MAX_ENTRIES * sizeof *es);
    if (!es) { snprintf(err, errlen, "out of host memory"); return -1; }
    int n = fb_collect(data, es, err, errlen);
    if (n < 0) { free(es); return -1; }
    uint32_t want = (uint32_t)(cc_major * 10 + cc_minor);
    int best = -1;
    for (int i = 0; i < n; i++)
        if (es[i].kind == FATBIN_KIND_PTX && es[i].arch <= want &&
            (best < 0 || es[i].arch > es[best].arch))
            best = i;
    if (best < 0) {
        char ptxs[256], elfs[256];
        fb_list(es, n, FATBIN_KIND_PTX, ptxs, sizeof ptxs);
        fb_list(es, n, FATBIN_KIND_ELF, elfs, sizeof elfs);
        if (ptxs[0])
            snprintf(err, errlen, "the fatbinary's PTX is for %s, newer than the simulated "
                     "GPU (sm_%u); simulate a newer GPU (warpsim exec --arch sm_XX) or "
                     "rebuild with -gencode arch=compute_%u,code=compute_%u",
                     ptxs, want, want, want);
        else
            snprintf(err, errlen, "the fatbinary has no PTX (machine code only: %s); the "
                     "simulator runs PTX, so rebuild with -gencode arch=compute_XX,"
                     "code=compute_XX (e.g. arch=compute_75,code=compute_75)",
                     elfs[0] ? elfs : "no entries");
        free(es);
        return -1;
    }
    *arch = (int)es[best].arch;
    *ptx = fb_decode(&es[best], err, errlen);
    free(es);
    return *ptx ? 0 : -1;
}

/* ------------------------------------------------------------------ */
/* LZ4 block format                                                    */
/* ------------------------------------------------------------------ */

/*
** A block is a series of sequences: a token byte (high nibble literal
** length, low nibble match length - 4; 15 means "more length bytes
** follow, each added, until one is < 255"), the literals, then a 16-bit
** little-endian back-reference offset and the match.  The last sequence
** has literals only.
*/
static int lz4_len(const uint8_t **p, const uint8_t *end, uint64_t *len)
{
    uint8_t b;
    do {
        if (*p >= end) return -1;
        b = *(*p)++;
        *len += b;
    } while (b == 255);
    return 0;
}

long wsc_lz4_decompress(const uint8_t *src, size_t srclen, uint8_t *dst, size_t dstcap)
{
    const uint8_t *p = src, *end = src + srclen;
    size_t o = 0;
    while (p < end) {
        uint8_t token = *p++;
        uint64_t lit = token >> 4;
        if (lit == 15 && lz4_len(&p, end, &lit)) return -1;
        if (lit > (uint64_t)(end - p) || lit > dstcap - o) return -1;
        memcpy(dst + o, p, lit);
        p += lit;
        o += lit;
        if (p == end) break;                 /* last sequence: literals only */
        if (end - p < 2) return -1;
        size_t off = (size_t)p[0] | ((size_t)p[1] << 8);
        p += 2;
        uint64_t mlen = (token & 15u);
        if (mlen == 15 && lz4_len(&p, end, &mlen)) return -1;
        mlen += 4;
        if (off == 0 || off > o || mlen > dstcap - o) return -1;
        for (uint64_t i = 0; i < mlen; i++, o++)   /* may overlap: byte by byte */
            dst[o] = dst[o - off];
    }
    return (long)o;
}
