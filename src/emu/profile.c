/*
** profile.c -- the oracle profile: a functional pre-run of a launch on a
** private copy of device memory that records, per warp, its dynamic
** instruction count, memory instructions and per-barrier-interval counts.
** The DRAM scheduler REMINST reads it (remaining = total - retired); the
** oracle fetch policies (ALL, BAR, MEM_BAR) and the symmetric/asymmetric
** classification of the fetch-dram paper (spec §2.1, §2.4) will too.
*/
#include "emu.h"
#include <stdlib.h>
#include <string.h>

/* Intervals of one CTA's warps as they are found (warps interleave at
   barriers), flushed in warp order when the CTA is done. */
typedef struct ivl_buf {
    uint64_t *insns, *mem, *dev;
    uint32_t n, cap;
} ivl_buf;

/* A warp's counters where its current interval began, and its count of
   device-memory instructions (kept here: the emulator does not count them) */
typedef struct ivl_mark {
    uint64_t insns, mem, dev, dev_now;
} ivl_mark;

/* A load, store or atomic of device memory: global, local or generic
   (generic counts as device memory: where it points is known only at run
   time).  The fetch-dram spec's MEM_BAR and fetch stall count these. */
static bool prof_is_devmem(const ptx_uop *u)
{
    if (!u || ptx_opcode_class[u->op] != PTX_CLS_MEM) return false;
    if (u->op != PTX_OP_LD && u->op != PTX_OP_LDU && u->op != PTX_OP_ST && u->op != PTX_OP_ATOM
        && u->op != PTX_OP_RED)
        return false;
    return u->space == PTX_SPACE_GLOBAL || u->space == PTX_SPACE_LOCAL
        || u->space == PTX_SPACE_NONE;
}

typedef struct prof_build {
    emu_profile *p;
    uint32_t cap_ivl;
    ivl_buf *cur;               /* [warps_per_cta] */
} prof_build;

static int grow(uint64_t **a, uint32_t cap)
{
    uint64_t *x = realloc(*a, cap * sizeof *x);
    if (!x) return -1;
    *a = x;
    return 0;
}

static int ivl_push(ivl_buf *b, uint64_t insns, uint64_t mem, uint64_t dev)
{
    if (b->n == b->cap) {
        uint32_t cap = b->cap ? b->cap * 2 : 4;
        if (grow(&b->insns, cap) || grow(&b->mem, cap) || grow(&b->dev, cap)) return -1;
        b->cap = cap;
    }
    b->insns[b->n] = insns;
    b->mem[b->n] = mem;
    b->dev[b->n] = dev;
    b->n++;
    return 0;
}

/* Close warp `w`'s current interval at its counters now. */
static int close_interval(ivl_buf *b, const emu_warp *w, ivl_mark *k)
{
    uint64_t insns = w->warp_insns - k->insns, mem = w->class_insns[PTX_CLS_MEM] - k->mem;
    uint64_t dev = k->dev_now - k->dev;
    k->insns = w->warp_insns;
    k->mem = w->class_insns[PTX_CLS_MEM];
    k->dev = k->dev_now;
    return ivl_push(b, insns, mem, dev);
}

/* Append the CTA's intervals to the profile, warp by warp. */
static int flush_cta(prof_build *pb, const emu_cta *cta)
{
    emu_profile *p = pb->p;
    for (uint32_t i = 0; i < cta->nwarps; i++) {
        ivl_buf *b = &pb->cur[i];
        if (p->nivl + b->n > pb->cap_ivl) {
            uint32_t cap = pb->cap_ivl ? pb->cap_ivl : 64;
            while (cap < p->nivl + b->n) cap *= 2;
            if (grow(&p->ivl_insns, cap) || grow(&p->ivl_mem, cap) || grow(&p->ivl_dev, cap))
                return -1;
            pb->cap_ivl = cap;
        }
        uint64_t uid = (uint64_t)cta->linear * p->warps_per_cta + i;
        p->ivl_start[uid] = p->nivl;
        memcpy(p->ivl_insns + p->nivl, b->insns, b->n * sizeof *b->insns);
        memcpy(p->ivl_mem + p->nivl, b->mem, b->n * sizeof *b->mem);
        memcpy(p->ivl_dev + p->nivl, b->dev, b->n * sizeof *b->dev);
        p->nivl += b->n;
        p->ivl_start[uid + 1] = p->nivl;
        const emu_warp *w = &cta->warps[i];
        p->total[uid] = w->warp_insns;
        p->mem[uid] = w->class_insns[PTX_CLS_MEM];
        p->insns += w->warp_insns;
        if (w->warp_insns && (!p->min_total || w->warp_insns < p->min_total))
            p->min_total = w->warp_insns;
        if (w->warp_insns > p->max_total) p->max_total = w->warp_insns;
        b->n = 0;
    }
    return 0;
}

/* Run one initialised CTA to completion, CTA after CTA and each warp until
   it blocks, closing an interval whenever a warp starts waiting at a
   barrier and when it ends.  A warp spinning on another warp or CTA never
   blocks here: the launch's progress limit (and interrupt) is checked
   every EMU_QUANTUM steps, so such a pre-run fails (no profile) instead
   of hanging. */
static int run_cta(prof_build *pb, emu_cta *cta)
{
    uint32_t n = cta->nwarps;
    ivl_mark mark[n ? n : 1];
    memset(mark, 0, sizeof mark);
    for (;;) {
        bool all_done = true;
        for (uint32_t i = 0; i < n; i++) {
            emu_warp *w = &cta->warps[i];
            for (uint64_t k = 1; w->state == EMU_W_READY; k++) {
                mark[i].dev_now += prof_is_devmem(emu_warp_next(w));
                if (emu_warp_step(w, NULL)) return -1;
                if (k % EMU_QUANTUM == 0 && emu_check_progress(w->launch, cta, 1)) return -1;
                if (w->state == EMU_W_READY) continue;
                if (close_interval(&pb->cur[i], w, &mark[i])) return -2;
            }
            all_done &= w->state == EMU_W_DONE;
        }
        if (all_done) return 0;
        if (emu_cta_barrier_poll(cta) == 0) {
            emu_warp *w = NULL;
            for (uint32_t i = 0; i < n && !w; i++)
                if (cta->warps[i].state == EMU_W_BARRIER) w = &cta->warps[i];
            return w ? emu_fault_at(w, emu_warp_next(w), -1, EMU_FAULT_BARRIER,
                                    "deadlock: a barrier can never complete (oracle profile "
                                    "pre-run)") : -1;
        }
    }
}

static int alloc_profile(emu_profile *p, const emu_launch *l)
{
    uint64_t ctas = (uint64_t)l->grid[0] * l->grid[1] * l->grid[2];
    uint64_t threads = (uint64_t)l->block[0] * l->block[1] * l->block[2];
    uint64_t wpc = (threads + EMU_WARP_SIZE - 1) / EMU_WARP_SIZE;
    if (ctas * wpc >= UINT32_MAX) return -1;
    p->warps_per_cta = (uint32_t)wpc;
    p->nwarps = (uint32_t)(ctas * wpc);
    p->total = calloc(p->nwarps + 1, sizeof *p->total);
    p->mem = calloc(p->nwarps + 1, sizeof *p->mem);
    p->ivl_start = calloc(p->nwarps + 1, sizeof *p->ivl_start);
    return p->total && p->mem && p->ivl_start ? 0 : -1;
}

/* The pre-run over every CTA in linear order; 0, -1 (fault in pl), -2
   (host memory). */
static int run_grid(prof_build *pb, emu_launch *pl)
{
    uint64_t ctas = (uint64_t)pl->grid[0] * pl->grid[1] * pl->grid[2];
    for (uint64_t c = 0; c < ctas; c++) {
        emu_cta cta;
        if (emu_cta_init(&cta, pl, (uint32_t)c)) return -2;
        int rc = run_cta(pb, &cta);
        if (rc == 0 && flush_cta(pb, &cta)) rc = -2;
        emu_cta_release(&cta);
        if (rc) return rc;
    }
    return 0;
}

int emu_profile_build(const emu_launch *l, emu_profile *p, char *err, size_t errlen)
{
    memset(p, 0, sizeof *p);
    prof_build pb = { .p = p };
    emu_launch pl = *l;
    memset(&pl.fault, 0, sizeof pl.fault);
    emu_launch_zero_counts(&pl);
    pl.profile = NULL;
    pl.gmem = emu_mem_clone(l->gmem);
    pl.out = fopen("/dev/null", "w");   /* device printf happens in the real run */
    /* same semantics, but out-of-allocation sites are reported by the real run */
    pl.oob = l->oob ? emu_oob_new() : NULL;
    int rc = -2;
    if (pl.gmem && pl.out && (pl.oob || !l->oob) && alloc_profile(p, l) == 0) {
        pb.cur = calloc(p->warps_per_cta ? p->warps_per_cta : 1, sizeof *pb.cur);
        rc = pb.cur ? run_grid(&pb, &pl) : -2;
    }
    for (uint32_t i = 0; pb.cur && i < p->warps_per_cta; i++) {
        free(pb.cur[i].insns);
        free(pb.cur[i].mem);
        free(pb.cur[i].dev);
    }
    free(pb.cur);
    if (pl.out) fclose(pl.out);
    emu_mem_free(pl.gmem);
    emu_oob_free(pl.oob);
    if (rc == 0) return 0;
    if (rc == -1 && pl.fault.kind != EMU_OK)
        snprintf(err, errlen, "oracle profile pre-run: %s", pl.fault.msg);
    else
        snprintf(err, errlen, "oracle profile pre-run: out of host memory");
    emu_profile_free(p);
    return -1;
}

void emu_profile_free(emu_profile *p)
{
    if (!p) return;
    free(p->total);
    free(p->mem);
    free(p->ivl_start);
    free(p->ivl_insns);
    free(p->ivl_mem);
    free(p->ivl_dev);
    memset(p, 0, sizeof *p);
}

int64_t emu_profile_remaining(const emu_profile *p, uint64_t uid, uint64_t retired)
{
    if (!p || !p->total || uid >= p->nwarps) return -1;
    return p->total[uid] > retired ? (int64_t)(p->total[uid] - retired) : 0;
}

int emu_profile_interval(const emu_profile *p, uint64_t uid, uint64_t pos,
                         uint64_t *insns_left, uint64_t *mem_ivl)
{
    if (!p || !p->ivl_start || uid >= p->nwarps) return -1;
    uint64_t end = 0;
    for (uint32_t i = p->ivl_start[uid]; i < p->ivl_start[uid + 1]; i++) {
        end += p->ivl_insns[i];
        if (pos < end) {
            if (insns_left) *insns_left = end - pos;
            if (mem_ivl) *mem_ivl = p->ivl_mem[i];
            return 0;
        }
    }
    if (insns_left) *insns_left = 0;   /* past the end: the warp is done */
    if (mem_ivl) *mem_ivl = 0;
    return 0;
}

double emu_profile_asymmetry(const emu_profile *p)
{
    return p && p->min_total ? (double)p->max_total / (double)p->min_total : 1.0;
}
