/* Sessions: start, stop, list, the execute_code hand-off, and the shared
 * helpers every session tool uses (id validation, workspace lookup, idle
 * expiry, answers). File tools live in session_files.c, code in the
 * workspace in session_exec.c, REPL hosts in session_repl.c. */
#include "supervisor/sessions.h"

#include <dirent.h>
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
#include "protocol/strbuf.h"
#include "supervisor/home.h"
#include "supervisor/local_tools.h"
#include "supervisor/log.h"
#include "supervisor/quota.h"
#include "workers/common/tool_api.h"
#include "workers/exec/sandbox.h"

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

static const char *const lang_table[][2] = {
    {"python", "python3"}, {"py", "python3"}, {"python3", "python3"}, {"node", "node"},
    {"js", "node"}, {"javascript", "node"}, {"nodejs", "node"}, {"sh", "bash"},
    {"shell", "bash"}, {"cxx", "c++"}, {"cs", "csharp"}, {"c#", "csharp"}, {"dotnet", "csharp"},
    {"ghc", "haskell"}, {"hs", "haskell"}, {"rscript", "r"}, {"ts", "typescript"},
    {NULL, NULL}};
static const char *const lang_names[] = {
    "awk", "bash", "bun", "c", "c++", "cpp", "csharp", "deno", "elixir", "erlang", "fortran",
    "gleam", "go", "haskell", "java", "jq", "kotlin", "lua", "mojo", "node", "perl", "php",
    "python3", "r", "ruby", "rust", "sqlite", "swift", "tcl", "typescript", "zig", "zsh", NULL};

const char *cc_session_lang(const char *spelled) {
    if (!spelled) return NULL;
    char low[32];
    size_t n = strlen(spelled);
    if (n >= sizeof low) return NULL;
    for (size_t i = 0; i <= n; i++) low[i] = (char)(spelled[i] >= 'A' && spelled[i] <= 'Z' ? spelled[i] + 32 : spelled[i]);
    for (int i = 0; lang_table[i][0]; i++)
        if (!strcmp(low, lang_table[i][0])) return lang_table[i][1];
    if (!strncmp(low, "python3.", 8)) return "python3";
    for (int i = 0; lang_names[i]; i++)
        if (!strcmp(low, lang_names[i])) return lang_names[i];
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
    for (int i = 0; i < ss->n_expired; i++)
        if (!strcmp(ss->expired[i], id)) return true;
    /* The durable marker survives a restart. */
    char p[CC_SESSION_ID_MAX + 40];
    snprintf(p, sizeof p, "%s/.codecalc-session-expired", id);
    struct stat st;
    return fstatat(ss->root_fd, p, &st, AT_SYMLINK_NOFOLLOW) == 0;
}

static double idle_ttl(void) {
    const char *v = getenv("CODECALC_SESSION_IDLE_TTL_SECONDS");
    char *end;
    double t = v && *v ? strtod(v, &end) : 0;
    return v && *v && !*end && t > 0 ? t : 0;
}

/* Reap an idle stateful session: close its host, leave the marker. */
static void expire(struct cc_server *srv, struct cc_session *s) {
    struct cc_sessions *ss = srv->sessions;
    cc_repl_close(srv, s);
    char p[CC_SESSION_ID_MAX + 40], text[96];
    snprintf(p, sizeof p, "%s/.codecalc-session-expired", s->id);
    int n = snprintf(text, sizeof text, "reaped %lld (idle-expiry, CODECALC_SESSION_IDLE_TTL_SECONDS)",
                     (long long)time(NULL));
    int fd = openat(ss->root_fd, p, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0600);
    if (fd >= 0) {
        if (write(fd, text, (size_t)n) != n) cc_log(CC_LOG_WARNING, "session %s: short expiry marker", s->id);
        close(fd);
    }
    snprintf(p, sizeof p, "%s/.codecalc-session-lock", s->id);
    unlinkat(ss->root_fd, p, 0);
    snprintf(ss->expired[ss->expired_next], sizeof ss->expired[0], "%s", s->id);
    ss->expired_next = (ss->expired_next + 1) % CC_EXPIRED_CAP;
    if (ss->n_expired < CC_EXPIRED_CAP) ss->n_expired++;
}

bool cc_session_touch(struct cc_server *srv, struct cc_session *s) {
    if (!s) return false;
    int64_t now = cc_now_ms();
    double ttl = idle_ttl();
    bool expired_now = false;
    if (s->stateful && s->repl && ttl > 0 && (double)(now - s->last_ms) > ttl * 1000.0) {
        expire(srv, s);
        expired_now = true;
    }
    s->last_ms = now;
    return expired_now;
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
    int fd = ss ? openat(ss->root_fd, id, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC) : -1;
    if (fd < 0) {
        cc_req_answer_fail(r, "validation", "unknown session '%s'", id);
        return -1;
    }
    *ws_fd = fd;
    *s = cc_session_find(srv, id);
    *idp = id;
    return 0;
}

/* ---- rmtree ------------------------------------------------------------- */

int cc_session_rmtree(int dirfd, const char *name) {
    if (unlinkat(dirfd, name, 0) == 0) return 0;
    int fd = openat(dirfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0) return -1;
    DIR *d = fdopendir(fd);
    if (!d) {
        close(fd);
        return -1;
    }
    struct dirent *e;
    while ((e = readdir(d)))
        if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) cc_session_rmtree(fd, e->d_name);
    closedir(d);
    return unlinkat(dirfd, name, AT_REMOVEDIR);
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
    const char *spelled = json_string_value(json_object_get(args, "language"));
    const char *lang = cc_session_lang(spelled ? spelled : "python3");
    if (!lang) lang = "python3";
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
    s->stateful = !strcmp(lang, "python3") || !strcmp(lang, "node");
    s->last_ms = cc_now_ms();
    s->next = ss->list;
    ss->list = s;
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
    bool may_delete = false;
    if (s) {
        struct stat st;
        may_delete = s->created_here && fstatat(ss->root_fd, id, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
                     S_ISDIR(st.st_mode) && st.st_dev == s->dev && st.st_ino == s->ino;
        session_unlink(srv, s);
    }
    if (may_delete) cc_session_rmtree(ss->root_fd, id);
    struct stat st;
    bool gone = fstatat(ss->root_fd, id, &st, AT_SYMLINK_NOFOLLOW) != 0 && errno == ENOENT;
    json_t *res = json_pack("{s:b,s:s,s:b}", "ok", 1, "session_id", id, "deleted", gone && may_delete);
    cc_session_answer(r, res);
    json_decref(res);
}

/* ---- session_list ------------------------------------------------------- */

static int cmp_str(const void *a, const void *b) {
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static void list_unregistered(struct cc_server *srv, json_t *out) {
    struct cc_sessions *ss = srv->sessions;
    int fd = openat(ss->root_fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
    if (!d) {
        if (fd >= 0) close(fd);
        return;
    }
    char **names = NULL;
    size_t n = 0, cap = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        struct stat st;
        if (e->d_name[0] == '.' || fstatat(fd, e->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0 ||
            !S_ISDIR(st.st_mode))
            continue;
        struct cc_session *s = cc_session_find(srv, e->d_name);
        if (s && s->stateful) continue;
        if (n == cap) {
            cap = cap ? cap * 2 : 16;
            char **nn = realloc(names, cap * sizeof *names);
            if (!nn) break;
            names = nn;
        }
        if (!(names[n] = strdup(e->d_name))) break;
        n++;
    }
    closedir(d);
    if (n) qsort(names, n, sizeof *names, cmp_str);
    for (size_t i = 0; i < n; i++) {
        char wd[PATH_MAX + 300];
        snprintf(wd, sizeof wd, "%s/%s", ss->root, names[i]);
        json_array_append_new(out, json_pack("{s:s,s:s,s:b,s:s,s:b}", "session_id", names[i],
                                             "language", "?", "stateful", 0, "workdir", wd, "alive", 0));
        free(names[i]);
    }
    free(names);
}

static void session_list(struct cc_server *srv, struct cc_req *r, json_t *args) {
    (void)args;
    struct cc_sessions *ss = srv->sessions;
    json_t *arr = json_array();
    for (struct cc_session *s = ss->list; s; s = s->next) {
        if (!s->stateful) continue;
        char wd[PATH_MAX + 80];
        snprintf(wd, sizeof wd, "%s/%s", ss->root, s->id);
        json_t *e = json_pack("{s:s,s:s,s:b,s:s,s:b}", "session_id", s->id, "language", s->lang,
                              "stateful", 1, "workdir", wd, "alive", cc_repl_alive(s));
        if (!s->created_here && cc_repl_alive(s)) json_object_set_new(e, "reattached", json_true());
        if (!cc_repl_alive(s))
            json_object_set_new(e, "note", json_string("the REPL host is not running (it died, timed out, "
                                "or did not survive a server restart); the next execute_code starts a "
                                "fresh one and earlier interpreter state is lost"));
        json_array_append_new(arr, e);
    }
    list_unregistered(srv, arr);
    json_t *res = json_pack("{s:b,s:o}", "ok", 1, "sessions", arr);
    cc_session_answer(r, res);
    json_decref(res);
}

/* ---- execute_code with session_id (4.5) ---------------------------------- */

bool cc_sessions_intercept(struct cc_server *srv, struct cc_req *r, json_t *args) {
    if (strcmp(r->tool->name, "execute_code") != 0) {
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
    if (cc_session_open(srv, r, args, &s, &ws, &id) < 0) return true;
    struct cc_sessions *ss = srv->sessions;
    json_t *q = cc_quota_precheck(ss->root_fd, ws, id);
    close(ws);
    if (q) {
        answer_err(r, q);
        return true;
    }
    bool stateful = s ? s->stateful : false;
    if (s) cc_session_touch(srv, s);
    if (stateful && cc_session_is_expired(srv, id)) {
        char ttl[32];
        snprintf(ttl, sizeof ttl, "%g", idle_ttl());
        cc_req_answer_fail(r, "worker_failure", "session '%s' expired after sitting idle past %ss; call "
                           "session_stop and start a new one", id, ttl);
        return true;
    }
    if (stateful) cc_repl_exec(srv, s, r, args);
    else cc_session_exec_workspace(srv, r, args, s, id);
    return true;
}

/* ---- lifecycle ---------------------------------------------------------- */

static int session_root(char *out, size_t cap) {
    const char *env = getenv("CODECALC_SESSION_ROOT");
    char home[PATH_MAX];
    if (env && env[0] == '/') {
        if ((size_t)snprintf(out, cap, "%s", env) >= cap) return -1;
    } else {
        if (cc_home_dir(home, sizeof home) < 0) return -1;
        if ((size_t)snprintf(out, cap, "%s/sessions", home) >= cap) return -1;
    }
    if (mkdir(out, 0700) != 0 && errno != EEXIST) return -1;
    return 0;
}

/* Sessions left by a previous server: re-attach their hosts. */
static void reattach_all(struct cc_server *srv) {
    struct cc_sessions *ss = srv->sessions;
    DIR *d = opendir(ss->sockdir);
    if (!d) return;
    struct dirent *e;
    while ((e = readdir(d))) {
        size_t n = strlen(e->d_name);
        if (n < 6 || n > CC_SESSION_ID_MAX + 5 || strcmp(e->d_name + n - 5, ".sock")) continue;
        struct cc_session *s = calloc(1, sizeof *s);
        if (!s) break;
        memcpy(s->id, e->d_name, n - 5);
        s->id[n - 5] = '\0';
        if (!id_valid(s->id)) {
            free(s);
            continue;
        }
        s->stateful = true;
        s->last_ms = cc_now_ms();
        snprintf(s->lang, sizeof s->lang, "%s", strncmp(s->id, "node-", 5) ? "python3" : "node");
        /* A launcher that did not survive stays listed (alive: false, with
         * a note); its next call starts a fresh host. */
        if (cc_repl_attach(srv, s) != 0)
            cc_log(CC_LOG_WARNING, "session %s: its REPL host did not survive; state is lost", s->id);
        s->next = ss->list;
        ss->list = s;
    }
    closedir(d);
}

int cc_sessions_init(struct cc_server *srv) {
    struct cc_sessions *ss = calloc(1, sizeof *ss);
    char home[PATH_MAX];
    if (!ss || session_root(ss->root, sizeof ss->root) < 0 || cc_home_dir(home, sizeof home) < 0 ||
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
    reattach_all(srv);
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

#define GUARD(fn)                                                                  \
    static void guarded_##fn(struct cc_server *srv, struct cc_req *r, json_t *a) { \
        if (sessions_on(srv, r)) fn(srv, r, a);                                    \
    }
GUARD(session_start)
GUARD(session_stop)
GUARD(session_list)
GUARD(cc_tool_session_files)
GUARD(cc_tool_session_read_file)
GUARD(cc_tool_session_write_file)
GUARD(cc_tool_session_artifacts)
GUARD(cc_tool_session_run)
GUARD(cc_tool_install_package)

const struct cc_local_tool cc_local_sessions[] = {
    {"session_start", guarded_session_start},
    {"session_stop", guarded_session_stop},
    {"session_list", guarded_session_list},
    {"session_files", guarded_cc_tool_session_files},
    {"session_read_file", guarded_cc_tool_session_read_file},
    {"session_write_file", guarded_cc_tool_session_write_file},
    {"session_artifacts", guarded_cc_tool_session_artifacts},
    {"session_run", guarded_cc_tool_session_run},
    {"install_package", guarded_cc_tool_install_package},
    {NULL, NULL},
};
