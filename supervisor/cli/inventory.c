/* The state directory seen from outside a server (inventory.h). */
#include "supervisor/cli/inventory.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "protocol/fdio.h"
#include "protocol/host_floor.h"
#include "state/shared.h"
#include "supervisor/home.h"
#include "supervisor/sessions/quota.h"
#include "supervisor/sessions/sessions.h"
#include "supervisor/sessions/walk.h"

struct walk_acc {
    uint64_t bytes;
    time_t newest;
};

static int add_file(void *ud, const char *rel, const struct stat *st) {
    (void)rel;
    struct walk_acc *a = ud;
    a->bytes += (uint64_t)st->st_size;
    if (st->st_mtime > a->newest) a->newest = st->st_mtime;
    return 0;
}

static long read_lock_pid(int ws_fd) {
    int fd = openat(ws_fd, ".codecalc-session-lock", O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0) return 0;
    char buf[32];
    ssize_t n = read(fd, buf, sizeof buf - 1);
    close(fd);
    if (n <= 0) return 0;
    buf[n] = '\0';
    return strtol(buf, NULL, 10);
}

static void measure(int root_fd, struct cc_inv_entry *e) {
    struct stat st;
    if (fstatat(root_fd, e->id, &st, AT_SYMLINK_NOFOLLOW) != 0) return;
    e->is_symlink = S_ISLNK(st.st_mode);
    if (!S_ISDIR(st.st_mode)) return;
    e->has_dir = true;
    e->dev = st.st_dev;
    e->ino = st.st_ino;
    e->mtime = st.st_mtime;
    int fd = openat(root_fd, e->id, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0) return;
    struct walk_acc a = {0, st.st_mtime};
    cc_walk_files(fd, add_file, &a);
    e->bytes = a.bytes;
    e->mtime = a.newest;
    e->lock_pid = read_lock_pid(fd);
    close(fd);
}

static struct cc_inv_entry *entry_for(struct cc_inventory *inv, const char *id) {
    for (size_t i = 0; i < inv->n; i++)
        if (strcmp(inv->e[i].id, id) == 0) return &inv->e[i];
    struct cc_inv_entry *grown = realloc(inv->e, (inv->n + 1) * sizeof *grown);
    if (!grown) return NULL;
    inv->e = grown;
    struct cc_inv_entry *e = &inv->e[inv->n++];
    memset(e, 0, sizeof *e);
    snprintf(e->id, sizeof e->id, "%s", id);
    return e;
}

/* The server id of this state directory (supervisor/cluster/identity.c
 * writes it), read without creating it. */
static void read_server_id(struct cc_inventory *inv) {
    char path[PATH_MAX + 16];
    snprintf(path, sizeof path, "%s/server-id", inv->home);
    size_t len;
    char *text = cc_read_file(path, O_NOFOLLOW, 256, &len);
    if (!text) return;
    text[strcspn(text, "\r\n")] = '\0';
    snprintf(inv->server_id, sizeof inv->server_id, "%s", text);
    free(text);
}

static void load_records(struct cc_inventory *inv, bool registry) {
    char db[PATH_MAX + 16];
    snprintf(db, sizeof db, "%s/state.db", inv->home);
    inv->shared = registry && cc_state_database_url();
    if (inv->shared) read_server_id(inv);
    if (!inv->shared && access(db, F_OK) != 0) {
        inv->store_ok = true; /* nothing recorded yet */
        return;
    }
    struct cc_session_store *st = inv->shared ? cc_session_store_open(db, inv->store_error, sizeof inv->store_error)
                                              : cc_session_store_open_sqlite(db, inv->store_error, sizeof inv->store_error);
    if (!st) return;
    struct cc_session_rec *recs = NULL;
    size_t n = 0;
    if (cc_session_store_list_all(st, false, &recs, &n) == 0) {
        inv->store_ok = true;
        for (size_t i = 0; i < n; i++) {
            struct cc_inv_entry *e = entry_for(inv, recs[i].id);
            if (!e) break;
            e->has_record = true;
            e->rec = recs[i];
            e->remote = inv->shared && recs[i].owner[0] && strcmp(recs[i].owner, inv->server_id) != 0;
        }
    } else {
        snprintf(inv->store_error, sizeof inv->store_error, "cannot list the session records");
    }
    free(recs);
    cc_session_store_close(st);
}

static void load_dirs(struct cc_inventory *inv) {
    int fd = dup(inv->root_fd);
    DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
    if (!d) {
        if (fd >= 0) close(fd);
        return;
    }
    for (struct dirent *de; (de = readdir(d));) {
        if (!cc_session_id_valid(de->d_name)) continue; /* not session-shaped */
        if (!entry_for(inv, de->d_name)) break;
    }
    closedir(d);
}

int cc_inventory_load(struct cc_inventory *inv, bool registry) {
    memset(inv, 0, sizeof *inv);
    inv->root_fd = -1;
    inv->host_free_bytes = -1;
    if (cc_home_dir(inv->home, sizeof inv->home) < 0 || cc_session_root(inv->root, sizeof inv->root) < 0) return -1;
    inv->root_fd = open(inv->root, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    load_records(inv, registry);
    if (inv->root_fd >= 0) {
        load_dirs(inv);
        struct cc_disk_free f;
        if (cc_disk_free_fd(inv->root_fd, &f)) inv->host_free_bytes = (int64_t)f.bytes;
    }
    for (size_t i = 0; i < inv->n; i++) {
        /* Another server's session lives on its machine, not under our root. */
        if (inv->root_fd >= 0 && !inv->e[i].remote) measure(inv->root_fd, &inv->e[i]);
        inv->total_bytes += inv->e[i].bytes;
    }
    return 0;
}

void cc_inventory_free(struct cc_inventory *inv) {
    if (inv->root_fd >= 0) close(inv->root_fd);
    free(inv->e);
    memset(inv, 0, sizeof *inv);
    inv->root_fd = -1;
}

static bool pid_alive(long pid) { return pid > 0 && (kill((pid_t)pid, 0) == 0 || errno == EPERM); }

bool cc_inv_locked(const struct cc_inv_entry *e) {
    /* Its pids are another machine's: only the registry can say. */
    if (e->remote) return e->rec.alive && !e->rec.lost[0];
    return pid_alive(e->lock_pid) || (e->has_record && e->rec.alive && pid_alive(e->rec.host_pid));
}

bool cc_inv_expired(const struct cc_inv_entry *e) { return e->has_record && e->rec.stateful && !e->rec.alive; }

json_t *cc_inventory_quota_json(const struct cc_inventory *inv) {
    struct cc_quota_cfg q;
    cc_quota_read(&q);
    json_t *sessions = json_array();
    for (size_t i = 0; i < inv->n; i++)
        if (inv->e[i].has_dir)
            json_array_append_new(sessions, json_pack("{s:s,s:I}", "session_id", inv->e[i].id, "usage_bytes",
                                                      (json_int_t)inv->e[i].bytes));
    return json_pack("{s:{s:I,s:I,s:I,s:I,s:I},s:I,s:o,s:o}", "limits", "session_disk_quota_mb",
                     (json_int_t)(q.session_bytes >> 20), "total_disk_quota_mb", (json_int_t)(q.total_bytes >> 20),
                     "max_artifact_bytes", (json_int_t)q.artifact_bytes, "max_artifact_count",
                     (json_int_t)q.artifact_count, "min_host_free_mb", (json_int_t)(q.min_free >> 20),
                     "global_usage_bytes", (json_int_t)inv->total_bytes, "host_free_bytes",
                     inv->host_free_bytes >= 0 ? json_integer(inv->host_free_bytes) : json_null(), "sessions", sessions);
}
