/* Several exec-pool calls at once, answered together: a local tool that
 * runs a program on many inputs (extract_function) hands each run to its
 * own exec worker, so the runs go in parallel as far as the pool grows
 * (CODECALC_MAX_EXEC_WORKERS), and gets every answer back in input order.
 * Built on the sessions layer's sub-requests (cc_sub_exec). */
#ifndef CC_EXEC_FANOUT_H
#define CC_EXEC_FANOUT_H

#include <jansson.h>

#include "supervisor/server.h"

/* results: one element per call, in order (borrowed): the call's result
 * object, or {ok: false, code: "internal", error} when it got none. */
typedef void (*cc_fanout_cb)(struct cc_server *srv, void *ud, json_t *results);

/* Submit one `op` call per element of args_list (an array of argument
 * objects, borrowed) with the deadline deadline_s each. cb runs once, when
 * the last call is answered (immediately, before this returns, when no call
 * could be submitted). Returns 0, or -1 on OOM (cb is then not called). */
int cc_fanout_exec(struct cc_server *srv, const char *op, json_t *args_list, int deadline_s, cc_fanout_cb cb,
                   void *ud);

#endif
