/*
** sweep_point.c -- the points of an experiment and their content hashes.
** A point is one benchmark x size x config x seed; its hash covers what
** decides its result (the benchmark's command line and source, the
** machine: preset or config file contents, overrides, plug-in file
** contents, environment, seed, the time-series interval), not the labels, so renaming a config
** reruns nothing and editing a config file reruns its points (--resume).
*/
#include "sweep.h"
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *const sweep_size_names[3] = {"tiny", "small", "default"};

uint64_t sweep_fnv(uint64_t h, const void *p, size_t n)
{
    const unsigned char *b = p;
    for (size_t i = 0; i < n; i++) {
        h ^= b[i];
        h *= 0x100000001b3ULL;
    }
    return h;
}

uint64_t sweep_file_hash(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) return 0;
    unsigned char buf[65536];
    uint64_t h = SWEEP_FNV_INIT;
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, f)) > 0) h = sweep_fnv(h, buf, n);
    int err = ferror(f);
    fclose(f);
    return err ? 0 : h;
}

bool sweep_runs(const sweep_exp *x, int c, int b)
{
    return !x->configs[c].runs || x->configs[c].runs[b];
}

int sweep_points(const sweep_exp *x, sweep_point **out)
{
    int ns = x->nseeds ? x->nseeds : 1;
    size_t n = (size_t)x->nbenches * (size_t)x->nsizes * (size_t)x->nconfigs * (size_t)ns;
    sweep_point *p = calloc(n + 1, sizeof *p);
    if (!p) return -1;
    size_t k = 0;
    for (int b = 0; b < x->nbenches; b++)
        for (int s = 0; s < x->nsizes; s++)
            for (int c = 0; c < x->nconfigs; c++)
                for (int d = 0; d < ns && sweep_runs(x, c, b); d++) {
                    p[k] = (sweep_point){ .bench = b, .size = s, .config = c,
                                          .seed = x->nseeds ? d : -1 };
                    char buf[16384];
                    p[k].hash = sweep_point_hash(x, &p[k], buf, sizeof buf);
                    k++;
                }
    *out = p;
    return (int)k;
}

/* Append printf-style text at *pos of buf (truncated text still hashes
   deterministically; the buffer is large enough for any real point). */
static void put(char *buf, size_t len, size_t *pos, const char *fmt, const char *s, uint64_t v)
{
    if (*pos >= len) return;
    int w = s ? snprintf(buf + *pos, len - *pos, fmt, s, v) : snprintf(buf + *pos, len - *pos, fmt, v);
    if (w > 0) *pos += (size_t)w < len - *pos ? (size_t)w : len - *pos - 1;
}

uint64_t sweep_point_hash(const sweep_exp *x, const sweep_point *p, char *buf, size_t len)
{
    const sweep_bench *b = &x->benches[p->bench];
    const sweep_config *c = &x->configs[p->config];
    int size = x->sizes[p->size];
    size_t pos = 0;
    buf[0] = '\0';
    put(buf, len, &pos, "bench=%s\n", b->name, 0);
    put(buf, len, &pos, "command=%s\n", b->commands[size] ? b->commands[size] : "", 0);
    put(buf, len, &pos, "source=%016" PRIx64 "\n", NULL, b->source_hash);
    put(buf, len, &pos, "size=%s\n", sweep_size_names[size], 0);
    put(buf, len, &pos, "config=%s", c->config ? c->config : "gtx480", 0);
    put(buf, len, &pos, " %016" PRIx64 "\n", NULL, c->config_hash);
    for (int i = 0; i < c->nsets; i++) put(buf, len, &pos, "set=%s\n", c->sets[i], 0);
    for (int i = 0; i < c->nplugins; i++) {
        put(buf, len, &pos, "plugin=%s", c->plugins[i], 0);
        put(buf, len, &pos, " %016" PRIx64 "\n", NULL, c->plugin_hash[i]);
    }
    for (int i = 0; i < c->nenv; i++) put(buf, len, &pos, "env=%s\n", c->env[i], 0);
    if (p->seed >= 0) put(buf, len, &pos, "seed=%" PRIu64 "\n", NULL, x->seeds[p->seed]);
    /* a kept time series is part of what the run produces (absent: the
       hashes of experiments without one are unchanged) */
    if (x->ts_interval) put(buf, len, &pos, "timeseries=%" PRIu64 "\n", NULL, x->ts_interval);
    return sweep_fnv(SWEEP_FNV_INIT, buf, pos);
}

void sweep_point_label(const sweep_exp *x, const sweep_point *p, char *buf, size_t len)
{
    char seed[32] = "";
    if (p->seed >= 0) snprintf(seed, sizeof seed, " seed=%" PRIu64, x->seeds[p->seed]);
    snprintf(buf, len, "%s %s %s%s", x->benches[p->bench].name,
             sweep_size_names[x->sizes[p->size]], x->configs[p->config].name, seed);
}
