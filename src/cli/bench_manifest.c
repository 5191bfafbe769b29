/*
** bench_manifest.c -- reading bench/manifest.json (the list of bundled
** benchmark programs) and the statistics JSON that `warpsim exec
** --stats-json` writes, both with libjansson.  Every malformed field is
** reported with the file and the benchmark it belongs to.
*/
#include "cli.h"
#include "cli_bench.h"
#include <jansson.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef WS_SOURCE_DIR
#define WS_SOURCE_DIR "."
#endif

const char *const bench_size_names[BENCH_NSIZES] = { "tiny", "small", "default" };

int bench_size_index(const char *name)
{
    for (int i = 0; i < BENCH_NSIZES; i++)
        if (strcmp(name, bench_size_names[i]) == 0) return i;
    return -1;
}

bool bench_has_class(const bench_entry *e, const char *tag)
{
    for (int i = 0; i < e->nclasses; i++)
        if (strcmp(e->classes[i], tag) == 0) return true;
    return false;
}

/* Copy an array of strings into out[cap]; -1 when not such an array. */
static int string_array(json_t *a, const char **out, int cap)
{
    if (!json_is_array(a) || json_array_size(a) == 0 || json_array_size(a) > (size_t)cap)
        return -1;
    for (size_t i = 0; i < json_array_size(a); i++) {
        out[i] = json_string_value(json_array_get(a, i));
        if (!out[i]) return -1;
    }
    return (int)json_array_size(a);
}

/* Fill e from object o; on error return the name of the bad field. */
static const char *entry_parse(json_t *o, bench_entry *e)
{
    memset(e, 0, sizeof *e);
    if (!json_is_object(o)) return "(entry is not an object)";
    if (!(e->name = json_string_value(json_object_get(o, "name")))) return "name";
    if (!(e->source = json_string_value(json_object_get(o, "source")))) return "source";
    e->stands_in_for = json_string_value(json_object_get(o, "stands_in_for"));
    if (!e->stands_in_for) return "stands_in_for";
    e->notes = json_string_value(json_object_get(o, "notes"));
    if (!e->notes) e->notes = "";
    e->nkernels = string_array(json_object_get(o, "kernels"), e->kernels, BENCH_MAX_KERNELS);
    if (e->nkernels < 0) return "kernels";
    e->nclasses = string_array(json_object_get(o, "classes"), e->classes, BENCH_MAX_CLASSES);
    if (e->nclasses < 0) return "classes";
    json_t *cmds = json_object_get(o, "commands");
    for (int s = 0; s < BENCH_NSIZES; s++) {
        e->commands[s] = json_string_value(json_object_get(cmds, bench_size_names[s]));
        if (!e->commands[s] || strncmp(e->commands[s], "{bin}", 5) != 0)
            return "commands (tiny, small, default: \"{bin} ARGS\")";
    }
    return NULL;
}

/* Where the manifest is: --bench-dir, else the source tree this binary
   was built from. Paths in it are relative to the folder above bench/. */
static int manifest_paths(bench_manifest *m, const char *bench_dir, const char *cmd)
{
    char dir[PATH_MAX];
    if (!bench_dir) bench_dir = WS_SOURCE_DIR "/bench";
    if (!realpath(bench_dir, dir)) {
        cli_error(cmd, "benchmark folder '%s' not found (use --bench-dir DIR, the folder "
                  "holding manifest.json)", bench_dir);
        return -1;
    }
    if (snprintf(m->path, sizeof m->path, "%s/manifest.json", dir) >= (int)sizeof m->path)
        return -1;
    char *slash = strrchr(dir, '/');
    if (slash && slash != dir) *slash = '\0';
    else strcpy(dir, "/");
    snprintf(m->root, sizeof m->root, "%s", dir);
    return 0;
}

int bench_manifest_load(bench_manifest *m, const char *bench_dir, const char *cmd)
{
    memset(m, 0, sizeof *m);
    if (manifest_paths(m, bench_dir, cmd)) return -1;
    json_error_t err;
    json_t *root = json_load_file(m->path, 0, &err);
    if (!root) {
        cli_error(cmd, "%s:%d:%d: %s", m->path, err.line, err.column, err.text);
        return -1;
    }
    m->json = root;
    json_t *list = json_object_get(root, "benchmarks");
    m->build = json_string_value(json_object_get(root, "build"));
    if (!m->build || !json_is_array(list)) {
        cli_error(cmd, "%s: needs a \"build\" string and a \"benchmarks\" array", m->path);
        bench_manifest_free(m);
        return -1;
    }
    m->n = (int)json_array_size(list);
    m->entries = calloc(m->n ? (size_t)m->n : 1, sizeof *m->entries);
    if (!m->entries) { bench_manifest_free(m); return -1; }
    for (int i = 0; i < m->n; i++) {
        const char *bad = entry_parse(json_array_get(list, (size_t)i), &m->entries[i]);
        if (bad) {
            cli_error(cmd, "%s: benchmark %d (%s): missing or malformed \"%s\"", m->path,
                      i + 1, m->entries[i].name ? m->entries[i].name : "no name", bad);
            bench_manifest_free(m);
            return -1;
        }
    }
    return 0;
}

void bench_manifest_free(bench_manifest *m)
{
    json_decref(m->json);
    free(m->entries);
    memset(m, 0, sizeof *m);
}

const bench_entry *bench_find(const bench_manifest *m, const char *name, const char *cmd)
{
    for (int i = 0; i < m->n; i++)
        if (strcmp(m->entries[i].name, name) == 0) return &m->entries[i];
    cli_error(cmd, "unknown benchmark '%s'", name);
    fprintf(stderr, "valid benchmarks:");
    for (int i = 0; i < m->n; i++) fprintf(stderr, " %s", m->entries[i].name);
    fputc('\n', stderr);
    return NULL;
}

/* ------------------------------------------------------------------ */
/* Statistics JSON                                                     */
/* ------------------------------------------------------------------ */

static uint64_t get_u64(json_t *o, const char *key)
{
    json_int_t v = json_integer_value(json_object_get(o, key));
    return v > 0 ? (uint64_t)v : 0;
}

/* The counters of one "kernels" element or of "total". */
static void kstats_parse(json_t *o, bench_kstats *k)
{
    memset(k, 0, sizeof *k);
    const char *name = json_string_value(json_object_get(o, "demangled"));
    if (!name) name = json_string_value(json_object_get(o, "name"));
    if (name) {
        size_t len = strcspn(name, "(");   /* drop the parameter list */
        if (len >= sizeof k->name) len = sizeof k->name - 1;
        memcpy(k->name, name, len);
        k->name[len] = '\0';
    }
    k->launches = get_u64(o, "launches");
    k->warps = get_u64(o, "warps");
    k->warp_insns = get_u64(o, "warp_insns");
    k->thread_insns = get_u64(o, "thread_insns");
    k->mem_insns = get_u64(o, "mem_insns");
    k->bar_insns = get_u64(o, "bar_insns");
    k->warp_insns_min = get_u64(o, "warp_insns_min");
    k->warp_insns_max = get_u64(o, "warp_insns_max");
    k->warp_insns_sq = json_number_value(json_object_get(o, "warp_insns_sq"));
}

int bench_stats_read(const char *path, bench_stats *s, const char *cmd)
{
    memset(s, 0, sizeof *s);
    json_error_t err;
    json_t *root = json_load_file(path, 0, &err);
    if (!root) {
        cli_error(cmd, "statistics %s:%d: %s", path, err.line, err.text);
        return -1;
    }
    json_t *ks = json_object_get(root, "kernels"), *total = json_object_get(root, "total");
    if (!json_is_array(ks) || !json_is_object(total)) {
        cli_error(cmd, "statistics %s: no \"kernels\" / \"total\"", path);
        json_decref(root);
        return -1;
    }
    kstats_parse(total, &s->total);
    snprintf(s->total.name, sizeof s->total.name, "(all)");
    s->nkernels = (int)json_array_size(ks);
    s->kernels = calloc(s->nkernels ? (size_t)s->nkernels : 1, sizeof *s->kernels);
    if (!s->kernels) { json_decref(root); return -1; }
    for (int i = 0; i < s->nkernels; i++)
        kstats_parse(json_array_get(ks, (size_t)i), &s->kernels[i]);
    json_decref(root);
    return 0;
}

void bench_stats_free(bench_stats *s)
{
    free(s->kernels);
    memset(s, 0, sizeof *s);
}
