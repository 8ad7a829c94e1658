/* Backend-independent half of the run store: dispatch and id validation. */
#include "state/run_store.h"

#include <string.h>

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
