/* Background runs: the run_submit / run_inspect / run_cancel handlers and
 * the start-up recovery (TOOLS.md 3.2.9-3.2.11, section 5, as amended by the
 * runs issue: durable state, detached shepherds, local runs cancellable).
 * Shared pieces and the lifecycle overview are in supervisor/runs/runs.h. */
#include <ctype.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>

#include "protocol/json_convert.h"
#include "protocol/cap_policy.h"
#include "protocol/text_knob.h"
#include "protocol/knob.h"
#include "protocol/proc_stat.h"
#include "protocol/strbuf.h"
#include "state/lock.h"
#include "supervisor/home.h"
#include "supervisor/mcp/local_tools.h"
#include "supervisor/cluster/cluster.h"
#include "supervisor/log.h"
#include "supervisor/runs/runs.h"
#include "workers/common/deps.h"
#include "workers/common/provider_select.h"
#include "workers/common/tool_api.h"
#include "workers/exec/lang_refusal.h"
#include "supervisor/sessions/sessions.h"
#include "workers/exec/shepherd.h"

#define RUN_TIMEOUT_DEFAULT 30
#define RUN_TIMEOUT_MAX 120

/* ---- answering ----------------------------------------------------------- */

/* Send a result object we built (adds contract_version) and drop it. */
static void answer(struct cc_req *r, json_t *o) {
    if (!o) {
        cc_req_answer_fail(r, "internal", "out of memory while building the run answer");
        return;
    }
    json_object_set_new(o, "contract_version", json_string(CC_CONTRACT_VERSION));
    struct cc_strbuf sb;
    cc_sb_init(&sb);
    if (cc_json_emit(&sb, o) < 0) cc_req_answer_fail(r, "internal", "cannot encode the run answer");
    else cc_req_answer_result(r, sb.data, sb.len, false);
    cc_sb_free(&sb);
    json_decref(o);
}

/* What a caller is told about a record's state. */
static const char *shown_state(const struct cc_run_rec *rec) {
    if (rec->expired) return "cleaned";
    switch (rec->state) {
    case CC_RUN_QUEUED: /* TOOLS.md 5: "running" covers executing or queued */
    case CC_RUN_RUNNING: return "running";
    case CC_RUN_CANCELLING: return "cancelling";
    case CC_RUN_DONE: return rec->collected ? "cleaned" : "finished";
    case CC_RUN_CANCELLED: return "cancelled";
    case CC_RUN_LOST: return "lost";
    }
    return "lost";
}

/* run_id, provider_id, started_at, deadline, state, cleaned onto o. */
static json_t *with_run_fields(json_t *o, const struct cc_run_rec *rec) {
    if (!o) return NULL;
    json_object_set_new(o, "run_id", json_string(rec->id));
    json_object_set_new(o, "provider_id", json_string(rec->provider_id));
    json_object_set_new(o, "started_at", json_real(rec->started_at));
    json_object_set_new(o, "deadline", json_real(rec->deadline));
    json_object_set_new(o, "state", json_string(shown_state(rec)));
    json_object_set_new(o, "cleaned", json_boolean(!cc_run_active(rec->state) &&
                                                   (rec->collected || rec->expired ||
                                                    rec->state != CC_RUN_DONE)));
    if (rec->shared) cc_cluster_run_fields(o, rec);
    return o;
}

static json_t *lifecycle(const struct cc_run_rec *rec) {
    return with_run_fields(json_pack("{s:b}", "ok", 1), rec);
}

/* ---- arguments ------------------------------------------------------------ */

static struct cc_runs *runs_of(struct cc_server *srv, struct cc_req *r) {
    struct cc_runs *rs = srv->runs;
    if (!rs) {
        json_t *e = cc_err("internal", "run supervisor unavailable");
        json_object_set_new(e, "provider_error", json_string("run_supervisor_unavailable"));
        answer(r, e);
    }
    return rs;
}

/* Look up args.run_id. Answers (and returns 0) when it is malformed or
 * unknown; 1 with rec filled otherwise. */
static int find_run(struct cc_runs *rs, struct cc_req *r, json_t *args, struct cc_run_rec *rec) {
    const char *id = json_string_value(json_object_get(args, "run_id"));
    json_t *e = NULL;
    if (!cc_run_id_valid(id)) {
        /* The value is not echoed: it may be anything, of any length. */
        e = cc_err("validation", "invalid run id: a run id is 32 lowercase hex characters, as "
                                 "returned by run_submit");
    } else {
        int got = cc_run_store_get(rs->store, id, rec);
        if (got == 1) return 1;
        if (got < 0) {
            cc_req_answer_fail(r, "internal", "the run store cannot be read");
            return 0;
        }
        e = cc_err("validation", "unknown run '%s'", id);
        json_object_set_new(e, "run_id", json_string(id));
    }
    json_object_set_new(e, "provider_error", json_string("unknown_run"));
    answer(r, e);
    return 0;
}

/* Type checks the schema already made, repeated because a handler never
 * trusts its input; plus the clamped timeout. NULL when fine. */
static json_t *check_submit(json_t *args, int64_t *timeout) {
    const char *lang = json_string_value(json_object_get(args, "language"));
    if (!lang) return cc_err("validation", "language must be a string");
    /* Refused before any run exists (issue 11 item 5), in execute_code's words. */
    if (!cc_session_lang(lang)) return cc_unknown_language(lang);
    if (!json_is_string(json_object_get(args, "code"))) return cc_err("validation", "code must be a string");
    static const char *const strs[] = {"stdin", "provider", NULL};
    for (int i = 0; strs[i]; i++) {
        json_t *v = json_object_get(args, strs[i]);
        if (v && !json_is_null(v) && !json_is_string(v)) return cc_err("validation", "%s must be a string", strs[i]);
    }
    json_t *nn = json_object_get(args, "no_net");
    if (nn && !json_is_null(nn) && !json_is_boolean(nn)) return cc_err("validation", "no_net must be a boolean");
    static const char *const ints[] = {"timeout", "max_memory_mb", "max_output_kb", "max_cpu", NULL};
    mpz_t z;
    mpz_init(z);
    json_t *bad = NULL;
    *timeout = RUN_TIMEOUT_DEFAULT;
    for (int i = 0; ints[i] && !bad; i++) {
        json_t *v = json_object_get(args, ints[i]);
        if (!v || json_is_null(v)) continue;
        if (cc_json_get_mpz(v, z) < 0) bad = cc_err("validation", "%s must be an integer", ints[i]);
        else if (i == 0) *timeout = mpz_cmp_si(z, 1) < 0 ? 1 : mpz_cmp_si(z, RUN_TIMEOUT_MAX) > 0 ? RUN_TIMEOUT_MAX : mpz_get_si(z);
    }
    mpz_clear(z);
    return bad;
}

/* ---- run_submit ------------------------------------------------------------ */

/* The capability broker, exactly as execute_code runs it (TOOLS.md 10.2):
 * a rejection is returned before anything of the run exists. Without a
 * policy the broker admits everything unchanged, so only a policy costs the
 * round trip to the launcher (where the broker and the sandbox probe live).
 * The run itself is brokered again by its shepherd (execute_code's path),
 * which applies a forced no_net and writes the receipt. */
static json_t *broker(struct cc_runs *rs, json_t *args, bool *net_denied) {
    const char *policy = cc_text(CC_TEXT_CAPABILITY_POLICY);
    struct cc_cap_policy p;
    *net_denied = false;
    cc_cap_policy_parse(policy, &p, NULL, NULL);
    if (!p.active) return NULL;
    return cc_runs_broker_check(rs, json_is_true(json_object_get(args, "no_net")), policy, net_denied);
}

/* Per-run dependencies (docs/contract.md): checked, and refused when they
 * must be installed but the run may not use the network, before a run
 * exists. The install itself is the shepherd's, ahead of the program. */
static json_t *check_deps(json_t *args, bool net_denied) {
    const char *lang = cc_session_lang(json_string_value(json_object_get(args, "language")));
    json_t *code = json_object_get(args, "code");
    struct cc_deps d;
    json_t *e = cc_deps_read(args, lang, json_string_value(code), json_string_length(code), &d);
    if (!e && d.n) e = cc_deps_locate(&d);
    if (!e && d.n) e = cc_deps_refusal(&d, json_is_true(json_object_get(args, "no_net")), net_denied);
    cc_deps_free(&d);
    return e;
}

static int new_run_id(char out[CC_RUN_ID_LEN + 1]) {
    unsigned char b[16];
    if (getrandom(b, sizeof b, 0) != (ssize_t)sizeof b) return -1;
    b[6] = (b[6] & 0x0f) | 0x40; /* a version-4 UUID, as the spec says */
    b[8] = (b[8] & 0x3f) | 0x80;
    for (int i = 0; i < 16; i++) snprintf(out + 2 * i, 3, "%02x", b[i]);
    return 0;
}

/* Admission (section 5): observe finished runs first, then count. The server
 * is single-threaded, so count and insert cannot interleave. Observing only
 * ever lowers the count, so below the cap it cannot change the decision and
 * is skipped: a submission then costs one indexed COUNT instead of a look at
 * every active run's directory (the 1 s sweep and run_inspect still observe
 * completions). At the cap the full sweep runs before the final count. */
static json_t *admit(struct cc_runs *rs) {
    int64_t active = 0;
    if (cc_run_store_count_active(rs->store, &active) < 0) return cc_err("internal", "the run store cannot be read");
    if (active < rs->max_active) return NULL;
    cc_runs_sweep_active(rs, false);
    if (cc_run_store_count_active(rs->store, &active) < 0) return cc_err("internal", "the run store cannot be read");
    if (active < rs->max_active) return NULL;
    json_t *e = cc_err("resource_exhausted",
                       "%lld runs are already active against a limit of %lld; call run_inspect/"
                       "run_cancel to free one up, or wait for one to finish, then retry",
                       (long long)active, (long long)rs->max_active);
    json_object_set_new(e, "active_runs", json_integer(active));
    json_object_set_new(e, "limit", json_integer(rs->max_active));
    return e;
}

/* A full disk is resource_exhausted; everything else about the state
 * directory is an internal (host) failure. */
static json_t *storage_error(int err_no, const char *why) {
    json_t *e = cc_err(err_no == ENOSPC || err_no == EDQUOT ? "resource_exhausted" : "internal",
                       "cannot create the run: %s", why);
    json_object_set_new(e, "provider_error", json_string("run_state_unwritable"));
    return e;
}

/* Write spec + record and start the shepherd; on any failure nothing is
 * left behind and the rejection is returned. */
static json_t *create_run(struct cc_runs *rs, json_t *args, struct cc_run_rec *rec) {
    char why[1024];
    struct cc_strbuf sb;
    cc_sb_init(&sb);
    if (cc_json_emit(&sb, args) < 0) {
        cc_sb_free(&sb);
        return cc_err("validation", "the run's arguments cannot be encoded");
    }
    int rc = cc_runs_write_spec(rs, rec->id, sb.data, sb.len, why, sizeof why);
    int e = errno;
    cc_sb_free(&sb);
    if (rc < 0) return storage_error(e, why);
    if (cc_run_store_put(rs->store, rec) < 0) {
        cc_runs_remove_dir(rs, rec->id);
        return storage_error(EIO, "the run store refused the new record (is the state directory "
                                  "writable and not full?)");
    }
    char dir[4400];
    cc_runs_path(rs, rec->id, NULL, dir, sizeof dir);
    if (cc_runs_launch(rs, dir, why, sizeof why) < 0) {
        cc_run_store_delete(rs->store, rec->id);
        cc_runs_remove_dir(rs, rec->id);
        json_t *x = cc_err("internal", "run supervisor unavailable: %s", why);
        json_object_set_new(x, "provider_error", json_string("run_supervisor_unavailable"));
        return x;
    }
    /* The shepherd's pid + start time are adopted from its pid file at the
     * next observation; until then a cancel is delivered by marker file. */
    return NULL;
}

CC_LOCAL_TOOL(run_submit) {
    struct cc_runs *rs = runs_of(srv, r);
    if (!rs) return;
    int64_t timeout = RUN_TIMEOUT_DEFAULT;
    json_t *e = check_submit(args, &timeout);
    bool net_denied = false;
    if (!e) e = cc_provider_reject(json_string_value(json_object_get(args, "provider")));
    if (!e) e = broker(rs, args, &net_denied);
    if (!e) e = check_deps(args, net_denied);
    bool shared = cc_run_store_shared(rs->store);
    if (!e && !shared) e = admit(rs);
    struct cc_run_rec rec = {.state = CC_RUN_RUNNING, .attempt = 1};
    if (!e && new_run_id(rec.id) < 0) e = cc_err("internal", "no randomness for a run id: %s", strerror(errno));
    if (!e) {
        snprintf(rec.provider_id, sizeof rec.provider_id, "local");
        rec.started_at = cc_runs_now();
        rec.deadline = rec.started_at + (double)timeout;
        e = shared ? cc_cluster_submit(rs, args, &rec) : create_run(rs, args, &rec);
    }
    if (e) {
        answer(r, e);
        return;
    }
    json_t *o = lifecycle(&rec);
    json_object_del(o, "cleaned");
    answer(r, o);
}

/* ---- run_inspect ------------------------------------------------------------- */

/* The terminal answer of a LOST run: a coded failure, honestly saying why. */
static json_t *lost_answer(const struct cc_run_rec *rec) {
    json_t *e = cc_err("internal", "background run failed: %s", rec->reason[0] ? rec->reason : "the run was lost");
    json_object_set_new(e, "provider_error", json_string("run_lost"));
    json_object_set_new(e, "requested_provider", json_string(rec->provider_id));
    return with_run_fields(e, rec);
}

static json_t *expired_answer(const struct cc_runs *rs, const struct cc_run_rec *rec) {
    json_t *o = with_run_fields(json_pack("{s:b,s:b}", "ok", 0, "expired", 1), rec);
    const char *outcome = rec->state == CC_RUN_CANCELLED ? "cancelled"
                          : rec->state == CC_RUN_LOST    ? "lost" : "finished";
    json_object_set_new(o, "outcome", json_string(outcome));
    char note[256];
    snprintf(note, sizeof note, "the run %s and its result was deleted after the retention period "
             "(%.6g hours, CODECALC_RUN_TTL_HOURS); it can no longer be read", outcome, rs->ttl_s / 3600);
    json_object_set_new(o, "note", json_string(note));
    return o;
}

static json_t *finished_answer(struct cc_runs *rs, struct cc_run_rec *rec) {
    json_t *doc = rec->shared ? cc_cluster_read_result(rs, rec) : cc_runs_read_result(rs, rec->id);
    if (!doc) {
        json_t *e = cc_err("internal", "background run failed: its result can no longer be read (%s)",
                           strerror(errno));
        json_object_set_new(e, "provider_error", json_string("result_unreadable"));
        json_object_set_new(e, "requested_provider", json_string(rec->provider_id));
        return with_run_fields(e, rec);
    }
    if (!rec->collected) {
        rec->collected = true; /* local has nothing more to release: "cleaned" */
        if (cc_run_store_put(rs->store, rec) < 0) cc_log(CC_LOG_ERROR, "run %s: cannot record collection", rec->id);
    }
    json_t *res = json_incref(json_object_get(doc, "result"));
    json_decref(doc);
    json_object_del(res, "contract_version"); /* re-added by answer() */
    with_run_fields(res, rec);
    if (rec->state == CC_RUN_CANCELLED) json_object_set_new(res, "cancelled", json_true());
    return res;
}

/* A running run: its lifecycle and the output so far, bounded (issue 11
 * item 9): stdout/stderr hold at most the first 64 KiB each, the *_bytes
 * counts say how much the program has written. */
static json_t *running_answer(struct cc_runs *rs, const struct cc_run_rec *rec) {
    json_t *o = lifecycle(rec), *p = rec->shared ? cc_cluster_read_partial(rs, rec) : cc_runs_read_partial(rs, rec->id);
    static const char *const keys[] = {"stdout", "stderr"};
    for (int i = 0; i < 2; i++) {
        char bytes[16];
        snprintf(bytes, sizeof bytes, "%s_bytes", keys[i]);
        json_t *text = json_object_get(p, keys[i]), *n = json_object_get(p, bytes);
        json_object_set_new(o, keys[i], json_is_string(text) ? json_incref(text) : json_string(""));
        json_object_set_new(o, bytes, json_is_integer(n) ? json_incref(n) : json_integer(0));
    }
    json_t *phase = json_object_get(p, "phase");
    json_object_set_new(o, "phase", json_is_string(phase) ? json_incref(phase) : json_null());
    json_int_t ob = json_integer_value(json_object_get(o, "stdout_bytes"));
    json_int_t eb = json_integer_value(json_object_get(o, "stderr_bytes"));
    json_object_set_new(o, "output_truncated", json_boolean(ob > CC_SHEPHERD_PARTIAL_CAP || eb > CC_SHEPHERD_PARTIAL_CAP));
    json_decref(p);
    return o;
}

CC_LOCAL_TOOL(run_inspect) {
    struct cc_runs *rs = runs_of(srv, r);
    struct cc_run_rec rec;
    if (!rs || !find_run(rs, r, args, &rec)) return;
    cc_runs_observe(rs, &rec, true);
    cc_runs_expire_if_due(rs, &rec);
    if (cc_run_active(rec.state)) answer(r, running_answer(rs, &rec));
    else if (rec.expired) answer(r, expired_answer(rs, &rec));
    else if (rec.state == CC_RUN_LOST) answer(r, lost_answer(&rec));
    else answer(r, finished_answer(rs, &rec));
}

/* ---- run_cancel ------------------------------------------------------------- */

/* Deliver the cancel: a marker file (seen even by a shepherd that has not
 * installed its handler yet) and SIGTERM to the verified shepherd. */
int cc_runs_deliver_cancel(struct cc_runs *rs, const struct cc_run_rec *rec) {
    int marked = cc_runs_touch_cancel(rs, rec->id);
    int signalled = -1;
    if (rec->pid && cc_proc_alive(rec->pid, rec->pid_start)) signalled = kill(rec->pid, SIGTERM);
    return marked == 0 || signalled == 0 ? 0 : -1;
}

CC_LOCAL_TOOL(run_cancel) {
    struct cc_runs *rs = runs_of(srv, r);
    struct cc_run_rec rec;
    if (!rs || !find_run(rs, r, args, &rec)) return;
    if (rec.shared) {
        answer(r, cc_cluster_cancel(rs, &rec));
        return;
    }
    cc_runs_observe(rs, &rec, true);
    json_t *o;
    if (!cc_run_active(rec.state)) {
        o = json_pack("{s:b,s:s,s:b,s:s}", "ok", 1, "run_id", rec.id, "cancelled", 0, "state", shown_state(&rec));
    } else if (cc_runs_deliver_cancel(rs, &rec) < 0) {
        o = cc_err("internal", "could not signal the run's shepherd: %s", strerror(errno));
        json_object_set_new(o, "provider_error", json_string("provider_cancel_failed"));
        json_object_set_new(o, "run_id", json_string(rec.id));
    } else {
        rec.state = CC_RUN_CANCELLING;
        if (cc_run_store_put(rs->store, &rec) < 0) cc_log(CC_LOG_ERROR, "run %s: cannot record cancelling", rec.id);
        o = json_pack("{s:b,s:s,s:b,s:s}", "ok", 1, "run_id", rec.id, "cancelled", 1, "state", "cancelling");
    }
    answer(r, o);
}


/* ---- start-up and shutdown --------------------------------------------------- */

/* Hours, fractional allowed (tests use seconds' worth). */
static double env_ttl_s(void) { return (double)cc_knob(CC_KNOB_RUN_TTL_HOURS) / 1000.0; }

static int open_state(struct cc_runs *rs, const char *home) {
    char err[1024], db[4200];
    if (cc_state_lock(home, err, sizeof err) < 0) {
        fprintf(stderr, "codecalc: %s\n", err);
        return -1;
    }
    if (snprintf(rs->dir, sizeof rs->dir, "%s/runs", home) >= (int)sizeof rs->dir ||
        snprintf(db, sizeof db, "%s/state.db", home) >= (int)sizeof db) {
        fprintf(stderr, "codecalc: CODECALC_HOME path is too long\n");
        return -1;
    }
    if (mkdir(rs->dir, 0700) < 0 && errno != EEXIST)
        cc_log(CC_LOG_WARNING, "cannot create %s: %s (run_submit will fail until it can)", rs->dir, strerror(errno));
    rs->store = cc_run_store_open(db, err, sizeof err);
    if (!rs->store) {
        fprintf(stderr, "codecalc: %s (CODECALC_HOME=%s)\n", err, home);
        return -1;
    }
    if (cc_run_store_check(rs->store, err, sizeof err) < 0) {
        fprintf(stderr, "codecalc: the state database %s is damaged: %s\n", db, err);
        return -1;
    }
    return 0;
}

int cc_runs_init(struct cc_server *srv) {
    char home[4096] = "";
    if (cc_home_dir(home, sizeof home) < 0) {
        /* The operator needs the path: HOME=/nonexistent (a service user)
         * named only CODECALC_HOME, which was not even set. */
        fprintf(stderr, "codecalc: cannot use the state directory %s: %s; it is $CODECALC_HOME, else "
                "$HOME/.codecalc: set CODECALC_HOME to a directory this user can create or write\n",
                home[0] ? home : "(neither CODECALC_HOME nor HOME is set)", strerror(errno));
        return -1;
    }
    struct cc_runs *rs = calloc(1, sizeof *rs);
    if (!rs) return -1;
    rs->launcher_fd = -1;
    srv->runs = rs;
    if (open_state(rs, home) < 0) return -1;
    if (snprintf(rs->shepherd_bin, sizeof rs->shepherd_bin, "%s/codecalc-exec", srv->bindir) >=
        (int)sizeof rs->shepherd_bin)
        return -1;
    rs->max_active = cc_knob(CC_KNOB_MAX_ACTIVE_RUNS);
    rs->ttl_s = env_ttl_s();
    if (cc_run_store_shared(rs->store) && cc_cluster_runs_start(srv, rs, home) < 0) return -1;
    /* Recovery: re-attach live shepherds, ingest results written while no
     * server was up, mark vanished ones lost. */
    cc_runs_sweep_active(rs, true);
    rs->next_ttl_sweep = 0;
    /* The shepherd launcher is started by the first timer tick or the first
     * run_submit, whichever comes first: not here, where its spawn would
     * delay the server's first answer. */
    return cc_runs_timer_start(rs, srv->base);
}

void cc_runs_shutdown(struct cc_server *srv) {
    struct cc_runs *rs = srv->runs;
    if (!rs) return;
    if (rs->timer) event_free(rs->timer);
    cc_cluster_runs_stop(rs);
    cc_runs_launcher_stop(rs);
    cc_run_store_close(rs->store);
    free(rs);
    srv->runs = NULL;
    cc_state_unlock();
}
