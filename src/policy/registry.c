/*
** registry.c -- the one list of every scheduling policy, by kind, with
** exact-name lookup, plug-in tables added at run time, the one parser of
** "k=v,k=v" parameters, resolution of the configured policies into
** ws_resolved_policies, and the `warpsim policies` listing.
** Adding a built-in policy = its file + one line in the tables below.
*/
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "policy/policy.h"
#include "policy/plugin.h"

/* the ops tables, one per policy file */
extern const ws_warp_sched_ops ws_warp_sched_lrr;
extern const ws_warp_sched_ops ws_warp_sched_gto;
extern const ws_warp_sched_ops ws_warp_sched_oldest;
extern const ws_warp_sched_ops ws_warp_sched_fifo;
extern const ws_warp_sched_ops ws_warp_sched_two_level;
extern const ws_warp_sched_ops ws_warp_sched_swl;
extern const ws_warp_sched_ops ws_warp_sched_ccws;
extern const ws_warp_sched_ops ws_warp_sched_owl_cta;
extern const ws_warp_sched_ops ws_warp_sched_owl_locality;
extern const ws_warp_sched_ops ws_warp_sched_owl_blp;
extern const ws_warp_sched_ops ws_warp_sched_mascar;
extern const ws_warp_sched_ops ws_warp_sched_haws;
extern const ws_warp_sched_ops ws_warp_sched_hals;
extern const ws_fetch_ops ws_fetch_rr;
extern const ws_fetch_ops ws_fetch_icount;
extern const ws_fetch_ops ws_fetch_lrf;
extern const ws_fetch_ops ws_fetch_fair;
extern const ws_fetch_ops ws_fetch_all;
extern const ws_fetch_ops ws_fetch_bar;
extern const ws_fetch_ops ws_fetch_mem_bar;
extern const ws_cta_map_ops ws_cta_map_rr;
extern const ws_cta_map_ops ws_cta_map_hals;
extern const ws_dram_sched_ops ws_dram_sched_fcfs;
extern const ws_dram_sched_ops ws_dram_sched_frfcfs;
extern const ws_dram_sched_ops ws_dram_sched_frfair;
extern const ws_dram_sched_ops ws_dram_sched_reminst;
extern const ws_dram_prefetch_ops ws_dram_pf_owl;

static const ws_warp_sched_ops *const builtin_warp[] = {
    &ws_warp_sched_lrr, &ws_warp_sched_gto, &ws_warp_sched_oldest, &ws_warp_sched_fifo,
    &ws_warp_sched_two_level, &ws_warp_sched_swl, &ws_warp_sched_ccws,
    &ws_warp_sched_owl_cta, &ws_warp_sched_owl_locality, &ws_warp_sched_owl_blp,
    &ws_warp_sched_mascar, &ws_warp_sched_haws,
    &ws_warp_sched_hals, NULL
};
static const ws_fetch_ops *const builtin_fetch[] = {
    &ws_fetch_rr, &ws_fetch_icount, &ws_fetch_lrf, &ws_fetch_fair, &ws_fetch_all,
    &ws_fetch_bar, &ws_fetch_mem_bar, NULL
};
static const ws_cta_map_ops *const builtin_cta_map[] = { &ws_cta_map_rr, &ws_cta_map_hals,
                                                          NULL };
static const ws_dram_sched_ops *const builtin_dram[] = {
    &ws_dram_sched_frfcfs, &ws_dram_sched_fcfs, &ws_dram_sched_frfair,
    &ws_dram_sched_reminst, NULL
};
static const ws_dram_prefetch_ops *const builtin_dram_prefetch[] = { &ws_dram_pf_owl, NULL };

/* What every kind has in common, and how to read it from an ops table. */
typedef struct ops_head {
    const char *name, *summary;
    const ws_param_desc *params;
    uint32_t needs;
} ops_head;

#define HEAD_OF(o) ((ops_head){ (o)->name, (o)->summary, (o)->params, (o)->needs })

static ops_head head_of(int kind, const void *ops)
{
    switch (kind) {
    case WS_KIND_WARP:          return HEAD_OF((const ws_warp_sched_ops *)ops);
    case WS_KIND_FETCH:         return HEAD_OF((const ws_fetch_ops *)ops);
    case WS_KIND_CTA_MAP:       return HEAD_OF((const ws_cta_map_ops *)ops);
    case WS_KIND_DRAM:          return HEAD_OF((const ws_dram_sched_ops *)ops);
    default:                    return HEAD_OF((const ws_dram_prefetch_ops *)ops);
    }
}

static const void *builtin_at(int kind, size_t i)
{
    switch (kind) {
    case WS_KIND_WARP:          return builtin_warp[i];
    case WS_KIND_FETCH:         return builtin_fetch[i];
    case WS_KIND_CTA_MAP:       return builtin_cta_map[i];
    case WS_KIND_DRAM:          return builtin_dram[i];
    default:                    return builtin_dram_prefetch[i];
    }
}

static const struct {
    const char *key, *title;
    bool optional;            /* "none" is a valid name: no policy of this kind */
} kinds[WS_KIND_COUNT] = {
    { "warp_scheduler", "warp schedulers", false },
    { "fetch_policy",   "fetch policies", false },
    { "cta_map",        "CTA placement (CTA -> SM)", false },
    { "dram_scheduler", "DRAM schedulers (one instance per channel)", false },
    { "dram_prefetch",  "DRAM prefetchers (memory side, one per channel)", true },
};

const char *ws_kind_key(int kind)
{
    return kind >= 0 && kind < WS_KIND_COUNT ? kinds[kind].key : "?";
}

/* ------------------------------------------------------------------ */
/* Small bounded string building (never overflows, always terminated)  */
/* ------------------------------------------------------------------ */

static void buf_addf(char *buf, size_t len, const char *fmt, ...)
{
    if (!buf || len == 0)
        return;
    size_t used = strnlen(buf, len - 1);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf + used, len - used, fmt, ap);
    va_end(ap);
}

/* ------------------------------------------------------------------ */
/* The registry object: built-ins + plug-in tables                     */
/* ------------------------------------------------------------------ */

typedef struct reg_entry {
    const void *ops;
    const char *plugin;       /* plug-in name, NULL for built-ins */
} reg_entry;

struct ws_registry {
    reg_entry *e[WS_KIND_COUNT];
    uint32_t   n[WS_KIND_COUNT], cap[WS_KIND_COUNT];
    void     **handles;       /* dlopen handles, closed by ws_registry_free */
    uint32_t   nhandles;
};

static int reg_push(ws_registry *r, int kind, const void *ops, const char *plugin)
{
    if (r->n[kind] == r->cap[kind]) {
        uint32_t cap = r->cap[kind] ? 2 * r->cap[kind] : 8;
        reg_entry *e = realloc(r->e[kind], cap * sizeof *e);
        if (!e) return -1;
        r->e[kind] = e;
        r->cap[kind] = cap;
    }
    r->e[kind][r->n[kind]++] = (reg_entry){ ops, plugin };
    return 0;
}

ws_registry *ws_registry_new(void)
{
    ws_registry *r = calloc(1, sizeof *r);
    if (!r) return NULL;
    for (int k = 0; k < WS_KIND_COUNT; k++)
        for (size_t i = 0; builtin_at(k, i); i++)
            if (reg_push(r, k, builtin_at(k, i), NULL)) {
                ws_registry_free(r);
                return NULL;
            }
    return r;
}

void ws_registry_free(ws_registry *r)
{
    if (!r) return;
    for (int k = 0; k < WS_KIND_COUNT; k++) free(r->e[k]);
    ws_plugin_close_all(r->handles, r->nhandles);
    free(r->handles);
    free(r);
}

int ws_registry_add_handle(ws_registry *r, void *handle)
{
    void **h = realloc(r->handles, (r->nhandles + 1) * sizeof *h);
    if (!h) return -1;
    r->handles = h;
    r->handles[r->nhandles++] = handle;
    return 0;
}

/* The i-th policy of `kind` (NULL past the end); r NULL = built-ins. */
static const void *reg_at(const ws_registry *r, int kind, size_t i, const char **plugin)
{
    if (plugin) *plugin = NULL;
    if (!r) return builtin_at(kind, i);
    if (i >= r->n[kind]) return NULL;
    if (plugin) *plugin = r->e[kind][i].plugin;
    return r->e[kind][i].ops;
}

const void *ws_registry_nth(const ws_registry *r, int kind, size_t i)
{
    return kind >= 0 && kind < WS_KIND_COUNT ? reg_at(r, kind, i, NULL) : NULL;
}

/* Exact names only: a prefix or a near miss ("gtoo") is unknown, so a
   typo is reported instead of silently picking some other policy. */
const void *ws_registry_find(const ws_registry *r, int kind, const char *name)
{
    if (kind < 0 || kind >= WS_KIND_COUNT || !name) return NULL;
    const void *ops;
    for (size_t i = 0; (ops = reg_at(r, kind, i, NULL)) != NULL; i++)
        if (strcmp(head_of(kind, ops).name, name) == 0) return ops;
    return NULL;
}


/* The statistics hold WS_MAX_COUNTERS policy counters with names of
   fewer than WS_COUNTER_NAME characters. */
static bool counters_ok(const void *ops)
{
    const ws_warp_sched_ops *w = ops;
    for (size_t i = 0; w->counter_names && w->counter_names[i]; i++)
        if (i >= WS_MAX_COUNTERS || strlen(w->counter_names[i]) >= WS_COUNTER_NAME) return false;
    return true;
}

/* A plug-in's tables: every name must be new in its kind (a plug-in may
   not replace a built-in policy silently). Checked before anything is
   added, so a refused plug-in leaves the registry as it was. */
int ws_registry_add(ws_registry *r, const ws_plugin *p, char *err, size_t errlen)
{
    if (err && errlen) err[0] = '\0';
    const char *pname = p && p->name ? p->name : "plug-in";
    if (!p || p->abi_version != WS_POLICY_ABI_VERSION) {
        buf_addf(err, errlen, "%s was built against policy ABI %u; this warpsim has ABI %u",
                 pname, p ? p->abi_version : 0, (unsigned)WS_POLICY_ABI_VERSION);
        return -1;
    }
    const void *const *lists[WS_KIND_COUNT] = {
        (const void *const *)p->warp, (const void *const *)p->fetch,
        (const void *const *)p->cta_map, (const void *const *)p->dram,
        (const void *const *)p->dram_prefetch };
    for (int k = 0; k < WS_KIND_COUNT; k++)
        for (size_t i = 0; lists[k] && lists[k][i]; i++) {
            ops_head h = head_of(k, lists[k][i]);
            if (!h.name || !*h.name) {
                buf_addf(err, errlen, "%s: a %s policy has no name", pname, kinds[k].key);
                return -1;
            }
            if (k == WS_KIND_WARP && !counters_ok(lists[k][i])) {
                buf_addf(err, errlen, "%s: warp scheduler '%s' declares more than %d counters "
                         "or a counter name of %d characters or more", pname, h.name,
                         WS_MAX_COUNTERS, WS_COUNTER_NAME);
                return -1;
            }
            bool dup = ws_registry_find(r, k, h.name) != NULL;
            for (size_t j = 0; j < i && !dup; j++)
                dup = strcmp(head_of(k, lists[k][j]).name, h.name) == 0;
            if (dup || (kinds[k].optional && strcmp(h.name, "none") == 0)) {
                buf_addf(err, errlen, "%s: %s policy '%s' is already registered", pname,
                         kinds[k].key, h.name);
                return -1;
            }
        }
    for (int k = 0; k < WS_KIND_COUNT; k++)
        for (size_t i = 0; lists[k] && lists[k][i]; i++)
            if (reg_push(r, k, lists[k][i], pname)) {
                buf_addf(err, errlen, "out of host memory");
                return -1;
            }
    return 0;
}

void ws_registry_names(const ws_registry *r, int kind, char *buf, size_t len)
{
    if (!buf || len == 0) return;
    buf[0] = '\0';
    if (kind < 0 || kind >= WS_KIND_COUNT) return;
    const void *ops;
    size_t i = 0;
    if (kinds[kind].optional) buf_addf(buf, len, "none");
    for (; (ops = reg_at(r, kind, i, NULL)) != NULL; i++)
        buf_addf(buf, len, "%s%s", i || kinds[kind].optional ? ", " : "", head_of(kind, ops).name);
}

/* ------------------------------------------------------------------ */
/* Parameters                                                          */
/* ------------------------------------------------------------------ */

static uint32_t param_count(const ws_param_desc *params)
{
    uint32_t n = 0;
    while (params && params[n].name)
        n++;
    return n;
}

static void list_keys(const ws_param_desc *params, char *err, size_t errlen)
{
    uint32_t n = param_count(params);
    if (n == 0) {
        buf_addf(err, errlen, "it takes no parameters");
        return;
    }
    buf_addf(err, errlen, "valid: ");
    for (uint32_t i = 0; i < n; i++)
        buf_addf(err, errlen, "%s%s", i ? ", " : "", params[i].name);
}

/* A whole decimal integer, optionally signed, nothing else. */
static bool parse_int64(const char *s, int64_t *out)
{
    if (!s || !*s)
        return false;
    char *end;
    errno = 0;
    long long x = strtoll(s, &end, 10);
    if (errno || end == s || *end)
        return false;
    *out = x;
    return true;
}

/*
** Start from every parameter's default and apply the "keys[i]=vals[i]"
** overrides.  Rejects an unknown key (listing the valid ones), a key given
** twice, and a value that is not an integer or lies outside [min, max]:
** a policy never sees a clamped or guessed value.
*/
int ws_params_resolve(const char *policy, const ws_param_desc *params,
                      uint32_t nkv, const char *const *keys, const char *const *vals,
                      ws_param_values *out, char *err, size_t errlen)
{
    const char *pname = policy ? policy : "?";
    uint32_t n = param_count(params);
    bool seen[WS_MAX_PARAMS] = { false };

    if (err && errlen)
        err[0] = '\0';
    if (n > sizeof out->v / sizeof out->v[0]) {
        buf_addf(err, errlen, "policy '%s' declares %u parameters, at most %zu are supported",
                 pname, n, sizeof out->v / sizeof out->v[0]);
        return -1;
    }
    out->n = n;
    for (uint32_t i = 0; i < n; i++)
        out->v[i] = params[i].def;

    for (uint32_t k = 0; k < nkv; k++) {
        const char *key = keys[k] ? keys[k] : "";
        const char *val = vals[k] ? vals[k] : "";
        uint32_t i = 0;
        while (i < n && strcmp(params[i].name, key) != 0)
            i++;
        if (i == n) {
            buf_addf(err, errlen, "policy '%s': unknown parameter '%s' (", pname, key);
            list_keys(params, err, errlen);
            buf_addf(err, errlen, ")");
            return -1;
        }
        if (seen[i]) {
            buf_addf(err, errlen, "policy '%s': parameter '%s' is given twice", pname, key);
            return -1;
        }
        seen[i] = true;
        const ws_param_desc *d = &params[i];
        int64_t x;
        if (!parse_int64(val, &x)) {
            buf_addf(err, errlen, "policy '%s': %s='%s' is not an integer (range [%" PRId64
                     ", %" PRId64 "] %s)", pname, key, val, d->min, d->max, d->unit ? d->unit : "");
            return -1;
        }
        if (x < d->min || x > d->max) {
            buf_addf(err, errlen, "policy '%s': %s=%" PRId64 " is out of range [%" PRId64
                     ", %" PRId64 "] %s", pname, key, x, d->min, d->max, d->unit ? d->unit : "");
            return -1;
        }
        out->v[i] = x;
    }
    return 0;
}

static char *trim(char *s)
{
    while (*s == ' ' || *s == '\t')
        s++;
    char *e = s + strlen(s);
    while (e > s && (e[-1] == ' ' || e[-1] == '\t'))
        *--e = '\0';
    return s;
}

/* Split "k=v,k=v" in a local copy (no allocation) and resolve it. */
int ws_params_parse(const char *policy, const ws_param_desc *params, const char *text,
                    ws_param_values *out, char *err, size_t errlen)
{
    enum { MAX_KV = 32 };
    char copy[1024];
    const char *keys[MAX_KV], *vals[MAX_KV];
    uint32_t nkv = 0;
    const char *pname = policy ? policy : "?";

    if (err && errlen)
        err[0] = '\0';
    if (!text)
        text = "";
    if (strlen(text) >= sizeof copy) {
        buf_addf(err, errlen, "policy '%s': parameter text is longer than %zu characters",
                 pname, sizeof copy - 1);
        return -1;
    }
    strcpy(copy, text);
    char *rest = copy;
    while (rest) {
        char *item = rest;
        char *comma = strchr(item, ',');
        rest = comma ? comma + 1 : NULL;
        if (comma)
            *comma = '\0';
        item = trim(item);
        if (!*item) {
            if (!rest && nkv == 0)
                break;          /* "" = all defaults */
            buf_addf(err, errlen, "policy '%s': empty item in parameters '%s'", pname, text);
            return -1;
        }
        char *eq = strchr(item, '=');
        if (!eq) {
            buf_addf(err, errlen, "policy '%s': '%s' is not key=value (", pname, item);
            list_keys(params, err, errlen);
            buf_addf(err, errlen, ")");
            return -1;
        }
        if (nkv == MAX_KV) {
            buf_addf(err, errlen, "policy '%s': more than %d parameters given", pname, MAX_KV);
            return -1;
        }
        *eq = '\0';
        keys[nkv] = trim(item);
        vals[nkv] = trim(eq + 1);
        nkv++;
    }
    return ws_params_resolve(policy, params, nkv, keys, vals, out, err, errlen);
}


void ws_params_defaults(const ws_param_desc *params, ws_param_values *out)
{
    out->n = 0;
    for (uint32_t i = 0; params && params[i].name && i < WS_MAX_PARAMS; i++)
        out->v[out->n++] = params[i].def;
}

/*
** The single resolution path: every kind's name looked up exactly, its
** "<key>_params" text parsed against the policy's declared table.  An
** error names the configuration key, the bad name or parameter, and the
** valid choices.
*/
int ws_policies_resolve(const ws_registry *r, const char *const names[WS_KIND_COUNT],
                        const char *const params[WS_KIND_COUNT], ws_resolved_policies *out,
                        char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    const void *ops[WS_KIND_COUNT] = { NULL };
    for (int k = 0; k < WS_KIND_COUNT; k++) {
        const char *name = names[k] ? names[k] : "";
        const char *ptext = params[k] ? params[k] : "";
        if (kinds[k].optional && (!*name || strcmp(name, "none") == 0)) {
            if (*ptext) {
                snprintf(err, errlen, "%s_params '%s': %s is none, which takes no parameters",
                         kinds[k].key, ptext, kinds[k].key);
                return -1;
            }
            continue;
        }
        if (!(ops[k] = ws_registry_find(r, k, name))) {
            char valid[512];
            ws_registry_names(r, k, valid, sizeof valid);
            snprintf(err, errlen, "%s '%s' does not exist (valid: %s; see warpsim policies)",
                     kinds[k].key, name, valid);
            return -1;
        }
        ops_head h = head_of(k, ops[k]);
        char e[400];
        if (ws_params_parse(h.name, h.params, ptext, &out->params[k], e, sizeof e)) {
            snprintf(err, errlen, "%s_params '%s': %s", kinds[k].key, ptext, e);
            return -1;
        }
        out->needs |= h.needs;
    }
    out->warp = ops[WS_KIND_WARP];
    out->fetch = ops[WS_KIND_FETCH];
    out->cta_map = ops[WS_KIND_CTA_MAP];
    out->dram = ops[WS_KIND_DRAM];
    out->dram_prefetch = ops[WS_KIND_DRAM_PREFETCH];
    return 0;
}

/* ------------------------------------------------------------------ */
/* `warpsim policies`                                                  */
/* ------------------------------------------------------------------ */

static void print_needs(FILE *out, uint32_t needs)
{
    if (!needs) return;
    fprintf(out, "      needs:");
    if (needs & WS_NEED_ORACLE) fprintf(out, " oracle profile (functional pre-run);");
    if (needs & WS_NEED_PROGRAM) fprintf(out, " program view;");
    if (needs & WS_NEED_WARP_COUNTERS) fprintf(out, " per-request warp counters;");
    fprintf(out, "\n");
}

static void print_policy(FILE *out, int kind, const void *ops, const char *plugin)
{
    ops_head h = head_of(kind, ops);
    fprintf(out, "  %-12s %s", h.name, h.summary ? h.summary : "");
    if (plugin) fprintf(out, " (plug-in %s)", plugin);
    fprintf(out, "\n");
    print_needs(out, h.needs);
    for (uint32_t i = 0; h.params && h.params[i].name; i++) {
        const ws_param_desc *d = &h.params[i];
        fprintf(out, "      %-14s default %-4" PRId64 " [%" PRId64 ", %" PRId64 "] %-7s %s\n",
                d->name, d->def, d->min, d->max, d->unit ? d->unit : "", d->help ? d->help : "");
    }
}

void ws_registry_print(const ws_registry *r, FILE *out)
{
    for (int k = 0; k < WS_KIND_COUNT; k++) {
        fprintf(out, "%s%s (%s; parameters in %s_params as k=v,k=v):\n", k ? "\n" : "",
                kinds[k].title, kinds[k].key, kinds[k].key);
        if (kinds[k].optional) fprintf(out, "  %-12s %s\n", "none", "no policy of this kind (default)");
        const void *ops;
        const char *plugin;
        for (size_t i = 0; (ops = reg_at(r, k, i, &plugin)) != NULL; i++)
            print_policy(out, k, ops, plugin);
    }
}
