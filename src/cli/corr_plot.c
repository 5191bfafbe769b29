/*
** corr_plot.c -- the scatter plot of `warpsim correlate --plot FILE`:
** GPGPU-Sim's cycles against warpsim's, one point per run (a point type
** per scheduler, the first scheduler's labelled with the benchmark), log-log, with the y = x line
** and the +-25 % band, written as FILE.png and FILE.svg by gnuplot
** (Debian: gnuplot-nox, installed by scripts/bootstrap.sh).  The data and
** the script go to temporary files; gnuplot runs through cli_gnuplot.c.
*/
#include "cli.h"
#include "corr.h"
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

const char *corr_find_gnuplot(char *buf, size_t len, const char *cmd)
{
    return cli_gnuplot_find(buf, len, cmd, "--plot");
}

/* One data block per scheduler (gnuplot's `index`): x y "label". Returns
   the number of blocks; scheds[] gets their names. */
static int write_data(FILE *f, const corr_data *d, const char **scheds, int max)
{
    int ns = 0;
    for (int i = 0; i < d->n; i++) {
        const char *s = d->runs[i].sched;
        bool seen = false;
        for (int k = 0; k < ns && !seen; k++) seen = strcmp(scheds[k], s) == 0;
        if (!seen && ns < max) scheds[ns++] = s;
    }
    for (int k = 0; k < ns; k++) {
        for (int i = 0; i < d->n; i++) {
            const corr_run *r = &d->runs[i];
            if (strcmp(r->sched, scheds[k]) || !r->comparable || !r->res.ok) continue;
            fprintf(f, "%.0f %.0f \"%s\"\n", r->ref.cycles, r->res.sim.cycles, r->bench);
        }
        fprintf(f, "%s", k + 1 < ns ? "\n\n" : "");
    }
    return ns;
}

/* The script for one terminal: the same plot as PNG and as SVG. */
static void write_script(FILE *f, const char *term, const char *out, const char *data,
                         const corr_data *d, const corr_opts *o, const char **scheds, int ns)
{
    fprintf(f, "set terminal %s size 900,900\nset output '%s'\n", term, out);
    fprintf(f, "set logscale xy\nset size square\nset grid\nset key top left\n"
               "set xlabel 'GPGPU-Sim cycles'\nset ylabel 'warpsim cycles'\n");
    fprintf(f, "set title \"warpsim (%s) vs GPGPU-Sim, size %s\"\n", o->machine, o->size);
    double lo = 0, hi = 0;
    for (int i = 0; i < d->n; i++) {
        const corr_run *r = &d->runs[i];
        if (!r->comparable || !r->res.ok) continue;
        double a = r->ref.cycles < r->res.sim.cycles ? r->ref.cycles : r->res.sim.cycles;
        double b = r->ref.cycles > r->res.sim.cycles ? r->ref.cycles : r->res.sim.cycles;
        if (lo == 0 || a < lo) lo = a;
        if (b > hi) hi = b;
    }
    fprintf(f, "set xrange [%g:%g]\nset yrange [%g:%g]\n", lo / 1.5, hi * 1.5, lo / 1.5,
            hi * 1.5);
    fprintf(f, "plot x title 'y = x' lc rgb 'black', 1.25*x dt 2 lc rgb 'gray' title "
               "'+-25 %%', 0.75*x dt 2 lc rgb 'gray' notitle");
    for (int k = 0; k < ns; k++)
        fprintf(f, ", '%s' index %d using 1:2 with points pt %d ps 1.2 title '%s'", data, k,
                7 - 2 * (k % 3), scheds[k]);
    /* one label per benchmark (the first scheduler's point): the runs of
       one benchmark sit close together */
    if (ns > 0)
        fprintf(f, ", '%s' index 0 using 1:2:3 with labels font ',7' offset 0.6,0.4 left "
                   "notitle", data);
    fprintf(f, "\n");
}

int corr_plot(const corr_data *d, const corr_opts *o, const char *cmd)
{
    char gnuplot[PATH_MAX], data[64], script[64], out[PATH_MAX + 8];
    const char *scheds[8];
    if (!corr_find_gnuplot(gnuplot, sizeof gnuplot, cmd)) return -1;
    snprintf(data, sizeof data, "/tmp/warpsim-corr-XXXXXX");
    snprintf(script, sizeof script, "/tmp/warpsim-corr-gp-XXXXXX");
    int fd = mkstemp(data), fs = mkstemp(script), rc = 0;
    FILE *fdat = fd >= 0 ? fdopen(fd, "w") : NULL;
    if (!fdat || fs < 0) {
        cli_error(cmd, "--plot: cannot create temporary files in /tmp");
        if (fdat) fclose(fdat); else if (fd >= 0) close(fd);
        if (fs >= 0) close(fs);
        unlink(data); unlink(script);
        return -1;
    }
    int ns = write_data(fdat, d, scheds, 8);
    fclose(fdat);
    close(fs);
    static const char *const term[2][2] = { { "pngcairo", "png" }, { "svg", "svg" } };
    for (int t = 0; t < 2 && rc == 0; t++) {
        FILE *f = fopen(script, "w");
        snprintf(out, sizeof out, "%s.%s", o->plot, term[t][1]);
        if (!f) { rc = -1; break; }
        write_script(f, term[t][0], out, data, d, o, scheds, ns);
        fclose(f);
        int st = cli_gnuplot_run(gnuplot, script);
        if (st != 0 || access(out, R_OK) != 0) {
            cli_error(cmd, "--plot: gnuplot (%s) failed with status %d writing %s", gnuplot,
                      st, out);
            rc = -1;
        }
    }
    unlink(data);
    unlink(script);
    return rc;
}
