/* The run's cgroup: memory ceiling, pids ceiling, peak-memory accounting and
 * a whole-tree kill that does not depend on the pid namespace.
 *
 * cgroup v2 is used when a delegated group with the memory and pids
 * controllers is available ($CODECALC_CGROUP, or our own group when its
 * subtree_control already enables both); otherwise the v1 memory and pids
 * hierarchies. Run groups are created below the group this process is in, so
 * whatever limit the host put on us still covers our runs. */
#include "workers/sandbox/sandbox.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define CG_ROOT "/sys/fs/cgroup"

static unsigned run_seq;

/* Read a small file into buf (NUL-terminated). Returns bytes or -1. */
static ssize_t read_small(const char *path, char *buf, size_t cap) {
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return -1;
    size_t got = 0;
    while (got + 1 < cap) {
        ssize_t r = read(fd, buf + got, cap - 1 - got);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            break;
        got += (size_t)r;
    }
    close(fd);
    buf[got] = '\0';
    return (ssize_t)got;
}

static int write_file(const char *dir, const char *name, const char *val) {
    char path[600];
    if (snprintf(path, sizeof path, "%s/%s", dir, name) >= (int)sizeof path)
        return -1;
    int fd = open(path, O_WRONLY | O_CLOEXEC);
    if (fd < 0)
        return -1;
    size_t n = strlen(val);
    ssize_t w = write(fd, val, n);
    int saved = errno;
    close(fd);
    errno = saved;
    return w == (ssize_t)n ? 0 : -1;
}

/* Our own path in the hierarchy that carries `controller` ("" = v2 line).
 * Returns 0 and fills out (e.g. "/process_api/abc") or -1. */
static int own_cgroup_path(const char *controller, char *out, size_t cap) {
    char buf[4096];
    if (read_small("/proc/self/cgroup", buf, sizeof buf) < 0)
        return -1;
    char *save = NULL;
    for (char *line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        char *c1 = strchr(line, ':');
        char *c2 = c1 ? strchr(c1 + 1, ':') : NULL;
        if (!c2)
            continue;
        *c2 = '\0';
        const char *ctrls = c1 + 1;
        bool match = controller[0] == '\0' ? ctrls[0] == '\0' : false;
        for (const char *p = ctrls; !match && *p;) {
            size_t len = strcspn(p, ",");
            match = len == strlen(controller) && strncmp(p, controller, len) == 0;
            p += len + (p[len] == ',');
        }
        if (match) {
            if (snprintf(out, cap, "%s", c2 + 1) >= (int)cap)
                return -1;
            return 0;
        }
    }
    return -1;
}

/* Directory below which run groups for a v1 controller are made. */
static int v1_base(const char *controller, char *out, size_t cap) {
    char own[400];
    if (own_cgroup_path(controller, own, sizeof own) != 0)
        return -1;
    if (strcmp(own, "/") == 0)
        own[0] = '\0';
    if (snprintf(out, cap, CG_ROOT "/%s%s/codecalc", controller, own) >= (int)cap)
        return -1;
    return 0;
}

/* The delegated v2 group runs may be created in, or -1. */
static int v2_base(char *out, size_t cap) {
    const char *env = getenv("CODECALC_CGROUP");
    if (env && env[0] == '/') {
        if (snprintf(out, cap, "%s", env) >= (int)cap)
            return -1;
    } else {
        char own[400];
        if (own_cgroup_path("", own, sizeof own) != 0)
            return -1;
        if (strcmp(own, "/") == 0)
            own[0] = '\0';
        if (snprintf(out, cap, CG_ROOT "%s", own) >= (int)cap)
            return -1;
    }
    char path[600], ctl[256];
    if (snprintf(path, sizeof path, "%s/cgroup.subtree_control", out) >= (int)sizeof path)
        return -1;
    if (read_small(path, ctl, sizeof ctl) < 0)
        return -1;
    if (!strstr(ctl, "memory") || !strstr(ctl, "pids"))
        return -1;
    return 0;
}

/* mkdir -p of the base only (one level below a group we are in). */
static bool base_writable(const char *base) {
    if (mkdir(base, 0755) != 0 && errno != EEXIST)
        return false;
    return access(base, W_OK | X_OK) == 0;
}

void sbx_cg_probe(bool *v2, bool *v1_memory, bool *v1_pids) {
    char base[512];
    *v2 = v2_base(base, sizeof base) == 0 && access(base, W_OK) == 0;
    *v1_memory = v1_base("memory", base, sizeof base) == 0 && base_writable(base);
    *v1_pids = v1_base("pids", base, sizeof base) == 0 && base_writable(base);
}

/* Create a fresh group dir below base; name unique per process and call. */
static int make_run_group(const char *base, char *out, size_t cap) {
    for (int tries = 0; tries < 8; tries++) {
        unsigned seq = __atomic_add_fetch(&run_seq, 1, __ATOMIC_RELAXED);
        if (snprintf(out, cap, "%s/run-%ld-%u", base, (long)getpid(), seq) >= (int)cap)
            return -1;
        if (mkdir(out, 0755) == 0)
            return 0;
        if (errno != EEXIST)
            return -1;
    }
    return -1;
}

static void set_v1_memory(struct sbx_cgroup *cg, const struct sbx_limits *lim,
                          struct sbx_result *res) {
    char base[512];
    if (v1_base("memory", base, sizeof base) != 0 || !base_writable(base) ||
        make_run_group(base, cg->mem_dir, sizeof cg->mem_dir) != 0) {
        cg->mem_dir[0] = '\0';
        if (lim->mem_bytes > 0)
            sbx_unenforced_add(res, "memory_cgroup: cannot create a memory cgroup here (%s); "
                                    "only RLIMIT_AS bounds memory", strerror(errno));
        return;
    }
    cg->peak_ok = true;
    if (lim->mem_bytes == 0)
        return;
    char val[32];
    snprintf(val, sizeof val, "%" PRIu64, lim->mem_bytes);
    if (write_file(cg->mem_dir, "memory.limit_in_bytes", val) != 0) {
        sbx_unenforced_add(res, "memory_cgroup: the memory limit could not be set (%s)",
                           strerror(errno));
        return;
    }
    /* Without swap accounting this file is absent: nothing to close then. */
    (void)write_file(cg->mem_dir, "memory.memsw.limit_in_bytes", val);
    cg->mem_limited = true;
}

static void set_v1_pids(struct sbx_cgroup *cg, const struct sbx_limits *lim,
                        struct sbx_result *res) {
    char base[512];
    if (v1_base("pids", base, sizeof base) != 0 || !base_writable(base) ||
        make_run_group(base, cg->pids_dir, sizeof cg->pids_dir) != 0) {
        cg->pids_dir[0] = '\0';
        sbx_unenforced_add(res, "pids_cgroup: cannot create a pids cgroup here (%s); "
                                "RLIMIT_NPROC is the only process ceiling", strerror(errno));
        return;
    }
    char val[32];
    /* +1: the run's own init lives in the group too. */
    snprintf(val, sizeof val, "%" PRIu64, lim->pids_max + 1);
    if (write_file(cg->pids_dir, "pids.max", val) != 0) {
        sbx_unenforced_add(res, "pids_cgroup: pids.max could not be set (%s)", strerror(errno));
        return;
    }
    cg->pids_limited = true;
}

static int set_v2(struct sbx_cgroup *cg, const struct sbx_limits *lim, struct sbx_result *res) {
    char base[512], val[32];
    if (v2_base(base, sizeof base) != 0 ||
        make_run_group(base, cg->mem_dir, sizeof cg->mem_dir) != 0) {
        cg->mem_dir[0] = '\0';
        return -1;
    }
    cg->v2 = true;
    cg->peak_ok = true;
    if (lim->mem_bytes > 0) {
        snprintf(val, sizeof val, "%" PRIu64, lim->mem_bytes);
        cg->mem_limited = write_file(cg->mem_dir, "memory.max", val) == 0;
        (void)write_file(cg->mem_dir, "memory.swap.max", "0");
        if (!cg->mem_limited)
            sbx_unenforced_add(res, "memory_cgroup: memory.max could not be set (%s)",
                               strerror(errno));
    }
    snprintf(val, sizeof val, "%" PRIu64, lim->pids_max + 1);
    cg->pids_limited = write_file(cg->mem_dir, "pids.max", val) == 0;
    if (!cg->pids_limited)
        sbx_unenforced_add(res, "pids_cgroup: pids.max could not be set (%s)", strerror(errno));
    return 0;
}

int sbx_cg_create(struct sbx_cgroup *cg, const struct sbx_limits *lim, struct sbx_result *res) {
    memset(cg, 0, sizeof *cg);
    if (set_v2(cg, lim, res) == 0)
        return 0;
    set_v1_memory(cg, lim, res);
    set_v1_pids(cg, lim, res);
    return 0;
}

int sbx_cg_attach(const struct sbx_cgroup *cg, pid_t pid) {
    char val[24];
    snprintf(val, sizeof val, "%ld", (long)pid);
    int rc = 0;
    if (cg->mem_dir[0] && write_file(cg->mem_dir, "cgroup.procs", val) != 0)
        rc = -1;
    if (cg->pids_dir[0] && write_file(cg->pids_dir, "cgroup.procs", val) != 0)
        rc = -1;
    return rc;
}

int64_t sbx_cg_peak_kb(const struct sbx_cgroup *cg) {
    if (!cg->peak_ok || !cg->mem_dir[0])
        return -1;
    char path[600], buf[64];
    snprintf(path, sizeof path, "%s/%s", cg->mem_dir,
             cg->v2 ? "memory.peak" : "memory.max_usage_in_bytes");
    if (read_small(path, buf, sizeof buf) <= 0)
        return -1;
    char *end;
    errno = 0;
    unsigned long long v = strtoull(buf, &end, 10);
    if (errno || end == buf)
        return -1;
    return (int64_t)(v / 1024);
}

/* SIGKILL every pid listed in dir/cgroup.procs; returns how many were listed. */
static int kill_listed(const char *dir) {
    char path[600], buf[8192];
    snprintf(path, sizeof path, "%s/cgroup.procs", dir);
    if (read_small(path, buf, sizeof buf) < 0)
        return 0;
    int n = 0;
    for (char *p = buf; *p;) {
        char *end;
        long pid = strtol(p, &end, 10);
        if (end == p)
            break;
        if (pid > 0) {
            kill((pid_t)pid, SIGKILL);
            n++;
        }
        p = end + (*end == '\n');
    }
    return n;
}

int sbx_cg_kill_except(const struct sbx_cgroup *cg, pid_t keep) {
    const char *dir = cg->pids_dir[0] ? cg->pids_dir : cg->mem_dir;
    if (!dir[0])
        return -1;
    char path[600], buf[8192];
    snprintf(path, sizeof path, "%s/cgroup.procs", dir);
    if (read_small(path, buf, sizeof buf) < 0)
        return -1;
    int n = 0;
    for (char *p = buf; *p;) {
        char *end;
        long pid = strtol(p, &end, 10);
        if (end == p)
            break;
        if (pid > 0 && pid != keep && kill((pid_t)pid, SIGKILL) == 0)
            n++;
        p = end + (*end == '\n');
    }
    return n;
}

/* Empty and remove one group; dying tasks can keep it busy for a moment. */
static void drain_and_remove(const char *dir, bool v2) {
    if (!dir[0])
        return;
    if (v2)
        (void)write_file(dir, "cgroup.kill", "1");
    for (int tries = 0; tries < 200; tries++) {
        if (kill_listed(dir) == 0 && (rmdir(dir) == 0 || errno == ENOENT))
            return;
        struct timespec ts = {0, 1000000};
        nanosleep(&ts, NULL);
    }
}

void sbx_cg_destroy(struct sbx_cgroup *cg) {
    drain_and_remove(cg->mem_dir, cg->v2);
    drain_and_remove(cg->pids_dir, false);
    cg->mem_dir[0] = cg->pids_dir[0] = '\0';
}
