/* The text rendering of the doctor report, for people. It reads only the
 * report, so it cannot disagree with --json. */
#include "supervisor/cli/doctor.h"

#include <string.h>

#include "supervisor/mcp/tool_table.h"

static const char *str(const json_t *o, const char *k) {
    const char *s = json_string_value(json_object_get(o, k));
    return s ? s : "";
}

static bool yes(const json_t *o, const char *k) { return json_is_true(json_object_get(o, k)); }

static void sandbox_lines(const json_t *sb, FILE *f) {
    const json_t *ns = json_object_get(sb, "namespaces");
    fprintf(f, "  namespaces: user %s, pid %s, mount %s, network %s, ipc %s, uts %s\n", yes(ns, "user") ? "yes" : "NO",
            yes(ns, "pid") ? "yes" : "NO", yes(ns, "mount") ? "yes" : "NO", yes(ns, "network") ? "yes" : "NO",
            yes(ns, "ipc") ? "yes" : "NO", yes(ns, "uts") ? "yes" : "NO");
    const json_t *cg = json_object_get(sb, "cgroups"), *v2 = json_object_get(cg, "v2"), *v1 = json_object_get(cg, "v1");
    fprintf(f, "  cgroups: in use %s; v2 %s%s%s; v1 memory %s, pids %s\n", str(cg, "in_use"),
            yes(v2, "mounted") ? "mounted at " : "not mounted", str(v2, "mount"), yes(v2, "usable") ? " (usable)" : "",
            yes(json_object_get(v1, "memory"), "usable") ? "usable" : "unusable",
            yes(json_object_get(v1, "pids"), "usable") ? "usable" : "unusable");
    if (*str(cg, "detail")) fprintf(f, "    %s\n", str(cg, "detail"));
    fprintf(f, "  seccomp: %s\n", yes(json_object_get(sb, "seccomp"), "available") ? "available" : "UNAVAILABLE");
    const json_t *u = json_object_get(sb, "sandbox_user");
    fprintf(f, "  programs run as uid %lld%s\n", (long long)json_integer_value(json_object_get(u, "uid")),
            json_object_get(u, "dedicated") && !yes(u, "dedicated") ? " (SHARED with an account)" : "");
    if (*str(u, "detail")) fprintf(f, "    %s\n", str(u, "detail"));
}

static void worker_lines(const json_t *w, FILE *f) {
    for (int id = 0; id < CC_WORKER_POOLS; id++) {
        const char *name = cc_pool_defs[id].name;
        const json_t *e = json_object_get(w, name);
        if (yes(e, "serves_table"))
            fprintf(f, "  %-9s started (%zu ops)  %s\n", name, json_array_size(json_object_get(e, "ops")), str(e, "path"));
        else fprintf(f, "  %-9s FAILED: %s  %s\n", name, str(e, "error"), str(e, "path"));
    }
    const json_t *r = json_object_get(w, "repl");
    fprintf(f, "  repl      %s; hosts:", yes(r, "present") ? "present" : "MISSING");
    const char *lang;
    json_t *h;
    bool first = true;
    json_object_foreach((json_t *)json_object_get(r, "hosts"), lang, h)
        fprintf(f, "%s %s %s", first ? "" : ",", lang, json_is_string(json_object_get(h, "path")) ? "found" : "missing"), first = false;
    fputc('\n', f);
}

static void runtime_lines(const json_t *rep, FILE *f) {
    const json_t *rt = json_object_get(rep, "runtimes");
    size_t i, resolved = 0;
    json_t *r;
    json_array_foreach(rt, i, r) resolved += strcmp(str(r, "status"), "supported") != 0;
    fprintf(f, "runtimes: %zu/%zu resolved (%s)\n", resolved, json_array_size(rt), str(rep, "status_basis"));
    static const struct {
        const char *status, *label;
    } groups[] = {{"available", "verified"}, {"installed", "installed"}, {"unhealthy", "BROKEN"}, {"supported", "missing"}};
    for (size_t g = 0; g < 4; g++) {
        bool any = false;
        json_array_foreach(rt, i, r) {
            if (strcmp(str(r, "status"), groups[g].status) != 0) continue;
            fprintf(f, "%s%s", any ? ", " : groups[g].label, any ? "" : ": ");
            fputs(str(r, "name"), f);
            any = true;
        }
        if (any) fputs("\n", f);
    }
    json_array_foreach(rt, i, r) if (json_is_string(json_object_get(r, "version")))
        fprintf(f, "  %-11s %s\n", str(r, "name"), str(r, "version"));
    const json_t *t = json_object_get(rep, "tier_summary");
    fprintf(f, "tiers: %lld tested, %lld best_effort (results are checked less; read verdicts), %lld plan_only\n",
            (long long)json_integer_value(json_object_get(t, "tested")),
            (long long)json_integer_value(json_object_get(t, "best_effort")),
            (long long)json_integer_value(json_object_get(t, "plan_only")));
}

static void quota_lines(const json_t *q, FILE *f) {
    if (!q || json_is_null(q)) return;
    const json_t *l = json_object_get(q, "limits");
    fprintf(f, "disk: %lld bytes in %zu session workspace(s); quotas %lld MiB per session, %lld MiB in total, "
               "%lld MiB host minimum\n",
            (long long)json_integer_value(json_object_get(q, "global_usage_bytes")),
            json_array_size(json_object_get(q, "sessions")),
            (long long)json_integer_value(json_object_get(l, "session_disk_quota_mb")),
            (long long)json_integer_value(json_object_get(l, "total_disk_quota_mb")),
            (long long)json_integer_value(json_object_get(l, "min_host_free_mb")));
    fputs("  to recover space: codecalc cleanup --write (dead workspaces only)\n", f);
}

static void tool_lines(const json_t *tg, FILE *f) {
    fprintf(f, "tools: %lld/%lld registered; groups:", (long long)json_integer_value(json_object_get(tg, "registered_count")),
            (long long)json_integer_value(json_object_get(tg, "declared_count")));
    const char *g;
    json_t *v;
    json_object_foreach(json_object_get(tg, "groups"), g, v) {
        bool active = false;
        size_t i;
        json_t *a;
        json_array_foreach(json_object_get(tg, "active_groups"), i, a) active |= strcmp(json_string_value(a), g) == 0;
        fprintf(f, " %s%s", g, active ? "*" : "");
    }
    fputs(" (presets: core, dev, full)\n", f);
}

void cc_doctor_print_text(const json_t *rep, FILE *f) {
    fprintf(f, "codecalc %s — %s\n", str(rep, "codecalc_version"), yes(rep, "healthy") ? "HEALTHY" : "NOT HEALTHY");
    fprintf(f, "result contract %s\n", str(rep, "contract_version"));
    const json_t *b = json_object_get(rep, "backend");
    fprintf(f, "backend: native sandbox, %s\n", str(b, "binary"));
    if (*str(b, "detail"))
        fprintf(f, "  WARNING reduced tier: %s (CODECALC_REQUIRE_NATIVE=1 refuses to start like this)\n", str(b, "detail"));
    sandbox_lines(json_object_get(rep, "sandbox"), f);
    size_t i;
    json_t *p;
    json_array_foreach(json_object_get(rep, "execution_providers"), i, p)
        fprintf(f, "provider %s: %s, %s\n", str(p, "provider_id"), yes(p, "ready") ? "ready" : "UNAVAILABLE",
                yes(p, "strict") ? "strict" : "non-strict");
    fprintf(f, "strict runtime (gVisor): unavailable — %s\n", str(json_object_get(rep, "strict_runtime"), "detail"));
    fprintf(f, "install sandbox: %s\n", str(json_object_get(rep, "install_sandbox"), "detail"));
    fputs("workers:\n", f);
    worker_lines(json_object_get(rep, "workers"), f);
    json_array_foreach(json_object_get(rep, "extras"), i, p) {
        fprintf(f, "extra %s: %s", str(p, "name"), yes(p, "installed") ? "installed\n" : "MISSING");
        if (!yes(p, "installed")) fprintf(f, " — %s\n", str(p, "remedy"));
    }
    runtime_lines(rep, f);
    fprintf(f, "grammar cache: %s\n", str(json_object_get(rep, "grammar_cache"), "detail"));
    const json_t *sd = json_object_get(rep, "state_dir"), *lk = json_object_get(sd, "lock");
    fprintf(f, "state directory: %s%s%s\n", str(sd, "path"), yes(sd, "writable") ? "" : " NOT WRITABLE: ", str(sd, "error"));
    if (yes(lk, "held"))
        fprintf(f, "  in use by a server (pid %lld holds %s)\n", (long long)json_integer_value(json_object_get(lk, "holder_pid")),
                str(lk, "path"));
    else fputs("  no server holds it\n", f);
    const json_t *ws = json_object_get(rep, "workspace");
    fprintf(f, "workspace: %s%s%s\n", str(ws, "path"), yes(ws, "writable") ? "" : " NOT WRITABLE: ", str(ws, "error"));
    const json_t *au = json_object_get(rep, "audit_log");
    fprintf(f, "audit log: %s\n", yes(au, "enabled") ? str(au, "path") : str(au, "detail"));
    quota_lines(json_object_get(rep, "disk_quota"), f);
    tool_lines(json_object_get(rep, "tool_groups"), f);
    fprintf(f, "skill file: %s\n", json_is_string(json_object_get(rep, "skill_file")) ? str(rep, "skill_file") : "not found");
    json_array_foreach(json_object_get(rep, "remedies"), i, p) fprintf(f, "remedy: %s\n", json_string_value(p));
    fprintf(f, "MCP client configuration:\n  {\"mcpServers\": {\"codecalc\": {\"command\": \"%s/codecalc\", \"args\": []}}}\n",
            str(rep, "bindir"));
}
