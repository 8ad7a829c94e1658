/* What the operator sees of the cluster (see cluster.h): for `codecalc
 * status --json`, `/status` and `/metrics`. A running server answers from
 * its upkeep's cache (upkeep.c), so a scrape never waits for the database;
 * the CLI, which has no loop to keep, asks the store once. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "protocol/strbuf.h"
#include "state/shared.h"
#include "supervisor/cluster/cluster.h"
#include "supervisor/runs/runs.h"

static json_t *servers_json(const struct cc_cluster_view *v) {
    double lease = cc_cluster_lease_s();
    json_t *servers = json_array();
    for (size_t i = 0; i < v->n_servers; i++) {
        const struct cc_run_server *s = &v->servers[i];
        /* As of now, not as of the read: a stale cache must not keep a
         * dead server alive. */
        double age = s->heartbeat_age_s + v->servers_age_s;
        json_array_append_new(servers, json_pack("{s:s,s:s,s:b,s:f,s:i,s:I}", "id", s->id, "url", s->url, "alive",
                                                 age <= lease, "heartbeat_age_seconds", age, "capacity", s->capacity,
                                                 "claimed", (json_int_t)s->claimed));
    }
    return servers;
}

static json_t *facts_of(const struct cc_cluster_view *v) {
    const struct cc_run_cluster *c = &v->counts;
    json_t *runs = v->have_counts ? json_pack("{s:I,s:I,s:I,s:I,s:I}", "queued", (json_int_t)c->queued, "active",
                                              (json_int_t)c->active, "finished", (json_int_t)c->done, "lost",
                                              (json_int_t)c->lost, "requeued", (json_int_t)c->requeued)
                                  : json_null();
    double age = v->servers_age_s > v->counts_age_s ? v->servers_age_s : v->counts_age_s;
    json_t *f = json_pack("{s:b,s:s,s:s,s:f,s:o,s:o,s:o}", "enabled", 1, "server_id", cc_state_server_id(), "url",
                          cc_state_server_url(), "lease_seconds", cc_cluster_lease_s(), "servers", servers_json(v),
                          "runs", runs, "age_seconds",
                          v->have_servers || v->have_counts ? json_real(age) : json_null());
    if (f && v->error && v->error[0]) json_object_set_new(f, "error", json_string(v->error));
    return f;
}

json_t *cc_cluster_facts(struct cc_server *srv) {
    struct cc_cluster_upkeep *k = cc_cluster_upkeep_of(srv ? srv->runs : NULL);
    if (!k) return json_pack("{s:b}", "enabled", 0);
    struct cc_cluster_view v;
    cc_cluster_upkeep_view(k, &v);
    return facts_of(&v);
}

int cc_cluster_claimed_here(struct cc_server *srv, int64_t *n) {
    struct cc_cluster_upkeep *k = cc_cluster_upkeep_of(srv ? srv->runs : NULL);
    struct cc_cluster_view v;
    if (!k) return -1;
    cc_cluster_upkeep_view(k, &v);
    for (size_t i = 0; v.have_servers && i < v.n_servers; i++)
        if (!strcmp(v.servers[i].id, cc_state_server_id())) return *n = v.servers[i].claimed, 0;
    return -1;
}

json_t *cc_cluster_facts_offline(void) {
    const char *url = cc_state_database_url();
    if (!url) return json_pack("{s:b}", "enabled", 0);
    char err[512];
    struct cc_run_store *s = cc_run_store_open_pg(url, err, sizeof err);
    if (!s) return json_pack("{s:b,s:s}", "enabled", 1, "error", err);
    struct cc_run_cluster c;
    json_t *f;
    if (cc_run_store_cluster(s, &c) < 0) {
        f = json_pack("{s:b,s:s}", "enabled", 1, "error", "the shared store cannot be read");
    } else {
        struct cc_cluster_view v = {.have_servers = true, .have_counts = true, .servers = c.servers,
                                    .n_servers = c.n_servers, .counts = c};
        f = facts_of(&v);
    }
    free(c.servers);
    cc_run_store_close(s);
    return f;
}

void cc_cluster_metrics(struct cc_strbuf *sb, const json_t *facts) {
    if (!json_is_true(json_object_get(facts, "enabled"))) return;
    json_t *runs = json_object_get(facts, "runs"), *age = json_object_get(facts, "age_seconds");
    if (json_is_number(age))
        cc_sb_printf(sb, "# HELP codecalc_cluster_facts_age_seconds Age of the cluster figures below (read without "
                         "waiting for the database).\n# TYPE codecalc_cluster_facts_age_seconds gauge\n"
                         "codecalc_cluster_facts_age_seconds %.3f\n", json_number_value(age));
    if (json_is_object(runs)) {
        cc_sb_puts(sb, "# HELP codecalc_cluster_runs Runs in the shared queue by state.\n"
                       "# TYPE codecalc_cluster_runs gauge\n");
        static const char *const states[] = {"queued", "active", "finished", "lost", "requeued", NULL};
        for (int i = 0; states[i]; i++)
            cc_sb_printf(sb, "codecalc_cluster_runs{state=\"%s\"} %lld\n", states[i],
                         (long long)json_integer_value(json_object_get(runs, states[i])));
    }
    json_t *servers = json_object_get(facts, "servers");
    if (!json_array_size(servers)) return;
    /* A family's samples stay together (the exposition format requires it). */
    static const struct {
        const char *name, *help, *field;
    } fams[] = {
        {"codecalc_cluster_server_alive", "1 when the server's heartbeat is within the lease.", "alive"},
        {"codecalc_cluster_server_claimed", "Active runs the server holds.", "claimed"},
    };
    for (size_t f = 0; f < sizeof fams / sizeof fams[0]; f++) {
        cc_sb_printf(sb, "# HELP %s %s\n# TYPE %s gauge\n", fams[f].name, fams[f].help, fams[f].name);
        size_t i;
        json_t *v;
        json_array_foreach(servers, i, v) {
            json_t *x = json_object_get(v, fams[f].field);
            /* Server ids are [A-Za-z0-9_-] (identity.c): safe as label values. */
            cc_sb_printf(sb, "%s{server=\"%s\"} %lld\n", fams[f].name, json_string_value(json_object_get(v, "id")),
                         json_is_boolean(x) ? (long long)json_is_true(x) : (long long)json_integer_value(x));
        }
    }
}
