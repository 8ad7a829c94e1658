/* The supervisor's connection to one REPL launcher (repl-workers/launcher.h)
 * over its unix socket: framed msgpack, one call on the wire at a time (the
 * rest wait in a FIFO, so concurrent calls to a session are serialised), and
 * every answer's id checked against the call outstanding. An answer to
 * another id, a malformed frame, a closed socket or a launcher that misses
 * its deadline by the grace period ends the connection: every waiting call
 * is failed with worker_failure and cc_repl_client_alive() turns false.
 *
 * Ownership: the session record owns the client; callbacks get the result
 * borrowed (valid during the call only). A callback runs exactly once per
 * accepted call, possibly from inside cc_repl_client_free(). */
#ifndef CC_REPL_CLIENT_H
#define CC_REPL_CLIENT_H

#include <event2/event.h>
#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

struct cc_repl;

/* result: the session-worker result (borrowed), or NULL with code/err set. */
typedef void (*cc_repl_done)(void *ud, json_t *result, const char *code, const char *err);

/* Connect to the launcher's socket. NULL with errno on failure. */
struct cc_repl *cc_repl_client_new(struct event_base *base, const char *sock_path);
/* Queue a call of op "exec" with args (borrowed). deadline_ms bounds the
 * host's work once the call reaches it. 0, or -1 when the client is dead. */
int cc_repl_client_call(struct cc_repl *c, uint64_t id, json_t *args, int64_t deadline_ms,
                        cc_repl_done cb, void *ud);
/* Ask the launcher to kill its host and exit (best effort, does not wait). */
void cc_repl_client_kill(struct cc_repl *c);
/* Fail every waiting call with err and free the client. */
void cc_repl_client_free(struct cc_repl *c, const char *err);
bool cc_repl_client_alive(const struct cc_repl *c);
/* The launcher's hello (borrowed; NULL until it arrived). */
json_t *cc_repl_client_hello(const struct cc_repl *c);

#endif
