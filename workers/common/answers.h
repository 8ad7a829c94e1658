/* How a worker's answer frames leave it. A worker that serves several
 * requests read in one go (the supervisor sends calc requests ahead, see
 * docs/protocol.md) may hold their answers back and write them in one
 * write, which saves a system call and a wake-up of the supervisor per
 * answer. Holding is bounded in time: while answers are held an interval
 * timer runs, and if serving the rest of the batch takes longer than
 * CC_ANSWER_HOLD_US, SIGALRM writes the held answers out from the signal
 * handler. So an answer is never kept waiting behind a slow request (whose
 * deadline or CPU limit could otherwise cost the held answers too). The
 * timer is armed when answers are first held and left to expire (not
 * disarmed at each flush): one setitimer per CC_ANSWER_HOLD_US at most.
 *
 * One thread only; the handler touches nothing but the buffer's bytes and
 * write(2), and the buffer is changed only with appends fenced off from it. */
#ifndef CC_ANSWERS_H
#define CC_ANSWERS_H

#include <msgpack.h>
#include <stdbool.h>

#define CC_ANSWER_HOLD_US 500

/* fd: the protocol's output; batch: hold answers while more requests wait
 * (installs the SIGALRM handler). Returns 0, or -1 when the handler cannot
 * be installed. */
int cc_answers_init(int fd, bool batch);
/* The buffer to append exactly one answer frame to; pair with
 * cc_answers_end. A failed builder's garbage is cut back by the caller. */
msgpack_sbuffer *cc_answers_begin(void);
/* The answer is appended. more_waiting: another request is already read
 * and will be served next, so (when batching) the answer may be held.
 * Returns 0, or -1 when writing failed. */
int cc_answers_end(bool more_waiting);
/* Write everything held now. Returns 0, or -1 when writing failed. */
int cc_answers_flush(void);

#endif
