/* --deep on the runtime rows of the doctor report (TOOLS.md 9.2 "Runtime
 * status"): the rows come resolved from `codecalc-exec --doctor`; here each
 * resolved runtime runs `--version`, and the interpreters a session or a
 * quick check relies on run a one-line program through execute_code (the
 * real sandbox). */
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
#include <sys/wait.h>
#include <unistd.h>

#include "protocol/monotonic.h"
#include "supervisor/cli/call.h"
#include "workers/common/runtime_path.h"

#define VERSION_TIMEOUT_MS 10000

/* First non-empty line (at most 120 characters) of text, or NULL. */
static json_t *first_line(const char *text) {
    for (const char *p = text; *p;) {
        size_t n = strcspn(p, "\r\n");
        size_t lead = strspn(p, " \t");
        if (n > lead) return json_stringn(p + lead, n - lead > 120 ? 120 : n - lead);
        p += n + (p[n] != '\0');
    }
    return NULL;
}

/* Run `path flag` with the executed-code environment; the version line, or
 * null when it could not be read (null means "not measured"). */
static json_t *version_of(const char *path, const char *flag) {
    int out[2];
    if (pipe2(out, O_CLOEXEC) < 0) return json_null();
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_adddup2(&fa, out[1], 1);
    posix_spawn_file_actions_adddup2(&fa, out[1], 2);
    posix_spawnattr_t at;
    posix_spawnattr_init(&at);
    posix_spawnattr_setflags(&at, POSIX_SPAWN_SETPGROUP);
    char envpath[4200];
    snprintf(envpath, sizeof envpath, "PATH=%s", cc_runtime_path());
    char *envp[] = {envpath, "HOME=/tmp", "LANG=C.UTF-8", NULL};
    char *argv[] = {(char *)path, (char *)flag, NULL};
    pid_t pid;
    int rc = posix_spawn(&pid, path, &fa, &at, argv, envp);
    posix_spawn_file_actions_destroy(&fa);
    posix_spawnattr_destroy(&at);
    close(out[1]);
    if (rc != 0) {
        close(out[0]);
        return json_null();
    }
    char buf[4096];
    size_t got = 0;
    long long deadline = cc_now_ms() + VERSION_TIMEOUT_MS;
    for (;;) {
        long long left = deadline - cc_now_ms();
        struct pollfd p = {.fd = out[0], .events = POLLIN};
        if (left <= 0 || poll(&p, 1, (int)left) <= 0) break;
        ssize_t r = read(out[0], buf + got, sizeof buf - 1 - got);
        if (r < 0 && errno == EINTR) continue;
        if (r <= 0 || (got += (size_t)r) == sizeof buf - 1) break;
    }
    buf[got] = '\0';
    close(out[0]);
    kill(-pid, SIGKILL);
    while (waitpid(pid, NULL, 0) < 0 && errno == EINTR) {}
    json_t *v = first_line(buf);
    return v ? v : json_null();
}

/* The one-line programs of 9.2 rule 4, run through execute_code. */
static const char *probe_program(const char *lang) {
    static const char *const progs[][2] = {
        {"python3", "print(\"codecalc\")"}, {"node", "console.log(\"codecalc\")"},
        {"ruby", "puts \"codecalc\""},      {"perl", "print \"codecalc\\n\";"},
        {"php", "<?php echo \"codecalc\\n\";"}, {"lua", "print(\"codecalc\")"},
        {"bash", "echo codecalc"},
    };
    for (size_t i = 0; i < sizeof progs / sizeof progs[0]; i++)
        if (strcmp(progs[i][0], lang) == 0) return progs[i][1];
    return NULL;
}

/* available, or unhealthy with a detail. */
static void execute_probe(struct cc_server *srv, const char *lang, const char *code, json_t *row) {
    json_t *args = json_pack("{s:s,s:s,s:i}", "language", lang, "code", code, "timeout", 20);
    json_t *msg = cc_cli_call(srv, "execute_code", args);
    json_decref(args);
    json_t *r = cc_cli_result(msg);
    const char *out = json_string_value(json_object_get(r, "stdout"));
    if (json_is_true(json_object_get(r, "ok")) && out && strncmp(out, "codecalc", 8) == 0) {
        json_object_set_new(row, "status", json_string("available"));
    } else {
        char detail[300];
        const char *err = json_string_value(json_object_get(r, "error"));
        const char *se = json_string_value(json_object_get(r, "stderr"));
        const char *verdict = json_string_value(json_object_get(r, "verdict"));
        if (err) snprintf(detail, sizeof detail, "%.200s", err);
        else if (se && *se) snprintf(detail, sizeof detail, "%.200s", se);
        else snprintf(detail, sizeof detail, "verdict=%s", verdict ? verdict : "none");
        json_object_set_new(row, "status", json_string("unhealthy"));
        json_object_set_new(row, "detail", json_string(detail));
    }
    json_decref(msg);
}

void cc_doc_runtimes_execute(json_t *rows, struct cc_server *srv) {
    size_t i;
    json_t *row;
    json_array_foreach(rows, i, row) {
        const char *cmd = json_string_value(json_object_get(row, "command"));
        const char *path = json_string_value(json_object_get(row, "path"));
        const char *name = json_string_value(json_object_get(row, "name"));
        if (!cmd || !path || !name) continue;
        const char *base = strrchr(cmd, '/') ? strrchr(cmd, '/') + 1 : cmd;
        bool never = strcmp(base, "escript") == 0 || strcmp(base, "tclsh") == 0;
        /* 9.2 rule 4, plus the two runtimes that reject --version. */
        const char *flag = !strcmp(base, "java") || !strcmp(base, "kotlinc") ? "-version"
                           : !strcmp(base, "go")                             ? "version"
                           : !strcmp(base, "lua")                            ? "-v"
                                                                             : "--version";
        if (!never) json_object_set_new(row, "version", version_of(path, flag));
        const char *prog = probe_program(name);
        if (prog) execute_probe(srv, name, prog, row);
    }
}
