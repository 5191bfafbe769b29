/*
** registry.c -- the one list of every scheduling policy, by kind, with
** exact-name lookup, parameter parsing against a policy's declared table,
** and the `--list-policies` listing.
** Adding a policy = its file + one line in the tables below.
*/
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "policy/policy.h"

/* the ops tables, one per policy file */
extern const ws_warp_sched_ops ws_warp_sched_lrr;
extern const ws_warp_sched_ops ws_warp_sched_gto;
extern const ws_warp_sched_ops ws_warp_sched_oldest;
extern const ws_warp_sched_ops ws_warp_sched_two_level;
extern const ws_warp_sched_ops ws_warp_sched_swl;
extern const ws_fetch_ops ws_fetch_rr;
extern const ws_cta_map_ops ws_cta_map_rr;
extern const ws_dram_sched_ops ws_dram_sched_fcfs;
extern const ws_dram_sched_ops ws_dram_sched_frfcfs;
extern const ws_dram_sched_ops ws_dram_sched_frfair;
extern const ws_dram_sched_ops ws_dram_sched_reminst;

const ws_warp_sched_ops *const ws_warp_scheds[] = {
    &ws_warp_sched_lrr,
    &ws_warp_sched_gto,
    &ws_warp_sched_oldest,
    &ws_warp_sched_two_level,
    &ws_warp_sched_swl,
    NULL
};

const ws_fetch_ops *const ws_fetches[] = {
    &ws_fetch_rr,
    NULL
};

const ws_cta_map_ops *const ws_cta_maps[] = {
    &ws_cta_map_rr,
    NULL
};

const ws_dram_sched_ops *const ws_dram_scheds[] = {
    &ws_dram_sched_frfcfs,
    &ws_dram_sched_fcfs,
    &ws_dram_sched_frfair,
    &ws_dram_sched_reminst,
    NULL
};

/* ------------------------------------------------------------------ */
/* Lookup                                                              */
/* ------------------------------------------------------------------ */

/* Exact names only: a prefix or a near miss ("gtoo") is unknown, so a
   typo is reported instead of silently picking some other policy. */
const ws_warp_sched_ops *ws_find_warp_sched(const char *name)
{
    for (size_t i = 0; name && ws_warp_scheds[i]; i++)
        if (strcmp(ws_warp_scheds[i]->name, name) == 0)
            return ws_warp_scheds[i];
    return NULL;
}

const ws_fetch_ops *ws_find_fetch(const char *name)
{
    for (size_t i = 0; name && ws_fetches[i]; i++)
        if (strcmp(ws_fetches[i]->name, name) == 0)
            return ws_fetches[i];
    return NULL;
}

const ws_cta_map_ops *ws_find_cta_map(const char *name)
{
    for (size_t i = 0; name && ws_cta_maps[i]; i++)
        if (strcmp(ws_cta_maps[i]->name, name) == 0)
            return ws_cta_maps[i];
    return NULL;
}

const ws_dram_sched_ops *ws_find_dram_sched(const char *name)
{
    for (size_t i = 0; name && ws_dram_scheds[i]; i++)
        if (strcmp(ws_dram_scheds[i]->name, name) == 0)
            return ws_dram_scheds[i];
    return NULL;
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

static const char *kind_name_at(int kind, size_t i)
{
    switch (kind) {
    case WS_POLICY_WARP_SCHED: return ws_warp_scheds[i] ? ws_warp_scheds[i]->name : NULL;
    case WS_POLICY_FETCH:      return ws_fetches[i] ? ws_fetches[i]->name : NULL;
    case WS_POLICY_CTA_MAP:    return ws_cta_maps[i] ? ws_cta_maps[i]->name : NULL;
    case WS_POLICY_DRAM_SCHED: return ws_dram_scheds[i] ? ws_dram_scheds[i]->name : NULL;
    default:                   return NULL;
    }
}

void ws_policy_names(int kind, char *buf, size_t len)
{
    if (!buf || len == 0)
        return;
    buf[0] = '\0';
    const char *name;
    for (size_t i = 0; (name = kind_name_at(kind, i)) != NULL; i++)
        buf_addf(buf, len, "%s%s", i ? ", " : "", name);
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
    bool seen[16] = { false };

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

/* ------------------------------------------------------------------ */
/* --list-policies                                                     */
/* ------------------------------------------------------------------ */

static void print_policy(FILE *out, const char *name, const char *summary,
                         const ws_param_desc *params)
{
    fprintf(out, "  %-12s %s\n", name, summary ? summary : "");
    for (uint32_t i = 0; params && params[i].name; i++) {
        const ws_param_desc *d = &params[i];
        fprintf(out, "      %-14s default %-4" PRId64 " [%" PRId64 ", %" PRId64 "] %-7s %s\n",
                d->name, d->def, d->min, d->max, d->unit ? d->unit : "", d->help ? d->help : "");
    }
}

void ws_policies_print(FILE *out)
{
    fprintf(out, "warp schedulers (warp_scheduler; parameters in warp_scheduler_params as k=v,k=v):\n");
    for (size_t i = 0; ws_warp_scheds[i]; i++)
        print_policy(out, ws_warp_scheds[i]->name, ws_warp_scheds[i]->summary,
                     ws_warp_scheds[i]->params);
    fprintf(out, "fetch policies (fetch_policy):\n");
    for (size_t i = 0; ws_fetches[i]; i++)
        print_policy(out, ws_fetches[i]->name, ws_fetches[i]->summary, ws_fetches[i]->params);
    fprintf(out, "CTA-to-SM mappings (cta_map):\n");
    for (size_t i = 0; ws_cta_maps[i]; i++)
        print_policy(out, ws_cta_maps[i]->name, ws_cta_maps[i]->summary, ws_cta_maps[i]->params);
    fprintf(out, "DRAM schedulers (dram_scheduler; parameters in dram_scheduler_params):\n");
    for (size_t i = 0; ws_dram_scheds[i]; i++)
        print_policy(out, ws_dram_scheds[i]->name, ws_dram_scheds[i]->summary,
                     ws_dram_scheds[i]->params);
}
