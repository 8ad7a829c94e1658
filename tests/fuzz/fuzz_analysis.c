/* Fuzz target: analyze_complexity, the one tool that parses a client's
 * source code in C: tree-sitter with a bundled grammar, the walk and its
 * refinements (workers/analysis), or the regex fallback.
 *
 * The input is the language on the first line (a grammar's name, an alias
 * such as "py", or anything else for the fallback), the code after it.
 * Properties: no sanitizer report; a result that follows the contract; the
 * same code gives the same result twice; a tree-sitter reading names its
 * grammar and a fallback names none but the spec's estimate, either way. */
#include <string.h>

#include "tests/fuzz/fz.h"
#include "tests/fuzz/fz_util.h"
#include "workers/common/tool_api.h"

CC_TOOL(analyze_complexity); /* the handler (workers/analysis/analyze_complexity.c) */

static json_t *analyze(json_t *args) {
    json_t *r = cc_tool_analyze_complexity(args, NULL);
    fz_check_result(r, "analyze_complexity");
    return r;
}

static void check_reading(const json_t *r) {
    if (!json_is_true(json_object_get(r, "ok"))) return;
    const char *how = json_string_value(json_object_get(r, "analysis"));
    const json_t *grammar = json_object_get(r, "grammar");
    FZ_ASSERT(how && (strcmp(how, "tree-sitter") == 0 || strcmp(how, "regex-fallback") == 0),
              "analysis is '%s'", how ? how : "(none)");
    if (strcmp(how, "tree-sitter") == 0) FZ_ASSERT(json_is_string(grammar), "a tree read without a grammar");
    const char *est = json_string_value(json_object_get(r, "estimate"));
    FZ_ASSERT(est && strncmp(est, "O(", 2) == 0, "estimate '%s'", est ? est : "(none)");
    json_int_t nest = json_integer_value(json_object_get(r, "max_nesting"));
    json_int_t loops = json_integer_value(json_object_get(r, "loops"));
    FZ_ASSERT(nest >= 0 && nest <= loops, "nesting %lld beyond %lld loops", (long long)nest, (long long)loops);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    struct fz_in in = {data, size};
    const uint8_t *nl = memchr(in.p, '\n', in.n);
    size_t ll, cl;
    const uint8_t *lang = fz_take(&in, nl ? (size_t)(nl - in.p) : in.n, &ll);
    if (nl) fz_byte(&in);
    const uint8_t *code = fz_take(&in, in.n, &cl);
    json_t *jl = fz_string(lang, ll), *jc = fz_string(code, cl);
    if (jl && jc) {
        json_t *args = json_pack("{s:O,s:O}", "code", jc, "language", jl);
        json_t *a = analyze(args), *b = analyze(args);
        check_reading(a);
        FZ_ASSERT(json_equal(a, b), "the same code read twice gave two results");
        json_decref(a);
        json_decref(b);
        json_decref(args);
    }
    json_decref(jl);
    json_decref(jc);
    return 0;
}
