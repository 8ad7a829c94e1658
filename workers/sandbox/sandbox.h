/* The per-run sandbox (DESIGN.md "Sandbox"): a program runs inside fresh
 * namespaces, a per-run cgroup, rlimits, a seccomp filter and a scrubbed
 * environment; the whole tree is killed when it ends, and each protection
 * this host could not apply is named in the result's unenforced list, never
 * silently dropped.
 *
 * A sandbox is a "box": prepared first (run directory view, namespaces,
 * cgroup, the run's init and the program's own process waiting), then given
 * one program, then destroyed.
 * sbx_run() does the three in a row; the exec worker prepares its next box
 * ahead of the request (workers/exec/warm.c) so only the program's own
 * start is on the request path. Every box serves exactly one program.
 *
 * Ownership: the caller owns everything in sbx_spec; results own their
 * strings and buffers (sbx_result_free).
 */
#ifndef CC_SANDBOX_H
#define CC_SANDBOX_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* RLIMIT_FSIZE when the caller names none: the ceiling on files the program
 * writes itself (its output streams are pipes and have no such limit). */
#define SBX_FSIZE_DEFAULT (256ULL << 20)
/* The box's private /tmp and /dev/shm (workers/sandbox/mounts.c). */
#define SBX_TMP_MB 256
#define SBX_TMP_INODES 32768
#define SBX_SHM_MB 64
#define SBX_SHM_INODES 4096
/* Pseudo-terminals a run may hold at once, in a devpts instance of its own
 * (devfs.c): the host's pool (kernel.pty.max) is shared by the host. */
#define SBX_PTY_MAX 64
/* RLIMIT_MSGQUEUE of a run: the kernel's default (800 KiB, about 9 queues
 * of default size), whatever the server's own (workers/sandbox/plan.c). */
#define SBX_MSGQUEUE_BYTES 819200
/* Output drained from the program beyond what is kept: past this many bytes
 * (both streams together) the sandbox kills it (docs/security.md). */
#define SBX_DRAIN_DEFAULT (64ULL << 20)

struct sbx_limits {
    int64_t wall_ms;        /* wall clock; > 0 for sbx_run, ignored by sbx_spawn */
    int64_t cpu_s;          /* RLIMIT_CPU seconds; 0 = none (long-lived hosts) */
    uint64_t mem_bytes;     /* memory ceiling: the run's memory cgroup (memory +
                             * swap); RLIMIT_AS only where no memory cgroup
                             * exists. 0 = none requested */
    uint64_t as_extra_bytes; /* where RLIMIT_AS holds mem_bytes: address space granted
                             * past it to a runtime that reserves space it never
                             * touches and bounds its own heap (node: V8's code
                             * range; the heap is held by --max-old-space-size) */
    bool data_ceiling;      /* where no memory cgroup: RLIMIT_DATA holds mem_bytes
                             * (private writable memory, what such a runtime
                             * really uses) and RLIMIT_AS mem_bytes +
                             * as_extra_bytes (its reservations, and a bound on
                             * shared memory); java and go */
    uint64_t fsize_bytes;   /* RLIMIT_FSIZE for the program's own files; 0 = default */
    uint64_t nofile;        /* RLIMIT_NOFILE; 0 = 256 */
    uint64_t pids_max;      /* pids cgroup ceiling (and rlimit floor) */
    bool no_net;            /* seccomp refuses AF_INET/AF_INET6 sockets */
    uint64_t disk_floor_bytes; /* workdir on the host's disk: the run is killed
                             * (SBX_KILL_DISK) once that filesystem has less
                             * free space than this (or fewer free inodes than
                             * one per 64 KiB of it) and less than when the
                             * run started; 0 = no watch */
};

/* Called every tick_ms while the program runs (streaming, cancellation).
 * Return non-zero to kill the run now (it is then reported as cancelled). */
typedef int (*sbx_tick_fn)(void *ud);

/* Capture of stdout/stderr through pipes the sandbox drains: the program
 * never sees a write error because of the cap; bytes past `keep` are read
 * and counted, not stored. */
struct sbx_capture {
    uint64_t keep;          /* bytes of each stream kept in the result */
    uint64_t drain_max;     /* kill past this many bytes in all; 0 = SBX_DRAIN_DEFAULT */
    /* Called with each chunk as it arrives (stream 1 or 2); may be NULL. */
    void (*on_output)(void *ud, int stream, const char *data, size_t len);
    void *ud;
};

struct sbx_spec {
    const char *const *argv;  /* argv[0] is an absolute path (resolved by caller) */
    const char *const *envp;  /* the complete environment of the program */
    const char *workdir;      /* cwd; the only writable host directory */
    int stdin_fd;             /* program's fd 0; -1 = /dev/null */
    int stdout_fd;            /* program's fd 1 when capture is NULL; -1 = /dev/null */
    int stderr_fd;            /* program's fd 2 when capture is NULL; -1 = /dev/null */
    int exec_fd;              /* > 0: execute this file (execveat) instead of argv[0]'s
                               * path; 0 or -1 = none (fd 0 is never a program here) */
    const struct sbx_capture *capture; /* NULL: the fds above are used as given */
    struct sbx_limits lim;
    sbx_tick_fn tick;         /* may be NULL */
    void *tick_ud;
    int tick_ms;              /* default 250 when 0 */
};

/* Who ended the program when the sandbox did. */
enum sbx_kill {
    SBX_KILL_NONE = 0,
    SBX_KILL_TIMEOUT,       /* the wall clock */
    SBX_KILL_CANCEL,        /* tick() asked */
    SBX_KILL_MEMORY,        /* the memory cgroup's OOM killer */
    SBX_KILL_OUTPUT,        /* more than drain_max bytes of output */
    SBX_KILL_DISK,          /* the host disk under workdir fell below lim.disk_floor_bytes */
};

struct sbx_stream {
    char *data;              /* first min(total, keep) bytes (owned), NUL-terminated */
    size_t len;
    uint64_t total;          /* every byte the program wrote to the stream */
};

/* Where the request-path time went, in microseconds (for make bench). */
struct sbx_timing {
    int64_t start_us;        /* program handed over until the waiting program
                              * process took it */
    int64_t exec_us;         /* ... until it called execve (limits, identity,
                              * fds, seccomp applied) */
    int64_t wait_us;         /* execve until init reported the tree gone */
    int64_t collect_us;      /* draining the pipes, reading the cgroup */
};

/* Writable places found (nearly) out of space or inodes when the run
 * ended: the program got ENOSPC there (sbx_result.space_full). */
enum {
    SBX_FULL_WORKDIR = 1u << 0,
    SBX_FULL_TMP     = 1u << 1,
    SBX_FULL_SHM     = 1u << 2,
};

struct sbx_result {
    bool started;            /* the program was exec'd (false: spawn failure) */
    char *spawn_error;       /* why it could not start (NULL when started) */
    int spawn_errno;         /* the errno behind spawn_error (0 when started) */
    int exit_code;           /* valid when exited */
    bool exited;             /* exited normally */
    int term_signal;         /* signal that killed it, 0 if none */
    bool timed_out;          /* killed by the wall clock */
    bool cancelled;          /* killed because tick() asked */
    enum sbx_kill killed_by; /* the sandbox's own kill, if any */
    int64_t wall_ms;
    int64_t cpu_ms;          /* user+sys of the whole tree */
    int64_t peak_kb;         /* peak memory of the run: the memory cgroup's, else
                              * the largest process's peak RSS (no cgroup: the
                              * RLIMIT_AS ceiling is per process too); -1 when
                              * not measured */
    int64_t oom_kills;       /* OOM kills in the run's memory cgroup; -1 = unknown */
    bool mem_enforced;       /* the memory ceiling is the cgroup's (not RLIMIT_AS) */
    struct sbx_stream out, err; /* with spec.capture */
    struct sbx_timing timing;
    unsigned space_full;     /* SBX_FULL_*: places out of space or inodes at the end */
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

/* A host directory every box shows read-only at a path of its private /tmp
 * (the per-run dependency environments, which live under the masked
 * $CODECALC_HOME and so could not be seen at their own path; /tmp is the one
 * place every program can reach whatever the modes of the directories above
 * the state directory). Process-wide, set before boxes are prepared; the
 * strings are copied. NULL dir: none. A box where it cannot be shown
 * read-only does not show it at all. */
void sbx_share_readonly(const char *dir, const char *at);

/* Run one step. Returns 0 when the result is filled (whatever the program
 * did), -1 on an executor failure (result.spawn_error says why). */
int sbx_run(const struct sbx_spec *spec, struct sbx_result *res);
void sbx_result_free(struct sbx_result *res);

/* Programs run as this uid/gid when the worker is root (a dedicated id that
 * owns nothing on the host except the run directory). */
#define SBX_RUN_UID 64999
#define SBX_RUN_GID 64999
/* A root server's program makes a user namespace of its own, owned by this
 * plus the host pid of its box's init (workers/sandbox/userns.c): the
 * kernel's per-uid pools are then per run. pid_max is at most 2^22, so the
 * owners stay below 0x7f400000; nothing runs as them and they own no file. */
#define SBX_OWNER_UID_BASE 0x7f000000u
/* ... and, for a server in a pid namespace of its own, this plus the low 30
 * bits of init's pidfs inode (owner.c): 0x80000000..0xbfffffff. */
#define SBX_OWNER_UID_PIDFS_BASE 0x80000000u
/* The owner for a box whose init is init_pid (pidfd: its pidfd); host_unique
 * says whether no other live box on the host can have it. */
uint32_t sbx_owner_uid(pid_t init_pid, int pidfd, bool *host_unique);

/* ======================================================================
 * Boxes: one sandbox, prepared ahead of its program (workers/sandbox/box.c).
 * ====================================================================== */

/* Per-run cgroup (v2, or v1 memory + pids). Paths are empty when unused. */
struct sbx_cgroup {
    char mem_dir[512];     /* v1 memory group, or the v2 group */
    char pids_dir[512];    /* v1 pids group; empty for v2 */
    bool v2;
    bool mem_limited;      /* a memory ceiling is in force */
    bool pids_limited;     /* a pids ceiling is in force */
    bool mem_joined;       /* the run's init was placed in the memory group */
    bool pids_joined;      /* ... and in the pids group (v2: the one group) */
    bool peak_ok;          /* peak memory can be read */
};

struct sbx_shared;

struct sbx_box {
    pid_t pid;                   /* the run's init; 0 = no box */
    int pidfd;                   /* readable once init has exited */
    int sock;                    /* our end of init's control socket */
    struct sbx_cgroup cg;
    struct sbx_shared *shared;   /* MAP_SHARED with init */
    char workdir[PATH_MAX];
    bool own_pidns, own_netns;
    bool userns;                 /* init has its own user namespace */
    bool given;                  /* a program was handed over */
    bool done;                   /* init reported the end (or died) */
    bool reaped;
    int64_t t_given_us;          /* when the program was handed over */
    /* What preparing could not apply; copied into the run's result. */
    char **notes;
    size_t n_notes;
};

/* Prepare a box whose program will run in workdir: cgroup created, init
 * cloned into fresh namespaces and moved into the cgroup, the filesystem
 * view built (by init, concurrently with the caller). no_net adds a network
 * namespace now; a box prepared without one gets it at sbx_box_run time.
 * Returns 0, or -1 with *why (malloc'd) set; the box is then empty. */
int sbx_box_prepare(struct sbx_box *b, const char *workdir, bool no_net, char **why);
/* Hand spec's program to the prepared box, wait for it (wall clock, ticks,
 * capture when spec.capture is set) and fill res. The box is spent afterwards: destroy it, now or
 * later (its init has ended or is ending). Returns as sbx_run. */
int sbx_box_run(struct sbx_box *b, const struct sbx_spec *spec, struct sbx_result *res);
/* Hand the program over and return at once (long-lived hosts). Returns 0,
 * or -1 with res->spawn_error. */
int sbx_box_start(struct sbx_box *b, const struct sbx_spec *spec, struct sbx_result *res);
/* The hand-over itself (stdio[1..2] replace the spec's fds): ceilings
 * written, program laid out, fds sent. Used by sbx_box_run/start. */
int sbx_box_hand_over(struct sbx_box *b, const struct sbx_spec *spec, const int stdio[3],
                      struct sbx_result *res);
/* SIGKILL init (its pid namespace dies with it). Safe to repeat. */
void sbx_box_kill(struct sbx_box *b);
/* Kill and reap init, remove the cgroup, close and unmap everything. Safe
 * on an empty box and after sbx_box_run. */
void sbx_box_destroy(struct sbx_box *b);

/* ======================================================================
 * Long-lived sandboxed processes (workers/sandbox/spawn.c): the REPL hosts.
 * Same walls as sbx_run, but the caller gets the process back instead of
 * waiting for it. lim.wall_ms and lim.cpu_s are ignored: a host has no
 * per-process CPU or wall limit (it would be cumulative across calls); the
 * caller kills it per call.
 * Ownership: sbx_spawn fills *p; sbx_proc_reap releases everything in it.
 * ====================================================================== */
struct sbx_proc {
    struct sbx_box box;
    int pidfd;                   /* = box.pidfd: readable once init has exited */
    struct sbx_shared *shared;   /* = box.shared */
    int64_t t0;
};
/* Start spec's program (spec.capture must be NULL). Returns 0 when init was
 * released (the program may still fail to exec: sbx_proc_reap then reports
 * it), -1 with res->spawn_error on failure. res->unenforced names what was
 * not applied; the caller frees res with sbx_result_free. */
int sbx_spawn(const struct sbx_spec *spec, struct sbx_proc *p, struct sbx_result *res);
/* SIGKILL the whole tree (init, then the cgroup). Safe to repeat. */
void sbx_proc_kill(struct sbx_proc *p);
/* Peak memory of the process tree so far, KiB; -1 when unknown. */
int64_t sbx_proc_peak_kb(const struct sbx_proc *p);
/* After init exited (or after sbx_proc_kill): reap it, fill how the program
 * ended into res (exited/exit_code/term_signal/started/spawn_error/cpu_ms/
 * peak_kb/wall_ms; unenforced untouched), remove the cgroup, close fds. */
void sbx_proc_reap(struct sbx_proc *p, struct sbx_result *res);

/* ======================================================================
 * Internal to workers/sandbox/ (not for callers of sbx_run).
 * ====================================================================== */

/* Growable "name: why" list behind sbx_result.unenforced. */
int sbx_unenforced_add(struct sbx_result *res, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* Append every string of list (n entries) to res->unenforced. */
void sbx_unenforced_copy(struct sbx_result *res, char *const *list, size_t n);
/* res->spawn_error = "what: strerror(err)"; res->started = false; returns -1. */
int sbx_fail(struct sbx_result *res, const char *what, int err);

/* Create the groups (no limits yet; what could not be made is added to
 * res->unenforced). Returns 0 (even when degraded). */
int sbx_cg_create(struct sbx_cgroup *cg, struct sbx_result *res);
/* Apply the run's memory and pids ceilings; failures go to res->unenforced
 * and leave mem_limited/pids_limited false. */
void sbx_cg_limit(struct sbx_cgroup *cg, const struct sbx_limits *lim, struct sbx_result *res);
/* Which hierarchies this process may create run groups in (probe). */
void sbx_cg_probe(bool *v2, bool *v1_memory, bool *v1_pids);
/* Move pid into every group of the run and record which it joined (a
 * ceiling is in force only in a group the run is in). 0 on success. */
int sbx_cg_attach(struct sbx_cgroup *cg, pid_t pid);
/* Peak memory in KiB, -1 when unknown. */
int64_t sbx_cg_peak_kb(const struct sbx_cgroup *cg);
/* Forget the peak so far (v1 max_usage reset; a no-op where unsupported). */
void sbx_cg_reset_peak(const struct sbx_cgroup *cg);
/* Processes the memory cgroup's OOM killer ended; -1 when unknown. */
int64_t sbx_cg_oom_kills(const struct sbx_cgroup *cg);
/* SIGKILL whatever is still in the groups, then remove them. */
void sbx_cg_destroy(struct sbx_cgroup *cg);
/* The same for one group directory (what a dead worker left). */
void sbx_cg_remove_dir(const char *dir, bool v2);
/* SIGKILL every process of the run's group except keep (the run's init).
 * Returns how many were signalled, or -1 when there is no group to read. */
int sbx_cg_kill_except(const struct sbx_cgroup *cg, pid_t keep);
/* The directories run groups are made in (v1 memory, v1 pids, v2); empty
 * strings where unused. For sweeping what a dead worker left. */
void sbx_cg_bases(char *v1mem, char *v1pids, char *v2, size_t cap);

/* Our own path in the hierarchy carrying controller ("" = the v2 line). */
int sbx_own_cgroup_path(const char *controller, char *out, size_t cap);
/* cgroup v2 interface files of one run group (cgroup_v2.c), split out so a
 * fake cgroupfs tree can exercise them. */
int sbx_cg2_base(char *out, size_t cap);
int sbx_cg2_limit(const char *dir, uint64_t mem_bytes, uint64_t pids_max, bool *mem_ok,
                  bool *pids_ok);
int64_t sbx_cg2_oom_kills(const char *dir);
int64_t sbx_cg2_peak_kb(const char *dir);

/* Small file helpers shared by the cgroup code. */
ssize_t sbx_read_small(const char *path, char *buf, size_t cap);
int sbx_write_file(const char *dir, const char *name, const char *val);
/* The integer after "key " on its own line of a flat-keyed file; -1. */
int64_t sbx_keyed_value(const char *path, const char *key);
/* The decimal number a file starts with; -1 when unreadable. */
int64_t sbx_read_number(const char *path);

/* Seccomp program (BPF) compiled once per process and per no_net variant. */
struct sbx_bpf {
    void *filter;          /* struct sock_filter[] owned by the cache */
    unsigned short len;
};
/* NULL when seccomp is unavailable (errno set). */
const struct sbx_bpf *sbx_seccomp_get(bool no_net);
/* The same for a program whose workdir is on the host's disk under the
 * free-space watch (lim.disk_floor_bytes): fallocate fails EOPNOTSUPP. */
const struct sbx_bpf *sbx_seccomp_get_for(bool no_net, bool watched_disk);
/* Load the program into the calling thread (after no_new_privs). */
int sbx_seccomp_apply(const struct sbx_bpf *bpf);

/* Filesystem view inside the new mount namespace (called by the run's init):
 * recursive read-only host, private /tmp and /dev/shm, $CODECALC_HOME and the
 * directory holding other runs masked, workdir writable, fresh /proc.
 * Returns a bit set of SBX_DEGRADED_* for what could not be done. */
/* The run's /dev: a tmpfs with the nodes a program needs and a devpts
 * instance of its own (devfs.c). Returns SBX_DEGRADED_DEV / _PTY bits. */
unsigned sbx_dev_setup(void);
unsigned sbx_mounts_setup(const char *workdir, const char *home, bool fresh_proc,
                          const char *share_dir, const char *share_at, bool watch_queues);

enum {
    SBX_DEGRADED_RDONLY = 1u << 0,   /* host view stays writable */
    SBX_DEGRADED_TMP    = 1u << 1,   /* /tmp is the host's */
    SBX_DEGRADED_MASK   = 1u << 2,   /* state dir / other runs visible */
    SBX_DEGRADED_PROC   = 1u << 3,   /* /proc shows the host */
    SBX_DEGRADED_WORKDIR = 1u << 4,  /* workdir could not be re-bound */
    SBX_DEGRADED_SECCOMP = 1u << 5,  /* the filter was not loaded */
    SBX_DEGRADED_NNP    = 1u << 6,   /* no_new_privs failed */
    SBX_DEGRADED_NET    = 1u << 7,   /* the late network namespace failed */
    SBX_DEGRADED_SCOPE  = 1u << 8,   /* no Landlock scope (abstract sockets, signals) */
    SBX_DEGRADED_UIDPOOL = 1u << 9,  /* no user namespace of the run's own: the
                                      * per-uid pools are shared (userns.c) */
    SBX_DEGRADED_PTY    = 1u << 10,  /* ptys come from the host's devpts pool */
    SBX_DEGRADED_DEV    = 1u << 12,  /* the host's /dev, not the run's own (devfs.c) */
    SBX_DEGRADED_OWNER  = 1u << 11,  /* the owner uid is unique only in our pid
                                      * namespace (owner.c) */
};

/* One-shot run directories as bounded tmpfs mounts (scratch.c). The
 * bound (bytes, files): CODECALC_RUN_DISK_MB and CODECALC_RUN_INODES
 * (protocol/knob.c: 512 MiB, 32768 files); mount one on dir (the calling
 * process first moves into a mount namespace of its own, slave to the
 * host's; root only). 0, or -1 with errno and why (cap bytes) set. */
uint64_t sbx_scratch_bytes(void);
uint64_t sbx_scratch_inodes(void);
int sbx_scratch_mount(const char *dir, char *why, size_t cap);
int sbx_scratch_umount(const char *dir);

/* Landlock (workers/sandbox/landlock.c): the ABI version, 0 without it;
 * scope the caller (after no_new_privs) so it cannot connect to an abstract
 * unix socket, nor signal a process, from outside its domain. 0, or -1 with
 * errno (ENOSYS below ABI 6). */
int sbx_landlock_abi(void);
int sbx_landlock_scope(void);

/* The program as the box receives it: written by sbx_box_run into the
 * shared region (pointers into the region are valid in init and the
 * program's process, which inherited the mapping at the same address),
 * then announced with one packet carrying the fds. */
#define SBX_MAX_RLIMITS 10
#define SBX_ARENA_BYTES (1u << 20)
struct sbx_program {
    const char *const *argv;
    const char *const *envp;
    struct { int resource; uint64_t value; } rl[SBX_MAX_RLIMITS];
    int n_rl;
    struct sbx_bpf bpf;          /* filter == NULL: none; copied into the arena,
                                  * as init may predate the compiled filter */
    bool want_netns;             /* the program's process unshares a network
                                  * namespace first */
    bool host_netns;             /* no network namespace of its own is planned:
                                  * the host's abstract sockets are in reach */
    bool has_exec_fd;
    bool drop_uid;               /* setresuid to uid/gid */
    uid_t uid;
    gid_t gid;
};

/* State shared (MAP_SHARED) between the worker, the run's init and the
 * program child. The children write the outcome; the worker reads it after
 * init reported the end (or died). */
struct sbx_shared {
    volatile int stage_err;      /* errno of a failed setup step, 0 if none */
    volatile char stage[48];     /* name of that step */
    volatile unsigned degraded;  /* SBX_DEGRADED_* */
    volatile int exec_errno;     /* the program could not be started (errno of
                                  * execve or of a step before it) */
    volatile int started;        /* execve was called (and did not fail) */
    volatile int have_status;    /* status below is valid */
    volatile int status;         /* wait status of the program */
    volatile int have_usage;     /* cpu_us below is the whole tree's */
    volatile int64_t cpu_us;     /* init's RUSAGE_CHILDREN after the last reap */
    volatile int64_t maxrss_kb;  /* ... its ru_maxrss: the largest process's peak RSS */
    volatile int64_t t_ready_us;  /* the view is built, the program's process waits */
    volatile int64_t t_forked_us; /* the program's process took its program */
    volatile int64_t t_exec_us;   /* ... and called execve */
    volatile int64_t t_end_us;    /* init reported the end */
    volatile unsigned space_full; /* SBX_FULL_*, seen by init after the tree ended */
    volatile uint32_t owner_uid;  /* root servers: the owner of the program's user
                                   * namespace (set before "G"); 0 = none */
    struct sbx_program prog;     /* written by the worker before handing over */
    size_t arena_used;
    char arena[];                /* argv/envp strings and vectors */
};

/* How a box's init is set up (filled at prepare, copied by the clone). */
struct sbx_init_cfg {
    struct sbx_shared *shared;
    int sock;                    /* init's end of the control socket */
    const char *workdir;
    const char *home;            /* $CODECALC_HOME to mask, may be NULL */
    const char *share_dir;       /* sbx_share_readonly's directory, may be NULL */
    const char *share_at;        /* where the box shows it */
    bool own_pidns, own_mntns, own_utsns, own_ipcns;
    bool own_userns;             /* init is in a user namespace of its own */
};

/* The planner (workers/sandbox/plan.c): everything decided from the probe
 * and the limits, for one-shot runs and long-lived hosts alike. */
int sbx_plan_namespaces(const struct sbx_caps *c, bool no_net, struct sbx_init_cfg *cfg,
                        struct sbx_result *notes);
/* Rlimits, identity and seccomp of the program; mem_cgroup says whether the
 * memory ceiling is already the cgroup's (then no RLIMIT_AS). */
void sbx_plan_program(struct sbx_program *p, const struct sbx_limits *lim, bool pids_cgroup,
                      bool mem_cgroup, struct sbx_result *res);

/* The directory of sbx_share_readonly and where boxes show it (NULLs when
 * none); static storage, valid in init after the clone. */
void sbx_shared_view(const char **dir, const char **at);

/* workers/sandbox/ipc_bound.c: in init, once in the run's own IPC
 * namespace: write its SysV limits (shm as /dev/shm's, a few MiB of
 * message queues and semaphores). false when one could not be written
 * (a non-root server's init is not uid 0 of its user namespace, which the
 * kernel asks of the writer: the memory_cgroup disclosure covers it). */
bool sbx_ipc_bound(void);

/* workers/sandbox/ipc_release.c: in init, once every process of the run is
 * gone: unlink the POSIX message queues of the run's IPC namespace, so
 * their bytes return to the uid now rather than when the kernel frees the
 * namespace. The number unlinked, or -1 when they could not be listed.
 * After sbx_ipc_watch, a namespace where no queue was made is known empty
 * by one fstat, without listing it. */
int sbx_ipc_release(void);
/* In init, in its own mount and IPC namespaces, before under is covered by
 * another mount: mount this namespace's queue filesystem on under and keep
 * its root open for sbx_ipc_release. false when it could not (then
 * sbx_ipc_release lists through a detached mount of its own). */
bool sbx_ipc_watch(const char *under);
/* Undo sbx_ipc_watch (the cover over under could not be made). */
void sbx_ipc_unwatch(const char *under);
/* Times sbx_ipc_release listed the queues, in this process (tests). */
unsigned sbx_ipc_listings(void);

/* workers/sandbox/clone.c: $CODECALC_HOME (or ~/.codecalc; "" when unknown)
 * into out; init cloned into new namespaces with a pidfd and no exit
 * signal; the caller's uid/gid mapped into init's new user namespace. */
void sbx_codecalc_home(char *out, size_t cap);
pid_t sbx_clone_init(int flags, int *pidfd);
int sbx_map_ids(pid_t pid);
/* Body of the run's init; never returns. */
_Noreturn void sbx_init_main(const struct sbx_init_cfg *cfg);
/* The program's process, forked by init when the box is ready: waits for
 * "P" and its fds (stdio, -1 = /dev/null; the file to execute or -1), then
 * limits, identity, fds, seccomp, execve; never returns. init_pid is its
 * parent as it sees it; oom_adj the score to give the program back. */
_Noreturn void sbx_program_main(const struct sbx_init_cfg *cfg, pid_t init_pid,
                                const char *oom_adj, int uchan);

/* workers/sandbox/userns.c. In the program's process (root, in its work
 * directory): make a user namespace owned by owner and wait on chan until
 * init has mapped the run's uid and gid in it. 0 done; 1 none could be made
 * (nothing changed; the pools stay shared); -1 with errno: fatal. */
int sbx_userns_enter(int chan, uid_t owner);
/* In init: answer the child on chan, writing its maps (uid and gid to
 * themselves). 0 mapped, 1 the child fell back, -1 failed. */
int sbx_userns_map(int chan, pid_t child, uid_t uid, gid_t gid);
/* In init of a box whose user namespace is the server's uid's (a non-root
 * server): the uid's inotify pools are shared by every run and the server,
 * so this namespace gets at most 1/SBX_POOL_SHARE of each: one run alone
 * cannot leave the others none. false when one could not be written. */
#define SBX_POOL_SHARE 4
bool sbx_userns_bound_pools(void);

/* started/exited/exit_code/term_signal from the shared page; init_status
 * (init's own wait status) when init died before the program's status. */
void sbx_fill_status(struct sbx_result *res, const struct sbx_shared *sh, int init_status);

/* Control packets on a box's socket: "G" to init, "P" to the waiting
 * program process, "D" from init. */
enum { SBX_MSG_GO = 'G', SBX_MSG_PROGRAM = 'P', SBX_MSG_DONE = 'D' };

#endif
