/* `codecalc status [--json]`: a read-only snapshot of the state directory
 * (TOOLS.md 9.1): sessions with their disk use and expiry, global use and
 * quota headroom, host free space, the audit log, the runtime tiers, the
 * backend, whether a server is serving the directory, and the cluster
 * when the stores are shared (CODECALC_DATABASE_URL). Always exits 0. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "state/run_store.h"
#include "supervisor/cli/args.h"
#include "supervisor/cli/cli.h"
#include "supervisor/cli/doctor.h"
#include "supervisor/cli/inventory.h"
#include "supervisor/cluster/cluster.h"
#include "supervisor/native_check.h"
#include "supervisor/server.h"
#include "workers/common/audit.h"
#include "workers/exec/doctor_report.h"

static json_t *sessions_json(const struct cc_inventory *inv) {
    json_t *a = json_array();
    for (size_t i = 0; i < inv->n; i++) {
        const struct cc_inv_entry *e = &inv->e[i];
        json_t *o = json_pack("{s:s,s:s?,s:b,s:I,s:b,s:b,s:b,s:b}", "session_id", e->id, "language",
                              e->has_record && *e->rec.language ? e->rec.language : NULL, "stateful",
                              e->has_record && e->rec.stateful, "usage_bytes", (json_int_t)e->bytes, "idle_expired",
                              cc_inv_expired(e), "has_workspace", e->has_dir, "recorded", e->has_record, "live",
                              cc_inv_locked(e));
        /* In a cluster: which server holds it, and whether that is this one. */
        if (o && inv->shared) {
            const char *owner = e->has_record && e->rec.owner[0] ? e->rec.owner : NULL;
            json_object_set_new(o, "server", owner ? json_string(owner) : json_null());
            json_object_set_new(o, "local", json_boolean(!e->remote));
            if (e->has_record && e->rec.lost[0]) json_object_set_new(o, "lost", json_string(e->rec.lost));
        }
        json_array_append_new(a, o);
    }
    return a;
}

/* Active runs: this state directory's sqlite file, or with a shared store
 * the cluster's (from facts: queued, active, and the runs each server
 * holds). */
static json_t *runs_json(const struct cc_inventory *inv, const json_t *cluster) {
    if (inv->shared) {
        const json_t *runs = json_object_get(cluster, "runs");
        json_t *by = json_object(), *v;
        json_int_t here = 0;
        size_t i;
        json_array_foreach(json_object_get(cluster, "servers"), i, v) {
            const char *id = json_string_value(json_object_get(v, "id"));
            json_object_set(by, id, json_object_get(v, "claimed"));
            if (!strcmp(id, inv->server_id)) here = json_integer_value(json_object_get(v, "claimed"));
        }
        if (!json_is_object(runs))
            return json_pack("{s:s,s:n,s:o,s:O}", "store", "postgresql", "active", "by_server", by, "error",
                             json_object_get(cluster, "error"));
        return json_pack("{s:s,s:O,s:O,s:I,s:o}", "store", "postgresql", "active", json_object_get(runs, "active"),
                         "queued", json_object_get(runs, "queued"), "this_server", here, "by_server", by);
    }
    char db[PATH_MAX + 16], err[256];
    snprintf(db, sizeof db, "%s/state.db", inv->home);
    int64_t active = 0;
    if (access(db, F_OK) != 0) return json_pack("{s:s,s:i}", "store", "sqlite", "active", 0); /* never create it */
    struct cc_run_store *st = cc_run_store_open_sqlite(db, err, sizeof err);
    bool ok = st && cc_run_store_count_active(st, &active) == 0;
    if (st) cc_run_store_close(st);
    return ok ? json_pack("{s:s,s:I}", "store", "sqlite", "active", (json_int_t)active)
              : json_pack("{s:s,s:n,s:s}", "store", "sqlite", "active", "error", err);
}

/* Counts per status and per tier of the runtimes as resolved (nothing is
 * executed). */
static json_t *runtime_summary(const char *bindir, json_t **tiers) {
    char why[4400];
    json_t *rep = cc_exec_report(bindir, CC_EXEC_DOCTOR_ARG, 1 << 20, why, sizeof why);
    json_t *out = cc_doc_summaries(json_object_get(rep, "runtimes"), tiers);
    json_decref(rep);
    return out;
}

static json_t *status_report(void) {
    struct cc_inventory inv;
    if (cc_inventory_load(&inv, true) < 0) return json_pack("{s:s}", "error", "cannot read the state directory");
    json_t *quota = cc_inventory_quota_json(&inv);
    json_t *limits = json_object_get(quota, "limits");
    json_int_t total = json_integer_value(json_object_get(limits, "total_disk_quota_mb")) << 20;
    char lock[PATH_MAX + 8];
    snprintf(lock, sizeof lock, "%s/lock", inv.home);
    long holder = cc_doc_lock_holder(lock);
    char bindir[PATH_MAX] = ".";
    cc_server_bindir(bindir, sizeof bindir);
    const json_t *caps = cc_native_caps(bindir);
    char *missing = caps ? cc_native_missing(caps, true) : NULL;
    /* docs/cluster.md "Watching it": the servers and runs of a shared store. */
    json_t *cluster = cc_cluster_facts_offline();
    json_t *tiers, *runtimes = runtime_summary(bindir, &tiers);
    json_t *rep = json_pack(
        "{s:s,s:s,s:{s:b,s:o},s:o,s:I,s:I,s:O,s:o,s:o,s:o,s:o,s:{s:s,s:s?},s:b,s:s?}", "state_dir", inv.home,
        "session_root", inv.root, "server", "running", holder != 0, "pid", holder ? json_integer(holder) : json_null(),
        "sessions", sessions_json(&inv), "global_usage_bytes", (json_int_t)inv.total_bytes, "quota_headroom_bytes",
        total - (json_int_t)inv.total_bytes, "quota", limits, "host_free_bytes",
        inv.host_free_bytes >= 0 ? json_integer(inv.host_free_bytes) : json_null(), "audit_log", cc_audit_describe(),
        "runtime_summary", runtimes, "runs", runs_json(&inv, cluster), "backend", "kind", "native", "detail",
        missing, "store_ok", inv.store_ok, "store_error", inv.store_ok ? NULL : inv.store_error);
    if (rep) json_object_set(rep, "cluster", cluster);
    if (rep) json_object_set(rep, "tier_summary", tiers);
    json_decref(tiers);
    if (rep && inv.shared) json_object_set_new(rep, "server_id", inv.server_id[0] ? json_string(inv.server_id) : json_null());
    json_decref(cluster);
    json_decref(quota);
    free(missing);
    cc_inventory_free(&inv);
    return rep;
}

static void print_cluster(const json_t *c) {
    if (!json_is_true(json_object_get(c, "enabled"))) return;
    const char *err = json_string_value(json_object_get(c, "error"));
    if (err) {
        printf("cluster: %s\n", err);
        return;
    }
    size_t alive = 0, i;
    json_t *v;
    json_array_foreach(json_object_get(c, "servers"), i, v) alive += json_is_true(json_object_get(v, "alive"));
    const json_t *runs = json_object_get(c, "runs");
    printf("cluster: %zu servers (%zu alive); runs queued %lld, active %lld, lost %lld\n",
           json_array_size(json_object_get(c, "servers")), alive,
           (long long)json_integer_value(json_object_get(runs, "queued")),
           (long long)json_integer_value(json_object_get(runs, "active")),
           (long long)json_integer_value(json_object_get(runs, "lost")));
}

static void print_text(const json_t *r) {
    const json_t *srv = json_object_get(r, "server");
    printf("state directory: %s (%s)\n", json_string_value(json_object_get(r, "state_dir")),
           json_is_true(json_object_get(srv, "running")) ? "served by a running server" : "no server running");
    printf("session root: %s\n", json_string_value(json_object_get(r, "session_root")));
    size_t i;
    json_t *s;
    json_array_foreach(json_object_get(r, "sessions"), i, s) {
        const char *lang = json_string_value(json_object_get(s, "language"));
        const char *server = json_string_value(json_object_get(s, "server"));
        bool remote = json_is_false(json_object_get(s, "local"));
        printf("  %-24s %-10s %s %12lld bytes%s%s%s%s%s\n", json_string_value(json_object_get(s, "session_id")),
               lang ? lang : "-", json_is_true(json_object_get(s, "stateful")) ? "stateful " : "workspace",
               (long long)json_integer_value(json_object_get(s, "usage_bytes")),
               json_is_true(json_object_get(s, "idle_expired")) ? "  idle-expired" : "",
               json_is_true(json_object_get(s, "recorded")) ? "" : "  unrecorded", server ? "  on server " : "",
               server ? server : "", remote ? " (another server)" : "");
    }
    const json_t *q = json_object_get(r, "quota");
    printf("disk: %lld bytes used, %lld bytes of quota headroom (%lld MiB per session, %lld MiB total)\n",
           (long long)json_integer_value(json_object_get(r, "global_usage_bytes")),
           (long long)json_integer_value(json_object_get(r, "quota_headroom_bytes")),
           (long long)json_integer_value(json_object_get(q, "session_disk_quota_mb")),
           (long long)json_integer_value(json_object_get(q, "total_disk_quota_mb")));
    printf("host free: %lld bytes\n", (long long)json_integer_value(json_object_get(r, "host_free_bytes")));
    const json_t *a = json_object_get(r, "audit_log");
    if (json_is_true(json_object_get(a, "enabled")))
        printf("audit log: %s (%lld bytes, rotates at %lld)\n", json_string_value(json_object_get(a, "path")),
               (long long)json_integer_value(json_object_get(a, "size_bytes")),
               (long long)json_integer_value(json_object_get(a, "rotate_at_bytes")));
    else printf("audit log: %s\n", json_string_value(json_object_get(a, "detail")));
    const json_t *rs = json_object_get(r, "runtime_summary");
    const json_t *ts = json_object_get(r, "tier_summary");
    printf("runtimes: %lld installed, %lld supported (not installed); tiers: %lld tested, %lld best_effort, "
           "%lld plan_only\n",
           (long long)json_integer_value(json_object_get(rs, "installed")),
           (long long)json_integer_value(json_object_get(rs, "supported")),
           (long long)json_integer_value(json_object_get(ts, "tested")),
           (long long)json_integer_value(json_object_get(ts, "best_effort")),
           (long long)json_integer_value(json_object_get(ts, "plan_only")));
    const json_t *runs = json_object_get(r, "runs");
    printf("background runs active: %lld", (long long)json_integer_value(json_object_get(runs, "active")));
    if (json_object_get(runs, "by_server")) {
        printf(" in the cluster (queued %lld); held by server:",
               (long long)json_integer_value(json_object_get(runs, "queued")));
        const char *id;
        json_t *n;
        json_object_foreach((json_t *)json_object_get(runs, "by_server"), id, n)
            printf(" %s %lld", id, (long long)json_integer_value(n));
    }
    putchar('\n');
    print_cluster(json_object_get(r, "cluster"));
    const char *d = json_string_value(json_object_get(json_object_get(r, "backend"), "detail"));
    printf("backend: native%s%s\n", d ? " — " : " (every sandbox feature present)", d ? d : "");
}

int cc_cli_status(int argc, char **argv) {
    struct cc_cli_flag flags[] = {{"--json", false, false, NULL}, {NULL, false, false, NULL}};
    if (cc_cli_parse(argc, argv, flags, "usage: codecalc status [--json]\n") < 0) return 2;
    json_t *r = status_report();
    if (flags[0].set) {
        char *text = json_dumps(r, JSON_INDENT(2) | JSON_SORT_KEYS);
        if (text) printf("%s\n", text);
        free(text);
    } else {
        print_text(r);
    }
    json_decref(r);
    return 0;
}
