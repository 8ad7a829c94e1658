/* A supervisor without workers, for the targets that drive the JSON-RPC and
 * HTTP paths: the real registry, MCP methods, argument validation and
 * request bookkeeping, with cc_pool_submit replaced at link time
 * (-Wl,--wrap=cc_pool_submit) by a fake worker that checks the request
 * frame it was handed and answers by echoing the arguments back through the
 * real frame-to-answer path. No process is started, no state directory is
 * opened (sessions and runs answer "not served"). */
#ifndef CC_FZ_SERVER_H
#define CC_FZ_SERVER_H

#include <stdbool.h>
#include <stdint.h>

#include "supervisor/conn.h"
#include "supervisor/server.h"

/* The one server of this process (built on first use). */
struct cc_server *fz_server(void);

/* A connection whose every outgoing message must be one strict JSON object
 * (fz_json_valid); counts what it sent. Freed when its last reference goes
 * (cc_conn_close drops the owner's). */
struct cc_conn *fz_conn_new(void);
unsigned long fz_conn_sent(const struct cc_conn *c);
/* A hash of every message c sent, in order (0 before the first). */
uint64_t fz_conn_hash(const struct cc_conn *c);

/* Answer the calls the fake worker holds, oldest first or newest first; a
 * call whose client asked for progress gets a progress event first. Calls
 * cancelled meanwhile are skipped. */
void fz_answer_pending(bool newest_first);
/* Forget held calls without answering (their requests were freed). */
void fz_forget_pending(void);

#endif
