/* cc_execute end to end: real runtimes (python3, node, bash, gcc, g++), each
 * verdict on purpose, timing/byte fields and the compile cache. */
#include "tests/unit/check.h"
#include "tests/unit/knob_env.h"
#include "workers/exec/execute.h"
#include "workers/exec/languages.h"
#include "workers/sandbox/sandbox.h"

#include <errno.h>
#include <dirent.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/securebits.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>


static json_t *run_full(const char *lang, const char *code, const char *in, int64_t timeout,
                        int64_t mem_mb, int64_t out_kb) {
    struct cc_exec_req q = {.language = lang, .code = code, .code_len = strlen(code),
                            .stdin_data = in, .stdin_len = in ? strlen(in) : 0,
                            .timeout = timeout, .max_memory_mb = mem_mb, .max_output_kb = out_kb};
    return cc_execute(&q);
}

static json_t *run(const char *lang, const char *code, const char *in) {
    return run_full(lang, code, in, 20, 0, 0);
}

static const char *str(json_t *r, const char *k) { return json_string_value(json_object_get(r, k)); }
static long long num(json_t *r, const char *k) { return json_integer_value(json_object_get(r, k)); }
static bool is_true(json_t *r, const char *k) { return json_is_true(json_object_get(r, k)); }

/* Does an entry of the result's unenforced list start with prefix? */
static bool lists(json_t *r, const char *prefix) {
    size_t i;
    json_t *v;
    json_array_foreach(json_object_get(r, "unenforced"), i, v)
        if (json_string_value(v) && strncmp(json_string_value(v), prefix, strlen(prefix)) == 0)
            return true;
    return false;
}

/* Which of the run's cgroups this host gives the worker (a non-root server
 * gets none unless a cgroup was delegated to it). */
static bool pids_cgroup(void) { return sbx_probe()->cgroup_v2 || sbx_probe()->cgroup_v1_pids; }
static bool memory_cgroup(void) { return sbx_probe()->cgroup_v2 || sbx_probe()->cgroup_v1_memory; }

/* One language: hello, stdin echo, exit code, runtime error, and a source
 * that does not compile/parse. */
struct lang_case {
    const char *lang, *hello, *echo, *exit3, *crash, *broken, *broken_phase;
};

static const struct lang_case cases[] = {
    {"python3", "print('hello')", "import sys; print(sys.stdin.read().upper(), end='')",
     "import sys; sys.exit(3)", "raise ValueError('boom')", "def (:", "run"},
    {"node", "console.log('hello')",
     "process.stdout.write(require('fs').readFileSync(0,'utf8').toUpperCase())", "process.exit(3)",
     "throw new Error('boom')", "function (", "run"},
    {"bash", "echo hello", "tr a-z A-Z", "exit 3", "echo boom >&2; kill -SEGV $$", "if then fi (", "run"},
    {"c", "#include <stdio.h>\nint main(void){puts(\"hello\");return 0;}",
     "#include <stdio.h>\n#include <ctype.h>\nint main(void){int c;while((c=getchar())!=EOF)putchar(toupper(c));return 0;}",
     "int main(void){return 3;}", "#include <stdlib.h>\nint main(void){abort();}",
     "int main(void){ return undefined_thing; }", "compile"},
    {"cpp", "#include <iostream>\nint main(){std::cout<<\"hello\"<<std::endl;}",
     "#include <iostream>\n#include <cctype>\nint main(){char c;while(std::cin.get(c))std::cout<<(char)std::toupper(c);}",
     "int main(){return 3;}", "#include <stdexcept>\nint main(){throw std::runtime_error(\"boom\");}",
     "int main(){ this is not c++ }", "compile"},
};

static void test_language(const struct lang_case *c) {
    json_t *r = run(c->lang, c->hello, "");
    CHECK_STREQ(str(r, "stdout"), "hello\n");
    CHECK_STREQ(str(r, "verdict"), "OK");
    CHECK(is_true(r, "ok"));
    CHECK_INTEQ(num(r, "exit_code"), 0);
    CHECK_INTEQ(num(r, "stdout_bytes"), 6);
    CHECK_INTEQ(num(r, "stderr_bytes"), 0);
    CHECK_STREQ(str(r, "phase"), "run");
    CHECK_INTEQ(json_object_size(r), 21 + (json_object_get(r, "cached") ? 1 : 0));
    if (!is_true(r, "ok")) fprintf(stderr, "%s hello stderr: %s\n", c->lang, str(r, "stderr"));
    json_decref(r);

    r = run(c->lang, c->echo, "abc\nxyz\n");
    CHECK_STREQ(str(r, "stdout"), "ABC\nXYZ\n");
    json_decref(r);

    r = run(c->lang, c->exit3, "");
    CHECK_INTEQ(num(r, "exit_code"), 3);
    CHECK_STREQ(str(r, "verdict"), "RTE");
    CHECK(json_is_false(json_object_get(r, "ok")));
    CHECK(!json_object_get(r, "code"));
    json_decref(r);

    r = run(c->lang, c->crash, "");
    CHECK_STREQ(str(r, "verdict"), "RTE");
    CHECK(json_is_false(json_object_get(r, "ok")));
    CHECK_STREQ(str(r, "phase"), "run");
    json_decref(r);

    r = run(c->lang, c->broken, "");
    CHECK_STREQ(str(r, "verdict"), "RTE");
    CHECK_STREQ(str(r, "phase"), c->broken_phase);
    CHECK(json_string_length(json_object_get(r, "stderr")) > 0);
    if (strcmp(c->broken_phase, "compile") == 0)
        CHECK_INTEQ(num(r, "duration_ms"), num(r, "compile_ms"));
    json_decref(r);
}

static void test_languages(void) {
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) test_language(&cases[i]);
}

static void test_spec_example(void) {
    json_t *r = run("py", "print('mcp ok', 6*7)", NULL);
    CHECK_STREQ(str(r, "stdout"), "mcp ok 42\n");
    CHECK_INTEQ(num(r, "stdout_bytes"), 10);
    CHECK_STREQ(str(r, "language"), "python3");
    CHECK_STREQ(str(r, "backend"), "native");
    CHECK_INTEQ(num(r, "compile_ms"), 0);
    CHECK(json_is_array(json_object_get(r, "unenforced")));
    /* No memory ceiling asked for: only the process ceiling can be missing,
     * and then both of its entries say so; and the run directory's bound,
     * a tmpfs only a root server can mount (hostile4). */
    bool pids = pids_cgroup(), disk = geteuid() == 0;
    CHECK(lists(r, "pids_cgroup: cannot create a pids cgroup here") == !pids);
    CHECK(lists(r, "process_limit: no pids cgroup holds this run; RLIMIT_NPROC") == !pids);
    CHECK(lists(r, "run_directory_bound: on the host's disk") == !disk);
    /* A non-root server's box is in a user namespace owned by its uid
     * (workers/sandbox/userns.c, hostile6). */
    CHECK(lists(r, "per_uid_pools: no user namespace owned by this run alone") == !disk);
    CHECK_INTEQ(json_array_size(json_object_get(r, "unenforced")), (pids ? 0 : 2) + (disk ? 0 : 2));
    json_decref(r);
}

static void test_tle(void) {
    json_t *r = run_full("python3", "while True: pass", "", 1, 0, 0);
    CHECK_STREQ(str(r, "verdict"), "TLE");
    CHECK(is_true(r, "timed_out"));
    CHECK(json_is_null(json_object_get(r, "exit_code")));
    CHECK_STREQ(str(r, "stderr"), CC_TIMEOUT_TEXT);
    CHECK_INTEQ(num(r, "stderr_bytes"), 0);
    CHECK(num(r, "duration_ms") >= 1000 && num(r, "duration_ms") < 5000);
    json_decref(r);
}

static void test_ole(void) {
    json_t *r = run_full("python3", "print('x' * 200000)", "", 10, 0, 1);
    CHECK_STREQ(str(r, "verdict"), "OLE");
    CHECK(is_true(r, "output_truncated"));
    CHECK_INTEQ(json_string_length(json_object_get(r, "stdout")), 1024 + 15);
    const char *out = str(r, "stdout");
    CHECK(out && strcmp(out + 1024, "\n...[truncated]") == 0);
    CHECK_INTEQ(num(r, "stdout_bytes"), 200001); /* drained and counted, not cut off */
    CHECK(is_true(r, "ok"));
    json_decref(r);

    /* Exit 0 past the cap: ok stays true while the verdict is OLE. */
    r = run_full("bash", "head -c 3000 /dev/zero | tr '\\0' y", "", 10, 0, 1);
    CHECK_STREQ(str(r, "verdict"), "OLE");
    CHECK(is_true(r, "ok"));
    CHECK_INTEQ(num(r, "stdout_bytes"), 3000);
    json_decref(r);
}

/* Regression (issue 11.3): a cap above 128 KiB made a 1 MB print fail with
 * EFBIG ("File too large") half way; the rest is now drained and counted. */
static void test_raising_max_output_kb_crashes_programs(void) {
    json_t *r = run_full("python3", "print('z' * 1000000)", "", 10, 0, 128);
    CHECK_STREQ(str(r, "verdict"), "OLE");
    CHECK_INTEQ(num(r, "exit_code"), 0);
    CHECK(is_true(r, "output_truncated"));
    CHECK_INTEQ(num(r, "stdout_bytes"), 1000001);
    CHECK_STREQ(str(r, "stderr"), "");
    CHECK_INTEQ(json_string_length(json_object_get(r, "stdout")), 128 * 1024 + 15);
    json_decref(r);
}

/* Regression (issue 11.4): a segfault said only RTE with exit_code null. */
static void test_why_a_program_died(void) {
    json_t *r = run("c", "int main(void){volatile int *p = 0; return *p;}", "");
    CHECK_STREQ(str(r, "verdict"), "RTE");
    json_t *sig = json_object_get(r, "signal");
    CHECK_INTEQ(json_integer_value(json_object_get(sig, "number")), 11);
    CHECK_STREQ(json_string_value(json_object_get(sig, "name")), "SIGSEGV");
    CHECK(str(r, "reason") && strstr(str(r, "reason"), "SIGSEGV"));
    json_decref(r);
    r = run_full("bash", "sleep 30", "", 1, 0, 0);
    CHECK_STREQ(str(r, "verdict"), "TLE");
    CHECK_STREQ(json_string_value(json_object_get(json_object_get(r, "signal"), "name")), "SIGKILL");
    CHECK(str(r, "reason") && strstr(str(r, "reason"), "killed by the sandbox") &&
          strstr(str(r, "reason"), "timeout"));
    json_decref(r);
    r = run("python3", "print(1)", "");
    CHECK(!json_object_get(r, "signal") && !json_object_get(r, "reason"));
    json_decref(r);
}

/* Regression (issue 11.2): python's MemoryError under max_memory_mb was RTE. */
static void test_python_memory_error_is_mle(void) {
    json_t *r = run_full("python3", "x = bytearray(300 * 1024 * 1024)\nprint(len(x))", "", 20, 32, 0);
    CHECK_STREQ(str(r, "verdict"), "MLE");
    CHECK_STREQ(str(r, "stdout"), "");
    CHECK(str(r, "reason") && strstr(str(r, "reason"), "memory"));
    json_decref(r);
    /* Regression: with no memory ceiling an allocation failure (here one
     * the program made up) was MLE, a limit that did not exist. */
    r = run_full("python3", "raise MemoryError('made up')", "", 20, 0, 0);
    CHECK_STREQ(str(r, "verdict"), "RTE");
    CHECK_STREQ(str(r, "reason"), "an allocation failed (MemoryError)");
    json_decref(r);
}

/* With a memory cgroup its OOM killer ends the hog; without one (a non-root
 * server) RLIMIT_AS makes malloc fail, the hog kills itself, and the peak
 * RSS near the ceiling makes it MLE all the same, disclosed as such. */
static void test_mle(void) {
    /* Touch memory until the ceiling ends it. */
    const char *hog = "#include <stdlib.h>\n#include <string.h>\n#include <signal.h>\n"
                      "int main(void){for(;;){char*p=malloc(1<<20);if(!p)raise(SIGKILL);"
                      "memset(p,1,1<<20);}}";
    json_t *r = run_full("c", hog, "", 20, 64, 0);
    CHECK_STREQ(str(r, "verdict"), "MLE");
    CHECK(json_is_null(json_object_get(r, "exit_code")));
    CHECK(num(r, "peak_memory_kb") >= 32 * 1024);
    CHECK(num(r, "peak_memory_kb") <= 64 * 1024 + 1024);
    CHECK(str(r, "reason") && strstr(str(r, "reason"), "memory ceiling of 64 MiB"));
    CHECK(lists(r, "memory_cgroup: no memory cgroup could hold the ceiling here") == !memory_cgroup());
    json_decref(r);
}

static void test_utf8_and_marker(void) {
    size_t n;
    char *s = cc_utf8_repair("a\xff" "b\xe2\x82\xac\xc0\xaf", 8, &n);
    CHECK_STREQ(s, "a\xef\xbf\xbd" "b\xe2\x82\xac\xef\xbf\xbd\xef\xbf\xbd");
    free(s);
    json_t *r = run("python3", "import sys; sys.stdout.buffer.write(b'ok\\xff\\n')", "");
    CHECK_STREQ(str(r, "stdout"), "ok\xef\xbf\xbd\n");
    CHECK_INTEQ(num(r, "stdout_bytes"), 4);
    json_decref(r);
}

/* A runtime PATH holding only executables named awk and jq (mode 0755 in a
 * 0755 directory, so the sandbox uid may run them). Returns the directory
 * (malloc'd), or NULL. */
static char *path_with_awk_and_jq(void) {
    char tmpl[] = "/tmp/cc-langs-XXXXXX";
    if (!mkdtemp(tmpl) || chmod(tmpl, 0755)) return NULL;
    static const char *const names[] = {"awk", "jq"};
    for (int i = 0; i < 2; i++) {
        char file[64];
        snprintf(file, sizeof file, "%s/%s", tmpl, names[i]);
        int fd = open(file, O_WRONLY | O_CREAT | O_TRUNC, 0755);
        if (fd < 0 || write(fd, "#!/bin/sh\n", 10) != 10 || close(fd)) return NULL;
    }
    return strdup(tmpl);
}

static void remove_path_dir(char *dir) {
    char file[64];
    snprintf(file, sizeof file, "%s/awk", dir);
    unlink(file);
    snprintf(file, sizeof file, "%s/jq", dir);
    unlink(file);
    rmdir(dir);
    free(dir);
}

/* Regression (issue 16 audit: the unknown-language refusal offered swift,
 * mojo and gleam, absent here, as "Available"): Available names only the
 * languages whose runtime resolves on the runtime PATH; the others are named
 * apart as not installed. */
static void test_unknown_language_lists_only_installed_languages(void) {
    const char *saved = getenv("CODECALC_RUNTIME_PATH");
    char *keep = saved ? strdup(saved) : NULL;
    char *dir = path_with_awk_and_jq();
    CHECK(dir != NULL);
    if (!dir) return;
    knob_setenv("CODECALC_RUNTIME_PATH", dir);
    json_t *r = run("klingon", "x", "");
    CHECK_STREQ(str(r, "code"), "validation");
    CHECK(!json_object_get(r, "verdict"));
    CHECK_STREQ(str(r, "backend"), "native");
    CHECK_STREQ(str(r, "error"),
                "unknown language 'klingon'. Available: awk, jq. Not installed here: bash, bun, c, "
                "c++, cpp, csharp, deno, elixir, erlang, fortran, gleam, go, haskell, java, kotlin, "
                "lua, mojo, node, perl, php, python3, r, ruby, rust, sqlite, swift, tcl, typescript, "
                "zig, zsh");
    CHECK_INTEQ(json_array_size(json_object_get(r, "available_languages")), 2);
    CHECK_INTEQ(json_array_size(json_object_get(r, "not_installed")), 30);
    json_decref(r);
    knob_setenv("CODECALC_RUNTIME_PATH", "/nonexistent");
    r = run("klingon", "x", "");
    static const char none[] = "unknown language 'klingon'. Available: none. Not installed here: awk, bash,";
    CHECK(strncmp(str(r, "error"), none, sizeof none - 1) == 0);
    json_decref(r);
    if (keep) knob_setenv("CODECALC_RUNTIME_PATH", keep);
    else knob_setenv("CODECALC_RUNTIME_PATH", NULL);
    free(keep);
    remove_path_dir(dir);
}

static void test_runtime_unavailable(void) {
    const char *saved = getenv("CODECALC_RUNTIME_PATH");
    char *keep = saved ? strdup(saved) : NULL;
    knob_setenv("CODECALC_RUNTIME_PATH", "/nonexistent");
    json_t *r = run("python3", "print(1)", "");
    CHECK_STREQ(str(r, "code"), "runtime_unavailable");
    CHECK_STREQ(str(r, "verdict"), "RTE");
    CHECK(json_is_null(json_object_get(r, "exit_code")));
    CHECK(json_is_null(json_object_get(r, "stdout_bytes")));
    CHECK_STREQ(str(r, "error"),
                "runtime unavailable for the run phase of 'python3': 'python3' (not found in PATH)");
    CHECK_STREQ(str(r, "stderr"), str(r, "error"));
    json_decref(r);
    r = run("c", "int main(void){return 0;}", "");
    CHECK_STREQ(str(r, "phase"), "compile");
    CHECK_STREQ(str(r, "error"),
                "runtime unavailable for the compile phase of 'c': 'gcc' (not found in PATH)");
    json_decref(r);
    if (keep) knob_setenv("CODECALC_RUNTIME_PATH", keep);
    free(keep);
}

/* Regression (a run whose execve failed for lack of processes was "runtime
 * unavailable ... install the runtime"): execve refused with EAGAIN, the
 * sandbox uid being at its RLIMIT_NPROC, says the program could not be
 * started and nothing ran. A child with RLIMIT_NPROC 0 stands for a host
 * where that uid's process limit is reached: root forks past it, the
 * program's execve as the run uid cannot. Root only (the uid drop). */
/* A process of the run uid that waits for its pipe to close. The kernel
 * flags a uid switch as over RLIMIT_NPROC only when the target uid already
 * has more processes than the limit, so the test holds one itself rather
 * than depending on what else runs as that uid on the host (a fresh CI
 * machine has nothing, and the flag was never set). */
static pid_t hold_run_uid_process(int *release_fd) {
    const struct sbx_caps *c = sbx_probe();
    int gate[2];
    if (pipe(gate) != 0) return -1;
    pid_t pid = fork();
    if (pid == 0) {
        close(gate[1]);
        if (setresgid(c->run_gid, c->run_gid, c->run_gid) != 0 ||
            setresuid(c->run_uid, c->run_uid, c->run_uid) != 0)
            _exit(2);
        char b;
        while (read(gate[0], &b, 1) < 0 && errno == EINTR) {}
        _exit(0);
    }
    close(gate[0]);
    if (pid < 0) {
        close(gate[1]);
        return -1;
    }
    *release_fd = gate[1];
    return pid;
}

/* The run of "echo started" as root, with RLIMIT_NPROC 1 where no pids
 * cgroup holds the run, while a process of the run uid outside it waits.
 * shared_pool: lock SECBIT_NO_SETUID_FIXUP off, so the program cannot make
 * a user namespace of its own (workers/sandbox/userns.c falls back and
 * discloses per_uid_pools): its process count is then the uid's. */
static json_t *run_beside_run_uid_process(bool shared_pool) {
    int release = -1;
    pid_t holder = hold_run_uid_process(&release);
    CHECK(holder > 0);
    if (holder <= 0) return NULL;
    int p[2];
    CHECK(pipe(p) == 0);
    pid_t pid = fork();
    if (pid == 0) {
        close(p[0]);
        struct rlimit none = {0, 0};
        /* where no pids cgroup holds the run: RLIMIT_NPROC 1, which the
         * holder alone uses up (0 is no value of the knob) */
        knob_setenv("CODECALC_MAX_PROCESSES", "1");
        if (setrlimit(RLIMIT_NPROC, &none) != 0) _exit(2);
        if (shared_pool && prctl(PR_SET_SECUREBITS, SECBIT_NO_SETUID_FIXUP_LOCKED, 0, 0, 0) != 0) _exit(4);
        json_t *r = run("bash", "echo started", "");
        char *text = json_dumps(r, 0);
        size_t len = text ? strlen(text) : 0;
        _exit(text && write(p[1], text, len) == (ssize_t)len ? 0 : 3);
    }
    close(p[1]);
    char buf[8192];
    size_t got = 0;
    ssize_t n;
    while (got + 1 < sizeof buf && (n = read(p[0], buf + got, sizeof buf - 1 - got)) > 0) got += (size_t)n;
    buf[got] = '\0';
    close(p[0]);
    int st = 0;
    waitpid(pid, &st, 0);
    CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0);
    close(release);
    int hst = 0;
    waitpid(holder, &hst, 0);
    CHECK(WIFEXITED(hst) && WEXITSTATUS(hst) == 0);
    json_t *r = json_loads(buf, 0, NULL);
    CHECK(r != NULL);
    return r;
}

static void test_execve_refused_for_lack_of_processes(void) {
    if (geteuid() != 0) {
        /* The kernel refuses the execve only after a uid switch over
         * RLIMIT_NPROC; a non-root server's program keeps the server's uid. */
        fprintf(stderr, "skip test_execve_refused_for_lack_of_processes: needs root (the "
                        "refusal follows the switch to the sandbox uid, which only root makes)\n");
        return;
    }
    json_t *r = run_beside_run_uid_process(true);
    if (!r) return;
    CHECK_STREQ(str(r, "code"), "resource_exhausted");
    CHECK_STREQ(str(r, "verdict"), "RTE");
    CHECK(json_is_null(json_object_get(r, "exit_code")));
    CHECK_STREQ(str(r, "stdout"), "");
    const char *want = "the run phase of 'bash' could not be started: '";
    CHECK(str(r, "error") && strncmp(str(r, "error"), want, strlen(want)) == 0);
    CHECK(str(r, "error") && strstr(str(r, "error"), "Resource temporarily unavailable); the sandbox user "
                                                     "is at its process limit on this host, so nothing of "
                                                     "the program ran"));
    CHECK_STREQ(str(r, "stderr"), str(r, "error"));
    CHECK(str(r, "remedy") && strstr(str(r, "remedy"), "retry when fewer runs are active"));
    json_decref(r);
}

/* Regression (hostile6): the process count behind RLIMIT_NPROC was the
 * sandbox uid's, host-wide, so a process of that uid outside the run made
 * the run's execve fail. In a user namespace of its own the run counts
 * only its own processes. */
static void test_run_uid_process_elsewhere_took_the_runs_processes(void) {
    if (geteuid() != 0) {
        fprintf(stderr, "skip test_run_uid_process_elsewhere_took_the_runs_processes: needs root\n");
        return;
    }
    json_t *r = run_beside_run_uid_process(false);
    if (!r) return;
    CHECK_STREQ(str(r, "verdict"), "OK");
    CHECK_STREQ(str(r, "stdout"), "started\n");
    json_decref(r);
}

/* ---- compile cache ------------------------------------------------------ */

static char cache_home[64];

/* The run directory as the program sees it, one name per line. */
static const char *const list_cwd =
    "#include <dirent.h>\n#include <stdio.h>\nint main(void){DIR*d=opendir(\".\");struct dirent*e;"
    "while(d&&(e=readdir(d)))if(e->d_name[0]!='.')printf(\"%s\\n\",e->d_name);return 0;}\n";

static int count_entries(const char *dir, mode_t *mode) {
    DIR *d = opendir(dir);
    struct dirent *de;
    int n = 0;
    while (d && (de = readdir(d))) {
        if (strlen(de->d_name) != 64) continue;
        char p[512];
        struct stat st;
        snprintf(p, sizeof p, "%s/%s", dir, de->d_name);
        if (stat(p, &st) == 0) *mode = st.st_mode & 07777;
        n++;
    }
    if (d) closedir(d);
    return n;
}

/* A hit runs with no compiler and no source written: the program finds no
 * main.c in its directory, and under a root server no binary either (it
 * runs from the cache entry; a non-root server's program would share the
 * entry's uid, so the entry is copied in as a.out). */
static void test_compile_cache(void) {
    json_t *a = run("c", list_cwd, "");
    CHECK_STREQ(str(a, "verdict"), "OK");
    CHECK(json_is_false(json_object_get(a, "cached")));
    CHECK(num(a, "compile_ms") > 0);
    CHECK(strstr(str(a, "stdout"), "main.c") != NULL);
    json_t *b = run("c", list_cwd, "");
    CHECK_STREQ(str(b, "verdict"), "OK");
    CHECK(is_true(b, "cached"));
    CHECK_INTEQ(num(b, "compile_ms"), 0);
    CHECK_STREQ(str(b, "stdout"), sbx_probe()->root ? "" : "a.out\n");
    json_decref(a);
    json_decref(b);
    char dir[128];
    mode_t mode = 0;
    snprintf(dir, sizeof dir, "%s/cache/v2", cache_home);
    CHECK(count_entries(dir, &mode) >= 1);
    CHECK_INTEQ(mode, 0555); /* nothing that runs it may write it */
}

/* The one entry of a cache directory (path into out); 0 when not exactly one. */
static int only_entry(const char *dir, char *out, size_t cap) {
    DIR *d = opendir(dir);
    struct dirent *de;
    int n = 0;
    while (d && (de = readdir(d)))
        if (strlen(de->d_name) == 64 && ++n == 1) snprintf(out, cap, "%s/%s", dir, de->d_name);
    if (d) closedir(d);
    return n == 1;
}

static void set_age(const char *path, time_t age_s) {
    struct timespec t[2] = {{.tv_sec = time(NULL) - age_s}, {.tv_sec = time(NULL) - age_s}};
    utimensat(AT_FDCWD, path, t, 0);
}

static time_t mtime_of(const char *path) {
    struct stat st;
    return stat(path, &st) == 0 ? st.st_mtime : 0;
}

/* The cache directory is made once per process: when it is removed behind
 * the worker's back, the next compile makes it again and the run after
 * that is a hit. A hit refreshes the LRU clock only on an entry a minute
 * old or more (most hits write nothing). */
static void test_compile_cache_dir_and_lru_clock(void) {
    char cmd[160], dir[128], entry[PATH_MAX + 64];
    snprintf(dir, sizeof dir, "%s/cache/v2", cache_home);
    snprintf(cmd, sizeof cmd, "rm -rf '%s/cache'", cache_home);
    CHECK_INTEQ(system(cmd), 0);
    const char *code = "int main(void){return 0;} /* lru */\n";
    json_t *a = run("c", code, "");
    CHECK_STREQ(str(a, "verdict"), "OK");
    CHECK(json_is_false(json_object_get(a, "cached")));
    CHECK(only_entry(dir, entry, sizeof entry));
    set_age(entry, 30);
    time_t young = mtime_of(entry);
    json_t *b = run("c", code, "");
    CHECK(is_true(b, "cached"));
    CHECK_INTEQ(mtime_of(entry), young); /* under a minute: left alone */
    set_age(entry, 3600);
    json_t *c = run("c", code, "");
    CHECK(is_true(c, "cached"));
    CHECK(mtime_of(entry) >= time(NULL) - 60); /* an hour old: refreshed */
    json_decref(a);
    json_decref(b);
    json_decref(c);
}

/* ---- streaming hooks ----------------------------------------------------- */

struct watch { char phases[64]; size_t seen; int ticks; size_t seen_at_tick; };

static void on_step(void *ud, const char *phase) {
    struct watch *w = ud;
    strncat(w->phases, phase, sizeof w->phases - strlen(w->phases) - 2);
    strcat(w->phases, ",");
}

static void on_output(void *ud, const char *phase, int stream, const char *data, size_t n) {
    struct watch *w = ud;
    (void)data;
    if (stream == 1 && strcmp(phase, "run") == 0) w->seen += n;
}

static int on_tick(void *ud) {
    struct watch *w = ud;
    w->ticks++;
    if (w->seen > w->seen_at_tick) w->seen_at_tick = w->seen;
    return 0;
}

static void test_hooks(void) {
    struct watch w = {0};
    struct cc_exec_hooks h = {.tick = on_tick, .ud = &w, .tick_ms = 50, .step_start = on_step,
                              .on_output = on_output};
    const char *code = "#include <stdio.h>\n#include <unistd.h>\nint main(void){for(int i=0;i<3;i++)"
                       "{printf(\"tick %d\\n\",i);fflush(stdout);usleep(300000);}return 0;}";
    struct cc_exec_req q = {.language = "c", .code = code, .code_len = strlen(code), .timeout = 20,
                            .hooks = &h};
    json_t *r = cc_execute(&q);
    CHECK_STREQ(str(r, "stdout"), "tick 0\ntick 1\ntick 2\n");
    CHECK_STREQ(w.phases, json_is_true(json_object_get(r, "cached")) ? "run," : "compile,run,");
    CHECK(w.ticks >= 3);
    CHECK(w.seen_at_tick >= 7); /* partial output arrived while the program ran */
    CHECK_INTEQ(w.seen, 21);
    json_decref(r);
}

int main(void) {
    /* The worker's own PATH may point into a home the sandbox uid cannot read. */
    knob_setenv("CODECALC_RUNTIME_PATH", "/usr/local/bin:/usr/bin:/bin");
    strcpy(cache_home, "/tmp/cc-exec-test-XXXXXX");
    if (!mkdtemp(cache_home)) return 2;
    knob_setenv("CODECALC_HOME", cache_home);
    RUN(test_languages);
    RUN(test_spec_example);
    RUN(test_tle);
    RUN(test_ole);
    RUN(test_mle);
    RUN(test_raising_max_output_kb_crashes_programs);
    RUN(test_why_a_program_died);
    RUN(test_python_memory_error_is_mle);
    RUN(test_utf8_and_marker);
    RUN(test_unknown_language_lists_only_installed_languages);
    RUN(test_runtime_unavailable);
    RUN(test_execve_refused_for_lack_of_processes);
    RUN(test_run_uid_process_elsewhere_took_the_runs_processes);
    RUN(test_compile_cache);
    RUN(test_compile_cache_dir_and_lru_clock);
    RUN(test_hooks);
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", cache_home);
    if (system(cmd) != 0) fprintf(stderr, "could not remove %s\n", cache_home);
    return check_summary("exec_run");
}
