/*
** cli_signal.c -- Ctrl-C during a long kernel (`warpsim run`): SIGINT sets
** a flag the library's run loops poll (ws_options.interrupt), so the
** launch stops with a dump of where every resident warp is, and the
** command exits with status 130 (128 + SIGINT).
*/
#include "cli.h"
#include <signal.h>
#include <string.h>

/* The one mutable global of the command: a signal handler reaches no
   other state, and a volatile sig_atomic_t is the only object C lets a
   handler write.  The handler does nothing else (no printing, no exit),
   so it is async-signal-safe; the work happens in the run loop. */
static volatile sig_atomic_t cli_sigint;

static void cli_on_sigint(int sig)
{
    (void)sig;
    cli_sigint = 1;
}

const volatile sig_atomic_t *cli_sigint_install(void)
{
    struct sigaction old, sa;
    /* an ignored SIGINT (nohup, a background job of a script) stays ignored */
    if (sigaction(SIGINT, NULL, &old) != 0 || old.sa_handler == SIG_IGN) return &cli_sigint;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = cli_on_sigint;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    return &cli_sigint;
}
