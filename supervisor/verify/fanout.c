/* One verification call's requests to the exec pool (see fanout.h).
 *
 * Jobs move queued -> running -> finished. A sub-request's answer only
 * moves its job to the finished list and wakes the pump (a deferred event),
 * so the tool's callbacks never run inside the pool's or a transport's
 * code. The pump hands finished jobs to the tool in the order they
 * finished, starts queued jobs while a slot is free, and calls the tool's
 * idle function when nothing is left. */
#include "supervisor/verify/fanout.h"

#include <event2/event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "supervisor/pool.h"
#include "supervisor/sessions/sessions.h"
#include "supervisor/sub.h"
#include "workers/common/tool_api.h"

struct job {
    struct cc_fanout *fo;
    struct cc_fo_job_spec spec;   /* label copied, args owned until started */
    char *label;
    struct cc_sub *sub;           /* while running */
    json_t *result;               /* once finished */
    bool finished;
    struct job *next;
};

struct job_list {
    struct job *head, *tail;
};

struct cc_fanout {
    struct cc_server *srv;
    struct cc_req *r;             /* the client's request; NULL once gone */
    void *call;
    cc_fo_idle_fn idle;
    cc_fo_destroy_fn destroy;
    struct event *pump;
    struct job_list queued, finished;
    struct job *running;          /* unordered */
    int n_running, n_timed_running, limit, share;
    int planned, reported;
    struct cc_fanout_stats stats;
    int busy;                     /* inside the pump */
    bool doomed;                  /* free when the pump unwinds */
};

int cc_fanout_share(int pool_max) {
    int share = pool_max / 4 > 4 ? pool_max / 4 : 4;
    if (share >= pool_max) share = pool_max > 1 ? pool_max - 1 : 1;
    return share;
}

static void list_push(struct job_list *l, struct job *j) {
    j->next = NULL;
    if (l->tail) l->tail->next = j;
    else l->head = j;
    l->tail = j;
}

static struct job *list_pop(struct job_list *l) {
    struct job *j = l->head;
    if (j && !(l->head = j->next)) l->tail = NULL;
    return j;
}

static void job_free(struct job *j) {
    json_decref(j->spec.args);
    json_decref(j->result);
    free(j->label);
    free(j);
}

static void unlink_running(struct cc_fanout *fo, struct job *j) {
    for (struct job **pp = &fo->running; *pp; pp = &(*pp)->next)
        if (*pp == j) {
            *pp = j->next;
            fo->n_running--;
            if (j->spec.timed) fo->n_timed_running--;
            return;
        }
}

/* Cancel what runs, drop what waits: nothing of this call goes on. */
static void stop_all(struct cc_fanout *fo) {
    struct job *j;
    while ((j = fo->running)) {
        unlink_running(fo, j);
        if (j->sub) cc_sub_cancel(j->sub);
        job_free(j);
    }
    while ((j = list_pop(&fo->queued))) job_free(j);
    while ((j = list_pop(&fo->finished))) job_free(j);
}

static void release(struct cc_fanout *fo) {
    stop_all(fo);
    if (fo->pump) event_free(fo->pump);
    if (fo->destroy) fo->destroy(fo->call);
    free(fo);
}

/* The client's request is gone without our answer. */
static void on_request_free(void *owner) {
    struct cc_fanout *fo = owner;
    fo->r = NULL;
    stop_all(fo);
    if (fo->busy) fo->doomed = true;
    else release(fo);
}

static void wake(struct cc_fanout *fo) { event_active(fo->pump, 0, 0); }

static void on_sub_done(struct cc_server *srv, void *ud, json_t *result, const char *err) {
    (void)srv;
    struct job *j = ud;
    struct cc_fanout *fo = j->fo;
    j->sub = NULL;
    j->finished = true;
    if (result) {
        j->result = json_deep_copy(result);
    } else {
        j->result = cc_err("internal", "the run could not be completed: %s", err ? err : "no answer");
    }
    unlink_running(fo, j);
    list_push(&fo->finished, j);
    wake(fo);
}

static void start(struct cc_fanout *fo, struct job *j) {
    j->next = fo->running;
    fo->running = j;
    fo->n_running++;
    if (j->spec.timed) fo->n_timed_running++;
    if (fo->n_running > fo->stats.max_in_flight) fo->stats.max_in_flight = fo->n_running;
    if (fo->n_timed_running && fo->n_running > fo->stats.timed_overlap)
        fo->stats.timed_overlap = fo->n_running;
    struct cc_sub *s = cc_sub_start(fo->srv, j->spec.op, j->spec.args, j->spec.deadline_ms, on_sub_done, j);
    json_decref(j->spec.args);
    j->spec.args = NULL;
    if (j->finished) return; /* answered before cc_sub_start returned */
    if (!s) {
        on_sub_done(fo->srv, j, NULL, "cannot reach the exec workers");
        return;
    }
    j->sub = s;
}

static void progress(struct cc_fanout *fo, const char *label) {
    fo->reported++;
    if (fo->reported > fo->planned) fo->planned = fo->reported;
    if (fo->r) cc_req_progress(fo->r, fo->reported, fo->planned, label);
}

static void pump(evutil_socket_t fd, short what, void *arg) {
    (void)fd, (void)what;
    struct cc_fanout *fo = arg;
    fo->busy++;
    struct job *j;
    while (!fo->doomed && (j = list_pop(&fo->finished))) {
        if (j->spec.counted) {
            fo->stats.runs++;
            if (j->spec.timed) fo->stats.timed_runs++;
        }
        json_t *res = j->result;
        j->result = NULL;
        j->spec.done(fo, j->spec.ud, res);
        if (j->spec.counted && !fo->doomed) progress(fo, j->label);
        job_free(j);
    }
    while (!fo->doomed && fo->n_running < fo->limit && (j = list_pop(&fo->queued))) start(fo, j);
    /* The idle function adds jobs (they start on the next turn) or answers
     * (fo is then released below, once nothing of ours is on the stack). */
    if (!fo->doomed && !fo->running && !fo->queued.head && !fo->finished.head) fo->idle(fo, fo->call);
    if (--fo->busy == 0 && fo->doomed) release(fo);
}

struct cc_fanout *cc_fanout_new(struct cc_server *srv, struct cc_req *r, void *call,
                                cc_fo_idle_fn idle, cc_fo_destroy_fn destroy) {
    struct cc_fanout *fo = calloc(1, sizeof *fo);
    if (!fo) return NULL;
    fo->pump = event_new(srv->base, -1, 0, pump, fo);
    if (!fo->pump) {
        free(fo);
        return NULL;
    }
    fo->srv = srv;
    fo->r = r;
    fo->call = call;
    fo->idle = idle;
    fo->destroy = destroy;
    fo->share = cc_fanout_share(cc_pool_max(srv->pools[CC_POOL_EXEC]));
    fo->limit = fo->stats.limit = fo->share;
    r->on_free = on_request_free;
    r->owner = fo;
    wake(fo); /* a call that queues nothing is still answered, by its idle function */
    return fo;
}

struct cc_fanout *cc_fanout_open_shaped(struct cc_server *srv, struct cc_req *r, void *call,
                                        cc_fo_idle_fn idle, cc_fo_destroy_fn destroy, json_t *err,
                                        void (*shape)(json_t *err)) {
    struct cc_fanout *fo = err || !call ? NULL : cc_fanout_new(srv, r, call, idle, destroy);
    if (fo) return fo;
    if (!err) err = cc_err("internal", "out of memory");
    if (shape) shape(err);
    cc_session_answer(r, err);
    json_decref(err);
    if (call) destroy(call);
    return NULL;
}

struct cc_fanout *cc_fanout_open(struct cc_server *srv, struct cc_req *r, void *call,
                                 cc_fo_idle_fn idle, cc_fo_destroy_fn destroy, json_t *err) {
    return cc_fanout_open_shaped(srv, r, call, idle, destroy, err, NULL);
}

void cc_fanout_add(struct cc_fanout *fo, const struct cc_fo_job_spec *spec) {
    struct job *j = calloc(1, sizeof *j);
    char *label = strdup(spec->label ? spec->label : "");
    if (!j || !label) {
        free(j);
        free(label);
        struct job tmp = {.fo = fo, .spec = *spec};
        /* Out of memory: the job finishes at once as a failed run. */
        json_decref(tmp.spec.args);
        json_t *err = cc_err("internal", "out of memory");
        spec->done(fo, spec->ud, err);
        return;
    }
    j->fo = fo;
    j->spec = *spec;
    j->label = label;
    j->spec.label = label;
    list_push(&fo->queued, j);
    wake(fo);
}

void cc_fanout_set_limit(struct cc_fanout *fo, int n) { fo->limit = n < 1 ? 1 : n; }

void cc_fanout_reset_limit(struct cc_fanout *fo) { fo->limit = fo->share; }

void cc_fanout_plan(struct cc_fanout *fo, int n) { fo->planned += n; }

void cc_fanout_note(struct cc_fanout *fo, const char *label) { progress(fo, label); }

void cc_fanout_answer(struct cc_fanout *fo, json_t *result) {
    struct cc_req *r = fo->r;
    if (r) {
        r->on_free = NULL;
        fo->r = NULL;
        cc_session_answer(r, result); /* adds contract_version */
    }
    json_decref(result);
    stop_all(fo);
    if (fo->busy) fo->doomed = true;
    else release(fo);
}

const struct cc_fanout_stats *cc_fanout_stats(const struct cc_fanout *fo) { return &fo->stats; }

int64_t cc_fanout_remaining_ms(const struct cc_fanout *fo) {
    return fo->r ? fo->r->start_ms + fo->r->deadline_ms - cc_now_ms() : 0;
}
