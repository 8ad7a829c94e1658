/* The session store: durable records of sessions (TOOLS.md section 4), so a
 * restarted server can find its REPL hosts and workspaces again.
 *
 * A narrow interface: callers see records and five verbs (put, get, list,
 * delete, touch) in front of two backends chosen by cc_session_store_open()
 * (state/shared.h): sqlite in state.db (one server), or PostgreSQL shared
 * by several servers, where the store is the cluster's session registry:
 * put stamps the record with this server as owner (id and internal URL),
 * list returns this server's own sessions only (the ones whose REPL hosts
 * it can reach), list_all and get return any server's, so a server can
 * show the cluster's sessions with their owners and forward a call to the
 * owner (supervisor/cluster/forward.c).
 *
 * Record fields:
 *   id            ^[A-Za-z0-9_-]{1,64}$ (validated by put)
 *   language      e.g. "python3" ("" for a workspace-only session)
 *   stateful      true when a REPL host keeps interpreter state
 *   workdir       absolute path of the session's workspace
 *   created_at    Unix epoch seconds
 *   last_activity Unix epoch seconds (touch updates it)
 *   host_pid      pid of the REPL host, 0 when none
 *   host_start    /proc/<pid>/stat starttime of that host (so a recycled pid
 *                 is never mistaken for it), 0 when none
 *   socket_path   where the host listens, "" when none
 *   alive         false once the host is known dead / the session stopped
 *   owner         shared store: the owning server's id ("" in sqlite)
 *   owner_url     shared store: its internal URL ("" when it serves no HTTP)
 *   lost          shared store: why the owner is known gone, "" while it is not
 *
 * Strings longer than the fields are refused by put (-1, errno
 * ENAMETOOLONG), never truncated. Ownership: the caller closes the store;
 * cc_session_store_list returns a malloc'd array the caller free()s.
 * Single-threaded use (one connection per store).
 */
#ifndef CC_STATE_SESSION_STORE_H
#define CC_STATE_SESSION_STORE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

struct cc_session_rec {
    char id[65];
    char language[32];
    bool stateful;
    char workdir[4096];
    double created_at;
    double last_activity;
    pid_t host_pid;
    uint64_t host_start;
    char socket_path[4096];
    bool alive;
    char owner[64];
    char owner_url[256];
    char lost[512];
};

struct cc_session_store;

struct cc_session_store_ops {
    int (*put)(struct cc_session_store *s, const struct cc_session_rec *r);
    int (*get)(struct cc_session_store *s, const char *id, struct cc_session_rec *out);
    int (*list)(struct cc_session_store *s, bool alive_only, struct cc_session_rec **out, size_t *n);
    int (*del)(struct cc_session_store *s, const char *id);
    int (*touch)(struct cc_session_store *s, const char *id, double now);
    void (*close)(struct cc_session_store *s);
    int (*mark_lost)(struct cc_session_store *s, const char *id, const char *why); /* shared only */
    int (*list_all)(struct cc_session_store *s, bool alive_only, struct cc_session_rec **out, size_t *n); /* shared only */
};

struct cc_session_store {
    const struct cc_session_store_ops *ops;
};

struct cc_session_store *cc_session_store_open_sqlite(const char *db_path, char *err, size_t errcap);
struct cc_session_store *cc_session_store_open_pg(const char *url, char *err, size_t errcap);

/* The configured backend: PostgreSQL when CODECALC_DATABASE_URL is set,
 * else the database file (normally $CODECALC_HOME/state.db); applies the
 * "sessions" migrations. NULL with err filled. */
struct cc_session_store *cc_session_store_open(const char *db_path, char *err, size_t errcap);
void cc_session_store_close(struct cc_session_store *s);

/* Insert or replace. 0, or -1 (errno EINVAL for a bad id, EIO for storage). */
int cc_session_store_put(struct cc_session_store *s, const struct cc_session_rec *r);
/* 1 found (out filled), 0 unknown, -1 error. */
int cc_session_store_get(struct cc_session_store *s, const char *id, struct cc_session_rec *out);
/* Every record (alive_only: only alive ones), oldest first. 0 or -1. */
int cc_session_store_list(struct cc_session_store *s, bool alive_only,
                          struct cc_session_rec **out, size_t *n);
/* As list, but every server's records in the shared registry (each with
 * its owner); the same as list in sqlite. 0 or -1. */
int cc_session_store_list_all(struct cc_session_store *s, bool alive_only,
                              struct cc_session_rec **out, size_t *n);
/* 1 deleted, 0 unknown, -1 error. */
int cc_session_store_delete(struct cc_session_store *s, const char *id);
/* Set last_activity = now. 1 updated, 0 unknown, -1 error. */
int cc_session_store_touch(struct cc_session_store *s, const char *id, double now);

/* Shared store only: the session's owner is gone (why names it); the
 * record stays, alive false, lost = why. 1 updated, 0 unknown, -1 error. */
bool cc_session_store_shared(const struct cc_session_store *s);
int cc_session_store_mark_lost(struct cc_session_store *s, const char *id, const char *why);

/* true for ^[A-Za-z0-9_-]{1,64}$ */
bool cc_session_id_valid(const char *id);

#endif
