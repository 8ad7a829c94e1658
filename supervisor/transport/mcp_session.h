/* MCP sessions of the 2025-era Streamable HTTP transport (the Mcp-Session-Id
 * of the MCP spec). Not the workspace sessions of session_start, which live
 * in supervisor/sessions/: names here say "mcp_session" everywhere, names
 * there say "session" (docs/architecture.md, "Two kinds of session").
 *
 * An MCP session is created by
 * an initialize POST and named by a random 128-bit id (32 hex digits) that the
 * client echoes in Mcp-Session-Id. It remembers what a stdio connection would
 * remember across messages: the negotiated protocol version and the log
 * level, plus the POST exchanges still waiting for their answer so that a
 * notifications/cancelled sent on another POST can find them.
 *
 * Ownership: the table owns its sessions; cc_mcp_session_remove() frees one.
 * Exchanges are owned by the transport and only linked here. */
#ifndef CC_MCP_SESSION_H
#define CC_MCP_SESSION_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define CC_MCP_SESSION_ID_LEN 32
#define CC_MCP_SESSION_BUCKETS 1024

struct cc_http_exchange; /* supervisor/transport/http.c */

struct cc_mcp_session {
    char id[CC_MCP_SESSION_ID_LEN + 1];
    char protocol_version[16];
    int log_level;
    bool log_subscribed;                /* logging/setLevel was received */
    int64_t last_used_ms;
    struct cc_http_exchange *exchanges; /* POSTs in flight (linked by the transport) */
    void *get_stream;                   /* the open GET stream, if any (transport's) */
    struct cc_mcp_session *next;       /* bucket chain */
};

struct cc_mcp_sessions {
    struct cc_mcp_session *bucket[CC_MCP_SESSION_BUCKETS];
    size_t count;
    size_t max;        /* refuse new sessions past this */
    int64_t idle_ms;   /* a session unused this long is forgotten */
};

void cc_mcp_sessions_init(struct cc_mcp_sessions *t, size_t max, int64_t idle_ms);
/* Frees every session. The transport must have detached its exchanges. */
void cc_mcp_sessions_free(struct cc_mcp_sessions *t);

/* New session with a fresh random id, or NULL (table full, no entropy, no
 * memory). */
struct cc_mcp_session *cc_mcp_session_new(struct cc_mcp_sessions *t, int64_t now_ms);
/* The live session named id (touching it), or NULL when unknown/expired. */
struct cc_mcp_session *cc_mcp_session_find(struct cc_mcp_sessions *t, const char *id,
                                             int64_t now_ms);
/* Unlink and free s. */
void cc_mcp_session_remove(struct cc_mcp_sessions *t, struct cc_mcp_session *s);
/* Is s past its idle limit (and nothing in flight keeps it alive)? */
bool cc_mcp_session_expired(const struct cc_mcp_sessions *t, const struct cc_mcp_session *s,
                             int64_t now_ms);
/* Visit every session; fn may remove the one it is given. */
void cc_mcp_sessions_each(struct cc_mcp_sessions *t, void (*fn)(struct cc_mcp_session *, void *),
                           void *arg);

/* Does text look like a session id we could have issued (32 lowercase hex)? */
bool cc_mcp_session_id_valid(const char *text);

#endif
