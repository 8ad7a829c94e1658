/* update_runtimes (TOOLS.md 3.6.2 as amended by issue 16): the status of
 * runtimes.c, then, with apply, one update command per manager for its
 * updatable rows. A command that needs root rights (elevated: apt always,
 * npm when its global root belongs to root) runs only when the host set
 * CODECALC_ALLOW_RUNTIME_APPLY; `apply` is something a model can flip, the
 * variable is not. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "protocol/flag.h"
#include "protocol/monotonic.h"
#include "workers/exec/host_cmd.h"
#include "workers/exec/languages.h"
#include "workers/exec/runtimes.h"

#define TAIL 1500
#define TIMEOUT_DEFAULT 600
/* The call's response deadline is 900 s (TOOLS.md 0.6): commands together
 * stay below it, with room for the status queries and the answer. */
#define BUDGET_S 840

static const char *const managers[] = {"apt", "npm", NULL};

static bool apply_allowed(void) { return cc_flag(CC_FLAG_ALLOW_RUNTIME_APPLY); }

/* The updatable rows of one manager: their languages, packages (npm with
 * the version to install) and whether any needs root rights. */
static void group(json_t *status, const char *manager, json_t *langs, json_t *pkgs, bool *elevated) {
    const char *key;
    json_t *row;
    json_object_foreach(json_object_get(status, "languages"), key, row) {
        const char *m = json_string_value(json_object_get(row, "manager"));
        if (!m || strcmp(m, manager) || !json_is_true(json_object_get(row, "updatable"))) continue;
        json_array_append_new(langs, json_string(key));
        *elevated |= json_is_true(json_object_get(row, "elevated"));
        const char *pkg = json_string_value(json_array_get(json_object_get(row, "packages"), 0));
        const char *latest = json_string_value(json_object_get(row, "latest"));
        char spec[512];
        if (!strcmp(manager, "npm")) snprintf(spec, sizeof spec, "%s@%s", pkg, latest);
        else snprintf(spec, sizeof spec, "%s", pkg);
        bool dup = false;
        size_t i;
        json_t *p;
        json_array_foreach(pkgs, i, p) dup |= !strcmp(json_string_value(p), spec);
        if (!dup) json_array_append_new(pkgs, json_string(spec));
    }
}

static json_t *tail_of(const char *text) {
    size_t n = text ? strlen(text) : 0;
    const char *t = n > TAIL ? text + n - TAIL : text ? text : "";
    while (((unsigned char)*t & 0xC0) == 0x80) t++; /* not inside a UTF-8 sequence */
    json_t *s = json_string(t);
    return s ? s : json_string("(output was not UTF-8)");
}

struct outcome {
    int ok, total, blocked, timed_out, unstartable;
};

/* Run (or refuse) one manager's command; the executed entry. */
static json_t *run_one(const char *manager, json_t *langs, json_t *pkgs, bool elevated, int timeout_s,
                       int64_t t0, cc_wctx *ctx, struct outcome *o) {
    char **argv = cc_rt_update_argv(manager, pkgs, elevated && geteuid() != 0);
    char *cmd = argv ? cc_rt_join(argv) : NULL;
    json_t *e = json_pack("{s:s,s:O,s:s,s:b}", "manager", manager, "languages", langs, "command",
                          cmd ? cmd : "", "elevated", elevated);
    o->total++;
    int left = BUDGET_S - (int)((cc_now_ms() - t0) / 1000);
    if (elevated && !apply_allowed()) {
        o->blocked++;
        json_object_set_new(e, "skipped", json_true());
        json_object_set_new(e, "exit_code", json_null());
        json_object_set_new(e, "ok", json_false());
        json_object_set_new(e, "output_tail", json_string(
            "not run: this command needs root rights and CODECALC_ALLOW_RUNTIME_APPLY is not enabled on "
            "this host (the operator sets it to 1/true/yes/on to allow elevated updates)"));
    } else if (left <= 0) {
        o->timed_out++;
        json_object_set_new(e, "exit_code", json_null());
        json_object_set_new(e, "ok", json_false());
        json_object_set_new(e, "output_tail", json_string("not run: the call's 900 s deadline would pass first"));
    } else {
        char *bin = argv ? cc_host_cmd_find(argv[0]) : NULL;
        struct cc_host_cmd c = {0};
        int t = timeout_s < left ? timeout_s : left;
        if (bin) {
            free(argv[0]);
            argv[0] = bin;
            cc_host_cmd_run((const char *const *)argv, t, 64 * 1024, true, ctx, &c);
        } else {
            snprintf(c.spawn_error, sizeof c.spawn_error, "%s: not found on the runtime PATH or the server's PATH",
                     argv ? argv[0] : manager);
        }
        bool ok = c.started && c.exited && c.exit_code == 0;
        o->ok += ok;
        o->timed_out += c.timed_out;
        o->unstartable += !c.started;
        json_object_set_new(e, "exit_code", c.started && c.exited ? json_integer(c.exit_code) : json_null());
        json_object_set_new(e, "ok", json_boolean(ok));
        char why[400];
        json_object_set_new(e, "output_tail", c.started && !c.timed_out ? tail_of(c.out)
                                              : json_string(cc_host_cmd_why(&c, t, why, sizeof why)));
        cc_host_cmd_free(&c);
    }
    free(cmd);
    cc_argv_free(argv);
    return e;
}

static json_t *apply(json_t *status, int timeout_s, cc_wctx *ctx) {
    int64_t t0 = cc_now_ms();
    json_t *executed = json_array(), *blocked = json_array();
    struct outcome o = {0};
    for (int m = 0; managers[m]; m++) {
        json_t *langs = json_array(), *pkgs = json_array();
        bool elevated = false;
        group(status, managers[m], langs, pkgs, &elevated);
        if (json_array_size(pkgs)) {
            int before = o.blocked;
            json_array_append_new(executed, run_one(managers[m], langs, pkgs, elevated, timeout_s, t0, ctx, &o));
            if (o.blocked > before) json_array_append_new(blocked, json_string(managers[m]));
        }
        json_decref(langs);
        json_decref(pkgs);
    }
    bool all = o.ok == o.total;
    json_t *res = json_pack("{s:b,s:b,s:o}", "ok", all, "dry_run", 0, "executed", executed);
    if (o.ok && !all) json_object_set_new(res, "partial_failure", json_true());
    if (o.blocked) {
        char msg[160];
        snprintf(msg, sizeof msg, "%d elevated command(s) were refused: CODECALC_ALLOW_RUNTIME_APPLY is not "
                 "enabled on this host.", o.blocked);
        json_object_set_new(res, "blocked_by_policy", json_incref(blocked));
        json_object_set_new(res, "message", json_string(msg));
    }
    if (!all) {
        const char *code = o.blocked ? "permission_denied" : o.timed_out ? "timeout"
                         : o.unstartable ? "runtime_unavailable" : "internal";
        json_t *e = o.blocked ? cc_err(code, "%s", json_string_value(json_object_get(res, "message")))
                              : cc_err(code, "%d of %d update command(s) failed", o.total - o.ok, o.total);
        json_object_update_missing(e, res);
        json_decref(res);
        res = e;
    }
    json_decref(blocked);
    return res;
}

CC_TOOL(update_runtimes) {
    json_t *names = json_object_get(args, "languages"), *ap = json_object_get(args, "apply");
    json_t *to = json_object_get(args, "timeout");
    if (names && !json_is_null(names) && !json_is_string(names))
        return cc_err("validation", "languages must be a string");
    if (ap && !json_is_null(ap) && !json_is_boolean(ap)) return cc_err("validation", "apply must be a boolean");
    json_int_t timeout = TIMEOUT_DEFAULT;
    if (to && !json_is_null(to)) {
        mpz_t z;
        mpz_init(z);
        int bad = cc_json_get_mpz(to, z) || !mpz_fits_slong_p(z);
        timeout = bad ? 0 : mpz_get_si(z);
        mpz_clear(z);
        if (bad) return cc_err("validation", "timeout must be an integer (seconds)");
        if (timeout < 1 || timeout > BUDGET_S)
            return cc_err("validation", "timeout = %lld s is out of range: 1..%d s per update command",
                          (long long)timeout, BUDGET_S);
    }
    json_t *status = cc_runtimes_status(json_string_value(names), ctx);
    if (!status || !json_is_true(ap)) {
        if (status) json_object_set_new(status, "message",
                                        json_string("Dry run: nothing was updated. Call with apply=True to execute."));
        return status;
    }
    if (!json_is_true(json_object_get(status, "ok"))) {
        json_object_set_new(status, "dry_run", json_false());
        return status;
    }
    json_t *res = apply(status, (int)timeout, ctx);
    json_decref(status);
    return res;
}
