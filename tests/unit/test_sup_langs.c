/* The supervisor's language tables against the exec registry it does not
 * link: the names and aliases it accepts (supervisor/sessions/sessions.c)
 * and the REPL-capable languages (repl-workers/repl_langs.c). */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "repl-workers/repl_langs.h"
#include "supervisor/sessions/sessions.h"
#include "tests/unit/check.h"
#include "workers/exec/languages.h"

static void rows_name_registry_languages_and_existing_hosts(void) {
    int rows = 0;
    for (size_t i = 0; i < cc_lang_count(); i++) {
        const struct cc_lang *l = cc_lang_at(i);
        const struct cc_repl_lang *r = cc_repl_lang_find(l->name);
        if (!r) continue;
        rows++;
        CHECK_STREQ(r->lang, l->name);
        char path[256];
        snprintf(path, sizeof path, "repl-workers/%s", r->script);
        CHECK(access(path, R_OK) == 0);
        CHECK(r->interp && r->eval_flag && r->eval_flag[0] == '-');
    }
    CHECK_INTEQ(rows, 2);
}

static void aliases_and_unknown_languages_have_no_row(void) {
    CHECK(cc_repl_lang_find("python3") != NULL);
    CHECK(cc_repl_lang_find("node")->channel_on_fd3);
    CHECK(!cc_repl_lang_find("python3")->channel_on_fd3);
    CHECK(cc_repl_lang_find("py") == NULL);      /* callers canonicalise first */
    CHECK(cc_repl_lang_find("bash") == NULL);
    CHECK(cc_repl_lang_find(NULL) == NULL);
}

static void supervisor_names_and_aliases_match_the_registry(void) {
    for (size_t i = 0; i < cc_lang_count(); i++) {
        const struct cc_lang *l = cc_lang_at(i);
        CHECK_STREQ(cc_session_lang(l->name), l->name);
        for (const char *const *a = l->aliases; *a; a++) CHECK_STREQ(cc_session_lang(*a), l->name);
    }
    CHECK(cc_session_lang("klingon") == NULL);
    CHECK(cc_lang_find("klingon") == NULL);
}

int main(void) {
    RUN(supervisor_names_and_aliases_match_the_registry);
    RUN(rows_name_registry_languages_and_existing_hosts);
    RUN(aliases_and_unknown_languages_have_no_row);
    return check_summary("sup_langs");
}
