/* What the operator sees of the cluster (see cluster.h): for `codecalc
 * status --json` and `/metrics`. */
#include <stdio.h>
#include <stdlib.h>

#include "protocol/strbuf.h"
#include "state/shared.h"
#include "supervisor/cluster/cluster.h"
#include "supervisor/runs/runs.h"

static json_t *facts_of(struct cc_run_store *s) {
    struct cc_run_cluster c;
    if (cc_run_store_cluster(s, &c) < 0) return json_pack("{s:b,s:s}", "enabled", 1, "error", "the shared store cannot be read");
    double lease = cc_cluster_lease_s();
    json_t *servers = json_array();
    for (size_t i = 0; i < c.n_servers; i++) {
        const struct cc_run_server *v = &c.servers[i];
        json_array_append_new(servers, json_pack("{s:s,s:s,s:b,s:f,s:i,s:I}", "id", v->id, "url", v->url, "alive",
                                                 v->heartbeat_age_s <= lease, "heartbeat_age_seconds",
                                                 v->heartbeat_age_s, "capacity", v->capacity, "claimed",
                                                 (json_int_t)v->claimed));
    }
    free(c.servers);
    return json_pack("{s:b,s:s,s:s,s:f,s:o,s:{s:I,s:I,s:I,s:I,s:I}}", "enabled", 1, "server_id", cc_state_server_id(),
                     "url", cc_state_server_url(), "lease_seconds", lease, "servers", servers, "runs", "queued",
                     (json_int_t)c.queued, "active", (json_int_t)c.active, "finished", (json_int_t)c.done, "lost",
                     (json_int_t)c.lost, "requeued", (json_int_t)c.requeued);
}

json_t *cc_cluster_facts(struct cc_server *srv) {
    struct cc_runs *rs = srv ? srv->runs : NULL;
    if (!rs || !cc_run_store_shared(rs->store)) return json_pack("{s:b}", "enabled", 0);
    return facts_of(rs->store);
}

json_t *cc_cluster_facts_offline(void) {
    const char *url = cc_state_database_url();
    if (!url) return json_pack("{s:b}", "enabled", 0);
    char err[512];
    struct cc_run_store *s = cc_run_store_open_pg(url, err, sizeof err);
    if (!s) return json_pack("{s:b,s:s}", "enabled", 1, "error", err);
    json_t *f = facts_of(s);
    cc_run_store_close(s);
    return f;
}

void cc_cluster_metrics(struct cc_strbuf *sb, const json_t *facts) {
    if (!json_is_true(json_object_get(facts, "enabled")) || json_object_get(facts, "error")) return;
    json_t *runs = json_object_get(facts, "runs");
    cc_sb_puts(sb, "# HELP codecalc_cluster_runs Runs in the shared queue by state.\n"
                   "# TYPE codecalc_cluster_runs gauge\n");
    static const char *const states[] = {"queued", "active", "finished", "lost", "requeued", NULL};
    for (int i = 0; states[i]; i++)
        cc_sb_printf(sb, "codecalc_cluster_runs{state=\"%s\"} %lld\n", states[i],
                     (long long)json_integer_value(json_object_get(runs, states[i])));
    cc_sb_puts(sb, "# HELP codecalc_cluster_server_alive 1 when the server's heartbeat is within the lease.\n"
                   "# TYPE codecalc_cluster_server_alive gauge\n"
                   "# HELP codecalc_cluster_server_claimed Active runs the server holds.\n"
                   "# TYPE codecalc_cluster_server_claimed gauge\n");
    size_t i;
    json_t *v;
    json_array_foreach(json_object_get(facts, "servers"), i, v) {
        const char *id = json_string_value(json_object_get(v, "id"));
        /* Server ids are [A-Za-z0-9-] (identity.c): safe as label values. */
        cc_sb_printf(sb, "codecalc_cluster_server_alive{server=\"%s\"} %d\n", id,
                     json_is_true(json_object_get(v, "alive")));
        cc_sb_printf(sb, "codecalc_cluster_server_claimed{server=\"%s\"} %lld\n", id,
                     (long long)json_integer_value(json_object_get(v, "claimed")));
    }
}
