/* The language registry: 32 sorted entries, aliases, template splitting and
 * substitution, deciding commands and the list_languages array. */
#include "tests/unit/check.h"
#include "tests/unit/knob_env.h"
#include "workers/exec/languages.h"

#include <stdlib.h>
#include <string.h>

static void test_table(void) {
    CHECK_INTEQ(cc_lang_count(), 32);
    for (size_t i = 1; i < cc_lang_count(); i++)
        CHECK(strcmp(cc_lang_at(i - 1)->name, cc_lang_at(i)->name) < 0);
    CHECK_STREQ(cc_lang_at(0)->name, "awk");
    CHECK_STREQ(cc_lang_at(cc_lang_count() - 1)->name, "zsh");
}

static void test_find(void) {
    CHECK_STREQ(cc_lang_find("  PY ")->name, "python3");
    CHECK_STREQ(cc_lang_find("Python3.12")->name, "python3");
    CHECK_STREQ(cc_lang_find("cxx")->name, "c++");
    CHECK_STREQ(cc_lang_find("C++")->name, "c++");
    CHECK_STREQ(cc_lang_find("cpp")->name, "cpp");
    CHECK_STREQ(cc_lang_find("c#")->name, "csharp");
    CHECK_STREQ(cc_lang_find("ts")->name, "typescript");
    CHECK_STREQ(cc_lang_find("sh")->name, "bash");
    CHECK_STREQ(cc_lang_find("ghc")->name, "haskell");
    CHECK_STREQ(cc_lang_find("Rscript")->name, "r");
    CHECK(cc_lang_find("klingon") == NULL);
    CHECK(cc_lang_find("") == NULL);
    CHECK(cc_lang_find("pyt") == NULL);
}

static void test_split(void) {
    char **w = cc_split_words("sqlite3 :memory: \".read {file}\"");
    CHECK(w && w[0] && w[1] && w[2] && !w[3]);
    if (w && w[2]) CHECK_STREQ(w[2], ".read {file}");
    cc_argv_free(w);
    w = cc_split_words("a 'b c' \"d\\\"e\" f\\ g '' x\"y\"'z'");
    const char *want[] = {"a", "b c", "d\"e", "f g", "", "xyz"};
    for (int i = 0; i < 6; i++) CHECK_STREQ(w ? w[i] : NULL, want[i]);
    CHECK(w && w[6] == NULL);
    cc_argv_free(w);
    CHECK(cc_split_words("bad 'quote") == NULL);
    CHECK(cc_split_words("bad \"quote") == NULL);
    /* Substitution never re-splits: a path with spaces stays one word. */
    w = cc_plan_argv("gcc -O2 -o {exe} {file}", "/t/a b/main.c", "/t/a b/a.out", "/t/a b");
    CHECK_STREQ(w[3], "/t/a b/a.out");
    CHECK_STREQ(w[4], "/t/a b/main.c");
    CHECK(w[5] == NULL);
    cc_argv_free(w);
    w = cc_plan_argv(cc_lang_find("kotlin")->plans[0].compile, "/w/main.kt", "/w/a.out", "/w");
    CHECK_STREQ(w[4], "/w/out.jar");
    cc_argv_free(w);
}

static void test_deciding(void) {
    char buf[64];
    CHECK_STREQ(cc_plan_deciding(&cc_lang_find("c")->plans[0], buf, sizeof buf), "gcc");
    CHECK_STREQ(cc_plan_deciding(&cc_lang_find("go")->plans[0], buf, sizeof buf), "go");
    CHECK_STREQ(cc_plan_deciding(&cc_lang_find("sqlite")->plans[0], buf, sizeof buf), "sqlite3");
    CHECK_STREQ(cc_plan_deciding(&cc_lang_find("gleam")->plans[0], buf, sizeof buf), "gleam");
    CHECK_STREQ(cc_plan_deciding(&cc_lang_find("bash")->plans[0], buf, sizeof buf), "bash");
    char *p = cc_resolve_cmd("sh", "/usr/bin:/bin");
    CHECK(p && p[0] == '/');
    free(p);
    CHECK(cc_resolve_cmd("definitely-not-a-command-xyz", "/usr/bin:/bin") == NULL);
    CHECK(cc_resolve_cmd("sh", "") == NULL);
    CHECK(cc_resolve_cmd("sh", "relative/dir") == NULL);
}

static json_t *entry(json_t *arr, const char *name) {
    size_t i;
    json_t *e;
    json_array_foreach(arr, i, e) if (strcmp(json_string_value(json_object_get(e, "name")), name) == 0) return e;
    return NULL;
}

static void test_list(void) {
    knob_setenv("CODECALC_RUNTIME_PATH", "/usr/local/bin:/usr/bin:/bin");
    json_t *a = cc_list_languages_json();
    CHECK_INTEQ(json_array_size(a), 32);
    char *c = json_dumps(entry(a, "c"), JSON_COMPACT | JSON_PRESERVE_ORDER);
    CHECK_STREQ(c, "{\"name\":\"c\",\"extension\":\"c\",\"compiled\":true,\"run\":\"{exe}\","
                   "\"tier\":\"best_effort\",\"available\":true,\"status\":\"installed\","
                   "\"status_basis\":\"resolved\"}");
    free(c);
    json_t *py = entry(a, "python3");
    CHECK_STREQ(json_string_value(json_object_get(py, "run")), "python3 {file}");
    CHECK_STREQ(json_string_value(json_object_get(py, "tier")), "tested");
    CHECK(json_is_false(json_object_get(py, "compiled")));
    CHECK_STREQ(json_string_value(json_object_get(entry(a, "kotlin"), "run")), "java -jar out.jar");
    CHECK_STREQ(json_string_value(json_object_get(entry(a, "sqlite"), "run")), "sqlite3 :memory: .read {file}");
    size_t i;
    json_t *e;
    int bools = 0;
    json_array_foreach(a, i, e) bools += json_is_boolean(json_object_get(e, "available"));
    CHECK_INTEQ(bools, 32);
    json_decref(a);

    knob_setenv("CODECALC_RUNTIME_PATH", "/nonexistent");
    a = cc_list_languages_json();
    int installed = 0;
    json_array_foreach(a, i, e) installed += json_is_true(json_object_get(e, "available"));
    CHECK_INTEQ(installed, 0);
    CHECK_STREQ(json_string_value(json_object_get(entry(a, "node"), "status")), "supported");
    json_decref(a);
}

/* java_recompiled_on_every_run (red team 4): the verification tools ran
 * java's source launcher per input, compiling again each time (1.9 s of
 * CPU a run). A program run on many inputs has java's repeated plan: one
 * compile step (bash writing and running the launcher-like compiler) into
 * a cached jar, then java -jar. execute_code keeps the spec's plan. */
static void java_recompiled_on_every_run(void) {
    const struct cc_lang *j = cc_lang_find("java");
    CHECK(j != NULL);
    if (!j) return;
    const struct cc_lang_plan *r = j->plans[0].repeated;
    CHECK_STREQ(j->plans[0].run, "java {file}");
    CHECK(j->plans[0].compile == NULL);
    CHECK(r != NULL);
    if (!r) return;
    CHECK_STREQ(r->run, "java -jar {work}/out.jar");
    CHECK_STREQ(r->artifact, "{work}/out.jar");
    CHECK_STREQ(r->decide, "java");
    CHECK_STREQ(r->extra_tool, "bash");
    char **argv = cc_plan_argv(r->compile, "/w/main.java", "/w/a.out", "/w");
    CHECK(argv != NULL);
    if (argv) {
        CHECK_STREQ(argv[0], "bash");
        CHECK_STREQ(argv[1], "-c");
        CHECK(strstr(argv[2], "public class CcJavac") != NULL);
        CHECK(strstr(argv[2], "exec java \"$d/CcJavac.java\" \"$1\" \"$d/classes\" \"$2/out.jar\"") != NULL);
        CHECK_STREQ(argv[3], "codecalc");
        CHECK_STREQ(argv[4], "/w/main.java");
        CHECK_STREQ(argv[5], "/w");
        CHECK(argv[6] == NULL);
    }
    cc_argv_free(argv);
    for (size_t i = 0; i < cc_lang_count(); i++)
        if (strcmp(cc_lang_at(i)->name, "java") != 0) CHECK(cc_lang_at(i)->plans[0].repeated == NULL);
}

int main(void) {
    RUN(test_table);
    RUN(java_recompiled_on_every_run);
    RUN(test_find);
    RUN(test_split);
    RUN(test_deciding);
    RUN(test_list);
    return check_summary("exec_langs");
}
