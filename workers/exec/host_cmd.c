/* Host commands of the runtime tools (host_cmd.h). */
#include "workers/exec/host_cmd.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "protocol/monotonic.h"
#include "workers/common/program_env.h"
#include "workers/common/runtime_path.h"

#define TICK_MS 250

/* The tail of a stream: the last cap bytes seen. */
struct tail {
    char *buf;
    size_t len, cap;
};

static void tail_put(struct tail *t, const char *data, size_t n) {
    if (!t->buf) return;
    if (n >= t->cap) {
        memcpy(t->buf, data + n - t->cap, t->cap);
        t->len = t->cap;
    } else {
        if (t->len + n > t->cap) {
            size_t drop = t->len + n - t->cap;
            memmove(t->buf, t->buf + drop, t->len - drop);
            t->len -= drop;
        }
        memcpy(t->buf + t->len, data, n);
        t->len += n;
    }
    t->buf[t->len] = '\0';
}

/* Package managers need sbin (dpkg runs ldconfig) and the operator's
 * registry, proxy and certificate settings; nothing else of the server's
 * environment reaches them. */
static char **host_env(void) {
    static const char *const keep[] = {"HOME", "LANG", "LC_ALL", "TMPDIR", NULL};
    struct cc_env e = {0};
    cc_env_keep(&e, keep);
    cc_env_keep(&e, cc_registry_env);
    const char *path = cc_runtime_path();
    cc_env_set(&e, "PATH=%s%s", path, strstr(path, "/usr/sbin") ? "" : ":/usr/local/sbin:/usr/sbin:/sbin");
    cc_env_set(&e, "DEBIAN_FRONTEND=noninteractive");
    cc_env_set(&e, "npm_config_update_notifier=false");
    cc_env_set(&e, "npm_config_fund=false");
    return cc_env_take(&e);
}

static int spawn(const char *const *argv, int out_w, int err_w, pid_t *pid) {
    posix_spawn_file_actions_t fa;
    posix_spawnattr_t at;
    char **env = host_env();
    if (!env) return ENOMEM;
    int rc = posix_spawn_file_actions_init(&fa);
    if (rc) {
        cc_env_free(env);
        return rc;
    }
    posix_spawnattr_init(&at);
    posix_spawnattr_setpgroup(&at, 0);
    sigset_t none;
    sigemptyset(&none);
    posix_spawnattr_setsigmask(&at, &none);
    sigset_t def;
    sigemptyset(&def);
    sigaddset(&def, SIGPIPE);
    posix_spawnattr_setsigdefault(&at, &def);
    posix_spawnattr_setflags(&at, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
    posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_adddup2(&fa, out_w, 1);
    posix_spawn_file_actions_adddup2(&fa, err_w, 2);
    rc = posix_spawn(pid, argv[0], &fa, &at, (char *const *)argv, env);
    posix_spawn_file_actions_destroy(&fa);
    posix_spawnattr_destroy(&at);
    cc_env_free(env);
    return rc;
}

/* Read what is ready on fd into t; false at end of stream. */
static bool drain(int fd, struct tail *t) {
    char buf[8192];
    ssize_t n = read(fd, buf, sizeof buf);
    if (n > 0) tail_put(t, buf, (size_t)n);
    return n > 0 || (n < 0 && errno == EINTR);
}

void cc_host_cmd_run(const char *const *argv, int timeout_s, size_t cap, bool merge, cc_wctx *ctx,
                     struct cc_host_cmd *r) {
    memset(r, 0, sizeof *r);
    r->exit_code = -1;
    struct tail out = {.buf = malloc(cap + 1), .cap = cap}, err = {.buf = malloc(cap + 1), .cap = cap};
    int po[2] = {-1, -1}, pe[2] = {-1, -1};
    pid_t pid = -1;
    int rc = !out.buf || !err.buf ? ENOMEM : pipe2(po, O_CLOEXEC) || (!merge && pipe2(pe, O_CLOEXEC)) ? errno : 0;
    if (!rc) rc = spawn(argv, po[1], merge ? po[1] : pe[1], &pid);
    if (po[1] >= 0) close(po[1]);
    if (pe[1] >= 0) close(pe[1]);
    if (rc) {
        snprintf(r->spawn_error, sizeof r->spawn_error, "cannot start %s: %s", argv[0], strerror(rc));
    } else {
        r->started = true;
        int64_t deadline = cc_now_ms() + (int64_t)timeout_s * 1000;
        bool open_o = true, open_e = !merge;
        while (open_o || open_e) {
            int64_t left = deadline - cc_now_ms();
            if (left <= 0) r->timed_out = true;
            if (ctx && cc_wctx_cancelled(ctx)) r->cancelled = true;
            if (r->timed_out || r->cancelled) break;
            struct pollfd p[2] = {{.fd = open_o ? po[0] : -1, .events = POLLIN},
                                  {.fd = open_e ? pe[0] : -1, .events = POLLIN}};
            if (poll(p, 2, left < TICK_MS ? (int)left : TICK_MS) < 0 && errno != EINTR) break;
            if (p[0].revents) open_o = drain(po[0], &out);
            if (p[1].revents) open_e = drain(pe[0], &err);
        }
        /* The whole group goes: a manager's helpers must not outlive it. */
        if (r->timed_out || r->cancelled) kill(-pid, SIGKILL);
        int st;
        while (waitpid(pid, &st, 0) < 0 && errno == EINTR) {
        }
        kill(-pid, SIGKILL);
        r->exited = WIFEXITED(st);
        r->exit_code = r->exited ? WEXITSTATUS(st) : -1;
        r->term_signal = WIFSIGNALED(st) ? WTERMSIG(st) : 0;
    }
    if (po[0] >= 0) close(po[0]);
    if (pe[0] >= 0) close(pe[0]);
    r->out = out.buf;
    r->out_len = out.len;
    r->err = err.buf;
    r->err_len = err.len;
    if (r->out) r->out[r->out_len] = '\0';
    if (r->err) r->err[r->err_len] = '\0';
}

void cc_host_cmd_free(struct cc_host_cmd *r) {
    free(r->out);
    free(r->err);
    r->out = r->err = NULL;
}

char *cc_host_cmd_find(const char *cmd) {
    char *p = cc_resolve_cmd(cmd, cc_runtime_path());
    const char *srv = getenv("PATH");
    if (!p && srv) p = cc_resolve_cmd(cmd, srv);
    return p;
}

/* The last non-empty line of text, at most 300 bytes. */
static void last_line(const char *text, char *out, size_t cap) {
    out[0] = '\0';
    if (!text) return;
    const char *end = text + strlen(text);
    while (end > text && (end[-1] == '\n' || end[-1] == ' ')) end--;
    const char *start = end;
    while (start > text && start[-1] != '\n') start--;
    size_t n = (size_t)(end - start);
    if (n > 300) n = 300;
    if (n >= cap) n = cap - 1;
    memcpy(out, start, n);
    out[n] = '\0';
}

const char *cc_host_cmd_why(const struct cc_host_cmd *r, int timeout_s, char *buf, size_t cap) {
    char line[320];
    if (!r->started) snprintf(buf, cap, "%s", r->spawn_error);
    else if (r->timed_out) snprintf(buf, cap, "timed out after %d s", timeout_s);
    else if (r->cancelled) snprintf(buf, cap, "cancelled");
    else if (!r->exited) snprintf(buf, cap, "killed by signal %d", r->term_signal);
    else {
        last_line(r->err && r->err_len ? r->err : r->out, line, sizeof line);
        snprintf(buf, cap, "exit status %d%s%s", r->exit_code, line[0] ? ": " : "", line);
    }
    return buf;
}
