/* Lease, cancel and result of a shared-queue run (see shepherd_lease.h). */
#include "workers/exec/shepherd_lease.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "protocol/fdio.h"
#include "protocol/monotonic.h"
#include "state/run_store.h"
#include "state/shared.h"

#define LEASE_FILE "lease"
/* Renewal doubles as the cancel poll: at most this far apart. */
#define RENEW_EVERY_MS 1000
/* The output so far rides on a renewal at most this often (partial.json is
 * rewritten twice a second; the database gets every fourth at most). */
#define PARTIAL_EVERY_MS 2000

struct cc_lease {
    struct cc_run_store *store;
    char id[CC_RUN_ID_LEN + 1];
    int attempt;
    double lease_s;
    int64_t next_renew_ms;
    int64_t held_until_ms;   /* the lease as of the last successful renewal */
    int64_t next_partial_ms;
    char *partial;           /* output so far not yet stored (owned), or NULL */
    bool cancel, lost;
};

struct cc_lease *cc_lease_open(int dirfd) {
    const char *url = cc_state_database_url();
    if (!url) return NULL;
    int fd = openat(dirfd, LEASE_FILE, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
    if (fd < 0) return NULL;
    size_t len;
    char *text = cc_read_fd(fd, 256, &len);
    close(fd);
    if (!text) return NULL;
    struct cc_lease *l = calloc(1, sizeof *l);
    int ok = l && sscanf(text, "%32s %d %lf", l->id, &l->attempt, &l->lease_s) == 3 && cc_run_id_valid(l->id);
    free(text);
    char err[512];
    if (ok && !(l->store = cc_run_store_open_pg(url, err, sizeof err))) {
        fprintf(stderr, "shepherd: %s; the server will store the result\n", err);
        ok = 0;
    }
    /* Without LISTEN the renewal still polls the cancel flag every second. */
    if (ok && cc_run_store_listen(l->store, "cc_run_cancel") < 0)
        fprintf(stderr, "shepherd: LISTEN failed; polling for a cancel instead\n");
    if (!ok) {
        free(l);
        return NULL;
    }
    int64_t now = cc_now_ms();
    l->held_until_ms = now + (int64_t)(l->lease_s * 1000);
    return l;
}

static void on_notification(void *ud, const char *channel, const char *payload) {
    struct cc_lease *l = ud;
    if (strcmp(channel, "cc_run_cancel") == 0 && strcmp(payload, l->id) == 0) l->cancel = true;
}

void cc_lease_offer_partial(struct cc_lease *l, const char *doc, size_t len) {
    if (!l) return;
    char *copy = malloc(len + 1);
    if (!copy) return;
    memcpy(copy, doc, len);
    copy[len] = '\0';
    free(l->partial);
    l->partial = copy;
}

static void renew(struct cc_lease *l, int64_t now) {
    bool cancel = false;
    const char *partial = l->partial && now >= l->next_partial_ms ? l->partial : NULL;
    int held = cc_run_store_renew(l->store, l->id, l->attempt, l->lease_s, partial, &cancel);
    if (held == 1) {
        l->held_until_ms = now + (int64_t)(l->lease_s * 1000);
        if (cancel) l->cancel = true;
        if (partial) {
            free(l->partial);
            l->partial = NULL;
            l->next_partial_ms = now + PARTIAL_EVERY_MS;
        }
    } else if (held == 0) {
        fprintf(stderr, "shepherd: run %s attempt %d no longer holds its lease; stopping\n", l->id, l->attempt);
        l->lost = true;
    }
    /* held < 0: the database is unreachable. Keep running while the lease
     * we hold lasts; past it another server may have re-queued the run. */
    if (held < 0 && now >= l->held_until_ms) {
        fprintf(stderr, "shepherd: run %s: lease expired while the database was unreachable; stopping\n", l->id);
        l->lost = true;
    }
}

bool cc_lease_tick(struct cc_lease *l) {
    if (!l) return false;
    (void)cc_run_store_notifications(l->store, on_notification, l);
    int64_t now = cc_now_ms();
    if (now >= l->next_renew_ms) {
        l->next_renew_ms = now + RENEW_EVERY_MS;
        renew(l, now);
    }
    return l->cancel || l->lost;
}

bool cc_lease_lost(const struct cc_lease *l) { return l && l->lost; }

void cc_lease_finish(struct cc_lease *l, bool cancelled, json_t *result) {
    if (!l || l->lost) return;
    json_t *doc = json_pack("{s:b,s:O}", "cancelled", cancelled, "result", result);
    char *text = doc ? json_dumps(doc, JSON_COMPACT) : NULL;
    json_decref(doc);
    if (!text) return;
    json_t *o = json_object_get(result, "stdout"), *e = json_object_get(result, "stderr");
    const char *out = json_string_value(o), *err = json_string_value(e);
    size_t out_len = out ? json_string_length(o) : 0, err_len = err ? json_string_length(e) : 0;
    /* Retry while our lease lasts; after that the run is another's. */
    int64_t give_up = cc_now_ms() + (int64_t)(l->lease_s * 1000);
    for (;;) {
        int rc = cc_run_store_finish(l->store, l->id, l->attempt, cancelled ? CC_RUN_CANCELLED : CC_RUN_DONE, text,
                                     out, out_len, err, err_len);
        if (rc == 1) break;
        if (rc == 0) {
            fprintf(stderr, "shepherd: run %s attempt %d: result not stored, the run is no longer this attempt's\n",
                    l->id, l->attempt);
            break;
        }
        if (cc_now_ms() >= give_up) {
            fprintf(stderr, "shepherd: run %s: cannot store the result; result.json stays for the server\n", l->id);
            break;
        }
        struct timespec ts = {0, 500 * 1000 * 1000};
        nanosleep(&ts, NULL);
    }
    free(text);
}

void cc_lease_close(struct cc_lease *l) {
    if (!l) return;
    cc_run_store_close(l->store);
    free(l->partial);
    free(l);
}
