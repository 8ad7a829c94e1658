/* The shepherd launcher (protocol in shepherd.h): starts shepherds and
 * answers broker questions for the server, off the server's event loop. */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "protocol/json_convert.h"
#include "protocol/strbuf.h"
#include "workers/exec/execute.h"
#include "workers/exec/receipt.h"
#include "workers/exec/shepherd.h"

extern char **environ;

/* The file actions and attributes of one shepherd start: stdin /dev/null,
 * output appended to rundir/shepherd.log, nothing else inherited, default
 * signal handling, a session of its own. 0 or an errno value. */
static int spawn_setup(posix_spawn_file_actions_t *fa, posix_spawnattr_t *at, const char *logpath) {
    sigset_t none, dfl;
    sigemptyset(&none);
    sigemptyset(&dfl);
    sigaddset(&dfl, SIGPIPE);
    sigaddset(&dfl, SIGCHLD);
    int rc = posix_spawn_file_actions_addopen(fa, 0, "/dev/null", O_RDONLY, 0);
    if (!rc) rc = posix_spawn_file_actions_addopen(fa, 1, logpath, O_WRONLY | O_CREAT | O_APPEND, 0600);
    if (!rc) rc = posix_spawn_file_actions_adddup2(fa, 1, 2);
    if (!rc) rc = posix_spawn_file_actions_addclosefrom_np(fa, 3);
    if (!rc) rc = posix_spawnattr_setsigmask(at, &none);
    if (!rc) rc = posix_spawnattr_setsigdefault(at, &dfl);
    if (!rc) rc = posix_spawnattr_setflags(at, POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSID);
    return rc;
}

/* Note a failed start where the server's LOST report points: the run's log. */
static void log_failure(const char *logpath, const char *rundir, int err) {
    FILE *f = fopen(logpath, "ae");
    if (!f) return;
    fprintf(f, "launcher: cannot start the shepherd for %s: %s\n", rundir, strerror(err));
    fclose(f);
}

/* Our own binary by its real name (so `ps` shows codecalc-exec, not "exe");
 * /proc/self/exe when the link cannot be read. */
static char self_path[4096] = "/proc/self/exe";

static void find_self(void) {
    char buf[sizeof self_path];
    ssize_t n = readlink("/proc/self/exe", buf, sizeof buf - 1);
    if (n <= 0 || (size_t)n >= sizeof buf - 1) return;
    buf[n] = '\0';
    memcpy(self_path, buf, (size_t)n + 1);
}

static void start_shepherd(const char *rundir) {
    char logpath[CC_SHEPHERD_MSG_MAX + 32];
    snprintf(logpath, sizeof logpath, "%s/shepherd.log", rundir);
    posix_spawn_file_actions_t fa;
    posix_spawnattr_t at;
    if (posix_spawn_file_actions_init(&fa) != 0) {
        log_failure(logpath, rundir, ENOMEM);
        return;
    }
    if (posix_spawnattr_init(&at) != 0) {
        posix_spawn_file_actions_destroy(&fa);
        log_failure(logpath, rundir, ENOMEM);
        return;
    }
    char *const argv[] = {self_path, (char *)"--shepherd", (char *)rundir, NULL};
    pid_t pid;
    int rc = spawn_setup(&fa, &at, logpath);
    if (!rc) rc = posix_spawn(&pid, self_path, &fa, &at, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    posix_spawnattr_destroy(&at);
    if (rc) log_failure(logpath, rundir, rc);
}

static void reply(int fd, const char *data, size_t len) {
    while (send(fd, data, len, MSG_NOSIGNAL) < 0 && errno == EINTR) {
    }
}

/* body = "<0|1><policy text>"; the answer is "A0"/"A1" (admitted; 1: the
 * policy denies network), "R<rejection JSON>" or "E". */
static void broker_check(int fd, const char *body, size_t len) {
    char policy[CC_SHEPHERD_MSG_MAX];
    if (len < 1 || len - 1 >= sizeof policy) {
        reply(fd, "E", 1);
        return;
    }
    memcpy(policy, body + 1, len - 1);
    policy[len - 1] = '\0';
    /* Only no_net takes part in the decision; the rest of the spec does not. */
    struct cc_exec_spec spec = {.language = "", .code = "", .no_net = body[0] == '1'};
    struct cc_broker b;
    if (cc_broker_decide(&spec, cc_local_network_control(), policy, "local", &b) != 0) {
        reply(fd, "E", 1);
        return;
    }
    if (!b.rejected) {
        /* "A1": admitted, and the policy denies network (per-run
         * dependencies then cannot be installed). */
        bool denied = b.policy_denies_network;
        cc_broker_free(&b);
        reply(fd, denied ? "A1" : "A0", 2);
        return;
    }
    struct cc_strbuf sb;
    cc_sb_init(&sb);
    cc_sb_putc(&sb, 'R');
    int rc = cc_json_emit(&sb, b.rejection);
    cc_broker_free(&b);
    if (rc < 0 || sb.len > CC_SHEPHERD_MSG_MAX) reply(fd, "E", 1);
    else reply(fd, sb.data, sb.len);
    cc_sb_free(&sb);
}

/* The started processes exit at once (each shepherd forks away from us);
 * collect them so no zombie stays behind. */
static void reap(void) {
    while (waitpid(-1, NULL, WNOHANG) > 0) {
    }
}

int cc_shepherd_launcher_main(void) {
    /* Like the shepherds it starts: the server comes first. */
    (void)setpriority(PRIO_PROCESS, 0, CC_SHEPHERD_NICE);
    signal(SIGPIPE, SIG_IGN);
    find_self();
    char msg[CC_SHEPHERD_MSG_MAX + 1];
    for (;;) {
        struct pollfd p = {.fd = 0, .events = POLLIN};
        int ready = poll(&p, 1, 1000);
        reap();
        if (ready < 0 && errno != EINTR) return 1;
        if (ready <= 0) continue;
        ssize_t n = recv(0, msg, sizeof msg - 1, MSG_TRUNC);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return 0; /* the server went away */
        if ((size_t)n >= sizeof msg) {
            /* Never produced by our server; a question still gets an answer. */
            if (msg[0] == 'B') reply(0, "E", 1);
            continue;
        }
        msg[n] = '\0';
        if (msg[0] == 'S' && n > 1) start_shepherd(msg + 1);
        else if (msg[0] == 'B') broker_check(0, msg + 1, (size_t)n - 1);
    }
}
