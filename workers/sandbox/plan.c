/* The planner: which namespaces a box gets and which rlimits, identity and
 * seccomp filter its program gets, decided once for one-shot runs and
 * long-lived hosts alike. Whatever this host cannot apply is disclosed in
 * the result's unenforced list here, and nowhere else. */
#include "workers/sandbox/sandbox.h"

#include <dirent.h>
#include <linux/sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>

#include "protocol/knob.h"

/* Choose namespaces from the probe and disclose each one we go without.
 * Returns the clone flags. */
int sbx_plan_namespaces(const struct sbx_caps *c, bool no_net, struct sbx_init_cfg *cfg,
                        struct sbx_result *notes) {
    int flags = 0;
    if (!c->root && c->userns)
        flags |= CLONE_NEWUSER;
    cfg->own_userns = flags & CLONE_NEWUSER;
    bool usable = c->root || c->userns;
    cfg->own_pidns = usable && c->pidns;
    cfg->own_mntns = usable && c->mntns;
    cfg->own_utsns = usable && c->utsns;
    if (cfg->own_pidns)
        flags |= CLONE_NEWPID;
    else
        sbx_unenforced_add(notes, "pid_namespace: not permitted here; other processes are "
                                  "visible and the tree is killed by process group only");
    if (cfg->own_mntns)
        flags |= CLONE_NEWNS;
    else
        sbx_unenforced_add(notes, "read_only_filesystem: no mount namespace here; the host "
                                  "filesystem is protected by file permissions only");
    cfg->own_ipcns = usable && c->ipcns;
    if (cfg->own_ipcns)
        flags |= CLONE_NEWIPC;
    else
        sbx_unenforced_add(notes, "ipc_namespace: not permitted here");
    if (cfg->own_utsns)
        flags |= CLONE_NEWUTS;
    if (no_net && usable && c->netns)
        flags |= CLONE_NEWNET;
    return flags;
}

/* Queue one rlimit, clamped to the hard limit we can still grant. */
static void add_rlimit(struct sbx_program *p, struct sbx_result *res, int resource, uint64_t want,
                       const char *clamp_token) {
    struct rlimit cur;
    if (getrlimit(resource, &cur) == 0 && cur.rlim_max != RLIM_INFINITY && want > cur.rlim_max) {
        want = cur.rlim_max;
        if (clamp_token)
            sbx_unenforced_add(res, "%s", clamp_token);
    }
    if (p->n_rl >= SBX_MAX_RLIMITS)
        return;
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

/* RLIMIT_NPROC where no pids cgroup holds this box (TOOLS.md 1.5): an
 * explicit CODECALC_MAX_PROCESSES, else the tasks the uid already has plus
 * headroom. It counts every task of the uid on the host, not this run's:
 * see sbx_plan_program for why a box with a pids cgroup goes without it. */
static uint64_t nproc_limit(const struct sbx_limits *lim, uid_t uid, bool root,
                            struct sbx_result *res) {
    if (cc_knob_given(CC_KNOB_MAX_PROCESSES)) return (uint64_t)cc_knob(CC_KNOB_MAX_PROCESSES);
    uint64_t headroom = (uint64_t)cc_knob(CC_KNOB_PROCESS_HEADROOM);
    int64_t have = count_tasks(uid);
    if (have < 0) {
        sbx_unenforced_add(res, "process_limit_is_a_fixed_ceiling_not_measured");
        return 4096;
    }
    return (uint64_t)have + (root ? lim->pids_max : headroom);
}

/* What no rlimit sees without a memory cgroup (hostile5): pages written
 * through a descriptor and held by it, never mapped (a memfd is bounded
 * only per file by RLIMIT_FSIZE), and SysV IPC objects (a segment filled
 * and detached; a non-root server's init cannot limit its IPC namespace,
 * ipc_bound.c). */
#define UNMAPPED "; memory no mapping holds (a memfd or pipe written to and kept open, SysV " \
                 "IPC objects) is not counted at all"

static void plan_seccomp(struct sbx_program *p, const struct sbx_caps *c, bool no_net,
                         bool watched_disk, struct sbx_result *res) {
    const struct sbx_bpf *bpf = c->seccomp ? sbx_seccomp_get_for(no_net, watched_disk) : NULL;
    if (bpf) {
        p->bpf = *bpf;
        return;
    }
    sbx_unenforced_add(res, "seccomp: no seccomp filter on this host; ptrace, mount, bpf "
                            "and namespace calls are limited by privileges only");
    if (no_net)
        sbx_unenforced_add(res, "no_net_requested_but_no_shim_available");
}

void sbx_plan_program(struct sbx_program *p, const struct sbx_limits *lim, bool pids_cgroup,
                      bool mem_cgroup, struct sbx_result *res) {
    const struct sbx_caps *c = sbx_probe();
    memset(p, 0, sizeof *p);
    p->drop_uid = c->root;
    p->uid = c->run_uid;
    p->gid = c->run_gid;
    if (lim->cpu_s > 0)
        add_rlimit(p, res, RLIMIT_CPU, (uint64_t)lim->cpu_s, "cpu_limit_clamped_to_hard_rlimit");
    /* The address-space limit breaks runtimes that reserve address space
     * (node, java, go); it is the memory ceiling only where no memory
     * cgroup holds one. */
    if (!mem_cgroup && lim->mem_bytes > 0 && lim->data_ceiling) {
        /* RLIMIT_DATA counts private writable mappings only: address space
         * reserved PROT_NONE (a JVM's heap and class space, go's arenas) is
         * free until committed, and committing past the ceiling fails. */
        add_rlimit(p, res, RLIMIT_DATA, lim->mem_bytes, "memory_limit_clamped_to_hard_rlimit");
        add_rlimit(p, res, RLIMIT_AS, lim->mem_bytes + lim->as_extra_bytes,
                   "memory_limit_clamped_to_hard_rlimit");
        sbx_unenforced_add(res, "memory_cgroup: no memory cgroup could hold the ceiling here; "
                                "RLIMIT_DATA holds the private writable memory the program commits "
                                "(touched or not, so more than a memory cgroup would count) at the "
                                "ceiling, and RLIMIT_AS bounds address space at the ceiling plus "
                                "%llu MiB (the address space the runtime reserves), so shared "
                                "memory may pass the ceiling by up to that much" UNMAPPED,
                           (unsigned long long)(lim->as_extra_bytes >> 20));
    } else if (!mem_cgroup && lim->mem_bytes > 0 && lim->as_extra_bytes > 0) {
        add_rlimit(p, res, RLIMIT_AS, lim->mem_bytes + lim->as_extra_bytes,
                   "memory_limit_clamped_to_hard_rlimit");
        sbx_unenforced_add(res, "memory_cgroup: no memory cgroup could hold the ceiling here; the "
                                "runtime's own heap limit holds its heap at the ceiling, and RLIMIT_AS "
                                "bounds address space at the ceiling plus %llu MiB (the address space "
                                "the runtime reserves), so memory outside its heap may pass the "
                                "ceiling by up to that much" UNMAPPED,
                           (unsigned long long)(lim->as_extra_bytes >> 20));
    } else if (!mem_cgroup && lim->mem_bytes > 0) {
        add_rlimit(p, res, RLIMIT_AS, lim->mem_bytes, "memory_limit_clamped_to_hard_rlimit");
        sbx_unenforced_add(res, "memory_cgroup: no memory cgroup could hold the ceiling here; "
                                "RLIMIT_AS bounds address space instead, which runtimes that "
                                "reserve address space (java, go) may not start under" UNMAPPED);
    }
    add_rlimit(p, res, RLIMIT_FSIZE, lim->fsize_bytes ? lim->fsize_bytes : SBX_FSIZE_DEFAULT,
               "file_size_limit_clamped_to_hard_rlimit");
    add_rlimit(p, res, RLIMIT_NOFILE, lim->nofile ? lim->nofile : 256, NULL);
    add_rlimit(p, res, RLIMIT_CORE, 0, NULL);
    /* Not the server's own limit: unlimited there is kernel memory no limit
     * counts where no memory cgroup holds the run, and 0 leaves it none.
     * The bound is the uid's, shared by every run (ipc_release.c returns a
     * run's queues when it ends). */
    add_rlimit(p, res, RLIMIT_MSGQUEUE, SBX_MSGQUEUE_BYTES, NULL);
    /* The process ceiling is the box's pids cgroup where it holds one.
     * RLIMIT_NPROC beside it would bound nothing per run: every run of
     * every codecalc server on the host shares the sandbox uid, so a
     * finite value only lets concurrent runs fail each other's fork and
     * execve with EAGAIN (docs/security.md, "The process ceiling"). */
    if (!pids_cgroup) {
        uint64_t nproc = nproc_limit(lim, p->uid, p->drop_uid, res);
        add_rlimit(p, res, RLIMIT_NPROC, nproc, "process_limit_clamped_to_hard_rlimit");
        sbx_unenforced_add(res, "process_limit: no pids cgroup holds this run; RLIMIT_NPROC "
                                "(%llu) is the only process ceiling, and it counts every "
                                "process of the uid on this host, not this run's",
                           (unsigned long long)nproc);
    }
    plan_seccomp(p, c, lim->no_net, lim->disk_floor_bytes > 0, res);
}
