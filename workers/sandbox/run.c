/* sbx_run(): one sandboxed step from start to finish.
 *
 *   worker ──clone3(new ns, pidfd)──▶ init (pid 1) ──fork──▶ program
 *
 * The worker creates the run's cgroups, clones init into fresh namespaces,
 * moves it into the groups, then releases it over the "go" pipe, so the
 * program is inside every limit before it exists. The worker then waits on
 * the pidfd, calling tick() and enforcing the wall clock; killing init
 * (SIGKILL) tears the whole pid namespace down. init's rusage covers every
 * process it (and the namespace teardown) reaped, i.e. the whole tree. */
#include "workers/sandbox/sandbox.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/sched.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "protocol/monotonic.h"

#define TWO_TIB (2ULL << 40)

static int spawn_fail(struct sbx_result *res, const char *what, int err) {
    free(res->spawn_error);
    if (asprintf(&res->spawn_error, "%s: %s", what, strerror(err)) < 0)
        res->spawn_error = NULL;
    res->started = false;
    return -1;
}

static bool spec_valid(const struct sbx_spec *s) {
    return s && s->argv && s->argv[0] && s->argv[0][0] == '/' && s->envp && s->workdir &&
           s->workdir[0] == '/' && strlen(s->workdir) < PATH_MAX && s->lim.wall_ms > 0 &&
           s->lim.cpu_s > 0;
}

/* Queue one rlimit, clamped to the hard limit we can still grant. */
static void plan_rlimit(struct sbx_plan *p, struct sbx_result *res, int resource, uint64_t want,
                        const char *clamp_token) {
    struct rlimit cur;
    if (getrlimit(resource, &cur) == 0 && cur.rlim_max != RLIM_INFINITY && want > cur.rlim_max) {
        want = cur.rlim_max;
        if (clamp_token)
            sbx_unenforced_add(res, "%s", clamp_token);
    }
    p->rl[p->n_rl].resource = resource;
    p->rl[p->n_rl].value = want;
    p->n_rl++;
}

/* Tasks (threads included) owned by uid machine-wide, or -1. One stat per
 * process: /proc/<pid>/task is owned by the process and links once per
 * thread. */
static int64_t count_tasks(uid_t uid) {
    DIR *d = opendir("/proc");
    if (!d)
        return -1;
    int64_t n = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (e->d_name[0] < '1' || e->d_name[0] > '9')
            continue;
        char path[64];
        struct stat st;
        snprintf(path, sizeof path, "/proc/%.20s/task", e->d_name);
        if (stat(path, &st) == 0 && st.st_uid == uid)
            n += st.st_nlink > 2 ? (int64_t)st.st_nlink - 2 : 1;
    }
    closedir(d);
    return n;
}

static bool digits_only(const char *s) {
    return s && s[0] && strspn(s, "0123456789") == strlen(s) && strlen(s) < 10;
}

/* RLIMIT_NPROC counts the uid machine-wide (TOOLS.md 1.5): an explicit
 * CODECALC_MAX_PROCESSES, else the tasks the uid already has plus headroom.
 * With our dedicated uid and a pids cgroup it is only a floor, so the
 * count is skipped (it costs a /proc walk) and the headroom covers the
 * runs that share the uid. */
static uint64_t nproc_limit(const struct sbx_limits *lim, bool cg_pids, uid_t uid, bool root,
                            struct sbx_result *res) {
    const char *env = getenv("CODECALC_MAX_PROCESSES");
    if (digits_only(env))
        return strtoull(env, NULL, 10);
    const char *hr = getenv("CODECALC_PROCESS_HEADROOM");
    uint64_t headroom = digits_only(hr) ? strtoull(hr, NULL, 10) : 512;
    if (root && cg_pids)
        return lim->pids_max + headroom;
    int64_t have = count_tasks(uid);
    if (have < 0) {
        sbx_unenforced_add(res, "process_limit_is_a_fixed_ceiling_not_measured");
        return 4096;
    }
    return (uint64_t)have + (root ? lim->pids_max : headroom);
}

static void plan_limits(struct sbx_plan *p, struct sbx_result *res, bool cg_pids) {
    const struct sbx_limits *lim = &p->spec->lim;
    plan_rlimit(p, res, RLIMIT_CPU, (uint64_t)lim->cpu_s, "cpu_limit_clamped_to_hard_rlimit");
    plan_rlimit(p, res, RLIMIT_AS, lim->as_bytes ? lim->as_bytes : TWO_TIB,
                "memory_limit_clamped_to_hard_rlimit");
    plan_rlimit(p, res, RLIMIT_FSIZE, lim->fsize_bytes, "file_size_limit_clamped_to_hard_rlimit");
    plan_rlimit(p, res, RLIMIT_NOFILE, lim->nofile ? lim->nofile : 256, NULL);
    plan_rlimit(p, res, RLIMIT_CORE, 0, NULL);
    plan_rlimit(p, res, RLIMIT_NPROC, nproc_limit(lim, cg_pids, p->uid, p->drop_uid, res),
                "process_limit_clamped_to_hard_rlimit");
}

/* Choose namespaces from the probe and disclose each one we go without. */
static int plan_namespaces(struct sbx_plan *p, const struct sbx_caps *c, struct sbx_result *res) {
    int flags = 0;
    if (!c->root && c->userns)
        flags |= CLONE_NEWUSER;
    bool usable = c->root || c->userns;
    p->own_pidns = usable && c->pidns;
    p->own_mntns = usable && c->mntns;
    p->own_utsns = usable && c->utsns;
    if (p->own_pidns)
        flags |= CLONE_NEWPID;
    else
        sbx_unenforced_add(res, "pid_namespace: not permitted here; other processes are "
                                "visible and the tree is killed by process group only");
    if (p->own_mntns)
        flags |= CLONE_NEWNS;
    else
        sbx_unenforced_add(res, "read_only_filesystem: no mount namespace here; the host "
                                "filesystem is protected by file permissions only");
    if (usable && c->ipcns)
        flags |= CLONE_NEWIPC;
    else
        sbx_unenforced_add(res, "ipc_namespace: not permitted here");
    if (p->own_utsns)
        flags |= CLONE_NEWUTS;
    if (p->spec->lim.no_net && usable && c->netns)
        flags |= CLONE_NEWNET;
    return flags;
}

static void plan_seccomp(struct sbx_plan *p, const struct sbx_caps *c, struct sbx_result *res) {
    p->bpf = c->seccomp ? sbx_seccomp_get(p->spec->lim.no_net) : NULL;
    if (p->bpf)
        return;
    sbx_unenforced_add(res, "seccomp: no seccomp filter on this host; ptrace, mount, bpf "
                            "and namespace calls are limited by privileges only");
    if (p->spec->lim.no_net)
        sbx_unenforced_add(res, "no_net_requested_but_no_shim_available");
}

static void kill_init(int pidfd) {
    syscall(SYS_pidfd_send_signal, pidfd, SIGKILL, NULL, 0);
}

/* End a run that overran or was cancelled. The program's processes are
 * killed first and init is given a moment to reap them and exit on its own,
 * so its rusage still counts their CPU time; init itself is killed only if
 * it does not finish (or when there is no cgroup to find the processes). */
static void stop_tree(int pidfd, pid_t init_pid, const struct sbx_cgroup *cg) {
    if (sbx_cg_kill_except(cg, init_pid) >= 0) {
        struct pollfd pfd = {.fd = pidfd, .events = POLLIN};
        if (poll(&pfd, 1, 200) > 0)
            return;
    }
    kill_init(pidfd);
}

/* Wait for init, ticking and enforcing the wall clock. */
static void wait_loop(const struct sbx_spec *spec, int pidfd, pid_t init_pid,
                      const struct sbx_cgroup *cg, int64_t t0, struct sbx_result *res) {
    int tick_ms = spec->tick_ms > 0 ? spec->tick_ms : 250;
    int64_t deadline = t0 + spec->lim.wall_ms;
    for (;;) {
        int64_t left = deadline - cc_now_ms();
        if (left <= 0) {
            res->timed_out = true;
            stop_tree(pidfd, init_pid, cg);
            return;
        }
        struct pollfd pfd = {.fd = pidfd, .events = POLLIN};
        int r = poll(&pfd, 1, (int)(left < tick_ms ? left : tick_ms));
        if (r > 0)
            return;
        if (r < 0 && errno != EINTR) {
            kill_init(pidfd);
            return;
        }
        if (r == 0 && spec->tick && spec->tick(spec->tick_ud)) {
            res->cancelled = true;
            stop_tree(pidfd, init_pid, cg);
            return;
        }
    }
}

static void report_degraded(struct sbx_result *res, unsigned d, bool no_net) {
    if (d & SBX_DEGRADED_RDONLY)
        sbx_unenforced_add(res, "read_only_filesystem: the host view could not be made read-only");
    if (d & SBX_DEGRADED_TMP)
        sbx_unenforced_add(res, "private_tmp: /tmp is shared with the host");
    if (d & SBX_DEGRADED_MASK)
        sbx_unenforced_add(res, "state_directory_hidden: the state directory or other runs "
                                "could not be masked");
    if (d & SBX_DEGRADED_PROC)
        sbx_unenforced_add(res, "private_proc: /proc shows host processes");
    if (d & SBX_DEGRADED_NNP)
        sbx_unenforced_add(res, "no_new_privs: prctl refused");
    if (d & SBX_DEGRADED_SECCOMP) {
        sbx_unenforced_add(res, "seccomp: the filter could not be loaded");
        if (no_net)
            sbx_unenforced_add(res, "no_net_requested_but_no_shim_available");
    }
}

/* Fill the result from init's exit, the shared page and the cgroup. */
static void collect(struct sbx_result *res, const struct sbx_plan *plan, int init_status,
                    const struct rusage *ru, const struct sbx_cgroup *cg) {
    struct sbx_shared *sh = plan->shared;
    res->cpu_ms = (int64_t)(ru->ru_utime.tv_sec + ru->ru_stime.tv_sec) * 1000 +
                  (ru->ru_utime.tv_usec + ru->ru_stime.tv_usec) / 1000;
    res->peak_kb = sbx_cg_peak_kb(cg);
    if (res->peak_kb < 0)
        res->peak_kb = ru->ru_maxrss;
    report_degraded(res, sh->degraded, plan->spec->lim.no_net);
    res->started = sh->started;
    if (sh->have_status && WIFEXITED(sh->status)) {
        res->exited = true;
        res->exit_code = WEXITSTATUS(sh->status);
    } else if (sh->have_status && WIFSIGNALED(sh->status)) {
        res->term_signal = WTERMSIG(sh->status);
    } else if (res->started) {
        /* init died before the program: our kill, or the OOM killer. */
        res->term_signal = WIFSIGNALED(init_status) ? WTERMSIG(init_status) : SIGKILL;
    }
}

static int finish_unstarted(struct sbx_result *res, const struct sbx_plan *plan) {
    struct sbx_shared *sh = plan->shared;
    char what[PATH_MAX + 64];
    if (sh->exec_errno) {
        snprintf(what, sizeof what, "execve %s", plan->spec->argv[0]);
        return spawn_fail(res, what, sh->exec_errno);
    }
    if (sh->stage_err) {
        char stage[sizeof sh->stage];
        for (size_t i = 0; i < sizeof stage; i++)
            stage[i] = sh->stage[i];
        stage[sizeof stage - 1] = '\0';
        snprintf(what, sizeof what, "sandbox setup (%s)", stage);
        return spawn_fail(res, what, sh->stage_err);
    }
    if (res->timed_out || res->cancelled)
        return 0;
    return spawn_fail(res, "sandbox init", ECHILD);
}

/* Parent side once init exists: cgroup, id maps, go, wait, reap. */
static int supervise(struct sbx_plan *plan, pid_t pid, int pidfd, int go_w, bool userns,
                     struct sbx_cgroup *cg, int64_t t0, struct sbx_result *res) {
    if (userns && sbx_map_ids(pid) != 0) {
        kill_init(pidfd);
        close(go_w);
    } else {
        if ((cg->mem_dir[0] || cg->pids_dir[0]) && sbx_cg_attach(cg, pid) != 0)
            sbx_unenforced_add(res, "cgroup: the run could not join its cgroup (%s)",
                               strerror(errno));
        ssize_t w = write(go_w, "g", 1);
        close(go_w);
        if (w != 1)
            kill_init(pidfd);
        else
            wait_loop(plan->spec, pidfd, pid, cg, t0, res);
    }
    int st = 0;
    struct rusage ru;
    memset(&ru, 0, sizeof ru);
    while (wait4(pid, &st, __WALL, &ru) < 0 && errno == EINTR)
        ;
    collect(res, plan, st, &ru, cg);
    if (!res->started)
        return finish_unstarted(res, plan);
    return 0;
}

static int launch(struct sbx_plan *plan, int flags, struct sbx_cgroup *cg, int64_t t0,
                  struct sbx_result *res) {
    int go[2];
    if (pipe2(go, O_CLOEXEC) != 0)
        return spawn_fail(res, "pipe", errno);
    plan->go_fd = go[0];
    int pidfd = -1;
    pid_t pid = sbx_clone_init(flags, &pidfd);
    if (pid < 0) {
        int e = errno;
        close(go[0]);
        close(go[1]);
        return spawn_fail(res, "clone3", e);
    }
    if (pid == 0) {
        close(go[1]);
        sbx_init_main(plan);
    }
    close(go[0]);
    int rc = supervise(plan, pid, pidfd, go[1], flags & CLONE_NEWUSER, cg, t0, res);
    close(pidfd);
    return rc;
}

int sbx_run(const struct sbx_spec *spec, struct sbx_result *res) {
    int64_t t0 = cc_now_ms();
    memset(res, 0, sizeof *res);
    res->peak_kb = -1;
    if (!spec_valid(spec))
        return spawn_fail(res, "invalid sandbox spec", EINVAL);
    const struct sbx_caps *caps = sbx_probe();
    char home[PATH_MAX];
    sbx_codecalc_home(home, sizeof home);
    struct sbx_plan plan;
    memset(&plan, 0, sizeof plan);
    plan.spec = spec;
    plan.home = home[0] ? home : NULL;
    plan.drop_uid = caps->root;
    plan.uid = caps->run_uid;
    plan.gid = caps->run_gid;
    struct sbx_cgroup cg;
    sbx_cg_create(&cg, &spec->lim, res);
    plan_limits(&plan, res, cg.pids_limited);
    int flags = plan_namespaces(&plan, caps, res);
    plan_seccomp(&plan, caps, res);
    plan.shared = mmap(NULL, sizeof *plan.shared, PROT_READ | PROT_WRITE,
                       MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    int rc;
    if (plan.shared == MAP_FAILED) {
        rc = spawn_fail(res, "mmap", errno);
    } else {
        rc = launch(&plan, flags, &cg, t0, res);
        munmap(plan.shared, sizeof *plan.shared);
    }
    sbx_cg_destroy(&cg);
    res->wall_ms = cc_now_ms() - t0;
    return rc;
}
