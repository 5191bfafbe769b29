/*
** cmd_belady.c -- `warpsim belady FILE`: replay a recorded L1D access
** trace (--set l1d_trace=FILE; docs/l1-trace.md) with LRU and with
** Belady-optimal replacement and print hits, misses and MPKI per SM and
** in total (CCWS spec §2.9, the "-BEL" series of Fig. 10).  The replay
** code is the one the run's own l1d_belady uses (gpu/l1_trace.h).
*/
#include "cli.h"
#include "gpu/l1_trace.h"
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char belady_usage[] =
    "usage: warpsim belady FILE [--sets N] [--ways N] [--json]\n"
    "  Replay the L1D access trace FILE (recorded with --set l1d_trace=FILE) per SM\n"
    "  and kernel (the L1 is cold at every kernel start) with LRU and with\n"
    "  Belady-optimal replacement (the line whose next use is furthest away goes),\n"
    "  fills instant, nothing bypassed, stores as the recorded L1 (write-through\n"
    "  no-allocate, write-evict if set; or write-back write-allocate).  The\n"
    "  geometry is the trace's unless --sets/--ways override it.  Prints accesses,\n"
    "  hits, misses and MPKI (misses per 1000 warp instructions) per SM and in total.\n"
    "  Exit status: 0 done, 1 bad or unreadable trace, 2 usage error.\n";

static double mpki(uint64_t misses, uint64_t insns)
{
    return insns ? (double)misses * 1000.0 / (double)insns : 0.0;
}

static void text_row(const char *what, const l1_trace_sm *s)
{
    printf("%-6s %12" PRIu64 " %12" PRIu64 " %12" PRIu64 " %9.3f %12" PRIu64 " %12" PRIu64
           " %9.3f\n", what, s->r.lru.accesses, s->r.lru.hits, s->r.lru.misses,
           mpki(s->r.lru.misses, s->warp_insns), s->r.belady.hits, s->r.belady.misses,
           mpki(s->r.belady.misses, s->warp_insns));
}

static void json_obj(const l1_trace_sm *s, const char *indent)
{
    printf("%s\"warp_insns\": %" PRIu64 ", \"accesses\": %" PRIu64 ",\n", indent, s->warp_insns,
           s->r.lru.accesses);
    printf("%s\"lru_hits\": %" PRIu64 ", \"lru_misses\": %" PRIu64 ", \"lru_load_misses\": %"
           PRIu64 ", \"lru_mpki\": %.6f,\n", indent, s->r.lru.hits, s->r.lru.misses,
           s->r.lru.load_misses, mpki(s->r.lru.misses, s->warp_insns));
    printf("%s\"belady_hits\": %" PRIu64 ", \"belady_misses\": %" PRIu64
           ", \"belady_load_misses\": %" PRIu64 ", \"belady_mpki\": %.6f", indent,
           s->r.belady.hits, s->r.belady.misses, s->r.belady.load_misses,
           mpki(s->r.belady.misses, s->warp_insns));
}

static void print_json(const char *file, const l1_trace_info *in, uint32_t sets, uint32_t ways,
                       const l1_trace_sm *sms, const l1_trace_sm *tot)
{
    printf("{\n  \"trace\": \"");
    for (const char *p = file; *p; p++) {
        if (*p == '"' || *p == '\\') putchar('\\');
        if ((unsigned char)*p >= 0x20) putchar(*p);
    }
    printf("\",\n  \"line_bytes\": %u, \"sets\": %u, \"ways\": %u, \"sms\": %u, "
           "\"kernels\": %" PRIu64 ", \"records\": %" PRIu64 ",\n  \"total\": {\n",
           in->line_bytes, sets, ways, in->nsms, in->kernels, in->records);
    json_obj(tot, "    ");
    printf("\n  },\n  \"per_sm\": [");
    for (uint32_t i = 0; i < in->nsms; i++) {
        printf("%s\n    {\"sm\": %u,\n", i ? "," : "", i);
        json_obj(&sms[i], "     ");
        printf("}");
    }
    printf("\n  ]\n}\n");
}

static void print_text(const char *file, const l1_trace_info *in, uint32_t sets, uint32_t ways,
                       const l1_trace_sm *sms, const l1_trace_sm *tot)
{
    printf("L1D trace %s: %u SMs, %" PRIu64 " kernels, %" PRIu64 " records; replayed with %u "
           "sets x %u ways x %u B%s\n", file, in->nsms, in->kernels, in->records, sets, ways,
           in->line_bytes, (in->flags & L1_TRACE_F_WRITE_EVICT) ? ", write-evict" : "");
    printf("%-6s %12s %12s %12s %9s %12s %12s %9s\n", "SM", "accesses", "lru-hits",
           "lru-misses", "lru-mpki", "bel-hits", "bel-misses", "bel-mpki");
    char name[16];
    for (uint32_t i = 0; i < in->nsms; i++) {
        snprintf(name, sizeof name, "%u", i);
        text_row(name, &sms[i]);
    }
    text_row("total", tot);
}

int cli_cmd_belady(int argc, char **argv)
{
    static const cli_opt opts[] = {{"help", false}, {"sets", true}, {"ways", true},
                                   {"json", false}, {NULL, false}};
    cli_iter it;
    const char *name, *v, *file = NULL;
    uint64_t sets = 0, ways = 0;
    bool json = false;
    int r;
    cli_iter_init(&it, argc, argv, opts);
    while ((r = cli_iter_next(&it, &name, &v)) != CLI_ITER_END) {
        if (r == CLI_ITER_ERROR) return CLI_EXIT_USAGE;
        if (r == CLI_ITER_POSITIONAL) {
            if (file) { cli_error("belady", "one trace file, not '%s' too", v); return CLI_EXIT_USAGE; }
            file = v;
        } else if (strcmp(name, "help") == 0) {
            fputs(belady_usage, stdout);
            return CLI_EXIT_OK;
        } else if (strcmp(name, "json") == 0) {
            json = true;
        } else if (!cli_parse_u64(v, 1u << 24, strcmp(name, "sets") == 0 ? &sets : &ways)
                   || !(strcmp(name, "sets") == 0 ? sets : ways)) {
            cli_error("belady", "--%s: '%s' is not a number from 1 to 16777216", name, v);
            return CLI_EXIT_USAGE;
        }
    }
    if (!file) {
        cli_error("belady", "no trace file\n%s", belady_usage);
        return CLI_EXIT_USAGE;
    }
    l1_trace_info in;
    l1_trace_sm *sms, tot;
    char err[1400];
    if (l1_trace_replay_file(file, (uint32_t)sets, (uint32_t)ways, &in, &sms, &tot, err,
                             sizeof err)) {
        cli_error("belady", "%s", err);
        return CLI_EXIT_FAIL;
    }
    uint32_t s = sets ? (uint32_t)sets : in.sets, w = ways ? (uint32_t)ways : in.ways;
    if (json) print_json(file, &in, s, w, sms, &tot);
    else print_text(file, &in, s, w, sms, &tot);
    free(sms);
    return CLI_EXIT_OK;
}
