/* The per-run sandbox (DESIGN.md "Sandbox"): one call runs one command inside
 * fresh namespaces, a per-run cgroup, rlimits, a seccomp filter and a scrubbed
 * environment, waits for it (or for the wall clock), kills the whole tree and
 * reports what happened. Each protection that this host could not apply is
 * named in the result's unenforced list, never silently dropped.
 *
 * Ownership: the caller owns everything in sbx_spec; sbx_run() fills
 * sbx_result, whose strings are owned by the result and released with
 * sbx_result_free().
 */
#ifndef CC_SANDBOX_H
#define CC_SANDBOX_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

struct sbx_limits {
    int64_t wall_ms;        /* wall clock for this step; > 0 */
    int64_t cpu_s;          /* RLIMIT_CPU seconds; > 0 */
    uint64_t as_bytes;      /* RLIMIT_AS; 0 = the 2 TiB default */
    uint64_t mem_bytes;     /* cgroup memory ceiling; 0 = none requested */
    uint64_t fsize_bytes;   /* RLIMIT_FSIZE; must stay above the output cap */
    uint64_t nofile;        /* RLIMIT_NOFILE (256) */
    uint64_t pids_max;      /* pids cgroup ceiling (and rlimit floor) */
    bool no_net;            /* seccomp refuses AF_INET/AF_INET6 sockets */
};

/* Called every tick_ms while the program runs (streaming, cancellation).
 * Return non-zero to kill the run now (it is then reported as cancelled). */
typedef int (*sbx_tick_fn)(void *ud);

struct sbx_spec {
    const char *const *argv;  /* argv[0] is an absolute path (resolved by caller) */
    const char *const *envp;  /* the complete environment of the program */
    const char *workdir;      /* cwd; the only writable host directory */
    int stdin_fd;             /* read end given to the program as fd 0 */
    int stdout_fd;            /* capture file (O_RDWR), program's fd 1 */
    int stderr_fd;            /* capture file (O_RDWR), program's fd 2 */
    struct sbx_limits lim;
    sbx_tick_fn tick;         /* may be NULL */
    void *tick_ud;
    int tick_ms;              /* default 250 when 0 */
};

struct sbx_result {
    bool started;            /* the program was exec'd (false: spawn failure) */
    char *spawn_error;       /* why it could not start (NULL when started) */
    int exit_code;           /* valid when exited */
    bool exited;             /* exited normally */
    int term_signal;         /* signal that killed it, 0 if none */
    bool timed_out;          /* killed by the wall clock */
    bool cancelled;          /* killed because tick() asked */
    int64_t wall_ms;
    int64_t cpu_ms;          /* user+sys of the whole tree */
    int64_t peak_kb;         /* peak memory of the run; -1 when not measured */
    char **unenforced;       /* NULL-terminated list of "name: why" strings */
    size_t n_unenforced;
};

/* Probe once what this host offers (namespaces, cgroup v1/v2, seccomp,
 * unprivileged uid). Cheap after the first call. */
struct sbx_caps {
    bool userns, pidns, mntns, netns, ipcns, utsns;
    bool cgroup_v2, cgroup_v1_memory, cgroup_v1_pids;
    bool seccomp;
    bool root;               /* the worker runs as uid 0 */
    uid_t run_uid;           /* uid programs run as */
    gid_t run_gid;
};
const struct sbx_caps *sbx_probe(void);

/* Run one step. Returns 0 when the result is filled (whatever the program
 * did), -1 on an executor failure (result.spawn_error says why). */
int sbx_run(const struct sbx_spec *spec, struct sbx_result *res);
void sbx_result_free(struct sbx_result *res);

/* Programs run as this uid/gid when the worker is root (a dedicated id that
 * owns nothing on the host except the run directory). */
#define SBX_RUN_UID 64999
#define SBX_RUN_GID 64999

/* ======================================================================
 * Internal to the sandbox_*.c files (not for callers of sbx_run).
 * ====================================================================== */

/* Growable "name: why" list behind sbx_result.unenforced. */
int sbx_unenforced_add(struct sbx_result *res, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* Per-run cgroup (v2, or v1 memory + pids). Paths are empty when unused. */
struct sbx_cgroup {
    char mem_dir[512];     /* v1 memory group, or the v2 group */
    char pids_dir[512];    /* v1 pids group; empty for v2 */
    bool v2;
    bool mem_limited;      /* a memory ceiling is in force */
    bool pids_limited;     /* a pids ceiling is in force */
    bool peak_ok;          /* peak memory can be read */
};
/* Create the groups and set limits; what could not be applied is added to
 * res->unenforced. Returns 0 (even when degraded), -1 on allocation failure. */
int sbx_cg_create(struct sbx_cgroup *cg, const struct sbx_limits *lim,
                  struct sbx_result *res);
/* Which hierarchies this process may create run groups in (probe). */
void sbx_cg_probe(bool *v2, bool *v1_memory, bool *v1_pids);
/* Move pid into every group of the run. 0 on success. */
int sbx_cg_attach(const struct sbx_cgroup *cg, pid_t pid);
/* Peak memory in KiB, -1 when unknown. */
int64_t sbx_cg_peak_kb(const struct sbx_cgroup *cg);
/* SIGKILL whatever is still in the groups, then remove them. */
void sbx_cg_destroy(struct sbx_cgroup *cg);
/* SIGKILL every process of the run's group except keep (the run's init).
 * Returns how many were signalled, or -1 when there is no group to read. */
int sbx_cg_kill_except(const struct sbx_cgroup *cg, pid_t keep);

/* Seccomp program (BPF) compiled once per process and per no_net variant. */
struct sbx_bpf {
    void *filter;          /* struct sock_filter[] owned by the cache */
    unsigned short len;
};
/* NULL when seccomp is unavailable (errno set). */
const struct sbx_bpf *sbx_seccomp_get(bool no_net);
/* Load the program into the calling thread (after no_new_privs). */
int sbx_seccomp_apply(const struct sbx_bpf *bpf);

/* Filesystem view inside the new mount namespace (called by the run's init):
 * recursive read-only host, private /tmp and /dev/shm, $CODECALC_HOME and the
 * directory holding other runs masked, workdir writable, fresh /proc.
 * Returns a bit set of SBX_DEGRADED_* for what could not be done. */
unsigned sbx_mounts_setup(const char *workdir, const char *home, bool fresh_proc);

enum {
    SBX_DEGRADED_RDONLY = 1u << 0,   /* host view stays writable */
    SBX_DEGRADED_TMP    = 1u << 1,   /* /tmp is the host's */
    SBX_DEGRADED_MASK   = 1u << 2,   /* state dir / other runs visible */
    SBX_DEGRADED_PROC   = 1u << 3,   /* /proc shows the host */
    SBX_DEGRADED_WORKDIR = 1u << 4,  /* workdir could not be re-bound */
    SBX_DEGRADED_SECCOMP = 1u << 5,  /* the filter was not loaded */
    SBX_DEGRADED_NNP    = 1u << 6,   /* no_new_privs failed */
};

/* State shared (MAP_SHARED page) between sbx_run, the run's init and the
 * program child; written by the children, read by sbx_run after init died. */
struct sbx_shared {
    volatile int stage_err;      /* errno of a failed setup step, 0 if none */
    volatile char stage[48];     /* name of that step */
    volatile unsigned degraded;  /* SBX_DEGRADED_* */
    volatile int exec_errno;     /* execve failed with this errno */
    volatile int started;        /* execve succeeded */
    volatile int have_status;    /* status below is valid */
    volatile int status;         /* wait status of the program */
};

/* Everything the run's init needs; lives in sbx_run's stack (copied by the
 * clone, so the child reads its own copy). */
struct sbx_plan {
    const struct sbx_spec *spec;
    struct sbx_shared *shared;
    const struct sbx_bpf *bpf;   /* NULL: no filter */
    const char *home;            /* $CODECALC_HOME to mask, may be NULL */
    struct { int resource; uint64_t value; } rl[7];
    int n_rl;
    bool drop_uid;               /* setresuid to run_uid */
    uid_t uid;
    gid_t gid;
    bool own_pidns;              /* init is pid 1 of a new namespace */
    bool own_mntns;
    bool own_utsns;
    int go_fd;                   /* read end: sbx_run finished cgroup/uid maps */
};
/* workers/sandbox/clone.c: $CODECALC_HOME (or ~/.codecalc; "" when unknown) into
 * out; init cloned into new namespaces with a pidfd and no exit signal; the
 * caller's uid/gid mapped into init's new user namespace. */
void sbx_codecalc_home(char *out, size_t cap);
pid_t sbx_clone_init(int flags, int *pidfd);
int sbx_map_ids(pid_t pid);
/* Body of the run's init; never returns. */
_Noreturn void sbx_init_main(const struct sbx_plan *plan);
/* The program child: limits, identity, fds, seccomp, execve; never returns. */
_Noreturn void sbx_child_exec(const struct sbx_plan *plan, int errpipe);


/* ======================================================================
 * Long-lived sandboxed processes (workers/sandbox/spawn.c): the REPL hosts.
 * Same walls as sbx_run (namespaces, cgroup, rlimits, seccomp, uid), but
 * the caller gets the process back instead of waiting for it. lim.wall_ms
 * and lim.cpu_s are ignored: a host has no per-process CPU or wall limit
 * (it would be cumulative across calls); the caller kills it per call.
 * Ownership: sbx_spawn fills *p; sbx_proc_reap releases everything in it.
 * ====================================================================== */
struct sbx_proc {
    pid_t pid;                   /* the run's init; the program is its child */
    int pidfd;                   /* readable once init has exited */
    struct sbx_cgroup cg;
    struct sbx_shared *shared;
    int64_t t0;
};
/* Start spec's program. Returns 0 when init was released (the program may
 * still fail to exec: sbx_proc_reap then reports it), -1 with
 * res->spawn_error on failure. res->unenforced names what was not applied;
 * the caller frees res with sbx_result_free. */
int sbx_spawn(const struct sbx_spec *spec, struct sbx_proc *p, struct sbx_result *res);
/* SIGKILL the whole tree (init, then the cgroup). Safe to repeat. */
void sbx_proc_kill(struct sbx_proc *p);
/* Peak memory of the process tree so far, KiB; -1 when unknown. */
int64_t sbx_proc_peak_kb(const struct sbx_proc *p);
/* After init exited (or after sbx_proc_kill): reap it, fill how the program
 * ended into res (exited/exit_code/term_signal/started/spawn_error/cpu_ms/
 * peak_kb/wall_ms; unenforced untouched), remove the cgroup, close fds. */
void sbx_proc_reap(struct sbx_proc *p, struct sbx_result *res);

#endif
