/* The languages whose sessions are stateful (a REPL host keeps variables
 * between calls), as data: the supervisor decides statefulness and picks
 * the host program from it, the launcher picks the interpreter and how the
 * channel reaches it. Adding a REPL language is one row here plus its host
 * program in repl-workers/. */
#ifndef CC_REPL_LANGS_H
#define CC_REPL_LANGS_H

#include <stdbool.h>
#include <stddef.h>

struct cc_repl_lang {
    const char *lang;       /* canonical language name (workers/exec/languages.c) */
    const char *interp;     /* interpreter, resolved on the runtime PATH */
    const char *script;     /* host program in repl-workers/ */
    const char *eval_flag;  /* how the interpreter takes a program as text */
    /* true: the interpreter cannot keep the channel on fd 0, a /bin/sh
     * trampoline moves it to fd 3 first (node: libuv owns fd 0). */
    bool channel_on_fd3;
};

/* The row of a canonical language, or NULL: that language's sessions are
 * workspace sessions (no REPL). */
const struct cc_repl_lang *cc_repl_lang_find(const char *lang);
/* Every row, in table order: the i-th, or NULL past the end (doctor lists
 * the host programs from it). */
const struct cc_repl_lang *cc_repl_lang_at(size_t i);

#endif
