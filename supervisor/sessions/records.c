/* Durable session records (issue 6 item 3): every session start, host
 * (re)start, activity, expiry and stop goes through state/session_store.h,
 * so a restarted server knows each session's language and kind, finds its
 * REPL launcher again and can say when a host did not survive.
 *
 * An expired stateful session keeps its record (alive false) while its
 * workspace is gone: that pair is the durable "expired" marker, so the next
 * execute_code still hears why, even after a restart. session_stop removes
 * the record.
 *
 * The store is optional: when it cannot be opened the sessions still work
 * for this process (records only in memory) and the failure is logged. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "protocol/proc_stat.h"
#include "state/session_store.h"
#include "state/shared.h"
#include "supervisor/cluster/cluster.h"
#include "supervisor/log.h"
#include "supervisor/sessions/sessions.h"
#include "supervisor/sessions/walk.h"

#define TOUCH_EVERY_MS 1000
#define NOTE_LOST "the REPL host is not running (it died, timed out, or did not survive a server " \
                  "restart); the next execute_code starts a fresh one and earlier interpreter state is lost"
#define NOTE_EXPIRED "expired after sitting idle past CODECALC_SESSION_IDLE_TTL_SECONDS (default 24 h); " \
                     "its REPL host and workspace were removed; call session_stop to forget it"

static double now_epoch(void) {
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

void cc_srec_open(struct cc_sessions *ss, const char *home) {
    char db[PATH_MAX + 16], err[512];
    if (snprintf(db, sizeof db, "%s/state.db", home) >= (int)sizeof db) {
        cc_log(CC_LOG_WARNING, "sessions: CODECALC_HOME path too long for the session store");
        return;
    }
    ss->store = cc_session_store_open(db, err, sizeof err);
    if (!ss->store)
        cc_log(CC_LOG_WARNING, "sessions: no durable session records (%s); sessions will not be "
               "listed after a restart", err);
}

void cc_srec_close(struct cc_sessions *ss) {
    cc_session_store_close(ss->store);
    ss->store = NULL;
}

static void fill(struct cc_server *srv, const struct cc_session *s, struct cc_session_rec *r) {
    struct cc_sessions *ss = srv->sessions;
    memset(r, 0, sizeof *r);
    snprintf(r->id, sizeof r->id, "%s", s->id);
    snprintf(r->language, sizeof r->language, "%s", s->lang);
    r->stateful = s->stateful;
    snprintf(r->workdir, sizeof r->workdir, "%.*s/%s", (int)(sizeof r->workdir - CC_SESSION_ID_MAX - 2),
             ss->root, s->id);
    r->created_at = s->created_at;
    r->last_activity = now_epoch() - (double)(cc_now_ms() - s->last_ms) / 1000.0;
    r->host_pid = s->host_pid;
    r->host_start = s->host_start;
    if (s->stateful)
        snprintf(r->socket_path, sizeof r->socket_path, "%.*s/%s.sock",
                 (int)(sizeof r->socket_path - CC_SESSION_ID_MAX - 7), ss->sockdir, s->id);
    r->alive = s->expired ? false : s->stateful ? cc_repl_alive(s) : true;
}

void cc_srec_save(struct cc_server *srv, struct cc_session *s) {
    struct cc_sessions *ss = srv->sessions;
    if (!ss->store) return;
    struct cc_session_rec r;
    fill(srv, s, &r);
    if (cc_session_store_put(ss->store, &r) != 0)
        cc_log(CC_LOG_WARNING, "session %s: cannot record it: %s", s->id, strerror(errno));
    s->saved_ms = cc_now_ms();
}

void cc_srec_host(struct cc_server *srv, struct cc_session *s, pid_t pid) {
    s->host_pid = pid > 0 ? pid : 0;
    s->host_start = pid > 0 ? cc_proc_start_time(pid) : 0;
    s->attach_failed = false;
    cc_srec_save(srv, s);
}

void cc_srec_touch(struct cc_server *srv, struct cc_session *s) {
    struct cc_sessions *ss = srv->sessions;
    /* A write per call would cost the REPL round trip; once a second is
     * plenty for an idle clock measured in seconds. */
    if (!ss->store || cc_now_ms() - s->saved_ms < TOUCH_EVERY_MS) return;
    if (cc_session_store_touch(ss->store, s->id, now_epoch()) < 0)
        cc_log(CC_LOG_WARNING, "session %s: cannot record activity", s->id);
    s->saved_ms = cc_now_ms();
}

void cc_srec_expired(struct cc_server *srv, struct cc_session *s) {
    s->host_pid = 0;
    s->host_start = 0;
    cc_srec_save(srv, s); /* alive false: the host is closed already */
}

void cc_srec_forget(struct cc_server *srv, const char *id) {
    struct cc_sessions *ss = srv->sessions;
    if (ss->store && cc_session_store_delete(ss->store, id) < 0)
        cc_log(CC_LOG_WARNING, "session %s: cannot delete its record", id);
}

static bool workspace_exists(struct cc_sessions *ss, const char *id) {
    struct stat st;
    return fstatat(ss->root_fd, id, &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISDIR(st.st_mode);
}

/* An expired session (stateful or not) is a record marked not alive whose
 * workspace is gone. */
static bool rec_expired(struct cc_sessions *ss, const struct cc_session_rec *r) {
    return !r->alive && !workspace_exists(ss, r->id);
}

bool cc_srec_is_expired(struct cc_server *srv, const char *id) {
    struct cc_sessions *ss = srv->sessions;
    struct cc_session_rec r;
    return ss->store && cc_session_store_get(ss->store, id, &r) == 1 && rec_expired(ss, &r);
}

/* ---- after a restart ------------------------------------------------------ */

static struct cc_session *from_record(struct cc_server *srv, const struct cc_session_rec *r) {
    struct cc_session *s = calloc(1, sizeof *s);
    if (!s) return NULL;
    snprintf(s->id, sizeof s->id, "%s", r->id);
    snprintf(s->lang, sizeof s->lang, "%.23s", r->language);
    s->stateful = r->stateful;
    s->created_at = r->created_at;
    double idle_s = now_epoch() - r->last_activity;
    s->last_ms = cc_now_ms() - (int64_t)(idle_s > 0 ? idle_s * 1000.0 : 0);
    s->saved_ms = cc_now_ms();
    s->host_pid = r->host_pid;
    s->host_start = r->host_start;
    /* The record says this server made the workspace: adopt its identity,
     * so session_stop removes it after a restart too (issue 11 item 10). */
    struct stat st;
    if (fstatat(cc_sessions_of(srv)->root_fd, s->id, &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISDIR(st.st_mode)) {
        s->dev = st.st_dev;
        s->ino = st.st_ino;
        s->created_here = true;
        s->reloaded = true;
    }
    return s;
}

void cc_srec_load(struct cc_server *srv) {
    struct cc_sessions *ss = srv->sessions;
    struct cc_session_rec *v = NULL;
    size_t n = 0;
    if (!ss->store || cc_session_store_list(ss->store, false, &v, &n) != 0) return;
    for (size_t i = 0; i < n; i++) {
        if (cc_session_find(srv, v[i].id) || rec_expired(ss, &v[i])) continue;
        struct cc_session *s = from_record(srv, &v[i]);
        if (!s) break;
        if (s->stateful && v[i].alive) {
            if (cc_repl_attach(srv, s) == 0) {
                cc_srec_host(srv, s, s->host_pid);
            } else {
                s->attach_failed = true;
                cc_log(CC_LOG_WARNING, "session %s: its REPL host did not survive; state is lost", s->id);
                cc_srec_save(srv, s);
            }
        }
        s->next = ss->list;
        ss->list = s;
    }
    free(v);
}

/* ---- session_list ------------------------------------------------------------ */

static json_t *entry(struct cc_sessions *ss, const char *id, const char *lang, bool stateful,
                     bool alive) {
    char wd[PATH_MAX + 80];
    snprintf(wd, sizeof wd, "%s/%s", ss->root, id);
    return json_pack("{s:s,s:s,s:b,s:s,s:b}", "session_id", id, "language", lang, "stateful",
                     stateful, "workdir", wd, "alive", alive);
}

static json_t *live_entry(struct cc_sessions *ss, const struct cc_session *s) {
    bool alive = s->stateful ? cc_repl_alive(s) : false;
    json_t *e = entry(ss, s->id, s->lang[0] ? s->lang : "?", s->stateful, alive);
    if (s->stateful && alive && s->reloaded) json_object_set_new(e, "reattached", json_true());
    if (s->expired) {
        json_object_set_new(e, "expired", json_true());
        json_object_set_new(e, "note", json_string(NOTE_EXPIRED));
    } else if (s->stateful && !alive)
        json_object_set_new(e, "note", json_string(s->attach_failed ? "the REPL host could not be "
                            "re-attached after a server restart (it is not running); " NOTE_LOST : NOTE_LOST));
    return e;
}

static bool listed(json_t *arr, const char *id) {
    size_t i;
    json_t *e;
    json_array_foreach(arr, i, e) if (!strcmp(json_string_value(json_object_get(e, "session_id")), id)) return true;
    return false;
}

/* Keeps the directories under the root that no record names (older
 * servers, hand-made). */
static bool unknown_dir(void *ud, int dirfd, const char *name) {
    struct stat st;
    return name[0] != '.' && !listed(ud, name) && fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
           S_ISDIR(st.st_mode);
}

static void list_unknown_dirs(struct cc_sessions *ss, json_t *out) {
    char **names;
    long n = cc_dir_names(ss->root_fd, unknown_dir, out, &names);
    for (long i = 0; i < n; i++) json_array_append_new(out, entry(ss, names[i], "?", false, false));
    if (n > 0) cc_dir_names_free(names, n);
}

/* A session another server of the cluster holds (from the shared
 * registry): what its record says, and whether that server is alive. */
static json_t *remote_entry(struct cc_server *srv, const struct cc_session_rec *r) {
    double age = 0;
    int up = cc_cluster_server_alive(srv, r->owner, &age);
    json_t *e = json_pack("{s:s,s:s,s:b,s:s,s:b,s:s}", "session_id", r->id, "language",
                          r->language[0] ? r->language : "?", "stateful", r->stateful, "workdir", r->workdir, "alive",
                          r->alive && !r->lost[0] && up != 0, "server", r->owner);
    if (r->lost[0]) {
        json_object_set_new(e, "note", json_string(r->lost));
    } else if (up == 0) {
        char note[256];
        snprintf(note, sizeof note, "its server %s has sent no heartbeat for %.0f s: it is probably gone", r->owner,
                 age);
        json_object_set_new(e, "note", json_string(note));
    }
    return e;
}

/* In a cluster (docs/cluster.md) the list is the cluster's: this server's
 * sessions, then every other server's from the shared registry, each
 * entry naming its server. A call naming one of them is forwarded there. */
static void add_cluster_sessions(struct cc_server *srv, json_t *arr) {
    struct cc_sessions *ss = srv->sessions;
    size_t i;
    json_t *e;
    json_array_foreach(arr, i, e) json_object_set_new(e, "server", json_string(cc_state_server_id()));
    struct cc_session_rec *v = NULL;
    size_t n = 0;
    if (cc_session_store_list_all(ss->store, false, &v, &n) != 0) return;
    for (size_t k = 0; k < n; k++)
        if (v[k].owner[0] && strcmp(v[k].owner, cc_state_server_id()) != 0 && !listed(arr, v[k].id))
            json_array_append_new(arr, remote_entry(srv, &v[k]));
    free(v);
}

json_t *cc_srec_listing(struct cc_server *srv) {
    struct cc_sessions *ss = srv->sessions;
    json_t *arr = json_array();
    struct cc_session_rec *v = NULL;
    size_t n = 0;
    if (ss->store && cc_session_store_list(ss->store, false, &v, &n) != 0) n = 0;
    for (size_t i = 0; i < n; i++) {
        struct cc_session *s = cc_session_find(srv, v[i].id);
        if (s) {
            json_array_append_new(arr, live_entry(ss, s));
        } else if (rec_expired(ss, &v[i])) {
            json_t *e = entry(ss, v[i].id, v[i].language, v[i].stateful, false);
            json_object_set_new(e, "expired", json_true());
            json_object_set_new(e, "note", json_string(NOTE_EXPIRED));
            json_array_append_new(arr, e);
        }
        /* Any other record without a workspace or in-memory session is a
         * leftover that list_unknown_dirs cannot see either: skip it. */
    }
    free(v);
    for (struct cc_session *s = ss->list; s; s = s->next)
        if (!listed(arr, s->id)) json_array_append_new(arr, live_entry(ss, s));
    list_unknown_dirs(ss, arr);
    if (cc_session_store_shared(ss->store)) add_cluster_sessions(srv, arr);
    return arr;
}
