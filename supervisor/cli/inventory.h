/* What the state directory holds, read from outside any server: the session
 * workspaces under the session root (with their size, age and identity) and
 * the session records of state.db. status, cleanup and doctor read it; it
 * never changes anything.
 *
 * Ownership: cc_inventory_load fills inv; cc_inventory_free releases it. */
#ifndef CC_INVENTORY_H
#define CC_INVENTORY_H

#include <jansson.h>
#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>
#include <time.h>

#include "state/session_store.h"

#define CC_INV_NAME_MAX 64

struct cc_inv_entry {
    char id[CC_INV_NAME_MAX + 1];
    bool has_dir;               /* a directory of that name under the root */
    bool is_symlink;            /* the name is a symlink (never followed) */
    dev_t dev;
    ino_t ino;
    time_t mtime;               /* newest modification inside the workspace */
    uint64_t bytes;             /* regular-file bytes (lstat walk) */
    bool has_record;
    struct cc_session_rec rec;  /* valid when has_record */
    long lock_pid;              /* pid in .codecalc-session-lock, 0 when none */
};

struct cc_inventory {
    char home[PATH_MAX];
    char root[PATH_MAX];        /* session root */
    int root_fd;                /* -1 when the root is unreadable */
    bool store_ok;
    char store_error[256];
    struct cc_inv_entry *e;
    size_t n;
    uint64_t total_bytes;       /* all workspaces */
    int64_t host_free_bytes;    /* -1 when unmeasurable */
};

int cc_inventory_load(struct cc_inventory *inv);
void cc_inventory_free(struct cc_inventory *inv);

/* Is the workspace's REPL host (or the server that wrote the lock) alive? */
bool cc_inv_locked(const struct cc_inv_entry *e);
/* Idle-expired: a stateful record whose host is gone (alive false). */
bool cc_inv_expired(const struct cc_inv_entry *e);

/* disk_quota of the doctor report and of status (TOOLS.md 9.2). */
json_t *cc_inventory_quota_json(const struct cc_inventory *inv);

#endif
