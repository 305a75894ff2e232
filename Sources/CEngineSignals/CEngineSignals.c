#include "CEngineSignals.h"

/* Linux only: on Apple platforms WebKit is the system's, and nothing calls this. */
#ifdef __linux__

#include <signal.h>
#include <string.h>
#include <unistd.h>

/* The engine's own handler, called for the signals the process sends itself. */
static struct sigaction engine;

/* Only async-signal-safe calls run here. */
static void guarded_sigusr1(int number, siginfo_t *info, void *context) {
    if (info != NULL && info->si_code == SI_TKILL && info->si_pid == getpid()) {
        if (engine.sa_flags & SA_SIGINFO) {
            engine.sa_sigaction(number, info, context);
        } else if (engine.sa_handler != SIG_DFL && engine.sa_handler != SIG_IGN) {
            engine.sa_handler(number);
        }
        return;
    }
    signal(number, SIG_DFL);
    /* Blocked while this handler runs: delivered, with the default action, when it returns. */
    raise(number);
}

int ces_guard_sigusr1(void) {
    struct sigaction current;
    if (sigaction(SIGUSR1, NULL, &current) != 0) return 0;
    if ((current.sa_flags & SA_SIGINFO) && current.sa_sigaction == guarded_sigusr1) return 1;
    if (!(current.sa_flags & SA_SIGINFO) && (current.sa_handler == SIG_DFL || current.sa_handler == SIG_IGN)) {
        return 0;
    }
    struct sigaction guard;
    memset(&guard, 0, sizeof guard);
    guard.sa_sigaction = guarded_sigusr1;
    guard.sa_flags = current.sa_flags | SA_SIGINFO;
    guard.sa_mask = current.sa_mask;
    engine = current;
    return sigaction(SIGUSR1, &guard, NULL) == 0;
}

#else

int ces_guard_sigusr1(void) { return 0; }

#endif
