/* analyze_complexity (TOOLS.md 3.5.1): a Big-O estimate from the structure
 * of the source, never running it. The tree-sitter reading when the
 * language has a bundled grammar and the parse succeeds, else the regex
 * fallback; then the spec's decision table and notes, exactly; then the
 * refinement fields (docs/analysis.md), which leave estimate and basis
 * alone. */
#include <stdio.h>
#include <string.h>

#include "workers/analysis/complexity.h"
#include "workers/common/tool_api.h"

#if !CC_HAVE_TREE_SITTER
/* Built without the tree-sitter core: every language reads with the
 * fallback, and the grammar table is empty. */
int cx_read_tree(const struct cc_grammar *g, const char *code, size_t len, struct cx_reading *r,
                 char *err, size_t errcap) {
    (void)g, (void)code, (void)len, (void)r;
    snprintf(err, errcap, "this build has no tree-sitter core");
    return -1;
}
#endif

/* The decision table of 3.5.1, first match. */
static void decide(const struct cx_reading *r, bool sort, char *est, size_t ecap, char *basis, size_t bcap) {
    if (r->recursion) {
        snprintf(est, ecap, "O(2^n) — recursion detected");
        snprintf(basis, bcap, "recursive function '%s'", r->rec_name);
    } else if (r->max_nesting >= 2) {
        snprintf(est, ecap, "O(n^%d)", r->max_nesting);
        snprintf(basis, bcap, "%d nested loop levels (%d loop constructs)", r->max_nesting, r->loops);
    } else if (r->max_nesting == 1) {
        snprintf(est, ecap, "O(n) — with sort: O(n log n)");
        snprintf(basis, bcap, "1 loop level");
    } else if (sort) {
        snprintf(est, ecap, "O(n log n)");
        snprintf(basis, bcap, "sorting call, no loops");
    } else {
        snprintf(est, ecap, "O(1)");
        snprintf(basis, bcap, "no loops, no recursion");
    }
}

/* The spec's facts as a cost, for refined_estimate when no tree was read. */
static struct cx_cost spec_cost(const struct cx_reading *r, bool sort) {
    if (r->recursion) return (struct cx_cost){.k = 0, .log = 0, .exp = true};
    if (r->max_nesting >= 2) return (struct cx_cost){.k = r->max_nesting, .log = 0, .exp = false};
    if (r->max_nesting == 1) return (struct cx_cost){.k = 1, .log = sort, .exp = false};
    return (struct cx_cost){.k = sort, .log = sort, .exp = false};
}

struct reading_mode {
    bool tree;
    const char *grammar;       /* the grammar tried, NULL when none exists */
    char fallback_reason[300];
};

/* Read with the grammar when there is one; the fallback otherwise. */
static void read_source(const char *language, const char *code, size_t len, struct cx_reading *r,
                        struct reading_mode *m) {
    const struct cc_grammar *g = cc_grammar_find(cc_grammar_name_for(language));
    char err[200];
    m->grammar = g ? g->name : NULL;
    if (g && cx_read_tree(g, code, len, r, err, sizeof err) == 0) {
        m->tree = true;
        return;
    }
    if (g) snprintf(m->fallback_reason, sizeof m->fallback_reason, "parse failed: %s", err);
    else snprintf(m->fallback_reason, sizeof m->fallback_reason, "no tree-sitter grammar for '%.200s'", language);
    cx_reading_free(r); /* a walk that failed half way leaves nothing behind */
    cx_reading_init(r);
    cx_read_lines(code, len, r);
}

static json_t *notes_of(const struct cx_reading *r, const struct reading_mode *m, bool sort, bool hash) {
    json_t *notes = json_array();
    char buf[400];
    if (sort) json_array_append_new(notes, json_string("sort/builtin detected (O(n log n) worst case)"));
    if (hash) json_array_append_new(notes, json_string("hash structures → average-case O(1) lookups"));
    if (r->loops == 0 && !r->recursion && !sort)
        json_array_append_new(notes, json_string("constant-time surface; may hide loops in library calls"));
    if (!m->tree) {
        snprintf(buf, sizeof buf, "structural heuristic only (%s)", m->fallback_reason);
        json_array_append_new(notes, json_string(buf));
    }
    if (m->tree && r->partial)
        json_array_append_new(notes, json_string("source has syntax errors; the parse is partial"));
    return notes;
}

CC_TOOL(analyze_complexity) {
    (void)ctx;
    json_t *jc = json_object_get(args, "code"), *jl = json_object_get(args, "language");
    if (!json_is_string(jc)) return cc_err("validation", "code must be a string");
    if (jl && !json_is_null(jl) && !json_is_string(jl)) return cc_err("validation", "language must be a string");
    const char *code = json_string_value(jc), *language = jl && json_is_string(jl) ? json_string_value(jl) : "python3";
    size_t len = json_string_length(jc);

    struct cx_reading r;
    struct reading_mode m = {0};
    cx_reading_init(&r);
    read_source(language, code, len, &r, &m);
    bool sort = cx_scan_sort(code, len), hash = cx_scan_hash(code, len);
    char est[64], basis[CX_NAME_MAX + 64], refined[64];
    decide(&r, sort, est, sizeof est, basis, sizeof basis);
    cx_cost_text(m.tree && r.refined_valid ? r.refined : spec_cost(&r, sort), refined, sizeof refined);
    json_t *out = json_pack("{s:b,s:s,s:s,s:i,s:i,s:b,s:s,s:s,s:s?,s:O,s:o,s:s,s:O}",
        "ok", 1, "estimate", est, "basis", basis, "loops", r.loops, "max_nesting", r.max_nesting,
        "recursion", r.recursion, "method", "static-estimate", "analysis", m.tree ? "tree-sitter" : "regex-fallback",
        "grammar", m.grammar, "functions", r.functions,
        "notes", notes_of(&r, &m, sort, hash), "refined_estimate", refined, "refinements", r.refinements);
    cx_reading_free(&r);
    return out;
}
