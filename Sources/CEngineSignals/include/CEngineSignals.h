#ifndef CENGINESIGNALS_H
#define CENGINESIGNALS_H

/* JavaScriptCore suspends its own threads with SIGUSR1 (pthread_kill within the process), and its handler
   crashes (SIGSEGV) on any other SIGUSR1, such as `kill -USR1` from outside. This guard goes in front of the
   engine's handler: the engine's own signals reach it, any other SIGUSR1 takes the default action (the process
   ends by SIGUSR1, as SIGUSR2 and SIGALRM end it).

   Returns 1 when the guard is in place (now or before), 0 while the engine has no SIGUSR1 handler yet. */
int ces_guard_sigusr1(void);

#endif
