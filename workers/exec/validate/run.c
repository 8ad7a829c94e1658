/* One sandboxed run of the validator: a fresh run directory holding the
 * helper programs, the execute_code sandbox around `python3 ccv_host.py`
 * (request on stdin, no network), then result.json read back without
 * following links and the directory removed. */
#include "workers/exec/validate/validate.h"
#include "protocol/text_knob.h"

#include "protocol/fdio.h"
#include "workers/exec/execute.h"
#include "workers/sandbox/rundir.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <limits.h>
#include <unistd.h>

#define RESULT_MAX_BYTES (32u << 20)
#define SANDBOX_MEMORY_MB 2048
#define SANDBOX_SLACK_S 10   /* the helper keeps its own budget; this is the backstop */

static const char *run_parent(void) {
    const char *t = getenv("TMPDIR");
    return t && *t == '/' ? t : "/tmp";
}

/* The interpreter the checkers (pyflakes, bandit, mypy) are installed for:
 * CODECALC_VALIDATE_PYTHON, else Debian's /usr/bin/python3, else python3
 * on the runtime PATH. */
static const char *python_path(void) {
    const char *e = cc_text(CC_TEXT_VALIDATE_PYTHON); /* absolute, no quote (text_knob.c) */
    if (e) return e;
    return access("/usr/bin/python3", X_OK) == 0 ? "/usr/bin/python3" : "python3";
}

static int write_at(int dirfd, const char *name, const char *data, size_t len) {
    int fd = openat(dirfd, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0444);
    if (fd < 0) return -1;
    int rc = cc_write_all(fd, data, len);
    return close(fd) != 0 || rc != 0 ? -1 : 0;
}

/* The helpers go into HELPER_DIR inside the run directory. It is created
 * by the worker, so when the worker is root it belongs to root and the
 * sandboxed uid cannot plant a module on the helpers' import path. */
#define HELPER_DIR "ccv"

static int place_helpers(const char *dir) {
    int top = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (top < 0) return -1;
    int dfd = mkdirat(top, HELPER_DIR, 0755) == 0
                  ? openat(top, HELPER_DIR, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
                  : -1;
    close(top);
    if (dfd < 0) return -1;
    size_t n;
    const struct ccv_asset *a = ccv_assets(&n);
    int rc = 0;
    for (size_t i = 0; i < n && rc == 0; i++) rc = write_at(dfd, a[i].name, a[i].data, a[i].len);
    close(dfd);
    return rc;
}

/* result.json as JSON, or NULL (missing, a link, too big, not JSON). */
static json_t *read_answer(const char *dir) {
    char path[PATH_MAX + 16];
    snprintf(path, sizeof path, "%s/result.json", dir);
    size_t len;
    char *buf = cc_read_file(path, O_NOFOLLOW | O_NONBLOCK, RESULT_MAX_BYTES, &len);
    json_t *j = buf ? json_loadb(buf, len, 0, NULL) : NULL;
    free(buf);
    if (json_is_object(j)) return j;
    json_decref(j);
    return NULL;
}

static int cancel_tick(void *ud) { return ud && cc_wctx_cancelled(ud) ? 1 : 0; }

/* Why there is no answer, from the sandbox's envelope. */
static json_t *no_answer(json_t *env, int64_t timeout_s) {
    if (!env) return cc_err("internal", "the validator could not be started: out of memory");
    if (!json_object_get(env, "verdict")) return json_incref(env); /* the executor's own refusal */
    if (json_is_true(json_object_get(env, "cancelled")))
        return cc_err("internal", "the validation was cancelled");
    if (json_is_true(json_object_get(env, "timed_out")))
        return cc_err("timeout", "the validator did not answer within %lld s; a smaller "
                                 "options.timeout_s or fewer examples finish sooner",
                      (long long)timeout_s);
    const char *err = json_string_value(json_object_get(env, "stderr"));
    size_t n = err ? strlen(err) : 0;
    return cc_err("internal", "the validator ended without an answer (verdict %s): %s",
                  json_string_value(json_object_get(env, "verdict")),
                  n ? err + (n > 600 ? n - 600 : 0) : "no output");
}

void ccv_run_helper(const struct ccv_request *req, int64_t budget_ms, cc_wctx *ctx,
                    struct ccv_run *run) {
    memset(run, 0, sizeof *run);
    struct cc_rundir rd;
    if (cc_rundir_create(run_parent(), NULL, 0, &rd) != 0) {
        run->failure = cc_err("internal", "cannot create a run directory in %s: %s", run_parent(),
                              strerror(errno));
        return;
    }
    json_t *in = json_deep_copy(req->helper_req);
    json_object_set_new(in, "budget_ms", json_integer(budget_ms));
    char *stdin_text = json_dumps(in, JSON_COMPACT);
    json_decref(in);
    char *launcher = NULL;
    if (asprintf(&launcher, "exec '%s' -I -B " HELPER_DIR "/ccv_host.py\n", python_path()) < 0)
        launcher = NULL;
    if (!stdin_text || !launcher || place_helpers(rd.path) != 0) {
        run->failure = cc_err("internal", "cannot prepare the validator in %s: %s", rd.path,
                              strerror(errno));
    } else {
        int64_t timeout_s = budget_ms / 1000 + SANDBOX_SLACK_S;
        struct cc_exec_hooks hooks = {.tick = cancel_tick, .ud = ctx};
        struct cc_exec_req q = {.language = "bash", .code = launcher, .code_len = strlen(launcher),
                                .stdin_data = stdin_text, .stdin_len = strlen(stdin_text),
                                .timeout = timeout_s, .max_memory_mb = SANDBOX_MEMORY_MB,
                                /* 0: the default capture of the helper's own output, and a
                                 * file size limit (256 MiB) that leaves room for capturing
                                 * what the checked code prints */
                                .max_output_kb = 0, .no_net = true, .hooks = &hooks,
                                .workdir = rd.path};
        json_t *env = cc_execute(&q);
        run->answer = read_answer(rd.path);
        run->unenforced = json_incref(json_object_get(env, "unenforced"));
        run->wall_ms = json_integer_value(json_object_get(env, "total_ms"));
        if (!run->answer) run->failure = no_answer(env, timeout_s);
        json_decref(env);
    }
    if (!run->unenforced) run->unenforced = json_array();
    /* Its directory is passed as a workdir: cc_execute cannot tell. */
    cc_exec_disclose_unbound(run->unenforced, &rd);
    free(stdin_text);
    free(launcher);
    cc_rundir_remove(&rd); /* a failed removal is a visible leak, never an error (1.5) */
}

void ccv_run_free(struct ccv_run *run) {
    json_decref(run->answer);
    json_decref(run->unenforced);
    json_decref(run->failure);
    memset(run, 0, sizeof *run);
}
