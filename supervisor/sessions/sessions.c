/* Sessions: start, stop, list, the execute_code hand-off, and the shared
 * helpers every session tool uses (id validation, workspace lookup, idle
 * expiry, answers). File tools live in supervisor/sessions/files.c, code in the
 * workspace in supervisor/sessions/exec.c, REPL hosts in supervisor/sessions/repl.c. */
#include "supervisor/sessions/sessions.h"
#include "protocol/text_knob.h"
#include "workers/exec/languages.h"
#include "workers/exec/lang_refusal.h"

#include <event2/event.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "protocol/json_convert.h"
#include "protocol/knob.h"
#include "protocol/rmtree.h"
#include "protocol/strbuf.h"
#include "supervisor/home.h"
#include "supervisor/mcp/local_tools.h"
#include "repl-workers/repl_langs.h"
#include "supervisor/log.h"
#include "supervisor/sessions/quota.h"
#include "workers/common/tool_api.h"
#include "workers/sandbox/sandbox.h"

struct cc_sessions *cc_sessions_of(struct cc_server *srv) { return srv->sessions; }

/* ---- answers ------------------------------------------------------------ */

void cc_session_answer(struct cc_req *r, json_t *obj) {
    if (!json_object_get(obj, "contract_version"))
        json_object_set_new(obj, "contract_version", json_string(CC_CONTRACT_VERSION));
    struct cc_strbuf sb;
    cc_sb_init(&sb);
    cc_json_emit(&sb, obj);
    cc_req_answer_result(r, sb.data, sb.len, false);
    cc_sb_free(&sb);
}

bool cc_session_req_alive(struct cc_server *srv, struct cc_req *r, uint64_t wid) {
    for (struct cc_req *q = srv->inflight; q; q = q->next)
        if (q == r) return q->wid == wid && !q->cancelled;
    return false;
}

static void answer_err(struct cc_req *r, json_t *err) {
    cc_session_answer(r, err);
    json_decref(err);
}

/* ---- languages ---------------------------------------------------------- */

/* The exec registry's names and aliases (workers/exec/languages.c, linked
 * for the one unknown-language refusal), plus any python3.X spelling. */
const char *cc_session_lang(const char *spelled) {
    if (!spelled || strlen(spelled) >= 32) return NULL;
    const struct cc_lang *l = cc_lang_find(spelled);
    if (l) return l->name;
    if (!strncasecmp(spelled, "python3.", 8)) return "python3";
    return NULL;
}

const char *cc_session_lang_for_file(const char *path) {
    static const char *const ext[][2] = {
        {"py", "python3"}, {"js", "node"}, {"ts", "typescript"}, {"rb", "ruby"}, {"php", "php"},
        {"pl", "perl"}, {"lua", "lua"}, {"tcl", "tcl"}, {"R", "r"}, {"exs", "elixir"},
        {"erl", "erlang"}, {"sh", "bash"}, {"zsh", "zsh"}, {"mojo", "mojo"}, {"swift", "swift"},
        {"c", "c"}, {"cpp", "c++"}, {"rs", "rust"}, {"go", "go"}, {"f90", "fortran"},
        {"zig", "zig"}, {"java", "java"}, {"kt", "kotlin"}, {"cs", "csharp"}, {"gleam", "gleam"},
        {"hs", "haskell"}, {"sql", "sqlite"}, {"jq", "jq"}, {"awk", "awk"}, {NULL, NULL}};
    const char *base = strrchr(path, '/');
    const char *dot = strrchr(base ? base : path, '.');
    for (int i = 0; dot && ext[i][0]; i++)
        if (!strcmp(dot + 1, ext[i][0])) return ext[i][1];
    return "python3";
}

/* ---- records, expiry ---------------------------------------------------- */

struct cc_session *cc_session_find(struct cc_server *srv, const char *id) {
    struct cc_sessions *ss = srv->sessions;
    for (struct cc_session *s = ss ? ss->list : NULL; s; s = s->next)
        if (!strcmp(s->id, id)) return s;
    return NULL;
}

static void session_unlink(struct cc_server *srv, struct cc_session *s) {
    struct cc_sessions *ss = srv->sessions;
    for (struct cc_session **p = &ss->list; *p; p = &(*p)->next)
        if (*p == s) {
            *p = s->next;
            break;
        }
    if (s->repl) cc_repl_close(srv, s);
    free(s);
}

bool cc_session_is_expired(struct cc_server *srv, const char *id) {
    struct cc_sessions *ss = srv->sessions;
    struct cc_session *s = cc_session_find(srv, id);
    if (s) return s->expired;
    for (int i = 0; i < ss->n_expired; i++)
        if (!strcmp(ss->expired[i], id)) return true;
    /* The durable marker (the store) survives a restart. */
    return cc_srec_is_expired(srv, id);
}

double cc_session_idle_ttl(void) { return (double)cc_knob(CC_KNOB_SESSION_IDLE_TTL_SECONDS) / 1000.0; }

static void remember_expired(struct cc_sessions *ss, const char *id) {
    snprintf(ss->expired[ss->expired_next], sizeof ss->expired[0], "%s", id);
    ss->expired_next = (ss->expired_next + 1) % CC_EXPIRED_CAP;
    if (ss->n_expired < CC_EXPIRED_CAP) ss->n_expired++;
}

/* Reap an idle session (issue 6 item 2 and issue 11 item 10, which win over
 * 4.8's "workspace kept" and "off by default"): kill its host, remove its
 * workspace, keep the record so the next call hears why. The record stays in ss->list (callers may
 * hold it) until session_stop. */
static void expire(struct cc_server *srv, struct cc_session *s) {
    struct cc_sessions *ss = srv->sessions;
    if (s->stateful) cc_repl_close(srv, s);
    if (cc_rmtree_at(ss->root_fd, s->id) != 0 && errno != ENOENT)
        cc_log(CC_LOG_WARNING, "session %s: workspace not fully removed at expiry: %s", s->id, strerror(errno));
    s->expired = true;
    remember_expired(ss, s->id);
    cc_srec_expired(srv, s);
    cc_log(CC_LOG_INFO, "session %s: expired after idling past %gs", s->id, cc_session_idle_ttl());
}

static bool idle_past_ttl(const struct cc_session *s, int64_t now) {
    double ttl = cc_session_idle_ttl();
    /* A session busy with a call (or its start) is not idle, however long
     * the call takes. */
    return !s->expired && s->inflight == 0 && ttl > 0 &&
           (double)(now - s->last_ms) > ttl * 1000.0;
}

void cc_sessions_sweep(struct cc_server *srv) {
    struct cc_sessions *ss = srv->sessions;
    int64_t now = cc_now_ms();
    for (struct cc_session *s = ss ? ss->list : NULL; s; s = s->next)
        if (idle_past_ttl(s, now)) expire(srv, s);
}

static void on_sweep(evutil_socket_t fd, short what, void *arg) {
    (void)fd, (void)what;
    cc_sessions_sweep(arg);
}

void cc_session_touch(struct cc_server *srv, struct cc_session *s) {
    if (!s || s->expired) return;
    s->last_ms = cc_now_ms();
    cc_srec_touch(srv, s);
}

void cc_session_hold(struct cc_server *srv, const char *id) {
    struct cc_session *s = srv->sessions ? cc_session_find(srv, id) : NULL;
    if (s) s->inflight++;
}

void cc_session_release(struct cc_server *srv, const char *id) {
    struct cc_session *s = srv->sessions ? cc_session_find(srv, id) : NULL;
    if (!s) return;
    if (s->inflight > 0) s->inflight--;
    cc_session_touch(srv, s);
}

static void answer_expired(struct cc_req *r, const char *id) {
    char ttl[32];
    double t = cc_session_idle_ttl();
    if (t > 0) snprintf(ttl, sizeof ttl, "%gs", t);
    else snprintf(ttl, sizeof ttl, "its idle TTL");
    cc_req_answer_fail(r, "worker_failure", "session '%s' expired after sitting idle past %s; call "
                       "session_stop and start a new one", id, ttl);
}

/* ---- id + workspace ------------------------------------------------------ */

static bool id_valid(const char *id) {
    size_t n = strlen(id);
    return n >= 1 && n <= CC_SESSION_ID_MAX &&
           strspn(id, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-") == n;
}

int cc_session_open(struct cc_server *srv, struct cc_req *r, json_t *args, struct cc_session **s,
                    int *ws_fd, const char **idp) {
    json_t *jid = json_object_get(args, "session_id");
    const char *id = json_string_value(jid);
    if (!id || json_string_length(jid) != strlen(id) || !id_valid(id)) {
        cc_req_answer_fail(r, "validation", "invalid session id");
        return -1;
    }
    struct cc_sessions *ss = srv->sessions;
    struct cc_session *found = ss ? cc_session_find(srv, id) : NULL;
    if (found && idle_past_ttl(found, cc_now_ms())) expire(srv, found);
    if (ss && cc_session_is_expired(srv, id)) {
        answer_expired(r, id);
        return -1;
    }
    int fd = ss ? openat(ss->root_fd, id, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC) : -1;
    if (fd < 0) {
        cc_req_answer_fail(r, "validation", "unknown session '%s'", id);
        return -1;
    }
    *ws_fd = fd;
    *s = found;
    *idp = id;
    return 0;
}

/* ---- session_start ------------------------------------------------------ */

static int make_workspace(struct cc_sessions *ss, const char *prefix, struct cc_session *s) {
    for (int tries = 0; tries < 16; tries++) {
        unsigned char b[4];
        if (getrandom(b, sizeof b, 0) != sizeof b) return -1;
        snprintf(s->id, sizeof s->id, "%s-%02x%02x%02x%02x", prefix, b[0], b[1], b[2], b[3]);
        if (mkdirat(ss->root_fd, s->id, 0700) == 0) break;
        if (errno != EEXIST) return -1;
        s->id[0] = '\0';
    }
    if (!s->id[0]) return -1;
    struct stat st;
    if (fstatat(ss->root_fd, s->id, &st, AT_SYMLINK_NOFOLLOW) != 0) return -1;
    s->dev = st.st_dev;
    s->ino = st.st_ino;
    s->created_here = true;
    /* Code runs as the sandbox uid when we are root: it must own its
     * workspace (and nothing else). */
    if (geteuid() == 0 && fchownat(ss->root_fd, s->id, SBX_RUN_UID, SBX_RUN_GID, AT_SYMLINK_NOFOLLOW) != 0)
        return -1;
    return 0;
}

static json_t *start_result(struct cc_sessions *ss, struct cc_session *s) {
    char wd[PATH_MAX + 80];
    snprintf(wd, sizeof wd, "%s/%s", ss->root, s->id);
    int fd = openat(ss->root_fd, s->id, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    json_t *files = fd >= 0 ? cc_session_listing(fd) : json_array();
    if (fd >= 0) close(fd);
    return json_pack("{s:b,s:s,s:s,s:b,s:s,s:o}", "ok", 1, "session_id", s->id, "language", s->lang,
                     "stateful", s->stateful, "workdir", wd, "files", files ? files : json_array());
}

static void session_start(struct cc_server *srv, struct cc_req *r, json_t *args) {
    struct cc_sessions *ss = srv->sessions;
    json_t *jl = json_object_get(args, "language");
    const char *spelled = json_string_value(jl);
    const char *lang = cc_session_lang(spelled ? spelled : "python3");
    if ((jl && !json_is_null(jl) && !spelled) || !lang) {
        /* Never a silent python3 for a language we do not know (issue 11
         * item 5): the caller hears the list it can choose from. */
        answer_err(r, cc_unknown_language(spelled));
        return;
    }
    struct cc_session *s = calloc(1, sizeof *s);
    if (!s) {
        cc_req_answer_fail(r, "internal", "out of memory");
        return;
    }
    snprintf(s->lang, sizeof s->lang, "%s", lang);
    char prefix[24];
    snprintf(prefix, sizeof prefix, "%s", lang);
    for (char *p = prefix; *p; p++)
        if (*p == '+') *p = 'p';
    if (make_workspace(ss, prefix, s) != 0) {
        cc_req_answer_fail(r, "internal", "cannot create the session workspace in %s: %s", ss->root,
                           strerror(errno));
        free(s);
        return;
    }
    s->stateful = cc_repl_lang_find(lang) != NULL;
    s->last_ms = cc_now_ms();
    s->created_at = (double)time(NULL);
    s->next = ss->list;
    ss->list = s;
    cc_srec_save(srv, s);
    json_t *res = start_result(ss, s);
    if (s->stateful) {
        cc_repl_start(srv, s, r, res); /* answers r */
    } else {
        cc_session_answer(r, res);
    }
    json_decref(res);
}

/* ---- session_stop ------------------------------------------------------- */

static void session_stop(struct cc_server *srv, struct cc_req *r, json_t *args) {
    struct cc_sessions *ss = srv->sessions;
    const char *id = json_string_value(json_object_get(args, "session_id"));
    if (!id || !id_valid(id)) {
        cc_req_answer_fail(r, "validation", "invalid session id");
        return;
    }
    struct cc_session *s = cc_session_find(srv, id);
    bool keep = json_is_true(json_object_get(args, "keep_workspace"));
    bool may_delete = false;
    if (s) {
        struct stat st;
        may_delete = s->created_here && fstatat(ss->root_fd, id, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
                     S_ISDIR(st.st_mode) && st.st_dev == s->dev && st.st_ino == s->ino;
        session_unlink(srv, s);
    }
    if (may_delete && !keep) cc_rmtree_at(ss->root_fd, id);
    cc_srec_forget(srv, id);
    for (int i = 0; i < ss->n_expired; i++)
        if (!strcmp(ss->expired[i], id)) ss->expired[i][0] = '\0';
    struct stat st;
    bool gone = fstatat(ss->root_fd, id, &st, AT_SYMLINK_NOFOLLOW) != 0 && errno == ENOENT;
    json_t *res = json_pack("{s:b,s:s,s:b}", "ok", 1, "session_id", id, "deleted", gone && may_delete);
    if (keep && may_delete) json_object_set_new(res, "kept", json_true());
    cc_session_answer(r, res);
    json_decref(res);
}

/* ---- session_list ------------------------------------------------------- */

static void session_list(struct cc_server *srv, struct cc_req *r, json_t *args) {
    (void)args;
    cc_sessions_sweep(srv);
    json_t *res = json_pack("{s:b,s:o}", "ok", 1, "sessions", cc_srec_listing(srv));
    cc_session_answer(r, res);
    json_decref(res);
}

/* ---- execute_code with session_id (4.5) ---------------------------------- */

bool cc_sessions_intercept(struct cc_server *srv, struct cc_req *r, json_t *args) {
    if (!(r->tool->flags & CC_TOOL_SESSION_EXEC)) {
        cc_req_answer_fail(r, "validation", "tool '%s' does not take a session_id", r->tool->name);
        return true;
    }
    struct cc_session *s;
    const char *id;
    int ws;
    if (!srv->sessions) {
        cc_req_answer_fail(r, "validation", "sessions are not served by this process");
        return true;
    }
    /* A session keeps its packages in its workspace (install_package);
     * per-run environments are for one-shot runs (docs/contract.md). */
    if (json_array_size(json_object_get(args, "dependencies"))) {
        cc_req_answer_fail(r, "validation", "dependencies are installed per one-shot run and are not taken "
                           "with a session_id; install into the session with install_package instead");
        return true;
    }
    if (cc_session_open(srv, r, args, &s, &ws, &id) < 0) return true;
    struct cc_sessions *ss = srv->sessions;
    json_t *q = cc_quota_precheck(ss->root_fd, ws, id);
    close(ws);
    if (q) {
        answer_err(r, q);
        return true;
    }
    bool stateful = s ? s->stateful : false;
    cc_session_touch(srv, s);
    if (stateful) cc_repl_exec(srv, s, r, args);
    else cc_session_exec_workspace(srv, r, args, s, id);
    return true;
}

/* ---- lifecycle ---------------------------------------------------------- */

int cc_session_root(char *out, size_t cap) {
    const char *env = cc_text(CC_TEXT_SESSION_ROOT); /* absolute, or start was refused */
    char home[PATH_MAX];
    if (env) {
        if ((size_t)snprintf(out, cap, "%s", env) >= cap) return -1;
    } else {
        if (cc_home_dir(home, sizeof home) < 0) return -1;
        if ((size_t)snprintf(out, cap, "%s/sessions", home) >= cap) return -1;
    }
    if (mkdir(out, 0700) != 0 && errno != EEXIST) return -1;
    return 0;
}

int cc_sessions_init(struct cc_server *srv) {
    struct cc_sessions *ss = calloc(1, sizeof *ss);
    char home[PATH_MAX];
    if (!ss || cc_session_root(ss->root, sizeof ss->root) < 0 || cc_home_dir(home, sizeof home) < 0 ||
        (size_t)snprintf(ss->sockdir, sizeof ss->sockdir, "%s/repl", home) >= sizeof ss->sockdir) {
        cc_log(CC_LOG_ERROR, "sessions: cannot prepare the session root: %s", strerror(errno));
        free(ss);
        return -1;
    }
    if (mkdir(ss->sockdir, 0700) != 0 && errno != EEXIST) {
        free(ss);
        return -1;
    }
    ss->root_fd = open(ss->root, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (ss->root_fd < 0) {
        free(ss);
        return -1;
    }
    srv->sessions = ss;
    cc_srec_open(ss, home);
    cc_srec_load(srv);
    /* Expiry is also checked lazily on access; the timer reaps sessions
     * nobody touches again. */
    ss->sweep = event_new(srv->base, -1, EV_PERSIST, on_sweep, srv);
    struct timeval tv = {1, 0};
    if (!ss->sweep || event_add(ss->sweep, &tv) != 0)
        cc_log(CC_LOG_WARNING, "sessions: no idle-expiry timer; expiry stays lazy");
    return 0;
}

void cc_sessions_shutdown(struct cc_server *srv) {
    struct cc_sessions *ss = srv->sessions;
    if (!ss) return;
    /* Hosts outlive the server on purpose: only our connections go. */
    while (ss->list) {
        struct cc_session *s = ss->list;
        ss->list = s->next;
        if (s->repl) cc_repl_detach(srv, s);
        free(s);
    }
    if (ss->sweep) event_free(ss->sweep);
    cc_srec_close(ss);
    close(ss->root_fd);
    free(ss);
    srv->sessions = NULL;
}

/* ---- tables ------------------------------------------------------------- */

void cc_tool_install_package(struct cc_server *srv, struct cc_req *r, json_t *args);

/* A local tool called while sessions are off (stateless `codecalc call`). */
static bool sessions_on(struct cc_server *srv, struct cc_req *r) {
    if (srv->sessions) return true;
    cc_req_answer_fail(r, "internal", "sessions are not served by this process");
    return false;
}

/* The tool table's handler cc_local_<tool> for each sessions tool: fn
 * once sessions are served. */
#define GUARD(tool, fn)                                    \
    CC_LOCAL_TOOL(tool) {                                  \
        if (sessions_on(srv, r)) fn(srv, r, args);         \
    }
GUARD(session_start, session_start)
GUARD(session_stop, session_stop)
GUARD(session_list, session_list)
GUARD(session_files, cc_tool_session_files)
GUARD(session_read_file, cc_tool_session_read_file)
GUARD(session_write_file, cc_tool_session_write_file)
GUARD(session_artifacts, cc_tool_session_artifacts)
GUARD(session_run, cc_tool_session_run)
GUARD(install_package, cc_tool_install_package)
