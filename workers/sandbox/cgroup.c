/* The run's cgroup: memory ceiling (memory + swap), pids ceiling, peak
 * memory, OOM-kill count and a whole-tree kill that does not depend on the
 * pid namespace.
 *
 * cgroup v2 is used when a delegated group with the memory and pids
 * controllers is available ($CODECALC_CGROUP, or our own group when its
 * subtree_control already enables both; cgroup_v2.c); otherwise the v1
 * memory and pids hierarchies. Run groups are created below the group this
 * process is in, so whatever limit the host put on us still covers our
 * runs. Groups are made empty when a box is prepared; the ceilings are
 * written when its program is handed over (sbx_cg_limit). */
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

ssize_t sbx_read_small(const char *path, char *buf, size_t cap) {
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

int sbx_write_file(const char *dir, const char *name, const char *val) {
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

int64_t sbx_keyed_value(const char *path, const char *key) {
    char buf[1024];
    if (sbx_read_small(path, buf, sizeof buf) < 0)
        return -1;
    size_t klen = strlen(key);
    for (char *line = buf; line && *line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL)
        if (strncmp(line, key, klen) == 0 && line[klen] == ' ')
            return strtoll(line + klen + 1, NULL, 10);
    return -1;
}

int64_t sbx_read_number(const char *path) {
    char buf[64];
    if (sbx_read_small(path, buf, sizeof buf) <= 0)
        return -1;
    char *end;
    errno = 0;
    unsigned long long v = strtoull(buf, &end, 10);
    return errno || end == buf ? -1 : (int64_t)v;
}

/* Our own path in the hierarchy that carries `controller` ("" = v2 line).
 * Returns 0 and fills out (e.g. "/process_api/abc") or -1. */
int sbx_own_cgroup_path(const char *controller, char *out, size_t cap) {
    char buf[4096];
    if (sbx_read_small("/proc/self/cgroup", buf, sizeof buf) < 0)
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
        if (match)
            return snprintf(out, cap, "%s", c2 + 1) >= (int)cap ? -1 : 0;
    }
    return -1;
}

/* Directory below which run groups for a v1 controller are made. */
static int v1_base(const char *controller, char *out, size_t cap) {
    char own[400];
    if (sbx_own_cgroup_path(controller, own, sizeof own) != 0)
        return -1;
    if (strcmp(own, "/") == 0)
        own[0] = '\0';
    return snprintf(out, cap, CG_ROOT "/%s%s/codecalc", controller, own) >= (int)cap ? -1 : 0;
}

/* mkdir of the base only (one level below a group we are in). */
static bool base_writable(const char *base) {
    if (mkdir(base, 0755) != 0 && errno != EEXIST)
        return false;
    return access(base, W_OK | X_OK) == 0;
}

void sbx_cg_probe(bool *v2, bool *v1_memory, bool *v1_pids) {
    char base[512];
    *v2 = sbx_cg2_base(base, sizeof base) == 0 && access(base, W_OK) == 0;
    *v1_memory = v1_base("memory", base, sizeof base) == 0 && base_writable(base);
    *v1_pids = v1_base("pids", base, sizeof base) == 0 && base_writable(base);
}

void sbx_cg_bases(char *v1mem, char *v1pids, char *v2, size_t cap) {
    if (v1_base("memory", v1mem, cap) != 0) v1mem[0] = '\0';
    if (v1_base("pids", v1pids, cap) != 0) v1pids[0] = '\0';
    if (sbx_cg2_base(v2, cap) != 0) v2[0] = '\0';
}

/* Create a fresh group dir below base: run-<our pid>-<n>, so what a dead
 * worker left can be told from a live one's. */
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

static void create_v1(struct sbx_cgroup *cg, const char *controller, char *dir, size_t cap,
                      struct sbx_result *res) {
    char base[512];
    if (v1_base(controller, base, sizeof base) == 0 && base_writable(base) &&
        make_run_group(base, dir, cap) == 0) {
        if (strcmp(controller, "memory") == 0)
            cg->peak_ok = true;
        return;
    }
    dir[0] = '\0';
    if (strcmp(controller, "pids") == 0)
        sbx_unenforced_add(res, "pids_cgroup: cannot create a pids cgroup here (%s)",
                           strerror(errno));
}

int sbx_cg_create(struct sbx_cgroup *cg, struct sbx_result *res) {
    memset(cg, 0, sizeof *cg);
    char base[512];
    if (sbx_cg2_base(base, sizeof base) == 0 &&
        make_run_group(base, cg->mem_dir, sizeof cg->mem_dir) == 0) {
        cg->v2 = cg->peak_ok = true;
        return 0;
    }
    cg->mem_dir[0] = '\0';
    create_v1(cg, "memory", cg->mem_dir, sizeof cg->mem_dir, res);
    create_v1(cg, "pids", cg->pids_dir, sizeof cg->pids_dir, res);
    return 0;
}

/* Is any swap device configured? (Without memsw, swap is then unbounded.) */
static bool host_has_swap(void) {
    char buf[512];
    return sbx_read_small("/proc/swaps", buf, sizeof buf) > 0 && strchr(buf, '\n') &&
           strchr(buf, '\n')[1] != '\0';
}

static void limit_v1(struct sbx_cgroup *cg, const struct sbx_limits *lim, struct sbx_result *res) {
    char val[32];
    if (lim->mem_bytes > 0 && cg->mem_dir[0]) {
        snprintf(val, sizeof val, "%" PRIu64, lim->mem_bytes);
        if (sbx_write_file(cg->mem_dir, "memory.limit_in_bytes", val) != 0) {
            sbx_unenforced_add(res, "memory_cgroup: the memory limit could not be set (%s)",
                               strerror(errno));
        } else {
            cg->mem_limited = cg->mem_joined;
            if (sbx_write_file(cg->mem_dir, "memory.memsw.limit_in_bytes", val) != 0 &&
                host_has_swap())
                sbx_unenforced_add(res, "memory_swap: swap accounting is off on this host; "
                                        "swap use is not bounded by the memory ceiling");
        }
    }
    if (cg->pids_dir[0]) {
        /* +1: the run's own init lives in the group too. */
        snprintf(val, sizeof val, "%" PRIu64, lim->pids_max + 1);
        cg->pids_limited = sbx_write_file(cg->pids_dir, "pids.max", val) == 0 && cg->pids_joined;
        if (!cg->pids_limited && cg->pids_joined)
            sbx_unenforced_add(res, "pids_cgroup: pids.max could not be set (%s)", strerror(errno));
    }
}

void sbx_cg_limit(struct sbx_cgroup *cg, const struct sbx_limits *lim, struct sbx_result *res) {
    cg->mem_limited = cg->pids_limited = false;
    if (!cg->v2) {
        limit_v1(cg, lim, res);
        return;
    }
    bool mem_ok, pids_ok;
    sbx_cg2_limit(cg->mem_dir, lim->mem_bytes, lim->pids_max, &mem_ok, &pids_ok);
    /* A ceiling counts only when the run really is in the group. */
    cg->mem_limited = mem_ok && cg->mem_joined;
    cg->pids_limited = pids_ok && cg->pids_joined;
    if (lim->mem_bytes > 0 && !mem_ok)
        sbx_unenforced_add(res, "memory_cgroup: memory.max could not be set");
    if (!pids_ok && cg->pids_joined)
        sbx_unenforced_add(res, "pids_cgroup: pids.max could not be set");
}

int sbx_cg_attach(struct sbx_cgroup *cg, pid_t pid) {
    char val[24];
    snprintf(val, sizeof val, "%ld", (long)pid);
    int rc = 0, err = 0;
    cg->mem_joined = cg->mem_dir[0] && sbx_write_file(cg->mem_dir, "cgroup.procs", val) == 0;
    if (cg->mem_dir[0] && !cg->mem_joined) {
        rc = -1;
        err = errno;
    }
    if (cg->v2) {
        cg->pids_joined = cg->mem_joined;
    } else {
        cg->pids_joined = cg->pids_dir[0] && sbx_write_file(cg->pids_dir, "cgroup.procs", val) == 0;
        if (cg->pids_dir[0] && !cg->pids_joined) {
            rc = -1;
            err = err ? err : errno;
        }
    }
    errno = err;
    return rc;
}

int64_t sbx_cg_peak_kb(const struct sbx_cgroup *cg) {
    if (!cg->peak_ok || !cg->mem_dir[0])
        return -1;
    if (cg->v2)
        return sbx_cg2_peak_kb(cg->mem_dir);
    char path[600];
    snprintf(path, sizeof path, "%s/memory.max_usage_in_bytes", cg->mem_dir);
    int64_t v = sbx_read_number(path);
    return v < 0 ? -1 : v / 1024;
}

void sbx_cg_reset_peak(const struct sbx_cgroup *cg) {
    if (cg->mem_dir[0] && !cg->v2)
        (void)sbx_write_file(cg->mem_dir, "memory.max_usage_in_bytes", "0");
}

int64_t sbx_cg_oom_kills(const struct sbx_cgroup *cg) {
    if (!cg->mem_dir[0])
        return -1;
    if (cg->v2)
        return sbx_cg2_oom_kills(cg->mem_dir);
    char path[600];
    snprintf(path, sizeof path, "%s/memory.oom_control", cg->mem_dir);
    return sbx_keyed_value(path, "oom_kill");
}

/* SIGKILL every pid listed in dir/cgroup.procs except keep; returns how
 * many were listed (keep excluded), or -1 when the list is unreadable. */
static int kill_listed(const char *dir, pid_t keep) {
    char path[600], buf[8192];
    snprintf(path, sizeof path, "%s/cgroup.procs", dir);
    if (sbx_read_small(path, buf, sizeof buf) < 0)
        return -1;
    int n = 0;
    for (char *p = buf; *p;) {
        char *end;
        long pid = strtol(p, &end, 10);
        if (end == p)
            break;
        if (pid > 0 && pid != keep) {
            kill((pid_t)pid, SIGKILL);
            n++;
        }
        p = end + (*end == '\n');
    }
    return n;
}

int sbx_cg_kill_except(const struct sbx_cgroup *cg, pid_t keep) {
    const char *dir = cg->pids_dir[0] ? cg->pids_dir : cg->mem_dir;
    return dir[0] ? kill_listed(dir, keep) : -1;
}

/* Empty and remove one group; dying tasks can keep it busy for a moment. */
static void drain_and_remove(const char *dir, bool v2) {
    if (!dir[0])
        return;
    if (v2)
        (void)sbx_write_file(dir, "cgroup.kill", "1");
    for (int tries = 0; tries < 200; tries++) {
        if (kill_listed(dir, 0) <= 0 && (rmdir(dir) == 0 || errno == ENOENT))
            return;
        struct timespec ts = {0, 1000000};
        nanosleep(&ts, NULL);
    }
}

void sbx_cg_remove_dir(const char *dir, bool v2) { drain_and_remove(dir, v2); }

void sbx_cg_destroy(struct sbx_cgroup *cg) {
    drain_and_remove(cg->mem_dir, cg->v2);
    drain_and_remove(cg->pids_dir, false);
    cg->mem_dir[0] = cg->pids_dir[0] = '\0';
}
