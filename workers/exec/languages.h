/* The language registry (TOOLS.md section 7): names, aliases, source
 * extension, compile/run templates and how this host resolves each runtime.
 *
 * A language has one or more plans. The first plan is the spec's; later plans
 * are this platform's alternatives (docs/languages.md), tried in order when
 * the earlier plan's deciding command does not resolve. All tables are
 * static; nothing here allocates except where a function says so.
 */
#ifndef CC_LANGUAGES_H
#define CC_LANGUAGES_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

#include "workers/common/runtime_path.h"

#define CC_LANG_MAX_PLANS 4

struct cc_lang_plan {
    const char *compile;   /* template text, NULL when interpreted */
    const char *run;       /* template text */
    const char *artifact;  /* what compile produces ("{exe}"), cacheable; NULL = none */
    const char *decide;    /* deciding command when not derived from the templates */
    const char *extra_tool;/* a second command that must also resolve, or NULL */
    /* A session entry run in place (execute.h: entry) whose language builds
     * a directory, not a file: go's other files of package main, java's
     * other classes. NULL: compile and run as above. */
    const char *in_place_compile;
    const char *in_place_run;
    /* The plan for a program run on many inputs (the verification tools'
     * programs, cc_exec_req.repeated), when it differs: java's source
     * launcher compiles the file in memory on every run (about 2 s of CPU
     * each), so a port run on 35 inputs spent most of a call in javac.
     * NULL: this plan. */
    const struct cc_lang_plan *repeated;
};

struct cc_lang {
    const char *name;
    const char *aliases[6];   /* NULL-terminated */
    const char *ext;
    const char *tier;         /* "tested" | "best_effort" */
    struct cc_lang_plan plans[CC_LANG_MAX_PLANS]; /* terminated by run == NULL */
};

/* Number of registry entries (32) and the i-th, sorted by name. */
size_t cc_lang_count(void);
const struct cc_lang *cc_lang_at(size_t i);

/* Name or alias, case-insensitive, surrounding whitespace ignored. NULL when
 * unknown. */
const struct cc_lang *cc_lang_find(const char *spelled);

/* The command that decides availability of plan (3.1.1). Static storage of
 * the template, written into buf (at least 64 bytes). */
const char *cc_plan_deciding(const struct cc_lang_plan *p, char *buf, size_t bufsz);

/* The plan this host would use: the first whose deciding command (and extra
 * tool) resolves on path; else the first plan. *installed says which. */
const struct cc_lang_plan *cc_lang_plan_for(const struct cc_lang *l, const char *path,
                                            bool *installed);
/* The same, and *deciding_abs = the deciding command as resolved (malloc'd;
 * NULL when the plan is not installed), so a run resolves it once. */
const struct cc_lang_plan *cc_lang_plan_resolve(const struct cc_lang *l, const char *path,
                                                bool *installed, char **deciding_abs);

/* Split a template into argv words by POSIX shell quoting (no expansion).
 * Returns a malloc'd NULL-terminated vector of malloc'd words (free with
 * cc_argv_free), or NULL on unbalanced quotes / allocation failure. */
char **cc_split_words(const char *tmpl);
void cc_argv_free(char **argv);

/* Split then substitute {file}, {exe}, {work} in each word (never re-split).
 * Same ownership as cc_split_words. */
char **cc_plan_argv(const char *tmpl, const char *file, const char *exe, const char *work);

/* Why no package source this platform reaches (Debian, npm) provides l's
 * runtime; NULL when scripts/install-runtimes installs it. */
const char *cc_lang_nowhere(const struct cc_lang *l);

/* Why l is not available on this host (a sentence), for a language whose
 * plans do not resolve. Static storage or buf. */
const char *cc_lang_unavailable_reason(const struct cc_lang *l, char *buf, size_t bufsz);

/* list_languages: the sorted array of 3.1.1, with `reason` on each entry
 * that is not available. New reference. */
json_t *cc_list_languages_json(void);

#endif
