/* The table of REPL-capable languages: every row names a registry language
 * (by its canonical name) and a host program that exists in repl-workers/. */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "repl-workers/repl_langs.h"
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

int main(void) {
    RUN(rows_name_registry_languages_and_existing_hosts);
    RUN(aliases_and_unknown_languages_have_no_row);
    return check_summary("repl_langs");
}
