/* Backend-independent half of the run store: dispatch and id validation. */
#include "state/run_store.h"

#include <errno.h>
#include <string.h>

#include "state/shared.h"

int cc_run_store_put(struct cc_run_store *s, const struct cc_run_rec *r) { return s->ops->put(s, r); }

int cc_run_store_get(struct cc_run_store *s, const char *id, struct cc_run_rec *out) {
    return s->ops->get(s, id, out);
}

int cc_run_store_delete(struct cc_run_store *s, const char *id) { return s->ops->del(s, id); }

int cc_run_store_list_active(struct cc_run_store *s, struct cc_run_rec **out, size_t *n) {
    return s->ops->list_active(s, out, n);
}

int cc_run_store_count_active(struct cc_run_store *s, int64_t *n) { return s->ops->count_active(s, n); }

int cc_run_store_list_expired(struct cc_run_store *s, double finished_before, size_t limit,
                              struct cc_run_rec **out, size_t *n) {
    return s->ops->list_expired(s, finished_before, limit, out, n);
}

int cc_run_store_check(struct cc_run_store *s, char *err, size_t errcap) {
    return s->ops->check(s, err, errcap);
}

void cc_run_store_close(struct cc_run_store *s) {
    if (s) s->ops->close(s);
}

bool cc_run_id_valid(const char *id) {
    if (!id || strlen(id) != CC_RUN_ID_LEN) return false;
    for (const char *p = id; *p; p++)
        if (!((*p >= '0' && *p <= '9') || (*p >= 'a' && *p <= 'f'))) return false;
    return true;
}

struct cc_run_store *cc_run_store_open(const char *db_path, char *err, size_t errcap) {
    const char *url = cc_state_database_url();
    return url ? cc_run_store_open_pg(url, err, errcap) : cc_run_store_open_sqlite(db_path, err, errcap);
}

bool cc_run_store_shared(const struct cc_run_store *s) { return s && s->ops->claim != NULL; }

/* The queue verbs fail (ENOTSUP) on a backend without them. */
#define SHARED(s, call) ((s)->ops->claim ? (s)->ops->call : (errno = ENOTSUP, -1))

int cc_run_store_enqueue(struct cc_run_store *s, const struct cc_run_rec *r, const char *spec) {
    return SHARED(s, enqueue(s, r, spec));
}

int cc_run_store_claim(struct cc_run_store *s, const char *owner, int max, double lease_s,
                       struct cc_run_claim **out, size_t *n) {
    *out = NULL;
    *n = 0;
    return SHARED(s, claim(s, owner, max, lease_s, out, n));
}

int cc_run_store_count_owned(struct cc_run_store *s, const char *owner, int64_t *n) {
    return SHARED(s, count_owned(s, owner, n));
}

int cc_run_store_release(struct cc_run_store *s, const char *id, int attempt) {
    return SHARED(s, release(s, id, attempt));
}

int cc_run_store_renew(struct cc_run_store *s, const char *id, int attempt, double lease_s, const char *partial,
                       bool *cancel) {
    return SHARED(s, renew(s, id, attempt, lease_s, partial, cancel));
}

int cc_run_store_finish(struct cc_run_store *s, const char *id, int attempt, enum cc_run_state st,
                        const char *result, const char *out, size_t out_len, const char *err,
                        size_t err_len) {
    return SHARED(s, finish(s, id, attempt, st, result, out, out_len, err, err_len));
}

int cc_run_store_lose(struct cc_run_store *s, const char *id, int attempt, const char *why) {
    return SHARED(s, lose(s, id, attempt, why));
}

int cc_run_store_result(struct cc_run_store *s, const char *id, char **json) {
    *json = NULL;
    return SHARED(s, result(s, id, json));
}

int cc_run_store_partial(struct cc_run_store *s, const char *id, char **json) {
    *json = NULL;
    return SHARED(s, partial(s, id, json));
}

int cc_run_store_cancel(struct cc_run_store *s, const char *id, struct cc_run_rec *out) {
    return SHARED(s, cancel(s, id, out));
}

int cc_run_store_cluster(struct cc_run_store *s, struct cc_run_cluster *out) {
    memset(out, 0, sizeof *out);
    return SHARED(s, cluster(s, out));
}

int cc_run_store_count_queued(struct cc_run_store *s, int64_t *n) { return SHARED(s, count_queued(s, n)); }

int cc_run_store_server_age(struct cc_run_store *s, const char *id, double *age_s) {
    return SHARED(s, server_age(s, id, age_s));
}

int cc_run_store_listen(struct cc_run_store *s, const char *channel) { return SHARED(s, listen(s, channel)); }

int cc_run_store_notify_fd(struct cc_run_store *s) { return SHARED(s, notify_fd(s)); }

int cc_run_store_notifications(struct cc_run_store *s,
                               void (*fn)(void *ud, const char *channel, const char *payload), void *ud) {
    return SHARED(s, notifications(s, fn, ud));
}
