/* Which execution provider serves a call (TOOLS.md 10.1, as amended by
 * issue 11.13: only `local` exists). One answer for execute_code in the
 * exec worker and for run_submit in the supervisor, which refuses before a
 * run exists. */
#ifndef CC_PROVIDER_SELECT_H
#define CC_PROVIDER_SELECT_H

#include <jansson.h>

/* requested: the call's `provider` (NULL: CODECALC_EXECUTION_PROVIDER, else
 * local). NULL when local serves it; else the rejected result (validation,
 * provider_error unknown_provider, available_providers), owned by the
 * caller. */
json_t *cc_provider_reject(const char *requested);

#endif
