/* Run shepherd (see shepherd.h). */
#include "workers/exec/shepherd.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "protocol/fdio.h"
#include "protocol/json_convert.h"
#include "protocol/proc_stat.h"
#include "protocol/strbuf.h"
#include "protocol/monotonic.h"
#include "protocol/utf8.h"
#include "workers/common/tool_api.h"
#include "workers/exec/execute.h"
#include "workers/exec/shepherd_lease.h"
#include "workers/exec/warm.h"

/* Same defaults and ceiling as run_submit (TOOLS.md 3.2.9). */
#define RUN_TIMEOUT_DEFAULT 30
#define RUN_TIMEOUT_MAX 120
/* spec.json is written by our own supervisor; the bound only stops a
 * damaged file from exhausting memory. */
#define SPEC_MAX_BYTES (64u << 20)

json_t *cc_exec_run_request(json_t *args, cc_wctx *ctx, int64_t tdefault, int64_t tmax,
                            const struct cc_exec_hooks *hooks);

static volatile sig_atomic_t stop_requested;

static void on_stop(int sig) {
    (void)sig;
    stop_requested = 1;
}

struct shepherd {
    int dirfd;
    const char *phase;        /* step being run, NULL before the first */
    struct {
        char *head;           /* its first CC_SHEPHERD_PARTIAL_CAP bytes (owned) */
        size_t len;
        int64_t total;        /* every byte written so far */
        int64_t seen;         /* total last published, -1 = never */
    } out[2];                 /* stdout, stderr of the step being run */
    int64_t last_ms;          /* when they were published (cc_now_ms) */
    struct cc_lease *lease;   /* shared-queue runs only (shepherd_lease.h) */
};

/* Write data to name in the run directory atomically (readers see the old
 * file or the whole new one) and, when durable, also fsync file and
 * directory so it survives a machine crash. Only result.json needs that:
 * the pid file describes a process a crash kills anyway, and the stream
 * copies repeat what result.json holds. */
static int write_atomic(int dirfd, const char *name, const char *data, size_t len, bool durable) {
    char tmp[64];
    snprintf(tmp, sizeof tmp, ".%s.tmp", name);
    int fd = openat(dirfd, tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    if (fd < 0) return -1;
    if (cc_write_all(fd, data, len) < 0) {
        close(fd);
        unlinkat(dirfd, tmp, 0);
        return -1;
    }
    if ((durable && fsync(fd) < 0) || close(fd) < 0) {
        unlinkat(dirfd, tmp, 0);
        return -1;
    }
    if (renameat(dirfd, tmp, dirfd, name) < 0) {
        unlinkat(dirfd, tmp, 0);
        return -1;
    }
    return durable ? fsync(dirfd) : 0;
}

static int write_identity(int dirfd) {
    char line[64];
    int n = snprintf(line, sizeof line, "%ld %llu\n", (long)getpid(), (unsigned long long)cc_proc_start_time(0));
    return write_atomic(dirfd, CC_SHEPHERD_PID_FILE, line, (size_t)n, false);
}

/* The spec as written by run_submit; NULL with why filled. */
static json_t *read_spec(int dirfd, char *why, size_t cap) {
    int fd = openat(dirfd, CC_SHEPHERD_SPEC_FILE, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
    if (fd < 0) {
        snprintf(why, cap, "cannot read the run spec: %s", strerror(errno));
        return NULL;
    }
    size_t len;
    char *text = cc_read_fd(fd, SPEC_MAX_BYTES, &len);
    int e = errno;
    close(fd);
    if (!text) {
        if (e == EFBIG) snprintf(why, cap, "the run spec is larger than %u bytes", SPEC_MAX_BYTES);
        else snprintf(why, cap, "cannot read the run spec: %s", strerror(e));
        return NULL;
    }
    json_error_t je;
    json_t *spec = cc_json_parse(text, len, &je);
    free(text);
    if (!json_is_object(spec)) {
        json_decref(spec);
        snprintf(why, cap, "the run spec is not a JSON object");
        return NULL;
    }
    return spec;
}

/* ---- output so far ---- */

static void close_captures(struct shepherd *sh) {
    for (int i = 0; i < 2; i++) {
        free(sh->out[i].head);
        sh->out[i].head = NULL;
        sh->out[i].len = 0;
        sh->out[i].total = 0;
        sh->out[i].seen = -1;
    }
}

static void on_step_start(void *ud, const char *phase) {
    struct shepherd *sh = ud;
    close_captures(sh);
    sh->phase = phase;
}

/* The sandbox hands over every chunk it drains from the program. */
static void on_output(void *ud, const char *phase, int stream, const char *data, size_t n) {
    struct shepherd *sh = ud;
    (void)phase;
    if (stream < 1 || stream > 2) return;
    typeof(sh->out[0]) *o = &sh->out[stream - 1];
    o->total += (int64_t)n;
    size_t room = CC_SHEPHERD_PARTIAL_CAP > o->len ? CC_SHEPHERD_PARTIAL_CAP - o->len : 0;
    size_t take = n < room ? n : room;
    if (!take) return;
    if (!o->head) o->head = malloc(CC_SHEPHERD_PARTIAL_CAP);
    if (!o->head) return;
    memcpy(o->head + o->len, data, take);
    o->len += take;
}

/* What was kept of one stream, as valid UTF-8. */
static json_t *head_of(const char *head, size_t len) {
    size_t n = 0;
    char *text = cc_utf8_repair(head ? head : "", head ? len : 0, &n);
    json_t *j = json_stringn(text ? text : "", text ? n : 0);
    free(text);
    return j;
}

static bool due(int64_t *last_ms, int64_t ms) {
    int64_t now = cc_now_ms();
    if (now - *last_ms < ms) return false;
    *last_ms = now;
    return true;
}

/* Rewrite partial.json when the output grew, at most twice a second. */
static void publish_partial(struct shepherd *sh) {
    if (!sh->phase || !due(&sh->last_ms, 500)) return;
    if (sh->out[0].total == sh->out[0].seen && sh->out[1].total == sh->out[1].seen) return;
    json_t *doc = json_pack("{s:s,s:o,s:o,s:I,s:I}", "phase", sh->phase, "stdout",
                            head_of(sh->out[0].head, sh->out[0].len), "stderr",
                            head_of(sh->out[1].head, sh->out[1].len), "stdout_bytes",
                            (json_int_t)sh->out[0].total, "stderr_bytes",
                            (json_int_t)sh->out[1].total);
    if (!doc) return;
    struct cc_strbuf sb;
    cc_sb_init(&sb);
    if (cc_json_emit(&sb, doc) == 0 &&
        write_atomic(sh->dirfd, CC_SHEPHERD_PARTIAL_FILE, sb.data, sb.len, false) == 0) {
        sh->out[0].seen = sh->out[0].total, sh->out[1].seen = sh->out[1].total;
        cc_lease_offer_partial(sh->lease, sb.data, sb.len); /* other servers' run_inspect */
    }
    cc_sb_free(&sb);
    json_decref(doc);
}

/* Stop when the supervisor signalled us or left a cancel file; publish the
 * output so far. */
static int cancel_tick(void *ud) {
    struct shepherd *sh = ud;
    publish_partial(sh);
    if (!stop_requested && faccessat(sh->dirfd, CC_SHEPHERD_CANCEL_FILE, F_OK, 0) == 0)
        stop_requested = 1;
    if (!stop_requested && cc_lease_tick(sh->lease)) stop_requested = 1;
    return stop_requested ? 1 : 0;
}

/* The program's output as plain files beside the result (best effort: the
 * result already carries the same text). */
static void write_streams(int dirfd, json_t *result) {
    static const char *const names[] = {"stdout", "stderr"};
    for (int i = 0; i < 2; i++) {
        json_t *v = json_object_get(result, names[i]);
        if (json_is_string(v))
            (void)write_atomic(dirfd, names[i], json_string_value(v), json_string_length(v), false);
    }
}

static int write_result(int dirfd, json_t *result, bool cancelled) {
    json_t *doc = json_pack("{s:b,s:O}", "cancelled", cancelled, "result", result);
    if (!doc) return -1;
    struct cc_strbuf sb;
    cc_sb_init(&sb);
    int rc = cc_json_emit(&sb, doc);
    json_decref(doc);
    if (rc == 0) rc = write_atomic(dirfd, CC_SHEPHERD_RESULT_FILE, sb.data, sb.len, true);
    cc_sb_free(&sb);
    return rc;
}

static void install_handlers(void) {
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_stop;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGINT, &sa, NULL);
    signal(SIGHUP, SIG_IGN);
    signal(SIGPIPE, SIG_IGN);
}

/* Leave the launcher: it exits at once (the server reaps it) and we carry
 * on re-parented, in a session and process group of our own. */
static void detach(void) {
    pid_t pid = fork();
    if (pid > 0) _exit(0);
    if (pid < 0) fprintf(stderr, "shepherd: cannot detach (%s); running attached\n", strerror(errno));
    setsid();
    close_range(3, ~0u, 0); /* nothing of the server's may stay open here */
}

/* Background work yields to the server: a run must never make the server
 * slow to answer (the bench showed run_submit waiting for CPU behind the
 * runs it had just started). Children inherit it; never lowers a nice level
 * that is already higher. */
static void lower_priority(void) {
    errno = 0;
    int now = getpriority(PRIO_PROCESS, 0);
    if (!(now == -1 && errno) && now < CC_SHEPHERD_NICE) (void)setpriority(PRIO_PROCESS, 0, CC_SHEPHERD_NICE);
}

int cc_shepherd_main(const char *rundir) {
    if (strcmp(rundir, CC_SHEPHERD_LAUNCHER_ARG) == 0) return cc_shepherd_launcher_main();
    detach();
    lower_priority();
    install_handlers();
    /* The run's cgroups and run directory carry our pid: if we are killed,
     * the janitor removes them (the run itself dies with us). */
    if (cc_janitor_start() != 0) fprintf(stderr, "shepherd: no janitor: %s\n", strerror(errno));
    struct shepherd sh = {.dirfd = open(rundir, O_RDONLY | O_DIRECTORY | O_CLOEXEC)};
    close_captures(&sh);
    if (sh.dirfd < 0) {
        fprintf(stderr, "shepherd: cannot open %s: %s\n", rundir, strerror(errno));
        return 1;
    }
    if (write_identity(sh.dirfd) < 0)
        fprintf(stderr, "shepherd: cannot record its pid: %s\n", strerror(errno));
    sh.lease = cc_lease_open(sh.dirfd);
    char why[512];
    json_t *spec = read_spec(sh.dirfd, why, sizeof why), *result = NULL;
    if (spec) {
        /* A background run is a record kept for later: it keeps the full
         * receipt (execute_code answers with the short one by default). */
        if (!json_object_get(spec, "receipt")) json_object_set_new(spec, "receipt", json_true());
        struct cc_exec_hooks hooks = {.tick = cancel_tick, .ud = &sh, .tick_ms = 100,
                                      .step_start = on_step_start, .on_output = on_output};
        result = cc_exec_run_request(spec, NULL, RUN_TIMEOUT_DEFAULT, RUN_TIMEOUT_MAX, &hooks);
        json_decref(spec);
        if (!result) snprintf(why, sizeof why, "the executor returned no result");
    }
    if (!result) {
        result = cc_err("internal", "background run failed: %s", why);
        json_object_set_new(result, "provider_error", json_string("executor_failure"));
        json_object_set_new(result, "requested_provider", json_string("local"));
    }
    close_captures(&sh);
    unlinkat(sh.dirfd, CC_SHEPHERD_PARTIAL_FILE, 0);
    write_streams(sh.dirfd, result);
    /* A lost lease stopped the program for another attempt: it is not the
     * run's outcome, so nothing is reported (the next attempt reports).
     * A run is cancelled only when the cancel stopped it (the executor
     * marks a result it killed on our tick's word): a cancel that came
     * after the program had ended on its own leaves a finished run, whose
     * output and verdict are its own. */
    bool stopped = json_is_true(json_object_get(result, "cancelled")) ||
                   (stop_requested && json_object_get(result, "verdict") == NULL);
    bool cancelled = stop_requested && stopped && !cc_lease_lost(sh.lease);
    if (stop_requested && !stopped) json_object_set_new(result, "cancel_too_late", json_true());
    int rc = cc_lease_lost(sh.lease) ? 0 : write_result(sh.dirfd, result, cancelled);
    if (rc < 0) fprintf(stderr, "shepherd: cannot write the result: %s\n", strerror(errno));
    cc_lease_finish(sh.lease, cancelled, result);
    cc_lease_close(sh.lease);
    json_decref(result);
    close(sh.dirfd);
    return rc < 0 ? 1 : 0;
}
