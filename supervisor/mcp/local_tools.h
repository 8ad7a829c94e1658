/* Tools answered inside the supervisor (pool "local" of the tool table):
 * sessions, background runs. Each row's handler is cc_local_<name>
 * (cc_local_fn of supervisor/mcp/tool_table.h): it owns the request from
 * then on and must answer it exactly once, now or later (cc_req_answer_*),
 * never block the loop. */
#ifndef CC_LOCAL_TOOLS_H
#define CC_LOCAL_TOOLS_H

#include <jansson.h>
#include <stdbool.h>

#include "supervisor/request.h"
#include "supervisor/server.h"

/* Declares cc_local_<name> with the handler signature. */
#define CC_LOCAL_TOOL(name) void cc_local_##name(struct cc_server *srv, struct cc_req *r, json_t *args)

/* ---- sessions (supervisor/sessions*.c) ---- */
/* Start-up: open the session store, re-attach surviving REPL hosts. 0 or -1. */
int cc_sessions_init(struct cc_server *srv);
void cc_sessions_shutdown(struct cc_server *srv);
/* execute_code (or another exec tool) carrying a session_id: take over the
 * request (answer it) and return true; false = route normally. */
bool cc_sessions_intercept(struct cc_server *srv, struct cc_req *r, json_t *args);
/* resources/list, resources/templates/list, resources/read: answer and return
 * true; false = not a resources method. */
bool cc_resources_dispatch(struct cc_server *srv, struct cc_conn *c, json_t *id,
                           const char *method, json_t *params);

/* ---- background runs (supervisor/runs*.c) ---- */
/* Start-up: open the run store, recover unfinished runs. 0 or -1. */
int cc_runs_init(struct cc_server *srv);
void cc_runs_shutdown(struct cc_server *srv);

#endif
