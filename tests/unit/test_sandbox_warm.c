/* Warm sandboxes (issue 17) and the cgroup v2 path (issue 11.2).
 *
 * - The v2 interface files against a fake cgroupfs tree (this host has only
 *   cgroup v1): ceilings written, OOM kills and peak read, a base without
 *   the memory/pids controllers refused.
 * - A box prepared for one request is never seen by another: files (run
 *   directory, private /tmp), processes (a daemon) and cgroup counters of
 *   one run are gone or fresh in the next, including two boxes prepared at
 *   the same time. Hostile parts run only once containment (pid namespace,
 *   pids cgroup) is confirmed.
 * - The program's process is forked when the box is prepared: it waits in
 *   the box's namespaces and cgroup, goes with a box destroyed unused, and
 *   gives the program the OOM score init started with. */
#include "tests/unit/check.h"
#include "tests/unit/knob_env.h"
#include "workers/exec/execute.h"
#include "workers/exec/warm.h"
#include "workers/sandbox/rundir.h"
#include "workers/sandbox/sandbox.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

static char base[128];

static void put(const char *dir, const char *name, const char *text) {
    char p[512];
    snprintf(p, sizeof p, "%s/%s", dir, name);
    int fd = open(p, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0) return;
    ssize_t w = write(fd, text, strlen(text));
    (void)w;
    close(fd);
}

static const char *get(const char *dir, const char *name) {
    static char buf[256];
    char p[512];
    snprintf(p, sizeof p, "%s/%s", dir, name);
    return sbx_read_small(p, buf, sizeof buf) < 0 ? "(missing)" : buf;
}

/* ---- cgroup v2 against a fake tree --------------------------------------- */

static void test_cgroup_v2_fake_tree(void) {
    char root[256], group[300], out[512];
    snprintf(root, sizeof root, "%s/cgv2", base);
    mkdir(root, 0755);
    put(root, "cgroup.subtree_control", "cpu io memory pids\n");
    knob_setenv("CODECALC_CGROUP", root);
    CHECK_INTEQ(sbx_cg2_base(out, sizeof out), 0);
    CHECK_STREQ(out, root);

    snprintf(group, sizeof group, "%s/run-1-1", root);
    mkdir(group, 0755);
    const char *files[] = {"memory.max", "memory.swap.max", "pids.max", NULL};
    for (const char *const *f = files; *f; f++) put(group, *f, ""); /* kernfs needs no truncation */
    bool mem_ok = false, pids_ok = false;
    CHECK_INTEQ(sbx_cg2_limit(group, 64u << 20, 10, &mem_ok, &pids_ok), 0);
    CHECK(mem_ok && pids_ok);
    CHECK_STREQ(get(group, "memory.max"), "67108864");
    CHECK_STREQ(get(group, "memory.swap.max"), "0"); /* memory + swap = memory.max */
    CHECK_STREQ(get(group, "pids.max"), "11");       /* + the run's init */
    /* No memory ceiling asked: memory.max is left alone, pids still set. */
    put(group, "memory.max", "");
    CHECK_INTEQ(sbx_cg2_limit(group, 0, 5, &mem_ok, &pids_ok), 0);
    CHECK(!mem_ok && pids_ok);
    CHECK_STREQ(get(group, "memory.max"), "");

    put(group, "memory.events", "low 0\nhigh 0\nmax 7\noom 1\noom_kill 2\noom_group_kill 0\n");
    put(group, "memory.peak", "1048576\n");
    CHECK_INTEQ(sbx_cg2_oom_kills(group), 2);
    CHECK_INTEQ(sbx_cg2_peak_kb(group), 1024);

    /* A group whose interface files are missing: the failure is reported. */
    char bare[300];
    snprintf(bare, sizeof bare, "%s/run-1-2", root);
    mkdir(bare, 0755);
    CHECK_INTEQ(sbx_cg2_limit(bare, 1u << 20, 10, &mem_ok, &pids_ok), -1);
    CHECK(!mem_ok && !pids_ok);

    /* sbx_cg_create takes the v2 path when the base delegates both. */
    struct sbx_result notes = {0};
    struct sbx_cgroup cg;
    sbx_cg_create(&cg, &notes);
    CHECK(cg.v2);
    CHECK(strncmp(cg.mem_dir, root, strlen(root)) == 0);
    CHECK(cg.pids_dir[0] == '\0');
    struct sbx_limits lim = {.mem_bytes = 1u << 20, .pids_max = 4};
    sbx_cg_limit(&cg, &lim, &notes);
    CHECK(!cg.mem_limited); /* the fake group has no files: disclosed, not assumed */
    CHECK(!cg.pids_limited);
    /* No run joined this group: its missing pids.max bounds nothing, and the
     * plan discloses the RLIMIT_NPROC that replaces it (process_limit). */
    CHECK_INTEQ(notes.n_unenforced, 1);
    CHECK_STREQ(notes.n_unenforced ? notes.unenforced[0] : NULL, "memory_cgroup: memory.max could not be set");
    sbx_cg_destroy(&cg);
    sbx_result_free(&notes);

    /* Without the pids controller delegated the base is refused. */
    put(root, "cgroup.subtree_control", "memory\n");
    CHECK_INTEQ(sbx_cg2_base(out, sizeof out), -1);
    knob_setenv("CODECALC_CGROUP", NULL);
}

/* ---- warm boxes ----------------------------------------------------------- */

static bool contained(void) {
    const struct sbx_caps *c = sbx_probe();
    return c->root && c->pidns && c->mntns && c->cgroup_v1_pids;
}

static const char *const env[] = {"PATH=/usr/bin:/bin", "LANG=C.UTF-8", NULL};

/* Run a bash script in a prepared box; stdout into out. */
static void box_bash(struct sbx_box *b, const char *script, char *out, size_t cap) {
    const char *argv[] = {"/bin/bash", "-c", script, NULL};
    struct sbx_capture capt = {.keep = cap - 1};
    struct sbx_spec spec = {.argv = argv, .envp = env, .workdir = b->workdir, .stdin_fd = -1,
                            .capture = &capt,
                            .lim = {.wall_ms = 10000, .cpu_s = 10, .mem_bytes = 128u << 20,
                                    .pids_max = 64}};
    struct sbx_result r;
    CHECK_INTEQ(sbx_box_run(b, &spec, &r), 0);
    snprintf(out, cap, "%s", r.out.data ? r.out.data : "");
    CHECK_INTEQ(r.n_unenforced, 0);
    sbx_result_free(&r);
}

/* Two boxes prepared side by side: neither program sees the other's run
 * directory, init or cgroup. */
static void test_boxes_prepared_together_are_apart(void) {
    struct cc_rundir da, db;
    CHECK_INTEQ(cc_rundir_create(base, NULL, 0, &da), 0);
    CHECK_INTEQ(cc_rundir_create(base, NULL, 0, &db), 0);
    struct sbx_box a, b;
    char *why = NULL;
    CHECK_INTEQ(sbx_box_prepare(&a, da.path, false, &why), 0);
    CHECK_INTEQ(sbx_box_prepare(&b, db.path, false, &why), 0);
    char script[PATH_MAX + 512], out_a[4096], out_b[4096];
    snprintf(script, sizeof script,
             "echo a > mine; ls /proc | grep -c '^[0-9]'; test -e '%s' && echo SEE-B; "
             "grep -o 'pids:.*' /proc/self/cgroup", db.path);
    box_bash(&a, script, out_a, sizeof out_a);
    snprintf(script, sizeof script,
             "ls; test -e '%s/mine' && echo SEE-A; grep -o 'pids:.*' /proc/self/cgroup", da.path);
    box_bash(&b, script, out_b, sizeof out_b);
    CHECK(strstr(out_a, "SEE-B") == NULL);
    CHECK(strstr(out_b, "SEE-A") == NULL);
    CHECK(strncmp(out_a, "3\n", 2) == 0 || strncmp(out_a, "4\n", 2) == 0); /* init, bash, ls/grep */
    const char *ga = strstr(out_a, "pids:"), *gb = strstr(out_b, "pids:");
    CHECK(ga && gb && strcmp(ga, gb) != 0);
    CHECK(strncmp(out_b, "pids:", 5) == 0); /* its own directory was empty */
    sbx_box_destroy(&a);
    sbx_box_destroy(&b);
    CHECK_INTEQ(cc_rundir_remove(&da), 0);
    CHECK_INTEQ(cc_rundir_remove(&db), 0);
}

static json_t *exec_bash(const char *code) {
    struct cc_exec_req q = {.language = "bash", .code = code, .code_len = strlen(code),
                            .timeout = 20, .max_memory_mb = 256};
    return cc_execute(&q);
}

static const char *field(json_t *r, const char *k) { return json_string_value(json_object_get(r, k)); }

/* Through the exec worker's path (warm.c): what one request leaves in its
 * prepared box — files, a daemon, memory use — is not there for the next. */
static void test_warm_box_is_never_reused(void) {
    setenv("TMPDIR", base, 1);
    cc_warm_enable();
    cc_warm_idle();
    json_t *r1 = exec_bash("echo secret > /tmp/leak; echo x > mine; (setsid sleep 600 &); "
                           "python3 -c 'x = bytearray(50 << 20)'; "
                           "grep -o 'memory:.*' /proc/self/cgroup");
    CHECK_STREQ(field(r1, "verdict"), "OK");
    cc_warm_idle(); /* after the response: destroy, prepare the next */
    json_t *r2 = exec_bash("ls -A /tmp; ls -A | grep -v main.sh; pgrep -c sleep; "
                           "grep -o 'memory:.*' /proc/self/cgroup");
    CHECK_STREQ(field(r2, "verdict"), "OK");
    const char *o1 = field(r1, "stdout"), *o2 = field(r2, "stdout");
    /* Nothing in /tmp or the work dir, no sleep (pgrep -c prints 0), and a
     * memory cgroup of its own. */
    CHECK(o2 && strncmp(o2, "0\nmemory:", 9) == 0);
    CHECK(o1 && o2 && strcmp(strstr(o1, "memory:"), strstr(o2, "memory:")) != 0);
    CHECK(strcmp(field(r1, "workdir"), field(r2, "workdir")) != 0);
    /* Fresh cgroup counters: the second run's peak is its own, not 50 MB. */
    CHECK(json_integer_value(json_object_get(r2, "peak_memory_kb")) <
          json_integer_value(json_object_get(r1, "peak_memory_kb")));
    json_decref(r1);
    json_decref(r2);
    cc_warm_idle();
    cc_warm_shutdown();
    /* Everything went: no run directory is left in TMPDIR. */
    char cmd[300];
    snprintf(cmd, sizeof cmd, "ls %s | grep -c '^codecalc-' >/dev/null", base);
    CHECK(system(cmd) != 0);
    unsetenv("TMPDIR");
}

/* The children of pid, from /proc (one level). */
static int children_of(pid_t pid, pid_t *out, int cap) {
    char p[64], buf[256];
    snprintf(p, sizeof p, "/proc/%ld/task/%ld/children", (long)pid, (long)pid);
    if (sbx_read_small(p, buf, sizeof buf) < 0) return -1;
    int n = 0;
    for (char *s = buf, *end; n < cap; s = end) {
        long v = strtol(s, &end, 10);
        if (end == s) break;
        out[n++] = (pid_t)v;
    }
    return n;
}

static bool same_link(pid_t a, pid_t b, const char *what) {
    char pa[64], pb[64], la[128] = "", lb[128] = "";
    snprintf(pa, sizeof pa, "/proc/%ld/%s", (long)a, what);
    snprintf(pb, sizeof pb, "/proc/%ld/%s", (long)b, what);
    ssize_t x = readlink(pa, la, sizeof la - 1), y = readlink(pb, lb, sizeof lb - 1);
    return x > 0 && y > 0 && strcmp(la, lb) == 0;
}

/* Prepared, the box holds init and one waiting program process, in init's
 * namespaces and the box's cgroups; destroyed unused, both are gone. */
static void test_program_process_waits_in_the_box(void) {
    struct cc_rundir d;
    CHECK_INTEQ(cc_rundir_create(base, NULL, 0, &d), 0);
    struct sbx_box b;
    char *why = NULL;
    CHECK_INTEQ(sbx_box_prepare(&b, d.path, false, &why), 0);
    for (int i = 0; i < 5000 && !b.shared->t_ready_us; i++) usleep(1000);
    CHECK(b.shared->t_ready_us != 0);
    pid_t kids[4];
    CHECK_INTEQ(children_of(b.pid, kids, 4), 1);
    pid_t prog = kids[0];
    CHECK(same_link(prog, b.pid, "ns/pid_for_children") || same_link(prog, b.pid, "ns/pid"));
    CHECK(same_link(prog, b.pid, "ns/mnt"));
    char cg[512];
    snprintf(cg, sizeof cg, "/proc/%ld/cgroup", (long)prog);
    char text[1024];
    CHECK(sbx_read_small(cg, text, sizeof text) > 0);
    const char *leaf = strrchr(b.cg.pids_dir, '/');
    CHECK(leaf && strstr(text, leaf) != NULL);
    CHECK(b.shared->t_forked_us == 0); /* no program yet */
    pid_t init = b.pid;
    sbx_box_destroy(&b);
    CHECK(kill(prog, 0) != 0 && errno == ESRCH);
    CHECK(kill(init, 0) != 0 && errno == ESRCH);
    CHECK_INTEQ(cc_rundir_remove(&d), 0);
}

/* init shields itself from the OOM killer (-1000); the program must not
 * inherit that: it gets the score init started with. Where the host lets
 * init lower its score, this catches the inheritance. */
static void test_program_gets_init_original_oom_score(void) {
    int fd = open("/proc/self/oom_score_adj", O_WRONLY | O_CLOEXEC);
    CHECK(fd >= 0 && write(fd, "300", 3) == 3);
    if (fd >= 0) close(fd);
    struct cc_rundir d;
    CHECK_INTEQ(cc_rundir_create(base, NULL, 0, &d), 0);
    struct sbx_box b;
    char *why = NULL, out[256];
    CHECK_INTEQ(sbx_box_prepare(&b, d.path, false, &why), 0);
    for (int i = 0; i < 5000 && !b.shared->t_ready_us; i++) usleep(1000);
    char p[64], init_adj[16] = "";
    snprintf(p, sizeof p, "/proc/%ld/oom_score_adj", (long)b.pid);
    sbx_read_small(p, init_adj, sizeof init_adj);
    if (strncmp(init_adj, "-1000", 5) != 0)
        fprintf(stderr, "note: init could not lower its OOM score here (%s)\n", init_adj);
    box_bash(&b, "cat /proc/self/oom_score_adj", out, sizeof out);
    CHECK_STREQ(out, "300\n");
    sbx_box_destroy(&b);
    CHECK_INTEQ(cc_rundir_remove(&d), 0);
}

int main(void) {
    snprintf(base, sizeof base, "/var/tmp/cc-warm-test-%ld", (long)getpid());
    mkdir(base, 0711);
    knob_setenv("CODECALC_RUNTIME_PATH", "/usr/local/bin:/usr/bin:/bin");
    RUN(test_cgroup_v2_fake_tree);
    if (contained()) {
        RUN(test_boxes_prepared_together_are_apart);
        RUN(test_warm_box_is_never_reused);
        RUN(test_program_process_waits_in_the_box);
        RUN(test_program_gets_init_original_oom_score); /* last: raises our own score */
    } else {
        fprintf(stderr, "warm box isolation skipped: needs root, pid/mount namespaces and a pids cgroup\n");
    }
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", base);
    if (system(cmd) != 0) fprintf(stderr, "could not remove %s\n", base);
    return check_summary("sandbox_warm");
}
