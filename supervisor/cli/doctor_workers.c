/* Worker binaries, tested the way the server uses them: started on a
 * socketpair and asked for nothing but their hello frame, which a worker
 * sends only after its libraries loaded and its lockdown succeeded. The
 * symbolic worker's hello therefore also proves giac and z3 load. */
#include "supervisor/cli/doctor.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "protocol/frame.h"
#include "protocol/monotonic.h"
#include "supervisor/mcp/tool_table.h"
#include "repl-workers/repl_langs.h"
#include "supervisor/repl_host_path.h"

extern char **environ;

#define HELLO_TIMEOUT_MS 20000

struct probe {
    bool started;
    char error[512];
    json_t *ops;       /* the ops the hello lists */
};

/* Read exactly n bytes before the deadline. 0, or -1 with why filled. */
static int read_full(int fd, void *buf, size_t n, long long deadline, char *why, size_t cap) {
    size_t got = 0;
    while (got < n) {
        long long left = deadline - cc_now_ms();
        struct pollfd p = {.fd = fd, .events = POLLIN};
        if (left <= 0 || poll(&p, 1, (int)left) == 0) {
            snprintf(why, cap, "no hello within %d s", HELLO_TIMEOUT_MS / 1000);
            return -1;
        }
        ssize_t r = read(fd, (char *)buf + got, n - got);
        if (r < 0 && errno == EINTR) continue;
        if (r <= 0) {
            snprintf(why, cap, "exited before its hello");
            return -1;
        }
        got += (size_t)r;
    }
    return 0;
}

static void read_hello(int fd, const char *role, struct probe *pr) {
    long long deadline = cc_now_ms() + HELLO_TIMEOUT_MS;
    unsigned char hdr[4];
    if (read_full(fd, hdr, 4, deadline, pr->error, sizeof pr->error) < 0) return;
    uint32_t n = (uint32_t)hdr[0] << 24 | (uint32_t)hdr[1] << 16 | (uint32_t)hdr[2] << 8 | hdr[3];
    if (n == 0 || n > 1 << 20) {
        snprintf(pr->error, sizeof pr->error, "sent a malformed first frame");
        return;
    }
    char *body = malloc(n);
    if (!body || read_full(fd, body, n, deadline, pr->error, sizeof pr->error) < 0) {
        free(body);
        return;
    }
    msgpack_unpacked u;
    if (cc_frame_decode(body, n, &u) == 0) {
        if (cc_mp_str_eq(cc_mp_get(&u.data, "hello"), role)) {
            pr->started = true;
            pr->ops = json_array();
            const msgpack_object *caps = cc_mp_get(&u.data, "caps");
            for (uint32_t i = 0; caps && caps->type == MSGPACK_OBJECT_ARRAY && i < caps->via.array.size; i++) {
                const char *s;
                size_t l;
                if (cc_mp_str(&caps->via.array.ptr[i], &s, &l) == 0)
                    json_array_append_new(pr->ops, json_stringn(s, l));
            }
        } else {
            snprintf(pr->error, sizeof pr->error, "sent a hello for another role");
        }
        msgpack_unpacked_destroy(&u);
    } else {
        snprintf(pr->error, sizeof pr->error, "sent an undecodable hello");
    }
    free(body);
}

/* The first line the worker wrote on stderr (the loader's complaint about
 * a missing library, for instance), appended to the error. */
static void add_stderr(int fd, struct probe *pr) {
    char buf[400];
    ssize_t n = read(fd, buf, sizeof buf - 1);
    if (n <= 0) return;
    buf[n] = '\0';
    buf[strcspn(buf, "\n")] = '\0';
    size_t used = strlen(pr->error);
    snprintf(pr->error + used, sizeof pr->error - used, ": %s", buf);
}

static void probe_worker(const char *path, const char *role, struct probe *pr) {
    int sv[2], errp[2];
    if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) < 0) {
        snprintf(pr->error, sizeof pr->error, "socketpair: %s", strerror(errno));
        return;
    }
    if (pipe2(errp, O_CLOEXEC | O_NONBLOCK) < 0) {
        snprintf(pr->error, sizeof pr->error, "pipe: %s", strerror(errno));
        close(sv[0]);
        close(sv[1]);
        return;
    }
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, sv[1], 0);
    posix_spawn_file_actions_adddup2(&fa, sv[1], 1);
    posix_spawn_file_actions_adddup2(&fa, errp[1], 2);
    char *argv[] = {(char *)path, NULL};
    pid_t pid;
    int rc = posix_spawn(&pid, path, &fa, NULL, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    close(sv[1]);
    close(errp[1]);
    if (rc != 0) {
        snprintf(pr->error, sizeof pr->error, "cannot start: %s", strerror(rc));
    } else {
        read_hello(sv[0], role, pr);
        kill(pid, SIGKILL);
        while (waitpid(pid, NULL, 0) < 0 && errno == EINTR) {}
        if (!pr->started) add_stderr(errp[0], pr);
    }
    close(sv[0]);
    close(errp[0]);
}

/* The rows of the tool table routed to pool id that ops (the hello's list)
 * does not announce: the server would stop at this worker's first hello. */
static json_t *unserved_rows(enum cc_pool_id id, const json_t *ops) {
    json_t *missing = json_array();
    for (size_t i = 0; i < cc_tools_count; i++) {
        const struct cc_tool *t = &cc_tools[i];
        if (t->pool != id || !cc_tool_offered(t)) continue;
        bool seen = false;
        size_t k;
        json_t *op;
        json_array_foreach(ops, k, op) seen = seen || strcmp(json_string_value(op), t->name) == 0;
        if (!seen) json_array_append_new(missing, json_string(t->name));
    }
    return missing;
}

/* The worker of a pool (protocol/tools/pools.json): started, and serving
 * every tool the table routes to it. */
static json_t *worker_entry(const char *bindir, enum cc_pool_id id) {
    const struct cc_pool_def *d = &cc_pool_defs[id];
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s/%s", bindir, d->binary);
    struct probe pr = {0};
    bool present = access(path, X_OK) == 0;
    if (present) probe_worker(path, d->name, &pr);
    else snprintf(pr.error, sizeof pr.error, "missing or not executable");
    json_t *ops = pr.ops ? pr.ops : json_array();
    json_t *unserved = unserved_rows(id, ops);
    if (pr.started && json_array_size(unserved))
        snprintf(pr.error, sizeof pr.error, "does not serve %zu tool(s) the tool table routes to it (%s, ...): "
                 "this build is inconsistent, rebuild it", json_array_size(unserved),
                 json_string_value(json_array_get(unserved, 0)));
    bool serves = pr.started && !json_array_size(unserved);
    return json_pack("{s:s,s:b,s:b,s:b,s:o,s:o,s:s?}", "path", path, "present", present, "started", pr.started,
                     "serves_table", serves, "ops", ops, "unserved", unserved, "error", serves ? NULL : pr.error);
}

json_t *cc_doc_repl(const char *bindir) {
    char repl[PATH_MAX], path[PATH_MAX];
    snprintf(repl, sizeof repl, "%s/codecalc-repl", bindir);
    /* One host program per REPL language of the table, found where the
     * sessions layer looks for it. */
    json_t *hosts = json_object();
    const struct cc_repl_lang *l;
    for (size_t i = 0; (l = cc_repl_lang_at(i)); i++)
        json_object_set_new(hosts, l->lang,
                            json_pack("{s:s,s:o}", "program", l->script, "path",
                                      cc_repl_host_path(bindir, l->script, path, sizeof path) == 0 ? json_string(path)
                                                                                                   : json_null()));
    return json_pack("{s:s,s:b,s:o}", "path", repl, "present", access(repl, X_OK) == 0, "hosts", hosts);
}

json_t *cc_doc_workers(const char *bindir) {
    json_t *w = json_pack("{s:o}", "repl", cc_doc_repl(bindir));
    for (int id = 0; w && id < CC_WORKER_POOLS; id++)
        json_object_set_new(w, cc_pool_defs[id].name, worker_entry(bindir, id));
    return w;
}

bool cc_doc_workers_ok(const json_t *w) {
    for (int id = 0; id < CC_WORKER_POOLS; id++)
        if (!json_is_true(json_object_get(json_object_get(w, cc_pool_defs[id].name), "serves_table"))) return false;
    return true;
}
