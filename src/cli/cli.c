/*
** cli.c -- helpers shared by the subcommands of `warpsim`: a small long-
** option iterator (errors list the valid options), strict number and
** dimension parsers, the --threads check, the bundled-PTX lookup, a
** deterministic random generator and a monotonic clock.
*/
#include "cli.h"
#include "gpu/config.h"
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

void cli_error(const char *cmd, const char *fmt, ...)
{
    va_list ap;
    fprintf(stderr, "warpsim %s: ", cmd);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
}

/* ------------------------------------------------------------------ */
/* Option iterator                                                     */
/* ------------------------------------------------------------------ */

void cli_iter_init(cli_iter *it, int argc, char **argv, const cli_opt *opts)
{
    it->argc = argc;
    it->argv = argv;
    it->i = 1;          /* argv[0] is the subcommand */
    it->opts = opts;
}

static void list_valid_options(const cli_iter *it)
{
    fprintf(stderr, "valid options for '%s':", it->argv[0]);
    for (const cli_opt *o = it->opts; o->name; o++)
        fprintf(stderr, " --%s%s", o->name, o->has_value ? " VALUE" : "");
    fputc('\n', stderr);
}

static const cli_opt *find_opt(const cli_opt *opts, const char *name, size_t len)
{
    for (const cli_opt *o = opts; o->name; o++)
        if (strlen(o->name) == len && strncmp(o->name, name, len) == 0)
            return o;
    return NULL;
}

/*
** Options are "--name", "--name VALUE" or "--name=VALUE"; "--" ends them.
** Anything else (including "-" and negative numbers) is positional, so
** `--arg i32:-5` works and no single-dash options exist besides -h.
*/
int cli_iter_next(cli_iter *it, const char **name, const char **value)
{
    *name = NULL;
    *value = NULL;
    if (it->i >= it->argc)
        return CLI_ITER_END;
    char *a = it->argv[it->i++];
    if (strcmp(a, "--") == 0) {
        if (it->i >= it->argc)
            return CLI_ITER_END;
        *value = it->argv[it->i++];
        return CLI_ITER_POSITIONAL;
    }
    if (strcmp(a, "-h") == 0)
        a = "--help";
    if (strncmp(a, "--", 2) != 0) {
        *value = a;
        return CLI_ITER_POSITIONAL;
    }
    const char *body = a + 2, *eq = strchr(body, '=');
    size_t len = eq ? (size_t)(eq - body) : strlen(body);
    const cli_opt *o = find_opt(it->opts, body, len);
    if (!o) {
        cli_error(it->argv[0], "unknown option '%.*s'", (int)(len + 2), a);
        list_valid_options(it);
        return CLI_ITER_ERROR;
    }
    *name = o->name;
    if (!o->has_value) {
        if (eq) {
            cli_error(it->argv[0], "option --%s takes no value", o->name);
            return CLI_ITER_ERROR;
        }
        return CLI_ITER_OPT;
    }
    if (eq) {
        *value = eq + 1;
    } else if (it->i < it->argc) {
        *value = it->argv[it->i++];
    } else {
        cli_error(it->argv[0], "option --%s needs a value", o->name);
        return CLI_ITER_ERROR;
    }
    return CLI_ITER_OPT;
}

/* ------------------------------------------------------------------ */
/* Number parsers                                                      */
/* ------------------------------------------------------------------ */

bool cli_parse_i64(const char *s, int64_t lo, int64_t hi, int64_t *out)
{
    char *end;
    if (!s || !*s)
        return false;
    errno = 0;
    long long v = strtoll(s, &end, 0);
    if (errno || *end || v < lo || v > hi)
        return false;
    *out = v;
    return true;
}

bool cli_parse_u64(const char *s, uint64_t hi, uint64_t *out)
{
    char *end;
    if (!s || !*s || *s == '-')   /* strtoull would accept and negate */
        return false;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 0);
    if (errno || *end || v > hi)
        return false;
    *out = v;
    return true;
}

bool cli_parse_f64(const char *s, double *out)
{
    char *end;
    if (!s || !*s)
        return false;
    errno = 0;
    double v = strtod(s, &end);
    if (*end || (errno && isinf(v)))
        return false;
    *out = v;
    return true;
}

bool cli_parse_dim3(const char *s, ws_dim3 *out)
{
    uint32_t d[3] = {1, 1, 1};
    char buf[96];
    if (!s || strlen(s) >= sizeof buf)
        return false;
    strcpy(buf, s);
    char *p = buf;
    for (int k = 0; k < 3; k++) {
        char *comma = strchr(p, ',');
        if (comma)
            *comma = 0;
        uint64_t v;
        if (!cli_parse_u64(p, 0x7fffffffu, &v) || v == 0)
            return false;
        d[k] = (uint32_t)v;
        if (!comma)
            break;
        if (k == 2)
            return false;       /* a fourth component */
        p = comma + 1;
    }
    out->x = d[0];
    out->y = d[1];
    out->z = d[2];
    return true;
}

/*
** The value goes through the configuration's own parser on a default
** machine, so --threads accepts exactly what `--set threads=` accepts and
** its bounds live in one place (gpu/config.c); the message is the
** parameter's, behind the option's name.
*/
bool cli_threads_setting(const char *cmd, const char *v, char *set, uint32_t *n)
{
    char err[512];
    gpu_config *c = malloc(sizeof *c);
    if (!c) {
        cli_error(cmd, "out of memory checking --threads");
        return false;
    }
    gpu_config_defaults(c);
    int rc = gpu_config_set(c, "threads", v, err, sizeof err);
    if (rc == 0) {
        snprintf(set, CLI_THREADS_SET, "threads=%u", c->threads);
        if (n) *n = c->threads;
    } else
        cli_error(cmd, "--threads '%s': %s", v, err);
    free(c);
    return rc == 0;
}

/* ------------------------------------------------------------------ */
/* Bundled PTX, randomness, time                                       */
/* ------------------------------------------------------------------ */

const char *cli_bundled_ptx(const char *name)
{
    for (int i = 0; ws_bundled_ptx[i].name; i++)
        if (strcmp(ws_bundled_ptx[i].name, name) == 0)
            return ws_bundled_ptx[i].text;
    return NULL;
}

uint32_t cli_rand32(uint64_t *state)
{
    *state = *state * 6364136223846793005ull + 1442695040888963407ull;
    return (uint32_t)(*state >> 32);   /* the low bits of an LCG are weak */
}

double cli_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

bool cli_check_arch(const char *cmd, const char *v)
{
    const char *d = strncmp(v, "sm_", 3) == 0 ? v + 3
                  : strncmp(v, "compute_", 8) == 0 ? v + 8 : v;
    size_t n = strspn(d, "0123456789");
    if (n < 2 || n > 3 || d[n] || d[0] == '0') {
        cli_error(cmd, "--arch '%s': expected sm_NN or sm_NNN (two or three digits), e.g. "
                  "sm_75, sm_86 or sm_120", v);
        return false;
    }
    long x = strtol(d, NULL, 10);
    if (x < CLI_ARCH_MIN || x > CLI_ARCH_MAX) {
        cli_error(cmd, "--arch '%s': sm_%ld is not supported: warpsim simulates compute "
                  "capability %d.%d to %d.%d (sm_%d .. sm_%d)", v, x, CLI_ARCH_MIN / 10,
                  CLI_ARCH_MIN % 10, CLI_ARCH_MAX / 10, CLI_ARCH_MAX % 10, CLI_ARCH_MIN,
                  CLI_ARCH_MAX);
        return false;
    }
    return true;
}
