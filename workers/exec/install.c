/* Running a package installer for install_package (protocol in
 * workers/exec/install.h): a sandboxed child (sbx_spawn: read-only host,
 * only the target directory writable, private /tmp, $CODECALC_HOME masked,
 * seccomp, cgroup, network allowed) with a 600 s wall clock. stdout and
 * stderr share one in-memory file, so the tail keeps their order.
 *
 * Why in the exec worker: the supervisor links no sandbox code, and an
 * exec worker already has everything an install needs (the sandbox, the
 * runtime PATH, a pool that grows under load and replaces a stuck worker).
 * The install holds its worker until it ends, as a long execute_code does;
 * the pool grows beside it. A worker that loses its supervisor (the protocol
 * pipe closes) kills the installer. */
#include "workers/exec/install.h"
#include "protocol/text_knob.h"

#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "protocol/monotonic.h"
#include "workers/common/program_env.h"
#include "workers/common/runtime_path.h"
#include "workers/sandbox/sandbox.h"

#define OK_TAIL 600
#define FAIL_TAIL 1200
/* How often the wait looks at the protocol pipe for a vanished supervisor. */
#define TICK_MS 250

struct job {
    struct cc_install_run in;
    int out_fd;                  /* memfd: the installer's stdout+stderr */
    struct sbx_proc proc;
    json_t *unenforced;          /* what the sandbox could not apply */
    bool timed_out;
};

/* The last cap bytes of the capture, as valid-enough UTF-8 text. */
static json_t *tail_of(int fd, size_t cap) {
    struct stat st;
    if (fstat(fd, &st) != 0 || st.st_size <= 0) return json_string("");
    size_t n = (size_t)st.st_size < cap ? (size_t)st.st_size : cap;
    char *buf = malloc(n + 1);
    if (!buf) return json_string("");
    ssize_t got = pread(fd, buf, n, st.st_size - (off_t)n);
    size_t len = got > 0 ? (size_t)got : 0;
    size_t skip = 0; /* do not start inside a multi-byte sequence */
    while (skip < len && skip < 3 && ((unsigned char)buf[skip] & 0xC0) == 0x80) skip++;
    json_t *s = json_stringn(buf + skip, len - skip);
    free(buf);
    return s ? s : json_string("(installer output was not UTF-8)");
}

static bool mentions(json_t *text, const char *const *words) {
    const char *t = json_string_value(text);
    for (int i = 0; t && words[i]; i++)
        if (strcasestr(t, words[i])) return true;
    return false;
}

static json_t *failure(struct job *j, const struct sbx_result *res) {
    static const char *const build_words[] = {"no matching distribution", "sdist", "source distribution",
                                              "build", "wheel", "prepare_metadata", "gyp", NULL};
    static const char *const net_words[] = {"ENOTFOUND", "EAI_AGAIN", "ECONNREFUSED", "ETIMEDOUT",
                                            "ENETUNREACH", "NewConnectionError", "Failed to establish",
                                            "Temporary failure in name resolution", "Network is unreachable",
                                            "ConnectTimeout", "Read timed out", "Could not fetch URL",
                                            "ProxyError", "connection refused", "codecalc: network error", NULL};
    if (j->timed_out) return cc_err("timeout", "package install timed out (%ds)", j->in.timeout_s);
    if (!res->started) return cc_err("runtime_unavailable", "install failed: %s",
                                     res->spawn_error ? res->spawn_error : "the installer did not start");
    json_t *t = tail_of(j->out_fd, FAIL_TAIL);
    int rc = res->exited ? res->exit_code : 128 + res->term_signal;
    json_t *e;
    if (mentions(t, net_words))
        e = cc_err("dependency_missing", "install failed (rc=%d): network error, the %s package index is "
                   "unreachable from this host (this machine may reach only some registries)", rc, j->in.lang);
    else if (j->in.no_exec_flag && mentions(t, build_words))
        e = cc_err("validation", "install failed (rc=%d); note %s is passed, so a package needing a build "
                   "step at install time will fail here by design", rc, j->in.no_exec_flag);
    else
        e = cc_err("validation", "install failed (rc=%d)", rc);
    json_object_set_new(e, "output_tail", t);
    return e;
}

/* Sandbox disclosures plus what an installer inherently escapes. */
static json_t *disclosures(struct job *j) {
    json_t *u = json_copy(j->unenforced);
    unsigned d = j->proc.shared ? j->proc.shared->degraded : 0;
    if (d & SBX_DEGRADED_RDONLY)
        json_array_append_new(u, json_string("install_filesystem_writable: the host view could not be "
                              "made read-only, so the installer could write outside its target"));
    if (d & SBX_DEGRADED_MASK)
        json_array_append_new(u, json_string("install_state_dir_visible: CODECALC_HOME could not be masked"));
    json_array_append_new(u, json_string("install_network_unrestricted: the installer needs the network; its "
                          "egress is not limited to the package registry"));
    char cpu[120];
    snprintf(cpu, sizeof cpu, "install_cpu_unlimited: no CPU-time limit; the %d s wall clock applies instead",
             j->in.timeout_s);
    json_array_append_new(u, json_string(cpu));
    return u;
}

/* The operator's registry settings, then codecalc's own python index
 * settings over them (CODECALC_PIP_INDEX_URL "none": no index at all, only
 * CODECALC_PIP_FIND_LINKS). Caches live in the target, or in the
 * installer's private /tmp when they must not be kept. */
static char **install_env(const struct cc_install_run *in) {
    struct cc_env e = {0};
    static const char *const lang[] = {"LANG", NULL};
    char caches[PATH_MAX];
    snprintf(caches, sizeof caches, "%s", in->scratch_caches ? "/tmp/.codecalc-caches" : in->target);
    if (!in->scratch_caches) strncat(caches, "/.cache", sizeof caches - strlen(caches) - 1);
    const char *index = cc_text(CC_TEXT_PIP_INDEX_URL), *links = cc_text(CC_TEXT_PIP_FIND_LINKS);
    bool no_index = index && strcasecmp(index, "none") == 0;
    cc_env_keep(&e, lang);
    for (const char *const *v = cc_registry_env; *v; v++) {
        bool overridden = (index && *index && (!strcmp(*v, "PIP_INDEX_URL") || !strcmp(*v, "PIP_NO_INDEX"))) ||
                          (links && *links && !strcmp(*v, "PIP_FIND_LINKS"));
        const char *val = getenv(*v);
        if (val && !overridden) cc_env_set(&e, "%s=%s", *v, val);
    }
    if (no_index) cc_env_set(&e, "PIP_NO_INDEX=1");
    else if (index && *index) cc_env_set(&e, "PIP_INDEX_URL=%s", index);
    if (links && *links) cc_env_set(&e, "PIP_FIND_LINKS=%s", links);
    cc_env_set(&e, "PATH=%s", cc_runtime_path());
    cc_env_set(&e, "HOME=%s/home", caches);
    cc_env_set(&e, "TMPDIR=/tmp");
    cc_env_set(&e, "npm_config_cache=%s/npm", caches);
    cc_env_set(&e, "npm_config_update_notifier=false");
    cc_env_set(&e, "UV_CACHE_DIR=%s/uv", caches);
    cc_env_set(&e, "PIP_CACHE_DIR=%s/pip", caches);
    cc_env_set(&e, "PIP_DISABLE_PIP_VERSION_CHECK=1");
    return cc_env_take(&e);
}

static int spawn(struct job *j, char *err, size_t cap) {
    const char *argv[] = {"/bin/sh", "-c", j->in.script, "codecalc-install", NULL};
    char **env = install_env(&j->in);
    if (!env) return snprintf(err, cap, "out of memory"), -1;
    struct sbx_spec spec = {.argv = argv, .envp = (const char *const *)env, .workdir = j->in.target,
                            .stdin_fd = -1, .stdout_fd = j->out_fd, .stderr_fd = j->out_fd,
                            .lim = {.wall_ms = 1, .cpu_s = 1, .mem_bytes = 2048ULL << 20,
                                    .fsize_bytes = 256ULL << 20, .nofile = 4096, .pids_max = 256}};
    struct sbx_result res;
    int rc = sbx_spawn(&spec, &j->proc, &res);
    cc_env_free(env);
    if (rc != 0) snprintf(err, cap, "%s", res.spawn_error ? res.spawn_error : "sandbox failure");
    for (size_t i = 0; rc == 0 && i < res.n_unenforced; i++)
        json_array_append_new(j->unenforced, json_string(res.unenforced[i]));
    sbx_result_free(&res);
    return rc;
}

/* Until the installer ends, its wall clock runs out (killed, timed_out) or
 * the supervisor goes away (killed; nobody reads the answer). */
static void wait_for_exit(struct job *j) {
    int64_t deadline = cc_now_ms() + (int64_t)j->in.timeout_s * 1000;
    for (;;) {
        int64_t left = deadline - cc_now_ms();
        if (left <= 0) {
            j->timed_out = true;
            break;
        }
        struct pollfd p = {.fd = j->proc.pidfd, .events = POLLIN};
        int r = poll(&p, 1, left < TICK_MS ? (int)left : TICK_MS);
        if (r > 0) return;
        if (r < 0 && errno != EINTR) break;
        if (j->in.stop && j->in.stop(j->in.stop_ud)) break;
    }
    sbx_proc_kill(&j->proc);
}

/* The installer's outcome: NULL on success with its output tail in *tail,
 * else the failure result. */
static json_t *finish(struct job *j, json_t **tail, json_t **unenforced) {
    struct sbx_result res;
    memset(&res, 0, sizeof res);
    *unenforced = disclosures(j); /* before reap unmaps the shared page */
    sbx_proc_reap(&j->proc, &res);
    bool good = !j->timed_out && res.started && res.exited && res.exit_code == 0;
    json_t *out = good ? NULL : failure(j, &res);
    if (good) *tail = tail_of(j->out_fd, OK_TAIL);
    sbx_result_free(&res);
    return out;
}

json_t *cc_install_sandboxed(const struct cc_install_run *in, json_t **tail, json_t **unenforced) {
    struct job j = {.out_fd = -1, .in = *in};
    *tail = NULL;
    *unenforced = NULL;
    j.out_fd = memfd_create("codecalc-install", MFD_CLOEXEC);
    j.unenforced = json_array();
    if (j.out_fd < 0 || !j.unenforced) {
        if (j.out_fd >= 0) close(j.out_fd);
        json_decref(j.unenforced);
        return cc_err("internal", "cannot capture the installer's output: %s", strerror(errno));
    }
    char err[512];
    json_t *out;
    if (spawn(&j, err, sizeof err) != 0) {
        out = cc_err("runtime_unavailable", "install failed: %s", err);
    } else {
        wait_for_exit(&j);
        out = finish(&j, tail, unenforced);
    }
    close(j.out_fd);
    json_decref(j.unenforced);
    return out;
}

static const char *str_arg(json_t *args, const char *key) {
    return json_string_value(json_object_get(args, key));
}

static int stop_when_cancelled(void *ctx) { return cc_wctx_cancelled(ctx); }

/* The internal op: the complete install_package result (3.6.1), before
 * the supervisor's quota post-check. */
json_t *cc_exec_install(json_t *args, cc_wctx *ctx) {
    struct cc_install_run in = {.lang = str_arg(args, "language"), .spec = str_arg(args, "package"),
                                .target = str_arg(args, "target"), .script = str_arg(args, "script"),
                                .no_exec_flag = str_arg(args, "no_exec_flag"), .timeout_s = CC_INSTALL_TIMEOUT_S};
    const char *session_id = str_arg(args, "session_id");
    if (!in.lang || !in.spec || !in.target || in.target[0] != '/' || !in.script)
        return cc_err("internal", "malformed install request");
    json_t *tail, *un;
    in.stop = stop_when_cancelled;
    in.stop_ud = ctx;
    json_t *out = cc_install_sandboxed(&in, &tail, &un);
    if (!out) {
        out = json_pack("{s:b,s:s,s:s,s:s,s:b,s:o}", "ok", 1, "language", in.lang, "package", in.spec, "target",
                        in.target, "importable", session_id != NULL, "output_tail", tail);
        json_object_set_new(out, "note", session_id ? json_null() : json_string(
            "installed into the shared cache, which is not on executed code's import path; pass session_id "
            "to install into a session's workspace"));
    }
    if (json_array_size(un)) json_object_set(out, "unenforced", un);
    json_decref(un);
    return out;
}

