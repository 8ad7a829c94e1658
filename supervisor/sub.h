/* Sub-requests: a local tool (sessions, installs, the verification tools)
 * asks a worker pool to do work and post-processes the answer before its
 * client sees it. A sub-request is an ordinary request on a private
 * connection whose send() hands the JSON-RPC response to a callback
 * instead of a transport, so it queues, grows the pool, is bounded by its
 * own deadline and is cancelled exactly like a client's call.
 *
 * Ownership: the callback is called exactly once (result or err), unless
 * cc_sub_cancel came first, after which it is never called. The handle is
 * valid until then and must not be used afterwards. The callback may run
 * before cc_sub_start returns (a pool that cannot start workers answers
 * its queue at once): a caller that keeps the handle must check that its
 * callback has not run yet. */
#ifndef CC_SUB_H
#define CC_SUB_H

#include <jansson.h>
#include <stdint.h>

#include "supervisor/server.h"

struct cc_sub;

/* result: the tool's result object (borrowed) or NULL with err set. */
typedef void (*cc_sub_cb)(struct cc_server *srv, void *ud, json_t *result, const char *err);

/* Send op with args (borrowed) to the exec pool; the request is abandoned
 * (worker killed) after deadline_ms. NULL when it could not be queued. */
struct cc_sub *cc_sub_start(struct cc_server *srv, const char *op, json_t *args, int64_t deadline_ms,
                            cc_sub_cb cb, void *ud);
/* Stop it: a queued request leaves the queue; a running one gets the pool's
 * cancel (the exec worker kills the program and is free again). */
void cc_sub_cancel(struct cc_sub *s);

/* cc_sub_start for callers that never cancel: 0, or -1. */
int cc_sub_exec(struct cc_server *srv, const char *op, json_t *args, int deadline_s, cc_sub_cb cb,
                void *ud);

#endif
