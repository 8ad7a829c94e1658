/* REPL hosts for stateful sessions (python3, node): start a detached
 * launcher (codecalc-repl, repl-workers/launcher.h) per session, talk to it
 * through supervisor/sessions/repl_client.c, re-attach after a restart, stop it.
 *
 * The launcher lives outside our process tree, so a server restart does not
 * cost the session its variables: its socket is $CODECALC_HOME/repl/<id>.sock
 * (outside every sandbox's view), its identity <id>.pid ("pid start"), its
 * log <id>.log. A launcher that is gone is started again on the next call,
 * and that call's result says the earlier state was lost. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include "protocol/proc_stat.h"
#include "repl-workers/repl_langs.h"
#include "supervisor/log.h"
#include "supervisor/sessions/quota.h"
#include "supervisor/sessions/repl_client.h"
#include "supervisor/repl_host_path.h"
#include "supervisor/sessions/sessions.h"
#include "supervisor/spawn_detached.h"
#include "workers/common/tool_api.h"

#define WARMUP_MS 10000
#define LOG_TAIL 600

extern char **environ;

/* ---- paths ---------------------------------------------------------------- */

static int sock_file(struct cc_server *srv, const char *id, const char *ext, char *out, size_t cap) {
    return snprintf(out, cap, "%s/%s.%s", cc_sessions_of(srv)->sockdir, id, ext) < (int)cap ? 0 : -1;
}

/* The host script (supervisor/repl_host_path.h). */
static int host_script(struct cc_server *srv, const char *lang, char *out, size_t cap) {
    const struct cc_repl_lang *rl = cc_repl_lang_find(lang);
    if (!rl) {
        errno = ENOENT;
        return -1;
    }
    return cc_repl_host_path(srv->bindir, rl->script, out, cap);
}

/* The last bytes of the launcher's log, for a start failure's message. */
static void log_tail(struct cc_server *srv, const char *id, char *out, size_t cap) {
    char p[PATH_MAX];
    out[0] = '\0';
    if (sock_file(srv, id, "log", p, sizeof p) < 0) return;
    int fd = open(p, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
    if (fd < 0) return;
    off_t end = lseek(fd, 0, SEEK_END);
    off_t from = end > (off_t)cap - 1 ? end - (off_t)cap + 1 : 0;
    ssize_t n = pread(fd, out, cap - 1, from);
    close(fd);
    out[n > 0 ? n : 0] = '\0';
}

/* ---- launching -------------------------------------------------------------- */

static int listen_at(const char *path) {
    struct sockaddr_un sa = {.sun_family = AF_UNIX};
    if (strlen(path) >= sizeof sa.sun_path) {
        errno = ENAMETOOLONG;
        return -1;
    }
    memcpy(sa.sun_path, path, strlen(path) + 1);
    int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0) return -1;
    unlink(path); /* a stale socket of a dead launcher */
    if (bind(fd, (struct sockaddr *)&sa, sizeof sa) != 0 || chmod(path, 0600) != 0 || listen(fd, 16) != 0) {
        int e = errno;
        close(fd);
        errno = e;
        return -1;
    }
    return fd;
}

static int spawn_launcher(struct cc_server *srv, struct cc_session *s, int lfd, char *err, size_t cap) {
    char bin[PATH_MAX + 32], script[PATH_MAX], logp[PATH_MAX], wd[PATH_MAX + 80];
    snprintf(bin, sizeof bin, "%s/codecalc-repl", srv->bindir);
    snprintf(wd, sizeof wd, "%s/%s", cc_sessions_of(srv)->root, s->id);
    if (host_script(srv, s->lang, script, sizeof script) < 0) {
        snprintf(err, cap, "the %s host script is missing (looked in $CODECALC_REPL_DIR, %.200s/../../repl-workers, "
                 "%.200s)", s->lang, srv->bindir, srv->bindir);
        return -1;
    }
    if (sock_file(srv, s->id, "log", logp, sizeof logp) < 0) return -1;
    char *const argv[] = {bin, cc_sessions_of(srv)->sockdir, s->id, s->lang, wd, script, NULL};
    pid_t pid;
    return cc_spawn_detached(bin, argv, logp, lfd, &pid, err, cap);
}

/* New launcher for s and a connection to it. The socket is bound and
 * listening before the launcher exists, so connecting never races it. */
static int launch(struct cc_server *srv, struct cc_session *s, char *err, size_t cap) {
    char sock[PATH_MAX];
    if (sock_file(srv, s->id, "sock", sock, sizeof sock) < 0) {
        snprintf(err, cap, "socket path too long");
        return -1;
    }
    int lfd = listen_at(sock);
    if (lfd < 0) {
        snprintf(err, cap, "cannot listen on %s: %s", sock, strerror(errno));
        return -1;
    }
    int rc = spawn_launcher(srv, s, lfd, err, cap);
    if (rc == 0 && !(s->repl = cc_repl_client_new(srv->base, sock))) {
        snprintf(err, cap, "cannot connect to %s: %s", sock, strerror(errno));
        rc = -1;
    }
    close(lfd);
    if (rc != 0) unlink(sock);
    return rc;
}

/* ---- the liveness lock (4.10) ---------------------------------------------- */

static void write_lock(struct cc_server *srv, struct cc_session *s) {
    json_t *hello = cc_repl_client_hello(s->repl);
    json_int_t pid = json_integer_value(json_object_get(hello, "pid"));
    char p[CC_SESSION_ID_MAX + 40], text[32];
    snprintf(p, sizeof p, "%s/.codecalc-session-lock", s->id);
    int n = snprintf(text, sizeof text, "%lld", (long long)(pid > 0 ? pid : getpid()));
    int fd = openat(cc_sessions_of(srv)->root_fd, p, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0600);
    if (fd < 0) return;
    if (write(fd, text, (size_t)n) != n) cc_log(CC_LOG_WARNING, "session %s: short lock file", s->id);
    close(fd);
}

/* The launcher's pid from its hello; 0 before it arrived. */
static pid_t hello_pid(const struct cc_session *s) {
    json_int_t pid = json_integer_value(json_object_get(cc_repl_client_hello(s->repl), "pid"));
    return pid > 0 && pid < INT32_MAX ? (pid_t)pid : 0;
}

static void remove_lock(struct cc_server *srv, const char *id) {
    char p[CC_SESSION_ID_MAX + 40];
    snprintf(p, sizeof p, "%s/.codecalc-session-lock", id);
    unlinkat(cc_sessions_of(srv)->root_fd, p, 0);
}

/* ---- calls ----------------------------------------------------------------- */

struct pending {
    struct cc_server *srv;
    struct cc_req *r;
    uint64_t wid;
    char id[CC_SESSION_ID_MAX + 1];
    json_t *start_res;          /* session_start only: the answer to finish */
    bool relaunched;            /* the host was started again for this call */
};

static struct cc_session *live_session(struct pending *p) {
    struct cc_session *s = p->srv->sessions ? cc_session_find(p->srv, p->id) : NULL;
    return s && s->repl ? s : NULL;
}

static void start_done(struct pending *p, json_t *res, const char *err) {
    struct cc_session *s = live_session(p);
    if (!res || !json_is_true(json_object_get(res, "ok"))) {
        char tail[LOG_TAIL];
        log_tail(p->srv, p->id, tail, sizeof tail);
        const char *why = res ? json_string_value(json_object_get(res, "error")) : err;
        if (!why && res) why = json_string_value(json_object_get(res, "stderr"));
        cc_req_answer_fail(p->r, "worker_failure", "failed to start %s REPL worker: %s%s%s",
                           s ? s->lang : "python3", why ? why : "no answer", tail[0] ? "; host log: " : "", tail);
        if (s) cc_repl_close(p->srv, s);
        return;
    }
    json_object_set(p->start_res, "confined", json_object_get(res, "confined"));
    json_t *un = json_object_get(res, "unenforced");
    json_object_set_new(p->start_res, "unenforced", json_is_array(un) ? json_copy(un) : json_array());
    if (s) {
        write_lock(p->srv, s);
        cc_srec_host(p->srv, s, hello_pid(s));
        int fd = openat(cc_sessions_of(p->srv)->root_fd, s->id, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        json_t *files = fd >= 0 ? cc_session_listing(fd) : NULL;
        if (fd >= 0) close(fd);
        if (files) json_object_set_new(p->start_res, "files", files);
    }
    cc_session_answer(p->r, p->start_res);
}

static void exec_done(struct pending *p, json_t *res, const char *code, const char *err) {
    json_t *out = res ? json_deep_copy(res) : NULL;
    if (!out) {
        out = cc_err(code ? code : "worker_failure", "%s", err ? err : "the REPL host gave no answer");
        json_object_set_new(out, "backend", json_string("session-worker"));
        json_object_set_new(out, "verdict", json_string("RTE"));
    }
    if (p->relaunched && !json_object_get(out, "state_lost")) {
        json_object_set_new(out, "state_lost", json_true());
        json_object_set_new(out, "host_restarted", json_string("the session's REPL host was gone (it "
                            "died, timed out or did not survive a restart); this call ran on a fresh one "
                            "and earlier variables, imports and definitions are gone"));
    }
    struct cc_sessions *ss = cc_sessions_of(p->srv);
    struct cc_session *s = live_session(p);
    if (p->relaunched && s) cc_srec_host(p->srv, s, hello_pid(s));
    int ws = openat(ss->root_fd, p->id, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (ws >= 0) {
        cc_quota_postcheck(out, ss->root_fd, ws);
        close(ws);
    }
    cc_session_answer(p->r, out);
    json_decref(out);
}

static void kill_by_pidfile(struct cc_server *srv, const char *id, int sig);

static void on_done(void *ud, json_t *res, const char *code, const char *err) {
    struct pending *p = ud;
    struct cc_session *s = p->srv->sessions ? cc_session_find(p->srv, p->id) : NULL;
    if (s && s->inflight > 0) s->inflight--;
    /* The connection was given up (the launcher stopped answering, or broke
     * the protocol): a launcher still there, stopped or hung, would hold its
     * host and workspace for ever, and could wake beside the next one.
     * SIGKILL (a stopped process acts on nothing else); its janitor clears
     * what it held. The client itself is freed at the next call. */
    if (s && s->repl && !cc_repl_client_alive(s->repl)) kill_by_pidfile(p->srv, s->id, SIGKILL);
    cc_session_touch(p->srv, s); /* the idle clock runs from the answer */
    if (p->srv->sessions && cc_session_req_alive(p->srv, p->r, p->wid)) {
        if (p->start_res) start_done(p, res, err);
        else exec_done(p, res, code, err);
    }
    json_decref(p->start_res);
    free(p);
}

static int submit(struct cc_server *srv, struct cc_session *s, struct cc_req *r, json_t *args,
                  int64_t deadline_ms, json_t *start_res, bool relaunched) {
    struct pending *p = calloc(1, sizeof *p);
    if (!p) return -1;
    *p = (struct pending){.srv = srv, .r = r, .wid = r->wid, .relaunched = relaunched};
    snprintf(p->id, sizeof p->id, "%s", s->id);
    if (cc_repl_client_call(s->repl, srv->next_wid++, args, deadline_ms, on_done, p) != 0) {
        free(p);
        return -1;
    }
    p->start_res = json_incref(start_res);
    s->inflight++;
    return 0;
}

/* ---- the supervisor/sessions/sessions.h hooks ---------------------------------------------------- */

json_t *cc_repl_structural_unenforced(void) { return json_array(); }

void cc_repl_start(struct cc_server *srv, struct cc_session *s, struct cc_req *r, json_t *res) {
    char err[PATH_MAX + 200];
    json_t *warm = json_pack("{s:s,s:s,s:i}", "language", s->lang, "code", "", "timeout", WARMUP_MS / 1000);
    if (launch(srv, s, err, sizeof err) != 0 || submit(srv, s, r, warm, WARMUP_MS, res, false) != 0) {
        cc_req_answer_fail(r, "worker_failure", "failed to start %s REPL worker: %s", s->lang,
                           s->repl ? "cannot reach the launcher" : err);
        if (s->repl) cc_repl_close(srv, s);
    }
    json_decref(warm);
}

static int64_t call_deadline_ms(json_t *args) {
    json_t *t = json_object_get(args, "timeout");
    json_int_t secs = json_is_integer(t) ? json_integer_value(t) : 30;
    if (secs < 1) secs = 1;
    if (secs > 900) secs = 900;
    return (int64_t)secs * 1000;
}

/* What the host needs of the client's arguments; never a "_" key. */
static json_t *host_args(json_t *args) {
    static const char *const keep[] = {"language", "code", "stdin", "timeout", "max_memory_mb",
                                       "max_output_kb", "max_cpu", "no_net", NULL};
    json_t *a = json_object();
    for (int i = 0; keep[i]; i++) {
        json_t *v = json_object_get(args, keep[i]);
        if (v) json_object_set(a, keep[i], v);
    }
    return a;
}

void cc_repl_exec(struct cc_server *srv, struct cc_session *s, struct cc_req *r, json_t *args) {
    const char *spelled = json_string_value(json_object_get(args, "language"));
    const char *lang = cc_session_lang(spelled);
    if (!json_is_string(json_object_get(args, "code"))) {
        cc_req_answer_fail(r, "validation", "code must be a string");
        return;
    }
    if (!lang || strcmp(lang, s->lang) != 0) {
        cc_req_answer_fail(r, "validation", "session is %s, not %s", s->lang, spelled ? spelled : "(none)");
        return;
    }
    bool relaunched = false;
    char err[PATH_MAX + 200];
    if (s->repl && !cc_repl_client_alive(s->repl)) cc_repl_detach(srv, s);
    if (!s->repl) {
        if (launch(srv, s, err, sizeof err) != 0) {
            cc_req_answer_fail(r, "worker_failure", "python3 worker died and could not be restarted: %s", err);
            return;
        }
        relaunched = true;
    }
    json_t *a = host_args(args);
    if (submit(srv, s, r, a, call_deadline_ms(args), NULL, relaunched) != 0)
        cc_req_answer_fail(r, "worker_failure", "worker closed");
    json_decref(a);
}

/* A launcher left by an earlier server: alive (pid + start time match its
 * pidfile) and listening → connect. */
int cc_repl_attach(struct cc_server *srv, struct cc_session *s) {
    char pidp[PATH_MAX], sock[PATH_MAX];
    if (sock_file(srv, s->id, "pid", pidp, sizeof pidp) < 0 || sock_file(srv, s->id, "sock", sock, sizeof sock) < 0)
        return -1;
    FILE *f = fopen(pidp, "re");
    long pid = 0;
    unsigned long long start = 0;
    int got = f ? fscanf(f, "%ld %llu", &pid, &start) : 0;
    if (f) fclose(f);
    if (got != 2 || pid <= 0 || pid > INT32_MAX || !cc_proc_alive((pid_t)pid, start)) return -1;
    s->host_pid = (pid_t)pid;
    s->repl = cc_repl_client_new(srv->base, sock);
    return s->repl ? 0 : -1;
}

/* The launcher by its pidfile, only while pid and start time still match. */
static void kill_by_pidfile(struct cc_server *srv, const char *id, int sig) {
    char pidp[PATH_MAX], sock[PATH_MAX];
    if (sock_file(srv, id, "pid", pidp, sizeof pidp) < 0 || sock_file(srv, id, "sock", sock, sizeof sock) < 0)
        return;
    FILE *f = fopen(pidp, "re");
    long pid = 0;
    unsigned long long start = 0;
    int got = f ? fscanf(f, "%ld %llu", &pid, &start) : 0;
    if (f) fclose(f);
    if (got == 2 && pid > 0 && cc_proc_alive((pid_t)pid, start)) kill((pid_t)pid, sig);
}

void cc_repl_close(struct cc_server *srv, struct cc_session *s) {
    if (s->repl) {
        bool clean = cc_repl_client_alive(s->repl);
        cc_repl_client_kill(s->repl);
        cc_repl_client_free(s->repl, "the session was stopped");
        if (!clean) kill_by_pidfile(srv, s->id, SIGTERM);
    } else {
        kill_by_pidfile(srv, s->id, SIGTERM);
    }
    s->repl = NULL;
    remove_lock(srv, s->id);
    /* The launcher removes its socket and pid file; its log (read above
     * for a start failure's message) is ours to remove with the host. */
    char logp[PATH_MAX];
    if (sock_file(srv, s->id, "log", logp, sizeof logp) == 0) unlink(logp);
}

void cc_repl_detach(struct cc_server *srv, struct cc_session *s) {
    (void)srv;
    if (s->repl) cc_repl_client_free(s->repl, "the server is shutting down");
    s->repl = NULL;
}

bool cc_repl_alive(const struct cc_session *s) { return cc_repl_client_alive(s->repl); }
