/* doctor's workers.repl (supervisor/cli/doctor_workers.c) lists the host
 * program of every REPL language from the REPL table
 * (repl-workers/repl_langs.c): it used to name python_host.py and
 * node_host.js itself, so a language added to the table went unreported. */
#include <jansson.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "repl-workers/repl_langs.h"
#include "supervisor/cli/doctor.h"
#include "tests/unit/check.h"
#include "tests/unit/knob_env.h"

static void touch(const char *dir, const char *name) {
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    if (f) fclose(f);
}

static void doctor_names_repl_hosts_from_the_table_not_by_hand(void) {
    char dir[] = "/tmp/codecalc-doctor-repl-XXXXXX";
    CHECK(mkdtemp(dir) != NULL);
    knob_setenv("CODECALC_REPL_DIR", NULL);
    const struct cc_repl_lang *l;
    size_t rows = 0;
    for (; (l = cc_repl_lang_at(rows)); rows++) touch(dir, l->script);
    CHECK(rows >= 2);
    /* One host is missing: reported as such, not skipped. */
    const struct cc_repl_lang *gone = cc_repl_lang_at(rows - 1);
    char gone_path[PATH_MAX];
    snprintf(gone_path, sizeof gone_path, "%s/%s", dir, gone->script);
    unlink(gone_path);

    json_t *repl = cc_doc_repl(dir);
    json_t *hosts = json_object_get(repl, "hosts");
    CHECK_INTEQ(json_object_size(hosts), rows);
    for (size_t i = 0; (l = cc_repl_lang_at(i)); i++) {
        json_t *h = json_object_get(hosts, l->lang);
        CHECK_STREQ(json_string_value(json_object_get(h, "program")), l->script);
        char want[PATH_MAX * 2];
        snprintf(want, sizeof want, "%s/%s", dir, l->script);
        if (l == gone) CHECK(json_is_null(json_object_get(h, "path")));
        else CHECK_STREQ(json_string_value(json_object_get(h, "path")), want);
    }
    json_decref(repl);
    for (size_t i = 0; (l = cc_repl_lang_at(i)); i++) {
        char p[PATH_MAX];
        snprintf(p, sizeof p, "%s/%s", dir, l->script);
        unlink(p);
    }
    rmdir(dir);
}

int main(void) {
    RUN(doctor_names_repl_hosts_from_the_table_not_by_hand);
    return check_summary("doctor_repl");
}
