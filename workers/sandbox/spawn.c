/* sbx_spawn(): a sandboxed process that outlives the call that started it
 * (a session's REPL host). The walls are sbx_run's — the same init, program
 * child, mounts and seccomp filter (workers/sandbox/init.c, workers/sandbox/child.c) — but
 * the caller keeps the pidfd and decides when the tree dies.
 *
 * Limits differ from a one-shot step (TOOLS.md 4.1): no RLIMIT_CPU (it would
 * add up over every call), AS 2 TiB, FSIZE 256 MiB, NOFILE 256, CORE 0,
 * NPROC as for a run; the cgroup carries the memory and pids ceilings. */
#include "workers/sandbox/sandbox.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "protocol/monotonic.h"

#define TWO_TIB (2ULL << 40)
#define FSIZE_CAP (256ULL << 20)

static int fail(struct sbx_result *res, const char *what, int err) {
    free(res->spawn_error);
    if (asprintf(&res->spawn_error, "%s: %s", what, strerror(err)) < 0) res->spawn_error = NULL;
    return -1;
}

static void add_rlimit(struct sbx_plan *p, int resource, uint64_t want) {
    struct rlimit cur;
    if (getrlimit(resource, &cur) == 0 && cur.rlim_max != RLIM_INFINITY && want > cur.rlim_max)
        want = cur.rlim_max;
    p->rl[p->n_rl].resource = resource;
    p->rl[p->n_rl].value = want;
    p->n_rl++;
}

/* RLIMIT_NPROC is only a floor next to the pids cgroup (see workers/sandbox/run.c);
 * an explicit CODECALC_MAX_PROCESSES wins. */
static uint64_t nproc_floor(const struct sbx_limits *lim) {
    const char *env = getenv("CODECALC_MAX_PROCESSES");
    if (env && *env && strlen(env) < 10 && strspn(env, "0123456789") == strlen(env))
        return strtoull(env, NULL, 10);
    return lim->pids_max + 4096;
}

static void plan_limits(struct sbx_plan *p) {
    const struct sbx_limits *lim = &p->spec->lim;
    add_rlimit(p, RLIMIT_AS, lim->as_bytes ? lim->as_bytes : TWO_TIB);
    add_rlimit(p, RLIMIT_FSIZE, lim->fsize_bytes ? lim->fsize_bytes : FSIZE_CAP);
    add_rlimit(p, RLIMIT_NOFILE, lim->nofile ? lim->nofile : 256);
    add_rlimit(p, RLIMIT_CORE, 0);
    add_rlimit(p, RLIMIT_NPROC, nproc_floor(lim));
}

static int plan_namespaces(struct sbx_plan *p, const struct sbx_caps *c, struct sbx_result *res) {
    bool usable = c->root || c->userns;
    int flags = !c->root && c->userns ? CLONE_NEWUSER : 0;
    p->own_pidns = usable && c->pidns;
    p->own_mntns = usable && c->mntns;
    p->own_utsns = usable && c->utsns;
    if (p->own_pidns) flags |= CLONE_NEWPID;
    else sbx_unenforced_add(res, "pid_namespace: not permitted here; the host's processes are visible");
    if (p->own_mntns) flags |= CLONE_NEWNS;
    else sbx_unenforced_add(res, "read_only_filesystem: no mount namespace here; the host "
                                 "filesystem is protected by file permissions only");
    if (usable && c->ipcns) flags |= CLONE_NEWIPC;
    if (p->own_utsns) flags |= CLONE_NEWUTS;
    if (p->spec->lim.no_net && usable && c->netns) flags |= CLONE_NEWNET;
    return flags;
}

/* Clone init, put it in its groups and id maps, then release it. */
static int start_init(struct sbx_plan *plan, int flags, struct sbx_proc *p, struct sbx_result *res) {
    int go[2];
    if (pipe2(go, O_CLOEXEC) != 0) return fail(res, "pipe", errno);
    plan->go_fd = go[0];
    pid_t pid = sbx_clone_init(flags, &p->pidfd);
    if (pid < 0) {
        int e = errno;
        close(go[0]);
        close(go[1]);
        return fail(res, "clone3", e);
    }
    if (pid == 0) {
        close(go[1]);
        sbx_init_main(plan);
    }
    close(go[0]);
    p->pid = pid;
    bool ok = !(flags & CLONE_NEWUSER) || sbx_map_ids(pid) == 0;
    if (ok && (p->cg.mem_dir[0] || p->cg.pids_dir[0]) && sbx_cg_attach(&p->cg, pid) != 0)
        sbx_unenforced_add(res, "cgroup: the host could not join its cgroup (%s)", strerror(errno));
    ok = ok && write(go[1], "g", 1) == 1;
    close(go[1]);
    if (!ok) {
        sbx_proc_kill(p);
        return fail(res, "sandbox release", errno ? errno : EIO);
    }
    return 0;
}

int sbx_spawn(const struct sbx_spec *spec, struct sbx_proc *p, struct sbx_result *res) {
    memset(res, 0, sizeof *res);
    memset(p, 0, sizeof *p);
    p->pidfd = -1;
    p->t0 = cc_now_ms();
    res->peak_kb = -1;
    if (!spec || !spec->argv || !spec->argv[0] || spec->argv[0][0] != '/' || !spec->envp ||
        !spec->workdir || spec->workdir[0] != '/' || strlen(spec->workdir) >= PATH_MAX)
        return fail(res, "invalid sandbox spec", EINVAL);
    const struct sbx_caps *caps = sbx_probe();
    /* The plan is copied into init by clone (no CLONE_VM), so a stack plan
     * is fine even though we return before the program ends. */
    struct sbx_plan plan;
    memset(&plan, 0, sizeof plan);
    plan.spec = spec;
    char homebuf[PATH_MAX];
    sbx_codecalc_home(homebuf, sizeof homebuf);
    plan.home = homebuf[0] ? homebuf : NULL;
    plan.drop_uid = caps->root;
    plan.uid = caps->run_uid;
    plan.gid = caps->run_gid;
    sbx_cg_create(&p->cg, &spec->lim, res);
    plan_limits(&plan);
    int flags = plan_namespaces(&plan, caps, res);
    plan.bpf = caps->seccomp ? sbx_seccomp_get(spec->lim.no_net) : NULL;
    if (!plan.bpf)
        sbx_unenforced_add(res, "seccomp: no seccomp filter on this host; ptrace, mount, bpf and "
                                "namespace calls are limited by privileges only");
    p->shared = mmap(NULL, sizeof *p->shared, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    plan.shared = p->shared;
    if (p->shared == MAP_FAILED) {
        p->shared = NULL;
        sbx_cg_destroy(&p->cg);
        return fail(res, "mmap", errno);
    }
    if (start_init(&plan, flags, p, res) != 0) {
        sbx_proc_reap(p, &(struct sbx_result){0});
        return -1;
    }
    return 0;
}

void sbx_proc_kill(struct sbx_proc *p) {
    /* With a pid namespace init's death ends the tree; without one the
     * cgroup teardown in sbx_proc_reap does. */
    if (p->pidfd >= 0) syscall(SYS_pidfd_send_signal, p->pidfd, SIGKILL, NULL, 0);
}

int64_t sbx_proc_peak_kb(const struct sbx_proc *p) { return sbx_cg_peak_kb(&p->cg); }

static void fill_exit(const struct sbx_proc *p, int st, const struct rusage *ru, struct sbx_result *res) {
    const struct sbx_shared *sh = p->shared;
    res->cpu_ms = (int64_t)(ru->ru_utime.tv_sec + ru->ru_stime.tv_sec) * 1000 +
                  (ru->ru_utime.tv_usec + ru->ru_stime.tv_usec) / 1000;
    res->peak_kb = sbx_cg_peak_kb(&p->cg);
    if (!sh) return;
    res->started = sh->started;
    if (sh->have_status && WIFEXITED(sh->status)) {
        res->exited = true;
        res->exit_code = WEXITSTATUS(sh->status);
    } else if (sh->have_status && WIFSIGNALED(sh->status)) {
        res->term_signal = WTERMSIG(sh->status);
    } else if (sh->started) {
        res->term_signal = WIFSIGNALED(st) ? WTERMSIG(st) : SIGKILL;
    } else if (sh->exec_errno) {
        fail(res, "execve", sh->exec_errno);
    } else if (sh->stage_err) {
        fail(res, "sandbox setup", sh->stage_err);
    }
}

void sbx_proc_reap(struct sbx_proc *p, struct sbx_result *res) {
    int st = 0;
    struct rusage ru;
    memset(&ru, 0, sizeof ru);
    if (p->pid > 0)
        while (wait4(p->pid, &st, __WALL, &ru) < 0 && errno == EINTR)
            ;
    fill_exit(p, st, &ru, res);
    res->wall_ms = cc_now_ms() - p->t0;
    sbx_cg_destroy(&p->cg); /* kills whatever is left in the groups */
    if (p->shared) munmap(p->shared, sizeof *p->shared);
    if (p->pidfd >= 0) close(p->pidfd);
    p->shared = NULL;
    p->pidfd = -1;
    p->pid = 0;
}
