/* The session table: a fixed array of hash buckets keyed by the id's first
 * hex digits (the ids are random, so that spreads them evenly). */
#include "supervisor/transport/mcp_session.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>

void cc_mcp_sessions_init(struct cc_mcp_sessions *t, size_t max, int64_t idle_ms) {
    memset(t, 0, sizeof *t);
    t->max = max;
    t->idle_ms = idle_ms;
}

void cc_mcp_sessions_free(struct cc_mcp_sessions *t) {
    for (size_t i = 0; i < CC_MCP_SESSION_BUCKETS; i++) {
        struct cc_mcp_session *s = t->bucket[i];
        while (s) {
            struct cc_mcp_session *next = s->next;
            free(s);
            s = next;
        }
        t->bucket[i] = NULL;
    }
    t->count = 0;
}

bool cc_mcp_session_id_valid(const char *text) {
    if (!text || strlen(text) != CC_MCP_SESSION_ID_LEN) return false;
    for (const char *p = text; *p; p++)
        if (!((*p >= '0' && *p <= '9') || (*p >= 'a' && *p <= 'f'))) return false;
    return true;
}

static size_t bucket_of(const char *id) {
    /* 3 hex digits = 4096 values; fold into the bucket count. */
    unsigned v = 0;
    for (int i = 0; i < 3; i++) v = v * 16 + (unsigned)(id[i] <= '9' ? id[i] - '0' : id[i] - 'a' + 10);
    return v % CC_MCP_SESSION_BUCKETS;
}

/* 16 bytes from the kernel's CSPRNG: an id must not be guessable, because
 * it is all that separates one client's session from another's. */
static int random_id(char out[CC_MCP_SESSION_ID_LEN + 1]) {
    unsigned char raw[CC_MCP_SESSION_ID_LEN / 2];
    size_t got = 0;
    while (got < sizeof raw) {
        ssize_t n = getrandom(raw + got, sizeof raw - got, 0);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return -1;
        got += (size_t)n;
    }
    static const char hex[] = "0123456789abcdef";
    for (size_t i = 0; i < sizeof raw; i++) {
        out[2 * i] = hex[raw[i] >> 4];
        out[2 * i + 1] = hex[raw[i] & 15];
    }
    out[CC_MCP_SESSION_ID_LEN] = '\0';
    return 0;
}

struct cc_mcp_session *cc_mcp_session_new(struct cc_mcp_sessions *t, int64_t now_ms) {
    if (t->count >= t->max) return NULL;
    struct cc_mcp_session *s = calloc(1, sizeof *s);
    if (!s) return NULL;
    if (random_id(s->id) < 0) {
        free(s);
        return NULL;
    }
    s->log_level = 3; /* warning, like a fresh stdio connection */
    s->last_used_ms = now_ms;
    size_t b = bucket_of(s->id);
    s->next = t->bucket[b];
    t->bucket[b] = s;
    t->count++;
    return s;
}

bool cc_mcp_session_expired(const struct cc_mcp_sessions *t, const struct cc_mcp_session *s,
                             int64_t now_ms) {
    return !s->exchanges && !s->get_stream && now_ms - s->last_used_ms > t->idle_ms;
}

struct cc_mcp_session *cc_mcp_session_find(struct cc_mcp_sessions *t, const char *id,
                                             int64_t now_ms) {
    if (!cc_mcp_session_id_valid(id)) return NULL;
    for (struct cc_mcp_session *s = t->bucket[bucket_of(id)]; s; s = s->next) {
        if (strcmp(s->id, id) != 0) continue;
        if (cc_mcp_session_expired(t, s, now_ms)) {
            cc_mcp_session_remove(t, s);
            return NULL;
        }
        s->last_used_ms = now_ms;
        return s;
    }
    return NULL;
}

void cc_mcp_session_remove(struct cc_mcp_sessions *t, struct cc_mcp_session *s) {
    struct cc_mcp_session **pp = &t->bucket[bucket_of(s->id)];
    while (*pp && *pp != s) pp = &(*pp)->next;
    if (!*pp) return;
    *pp = s->next;
    t->count--;
    free(s);
}

void cc_mcp_sessions_each(struct cc_mcp_sessions *t, void (*fn)(struct cc_mcp_session *, void *),
                           void *arg) {
    for (size_t i = 0; i < CC_MCP_SESSION_BUCKETS; i++) {
        struct cc_mcp_session *s = t->bucket[i];
        while (s) {
            struct cc_mcp_session *next = s->next;
            fn(s, arg);
            s = next;
        }
    }
}
