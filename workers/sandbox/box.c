/* A box: one sandbox, prepared before its program is known.
 *
 *   prepare:  cgroup made ─ clone3(new ns, pidfd) ─▶ init ─ joins cgroup ─ "G"
 *             init builds the filesystem view, forks the program's process
 *             (which waits for "P") and waits for it
 *   hand over: ceilings written, program laid out in the shared region,
 *             "P" + stdio fds ─▶ the program's process ─▶ execve
 *   end:      init kills and reaps the rest of its namespace, reports "D",
 *             exits; destroy reaps init and removes the cgroup.
 *
 * Everything a run could leave or learn lives in the box it was handed
 * (namespaces, cgroup, init): one box, one program. */
#include "workers/sandbox/sandbox.h"

#include "protocol/monotonic.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/filter.h>
#include <linux/sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define SHARED_BYTES (sizeof(struct sbx_shared) + SBX_ARENA_BYTES)

static int prep_fail(struct sbx_box *b, struct sbx_result *notes, char **why, const char *what,
                     int err) {
    if (why && asprintf(why, "%s: %s", what, strerror(err)) < 0)
        *why = NULL;
    sbx_result_free(notes);
    sbx_box_destroy(b);
    return -1;
}

static int send_byte(int sock, char c) {
    ssize_t w;
    do
        w = send(sock, &c, 1, MSG_NOSIGNAL);
    while (w < 0 && errno == EINTR);
    return w == 1 ? 0 : -1;
}

/* Parent side once init exists: id maps, cgroup, then release it. */
static int release_init(struct sbx_box *b, struct sbx_result *notes) {
    if (b->userns && sbx_map_ids(b->pid) != 0)
        return -1;
    /* A root server's program gets a user namespace of its own (userns.c),
     * owned by a uid no other live box has (owner.c). A non-root server's box has its user namespace already
     * (owned by the server's uid: the disclosure says so). */
    if (!b->userns && sbx_probe()->root) {
        bool unique;
        b->shared->owner_uid = sbx_owner_uid(b->pid, b->pidfd, &unique);
        if (!unique) b->shared->degraded |= SBX_DEGRADED_OWNER;
    }
    if ((b->cg.mem_dir[0] || b->cg.pids_dir[0]) && sbx_cg_attach(&b->cg, b->pid) != 0)
        sbx_unenforced_add(notes, "cgroup: the run could not join its cgroup (%s)", strerror(errno));
    return send_byte(b->sock, SBX_MSG_GO);
}

int sbx_box_prepare(struct sbx_box *b, const char *workdir, bool no_net, char **why) {
    memset(b, 0, sizeof *b);
    b->pidfd = b->sock = -1;
    if (why) *why = NULL;
    struct sbx_result notes;
    memset(&notes, 0, sizeof notes);
    if (!workdir || workdir[0] != '/' || strlen(workdir) >= sizeof b->workdir)
        return prep_fail(b, &notes, why, "invalid sandbox spec", EINVAL);
    snprintf(b->workdir, sizeof b->workdir, "%s", workdir);
    const struct sbx_caps *caps = sbx_probe();
    /* cfg and home live on our stack: the clone gives init its own copy. */
    char home[PATH_MAX];
    sbx_codecalc_home(home, sizeof home);
    struct sbx_init_cfg cfg = {.workdir = b->workdir, .home = home[0] ? home : NULL};
    sbx_shared_view(&cfg.share_dir, &cfg.share_at);
    int flags = sbx_plan_namespaces(caps, no_net, &cfg, &notes);
    b->own_pidns = cfg.own_pidns;
    b->own_netns = flags & CLONE_NEWNET;
    b->userns = flags & CLONE_NEWUSER;
    sbx_cg_create(&b->cg, &notes);
    void *sh = mmap(NULL, SHARED_BYTES, PROT_READ | PROT_WRITE,
                    MAP_SHARED | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (sh == MAP_FAILED)
        return prep_fail(b, &notes, why, "mmap", errno);
    b->shared = cfg.shared = sh;
    int sv[2];
    if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv) != 0)
        return prep_fail(b, &notes, why, "socketpair", errno);
    b->sock = sv[0];
    cfg.sock = sv[1];
    pid_t pid = sbx_clone_init(flags, &b->pidfd);
    if (pid < 0) {
        int e = errno;
        close(sv[1]);
        return prep_fail(b, &notes, why, "clone3", e);
    }
    if (pid == 0)
        sbx_init_main(&cfg);
    close(sv[1]);
    b->pid = pid;
    if (release_init(b, &notes) != 0)
        return prep_fail(b, &notes, why, "sandbox release", errno ? errno : EIO);
    b->notes = notes.unenforced;
    b->n_notes = notes.n_unenforced;
    return 0;
}

/* Room for n bytes in the arena (pointer-aligned), or NULL. */
static void *arena_alloc(struct sbx_shared *sh, size_t n) {
    size_t at = (sh->arena_used + _Alignof(void *) - 1) & ~(_Alignof(void *) - 1);
    if (at + n > SBX_ARENA_BYTES)
        return NULL;
    sh->arena_used = at + n;
    return sh->arena + at;
}

/* Copy a NULL-terminated vector and its strings into the arena. */
static const char *const *arena_strv(struct sbx_shared *sh, const char *const *v) {
    size_t n = 0;
    while (v[n])
        n++;
    size_t need = (n + 1) * sizeof(char *);
    for (size_t i = 0; i < n; i++)
        need += strlen(v[i]) + 1;
    char **vec = arena_alloc(sh, need);
    if (!vec)
        return NULL;
    char *s = (char *)(vec + n + 1);
    for (size_t i = 0; i < n; i++) {
        size_t len = strlen(v[i]) + 1;
        memcpy(s, v[i], len);
        vec[i] = s;
        s += len;
    }
    vec[n] = NULL;
    return (const char *const *)vec;
}

/* Packet "P" + which of stdin/stdout/stderr/exec fds follow. */
static int send_program(int sock, const int fds[4]) {
    char payload[2] = {SBX_MSG_PROGRAM, 0};
    int pass[4], n = 0;
    for (int i = 0; i < 4; i++)
        if (fds[i] >= 0) {
            payload[1] |= (char)(1 << i);
            pass[n++] = fds[i];
        }
    union {
        char buf[CMSG_SPACE(sizeof(int) * 4)];
        struct cmsghdr align;
    } u;
    struct iovec iov = {.iov_base = payload, .iov_len = sizeof payload};
    struct msghdr msg = {.msg_iov = &iov, .msg_iovlen = 1};
    if (n > 0) {
        msg.msg_control = u.buf;
        msg.msg_controllen = CMSG_SPACE(sizeof(int) * (size_t)n);
        struct cmsghdr *c = CMSG_FIRSTHDR(&msg);
        c->cmsg_level = SOL_SOCKET;
        c->cmsg_type = SCM_RIGHTS;
        c->cmsg_len = CMSG_LEN(sizeof(int) * (size_t)n);
        memcpy(CMSG_DATA(c), pass, sizeof(int) * (size_t)n);
    }
    ssize_t w;
    do
        w = sendmsg(sock, &msg, MSG_NOSIGNAL);
    while (w < 0 && errno == EINTR);
    return w == (ssize_t)sizeof payload ? 0 : -1;
}

/* Ceilings, the program's plan and its fds to init. stdio[1..2] override
 * the spec's (capture pipes). Returns 0, or -1 with res->spawn_error; on a
 * failed send the box is marked done (init is gone: collect says why). */
int sbx_box_hand_over(struct sbx_box *b, const struct sbx_spec *spec, const int stdio[3],
                      struct sbx_result *res) {
    if (b->pid <= 0 || b->given)
        return sbx_fail(res, "sandbox box", EINVAL);
    sbx_unenforced_copy(res, b->notes, b->n_notes);
    sbx_cg_limit(&b->cg, &spec->lim, res);
    sbx_cg_reset_peak(&b->cg);
    struct sbx_shared *sh = b->shared;
    struct sbx_program *p = &sh->prog;
    sbx_plan_program(p, &spec->lim, b->cg.pids_limited, b->cg.mem_limited, res);
    const struct sbx_caps *caps = sbx_probe();
    p->want_netns = spec->lim.no_net && !b->own_netns && caps->netns && (caps->root || caps->userns);
    p->host_netns = !b->own_netns && !p->want_netns;
    int exec_fd = spec->exec_fd > 0 ? spec->exec_fd : -1;
    p->has_exec_fd = exec_fd >= 0;
    sh->arena_used = 0;
    p->argv = arena_strv(sh, spec->argv);
    p->envp = p->argv ? arena_strv(sh, spec->envp) : NULL;
    if (p->bpf.filter) {
        size_t n = (size_t)p->bpf.len * sizeof(struct sock_filter);
        void *copy = arena_alloc(sh, n);
        if (copy) memcpy(copy, p->bpf.filter, n);
        p->bpf.filter = copy;
    }
    if (!p->envp || (p->bpf.len && !p->bpf.filter))
        return sbx_fail(res, "program arguments and environment", E2BIG);
    int fds[4] = {stdio[0], stdio[1], stdio[2], exec_fd};
    b->given = true;
    b->t_given_us = cc_now_us();
    if (send_program(b->sock, fds) != 0)
        b->done = true;
    return 0;
}

int sbx_box_start(struct sbx_box *b, const struct sbx_spec *spec, struct sbx_result *res) {
    int stdio[3] = {spec->stdin_fd, spec->stdout_fd, spec->stderr_fd};
    return sbx_box_hand_over(b, spec, stdio, res);
}

void sbx_box_kill(struct sbx_box *b) {
    if (b->pidfd >= 0 && !b->reaped)
        syscall(SYS_pidfd_send_signal, b->pidfd, SIGKILL, NULL, 0);
}

void sbx_box_destroy(struct sbx_box *b) {
    if (b->pid > 0 && !b->reaped) {
        sbx_box_kill(b);
        while (waitpid(b->pid, NULL, __WALL) < 0 && errno == EINTR)
            ;
    }
    sbx_cg_destroy(&b->cg);
    if (b->sock >= 0) close(b->sock);
    if (b->pidfd >= 0) close(b->pidfd);
    if (b->shared) munmap(b->shared, SHARED_BYTES);
    struct sbx_result notes = {.unenforced = b->notes, .n_unenforced = b->n_notes};
    sbx_result_free(&notes);
    memset(b, 0, sizeof *b);
    b->pidfd = b->sock = -1;
}
