/* state/session_store: put/get/list/delete/touch and their refusals. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "state/session_store.h"
#include "tests/unit/check.h"

static char dir[256], dbpath[300];

static struct cc_session_rec sess(const char *id, double created) {
    struct cc_session_rec r;
    memset(&r, 0, sizeof r);
    snprintf(r.id, sizeof r.id, "%s", id);
    snprintf(r.language, sizeof r.language, "python3");
    r.stateful = true;
    snprintf(r.workdir, sizeof r.workdir, "/tmp/ws/%s", id);
    r.created_at = created;
    r.last_activity = created;
    r.host_pid = 777;
    r.host_start = 98765;
    snprintf(r.socket_path, sizeof r.socket_path, "/tmp/ws/%s/host.sock", id);
    r.alive = true;
    return r;
}

static void test_ids(void) {
    CHECK(cc_session_id_valid("abc_DEF-123"));
    CHECK(!cc_session_id_valid(""));
    CHECK(!cc_session_id_valid("a/b"));
    CHECK(!cc_session_id_valid("a b"));
    char long_id[80];
    memset(long_id, 'x', 65);
    long_id[65] = '\0';
    CHECK(!cc_session_id_valid(long_id));
    long_id[64] = '\0';
    CHECK(cc_session_id_valid(long_id));
}

static void test_crud(void) {
    char err[512];
    struct cc_session_store *s = cc_session_store_open(dbpath, err, sizeof err);
    CHECK(s != NULL);
    if (!s) return;
    struct cc_session_rec a = sess("alpha", 10), b = sess("beta", 5);
    b.alive = false;
    b.stateful = false;
    CHECK_INTEQ(cc_session_store_put(s, &a), 0);
    CHECK_INTEQ(cc_session_store_put(s, &b), 0);
    struct cc_session_rec got;
    CHECK_INTEQ(cc_session_store_get(s, "alpha", &got), 1);
    CHECK_STREQ(got.workdir, "/tmp/ws/alpha");
    CHECK_STREQ(got.socket_path, "/tmp/ws/alpha/host.sock");
    CHECK_INTEQ(got.host_pid, 777);
    CHECK(got.host_start == 98765);
    CHECK(got.stateful && got.alive);
    CHECK_INTEQ(cc_session_store_get(s, "gamma", &got), 0);
    CHECK_INTEQ(cc_session_store_get(s, "../x", &got), 0);
    struct cc_session_rec *v;
    size_t n;
    CHECK_INTEQ(cc_session_store_list(s, false, &v, &n), 0);
    CHECK_INTEQ(n, 2);
    if (n == 2) CHECK_STREQ(v[0].id, "beta"); /* oldest first */
    free(v);
    CHECK_INTEQ(cc_session_store_list(s, true, &v, &n), 0);
    CHECK_INTEQ(n, 1);
    if (n == 1) CHECK_STREQ(v[0].id, "alpha");
    free(v);
    CHECK_INTEQ(cc_session_store_touch(s, "alpha", 99.5), 1);
    CHECK_INTEQ(cc_session_store_touch(s, "nobody", 99.5), 0);
    CHECK_INTEQ(cc_session_store_get(s, "alpha", &got), 1);
    CHECK(got.last_activity == 99.5);
    CHECK(got.created_at == 10.0);
    CHECK_INTEQ(cc_session_store_delete(s, "beta"), 1);
    CHECK_INTEQ(cc_session_store_delete(s, "beta"), 0);
    cc_session_store_close(s);
    /* durable across reopen */
    s = cc_session_store_open(dbpath, err, sizeof err);
    CHECK(s != NULL);
    if (!s) return;
    CHECK_INTEQ(cc_session_store_get(s, "alpha", &got), 1);
    CHECK(got.last_activity == 99.5);
    CHECK_INTEQ(cc_session_store_get(s, "beta", &got), 0);
    cc_session_store_close(s);
}

static void test_refusals(void) {
    char err[512];
    struct cc_session_store *s = cc_session_store_open(dbpath, err, sizeof err);
    if (!s) return;
    struct cc_session_rec r = sess("ok", 1);
    snprintf(r.id, sizeof r.id, "bad id");
    errno = 0;
    CHECK_INTEQ(cc_session_store_put(s, &r), -1);
    CHECK_INTEQ(errno, EINVAL);
    r = sess("ok", 1);
    memset(r.workdir, 'w', sizeof r.workdir); /* no terminator: refused, never truncated */
    errno = 0;
    CHECK_INTEQ(cc_session_store_put(s, &r), -1);
    CHECK_INTEQ(errno, ENAMETOOLONG);
    struct cc_session_rec got;
    CHECK_INTEQ(cc_session_store_get(s, "ok", &got), 0);
    cc_session_store_close(s);
}

int main(void) {
    snprintf(dir, sizeof dir, "/tmp/cc-sess-test-XXXXXX");
    if (!mkdtemp(dir)) return 1;
    snprintf(dbpath, sizeof dbpath, "%s/state.db", dir);
    RUN(test_ids);
    RUN(test_crud);
    RUN(test_refusals);
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0) fprintf(stderr, "cleanup of %s failed\n", dir);
    return check_summary("state_sessions");
}
