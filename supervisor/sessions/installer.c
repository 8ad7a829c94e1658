/* Running a package installer for install_package (TOOLS.md 3.6.1, issue 6
 * item 6) without blocking the supervisor: the installer is a sandboxed
 * child (workers/exec sbx_spawn: read-only host, only the target directory
 * writable, private /tmp, $CODECALC_HOME masked, seccomp, cgroup, network
 * allowed) whose pidfd is watched by libevent, with a 600 s wall clock.
 * stdout and stderr share one in-memory file, so the tail keeps their order.
 *
 * Ownership: a job owns its strings, capture fd, events and sandbox process;
 * it frees everything in job_end, after answering its request (if that is
 * still waiting). */
#include <errno.h>
#include <event2/event.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "supervisor/sessions/installer.h"
#include "supervisor/sessions/quota.h"
#include "supervisor/sessions/sessions.h"
#include "workers/common/tool_api.h"
#include "workers/exec/languages.h"
#include "workers/sandbox/sandbox.h"

#define OK_TAIL 600
#define FAIL_TAIL 1200

struct job {
    struct cc_server *srv;
    struct cc_req *r;
    uint64_t wid;
    struct cc_install_spec sp;   /* strings owned (dup'd) */
    int out_fd;                  /* memfd: the installer's stdout+stderr */
    struct sbx_proc proc;
    json_t *unenforced;          /* what the sandbox could not apply */
    struct event *on_exit, *timer;
    bool timed_out;
};

static void spec_free(struct cc_install_spec *sp) {
    free(sp->lang);
    free(sp->spec);
    free(sp->target);
    free(sp->session_id);
    free(sp->script);
    free(sp->no_exec_flag);
}

static void job_free(struct job *j) {
    if (j->on_exit) event_free(j->on_exit);
    if (j->timer) event_free(j->timer);
    if (j->out_fd >= 0) close(j->out_fd);
    json_decref(j->unenforced);
    spec_free(&j->sp);
    free(j);
}

/* The last cap bytes of the capture, as valid-enough UTF-8 text. */
static json_t *tail(int fd, size_t cap) {
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
    if (j->timed_out) return cc_err("timeout", "package install timed out (%ds)", CC_INSTALL_TIMEOUT_S);
    if (!res->started) return cc_err("runtime_unavailable", "install failed: %s",
                                     res->spawn_error ? res->spawn_error : "the installer did not start");
    json_t *t = tail(j->out_fd, FAIL_TAIL);
    int rc = res->exited ? res->exit_code : 128 + res->term_signal;
    json_t *e;
    if (mentions(t, net_words))
        e = cc_err("dependency_missing", "install failed (rc=%d): network error, the %s package index is "
                   "unreachable from this host (this machine may reach only some registries)", rc, j->sp.lang);
    else if (j->sp.no_exec_flag && mentions(t, build_words))
        e = cc_err("validation", "install failed (rc=%d); note %s is passed, so a package needing a build "
                   "step at install time will fail here by design", rc, j->sp.no_exec_flag);
    else
        e = cc_err("validation", "install failed (rc=%d)", rc);
    json_object_set_new(e, "output_tail", t);
    return e;
}

static json_t *success(struct job *j) {
    bool in_session = j->sp.session_id != NULL;
    json_t *res = json_pack("{s:b,s:s,s:s,s:s,s:b,s:o}", "ok", 1, "language", j->sp.lang, "package",
                            j->sp.spec, "target", j->sp.target, "importable", in_session, "output_tail",
                            tail(j->out_fd, OK_TAIL));
    json_object_set_new(res, "note", in_session ? json_null() : json_string(
        "installed into the shared cache, which is not on executed code's import path; pass session_id "
        "to install into a session's workspace"));
    return res;
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
    json_array_append_new(u, json_string("install_cpu_unlimited: no CPU-time limit; the 600 s wall clock "
                          "applies instead"));
    return u;
}

static void finish(struct job *j) {
    struct sbx_result res;
    memset(&res, 0, sizeof res);
    json_t *un = disclosures(j); /* before reap unmaps the shared page */
    sbx_proc_reap(&j->proc, &res);
    bool good = !j->timed_out && res.started && res.exited && res.exit_code == 0;
    json_t *out = good ? success(j) : failure(j, &res);
    if (json_array_size(un)) json_object_set(out, "unenforced", un);
    json_decref(un);
    sbx_result_free(&res);
    struct cc_sessions *ss = cc_sessions_of(j->srv);
    if (j->sp.session_id && ss) {
        int ws = openat(ss->root_fd, j->sp.session_id, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        if (ws >= 0) {
            cc_quota_postcheck(out, ss->root_fd, ws);
            close(ws);
        }
    }
    if (cc_session_req_alive(j->srv, j->r, j->wid)) cc_session_answer(j->r, out);
    json_decref(out);
    job_free(j);
}

static void on_exit_cb(evutil_socket_t fd, short what, void *arg) {
    (void)fd, (void)what;
    finish(arg);
}

static void on_timeout(evutil_socket_t fd, short what, void *arg) {
    (void)fd, (void)what;
    struct job *j = arg;
    j->timed_out = true;
    sbx_proc_kill(&j->proc); /* the pidfd fires next and finishes the job */
}

/* Operator settings that say where the registries are (not secrets of
 * ours: whatever the operator exported for package managers). */
static const char *const passed_env[] = {
    "LANG", "PIP_INDEX_URL", "PIP_EXTRA_INDEX_URL", "PIP_FIND_LINKS", "PIP_NO_INDEX", "PIP_CERT",
    "UV_INDEX_URL", "npm_config_registry", "HTTPS_PROXY", "HTTP_PROXY", "NO_PROXY", "https_proxy",
    "http_proxy", "no_proxy", "SSL_CERT_FILE", "SSL_CERT_DIR", "NODE_EXTRA_CA_CERTS", "REQUESTS_CA_BUNDLE",
    "npm_config_cafile", NULL};

static char **install_env(const struct cc_install_spec *sp) {
    char **env = calloc(40, sizeof *env);
    int n = 0;
    if (!env) return NULL;
    for (int i = 0; passed_env[i]; i++) {
        const char *v = getenv(passed_env[i]);
        if (v && asprintf(&env[n], "%s=%s", passed_env[i], v) >= 0) n++;
    }
    if (asprintf(&env[n], "PATH=%s", cc_runtime_path()) >= 0) n++;
    if (asprintf(&env[n], "HOME=%s/.cache/home", sp->target) >= 0) n++;
    if ((env[n] = strdup("TMPDIR=/tmp"))) n++;
    if (asprintf(&env[n], "npm_config_cache=%s/.cache/npm", sp->target) >= 0) n++;
    if ((env[n] = strdup("npm_config_update_notifier=false"))) n++;
    if (asprintf(&env[n], "UV_CACHE_DIR=%s/.cache/uv", sp->target) >= 0) n++;
    if (asprintf(&env[n], "PIP_CACHE_DIR=%s/.cache/pip", sp->target) >= 0) n++;
    if ((env[n] = strdup("PIP_DISABLE_PIP_VERSION_CHECK=1"))) n++;
    return env;
}

static void free_env(char **env) {
    for (int i = 0; env && env[i]; i++) free(env[i]);
    free(env);
}

static int spawn(struct job *j, char *err, size_t cap) {
    const char *argv[] = {"/bin/sh", "-c", j->sp.script, "codecalc-install", NULL};
    char **env = install_env(&j->sp);
    if (!env) return snprintf(err, cap, "out of memory"), -1;
    struct sbx_spec spec = {.argv = argv, .envp = (const char *const *)env, .workdir = j->sp.target,
                            .stdin_fd = -1, .stdout_fd = j->out_fd, .stderr_fd = j->out_fd,
                            .lim = {.wall_ms = 1, .cpu_s = 1, .mem_bytes = 2048ULL << 20,
                                    .fsize_bytes = 256ULL << 20, .nofile = 4096, .pids_max = 256}};
    struct sbx_result res;
    int rc = sbx_spawn(&spec, &j->proc, &res);
    free_env(env);
    if (rc != 0) snprintf(err, cap, "%s", res.spawn_error ? res.spawn_error : "sandbox failure");
    for (size_t i = 0; rc == 0 && i < res.n_unenforced; i++)
        json_array_append_new(j->unenforced, json_string(res.unenforced[i]));
    sbx_result_free(&res);
    return rc;
}

static int watch(struct job *j) {
    j->on_exit = event_new(j->srv->base, j->proc.pidfd, EV_READ, on_exit_cb, j);
    j->timer = evtimer_new(j->srv->base, on_timeout, j);
    struct timeval tv = {CC_INSTALL_TIMEOUT_S, 0};
    if (!j->on_exit || !j->timer || event_add(j->on_exit, NULL) != 0 || evtimer_add(j->timer, &tv) != 0)
        return -1;
    return 0;
}

static struct job *job_new(struct cc_server *srv, struct cc_req *r, const struct cc_install_spec *sp) {
    struct job *j = calloc(1, sizeof *j);
    if (!j) return NULL;
    j->srv = srv;
    j->r = r;
    j->wid = r->wid;
    j->out_fd = memfd_create("codecalc-install", MFD_CLOEXEC);
    j->unenforced = json_array();
    j->sp.lang = strdup(sp->lang);
    j->sp.spec = strdup(sp->spec);
    j->sp.target = strdup(sp->target);
    j->sp.session_id = sp->session_id ? strdup(sp->session_id) : NULL;
    j->sp.script = strdup(sp->script);
    j->sp.no_exec_flag = sp->no_exec_flag ? strdup(sp->no_exec_flag) : NULL;
    if (j->out_fd < 0 || !j->unenforced || !j->sp.lang || !j->sp.spec || !j->sp.target || !j->sp.script ||
        (sp->session_id && !j->sp.session_id) || (sp->no_exec_flag && !j->sp.no_exec_flag)) {
        job_free(j);
        return NULL;
    }
    return j;
}

void cc_install_run(struct cc_server *srv, struct cc_req *r, const struct cc_install_spec *sp) {
    struct job *j = job_new(srv, r, sp);
    char err[512];
    if (!j) {
        cc_req_answer_fail(r, "internal", "out of memory");
        return;
    }
    if (spawn(j, err, sizeof err) != 0) {
        json_t *e = cc_err("runtime_unavailable", "install failed: %s", err);
        cc_session_answer(r, e);
        json_decref(e);
        job_free(j);
        return;
    }
    if (watch(j) != 0) {
        sbx_proc_kill(&j->proc);
        struct sbx_result res;
        memset(&res, 0, sizeof res);
        sbx_proc_reap(&j->proc, &res);
        sbx_result_free(&res);
        cc_req_answer_fail(r, "internal", "cannot watch the installer process");
        job_free(j);
    }
}
