/* The REPL host process: argv and environment, the sandbox it runs in, and
 * how it ended. The sandbox hands the host the protocol socket as fd 0,
 * /dev/null as fd 1 and the launcher's log as fd 2. python_host.py moves the
 * socket to a private non-inheritable descriptor itself; node cannot dup a
 * descriptor, so a /bin/sh trampoline moves it to fd 3 and puts /dev/null
 * on fd 0 before exec'ing node (node_host.js then opens fd 3, which libuv
 * marks close-on-exec). */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include "protocol/fdio.h"
#include "protocol/knob.h"
#include "repl-workers/launcher.h"
#include "workers/common/program_env.h"
#include "repl-workers/repl_langs.h"
#include "workers/exec/languages.h"

#define HOST_PIDS 256

uint64_t rl_host_memory_mb(void) { return (uint64_t)cc_knob(CC_KNOB_REPL_MEMORY_MB); }

/* Executed-code environment (TOOLS.md 1.5, 4.2): an allowlist, the runtime
 * PATH, and TMPDIR in the workspace. Strings are malloc'd; NULL-terminated. */
static char **host_env(const struct launcher *L) {
    static const char *const keep[] = {"HOME", "LANG", "LC_ALL", NULL};
    struct cc_env e = {0};
    cc_env_keep(&e, keep);
    cc_env_set(&e, "TMPDIR=%s/.tmp", L->workdir);
    cc_env_set(&e, "TEMP=%s/.tmp", L->workdir);
    cc_env_set(&e, "TMP=%s/.tmp", L->workdir);
    cc_env_set(&e, "PATH=%s", cc_runtime_path());
    cc_env_set(&e, "PYTHONUNBUFFERED=1");
    cc_env_set(&e, "PYTHONDONTWRITEBYTECODE=1");
    return cc_env_take(&e);
}

/* The workspace's private temp dir, owned by whoever runs the code. */
static void make_tmpdir(const struct launcher *L) {
    char p[PATH_MAX];
    if (snprintf(p, sizeof p, "%s/.tmp", L->workdir) >= (int)sizeof p) return;
    if (mkdir(p, 0700) != 0 && errno != EEXIST) return;
    const struct sbx_caps *c = sbx_probe();
    if (c->root && lchown(p, c->run_uid, c->run_gid) != 0)
        dprintf(L->log_fd, "repl %s: cannot hand %s to the sandbox uid: %s\n", L->id, p, strerror(errno));
}

/* The host program's text. It is handed to the interpreter as an argument
 * (python3 -c, node -e), not as a path: the repository may live where the
 * sandbox cannot see (a private /tmp, a 0700 home directory). Malloc'd. */
static char *read_script(const char *path, char **why) {
    size_t len;
    char *text = cc_read_file(path, 0, 100000, &len);
    if (!text || len == 0) {
        free(text);
        if (asprintf(why, "cannot read the host program %s", path) < 0) *why = NULL;
        return NULL;
    }
    return text;
}

static int spawn_in_sandbox(struct launcher *L, const struct cc_repl_lang *rl, const char *interp,
                            int chan, char **why) {
    char *code = read_script(L->script, why);
    if (!code) return -1;
    const char *argv[] = {interp, rl->eval_flag, code, NULL, NULL, NULL, NULL};
    if (rl->channel_on_fd3) {
        static const char trampoline[] = "exec 3<&0 0</dev/null && exec \"$0\" \"$1\" \"$2\"";
        argv[0] = "/bin/sh", argv[1] = "-c", argv[2] = trampoline, argv[3] = interp;
        argv[4] = rl->eval_flag, argv[5] = code;
    }
    char **env = host_env(L);
    int devnull = open("/dev/null", O_RDWR | O_CLOEXEC);
    if (!env || devnull < 0) {
        cc_env_free(env);
        free(code);
        if (devnull >= 0) close(devnull);
        *why = strdup("out of memory or no /dev/null");
        return -1;
    }
    struct sbx_spec spec = {.argv = argv, .envp = (const char *const *)env, .workdir = L->workdir,
                            .stdin_fd = chan, .stdout_fd = devnull, .stderr_fd = L->log_fd,
                            .lim = {.wall_ms = 1, .cpu_s = 1, .mem_bytes = rl_host_memory_mb() << 20,
                                    .fsize_bytes = 256ULL << 20, .nofile = 256, .pids_max = HOST_PIDS,
                                    /* watched by diskwatch.c, not by the sandbox: this
                                     * only gives the host the filter of a watched workdir */
                                    .disk_floor_bytes = cc_host_floor_bytes()}};
    sbx_result_free(&L->setup);
    int rc = sbx_spawn(&spec, &L->proc, &L->setup);
    if (rc != 0 && asprintf(why, "%s", L->setup.spawn_error ? L->setup.spawn_error : "sandbox failure") < 0)
        *why = NULL;
    cc_env_free(env);
    free(code); /* the host was forked with its own copy */
    close(devnull);
    return rc;
}

int rl_host_start(struct launcher *L, char **why) {
    *why = NULL;
    const struct cc_repl_lang *rl = cc_repl_lang_find(L->lang);
    const char *cmd = rl ? rl->interp : L->lang;
    char *interp = rl ? cc_resolve_cmd(cmd, cc_runtime_path()) : NULL;
    if (!interp) {
        if (asprintf(why, "%s not found in PATH (%s)", cmd, cc_runtime_path()) < 0) *why = NULL;
        return -1;
    }
    int sv[2];
    if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) != 0) {
        free(interp);
        if (asprintf(why, "socketpair: %s", strerror(errno)) < 0) *why = NULL;
        return -1;
    }
    make_tmpdir(L);
    int rc = spawn_in_sandbox(L, rl, interp, sv[1], why);
    free(interp);
    close(sv[1]);
    if (rc != 0) {
        close(sv[0]);
        return -1;
    }
    if (fcntl(sv[0], F_SETFL, O_NONBLOCK) != 0) dprintf(L->log_fd, "repl: O_NONBLOCK failed\n");
    L->host.fd = sv[0];
    cc_frame_reader_free(&L->host.rd);
    cc_frame_reader_init(&L->host.rd);
    L->host.out.len = 0;
    L->host_up = true;
    L->host_ready = false;
    rl_disk_arm(L);
    L->gen++;
    return 0;
}

void rl_host_stop(struct launcher *L, char **how, bool *oom) {
    if (how) *how = NULL;
    if (oom) *oom = false;
    if (!L->host_up) return;
    int64_t peak = sbx_proc_peak_kb(&L->proc);
    sbx_proc_kill(&L->proc);
    struct sbx_result r;
    memset(&r, 0, sizeof r);
    sbx_proc_reap(&L->proc, &r);
    if (L->host.fd >= 0) close(L->host.fd);
    L->host.fd = -1;
    L->host_up = L->host_ready = false;
    uint64_t limit_kb = rl_host_memory_mb() << 10;
    bool at_limit = peak >= 0 && (uint64_t)peak >= limit_kb - limit_kb / 16;
    if (oom) *oom = at_limit;
    if (how) {
        int n = -1;
        if (r.spawn_error) n = asprintf(how, "it could not start: %s", r.spawn_error);
        else if (r.exited) n = asprintf(how, "exit status %d", r.exit_code);
        else if (r.term_signal) n = asprintf(how, "killed by signal %d (%s)", r.term_signal, strsignal(r.term_signal));
        if (n < 0) *how = NULL;
    }
    sbx_result_free(&r);
}

bool rl_host_confined(const struct launcher *L) {
    const struct sbx_caps *c = sbx_probe();
    if (!(c->root || c->userns) || !c->mntns) return false;
    unsigned d = L->host_up && L->proc.shared ? L->proc.shared->degraded : 0;
    return !(d & (SBX_DEGRADED_RDONLY | SBX_DEGRADED_MASK | SBX_DEGRADED_WORKDIR));
}
