/* The refusal of a language name the registry does not know, shared by every
 * tool that takes a language: the exec worker's tools and the supervisor's
 * (session_start, run_submit, the verify tools), which links this file and
 * the registry (workers/exec/languages.c) for it. */
#ifndef CC_LANG_REFUSAL_H
#define CC_LANG_REFUSAL_H

#include <jansson.h>

/* {ok:false, code:"validation", error, available_languages, not_installed}:
 * "unknown language 'x'. Available: <installed here, or none>" and, when some known
 * language's runtime is absent, ". Not installed here: <those>". The lists
 * are resolved on the runtime PATH at the time of the call, as
 * list_languages resolves them. New reference. */
json_t *cc_unknown_language(const char *spelled);

#endif
