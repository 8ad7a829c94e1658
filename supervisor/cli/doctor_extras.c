/* Optional components of the doctor report: the symbolic engines (giac and
 * z3, inside the symbolic worker) and the parsing extra (tree-sitter and its
 * grammars). Neither ever makes an install unhealthy.
 *
 * Grammars are looked for, not assumed: the tree-sitter runtime library is
 * loaded and shared objects are counted in the grammar directories
 * ($CODECALC_GRAMMAR_DIR, <bindir>/grammars, $CODECALC_HOME/grammars), so
 * they are reported present as soon as they are installed there. */
#include "supervisor/cli/doctor.h"

#include <dirent.h>
#include <dlfcn.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "supervisor/cli/call.h"
#include "supervisor/home.h"
#include "supervisor/server.h"

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

/* Shared objects in dir; -1 when dir cannot be read. */
static int count_grammars(const char *dir) {
    DIR *d = opendir(dir);
    if (!d) return -1;
    int n = 0;
    for (struct dirent *e; (e = readdir(d));) {
        size_t l = strlen(e->d_name);
        if (l > 3 && strcmp(e->d_name + l - 3, ".so") == 0) n++;
    }
    closedir(d);
    return n;
}

/* The first grammar directory that exists (else the first candidate) and
 * how many grammars it holds. */
static int grammar_dir(char *out, size_t cap) {
    char bindir[PATH_MAX - 16], home[PATH_MAX - 16];
    const char *env = getenv("CODECALC_GRAMMAR_DIR");
    char cand[3][PATH_MAX];
    int nc = 0;
    if (env && *env) snprintf(cand[nc++], sizeof cand[0], "%.4000s", env);
    if (cc_server_bindir(bindir, sizeof bindir) == 0) snprintf(cand[nc++], sizeof cand[0], "%s/grammars", bindir);
    if (cc_home_dir(home, sizeof home) == 0) snprintf(cand[nc++], sizeof cand[0], "%s/grammars", home);
    snprintf(out, cap, "%.4000s", nc ? cand[0] : "grammars");
    for (int i = 0; i < nc; i++) {
        int n = count_grammars(cand[i]);
        if (n < 0) continue;
        snprintf(out, cap, "%.4000s", cand[i]);
        return n;
    }
    return 0;
}

static bool tree_sitter_runtime(void) {
    void *h = dlopen("libtree-sitter.so.0", RTLD_LAZY | RTLD_LOCAL);
    if (h) dlclose(h);
    return h != NULL;
}

static json_t *parsing_extra(json_t **cache) {
    char dir[PATH_MAX];
    int n = grammar_dir(dir, sizeof dir);
    bool lib = tree_sitter_runtime();
    json_t *missing = json_array();
    if (!lib) json_array_append_new(missing, json_string("tree-sitter runtime (libtree-sitter.so.0)"));
    if (n == 0) json_array_append_new(missing, json_string("tree-sitter grammars"));
    bool ok = lib && n > 0;
    char detail[4200];
    if (n > 0) snprintf(detail, sizeof detail, "%d grammar(s) in %.4000s", n, dir);
    else snprintf(detail, sizeof detail, "no grammar in %.4000s (none is shipped yet; the parsing tools are not built)", dir);
    *cache = json_pack("{s:b,s:b,s:s,s:i,s:s}", "extra_installed", ok, "cached", n > 0, "path", dir, "grammars", n,
                       "detail", detail);
    return json_pack("{s:s,s:b,s:o,s:s?}", "name", "parsing", "installed", ok, "missing", missing, "remedy",
                     ok ? NULL
                        : "install the tree-sitter runtime (libtree-sitter0) and put grammar shared objects in "
                          "CODECALC_GRAMMAR_DIR; only the parsing tools need them");
}

json_t *cc_doc_extras(const json_t *workers, struct cc_server *deep, json_t **grammar_cache) {
    return json_pack("[o,o]", symbolic_extra(workers, deep), parsing_extra(grammar_cache));
}
