/* What the state directory holds, read from outside any server: the session
 * workspaces under the session root (with their size, age and identity) and
 * the session records, through the session store: state.db, or with
 * CODECALC_DATABASE_URL the cluster's shared registry, where each record
 * names the server that holds it (the state directory's own server is the
 * one its server-id file names). status, cleanup and doctor read it; it
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
    bool remote;                /* the record is another server's (shared registry) */
    long lock_pid;              /* pid in .codecalc-session-lock, 0 when none */
};

struct cc_inventory {
    char home[PATH_MAX];
    char root[PATH_MAX];        /* session root */
    int root_fd;                /* -1 when the root is unreadable */
    bool store_ok;
    char store_error[256];
    bool shared;                /* records from the shared registry */
    char server_id[64];         /* this directory's server in the cluster, "" when none yet */
    struct cc_inv_entry *e;
    size_t n;
    uint64_t total_bytes;       /* all workspaces */
    int64_t host_free_bytes;    /* -1 when unmeasurable */
};

/* registry: read the shared registry when CODECALC_DATABASE_URL is set
 * (status, cleanup); false reads only a local state.db (doctor, which
 * reports the disk and must not wait for a database). 0 or -1. */
int cc_inventory_load(struct cc_inventory *inv, bool registry);
void cc_inventory_free(struct cc_inventory *inv);

/* Is the workspace's REPL host (or the server that wrote the lock) alive?
 * For another server's session: what the registry says. */
bool cc_inv_locked(const struct cc_inv_entry *e);
/* Idle-expired: a stateful record whose host is gone (alive false). */
bool cc_inv_expired(const struct cc_inv_entry *e);

/* disk_quota of the doctor report and of status (TOOLS.md 9.2). */
json_t *cc_inventory_quota_json(const struct cc_inventory *inv);

#endif
