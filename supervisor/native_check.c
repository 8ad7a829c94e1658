/* CODECALC_REQUIRE_NATIVE (native_check.h): ask codecalc-exec what the
 * sandbox can do here, and refuse to start when something is missing. */
#include "supervisor/native_check.h"

#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "protocol/fdio.h"
#include "protocol/flag.h"
#include "protocol/strbuf.h"
#include "workers/exec/probe_report.h"

extern char **environ;

/* The report is one short line; anything longer is not ours. */
#define REPORT_MAX 4096

static const char *const remedy =
    "unset it to run with those guarantees reported in `unenforced` instead";

char *cc_native_missing(const json_t *caps, bool costs) {
#define HAS(k) json_is_true(json_object_get(caps, k))
    struct {
        bool ok;
        const char *what, *cost;
    } need[] = {
        {HAS("pidns"), "pid namespaces", "a program could see and signal host processes of its uid"},
        {HAS("mntns"), "mount namespaces", "the host filesystem stays writable where permissions allow"},
        {HAS("netns"), "network namespaces", "no_net relies on seccomp alone"},
        {HAS("seccomp"), "seccomp filters", "no system-call filter; no_net unenforced"},
        {HAS("cgroup_v2") || HAS("cgroup_v1_memory"), "a writable memory cgroup", "max_memory_mb held only by RLIMIT_AS, an address-space limit"},
        {HAS("cgroup_v2") || HAS("cgroup_v1_pids"), "a writable pids cgroup", "process count bounded by RLIMIT_NPROC only"},
        {HAS("root") || HAS("userns"), "user namespaces (the server is not root)", "programs keep the server's uid"},
    };
#undef HAS
    struct cc_strbuf sb;
    cc_sb_init(&sb);
    for (size_t i = 0; i < sizeof need / sizeof need[0]; i++) {
        if (need[i].ok) continue;
        cc_sb_printf(&sb, "%s%s", sb.len ? ", " : "", need[i].what);
        if (costs) cc_sb_printf(&sb, " (%s)", need[i].cost);
    }
    return sb.len ? cc_sb_take(&sb, NULL) : NULL;
}

int cc_native_verdict(const json_t *caps, char *msg, size_t cap) {
    char *missing = cc_native_missing(caps, false);
    if (!missing) return 0;
    snprintf(msg, cap, "CODECALC_REQUIRE_NATIVE is set but this host lacks %s for the native sandbox; %s",
             missing, remedy);
    free(missing);
    return -1;
}

bool cc_native_required(void) {
    return cc_flag(CC_FLAG_REQUIRE_NATIVE);
}

json_t *cc_worker_report(const char *bindir, const char *binary, const char *arg, size_t max, char *why,
                         size_t cap) {
    char bin[4200];
    if ((size_t)snprintf(bin, sizeof bin, "%s/%s", bindir, binary) >= sizeof bin)
        return snprintf(why, cap, "the worker directory path is too long"), NULL;
    int out[2];
    if (pipe2(out, O_CLOEXEC) != 0) return snprintf(why, cap, "pipe: %s", strerror(errno)), NULL;
    posix_spawn_file_actions_t fa;
    int rc = posix_spawn_file_actions_init(&fa);
    if (!rc) rc = posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
    if (!rc) rc = posix_spawn_file_actions_adddup2(&fa, out[1], 1);
    char *const argv[] = {bin, (char *)arg, NULL};
    pid_t pid = -1;
    if (!rc) rc = posix_spawn(&pid, bin, &fa, NULL, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    close(out[1]);
    size_t len = 0;
    char *text = rc == 0 ? cc_read_fd(out[0], max, &len) : NULL;
    close(out[0]);
    int status = 0;
    if (pid > 0)
        while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
        }
    if (rc != 0) return snprintf(why, cap, "cannot run %s: %s", bin, strerror(rc)), NULL;
    json_t *rep = text && WIFEXITED(status) && WEXITSTATUS(status) == 0 ? json_loadb(text, len, 0, NULL) : NULL;
    free(text);
    if (!json_is_object(rep)) {
        json_decref(rep);
        return snprintf(why, cap, "%s %s gave no report", bin, arg), NULL;
    }
    return rep;
}

json_t *cc_exec_report(const char *bindir, const char *arg, size_t max, char *why, size_t cap) {
    return cc_worker_report(bindir, "codecalc-exec", arg, max, why, cap);
}

const json_t *cc_native_caps(const char *bindir) {
    static json_t *cached;
    static bool tried;
    if (!tried) {
        char why[4400];
        tried = true;
        cached = cc_exec_report(bindir, CC_EXEC_PROBE_ARG, REPORT_MAX, why, sizeof why);
    }
    return cached;
}

int cc_native_check(const char *bindir, char *msg, size_t cap) {
    if (!cc_native_required()) return 0;
    char why[4400];
    json_t *caps = cc_exec_report(bindir, CC_EXEC_PROBE_ARG, REPORT_MAX, why, sizeof why);
    if (!caps) {
        snprintf(msg, cap, "CODECALC_REQUIRE_NATIVE is set but the sandbox's capabilities could not be "
                 "probed (%s); %s", why, remedy);
        return -1;
    }
    int rc = cc_native_verdict(caps, msg, cap);
    json_decref(caps);
    return rc;
}
