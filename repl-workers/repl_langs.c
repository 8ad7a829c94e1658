#include "repl-workers/repl_langs.h"

#include <stddef.h>
#include <string.h>

static const struct cc_repl_lang rows[] = {
    {.lang = "python3", .interp = "python3", .script = "python_host.py", .eval_flag = "-uc"},
    {.lang = "node", .interp = "node", .script = "node_host.js", .eval_flag = "-e", .channel_on_fd3 = true},
};

const struct cc_repl_lang *cc_repl_lang_find(const char *lang) {
    for (size_t i = 0; lang && i < sizeof rows / sizeof rows[0]; i++)
        if (!strcmp(rows[i].lang, lang)) return &rows[i];
    return NULL;
}

const struct cc_repl_lang *cc_repl_lang_at(size_t i) { return i < sizeof rows / sizeof rows[0] ? &rows[i] : NULL; }
