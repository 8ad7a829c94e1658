/* The fan-out of one verification call (docs/verification.md): the call's
 * programs are compiled and run as many small exec-pool requests
 * (workers/exec/program_ops.h), at most `limit` of them in flight at once,
 * and each finished request is handed back to the tool on the event loop.
 *
 * The tool drives it in stages: add jobs, let them run; when nothing is
 * queued or running the fan-out calls the tool's `idle` function, which
 * either adds more jobs (re-runs, timing runs) or answers. Results are the
 * tool's to place: each job carries the tool's pointer (`ud`) saying where
 * its answer belongs, so the order of the result never depends on the
 * order in which runs finish.
 *
 * Lifetime: the fan-out is owned by the client's request. When that request
 * goes away without an answer from the tool (notifications/cancelled, the
 * client disconnected, the response deadline), every job in flight is
 * cancelled (the exec worker kills the program and is free again), queued
 * jobs are dropped, and `destroy` frees the tool's state. After
 * cc_fanout_answer the same happens once the answer is sent.
 *
 * Progress: the tool declares how many runs it plans (cc_fanout_plan) and
 * each finished counted job (or cc_fanout_note) sends one
 * notifications/progress {progress: runs finished, total: runs planned,
 * message} when the client gave a progressToken. */
#ifndef CC_VERIFY_FANOUT_H
#define CC_VERIFY_FANOUT_H

#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>

#include "supervisor/request.h"
#include "supervisor/server.h"

struct cc_fanout;

/* A finished job: result is a new reference the callee owns (an exec
 * result, or a rejected {ok:false, code, error} when the request itself
 * failed: worker lost, its own deadline). */
typedef void (*cc_fo_done_fn)(struct cc_fanout *fo, void *ud, json_t *result);
/* Nothing queued or running: add jobs or answer. */
typedef void (*cc_fo_idle_fn)(struct cc_fanout *fo, void *call);
/* Free the tool's state (called exactly once). */
typedef void (*cc_fo_destroy_fn)(void *call);

struct cc_fo_job_spec {
    const char *op;         /* CC_EXEC_OP_COMPILE or CC_EXEC_OP_RUN */
    json_t *args;           /* stolen */
    int64_t deadline_ms;    /* the request's own bound */
    const char *label;      /* for progress messages (copied) */
    bool counted;           /* a planned run: reported as progress */
    bool timed;             /* a timing run: see cc_fanout_stats.timed_overlap */
    cc_fo_done_fn done;
    void *ud;
};

struct cc_fanout_stats {
    int runs;               /* counted jobs finished */
    int max_in_flight;      /* most jobs of this call in flight at once */
    int timed_runs;
    int timed_overlap;      /* most jobs in flight while a timed job was */
    int limit;              /* the call's share of the exec pool */
};

/* The per-call share of the exec pool (docs/verification.md): a quarter of
 * its cap, at least 4, but never the whole pool when it has more than one
 * worker. */
int cc_fanout_share(int pool_max);

/* A fan-out answering r. Its idle function runs once the jobs queued now
 * are done (at once, on the next loop turn, when there are none). NULL on
 * OOM (r is then not answered). */
struct cc_fanout *cc_fanout_new(struct cc_server *srv, struct cc_req *r, void *call,
                                cc_fo_idle_fn idle, cc_fo_destroy_fn destroy);
/* The opening every fan-out tool shares: with err NULL, a fan-out for call;
 * otherwise (err set, owned, or out of memory) r is answered with the
 * error, call is destroyed, and the result is NULL. */
struct cc_fanout *cc_fanout_open(struct cc_server *srv, struct cc_req *r, void *call,
                                 cc_fo_idle_fn idle, cc_fo_destroy_fn destroy, json_t *err);
/* The same, the error passed through shape first: tools whose every result
 * carries a grade (verify_translation, verify_optimization) refuse graded. */
struct cc_fanout *cc_fanout_open_shaped(struct cc_server *srv, struct cc_req *r, void *call,
                                        cc_fo_idle_fn idle, cc_fo_destroy_fn destroy, json_t *err,
                                        void (*shape)(json_t *err));
/* Queue one job; it starts when a slot is free (after the current event). */
void cc_fanout_add(struct cc_fanout *fo, const struct cc_fo_job_spec *spec);
/* At most n jobs in flight from now on (1 for timing stages). */
void cc_fanout_set_limit(struct cc_fanout *fo, int n);
/* Restore the call's share. */
void cc_fanout_reset_limit(struct cc_fanout *fo);
/* n more runs are planned (the progress total). */
void cc_fanout_plan(struct cc_fanout *fo, int n);
/* A planned run that needs no request (its program did not compile): one
 * progress step. */
void cc_fanout_note(struct cc_fanout *fo, const char *label);
/* Answer the client with result (owned; contract_version is added to it)
 * and free everything: from the idle function, or from the tool's
 * handler before it returns (never from a job's done function). */
void cc_fanout_answer(struct cc_fanout *fo, json_t *result);
const struct cc_fanout_stats *cc_fanout_stats(const struct cc_fanout *fo);
/* Milliseconds before the client's response deadline (0 once gone). */
int64_t cc_fanout_remaining_ms(const struct cc_fanout *fo);

#endif
