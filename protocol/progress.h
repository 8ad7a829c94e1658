/* A worker's progress, shared with the supervisor through one page of
 * memory: the id of the request the worker last started. A worker that
 * batches its answers (workers/common/answers.h) may hold finished answers
 * when it dies; this word tells the supervisor which of its outstanding
 * requests was running (that one is answered with the failure) and which
 * were finished or not started (those are served again elsewhere), with
 * no system call on the request path: one store per request.
 *
 * The supervisor creates the page (a memfd), maps it read-only and passes
 * it to the worker as fd 3, named by the environment variable
 * CC_PROGRESS_ENV; the worker maps it read-write and closes the fd. */
#ifndef CC_PROGRESS_H
#define CC_PROGRESS_H

#include <stdint.h>

#define CC_PROGRESS_ENV "CODECALC_PROGRESS_FD"
#define CC_PROGRESS_FD 3

struct cc_progress {
    volatile uint64_t started; /* worker-protocol id; 0 before the first request */
};

/* Supervisor: a new page, its fd (close-on-exec) in *fd and a read-only
 * mapping in *map. Returns 0, or -1 with errno. */
int cc_progress_create(int *fd, const struct cc_progress **map);
void cc_progress_unmap(const struct cc_progress *map);

/* Worker: the page named by CC_PROGRESS_ENV, mapped (the fd is closed and
 * the variable removed), or NULL when there is none. Call before the
 * seccomp lockdown. */
struct cc_progress *cc_progress_attach(void);

#endif
