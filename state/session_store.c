/* Backend-independent half of the session store: validation, backend
 * choice and dispatch (see session_store.h). */
#include "state/session_store.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "state/shared.h"

bool cc_session_id_valid(const char *id) {
    size_t n = id ? strlen(id) : 0;
    if (n < 1 || n > 64) return false;
    for (size_t i = 0; i < n; i++) {
        char c = id[i];
        if (!((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
              c == '_' || c == '-'))
            return false;
    }
    return true;
}

struct cc_session_store *cc_session_store_open(const char *db_path, char *err, size_t errcap) {
    const char *url = cc_state_database_url();
    return url ? cc_session_store_open_pg(url, err, errcap) : cc_session_store_open_sqlite(db_path, err, errcap);
}

void cc_session_store_close(struct cc_session_store *s) {
    if (s) s->ops->close(s);
}

/* Does every string of r fit its field with room for the NUL? Records
 * built by hand might lack the terminator, so look only within the field. */
static bool fits(const struct cc_session_rec *r) {
    return memchr(r->id, 0, sizeof r->id) && memchr(r->language, 0, sizeof r->language) &&
           memchr(r->workdir, 0, sizeof r->workdir) && memchr(r->socket_path, 0, sizeof r->socket_path);
}

int cc_session_store_put(struct cc_session_store *s, const struct cc_session_rec *r) {
    if (!fits(r)) return errno = ENAMETOOLONG, -1;
    if (!cc_session_id_valid(r->id)) return errno = EINVAL, -1;
    return s->ops->put(s, r);
}

int cc_session_store_get(struct cc_session_store *s, const char *id, struct cc_session_rec *out) {
    if (!cc_session_id_valid(id)) return 0;
    return s->ops->get(s, id, out);
}

int cc_session_store_list(struct cc_session_store *s, bool alive_only, struct cc_session_rec **out, size_t *n) {
    *out = NULL;
    *n = 0;
    return s->ops->list(s, alive_only, out, n);
}

int cc_session_store_list_all(struct cc_session_store *s, bool alive_only, struct cc_session_rec **out, size_t *n) {
    *out = NULL;
    *n = 0;
    return s->ops->list_all ? s->ops->list_all(s, alive_only, out, n) : s->ops->list(s, alive_only, out, n);
}

int cc_session_store_delete(struct cc_session_store *s, const char *id) {
    if (!cc_session_id_valid(id)) return 0;
    return s->ops->del(s, id);
}

int cc_session_store_touch(struct cc_session_store *s, const char *id, double now) {
    if (!cc_session_id_valid(id)) return 0;
    return s->ops->touch(s, id, now);
}

bool cc_session_store_shared(const struct cc_session_store *s) { return s && s->ops->mark_lost != NULL; }

int cc_session_store_mark_lost(struct cc_session_store *s, const char *id, const char *why) {
    if (!s->ops->mark_lost) return errno = ENOTSUP, -1;
    if (!cc_session_id_valid(id)) return 0;
    return s->ops->mark_lost(s, id, why);
}
