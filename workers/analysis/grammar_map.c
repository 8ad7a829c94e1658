/* Which grammar reads which language (TOOLS.md 3.5.1), and the report of
 * what is bundled (codecalc-analysis --grammars, doctor). */
#include "workers/analysis/grammars.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#if CC_HAVE_TREE_SITTER
#include <tree_sitter/api.h>
#endif

/* The spec's mapping first; then the language registry's aliases
 * (workers/exec/languages.c), so "py" reads like "python3". Every other
 * name is its own grammar's name. */
static const char *const mapping[][2] = {
    {"python3", "python"}, {"node", "javascript"}, {"deno", "typescript"}, {"bun", "typescript"},
    {"typescript", "typescript"}, {"c++", "cpp"}, {"zsh", "bash"}, {"sqlite", "sql"},
    {"py", "python"}, {"js", "javascript"}, {"nodejs", "javascript"}, {"ts", "typescript"},
    {"cxx", "cpp"}, {"sh", "bash"}, {"cs", "csharp"}, {"ghc", "haskell"},
};

const char *cc_grammar_name_for(const char *language) {
    static char own[64];
    if (!language) return NULL;
    while (isspace((unsigned char)*language)) language++;
    size_t n = strlen(language);
    while (n > 0 && isspace((unsigned char)language[n - 1])) n--;
    if (n == 0 || n >= sizeof own) return NULL;
    for (size_t i = 0; i < sizeof mapping / sizeof mapping[0]; i++)
        if (strlen(mapping[i][0]) == n && strncasecmp(language, mapping[i][0], n) == 0) return mapping[i][1];
    for (size_t i = 0; i < n; i++) own[i] = (char)tolower((unsigned char)language[i]);
    own[n] = '\0';
    return own;
}

const struct cc_grammar *cc_grammar_find(const char *name) {
    if (!name) return NULL;
    for (const struct cc_grammar *g = cc_grammars; g->name; g++)
        if (strcmp(g->name, name) == 0) return g;
    return NULL;
}

#if CC_HAVE_TREE_SITTER
/* Does the parser accept the grammar (its ABI is one the core loads)? */
static json_t *grammar_row(const struct cc_grammar *g) {
    const TSLanguage *lang = g->language();
    TSParser *p = ts_parser_new();
    bool loads = p && ts_parser_set_language(p, lang);
    if (p) ts_parser_delete(p);
    return json_pack("{s:s,s:s,s:I,s:b}", "name", g->name, "package", g->spec, "abi",
                     (json_int_t)ts_language_abi_version(lang), "loads", loads);
}
#endif

json_t *cc_grammars_report(void) {
    json_t *have = json_array(), *missing = json_array();
#if CC_HAVE_TREE_SITTER
    for (const struct cc_grammar *g = cc_grammars; g->name; g++) json_array_append_new(have, grammar_row(g));
    json_t *abi = json_pack("[I,I]", (json_int_t)TREE_SITTER_MIN_COMPATIBLE_LANGUAGE_VERSION,
                            (json_int_t)TREE_SITTER_LANGUAGE_VERSION);
#else
    json_t *abi = json_null();
#endif
    for (const struct cc_grammar_missing *m = cc_grammars_missing; m->name; m++)
        json_array_append_new(missing, json_pack("{s:s,s:s,s:s}", "name", m->name, "package", m->spec, "reason", m->why));
    return json_pack("{s:s?,s:o,s:o,s:o}", "core", cc_ts_core_spec[0] ? cc_ts_core_spec : NULL, "abi_range", abi,
                     "grammars", have, "missing", missing);
}
