/* Starting a helper process that must outlive the server (a run shepherd,
 * a REPL launcher): its own session, default signals, stdin /dev/null,
 * stdout and stderr appended to a log file, nothing inherited but what the
 * caller names. posix_spawn keeps it cheap (no copy of our address space). */
#ifndef CC_SPAWN_DETACHED_H
#define CC_SPAWN_DETACHED_H

#include <stddef.h>
#include <sys/types.h>

/* pass_fd >= 0 becomes the child's fd 3; every other descriptor above 2 is
 * closed. Returns 0 with *pid, or -1 with a message in err. The caller's
 * SIGCHLD handler reaps the process if it exits. */
int cc_spawn_detached(const char *bin, char *const argv[], const char *logpath, int pass_fd,
                      pid_t *pid, char *err, size_t cap);

#endif
