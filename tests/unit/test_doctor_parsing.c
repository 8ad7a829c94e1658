/* doctor's parsing extra and grammar_cache (supervisor/cli/doctor_extras.c)
 * come from the analysis worker's --grammars report. They used to dlopen
 * libtree-sitter.so.0 and count *.so files in CODECALC_GRAMMAR_DIR, while
 * the grammars are compiled into codecalc-analysis: a complete install was
 * reported without grammars, with a remedy that could not help. */
#include <jansson.h>
#include <stdio.h>
#include <string.h>

#include "supervisor/cli/doctor.h"
#include "tests/unit/check.h"

#define BIN "/opt/cc/codecalc-analysis"

static json_t *report(const char *text) {
    json_t *r = json_loads(text, 0, NULL);
    CHECK(r != NULL);
    return r;
}

static bool lists(const json_t *missing, const char *want) {
    size_t i;
    json_t *m;
    json_array_foreach(missing, i, m) if (strcmp(json_string_value(m), want) == 0) return true;
    return false;
}

static void doctor_counts_grammars_compiled_into_the_worker_not_so_files(void) {
    json_t *r = report("{\"core\":\"tree-sitter@0.25.1\",\"abi_range\":[13,15],\"missing\":[],\"grammars\":["
                       "{\"name\":\"python\",\"package\":\"tree-sitter-python@0.23.6\",\"abi\":15,\"loads\":true},"
                       "{\"name\":\"c\",\"package\":\"tree-sitter-c@0.24.1\",\"abi\":15,\"loads\":true}]}");
    json_t *cache = NULL, *extra = cc_doc_parsing(r, BIN, NULL, &cache);
    CHECK(json_is_true(json_object_get(extra, "installed")));
    CHECK_INTEQ(json_array_size(json_object_get(extra, "missing")), 0);
    CHECK(json_is_null(json_object_get(extra, "remedy")));
    CHECK_INTEQ(json_integer_value(json_object_get(cache, "grammars")), 2);
    CHECK(json_is_true(json_object_get(cache, "cached")));
    CHECK(json_is_true(json_object_get(cache, "extra_installed")));
    CHECK_STREQ(json_string_value(json_object_get(cache, "path")), BIN);
    CHECK_STREQ(json_string_value(json_object_get(cache, "core")), "tree-sitter@0.25.1");
    CHECK_STREQ(json_string_value(json_object_get(cache, "detail")),
                "2 grammar(s) compiled into " BIN " (tree-sitter@0.25.1, grammar ABI 13-15)");
    CHECK_STREQ(json_string_value(json_array_get(json_object_get(cache, "names"), 1)), "c");
    json_decref(extra);
    json_decref(cache);
    json_decref(r);
}

static void doctor_names_each_grammar_the_build_could_not_have(void) {
    json_t *r = report("{\"core\":\"tree-sitter@0.25.1\",\"abi_range\":[13,15],\"grammars\":["
                       "{\"name\":\"python\",\"package\":\"p\",\"abi\":15,\"loads\":true},"
                       "{\"name\":\"zig\",\"package\":\"z\",\"abi\":16,\"loads\":false}],"
                       "\"missing\":[{\"name\":\"rust\",\"package\":\"tree-sitter-rust@0.24.0\",\"reason\":\"npm pack failed\"}]}");
    json_t *cache = NULL, *extra = cc_doc_parsing(r, BIN, NULL, &cache);
    json_t *missing = json_object_get(extra, "missing");
    CHECK(json_is_false(json_object_get(extra, "installed")));
    CHECK_INTEQ(json_array_size(missing), 2);
    CHECK(lists(missing, "grammar zig (does not load)"));
    CHECK(lists(missing, "grammar rust (npm pack failed)"));
    const char *remedy = json_string_value(json_object_get(extra, "remedy"));
    CHECK(remedy && strstr(remedy, "make grammars") && !strstr(remedy, "GRAMMAR_DIR") && !strstr(remedy, ".so"));
    /* One grammar loads: the cache is not empty, the extra is incomplete. */
    CHECK_INTEQ(json_integer_value(json_object_get(cache, "grammars")), 1);
    CHECK(json_is_true(json_object_get(cache, "cached")));
    CHECK(json_is_false(json_object_get(cache, "extra_installed")));
    json_decref(extra);
    json_decref(cache);
    json_decref(r);
}

static void doctor_reports_a_build_without_the_tree_sitter_core(void) {
    json_t *r = report("{\"core\":null,\"abi_range\":null,\"grammars\":[],"
                       "\"missing\":[{\"name\":\"c\",\"package\":\"tree-sitter-c@0.24.1\",\"reason\":\"the tree-sitter core is unavailable\"}]}");
    json_t *cache = NULL, *extra = cc_doc_parsing(r, BIN, NULL, &cache);
    json_t *missing = json_object_get(extra, "missing");
    CHECK(json_is_false(json_object_get(extra, "installed")));
    CHECK(lists(missing, "tree-sitter core"));
    CHECK(lists(missing, "grammar c (the tree-sitter core is unavailable)"));
    CHECK_INTEQ(json_integer_value(json_object_get(cache, "grammars")), 0);
    CHECK(json_is_false(json_object_get(cache, "cached")));
    CHECK(json_is_null(json_object_get(cache, "core")));
    CHECK_STREQ(json_string_value(json_object_get(cache, "detail")),
                BIN " was built without the tree-sitter core: no grammar");
    json_decref(extra);
    json_decref(cache);
    json_decref(r);
}

static void doctor_says_when_the_worker_gives_no_report(void) {
    json_t *cache = NULL, *extra = cc_doc_parsing(NULL, BIN, "cannot run " BIN ": No such file or directory", &cache);
    CHECK(json_is_false(json_object_get(extra, "installed")));
    CHECK(lists(json_object_get(extra, "missing"), "the analysis worker's grammar report"));
    const char *remedy = json_string_value(json_object_get(extra, "remedy"));
    CHECK(remedy && strstr(remedy, "the analysis worker does not report its grammars (cannot run " BIN ": No such file") && strstr(remedy, "reinstall"));
    CHECK_INTEQ(json_integer_value(json_object_get(cache, "grammars")), 0);
    CHECK(json_is_false(json_object_get(cache, "cached")));
    CHECK_INTEQ(json_array_size(json_object_get(cache, "names")), 0);
    CHECK_STREQ(json_string_value(json_object_get(cache, "detail")),
                "no grammar report: cannot run " BIN ": No such file or directory");
    json_decref(extra);
    json_decref(cache);
}

int main(void) {
    RUN(doctor_counts_grammars_compiled_into_the_worker_not_so_files);
    RUN(doctor_names_each_grammar_the_build_could_not_have);
    RUN(doctor_reports_a_build_without_the_tree_sitter_core);
    RUN(doctor_says_when_the_worker_gives_no_report);
    return check_summary("doctor_parsing");
}
