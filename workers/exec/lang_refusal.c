/* The unknown-language refusal (lang_refusal.h). Only what can run here is
 * offered as "Available": naming a language whose runtime is absent would
 * send the caller to a second, certain failure (issue 11/16 audit). */
#include "workers/exec/lang_refusal.h"

#include <stdbool.h>

#include "protocol/strbuf.h"
#include "workers/common/runtime_path.h"
#include "workers/common/tool_api.h"
#include "workers/exec/languages.h"

static void add_name(struct cc_strbuf *csv, json_t *names, const char *name) {
    cc_sb_printf(csv, "%s%s", json_array_size(names) ? ", " : "", name);
    json_array_append_new(names, json_string(name));
}

json_t *cc_unknown_language(const char *spelled) {
    const char *path = cc_runtime_path();
    struct cc_strbuf here, absent;
    cc_sb_init(&here);
    cc_sb_init(&absent);
    json_t *installed = json_array(), *missing = json_array();
    for (size_t i = 0; i < cc_lang_count(); i++) {
        const struct cc_lang *l = cc_lang_at(i);
        bool ok;
        cc_lang_plan_for(l, path, &ok);
        if (ok) add_name(&here, installed, l->name);
        else add_name(&absent, missing, l->name);
    }
    const char *avail = json_array_size(installed) ? here.data : "none";
    json_t *e = json_array_size(missing)
        ? cc_err("validation", "unknown language '%.64s'. Available: %s. Not installed here: %s",
                 spelled ? spelled : "", avail, absent.data)
        : cc_err("validation", "unknown language '%.64s'. Available: %s", spelled ? spelled : "", avail);
    cc_sb_free(&here);
    cc_sb_free(&absent);
    json_object_set_new(e, "available_languages", installed);
    json_object_set_new(e, "not_installed", missing);
    return e;
}
