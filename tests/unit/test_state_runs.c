/* state/: database migrations, the run store and the state-directory lock. */
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "state/db.h"
#include "state/lock.h"
#include "state/run_store.h"
#include "tests/unit/check.h"

static char dir[256], dbpath[300];

static struct cc_run_rec rec(const char *id, enum cc_run_state st, double started) {
    struct cc_run_rec r;
    memset(&r, 0, sizeof r);
    snprintf(r.id, sizeof r.id, "%s", id);
    snprintf(r.provider_id, sizeof r.provider_id, "local");
    r.state = st;
    r.started_at = started;
    r.deadline = started + 30;
    return r;
}

#define ID(c) c c c c c c c c c c c c c c c c c c c c c c c c c c c c c c c c

static void test_ids(void) {
    CHECK(cc_run_id_valid(ID("a")));
    CHECK(cc_run_id_valid("0123456789abcdef0123456789abcdef"));
    CHECK(!cc_run_id_valid("0123456789ABCDEF0123456789abcdef"));
    CHECK(!cc_run_id_valid("0123456789abcdef0123456789abcde"));
    CHECK(!cc_run_id_valid("0123456789abcdef0123456789abcdef0"));
    CHECK(!cc_run_id_valid("../../../../../../etc/passwd/xxxx"));
    CHECK(!cc_run_id_valid(""));
    CHECK(!cc_run_id_valid(NULL));
}

static void test_store_roundtrip(void) {
    char err[512];
    struct cc_run_store *s = cc_run_store_open_sqlite(dbpath, err, sizeof err);
    CHECK(s != NULL);
    if (!s) return;
    struct cc_run_rec a = rec(ID("a"), CC_RUN_RUNNING, 100), b = rec(ID("b"), CC_RUN_RUNNING, 50);
    a.pid = 4242;
    a.pid_start = 123456789012ull;
    snprintf(a.reason, sizeof a.reason, "it's \"quoted\"");
    CHECK_INTEQ(cc_run_store_put(s, &a), 0);
    CHECK_INTEQ(cc_run_store_put(s, &b), 0);
    struct cc_run_rec got;
    CHECK_INTEQ(cc_run_store_get(s, ID("a"), &got), 1);
    CHECK_INTEQ(got.pid, 4242);
    CHECK(got.pid_start == 123456789012ull);
    CHECK_STREQ(got.reason, "it's \"quoted\"");
    CHECK_STREQ(got.provider_id, "local");
    CHECK(got.deadline == 130.0);
    CHECK_INTEQ(cc_run_store_get(s, ID("c"), &got), 0);
    int64_t n = -1;
    CHECK_INTEQ(cc_run_store_count_active(s, &n), 0);
    CHECK_INTEQ(n, 2);
    struct cc_run_rec *v;
    size_t nv;
    CHECK_INTEQ(cc_run_store_list_active(s, &v, &nv), 0);
    CHECK_INTEQ(nv, 2);
    if (nv == 2) CHECK_STREQ(v[0].id, ID("b")); /* oldest first */
    free(v);
    /* b finishes: no longer active, expirable once its time passed */
    b.state = CC_RUN_DONE;
    b.finished_at = 200;
    CHECK_INTEQ(cc_run_store_put(s, &b), 0);
    CHECK_INTEQ(cc_run_store_count_active(s, &n), 0);
    CHECK_INTEQ(n, 1);
    CHECK_INTEQ(cc_run_store_list_expired(s, 150, 10, &v, &nv), 0);
    CHECK_INTEQ(nv, 0);
    free(v);
    CHECK_INTEQ(cc_run_store_list_expired(s, 250, 10, &v, &nv), 0);
    CHECK_INTEQ(nv, 1);
    if (nv == 1) CHECK_STREQ(v[0].id, ID("b"));
    free(v);
    b.expired = true;
    CHECK_INTEQ(cc_run_store_put(s, &b), 0);
    CHECK_INTEQ(cc_run_store_list_expired(s, 250, 10, &v, &nv), 0);
    CHECK_INTEQ(nv, 0);
    free(v);
    CHECK_INTEQ(cc_run_store_check(s, err, sizeof err), 0);
    cc_run_store_close(s);
}

static void test_store_persists_and_migrates_once(void) {
    char err[512];
    struct cc_run_store *s = cc_run_store_open_sqlite(dbpath, err, sizeof err);
    CHECK(s != NULL);
    if (!s) return;
    struct cc_run_rec got;
    CHECK_INTEQ(cc_run_store_get(s, ID("b"), &got), 1);
    CHECK_INTEQ(got.state, CC_RUN_DONE);
    CHECK(got.expired);
    CHECK(got.finished_at == 200.0);
    CHECK_INTEQ(cc_run_store_delete(s, ID("a")), 0);
    CHECK_INTEQ(cc_run_store_get(s, ID("a"), &got), 0);
    cc_run_store_close(s);
    struct cc_db *db;
    CHECK_INTEQ(cc_db_open(dbpath, &db, err, sizeof err), 0);
    if (!db) return;
    CHECK_INTEQ(cc_db_version(db, "runs"), 1);
    CHECK_INTEQ(cc_db_version(db, "nothing"), 0);
    /* a failing step leaves no trace and reports which store/step */
    static const struct cc_migration bad[] = {{1, "CREATE TABLE t1(x)"}, {2, "CREATE TABLE t1(x)"}};
    CHECK_INTEQ(cc_db_migrate(db, "demo", bad, 2, err, sizeof err), -1);
    CHECK(strstr(err, "demo v2") != NULL);
    CHECK_INTEQ(cc_db_version(db, "demo"), 1);
    CHECK_INTEQ(cc_db_check(db, err, sizeof err), 0);
    cc_db_close(db);
}

static void test_open_failure_is_reported(void) {
    char err[512] = "";
    CHECK(cc_run_store_open_sqlite("/nonexistent-dir-cc/state.db", err, sizeof err) == NULL);
    CHECK(strstr(err, "/nonexistent-dir-cc/state.db") != NULL);
}

static void test_lock(void) {
    char err[1024];
    CHECK_INTEQ(cc_state_lock(dir, err, sizeof err), 0);
    CHECK_INTEQ(cc_state_lock(dir, err, sizeof err), 0); /* idempotent in one process */
    pid_t pid = fork();
    if (pid == 0) {
        cc_state_unlock(); /* the child's copy; the parent still holds the lock */
        char e2[1024] = "";
        int rc = cc_state_lock(dir, e2, sizeof e2);
        _exit(rc == -1 && strstr(e2, "CODECALC_HOME") && strstr(e2, dir) ? 0 : 1);
    }
    int st = -1;
    waitpid(pid, &st, 0);
    CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0);
    cc_state_unlock();
    pid = fork();
    if (pid == 0) {
        char e2[1024];
        _exit(cc_state_lock(dir, e2, sizeof e2) == 0 ? 0 : 1);
    }
    waitpid(pid, &st, 0);
    CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0); /* released: another may take it */
}

int main(void) {
    snprintf(dir, sizeof dir, "/tmp/cc-state-test-XXXXXX");
    if (!mkdtemp(dir)) return 1;
    snprintf(dbpath, sizeof dbpath, "%s/state.db", dir);
    RUN(test_ids);
    RUN(test_store_roundtrip);
    RUN(test_store_persists_and_migrates_once);
    RUN(test_open_failure_is_reported);
    RUN(test_lock);
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0) fprintf(stderr, "cleanup of %s failed\n", dir);
    return check_summary("state_runs");
}
