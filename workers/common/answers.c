/* Answer frames out of a worker, batched with a time bound (answers.h). */
#include "workers/common/answers.h"

#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <unistd.h>

static struct {
    int fd;
    bool batch;
    volatile sig_atomic_t timer_armed; /* cleared by the handler when it fires */
    msgpack_sbuffer out;            /* frames [sent, out.size) not yet written */
    volatile size_t sent;
    volatile sig_atomic_t appending; /* the buffer is being changed: hands off */
    volatile sig_atomic_t flush_due; /* the timer fired during an append */
    volatile sig_atomic_t failed;    /* a write from the handler failed */
} a = {.fd = -1};

/* Write [sent, size). Only write(2): also called from the handler. */
static int write_pending(void) {
    while (a.sent < a.out.size) {
        ssize_t n = write(a.fd, a.out.data + a.sent, a.out.size - a.sent);
        if (n > 0) {
            a.sent += (size_t)n;
            continue;
        }
        if (n < 0 && errno == EINTR) continue;
        return -1;
    }
    return 0;
}

static void on_alarm(int sig) {
    (void)sig;
    int saved = errno;
    a.timer_armed = 0;
    if (a.appending) a.flush_due = 1;
    else if (write_pending() < 0) a.failed = 1;
    errno = saved;
}

/* Marked armed before arming: the handler of a timer that expires at once
 * clears the mark, which would otherwise stay set with no timer running
 * (and, since flushes leave the timer alone, hold answers unbounded). */
static int arm_timer(void) {
    struct itimerval it = {.it_value = {.tv_sec = 0, .tv_usec = CC_ANSWER_HOLD_US}};
    a.timer_armed = 1;
    __atomic_signal_fence(__ATOMIC_SEQ_CST);
    if (setitimer(ITIMER_REAL, &it, NULL) == 0) return 0;
    a.timer_armed = 0;
    return -1;
}

int cc_answers_init(int fd, bool batch) {
    a.fd = fd;
    a.batch = batch;
    msgpack_sbuffer_init(&a.out);
    if (!batch) return 0;
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_alarm;
    sa.sa_flags = SA_RESTART;
    sigemptyset(&sa.sa_mask);
    return sigaction(SIGALRM, &sa, NULL);
}

msgpack_sbuffer *cc_answers_begin(void) {
    a.appending = 1;
    __atomic_signal_fence(__ATOMIC_SEQ_CST);
    return &a.out;
}

/* The timer is not disarmed here: a batch that ends before it fires
 * leaves it running, and when it fires with nothing held the handler
 * writes nothing. A later batch that finds it still running holds its
 * answers under it (they wait less than CC_ANSWER_HOLD_US either way).
 * At high rates this is one setitimer and one signal per
 * CC_ANSWER_HOLD_US instead of two setitimer calls per batch. */
int cc_answers_flush(void) {
    a.appending = 1;
    __atomic_signal_fence(__ATOMIC_SEQ_CST);
    int rc = write_pending() < 0 || a.failed ? -1 : 0;
    a.sent = 0;
    a.out.size = 0;
    a.flush_due = 0;
    if (a.out.alloc > (1u << 20)) { /* a huge answer went by: give it back */
        msgpack_sbuffer_destroy(&a.out);
        msgpack_sbuffer_init(&a.out);
    }
    __atomic_signal_fence(__ATOMIC_SEQ_CST);
    a.appending = 0;
    return rc;
}

int cc_answers_end(bool more_waiting) {
    __atomic_signal_fence(__ATOMIC_SEQ_CST);
    a.appending = 0;
    __atomic_signal_fence(__ATOMIC_SEQ_CST);
    if (!a.batch || !more_waiting || a.flush_due) return cc_answers_flush();
    if (a.failed) return -1;
    if (!a.timer_armed && arm_timer() < 0) return cc_answers_flush(); /* no bound: hold nothing */
    return 0;
}
