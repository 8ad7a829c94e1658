/* notifications/message (logging.h). */
#include "supervisor/mcp/logging.h"

#include <stdlib.h>
#include <string.h>

#include "protocol/json_convert.h"
#include "protocol/strbuf.h"
#include "supervisor/conn.h"
#include "supervisor/native_check.h"
#include "supervisor/server.h"

static const char *const names[] = {"debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"};

/* Subscribed connections: few (one per stdio server), so a small array. */
#define MAX_SUBS 64
static struct cc_conn *subs[MAX_SUBS];
static int nsubs;
static struct cc_log_sink *sinks;

int cc_mcp_level_parse(const char *name) {
    for (int i = 0; name && i < (int)(sizeof names / sizeof names[0]); i++)
        if (strcmp(name, names[i]) == 0) return i;
    return -1;
}

static char *record(int level, const char *logger, const json_t *data, size_t *len) {
    struct cc_strbuf sb;
    cc_sb_init(&sb);
    cc_sb_printf(&sb, "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/message\",\"params\":{\"level\":\"%s\",\"logger\":",
                 names[level]);
    cc_sb_json_string(&sb, logger, strlen(logger));
    cc_sb_puts(&sb, ",\"data\":");
    cc_json_emit(&sb, data);
    cc_sb_puts(&sb, "}}");
    return cc_sb_take(&sb, len);
}

static bool wants(const struct cc_conn *c, int level) {
    return c->log_subscribed && !c->closed && level >= c->log_level;
}

void cc_mcp_log_to(struct cc_conn *c, int level, const char *logger, const json_t *data) {
    if (!c || !wants(c, level)) return;
    size_t len;
    char *msg = record(level, logger, data, &len);
    if (msg) cc_conn_send(c, msg, len);
    free(msg);
}

void cc_mcp_log_all(int level, const char *logger, const json_t *data) {
    if (!nsubs && !sinks) return;
    size_t len;
    char *msg = record(level, logger, data, &len);
    if (!msg) return;
    for (int i = 0; i < nsubs; i++)
        if (wants(subs[i], level)) cc_conn_send(subs[i], msg, len);
    for (struct cc_log_sink *s = sinks; s; s = s->next) s->deliver(s, level, msg, len);
    free(msg);
}

/* What holds for as long as the server runs, told to each new subscriber. */
static void standing(struct cc_conn *c) {
    const json_t *caps = cc_native_caps(c->srv->bindir);
    char *missing = caps ? cc_native_missing(caps, true) : NULL;
    if (!missing) return;
    json_t *data = json_pack("{s:s,s:s}", "message",
                             "the sandbox runs with reduced guarantees on this host; affected limits are named in "
                             "each result's unenforced list",
                             "missing", missing);
    cc_mcp_log_to(c, CC_MCP_WARNING, "codecalc.sandbox", data);
    json_decref(data);
    free(missing);
}

void cc_mcp_log_subscribe(struct cc_conn *c) {
    /* An HTTP POST's connection is closed by its own answer, before this
     * runs: kept in the table it outlived its exchange, and the next
     * server-wide record read (and called through) freed memory. Its
     * session's GET stream carries the records instead (a sink). */
    if (c->closed) return;
    bool known = false;
    for (int i = 0; i < nsubs; i++) known |= subs[i] == c;
    c->log_subscribed = true;
    /* A connection the table cannot hold still gets its own calls' records. */
    if (!known && nsubs < MAX_SUBS) subs[nsubs++] = c;
    standing(c);
}

void cc_mcp_log_unsubscribe(struct cc_conn *c) {
    for (int i = 0; i < nsubs; i++)
        if (subs[i] == c) {
            subs[i] = subs[--nsubs];
            break;
        }
}

void cc_mcp_log_add_sink(struct cc_log_sink *s) {
    s->next = sinks;
    sinks = s;
}

void cc_mcp_log_remove_sink(struct cc_log_sink *s) {
    for (struct cc_log_sink **p = &sinks; *p; p = &(*p)->next)
        if (*p == s) {
            *p = s->next;
            return;
        }
}
