/* The server's end of the shepherd launcher (protocol in
 * workers/exec/shepherd.h): a helper process started once, which starts
 * shepherds so run_submit never waits for a vfork + exec, and which answers
 * the capability broker's question for run_submit (the broker lives in the
 * exec binary). */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "protocol/json_convert.h"
#include "supervisor/log.h"
#include "supervisor/runs/runs.h"
#include "workers/common/tool_api.h"
#include "workers/exec/shepherd.h"

/* How long run_submit waits for a broker answer (the first one probes the
 * sandbox, which takes a few milliseconds). */
#define BROKER_WAIT_MS 5000

extern char **environ;

static int spawn_launcher(const char *bin, int child_end, pid_t *pid) {
    posix_spawn_file_actions_t fa;
    if (posix_spawn_file_actions_init(&fa) != 0) return ENOMEM;
    int rc = posix_spawn_file_actions_adddup2(&fa, child_end, 0);
    if (!rc) rc = posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
    if (!rc) rc = posix_spawn_file_actions_addclosefrom_np(&fa, 3);
    char *const argv[] = {(char *)bin, (char *)"--shepherd", (char *)CC_SHEPHERD_LAUNCHER_ARG, NULL};
    if (!rc) rc = posix_spawn(pid, bin, &fa, NULL, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    return rc;
}

int cc_runs_launcher_start(struct cc_runs *rs) {
    cc_runs_launcher_stop(rs);
    int sv[2];
    if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv) < 0) return -1;
    pid_t pid;
    int rc = spawn_launcher(rs->shepherd_bin, sv[1], &pid);
    close(sv[1]);
    if (rc != 0) {
        close(sv[0]);
        cc_log(CC_LOG_WARNING, "cannot start the shepherd launcher %s: %s", rs->shepherd_bin, strerror(rc));
        rs->launcher_retry_at = cc_runs_now() + 60;
        return -1;
    }
    rs->launcher_fd = sv[0];
    rs->launcher_pid = pid;
    return 0;
}

/* Closing our end makes the launcher exit; the server's SIGCHLD handling
 * reaps it. */
void cc_runs_launcher_stop(struct cc_runs *rs) {
    if (rs->launcher_fd >= 0) close(rs->launcher_fd);
    rs->launcher_fd = -1;
    rs->launcher_pid = 0;
}

/* One packet to the launcher, starting a new one once if it is gone. */
static int send_packet(struct cc_runs *rs, const char *data, size_t len) {
    for (int attempt = 0; attempt < 2; attempt++) {
        if (rs->launcher_fd < 0 && cc_runs_launcher_start(rs) < 0) return -1;
        ssize_t n;
        do n = send(rs->launcher_fd, data, len, MSG_NOSIGNAL | MSG_DONTWAIT);
        while (n < 0 && errno == EINTR);
        if (n == (ssize_t)len) return 0;
        /* Dead (EPIPE/ECONNRESET) or wedged (EAGAIN: its queue is full):
         * replace it rather than wait. */
        cc_runs_launcher_stop(rs);
    }
    return -1;
}

int cc_runs_launch(struct cc_runs *rs, const char *rundir, char *err, size_t errcap) {
    size_t n = strlen(rundir);
    char msg[CC_SHEPHERD_MSG_MAX];
    if (n + 1 <= sizeof msg) {
        msg[0] = 'S';
        memcpy(msg + 1, rundir, n);
        if (send_packet(rs, msg, n + 1) == 0) return 0;
    }
    /* No launcher: start the shepherd ourselves, as before it existed. */
    pid_t launcher;
    return cc_runs_spawn(rs->shepherd_bin, rundir, &launcher, err, errcap);
}

static json_t *unavailable(const char *why) {
    json_t *e = cc_err("internal", "run supervisor unavailable: %s", why);
    json_object_set_new(e, "provider_error", json_string("run_supervisor_unavailable"));
    return e;
}

/* Wait for the launcher's one-packet answer into buf; its length or -1. */
static ssize_t await_answer(struct cc_runs *rs, char *buf, size_t cap) {
    struct pollfd p = {.fd = rs->launcher_fd, .events = POLLIN};
    int ready;
    do ready = poll(&p, 1, BROKER_WAIT_MS);
    while (ready < 0 && errno == EINTR);
    if (ready <= 0) return -1;
    ssize_t n;
    do n = recv(rs->launcher_fd, buf, cap, MSG_DONTWAIT | MSG_TRUNC);
    while (n < 0 && errno == EINTR);
    return n <= 0 || (size_t)n > cap ? -1 : n;
}

json_t *cc_runs_broker_check(struct cc_runs *rs, bool no_net, const char *policy, bool *net_denied) {
    char msg[CC_SHEPHERD_MSG_MAX];
    size_t plen = strlen(policy);
    if (plen + 2 > sizeof msg) return unavailable("CODECALC_CAPABILITY_POLICY is too long");
    msg[0] = 'B';
    msg[1] = no_net ? '1' : '0';
    memcpy(msg + 2, policy, plen);
    if (send_packet(rs, msg, plen + 2) < 0) return unavailable("the shepherd launcher cannot be started");
    char ans[CC_SHEPHERD_MSG_MAX];
    ssize_t n = await_answer(rs, ans, sizeof ans);
    if (n < 0) {
        /* A late answer must never be taken for the next question's. */
        cc_runs_launcher_stop(rs);
        return unavailable("the shepherd launcher did not answer the capability broker");
    }
    if (ans[0] == 'A') {
        *net_denied = n > 1 && ans[1] == '1';
        return NULL;
    }
    json_error_t je;
    json_t *r = ans[0] == 'R' ? cc_json_parse(ans + 1, (size_t)n - 1, &je) : NULL;
    if (json_is_object(r)) return r;
    json_decref(r);
    return unavailable("the capability broker failed");
}
