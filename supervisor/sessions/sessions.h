/* Workspace sessions inside the supervisor (TOOLS.md section 4: what
 * session_start makes). Here and in supervisor/sessions/, "session" always
 * means a workspace session; the MCP sessions of the HTTP transport
 * (Mcp-Session-Id) are "mcp_session" in supervisor/transport/. One record per
 * session this process knows; the workspace directory is the truth for
 * existence, the REPL host's socket for liveness.
 *
 * Ownership: struct cc_sessions hangs off srv->sessions and owns every
 * record; records own their REPL connection. */
#ifndef CC_SESSIONS_H
#define CC_SESSIONS_H

#include <jansson.h>
#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "supervisor/request.h"
#include "supervisor/server.h"
#include "supervisor/sub.h"

#define CC_SESSION_ID_MAX 64
#define CC_EXPIRED_CAP 512

struct cc_repl;

struct cc_session {
    char id[CC_SESSION_ID_MAX + 1];
    char lang[24];              /* canonical language of the session */
    bool stateful;              /* python3/node: has a REPL host */
    bool created_here;          /* identity below is the workspace we made */
    bool reloaded;              /* known from the store after a restart */
    dev_t dev;
    ino_t ino;
    int64_t last_ms;            /* monotonic time of the last activity */
    int64_t saved_ms;           /* when last_ms last reached the store */
    double created_at;          /* Unix epoch seconds */
    pid_t host_pid;             /* the launcher, 0 when none is known */
    uint64_t host_start;        /* its /proc start time */
    bool attach_failed;         /* its host did not survive a restart */
    bool expired;               /* idle-expired: host and workspace removed */
    int inflight;               /* calls not answered yet: REPL calls, the start,
                                 * workspace runs, session_run, installs */
    struct cc_repl *repl;       /* NULL for workspace sessions */
    struct cc_session *next;
};

struct cc_session_store;
struct event;

struct cc_sessions {
    char root[PATH_MAX];        /* session root (workspaces) */
    struct cc_session_store *store; /* durable records; NULL when unavailable */
    struct event *sweep;        /* idle-expiry timer */
    char sockdir[PATH_MAX];     /* REPL sockets and logs, outside the root */
    int root_fd;
    struct cc_session *list;
    char expired[CC_EXPIRED_CAP][CC_SESSION_ID_MAX + 1];
    int n_expired, expired_next;
};

struct cc_sessions *cc_sessions_of(struct cc_server *srv);

/* The session root: CODECALC_SESSION_ROOT, else $CODECALC_HOME/sessions
 * (created 0700). 0, or -1 with errno set. */
int cc_session_root(char *out, size_t cap);

/* Validate the id and find the workspace. On success *ws_fd is an open
 * directory fd (caller closes) and *s the record (NULL when this process
 * has none). On failure r has been answered and -1 is returned. */
int cc_session_open(struct cc_server *srv, struct cc_req *r, json_t *args, struct cc_session **s,
                    int *ws_fd, const char **id);
/* Record activity (s may be NULL). Expiry is decided in cc_session_open. */
void cc_session_touch(struct cc_server *srv, struct cc_session *s);
bool cc_session_is_expired(struct cc_server *srv, const char *id);
/* A one-shot call into session id's workspace (a run, session_run, an
 * install) has started / has ended: while one is in progress the session
 * is not idle, and the idle clock restarts from its end. Unknown ids are
 * ignored (the session may be gone by the end). */
void cc_session_hold(struct cc_server *srv, const char *id);
void cc_session_release(struct cc_server *srv, const char *id);
struct cc_session *cc_session_find(struct cc_server *srv, const char *id);

/* Canonical language for a spelling; NULL when unknown. */
const char *cc_session_lang(const char *spelled);
/* Language chosen from a file name's extension (TOOLS.md 3.2.7). */
const char *cc_session_lang_for_file(const char *path);

/* Answer r with obj (borrowed): adds contract_version when missing. */
void cc_session_answer(struct cc_req *r, json_t *obj);
/* Answer r with an image content block; meta (borrowed) becomes the
 * structuredContent. */
void cc_session_answer_image(struct cc_req *r, const char *b64, const char *mime, json_t *meta);
/* true when r is still waiting for its answer (not cancelled/freed). */
bool cc_session_req_alive(struct cc_server *srv, struct cc_req *r, uint64_t wid);


/* Idle TTL in seconds: CODECALC_SESSION_IDLE_TTL_SECONDS, default 24 h;
 * 0 (set explicitly) when the operator turned expiry off. */
double cc_session_idle_ttl(void);
/* Expire every session idle past the TTL (host killed, workspace
 * removed, record kept as expired). */
void cc_sessions_sweep(struct cc_server *srv);

/* ---- durable records (supervisor/sessions/records.c) ---- */
/* Open the store in $CODECALC_HOME/state.db; failure only logs. */
void cc_srec_open(struct cc_sessions *ss, const char *home);
void cc_srec_close(struct cc_sessions *ss);
/* Write s as it is now (alive = its host is up). */
void cc_srec_save(struct cc_server *srv, struct cc_session *s);
/* Record the launcher's identity after a (re)start or attach. */
void cc_srec_host(struct cc_server *srv, struct cc_session *s, pid_t pid);
/* Activity; written at most once a second per session. */
void cc_srec_touch(struct cc_server *srv, struct cc_session *s);
/* Expired: host gone, workspace gone, the record stays as the marker. */
void cc_srec_expired(struct cc_server *srv, struct cc_session *s);
void cc_srec_forget(struct cc_server *srv, const char *id);
/* true when the store remembers id as an expired stateful session. */
bool cc_srec_is_expired(struct cc_server *srv, const char *id);
/* Records for sessions on a previous run: appended to ss->list, hosts
 * re-attached where they still run. */
void cc_srec_load(struct cc_server *srv);
/* session_list entries (new array): every stored and in-memory session,
 * then unknown directories of the session root. */
json_t *cc_srec_listing(struct cc_server *srv);

/* ---- file tools (supervisor/sessions/files.c) ---- */
void cc_tool_session_files(struct cc_server *srv, struct cc_req *r, json_t *args);
void cc_tool_session_read_file(struct cc_server *srv, struct cc_req *r, json_t *args);
void cc_tool_session_write_file(struct cc_server *srv, struct cc_req *r, json_t *args);
void cc_tool_session_artifacts(struct cc_server *srv, struct cc_req *r, json_t *args);
/* The first max bytes of a regular file beneath ws_fd (no-follow), and its
 * size. Malloc'd (NUL-terminated), or NULL with errno (ELOOP: a symlink,
 * EISDIR, EINVAL: not a regular file, else the jail's). */
char *cc_session_read_head(int ws_fd, const char *rel, size_t max, size_t *len, uint64_t *size);
struct cc_jail_err;
/* The refusal for a failed read of path (err from the readers here; EFBIG:
 * larger than cap). */
void cc_session_read_refusal(int err, const char *path, uint64_t cap, struct cc_jail_err *e);
/* Whole-file read for resources and session_run: regular, no-follow, at
 * most cap bytes. Malloc'd buffer, or NULL with errno (EFBIG when larger). */
char *cc_session_slurp(int ws_fd, const char *rel, size_t cap, size_t *len);
/* Write data to rel beneath ws_fd atomically under the write quota check.
 * NULL on success, else the rejected result (new reference). */
json_t *cc_session_write(struct cc_server *srv, int ws_fd, const char *id, const char *rel,
                         const char *data, size_t len, bool exclusive);
/* Listing of one directory as session_files returns it (new array). */
json_t *cc_session_listing(int dirfd);

/* ---- code in the workspace (supervisor/sessions/exec.c) ---- */
void cc_tool_session_run(struct cc_server *srv, struct cc_req *r, json_t *args);
/* execute_code in a workspace session. Takes over r. */
void cc_session_exec_workspace(struct cc_server *srv, struct cc_req *r, json_t *args,
                               struct cc_session *s, const char *id);

/* ---- REPL hosts (supervisor/sessions/repl.c) ---- */
/* Start a host for s (async); answers r with the session_start result. */
void cc_repl_start(struct cc_server *srv, struct cc_session *s, struct cc_req *r, json_t *start_result);
/* Run code on s's host; answers r. */
void cc_repl_exec(struct cc_server *srv, struct cc_session *s, struct cc_req *r, json_t *args);
/* Re-attach to a surviving host by its socket; 0 when connected. */
int cc_repl_attach(struct cc_server *srv, struct cc_session *s);
/* Kill the host (via its launcher) and free the connection. */
void cc_repl_close(struct cc_server *srv, struct cc_session *s);
/* Drop the connection only (server shutdown): the host keeps running. */
void cc_repl_detach(struct cc_server *srv, struct cc_session *s);
bool cc_repl_alive(const struct cc_session *s);
/* Structural unenforced list (4.4 items 2 and 3), new array. */
json_t *cc_repl_structural_unenforced(void);

#endif
