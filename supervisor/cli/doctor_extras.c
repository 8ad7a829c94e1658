/* Optional components of the doctor report: the symbolic engines (giac and
 * z3, inside the symbolic worker) and the parsing extra (tree-sitter and its
 * grammars). Neither ever makes an install unhealthy.
 *
 * The grammars are compiled into the analysis worker (docs/analysis.md
 * "Grammars"), so they are asked of it, not looked for on disk:
 * `codecalc-analysis --grammars` lists the ones it carries, whether each
 * loads, and the pinned ones the build could not have. */
#include "supervisor/cli/doctor.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "supervisor/cli/call.h"
#include "supervisor/mcp/tool_table.h"
#include "supervisor/native_check.h"

static bool has_op(const json_t *worker, const char *op) {
    size_t i;
    json_t *v;
    json_array_foreach(json_object_get(worker, "ops"), i, v) if (strcmp(json_string_value(v), op) == 0) return true;
    return false;
}

/* One real evaluation: does the engine answer at all? */
static bool engine_answers(struct cc_server *srv, const char *tool, json_t *args) {
    json_t *msg = cc_cli_call(srv, tool, args);
    bool ok = json_is_true(json_object_get(cc_cli_result(msg), "ok"));
    json_decref(msg);
    json_decref(args);
    return ok;
}

static json_t *symbolic_extra(const json_t *workers, struct cc_server *deep) {
    const json_t *w = json_object_get(workers, "symbolic");
    bool started = json_is_true(json_object_get(w, "started"));
    bool giac = started && has_op(w, "evaluate_expression");
    bool z3 = started && has_op(w, "z3_check");
    if (deep && giac)
        giac = engine_answers(deep, "evaluate_expression", json_pack("{s:s}", "expression", "diff(x^3, x)"));
    if (deep && z3)
        z3 = engine_answers(deep, "z3_check", json_pack("{s:s}", "smt2", "(declare-const x Int)(assert (> x 2))(check-sat)"));
    json_t *missing = json_array();
    if (!giac) json_array_append_new(missing, json_string("giac"));
    if (!z3) json_array_append_new(missing, json_string("z3"));
    bool ok = giac && z3;
    return json_pack("{s:s,s:b,s:o,s:s?}", "name", "symbolic", "installed", ok, "missing", missing, "remedy",
                     ok ? NULL
                        : started ? "the symbolic worker lacks an engine: rebuild with libgiac-dev and libz3-dev (scripts/install-deps)"
                                  : "the symbolic worker does not start: install libgiac and libz3 (scripts/install-deps) and rebuild");
}

/* The grammar report is one line of about 60 bytes a grammar. */
#define GRAMMAR_REPORT_MAX (64 * 1024)

static const char *const rebuild_grammars =
    "rebuild with the npm registry reachable (make grammars, then make): scripts/fetch-grammars fetches the "
    "pinned tree-sitter sources and the build compiles them into codecalc-analysis; until then analyze_complexity "
    "reads those languages with its regex fallback";

/* "grammar NAME" for each pinned grammar the worker lacks or cannot load. */
static void add_missing_grammars(json_t *missing, const json_t *report, int *loading) {
    size_t i;
    json_t *g;
    json_array_foreach(json_object_get(report, "grammars"), i, g) {
        if (json_is_true(json_object_get(g, "loads"))) (*loading)++;
        else json_array_append_new(missing, json_sprintf("grammar %s (does not load)", json_string_value(json_object_get(g, "name"))));
    }
    json_array_foreach(json_object_get(report, "missing"), i, g)
        json_array_append_new(missing, json_sprintf("grammar %s (%s)", json_string_value(json_object_get(g, "name")),
                                                    json_string_value(json_object_get(g, "reason"))));
}

static json_t *loading_names(const json_t *report) {
    json_t *names = json_array();
    size_t i;
    json_t *g;
    json_array_foreach(json_object_get(report, "grammars"), i, g) if (json_is_true(json_object_get(g, "loads")))
        json_array_append(names, json_object_get(g, "name"));
    return names;
}

json_t *cc_doc_parsing(const json_t *report, const char *binary, const char *why, json_t **cache) {
    json_t *missing = json_array();
    int loading = 0;
    const char *core = json_string_value(json_object_get(report, "core"));
    char detail[4400], remedy[4800];
    if (!report) {
        json_array_append_new(missing, json_string("the analysis worker's grammar report"));
        snprintf(detail, sizeof detail, "no grammar report: %.4000s", why ? why : "unknown");
        snprintf(remedy, sizeof remedy, "the analysis worker does not report its grammars (%.4000s): rebuild (make) "
                 "or reinstall the package; only analyze_complexity needs it", why ? why : "unknown");
    } else {
        if (!core) json_array_append_new(missing, json_string("tree-sitter core"));
        add_missing_grammars(missing, report, &loading);
        json_t *abi = json_object_get(report, "abi_range");
        if (core)
            snprintf(detail, sizeof detail, "%d grammar(s) compiled into %.4000s (%s, grammar ABI %lld-%lld)", loading,
                     binary, core, (long long)json_integer_value(json_array_get(abi, 0)),
                     (long long)json_integer_value(json_array_get(abi, 1)));
        else
            snprintf(detail, sizeof detail, "%.4000s was built without the tree-sitter core: no grammar", binary);
        snprintf(remedy, sizeof remedy, "%s", rebuild_grammars);
    }
    bool ok = report && json_array_size(missing) == 0;
    *cache = json_pack("{s:b,s:b,s:s,s:i,s:s,s:s?,s:o}", "extra_installed", ok, "cached", loading > 0, "path", binary,
                       "grammars", loading, "detail", detail, "core", core, "names", loading_names(report));
    return json_pack("{s:s,s:b,s:o,s:s?}", "name", "parsing", "installed", ok, "missing", missing, "remedy",
                     ok ? NULL : remedy);
}

static json_t *parsing_extra(const char *bindir, json_t **cache) {
    const char *binary = cc_pool_defs[CC_POOL_ANALYSIS].binary;
    char path[PATH_MAX + 64], why[4400] = "";
    snprintf(path, sizeof path, "%.4000s/%s", bindir, binary);
    json_t *report = cc_worker_report(bindir, binary, "--grammars", GRAMMAR_REPORT_MAX, why, sizeof why);
    json_t *extra = cc_doc_parsing(report, path, why, cache);
    json_decref(report);
    return extra;
}

json_t *cc_doc_extras(const char *bindir, const json_t *workers, struct cc_server *deep, json_t **grammar_cache) {
    return json_pack("[o,o]", symbolic_extra(workers, deep), parsing_extra(bindir, grammar_cache));
}
