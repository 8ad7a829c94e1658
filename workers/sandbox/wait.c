/* sbx_box_run(): hand the program to a prepared box, then wait for it while
 * draining its output pipes (with spec.capture; else its stdio is the
 * caller's fds), enforcing the wall clock and the output drain
 * ceiling, and calling tick(); finally collect how it ended.
 *
 * The end is init's "D" packet: by then init has reaped the program, killed
 * and reaped everything else in the namespace and recorded the tree's CPU
 * time, so nothing of the run is left and we need not wait for init's own
 * exit (the namespace teardown), which happens off the request path. */
#include "workers/sandbox/sandbox.h"
#include "protocol/host_floor.h"
#include "protocol/monotonic.h"
#include "protocol/proc_stat.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

/* How long a killed tree gets to be reaped by init before init is killed. */
#define GRACE_MS 200

struct waiter {
    struct sbx_box *b;
    const struct sbx_spec *spec;
    struct sbx_result *res;
    int pipe[2];                 /* read ends of stdout/stderr, -1 when closed */
    uint64_t keep, drain_max;
    int64_t kill_at_ms;          /* after our kill: init's grace deadline, 0 = none */
    bool init_died;              /* the socket closed without "D" */
    struct cc_disk_free disk0;   /* free bytes/inodes under workdir at the start */
};

/* How often a workdir on the host's disk is looked at (statvfs). */
#define DISK_WATCH_MS 50

static int64_t now_ms(void) { return cc_now_us() / 1000; }

static bool spec_valid(const struct sbx_spec *s) {
    return s && s->argv && s->argv[0] && s->argv[0][0] == '/' && s->envp && s->workdir &&
           s->workdir[0] == '/' && strlen(s->workdir) < PATH_MAX && s->lim.wall_ms > 0 &&
           s->lim.cpu_s > 0;
}

/* Without a cgroup (a non-root server): SIGKILL init's children, the
 * program's process among them; init then sees the program end, kills the
 * rest of its namespace and reports the tree's CPU time, which killing init
 * itself loses. Each child is signalled through a pidfd taken while it is
 * still init's child, so a recycled pid is never hit. How many were
 * signalled, or -1 when the list cannot be read. */
static int kill_children_of(pid_t init) {
    char path[64], list[4096];
    snprintf(path, sizeof path, "/proc/%ld/task/%ld/children", (long)init, (long)init);
    if (sbx_read_small(path, list, sizeof list) < 0)
        return -1;
    int n = 0;
    for (char *p = list, *end;; p = end) {
        long pid = strtol(p, &end, 10);
        if (end == p || pid <= 0)
            break;
        int fd = (int)syscall(SYS_pidfd_open, (pid_t)pid, 0);
        unsigned long long ppid = 0;
        if (fd >= 0 && cc_proc_stat((pid_t)pid, NULL, 4, 1, &ppid) == 0 && ppid == (unsigned long long)init &&
            syscall(SYS_pidfd_send_signal, fd, SIGKILL, NULL, 0) == 0)
            n++;
        if (fd >= 0)
            close(fd);
    }
    return n;
}

/* Kill the program's processes through the cgroup (or as init's children);
 * init reaps them and reports. When neither works, init itself goes (and
 * the namespace); the grace deadline covers an init that does not report. */
static void stop_tree(struct waiter *w, enum sbx_kill why) {
    if (w->res->killed_by == SBX_KILL_NONE)
        w->res->killed_by = why;
    if (w->kill_at_ms)
        return;
    if (sbx_cg_kill_except(&w->b->cg, w->b->pid) < 0 && kill_children_of(w->b->pid) <= 0)
        sbx_box_kill(w->b);
    w->kill_at_ms = now_ms() + GRACE_MS;
}

static void keep_bytes(struct sbx_stream *s, uint64_t keep, const char *buf, size_t n) {
    if (s->len < keep) {
        size_t take = keep - s->len < n ? (size_t)(keep - s->len) : n;
        if (!s->data)
            s->data = malloc(keep + 1);
        if (s->data) {
            memcpy(s->data + s->len, buf, take);
            s->len += take;
            s->data[s->len] = '\0';
        }
    }
    s->total += n;
}

/* Read what one pipe holds now; closes it at EOF. */
static void drain_pipe(struct waiter *w, int i) {
    static char buf[65536];
    struct sbx_stream *s = i == 0 ? &w->res->out : &w->res->err;
    for (;;) {
        ssize_t n = read(w->pipe[i], buf, sizeof buf);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0)
            return; /* EAGAIN: nothing more now */
        if (n == 0) {
            close(w->pipe[i]);
            w->pipe[i] = -1;
            return;
        }
        keep_bytes(s, w->keep, buf, (size_t)n);
        const struct sbx_capture *cap = w->spec->capture;
        if (cap->on_output)
            cap->on_output(cap->ud, i + 1, buf, (size_t)n);
        if (w->res->out.total + w->res->err.total > w->drain_max)
            stop_tree(w, SBX_KILL_OUTPUT);
    }
}

static void read_socket(struct waiter *w) {
    char c;
    ssize_t r = recv(w->b->sock, &c, 1, MSG_DONTWAIT);
    if (r < 0 && (errno == EAGAIN || errno == EINTR))
        return;
    w->b->done = true;
    w->init_died = !(r == 1 && c == SBX_MSG_DONE);
}

/* A workdir on the host's disk has no bound of its own: the run is ended
 * before it takes the disk the server's state lives on below the floor.
 * Only a fall during this run counts (a host already below the floor is
 * the quota checks' to refuse, not a reason to kill every run). */
static void watch_disk(struct waiter *w) {
    uint64_t floor = w->spec->lim.disk_floor_bytes;
    struct cc_disk_free now;
    if (!floor || w->kill_at_ms || !cc_disk_free_path(w->spec->workdir, &now)) return;
    if (cc_disk_fell_below(&now, &w->disk0, floor))
        stop_tree(w, SBX_KILL_DISK);
}

static void wait_loop(struct waiter *w) {
    const struct sbx_spec *spec = w->spec;
    int tick_ms = spec->tick_ms > 0 ? spec->tick_ms : 250;
    /* The disk watch has a pace of its own: a disk fills at hundreds of
     * MiB a second. */
    bool watch = spec->lim.disk_floor_bytes &&
                 cc_disk_free_path(spec->workdir, &w->disk0);
    int64_t next_disk = watch ? now_ms() + DISK_WATCH_MS : INT64_MAX;
    int64_t deadline = w->b->t_given_us / 1000 + spec->lim.wall_ms;
    int64_t next_tick = now_ms() + tick_ms;
    while (!w->b->done) {
        int64_t now = now_ms();
        if (!w->kill_at_ms && now >= deadline) {
            w->res->timed_out = true;
            stop_tree(w, SBX_KILL_TIMEOUT);
        }
        if (w->kill_at_ms && now >= w->kill_at_ms)
            sbx_box_kill(w->b); /* the socket closes when init is gone */
        int64_t until = w->kill_at_ms ? w->kill_at_ms : deadline < next_tick ? deadline : next_tick;
        if (!w->kill_at_ms && next_disk < until) until = next_disk;
        int64_t wait = until - now;
        struct pollfd pfd[3] = {{.fd = w->b->sock, .events = POLLIN},
                                {.fd = w->pipe[0], .events = POLLIN},
                                {.fd = w->pipe[1], .events = POLLIN}};
        int r = poll(pfd, 3, wait < 0 ? 0 : wait > INT_MAX ? INT_MAX : (int)wait);
        if (r < 0 && errno != EINTR) {
            stop_tree(w, SBX_KILL_CANCEL);
            sbx_box_kill(w->b);
            w->b->done = w->init_died = true;
            break;
        }
        for (int i = 0; i < 2; i++)
            if (r > 0 && w->pipe[i] >= 0 && (pfd[i + 1].revents & (POLLIN | POLLHUP | POLLERR)))
                drain_pipe(w, i);
        if (r > 0 && (pfd[0].revents & (POLLIN | POLLHUP | POLLERR)))
            read_socket(w);
        if (now_ms() >= next_disk) {
            next_disk = now_ms() + DISK_WATCH_MS;
            watch_disk(w);
        }
        if (now_ms() >= next_tick) {
            next_tick = now_ms() + tick_ms;
            if (spec->tick && !w->kill_at_ms && spec->tick(spec->tick_ud)) {
                w->res->cancelled = true;
                stop_tree(w, SBX_KILL_CANCEL);
            }
        }
    }
}

static void report_degraded(struct sbx_result *res, unsigned d, bool no_net, bool host_netns) {
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
    if (d & SBX_DEGRADED_NET)
        sbx_unenforced_add(res, "network_namespace: the run shares the host's network "
                                "namespace (seccomp still refuses IPv4/IPv6 sockets)");
    /* no_net in the host's network namespace: only Landlock's scope keeps
     * the host's abstract unix sockets out of reach. */
    if (no_net && (d & SBX_DEGRADED_SCOPE) && (host_netns || (d & SBX_DEGRADED_NET)))
        sbx_unenforced_add(res, "abstract_unix_sockets: no network namespace and no Landlock "
                                "scope (Linux 6.12+); the program can connect to abstract unix "
                                "sockets of host services");
    /* workers/sandbox/userns.c: a non-root server's box is in a user
     * namespace owned by the server's uid, whose pools it charges. */
    if (d & SBX_DEGRADED_UIDPOOL)
        sbx_unenforced_add(res, "per_uid_pools: no user namespace owned by this run alone; "
                                "inotify instances and watches, POSIX message queue bytes, "
                                "pending signals and locked shared memory are counted per uid, "
                                "shared with every other run of the uid (and the server when it "
                                "runs as that uid)");
    if ((d & SBX_DEGRADED_OWNER) && !(d & SBX_DEGRADED_UIDPOOL))
        sbx_unenforced_add(res, "per_uid_pools: the server is in a pid namespace of its own and "
                                "the kernel has no pidfs (Linux 6.9+); the run's user namespace "
                                "owner is unique among this server's runs only, and a run of "
                                "another server on the host may share its inotify, message queue "
                                "and signal pools");
    if (d & SBX_DEGRADED_DEV)
        sbx_unenforced_add(res, "private_dev: the run sees the host's /dev; every device node "
                                "the host grants to everybody is the run's too");
    if (d & SBX_DEGRADED_PTY)
        sbx_unenforced_add(res, "pty_pool: no devpts instance of the run's own; its "
                                "pseudo-terminals come from the host's pool (kernel.pty.max), "
                                "shared with every process of the host");
    if (d & SBX_DEGRADED_SECCOMP) {
        sbx_unenforced_add(res, "seccomp: the filter could not be loaded");
        if (no_net)
            sbx_unenforced_add(res, "no_net_requested_but_no_shim_available");
    }
}

static int finish_unstarted(struct sbx_result *res, const struct sbx_box *b,
                            const struct sbx_spec *spec) {
    const struct sbx_shared *sh = b->shared;
    char what[PATH_MAX + 64];
    if (sh->exec_errno) {
        snprintf(what, sizeof what, "execve %s", spec->argv[0]);
        return sbx_fail(res, what, sh->exec_errno);
    }
    if (sh->stage_err) {
        char stage[sizeof sh->stage];
        for (size_t i = 0; i < sizeof stage; i++)
            stage[i] = sh->stage[i];
        stage[sizeof stage - 1] = '\0';
        snprintf(what, sizeof what, "sandbox setup (%s)", stage);
        return sbx_fail(res, what, sh->stage_err);
    }
    if (res->timed_out || res->cancelled)
        return 0;
    return sbx_fail(res, "sandbox init", ECHILD);
}

/* How the program ended, from the shared page (and init's own wait status
 * when it died before reporting). */
void sbx_fill_status(struct sbx_result *res, const struct sbx_shared *sh, int init_status) {
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
    /* A program that exited with a status was not killed by the clock: a
     * SIGKILL that reaches it first leaves a signal status. The clock ran
     * out after it exited, while init was ending what it left behind
     * (killing and reaping 450 leftover processes took 130 ms here), which
     * init does at every end. A C program printing its answer and exiting 0
     * at 1.9 s of a 2 s budget was TLE with exit_code 0 and its stderr
     * replaced by the timeout note. */
    if (res->exited && res->timed_out) {
        res->timed_out = false;
        if (res->killed_by == SBX_KILL_TIMEOUT) res->killed_by = SBX_KILL_NONE;
    }
    /* Likewise a cancel that came after the program exited stopped nothing
     * of it: a background run printing `done` and exiting 0 read as
     * `state: "cancelled"` beside its own `verdict: "OK"`. */
    if (res->exited && res->cancelled) {
        res->cancelled = false;
        if (res->killed_by == SBX_KILL_CANCEL) res->killed_by = SBX_KILL_NONE;
    }
}

/* Reap init now (only when it died without reporting: its rusage is then
 * the only record of the tree's CPU time). */
static int reap_init(struct sbx_box *b, struct rusage *ru) {
    int st = 0;
    memset(ru, 0, sizeof *ru);
    while (wait4(b->pid, &st, __WALL, ru) < 0 && errno == EINTR)
        ;
    b->reaped = true;
    return st;
}

static int collect(struct waiter *w) {
    struct sbx_result *res = w->res;
    struct sbx_box *b = w->b;
    const struct sbx_shared *sh = b->shared;
    int64_t t0 = cc_now_us();
    for (int i = 0; i < 2; i++)
        if (w->pipe[i] >= 0) {
            drain_pipe(w, i);
            if (w->pipe[i] >= 0) close(w->pipe[i]);
            w->pipe[i] = -1;
        }
    int init_status = 0;
    if (w->init_died || !sh->have_usage) {
        struct rusage ru;
        init_status = reap_init(b, &ru);
        res->cpu_ms = (int64_t)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1000 +
                      (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1000;
    } else {
        res->cpu_ms = sh->cpu_us / 1000;
    }
    res->peak_kb = sbx_cg_peak_kb(&b->cg);
    /* No memory cgroup to read (a non-root server): the peak RSS init saw. */
    if (res->peak_kb < 0 && sh->have_usage && sh->maxrss_kb > 0)
        res->peak_kb = sh->maxrss_kb;
    res->oom_kills = sbx_cg_oom_kills(&b->cg);
    res->mem_enforced = b->cg.mem_limited;
    res->space_full = sh->space_full;
    report_degraded(res, sh->degraded, w->spec->lim.no_net, sh->prog.host_netns);
    sbx_fill_status(res, sh, init_status);
    bool failed = res->term_signal || (res->exited && res->exit_code != 0);
    if (res->oom_kills > 0 && failed && res->killed_by == SBX_KILL_NONE)
        res->killed_by = SBX_KILL_MEMORY;
    if (sh->t_forked_us) {
        res->timing.start_us = sh->t_forked_us - b->t_given_us;
        res->timing.exec_us = sh->t_exec_us ? sh->t_exec_us - sh->t_forked_us : 0;
        res->timing.wait_us = sh->t_end_us && sh->t_exec_us ? sh->t_end_us - sh->t_exec_us : 0;
    }
    res->timing.collect_us = cc_now_us() - t0;
    return res->started ? 0 : finish_unstarted(res, b, w->spec);
}

/* The pipe holds everything the result keeps. A program may write its
 * stdout non-blocking: node does (its pipes are asynchronous on POSIX), and
 * process.exit() then drops whatever the pipe could not take at once. With
 * the kernel's 64 KiB pipe, `console.log(<100,000 bytes>); process.exit(0)`
 * was OK with 65,536 bytes and output_truncated false, or OLE with all of
 * them, depending on how fast this side drained (and 300,000 bytes under a
 * 240 KiB cap was OK with 128 KiB). With room for `keep` bytes a write can
 * only be refused once more than the cap is unread, which is OLE anyway.
 * 1 MiB is the unprivileged ceiling (fs.pipe-max-size); the pages are
 * taken only as the program writes. A refusal (EPERM once the uid is past
 * fs.pipe-user-pages-soft) keeps the 64 KiB pipe: the output is still
 * read, as before. */
static void size_pipe(int fd, uint64_t keep) {
    if (keep <= 65536) return;
    int want = keep > (1u << 20) ? 1 << 20 : (int)keep;
    if (fcntl(fd, F_SETPIPE_SZ, want) < 0)
        return; /* the default size stays: see above */
}

/* Non-blocking capture pipes; ours are the read ends. */
static int open_pipes(struct waiter *w, int stdio[3]) {
    int p[2][2];
    if (pipe2(p[0], O_CLOEXEC) != 0)
        return -1;
    if (pipe2(p[1], O_CLOEXEC) != 0) {
        close(p[0][0]);
        close(p[0][1]);
        return -1;
    }
    for (int i = 0; i < 2; i++) {
        w->pipe[i] = p[i][0];
        stdio[i + 1] = p[i][1];
        fcntl(p[i][0], F_SETFL, O_NONBLOCK);
        size_pipe(p[i][1], w->keep);
        /* A root worker's pipe is root's, mode 0600: the program could not
         * reopen its own stdout through /proc/self/fd/1, so bash's
         * `echo x > /dev/stderr` failed with EACCES (hostile7). The run uid
         * owns it now; only the run's processes see its /proc/PID/fd. */
        if (sbx_probe()->root && fchown(p[i][1], sbx_probe()->run_uid, sbx_probe()->run_gid) != 0) {
            for (int j = 0; j < 2; j++) {
                close(p[j][0]);
                close(p[j][1]);
            }
            w->pipe[0] = w->pipe[1] = -1;
            return -1;
        }
    }
    return 0;
}

int sbx_box_run(struct sbx_box *b, const struct sbx_spec *spec, struct sbx_result *res) {
    int64_t t0 = now_ms();
    memset(res, 0, sizeof *res);
    res->peak_kb = res->oom_kills = -1;
    if (!spec_valid(spec))
        return sbx_fail(res, "invalid sandbox spec", EINVAL);
    const struct sbx_capture *cap = spec->capture;
    struct waiter w = {.b = b, .spec = spec, .res = res, .pipe = {-1, -1},
                       .keep = cap ? cap->keep : 0,
                       .drain_max = cap && cap->drain_max ? cap->drain_max : SBX_DRAIN_DEFAULT};
    int stdio[3] = {spec->stdin_fd, spec->stdout_fd, spec->stderr_fd};
    if (cap && open_pipes(&w, stdio) != 0)
        return sbx_fail(res, "pipe", errno);
    int rc = sbx_box_hand_over(b, spec, stdio, res);
    /* init has its copies of the write ends: ours go, so EOF means the
     * program tree is gone. */
    if (cap) {
        close(stdio[1]);
        close(stdio[2]);
    }
    if (rc == 0) {
        wait_loop(&w);
        rc = collect(&w);
    }
    for (int i = 0; i < 2; i++)
        if (w.pipe[i] >= 0) close(w.pipe[i]);
    res->wall_ms = now_ms() - t0;
    return rc;
}
