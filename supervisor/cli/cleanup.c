/* `codecalc cleanup [--dry-run|--write] [--include-unmarked]` (TOOLS.md 9.1,
 * 4.10): reclaim disk from dead session workspaces, from outside any server.
 *
 * Candidates:
 *  - marked: a stateful session whose record says its host is gone and
 *    whose last activity is older than CODECALC_SESSION_IDLE_TTL_SECONDS
 *    (its idle expiry was decided but the workspace is still there);
 *  - with --include-unmarked: a session-shaped directory under the root
 *    that no record names, untouched for CODECALC_CLEANUP_ABANDONED_AGE_HOURS
 *    (default 24).
 * Never removed: a workspace whose lock names a live process or whose host
 * is alive, a symlink, the root itself, anything modified in the last five
 * minutes. Removal is identity-checked: the directory is first renamed to a
 * private name, its (device, inode) compared with what was inspected, and
 * only then deleted (renamed back on a mismatch). A dry run is the default.
 * Every removal is written to the audit log. Always exits 0. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "protocol/knob.h"
#include "protocol/rmtree.h"

#include "supervisor/cli/args.h"
#include "supervisor/cli/cli.h"
#include "supervisor/cli/inventory.h"
#include "supervisor/sessions/sessions.h"
#include "workers/common/audit.h"

#define RECENT_S 300

/* Why e may not be touched, or NULL. */
static const char *refusal(const struct cc_inv_entry *e, time_t now) {
    if (e->is_symlink) return "a symlink (never followed)";
    if (!e->has_dir) return "no workspace directory";
    if (cc_inv_locked(e)) return "in use: its lock or its REPL host names a live process";
    if (now - e->mtime < RECENT_S) return "modified in the last five minutes";
    return NULL;
}

/* Why e is a candidate ("idle-expired", "unmarked ..."), or NULL. */
static const char *candidacy(const struct cc_inv_entry *e, bool unmarked, time_t now, char *buf, size_t cap) {
    /* The server's TTL (default 24 h): cleanup read it with a default of
     * its own, "never", and left expired workspaces the server would reap. */
    double ttl = cc_session_idle_ttl();
    if (e->remote) return NULL; /* another server's session: its workspace is on its machine */
    if (e->has_record) {
        if (!cc_inv_expired(e) || ttl <= 0 || (double)now - e->rec.last_activity <= ttl) return NULL;
        return "idle-expired";
    }
    double age_s = (double)cc_knob(CC_KNOB_CLEANUP_ABANDONED_AGE_HOURS) / 1000.0;
    if (!unmarked || (double)(now - e->mtime) < age_s) return NULL;
    snprintf(buf, cap, "unmarked, untouched for %.1f h", (double)(now - e->mtime) / 3600.0);
    return buf;
}

/* Rename aside, check identity, delete. NULL on success, else why not. */
static const char *remove_checked(int root_fd, const struct cc_inv_entry *e) {
    unsigned char rnd[6];
    if (getrandom(rnd, sizeof rnd, 0) != sizeof rnd) return "no randomness for a private name";
    char aside[96];
    snprintf(aside, sizeof aside, ".codecalc-cleanup-%02x%02x%02x%02x%02x%02x", rnd[0], rnd[1], rnd[2], rnd[3], rnd[4],
             rnd[5]);
    if (renameat(root_fd, e->id, root_fd, aside) != 0) return strerror(errno);
    struct stat st;
    if (fstatat(root_fd, aside, &st, AT_SYMLINK_NOFOLLOW) != 0 || !S_ISDIR(st.st_mode) || st.st_dev != e->dev ||
        st.st_ino != e->ino) {
        renameat(root_fd, aside, root_fd, e->id);
        return "replaced since it was inspected (identity changed); left alone";
    }
    if (cc_rmtree_at(root_fd, aside) != 0) return strerror(errno);
    return NULL;
}

int cc_cli_cleanup(int argc, char **argv) {
    struct cc_cli_flag flags[] = {{"--dry-run", false, false, NULL},
                                  {"--write", false, false, NULL},
                                  {"--include-unmarked", false, false, NULL},
                                  {"--json", false, false, NULL},
                                  {NULL, false, false, NULL}};
    static const char usage[] = "usage: codecalc cleanup [--dry-run|--write] [--include-unmarked] [--json]\n";
    if (cc_cli_parse(argc, argv, flags, usage) < 0) return 2;
    if (flags[0].set && flags[1].set) {
        fprintf(stderr, "codecalc cleanup: --dry-run and --write exclude each other\n%s", usage);
        return 2;
    }
    bool write = flags[1].set, unmarked = flags[2].set;
    struct cc_inventory inv;
    if (cc_inventory_load(&inv, true) < 0 || inv.root_fd < 0) {
        fprintf(stderr, "codecalc cleanup: cannot read the session root\n");
        return 0;
    }
    time_t now = time(NULL);
    json_t *items = json_array();
    json_int_t reclaimed = 0;
    for (size_t i = 0; i < inv.n; i++) {
        const struct cc_inv_entry *e = &inv.e[i];
        char buf[96];
        const char *why = candidacy(e, unmarked, now, buf, sizeof buf);
        if (!why) continue;
        const char *no = refusal(e, now);
        const char *failed = !no && write ? remove_checked(inv.root_fd, e) : NULL;
        const char *action = no ? "skipped" : !write ? "would_remove" : failed ? "failed" : "removed";
        if (!no && write && !failed) {
            reclaimed += (json_int_t)e->bytes;
            json_t *meta = json_pack("{s:I,s:s,s:s}", "bytes", (json_int_t)e->bytes, "candidate", why, "root", inv.root);
            cc_audit_event("cleanup", NULL, e->id, "removed", why, meta);
            json_decref(meta);
        }
        json_array_append_new(items, json_pack("{s:s,s:s,s:I,s:s,s:s?}", "session_id", e->id, "reason", why, "bytes",
                                               (json_int_t)e->bytes, "action", action, "detail", no ? no : failed));
    }
    if (flags[3].set) {
        json_t *out = json_pack("{s:s,s:b,s:b,s:o,s:I}", "session_root", inv.root, "write", write, "include_unmarked",
                                unmarked, "items", items, "reclaimed_bytes", reclaimed);
        char *text = json_dumps(out, JSON_INDENT(2) | JSON_SORT_KEYS);
        if (text) printf("%s\n", text);
        free(text);
        json_decref(out);
    } else {
        size_t k;
        json_t *it;
        printf("%s in %s%s\n", write ? "cleanup" : "cleanup (dry run; --write removes)", inv.root,
               unmarked ? " (including unmarked directories)" : "");
        json_array_foreach(items, k, it) {
            const char *d = json_string_value(json_object_get(it, "detail"));
            printf("  %-12s %-24s %12lld bytes  %s%s%s\n", json_string_value(json_object_get(it, "action")),
                   json_string_value(json_object_get(it, "session_id")),
                   (long long)json_integer_value(json_object_get(it, "bytes")),
                   json_string_value(json_object_get(it, "reason")), d ? ": " : "", d ? d : "");
        }
        if (!json_array_size(items)) puts("  nothing to reclaim");
        if (write) printf("reclaimed %lld bytes\n", (long long)reclaimed);
        json_decref(items);
    }
    cc_inventory_free(&inv);
    return 0;
}
