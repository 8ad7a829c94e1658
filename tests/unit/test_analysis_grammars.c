/* The grammars compiled into codecalc-analysis: every one fetched from
 * scripts/grammars.lock is there (none missing: make check runs where npm
 * is reachable), every one loads into the vendored core
 * (ts_parser_set_language) and parses a line of its language, and the
 * language mapping of TOOLS.md 3.5.1 names them. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/unit/check.h"
#include "workers/analysis/grammars.h"

#if CC_HAVE_TREE_SITTER
#include <tree_sitter/api.h>
#endif

/* Grammar lines of the lock (every non-comment line but `core`). */
static int lock_grammars(void) {
    FILE *f = fopen("scripts/grammars.lock", "r");
    if (!f) return -1;
    char line[1024];
    int n = 0;
    while (fgets(line, sizeof line, f)) {
        char name[64];
        if (line[0] == '#' || sscanf(line, "%63s", name) != 1) continue;
        if (strcmp(name, "core") != 0) n++;
    }
    fclose(f);
    return n;
}

static void every_pinned_grammar_is_bundled(void) {
    CHECK(cc_ts_core_spec[0] != '\0');
    for (const struct cc_grammar_missing *m = cc_grammars_missing; m->name; m++) {
        fprintf(stderr, "missing grammar %s (%s): %s\n", m->name, m->spec, m->why);
        CHECK(m->name == NULL);
    }
    int n = 0;
    for (const struct cc_grammar *g = cc_grammars; g->name; g++) n++;
    CHECK_INTEQ(n, lock_grammars());
    CHECK(n >= 10);
}

#if CC_HAVE_TREE_SITTER
/* Inputs that reach the hand-written external scanners: strings, raw and
 * template strings, heredocs, comments, unbalanced and empty input. Under
 * ASan+UBSan (make check) a scanner bug on any of them fails the test. */
static const char *const corpus[] = {
    "", "x = 1\n", "\"unterminated", "'''", "r#\"raw\"#", "`tpl ${x} ${`in`}`", "<<EOF\nx\nEOF\n",
    "<<-'X'\n\tbody\n\tX\n", "/* c */ // d\n# e\n-- f\n", "{[(", ")]}", "<?php echo \"a{$b}\"; ?>",
    "#!/bin/sh\necho $((1+2)) ${x:-y}\n", "def f(x):\n\tif x:\n\t\treturn x\n  else:\n", "%w(a b) %q{c}",
    "\"\\u{1F600}\" '\\n' 0x1F 1e-9 1_000", "\xe2\x82\xac \xf0\x9f\x98\x80", "@\"verbatim\"\"x\"",
    "s = f\"{a!r:>{w}}\" b'\\x00'", "{-# LANGUAGE X #-}\nf x | x > 0 = x\n  where y = 1\n",
    "~S\"\"\"\nheredoc\n\"\"\"\n", "fn f<'a>(x: &'a str) -> &'a str { x }", "x = [[\nlong\n]] --[==[ c ]==]",
};

static void every_grammar_loads_and_parses(void) {
    for (const struct cc_grammar *g = cc_grammars; g->name; g++) {
        TSParser *p = ts_parser_new();
        const TSLanguage *lang = g->language();
        uint32_t abi = ts_language_abi_version(lang);
        CHECK(abi >= TREE_SITTER_MIN_COMPATIBLE_LANGUAGE_VERSION && abi <= TREE_SITTER_LANGUAGE_VERSION);
        bool loads = ts_parser_set_language(p, lang);
        if (!loads) fprintf(stderr, "grammar %s (ABI %u) does not load\n", g->name, abi);
        CHECK(loads);
        for (size_t i = 0; loads && i < sizeof corpus / sizeof corpus[0]; i++) {
            TSTree *t = ts_parser_parse_string(p, NULL, corpus[i], (uint32_t)strlen(corpus[i]));
            CHECK(t != NULL);
            if (t) ts_tree_delete(t);
        }
        ts_parser_delete(p);
    }
}
#endif

static void report_lists_every_grammar_as_loading(void) {
    json_t *rep = cc_grammars_report();
    json_t *gs = json_object_get(rep, "grammars"), *g;
    size_t i;
    CHECK(json_array_size(gs) >= 10);
    json_array_foreach(gs, i, g) CHECK(json_is_true(json_object_get(g, "loads")));
    CHECK_INTEQ(json_array_size(json_object_get(rep, "missing")), 0);
    CHECK_STREQ(json_string_value(json_object_get(rep, "core")), cc_ts_core_spec);
    json_decref(rep);
}

static void mapping_of_the_spec(void) {
    static const char *const pairs[][2] = {
        {"python3", "python"}, {"node", "javascript"}, {"deno", "typescript"}, {"bun", "typescript"},
        {"typescript", "typescript"}, {"c++", "cpp"}, {"zsh", "bash"}, {"sqlite", "sql"}, {"go", "go"},
        {"rust", "rust"}, {"c", "c"}, {"java", "java"}, {"ruby", "ruby"}, {" Python3 ", "python"},
        {"py", "python"}, {"js", "javascript"}, {"csharp", "csharp"}, {"fortran", "fortran"},
    };
    for (size_t i = 0; i < sizeof pairs / sizeof pairs[0]; i++)
        CHECK_STREQ(cc_grammar_name_for(pairs[i][0]), pairs[i][1]);
    CHECK(cc_grammar_name_for("") == NULL);
    CHECK(cc_grammar_find("fortran") == NULL); /* no grammar: the regex fallback */
    CHECK(cc_grammar_find("python") != NULL);
}

int main(void) {
    RUN(every_pinned_grammar_is_bundled);
#if CC_HAVE_TREE_SITTER
    RUN(every_grammar_loads_and_parses);
#endif
    RUN(report_lists_every_grammar_as_loading);
    RUN(mapping_of_the_spec);
    return check_summary("analysis_grammars");
}
